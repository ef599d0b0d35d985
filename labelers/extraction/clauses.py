"""Subjects, objects and predicates of clauses: the parse helpers that attribute classes and attachment
share."""
from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Token

from labelers.extraction.vocab import (ARCHAIC_PRONOUNS, CLAUSE_DEPS, CLAUSE_END_MARKS, COPULA, GRADERS,
                                       GRADING_ADJECTIVES, INVERTED_DEGREE, LINKING_VERBS, OBJECT_PREDICATE_VERBS,
                                       RELATIVE_PRONOUNS, SUBJECT_DEPS, VOCATIVE_PARTNERS)
from labelers.lexicon import load_flat_adverbs


COMPOUND_SUBJECT_DEPS = frozenset({"conj", "dobj", "oprd", "ccomp", "xcomp", "acomp", "attr", "dep"})
"""Roles of a predicate adjective whose subject the parser made a compound of it: those of a gapped clause's
or a small clause's predicate (not "pobj", where it hangs adjectives of the clause's subject on the noun of
a phrase between: "came back from the Parsonage successful")."""


def own_subject(tok: Token) -> Token | None:
    """``tok``'s subject of its own: a child in a subject role, or the noun right before a predicate adjective
    that the parser made a compound of it (a gapped clause: "the night was dark, the road narrow"; a small
    clause: "had found the evening pleasant", "make the harpooneer sleepy"; not in a name: "Miss Caroline")."""
    subj = next((c for c in tok.children if c.dep_ in SUBJECT_DEPS), None)
    if subj is not None or tok.tag_ not in ("JJ", "JJR", "JJS") or tok.dep_ not in COMPOUND_SUBJECT_DEPS \
            or (tok.is_title and not tok.is_sent_start) or tok.lower_ in GRADING_ADJECTIVES:  # "a power little worth"
        return subj
    return next((c for c in tok.children if c.dep_ == "compound" and c.i == tok.i - 1
                 and c.pos_ in ("NOUN", "PROPN") and c.lower_ not in ARCHAIC_PRONOUNS), None)


def has_subject(tok: Token) -> bool:
    """``tok`` has a subject of its own (a gapped clause: "and her manner agitated")."""
    return own_subject(tok) is not None


def subject_on(tok: Token, aux_deps: tuple[str, ...]) -> Token | None:
    """``tok``'s own subject, else one the parser hung on an auxiliary of it whose dep is in ``aux_deps``.
    Of a name and a pronoun that addresses or points ("I", "you", "we", "it"), the pronoun: the name is a
    vocative ("But, Harriet, is it necessary", "Lydia, my love, though you are the youngest")."""
    own = [c for c in tok.children if c.dep_ in SUBJECT_DEPS]
    if len(own) > 1 and any(c.lower_ in VOCATIVE_PARTNERS for c in own):
        own = [c for c in own if not _vocative(c)] or own
    if own:
        return own[0]
    return next((c for a in tok.children if a.dep_ in aux_deps for c in a.children if c.dep_ in SUBJECT_DEPS), None)


def _vocative(tok: Token) -> bool:
    """A name set off by commas (or opening its sentence before one): "But, Harriet, is it ..."."""
    doc = tok.doc
    return tok.pos_ == "PROPN" and tok.i + 1 < len(doc) and doc[tok.i + 1].text == "," \
        and (tok.is_sent_start or doc[tok.i - 1].text in (",", "\"", "\u201c"))


@dataclass(frozen=True)
class Attachment:
    target: int  # token index of the noun / name / pronoun the adjective describes, -1 if none
    relation: str  # amod appos predicative depictive oprd relcl conj none
    base_relation: str  # the first conjunct's relation (== relation unless 'conj')
    gov: int  # governing verb of a predicate (-1 for attributive)
    first: int  # first conjunct (== the adjective unless 'conj')


def nominal_one(tok: Token) -> bool:
    """"one" heading a noun phrase after a determiner or a possessive ("an odd one", "my narrow leather one")."""
    return tok.lower_ == "one" and tok.dep_ != "nummod" and any(c.dep_ in ("det", "poss") for c in tok.children)


def nominal(tok: Token) -> bool:
    """``tok`` can head a noun phrase that a compound modifies: a noun, a name or a nominal "one"."""
    return tok.pos_ in ("NOUN", "PROPN") or nominal_one(tok)


def noun_head(tok: Token) -> Token:
    """Climb from a compound modifier to the noun it modifies ("brick" in "red brick house" -> house)."""
    seen = 0
    while tok.dep_ == "compound" and nominal(tok.head) and tok.head.i > tok.i and seen < 8:
        tok, seen = tok.head, seen + 1
    return tok


def find_subject(verb: Token) -> Token | None:
    """The subject of ``verb``, looking through xcomp ("seemed to be happy") and conj ("and was kind"), and
    on an auxiliary where the parser hangs it there ("extravagance" an nsubj of "had" in "his extravagance
    had, before that, been so great")."""
    for _ in range(8):
        subj = subject_on(verb, ("aux", "auxpass"))
        if subj is not None:
            return subj
        if _clause_as_subject(verb):
            return None
        if (verb.dep_ in ("xcomp", "conj") or _supplementive(verb) or _bare_than(verb)) and verb.head.i != verb.i:
            verb = verb.head
        else:
            return None
    return None


