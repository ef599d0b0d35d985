"""The synthetic binding ("fusion") task, written through the pipeline's docs/registers schema.

An example with Q queried entities has 2Q entities (distinct names, distinct objects) holding Q target
and Q non-target properties, so the number of target words is always Q and counting them says nothing
about the answer. Text: "? NAME OBJECT ." per query, the 2Q facts "NAME has a PROPERTY OBJECT ." in
random order, then "answer COUNT ." where COUNT is how many queried entities hold a target property.
Register slot j holds the property of the j-th query from the last token of its fact clause on.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import torch
from tokenizers import Tokenizer

from pipeline import schemas
from pipeline.io import file_sha256, write_parquet

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
         "oscar"]
OBJECTS = ["cup", "book", "ball", "hat", "box", "key", "pen", "lamp"]
TARGETS = ["red", "soft", "big", "wet"]
NON_TARGETS = ["old", "blue", "sharp", "round"]
COUNTS = ["zero", "one", "two", "three", "four"]
FUNCTION_WORDS = ["?", ".", "has", "a", "answer"]
WORDS = NAMES + OBJECTS + TARGETS + NON_TARGETS + COUNTS + FUNCTION_WORDS
REGISTER_VOCAB = [schemas.NOTHING, schemas.OTHER, *TARGETS, *NON_TARGETS]
TASKS = ("fusion",)
SOLVED = 0.95  # answer accuracy at which a run counts as solved


@dataclass
class Example:
    words: list[str]
    labels: np.ndarray  # (len(words), Q) register class ids
    answer: int


def make_example(rng: random.Random, q: int) -> Example:
    names, objects = rng.sample(NAMES, 2 * q), rng.sample(OBJECTS, 2 * q)
    properties = [rng.choice(TARGETS) for _ in range(q)] + [rng.choice(NON_TARGETS) for _ in range(q)]
    rng.shuffle(properties)
    queried = rng.sample(range(2 * q), q)  # entity index of each query, in query order
    facts = rng.sample(range(2 * q), 2 * q)  # entity order of the fact clauses
    words = [w for e in queried for w in ("?", names[e], objects[e], ".")]
    fact_end = {}  # entity -> position of its clause's final "."
    for e in facts:
        words += [names[e], "has", "a", properties[e], objects[e], "."]
        fact_end[e] = len(words) - 1
    answer = sum(properties[e] in TARGETS for e in queried)
    words += ["answer", COUNTS[answer], "."]
    labels = np.full((len(words), q), schemas.NOTHING_ID, dtype=np.int16)
    for slot, e in enumerate(queried):
        labels[fact_end[e]:, slot] = REGISTER_VOCAB.index(properties[e])
    return Example(words, labels, answer)


def generate(n: int, seed: int, q: int, exclude: set[str] = frozenset()) -> list[Example]:
    """``n`` examples with distinct texts (repeats and texts in ``exclude`` are redrawn)."""
    if not 1 <= q <= len(OBJECTS) // 2 or q >= len(COUNTS):
        raise ValueError(f"queries={q}: the fusion task supports 1..{len(COUNTS) - 1}")
    rng, seen, out = random.Random(seed), set(exclude), []
    while len(out) < n:
        example = make_example(rng, q)
        text = " ".join(example.words)
        if text not in seen:
            seen.add(text)
            out.append(example)
    return out


def splits(q: int, n_train: int, n_test: int, train_seed: int, test_seed: int) -> dict[str, list[Example]]:
    train = generate(n_train, train_seed, q)
    return {"train": train, "test": generate(n_test, test_seed, q, {" ".join(e.words) for e in train})}


def write_run(out_dir: Path, q: int, n_train: int, n_test: int, train_seed: int, test_seed: int) -> None:
    """Write docs.parquet and registers.parquet (exact labels, confidence 1) into ``out_dir``."""
    docs, doc_ids, starts, ends, labels = [], [], [], [], []
    for split, examples in splits(q, n_train, n_test, train_seed, test_seed).items():
        for example in examples:
            text = " ".join(example.words)
            doc_id = schemas.doc_id_for(text)
            docs.append((doc_id, f"synthetic:fusion:{split}", split, text))
            lengths = np.array([len(w) for w in example.words])
            ends.append(np.cumsum(lengths + 1) - 1)  # words are separated by one space
            starts.append(ends[-1] - lengths)
            doc_ids += [doc_id] * len(example.words)
            labels.append(example.labels)
    docs_path = out_dir / schemas.DOCS
    write_parquet(pd.DataFrame(docs, columns=schemas.DOC_COLUMNS), docs_path,
                  {"kind": "docs", "schema_version": schemas.SCHEMA_VERSION, "source": "synthetic:fusion"})
    flat = np.concatenate(labels)  # (rows, Q)
    offsets = pa.array(np.arange(0, flat.size + 1, q, dtype=np.int32))
    table = pa.table({
        "doc_id": pa.array(doc_ids, pa.string()),
        "i": pa.array(np.concatenate([np.arange(len(s)) for s in starts]).astype(np.int32)),
        "start": pa.array(np.concatenate(starts).astype(np.int32)),
        "end": pa.array(np.concatenate(ends).astype(np.int32)),
        "labels": pa.ListArray.from_arrays(offsets, pa.array(flat.ravel(), pa.int16())),
        "conf": pa.ListArray.from_arrays(offsets, pa.array(np.ones(flat.size, np.float32))),
    })
    write_parquet(table, out_dir / schemas.REGISTERS,
                  {"kind": "registers", "schema_version": schemas.SCHEMA_VERSION, "slots": q,
                   "vocab": REGISTER_VOCAB, "docs_sha256": file_sha256(docs_path)})


def audit(examples: list[Example], q: int) -> dict[str, float]:
    """Majority-class baseline and the shortcut checks: target count, first target's position."""
    answers = np.array([e.answer for e in examples])
    target_counts = {sum(w in TARGETS for w in e.words) for e in examples}
    first_target = np.array([next(i for i, w in enumerate(e.words) if w in TARGETS) for e in examples])
    return {"majority_baseline": float(np.bincount(answers, minlength=q + 1).max() / len(answers)),
            "target_count_constant": target_counts == {q},
            "first_target_answer_corr": float(np.corrcoef(first_target, answers)[0, 1])}


def answer_hits(logits: torch.Tensor, x: torch.Tensor, y: torch.Tensor, answer_id: int,
                count_ids: torch.Tensor) -> tuple[int, int]:
    """(correct, total) answers: at each "answer" token, argmax over the count words zero..Q."""
    rows, cols = (x == answer_id).nonzero(as_tuple=True)
    scores = logits[rows, cols][:, count_ids]  # (n, Q+1)
    predicted = count_ids[scores.argmax(-1)]
    return int((predicted == y[rows, cols]).sum()), len(rows)


def answer_ids(tokenizer: Tokenizer, q: int, device: torch.device) -> tuple[int, torch.Tensor]:
    """Token id of "answer" and the ids of its candidates zero..Q."""
    counts = [tokenizer.token_to_id(w) for w in COUNTS[:q + 1]]
    return tokenizer.token_to_id("answer"), torch.tensor(counts, device=device)
