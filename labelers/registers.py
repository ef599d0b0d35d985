"""Register materialisation: per passage, K slots track the first K entities (by first mention) that
receive an accepted binding; at each token a slot holds the attribute most recently bound to its entity
(the definition, shared with the trainer, is pipeline.core.registers)."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.core.registers import is_binding, passage_registers
from pipeline.core.progress import Advance
from pipeline.core.schemas import NOTHING, NOTHING_ID, OTHER, OTHER_ID


def attribute_vocab(accepted: pd.DataFrame, size: int) -> list[str]:
    """NOTHING, OTHER, then the ``size`` most frequent attribute lemmas of the train split (ties by name)."""
    counts = Counter(accepted.loc[accepted["split"] == "train", "attr_lemma"].str.lower())
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:size]
    return [NOTHING, OTHER] + [lemma for lemma, _ in ranked]


def _list_column(values: np.ndarray) -> pa.ListArray:
    offsets = np.arange(0, values.size + 1, max(values.shape[1], 1), dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values.ravel()))


def register_table(tokens: pd.DataFrame, labels: np.ndarray, conf: np.ndarray) -> pa.Table:
    """registers.parquet's table: doc_id, i, start, end, labels list<int16>[K], conf list<float32>[K]."""
    table = pa.Table.from_pandas(tokens[["doc_id", "i", "start", "end"]], preserve_index=False)
    return table.append_column("labels", _list_column(labels)).append_column("conf", _list_column(conf))


def materialise(tokens: pd.DataFrame, candidates: pd.DataFrame, p: np.ndarray, threshold: float,
                slots: int, vocab_size: int, progress: Advance | None = None) -> tuple[pa.Table, list[str], dict]:
    """The register table (one row per token), the vocabulary, and summary figures."""
    cands = candidates.assign(p=p)
    accepted = cands[is_binding(cands["p"], threshold)]
    vocab = attribute_vocab(accepted, vocab_size)
    index = {lemma: i for i, lemma in enumerate(vocab)}
    by_doc_accepted = dict(tuple(accepted.groupby("doc_id", sort=False)))
    all_labels, all_conf = [], []
    for doc_id, doc_tokens in tokens.groupby("doc_id", sort=False):
        n = len(doc_tokens)
        if doc_id in by_doc_accepted:
            labels, conf = passage_registers(n, by_doc_accepted[doc_id], index, slots)
        else:
            labels, conf = (np.full((n, slots), NOTHING_ID, dtype=np.int16), np.ones((n, slots), np.float32))
        all_labels.append(labels)
        all_conf.append(conf)
        if progress is not None:
            progress()
    labels = np.concatenate(all_labels) if all_labels else np.zeros((0, slots), np.int16)
    conf = np.concatenate(all_conf) if all_conf else np.zeros((0, slots), np.float32)
    table = register_table(tokens, labels, conf)
    occupied = labels != NOTHING_ID
    summary = {
        "tokens": int(len(labels)),
        "accepted_bindings": int(len(accepted)),
        "token_fraction_any_slot": float(occupied.any(axis=1).mean()) if len(labels) else 0.0,
        "slot_occupancy": [float(x) for x in occupied.mean(axis=0)] if len(labels) else [],
        "other_share": float((labels[occupied] == OTHER_ID).mean()) if occupied.any() else 0.0,
        "vocab_size": len(vocab),
    }
    return table, vocab, summary
