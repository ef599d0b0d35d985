"""The main job on a corpus the project has never seen, through the installed command as a user types it:
every stage (report, train and probe included), then `regscaffold report`, on a .txt, a .jsonl and a
.parquet corpus. The .txt run lowers aggregate.min_train_rows so the LabelModel (not the small-corpus
majority-vote fallback) is fitted end to end.

The corpus (tests/fixtures/own/harbor.txt) is fiction written for these tests, not Austen. Each command
runs in a fresh folder with the corpus given by a relative name, as a user would; split assignment hashes
the corpus name as given, so this also keeps the splits the same on every machine.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from labelers.gold_annotator import words
from labelers.report.gold import load_gold
from pipeline.commands.stages import STAGE_NAMES

HARBOR = Path(__file__).parents[1] / "fixtures" / "own" / "harbor.txt"
TINY_TRAIN = ["--train.steps=2", "--train.n_layer=1", "--train.n_head=2", "--train.d_model=16",
              "--train.block_size=32", "--train.data.readout_tokens=8", "--train.bpe_vocab_size=512", "--train.batch_size=2",
              "--train.warmup_steps=0", "--aggregate.epochs=50"]
SPLITS = ["--ingest.valid_fraction=0.2", "--ingest.test_fraction=0.2"]
LABEL_MODEL = ["--aggregate.min_train_rows=20"]


def regscaffold(cwd: Path, *args: str, typed: str | None = None) -> subprocess.CompletedProcess:
    """The console script the package installs, else the same entry point through this interpreter; typed:
    what the user types at its prompts."""
    script = Path(sys.executable).parent / "regscaffold"
    command = [str(script)] if script.exists() else [sys.executable, "-c", "from pipeline.cli import main; main()"]
    return subprocess.run(command + list(args), cwd=cwd, input=typed, capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "OMP_WAIT_POLICY": "PASSIVE", "COLUMNS": "200",
                               "REGSCAFFOLD_QUIET": "1", "PYTHONPATH": str(Path(__file__).parents[2])})


def chapters() -> list[str]:
    """The corpus's chapters without their headings: one document each in the .jsonl and .parquet corpora."""
    return [c.strip() for c in re.split(r"^CHAPTER [IVX]+$", HARBOR.read_text(), flags=re.M) if c.strip()]


def user_folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder


@pytest.fixture(scope="module")
def txt_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    home = tmp_path_factory.mktemp("user")
    shutil.copy(HARBOR, home / "mystory.txt")
    done = regscaffold(home, "run", "--corpus", "mystory.txt", "--out", "run", *SPLITS, *LABEL_MODEL, *TINY_TRAIN)
    return home, done


def test_every_stage_runs_on_a_new_corpus(txt_run):
    home, done = txt_run
    assert done.returncode == 0, done.stderr
    run = json.loads((home / "run" / "run.json").read_text())
    assert {name: s["status"] for name, s in run["stages"].items()} == {name: "ran" for name in STAGE_NAMES}
    assert run["stages"]["aggregate"]["summary"]["method"] == "label_model"
    assert not any("majority vote used" in w for w in run["warnings"])
    for name in ("report.html", "report.json", "model/ckpt.pt", "probe.json", "probes_test.jsonl"):
        assert (home / "run" / name).exists(), name


def test_the_report_is_gold_free_with_one_line_on_how_to_make_a_gold_set(txt_run):
    home, done = txt_run
    figures = json.loads((home / "run" / "report.json").read_text())
    assert figures["gold_sets"] == {} and figures["gold"]["needs_gold"]
    assert figures["agreement"]["contested"]["candidates"] > 0 and figures["lfs"][0]["agree_lm"] is not None
    gold_lines = [line for line in done.stdout.splitlines() if "need a gold set" in line]
    assert len(gold_lines) == 1 and "regscaffold gold sample run --n 60" in gold_lines[0]
    for name in ("report.json", "report.html"):
        assert str(home) not in (home / "run" / name).read_text(), name


