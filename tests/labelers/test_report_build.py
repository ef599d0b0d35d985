"""The report end to end on a tiny synthetic run folder whose expected figures are worked out by hand.

``make_run`` is also used by tests/browser (loaded by path): it writes every file the report reads.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from labelers.report.build import write_report
from pipeline.commands.app import app
from pipeline.commands.report_cmd import report  # noqa: F401  (registers 'report' on app)
from pipeline.core.errors import UserError
from pipeline.core.io import write_json, write_parquet

TEXTS = {"d1": "Emma was handsome. The room was not large.",
         "d2": "Harriet seemed happy and the day was cold.",
         "d3": "It was clever of him."}
SPLITS = {"d1": "valid", "d2": "valid", "d3": "train"}
LFS = ["lf_pos", "lf_neg", "lf_both"]
# doc, entity word, attribute word, votes (lf_pos, lf_neg, lf_both), p_lm, p_mv
CANDS = [("d1", "Emma", "handsome", (1, -1, 1), .9, 1.0),
         ("d1", "room", "large", (1, 0, -1), .6, .5),
         ("d1", "Emma", "large", (-1, 0, 0), .1, 0.0),
         ("d2", "Harriet", "happy", (-1, 0, 1), .4, .5),
         ("d2", "day", "cold", (1, -1, 1), .8, 1.0),
         ("d2", "Harriet", "cold", (-1, 0, 0), .2, 0.0),
         ("d3", "It", "clever", (-1, 0, -1), .3, 0.0)]
P_END = [.8, .3, .2, .7, .9, .1, .2]
"""The end model's P(BOUND) per candidate: right on every matched gold pair."""
VOCAB = ["NOTHING", "OTHER", "handsome", "cold"]
# (doc, token index, slot, label, conf): the label holds from that token to the end of the passage
REGISTER_EVENTS = [("d1", 2, 0, 2, .9), ("d2", 7, 0, 3, .8)]


def span(doc: str, word: str) -> tuple[int, int]:
    start = TEXTS[doc].index(word)
    return start, start + len(word)


def meta(kind: str, **extra) -> dict:
    return {"kind": kind, "schema_version": 1, **extra}


def candidate_frame() -> pd.DataFrame:
    rows = []
    for n, (doc, ent, attr, _, _, _) in enumerate(CANDS):
        (es, ee), (as_, ae) = span(doc, ent), span(doc, attr)
        sent_text = next(s for s in re.findall(r"[^.]+\.", TEXTS[doc]) if attr in s).strip()
        rows.append({"cand_id": f"{doc}:{n}", "doc_id": doc, "sent": 0, "ent_i": n, "attr_i": n + 1,
                     "ent_start": es, "ent_end": ee, "attr_start": as_, "attr_end": ae, "ent_id": n,
                     "antecedent_i": -1, "split": SPLITS[doc], "ent_text": ent, "attr_text": attr,
                     "attr_lemma": attr, "sent_text": sent_text})
    return pd.DataFrame(rows)


def register_frame() -> pd.DataFrame:
    rows = []
    for doc, text in TEXTS.items():
        tokens = list(re.finditer(r"\S+", text))
        labels, conf = np.zeros((len(tokens), 2), np.int16), np.ones((len(tokens), 2), np.float32)
        for event_doc, i, slot, label, c in REGISTER_EVENTS:
            if event_doc == doc:
                labels[i:, slot], conf[i:, slot] = label, c
        rows += [{"doc_id": doc, "i": i, "start": m.start(), "end": m.end(), "labels": labels[i].tolist(),
                  "conf": conf[i].tolist()} for i, m in enumerate(tokens)]
    return pd.DataFrame(rows)


