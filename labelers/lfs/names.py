"""Adjectives inside fixed proper names ("Great Britain", "the New Forest") or compound words ("good-humour")
are no property."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import flag


@labeling_function()
def lf_in_name(x):
    """The adjective is part of a proper name -> NOT_BOUND."""
    return NOT_BOUND if flag(x.in_name) else ABSTAIN


@labeling_function()
def lf_compound_word(x):
    """The adjective is the first part of a hyphenated compound noun ("her good-humour", "ill-health") ->
    NOT_BOUND."""
    return NOT_BOUND if flag(x.in_compound) else ABSTAIN


LFS = [lf_in_name, lf_compound_word]
