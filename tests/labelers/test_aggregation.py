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


def test_an_lf_that_never_votes_on_train_gets_no_learned_accuracy():
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 2, 1000)
    L = np.stack([np.where(rng.random(1000) < acc, truth, 1 - truth) for acc in (0.9, 0.8, 0.7)] +
                 [np.full(1000, -1)], 1)
    fitted = aggregate(L, np.ones(1000, bool), ["a", "b", "c", "silent"], epochs=100, lr=0.01, l2=0.0, seed=0,
                       min_train_rows=10)
    assert set(fitted.weights) == {"a", "b", "c"}  # Snorkel reports the clipped 0/0 of "silent" as 1.0


def test_ties_and_rows_without_votes_are_never_bindings():
    from pipeline.core.registers import is_binding

    L = np.array([[1, 1, 0], [0, 0, -1], [1, 0, -1], [-1, -1, -1]])
    assert is_binding(majority_proba(L), 0.5).tolist() == [True, False, False, False]
    assert is_binding(np.float32([0.5, 0.50001, 0.7, 0.71]), 0.7).tolist() == [False, False, False, True]
    fallback = aggregate(L, np.ones(4, bool), ["a", "b", "c"], epochs=10, lr=0.01, l2=0.0, seed=0,
                         min_train_rows=100)
    assert fallback.model is None and is_binding(fallback.p_lm, 0.5).tolist() == [True, False, False, False]


class Payload:
    """A pickle that creates a file when loaded: what a hostile run folder could hold."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


def test_label_model_round_trips_as_parameters_and_refuses_a_pickle(tmp_path):
    import pytest
    import torch

    from labelers.aggregation import load_label_model, save_label_model
    from pipeline.core.errors import UserError

    rng = np.random.default_rng(1)
    truth = rng.integers(0, 2, 600)
    L = np.stack([np.where(rng.random(600) < acc, truth, 1 - truth) for acc in (0.9, 0.8, 0.7)], 1)
    fitted = aggregate(L, np.ones(600, bool), ["a", "b", "c"], epochs=50, lr=0.01, l2=0.0, seed=0,
                       min_train_rows=10)
    save_label_model(tmp_path / "a.pt", fitted.model, ["a", "b", "c"])
    save_label_model(tmp_path / "b.pt", fitted.model, ["a", "b", "c"])
    assert (tmp_path / "a.pt").read_bytes() == (tmp_path / "b.pt").read_bytes()
    model, lfs = load_label_model(tmp_path / "a.pt")
    assert lfs == ["a", "b", "c"]
    assert np.array_equal(model.predict_proba(L), fitted.model.predict_proba(L))
    assert np.array_equal(model.get_weights(), fitted.model.get_weights())
    save_label_model(tmp_path / "none.pt", None, ["a", "b"])
    assert load_label_model(tmp_path / "none.pt") == (None, ["a", "b"])

    marker = tmp_path / "code-ran"
    torch.save({"format": "regscaffold-label-model/1", "fitted": Payload(marker)}, tmp_path / "evil.pt")
    with pytest.raises(UserError, match="refused because loading such objects could run code"):
        load_label_model(tmp_path / "evil.pt")
    assert not marker.exists()
