import numpy as np

from labelers.aggregation import aggregate, majority_proba


def test_majority_vote_probabilities():
    L = np.array([[1, 1, 0], [0, 0, -1], [1, 0, -1], [-1, -1, -1]])
    assert majority_proba(L).tolist() == [1.0, 0.0, 0.5, 0.5]


def test_label_model_fits_and_falls_back_when_too_small():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 2000)
    L = np.stack([np.where(rng.random(2000) < acc, truth, 1 - truth) for acc in (0.9, 0.8, 0.7, 0.6)], 1)
    L[rng.random(L.shape) < 0.3] = -1
    train = np.arange(2000) < 1500
    fitted = aggregate(L, train, ["a", "b", "c", "d"], epochs=200, lr=0.01, l2=0.0, seed=0, min_train_rows=100)
    assert fitted.model is not None and not fitted.warnings
    assert ((fitted.p_lm >= 0.5) == truth).mean() > 0.85
    assert fitted.weights["a"] > fitted.weights["d"]
    small = aggregate(L[:20], train[:20], ["a", "b", "c", "d"], epochs=10, lr=0.01, l2=0.0, seed=0,
                      min_train_rows=100)
    assert small.model is None and "majority vote used" in small.warnings[0]
    assert np.array_equal(small.p_lm, small.p_mv)
    two = aggregate(L[:, :2], train, ["a", "b"], epochs=10, lr=0.01, l2=0.0, seed=0, min_train_rows=1)
    assert two.model is None and "at least 3" in two.warnings[0]