def make_run(run_dir: Path, p_lm_override: dict[int, float] | None = None) -> Path:
    """A complete synthetic run folder; ``p_lm_override`` changes some candidates' P(BOUND) (for --compare)."""
    p_lm = [c[4] for c in CANDS]
    for n, p in (p_lm_override or {}).items():
        p_lm[n] = p
    cands = candidate_frame()
    docs = pd.DataFrame({"doc_id": list(TEXTS), "source_id": list(TEXTS), "split": [SPLITS[d] for d in TEXTS],
                         "text": list(TEXTS.values())})
    votes = pd.DataFrame(np.array([c[3] for c in CANDS], np.int8), columns=LFS)
    votes.insert(0, "split", cands["split"])
    votes.insert(0, "cand_id", cands["cand_id"])
    bindings = pd.DataFrame({"cand_id": cands["cand_id"], "p_lm": np.array(p_lm, np.float32),
                             "p_mv": np.array([c[5] for c in CANDS], np.float32)})
    bindings["accepted"] = bindings["p_lm"] >= 0.5
    write_parquet(docs, run_dir / "docs.parquet", meta("docs"))
    write_parquet(cands, run_dir / "candidates.parquet", meta("candidates"))
    write_parquet(votes, run_dir / "votes.parquet", meta("votes", lfs=LFS))
    write_parquet(bindings, run_dir / "bindings.parquet", meta("bindings", method="label_model", threshold=0.5))
    write_parquet(register_frame(), run_dir / "registers.parquet", meta("registers", slots=2, vocab=VOCAB))
    options = pd.DataFrame({"cand_id": cands["cand_id"], "majority": bindings["p_mv"], "label_model": bindings["p_lm"]})
    write_parquet(options, run_dir / "aggregators.parquet", meta("aggregators", options=["majority", "label_model"]))
    end = pd.DataFrame({"cand_id": cands["cand_id"], "p_bound": np.array(P_END, np.float32)})
    end["accepted"] = end["p_bound"] > 0.5
    write_parquet(end, run_dir / "endmodel.parquet", meta("endmodel", source="endmodel", threshold=0.5))
    estimates = {"lf_pos": .8, "lf_neg": .7, "lf_both": .9}
    write_json(run_dir / "aggregate.json", {"method": "label_model", "lf_accuracy_estimates": estimates,
                                            "options": {"majority": {"fitted": True, "lf_accuracy_estimates": {}},
                                                        "label_model": {"fitted": True, "class_balance_bound": 0.4,
                                                                        "lf_accuracy_estimates": estimates}}})
    return run_dir


def pair(doc: str, ent: str, attr: str, label: str) -> dict:
    (es, ee), (as_, ae) = span(doc, ent), span(doc, attr)
    return {"type": "pair", "doc_id": doc, "ent_start": es, "ent_end": ee, "attr_start": as_, "attr_end": ae,
            "label": label, "ent_text": ent, "attr_text": attr}


def binding(doc: str, ent: str, attr: str, negated: bool = False) -> dict:
    record = pair(doc, ent, attr, "BOUND")
    return {k: record[k] for k in ("ent_start", "ent_end", "attr_start", "attr_end")} | {"negated": negated}


GOLD = [pair("d1", "Emma", "handsome", "BOUND"), pair("d1", "room", "large", "NOT_BOUND"),
        pair("d1", "Emma", "large", "NOT_BOUND"), pair("d2", "Harriet", "happy", "BOUND"),
        pair("d1", "room", "handsome", "NOT_BOUND"),  # no such candidate: a candidate-generation miss
        {"type": "passage", "doc_id": "d2", "bindings": [
            binding("d2", "Harriet", "happy"), binding("d2", "day", "cold"),
            binding("d2", "day", "happy"),  # no such candidate: a missed binding
            binding("d2", "Harriet", "cold", negated=True)]}]