def _clause_as_subject(verb: Token) -> bool:
    """A verb the parser conjoined, with no "and" between, to a clause that opens with "that" or "whether"
    (after punctuation or a conjunction at most): that clause is its subject ("That she is a gentleman's
    daughter, is indubitable"), so the clause's own subject is not the verb's."""
    head = verb.head
    if verb.dep_ != "conj" or head.i == verb.i or any(c.dep_ == "cc" and head.i < c.i < verb.i for c in head.children):
        return False
    doc = verb.doc
    return any(c.dep_ == "mark" and c.lower_ in ("that", "whether")
               and all(t.is_punct or t.dep_ == "cc" for t in doc[head.left_edge.i:c.i])  # "--That", "And that"
               for c in head.children)


def _supplementive(verb: Token) -> bool:
    """A present-participle clause with no subject or subordinator of its own, set off by a comma after the
    clause it adjoins ("Frank declined it, looking as serious as he could"): its understood subject is that
    clause's (not a past participle's, which the parser as often hangs on the wrong clause)."""
    return (verb.dep_ == "advcl" and verb.tag_ == "VBG" and verb.head.i < verb.i
            and verb.doc[verb.i - 1].text == "," and not any(c.dep_ in CLAUSE_DEPS for c in verb.children))


def _bare_than(verb: Token) -> bool:
    """A bare infinitive after "than" with no subject of its own ("did nothing worse than look cold", "chose
    to wait rather than appear eager"): its understood subject is the clause's it compares with."""
    return (verb.tag_ == "VB" and verb.dep_ == "advcl" and verb.head.i < verb.i
            and any(c.dep_ == "mark" and c.lower_ == "than" for c in verb.children)
            and not any(c.dep_ in ("aux", "auxpass", *SUBJECT_DEPS) for c in verb.children))


def verb_object(verb: Token) -> Token | None:
    return next((c for c in verb.children if c.dep_ == "dobj"), None)


def subject_attachment(adj: Token, verb: Token, relation: str, subj: Token | None = None) -> Attachment:
    """The predicate ``adj`` of ``verb`` on the verb's subject (``subj`` when given, else found); through a
    relative pronoun on the noun its clause modifies ("a man who was rich", "Mrs. Jennings, who had been
    inclined")."""
    subj = subj if subj is not None else find_subject(verb) or _interrupted_subject(verb)
    target = _through_relative(subj) if subj is not None else None
    if target is None:
        return Attachment(-1, "none", "none", verb.i, adj.i)
    relation = relation if target.i == subj.i else "relcl"
    return Attachment(target.i, relation, relation, verb.i, adj.i)


def _interrupted_subject(verb: Token, max_report: int = 8) -> Token | None:
    """The subject of a quotation's verb that a reporting clause cut off ('"Mrs. Weston's manners," said
    Emma, "were always particularly good."'): ``verb`` has no subject and opens the reopened quotation, after
    at most ``max_report`` tokens of reporting clause (no quote, no sentence end) and a closing quote after a
    comma; the subject is the common noun of the first half that its parse hangs outside it, when that half
    is one noun phrase. The parser cannot join the halves, so this reads the tokens."""
    doc, k = verb.doc, verb.i - 1
    if k < 0 or not doc[k].is_quote or has_subject(verb):
        return None
    k -= 1
    while k >= 0 and k >= verb.i - 2 - max_report and not doc[k].is_quote \
            and doc[k].text not in CLAUSE_END_MARKS:
        k -= 1
    if k < 2 or k == verb.i - 2 or not doc[k].is_quote or doc[k - 1].text != ",":
        return None
    end, start = k - 1, k - 2
    while start >= 0 and not doc[start].is_quote and doc[start].text not in CLAUSE_END_MARKS:
        start -= 1
    half = range(start + 1, end)
    heads = [doc[i] for i in half if not doc[i].is_punct and doc[i].head.i not in half]
    if len(heads) != 1 or heads[0].pos_ != "NOUN":  # a bare name is a vocative as often ('"Elinor," cried she')
        return None
    return noun_head(heads[0])


def _through_relative(tok: Token) -> Token | None:
    """``tok``, or for a relative pronoun the noun its clause modifies ("a man who was rich", "the rooms,
    which she kept clean" -> rooms); None for a relative pronoun whose clause modifies no noun."""
    if tok.lower_ not in RELATIVE_PRONOUNS or tok.tag_ not in ("WP", "WDT"):
        return tok
    clause = tok.head
    if clause.dep_ != "relcl" or clause.head.i == clause.i:
        return None
    return noun_head(clause.head)


