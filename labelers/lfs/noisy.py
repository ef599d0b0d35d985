"""Deliberately broad, noisy LFs, so the LabelModel has something to down-weight. The nearest-mention LF
is fully unguarded; the clause-subject LF abstains on pairs ``blocked`` rules out (negation, "than",
expletive it...), where it would only repeat the nearest-mention LF's errors."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND
from labelers.lfs._util import BLOCK, blocked, flag, num


@labeling_function()
def lf_noisy_nearest_mention(x):
    """The adjective's nearest mention in the sentence (at most 5 words away) -> BOUND."""
    return BOUND if flag(x.nearest_mention) and num(x.distance, 99) <= 5 else ABSTAIN


@labeling_function(resources=dict(block=BLOCK))
def lf_noisy_clause_subject(x, block):
    """The subject of the adjective's clause, adjective after it -> BOUND ("She had a pretty face" errs)."""
    ok = flag(x.ent_subject) and flag(x.same_clause) and not flag(x.attr_before) and not blocked(x, block)
    return BOUND if ok else ABSTAIN


LFS = [lf_noisy_nearest_mention, lf_noisy_clause_subject]
