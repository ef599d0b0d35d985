"""Fixed phrases: an adjective inside an idiom describes no property of the noun ("a great deal")."""
from types import MappingProxyType

from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import text

FIXED_PHRASES = MappingProxyType({
    "great": frozenset({"deal", "while", "measure", "many"}),
    "good": frozenset({"deal", "while", "many"}),
    "little": frozenset({"while", "bit"}),
    "long": frozenset({"while"}),
})
"""Adjective lemma -> the nouns it forms a quantity or time idiom with."""


@labeling_function(resources=dict(phrases=FIXED_PHRASES))
def lf_fixed_phrase(x, phrases):
    """Quantity and time idioms: "a great deal", "a great while", "a little while" -> NOT_BOUND."""
    nouns = phrases.get(text(x.attr_lemma).lower(), frozenset())
    return NOT_BOUND if text(x.ent_lemma).lower() in nouns and text(x.relation) == "amod" else ABSTAIN


LFS = [lf_fixed_phrase]
