"""Flags on an adjective and its noun: a denied noun ("no", "without"), a comparison with "than", an
adverbial idiom, a governing preposition, a word of a proper name or of a compound word, an adjective that
opens its noun phrase, and expletive "it"."""
from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from labelers.extraction.attachment import attach, hyphen_glued
from labelers.extraction.attributes import is_proper_adjective
from labelers.extraction.clauses import Attachment
from labelers.extraction.vocab import (CLAUSE_END_MARKS, COPULA, EPITHETS, OBJECT_PREDICATE_VERBS, PREDICATE_VERBS,
                                       RESULT_VERBS, SUBJECT_DEPS)
from labelers.lexicon import attribute_type, load_flat_adverbs


NEGATIVE_DETS = frozenset({"no", "neither"})
ELIDED_EXTRAPOSITION = frozenset({"possible", "impossible", "necessary", "unnecessary", "convenient",
                                  "inconvenient", "practicable", "requisite", "needful"})
"""Adjectives whose "it" in a subordinate clause stands for an infinitive left out: "when it is necessary",
"as soon as it was possible", "whenever it is convenient" (to do what the main clause says)."""
ELIDING_MARKS = frozenset({"as", "if", "when", "whenever", "where", "wherever", "before", "than", "unless",
                           "while", "till", "until"})
"""Subordinators of the clauses in which that infinitive is left out."""


def has_negative_det(att: Attachment, doc: Doc) -> bool:
    """The described noun is denied: its determiner is "no"/"neither" ("no great beauty") or "not one"
    (``_not_one``), it is the object of "without" directly, through "of", as a later conjunct or as the
    object of its gerund ("without a kind word", "without the considerations of decent civility", "without
    feelings of delight or vexation", "without having seen one amiable youth"), or it has "any" under a
    negated verb ("did not know any better qualifications")."""
    if att.target < 0:
        return False
    noun = doc[att.target]
    dets = {c.lower_ for c in noun.children if c.dep_ == "det"}
    if dets & NEGATIVE_DETS or _not_one(noun):
        return True
    while noun.dep_ == "conj" and noun.head.i != noun.i:  # "without feelings of delight or vexation"
        noun = noun.head
    prep = noun.head if noun.dep_ == "pobj" else None
    if prep is not None and prep.lower_ == "of" and prep.head.dep_ == "pobj":
        prep = prep.head.head
    if prep is not None and prep.lower_ == "without":
        return True
    if noun.dep_ == "dobj" and noun.head.dep_ == "pcomp" and noun.head.head.lower_ == "without":
        return True  # "without having seen one amiable youth": the object of a gerund under "without"
    verb = noun.head.head if noun.dep_ == "pobj" else noun.head
    return "any" in dets and verb.pos_ in ("VERB", "AUX") and any(c.dep_ == "neg" for c in verb.children)


def _not_one(noun: Token) -> bool:
    """"not one agreeable quality", "not a single kind word", and a subject opened by "not a" ("not a cloud
    was visible"): "not" before the noun phrase denies the noun as "no" does. Not "not a" on a predicate
    noun ("He is not a young man" is bound in the gold), after "or"/"if" ("whether or not a man is rich") or
    after a verb, whose negation it is ("had not a righteous judgment descended", "was not a good man")."""
    doc, first = noun.doc, noun.left_edge
    if first.lower_ == "not" and first.i + 1 < noun.i:  # "Not one sailor is hurt": "not" inside the phrase
        first = doc[first.i + 1]
    elif first.i == 0 or doc[first.i - 1].lower_ != "not":
        return False
    if first.lower_ not in ("a", "an"):
        return first.lower_ == "one"
    single = doc[first.i + 1].lower_ == "single"
    before = doc[first.i - 2] if first.i > 1 else None  # the word before "not"
    verbs_not = before is not None and (before.lower_ in ("or", "if") or before.pos_ in ("AUX", "VERB"))
    return single or (noun.dep_ in SUBJECT_DEPS and not verbs_not)


def than_follows(adj: Token) -> bool:
    """A "than" comparison of the adjective, or of a coordination that shares one "more" / "less" ("more
    heavy, restless, and uncomfortable than before"; not "young, pretty and taller than her sister"), or
    the adjective is what is exceeded ("with more than common certainty": uncommon, a comparison too)."""
    if _than_after(adj) or _than_before(adj) or _than_later(adj):
        return True
    first = adj
    while first.dep_ == "conj" and first.head.pos_ == "ADJ" and first.head.i != first.i:
        first = first.head
    if not any(c.dep_ == "advmod" and c.lower_ in ("more", "less") for c in first.children):
        return False
    return any(_than_after(c) for c in first.subtree if c.dep_ == "conj" and c.pos_ == "ADJ")


