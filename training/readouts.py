"""Paired readouts and counterfactual twins (data.readouts): a readout the noun alone cannot answer.

A readout asks, after a training window's text and in the same row, what the window bound to an entity:
" The captain was old." Single readouts taught the pilot which adjectives go with which nouns, not binding
(a swap test scored 0.000), because one readout can be answered from the noun alone. So readouts come in
PAIRS, as the probes do: two entities bound in the window to different adjectives are both asked, so the
same two adjectives are in play, e.g. " The sailor was young. The captain was old." And each window with
readouts comes with its counterfactual TWIN: the same window with each pair's two adjectives exchanged at
their character offsets (both are adjectives, so the text stays grammatical) and its readouts exchanged to
match (" The sailor was old. The captain was young."). Over a window and its twin every (noun, adjective)
readout is matched by (noun, other adjective): in-weights associations are neutralised in training as
the swap test neutralises them in evaluation.

What a readout may ask: a binding with both tokens inside the window's text (window-visible, as the window
targets of training/visible.py), p_lm >= ``min_p``, not negated and probe-worthy, with a name or noun
mention that gives its query: the rules of labelers/probe_sets.py (``passage_assertions``, handed in as an
``AssertionLoader``) and pipeline/core/probe_rules.py (``exchangeable``). Two such bindings pair when their entities, adjectives and queries differ and the
window's assertions let them be exchanged; a window's pairs share no entity, query or adjective token, and
every exchanged adjective is asserted of its own entity only, so exchanging one pair leaves what the text
says of the other pairs' entities as it was. At most ``pairs`` pairs a window, in order of position; the
order of the readout lines is shuffled (seeded per window) and kept in the twin.

Register targets of a twin follow its text: the bindings at the exchanged adjectives take each other's
attribute, so a twin's window targets carry the exchanged labels (none is masked). At readout positions
the targets hold the state after the window's text (the readouts state what the text bound; they add no
binding).

Rows: a window holds ``block_size + 1 - tokens`` tokens of text; its readouts follow when they fit in the
row (pairs are dropped from the last until they do). Windows without readouts are left as they are.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tokenizers import Tokenizer

from pipeline.core.probe_rules import Asked, Assertions, exchangeable
from training.probes import recase


@dataclass(frozen=True)
class Settings:
    pairs: int = 2      # most readout pairs a window
    tokens: int = 32    # tokens of every row kept for readouts
    twins: bool = True  # add each window with readouts again, its pairs' adjectives exchanged
    seed: int = 0       # of the order of the readout lines (and of the annotations' draws)
    annotate: float = 0.0  # share of re-mentions annotated (training/annotate.py)


AssertionLoader = Callable[[Path, Sequence[str], float], dict[str, Assertions]]
"""(run folder, splits, min_p) -> per passage, what readouts may ask: labelers.probe_sets.load_assertions,
handed in by the command that trains (training sits beside labelers and does not import it)."""


def window_pairs(found: Assertions, chars: tuple[int, int], most: int) -> list[tuple[Asked, Asked]]:
    """The readout pairs of a window covering passage characters [chars[0], chars[1])."""
    lo, hi = chars
    inside = [a for a in found.asked if lo <= a.binding.start and a.binding.end <= hi]
    asserted = [b for b in found.asserted if lo <= b.start and b.end <= hi]

    def sole(a: Asked) -> bool:  # its adjective token is asserted of its own entity only
        return all(b.entity == a.binding.entity for b in asserted if b.attr_span == a.binding.attr_span)

    pairs: list[tuple[Asked, Asked]] = []
    used: set = set()
    for x, y in itertools.combinations([a for a in inside if sole(a)], 2):
        if len(pairs) == most:
            break
        keys = {("entity", x.binding.entity), ("entity", y.binding.entity), ("query", x.query), ("query", y.query),
                ("span", x.binding.attr_span), ("span", y.binding.attr_span)}
        if (len(keys) < 6 or keys & used or x.binding.adjective == y.binding.adjective
                or not exchangeable(x.binding, y.binding, asserted)):
            continue
        pairs.append((x, y))
        used |= keys
    return pairs


@dataclass(frozen=True)
class Line:
    query: str
    candidates: tuple[str, str]  # the pair's two adjectives, in text order
    answer: str


def lines(pairs: Sequence[tuple[Asked, Asked]], order: Sequence[int], exchanged: bool) -> list[Line]:
    """The readout lines of a window (``exchanged``: of its twin), line k asking ``order[k]`` of the 2P
    entities (entity 2p and 2p + 1 are pair p's)."""
    asked = [(a, pair) for pair in pairs for a in pair]
    found = []
    for k in order:
        a, (x, y) = asked[k]
        partner = y if a is x else x
        answer = partner.binding.adjective if exchanged else a.binding.adjective
        found.append(Line(a.query, (x.binding.adjective, y.binding.adjective), answer))
    return found


def line_text(line: Line) -> str:
    return f"{line.query} {line.answer}."


def line_ids(found: Sequence[Line], tokenizer: Tokenizer) -> list[int]:
    """Token ids of readout lines, each encoded alone (a line starts at a space, a pre-token boundary)."""
    return [i for line in found for i in tokenizer.encode(line_text(line)).ids]


def exchanged_ids(text: str, ids: Sequence[int], offsets: Sequence[tuple[int, int]],
                  pairs: Sequence[tuple[Asked, Asked]], tokenizer: Tokenizer) -> tuple[list[int], list[int]]:
    """A window's token ids with each pair's adjectives exchanged at their offsets (recased), and for each
    new token the index of the window token it stands for (the adjective's own tokens for its stand-in).

    Only the tokens covering an adjective are re-encoded, with the characters they share with it: a
    byte-level BPE encodes each pre-token (a word with its leading space) alone, so the rest is unchanged.
    """
    words = {}
    for x, y in pairs:
        (sx, ex), (sy, ey) = x.binding.attr_span, y.binding.attr_span
        words[(sx, ex)] = recase(text[sy:ey], text[sx:ex])
        words[(sy, ey)] = recase(text[sx:ex], text[sy:ey])
    new_ids, source, j = [], [], 0
    for (start, end), word in sorted(words.items()):
        covering = [n for n, (s, e) in enumerate(offsets) if s < end and e > start]
        j0, j1 = covering[0], covering[-1]
        new_ids += ids[j:j0]
        source += range(j, j0)
        chunk = text[offsets[j0][0]:start] + word + text[end:offsets[j1][1]]
        encoded = tokenizer.encode(chunk).ids
        new_ids += encoded
        source += [j1] * len(encoded)
        j = j1 + 1
    return new_ids + list(ids[j:]), source + list(range(j, len(ids)))


def exchanged_events(events: pd.DataFrame, pairs: Sequence[tuple[Asked, Asked]]) -> pd.DataFrame:
    """A passage's accepted bindings (training.visible.EVENT_COLUMNS) as its twin states them: each
    binding at an exchanged adjective takes the attribute of the adjective put in its place."""
    lemma_at = dict(zip(events["attr_i"], events["attr_lemma"]))
    swap = {}
    for x, y in pairs:
        swap[x.attr_i], swap[y.attr_i] = lemma_at[y.attr_i], lemma_at[x.attr_i]
    return events.assign(attr_lemma=[swap.get(i, lemma) for i, lemma in zip(events["attr_i"], events["attr_lemma"])])


def line_order(seed: int, doc_id: str, lo: int, n_pairs: int) -> list[int]:
    """The seeded order of a window's 2P readout lines (its own stream: no other window changes it)."""
    return np.random.default_rng([seed, int(doc_id, 16), lo]).permutation(2 * n_pairs).tolist()


def share(pieces: Sequence) -> dict[str, float]:
    """How much of a split's training rows are readouts and annotations: rows, twins, readout lines, the
    share of next-token targets (every token but a row's first) that are readout tokens, and annotations
    (training/annotate.py) against the windows' eligible re-mentions."""
    targets = sum(len(p.ids) - 1 for p in pieces)
    readout = sum(p.readout for p in pieces)
    annotated = sum(p.annotated for p in pieces)
    windows = [p for p in pieces if not p.twin]
    annotations, rementions = sum(p.annotations for p in windows), sum(p.rementions for p in windows)
    return {"rows": len(pieces), "rows_with_readouts": sum(1 for p in windows if p.lines),
            "twins": sum(1 for p in pieces if p.twin), "lines": sum(len(p.lines) for p in pieces),
            "targets": targets, "readout_tokens": readout, "readout_share": readout / max(targets, 1),
            "twin_share": sum(len(p.ids) - 1 for p in pieces if p.twin) / max(targets, 1),
            "rementions": rementions, "annotations": annotations,
            "annotated_share_of_rementions": annotations / max(rementions, 1),
            "annotation_tokens": annotated, "annotation_share": annotated / max(targets, 1)}


def prior_score(train: Sequence, held_out: Sequence) -> dict[str, float]:
    """A no-context model of the readouts: count-based (query -> adjective) prior fitted on the train rows'
    readout lines (twins included), scored on the held-out rows' lines (a tie goes to the pair's first
    adjective). ``accuracy``: on the held-out windows' lines; ``accuracy_with_twins``: on those and their
    twins' lines, as readouts are trained (exactly 0.5 for any model that does not read the window: its pick
    is the same on a line and on its twin, whose answers differ); ``swap_accuracy``: a line counts when it
    is right on the window and on its twin (0 for such a model)."""
    counts: dict[tuple[str, str], int] = {}
    for p in train:
        for line in p.lines:
            counts[(line.query, line.answer)] = counts.get((line.query, line.answer), 0) + 1

    def hit(line: Line) -> bool:
        return line.candidates[int(np.argmax([counts.get((line.query, c), 0) for c in line.candidates]))] == line.answer

    windows = [p for p in held_out if not p.twin and p.lines]
    twins = [p for p in held_out if p.twin]
    plain = [hit(line) for p in windows for line in p.lines]
    pairs = [(hit(a), hit(b)) for p, t in zip(windows, twins) for a, b in zip(p.lines, t.lines)]

    def mean(values: list) -> float:
        return float(np.mean(values)) if values else float("nan")

    return {"held_out_lines": len(plain), "accuracy": mean(plain),
            "accuracy_with_twins": mean([h for pair in pairs for h in pair]),
            "swap_accuracy": mean([a and b for a, b in pairs]), "chance": 0.5, "swap_random": 0.25}
