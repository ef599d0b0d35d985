"""Aggregate the label matrix into P(BOUND) per candidate with one of several named label models, fitted on
the train split, and every other option beside it for the report.

The options (``AGGREGATORS``), each a fixed recipe over the same label matrix:

- ``majority``: MajorityLabelVoter (a tie or no vote is 0.5, never a binding).
- ``label_model``: Snorkel's LabelModel with this project's settings (``class_balance`` and ``l2`` of the
  aggregate config: by default the BOUND share majority vote gives the train split, and L2 1.0).
- ``snorkel_defaults``: the LabelModel as Snorkel ships it: class balance learned, no L2.
- ``dawid_skene``: Dawid-Skene EM (labelers.label_models), which models an abstain as a response, so "this
  LF spoke" counts; class balance as ``class_balance`` says.
- ``grouped_label_model``: the LabelModel after merging each group of same-polarity LFs that fire together
  (phi >= GROUP_PHI on the train split) into one vote, so that the conditional-independence assumption
  does not count one piece of evidence two or three times.

A corpus too small or too sparse to fit a label model falls back to majority vote, with a warning that
the caller records in the run.

The fitted model is stored as its parameters (tensors and plain values, ``save_aggregator``), never as a
pickle of the object: ``load_aggregator`` reads it with torch.load(weights_only=True), so a run folder from
someone else cannot run code when it is loaded.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
from snorkel.labeling.model import LabelModel, MajorityLabelVoter

from labelers.label_models import DawidSkene, correlated_groups, fit_dawid_skene, merge_groups
from labelers.labels import ABSTAIN, BOUND
from pipeline.core.errors import UserError
from pipeline.core.io import atomic_path, load_weights

MIN_LFS = 3  # LabelModel's own minimum
GROUP_PHI = 0.5
"""Same-polarity LFs whose firing correlates at least this much on the train split form one group."""
LABEL_MODEL_FORMAT = "regscaffold-label-model/2"
FALLBACK = "majority_fallback"
"""The method a run records when no label model could be fitted."""


@dataclass(frozen=True)
class Settings:
    """The aggregate config's values a label model uses (pipeline.commands.pipeline_config.AggregateConfig)."""
    epochs: int = 500
    lr: float = 0.01
    l2: float = 1.0
    seed: int = 0
    class_balance: str = "majority"
    min_train_rows: int = 200


@dataclass
class Fitted:
    """One aggregator, fitted: what predict_proba needs, and nothing that cannot be stored as tensors."""
    method: str
    lfs: list[str]
    columns: list[list[int]]
    """The original LF columns behind each column the model sees (one each, except merged groups)."""
    model: LabelModel | DawidSkene | None
    """None for majority vote."""

    def inputs(self, L: np.ndarray) -> np.ndarray:
        if all(len(c) == 1 for c in self.columns):
            return L[:, [c[0] for c in self.columns]]
        return merge_groups(L, [c for c in self.columns if len(c) > 1])[0]

    def predict_proba(self, L: np.ndarray) -> np.ndarray:
        """P(BOUND) of each row of a label matrix with this model's LF columns."""
        X = self.inputs(np.asarray(L, np.int64))
        if self.model is None:
            return majority_proba(X)
        return self.model.predict_proba(X)[:, BOUND]

    def column_names(self) -> list[str]:
        return ["+".join(self.lfs[j] for j in c) for c in self.columns]

    def accuracy(self, L_train: np.ndarray) -> dict[str, float]:
        """The model's estimated accuracy of each (merged) LF column that votes on the train split."""
        if self.model is None:
            return {}
        if isinstance(self.model, DawidSkene):
            estimates = self.model.accuracy()
        else:
            with np.errstate(divide="ignore", invalid="ignore"):  # an LF that never votes on train: 0/0
                estimates = self.model.get_weights()
        voted = (self.inputs(L_train) != ABSTAIN).any(axis=0)
        # a column that never votes has an artefact (Snorkel's clipped 0/0 is 1.0), not an estimate: left out
        return {name: float(w) for name, w, v in zip(self.column_names(), estimates, voted) if v}


def majority_proba(L: np.ndarray) -> np.ndarray:
    return MajorityLabelVoter(cardinality=2).predict_proba(L)[:, BOUND]


def majority_class_balance(p_mv_train: np.ndarray) -> list[float]:
    """[P(NOT_BOUND), P(BOUND)] as majority vote labels the train split (ties and no-vote rows split evenly)."""
    bound = float(np.clip(p_mv_train.mean(), 0.01, 0.99))
    return [1.0 - bound, bound]


def _balance(X_train: np.ndarray, class_balance: str) -> list[float] | None:
    return majority_class_balance(majority_proba(X_train)) if class_balance == "majority" else None