def test_the_probe_stage_builds_its_set_from_the_run_and_skips_too_few_pairs(txt_run):
    home, done = txt_run
    probes = json.loads((home / "run" / "probe.json").read_text())
    assert list(probes) == ["probes_test"] and probes["probes_test"]["built"]
    items = [json.loads(line) for line in (home / "run" / "probes_test.jsonl").read_text().splitlines()]
    assert probes["probes_test"]["n"] == len(items) and {i["split"] for i in items} <= {"test"}
    assert probes["probes_test"]["pairs"] < 50 and "accuracy" not in probes["probes_test"]
    assert "under 50" in probes["probes_test"]["skipped"] and "not scored (too few pairs)" in done.stdout
    assert f"probes_test ({len(items)} items, {probes['probes_test']['pairs']} pairs)" in done.stdout


def test_a_built_set_with_enough_pairs_is_scored(txt_run, tmp_path):
    home, _ = txt_run
    copy = tmp_path / "run"
    shutil.copytree(home / "run", copy)
    done = regscaffold(home, "run", "--corpus", "mystory.txt", "--out", str(copy), *SPLITS, *LABEL_MODEL,
                       *TINY_TRAIN, "--probe.min_pairs=1")
    assert done.returncode == 0, done.stderr
    result = json.loads((copy / "probe.json").read_text())["probes_test"]
    assert result["n"] > 0 and 0.0 <= result["accuracy"] <= 1.0 and "skipped" not in result
    statuses = {n: s["status"] for n, s in json.loads((copy / "run.json").read_text())["stages"].items()}
    assert statuses["probe"] == "ran" and statuses["train"] == "cached"


def test_rerun_elsewhere_gives_the_same_report_bytes(txt_run, tmp_path):
    home, _ = txt_run
    other = user_folder(tmp_path, "user2")
    shutil.copy(HARBOR, other / "mystory.txt")
    done = regscaffold(other, "run", "--corpus", "mystory.txt", "--out", "run", "--until", "report", *SPLITS,
                       *LABEL_MODEL, *TINY_TRAIN)
    assert done.returncode == 0, done.stderr
    for name in ("report.json", "report.html", "bindings.parquet"):
        assert (other / "run" / name).read_bytes() == (home / "run" / name).read_bytes(), name


def test_report_command_and_a_gold_file_of_another_corpus(txt_run):
    home, _ = txt_run
    done = regscaffold(home, "report", "run")
    assert done.returncode == 0, done.stderr
    assert "regscaffold gold sample run --n 60" in done.stdout and "candidates have both" in done.stdout
    bundled = Path(__file__).parents[2] / "data" / "gold" / "pairs.jsonl"
    wrong = regscaffold(home, "report", "run", "--gold", str(bundled))
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) == 1, wrong.stderr
    assert re.search(r"error: gold file .*pairs.jsonl: \d+ of the \d+ passages it labels are not passages",
                     wrong.stderr)


