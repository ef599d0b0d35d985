"""Register labels follow the tokens: BPE and word-level alignment on tricky text."""
from __future__ import annotations

import numpy as np
import pytest
from runfolder import TEXTS, spans_of

from training.tokenizer import PAD, PAD_ID, align, train_bpe, word_level

TRICKY = ["Emma's café — naïve, isn't it?  Yes.", "  leading spaces, \"quotes\" and…ellipsis",
          "Ünïcödé 日本語 text; tabs\tand\nnewlines — déjà vu!", "Mr. Knightley's \"red\" cup..."]


def reference(text: str, offsets, spans) -> list[int]:
    """Straightforward per-character version of the rule: index of the span holding the token's first
    non-space character, else the previous token's, else -1 (NOTHING)."""
    out, previous = [], -1
    for s, e in offsets:
        first = next((c for c in range(s, e) if not text[c].isspace()), None)
        hit = [i for i, (a, b) in enumerate(spans) if first is not None and a <= first < b]
        previous = hit[0] if hit else previous
        out.append(previous)
    return out


def aligned(text: str, offsets, spans) -> list[int]:
    starts, ends = (np.array(x, dtype=np.int64) for x in zip(*spans))
    labels = (np.arange(len(spans)) + 10)[:, None]  # slot 0 holds the span's index + 10
    got, conf = align(text, offsets, starts, ends, labels, np.full((len(spans), 1), 0.5, np.float32))
    assert ((conf == 0.5) == (got >= 10)).all()  # confidence travels with the label, 1 for NOTHING
    return [int(v) - 10 if v >= 10 else -1 for v in got[:, 0]]


def test_hand_written_cases():
    # whitespace-only token inherits; " b" is found by its first non-space character; "'s" is its own span
    assert aligned("a  b's", [(0, 1), (1, 2), (2, 4), (4, 6)], [(0, 1), (3, 4), (4, 6)]) == [0, 0, 1, 2]
    # before the first labeled token: NOTHING; a character outside every span: the previous labels
    assert aligned(" x y", [(0, 1), (1, 2), (2, 4)], [(1, 2)]) == [-1, 0, 0]


@pytest.mark.parametrize("text", TRICKY)
def test_bpe_alignment_matches_the_rule(text):
    tokenizer = train_bpe(TRICKY + TEXTS["train"], vocab_size=300)
    encoding = tokenizer.encode(text)
    spans = spans_of(text)
    assert aligned(text, encoding.offsets, spans) == reference(text, encoding.offsets, spans)
    assert tokenizer.decode(encoding.ids) == text  # byte-level BPE round-trips any text


def test_bpe_reserves_the_pad_id_and_is_deterministic():
    a, b = train_bpe(TRICKY, 300), train_bpe(TRICKY, 300)
    assert a.token_to_id(PAD) == PAD_ID
    assert a.to_str() == b.to_str()


def test_word_level_gives_one_token_per_word():
    tokenizer = word_level(["? alice has a red cup .".split()][0])
    text = "? alice has  a red cup ."
    encoding = tokenizer.encode(text)
    spans = spans_of(text)
    assert len(encoding.ids) == len(spans) == 7
    assert aligned(text, encoding.offsets, spans) == list(range(7))
    assert tokenizer.token_to_id(PAD) == PAD_ID