def write_gold(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


@pytest.fixture
def gold_file(tmp_path: Path) -> Path:
    return write_gold(tmp_path / "gold.jsonl", GOLD)


def test_figures_against_gold_pairs_and_passages(run_dir: Path, gold_file: Path):
    figures = write_report(run_dir, gold_file, None)
    assert figures["gold"]["pairs_unmatched"] == 1 and figures["gold"]["unmatched"][0]["label"] == "NOT_BOUND"
    assert figures["gold"]["passage_bindings_no_candidate"] == 1  # day-happy; the negated Harriet-cold is no binding
    assert {k: figures["gold_sets"]["passages"][k] for k in ("gold_bound", "bound_no_candidate")} == {
        "gold_bound": 3, "bound_no_candidate": 1}
    assert [(b["ent_start"], b["attr_start"]) for b in figures["gold"]["bindings_no_candidate"]] == [
        (binding("d2", "day", "happy")["ent_start"], binding("d2", "day", "happy")["attr_start"])]
    pairs = figures["gold_sets"]["pairs"]["aggregation"]
    # matched pairs y = [1, 0, 0, 1]; LabelModel accepts [1, 1, 0, 0]; majority (p_mv > .5) [1, 0, 0, 0]
    assert (pairs["label_model"]["precision"], pairs["label_model"]["recall"]) == (0.5, 0.5)
    assert pairs["majority_vote"]["precision"] == 1.0 and pairs["majority_vote"]["f1"] == pytest.approx(2 / 3)
    # lf_both votes BOUND on rows 0 and 3: both BOUND in gold
    assert pairs["best_lf"]["lf"] == "lf_both" and pairs["best_lf"]["f1"] == 1.0
    # passage d2: gold bindings Harriet-happy, day-cold, day-happy (no candidate); accepted: day-cold only
    passages = figures["gold_sets"]["passages"]["aggregation"]["label_model"]
    assert (passages["precision"], passages["recall"], passages["fn"]) == (1.0, pytest.approx(1 / 3), 2)
    lf_neg = next(lf for lf in figures["lfs"] if lf["lf"] == "lf_neg")
    # votes NOT_BOUND on gold rows 1, 2, 3: right on 1 and 2; recall over NOT_BOUND gold (rows 1, 2): 2/2
    assert lf_neg["polarity"] == [0] and lf_neg["precision"] == pytest.approx(2 / 3) and lf_neg["recall"] == 1.0
    assert lf_neg["weight"] == 0.7
    assert figures["registers"]["token_fraction_any_slot"] == pytest.approx(7 / 21)  # d1 tokens 2-7, d2 token 7
    assert figures["registers"]["labels_per_passage"]["counts"] == [1, 1, 0]
    by_lf = figures["errors"]["by_lf"]
    assert list(by_lf["FP"]) == ["lf_pos"]  # room-large: accepted, gold NOT_BOUND
    assert set(by_lf["FN"]) == {"lf_neg", "(not a candidate)"}
    assert json.loads((run_dir / "report.json").read_text()) == json.loads(json.dumps(figures))


def test_every_option_and_the_end_model_against_majority_vote(run_dir: Path, gold_file: Path):
    figures = write_report(run_dir, gold_file, None)
    rows = {r["method"]: r for r in figures["gold_sets"]["pairs"]["options"]}
    assert list(rows) == ["majority", "label_model", "endmodel"] and figures["labels_from"] == "endmodel"
    # matched pairs y = [1, 0, 0, 1]: majority accepts [1, 0, 0, 0], label_model [1, 1, 0, 0], endmodel [1, 0, 0, 1]
    assert rows["majority"]["f1"] == pytest.approx(2 / 3) and rows["label_model"]["chosen"]
    assert rows["label_model"]["f1_minus_majority"] == pytest.approx(0.5 - 2 / 3)
    assert rows["endmodel"]["f1_minus_majority"] == pytest.approx(1 / 3)
    assert rows["endmodel"]["brier"] == pytest.approx((.2 ** 2 + .3 ** 2 + .2 ** 2 + .3 ** 2) / 4)
    for r in rows.values():
        lo, hi = r["f1_minus_majority_ci"]
        assert lo <= r["f1_minus_majority"] + 1e-9 and r["f1_minus_majority"] - 1e-9 <= hi
    diagnosis = figures["diagnosis"]
    assert diagnosis["train_rows"] == 1 and diagnosis["class_balance"] == {"majority_vote_bound_share": 0.0,
                                                                          "label_model": 0.4}
    assert diagnosis["votes"] == {"no_vote": 0.0, "not_bound_only": 1.0, "bound_only": 0.0, "both": 0.0}
    page = (run_dir / "report.html").read_text()
    assert '<section id="options">' in page and '<section id="diagnosis">' in page and "endmodel" in page


def test_a_run_folder_from_before_the_options_still_gets_its_report(run_dir: Path, gold_file: Path):
    (run_dir / "aggregators.parquet").unlink()
    (run_dir / "endmodel.parquet").unlink()
    figures = write_report(run_dir, gold_file, None)
    assert figures["gold_sets"]["pairs"]["options"] == [] and figures["labels_from"] is None
    assert "predates it" in (run_dir / "report.html").read_text()


def test_page_is_self_contained(run_dir: Path, gold_file: Path):
    write_report(run_dir, gold_file, None)
    page = (run_dir / "report.html").read_text()
    assert "http" not in page and "<script" not in page and "<link" not in page
    assert set(re.findall(r'src="([a-z]+):', page)) == {"data"}
    assert 'The <mark class="ent">room</mark> was not <mark class="attr">large</mark>.' in page
    for section in ("gold", "lfs", "aggregation", "options", "diagnosis", "calibration", "registers", "errors",
                    "register-view"):
        assert f'<section id="{section}">' in page


def test_without_gold_the_report_has_a_note(run_dir: Path, monkeypatch, tmp_path: Path):
    monkeypatch.setattr("labelers.report.build.PROJECT_GOLD", tmp_path / "absent")
    figures = write_report(run_dir, None, None)
    assert figures["gold_sets"] == {} and "no gold set" in figures["gold"]["note"]
    assert "no gold set" in (run_dir / "report.html").read_text()


def test_missing_explicit_gold_or_run_files_are_user_errors(run_dir: Path, tmp_path: Path):
    with pytest.raises(UserError, match="missing.jsonl does not exist"):
        write_report(run_dir, tmp_path / "missing.jsonl", None)
    (run_dir / "registers.parquet").unlink()
    with pytest.raises(UserError, match=r"registers.parquet \(stage registers\)"):
        write_report(run_dir, None, None)


def test_compare_reports_changed_figures_and_flips(run_dir: Path, gold_file: Path, tmp_path: Path):
    other = make_run(tmp_path / "other", p_lm_override={1: 0.3})  # room-large was not accepted there
    figures = write_report(run_dir, gold_file, other)
    flips = figures["compare"]["flips"]
    assert (flips["flipped"], flips["to_bound"], flips["items"][0]["cand_id"]) == (1, 1, "d1:1")
    changes = {row["figure"]: row for row in figures["compare"]["figures"]}
    precision = changes["gold_sets.pairs.aggregation.label_model.precision"]
    assert (precision["other"], precision["this"], precision["delta"]) == (1.0, 0.5, -0.5)
    assert not changes["lfs.lf_pos.coverage"]["changed"]
    assert 'id="compare"' in (run_dir / "report.html").read_text()


def test_cli_prints_the_table(run_dir: Path, gold_file: Path):
    result = CliRunner().invoke(app, ["report", str(run_dir), "--gold", str(gold_file)])
    assert result.exit_code == 0, result.output
    assert "LabelModel" in result.output and "report.html" in result.output
    assert "aggregator options vs majority vote, gold pairs" in result.output
    assert "label_model*" in result.output and "[+0.000,+0.000]" in result.output


def test_split_filter_keeps_the_gold_of_one_split(run_dir: Path, gold_file: Path):
    every = write_report(run_dir, gold_file, None)["gold_sets"]  # all gold passages here are valid ones
    assert write_report(run_dir, gold_file, None, "valid")["gold_sets"] == every
    on_test = write_report(run_dir, gold_file, None, "test")
    assert on_test["gold_sets"] == {} and on_test["gold"]["split"] == "test"
    assert "test</b> split" in (run_dir / "report.html").read_text()
    with pytest.raises(UserError, match="'dev' is not one of all, valid, test"):
        write_report(run_dir, gold_file, None, "dev")
