"""In-stream annotation: the bound attribute written after re-mentions of an entity bound inside the window,
the same draws (and exchanged attributes) in its twin, the room rows keep, and natural text where it is not
trained."""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from labelers.probe_sets import passage_assertions
from pipeline.core.registers import passage_registers
from pipeline.core.schemas import NOTHING, OTHER
from training import annotate, readouts, visible
from training.data import DataConfig, LabeledRun, invisible_share, pieces
from training.tokenizer import train_bpe

TEXT = ("The old captain met a sailor . The sailor was young . The captain smiled at the sailor . "
        "She was tired . The captain slept .")
WORD_SPANS = [m.span() for m in re.finditer(r"\S+", TEXT)]
WORDS = TEXT.split()
VOCAB = [NOTHING, OTHER, "old", "young", "tired"]
INDEX = {lemma: i for i, lemma in enumerate(VOCAB)}
# (entity word, adjective word, ent_id, kind): captain-old, sailor-young, she (the sailor)-tired
BOUND = [(2, 1, 0, "noun"), (8, 10, 1, "noun"), (19, 21, 1, "pron")]
MENTIONS = {2: 0, 5: 1, 8: 1, 13: 0, 17: 1, 19: 1, 24: 0}  # word -> ent_id, by the extractor's coreference
DOC = "0123456789abcdef"
SETTINGS = readouts.Settings(pairs=1, tokens=30, twins=True, seed=0, annotate=1.0)


def toy_run() -> LabeledRun:
    rows = []
    for ent_i, attr_i, ent_id, kind in BOUND:
        (es, ee), (as_, ae) = WORD_SPANS[ent_i], WORD_SPANS[attr_i]
        word = WORDS[ent_i]
        rows.append({"ent_i": ent_i, "attr_i": attr_i, "ent_id": ent_id, "ent_start": es, "ent_end": ee,
                     "attr_start": as_, "attr_end": ae, "attr_lower": WORDS[attr_i], "attr_lemma": WORDS[attr_i],
                     "ent_kind": kind, "ent_text": word, "ent_name": word, "ent_lower": word.lower(),
                     "ent_plural": False, "negated": False, "p_lm": 0.97, "p": 0.97})
    cands = pd.DataFrame(rows)
    events = cands[[*visible.EVENT_COLUMNS, *annotate.SOURCE_COLUMNS]]
    starts, ends = (np.array(x) for x in zip(*WORD_SPANS))
    labels, conf = passage_registers(len(WORDS), events, INDEX, slots=3)
    docs = pd.DataFrame({"doc_id": [DOC], "source_id": ["s"], "split": ["train"], "text": [TEXT]})
    mentions = pd.DataFrame([(e, *WORD_SPANS[w]) for w, e in MENTIONS.items()], columns=annotate.MENTION_COLUMNS)
    return LabeledRun(docs, VOCAB, 3, {DOC: (starts, ends, labels.astype(np.int64), conf)}, {DOC: events},
                      {DOC: passage_assertions(cands, TEXT, threshold=0.5, min_p=0.9)}, {DOC: mentions})


@pytest.fixture(scope="module")
def tokenizer():
    return train_bpe([TEXT] * 4, 300)


def decoded(piece, tokenizer) -> str:
    return tokenizer.decode(piece.ids[:len(piece.ids) - piece.readout].tolist())


def test_rementions_after_the_binding_take_its_attribute():
    run = toy_run()
    found = annotate.rementions(TEXT, (0, len(TEXT)), run.events[DOC], run.mentions[DOC])
    # "a sailor" comes before the sailor's binding; "She" is the sailor by coreference, not by its surface
    assert [(TEXT[:end].split()[-1], lemma) for end, lemma in found] == [
        ("captain", "old"), ("sailor", "young"), ("She", "young"), ("captain", "old")]
    assert found[0][0] == WORD_SPANS[13][1]  # "The captain smiled": the binding's own mention is not one
    by_surface = annotate.rementions(TEXT, (0, len(TEXT)), run.events[DOC])
    assert [lemma for _, lemma in by_surface] == ["old", "young", "old"]
    assert annotate.rementions(TEXT, (0, WORD_SPANS[12][1]), run.events[DOC], run.mentions[DOC]) == []