def test_a_gold_set_of_ones_own_through_label_studio_and_the_report_with_it(txt_run, tmp_path):
    home, _ = txt_run
    user = user_folder(tmp_path, "user")
    shutil.copytree(home / "run", user / "run")
    done = regscaffold(user, "gold", "sample", "run", "--n", "3")
    assert done.returncode == 0, done.stderr
    todo = [json.loads(line) for line in (user / "run" / "gold_todo.jsonl").read_text().splitlines()]
    assert len(todo) == 3 and {t["split"] for t in todo} <= {"valid", "test"}
    done = regscaffold(user, "gold", "export", "run/gold_todo.jsonl", "--out", "tasks.json")
    assert done.returncode == 0, done.stderr
    assert (user / "tasks.labeling.xml").read_text().startswith("<View>")
    # the annotator accepts the pre-filled bindings of every task, as Label Studio then exports them
    tasks = json.loads((user / "tasks.json").read_text())
    for n, task in enumerate(tasks):
        task |= {"id": n + 1, "annotations": [{"id": n + 1, "result": task.pop("predictions")[0]["result"],
                                              "was_cancelled": False, "task": n + 1}]}
    (user / "export.json").write_text(json.dumps(tasks))
    done = regscaffold(user, "gold", "import", "export.json", "--out", "gold.jsonl")
    assert done.returncode == 0, done.stderr
    done = regscaffold(user, "report", "run", "--gold", "gold.jsonl")
    assert done.returncode == 0, done.stderr
    figures = json.loads((user / "run" / "report.json").read_text())
    assert figures["gold"]["files"] == ["../gold.jsonl"] and figures["gold"]["passages"] == 3
    # the gold bindings are the accepted candidates, so the LabelModel scores 1 on them
    scores = figures["gold_sets"]["passages"]["aggregation"]["label_model"]
    assert (scores["precision"], scores["recall"]) == (1.0, 1.0) and scores["tp"] > 0
    assert "need a gold set" not in done.stdout and "LabelModel" in done.stdout


def added_pair(region: dict) -> list[str]:
    """Word numbers of an entity and an adjective of the region that no candidate joins."""
    spans = words(region["text"])
    taken = {(c["ent_start"] - region["start"], c["attr_start"] - region["start"]) for c in region["candidates"]}
    return next([str(e + 1), str(a + 1)] for e in range(len(spans)) for a in range(e + 1, len(spans))
                if (spans[e][0], spans[a][0]) not in taken)


def test_a_gold_set_of_ones_own_in_the_terminal_annotator(txt_run, tmp_path):
    home, _ = txt_run
    user = user_folder(tmp_path, "user")
    shutil.copytree(home / "run", user / "run")
    assert regscaffold(user, "gold", "sample", "run", "--n", "3").returncode == 0
    todo = [json.loads(line) for line in (user / "run" / "gold_todo.jsonl").read_text().splitlines()]
    # the user takes the LabelModel's suggestions and adds one binding it missed in the first region
    keys = []
    for n, region in enumerate(todo):
        keys += ["b" if c["accepted"] else "n" for c in region["candidates"]]
        keys += ["a", *added_pair(region), "b", "d"] if n == 0 else ["d"]
    done = regscaffold(user, "gold", "annotate", "run/gold_todo.jsonl", typed="\n".join(keys) + "\n")
    assert done.returncode == 0, done.stderr
    assert "3 of 3 regions done" in done.stdout
    gold = load_gold([user / "gold.jsonl"], pd.read_parquet(user / "run" / "docs.parquet"))
    accepted = sum(c["accepted"] for t in todo for c in t["candidates"])
    assert len(gold.passages) == 3 and len(gold.bindings) == accepted + 1


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_jsonl_and_parquet_corpora_run_end_to_end(tmp_path, suffix):
    home = user_folder(tmp_path, "user")
    records = pd.DataFrame({"id": [f"ch{n}" for n in range(len(chapters()))], "text": chapters()})
    corpus = home / f"mystory{suffix}"
    if suffix == ".jsonl":
        corpus.write_text("".join(json.dumps(r) + "\n" for r in records.to_dict("records")))
    else:
        records.to_parquet(corpus)
    done = regscaffold(home, "run", "--corpus", corpus.name, "--out", "run", *SPLITS, *TINY_TRAIN)
    assert done.returncode == 0, done.stderr
    run = json.loads((home / "run" / "run.json").read_text())
    assert {s["status"] for s in run["stages"].values()} == {"ran"} and set(run["stages"]) == set(STAGE_NAMES)
    assert run["stages"]["ingest"]["summary"]["passages"] == len(records)
    assert json.loads((home / "run" / "report.json").read_text())["gold"]["needs_gold"]
    assert json.loads((home / "run" / "probe.json").read_text())["probes_test"]["built"]
