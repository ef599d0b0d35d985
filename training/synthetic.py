"""The synthetic binding ("fusion") task, written through the pipeline's docs/registers schema.

An example with Q queried entities has 2Q entities (distinct names, distinct objects) holding Q target
and Q non-target properties, so the number of target words is always Q and counting them says nothing
about the answer. Text: "? NAME OBJECT ." per query, the 2Q facts "NAME has a PROPERTY OBJECT ." in
random order, then "answer COUNT ." where COUNT is how many queried entities hold a target property.
Register slot j holds the property of the j-th query from the last token of its fact clause on.

As in the published generator, the Q target properties are drawn without replacement from the 4 target
words and the Q non-target ones from the 4 others, so the 2Q properties of an example are all distinct.
``NoiseConfig`` corrupts the train split's register labels in controlled, seeded ways (the text and the
next-token targets are never touched), to measure how much label noise the register scaffold survives.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import torch
from tokenizers import Tokenizer

from pipeline.core import schemas
from pipeline.core.io import file_sha256, write_parquet

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
PROPERTY_IDS = np.array([REGISTER_VOCAB.index(p) for p in TARGETS + NON_TARGETS])
NOISE_CONFIDENCE = ("none", "calibrated")


@dataclass
class NoiseConfig:
    wrong: float = 0.0
    """Fraction w of the train split's queried bindings whose register label names another property word
    (uniform over the other 7), from the end of the fact clause to the end of the example."""
    missing: float = 0.0
    """Fraction m of the train split's queried bindings labelled NOTHING throughout (disjoint from wrong)."""
    lag: int = 0
    """Every train binding's label switches on this many tokens after the end of its fact clause."""
    confidence: str = "none"
    """none: every label has confidence 1. calibrated: each labelled binding gets a confidence c drawn from
    Beta(4u, 4(1-u)) with u = 1 - w / (1 - m), and the wrong ones are drawn (exactly round(w x n) of them)
    with probability proportional to 1 - c, so wrong labels get lower confidence on average, as a
    calibrated labeler's would. NOTHING labels keep confidence 1."""
    seed: int = 0
    """Seed of which bindings are corrupted, their wrong words and their confidences."""

    def active(self) -> bool:
        return bool(self.wrong or self.missing or self.lag or self.confidence != "none")

    def problems(self) -> list[str]:
        found = [f"{name} must be in [0, 1], got {getattr(self, name)}"
                 for name in ("wrong", "missing") if not 0.0 <= getattr(self, name) <= 1.0]
        if self.wrong + self.missing > 1.0:
            found.append(f"wrong {self.wrong} + missing {self.missing} must be <= 1 (the two sets are disjoint)")
        if self.lag < 0:
            found.append(f"lag must be >= 0, got {self.lag}")
        if self.confidence not in NOISE_CONFIDENCE:
            found.append(f"confidence {self.confidence!r} is not one of {', '.join(NOISE_CONFIDENCE)}")
        if self.confidence == "calibrated" and self.missing < 1.0 and not 0.0 < self.wrong / (1.0 - self.missing) < 1.0:
            found.append("confidence 'calibrated' needs 0 < wrong < 1 - missing (the mean confidence is "
                         "1 - wrong / (1 - missing))")
        return found


@dataclass
class Example:
    words: list[str]
    labels: np.ndarray  # (len(words), Q) register class ids
    answer: int
    conf: np.ndarray | None = None  # (len(words), Q) label confidences; None = all 1


def make_example(rng: random.Random, q: int) -> Example:
    names, objects = rng.sample(NAMES, 2 * q), rng.sample(OBJECTS, 2 * q)
    properties = rng.sample(TARGETS, q) + rng.sample(NON_TARGETS, q)  # all 2Q distinct, as published
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


def bindings(example: Example) -> list[tuple[int, int]]:
    """(position where the label switches on, register class) of each slot, read off the exact labels."""
    out = []
    for column in example.labels.T:
        start = int(np.argmax(column != schemas.NOTHING_ID))
        out.append((start, int(column[start])))
    return out


