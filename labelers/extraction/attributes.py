"""Token classes: what kind of mention a token heads, which tokens are attributes (adjectives, participles
that name a state, words the tagger got wrong), and an attribute's lemma."""
from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Token

from labelers.extraction.clauses import (Attachment, find_subject, graded_adverb, has_subject, infinitive_to,
                                         inverted_predicate, nominal, nominal_one, noun_head, subject_on,
                                         verb_predicate)
from labelers.extraction.vocab import (ARCHAIC_PRONOUNS, CLAUSE_DEPS, COPULA, DEGREE_ADVERBS, DEMONSTRATIVES, EPITHETS,
                                       FINITE_VERB_TAGS, GRADING_ADJECTIVES, LEMMA_FIXES, MISTAGGED_PREDICATE_DEPS,
                                       PERSONAL_PRONOUNS, PREDICATE_DEPS, PREDICATE_VERBS, SUBJECT_DEPS, TIME_NOUNS)
from labelers.lexicon import (attribute_type, load_adjective_forms, load_coref_tables, load_lexicon, load_noun_forms,
                              load_un_verbs)


INDEFINITE_PRONOUNS = frozenset({"everything", "everybody", "everyone", "anything", "anybody", "anyone",
                                 "something", "somebody", "someone"})
"""Indefinites that can bear a property; not the negative ones (nothing, nobody): such a binding is denied."""
SUBJECT_PRONOUNS = DEMONSTRATIVES | {"all", "both", "each"}
"""Pronouns that are a mention as a subject ("This is full of papers", "So far all was perfectly right"),
and elsewhere as often point at a clause or float beside a noun ("They all were")."""
EXTENT_ADVERBS = frozenset({"densely", "sparsely", "thinly", "thickly", "heavily", "lightly", "highly", "poorly",
                            "richly"})
"""Adverbs of density or degree that grade the state a present passive names ("is densely populated", "are
heavily forested", "is richly endowed"); not those of proportion or spread, which a habit takes as well ("it
is largely used in perfumery", "he is mostly found in the circumpolar seas", "is widely spoken")."""
MISTAGGED_CONJUNCT_TAGS = frozenset({"NN", "VB", "VBP", "RB"})
"""Tags of a conjoined adjective-only word form that ``_mistagged_conjunct`` reads as an adjective."""
INDUCED_PARTICIPLES = frozenset({"persuaded", "induced", "prevailed"})
"""Participles of inducing (``_induced``)."""
NAMING_PARTICIPLES = frozenset({"called", "named", "styled", "termed", "dubbed", "christened", "nicknamed", "surnamed"})
"""Past forms of naming verbs, whose object is a name (``_naming_verb``)."""
WELL_VERBS = frozenset({"be", "look", "seem", "appear", "feel", "get", "keep", "grow", "become"})
"""Linking verbs after which "well" names health ("she looks very well", "get well")."""
WELL_GOING = frozenset({"home", "on", "along", "through", "back", "away", "off", "there", "here"})
"""Words of a journey or progress after which "well" is its manner ("we shall get home very well")."""
WELL_BLOCKING_DEPS = PREDICATE_DEPS | {"dobj", "auxpass", "prt", "npadvmod"}
"""A verb with a child in one of these roles has its own predicate or object, so "well" is its manner."""
PARTICIPLE_DEPS = frozenset({"amod", "acomp", "oprd"})
FEELING_GRADERS = DEGREE_ADVERBS | {"much"}
"""What grades a passive of feeling into a state ("rather agitated by", "too much vexed by")."""
EVENT_HEADS = frozenset({"be", "get", "have", "see", "hear", "watch"})
"""Verbs whose participle complement is an event: a verbal passive ("was killed", "got married"), a perfect,
a causative ("had it cut") or a perceived event ("saw their sashes untied", "heard herself mentioned").
After other verbs a bare participle is a state ("seemed impelled", "sat undisturbed", "found herself
obliged")."""
PRONOMINAL_ADVERB = re.compile(r"(here|there|where)(abouts?|after|at|by|fore|from|in|of|on|to|under|unto|upon|with)")
"""Adverbs such as "hereafter" and "thereby", which the tagger sometimes reads as adjectives ("the living was
hereafter for Edmund"); never an attribute."""
NOUN_SUFFIX = re.compile(r"[a-z]{3,}(ness|ity|tion|sion|ship|hood|ism)")
"""Abstract-noun endings no English adjective has, for words the tagger reads as adjectives ("with cheerful
selfishness reflect"); not "-ment" ("vehement") or "-ive" ("a relative")."""
INTERJECTIONS = frozenset({"aye", "ay", "nay", "yea"})
"""Interjections the tagger sometimes reads as adjectives or names ("Aye, aye, the parsonage is but a small
one", "Aye, that will be much best"); never an attribute or a mention."""
NOUN_ROLE_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
"""Roles in which a word WordNet lists only as a noun heads a mention, whatever its tag."""
ORPHAN_DEPS = frozenset({"pobj", "appos", "ROOT", "npadvmod", "nmod"})
"""Roles the parser gives a clause's object when it has read the clause's verb as an adjective of it."""
VERBAL_GERUND_DEPS = CLAUSE_DEPS | {"nsubj", "dobj", "dative", "prt", "xcomp", "prep", "agent"}
"""Dependents that make an -ing conjunct of an adjective a verb ("happy and singing a song")."""
PARTICIPLE_BLOCKING_DEPS = CLAUSE_DEPS | {"nsubj", "nsubjpass", "dobj", "agent", "prt", "dative"}
"""Dependents that make a past form a clause's verb, not a prenominal participle the tagger misread."""
"""A participle with an auxiliary or complementiser of its own heads a verbal clause ("felt that she had
gained nothing", "seemed to have expected her"), not a small clause."""