def _snorkel(X_train: np.ndarray, s: Settings, balance: list[float] | None, l2: float) -> LabelModel:
    model = LabelModel(cardinality=2, verbose=False, device="cpu")
    # the fit works on (LFs x classes)^2 matrices (62 x 62 for 31 LFs), whatever the rows: a second thread
    # costs more than it saves (500 epochs: 1.86 s with 2 threads, 0.55 s with 1; the same parameters)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model.fit(X_train, class_balance=balance, n_epochs=s.epochs, lr=s.lr, l2=l2, seed=s.seed,
                  progress_bar=False)
    finally:
        torch.set_num_threads(threads)
    return model


def _identity(m: int) -> list[list[int]]:
    return [[j] for j in range(m)]


def fit_majority(L_train: np.ndarray, s: Settings) -> tuple[list[list[int]], Any]:
    return _identity(L_train.shape[1]), None


def fit_label_model(L_train: np.ndarray, s: Settings) -> tuple[list[list[int]], Any]:
    return _identity(L_train.shape[1]), _snorkel(L_train, s, _balance(L_train, s.class_balance), s.l2)


def fit_snorkel_defaults(L_train: np.ndarray, s: Settings) -> tuple[list[list[int]], Any]:
    return _identity(L_train.shape[1]), _snorkel(L_train, s, None, 0.0)


def fit_dawid_skene_model(L_train: np.ndarray, s: Settings) -> tuple[list[list[int]], Any]:
    balance = _balance(L_train, s.class_balance)
    model = fit_dawid_skene(L_train, majority_proba(L_train), prior=None if balance is None else np.array(balance))
    return _identity(L_train.shape[1]), model


def fit_grouped_label_model(L_train: np.ndarray, s: Settings) -> tuple[list[list[int]], Any]:
    merged, columns = merge_groups(L_train, correlated_groups(L_train, GROUP_PHI))
    return columns, _snorkel(merged, s, _balance(merged, s.class_balance), s.l2)


AGGREGATORS: dict[str, Callable[[np.ndarray, Settings], tuple[list[list[int]], Any]]] = {
    "majority": fit_majority, "label_model": fit_label_model, "snorkel_defaults": fit_snorkel_defaults,
    "dawid_skene": fit_dawid_skene_model, "grouped_label_model": fit_grouped_label_model}
"""Each option's fit on the train split's label matrix: (the LF columns behind each model column, the model)."""


def fallback_reason(L_train: np.ndarray, min_train_rows: int) -> str | None:
    voted = int((L_train != ABSTAIN).any(axis=1).sum())
    if L_train.shape[1] < MIN_LFS:
        return f"only {L_train.shape[1]} labeling function(s); the label models need at least {MIN_LFS}"
    if voted < min_train_rows:
        return (f"only {voted} train-split candidate(s) have a vote (aggregate.min_train_rows = "
                f"{min_train_rows})")
    both = [(L_train == label).any() for label in (0, 1)]
    if not all(both):
        return "the train-split votes contain only one class"
    return None


def fit_sample(n_rows: int, rate: float, seed: int, shard: int) -> np.ndarray:
    """Which of a shard's train rows the label models are fitted on when the train split is subsampled: each
    row with probability ``rate``, from a generator seeded by (seed, shard), so the sample does not depend on
    which process reads the shard."""
    return np.random.default_rng([seed, shard]).random(n_rows) < rate


@dataclass
class Fits:
    """Every option fitted on the train split's label matrix, and the one the run uses; applied to any rows
    (a shard at a time) by ``apply``."""
    fitted: dict[str, Fitted]
    """Per option fitted (majority vote only, after a fallback)."""
    chosen: Fitted
    """The chosen aggregator (majority vote after a fallback)."""
    method: str
    """The chosen option's name, or FALLBACK."""
    option_info: dict[str, dict[str, Any]]
    """Per option: fitted or not (and why), its estimated LF accuracies, merged groups, class balance."""
    seconds: dict[str, float]
    """Per option: seconds to fit (for run.json: timings are no output)."""
    warnings: list[str] = field(default_factory=list)

    @property
    def weights(self) -> dict[str, float]:
        """The chosen model's estimated accuracy of each LF column that votes on the train split."""
        return self.option_info[self.chosen.method].get("lf_accuracy_estimates", {})

    def apply(self, L: np.ndarray) -> dict[str, np.ndarray]:
        """P(BOUND) of every option in AGGREGATORS (majority vote's where one is not fitted) for the rows of L."""
        L = np.asarray(L, np.int64)
        majority = self.fitted["majority"].predict_proba(L)
        return {name: self.fitted[name].predict_proba(L) if name in self.fitted and name != "majority" else majority
                for name in AGGREGATORS}