def object_predicate(adj: Token, verb: Token, obj: Token) -> Attachment:
    """``adj`` as the predicate of ``verb``'s object ``obj`` ("found him asleep"), through a relative
    pronoun object ("which she kept clean")."""
    target = _through_relative(obj)
    if target is None:
        return Attachment(-1, "none", "none", verb.i, adj.i)
    return Attachment(target.i, "oprd", "oprd", verb.i, adj.i)


def linking_chain(verb: Token) -> Token:
    """The verb that decides linking: "seemed" in "seemed to be happy" (be is an xcomp of seem)."""
    if verb.lemma_ in COPULA and verb.dep_ == "xcomp" and verb.head.pos_ in ("VERB", "AUX"):
        return verb.head
    return verb


def comma_between(left: Token, right: Token) -> bool:
    """A comma between two tokens of one doc (``left`` before ``right``)."""
    return any(t.text == "," for t in left.doc[left.i + 1:right.i])


def verb_predicate(adj: Token, verb: Token, dep: str) -> Attachment:
    """``adj`` as a predicate of ``verb`` (``dep`` its role): on the object of a non-copula ("found him
    asleep"), else on the subject, predicative after a linking verb and depictive after others."""
    obj = verb_object(verb)
    if obj is not None and obj.i == adj.i:
        obj = None  # the predicate itself, read as an object ("sat motionless")
    if obj is not None and obj.i > adj.i and comma_between(adj, obj):
        obj = None  # "The ship lay becalmed, her sails hanging limp": an absolute clause, not an object
    if obj is not None and verb.lemma_ not in COPULA and (dep in ("oprd", "xcomp", "ccomp", "acomp")
                                                          or _object_predicate_read_as_clause(adj, verb, obj, dep)):
        return object_predicate(adj, verb, obj)
    shared = _earlier_small_clause_subject(adj, verb) if obj is None and dep == "oprd" else None
    if shared is not None:  # "considered her so totally unamiable, so absolutely incapable of ..."
        return Attachment(shared.i, "oprd", "oprd", verb.i, adj.i)
    if dep == "ccomp":
        return Attachment(-1, "none", "none", verb.i, adj.i)
    linking = linking_chain(verb).lemma_ in LINKING_VERBS
    return subject_attachment(adj, verb, "predicative" if linking else "depictive")


def _earlier_small_clause_subject(adj: Token, verb: Token) -> Token | None:
    """The subject of an earlier object predicate of ``verb`` that has its own ("considered her so unamiable,
    so incapable": the parser gives "her" to the first only), which a later one with none shares."""
    return next((subj for c in verb.children if c.dep_ in ("oprd", "ccomp") and c.pos_ == "ADJ" and c.i < adj.i
                 for subj in c.children if subj.dep_ in SUBJECT_DEPS), None)


def _object_predicate_read_as_clause(adj: Token, verb: Token, obj: Token, dep: str) -> bool:
    """"found him as agreeable as any body": after a verb that takes an object predicate, an adjective right
    after the object (adverbs between) that the parser hung on the verb as an adverbial clause."""
    return dep == "advcl" and verb.lemma_ in OBJECT_PREDICATE_VERBS and obj.i < adj.i \
        and all(t.pos_ == "ADV" for t in adj.doc[obj.i + 1:adj.i])


def graded_adverb(tok: Token) -> bool:
    """An adjective form the tagger read as an adverb before the article of its noun ("at so early an age",
    "too late an hour"); not a grading word ("so much a part")."""
    doc = tok.doc
    return (tok.pos_ == "ADV" and tok.lower_ in load_flat_adverbs() and tok.lower_ not in GRADING_ADJECTIVES
            and 0 < tok.i < len(doc) - 1 and doc[tok.i - 1].lower_ in GRADERS
            and doc[tok.i + 1].lower_ in ("a", "an"))


def inverted_predicate(adj: Token) -> Attachment | None:
    """"Great was their surprise", "So great was his joy", "forlorn must be the sinking", "Various as were the
    tempers": a predicate fronted before its copula, which the parser takes for the subject or for a
    complement with no subject; the noun after the copula (its attr, or a second subject) is what it
    describes. None for other adjectives."""
    verb = adj.head
    if adj.dep_ not in ("nsubj", "acomp") or adj.lower_ in INVERTED_DEGREE or verb.lemma_ not in COPULA \
            or not adj.i < verb.i \
            or any(c.dep_ != "advmod" for c in adj.lefts) \
            or (adj.dep_ == "acomp" and any(c.dep_ in SUBJECT_DEPS for c in verb.lefts)):
        return None  # an acomp before its copula with a subject there is no inversion ("he, so happy, was")
    subj = next((c for c in verb.rights if c.dep_ in ("attr", *SUBJECT_DEPS) and c.pos_ in ("NOUN", "PROPN", "PRON")),
                None)
    return None if subj is None else subject_attachment(adj, verb, "predicative", noun_head(subj))


def infinitive_to(verb: Token) -> Token | None:
    """The "to" of an infinitive verb ("to be"), None for a verb with none."""
    return next((c for c in verb.children if c.dep_ == "aux" and c.lower_ == "to"), None)
