"""Aggregate the label matrix: Snorkel's LabelModel (fitted on the train split) and MajorityLabelVoter.

A corpus too small or too sparse to fit the LabelModel falls back to majority vote, with a warning
that the caller records in the run.

The fitted LabelModel is stored as its parameters (tensors and plain values, ``save_label_model``), never as a
pickle of the object: ``load_label_model`` reads it with torch.load(weights_only=True), so a run folder from
someone else cannot run code when it is loaded.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from snorkel.labeling.model import LabelModel, MajorityLabelVoter

from labelers.labels import ABSTAIN, BOUND
from pipeline.core.errors import UserError
from pipeline.core.io import atomic_path

MIN_LFS = 3  # LabelModel's own minimum
LABEL_MODEL_FORMAT = "regscaffold-label-model/1"


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
    """The LabelModel's estimated accuracy of each LF that votes on the train split (empty after a fallback)."""


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


@dataclass
class Fitted:
    model: LabelModel | None
    """The fitted LabelModel, or None after a fallback to majority vote."""
    warnings: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    """The LabelModel's estimated accuracy of each LF that votes on the train split (empty after a fallback)."""


def fit_label_model(L_train: np.ndarray, lf_names: list[str], *, epochs: int, lr: float, l2: float, seed: int,
                    min_train_rows: int, class_balance: str = "learned") -> Fitted:
    """The LabelModel fitted on the train split's votes, or None (with the reason) when they cannot fit one."""
    reason = fallback_reason(L_train, min_train_rows)
    if reason is not None:
        return Fitted(None, [f"LabelModel not fitted, majority vote used: {reason}"])
    model = LabelModel(cardinality=2, verbose=False, device="cpu")
    balance = majority_class_balance(majority_proba(L_train)) if class_balance == "majority" else None
    # the fit works on (LFs x classes)^2 matrices (62 x 62 for 31 LFs), whatever the rows: a second thread
    # costs more than it saves (500 epochs: 1.86 s with 2 threads, 0.55 s with 1; the same parameters)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model.fit(L_train, class_balance=balance, n_epochs=epochs, lr=lr, l2=l2, seed=seed, progress_bar=False)
    finally:
        torch.set_num_threads(threads)
    voted = (L_train != ABSTAIN).any(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):  # an LF that never votes on train: 0/0, clipped
        estimates = model.get_weights()
    # such an LF's estimate is an artefact of the clipping (1.0), not a learned accuracy: left out
    weights = {name: float(w) for name, w, v in zip(lf_names, estimates, voted) if v}
    return Fitted(model, [], weights)


def bound_proba(model: LabelModel | None, L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(p_lm, p_mv): P(BOUND) of each row from the LabelModel (majority vote's after a fallback) and from
    majority vote. Row by row: a shard's rows get the values they get in the whole table."""
    p_mv = majority_proba(L)
    return (model.predict_proba(L)[:, BOUND] if model is not None else p_mv.copy()), p_mv


def fit_sample(n_rows: int, rate: float, seed: int, shard: int) -> np.ndarray:
    """Which of a shard's train rows the LabelModel is fitted on when the train split is subsampled: each row
    with probability ``rate``, from a generator seeded by (seed, shard), so the sample does not depend on
    which process reads the shard."""
    return np.random.default_rng([seed, shard]).random(n_rows) < rate


def aggregate(L: np.ndarray, train_mask: np.ndarray, lf_names: list[str], *, epochs: int, lr: float,
              l2: float, seed: int, min_train_rows: int, class_balance: str = "learned") -> Aggregate:
    """The LabelModel fitted on the train rows of one label matrix, applied to all of its rows."""
    fitted = fit_label_model(L[train_mask], lf_names, epochs=epochs, lr=lr, l2=l2, seed=seed,
                             min_train_rows=min_train_rows, class_balance=class_balance)
    p_lm, p_mv = bound_proba(fitted.model, L)
    return Aggregate(p_lm, p_mv, fitted.model, fitted.warnings, fitted.weights)


def label_model_state(model: LabelModel | None, lf_names: list[str]) -> dict[str, Any]:
    """What predict_proba and get_weights need, as tensors and plain values; ``fitted`` False after a fallback."""
    state: dict[str, Any] = {"format": LABEL_MODEL_FORMAT, "lfs": list(lf_names), "fitted": model is not None}
    if model is not None:
        state |= {"cardinality": model.cardinality, "mu": model.mu.detach().cpu().clone(),
                  "class_balance": torch.from_numpy(np.asarray(model.p, dtype=np.float64)),
                  "coverage": torch.from_numpy(np.asarray(model.coverage, dtype=np.float64))}
    return state


def save_label_model(path: Path, model: LabelModel | None, lf_names: list[str]) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:  # a file object: no temp name inside the archive
        torch.save(label_model_state(model, lf_names), fh)


def _read_state(path: Path) -> dict[str, Any]:
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise UserError(f"{path} holds objects other than tensors and plain values (or is no LabelModel "
                        "file); it is refused because loading such objects could run code: rerun the aggregate "
                        f"stage (regscaffold run --out {Path(path).parent} --only aggregate --force)") from None
    except Exception as exc:  # torch raises several types for a damaged archive
        raise UserError(f"{path} cannot be read ({str(exc)[:200]}); it is damaged: rerun the aggregate stage "
                        f"(regscaffold run --out {Path(path).parent} --only aggregate --force)") from None
    if not isinstance(state, dict) or state.get("format") != LABEL_MODEL_FORMAT:
        raise UserError(f"{path} is not a {LABEL_MODEL_FORMAT} file; rerun the aggregate stage")
    return state


def load_label_model(path: Path) -> tuple[LabelModel | None, list[str]]:
    """(the fitted LabelModel, or None after a majority-vote fallback; the LF names of its columns)."""
    state = _read_state(Path(path))
    if not state["fitted"]:
        return None, state["lfs"]
    model = LabelModel(cardinality=state["cardinality"], verbose=False, device="cpu")
    model.m = len(state["lfs"])
    model._create_tree()  # the structure fit() builds before learning mu (independent LFs)
    model._set_class_balance(state["class_balance"].tolist())
    model.mu = torch.nn.Parameter(state["mu"])
    model.coverage = state["coverage"].numpy()
    return model.eval(), state["lfs"]
