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