def _than_before(adj: Token) -> bool:
    """"more than" / "less than" right before the adjective ("more than common certainty")."""
    doc = adj.doc
    return adj.i >= 2 and doc[adj.i - 1].lower_ == "than" and doc[adj.i - 2].lower_ in ("more", "less")


def _than_after(adj: Token) -> bool:
    """A 'than' child of the adjective or of its "more"/"less", or right after it."""
    for c in adj.children:
        if c.lower_ == "than":
            return True
        if c.dep_ == "advmod" and any(g.lower_ == "than" for g in c.children):
            return True
    doc = adj.doc
    for t in doc[adj.i + 1:min(adj.i + 4, len(doc))]:
        if t.lower_ == "than":
            return True
        if t.is_punct or t.is_sent_start:
            break
    return False


def _than_later(adj: Token) -> bool:
    """A comparative ("more warm", "less galling", "warmer") whose "than" comes later in its sentence, past a
    phrase or a speech tag the parser hangs it on ("more warm on the subject than Mr. Yates", "more galling
    to the spirit of a man," continued John, "than to see"): the first "than" after it, with no other
    comparative between (which would claim it), no semicolon or colon between (another clause: "growing
    more angry every moment; yet she ... said: ... in any other way, than as") and not "rather than"."""
    graded = adj.tag_ == "JJR" or any(c.dep_ == "advmod" and c.lower_ in ("more", "less") for c in adj.children)
    if not graded:
        return False
    for t in adj.doc[adj.i + 1:adj.sent.end]:
        if t.lower_ == "than":
            return t.doc[t.i - 1].lower_ != "rather"
        if t.tag_ in ("JJR", "RBR") or t.text in (";", ":"):
            return False
    return False


ADVERBIAL_IDIOMS = {
    "in": frozenset({"short", "general", "particular", "vain", "earnest", "full", "private", "public", "common"}),
    "at": frozenset({"last", "least", "first", "best", "worst", "most", "large", "present"}),
    "of": frozenset({"old", "late", "course"}),
    "for": frozenset({"good", "certain", "sure", "long"}),
    "as": frozenset({"usual"}),
}
"""Preposition -> the adjectives it forms an adverbial idiom with ("in short", "at last", "of old", "as usual")."""


def adverbial_idiom(adj: Token) -> bool:
    """The adjective is used as an adverb (data/gold/README.md: "she came early"): it closes a prepositional
    idiom ("in short", "at last", "I know of old"; not an adjective before its noun: "in general terms", "of
    late years", "in general and ordinary cases"), or it is also an adverb and the parser makes it one of a
    verb that is no linking or posture verb, describing nothing ("thought ill of him", "had used her ill",
    "stopped short", "you had better go"; not "sat erect", "emerged victorious")."""
    if _adverb_of_verb(adj) or _to_be_sure(adj):
        return True
    doc = adj.doc
    if adj.i == 0 or adj.lower_ not in ADVERBIAL_IDIOMS.get(doc[adj.i - 1].lower_, ()):
        return False
    after = [t.pos_ for t in doc[adj.i + 1:adj.i + 3]]
    return not after or (after[0] not in ("NOUN", "PROPN", "ADJ", "NUM") and after[:2] != ["CCONJ", "ADJ"])


def _to_be_sure(adj: Token) -> bool:
    """The parenthetical "to be sure" (certainly; data/gold/README.md: an idiom): "sure" right after a "to
    be" set off by punctuation or that no verb or adjective takes as its complement ("want to be sure", "glad
    to be sure"), with no complement of its own after it ("to be sure of it", "to be sure that he came")."""
    doc, i = adj.doc, adj.i
    if adj.lower_ != "sure" or i < 2 or doc[i - 1].lower_ != "be" or doc[i - 2].lower_ != "to":
        return False
    be = doc[i - 1]
    set_off = i < 3 or doc[i - 3].is_punct  # ", to be sure,": parenthetical, whatever the parser hangs it on
    if (be.dep_ == "xcomp" and not set_off) or any(c.dep_ in SUBJECT_DEPS for c in be.children):
        return False
    return i + 1 >= len(doc) or doc[i + 1].lower_ not in ("of", "that", "about", "to", "whether", "enough")


def _adverb_of_verb(adj: Token) -> bool:
    """An adjective that English also uses as an adverb (WordNet: "ill", "short", "better"; not "victorious"
    in "emerged victorious") and that the parser made an adverb of a verb other than a linking or posture
    verb, with no target of its own (``adverbial_idiom``)."""
    verb = adj.head
    if adj.pos_ != "ADJ" or adj.dep_ != "advmod" or verb.i == adj.i or verb.pos_ not in ("VERB", "AUX") \
            or adj.lower_ not in load_flat_adverbs():
        return False
    if adj.lower_ == "better" and any(c.dep_ == "aux" and c.lower_ in ("had", "'d") for c in verb.children):
        return True  # "you had better go": a modal idiom, whatever the verb
    if verb.lemma_ in OBJECT_PREDICATE_VERBS and any(c.dep_ == "dobj" and c.i < adj.i for c in verb.children):
        return False  # an object predicate the parser misread: "no reason to believe him rich"
    return verb.lemma_ not in PREDICATE_VERBS and attach(adj).target < 0


