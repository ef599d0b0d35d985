"""benchmarks/gold_anchor.py: the vote columns beside the features, gold rows that move the end model, and
the gold-weighted vote."""
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
    probs = bench.fits(data, data["X"][[0, 1]], L[[0, 1]], np.array([1.0, 0.0]))
    assert (probs["weak + gold x0"][:2] > 0.5).all()
    assert probs["weak + gold x50"][0] > 0.5 > probs["weak + gold x50"][1]
    assert probs["gold only"][0] > 0.5 > probs["gold only"][1]


def test_the_gold_weighted_vote_learns_which_lf_to_trust_against_the_majority():
    bench = load_benchmark("gold_anchor")
    # two LFs outvote the third on every row; the gold says the third is right
    outvoted = np.array([[BOUND, BOUND, NOT_BOUND], [NOT_BOUND, NOT_BOUND, BOUND]])
    L = np.repeat(outvoted, 20, axis=0)
    y = np.repeat([0.0, 1.0], 20)
    data = {"L": L, "train": np.ones(40, bool), "X": bench.with_votes(sparse.csr_matrix(np.ones((40, 1))), L)}
    probs = bench.fits(data, data["X"], L, y)
    assert probs["majority_vote"][0] > 0.5 > probs["majority_vote"][-1]
    for C in bench.VOTE_C:
        p = probs[f"gold-weighted vote, C {C}"]
        assert p[0] < 0.5 < p[-1]
