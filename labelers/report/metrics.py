"""Label-quality metrics on plain arrays, so each one is tested on literal inputs with hand-computed values.

Votes use labelers.labels: 1 BOUND, 0 NOT_BOUND, -1 ABSTAIN. Gold labels are 1 or 0. A ratio whose
denominator is zero is None (shown as a dash), never 0, so "no evidence" is not read as "always wrong".
"""
from __future__ import annotations

from typing import Any

import numpy as np

from labelers.labels import ABSTAIN

ECE_BINS = 10
"""Calibration bins: 10 equal-width bins of predicted P(BOUND), [0, .1), [.1, .2), ... [.9, 1.0]."""


def ratio(num: float, den: float) -> float | None:
    return float(num) / float(den) if den else None


def prf(pred: np.ndarray, gold: np.ndarray) -> dict[str, Any]:
    """Precision, recall and F1 of the positive class (BOUND), with the counts behind them."""
    pred, gold = np.asarray(pred, bool), np.asarray(gold, bool)
    tp, fp, fn = int((pred & gold).sum()), int((pred & ~gold).sum()), int((~pred & gold).sum())
    precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
    if precision is None or recall is None:
        f1 = None
    else:  # both zero: F1 is 0, not undefined
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn, "n": len(gold)}


def lf_precision_recall(votes: np.ndarray, gold: np.ndarray, polarity: list[int]) -> dict[str, Any]:
    """One labeling function against gold labels.

    precision: among gold rows the LF voted on, the fraction voted correctly (Snorkel's "Emp. Acc.", which
    ignores the rows the LF abstained on). recall: among gold rows whose label is a class the LF votes
    (its polarity: BOUND for a BOUND-voting LF, NOT_BOUND for a NOT_BOUND-voting one, both for an LF that
    votes both), the fraction it voted correctly, so abstaining costs recall but not precision.
    """
    votes, gold = np.asarray(votes), np.asarray(gold)
    voted = votes != ABSTAIN
    target = np.isin(gold, polarity)
    return {"precision": ratio((votes[voted] == gold[voted]).sum(), voted.sum()), "n_voted": int(voted.sum()),
            "recall": ratio((votes[target] == gold[target]).sum(), target.sum()), "n_target": int(target.sum())}


def bin_index(p: np.ndarray, bins: int = ECE_BINS) -> np.ndarray:
    """Equal-width bin of each probability; 1.0 belongs to the last bin."""
    return np.minimum((np.asarray(p, np.float64) * bins).astype(int), bins - 1)


def reliability(p: np.ndarray, y: np.ndarray, bins: int = ECE_BINS) -> list[dict[str, Any]]:
    """Per non-empty bin: its range, row count, mean predicted probability and observed BOUND frequency."""
    p, y = np.asarray(p, np.float64), np.asarray(y, np.float64)
    index = bin_index(p, bins)
    return [{"lo": b / bins, "hi": (b + 1) / bins, "n": int((index == b).sum()),
             "mean_p": float(p[index == b].mean()), "freq": float(y[index == b].mean())}
            for b in range(bins) if (index == b).any()]


def ece(p: np.ndarray, y: np.ndarray, bins: int = ECE_BINS) -> float | None:
    """Expected calibration error: sum over bins of (rows in bin / rows) * |observed freq - mean p|."""
    n = len(p)
    return sum(b["n"] / n * abs(b["freq"] - b["mean_p"]) for b in reliability(p, y, bins)) if n else None


def brier(p: np.ndarray, y: np.ndarray) -> float | None:
    """Mean squared difference between P(BOUND) and the 0/1 gold label."""
    p, y = np.asarray(p, np.float64), np.asarray(y, np.float64)
    return float(((p - y) ** 2).mean()) if len(p) else None


def calibration(p: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    return {"brier": brier(p, y), "ece": ece(p, y), "bins": reliability(p, y), "n": len(p)}


def lf_summary(L: np.ndarray) -> list[dict[str, Any]]:
    """Per LF (column of L): polarity, coverage, overlaps and conflicts over all candidates (snorkel's
    LFAnalysis): coverage = rows it labels; overlaps = rows it and another LF label; conflicts = rows where
    another LF casts a different vote."""
    import warnings

    from snorkel.labeling import LFAnalysis

    if len(L) == 0:
        return [{"polarity": [], "coverage": 0.0, "overlaps": 0.0, "conflicts": 0.0} for _ in range(L.shape[1])]
    analysis = LFAnalysis(np.asarray(L, np.int64))
    with warnings.catch_warnings():  # snorkel 0.10 passes int data to scipy's diags: a harmless FutureWarning
        warnings.simplefilter("ignore", FutureWarning)
        columns = list(zip(analysis.lf_polarities(), analysis.lf_coverages(), analysis.lf_overlaps(),
                           analysis.lf_conflicts()))
    return [{"polarity": [int(v) for v in pol], "coverage": float(cov), "overlaps": float(ovl),
             "conflicts": float(con)} for pol, cov, ovl, con in columns]