def _has_alpha(tok: Token) -> bool:
    return _text_has_alpha(tok.text)


@lru_cache(maxsize=65536)
def _text_has_alpha(text: str) -> bool:
    """Cached by word form: every token of every passage asks, and word forms repeat."""
    return any(ch.isalpha() for ch in text)


def mention_kind(tok: Token) -> str | None:
    """'noun', 'name' or 'pron' when ``tok`` heads an entity mention, else None."""
    if not _has_alpha(tok) or tok.lower_ in INTERJECTIONS:
        return None
    if tok.pos_ == "NOUN":
        if _mistagged_adjective(tok):
            return None
        if tok.dep_ == "compound" and nominal(tok.head) and tok.head.i > tok.i:
            return None
        if _rank_part(tok):  # "rate" in "first-rate"
            return None
        return "noun"
    if tok.pos_ == "PROPN":
        if tok.dep_ in ("compound", "flat") and tok.head.pos_ == "PROPN" and tok.head.i != tok.i:
            return None
        if is_proper_adjective(tok):
            return None
        if tok.lower_ in load_coref_tables()[1] and not any(c.dep_ == "amod" for c in tok.children):
            return None  # a bare title ("Sir", "Mrs.") heading nothing; not an addressee ("dear Madam")
        return "name"
    if tok.pos_ == "PRON" and tok.tag_ != "PRP$" and tok.lower_ in PERSONAL_PRONOUNS:
        return "pron"
    if tok.pos_ in ("ADJ", "ADV", "X") and tok.dep_ in NOUN_ROLE_DEPS and tok.lower_ in load_noun_forms() \
            and tok.lower_ not in ARCHAIC_PRONOUNS:
        return "noun"  # a noun-only word the tagger misread in a noun's role: "she experienced great unkindness"
    if pronoun_noun_phrase(tok):
        return "noun"
    return None


def pronoun_noun_phrase(tok: Token) -> bool:
    """A pronoun that heads its noun phrase with no antecedent to resolve: an indefinite ("everything looked so
    beautiful", "something much more pleasing"), a demonstrative (not a relative "that") or "all" as subject
    (SUBJECT_PRONOUNS), a demonstrative with an "of" phrase ("those of the middle one, very short"), or "one"
    after a determiner or a possessive ("an odd one", "the poor one", "my narrow leather one"); it is a mention
    of kind 'noun'."""
    if tok.pos_ == "PRON":  # a relative "that" (WDT) is none: its noun is the mention
        return tok.lower_ in INDEFINITE_PRONOUNS or (tok.lower_ in SUBJECT_PRONOUNS and tok.dep_ in SUBJECT_DEPS
                                                     and tok.tag_ != "WDT") \
            or (tok.lower_ in DEMONSTRATIVES and tok.tag_ != "WDT" and _of_phrase(tok))
    return nominal_one(tok)


def _of_phrase(tok: Token) -> bool:
    """``tok`` heads an "of" phrase ("those of the middle one")."""
    return any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children)


def _is_name_adjective(tok: Token) -> bool:
    """A capitalised adjective-like word inside a proper name ("Great" in "Great Britain"), or an epithet
    the tagger put there ("Dear Harriet": EPITHETS)."""
    return (tok.pos_ == "PROPN" and tok.dep_ in ("compound", "amod") and tok.head.pos_ == "PROPN"
            and tok.is_title and (tok.lower_ in load_lexicon() or tok.lower_ in EPITHETS))


def is_proper_adjective(tok: Token) -> bool:
    """A proper adjective tagged as a name, on a common noun: spaCy's own amod ("the Ugandan government") or
    a nationality in the lexicon as a compound ("the Thai baht" with 'thai' an origin adjective); not a
    place or person modifying a noun ("the London road")."""
    if tok.pos_ != "PROPN" or tok.head.i == tok.i or tok.head.pos_ != "NOUN" or tok.head.i < tok.i:
        return False
    return tok.dep_ == "amod" or (tok.dep_ == "compound" and attribute_type(tok.lower_) == "origin")


