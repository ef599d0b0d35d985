"""Negation: a negated assertion is not a binding."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import flag


@labeling_function()
def lf_negated(x):
    """"not"/"never"/"n't" on the adjective or its verb: "She was not happy" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.negated) else ABSTAIN


@labeling_function()
def lf_negative_determiner(x):
    """The described noun has "no": "no great beauty" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.neg_det) else ABSTAIN


LFS = [lf_negated, lf_negative_determiner]
