"""The stage runner on the tiny fixture corpus: cache skip, rerun on change, resume, clear errors, CLI."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.commands.app import app
from pipeline.commands.pipeline_config import PipelineConfig
from pipeline.commands.runner import run_pipeline
from pipeline.commands.stages import STAGE_NAMES
from pipeline.core.config_loader import load_config, parse_overrides
from pipeline.core.errors import UserError
from pipeline.core.io import read_metadata

FAST = ["--aggregate.epochs=50", "--train.optim.steps=2", "--train.model.n_layer=1", "--train.model.n_head=2",
        "--train.model.d_model=16", "--train.model.block_size=32", "--train.data.readout_tokens=8", "--train.data.bpe_vocab_size=512",
        "--train.optim.batch_size=2", "--train.optim.warmup_steps=0"]


def config_for(corpus: Path, *extra: str) -> PipelineConfig:
    return load_config(PipelineConfig, None, {"ingest.corpus": str(corpus)} | parse_overrides([*FAST, *extra]))


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> tuple[Path, dict]:
    run_dir = tmp_path_factory.mktemp("run")
    corpus = Path(__file__).parents[1] / "fixtures" / "tiny"
    return run_dir, run_pipeline(run_dir, config_for(corpus, "--report.gold=" + json.dumps(str(tiny_gold(run_dir)))))


def tiny_gold(run_dir: Path) -> Path:
    """An empty gold file: the report stage runs without the bundled gold (which is for the Austen corpus)."""
    path = run_dir.parent / f"{run_dir.name}-gold.jsonl"
    path.write_text("")
    return path


def test_full_run_writes_every_file(finished_run):
    run_dir, report = finished_run
    assert [s for s in report["stages"]] == list(STAGE_NAMES)
    for name in ("docs.parquet", "tokens.parquet", "candidates.parquet", "votes.parquet", "bindings.parquet",
                 "registers.parquet", "config.toml", "run.lock", "run.json", "report.html", "report.json",
                 "label_model.pt", "aggregators.parquet", "endmodel.parquet", "endmodel.pt", "ingest_report.json",
                 "splits.json", "model/ckpt.pt", "probe.json"):
        assert (run_dir / name).exists(), name
    assert not list(run_dir.glob(".*.tmp")), "no temporary file may be left behind"
    meta = read_metadata(run_dir / "registers.parquet")
    assert meta["kind"] == "registers" and meta["schema_version"] == 1 and meta["slots"] == 4
    assert meta["vocab"][:2] == ["NOTHING", "OTHER"]
    registers = pq.read_table(run_dir / "registers.parquet")
    assert registers.num_rows == pq.read_table(run_dir / "tokens.parquet").num_rows
    assert set(len(x) for x in registers.column("labels").to_pylist()) == {4}
    # a corpus this small cannot fit the LabelModel: majority vote, with the warning recorded
    assert read_metadata(run_dir / "bindings.parquet")["method"] == "majority_fallback"
    assert any("majority vote used" in w for w in report["warnings"])
    # nor the end model: the registers take the aggregate's labels, with the warning recorded
    labels = pd.read_parquet(run_dir / "endmodel.parquet")
    assert read_metadata(run_dir / "endmodel.parquet")["source"] == "aggregate"
    assert labels["p_bound"].equals(pd.read_parquet(run_dir / "bindings.parquet")["p_lm"].rename("p_bound"))
    assert any("end model not trained, the aggregate's labels are used" in w for w in report["warnings"])
    assert any("ingest skipped 5" in w for w in report["warnings"])
    # not the bundled corpus: the probe set is built from the run's test split, too small to score
    probes = json.loads((run_dir / "probe.json").read_text())
    assert set(probes) == {"probes_test"} and probes["probes_test"]["built"] and "skipped" in probes["probes_test"]
    assert report["stages"]["train"]["summary"]["steps"] == 2


def test_fallback_run_accepts_only_strict_majorities(finished_run):
    run_dir, _ = finished_run
    bindings = pd.read_parquet(run_dir / "bindings.parquet")
    assert (bindings["p_mv"] == 0.5).any(), "the tiny corpus has ties or rows without votes"
    assert bindings["accepted"].tolist() == (bindings["p_mv"] > 0.5).tolist()


def test_probe_cli_accepts_the_run_checkpoint(finished_run, tmp_path):
    import pipeline.commands.cli  # noqa: F401  (registers the commands)

    run_dir, _ = finished_run
    out = tmp_path / "probe.json"
    gold = Path(__file__).parents[2] / "data/probes/gold_test.jsonl"
    result = CliRunner().invoke(app, ["probe", "--checkpoint", str(run_dir / "model" / "ckpt.pt"),
                                      "--probes", str(gold), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["n"] == len(gold.read_text().splitlines())


def test_rerun_skips_everything_and_is_byte_identical(finished_run):
    run_dir, first = finished_run
    before = {p.name: p.read_bytes() for p in run_dir.glob("*.parquet")}
    again = run_pipeline(run_dir, load_config(PipelineConfig, run_dir / "config.toml"))
    assert {s["status"] for s in again["stages"].values()} == {"cached"}
    assert {p.name: p.read_bytes() for p in run_dir.glob("*.parquet")} == before


def test_same_inputs_give_same_outputs(finished_run, tmp_path):
    run_dir, _ = finished_run
    other = tmp_path / "other"
    run_pipeline(other, load_config(PipelineConfig, run_dir / "config.toml"), until="registers")
    for name in ("docs.parquet", "tokens.parquet", "candidates.parquet", "votes.parquet", "bindings.parquet",
                 "aggregators.parquet", "endmodel.parquet", "registers.parquet"):
        assert pd.read_parquet(other / name).equals(pd.read_parquet(run_dir / name)), name


def test_config_change_reruns_only_affected_stages(finished_run, tmp_path):
    run_dir, _ = finished_run
    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    config = load_config(PipelineConfig, copy / "config.toml", {"registers.slots": 2})
    report = run_pipeline(copy, config, until="registers")
    status = {name: s["status"] for name, s in report["stages"].items()}
    assert status == {"ingest": "cached", "parse": "cached", "candidates": "cached", "label": "cached",
                      "aggregate": "cached", "endmodel": "cached", "registers": "ran"}
    assert read_metadata(copy / "registers.parquet")["slots"] == 2
    forced = run_pipeline(copy, config, until="candidates", force=True)
    assert {s["status"] for s in forced["stages"].values()} == {"ran"}


def test_killed_stage_resumes_and_leaves_no_complete_looking_file(tmp_path, tiny_corpus, monkeypatch):
    run_dir = tmp_path / "run"
    config = config_for(tiny_corpus)

    from labelers import extraction

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # stands for a kill in the middle of the candidates stage

    monkeypatch.setattr(extraction, "extract_candidates", killed)
    with pytest.raises(KeyboardInterrupt):
        run_pipeline(run_dir, config, until="registers")
    assert (run_dir / "tokens.parquet").exists() and not (run_dir / "candidates.parquet").exists()
    monkeypatch.undo()
    resumed = run_pipeline(run_dir, config, until="registers")
    status = {name: s["status"] for name, s in resumed["stages"].items()}
    assert status["ingest"] == status["parse"] == "cached" and status["candidates"] == "ran"


def test_parse_resumes_from_finished_shards(tmp_path, tiny_corpus, monkeypatch):
    from labelers import parsing

    run_dir = tmp_path / "run"
    config = config_for(tiny_corpus, "--parse.shard_docs=1")
    run_pipeline(run_dir, config, until="ingest")
    calls = {"n": 0}
    original = parsing.parse_frame

    def dies_on_third_shard(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(parsing, "parse_frame", dies_on_third_shard)
    with pytest.raises(KeyboardInterrupt):
        run_pipeline(run_dir, config, until="parse")
    assert len(list((run_dir / ".parts" / "parse").glob("*.parquet"))) == 2
    calls["n"] = 10  # no more failures; count only the shards parsed on resume
    run_pipeline(run_dir, config, until="parse")
    assert calls["n"] == 10 + 2  # the four passages: two shards reused, two parsed
    assert not (run_dir / ".parts").exists()


def test_missing_input_names_the_stage_to_run_first(tmp_path):
    with pytest.raises(UserError, match=r"run stage 'candidates' first"):
        run_pipeline(tmp_path, PipelineConfig(), only="label")
    with pytest.raises(UserError, match="unknown stage 'nope'"):
        run_pipeline(tmp_path, PipelineConfig(), until="nope")


def test_cli_runs_and_reports_errors_in_one_line(tmp_path, tiny_corpus):
    from pipeline.commands.cli import main

    runner = CliRunner()
    out = tmp_path / "cli"
    result = runner.invoke(app, ["run", "--corpus", str(tiny_corpus), "--out", str(out), "--until", "label",
                                 "-j", "1", *FAST])
    assert result.exit_code == 0, result.output
    assert "candidates" in result.output and (out / "votes.parquet").exists()
    assert "n_process = 1" in (out / "config.toml").read_text()

    import subprocess
    import sys

    bad = subprocess.run([sys.executable, "-c", "from pipeline.cli import main; main()", "run", "--out",
                          str(out), "--registers.slots=0"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("error:") and "registers.slots must be in [1, 64], got 0" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_cli_shows_a_bug_with_its_traceback_not_as_a_user_error(tmp_path, monkeypatch, capsys):
    import sys

    from pipeline.commands import cli, run_cmd

    def bug(*args, **kwargs):
        raise ValueError("an internal inconsistency")  # not a UserError: must not pass as bad input

    monkeypatch.setattr(run_cmd, "run_pipeline", bug)
    monkeypatch.setattr(sys, "argv", ["regscaffold", "run", "--out", str(tmp_path / "run")])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    err = capsys.readouterr().err
    assert exit_info.value.code == 1
    assert "Traceback" in err and "ValueError: an internal inconsistency" in err
    assert "this is a bug in regscaffold" in err and "error: an internal" not in err


HOLDER = """
import sys, time
from pathlib import Path
from pipeline.commands.lock import exclusive
with exclusive(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_second_run_on_the_same_folder_is_refused_until_the_first_dies(tmp_path, tiny_corpus):
    import signal
    import subprocess
    import sys

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(run_dir)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(UserError, match=rf"{run_dir} is in use by another regscaffold run \(pid {holder.pid}\)"):
            run_pipeline(run_dir, config_for(tiny_corpus), until="ingest")
        assert not (run_dir / "config.toml").exists()  # refused before writing anything
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    report = run_pipeline(run_dir, config_for(tiny_corpus), until="ingest")  # the kernel dropped the lock
    assert report["stages"]["ingest"]["status"] == "ran"


def test_a_train_stage_without_an_eval_split_heads_with_its_training_loss():
    from pipeline.commands.run_cmd import _headline
    assert _headline("train", {"summary": {"ce_loss": 6.54458, "eval_ce_loss": 5.1}}) == "eval_ce_loss = 5.1000"
    assert _headline("train", {"summary": {"ce_loss": 6.54458, "steps": 20}}) == "ce_loss = 6.5446"


def test_the_probe_headline_gives_the_binding_figures_beside_accuracy():
    from pipeline.commands.run_cmd import _probe_headline

    scored = {"accuracy": 0.527, "swap_accuracy": 0.012, "swap_random": 0.25, "margin": 0.0105,
              "margin_ci_low": 0.0021, "margin_ci_high": 0.0194}
    assert _probe_headline("generated_test", scored) == (
        "generated_test acc = 0.527, swap 0.012 (random 0.25), margin +0.0105 [+0.0021, +0.0194]")
    assert _probe_headline("old", {"accuracy": 0.5}) == "old acc = 0.500"  # a file without twins or pairs
    built = {"built": True, "n": 40, "pairs": 20, "skipped": "under 50 pairs"}
    assert _probe_headline("probes_test", built) == "probes_test (40 items, 20 pairs) not scored (too few pairs)"