def corrupt(examples: list[Example], noise: NoiseConfig) -> list[Example]:
    """Copies of ``examples`` with their register labels corrupted as ``noise`` says (see NoiseConfig)."""
    rng = np.random.default_rng(noise.seed)
    q = examples[0].labels.shape[1] if examples else 0
    n = len(examples) * q  # queried bindings, numbered example-major
    n_wrong, n_missing = round(noise.wrong * n), round(noise.missing * n)
    missing = rng.permutation(n)[:n_missing]
    labelled = np.setdiff1d(np.arange(n), missing)
    conf = np.ones(n)
    if noise.confidence == "calibrated":
        mean = 1.0 - noise.wrong / (1.0 - noise.missing)
        conf[labelled] = rng.beta(4.0 * mean, 4.0 * (1.0 - mean), len(labelled))
    weights = 1.0 - conf[labelled] if noise.confidence == "calibrated" else np.ones(len(labelled))
    wrong = rng.choice(labelled, n_wrong, replace=False, p=weights / weights.sum()) if n_wrong else []
    substitute = dict(zip(wrong, rng.integers(0, len(PROPERTY_IDS) - 1, len(wrong))))
    missing = set(missing.tolist())
    out = []
    for e, example in enumerate(examples):
        labels = np.full_like(example.labels, schemas.NOTHING_ID)
        confs = np.ones(labels.shape, dtype=np.float32)
        for slot, (start, cls) in enumerate(bindings(example)):
            b = e * q + slot
            if b in missing:
                continue
            if b in substitute:  # the k-th property word other than the true one
                others = PROPERTY_IDS[PROPERTY_IDS != cls]
                cls = int(others[substitute[b]])
            labels[start + noise.lag:, slot] = cls
            confs[start + noise.lag:, slot] = conf[b]
        out.append(replace(example, labels=labels, conf=confs))
    return out


def write_run(out_dir: Path, q: int, n_train: int, n_test: int, train_seed: int, test_seed: int,
              noise: NoiseConfig = NoiseConfig()) -> None:
    """Write docs.parquet and registers.parquet into ``out_dir``: exact labels (confidence 1), except that
    the train split's labels are corrupted as ``noise`` says."""
    docs, doc_ids, starts, ends, labels, confs = [], [], [], [], [], []
    data = splits(q, n_train, n_test, train_seed, test_seed)
    if noise.active():
        data["train"] = corrupt(data["train"], noise)
    for split, examples in data.items():
        for example in examples:
            text = " ".join(example.words)
            doc_id = schemas.doc_id_for(text)
            docs.append((doc_id, f"synthetic:fusion:{split}", split, text))
            lengths = np.array([len(w) for w in example.words])
            ends.append(np.cumsum(lengths + 1) - 1)  # words are separated by one space
            starts.append(ends[-1] - lengths)
            doc_ids += [doc_id] * len(example.words)
            labels.append(example.labels)
            confs.append(np.ones(example.labels.shape, np.float32) if example.conf is None else example.conf)
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
        "conf": pa.ListArray.from_arrays(offsets, pa.array(np.concatenate(confs).ravel(), pa.float32())),
    })
    write_parquet(table, out_dir / schemas.REGISTERS,
                  {"kind": "registers", "schema_version": schemas.SCHEMA_VERSION, "slots": q,
                   "vocab": REGISTER_VOCAB, "docs_sha256": file_sha256(docs_path)})


def noise_report(clean: list[Example], noisy: list[Example]) -> dict[str, float]:
    """Measured fractions of wrong, missing and late bindings, and the mean confidence of right and wrong
    labels, comparing each queried binding's noisy label with its exact one."""
    right, wrong, missing, late, conf_right, conf_wrong = 0, 0, 0, 0, [], []
    for a, b in zip(clean, noisy):
        for slot, ((start, cls), column) in enumerate(zip(bindings(a), b.labels.T)):
            if (column == schemas.NOTHING_ID).all():
                missing += 1
                continue
            on = int(np.argmax(column != schemas.NOTHING_ID))
            late += on > start
            is_wrong = column[on] != cls
            wrong, right = wrong + is_wrong, right + (not is_wrong)
            conf = 1.0 if b.conf is None else float(b.conf[on, slot])
            (conf_wrong if is_wrong else conf_right).append(conf)
    n = max(right + wrong + missing, 1)
    return {"bindings": int(n), "wrong": float(wrong / n), "missing": missing / n, "late": float(late / n),
            "mean_conf_right": float(np.mean(conf_right)) if conf_right else float("nan"),
            "mean_conf_wrong": float(np.mean(conf_wrong)) if conf_wrong else float("nan")}


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
