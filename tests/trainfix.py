"""Tiny trainer configs that train in a second, and a training folder's metrics without timings."""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.core.config_loader import build_config


TINY = {
    "model": {"n_layer": 2, "n_head": 2, "d_model": 16, "block_size": 16},
    "optim": {"steps": 6, "batch_size": 8, "lr": 3e-3},
    "run": {"eval_every": 2, "precision": "fp32", "progress": False, "device": "cpu"},
    "data": {"n_train": 64, "n_test": 16, "bpe_vocab_size": 512},
}


def tiny_config(**sections):
    """A TrainConfig built from TINY with per-section updates, e.g. tiny_config(data={"synthetic": "fusion"})."""
    from training.config import TrainConfig

    merged = {name: {**TINY.get(name, {}), **sections.get(name, {})} for name in TINY.keys() | sections.keys()}
    return build_config(TrainConfig, merged)


def metrics(out: Path) -> list[dict]:
    """A training folder's metrics.jsonl records without their timings."""
    lines = (out / "metrics.jsonl").read_text().splitlines()
    timings = {"tokens_per_s", "train_seconds"}
    return [{k: v for k, v in json.loads(line).items() if k not in timings} for line in lines]
