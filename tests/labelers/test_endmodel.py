"""The end model: structural features only, and a noise-aware fit that follows the soft labels."""
from __future__ import annotations

import numpy as np
import pandas as pd

from labelers import endmodel

TOKENS = pd.DataFrame({"doc_id": "d", "i": range(5), "pos": ["DET", "ADJ", "NOUN", "AUX", "ADJ"],
                       "dep": ["det", "amod", "nsubj", "ROOT", "acomp"], "lemma": ["the", "red", "ball", "be", "big"]})


def candidate(ent_i: int, attr_i: int, relation: str) -> dict:
    cand = {c: "" for c in endmodel.PAIR_COLUMNS} | {c: False for c in endmodel.FLAG_COLUMNS}
    return cand | {"doc_id": "d", "ent_i": ent_i, "attr_i": attr_i, "relation": relation, "distance": abs(ent_i - attr_i),
                   "nouns_between": 0, "ent_lemma": "ball", "attr_lemma": "red"}


def test_features_describe_structure_not_the_words():
    columns = tuple(TOKENS[c].to_numpy() for c in ("pos", "dep", "lemma"))
    feats = endmodel.pair_features(candidate(2, 4, "predicative"), *columns, window=1)
    assert "relation=predicative" in feats and "between_lemma=be" in feats and "attr-1pos=AUX" in feats
    assert not {f.split("=")[-1] for f in feats} & {"ball", "red", "big"}


def test_noise_aware_fit_follows_soft_labels():
    cands = pd.DataFrame([candidate(2, 1, "amod"), candidate(2, 4, "none")] * 50)
    X = endmodel.featurize(cands, TOKENS)
    p = np.tile([0.9, 0.2], 50)  # soft labels: amod pairs mostly bound, unlinked ones mostly not
    predicted = endmodel.predict(endmodel.fit(X, p, endmodel.EndModelConfig(C=100.0)), X)
    assert abs(predicted[0] - 0.9) < 0.05 and abs(predicted[1] - 0.2) < 0.05


def soft_labelled(n: int = 50) -> tuple[pd.DataFrame, np.ndarray]:
    return pd.DataFrame([candidate(2, 1, "amod"), candidate(2, 4, "none")] * n), np.tile([0.9, 0.2], n)


def test_too_few_or_one_sided_train_rows_have_a_reason_to_fall_back():
    p = np.tile([0.9, 0.2], 50)
    assert endmodel.fallback_reason(100, p, 200) == \
        "only 100 train-split candidate(s) have a vote (endmodel.min_train_rows = 200)"
    assert "one class only" in endmodel.fallback_reason(100, np.full(100, 0.1), 10)
    assert endmodel.fallback_reason(100, p, 10) is None


def test_the_feature_column_round_trips_a_shard_of_features():
    cands = pd.DataFrame([candidate(2, 1, "amod"), candidate(2, 4, "none")] * 5)
    X = endmodel.featurize(cands, TOKENS)
    back = endmodel.from_feature_column(endmodel.feature_column(X).slice(2))  # a slice keeps its offsets
    assert (back != X[2:]).nnz == 0 and back.shape == (8, endmodel.N_FEATURES)


def test_the_weights_round_trip_byte_identically_and_a_pickle_is_refused(tmp_path):
    import pytest
    import torch

    from pipeline.core.errors import UserError

    cands, p = soft_labelled()
    X = endmodel.featurize(cands, TOKENS)
    models = [endmodel.fit(X, p, endmodel.EndModelConfig()) for _ in range(2)]
    for n, model in enumerate(models):
        endmodel.save_end_model(tmp_path / f"{n}.pt", model)
    assert (tmp_path / "0.pt").read_bytes() == (tmp_path / "1.pt").read_bytes()
    loaded = endmodel.load_end_model(tmp_path / "0.pt")
    assert np.array_equal(loaded.predict(X), models[0].predict(X)) and loaded.window == 2
    endmodel.save_end_model(tmp_path / "none.pt", None)
    assert endmodel.load_end_model(tmp_path / "none.pt") is None

    class Payload:
        def __reduce__(self):
            return open, (str(tmp_path / "code-ran"), "w")

    torch.save({"format": endmodel.ENDMODEL_FORMAT, "fitted": Payload()}, tmp_path / "evil.pt")
    with pytest.raises(UserError, match="could run code: rerun the endmodel stage"):
        endmodel.load_end_model(tmp_path / "evil.pt")
    assert not (tmp_path / "code-ran").exists()


def test_config_problems_name_the_bad_values():
    assert endmodel.EndModelConfig(C=0.0, max_iter=0).problems() == ["max_iter must be >= 1, got 0",
                                                                     "C must be > 0, got 0.0"]
    assert endmodel.EndModelConfig().problems() == []
