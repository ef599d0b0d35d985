"""Which probe sets the probe stage scores: the bundled ones only for a run of the bundled corpus."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from labelers.probe_sets import bundled_sets_apply, probe_sets_for_run
from pipeline.core.io import write_parquet

PROBES = Path(__file__).parents[2] / "data" / "probes"
BUNDLED = [PROBES / "gold_test.jsonl", PROBES / "generated_test.jsonl"]


def bundled_doc_ids() -> list[str]:
    return sorted({json.loads(line)["doc_id"] for f in BUNDLED for line in f.read_text().splitlines() if line})


def docs_run(run_dir: Path, doc_ids: list[str]) -> Path:
    """A run folder with only docs.parquet: enough to decide that the bundled sets apply."""
    docs = pd.DataFrame({"doc_id": doc_ids, "source_id": doc_ids, "split": "test", "text": "x"})
    write_parquet(docs, run_dir / "docs.parquet", {"kind": "docs", "schema_version": 1})
    return run_dir


def test_bundled_sets_are_used_for_a_run_holding_all_their_passages(tmp_path):
    found = probe_sets_for_run(docs_run(tmp_path, bundled_doc_ids() + ["extra"]), BUNDLED, explicit=False)
    assert [(s.name, s.built) for s in found] == [("gold_test", False), ("generated_test", False)]
    assert not (tmp_path / "probes_test.jsonl").exists()


def test_a_run_missing_one_of_their_passages_is_another_corpus():
    ids = set(bundled_doc_ids())
    assert bundled_sets_apply(BUNDLED, ids)
    assert not bundled_sets_apply(BUNDLED, ids - {min(ids)})


def test_files_the_user_names_are_used_as_given(tmp_path):
    mine = tmp_path / "mine.jsonl"
    mine.write_text("")
    found = probe_sets_for_run(docs_run(tmp_path, ["a"]), [mine], explicit=True)
    assert [(s.name, s.path, s.built) for s in found] == [("mine", mine, False)]
