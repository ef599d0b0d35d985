"""benchmarks/gold_anchor.py: the vote columns beside the features, and gold rows that move the end model."""
from __future__ import annotations

import numpy as np
from scipy import sparse

from bench_loader import load_benchmark
from labelers.labels import ABSTAIN, BOUND, NOT_BOUND


def test_votes_become_one_column_per_lf_and_class():
    bench = load_benchmark("gold_anchor")
    X = sparse.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0]]))
    L = np.array([[BOUND, ABSTAIN], [NOT_BOUND, BOUND]])
    got = bench.with_votes(X, L).toarray()
    assert got.tolist() == [[1, 0, 1, 0, 0, 0], [0, 2, 0, 1, 1, 0]]


def test_weighted_gold_rows_overrule_the_weak_labels():
    bench = load_benchmark("gold_anchor")
    # three LFs vote BOUND on kinds 0 and 1 and NOT_BOUND on kind 2, so the weak labels call kind 1 bound;
    # the gold says it is not
    kind = np.arange(60) % 3  # 20 weak rows of each kind against 50 copies of one gold row
    L = np.repeat(np.where(kind == 2, NOT_BOUND, BOUND)[:, None], 3, axis=1)
    X = sparse.csr_matrix(np.stack([kind == k for k in range(3)], axis=1).astype(float))
    data = {"L": L, "train": np.ones(60, bool), "X": bench.with_votes(X, L)}
    probs = bench.fits(data, data["X"][[0, 1]], np.array([1.0, 0.0]))
    assert (probs["weak + gold x0"][:2] > 0.5).all()
    assert probs["weak + gold x50"][0] > 0.5 > probs["weak + gold x50"][1]
    assert probs["gold only"][0] > 0.5 > probs["gold only"][1]