OPENING_TAGS = frozenset({"DT", "PDT", "PRP$", "POS", "WP$", "CD"})
"""Tags of the words that open a noun phrase before its adjectives (determiners, possessives, numbers)."""


def opens_phrase(adj: Token, att: Attachment) -> bool:
    """The attributive adjective opens the phrase of its noun: no determiner, possessive, number or other
    modifier before it, nor such a word that the parser hung elsewhere just before it ("little hope", "with
    very little intermission"; not "a little hope", "her little boy", "poor little thing", "my juicy little
    pear")."""
    if att.relation != "amod" or att.target < 0:
        return False
    doc, start = adj.doc, adj.left_edge.i
    if any(t.tag_ not in ("RB", "WRB") for t in doc[start:adj.i]):  # its degree adverbs only: "how little"
        return False
    if start > 0 and doc[start - 1].tag_ in OPENING_TAGS:
        return False
    return not any(c.i < start for c in doc[att.target].children)


def prep_of(adj: Token) -> str:
    """The first preposition governed by the adjective ('to' in "similar to"), '' if none."""
    return next((c.lower_ for c in adj.children if c.dep_ == "prep" and c.lower_ != "than"), "")


def in_name(adj: Token, name_ents: dict[int, Span]) -> bool:
    """The adjective is part of a fixed proper name ("Great Britain", "the Crown Inn"...): a capitalised
    adjective inside a sentence before a name or before a capitalised noun ("at the Try Pots", which the
    tagger reads as common nouns), but for an epithet ("Poor Fanny") or a people's adjective ("the Irish
    Governments")."""
    if adj.pos_ == "PROPN":
        return not is_proper_adjective(adj) and not _epithet(adj)
    if not adj.is_title:
        return False
    span = name_ents.get(adj.i)
    if span is not None:
        return True
    if adj.is_sent_start or adj.dep_ not in ("compound", "amod"):
        return False
    head = adj.head
    return head.pos_ == "PROPN" or (head.is_title and head.i > adj.i and head.pos_ == "NOUN"
                                    and adj.lower_ not in EPITHETS and attribute_type(adj.lower_) != "origin")


def in_compound_word(adj: Token) -> bool:
    """The adjective is the first part of a hyphenated compound noun that heads its phrase ("good-humour",
    "ill-health", "a great-coat", "small-pox"): one word, which names no property of its noun; not a compound
    modifier of a later noun ("low-cost labour", where "low" describes the labour)."""
    noun = adj.head
    modifies_later = noun.dep_ in ("compound", "nmod", "amod", "npadvmod") and noun.head.i > noun.i
    return noun.pos_ in ("NOUN", "PROPN") and hyphen_glued(adj, noun) and not modifies_later


def _epithet(adj: Token) -> bool:
    """A capitalised epithet before a name that the tagger made part of the name ("Poor Isabella!")."""
    head = adj.head
    return adj.lower_ in EPITHETS and adj.dep_ in ("compound", "amod") and head.i > adj.i and head.pos_ == "PROPN"


def multiword_name_ents(doc: Doc) -> dict[int, Span]:
    """Token index -> entity span, for entities of more than one token containing a proper noun."""
    found: dict[int, Span] = {}
    for ent in doc.ents:
        if len(ent) > 1 and any(t.pos_ == "PROPN" for t in ent):
            for t in ent:
                found[t.i] = ent
    return found


WH_EXTRAPOSED = frozenset({"how", "what", "why", "whether", "who"})
"""Words that open an embedded question an expletive 'it' can stand for (``_wh_clause``)."""