def is_attribute(tok: Token) -> bool:
    """True for the tokens that candidates pair with mentions (see the module docstring)."""
    if not _has_alpha(tok) or _never_attribute_form(tok.lower_) or _noun_tagged_adjective(tok) or _misread_verb(tok) \
            or _grades_adjective(tok) or _quantifier_part(tok) or _kin_title(tok) or _induced(tok) or _naming_verb(tok):
        return False
    if tok.pos_ == "ADJ" or is_proper_adjective(tok) or _mistagged_adjective(tok) or _inverted_initial_adjective(tok):
        return True
    if tok.tag_ in ("VBN", "VBG") and (tok.dep_ in PARTICIPLE_DEPS or _prenominal_conjunct(tok)) \
            and not _caused_feeling(tok):
        return True
    if is_adjectival_participle(tok):
        return True
    if tok.tag_ == "VBN" and tok.lower_ in load_lexicon() and passive_subject(tok) is not None \
            and not _caused_feeling(tok):
        return True
    if set_off_state(tok) is not None or _negative_state(tok) or misread_prenominal_participle(tok) is not None \
            or misread_initial_adjective(tok) is not None:
        return True
    return _is_name_adjective(tok) or predicate_well(tok) or graded_adverb(tok) or _misread_conjunct(tok)


def _induced(tok: Token) -> bool:
    """"was persuaded by Elinor to stay", "was persuaded to think it possible": a passive of inducing with an
    agent or an infinitive is the event of being talked into something; "I am persuaded that he is right"
    (convinced) stays a state."""
    return tok.tag_ == "VBN" and tok.lower_ in INDUCED_PARTICIPLES and any(
        c.dep_ == "agent" or (c.dep_ == "xcomp" and infinitive_to(c) is not None) for c in tok.children)


def _naming_verb(tok: Token) -> bool:
    """"as Margaret styled Willoughby", "the boy called John": a naming verb's past form right before the
    name it gives, which the parser may hang on the name as a modifier; it names, it describes nothing."""
    doc = tok.doc
    return tok.tag_ in ("VBN", "VBD") and tok.lower_ in NAMING_PARTICIPLES and tok.i + 1 < len(doc) \
        and doc[tok.i + 1].pos_ == "PROPN"


def _kin_title(tok: Token) -> bool:
    """A person noun the tagger read as an adjective before a name ("her aunt Norris", "cousin Edmund"):
    a title, no property (not a word of the attribute lexicon: "her favourite Harriet")."""
    return tok.dep_ == "compound" and tok.head.pos_ == "PROPN" and tok.head.i > tok.i \
        and tok.lower_ in load_coref_tables()[0] and tok.lower_ not in load_lexicon()


def _quantifier_part(tok: Token) -> bool:
    """"great" or "good" in the quantifier "a great many" / "a good many" ("a great many gay hours"), which the
    parser hangs on the noun beside the real adjectives."""
    doc = tok.doc
    return tok.lower_ in ("great", "good") and tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ == "many"


def _misread_conjunct(tok: Token) -> bool:
    """"Quick and decided in her ways": a past form the tagger read as a verb, conjoined with an adjective
    that is no verb's predicate, with no subject, object or clause of its own, and an adjective in WordNet,
    is an adjective like its conjunct."""
    return (tok.tag_ == "VBD" and tok.dep_ == "conj" and tok.head.pos_ == "ADJ" and tok.lower_ in load_adjective_forms()
            and tok.head.dep_ not in ("acomp", "attr", "oprd", "xcomp")  # "she was young, and possessed ...": a verb
            and not any(c.dep_ in PARTICIPLE_BLOCKING_DEPS or c.dep_ in ("xcomp", "ccomp") for c in tok.children))


def _caused_feeling(tok: Token) -> bool:
    """A passive of feeling with its cause as agent ("was startled by a rap", "so completely awed by the
    grandeur", "my gratitude is warmly excited by such attention"): an event (data/gold/README.md, verbal
    passives). Only feelings: the parser also makes a place an agent ("He was seated by the fire"); and not
    one graded by a degree adverb, which names the state ("was rather agitated by such harsh reflections",
    "too much vexed by what had passed")."""
    return attribute_type(tok.lower_) == "emotion" and any(c.dep_ == "agent" for c in tok.children) \
        and not any(c.dep_ == "advmod" and c.lower_ in FEELING_GRADERS for c in tok.children)


