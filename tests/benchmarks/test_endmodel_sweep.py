"""benchmarks/endmodel_sweep.py's contextual vectors: the tok2vec output of each candidate's two tokens,
recomputed from the run's token table, standardised per column."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bench_loader import load_benchmark
from labelers.parsing import parse_frame
from pipeline.core import schemas as S
from pipeline.core.io import write_parquet

TEXTS = {"a": "The old captain was tired.", "b": "Anne seemed happy today."}


def test_vectors_are_the_tok2vec_output_of_both_ends_standardised(nlp, tmp_path):
    sweep = load_benchmark("endmodel_sweep")
    write_parquet(parse_frame(nlp, list(TEXTS), list(TEXTS.values()), 8, 1), tmp_path / S.TOKENS)
    # (doc, ent_i, attr_i): captain-old, captain-tired, Anne-happy
    cands = pd.DataFrame([("a", 2, 1), ("a", 2, 4), ("b", 0, 2)], columns=["doc_id", "ent_i", "attr_i"])
    got = sweep.contextual_vectors(tmp_path, cands).toarray()
    tensors = {doc_id: nlp(text).tensor for doc_id, text in TEXTS.items()}
    raw = np.array([np.r_[tensors[d][e], tensors[d][a]] for d, e, a in cands.itertuples(index=False)])
    assert got.shape == raw.shape == (3, 192)
    np.testing.assert_allclose(got, raw / (raw.std(axis=0, keepdims=True) + 1e-6) * sweep.VECTOR_SCALE,
                               rtol=1e-4, atol=1e-5)
    assert np.array_equal(got[0, :96], got[1, :96]) and not np.array_equal(got[0, 96:], got[1, 96:])
