"""Figures of the register targets (registers.parquet) and the passages shown token by token."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pipeline.core.schemas import NOTHING_ID, OTHER_ID

TOP_ATTRIBUTES = 15
VIEW_PASSAGES = 3
VIEW_TOKENS = 160
"""Tokens shown per passage in the register view: enough for a few sentences, light enough for the page."""


def label_matrix(registers: pd.DataFrame, column: str = "labels") -> np.ndarray:
    """(tokens, K) array of a list column."""
    values = registers[column].to_numpy()
    return np.stack(values) if len(values) else np.zeros((0, 0))


def label_events(doc_ids: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per passage (in order of first appearance): how many times a slot takes a non-NOTHING label, i.e.
    how many labels the trainer is taught in it."""
    codes, _ = pd.factorize(doc_ids)
    if not len(labels):
        return np.zeros(0, int)
    previous = np.vstack([labels[:1], labels[:-1]])
    previous[np.r_[True, codes[1:] != codes[:-1]]] = NOTHING_ID  # each passage starts empty
    events = ((labels != previous) & (labels != NOTHING_ID)).sum(axis=1)
    return np.bincount(codes, weights=events, minlength=codes.max() + 1).astype(int)


def attribute_distribution(labels: np.ndarray, vocab: list[str]) -> dict[str, Any]:
    """Share of each class among the occupied (token, slot) cells: the top values and OTHER's share."""
    occupied = labels[labels != NOTHING_ID]
    counts = np.bincount(occupied, minlength=len(vocab)) if occupied.size else np.zeros(len(vocab), int)
    order = [i for i in np.argsort(-counts, kind="stable") if counts[i] and i != NOTHING_ID][:TOP_ATTRIBUTES]
    total = int(counts.sum())
    return {"cells": total, "other_share": counts[OTHER_ID] / total if total else None,
            "top": [{"label": vocab[i], "cells": int(counts[i]), "share": counts[i] / total} for i in order]}


def register_figures(registers: pd.DataFrame, meta: dict[str, Any]) -> dict[str, Any]:
    labels = label_matrix(registers).astype(np.int64)
    occupied = labels != NOTHING_ID
    events = label_events(registers["doc_id"].to_numpy(), labels)
    return {
        "slots": meta.get("slots"), "vocab_size": len(meta.get("vocab", [])), "tokens": len(labels),
        "token_fraction_any_slot": float(occupied.any(axis=1).mean()) if len(labels) else None,
        "slot_occupancy": [float(x) for x in occupied.mean(axis=0)] if len(labels) else [],
        "attributes": attribute_distribution(labels, meta.get("vocab", [])),
        "labels_per_passage": {
            "passages": len(events), "mean": float(events.mean()) if len(events) else None,
            "median": float(np.median(events)) if len(events) else None,
            "max": int(events.max()) if len(events) else None,
            "share_without_labels": float((events == 0).mean()) if len(events) else None,
            "counts": events.tolist()},
    }


def view_doc_ids(registers: pd.DataFrame, docs: pd.DataFrame, preferred: list[str]) -> list[str]:
    """Passages for the register view: annotated gold passages first (to compare against the gold), then
    held-out (valid) passages with at least one label, in doc_id order so the choice is stable."""
    labeled = registers.loc[label_matrix(registers).any(axis=1) if len(registers) else [], "doc_id"].unique()
    valid = sorted(set(labeled) & set(docs.loc[docs["split"] == "valid", "doc_id"]))
    others = sorted(set(labeled) - set(valid))
    ordered = [d for d in preferred if d in set(labeled)] + valid + others
    return list(dict.fromkeys(ordered))[:VIEW_PASSAGES]


def register_view(registers: pd.DataFrame, docs: pd.DataFrame, vocab: list[str],
                  preferred: list[str]) -> list[dict[str, Any]]:
    """Per chosen passage: its tokens with each slot's label name and confidence."""
    texts = dict(zip(docs["doc_id"], docs["text"]))
    out = []
    for doc_id in view_doc_ids(registers, docs, preferred):
        rows = registers[registers["doc_id"] == doc_id].sort_values("i").head(VIEW_TOKENS)
        labels, conf = label_matrix(rows), label_matrix(rows, "conf")
        text = texts[doc_id]
        tokens = [{"text": text[s:e], "slots": [{"label": vocab[int(lab)], "conf": round(float(c), 3)}
                                                for lab, c in zip(lab_row, conf_row)]}
                  for s, e, lab_row, conf_row in zip(rows["start"], rows["end"], labels, conf)]
        out.append({"doc_id": doc_id, "tokens": tokens,
                    "truncated": int((registers["doc_id"] == doc_id).sum()) > VIEW_TOKENS})
    return out
