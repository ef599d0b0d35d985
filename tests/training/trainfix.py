"""Helpers for the trainer tests: a hand-written run folder and tiny configs that train in a second."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline import schemas
from pipeline.config import build_config
from pipeline.io import file_sha256, write_parquet

VOCAB = ["NOTHING", "OTHER", "red", "soft"]
SLOTS = 2
TEXTS = {
    "train": ["Emma's café — naïve, isn't it?  Yes.", "The red hat; the soft book.\nA new line",
              "Mr. Knightley's \"red\" cup..."],
    "valid": ["Naïve Emma said: the big ball is red!"],
}
SPACY_LIKE = re.compile(r"'\w+|\w+|[^\w\s]")  # splits "Emma's" into "Emma", "'s" as spaCy does


def spans_of(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in SPACY_LIKE.finditer(text)]


def labels_of(n_tokens: int) -> tuple[np.ndarray, np.ndarray]:
    """Slot 0 holds 'red' from the third token on, slot 1 'soft' (confidence 0.6) from the fifth on."""
    labels = np.zeros((n_tokens, SLOTS), dtype=np.int16)
    conf = np.ones((n_tokens, SLOTS), dtype=np.float32)
    labels[2:, 0] = 2
    labels[4:, 1], conf[4:, 1] = 3, 0.6
    return labels, conf


def write_run(run_dir: Path, texts: dict[str, list[str]] = TEXTS, vocab: list[str] = VOCAB,
              edit=None) -> Path:
    """docs.parquet + registers.parquet; ``edit(docs_df, registers_df, meta)`` may corrupt them first."""
    docs = pd.DataFrame([(schemas.doc_id_for(t), "fixture", split, t) for split, ts in texts.items() for t in ts],
                        columns=schemas.DOC_COLUMNS)
    rows = []
    for doc_id, text in zip(docs["doc_id"], docs["text"]):
        spans = spans_of(text)
        labels, conf = labels_of(len(spans))
        rows += [(doc_id, i, s, e, labels[i].tolist(), conf[i].tolist()) for i, (s, e) in enumerate(spans)]
    regs = pd.DataFrame(rows, columns=schemas.REGISTER_COLUMNS)
    meta = {"kind": "registers", "schema_version": 1, "slots": SLOTS, "vocab": list(vocab)}
    if edit is not None:
        edit(docs, regs, meta)
    write_parquet(docs, run_dir / schemas.DOCS, {"kind": "docs", "schema_version": 1})
    meta.setdefault("docs_sha256", file_sha256(run_dir / schemas.DOCS))
    schema = pa.schema([("doc_id", pa.string()), ("i", pa.int32()), ("start", pa.int32()), ("end", pa.int32()),
                        ("labels", pa.list_(pa.int16())), ("conf", pa.list_(pa.float32()))])
    write_parquet(pa.Table.from_pandas(regs, schema=schema, preserve_index=False), run_dir / schemas.REGISTERS, meta)
    return run_dir


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
