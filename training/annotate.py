"""In-stream annotation (data.annotate): the bound attribute written into the text at re-mentions.

A training window's text is annotated at a re-mention of an entity that a binding inside the window has
bound before it: "The old captain met a sailor . The captain (old) was tired ." The annotation is the
attribute's lemma in parentheses, after the mention's last token; predicting it is a readout at a natural
place in the text, which a model can only get right by retrieving the binding (the second design's arm 4 at a
rate of about 0.15, and, at 1.0, a positive control built to bind if anything at this size can).

Which re-mentions: a binding counts when both its tokens are inside the window; a re-mention is, after
it and inside the window, a mention of the same entity by the extractor's coreference (any mention with a
candidate row: names, nouns and resolved pronouns, labelers.extraction.resolve_entities) or, when the
binding's mention is a name or a noun, a later occurrence of the same word (whole word, any case; a
pronoun's surface says nothing about which entity it is). It takes the attribute most recently bound to
its entity (or word) at or before it. Each such re-mention is annotated with probability ``rate`` (seeded per
window, the same draws for a window and its counterfactual twin, whose exchanged bindings it annotates with
their exchanged attributes). Annotations use the room a row keeps for readouts (data.readout_tokens) after
the window's readouts; the ones that do not fit are left out from the last, and counted.

Only training windows are annotated: the eval split and the probes stay natural text.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from tokenizers import Tokenizer

SOURCE_COLUMNS = ["ent_start", "ent_end", "attr_end", "ent_kind"]
"""What annotation reads of an accepted binding beside training.visible.EVENT_COLUMNS."""
MENTION_KINDS = ("name", "noun")
"""Mention kinds whose surface names their entity (a re-mention by the same word)."""
MENTION_COLUMNS = ["ent_id", "ent_start", "ent_end"]
"""An entity mention of one passage (the candidates' mentions, with the extractor's coreference)."""
NO_MENTIONS = pd.DataFrame({c: pd.Series(dtype="int64") for c in MENTION_COLUMNS})


@dataclass(frozen=True)
class Insert:
    after: int   # window-relative index of the token the annotation follows
    lemma: str   # the attribute written
    ids: tuple[int, ...]  # its tokens: " (lemma)"


def rementions(text: str, chars: tuple[int, int], events: pd.DataFrame,
               mentions: pd.DataFrame = NO_MENTIONS) -> list[tuple[int, str]]:
    """(character end of the re-mention, attribute lemma) of every re-mention in window characters
    [chars[0], chars[1]) of an entity bound inside it, in text order (see the module docstring).
    ``mentions``: the passage's entity mentions (MENTION_COLUMNS), whose ent_id ties a later pronoun or name
    to the binding's entity."""
    lo, hi = chars
    bound = events[(events["ent_start"] >= lo) & (events["ent_end"] <= hi) & (events["attr_end"] <= hi)]
    latest: dict[int, tuple[int, str]] = {}  # re-mention end -> (effect of the binding in force, lemma)

    def hold(end: int, effect: int, lemma: str) -> None:
        held = latest.get(end)
        if held is None or held[0] < effect:
            latest[end] = (effect, lemma)

    for start, end, attr_end, lemma, kind, ent_id in zip(bound["ent_start"], bound["ent_end"], bound["attr_end"],
                                                         bound["attr_lemma"], bound["ent_kind"], bound["ent_id"]):
        effect, lemma = max(int(end), int(attr_end)), str(lemma).lower()
        if kind in MENTION_KINDS:
            word = re.compile(rf"(?<!\w){re.escape(text[start:end])}(?!\w)", re.IGNORECASE)
            for match in word.finditer(text, effect, hi):
                hold(match.end(), effect, lemma)
        same = mentions[(mentions["ent_id"] == ent_id) & (mentions["ent_start"] >= effect) & (mentions["ent_end"] <= hi)]
        for mention_end in same["ent_end"]:
            hold(int(mention_end), effect, lemma)
    return [(end, lemma) for end, (_, lemma) in sorted(latest.items())]


def inserts(text: str, offsets: Sequence[tuple[int, int]], n: int, events: pd.DataFrame, rate: float,
            rng: np.random.Generator, tokenizer: Tokenizer,
            mentions: pd.DataFrame = NO_MENTIONS) -> tuple[list[Insert], int]:
    """The annotations drawn for a window of ``n`` text tokens with character ``offsets``, and how many
    re-mentions were eligible. A re-mention whose end is no token boundary, or that ends the window (its
    annotation would have no text after it to be a target of), is not eligible."""
    ends = {int(e): j for j, (_, e) in enumerate(offsets[:n - 1])}
    eligible = [(ends[end], lemma) for end, lemma in rementions(text, (offsets[0][0], offsets[n - 1][1]), events, mentions)
                if end in ends]
    drawn = rng.random(len(eligible)) < rate
    return [Insert(j, lemma, tuple(insert_ids(lemma, tokenizer))) for (j, lemma), keep in zip(eligible, drawn)
            if keep], len(eligible)


def window_rng(seed: int, doc_id: str, lo: int) -> np.random.Generator:
    """A window's own stream of draws (no other window changes it)."""
    return np.random.default_rng([seed, int(doc_id, 16), lo, 1])


def insert_ids(lemma: str, tokenizer: Tokenizer) -> list[int]:
    return tokenizer.encode(f" ({lemma})").ids


def fit(found: Sequence[Insert], room: int) -> list[Insert]:
    """The annotations that fit in ``room`` tokens, dropped from the last."""
    kept, used = [], 0
    for insert in found:
        if used + len(insert.ids) > room:
            break
        kept.append(insert)
        used += len(insert.ids)
    return kept


def apply(ids: Sequence[int], rows: np.ndarray, found: Sequence[Insert],
          position: Sequence[int] | None = None) -> tuple[list[int], np.ndarray, int]:
    """Token ids and their spaCy rows with the annotations inserted (each annotation token on the row of the
    mention it follows), and the number of annotation tokens. ``position`` maps an insert's window index to
    an index of ``ids`` (a twin's tokens differ from the window's at the exchanged adjectives); ``rows`` has
    one entry per input, so it may be one shorter than ``ids``."""
    where = {(position[f.after] if position is not None else f.after): f.ids for f in found}
    out_ids, out_rows, added = [], [], 0
    for j, token in enumerate(ids):
        out_ids.append(token)
        if j < len(rows):
            out_rows.append(rows[j])
        if j in where:
            extra = where[j]
            out_ids += extra
            out_rows += [rows[j]] * len(extra)
            added += len(extra)
    return out_ids, np.asarray(out_rows, dtype=rows.dtype), added


def last_positions(source: Sequence[int], n: int) -> list[int]:
    """For each of a window's ``n`` tokens, the last twin token standing for it (training.readouts.exchanged_ids'
    ``source``); a window token has at least one."""
    found = [0] * n
    for k, j in enumerate(source):
        found[j] = k
    return found
