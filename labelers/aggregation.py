"""Aggregate the label matrix: Snorkel's LabelModel (fitted on the train split) and MajorityLabelVoter.

A corpus too small or too sparse to fit the LabelModel falls back to majority vote, with a warning
that the caller records in the run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from snorkel.labeling.model import LabelModel, MajorityLabelVoter

from labelers.labels import ABSTAIN, BOUND

MIN_LFS = 3  # LabelModel's own minimum


@dataclass
class Aggregate:
    p_lm: np.ndarray
    """P(BOUND) from the LabelModel (from majority vote when it fell back)."""
    p_mv: np.ndarray
    """P(BOUND) from MajorityLabelVoter (0.5 on ties and rows with no vote)."""
    model: LabelModel | None
    """The fitted LabelModel, or None after a fallback."""
    warnings: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    """The LabelModel's estimated accuracy of each LF (empty after a fallback)."""


def majority_proba(L: np.ndarray) -> np.ndarray:
    return MajorityLabelVoter(cardinality=2).predict_proba(L)[:, BOUND]


def fallback_reason(L_train: np.ndarray, min_train_rows: int) -> str | None:
    voted = int((L_train != ABSTAIN).any(axis=1).sum())
    if L_train.shape[1] < MIN_LFS:
        return f"only {L_train.shape[1]} labeling function(s); the LabelModel needs at least {MIN_LFS}"
    if voted < min_train_rows:
        return (f"only {voted} train-split candidate(s) have a vote (aggregate.min_train_rows = "
                f"{min_train_rows})")
    both = [(L_train == label).any() for label in (0, 1)]
    if not all(both):
        return "the train-split votes contain only one class"
    return None


def majority_class_balance(p_mv_train: np.ndarray) -> list[float]:
    """[P(NOT_BOUND), P(BOUND)] as majority vote labels the train split (ties and no-vote rows split evenly)."""
    bound = float(np.clip(p_mv_train.mean(), 0.01, 0.99))
    return [1.0 - bound, bound]


def aggregate(L: np.ndarray, train_mask: np.ndarray, lf_names: list[str], *, epochs: int, lr: float,
              l2: float, seed: int, min_train_rows: int, class_balance: str = "learned") -> Aggregate:
    p_mv = majority_proba(L)
    reason = fallback_reason(L[train_mask], min_train_rows)
    if reason is not None:
        return Aggregate(p_mv.copy(), p_mv, None, [f"LabelModel not fitted, majority vote used: {reason}"])
    model = LabelModel(cardinality=2, verbose=False, device="cpu")
    balance = majority_class_balance(p_mv[train_mask]) if class_balance == "majority" else None
    model.fit(L[train_mask], class_balance=balance, n_epochs=epochs, lr=lr, l2=l2, seed=seed, progress_bar=False)
    p_lm = model.predict_proba(L)[:, BOUND]
    with np.errstate(divide="ignore", invalid="ignore"):  # an LF that never votes on train: 0/0, clipped
        weights = dict(zip(lf_names, (float(w) for w in model.get_weights())))
    return Aggregate(p_lm, p_mv, model, [], weights)
