"""Determiner-like adjectives describe no property (other, such, same, own, many, few, first...), nor do
positions (upper, inner, starboard...)."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import (BLOCK, attributive_determiner, determiner_like, quantity_little,
                                relative_position, text)


@labeling_function(resources=dict(determiners=BLOCK["determiners"], positions=BLOCK["positions"]))
def lf_determiner_like(x, determiners, positions):
    """other, such, same, own, many, few, several, whole, first, last, next, 19th, ... and positions (upper,
    middle, outer, back, starboard, ...; "lower" beside "upper", "left" and "right" of a hand or a side)
    -> NOT_BOUND."""
    like = determiner_like(text(x.attr_lemma), determiners) or relative_position(x, positions)
    return NOT_BOUND if like else ABSTAIN


@labeling_function(resources=dict(ambiguous=BLOCK["ambiguous"]))
def lf_determiner_attributive(x, ambiguous):
    """certain, particular, present, very... before a noun ("a certain man"; not "the certain advantage"), and
    "little" before an abstract noun ("with little intermission") -> NOT_BOUND."""
    ok = attributive_determiner(x, ambiguous, text(x.attr_dep))
    return NOT_BOUND if ok or quantity_little(x) else ABSTAIN


LFS = [lf_determiner_like, lf_determiner_attributive]
