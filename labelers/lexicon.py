"""Lookup tables shipped in labelers/resources/: the attribute lexicon, the adjective-only word forms and the
coreference tables.

The attribute lexicon maps an adjective lemma (lower case; adjectival participles by their word form,
e.g. ``seated``) to exactly one type: colour, size, shape, age, emotion, character, appearance, health,
social, intellect, temperature, weather, time, state, evaluation, modality, degree, determiner,
relational, origin or material.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Mapping

PERSON_TYPES = frozenset({"emotion", "character", "health", "social", "intellect"})
"""Attribute types that (nearly) only describe people."""
PHYSICAL_TYPES = frozenset({"colour", "size", "shape", "age", "appearance", "temperature", "material"})
"""Attribute types that describe physical things (and people's looks)."""
WEATHER_TYPES = frozenset({"weather", "temperature", "time"})
"""Types of the adjectives that 'it' takes as weather/time ('it was cold', 'it was late')."""


def _load(name: str) -> dict:
    return json.loads(resources.files("labelers").joinpath("resources", name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def load_lexicon() -> Mapping[str, str]:
    """The attribute lexicon: lemma -> type (a plain dict; do not mutate)."""
    return dict(_load("attribute_lexicon.json")["lemmas"])


@lru_cache(maxsize=1)
def _adjective_tables() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(adjective-only forms, un- verbs, flat adverbs): one read of adjective_forms.json for the loaders."""
    data = _load("adjective_forms.json")
    return frozenset(data["forms"]), frozenset(data["un_verbs"]), frozenset(data["flat_adverbs"])


def load_adjective_forms() -> frozenset[str]:
    """Word forms that are only ever adjectives (WordNet via spaCy's lemmatizer tables; see
    resources/make_adjectives.py): lower case, single words."""
    return _adjective_tables()[0]


def load_un_verbs() -> frozenset[str]:
    """Verbs beginning with "un" ("unlock", "undermine"; WordNet, as for ``load_adjective_forms``)."""
    return _adjective_tables()[1]


def load_flat_adverbs() -> frozenset[str]:
    """Adjective forms that WordNet also lists as adverbs ("ill", "short", "better", "late"; as for
    ``load_adjective_forms``)."""
    return _adjective_tables()[2]


@lru_cache(maxsize=1)
def load_noun_forms() -> frozenset[str]:
    """Word forms that WordNet lists only as nouns ("codfish", "parlour", "thou"; resources/noun_forms.json,
    made as ``load_adjective_forms``'s table is): lower case, single words."""
    return frozenset(_load("noun_forms.json")["forms"])


@lru_cache(maxsize=1)
def load_coref_tables() -> tuple[Mapping[str, str], Mapping[str, str], Mapping[str, str]]:
    """(person_nouns, titles, first_names): lower-case word -> gender ('m', 'f'; '' for unmarked nouns)."""
    data = _load("coref.json")
    return dict(data["person_nouns"]), dict(data["titles"]), dict(data["first_names"])


def attribute_type(lemma: object) -> str | None:
    """The lexicon type of an adjective lemma ('red' -> 'colour'), or None when unknown or not a string."""
    if not isinstance(lemma, str):
        return None
    return load_lexicon().get(lemma.lower())


def lemmas_of_type(*types: str) -> frozenset[str]:
    """All lexicon lemmas whose type is one of ``types``."""
    wanted = set(types)
    return frozenset(lemma for lemma, kind in load_lexicon().items() if kind in wanted)
