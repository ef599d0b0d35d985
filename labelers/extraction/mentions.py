"""Mentions and coreference: the entity mention a token heads, and passage-level entity ids."""
from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Token

from labelers.extraction.attributes import pronoun_noun_phrase
from labelers.extraction.clauses import find_subject
from labelers.extraction.flags import is_expletive_it
from labelers.extraction.vocab import PERSONAL_PRONOUNS
from labelers.lexicon import load_coref_tables


NON_PERSON_ENTS = frozenset({"GPE", "LOC", "FAC", "ORG", "NORP", "DATE", "TIME", "MONEY", "QUANTITY",
                             "PERCENT", "CARDINAL", "ORDINAL", "EVENT", "PRODUCT", "WORK_OF_ART", "LAW",
                             "LANGUAGE"})
DEFINITE_DETS = frozenset({"the", "this", "that", "these", "those"})
ANTECEDENT_WINDOW = 3
"""A pronoun looks for its antecedent in its own sentence and at most this many sentences before."""


@dataclass
class Mention:
    i: int
    kind: str  # noun | name | pron
    sent: int
    person: bool  # person-like
    plural: bool
    gender: str  # m | f | n | ''
    definite: bool
    name_words: frozenset[str]  # proper names: lower-case words of the name, titles excluded
    name_text: str
    expletive: bool = False
    ent_id: int = -1
    antecedent: int = -1


def name_tokens(head: Token) -> list[Token]:
    """The words of the proper name that ``head`` heads: its compound/flat PROPN children, leftwards."""
    toks = [head]
    for c in head.children:
        if c.dep_ in ("compound", "flat") and c.pos_ == "PROPN" and c.i < head.i:
            toks.append(c)
    return sorted(toks, key=lambda t: t.i)


def _plural(tok: Token) -> bool:
    return tok.tag_ in ("NNS", "NNPS") or "Number=Plur" in str(tok.morph)


def make_mention(tok: Token, kind: str, sent: int) -> Mention:
    person_nouns, titles, first_names = load_coref_tables()
    if kind == "pron":
        klass, number, gender, _ = PERSONAL_PRONOUNS[tok.lower_]
        person = klass in ("1", "2") or gender in ("m", "f")
        return Mention(tok.i, kind, sent, person, number == "pl", gender, False, frozenset(), tok.text,
                       expletive=is_expletive_it(tok))
    if kind == "name":
        words = name_tokens(tok)
        gender = next((titles[w.lower_] for w in words if w.lower_ in titles), "")
        gender = gender or next((first_names[w.lower_] for w in words if w.lower_ in first_names), "")
        key = frozenset(w.lower_ for w in words if w.lower_ not in titles)
        person = tok.ent_type_ not in NON_PERSON_ENTS or bool(gender)
        text = tok.doc[words[0].i:tok.i + 1].text
        return Mention(tok.i, kind, sent, person, _plural(tok), gender, True, key, text)
    lemma = tok.lemma_.lower()
    if pronoun_noun_phrase(tok):  # never joins another "one" by lemma; "somebody" is a person, "it" not
        person = tok.lower_.endswith(("body", "one")) and tok.lower_ != "one"
        return Mention(tok.i, kind, sent, person, _plural(tok), "" if person else "n", False, frozenset(), tok.text)
    person = lemma in person_nouns or tok.lower_ in person_nouns
    gender = person_nouns.get(lemma, person_nouns.get(tok.lower_, "")) if person else "n"
    definite = any(c.dep_ == "det" and c.lower_ in DEFINITE_DETS for c in tok.children)
    return Mention(tok.i, kind, sent, person, _plural(tok), gender, definite, frozenset(), tok.text)


def _gender_ok(want: str, have: str) -> bool:
    return not want or not have or want == have