def predicate_well(tok: Token) -> bool:
    """"well" of health, the predicate of a linking verb, which the tagger calls an adverb ("she looks very
    well", "as he is now pretty well", "I hope you are quite well"): the verb (WELL_VERBS) has a subject and
    no other predicate, and it is not "as well" or a verb's manner ("was well received": "well" hangs on the
    participle, no linking verb; "get home very well", "got on well": WELL_GOING)."""
    verb = tok.head
    if tok.lower_ != "well" or tok.pos_ != "ADV" or tok.dep_ not in ("advmod", "acomp") or verb.i > tok.i \
            or verb.lemma_ not in WELL_VERBS or verb.pos_ not in ("VERB", "AUX"):
        return False
    if tok.i > 0 and tok.doc[tok.i - 1].lower_ == "as":
        return False
    return find_subject(verb) is not None and not any(
        (c.dep_ in WELL_BLOCKING_DEPS or c.lower_ in WELL_GOING) and c.i != tok.i for c in verb.children)


def _mistagged_adjective(tok: Token) -> bool:
    """A word the tagger called a noun that English only ever uses as an adjective (WordNet lists the form
    as an adjective and never as a noun, verb or adverb), in an adjective's place: before a noun it
    modifies ("her doting mother", "the neighboring countries") or, with no determiner or modifier of a
    noun's, after a linking or posture verb ("he was headstrong", "she sat motionless over it"), or first of
    comma-stacked adjectives (``mistagged_stacked``); also, whatever its tag, a conjunct of an adjective
    (``_mistagged_conjunct``)."""
    if tok.pos_ == "ADJ" or tok.lower_ not in load_adjective_forms():
        return False
    if _mistagged_conjunct(tok):
        return True
    if tok.pos_ != "NOUN":
        return False
    if mistagged_stacked(tok) is not None:
        return True
    head = tok.head
    if tok.dep_ in ("amod", "compound"):
        return head.i > tok.i and head.pos_ in ("NOUN", "PROPN")
    return (tok.dep_ in MISTAGGED_PREDICATE_DEPS and head.i < tok.i and head.pos_ in ("VERB", "AUX")
            and head.lemma_ in PREDICATE_VERBS
            and not any(c.dep_ in ("det", "poss", "nummod", "compound", "amod") for c in tok.children))


def _mistagged_conjunct(tok: Token) -> bool:
    """"was thin and gaunt" (gaunt/VB), "so frank and fearless" (fearless/NN): an adjective-only word form in
    a base-form tag (MISTAGGED_CONJUNCT_TAGS; a past form may be a verb's, "was tired and said"), conjoined
    with an adjective or with the linking verb whose complement one is, with no subject, object or
    determiner of its own."""
    head = tok.head
    if tok.dep_ != "conj" or tok.tag_ not in MISTAGGED_CONJUNCT_TAGS \
            or any(c.dep_ in ("nsubj", "nsubjpass", "dobj", "det", "poss") for c in tok.children):
        return False
    return head.pos_ == "ADJ" or (head.lemma_ in PREDICATE_VERBS
                                  and any(c.dep_ == "acomp" and c.pos_ == "ADJ" for c in head.children))


def _inverted_initial_adjective(tok: Token) -> bool:
    """A sentence's first word read as a name, subject of a copula, that English only ever uses as an
    adjective, before an inverted copula with its noun after it ("Happy is the man who ...", "Happy was the
    day she praised them"): the predicate of ``inverted_predicate``."""
    if tok.pos_ != "PROPN" or tok.dep_ != "nsubj" or not tok.is_sent_start or tok.lower_ not in load_adjective_forms():
        return False
    return inverted_predicate(tok) is not None


def mistagged_stacked(tok: Token) -> Token | None:
    """The noun of a run of comma-stacked adjectives whose first the tagger read as a noun with the real
    noun as its conjunct or apposition ("a set of gentlemanlike, sensible men": gentlemanlike pobj, men its
    conj): an adjective-only form (as in ``_mistagged_adjective``) with no determiner or modifier of its
    own, a comma after it, and only adjectives of that noun between."""
    if tok.pos_ != "NOUN" or tok.lower_ not in load_adjective_forms() or tok.i + 2 >= len(tok.doc) \
            or tok.doc[tok.i + 1].text != "," \
            or any(c.dep_ in ("det", "poss", "amod", "compound") for c in tok.children):
        return None
    noun = next((c for c in tok.children if c.dep_ in ("conj", "appos") and c.pos_ == "NOUN"), None)
    if noun is None or noun.i <= tok.i + 2:
        return None
    between = tok.doc[tok.i + 2:noun.i]
    return noun if all(t.pos_ == "ADJ" and t.dep_ in ("amod", "conj") or t.text == "," for t in between) else None


