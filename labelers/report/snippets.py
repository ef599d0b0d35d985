"""A candidate's sentence with its entity and attribute spans, as plain data for report.json and as HTML."""
from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

WINDOW = 120
"""Characters of context each side when the sentence is unknown (a gold item that is no candidate)."""


def sentence_bounds(text: str, sent_text: str | None, lo: int, hi: int) -> tuple[int, int]:
    """The occurrence of the candidate's sentence that contains [lo, hi); else a window around it."""
    if sent_text:
        at = text.find(sent_text)
        while at != -1:
            if at <= lo and hi <= at + len(sent_text):
                return at, at + len(sent_text)
            at = text.find(sent_text, at + 1)
    start = text.rfind(" ", 0, max(0, lo - WINDOW)) + 1  # cut at word boundaries
    end = text.find(" ", hi + WINDOW)
    return start, len(text) if end == -1 else end


def snippet(text: str, sent_text: str | None, ent: tuple[int, int], attr: tuple[int, int]) -> dict[str, Any]:
    """{"text", "ent", "attr"}: the sentence and both spans relative to it."""
    ent, attr = (int(ent[0]), int(ent[1])), (int(attr[0]), int(attr[1]))  # JSON-ready, not numpy ints
    start, end = sentence_bounds(text, sent_text, min(ent[0], attr[0]), max(ent[1], attr[1]))
    return {"text": text[start:end], "ent": [ent[0] - start, ent[1] - start],
            "attr": [attr[0] - start, attr[1] - start]}


def highlight(snip: dict[str, Any]) -> Markup:
    """The snippet as escaped HTML with <mark class="ent"> and <mark class="attr">."""
    text, marks = snip["text"], sorted([(*snip["ent"], "ent"), (*snip["attr"], "attr")])
    if marks[0][1] > marks[1][0]:  # overlapping spans cannot nest as marks: keep the first
        marks = marks[:1]
    parts, at = [], 0
    for start, end, cls in marks:
        parts += [escape(text[at:start]), Markup(f'<mark class="{cls}">'), escape(text[start:end]), Markup("</mark>")]
        at = end
    return Markup("").join(parts + [escape(text[at:])])
