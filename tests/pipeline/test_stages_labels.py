"""The aggregate and endmodel stages on the harbor corpus: the chosen aggregator is the run's label, every
option is kept, the end model trains on the train split and gives the registers their labels (or, when
disabled, passes the aggregate's through), byte-identically on a rerun."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from labelers.aggregation import AGGREGATORS, load_aggregator
from labelers.endmodel import load_end_model
from pipeline.commands.pipeline_config import PipelineConfig
from pipeline.commands.runner import run_pipeline
from pipeline.core.config_loader import load_config, parse_overrides
from pipeline.core.errors import UserError
from pipeline.core.io import read_metadata

HARBOR = Path(__file__).parents[1] / "fixtures" / "own" / "harbor.txt"
SMALL = ["--ingest.valid_fraction=0.2", "--ingest.test_fraction=0.2", "--aggregate.min_train_rows=20",
         "--aggregate.epochs=50", "--endmodel.min_train_rows=20"]


def config(*extra: str) -> PipelineConfig:
    return load_config(PipelineConfig, None, {"ingest.corpus": str(HARBOR)} | parse_overrides([*SMALL, *extra]))


@pytest.fixture(scope="module")
def labelled(tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("labelled") / "run"
    run_pipeline(run_dir, config(), until="registers")
    return run_dir


def test_the_end_model_labels_the_registers_and_every_option_is_kept(labelled):
    bindings = pd.read_parquet(labelled / "bindings.parquet")
    options = pd.read_parquet(labelled / "aggregators.parquet")
    labels, cands = pd.read_parquet(labelled / "endmodel.parquet"), pd.read_parquet(labelled / "candidates.parquet")
    assert list(options.columns) == ["cand_id", *AGGREGATORS] and options["cand_id"].equals(cands["cand_id"])
    assert options["label_model"].equals(bindings["p_lm"].rename("label_model"))
    assert options["majority"].equals(bindings["p_mv"].rename("majority"))
    assert read_metadata(labelled / "endmodel.parquet")["source"] == "endmodel"
    assert labels["cand_id"].equals(cands["cand_id"]) and labels["p_bound"].between(0, 1).all()
    assert labels["accepted"].tolist() == (labels["p_bound"] > 0.5).tolist()
    assert not np.allclose(labels["p_bound"], bindings["p_lm"])  # its own predictions, not a copy
    model = load_end_model(labelled / "endmodel.pt")
    assert model is not None and model.window == 2
    summary = json.loads((labelled / "aggregate.json").read_text())
    assert summary["method"] == "label_model" and set(summary["options"]) == set(AGGREGATORS)
    assert load_aggregator(labelled / "label_model.pt").method == "label_model"
    run = json.loads((labelled / "run.json").read_text())["stages"]
    assert run["endmodel"]["summary"]["source"] == "endmodel"
    assert set(run["aggregate"]["summary"]["seconds"]) == set(AGGREGATORS)
    assert 20 <= run["endmodel"]["summary"]["train_rows"] <= int((cands["split"] == "train").sum())


def test_a_forced_rerun_of_both_stages_is_byte_identical(labelled):
    names = ("bindings.parquet", "aggregators.parquet", "label_model.pt", "aggregate.json", "endmodel.parquet",
             "endmodel.pt", "registers.parquet")
    before = {name: (labelled / name).read_bytes() for name in names}
    for stage in ("aggregate", "endmodel", "registers"):
        run_pipeline(labelled, load_config(PipelineConfig, labelled / "config.toml"), only=stage, force=True)
    assert {name: (labelled / name).read_bytes() for name in names} == before


def test_another_aggregator_and_a_disabled_end_model(labelled, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(labelled, copy)
    report = run_pipeline(copy, config("--aggregate.model=dawid_skene", "--endmodel.enabled=false"), until="registers")
    assert {n: s["status"] for n, s in report["stages"].items() if s["status"] == "ran"} == {
        "aggregate": "ran", "endmodel": "ran", "registers": "ran"}
    bindings, options = pd.read_parquet(copy / "bindings.parquet"), pd.read_parquet(copy / "aggregators.parquet")
    assert read_metadata(copy / "bindings.parquet")["method"] == "dawid_skene"
    assert options["dawid_skene"].equals(bindings["p_lm"].rename("dawid_skene"))
    assert load_aggregator(copy / "label_model.pt").method == "dawid_skene"
    assert read_metadata(copy / "endmodel.parquet")["source"] == "aggregate"
    assert pd.read_parquet(copy / "endmodel.parquet")["p_bound"].equals(bindings["p_lm"].rename("p_bound"))
    assert load_end_model(copy / "endmodel.pt") is None


def test_an_unknown_aggregator_is_one_clear_error():
    with pytest.raises(UserError, match="aggregate.model must be one of majority, label_model, snorkel_defaults, "
                                        "dawid_skene, grouped_label_model, got 'snorkel'"):
        config("--aggregate.model=snorkel")


def test_the_end_model_is_per_shard_and_its_fit_sample_is_bounded(labelled, tmp_path):
    """Featurized and applied shard by shard (one row group per shard), the same labels as one shard while
    every train row is used; above endmodel.max_fit_rows, about that many rows are fitted on."""
    sharded = tmp_path / "sharded"
    run_pipeline(sharded, config("--parse.shard_docs=3"), until="registers")
    whole = pd.read_parquet(labelled / "endmodel.parquet")
    assert pq.ParquetFile(sharded / "endmodel.parquet").num_row_groups > 1 == pq.ParquetFile(
        labelled / "endmodel.parquet").num_row_groups
    assert np.allclose(pd.read_parquet(sharded / "endmodel.parquet")["p_bound"], whole["p_bound"], atol=1e-6)
    assert not (sharded / ".parts").exists()
    train_rows = json.loads((sharded / "run.json").read_text())["stages"]["endmodel"]["summary"]["train_rows"]
    run_pipeline(sharded, config("--parse.shard_docs=3", f"--endmodel.max_fit_rows={train_rows // 2}"),
                 until="endmodel")
    summary = json.loads((sharded / "run.json").read_text())["stages"]["endmodel"]["summary"]
    assert summary["train_rows"] == train_rows and abs(summary["fit_rows"] - train_rows // 2) < train_rows // 4