def _negative_state(tok: Token) -> bool:
    """An un- participle that English uses as an adjective ("The day was unmarked by anything", "proved him
    wholly unmoved by any feeling", "to pass uncensured"): a state even with a by-phrase, as there is no
    event of un-moving; never with an object, nor of a verb that begins with "un" ("was unlocked by the
    maid"). Only forms WordNet lists as adjectives only."""
    return (tok.tag_ in ("VBN", "VBD") and tok.lower_.startswith("un") and tok.lower_ in load_adjective_forms()
            and tok.lemma_.lower() not in load_un_verbs() and not any(c.dep_ == "dobj" for c in tok.children))


def _prenominal_conjunct(tok: Token) -> bool:
    """A participle conjoined with an attributive adjective before the same noun ("its growing and rapidly
    urbanizing population", "a broken and subdued accent"): attributive too, whatever its own tag."""
    first = tok.head
    return (tok.dep_ == "conj" and first.dep_ == "amod" and first.i < tok.i < first.head.i
            and first.head.pos_ in ("NOUN", "PROPN") and is_attribute(first))


def misread_prenominal_participle(tok: Token) -> Token | None:
    """The noun that a past participle right before it describes when the tagger read the participle as a
    clause's verb ("whose pale and jaded looks", "dissidents and disaffected members of the military
    launched", "deflated asset prices constricted"): a VBD/VBN word after a determiner, a possessive, an
    adjective or a conjunction, with no subject, auxiliary, object or agent of its own, followed by a noun
    it does not govern. None for other tokens, and for a VBN the parser already made attributive."""
    doc = tok.doc
    if tok.tag_ not in ("VBD", "VBN") or tok.pos_ != "VERB" or (tok.tag_ == "VBN" and tok.dep_ in PARTICIPLE_DEPS) \
            or tok.i == 0 or tok.i + 1 >= len(doc):
        return None  # an attribute already, or no word before and after
    noun, before = doc[tok.i + 1], doc[tok.i - 1]
    if noun.pos_ != "NOUN" or noun.head.i == tok.i or tok.whitespace_ == "" \
            or not (before.pos_ in ("DET", "ADJ", "CCONJ") or before.tag_ == "PRP$"):
        return None
    if any(c.dep_ in PARTICIPLE_BLOCKING_DEPS for c in tok.children) \
            or (tok.dep_ == "conj" and tok.head.tag_ in FINITE_VERB_TAGS):
        return None  # a clause's verb, or one conjoined with a finite verb ("went in, and found rooms")
    if any(c.dep_ in SUBJECT_DEPS for c in noun.children) or (noun.dep_ in SUBJECT_DEPS and noun.head.pos_ == "ADJ"):
        return None  # the noun heads a clause, or is the subject of a small clause ("found rooms so small")
    return noun_head(noun)


def misread_initial_adjective(tok: Token) -> Token | None:
    """The noun that a sentence's first word describes when the tagger read that word as a bare verb heading
    the subject ("Perfect happiness, even in memory, is not common": "Perfect" a VB csubj with "happiness"
    its object): a bare verb with no "to" cannot be a subject, so it is an adjective of the noun right
    after it. None for other tokens."""
    doc = tok.doc
    if tok.tag_ != "VB" or tok.dep_ != "csubj" or not tok.is_sent_start or tok.i + 1 >= len(doc):
        return None
    noun = doc[tok.i + 1]
    if noun.pos_ != "NOUN" or noun.head.i != tok.i or any(c.dep_ in CLAUSE_DEPS for c in tok.children):
        return None
    return noun_head(noun)


@lru_cache(maxsize=65536)
def _never_attribute_form(lower: str) -> bool:
    """A word form that is no adjective whatever the tagger says (PRONOMINAL_ADVERB, NOUN_SUFFIX,
    INTERJECTIONS, ARCHAIC_PRONOUNS); cached by form, as every token asks."""
    return bool(PRONOMINAL_ADVERB.fullmatch(lower) or NOUN_SUFFIX.fullmatch(lower) or lower in INTERJECTIONS
                or lower in ARCHAIC_PRONOUNS)


def _noun_tagged_adjective(tok: Token) -> bool:
    """A noun the tagger called an adjective ("a necklace of codfish vertebra", "the parlour door"): a JJ word
    that WordNet lists only as a noun (``load_noun_forms``), in lower case: a capitalised one may be a
    people's name used as an adjective ("Arab states", which WordNet lists as nouns)."""
    return tok.tag_ == "JJ" and tok.is_lower and tok.lower_ in load_noun_forms()


def _grades_adjective(tok: Token) -> bool:
    """An adjective used as the degree adverb of the adjective after it ("She's real pretty", "awful
    good"): it describes the adjective, not an entity. Not a stacked attributive adjective that the parser
    reads so (``stacked_on``). Also a grading adjective that the parser made a second complement of the
    same verb ("I'm awful glad": awful/acomp, glad/acomp)."""
    if tok.pos_ != "ADJ":
        return False
    if tok.dep_ == "acomp" and tok.lower_ in GRADING_ADJECTIVES and tok.i + 1 < len(tok.doc):
        after = tok.doc[tok.i + 1]
        return after.pos_ == "ADJ" and after.dep_ == "acomp" and after.head.i == tok.head.i
    return (tok.dep_ == "advmod" and tok.head.pos_ == "ADJ" and tok.head.i == tok.i + 1
            and stacked_on(tok) is None)


