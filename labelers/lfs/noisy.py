"""Deliberately broad, noisy LFs, so the LabelModel has something to down-weight. Both abstain on pairs
``blocked`` rules out (negation, "than", expletive it...): unguarded, the nearest-mention LF's only clashes
were with those rules, and the label models read each clash as the rule's error (estimated accuracy 0.35
for lf_fixed_phrase and lf_relational_attributive), so "a great deal" was BOUND."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND
from labelers.lfs._util import BLOCK, blocked, flag, num


@labeling_function(resources=dict(block=BLOCK))
def lf_noisy_nearest_mention(x, block):
    """The adjective's nearest mention in the sentence (at most 5 words away) -> BOUND."""
    ok = flag(x.nearest_mention) and num(x.distance, 99) <= 5 and not blocked(x, block)
    return BOUND if ok else ABSTAIN


@labeling_function(resources=dict(block=BLOCK))
def lf_noisy_clause_subject(x, block):
    """The subject of the adjective's clause, adjective after it -> BOUND ("She had a pretty face" errs)."""
    ok = flag(x.ent_subject) and flag(x.same_clause) and not flag(x.attr_before) and not blocked(x, block)
    return BOUND if ok else ABSTAIN


LFS = [lf_noisy_nearest_mention, lf_noisy_clause_subject]
