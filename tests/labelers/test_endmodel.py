"""The end model: structural features only, and a noise-aware fit that follows the soft labels."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from labelers import endmodel
from labelers.lfs._util import BLOCK, blocked

TOKENS = pd.DataFrame({"doc_id": "d", "i": range(5), "pos": ["DET", "ADJ", "NOUN", "AUX", "ADJ"],
                       "dep": ["det", "amod", "nsubj", "ROOT", "acomp"], "lemma": ["the", "red", "ball", "be", "big"]})


GUARD_FLAGS = ("in_compound", "opens_phrase", "ent_person")
"""Flags that the guard rule (``blocked``) reads and that are no end-model feature columns."""


def candidate(ent_i: int, attr_i: int, relation: str) -> dict:
    cand = {c: "" for c in endmodel.PAIR_COLUMNS} | {c: False for c in endmodel.FLAG_COLUMNS}
    cand |= {c: False for c in GUARD_FLAGS}
    return cand | {"doc_id": "d", "ent_i": ent_i, "attr_i": attr_i, "relation": relation, "distance": abs(ent_i - attr_i),
                   "nouns_between": 0, "quotes_between": 0, "ent_lemma": "ball", "ent_lower": "ball", "attr_lemma": "red",
                   "attr_conj_lemmas": ""}


def test_features_describe_structure_not_the_words():
    cands = pd.DataFrame([candidate(2, 4, "predicative")])
    X = endmodel.featurize(cands, TOKENS, window=1)
    other_words = TOKENS.assign(lemma=["the", "green", "cup", "be", "small"])  # content words only
    assert (endmodel.featurize(cands.assign(ent_lemma="cup", attr_lemma="green"), other_words, 1) != X).nnz == 0
    closed_class = TOKENS.assign(lemma=["the", "red", "ball", "seem", "big"])  # the lemma between the ends
    assert (endmodel.featurize(cands, closed_class, 1) != X).nnz > 0


def test_a_guard_rule_is_a_feature_though_the_words_are_not():
    deal = candidate(2, 1, "amod") | {"ent_lemma": "deal", "ent_lower": "deal", "attr_lemma": "great"}  # an idiom
    house = deal | {"ent_lemma": "house", "ent_lower": "house"}
    X = endmodel.featurize(pd.DataFrame([deal, house]), TOKENS, window=1)
    assert (X[0] != X[1]).nnz == 1 and X[0].sum() == X[1].sum() + 1  # the one difference: "blocked"


def reference_features(cand: dict, pos: np.ndarray, dep: np.ndarray, lemma: np.ndarray, window: int) -> list[str]:
    """The feature strings of one candidate, written out plainly: the definition featurize vectorises."""
    feats = [f"{c}={cand[c]}" for c in endmodel.PAIR_COLUMNS] + [c for c in endmodel.FLAG_COLUMNS if bool(cand[c])]
    feats += ["blocked"] if blocked(pd.Series(cand), BLOCK) else []
    distance = int(cand["distance"])
    bucket = str(distance) if distance <= 3 else "4-6" if distance <= 6 else "7-12" if distance <= 12 else ">12"
    feats += [f"dist={bucket}", f"nouns_between={min(int(cand['nouns_between']), 3)}",
              f"rel+path={cand['relation']}|{cand['dep_path']}"]
    ent_i, attr_i = int(cand["ent_i"]), int(cand["attr_i"])
    for end, i in (("ent", ent_i), ("attr", attr_i)):
        for k in range(-window, window + 1):
            if k and 0 <= i + k < len(pos):
                feats += [f"{end}{k:+d}pos={pos[i + k]}", f"{end}{k:+d}dep={dep[i + k]}"]
    lo, hi = sorted((ent_i, attr_i))
    between = range(lo + 1, hi)
    feats += [f"between_lemma={lemma[i]}" for i in between if pos[i] in endmodel.CLOSED_CLASS]
    feats += [f"between_pos={p}" for p in sorted({pos[i] for i in between})]
    return feats


def reference_matrix(cands: pd.DataFrame, tokens: pd.DataFrame, window: int) -> sparse.csr_matrix:
    from sklearn.feature_extraction import FeatureHasher

    columns = {doc_id: tuple(group.sort_values("i")[c].to_numpy() for c in ("pos", "dep", "lemma"))
               for doc_id, group in tokens.groupby("doc_id", sort=False)}
    rows = [reference_features(cand, *columns[cand["doc_id"]], window) for cand in cands.to_dict("records")]
    X = FeatureHasher(n_features=endmodel.N_FEATURES, input_type="string", alternate_sign=False).transform(rows)
    X = X.tocsr()
    X.sum_duplicates()
    X.data[:] = 1.0
    return X


def mixed_shard(seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Passages of 1 to 40 words (tokens shuffled, some lemmas and dependency labels missing) and candidates
    in no passage order: ends at the passage edges, on the same word, far apart; missing strings (NaN) and
    both flag values."""
    rng = np.random.default_rng(seed)
    tags = ["DET", "ADJ", "NOUN", "PROPN", "AUX", "VERB", "ADP", "PRON", "PUNCT", "CCONJ", "ADV"]
    tokens, cands = [], []
    for doc, n in enumerate([1, 3, 20, 40]):
        pos = rng.choice(tags, n)
        tokens.append(pd.DataFrame({"doc_id": f"p{doc}", "i": np.arange(n), "pos": pos, "dep": rng.choice(
            ["det", "amod", "nsubj", "ROOT", "acomp", "prep", "pobj", "punct"], n), "lemma": [f"w{t}" for t in pos]}))
        ends = [(0, n - 1), (n - 1, 0), (n // 2, n // 2)] + [tuple(rng.integers(0, n, 2)) for _ in range(6)]
        for ent_i, attr_i in ends:
            cands.append({"doc_id": f"p{doc}", "ent_i": ent_i, "attr_i": attr_i, "distance": abs(ent_i - attr_i),
                          "nouns_between": int(rng.integers(0, 6)), "quotes_between": int(rng.integers(0, 2))}
                         | {c: rng.choice(["a", "b", ""]) for c in endmodel.PAIR_COLUMNS}
                         | {c: bool(rng.integers(0, 2)) for c in endmodel.FLAG_COLUMNS + list(GUARD_FLAGS)}
                         | {"ent_lower": "deal", "ent_lemma": "deal", "attr_lemma": rng.choice(["great", "red", "19th"]),
                            "attr_conj_lemmas": ""})
    tokens = pd.concat(tokens, ignore_index=True).sample(frac=1, random_state=seed)
    tokens.loc[tokens.index[:4], ["lemma", "dep"]] = np.nan
    cands = pd.DataFrame(cands).sample(frac=1, random_state=seed).reset_index(drop=True)
    cands.loc[::5, ["gov_lemma", "prep"]] = np.nan
    return cands, tokens


@pytest.mark.parametrize("window", [0, 2, 3])
def test_the_vectorised_features_are_the_per_candidate_definition(window):
    cands, tokens = mixed_shard()
    assert cands["gov_lemma"].isna().any() and cands["distance"].max() > 12 and tokens["lemma"].isna().any()
    X, expected = endmodel.featurize(cands, tokens, window), reference_matrix(cands, tokens, window)
    assert X.shape == expected.shape == (len(cands), endmodel.N_FEATURES) and (X.data == 1.0).all()
    assert np.array_equal(X.indptr, expected.indptr) and np.array_equal(X.indices, expected.indices)


def test_a_candidate_without_its_passage_tokens_is_an_error():
    cands, tokens = mixed_shard()
    with pytest.raises(ValueError, match="passage 'p3' have no tokens"):
        endmodel.featurize(cands, tokens[tokens["doc_id"] != "p3"])
    with pytest.raises(ValueError, match="attr_i is outside"):
        endmodel.featurize(cands.assign(attr_i=cands["attr_i"] + 40), tokens)


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
