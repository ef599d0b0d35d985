"""The end model, Snorkel's second step: a discriminative classifier of candidate pairs trained on the
aggregated probabilistic labels, so that labels can generalise past what the LFs enumerate.

Features are hashed strings of the pair's structure, never the words of the entity or the adjective
themselves (those would learn this corpus's noun-adjective habits, not binding): the dependency path,
relation, POS / tag / dependency labels of both ends and of the words around and between them, the
lemmas of closed-class words between them, the governor's lemma, distance buckets, the number of
intervening nouns, the adjective's lexicon class, and whether a guard rule rules the pair out
(labelers.lfs._util.blocked: negated, not asserted, determiner-like, an ordinal, a fixed phrase...; the
adjective's word is no feature, so without it "a great deal" and "the 19th century" look like any
attributive pair). spaCy's contextual token vectors (tok2vec's 96 floats) of the two ends are not among
them: added to these features they moved no valid-chapter gold decision and at most one row on the other
dev sets (benchmarks/endmodel_sweep.py), so the stage does not pay to recompute them. The loss is
noise-aware: each training row appears as BOUND with weight P(BOUND) and as NOT_BOUND with weight
1 - P(BOUND) (the expected log loss under the soft label). Train rows are the train split's candidates
with at least one vote (an all-abstain row only echoes the prior).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
from scipy import sparse
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression

from labelers.lfs._util import BLOCK, GUARD_COLUMNS, blocked
from pipeline.core.errors import UserError
from pipeline.core.io import atomic_path, load_weights

N_FEATURES = 2 ** 18
CLOSED_CLASS = frozenset({"ADP", "AUX", "CCONJ", "SCONJ", "DET", "PART", "PRON", "PUNCT"})
PAIR_COLUMNS = ["relation", "base_relation", "dep_path", "ent_pos", "ent_tag", "ent_dep", "ent_kind", "attr_pos",
                "attr_tag", "attr_dep", "attr_type", "gov_lemma", "prep"]
FLAG_COLUMNS = ["same_clause", "negated", "non_asserted", "neg_det", "than_follows", "in_name", "adverbial_idiom",
                "expletive_it", "attr_before", "nearest_mention", "next_mention", "ent_subject", "ent_definite",
                "ent_plural"]


ENDMODEL_FORMAT = "regscaffold-end-model/1"


@dataclass
class EndModelConfig:
    enabled: bool = True
    """Train the end model and give the registers its labels; false: the registers take the aggregate's.
    On by default: it ties the aggregate on the valid chapters' gold passages and is the one option above
    majority vote on the train-chapter dev set, at the edge of the bootstrap interval (README, "Aggregators")."""
    C: float = 1.0
    """Inverse L2 strength of the logistic regression."""
    max_iter: int = 300
    """Solver (L-BFGS) iterations: the epochs of this model. L-BFGS draws no random numbers, so the same
    labels give the same weights without a seed."""
    window: int = 2
    """Words either side of each end whose POS and dependency labels are features (their closed-class lemmas
    too scored 0.752 passage F1 on the valid chapters' gold against 0.757 without: left out)."""
    min_train_rows: int = 200
    """Fewer train-split candidates with a vote than this: no end model, the aggregate's labels are used
    (warned)."""
    max_fit_rows: int = 500_000
    """Fitted on at most about this many train rows: above it, on a seeded sample of each shard (the same
    sample whatever the cluster), so that the one step that is not per shard stays bounded. The bundled
    corpus has about 204k train rows with a vote, all of them used (fitted in about 3 s)."""
    seed: int = 0
    """Seed of that sample."""

    def problems(self) -> list[str]:
        found = [f"{name} must be >= {low}, got {getattr(self, name)!r}"
                 for name, low in (("max_iter", 1), ("window", 0), ("min_train_rows", 1), ("max_fit_rows", 1))
                 if getattr(self, name) < low]
        return found + ([] if self.C > 0 else [f"C must be > 0, got {self.C!r}"])


def _bucket(distance: int) -> str:
    return str(distance) if distance <= 3 else "4-6" if distance <= 6 else "7-12" if distance <= 12 else ">12"


class _Block(NamedTuple):
    """The features of one template: candidate ``rows[k]`` has the feature ``names[codes[k]]``."""
    rows: np.ndarray
    codes: np.ndarray
    names: list[str]


def _by_value(rows: np.ndarray, values: Any, name: Callable[[Any], str]) -> _Block:
    """A feature named by each row's value; ``name`` formats each distinct value once, not each row (a
    missing value is kept, as float NaN: "nan", as an f-string of the row would write it)."""
    codes, distinct = pd.factorize(values, use_na_sentinel=False)
    return _Block(rows, codes, [name(v) for v in distinct])


def _candidate_blocks(cands: pd.DataFrame) -> list[_Block]:
    """The features of the candidate's own columns: its ends, relation, path, flags, distances."""
    rows = np.arange(len(cands))
    blocks = [_by_value(rows, cands[c], lambda v, c=c: f"{c}={v}") for c in PAIR_COLUMNS]
    for c in FLAG_COLUMNS:  # a flag is a feature where it is set (truthiness, as bool() of the value)
        flagged = np.flatnonzero(cands[c].to_numpy().astype(bool))
        blocks.append(_Block(flagged, np.zeros(len(flagged), np.int64), [c]))
    guarded = np.flatnonzero([blocked(x, BLOCK) for x in cands[GUARD_COLUMNS].itertuples(index=False)])
    blocks.append(_Block(guarded, np.zeros(len(guarded), np.int64), ["blocked"]))  # see module docstring
    blocks += [_by_value(rows, cands["distance"], lambda d: f"dist={_bucket(int(d))}"),
               _by_value(rows, cands["nouns_between"], lambda m: f"nouns_between={min(int(m), 3)}")]
    relation, relations = pd.factorize(cands["relation"], use_na_sentinel=False)
    path, paths = pd.factorize(cands["dep_path"], use_na_sentinel=False)
    relations, paths = list(relations), list(paths)  # plain lists: a pandas Index is slow to index one by one
    return blocks + [_by_value(rows, relation * len(paths) + path,
                               lambda k: f"rel+path={relations[k // len(paths)]}|{paths[k % len(paths)]}")]


def _passages(cands: pd.DataFrame, tokens: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tokens' order that puts each passage's tokens end to end in ``i`` order, and each candidate's
    passage's start and length in that order (its token at ``i`` is at start + i)."""
    doc, docs = pd.factorize(tokens["doc_id"])
    order = np.lexsort((tokens["i"].to_numpy(), doc))
    counts = np.bincount(doc, minlength=len(docs))
    which = docs.get_indexer(cands["doc_id"])
    if (which < 0).any():
        missing = cands["doc_id"].iloc[np.flatnonzero(which < 0)[0]]
        raise ValueError(f"candidates of passage {missing!r} have no tokens")
    length = counts[which]
    for end in ("ent_i", "attr_i"):  # an end outside its passage would read a neighbouring passage's tokens
        if ((cands[end] < 0) | (cands[end] >= length)).any():
            raise ValueError(f"a candidate's {end} is outside its passage's tokens")
    return order, (np.cumsum(counts) - counts)[which], length


def _window_blocks(ends: dict[str, np.ndarray], start: np.ndarray, length: np.ndarray,
                   labels: dict[str, tuple[np.ndarray, pd.Index]], window: int) -> list[_Block]:
    """POS and dependency labels of the words at offsets -window..window (not 0) of each end, where the
    passage has a word there (a window is cut at the passage's edges)."""
    blocks = []
    for end, i in ends.items():
        for k in (k for k in range(-window, window + 1) if k):
            rows = np.flatnonzero((i + k >= 0) & (i + k < length))
            at = start[rows] + i[rows] + k
            blocks += [_Block(rows, codes[at], [f"{end}{k:+d}{label}={v}" for v in values])
                       for label, (codes, values) in labels.items()]
    return blocks


def _between_blocks(ends: dict[str, np.ndarray], start: np.ndarray, pos: tuple[np.ndarray, pd.Index],
                    lemma: np.ndarray) -> list[_Block]:
    """The lemmas of closed-class words between the two ends, and the POS tags between them (a tag met
    twice is one feature: the set of tags)."""
    lo, hi = np.minimum(ends["ent"], ends["attr"]), np.maximum(ends["ent"], ends["attr"])
    count = np.maximum(hi - lo - 1, 0)
    rows = np.repeat(np.arange(len(lo)), count)
    # the j-th word between a row's ends is at start + lo + 1 + j; one arange counts on across all rows,
    # so each row's base subtracts the place of its first entry in it
    at = np.repeat(start + lo + 1 - (np.cumsum(count) - count), count) + np.arange(count.sum())
    codes, values = pos
    closed = values.isin(list(CLOSED_CLASS))[codes[at]]
    return [_by_value(rows[closed], lemma[at[closed]], lambda v: f"between_lemma={v}"),
            _Block(rows, codes[at], [f"between_pos={v}" for v in values])]


def _matrix(n: int, blocks: list[_Block]) -> sparse.csr_matrix:
    """The blocks as an (n, N_FEATURES) binary matrix. Only the distinct names are hashed, by sklearn's
    FeatureHasher itself (so an index is the one it gives a row holding that feature)."""
    names = [name for block in blocks for name in block.names]
    hasher = FeatureHasher(n_features=N_FEATURES, input_type="string", alternate_sign=False)
    column = hasher.transform([[name] for name in names]).indices  # one entry per name, in names order
    offsets = np.cumsum([0] + [len(block.names) for block in blocks])
    rows = np.concatenate([block.rows for block in blocks])
    codes = np.concatenate([block.codes + offset for block, offset in zip(blocks, offsets)])
    X = sparse.csr_matrix((np.ones(len(rows)), (rows, column[codes])), shape=(n, N_FEATURES))
    X.sum_duplicates()  # a feature twice in a row (or two names on one index) is one 1.0
    X.data[:] = 1.0
    return X


def featurize(cands: pd.DataFrame, tokens: pd.DataFrame, window: int = 2) -> sparse.csr_matrix:
    """(n_candidates, N_FEATURES) binary feature matrix, rows in candidate-table order; ``tokens`` holds
    (at least) the candidates' passages' tokens: doc_id, i, pos, dep, lemma.

    Built a template at a time over the whole shard (a Python loop per candidate cost 10x more); the plain
    per-candidate definition is tests/labelers/test_endmodel.py::reference_features, which it must equal."""
    order, start, length = _passages(cands, tokens)
    ends = {"ent": cands["ent_i"].to_numpy(), "attr": cands["attr_i"].to_numpy()}
    labels = {}
    for label in ("pos", "dep"):
        codes, values = pd.factorize(tokens[label], use_na_sentinel=False)
        labels[label] = codes[order], values
    lemma = tokens["lemma"].to_numpy()[order]
    blocks = _candidate_blocks(cands) + _window_blocks(ends, start, length, labels, window)
    return _matrix(len(cands), blocks + _between_blocks(ends, start, labels["pos"], lemma))


def feature_column(X: sparse.csr_matrix) -> pa.Array:
    """A binary feature matrix as a Parquet-ready list column: each row's feature indices."""
    return pa.ListArray.from_arrays(pa.array(X.indptr, pa.int32()), pa.array(X.indices, pa.int32()))


def from_feature_column(column: pa.ChunkedArray | pa.Array) -> sparse.csr_matrix:
    """``feature_column``'s inverse.

    >>> X = sparse.csr_matrix(np.array([[0, 1, 1], [0, 0, 0], [1, 0, 0]]))
    >>> back = from_feature_column(feature_column(X))
    >>> back.shape == (3, N_FEATURES), bool((back[:, :3].toarray() == X.toarray()).all())
    (True, True)
    """
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    offsets = column.offsets.to_numpy().astype(np.int64) - column.offsets[0].as_py()
    indices = column.values.to_numpy()[column.offsets[0].as_py():column.offsets[-1].as_py()].astype(np.int32)
    return sparse.csr_matrix((np.ones(len(indices)), indices, offsets), shape=(len(column), N_FEATURES))


@dataclass
class EndModel:
    """The fitted logistic regression as plain arrays: P(BOUND) = sigmoid(X @ coef + intercept)."""
    coef: np.ndarray
    """(N_FEATURES,) float64."""
    intercept: float
    window: int

    def predict(self, X: sparse.csr_matrix) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(X @ self.coef + self.intercept)))