def stacked_on(tok: Token) -> Token | None:
    """The attributive adjective right after ``tok`` when the parser hangs ``tok`` on it as a degree adverb
    although both stand before its noun: stacked adjectives of one noun ("a long awkward passage", "their
    manly unstudied simplicity"), so ``tok`` describes that noun too. None for a degree or quantity word
    ("a little more time", "a great many people": GRADING_ADJECTIVES) and for other adjectives."""
    nxt = tok.head
    if tok.dep_ != "advmod" or tok.pos_ != "ADJ" or nxt.i != tok.i + 1 or nxt.pos_ != "ADJ" or nxt.dep_ != "amod":
        return None
    if tok.lower_ in GRADING_ADJECTIVES or nxt.head.i <= nxt.i or nxt.head.pos_ not in ("NOUN", "PROPN"):
        return None
    return nxt


def _misread_verb(tok: Token) -> bool:
    """A clause's past-tense verb that the tagger read as an attributive adjective of its object: a past
    form right after a word that ends the subject and cannot open the object's noun phrase ("the downturn
    in 2008 hurt Uganda's exports", "King Hussein in 1988 permanently relinquished Jordanian claims"), or
    after a noun the parser hung on a verbless sentence's root ("his independent streak angered regime
    figures"). Not when the noun has a verb's role ("In 1990 divided Germany became united") or the word
    before is a noun modifier of the same phrase ("a government funded programme")."""
    noun = tok.head
    if tok.dep_ != "amod" or noun.i <= tok.i or not (tok.tag_ in ("VBD", "VBN") or tok.lower_.endswith("ed")) \
            or noun.dep_ not in ORPHAN_DEPS:
        return False
    edge = tok.left_edge.i
    before = tok.doc[edge - 1] if edge > 0 else None
    if before is None or before.pos_ not in ("NOUN", "PROPN", "PRON", "NUM") or before.tag_ in ("PRP$", "WP$") \
            or before.head.i == tok.i:
        return False
    if noun.dep_ == "pobj" and noun.head.i == edge - 1:  # the preposition right before: "in divided Germany"
        return False
    return before.head.i != noun.i or noun.dep_ == "ROOT"


def is_adjectival_participle(tok: Token) -> bool:
    """A verb-tagged participle that names a state, outside the amod/acomp/oprd positions; never one with an
    agent ("was fixed by him" is an event) or an object: a participle right after a degree adverb ("quite
    overcome", "most gratifying") or graded by "as ... as" ("as composed as could be hoped"), an -ing
    conjunct of an adjective with nothing of a verb's own ("so gentle and retiring"), or a bare past
    participle (no auxiliary or complementiser of its own) that is an xcomp of a verb not in EVENT_HEADS
    ("seemed impelled", "sat undisturbed"), the predicate of a small clause whose subject follows such a verb
    ("found herself obliged"), or a later conjunct of an adjective ("friendless or forgotten")."""
    if tok.pos_ != "VERB" or tok.tag_ not in ("VBN", "VBG") or any(c.dep_ in ("agent", "dobj") for c in tok.children):
        return False
    before = tok.doc[tok.i - 1] if tok.i > 0 else None
    if before is not None and before.head.i == tok.i and before.dep_ == "advmod" and before.lower_ in DEGREE_ADVERBS:
        return True
    if before is not None and before.head.i == tok.i and before.lower_ in EXTENT_ADVERBS and (
            _present_passive(tok) or (tok.dep_ == "conj" and _present_passive(tok.head))):
        return True  # "is densely populated", "is heavily forested": a present passive graded so, a state
    if before is not None and before.lower_ == "as" and before.head.i == tok.i \
            and any(c.lower_ == "as" and c.i > tok.i for c in tok.subtree):
        return True  # an "as ... as" comparison grades a state too: "quite as composed as could be hoped"
    if absolute_with(tok) is not None:
        return True
    if tok.tag_ == "VBN" and any(c.dep_ == "conj" and c.pos_ == "ADJ" and not has_subject(c) for c in tok.children) \
            and passive_subject(tok) is not None:
        return True  # coordinated with an adjective, a participle names a state: "is landlocked and hilly"
    head = tok.head
    if tok.tag_ == "VBG" and tok.dep_ == "conj" and head.pos_ == "ADJ" and head.dep_ in ("acomp", "amod") \
            and not any(c.dep_ in VERBAL_GERUND_DEPS for c in tok.children):
        return True  # "so gentle and retiring", "pale and trembling": a conjunct of a predicate adjective
    if tok.tag_ != "VBN" or head.i == tok.i or any(c.dep_ in CLAUSE_DEPS for c in tok.children):
        return False
    if tok.dep_ == "conj":  # "haughty, reserved, and fastidious", the first read as a noun but a complement
        return head.pos_ == "ADJ" or head.dep_ == "acomp" or copula_predicate(tok) is not None
    if head.pos_ not in ("VERB", "AUX") or head.lemma_ in EVENT_HEADS:
        return False
    if tok.dep_ == "xcomp":
        return True
    subject = next((c for c in tok.children if c.dep_ == "nsubj"), None)
    return tok.dep_ in ("ccomp", "oprd") and subject is not None and subject.left_edge.i == head.i + 1


