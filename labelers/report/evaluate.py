"""Labeling functions and aggregators judged against the gold rows (from labelers.report.gold).

A gold table has KEY columns, ``y`` (1 BOUND, 0 NOT_BOUND) and ``row``: the candidate's row, -1 when the
gold item is no candidate (every method then predicts NOT_BOUND for it).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from labelers.labels import BOUND
from pipeline.core.registers import is_binding
from labelers.report.agreement import agreement_with_label_model
from labelers.report.metrics import calibration, lf_precision_recall, lf_summary, prf
from labelers.report.rundata import RunData


def lf_table(run: RunData, pairs: pd.DataFrame | None) -> list[dict[str, Any]]:
    """Per LF: polarity, coverage, overlaps, conflicts, learned weight, agreement with the accepted label
    and, with gold pairs, precision/recall."""
    weights = run.aggregate.get("lf_accuracy_estimates", {})
    matched = pairs[pairs["row"] >= 0] if pairs is not None else None
    agree = agreement_with_label_model(run.L, run.bindings["accepted"].to_numpy(bool))
    out = []
    for j, (name, stats) in enumerate(zip(run.lf_names, lf_summary(run.L))):
        entry = {"lf": name, **stats, "weight": weights.get(name), **agree[j]}
        if matched is not None:
            entry |= lf_precision_recall(run.L[matched["row"].to_numpy(), j], matched["y"].to_numpy(),
                                         stats["polarity"])
        out.append(entry)
    return out


def predictions(run: RunData) -> dict[str, np.ndarray]:
    """Each aggregator's BOUND decision per candidate. Majority vote needs a strict majority, so a tie or
    no vote (p_mv = 0.5) asserts nothing; the LabelModel's decision is the run's ``accepted`` column."""
    return {"label_model": run.bindings["accepted"].to_numpy(bool),
            "majority_vote": is_binding(run.bindings["p_mv"].to_numpy(), run.threshold)}


def _on_gold(pred: np.ndarray, table: pd.DataFrame) -> np.ndarray:
    rows = table["row"].to_numpy()
    return np.where(rows >= 0, pred[np.maximum(rows, 0)], False)


def best_lf(run: RunData, table: pd.DataFrame) -> dict[str, Any] | None:
    """The single BOUND-voting LF with the highest F1 on these gold rows (its BOUND vote as the prediction)."""
    best = None
    for j, name in enumerate(run.lf_names):
        if not (run.L[:, j] == BOUND).any():
            continue
        scores = prf(_on_gold(run.L[:, j] == BOUND, table), table["y"].to_numpy())
        if best is None or (scores["f1"] or 0.0) > (best["f1"] or 0.0):
            best = {"lf": name, **scores}
    return best


def aggregation(run: RunData, table: pd.DataFrame) -> dict[str, Any]:
    y = table["y"].to_numpy()
    scores = {name: prf(_on_gold(pred, table), y) for name, pred in predictions(run).items()}
    return scores | {"best_lf": best_lf(run, table)}


def calibration_on(run: RunData, table: pd.DataFrame) -> dict[str, Any]:
    """Brier, ECE and reliability bins of P(BOUND) on the gold rows that are candidates."""
    rows = table.loc[table["row"] >= 0, "row"].to_numpy()
    y = table.loc[table["row"] >= 0, "y"].to_numpy()
    return {"label_model": calibration(run.bindings["p_lm"].to_numpy()[rows], y),
            "majority_vote": calibration(run.bindings["p_mv"].to_numpy()[rows], y)}