WEIGHT_DECIMALS = 6
"""Decimals the end model's weights keep: far below what moves a decision (a logit shifts by about 1e-5),
far above the run-to-run noise of the fit (1e-13)."""


def fit(X: sparse.csr_matrix, p_bound: np.ndarray, config: EndModelConfig) -> EndModel:
    """Noise-aware logistic regression on soft labels ``p_bound``."""
    model = LogisticRegression(C=config.C, max_iter=config.max_iter, solver="lbfgs")
    stacked = sparse.vstack([X, X]).tocsr()
    y = np.r_[np.ones(X.shape[0]), np.zeros(X.shape[0])]
    model.fit(stacked, y, sample_weight=np.r_[p_bound, 1.0 - p_bound])
    # both classes are always present (each row once as each), so coef_ is for classes_[1] = BOUND.
    # lbfgs's last bits differ between processes (seen: 7e-14, from how the float sums fall in memory);
    # rounded to WEIGHT_DECIMALS, the weights are the same bytes in every process, as a rerun promises
    coef = np.round(model.coef_[0].astype(np.float64), WEIGHT_DECIMALS)
    return EndModel(coef, round(float(model.intercept_[0]), WEIGHT_DECIMALS), config.window)


def predict(model: EndModel, X: sparse.csr_matrix) -> np.ndarray:
    return model.predict(X)


