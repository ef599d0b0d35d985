"""The end model, Snorkel's second step: a discriminative classifier of candidate pairs trained on the
aggregated probabilistic labels, so that labels can generalise past what the LFs enumerate.

Features are hashed strings of the pair's structure, never the words of the entity or the adjective
themselves (those would learn this corpus's noun-adjective habits, not binding): the dependency path,
relation, POS / tag / dependency labels of both ends and of the words around and between them, the
lemmas of closed-class words between them, the governor's lemma, distance buckets and the adjective's
lexicon class. The loss is noise-aware: each training row appears as BOUND with weight P(BOUND) and as
NOT_BOUND with weight 1 - P(BOUND) (the expected log loss under the soft label). Train rows are the
train split's candidates with at least one vote (an all-abstain row only echoes the prior).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression

N_FEATURES = 2 ** 18
CLOSED_CLASS = frozenset({"ADP", "AUX", "CCONJ", "SCONJ", "DET", "PART", "PRON", "PUNCT"})
PAIR_COLUMNS = ["relation", "base_relation", "dep_path", "ent_pos", "ent_tag", "ent_dep", "ent_kind", "attr_pos",
                "attr_tag", "attr_dep", "attr_type", "gov_lemma", "prep"]
FLAG_COLUMNS = ["same_clause", "negated", "neg_det", "than_follows", "in_name", "expletive_it", "attr_before",
                "nearest_mention", "next_mention", "ent_subject", "ent_definite", "ent_plural"]


@dataclass
class EndModelConfig:
    C: float = 1.0
    """Inverse L2 strength of the logistic regression."""
    max_iter: int = 300
    """Solver iterations."""
    window: int = 2
    """Words either side of each end whose POS and dependency labels are features."""


def _bucket(distance: int) -> str:
    return str(distance) if distance <= 3 else "4-6" if distance <= 6 else "7-12" if distance <= 12 else ">12"


def pair_features(cand: dict, pos: np.ndarray, dep: np.ndarray, lemma: np.ndarray, window: int) -> list[str]:
    """The feature strings of one candidate; ``pos``, ``dep``, ``lemma`` are its passage's token columns."""
    feats = [f"{c}={cand[c]}" for c in PAIR_COLUMNS] + [c for c in FLAG_COLUMNS if bool(cand[c])]
    feats += [f"dist={_bucket(int(cand['distance']))}", f"nouns_between={min(int(cand['nouns_between']), 3)}",
              f"rel+path={cand['relation']}|{cand['dep_path']}"]
    ent_i, attr_i = int(cand["ent_i"]), int(cand["attr_i"])
    for end, i in (("ent", ent_i), ("attr", attr_i)):
        for k in range(-window, window + 1):
            if k and 0 <= i + k < len(pos):
                feats += [f"{end}{k:+d}pos={pos[i + k]}", f"{end}{k:+d}dep={dep[i + k]}"]
    lo, hi = sorted((ent_i, attr_i))
    between = range(lo + 1, hi)
    feats += [f"between_lemma={lemma[i]}" for i in between if pos[i] in CLOSED_CLASS]
    feats += [f"between_pos={p}" for p in sorted({pos[i] for i in between})]
    return feats


def featurize(cands: pd.DataFrame, tokens: pd.DataFrame, window: int = 2) -> sparse.csr_matrix:
    """(n_candidates, N_FEATURES) binary feature matrix, rows in candidate-table order."""
    columns = {doc_id: tuple(group.sort_values("i")[c].to_numpy() for c in ("pos", "dep", "lemma"))
               for doc_id, group in tokens.groupby("doc_id", sort=False)}
    rows = [pair_features(cand, *columns[cand["doc_id"]], window) for cand in cands.to_dict("records")]
    hasher = FeatureHasher(n_features=N_FEATURES, input_type="string", alternate_sign=False)
    X = hasher.transform(rows).tocsr()
    X.data[:] = 1.0
    return X


def fit(X: sparse.csr_matrix, p_bound: np.ndarray, config: EndModelConfig) -> LogisticRegression:
    """Noise-aware logistic regression on soft labels ``p_bound``."""
    model = LogisticRegression(C=config.C, max_iter=config.max_iter, solver="lbfgs")
    stacked = sparse.vstack([X, X]).tocsr()
    y = np.r_[np.ones(X.shape[0]), np.zeros(X.shape[0])]
    model.fit(stacked, y, sample_weight=np.r_[p_bound, 1.0 - p_bound])
    return model


def predict(model: LogisticRegression, X: sparse.csr_matrix) -> np.ndarray:
    return model.predict_proba(X)[:, list(model.classes_).index(1.0)]
