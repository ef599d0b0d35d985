"""The report on a run of any corpus: the default gold set applies only to passages it labels, a run it
does not cover gets the gold-free report and one line saying how to make a gold set, an explicit gold file
of other passages is one error, the gold-free figures are right, and the page names no absolute path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from labelers.report.build import write_report
from pipeline.commands.app import app
from pipeline.core.errors import UserError
from test_report_build import GOLD, make_run, pair, write_gold

OTHER_CORPUS = {"type": "pair", "doc_id": "65579d20d9bc35b9", "ent_start": 0, "ent_end": 2, "attr_start": 5,
                "attr_end": 9, "label": "BOUND"}


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


def default_gold(monkeypatch, tmp_path: Path, records: list[dict]) -> Path:
    """Stand-in for data/gold/: a pairs.jsonl of the given records."""
    folder = tmp_path / "project_gold"
    folder.mkdir()
    write_gold(folder / "pairs.jsonl", records)
    monkeypatch.setattr("labelers.report.build.PROJECT_GOLD", folder)
    return folder


def test_default_gold_of_another_corpus_gives_the_gold_free_report(run_dir, monkeypatch, tmp_path):
    default_gold(monkeypatch, tmp_path, [OTHER_CORPUS])
    figures = write_report(run_dir)
    assert figures["gold_sets"] == {} and figures["gold"]["files"] == [] and figures["gold"]["needs_gold"]
    assert figures["gold"]["note"].startswith("precision, recall and calibration need a gold set")
    assert "regscaffold gold sample run --n 60" in figures["gold"]["note"]
    page = (run_dir / "report.html").read_text()
    for section in ("lfs", "agreement", "contested", "registers", "register-view"):
        assert f'<section id="{section}">' in page
    assert "need a gold set of this corpus" in page


def test_default_gold_applies_to_the_run_passages_it_labels(run_dir, monkeypatch, tmp_path):
    default_gold(monkeypatch, tmp_path, [pair("d1", "Emma", "handsome", "BOUND"), OTHER_CORPUS])
    figures = write_report(run_dir)
    assert figures["gold_sets"]["pairs"]["rows"] == 1 and figures["gold"]["pairs"] == 1
    assert "labels 1 passage(s) this run does not have" in figures["gold"]["note"]


def test_explicit_gold_of_other_passages_is_one_error(run_dir, tmp_path):
    gold = write_gold(tmp_path / "mine.jsonl", GOLD + [OTHER_CORPUS])
    with pytest.raises(UserError, match=r"mine.jsonl: 1 of the 3 passages it labels are not passages of this "
                                        r"run's docs.parquet \(65579d20d9bc35b9\)"):
        write_report(run_dir, gold)


def test_gold_free_figures(run_dir, monkeypatch, tmp_path):
    default_gold(monkeypatch, tmp_path, [OTHER_CORPUS])
    figures = write_report(run_dir)
    # accepted (p_lm >= .5): rows 0, 1, 4. lf_neg votes NOT_BOUND on rows 1, 2, 3, 5, 6: wrong only on row 1
    agree = {lf["lf"]: lf["agree_lm"] for lf in figures["lfs"]}
    assert agree == {"lf_pos": 1.0, "lf_neg": pytest.approx(0.8), "lf_both": pytest.approx(0.8)}
    matrix = figures["agreement"]["agreement"]
    # lf_pos/lf_neg share row 1 (B vs N); lf_pos/lf_both rows 0, 4 (agree); lf_neg/lf_both rows 2, 3, 5
    assert (matrix[0][1], matrix[0][2], matrix[1][2]) == (0.0, 1.0, pytest.approx(2 / 3))
    assert figures["agreement"]["co_voted"][1][2] == 3
    p_bound = figures["agreement"]["p_bound"]
    # p_lm .1 .2 .3 .4 .6 .8 .9 as stored (float32): 0.9 is 0.89999998, so it falls in [0.8, 0.9)
    assert p_bound["label_model"] == [0, 1, 1, 1, 1, 0, 1, 0, 2, 0]
    assert p_bound["majority_vote"] == [3, 0, 0, 0, 0, 2, 0, 0, 0, 2]
    contested = figures["agreement"]["contested"]
    assert contested["candidates"] == 2 and {i["cand_id"] for i in contested["items"]} == {"d1:1", "d2:3"}
    assert contested["items"][0]["votes"] in ({"lf_pos": 1, "lf_neg": 0}, {"lf_neg": 0, "lf_both": 1})


def test_report_names_no_absolute_path(run_dir, tmp_path):
    other = make_run(tmp_path / "other", p_lm_override={1: 0.3})
    figures = write_report(run_dir, write_gold(tmp_path / "gold.jsonl", GOLD), other)
    assert figures["run_dir"] == "run" and figures["gold"]["files"] == ["../gold.jsonl"]
    assert figures["compare"]["other_run"] == "../other"
    assert figures["gold"]["unmatched"][0]["source"] == "../gold.jsonl:5"
    for name in ("report.json", "report.html"):
        assert str(tmp_path) not in (run_dir / name).read_text(), name


def test_project_files_are_shown_relative_to_the_project():
    from labelers.report.build import PROJECT_GOLD, shown_path

    assert shown_path(PROJECT_GOLD / "pairs.jsonl", Path("/elsewhere/run")) == "data/gold/pairs.jsonl"


def test_cli_prints_one_gold_line_with_the_run_folder_as_typed(run_dir, monkeypatch, tmp_path):
    default_gold(monkeypatch, tmp_path, [OTHER_CORPUS])
    result = CliRunner().invoke(app, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "gold set" in line]
    assert len(lines) == 1 and f"regscaffold gold sample {run_dir} --n 60" in lines[0]
    assert "candidates have both BOUND and NOT_BOUND votes" in result.output
    assert json.loads((run_dir / "report.json").read_text())["gold"]["needs_gold"]
