"""All labeling functions, one family per module, in a fixed order (ALL_LFS).

Votes: labelers.labels.BOUND (1), NOT_BOUND (0), ABSTAIN (-1). Every LF is a small pure function of one
candidate row (columns of labelers.extraction.CANDIDATE_COLUMNS), NaN-safe.
"""
from snorkel.labeling import LabelingFunction

from labelers.lfs import (comparison, coref, determiners, distance, expletive, idioms, lexicon, names,
                          negation, noisy, syntax)

FAMILIES = {
    "syntax": syntax.LFS,
    "distance": distance.LFS,
    "negation": negation.LFS,
    "expletive": expletive.LFS,
    "comparison": comparison.LFS,
    "determiners": determiners.LFS,
    "names": names.LFS,
    "idioms": idioms.LFS,
    "lexicon": lexicon.LFS,
    "coref": coref.LFS,
    "noisy": noisy.LFS,
}
"""Family name -> its LFs (the module they live in)."""

ALL_LFS: list[LabelingFunction] = [lf for lfs in FAMILIES.values() for lf in lfs]
LF_NAMES: list[str] = [lf.name for lf in ALL_LFS]
assert len(set(LF_NAMES)) == len(LF_NAMES), "LF names must be unique"


def lfs_by_name(names: list[str] | None = None) -> list[LabelingFunction]:
    """The LFs named (in ALL_LFS order); all of them for None or an empty list."""
    if not names:
        return list(ALL_LFS)
    wanted = set(names)
    unknown = wanted - set(LF_NAMES)
    if unknown:
        raise KeyError(f"unknown labeling functions: {sorted(unknown)}")
    return [lf for lf in ALL_LFS if lf.name in wanted]


__all__ = ["ALL_LFS", "FAMILIES", "LF_NAMES", "lfs_by_name"]
