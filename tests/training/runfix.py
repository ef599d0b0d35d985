"""A hand-made labeled run folder (docs, tokens, candidates, bindings, registers) for the label
variants and probe-set builder tests: five passages "The <a> <noun> was <b> . <Name> was <c> ."."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from labelers.registers import materialise
from pipeline import schemas as S
from pipeline.io import file_sha256, write_parquet

PASSAGES = [  # split, adjective a, noun, b, name, c
    ("train", "red", "ball", "big", "Emma", "tired"),
    ("train", "old", "house", "cold", "Anne", "happy"),
    ("train", "new", "hat", "small", "Jane", "calm"),
    ("valid", "green", "door", "open", "Harriet", "sad"),
    ("test", "blue", "cup", "full", "Marianne", "ill"),
]
THRESHOLD = 0.5


def passage(row: tuple[str, ...]) -> tuple[str, list[str]]:
    _, a, noun, b, name, c = row
    words = ["The", a, noun, "was", b, ".", name, "was", c, "."]
    return " ".join(words), words


def write_labeled_run(run_dir: Path) -> Path:
    docs, tokens, cands, p_lm, p_mv = [], [], [], [], []
    for row in PASSAGES:
        text, words = passage(row)
        doc_id = S.doc_id_for(text)
        docs.append((doc_id, "fixture", row[0], text))
        starts = np.cumsum([0] + [len(w) + 1 for w in words[:-1]])
        spans = [(int(s), int(s) + len(w)) for s, w in zip(starts, words)]
        for i, ((s, e), w) in enumerate(zip(spans, words)):
            tokens.append((doc_id, 0 if i < 6 else 1, i, s, e, w))
        # (ent_i, attr_i, ent_id, kind, p_lm, p_mv): ball-a, ball-b, Name-c accepted; Name-a rejected by
        # the LabelModel but accepted by majority vote
        for ent_i, attr_i, ent_id, kind, p, mv in [(2, 1, 0, "noun", .95, 1.), (2, 4, 0, "noun", .92, 1.),
                                                   (6, 8, 1, "name", .97, 1.), (6, 1, 1, "name", .1, 1.)]:
            cands.append({"cand_id": f"{doc_id}:{ent_i}:{attr_i}", "doc_id": doc_id, "sent": 0 if ent_i < 6 else 1,
                          "ent_i": ent_i, "attr_i": attr_i, "ent_start": spans[ent_i][0], "ent_end": spans[ent_i][1],
                          "attr_start": spans[attr_i][0], "attr_end": spans[attr_i][1], "ent_id": ent_id,
                          "antecedent_i": -1, "split": row[0], "attr_lemma": words[attr_i],
                          "attr_lower": words[attr_i], "ent_kind": kind, "ent_text": words[ent_i],
                          "ent_name": words[ent_i] if kind == "name" else words[ent_i],
                          "ent_lemma": words[ent_i].lower(), "ent_lower": words[ent_i].lower(),
                          "ent_plural": False, "negated": False})
            p_lm.append(p)
            p_mv.append(mv)
    docs_df = pd.DataFrame(docs, columns=S.DOC_COLUMNS)
    tokens_df = pd.DataFrame(tokens, columns=["doc_id", "sent", "i", "start", "end", "text"])
    cands_df = pd.DataFrame(cands)
    bindings = pd.DataFrame({"cand_id": cands_df["cand_id"], "p_lm": np.float32(p_lm), "p_mv": np.float32(p_mv)})
    bindings["accepted"] = bindings["p_lm"] >= THRESHOLD
    meta = {"schema_version": S.SCHEMA_VERSION}
    write_parquet(docs_df, run_dir / S.DOCS, {**meta, "kind": "docs"})
    write_parquet(tokens_df, run_dir / S.TOKENS, {**meta, "kind": "tokens"})
    write_parquet(cands_df, run_dir / S.CANDIDATES, {**meta, "kind": "candidates"})
    write_parquet(bindings, run_dir / S.BINDINGS, {**meta, "kind": "bindings", "threshold": THRESHOLD})
    table, vocab, _ = materialise(tokens_df, cands_df, bindings["p_lm"].to_numpy(), THRESHOLD, 2, 20)
    write_parquet(table, run_dir / S.REGISTERS, {**meta, "kind": "registers", "slots": 2, "vocab": vocab,
                                                "threshold": THRESHOLD, "docs_sha256": file_sha256(run_dir / S.DOCS)})
    return run_dir
