"""Distance and intervening-noun heuristics: most candidate pairs are unrelated (NOT_BOUND)."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs._util import BLOCK, across_quotes, blocked, flag, modifies_a_noun, num, text

FAR = 3
"""Unlinked pairs more than this many words apart."""


@labeling_function()
def lf_far_unlinked(x):
    """No syntactic link and more than FAR words apart -> NOT_BOUND."""
    return NOT_BOUND if text(x.relation) == "none" and num(x.distance, 0) > FAR else ABSTAIN


@labeling_function()
def lf_noun_between_unlinked(x):
    """No syntactic link and another mention in between -> NOT_BOUND."""
    return NOT_BOUND if text(x.relation) == "none" and num(x.nouns_between, 0) >= 1 else ABSTAIN


@labeling_function()
def lf_attached_elsewhere(x):
    """The adjective is syntactically attached to a different word -> NOT_BOUND."""
    target = num(x.attr_target_i)
    return NOT_BOUND if target >= 0 and target != num(x.ent_i) else ABSTAIN


@labeling_function()
def lf_unattached_unlinked(x):
    """The adjective attaches to no noun at all ("did him good", "at present") and the pair has no
    link -> NOT_BOUND (so that near pairs with no evidence are not left to the noisy LFs)."""
    return NOT_BOUND if num(x.attr_target_i) < 0 and text(x.relation) == "none" else ABSTAIN


@labeling_function()
def lf_across_quotes(x):
    """A quotation mark between the pair: speech and narration, or two turns of a dialogue ("'Very true,'
    cried Frank"; "'Good heavens!' cried Catherine, quite frightened") -> NOT_BOUND. Misses the speaker
    of a first-person predicate ("said he, 'and am sure'") and an interrupted quotation ("'My mother's
    illness,' he continued, 'was sudden.'"): about 1 in 5 of the corpus bindings it removes."""
    return NOT_BOUND if across_quotes(x) else ABSTAIN


@labeling_function(resources=dict(block=BLOCK))
def lf_adjacent_prenominal(x, block):
    """Surface pattern: adjective right before a noun that heads its phrase -> BOUND ("a red ball"; not
    "low-cost labour", where "cost" modifies "labour")."""
    ok = (flag(x.attr_before) and num(x.distance, 0) == 1 and text(x.ent_pos) in ("NOUN", "PROPN")
          and text(x.attr_pos) == "ADJ" and not modifies_a_noun(x))
    return BOUND if ok and not blocked(x, block) else ABSTAIN


LFS = [lf_far_unlinked, lf_noun_between_unlinked, lf_attached_elsewhere, lf_unattached_unlinked,
       lf_across_quotes, lf_adjacent_prenominal]