def test_a_window_and_its_twin_carry_the_annotations_with_their_own_attributes(tokenizer):
    window, twin = pieces(toy_run(), tokenizer, "train", 64, SETTINGS)
    assert decoded(window, tokenizer) == (
        "The old captain met a sailor . The sailor was young . The captain (old) smiled at the sailor (young)"
        " . She (young) was tired . The captain (old) slept .")
    assert decoded(twin, tokenizer) == (
        "The young captain met a sailor . The sailor was old . The captain (young) smiled at the sailor (old)"
        " . She (old) was tired . The captain (young) slept .")
    assert window.annotations == twin.annotations == 4 and window.rementions == 4 and twin.rementions == 0
    assert window.annotated == len(window.ids) - window.readout - len(tokenizer.encode(TEXT).ids)
    # an annotation token sits on the row of the mention before it: the targets the text can see are unchanged
    events = {DOC: toy_run().events[DOC]}
    assert invisible_share(toy_run(), events, tokenizer, "train", 64, SETTINGS)["invisible"] == 0


def test_annotation_takes_the_room_the_readouts_leave_and_drops_from_the_last(tokenizer):
    run = dataclasses.replace(toy_run(), assertions={})  # no readout pair: the whole room is the annotations'
    text_tokens = len(tokenizer.encode(TEXT).ids)
    sizes = [len(annotate.insert_ids(lemma, tokenizer)) for lemma in ("old", "young", "young", "old")]
    for room in (0, sizes[0], sizes[0] + sizes[1] - 1, sum(sizes)):
        # one window holds the whole passage and ``room`` tokens are left
        block = text_tokens - 1 + room
        cut = pieces(run, tokenizer, "train", block, dataclasses.replace(SETTINGS, tokens=room))
        assert len(cut) == 1 and not cut[0].lines and len(cut[0].ids) <= block + 1
        fitting = max(k for k in range(5) if sum(sizes[:k]) <= room)
        assert (cut[0].annotations, cut[0].annotated, cut[0].rementions) == (fitting, sum(sizes[:fitting]), 4)


def test_the_rate_draws_a_seeded_share_and_zero_leaves_the_text_natural(tokenizer):
    run = toy_run()
    plain = pieces(run, tokenizer, "train", 64, dataclasses.replace(SETTINGS, annotate=0.0))
    assert decoded(plain[0], tokenizer) == TEXT and all(p.annotations == 0 for p in plain)
    counts = [pieces(run, tokenizer, "train", 64, dataclasses.replace(SETTINGS, annotate=0.5, seed=s))[0].annotations
              for s in range(12)]
    assert 0 < np.mean(counts) < 4 and len(set(counts)) > 1
    again = pieces(run, tokenizer, "train", 64, dataclasses.replace(SETTINGS, annotate=0.5, seed=3))
    assert [p.ids.tolist() for p in again] == [
        p.ids.tolist() for p in pieces(run, tokenizer, "train", 64, dataclasses.replace(SETTINGS, annotate=0.5, seed=3))]


def test_held_out_windows_stay_natural_text(tokenizer):
    held_out = pieces(toy_run(), tokenizer, "train", 64, SETTINGS, ask=False)
    assert decoded(held_out[0], tokenizer) == TEXT and held_out[0].annotations == 0


def test_the_share_counts_annotations_against_rementions(tokenizer):
    cut = pieces(toy_run(), tokenizer, "train", 64, SETTINGS)
    found = readouts.share(cut)
    assert (found["rementions"], found["annotations"]) == (4, 4) and found["annotated_share_of_rementions"] == 1.0
    assert found["annotation_share"] == pytest.approx(sum(p.annotated for p in cut) / sum(len(p.ids) - 1 for p in cut))


def test_annotate_needs_readouts_and_a_rate_in_range():
    problems = DataConfig(labels="x", targets="window", annotate=0.15).problems()
    assert any("annotate needs readouts" in p for p in problems)
    assert any("annotate must be in [0, 1]" in p for p in DataConfig(labels="x", annotate=1.5).problems())
    assert not DataConfig(labels="x", targets="window", readouts=True, annotate=0.15).problems()

