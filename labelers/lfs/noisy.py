"""Deliberately broad, noisy LFs, so the LabelModel has something to down-weight."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND
from labelers.lfs._util import flag, num


@labeling_function()
def lf_noisy_nearest_mention(x):
    """The adjective's nearest mention in the sentence (at most 5 words away) -> BOUND."""
    return BOUND if flag(x.nearest_mention) and num(x.distance, 99) <= 5 else ABSTAIN


@labeling_function()
def lf_noisy_clause_subject(x):
    """The subject of the adjective's clause, adjective after it -> BOUND ("She had a pretty face" errs)."""
    ok = flag(x.ent_subject) and flag(x.same_clause) and not flag(x.attr_before)
    return BOUND if ok else ABSTAIN


LFS = [lf_noisy_nearest_mention, lf_noisy_clause_subject]
