"""Comparisons and relational adjectives: not an asserted property of the entity."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import BLOCK, flag, text


@labeling_function()
def lf_than_comparison(x):
    """A comparison with "than": "He was taller than his brother" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.than_follows) else ABSTAIN


@labeling_function(resources=dict(relational=BLOCK["relational"]))
def lf_relational_prep(x, relational):
    """A relational adjective with its preposition: "similar to", "equal to", "different from"."""
    return NOT_BOUND if text(x.prep) and text(x.attr_lemma) in relational else ABSTAIN


@labeling_function(resources=dict(comparative=BLOCK["comparative"]))
def lf_relational_attributive(x, comparative):
    """A relational adjective before its noun compares it with something: "of equal size", "a different
    title", "the previous day" -> NOT_BOUND (not "a close margin", "a near relation": see COMPLEMENT_ONLY)."""
    ok = text(x.attr_lemma) in comparative and flag(x.attr_before) and text(x.relation) in ("amod", "conj")
    return NOT_BOUND if ok else ABSTAIN


LFS = [lf_than_comparison, lf_relational_prep, lf_relational_attributive]