def fallback_reason(train_rows: int, p_train: np.ndarray, min_train_rows: int) -> str | None:
    """Why no end model can be trained on these rows (None: it can); the aggregate's labels are used then."""
    if train_rows < min_train_rows:
        return f"only {train_rows} train-split candidate(s) have a vote (endmodel.min_train_rows = {min_train_rows})"
    if not ((p_train > 0.5).any() and (p_train < 0.5).any()):
        return "the aggregated train-split labels lean to one class only"
    return None


def save_end_model(path: Path, model: EndModel | None) -> None:
    """The weights as tensors (the nonzero ones), readable with torch.load(weights_only=True)."""
    import torch

    state: dict[str, Any] = {"format": ENDMODEL_FORMAT, "fitted": model is not None, "n_features": N_FEATURES}
    if model is not None:
        nonzero = np.flatnonzero(model.coef)
        state |= {"index": torch.from_numpy(nonzero.astype(np.int64)),
                  "value": torch.from_numpy(model.coef[nonzero].copy()), "intercept": model.intercept,
                  "window": model.window}
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:  # a file object: no temp name inside the archive
        torch.save(state, fh)


def load_end_model(path: Path) -> EndModel | None:
    """The end model a run saved (None: it fell back); never runs code from the file."""
    path = Path(path)
    rerun = f"rerun the endmodel stage (regscaffold run --out {path.parent} --only endmodel --force)"
    state = load_weights(path, "end model", rerun)
    if not isinstance(state, dict) or state.get("format") != ENDMODEL_FORMAT or state.get("n_features") != N_FEATURES:
        raise UserError(f"{path} is not a {ENDMODEL_FORMAT} file of {N_FEATURES} features; {rerun}")
    if not state["fitted"]:
        return None
    coef = np.zeros(N_FEATURES)
    coef[state["index"].numpy()] = state["value"].numpy()
    return EndModel(coef, float(state["intercept"]), int(state["window"]))
