from types import SimpleNamespace

import numpy as np
import pytest

from labelers.aggregation import (AGGREGATORS, FALLBACK, Settings, fit_options, load_aggregator, majority_proba,
                                  save_aggregator)


def settings(**changes) -> Settings:
    return Settings(**({"epochs": 200, "lr": 0.01, "l2": 0.0, "seed": 0, "class_balance": "learned",
                        "min_train_rows": 100} | changes))


def aggregate(L: np.ndarray, train: np.ndarray, lf_names: list[str], method: str, s: Settings) -> SimpleNamespace:
    """Fit on the train rows and apply to every row, as the aggregate stage does (it applies shard by shard)."""
    fits = fit_options(L[train], lf_names, method, s)
    options = fits.apply(L)
    return SimpleNamespace(options=options, p_lm=options[fits.chosen.method], p_mv=options["majority"],
                           method=fits.method, warnings=fits.warnings, weights=fits.weights, fitted=fits.chosen,
                           option_info=fits.option_info, seconds=fits.seconds)


def noisy_votes(n: int, accuracies: tuple[float, ...], seed: int = 0, abstain: float = 0.3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, n)
    L = np.stack([np.where(rng.random(n) < acc, truth, 1 - truth) for acc in accuracies], 1)
    L[rng.random(L.shape) < abstain] = -1
    return L, truth


def test_majority_vote_probabilities():
    L = np.array([[1, 1, 0], [0, 0, -1], [1, 0, -1], [-1, -1, -1]])
    assert majority_proba(L).tolist() == [1.0, 0.0, 0.5, 0.5]


def test_label_model_fits_and_falls_back_when_too_small():
    L, truth = noisy_votes(2000, (0.9, 0.8, 0.7, 0.6))
    train = np.arange(2000) < 1500
    fitted = aggregate(L, train, ["a", "b", "c", "d"], "label_model", settings())
    assert fitted.method == "label_model" and not fitted.warnings
    assert ((fitted.p_lm >= 0.5) == truth).mean() > 0.85
    assert fitted.weights["a"] > fitted.weights["d"]
    small = aggregate(L[:20], train[:20], ["a", "b", "c", "d"], "label_model", settings(epochs=10))
    assert small.method == FALLBACK and "majority vote used" in small.warnings[0]
    assert np.array_equal(small.p_lm, small.p_mv)
    assert all(not small.option_info[m]["fitted"] for m in AGGREGATORS if m != "majority")
    two = aggregate(L[:, :2], train, ["a", "b"], "dawid_skene", settings(epochs=10, min_train_rows=1))
    assert two.method == FALLBACK and "at least 3" in two.warnings[0]


def test_every_option_is_fitted_and_the_chosen_one_is_the_run_label():
    L, truth = noisy_votes(3000, (0.9, 0.85, 0.8, 0.7, 0.65), seed=3)
    rng = np.random.default_rng(4)
    L[:, 0] = np.where((truth == 1) & (rng.random(3000) < 0.7), 1, -1)  # a: a BOUND-only LF
    L[:, 1] = np.where(rng.random(3000) < 0.95, L[:, 0], -1)  # b fires (almost) wherever a does: one group
    train = np.arange(3000) < 2400
    for method in AGGREGATORS:
        result = aggregate(L, train, list("abcde"), method, settings(class_balance="majority"))
        assert result.method == method and set(result.options) == set(AGGREGATORS)
        assert np.array_equal(result.p_lm, result.options[method])
        assert np.array_equal(result.p_mv, result.options["majority"])
        assert ((result.p_lm > 0.5) == truth).mean() > 0.75, method  # 0.78 (label_model) to 0.86 (majority)
        assert set(result.seconds) == set(AGGREGATORS)
    grouped = result.option_info["grouped_label_model"]
    assert grouped["groups"] == ["a+b"] and set(grouped["lf_accuracy_estimates"]) == {"a+b", "c", "d", "e"}
    assert result.option_info["label_model"]["class_balance_bound"] == pytest.approx(
        float(np.clip(result.options["majority"][train].mean(), 0.01, 0.99)))
    assert result.option_info["snorkel_defaults"]["class_balance_bound"] == 0.5


def test_an_lf_that_never_votes_on_train_gets_no_learned_accuracy():
    L, _ = noisy_votes(1000, (0.9, 0.8, 0.7), seed=1, abstain=0.0)
    L = np.c_[L, np.full(1000, -1)]
    fitted = aggregate(L, np.ones(1000, bool), ["a", "b", "c", "silent"], "label_model",
                       settings(epochs=100, min_train_rows=10))
    assert set(fitted.weights) == {"a", "b", "c"}  # Snorkel reports the clipped 0/0 of "silent" as 1.0


def test_ties_and_rows_without_votes_are_never_bindings():
    from pipeline.core.registers import is_binding

    L = np.array([[1, 1, 0], [0, 0, -1], [1, 0, -1], [-1, -1, -1]])
    assert is_binding(majority_proba(L), 0.5).tolist() == [True, False, False, False]
    assert is_binding(np.float32([0.5, 0.50001, 0.7, 0.71]), 0.7).tolist() == [False, False, False, True]
    fallback = aggregate(L, np.ones(4, bool), ["a", "b", "c"], "label_model", settings(epochs=10))
    assert fallback.method == FALLBACK and is_binding(fallback.p_lm, 0.5).tolist() == [True, False, False, False]


class Payload:
    """A pickle that creates a file when loaded: what a hostile run folder could hold."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


@pytest.mark.parametrize("method", list(AGGREGATORS))
def test_each_option_round_trips_as_parameters(tmp_path, method):
    L, _ = noisy_votes(600, (0.9, 0.8, 0.7, 0.7), seed=1)
    L[:, 3] = np.where(L[:, 2] != -1, L[:, 2], L[:, 3])
    fitted = aggregate(L, np.ones(600, bool), list("abcd"), method, settings(epochs=50, min_train_rows=10)).fitted
    save_aggregator(tmp_path / "a.pt", fitted)
    save_aggregator(tmp_path / "b.pt", fitted)
    assert (tmp_path / "a.pt").read_bytes() == (tmp_path / "b.pt").read_bytes()
    loaded = load_aggregator(tmp_path / "a.pt")
    assert loaded.method == method and loaded.lfs == list("abcd") and loaded.columns == fitted.columns
    assert np.array_equal(loaded.predict_proba(L), fitted.predict_proba(L))
    assert loaded.accuracy(L) == fitted.accuracy(L)


def test_a_pickle_or_a_damaged_file_is_refused(tmp_path):
    import torch

    from pipeline.core.errors import UserError

    marker = tmp_path / "code-ran"
    torch.save({"format": "regscaffold-label-model/2", "method": "label_model", "lfs": Payload(marker)},
               tmp_path / "evil.pt")
    with pytest.raises(UserError, match="refused because loading such objects could run code"):
        load_aggregator(tmp_path / "evil.pt")
    assert not marker.exists()
    (tmp_path / "cut.pt").write_bytes(b"PK\x03\x04 half an archive")
    with pytest.raises(UserError, match="damaged: rerun the aggregate stage"):
        load_aggregator(tmp_path / "cut.pt")
    torch.save({"format": "regscaffold-label-model/1"}, tmp_path / "old.pt")
    with pytest.raises(UserError, match="is not a regscaffold-label-model/2 file"):
        load_aggregator(tmp_path / "old.pt")