def _compatible(pron: Mention, cand: Mention, genders: dict[int, str]) -> bool:
    """Can ``cand`` (an earlier mention) be the antecedent of third-person pronoun ``pron``?"""
    if cand.expletive:
        return False
    if cand.kind == "pron" and PERSONAL_PRONOUNS[cand.name_text.lower()][0] != "3":
        return False
    gender = genders.get(cand.ent_id, cand.gender)
    if pron.plural:  # they / them / themselves
        return cand.plural
    if cand.plural:
        return False
    if pron.gender == "n":  # it / itself
        return not cand.person and gender in ("n", "")
    if cand.kind == "pron":  # he -> he, she -> she
        return cand.gender == pron.gender
    return cand.person and gender != "n" and _gender_ok(pron.gender, gender)


def resolve_entities(doc: Doc, mentions: list[Mention]) -> None:
    """Give every mention an ``ent_id`` (and pronouns an ``antecedent``), in document order.

    * proper name: the most recent earlier name whose words (titles excluded) contain this one's or are
      contained in it, titles' genders agreeing ("Emma" -> "Emma Woodhouse"; "Mr. Knightley" does not
      join "Mrs. Knightley");
    * common noun under a definite determiner (the/this/that/these/those): the most recent earlier
      common noun with the same lemma;
    * first/second person: the previous pronoun of the same person and number (one speaker per doc);
    * third person: the most recent earlier compatible mention in this or the ANTECEDENT_WINDOW previous
      sentences, skipping co-arguments of the same verb (reflexives take their clause subject):
      he/him/himself -> a person-like (PERSON/PROPN name, person noun, he) mention not marked female;
      she/her/herself likewise not male; it/itself -> a singular non-person noun or name (or it);
      they/them/themselves -> a plural noun or name (or they). Expletive "it" is never resolved.
      Resolving a name or noun to he/she marks that entity's gender.
    * everything else starts a new entity.
    """
    next_id = 0
    genders: dict[int, str] = {}
    for n, m in enumerate(mentions):
        tok = doc[m.i]
        found: Mention | None = None
        if m.kind == "name":
            for prev in reversed(mentions[:n]):
                if prev.kind == "name" and prev.name_words and m.name_words and (
                        m.name_words <= prev.name_words or prev.name_words <= m.name_words) and \
                        _gender_ok(m.gender, genders.get(prev.ent_id, prev.gender)):
                    found = prev
                    break
        elif m.kind == "noun" and m.definite:
            lemma = tok.lemma_.lower()
            found = next((p for p in reversed(mentions[:n])
                          if p.kind == "noun" and doc[p.i].lemma_.lower() == lemma), None)
        elif m.kind == "pron" and not m.expletive:
            klass, number, _, reflexive = PERSONAL_PRONOUNS[tok.lower_]
            if klass in ("1", "2"):
                found = next((p for p in reversed(mentions[:n]) if p.kind == "pron"
                              and PERSONAL_PRONOUNS[doc[p.i].lower_][:2] == (klass, number)), None)
            else:
                if reflexive:
                    subj = find_subject(tok.head) if tok.head.i != tok.i else None
                    cand = next((p for p in mentions[:n] if subj is not None and p.i == subj.i), None)
                    if cand is not None and _compatible(m, cand, genders):
                        found = cand
                if found is None:
                    for prev in reversed(mentions[:n]):
                        if prev.sent < m.sent - ANTECEDENT_WINDOW:
                            break
                        if not reflexive and doc[prev.i].head.i == tok.head.i and prev.sent == m.sent:
                            continue  # co-argument: "she told her"
                        if _compatible(m, prev, genders):
                            found = prev
                            break
                if found is not None:
                    m.antecedent = found.i
                    if m.gender in ("m", "f") and not genders.get(found.ent_id):
                        genders[found.ent_id] = m.gender
        if found is not None:
            m.ent_id = found.ent_id
        else:
            m.ent_id = next_id
            genders[next_id] = m.gender if m.gender != "n" else "n"
            next_id += 1
