"""Fixed phrases: an adjective inside an idiom describes no property of the noun ("a great deal")."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import FIXED_PHRASES, fixed_phrase, flag


@labeling_function(resources=dict(phrases=FIXED_PHRASES))
def lf_fixed_phrase(x, phrases):
    """Quantity and time idioms ("a great deal", "a little while") and adverbial prepositional idioms ("in
    short", "at last", "I know of old") -> NOT_BOUND."""
    return NOT_BOUND if fixed_phrase(x, phrases) or flag(x.adverbial_idiom) else ABSTAIN


LFS = [lf_fixed_phrase]