def is_expletive_it(tok: Token) -> bool:
    """Expletive 'it': dep expl, or subject of a predicate with an extraposed clause ("it was necessary
    to go", "it is true that...", "it seemed that...", "it was impossible for her to be", "it is wonderful
    how many ...", and of an object predicate: "made it clear that...", "found it hard to believe")."""
    if tok.lower_ != "it":
        return False
    if tok.dep_ == "expl":
        return True
    if tok.dep_ not in SUBJECT_DEPS:
        return False
    verb = tok.head
    clause_deps = ("xcomp", "ccomp", "csubj")
    predicates = [verb] if verb.pos_ == "ADJ" else [a for a in verb.children if a.dep_ in ("acomp", "attr")]
    for c in verb.children:
        if c.i <= tok.i:
            continue
        if c.dep_ in ("ccomp", "csubj") and any(g.dep_ == "mark" for g in c.children):
            return True
        if c.dep_ in ("acomp", "attr", "oprd") and not _degree_complement(c) and any(
                g.dep_ in clause_deps and g.i > c.i and g.pos_ in ("VERB", "AUX") for g in c.children):
            return True
        if c.dep_ == "xcomp" and verb.lemma_ in COPULA and any(g.lower_ == "to" for g in c.children):
            return True
        if c.dep_ in ("advcl", "ccomp") and (_extraposable(c) or _wh_clause(c)) and predicates and not any(
                _degree_complement(a) for a in predicates):
            return True  # "it was impossible for her to be", "made it clear that", "found it hard to believe"
    spoken = predicates + ([] if verb.pos_ == "ADJ" else [a for a in verb.children if a.dep_ == "oprd"])
    if _elided_extraposition(verb, spoken):
        return True  # "as long as it is possible", "when it is necessary": the infinitive is understood
    if any(_interrupted_extraposition(a) for a in spoken if a.i > tok.i and not _degree_complement(a)):
        return True  # '"It is difficult," said Jane, "to guess ..."'
    if (verb.pos_ == "ADJ" or verb.tag_ == "VBG") and verb.head.lemma_ in RESULT_VERBS \
            and not _degree_complement(verb) and any(
            c.dep_ in ("advcl", "xcomp", "ccomp") and c.i > verb.i and _extraposable(c)
            for c in list(verb.head.children) + list(verb.children)):
        return True  # "found it most natural to take her walk", "thought it most becoming to reply"
    return verb.lemma_ in ("seem", "appear", "happen") and any(c.dep_ == "ccomp" for c in verb.children)


def _elided_extraposition(verb: Token, predicates: list[Token]) -> bool:
    """A subordinate clause whose predicate is ELIDED_EXTRAPOSITION, with no complement on it or its verb
    ("when it was possible for him" is left to the other rules)."""
    return any(a.lemma_ in ELIDED_EXTRAPOSITION for a in predicates) and not any(
        c.dep_ in ("prep", "xcomp", "ccomp", "advcl") for a in [verb, *predicates] for c in a.children) and any(
        c.dep_ in ("mark", "advmod") and c.lower_ in ELIDING_MARKS for c in verb.children)


def _interrupted_extraposition(pred: Token, max_report: int = 12) -> bool:
    """The quotation closes after ``pred`` and, past a short reporting clause, reopens with the clause an
    expletive 'it' stands for: '"It is difficult," said Jane, "to guess ..."', '"It is strange," replied
    Elinor, "that I should ..."'. The parser cannot join the two halves of the quotation, so this reads the
    tokens: after the predicate at most three tokens ("for me", ", I know"), then [,!?] and a closing quote;
    at most ``max_report`` tokens without a quote or a sentence end; a quote, then "to" + verb or "that"."""
    doc, k = pred.doc, pred.i + 1
    while k < len(doc) and k <= pred.i + 4 and not doc[k].is_quote:
        k += 1
    if k >= len(doc) or not doc[k].is_quote or doc[k - 1].text not in (",", "!", "?"):
        return False
    start = k + 1
    k = start
    while k < len(doc) and not doc[k].is_quote and doc[k].text not in CLAUSE_END_MARKS:
        k += 1
    if k == start or k - start > max_report or k + 1 >= len(doc) or not doc[k].is_quote:
        return False
    first = doc[k + 1]
    if first.lower_ == "that":
        return True
    return first.lower_ == "to" and k + 2 < len(doc) and doc[k + 2].pos_ in ("VERB", "AUX")


def _degree_complement(adj: Token) -> bool:
    """The clause after ``adj`` completes "too" or "enough", not an expletive 'it' ("it was too heavy for him
    to lift": the box is heavy). Not "so", an intensifier as often ("it is so delightful to have an evening
    to oneself")."""
    return any(g.lower_ in ("too", "enough") for g in adj.children)


def _wh_clause(clause: Token) -> bool:
    """An embedded question that an expletive 'it' stands for ("It's funny how things turn out", "it is
    doubtful who will come"): a complement clause opened by WH_EXTRAPOSED; not a time or place clause
    ("it was late when he came" is about the time, and "it" is no mention there either way)."""
    return clause.dep_ == "ccomp" and clause.left_edge.lower_ in WH_EXTRAPOSED


def _extraposable(clause: Token) -> bool:
    """A clause that an expletive 'it' stands for: a to-infinitive ("for her to be") or a that-clause, not
    one of result ("so that", "such that")."""
    if clause.pos_ not in ("VERB", "AUX"):
        return False
    for g in clause.children:
        if g.dep_ == "aux" and g.lower_ == "to":
            return True
        if g.dep_ == "mark" and g.lower_ == "that" and (g.i == 0 or g.doc[g.i - 1].lower_ not in ("so", "such")):
            return True
    return False
