"""The tests' one builder of run folders, written through ``save``: ``write_run`` (docs and hand-made
registers, for the trainer) and ``write_labeled_run`` (every file of a labeled run, the end model's labels
being the aggregate's: five passages "The <a> <noun> was <b> . <Name> was <c> .", for probe sets, label
variants and measures)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from labelers.registers import materialise
from pipeline.core import schemas as S
from pipeline.core.io import file_sha256, write_parquet


def save(run_dir: Path, docs: pd.DataFrame, registers, meta: dict) -> Path:
    """docs.parquet, then registers.parquet with ``meta`` over the defaults (kind, schema version, the docs
    file's hash), so a test may corrupt any of them."""
    write_parquet(docs, run_dir / S.DOCS, {"kind": "docs", "schema_version": S.SCHEMA_VERSION})
    defaults = {"kind": "registers", "schema_version": S.SCHEMA_VERSION, "docs_sha256": file_sha256(run_dir / S.DOCS)}
    write_parquet(registers, run_dir / S.REGISTERS, defaults | meta)
    return run_dir


VOCAB = ["NOTHING", "OTHER", "red", "soft"]
SLOTS = 2
TEXTS = {
    "train": ["Emma's café — naïve, isn't it?  Yes.", "The red hat; the soft book.\nA new line",
              "Mr. Knightley's \"red\" cup..."],
    "valid": ["Naïve Emma said: the big ball is red!"],
}
SPACY_LIKE = re.compile(r"'\w+|\w+|[^\w\s]")  # splits "Emma's" into "Emma", "'s" as spaCy does


def spans_of(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in SPACY_LIKE.finditer(text)]


def labels_of(n_tokens: int) -> tuple[np.ndarray, np.ndarray]:
    """Slot 0 holds 'red' from the third token on, slot 1 'soft' (confidence 0.6) from the fifth on."""
    labels = np.zeros((n_tokens, SLOTS), dtype=np.int16)
    conf = np.ones((n_tokens, SLOTS), dtype=np.float32)
    labels[2:, 0] = 2
    labels[4:, 1], conf[4:, 1] = 3, 0.6
    return labels, conf


def write_run(run_dir: Path, texts: dict[str, list[str]] = TEXTS, vocab: list[str] = VOCAB,
              edit=None) -> Path:
    """docs.parquet + hand-made registers.parquet; ``edit(docs_df, registers_df, meta)`` may corrupt them first."""
    docs = pd.DataFrame([(S.doc_id_for(t), "fixture", split, t) for split, ts in texts.items() for t in ts],
                        columns=S.DOC_COLUMNS)
    rows = []
    for doc_id, text in zip(docs["doc_id"], docs["text"]):
        spans = spans_of(text)
        labels, conf = labels_of(len(spans))
        rows += [(doc_id, i, s, e, labels[i].tolist(), conf[i].tolist()) for i, (s, e) in enumerate(spans)]
    regs = pd.DataFrame(rows, columns=S.REGISTER_COLUMNS)
    meta = {"slots": SLOTS, "vocab": list(vocab)}
    if edit is not None:
        edit(docs, regs, meta)
    schema = pa.schema([("doc_id", pa.string()), ("i", pa.int32()), ("start", pa.int32()), ("end", pa.int32()),
                        ("labels", pa.list_(pa.int16())), ("conf", pa.list_(pa.float32()))])
    return save(run_dir, docs, pa.Table.from_pandas(regs, schema=schema, preserve_index=False), meta)


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
    write_parquet(tokens_df, run_dir / S.TOKENS, {**meta, "kind": "tokens"})
    write_parquet(cands_df, run_dir / S.CANDIDATES, {**meta, "kind": "candidates"})
    write_parquet(bindings, run_dir / S.BINDINGS, {**meta, "kind": "bindings", "threshold": THRESHOLD})
    labels = pd.DataFrame({"cand_id": bindings["cand_id"], "p_bound": bindings["p_lm"], "accepted": bindings["accepted"]})
    write_parquet(labels, run_dir / S.ENDMODEL, {**meta, "kind": "endmodel", "source": "aggregate", "threshold": THRESHOLD})
    table, vocab, _ = materialise(tokens_df, cands_df, bindings["p_lm"].to_numpy(), THRESHOLD, 2, 20)
    return save(run_dir, docs_df, table, {"slots": 2, "vocab": vocab, "threshold": THRESHOLD})
