"""Negation and non-asserted contexts: a denied or merely hypothetical property is not a binding."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import flag


@labeling_function()
def lf_negated(x):
    """"not"/"never"/"n't" on the adjective or its verb: "She was not happy" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.negated) else ABSTAIN


@labeling_function()
def lf_negative_determiner(x):
    """The described noun is denied: "no great beauty", "without a kind word", "did not know any better
    friend" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.neg_det) else ABSTAIN


@labeling_function()
def lf_non_asserted(x):
    """A hypothetical, conditional or wished-for predicate: "she would be happy", "if he were rich",
    "hoped to be useful" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.non_asserted) else ABSTAIN


LFS = [lf_negated, lf_negative_determiner, lf_non_asserted]
