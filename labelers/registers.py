"""Register materialisation: per passage, K slots track the first K entities (by first mention) that
receive an accepted binding; at each token a slot holds the attribute most recently bound to its entity
(the definition, shared with the trainer, is pipeline.core.registers)."""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.core.registers import is_binding, passage_registers
from pipeline.core.progress import Advance
from pipeline.core.schemas import NOTHING, NOTHING_ID, OTHER, OTHER_ID


def lemma_counts(accepted: pd.DataFrame) -> Counter:
    """How often each attribute lemma (lower case) is bound among the train split's accepted bindings: summed
    over shards, the counts the vocabulary is ranked by."""
    return Counter(accepted.loc[accepted["split"] == "train", "attr_lemma"].str.lower())


def vocab_from_counts(counts: Counter, size: int) -> list[str]:
    """NOTHING, OTHER, then the ``size`` most frequent lemmas (ties by name)."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:size]
    return [NOTHING, OTHER] + [lemma for lemma, _ in ranked]


def attribute_vocab(accepted: pd.DataFrame, size: int) -> list[str]:
    """NOTHING, OTHER, then the ``size`` most frequent attribute lemmas of the train split (ties by name)."""
    return vocab_from_counts(lemma_counts(accepted), size)


def accepted_bindings(candidates: pd.DataFrame, p: np.ndarray, threshold: float) -> pd.DataFrame:
    """The accepted candidates, with their probability as column ``p``."""
    cands = candidates.assign(p=p)
    return cands[is_binding(cands["p"], threshold)]


def _list_column(values: np.ndarray) -> pa.ListArray:
    offsets = np.arange(0, values.size + 1, max(values.shape[1], 1), dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values.ravel()))


def register_table(tokens: pd.DataFrame, labels: np.ndarray, conf: np.ndarray) -> pa.Table:
    """registers.parquet's table: doc_id, i, start, end, labels list<int16>[K], conf list<float32>[K]."""
    table = pa.Table.from_pandas(tokens[["doc_id", "i", "start", "end"]], preserve_index=False)
    return table.append_column("labels", _list_column(labels)).append_column("conf", _list_column(conf))


def register_arrays(tokens: pd.DataFrame, accepted: pd.DataFrame, vocab: list[str], slots: int,
                    progress: Advance | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(labels, conf), one row per token of ``tokens`` (passages in their order there)."""
    index = {lemma: i for i, lemma in enumerate(vocab)}
    # the columns passage_registers reads: selecting them first makes the per-passage groups cheap
    by_doc = dict(tuple(accepted[["doc_id", "ent_id", "ent_i", "attr_i", "attr_lemma", "p"]]
                        .groupby("doc_id", sort=False)))
    doc_ids = tokens["doc_id"].to_numpy()
    bounds = np.flatnonzero(np.r_[True, doc_ids[1:] != doc_ids[:-1], True]) if len(doc_ids) else np.array([0])
    all_labels, all_conf = [], []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        n, doc_id = hi - lo, doc_ids[lo]
        if doc_id in by_doc:
            labels, conf = passage_registers(n, by_doc[doc_id], index, slots)
        else:
            labels, conf = (np.full((n, slots), NOTHING_ID, dtype=np.int16), np.ones((n, slots), np.float32))
        all_labels.append(labels)
        all_conf.append(conf)
        if progress is not None:
            progress()
    labels = np.concatenate(all_labels) if all_labels else np.zeros((0, slots), np.int16)
    conf = np.concatenate(all_conf) if all_conf else np.zeros((0, slots), np.float32)
    return labels, conf


def register_counts(labels: np.ndarray, accepted: int) -> dict[str, Any]:
    """Counts behind the summary figures (they add up over shards; ``register_summary`` divides)."""
    occupied = labels != NOTHING_ID
    return {"tokens": int(len(labels)), "accepted_bindings": int(accepted),
            "any_slot": int(occupied.any(axis=1).sum()), "per_slot": occupied.sum(axis=0).tolist(),
            "occupied": int(occupied.sum()), "other": int((labels[occupied] == OTHER_ID).sum())}


def register_summary(counts: list[dict[str, Any]], vocab: list[str]) -> dict[str, Any]:
    """The registers stage's figures from the shards' ``register_counts``."""
    total = {key: sum(c[key] for c in counts) for key in ("tokens", "accepted_bindings", "any_slot", "occupied",
                                                          "other")}
    per_slot = np.sum([c["per_slot"] for c in counts], axis=0) if counts else np.zeros(0)
    tokens = total["tokens"]
    return {
        "tokens": tokens,
        "accepted_bindings": total["accepted_bindings"],
        "token_fraction_any_slot": total["any_slot"] / tokens if tokens else 0.0,
        "slot_occupancy": [int(x) / tokens for x in per_slot] if tokens else [],
        "other_share": total["other"] / total["occupied"] if total["occupied"] else 0.0,
        "vocab_size": len(vocab),
    }


def materialise(tokens: pd.DataFrame, candidates: pd.DataFrame, p: np.ndarray, threshold: float,
                slots: int, vocab_size: int, progress: Advance | None = None) -> tuple[pa.Table, list[str], dict]:
    """The register table (one row per token), the vocabulary, and summary figures, of one table of tokens
    (the registers stage does the same shard by shard, the vocabulary counted over all of them)."""
    accepted = accepted_bindings(candidates, p, threshold)
    vocab = attribute_vocab(accepted, vocab_size)
    labels, conf = register_arrays(tokens, accepted, vocab, slots, progress)
    return register_table(tokens, labels, conf), vocab, register_summary([register_counts(labels, len(accepted))],
                                                                         vocab)
