"""Helpers shared by the LF modules: NaN-safe accessors and the 'not an assertion' guard.

Candidate rows reach an LF as a pandas Series (PandasLFApplier) or any object with the candidate
columns as attributes (a namedtuple from DataFrame.itertuples). With pandas 3 a missing string is a
float NaN and a missing bool/int makes the column float or object, so LFs read values only through
``flag``, ``text`` and ``num``.
"""
from __future__ import annotations

import math
import re
from types import MappingProxyType

import numpy as np

from labelers.lexicon import WEATHER_TYPES, lemmas_of_type


def flag(value: object) -> bool:
    """True only for a real true boolean (or the integer 1); NaN, None, pd.NA, strings -> False."""
    if value is True:
        return True
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value) == 1
    return False


def text(value: object) -> str:
    """The value when it is a string, else '' (NaN, None, pd.NA)."""
    return value if isinstance(value, str) else ""


def num(value: object, default: int = -1) -> int:
    """The value as an int; ``default`` for NaN, None, pd.NA, strings."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)) and math.isfinite(value):
        return int(value)
    return default


AMBIGUOUS_DETERMINERS = frozenset({"certain", "particular", "present", "past", "recent", "current", "very", "usual",
                                   "said", "given", "chief", "main", "principal", "same", "whole", "entire", "different"})
"""Adjectives that are determiner-like only in attributive use ("a certain man", "a different story", "recent
increases" vs "she was certain", "they were different"); the temporal ones as data/gold/factbook/README.md
decides."""
ORDINAL = re.compile(r"\d+(st|nd|rd|th)|.*(teenth|tieth)|eleventh|twelfth|hundredth|thousandth")
"""Ordinals beyond the lexicon's first..tenth ("the 19th century", "its twelfth year"): determiner-like."""


ABSTRACT_NOUN = re.compile(r".{3,}(ion|ity|ness|ment|ence|ance|ship|tude)")
"""Suffixes of abstract nouns, before which "little" is a quantity ("with little intermission", "by a little
curiosity"), not a size ("a little room", "little Emma")."""


QUALITY_NOUN = re.compile(r".{3,}(ness|ity|tude)")
"""Suffixes of nouns naming a quality ("cheerfulness", "civility", "promptitude"), which "usual" describes."""


def quantity_little(x) -> bool:
    """"little" as a quantity determiner: before a singular abstract noun (ABSTRACT_NOUN; "all the little
    variations" are small ones: a quantity takes no plural), or opening the phrase of a singular common noun
    that names no person ("had little cause", "with little spare money": a size takes an article, "a little
    room", "little Emma" is a name, "little boy of this weary" a person)."""
    if text(x.attr_lemma) != "little" or text(x.relation) != "amod" or flag(x.ent_plural):
        return False
    bare = flag(x.opens_phrase) and text(x.ent_pos) == "NOUN" and not flag(x.ent_person)
    return bare or ABSTRACT_NOUN.fullmatch(text(x.ent_lemma).lower()) is not None


NOUN_MODIFIER_DEPS = frozenset({"compound", "nmod", "npadvmod", "amod"})
"""Dependency labels of a noun that itself modifies a later noun ("low-cost labour", "global food prices"):
an adjective just before it may describe the whole phrase, so the surface LFs leave it alone."""


def modifies_a_noun(x) -> bool:
    """The mention is a noun modifier (NOUN_MODIFIER_DEPS), not a phrase head."""
    return text(x.ent_dep) in NOUN_MODIFIER_DEPS


def attributive_determiner(x, ambiguous: frozenset[str], dep: str) -> bool:
    """An adjective of ``ambiguous`` (AMBIGUOUS_DETERMINERS) before its noun, ``dep`` (its relation or its
    parser label) amod or conj ("a certain man", "recent increases"); not "certain" after a definite
    determiner, where it means sure ("the certain signal of a visitor", "the certain advantage"), nor "usual"
    before a quality (QUALITY_NOUN: "his usual frankness" describes the frankness, "the usual time" no time)."""
    lemma = text(x.attr_lemma)
    if lemma not in ambiguous or dep not in ("amod", "conj") or not flag(x.attr_before):
        return False
    if lemma == "usual" and QUALITY_NOUN.fullmatch(text(x.ent_lemma).lower()) is not None:
        return False
    return not (lemma == "certain" and flag(x.ent_definite) and text(x.ent_kind) == "noun")  # a name is definite


def determiner_like(lemma: str, determiners: frozenset[str]) -> bool:
    """A determiner-like adjective: in the lexicon's determiner or position class (a position picks out a
    part, as an ordinal picks out a member: "the upper layers", "the starboard hand"), or an ordinal."""
    return lemma in determiners or ORDINAL.fullmatch(lemma) is not None


SIDE_NOUNS = frozenset({"side", "hand", "arm", "leg", "foot", "knee", "eye", "ear", "shoulder", "cheek", "temple",
                        "elbow", "wrist", "heel", "thigh", "breast", "fin", "flipper", "wing", "flank", "bank"})
"""Nouns of which "left" and "right" pick out one of a pair, a position ("his left hand", "on the right side"),
where before other nouns "right" names a property ("the right answer")."""
PAIRED_POSITIONS = frozenset({"left", "right", "low"})
"""Adjective lemmas that are positions only in context (``relative_position``; "lower" has lemma "low"):
"lower prices" are cheaper ones."""


def relative_position(x, positions: frozenset[str]) -> bool:
    """A PAIRED_POSITIONS adjective used as a position: conjoined with a position ("the upper and lower
    layers", "upper, middle, and lower"), or "left"/"right" before one of SIDE_NOUNS."""
    lemma = text(x.attr_lemma)
    if lemma not in PAIRED_POSITIONS:
        return False
    if any(other in positions for other in text(x.attr_conj_lemmas).split()):
        return True
    return lemma != "low" and text(x.relation) == "amod" and text(x.ent_lemma).lower() in SIDE_NOUNS


FIXED_PHRASES = MappingProxyType({
    "great": frozenset({"deal", "while", "measure", "many"}),
    "general": frozenset({"rule", "thing"}),  # "as a general rule": usually
    "high": frozenset({"water", "tide"}),  # "at high water": the state of the tide, a time
    "small": frozenset({"degree"}),  # "in the smallest degree": at all
    "slight": frozenset({"degree"}),
    "good": frozenset({"deal", "while", "many", "time", "grace"}),  # "with a good grace": willingly
    "bad": frozenset({"grace"}),
    "ill": frozenset({"grace"}),
    "little": frozenset({"while", "bit"}),
    "long": frozenset({"while"}),
    "mean": frozenset({"time", "while"}),  # "in the mean time"
    "prime": frozenset({"minister"}),
    "rear": frozenset({"admiral"}),  # a rank, as "prime minister" is a title
    "right": frozenset({"whale"}),  # a species, not a correct whale
    "stumbling": frozenset({"block"}),
})
"""Adjective lemma -> the nouns it forms a quantity or time idiom ("in good time": early), or a lexicalised
title or species name, with."""


def fixed_phrase(x, phrases) -> bool:
    """The adjective and its noun form a quantity or time idiom ("a great deal", "a little while")."""
    nouns = phrases.get(text(x.attr_lemma).lower(), frozenset())
    return text(x.ent_lemma).lower() in nouns and text(x.relation) == "amod"


COMPLEMENT_ONLY = frozenset({"close", "near", "superior", "inferior", "based"})
"""Relational adjectives that relate to something only with a complement ("close to", "near the door",
"superior to", "based on"); before a noun they name a property ("a close margin", "a near relation", "a
superior performer", "a London-based firm"), unlike "a different title"."""


BLOCK = MappingProxyType({
    "determiners": lemmas_of_type("determiner", "position"),
    "positions": lemmas_of_type("position"),
    "ambiguous": AMBIGUOUS_DETERMINERS,
    "relational": lemmas_of_type("relational"),
    "comparative": lemmas_of_type("relational") - COMPLEMENT_ONLY,
    "weather": lemmas_of_type(*WEATHER_TYPES) | {"fine", "dark", "light", "bright", "dusk"},
    "phrases": FIXED_PHRASES,
})
"""Lookup tables for ``blocked`` (pass as ``resources=dict(block=BLOCK)``)."""
GUARD_COLUMNS = ["negated", "non_asserted", "neg_det", "than_follows", "in_name", "in_compound", "adverbial_idiom",
                 "expletive_it", "quotes_between", "attr_lemma", "relation", "attr_before", "prep", "ent_lemma",
                 "ent_lower", "ent_plural", "ent_definite", "ent_kind", "attr_conj_lemmas", "opens_phrase", "ent_pos",
                 "ent_person"]
"""The candidate columns ``blocked`` reads (a caller over many rows passes only these: 3x faster)."""


def across_quotes(x) -> bool:
    """A quotation mark between the mention and the adjective: one is in quoted speech and the other in the
    narration ("'Very true,' cried Frank"), or they are in different turns of a dialogue."""
    return num(x.quotes_between, 0) >= 1


def blocked(x, block) -> bool:
    """True when the pair cannot be an asserted property whatever its structure: negated or not asserted,
    across a quotation mark, "than" comparison, inside a name, a compound word ("good-humour") or an adverbial
    idiom ("in short"), expletive it, determiner-like (an ordinal, quantity "little"), relational with a
    preposition or (but for COMPLEMENT_ONLY) before its noun, a fixed phrase, weather it. Every BOUND-voting LF
    abstains on such pairs, so that none contradicts the NOT_BOUND LF stating the same rule (the label models
    read each such clash as that rule's error). Reads only GUARD_COLUMNS."""
    if (flag(x.negated) or flag(x.non_asserted) or flag(x.neg_det) or flag(x.than_follows) or flag(x.in_name)
            or flag(x.in_compound) or flag(x.adverbial_idiom) or flag(x.expletive_it) or across_quotes(x)):
        return True
    lemma = text(x.attr_lemma)
    if determiner_like(lemma, block["determiners"]) or relative_position(x, block["positions"]):
        return True
    if attributive_determiner(x, block["ambiguous"], text(x.relation)):
        return True
    before_noun = flag(x.attr_before) and text(x.relation) in ("amod", "conj")
    if (lemma in block["relational"] and text(x.prep)) or (lemma in block["comparative"] and before_noun):
        return True
    if fixed_phrase(x, block["phrases"]) or quantity_little(x):
        return True
    return weather_it(x, block["weather"])


def weather_it(x, weather) -> bool:
    """"it" with a weather, temperature or time adjective, and no other kind conjoined with it: "It was cold
    and dark", not "It was hot and bitter" (the coffee)."""
    lemmas = [text(x.attr_lemma), *text(x.attr_conj_lemmas).split()]
    return text(x.ent_lower) == "it" and all(lemma in weather for lemma in lemmas)
