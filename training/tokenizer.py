"""Tokenizers (HF ``tokenizers``) and the alignment of register labels to their tokens.

Real text gets a byte-level BPE trained on the train split; the synthetic task gets a word-level
tokenizer so that each word is one token. Both reserve id 0 for padding.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from pipeline.core.schemas import NOTHING_ID

PAD = "<pad>"
UNK = "<unk>"
PAD_ID = 0


def train_bpe(texts: Iterable[str], vocab_size: int) -> Tokenizer:
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=[PAD], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(texts, trainer=trainer)
    return tokenizer


def word_level(words: Iterable[str]) -> Tokenizer:
    """One token per whitespace-separated word of a closed vocabulary."""
    vocab = {PAD: PAD_ID, UNK: 1}
    for word in words:
        vocab.setdefault(word, len(vocab))
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token=UNK))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return tokenizer


def token_rows(text: str, offsets: list[tuple[int, int]], starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """For each of n tokens with char ``offsets`` into ``text``, the labeled (spaCy) token it takes its
    labels from: the one containing its first non-whitespace character (byte-level tokens carry their
    leading space); whitespace-only tokens and characters outside every labeled token take the previous
    token's; -1 before the first. ``starts``/``ends`` are the labeled tokens' spans, sorted by start."""
    n = len(offsets)
    if n == 0 or len(starts) == 0:
        return np.full(n, -1, dtype=np.int64)
    token_ends = np.array([e for _, e in offsets], dtype=np.int64)
    firsts = np.array([s + len(text[s:e]) - len(text[s:e].lstrip()) for s, e in offsets], dtype=np.int64)
    row = np.maximum(np.searchsorted(starts, firsts, side="right") - 1, 0)
    inside = (firsts < token_ends) & (starts[row] <= firsts) & (firsts < ends[row])
    # forward-fill: a token without a containing labeled token inherits the latest one before it
    last = np.maximum.accumulate(np.where(inside, np.arange(n), -1))
    return np.where(last >= 0, row[np.maximum(last, 0)], -1)


def align(text: str, offsets: list[tuple[int, int]], starts: np.ndarray, ends: np.ndarray,
          labels: np.ndarray, conf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Register labels (n, K) and conf (n, K) of n tokens with char ``offsets`` into ``text``: those of the
    labeled token each takes its labels from (``token_rows``), NOTHING (confidence 1) before the first."""
    n, K = len(offsets), labels.shape[1]
    out_labels = np.full((n, K), NOTHING_ID, dtype=np.int64)
    out_conf = np.ones((n, K), dtype=np.float32)
    rows = token_rows(text, offsets, starts, ends)
    hit = rows >= 0
    out_labels[hit] = labels[rows[hit]]
    out_conf[hit] = conf[rows[hit]]
    return out_labels, out_conf