def _present_passive(tok: Token) -> bool:
    """``tok`` has a present-tense passive auxiliary ("is populated", "are forested")."""
    return any(c.dep_ == "auxpass" and c.tag_ in ("VBZ", "VBP") for c in tok.children)


def set_off_state(tok: Token) -> Token | None:
    """What a state participle right after its noun describes ("a brother settled in London": ``acl``), or one
    set off by a comma: the noun right before the comma ("Miss Bingley, seated near him, was watching") or
    the subject of the clause it follows ("Lydia stood her ground, determined to hear all": a supplementive
    ``advcl``). Only word forms the attribute lexicon
    holds (states and emotions: "determined", "pleased", "tired"), so that events ("The ship, built in
    1850") stay out; never with an object, an agent or an auxiliary of its own. None for other tokens."""
    if tok.tag_ not in ("VBN", "VBD") or tok.pos_ != "VERB" or tok.lower_ not in load_lexicon():
        return None
    if any(c.dep_ in ("dobj", "agent") or c.dep_ in CLAUSE_DEPS for c in tok.children):
        return None
    head = tok.head
    if tok.dep_ == "acl" and head.i == tok.i - 1 and head.pos_ in ("NOUN", "PROPN") \
            and head.lower_ not in TIME_NOUNS and not any(c.dep_ == "xcomp" for c in tok.children):
        return head  # right after its noun: "a sister married to a Mr. Phillips", "a brother settled in London";
        # not a verb read so ("the others resolved to appear happy") nor after a time ("at one time attached")
    if tok.i < 2 or tok.doc[tok.i - 1].text != ",":
        return None
    subject = _set_off_subject(tok)
    if subject is not None:
        return subject
    if head.i >= tok.i:
        return None
    if tok.dep_ == "acl" and head.pos_ in ("NOUN", "PROPN", "PRON") and head.i == tok.i - 2:
        return head  # the noun right before the comma: a farther one is as often a misattachment
    if tok.dep_ == "advcl" and head.pos_ in ("VERB", "AUX"):
        return find_subject(head)
    return None


def _set_off_subject(tok: Token) -> Token | None:
    """The subject right before the comma in front of a set-off state participle that the parser made a
    clause of its own ("His daughter, frightened almost out of her senses, sat": a ccomp of "sat";
    "Catherine, relieved for herself, felt uneasy": the root, with "Catherine" its subject): the subject
    belongs to this participle's verb or a later one, and a comma closes the participle's phrase."""
    doc, noun = tok.doc, tok.doc[tok.i - 2]
    if noun.dep_ not in SUBJECT_DEPS or mention_kind(noun) is None or noun.head.i < tok.i:
        return None
    closed = any(t.text == "," for t in doc[tok.i + 1:min(tok.i + 10, tok.sent.end)])
    return noun if closed else None


def copula_predicate(tok: Token) -> Token | None:
    """The adjective predicate of the copula that the parser made ``tok``'s conjunct head instead of the
    adjective ("was old and neglected": "neglected" a conj of "was", not of "old"); None when ``tok`` has
    a subject, auxiliary or complementiser of its own (a clause: "and Elizabeth was convinced")."""
    head = tok.head
    if tok.dep_ != "conj" or head.lemma_ not in COPULA or has_subject(tok) \
            or any(c.dep_ in CLAUSE_DEPS for c in tok.children):
        return None
    return next((c for c in head.children if c.dep_ == "acomp" and c.i < tok.i and c.pos_ == "ADJ" and _has_alpha(c)),
                None)