def _describe(fitted: Fitted, L_train: np.ndarray) -> dict[str, Any]:
    info: dict[str, Any] = {"fitted": True, "lf_accuracy_estimates": fitted.accuracy(L_train),
                            "groups": [n for n, c in zip(fitted.column_names(), fitted.columns) if len(c) > 1]}
    if isinstance(fitted.model, DawidSkene):
        info["class_balance_bound"] = float(fitted.model.prior[BOUND])
    elif fitted.model is not None:  # Snorkel's "learned" balance is its uniform default: recorded as used
        info["class_balance_bound"] = float(np.asarray(fitted.model.p)[BOUND])
    return info


def fit_timed(method: str, L_train: np.ndarray, lf_names: list[str], s: Settings) -> tuple[Fitted, float]:
    """One option fitted on the train rows (majority vote needs no fit; callers check fallback_reason), and its
    seconds (a top-level function: a Dask worker imports it)."""
    started = time.perf_counter()
    columns, model = AGGREGATORS[method](L_train, s)
    return Fitted(method, list(lf_names), columns, model), time.perf_counter() - started


FitMany = Callable[[list[str], np.ndarray, list[str], Settings], list[tuple[Fitted, float]]]
"""``fit_many(methods, L_train, lf_names, settings)``: ``fit_timed`` of each method, wherever it runs."""


def fit_in_turn(methods: list[str], L_train: np.ndarray, lf_names: list[str], s: Settings) -> list[tuple[Fitted, float]]:
    return [fit_timed(method, L_train, lf_names, s) for method in methods]


def fit_options(L_train: np.ndarray, lf_names: list[str], method: str, s: Settings,
                fit_many: FitMany = fit_in_turn) -> Fits:
    """Fit every option on the train rows ``L_train`` (``fit_many`` decides where: each option's fit is
    independent of the others); ``method`` is the one whose P(BOUND) the run uses. When the train split
    cannot carry a label model (fallback_reason), every option is majority vote, warned."""
    L_train = np.asarray(L_train, np.int64)
    reason = fallback_reason(L_train, s.min_train_rows)
    names = list(AGGREGATORS) if reason is None else ["majority"]
    fitted, info, seconds = {}, {}, {}
    for one, fit_seconds in fit_many(names, L_train, list(lf_names), s):
        fitted[one.method], info[one.method], seconds[one.method] = one, _describe(one, L_train), fit_seconds
    for name in AGGREGATORS:
        info.setdefault(name, {"fitted": False, "reason": reason})
    if method in fitted:
        return Fits(fitted, fitted[method], method, info, seconds)
    # a fallback (majority vote itself is never one)
    return Fits(fitted, fitted["majority"], FALLBACK, info, seconds, [f"{method} not fitted, majority vote used: {reason}"])


def aggregator_state(fitted: Fitted) -> dict[str, Any]:
    """What predict_proba and accuracy need, as tensors and plain values."""
    state: dict[str, Any] = {"format": LABEL_MODEL_FORMAT, "method": fitted.method, "lfs": list(fitted.lfs),
                             "columns": [list(c) for c in fitted.columns]}
    model = fitted.model
    if isinstance(model, DawidSkene):
        state |= {"prior": torch.from_numpy(model.prior.copy()), "confusion": torch.from_numpy(model.confusion.copy()),
                  "iterations": model.iterations}
    elif model is not None:
        state |= {"cardinality": model.cardinality, "mu": model.mu.detach().cpu().clone(),
                  "class_balance": torch.from_numpy(np.asarray(model.p, dtype=np.float64)),
                  "coverage": torch.from_numpy(np.asarray(model.coverage, dtype=np.float64))}
    return state


def save_aggregator(path: Path, fitted: Fitted) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:  # a file object: no temp name inside the archive
        torch.save(aggregator_state(fitted), fh)


def _read_state(path: Path) -> dict[str, Any]:
    rerun = f"rerun the aggregate stage (regscaffold run --out {Path(path).parent} --only aggregate --force)"
    state = load_weights(path, "label model", rerun)
    if not isinstance(state, dict) or state.get("format") != LABEL_MODEL_FORMAT:
        raise UserError(f"{path} is not a {LABEL_MODEL_FORMAT} file; {rerun}")
    return state


def _label_model_from(state: dict[str, Any]) -> LabelModel:
    model = LabelModel(cardinality=state["cardinality"], verbose=False, device="cpu")
    model.m = len(state["columns"])
    model._create_tree()  # the structure fit() builds before learning mu (independent LFs)
    model._set_class_balance(state["class_balance"].tolist())
    model.mu = torch.nn.Parameter(state["mu"])
    model.coverage = state["coverage"].numpy()
    return model.eval()


def load_aggregator(path: Path) -> Fitted:
    """The fitted aggregator a run's aggregate stage saved (majority vote after a fallback)."""
    state = _read_state(Path(path))
    if "confusion" in state:
        model: Any = DawidSkene(state["prior"].numpy(), state["confusion"].numpy(), state["iterations"])
    elif "mu" in state:
        model = _label_model_from(state)
    else:
        model = None
    return Fitted(state["method"], state["lfs"], state["columns"], model)
