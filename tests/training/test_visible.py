"""Window-visible register targets: only bindings inside the window, at or before t; none invisible."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from pipeline.core.registers import passage_registers
from pipeline.core.schemas import NOTHING, NOTHING_ID, OTHER
from training import visible
from training.data import LabeledRun, invisible_share, pieces
from training.tokenizer import word_level

VOCAB = [NOTHING, OTHER, "happy", "sad", "tired"]
INDEX = {lemma: i for i, lemma in enumerate(VOCAB)}
TEXT = "Emma was sad . Harriet came in . Harriet was happy . Emma was tired . Harriet sat ."
WORDS = TEXT.split()
# words:  Emma 0, sad 2; Harriet 8, happy 10; Emma 12, tired 14; 19 words in all
EVENTS = pd.DataFrame({"ent_i": [0, 8, 12], "attr_i": [2, 10, 14], "ent_id": [0, 1, 0],
                       "attr_lemma": ["sad", "happy", "tired"], "p": [0.9, 0.8, 0.7]})


def test_a_window_keeps_only_the_bindings_inside_it():
    rows = np.arange(6, 16)  # the window covers words 6..15: "in . Harriet was happy . Emma was tired ."
    labels, conf = visible.window_targets(rows, EVENTS, INDEX, slots=2)
    assert visible.window_slot_entities(rows, EVENTS, 2) == [0, 1]  # Emma first (first mention), then Harriet
    emma, harriet = labels[:, 0], labels[:, 1]
    assert (harriet[:4] == NOTHING_ID).all() and (harriet[4:] == INDEX["happy"]).all()  # from "happy" (word 10)
    assert (emma[:8] == NOTHING_ID).all() and (emma[8:] == INDEX["tired"]).all()  # "sad" was before the window
    assert conf[9, 1] == np.float32(0.8)
    assert visible.invisible(labels, rows, EVENTS, [0, 1], INDEX) == (0, 8)


def test_passage_targets_in_a_late_window_are_counted_invisible():
    passage, _ = passage_registers(len(WORDS), EVENTS, INDEX, slots=2)
    rows = np.arange(6, 16)
    bad, total = visible.invisible(passage[rows], rows, EVENTS, [0, 1], INDEX)
    assert (bad, total) == (8, 16)  # Emma's "sad" at words 6-13 was bound before the window began


def run_of(text: str) -> LabeledRun:
    spans = [m.span() for m in re.finditer(r"\S+", text)]
    starts, ends = (np.array(x) for x in zip(*spans))
    labels, conf = passage_registers(len(spans), EVENTS, INDEX, slots=2)
    docs = pd.DataFrame({"doc_id": ["d"], "source_id": ["s"], "split": ["train"], "text": [text]})
    return LabeledRun(docs, VOCAB, 2, {"d": (starts, ends, labels.astype(np.int64), conf)})


def test_window_targets_leave_nothing_invisible_in_any_window():
    tokenizer, events = word_level(WORDS), {"d": EVENTS}
    passage_run = run_of(TEXT)
    window_run = LabeledRun(*vars(passage_run).values())
    window_run.events = events
    for block in (4, 7):
        assert invisible_share(passage_run, events, tokenizer, "train", block)["invisible"] > 0
        assert invisible_share(window_run, events, tokenizer, "train", block)["invisible"] == 0
    assert [len(p.ids) for p in pieces(window_run, tokenizer, "train", 7)] == [8, 8, 5]