def absolute_with(tok: Token) -> Token | None:
    """The noun of an absolute "with" clause that a bare past participle describes: "with his eyes fixed on
    her" (parsed as an acl of "eyes", the object of "with", or as an adverbial clause of the main verb right
    after it) or "With his heart broken, he left" ("with" a mark, "heart" the participle's subject); None
    otherwise."""
    if tok.tag_ != "VBN" or any(c.dep_ in ("agent", "dobj", "aux", "auxpass") for c in tok.children):
        return None
    if any(c.dep_ == "mark" and c.lower_ == "with" for c in tok.children):
        return next((c for c in tok.children if c.dep_ == "nsubj" and mention_kind(c) is not None), None)
    if tok.dep_ == "acl":
        noun = tok.head
    elif tok.dep_ == "advcl":  # the noun right before, past adverbs ("with your eyes steadily fixed")
        before = tok.i - 1
        while before >= 0 and tok.doc[before].pos_ == "ADV":
            before -= 1
        noun = tok.doc[before] if before >= 0 else tok
    else:
        return None
    if noun.i < tok.i and noun.dep_ == "pobj" and noun.head.lower_ == "with" and mention_kind(noun) is not None \
            and not any(t.is_punct for t in tok.doc[noun.i + 1:tok.i]):
        return noun  # a comma ends the absolute clause: "with an unchanging complexion, dissented from her"
    return None


RANK_WORDS = frozenset({"first", "second", "third"})
RANK_NOUNS = frozenset({"rate", "class"})


def _rank_compound(tok: Token) -> Token | None:
    """The second part of a rank compound that ``tok`` begins ("first-rate abilities", "second-class", and
    spaced, "are first rate", "a first class shot"): a quality adjective as a whole, not an ordinal, and its
    noun no mention. Spaced, the noun has no determiner of its own ("the first class of boys" counts) and is
    a predicate or modifies the next noun."""
    doc = tok.doc
    if tok.lower_ not in RANK_WORDS or tok.i + 1 >= len(doc):
        return None
    if tok.whitespace_:
        part = doc[tok.i + 1]
        compound = part.dep_ == "compound" and part.head.i > part.i  # "a first rate shot": both on "shot"
        spaced = part.lower_ in RANK_NOUNS and tok.dep_ in ("amod", "compound") \
            and (tok.head.i == part.i or compound and tok.head.i == part.head.i) \
            and not any(c.dep_ in ("det", "poss") for c in part.children) \
            and (part.dep_ in ("attr", "acomp") or compound)
        return part if spaced else None
    if tok.i + 2 >= len(doc):
        return None
    dash, part = doc[tok.i + 1], doc[tok.i + 2]
    return part if dash.text == "-" and not dash.whitespace_ and part.lower_ in RANK_NOUNS else None


def _rank_part(tok: Token) -> bool:
    """``tok`` is the noun of a rank compound ("rate" in "first-rate", "first rate")."""
    return any(j >= 0 and _rank_compound(tok.doc[j]) == tok for j in (tok.i - 1, tok.i - 2))


def rank_predicate(adj: Token) -> Attachment | None:
    """A rank compound as the predicate of a linking verb ("Literacy is first-rate", "are first rate"): on
    the verb's subject, as "was excellent" would be. None for other adjectives."""
    part = _rank_compound(adj)
    if part is None or part.dep_ not in ("attr", "acomp") or part.head.pos_ not in ("VERB", "AUX"):
        return None
    return verb_predicate(adj, part.head, part.dep_)


def attribute_lemma(tok: Token) -> str:
    """An adjective's lemma (lower case); a participle keeps its word form ('seated', 'tarred'); a rank
    compound is one word ('first-rate', so the ordinal guards do not take it for a determiner)."""
    if tok.pos_ in ("VERB", "AUX", "PROPN"):
        return tok.lower_
    part = _rank_compound(tok)
    if part is not None:
        return f"{tok.lower_}-{part.lower_}"
    return LEMMA_FIXES.get(tok.lower_, tok.lemma_.lower())


def conjoined_predicate_lemmas(adj: Token) -> str:
    """The lemmas of the adjectives and participles conjoined with ADJ, space-separated ('' when none): "it
    was hot and bitter" says of "it" more than the weather."""
    return " ".join(attribute_lemma(c) for c in adj.conjuncts if c.pos_ == "ADJ" or c.tag_ == "VBN")


def passive_subject(tok: Token) -> Token | None:
    """The subject of a participle with a passive auxiliary: its nsubjpass, or a subject the parser hung on
    the auxiliary ("I am determined": "I" an nsubj of "am"), or, for a later conjunct with no subject of
    its own, the subject of the verb it is conjoined with ("He talked to her, and was convinced"). Not
    through a bare "been" ("who have found ..., and been obliged"): it shares a "have" the parser often
    leaves on another clause, so the conjunction it hangs on is unreliable."""
    auxpass = [c for c in tok.children if c.dep_ == "auxpass"]
    if not auxpass:
        return None
    own = subject_on(tok, ("auxpass",))
    if own is None and tok.dep_ == "conj" and tok.head.i < tok.i and tok.head.pos_ in ("VERB", "AUX") \
            and not (auxpass[0].lower_ == "been" and not any(c.dep_ == "aux" for c in tok.children)):
        return find_subject(tok.head)
    return own
