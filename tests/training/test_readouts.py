"""Paired readouts and counterfactual twins: pairs only from window-visible bindings, twins that exchange
exactly the pairs' adjectives (text, readouts and register targets), seeded order, the share and the
no-context prior."""
from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pandas as pd
import pytest
from runfolder import write_labeled_run
from trainfix import tiny_config

from labelers.probe_sets import load_assertions, passage_assertions
from pipeline.core.registers import passage_registers
from pipeline.core.errors import UserError
from pipeline.core.schemas import NOTHING, NOTHING_ID, OTHER
from training import readouts, visible
from training.data import DataConfig, LabeledRun, invisible_share, pieces
from training.probes import exchange
from training.tokenizer import train_bpe

TEXT = "The old captain met a sailor . The sailor was young . Emma was tired . The dog was big ."
WORD_SPANS = [m.span() for m in re.finditer(r"\S+", TEXT)]
WORDS = TEXT.split()
VOCAB = [NOTHING, OTHER, "old", "young", "tired", "big"]
INDEX = {lemma: i for i, lemma in enumerate(VOCAB)}
# (entity word, adjective word, ent_id, kind, p_lm): captain-old, sailor-young, Emma-tired, dog-big
BOUND = [(2, 1, 0, "noun", 0.95), (8, 10, 1, "noun", 0.97), (12, 14, 2, "name", 0.99), (17, 19, 3, "noun", 0.93)]
QUERY_ENTITY = {" The captain was": 0, " The sailor was": 1, " Emma was": 2, " The dog was": 3}
SETTINGS = readouts.Settings(pairs=2, tokens=24, twins=True, seed=0)


def candidates(bound=BOUND) -> pd.DataFrame:
    rows = []
    for ent_i, attr_i, ent_id, kind, p in bound:
        (es, ee), (as_, ae) = WORD_SPANS[ent_i], WORD_SPANS[attr_i]
        word = WORDS[ent_i]
        rows.append({"ent_i": ent_i, "attr_i": attr_i, "ent_id": ent_id, "ent_start": es, "ent_end": ee,
                     "attr_start": as_, "attr_end": ae, "attr_lower": WORDS[attr_i], "attr_lemma": WORDS[attr_i],
                     "ent_kind": kind, "ent_text": word, "ent_name": word, "ent_lower": word.lower(),
                     "ent_plural": False, "negated": False, "p_lm": p, "p": p})
    return pd.DataFrame(rows)


def toy_run(bound=BOUND, split: str = "train") -> LabeledRun:
    cands = candidates(bound)
    events = cands[visible.EVENT_COLUMNS]
    starts, ends = (np.array(x) for x in zip(*WORD_SPANS))
    labels, conf = passage_registers(len(WORDS), events, INDEX, slots=4)
    docs = pd.DataFrame({"doc_id": ["0123456789abcdef"], "source_id": ["s"], "split": [split], "text": [TEXT]})
    assertions = passage_assertions(cands, TEXT, threshold=0.5, min_p=0.9)
    return LabeledRun(docs, VOCAB, 4, {"0123456789abcdef": (starts, ends, labels.astype(np.int64), conf)},
                      {"0123456789abcdef": events}, {"0123456789abcdef": assertions})


@pytest.fixture(scope="module")
def tokenizer():
    return train_bpe([TEXT] * 4, 300)


def text_of(piece, tokenizer) -> str:
    return tokenizer.decode(piece.ids[:len(piece.ids) - piece.readout].tolist())


def test_a_window_and_its_twin_ask_both_entities_of_each_pair(tokenizer):
    cut = pieces(toy_run(), tokenizer, "train", 48, SETTINGS)
    window, twin = cut
    assert not window.twin and twin.twin and len(cut) == 2
    asked = {(line.query, line.answer) for line in window.lines}
    assert asked == {(" The captain was", "old"), (" The sailor was", "young"), (" Emma was", "tired"),
                     (" The dog was", "big")}
    assert {line.candidates for line in window.lines} == {("old", "young"), ("tired", "big")}
    # the twin asks the same entities in the same order, each answer exchanged with its pair's other adjective
    assert [line.query for line in twin.lines] == [line.query for line in window.lines]
    assert {(line.query, line.answer) for line in twin.lines} == {
        (" The captain was", "young"), (" The sailor was", "old"), (" Emma was", "big"), (" The dog was", "tired")}
    readout_text = tokenizer.decode(window.ids[-window.readout:].tolist())
    assert readout_text == "".join(readouts.line_text(line) for line in window.lines)
    assert readout_text.startswith(" The ") or readout_text.startswith(" Emma")


def test_twins_exchange_exactly_the_two_adjectives_of_each_pair(tokenizer):
    window, twin = pieces(toy_run(), tokenizer, "train", 48, SETTINGS)
    assert text_of(window, tokenizer) == TEXT
    expected = exchange(exchange(TEXT, WORD_SPANS[1], WORD_SPANS[10]), WORD_SPANS[14], WORD_SPANS[19])
    assert text_of(twin, tokenizer) == expected
    changed = [(a, b) for a, b in zip(TEXT.split(), text_of(twin, tokenizer).split()) if a != b]
    assert changed == [("old", "young"), ("young", "old"), ("tired", "big"), ("big", "tired")]


def test_twin_register_targets_follow_its_exchanged_text(tokenizer):
    window, twin = pieces(toy_run(), tokenizer, "train", 48, SETTINGS)
    # after the text (and through the readouts) the slots hold what each version's text bound
    assert [VOCAB[c] for c in window.labels[-1]] == ["old", "young", "tired", "big"]
    assert [VOCAB[c] for c in twin.labels[-1]] == ["young", "old", "big", "tired"]
    assert (twin.labels[-twin.readout:] == twin.labels[-1]).all()
    # before "young" (word 10) the sailor's slot is empty in both versions: exchanged labels, same timing
    sailor_from = [int(np.argmax(p.labels[:, 1] != NOTHING_ID)) for p in (window, twin)]
    assert [tokenizer.decode(p.ids[t:].tolist()).split()[0] for p, t in zip((window, twin), sailor_from)] == [
        "young", "old"]
    events = {"0123456789abcdef": toy_run().events["0123456789abcdef"]}
    assert invisible_share(toy_run(), events, tokenizer, "train", 48, SETTINGS)["invisible"] == 0


def test_readout_pairs_come_only_from_bindings_visible_in_their_window(tokenizer):
    run = toy_run()
    events = run.events["0123456789abcdef"]
    for block, tokens in ((32, 14), (40, 16), (48, 24)):
        settings = dataclasses.replace(SETTINGS, tokens=tokens)
        cut = pieces(run, tokenizer, "train", block, settings)
        for p in cut:
            inside, _, _ = visible.inside(p.events if p.twin else events, p.rows)
            for line in p.lines:
                entity = QUERY_ENTITY[line.query]
                assert ((inside["ent_id"] == entity) & (inside["attr_lemma"] == line.answer)).any(), (block, line)
    short = pieces(run, tokenizer, "train", 32, dataclasses.replace(SETTINGS, tokens=14))
    assert [len(p.lines) for p in short] == [2, 2, 0]  # one pair fits the first window's row; the second has none


def test_pairs_keep_to_the_probe_rules():
    low = [b if b[2] != 3 else (*b[:4], 0.6) for b in BOUND]  # dog-big below min_p: only one pair is left
    assert [(x.query, y.query) for x, y in readouts.window_pairs(toy_run(low).assertions["0123456789abcdef"],
                                                                 (0, len(TEXT)), 2)] == [
        (" The captain was", " The sailor was")]
    # the sailor also said to be old: exchanging old and young would leave it asserted, so no such pair
    conflict = BOUND + [(8, 1, 1, "noun", 0.6)]
    pairs = readouts.window_pairs(toy_run(conflict).assertions["0123456789abcdef"], (0, len(TEXT)), 2)
    assert all({x.binding.adjective, y.binding.adjective} != {"old", "young"} for x, y in pairs)
    assert readouts.window_pairs(toy_run().assertions["0123456789abcdef"], (0, WORD_SPANS[10][0]), 2) == []


def test_the_order_of_the_lines_is_seeded_per_window(tokenizer):
    run = toy_run()
    first = [p.lines for p in pieces(run, tokenizer, "train", 48, SETTINGS)]
    assert first == [p.lines for p in pieces(run, tokenizer, "train", 48, SETTINGS)]
    orders = {tuple(line.query for line in pieces(run, tokenizer, "train", 48,
                                                   dataclasses.replace(SETTINGS, seed=s))[0].lines) for s in range(6)}
    assert len(orders) > 1


def test_share_and_a_no_context_prior_that_scores_chance(tokenizer):
    train = pieces(toy_run(), tokenizer, "train", 48, SETTINGS)
    found = readouts.share(train)
    assert found["rows"] == 2 and found["twins"] == 1 and found["lines"] == 8
    assert found["readout_tokens"] == sum(p.readout for p in train) > 0
    assert found["readout_share"] == pytest.approx(found["readout_tokens"] / sum(len(p.ids) - 1 for p in train))
    prior = readouts.prior_score(train, train)
    # fitted on the window and its twin, every (query, adjective) is seen once: the prior cannot follow the text
    assert prior["swap_accuracy"] == 0.0 and prior["accuracy_with_twins"] == 0.5
    without_twins = readouts.prior_score(train[:1], train)
    assert without_twins["accuracy"] == 1.0 and without_twins["swap_accuracy"] == 0.0  # memorised, not read


def test_readouts_need_window_targets():
    assert any("readouts need targets 'window'" in p for p in DataConfig(labels="x", readouts=True).problems())
    assert not DataConfig(labels="x", readouts=True, targets="window").problems()


def test_training_with_readouts_reports_their_share(tmp_path):
    from training.train import READOUTS, train

    run_dir = write_labeled_run(tmp_path / "run")
    config = tiny_config(model={"block_size": 96},
                         data={"labels": str(run_dir), "targets": "window", "readouts": True, "readout_tokens": 48})
    with pytest.raises(UserError, match="assertions=labelers.probe_sets.load_assertions"):
        train(config, tmp_path / "bare")
    train(config, tmp_path / "model", assertions=load_assertions)
    found = json.loads((tmp_path / "model" / READOUTS).read_text())
    # three train passages, each one window with one pair (the ball and a name) and its twin
    assert (found["rows"], found["rows_with_readouts"], found["twins"], found["lines"]) == (6, 3, 3, 12)
    assert 0 < found["readout_share"] < 1 and found["prior"]["held_out_lines"] == 2
