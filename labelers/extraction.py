"""Candidate extraction: (entity mention, adjective) pairs from a parsed spaCy Doc, with features.

Only token attributes that tokens.parquet stores are used (text, whitespace, lemma, pos, tag, dep, head,
ent_type/ent_iob, morph, sentence starts), so a Doc rebuilt from tokens.parquet gives the same rows.

Definitions (all heuristic, documented here and in the README):

* Entity mention: a token that heads a noun phrase.
  - common noun: pos NOUN, not a ``compound`` modifier of another noun ("tea" in "tea party" is not one);
  - proper name: pos PROPN, the head word of the name ("Emma Woodhouse" -> Woodhouse); the other words
    of the name (compound/flat PROPN children, titles such as "Mr.") are not mentions;
  - pronoun: personal and reflexive pronouns (PERSONAL_PRONOUNS: I me myself you yourself
    yourselves he him himself she her herself it itself we us ourselves they them themselves); the
    possessive "her" (tag PRP$) and relatives are not mentions. Indefinites (INDEFINITE_PRONOUNS:
    everything, somebody...), demonstrative subjects ("This is full") and "one" after a determiner ("an
    odd one") are mentions of kind noun (``_pronoun_noun_phrase``: nothing to resolve).
* Attribute: pos ADJ; a participle (tag VBN/VBG) used as ``amod``/``acomp``/``oprd`` ("tarred twine");
  another participle that names a state (``is_adjectival_participle``: "quite overcome", "seemed
  impelled", "found herself obliged", "with his eyes fixed", "is landlocked and hilly"; never one with
  an agent);
  a passive participle whose word form is in the attribute lexicon ("he was seated"; not a feeling with
  its cause as agent, "was startled by a rap": ``_caused_feeling``), or such a
  participle set off by a comma after its noun or its clause ("Miss Bingley, seated near him";
  "stood her ground, determined to hear all": ``_set_off_state``); a capitalised
  word that the lexicon knows as an adjective inside a proper name ("Great Britain", so that the
  in-name LF can vote on it); a proper adjective on a common noun ("the Ugandan government",
  ``is_proper_adjective``), which is then no mention itself; a word the tagger called a noun that is
  only ever an adjective (resources/adjective_forms.json) before its noun or after a linking or posture
  verb ("her doting mother", "he was headstrong", "sat motionless": ``_mistagged_adjective``), which is
  then no mention either; a participle conjoined with an attributive adjective before the same noun ("a
  young and rapidly increasing population": ``_prenominal_conjunct``); an un- participle that is only
  ever an adjective, even with a by-phrase ("wholly unmoved by any feeling": ``_negative_state``); a past
  participle the tagger read as a verb right before its noun ("and deflated asset prices constricted":
  ``_misread_prenominal_participle``), attached to that noun. Never
  an attribute: a word form that is no adjective ("hereafter", "selfishness": ``_never_attribute_form``), a
  word WordNet lists only as a noun that the tagger called an adjective ("codfish vertebra":
  ``_noun_tagged_adjective``),
  a past verb the tagger reads as an adjective of its object ("in 1988 permanently relinquished Jordanian
  claims": ``_misread_verb``), an adjective grading the next adjective ("real pretty":
  ``_grades_adjective``), unless both stand before their noun ("a long awkward passage": ``_stacked_on``,
  attached as the next adjective is). A rank compound ("first-rate abilities", "second-class", spaced
  "are first rate") is one attribute, lemma "first-rate", on its first token, and its noun ("rate") is no
  mention (``_rank_compound``): a quality, where a bare ordinal is determiner-like.
* Pairs: every (mention, attribute) of one sentence at most ``max_distance`` words apart (SPACE tokens
  are not counted), plus every syntactically linked pair (``relation != 'none'``) whatever the distance.
* Relation (how the adjective attaches, computed once per adjective; a pair gets it only when the
  mention is the adjective's target, else 'none'): 'amod' (attributive, also prenominal compound),
  'appos' (postposed after a comma: "Emma Woodhouse, handsome"), 'predicative' (complement of a copula
  or linking verb, or a lexicon participle in a passive: "was happy", "seemed to be happy", "grew pale"),
  'depictive' (complement of another verb: "sat silent"), 'oprd' (object / result predicate: "found him
  asleep", "made her happy"), 'relcl' (predicative inside a relative clause, target the noun the clause
  modifies: "a man who was rich"), 'conj' (a later conjunct, target that of the first conjunct:
  "tall and dark"); ``base_relation`` keeps the first conjunct's relation. A hyphenated compound
  modifier describes the noun after it ("low-cost labour" -> labour); an "as"-predicate is an object
  predicate ("treating their fears as idle"); an adjective the parser hangs on a duration noun is the
  clause's predicate ("was for a short time silent"); a predicate the parser conjoins with the copula
  is a conjunct of the copula's adjective ("was old and neglected"); a conjunct with a subject of its
  own starts a clause and inherits nothing ("and her manner agitated"); an adjective after a possessive
  that the parser made a noun phrase's head describes the name after it ("my dearest Catherine"); the
  "as to be" infinitive of a result clause describes what its clause is about ("so thick as to be
  impregnable": ``_result_infinitive``). A
  predicate (not an attributive adjective) also links every noun conjoined with its target ("the man and
  his wife were happy", ``conjoined_targets``). ``quotes_between`` counts the quotation marks between the
  two tokens (speech on one side, narration on the other).
* Flags: negated (a negator on the adjective or its verbs, "neither ... nor", or a negating phrase such
  as "by no means" before it), non_asserted (``is_non_asserted``: hypothetical, conditional, wished or
  attempted, asked, or the "to be" complement of "too"), neg_det (the noun denied: "no", "without", "not
  ... any"), in_name (a word of a proper name, not an epithet such as "Poor" in "Poor Isabella!"),
  adverbial_idiom (used as an adverb: "in short", "at last", "thought ill of him", "stopped short").
* ent_id: a document-level entity id (ints from 0 in order of first mention), see ``resolve_entities``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Iterator

from spacy.tokens import Doc, Span, Token

from labelers.lexicon import (attribute_type, load_adjective_forms, load_coref_tables, load_flat_adverbs, load_lexicon,
                              load_noun_forms, load_un_verbs)

CANDIDATE_COLUMNS: list[str] = [
    # key columns (pipeline.core.schemas.CANDIDATE_KEY_COLUMNS) and coreference
    "cand_id", "doc_id", "sent", "ent_i", "attr_i", "ent_start", "ent_end", "attr_start", "attr_end",
    "ent_id", "antecedent_i",
    # the entity mention
    "ent_text", "ent_lower", "ent_lemma", "ent_pos", "ent_tag", "ent_dep", "ent_type", "ent_kind",
    "ent_name", "ent_person", "ent_plural", "ent_gender", "ent_definite", "ent_subject",
    "antecedent_text", "antecedent_person",
    # the attribute
    "attr_text", "attr_lower", "attr_lemma", "attr_pos", "attr_tag", "attr_dep", "attr_type", "attr_conj_lemmas",
    # structure of the pair
    "relation", "base_relation", "attr_target_i", "gov_lemma", "same_clause", "dep_path",
    "negated", "non_asserted", "neg_det", "than_follows", "prep", "in_name", "adverbial_idiom", "expletive_it",
    "distance", "nouns_between", "quotes_between", "attr_before", "nearest_mention", "next_mention",
    "nearest_person", "sent_text",
]
"""Column order of the candidate table (see ``extract_candidates`` for types)."""

COPULA = frozenset({"be"})
LINKING_VERBS = frozenset({
    "be", "seem", "appear", "look", "become", "grow", "get", "turn", "remain", "stay", "keep", "feel",
    "sound", "prove", "go", "fall", "come", "continue", "smell", "taste", "rest", "stand",
})
"""Verbs whose adjective complement describes the subject ('predicative'); other verbs give 'depictive'."""
POSTURE_VERBS = frozenset({"sit", "lie"})
"""Verbs of posture whose adjective complement is depictive ("sat motionless", "lay awake")."""
PREDICATE_VERBS = LINKING_VERBS | POSTURE_VERBS
MISTAGGED_PREDICATE_DEPS = frozenset({"attr", "dobj", "oprd", "acomp", "npadvmod"})
"""Roles the parser gives a predicate adjective that the tagger called a noun ("was headstrong": attr)."""

PERSONAL_PRONOUNS: dict[str, tuple[str, str, str, bool]] = {
    # lower form: (class, number, gender, reflexive); class 1/2/3, number sg/pl, gender m/f/n/''.
    "i": ("1", "sg", "", False), "me": ("1", "sg", "", False), "myself": ("1", "sg", "", True),
    "we": ("1", "pl", "", False), "us": ("1", "pl", "", False), "ourselves": ("1", "pl", "", True),
    "you": ("2", "", "", False), "yourself": ("2", "sg", "", True), "yourselves": ("2", "pl", "", True),
    "he": ("3", "sg", "m", False), "him": ("3", "sg", "m", False), "himself": ("3", "sg", "m", True),
    "she": ("3", "sg", "f", False), "her": ("3", "sg", "f", False), "herself": ("3", "sg", "f", True),
    "it": ("3", "sg", "n", False), "itself": ("3", "sg", "n", True),
    "they": ("3", "pl", "", False), "them": ("3", "pl", "", False), "themselves": ("3", "pl", "", True),
}
INDEFINITE_PRONOUNS = frozenset({"everything", "everybody", "everyone", "anything", "anybody", "anyone",
                                 "something", "somebody", "someone"})
"""Indefinites that can bear a property; not the negative ones (nothing, nobody): such a binding is denied."""
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
SUBJECT_PRONOUNS = DEMONSTRATIVES | {"all"}
"""Pronouns that are a mention as a subject ("This is full of papers", "So far all was perfectly right"),
and elsewhere as often point at a clause or float beside a noun ("They all were")."""
NON_PERSON_ENTS = frozenset({"GPE", "LOC", "FAC", "ORG", "NORP", "DATE", "TIME", "MONEY", "QUANTITY",
                             "PERCENT", "CARDINAL", "ORDINAL", "EVENT", "PRODUCT", "WORK_OF_ART", "LAW",
                             "LANGUAGE"})
DEFINITE_DETS = frozenset({"the", "this", "that", "these", "those"})
NEGATIVE_DETS = frozenset({"no", "neither"})
NEGATORS = frozenset({"not", "n't", "never", "hardly", "scarcely"})
"""Words that deny the predicate they modify ("was not happy", "It was hardly right"); not "barely" ("barely
visible" is visible)."""
MINIMAL_SUPERLATIVES = frozenset({"slightest", "least", "smallest", "faintest", "remotest"})
"""Superlatives that, under a negated verb, deny what their noun names ("never had the slightest suspicion")."""
NEGATING_PHRASES = ("by no means", "in no way", "in no respect", "nowise", "not at all", "no longer")
IRREALIS_MODALS = frozenset({"would", "should", "could", "might", "may"})
"""Modals that make a predicate hypothetical ("she would be happy", "it might be true"). Not "will" (a
confident prediction asserts: "will make her very happy"), "can" or "must" (ability and inference)."""
IRREALIS_MARKS = frozenset({"if", "unless", "lest", "whether"})
FUTURE_MODALS = frozenset({"shall", "will", "'ll"})
"""Auxiliaries of the future, whose main clause makes a present time clause a state to come and whose
wh-question asks about one ("When shall you be ready?")."""
CLAUSE_END_MARKS = frozenset({".", "!", "?", ";", ":"})
"""Punctuation that ends a clause, which a reporting clause between two halves of a quotation never holds."""
FUTURE_TIME_MARKS = frozenset({"when", "whenever", "till", "until", "before", "once"})
"""Words that open a time clause (a ``mark``, or an ``advmod`` for "when"), whose present tense under a
future main clause is a state to come."""
IRREALIS_VERBS = frozenset({"wish", "hope", "try", "want", "attempt", "endeavour", "endeavor", "desire",
                            "propose", "intend", "mean"})
"""Verbs whose complement clause is wanted or attempted, not asserted ("wished to be useful", "tried to
look calm", "hope you are well")."""
EXPECTING_VERBS = frozenset({"expect", "require", "ask", "beg", "entreat", "urge", "order"})
"""Verbs whose object's "to" infinitive is expected or demanded of it, not asserted ("We must not expect a
young man to be always so guarded"); "I expect you are tired" (a belief) stays asserted."""
INDUCED_PARTICIPLES = frozenset({"persuaded", "induced", "prevailed"})
"""Participles of inducing (``_induced``)."""
NAMING_PARTICIPLES = frozenset({"called", "named", "styled", "termed", "dubbed", "christened", "nicknamed", "surnamed"})
"""Past forms of naming verbs, whose object is a name (``_naming_verb``)."""
NEG_RAISING_VERBS = frozenset({"think", "believe", "suppose", "imagine", "appear", "seem", "fancy"})
"""Verbs whose negation denies their that-clause ("It does not appear that my hand is unworthy", "I do not
think he is rich"); not "know" ("I did not know that she was ill" asserts it)."""
LEMMA_FIXES = {"hoped": "hope", "hoping": "hope", "farther": "further"}
"""Word forms the small English pipeline lemmatises wrongly ("hoped" -> "hop"; "any farther allusion" is
"further", determiner-like, not "far")."""
RELATIVE_PRONOUNS = frozenset({"who", "which", "that", "whom"})
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
PREDICATE_DEPS = frozenset({"acomp", "attr", "oprd", "xcomp", "ccomp", "advcl"})
WELL_VERBS = frozenset({"be", "look", "seem", "appear", "feel", "get", "keep", "grow", "become"})
"""Linking verbs after which "well" names health ("she looks very well", "get well")."""
WELL_GOING = frozenset({"home", "on", "along", "through", "back", "away", "off", "there", "here"})
"""Words of a journey or progress after which "well" is its manner ("we shall get home very well")."""
WELL_BLOCKING_DEPS = PREDICATE_DEPS | {"dobj", "auxpass", "prt", "npadvmod"}
"""A verb with a child in one of these roles has its own predicate or object, so "well" is its manner."""
EPITHET_HEAD_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "npadvmod"})
"""Roles of a noun phrase's head (an adjective that the parser made one has lost its noun)."""
PARTICIPLE_DEPS = frozenset({"amod", "acomp", "oprd"})
GRADING_ADJECTIVES = frozenset({"little", "much", "many", "great", "more", "most", "less", "least", "far",
                                "real", "awful", "mighty", "monstrous", "right", "dead", "plenty"})
"""Adjectives that grade the adjective after them ("a little more", "a great many", "real pretty", "right
honourable") rather than stack with it on a noun."""
GRADERS = frozenset({"so", "too", "as", "how"})
"""Words that grade an adjective put before its noun's article or a possessor ("so wretched an example",
"how unwelcome her appearance")."""
DEGREE_ADVERBS = frozenset({"very", "quite", "rather", "more", "most", "less", "least", "extremely", "exceedingly",
                            "somewhat"})
"""Degree adverbs: they grade a state, not an event (*"he was very killed"), so a participle right after one
is adjectival ("I was quite overcome", "most gratifying to me"). Not "so" and "too" (as often "and so",
"he, too,"), nor completives ("entirely done away", "completely destroyed": events too) or manner
adverbs ("fairly drawn")."""
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
ARCHAIC_PRONOUNS = frozenset({"thou", "thee", "thy", "thine", "ye"})
"""Pronouns of older English that the tagger sometimes reads as adjectives ("Thou shalt see", "dost thou
sign"); never an attribute."""
VOCATIVE_PARTNERS = frozenset({"i", "you", "we", "it"})
"""Subjects beside which a name set off by commas is the one addressed, not a second subject ("Elinor, for
some time after ..., remained" has one subject, and "Thorpe, for she ..." a subject of each clause)."""
ORPHAN_DEPS = frozenset({"pobj", "appos", "ROOT", "npadvmod", "nmod"})
"""Roles the parser gives a clause's object when it has read the clause's verb as an adjective of it."""
CLAUSE_DEPS = frozenset({"aux", "auxpass", "mark"})
VERBAL_GERUND_DEPS = CLAUSE_DEPS | {"nsubj", "dobj", "dative", "prt", "xcomp", "prep", "agent"}
"""Dependents that make an -ing conjunct of an adjective a verb ("happy and singing a song")."""
FINITE_VERB_TAGS = frozenset({"VBD", "VBZ", "VBP", "VB", "MD"})
PARTICIPLE_BLOCKING_DEPS = CLAUSE_DEPS | {"nsubj", "nsubjpass", "dobj", "agent", "prt", "dative"}
"""Dependents that make a past form a clause's verb, not a prenominal participle the tagger misread."""
"""A participle with an auxiliary or complementiser of its own heads a verbal clause ("felt that she had
gained nothing", "seemed to have expected her"), not a small clause."""
RESULT_VERBS = frozenset({"make", "render", "find", "think", "consider", "keep", "leave", "deem", "believe",
                          "hold", "judge", "declare", "call", "wish", "want", "like", "prefer"})
"""Verbs that take an object predicate ("render it necessary", "thought her handsome")."""
OBJECT_PREDICATE_VERBS = RESULT_VERBS | {"fancy", "have", "lay", "set", "get", "suppose", "imagine"}
"""Verbs whose adjective after an object may describe that object ("fancied myself unwell", "to have you
so rich", "lay me open to"), however the parser attached it."""
ELIDED_EXTRAPOSITION = frozenset({"possible", "impossible", "necessary", "unnecessary", "convenient",
                                  "inconvenient", "practicable", "requisite", "needful"})
"""Adjectives whose "it" in a subordinate clause stands for an infinitive left out: "when it is necessary",
"as soon as it was possible", "whenever it is convenient" (to do what the main clause says)."""
ELIDING_MARKS = frozenset({"as", "if", "when", "whenever", "where", "wherever", "before", "than", "unless",
                           "while", "till", "until"})
"""Subordinators of the clauses in which that infinitive is left out."""
TIME_NOUNS = frozenset({"time", "moment", "instant", "while", "minute", "second", "hour", "day", "week"})
"""Nouns of a duration adverbial ("for a short time"), which an adjective after them does not describe."""
ANTECEDENT_WINDOW = 3
"""A pronoun looks for its antecedent in its own sentence and at most this many sentences before."""
MAX_PATH = 6


# ----------------------------------------------------------------------------------------------
# Token classes


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
        if tok.dep_ == "compound" and tok.head.pos_ in ("NOUN", "PROPN") and tok.head.i > tok.i:
            return None
        if _rank_part(tok):  # "rate" in "first-rate"
            return None
        return "noun"
    if tok.pos_ == "PROPN":
        if tok.dep_ in ("compound", "flat") and tok.head.pos_ == "PROPN" and tok.head is not tok:
            return None
        if is_proper_adjective(tok):
            return None
        if tok.lower_ in load_coref_tables()[1] and not any(c.dep_ == "amod" for c in tok.children):
            return None  # a bare title ("Sir", "Mrs.") heading nothing; not an addressee ("dear Madam")
        return "name"
    if tok.pos_ == "PRON" and tok.tag_ != "PRP$" and tok.lower_ in PERSONAL_PRONOUNS:
        return "pron"
    if _pronoun_noun_phrase(tok):
        return "noun"
    return None


def _pronoun_noun_phrase(tok: Token) -> bool:
    """A pronoun that heads its noun phrase with no antecedent to resolve: an indefinite ("everything looked so
    beautiful", "something much more pleasing"), a demonstrative (not a relative "that") or "all" as subject
    (SUBJECT_PRONOUNS), or "one" after a determiner ("an odd one", "the poor one"); it is a mention of kind
    'noun'."""
    if tok.pos_ == "PRON":
        return tok.lower_ in INDEFINITE_PRONOUNS or (tok.lower_ in SUBJECT_PRONOUNS and tok.dep_ in SUBJECT_DEPS
                                                     and tok.tag_ != "WDT")  # relative "that": its noun is the mention
    return (tok.lower_ == "one" and tok.dep_ != "nummod"
            and any(child.dep_ == "det" for child in tok.children))


def _is_name_adjective(tok: Token) -> bool:
    """A capitalised adjective-like word inside a proper name ("Great" in "Great Britain"), or an epithet
    the tagger put there ("Dear Harriet": EPITHETS)."""
    return (tok.pos_ == "PROPN" and tok.dep_ in ("compound", "amod") and tok.head.pos_ == "PROPN"
            and tok.is_title and (tok.lower_ in load_lexicon() or tok.lower_ in EPITHETS))


def is_proper_adjective(tok: Token) -> bool:
    """A proper adjective tagged as a name, on a common noun: spaCy's own amod ("the Ugandan government") or
    a nationality in the lexicon as a compound ("the Thai baht" with 'thai' an origin adjective); not a
    place or person modifying a noun ("the London road")."""
    if tok.pos_ != "PROPN" or tok.head is tok or tok.head.pos_ != "NOUN" or tok.head.i < tok.i:
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
    if tok.tag_ == "VBN" and tok.lower_ in load_lexicon() and _passive_subject(tok) is not None \
            and not _caused_feeling(tok):
        return True
    if _set_off_state(tok) is not None or _negative_state(tok) or _misread_prenominal_participle(tok) is not None \
            or _misread_initial_adjective(tok) is not None:
        return True
    return _is_name_adjective(tok) or _predicate_well(tok) or _graded_adverb(tok) or _misread_conjunct(tok)


def _induced(tok: Token) -> bool:
    """"was persuaded by Elinor to stay", "was persuaded to think it possible": a passive of inducing with an
    agent or an infinitive is the event of being talked into something; "I am persuaded that he is right"
    (convinced) stays a state."""
    return tok.tag_ == "VBN" and tok.lower_ in INDUCED_PARTICIPLES and any(
        c.dep_ == "agent" or (c.dep_ == "xcomp" and _infinitive_to(c) is not None) for c in tok.children)


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


def _predicate_well(tok: Token) -> bool:
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
    comma-stacked adjectives (``_mistagged_stacked``)."""
    if tok.pos_ != "NOUN" or tok.lower_ not in load_adjective_forms():
        return False
    if _mistagged_stacked(tok) is not None:
        return True
    head = tok.head
    if tok.dep_ in ("amod", "compound"):
        return head.i > tok.i and head.pos_ in ("NOUN", "PROPN")
    return (tok.dep_ in MISTAGGED_PREDICATE_DEPS and head.i < tok.i and head.pos_ in ("VERB", "AUX")
            and head.lemma_ in PREDICATE_VERBS
            and not any(c.dep_ in ("det", "poss", "nummod", "compound", "amod") for c in tok.children))


def _inverted_initial_adjective(tok: Token) -> bool:
    """A sentence's first word read as a name, subject of a copula, that English only ever uses as an
    adjective, before an inverted copula with its noun after it ("Happy is the man who ...", "Happy was the
    day she praised them"): the predicate of ``_inverted_predicate``."""
    if tok.pos_ != "PROPN" or tok.dep_ != "nsubj" or not tok.is_sent_start or tok.lower_ not in load_adjective_forms():
        return False
    return _inverted_predicate(tok) is not None


def _mistagged_stacked(tok: Token) -> Token | None:
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


def _misread_prenominal_participle(tok: Token) -> Token | None:
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
    return _noun_head(noun)


def _misread_initial_adjective(tok: Token) -> Token | None:
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
    return _noun_head(noun)


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
    reads so (``_stacked_on``)."""
    return (tok.dep_ == "advmod" and tok.pos_ == "ADJ" and tok.head.pos_ == "ADJ" and tok.head.i == tok.i + 1
            and _stacked_on(tok) is None)


def _stacked_on(tok: Token) -> Token | None:
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
    if before is not None and before.lower_ == "as" and before.head.i == tok.i \
            and any(c.lower_ == "as" and c.i > tok.i for c in tok.subtree):
        return True  # an "as ... as" comparison grades a state too: "quite as composed as could be hoped"
    if _absolute_with(tok) is not None:
        return True
    if tok.tag_ == "VBN" and any(c.dep_ == "conj" and c.pos_ == "ADJ" and not _has_subject(c) for c in tok.children) \
            and _passive_subject(tok) is not None:
        return True  # coordinated with an adjective, a participle names a state: "is landlocked and hilly"
    head = tok.head
    if tok.tag_ == "VBG" and tok.dep_ == "conj" and head.pos_ == "ADJ" and head.dep_ in ("acomp", "amod") \
            and not any(c.dep_ in VERBAL_GERUND_DEPS for c in tok.children):
        return True  # "so gentle and retiring", "pale and trembling": a conjunct of a predicate adjective
    if tok.tag_ != "VBN" or head.i == tok.i or any(c.dep_ in CLAUSE_DEPS for c in tok.children):
        return False
    if tok.dep_ == "conj":  # "haughty, reserved, and fastidious", the first read as a noun but a complement
        return head.pos_ == "ADJ" or head.dep_ == "acomp" or _copula_predicate(tok) is not None
    if head.pos_ not in ("VERB", "AUX") or head.lemma_ in EVENT_HEADS:
        return False
    if tok.dep_ == "xcomp":
        return True
    subject = next((c for c in tok.children if c.dep_ == "nsubj"), None)
    return tok.dep_ in ("ccomp", "oprd") and subject is not None and subject.left_edge.i == head.i + 1


def _set_off_state(tok: Token) -> Token | None:
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


def _has_subject(tok: Token) -> bool:
    """``tok`` has a subject of its own (a gapped clause: "and her manner agitated")."""
    return any(c.dep_ in SUBJECT_DEPS for c in tok.children)


def _copula_predicate(tok: Token) -> Token | None:
    """The adjective predicate of the copula that the parser made ``tok``'s conjunct head instead of the
    adjective ("was old and neglected": "neglected" a conj of "was", not of "old"); None when ``tok`` has
    a subject, auxiliary or complementiser of its own (a clause: "and Elizabeth was convinced")."""
    head = tok.head
    if tok.dep_ != "conj" or head.lemma_ not in COPULA or _has_subject(tok) \
            or any(c.dep_ in CLAUSE_DEPS for c in tok.children):
        return None
    return next((c for c in head.children if c.dep_ == "acomp" and c.i < tok.i and c.pos_ == "ADJ" and _has_alpha(c)),
                None)


def _absolute_with(tok: Token) -> Token | None:
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


def _rank_predicate(adj: Token) -> Attachment | None:
    """A rank compound as the predicate of a linking verb ("Literacy is first-rate", "are first rate"): on
    the verb's subject, as "was excellent" would be. None for other adjectives."""
    part = _rank_compound(adj)
    if part is None or part.dep_ not in ("attr", "acomp") or part.head.pos_ not in ("VERB", "AUX"):
        return None
    return _verb_predicate(adj, part.head, part.dep_)


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


def _passive_subject(tok: Token) -> Token | None:
    """The subject of a participle with a passive auxiliary: its nsubjpass, or a subject the parser hung on
    the auxiliary ("I am determined": "I" an nsubj of "am"), or, for a later conjunct with no subject of
    its own, the subject of the verb it is conjoined with ("He talked to her, and was convinced"). Not
    through a bare "been" ("who have found ..., and been obliged"): it shares a "have" the parser often
    leaves on another clause, so the conjunction it hangs on is unreliable."""
    auxpass = [c for c in tok.children if c.dep_ == "auxpass"]
    if not auxpass:
        return None
    own = _subject_on(tok, ("auxpass",))
    if own is None and tok.dep_ == "conj" and tok.head.i < tok.i and tok.head.pos_ in ("VERB", "AUX") \
            and not (auxpass[0].lower_ == "been" and not any(c.dep_ == "aux" for c in tok.children)):
        return find_subject(tok.head)
    return own


def _subject_on(tok: Token, aux_deps: tuple[str, ...]) -> Token | None:
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


# ----------------------------------------------------------------------------------------------
# Attachment: what the adjective is asserted of


@dataclass(frozen=True)
class Attachment:
    target: int  # token index of the noun / name / pronoun the adjective describes, -1 if none
    relation: str  # amod appos predicative depictive oprd relcl conj none
    base_relation: str  # the first conjunct's relation (== relation unless 'conj')
    gov: int  # governing verb of a predicate (-1 for attributive)
    first: int  # first conjunct (== the adjective unless 'conj')


NO_ATTACHMENT = Attachment(-1, "none", "none", -1, -1)


def _noun_head(tok: Token) -> Token:
    """Climb from a compound modifier to the noun it modifies ("brick" in "red brick house" -> house)."""
    seen = 0
    while tok.dep_ == "compound" and tok.head.pos_ in ("NOUN", "PROPN") and tok.head.i > tok.i and seen < 8:
        tok, seen = tok.head, seen + 1
    return tok


def find_subject(verb: Token) -> Token | None:
    """The subject of ``verb``, looking through xcomp ("seemed to be happy") and conj ("and was kind"), and
    on an auxiliary where the parser hangs it there ("extravagance" an nsubj of "had" in "his extravagance
    had, before that, been so great")."""
    for _ in range(8):
        subj = _subject_on(verb, ("aux", "auxpass"))
        if subj is not None:
            return subj
        if _clause_as_subject(verb):
            return None
        if (verb.dep_ in ("xcomp", "conj") or _supplementive(verb) or _bare_than(verb)) and verb.head is not verb:
            verb = verb.head
        else:
            return None
    return None


def _clause_as_subject(verb: Token) -> bool:
    """A verb the parser conjoined, with no "and" between, to a clause that opens with "that" or "whether"
    (after punctuation or a conjunction at most): that clause is its subject ("That she is a gentleman's
    daughter, is indubitable"), so the clause's own subject is not the verb's."""
    head = verb.head
    if verb.dep_ != "conj" or head is verb or any(c.dep_ == "cc" and head.i < c.i < verb.i for c in head.children):
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


def _object(verb: Token) -> Token | None:
    return next((c for c in verb.children if c.dep_ == "dobj"), None)


def _subject_attachment(adj: Token, verb: Token, relation: str, subj: Token | None = None) -> Attachment:
    """The predicate ``adj`` of ``verb`` on the verb's subject (``subj`` when given, else found); through a
    relative pronoun on the noun its clause modifies ("a man who was rich", "Mrs. Jennings, who had been
    inclined")."""
    subj = subj if subj is not None else find_subject(verb) or _interrupted_subject(verb)
    target = _through_relative(subj) if subj is not None else None
    if target is None:
        return Attachment(-1, "none", "none", verb.i, adj.i)
    relation = relation if target is subj else "relcl"
    return Attachment(target.i, relation, relation, verb.i, adj.i)


def _interrupted_subject(verb: Token, max_report: int = 8) -> Token | None:
    """The subject of a quotation's verb that a reporting clause cut off ('"Mrs. Weston's manners," said
    Emma, "were always particularly good."'): ``verb`` has no subject and opens the reopened quotation, after
    at most ``max_report`` tokens of reporting clause (no quote, no sentence end) and a closing quote after a
    comma; the subject is the common noun of the first half that its parse hangs outside it, when that half
    is one noun phrase. The parser cannot join the halves, so this reads the tokens."""
    doc, k = verb.doc, verb.i - 1
    if k < 0 or not doc[k].is_quote or _has_subject(verb):
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
    return _noun_head(heads[0])


def _through_relative(tok: Token) -> Token | None:
    """``tok``, or for a relative pronoun the noun its clause modifies ("a man who was rich", "the rooms,
    which she kept clean" -> rooms); None for a relative pronoun whose clause modifies no noun."""
    if tok.lower_ not in RELATIVE_PRONOUNS or tok.tag_ not in ("WP", "WDT"):
        return tok
    clause = tok.head
    if clause.dep_ != "relcl" or clause.head is clause:
        return None
    return _noun_head(clause.head)


def _object_predicate(adj: Token, verb: Token, obj: Token) -> Attachment:
    """``adj`` as the predicate of ``verb``'s object ``obj`` ("found him asleep"), through a relative
    pronoun object ("which she kept clean")."""
    target = _through_relative(obj)
    if target is None:
        return Attachment(-1, "none", "none", verb.i, adj.i)
    return Attachment(target.i, "oprd", "oprd", verb.i, adj.i)


def _linking_chain(verb: Token) -> Token:
    """The verb that decides linking: "seemed" in "seemed to be happy" (be is an xcomp of seem)."""
    if verb.lemma_ in COPULA and verb.dep_ == "xcomp" and verb.head.pos_ in ("VERB", "AUX"):
        return verb.head
    return verb


def _hyphen_compound_head(adj: Token, noun: Token) -> Token:
    """The noun that a hyphenated compound modifier describes: "low-cost labour" -> labour (spaCy parses
    "low" as a modifier of "cost"); ``noun`` itself when adj-noun is no such compound."""
    doc = adj.doc
    glued = (noun.i == adj.i + 2 and doc[adj.i + 1].text == "-" and not adj.whitespace_
             and not doc[adj.i + 1].whitespace_)
    if glued and noun.dep_ in ("nmod", "amod", "compound") and noun.head.pos_ in ("NOUN", "PROPN") \
            and noun.head.i > noun.i:
        return noun.head
    return noun


def _comma_between(left: Token, right: Token) -> bool:
    """A comma between two tokens of one doc (``left`` before ``right``)."""
    return any(t.text == "," for t in left.doc[left.i + 1:right.i])


def _direct_attachment(adj: Token) -> Attachment:
    """Attachment of an adjective that is not a later conjunct."""
    head, dep = adj.head, adj.dep_
    if adj.pos_ == "NOUN" and dep in MISTAGGED_PREDICATE_DEPS:  # "sat motionless": dobj, as if a noun
        dep = "acomp"
    repaired = _as_predicate(adj) or _postposed_on_time_noun(adj) or _predicate_past_of_phrase(adj) \
        or _possessed_epithet(adj) or _result_infinitive(adj) or _graded_before_article(adj) or _shifted_result(adj) \
        or _fronted_depictive(adj) or _wh_object_predicate(adj) or _measured_degree(adj) or _exclamative(adj) \
        or _inverted_predicate(adj) or _rank_predicate(adj)
    if repaired is not None:
        return repaired
    described = _misread_prenominal_participle(adj) or _misread_initial_adjective(adj) or _mistagged_stacked(adj)
    if described is not None:  # "whose pale and jaded looks", "Perfect happiness": the tagger read a verb
        return Attachment(described.i, "amod", "amod", -1, adj.i)
    absolute = _absolute_with(adj)
    if absolute is not None:  # "with his eyes fixed": an object predicate of "with"
        return Attachment(absolute.i, "oprd", "oprd", -1, adj.i)
    stacked = _stacked_on(adj)
    if stacked is not None:  # "a long awkward passage": attributive like the next adjective
        head, dep = stacked.head, "amod"
    described = _set_off_state(adj)
    if described is not None:  # "Miss Bingley, seated near him"; "stood her ground, determined to hear"
        if adj.dep_ == "acl":
            relation = "appos" if adj.doc[adj.i - 1].text == "," else "amod"
            return Attachment(_noun_head(described).i, relation, relation, -1, adj.i)
        return Attachment(_noun_head(described).i, "depictive", "depictive", adj.head.i, adj.i)
    if dep in ("amod", "compound", "nmod") and head is not adj and not _possessor_between(adj, head) \
            and not _dash_between(adj, head) and (head.pos_ in ("NOUN", "PROPN", "PRON") or _pronoun_noun_phrase(head)):
        target = _noun_head(_hyphen_compound_head(adj, head))
        relation = "amod"
        if adj.i > head.i and _comma_between(head, adj):
            relation = "appos"
        return Attachment(target.i, relation, relation, -1, adj.i)
    if dep == "appos" and head.pos_ in ("NOUN", "PROPN", "PRON"):
        return Attachment(_noun_head(head).i, "appos", "appos", -1, adj.i)
    subj = _passive_subject(adj) if adj.tag_ == "VBN" else None
    if subj is not None:  # "he was seated"
        return _subject_attachment(adj, adj, "predicative", subj)
    own_subj = next((c for c in adj.children if c.dep_ in SUBJECT_DEPS), None)
    if own_subj is not None:  # small clause: "found him asleep", "made him happy"
        if dep in ("ccomp", "xcomp", "oprd", "advcl", "conj") and head.pos_ in ("VERB", "AUX") \
                and head.lemma_ not in LINKING_VERBS:
            return Attachment(own_subj.i, "oprd", "oprd", head.i, adj.i)
        return Attachment(own_subj.i, "predicative", "predicative", adj.i, adj.i)
    if _predicate_well(adj):
        dep = "acomp"
    if dep in PREDICATE_DEPS and head.pos_ in ("VERB", "AUX") and head is not adj:
        return _verb_predicate(adj, head, dep)
    return Attachment(-1, "none", "none", -1, adj.i)


def _dash_between(adj: Token, noun: Token) -> bool:
    """A dash between an adjective and the later noun the parser hangs it on ("I never was very
    handsome--worse luck for me"): a break in the sentence, never one noun phrase."""
    return adj.i < noun.i and any(set(t.text) <= DASH_CHARS and t.text != "-"  # not a hyphen ("dark-haired")
                                  for t in adj.doc[adj.i + 1:noun.i] if t.is_punct)


def _possessor_between(adj: Token, noun: Token) -> bool:
    """A possessor of ``noun`` stands between it and an adjective before it ("poor Martin's cause", "Mary's
    removed all Lady Russell's difficulties"): the adjective describes the possessor or is no adjective,
    never the possessed noun. (Not any determiner: "as strong a contrast", "a valued, a precious trust"; nor
    after a grading word, where the adjective is a fronted predicate of the noun: "how unwelcome her
    appearance must be".)"""
    if adj.i > 0 and adj.doc[adj.i - 1].lower_ in GRADERS:
        return False
    return adj.i < noun.i and any(t.head.i == noun.i and t.dep_ == "poss" for t in adj.doc[adj.i + 1:noun.i])


def _verb_predicate(adj: Token, verb: Token, dep: str) -> Attachment:
    """``adj`` as a predicate of ``verb`` (``dep`` its role): on the object of a non-copula ("found him
    asleep"), else on the subject, predicative after a linking verb and depictive after others."""
    obj = _object(verb)
    if obj is not None and obj.i == adj.i:
        obj = None  # the predicate itself, read as an object ("sat motionless")
    if obj is not None and obj.i > adj.i and _comma_between(adj, obj):
        obj = None  # "The ship lay becalmed, her sails hanging limp": an absolute clause, not an object
    if obj is not None and verb.lemma_ not in COPULA and (dep in ("oprd", "xcomp", "ccomp", "acomp")
                                                          or _object_predicate_read_as_clause(adj, verb, obj, dep)):
        return _object_predicate(adj, verb, obj)
    shared = _earlier_small_clause_subject(adj, verb) if obj is None and dep == "oprd" else None
    if shared is not None:  # "considered her so totally unamiable, so absolutely incapable of ..."
        return Attachment(shared.i, "oprd", "oprd", verb.i, adj.i)
    if dep == "ccomp":
        return Attachment(-1, "none", "none", verb.i, adj.i)
    linking = _linking_chain(verb).lemma_ in LINKING_VERBS
    return _subject_attachment(adj, verb, "predicative" if linking else "depictive")


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


def _as_predicate(adj: Token) -> Attachment | None:
    """"treating their fears as idle", "he was regarded as foolish": an adjective object of "as" on a verb
    is an object predicate (of the object, or of the subject of a passive); None for other adjectives."""
    prep = adj.head
    if adj.dep_ not in ("pobj", "amod") or prep.lower_ != "as" or prep.dep_ != "prep" \
            or prep.head.pos_ not in ("VERB", "AUX") or prep.head is prep:
        return None
    verb = prep.head
    obj = _object(verb)
    if obj is not None:
        return _object_predicate(adj, verb, obj)
    subj = _passive_subject(verb)
    return _subject_attachment(adj, verb, "oprd", subj) if subj is not None else None


def _result_infinitive(adj: Token) -> Attachment | None:
    """"walls so thick as to be impregnable", "argued the case ... as to be finally successful": the "as to
    be" infinitive of a result clause is asserted of what its clause (or the graded adjective it completes)
    is about, and negated or supposed with that clause; the parser often gives "be" a subject of its own
    from the words before it ("the ball, and herself, as to be"), which an infinitive cannot have. Only
    after "so" or "such" (a result clause needs one); None for other adjectives and for "so as to be", a
    purpose ("dressed so as to be admired")."""
    be = adj.head
    if adj.dep_ != "acomp" or be is adj or be.lemma_ != "be" or be.head is be \
            or _infinitive_to(be) is None:
        return None
    mark = next((c for c in be.children if c.dep_ == "mark" and c.lower_ == "as"), None)
    if mark is None:
        return None
    doc = adj.doc
    if doc[mark.i + 1].lower_ != "to" or (mark.i > 0 and doc[mark.i - 1].lower_ == "so") \
            or not any(t.lower_ in ("so", "such") for t in doc[mark.sent.start:mark.i]):
        return None  # "dressed so as to be admired" (a purpose), "as if to be sure", "as to be sure" (an aside)
    gov = be.head
    if gov.pos_ == "ADJ":  # "so thick as to be impregnable": what "thick" describes
        graded = attach(gov)
        return None if graded.target < 0 else Attachment(graded.target, "predicative", "predicative",
                                                         graded.gov, adj.i)
    subj = find_subject(gov) if gov.pos_ in ("VERB", "AUX") else None
    return None if subj is None else _subject_attachment(adj, gov, "predicative", subj)


def _graded_before_article(adj: Token) -> Attachment | None:
    """"so wretched an example", "too long a time", "how fine a day": an adjective graded by so / too / as /
    how stands before the article of its noun, which the parser then hangs on the adjective (as a pobj or
    npadvmod); it is attributive of that noun. None for other adjectives."""
    doc = adj.doc
    if adj.i + 2 >= len(doc) or doc[adj.i + 1].lower_ not in ("a", "an") \
            or not (adj.pos_ == "ADJ" or _graded_adverb(adj)):
        return None
    if not any(c.dep_ in ("advmod", "mark") and c.lower_ in GRADERS and c.i == adj.i - 1
               for c in adj.children):  # "as complete a delusion as any": the first "as" parsed a mark
        return None
    noun = doc[adj.i + 1].head
    if noun.pos_ not in ("NOUN", "PROPN") or noun.i <= adj.i + 1 or noun.i > adj.i + 4 \
            or any(t.pos_ in ("VERB", "AUX", "PUNCT") for t in doc[adj.i + 2:noun.i]):
        return None
    return Attachment(_noun_head(noun).i, "amod", "amod", -1, adj.i)


def _exclamative(adj: Token) -> Attachment | None:
    """"how unfeeling had been her conduct!": a predicate fronted by "how" before an inverted "be", whose
    subject the parser reads as an attr after it; predicative of that noun. None for other adjectives."""
    verb = adj.head
    if adj.dep_ != "acomp" or verb.lemma_ != "be" or verb.i < adj.i or find_subject(verb) is not None:
        return None
    if not any(c.dep_ == "advmod" and c.lower_ == "how" and c.i == adj.i - 1 for c in adj.children):
        return None
    subj = next((c for c in verb.children if c.dep_ == "attr" and c.i > verb.i
                 and c.pos_ in ("NOUN", "PROPN", "PRON")), None)
    return None if subj is None else Attachment(_noun_head(subj).i, "predicative", "predicative", verb.i, adj.i)


def _graded_adverb(tok: Token) -> bool:
    """An adjective form the tagger read as an adverb before the article of its noun ("at so early an age",
    "too late an hour"); not a grading word ("so much a part")."""
    doc = tok.doc
    return (tok.pos_ == "ADV" and tok.lower_ in load_flat_adverbs() and tok.lower_ not in GRADING_ADJECTIVES
            and 0 < tok.i < len(doc) - 1 and doc[tok.i - 1].lower_ in GRADERS
            and doc[tok.i + 1].lower_ in ("a", "an"))


SHIFTED_RESULTS = frozenset({"open", "shut", "free", "clean", "loose", "short", "wide", "clear"})
"""Result adjectives that English puts before a verb's object ("threw open the door", "cut short his visit");
not "round" ("walking round the garden": a preposition) or "awake" ("lay awake ten minutes")."""


def _shifted_result(adj: Token) -> Attachment | None:
    """"He threw open the door", "set free the birds": a result adjective (SHIFTED_RESULTS) right after its verb
    and before the verb's object, which the parser makes an adverb of the verb; it is an object predicate of
    that object. None for other adjectives."""
    verb = adj.head
    if adj.lower_ not in SHIFTED_RESULTS or adj.dep_ not in ("advmod", "acomp", "oprd", "prt") \
            or verb.i != adj.i - 1 or verb.pos_ != "VERB":
        return None
    obj = _object(verb)
    if obj is None or obj.left_edge.i != adj.i + 1:
        return None
    return Attachment(_noun_head(obj).i, "oprd", "oprd", verb.i, adj.i)


DISCOURSE_ADJECTIVES = frozenset({"true", "sure", "right", "fine", "good", "well", "strange", "odd", "curious",
                                  "funny", "certain", "worse", "better", "best", "last", "first", "next", "such",
                                  "more", "most", "least", "possible", "likely", "enough", "needless", "sad", "lucky"})
"""Adjectives that open a sentence as a comment on it ("True, he was rich"; "Strange to say, she had not
come"), not as a property of its subject."""


def _fronted_depictive(adj: Token) -> Attachment | None:
    """"Quick and decided in her ways, Emma lost no time", "Tired and hungry, the men returned": an
    adjective phrase that opens its sentence (after a quote or a conjunction at most), set off by a comma,
    describes the subject of the clause after it, which the parser hangs it on as an adverb (not
    DISCOURSE_ADJECTIVES). None for other adjectives."""
    doc, verb = adj.doc, adj.head
    if adj.pos_ != "ADJ" or adj.lower_ in DISCOURSE_ADJECTIVES or verb.pos_ not in ("VERB", "AUX") \
            or adj.dep_ not in ("advmod", "advcl", "dep", "npadvmod"):
        return None  # cheap checks first: every adjective of the corpus passes through here
    start = adj.sent.start
    while start < adj.i and (doc[start].is_quote or doc[start].pos_ == "CCONJ"):
        start += 1
    comma = adj.right_edge.i + 1
    if adj.i != start or comma >= len(doc) or doc[comma].text != ",":
        return None
    subj = find_subject(verb)
    if subj is None or not comma < subj.i < verb.i:
        return None
    concession = _concession(adj, subj)
    if concession is not None:  # "Intimate as you are", "Disputable as might be the taste": the as-clause's
        inner = find_subject(concession) or next((c for c in concession.children if c.dep_ == "attr"), None)
        if inner is None:
            return Attachment(-1, "none", "none", concession.i, adj.i)
        return _subject_attachment(adj, concession, "predicative", inner)
    return _subject_attachment(adj, verb, "depictive", subj)


INVERTED_DEGREE = frozenset({"little", "much"})
"""Fronted before an inverted copula, a degree ("so little were they in the habit of", "so much was she
changed"), not a predicate (``_inverted_predicate``)."""


def _inverted_predicate(adj: Token) -> Attachment | None:
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
    return None if subj is None else _subject_attachment(adj, verb, "predicative", _noun_head(subj))


def _concession(adj: Token, subj: Token) -> Token | None:
    """The verb of an as-clause right after a fronted adjective ("Young as he was, William...", "Timid,
    anxious, doubting as she was", "Disputable, however, as might be the taste"; the adjective's conjuncts,
    punctuation and adverbs between at most), not one inside its complement ("Anxious to separate herself
    as far as she could, she"). None if there is none."""
    for tok in adj.doc[adj.i + 1:subj.i]:
        if tok.lower_ == "as" and tok.dep_ == "mark":
            return tok.head
        if tok.pos_ not in ("PUNCT", "ADV", "CCONJ", "ADJ") and tok.dep_ != "conj":
            return None
    return None


def _wh_object_predicate(adj: Token) -> Attachment | None:
    """"saw how ill I had made her", "foresaw how useful she might find her": an adjective fronted by "how"
    before a verb that takes an object predicate (RESULT_VERBS) is the predicate of that verb's object.
    None for other adjectives."""
    verb = adj.head
    if not any(c.lower_ == "how" and c.i == adj.i - 1 for c in adj.children) or verb.lemma_ not in RESULT_VERBS \
            or verb.i <= adj.i:
        return None
    obj = _object(verb)
    return _object_predicate(adj, verb, obj) if obj is not None and obj.i > verb.i else None


def _measured_degree(adj: Token) -> Attachment | None:
    """"you are a great deal too apt", "he was a good deal older": "a great / good deal" grades the adjective
    after it, which the parser hangs on "deal" as if attributive; it is the predicate of the verb "deal"
    hangs on. None for other adjectives."""
    deal, verb = adj.head, adj.head.head
    if deal.lemma_ != "deal" or adj.i <= deal.i or verb.pos_ not in ("VERB", "AUX") or verb is deal \
            or not any(c.lower_ in ("great", "good") and c.i < deal.i for c in deal.children):
        return None
    return _verb_predicate(adj, verb, "acomp")


def _possessed_epithet(adj: Token) -> Attachment | None:
    """"But, my dearest Catherine, have you...", "her dearest Catherine must excuse": the parser makes the
    adjective after a possessive the head of the noun phrase and cuts the name after it loose; the
    adjective is an epithet of that name. None for other adjectives."""
    name = adj.doc[adj.i + 1] if adj.i + 1 < len(adj.doc) else None
    if name is None or adj.dep_ not in EPITHET_HEAD_DEPS or name.head.i == adj.i or mention_kind(name) != "name" \
            or not any(c.dep_ == "poss" and c.i == adj.i - 1 for c in adj.children):
        return None
    return Attachment(name.i, "amod", "amod", -1, adj.i)


def _postposed_on_time_noun(adj: Token) -> Attachment | None:
    """"John was for a short time silent", "made her for a time sensible": the parser hangs the
    predicate on the time noun of the adverbial before it; re-attach it as the clause's predicate."""
    noun = adj.head
    if adj.dep_ != "amod" or noun.i >= adj.i or noun.lemma_.lower() not in TIME_NOUNS or noun.dep_ != "pobj" \
            or _comma_between(noun, adj):
        return None
    prep = noun.head
    if prep.dep_ != "prep" or prep.head.pos_ not in ("VERB", "AUX") or prep.head is prep:
        return None
    return _verb_predicate(adj, prep.head, "acomp")


def _predicate_past_of_phrase(adj: Token) -> Attachment | None:
    """"to render a different disposal of the next presentation necessary": the parser hangs the object
    predicate of a verb in RESULT_VERBS on the noun of the object's "of" phrase; re-attach it to the
    object. None for other adjectives ("a heart of gold pure as snow")."""
    noun = adj.head
    if adj.dep_ != "amod" or noun.i >= adj.i or noun.dep_ != "pobj" or _comma_between(noun, adj):
        return None
    prep = noun.head
    obj = prep.head
    if prep.lower_ != "of" or prep.dep_ != "prep" or obj.dep_ != "dobj" or obj.head.lemma_ not in RESULT_VERBS:
        return None
    return _object_predicate(adj, obj.head, obj)


def attach(adj: Token) -> Attachment:
    """What ``adj`` is asserted of; later conjuncts inherit the first conjunct's target."""
    first, steps = adj, 0
    while first.dep_ == "conj" and first.head is not first and not _has_subject(first) and steps < 12:
        previous = first.head if is_attribute(first.head) else _copula_predicate(first)
        if previous is None:
            break
        first, steps = previous, steps + 1
    base = _direct_attachment(first)
    if first is adj:
        return base
    if base.target < 0:
        return Attachment(-1, "none", "none", base.gov, first.i)
    return Attachment(base.target, "conj", base.base_relation, base.gov, first.i)


SHARED_BY_CONJUNCTS = frozenset({"predicative", "depictive", "oprd", "relcl"})
"""Relations whose adjective describes every noun conjoined with its target (``conjoined_targets``)."""


def conjoined_targets(att: Attachment, doc: Doc) -> frozenset[int]:
    """The nouns conjoined with a predicate's target, which the predicate describes as well ("the old man
    and his wife were happy": wife too; "Agriculture and fishing are important"). Attributive adjectives
    keep their one noun ("an old man and woman" is ambiguous)."""
    if att.target < 0 or att.base_relation not in SHARED_BY_CONJUNCTS:
        return frozenset()
    found, todo = set(), [doc[att.target]]
    list_appos = _list_apposition(doc[att.target])
    if list_appos is not None:  # "his father, Mr. Knightley, Mr. Cox, and Mr. Cole, were left very busy"
        found.add(list_appos.i)
        todo.append(list_appos)
    while todo and len(found) < 12:
        for c in todo.pop().children:
            if c.dep_ == "conj" and c.i not in found and mention_kind(c) is not None:
                found.add(c.i)
                todo.append(c)
    return frozenset(found)


def _list_apposition(noun: Token) -> Token | None:
    """The second item of a list the parser hung on the first as an apposition with the rest as its
    conjuncts ("his father, Mr. Knightley, Mr. Cox, and Mr. Cole": Knightley appos of father, Cox and Cole
    its conjuncts); an apposition with no conjunct ("his father, Mr. Weston") names the same one."""
    return next((c for c in noun.children if c.dep_ == "appos" and mention_kind(c) is not None
                 and any(g.dep_ == "conj" and mention_kind(g) is not None for g in c.children)), None)


# ----------------------------------------------------------------------------------------------
# Flags on an adjective


def _verb_chain(att: Attachment, doc: Doc) -> list[Token]:
    """The governing verb and the verbs it is an xcomp of ("did not seem to be happy"), up to a gerund of
    "help" ("could not help feeling anxious")."""
    if att.gov < 0:
        return []
    chain, verb = [doc[att.gov]], doc[att.gov]
    while verb.dep_ == "xcomp" and verb.head is not verb and len(chain) < 4:
        if verb.tag_ == "VBG" and verb.head.lemma_ == "help":
            break  # "I cannot help being concerned" asserts it: the negation and modal are on "help"
        verb = verb.head
        chain.append(verb)
    return chain


def is_negated(adj: Token, att: Attachment) -> bool:
    """A negator (NEGATORS) on the adjective, its first conjunct, its governing verb or an auxiliary of that
    verb ("Why was not she to be as useful?": the parser hangs "not" on the inverted auxiliary), or one of
    them in a "neither ... nor" coordination ("neither rich nor handsome", "nor was he handsome")."""
    doc = adj.doc
    carriers = [adj] + ([doc[att.first]] if att.first >= 0 and att.first != adj.i else [])
    verbs = _verb_chain(att, doc)
    carriers += verbs + [c for v in verbs for c in v.children if c.dep_ in ("aux", "auxpass")]
    if att.target >= 0 and att.base_relation not in ("amod", "appos") and _neither_nor(doc[att.target]):
        return True  # "neither the carriage, nor the livery ... were familiar"
    if verbs and _denied_belief(verbs[-1]):
        return True  # "It does not appear to me that my hand is unworthy"
    return any(_has_negator(c, adj) for c in carriers) or any(map(_neither_nor, carriers)) \
        or _negating_phrase_before(adj) or _minimal_under_negation(adj, att)


def _denied_belief(verb: Token) -> bool:
    """``verb`` heads the clause right after a negated verb of NEG_RAISING_VERBS ("I do not think he is
    conceited", "it did not appear to me that she was superior"): the negator before that verb, the clause
    starting within four words after it."""
    head = verb.head
    if verb.dep_ != "ccomp" or head is verb or head.lemma_ not in NEG_RAISING_VERBS \
            or not head.i < verb.left_edge.i <= head.i + 4:
        return False
    return any(c.i < head.i for c in _negators(head))


def _has_negator(tok: Token, adj: Token | None = None) -> bool:
    """A negator (NEGATORS, or any "neg" dependent) among the children of ``tok``; not "not only" / "not
    merely", which adds ("they are not only natural, they are virtuous"), nor one after ``adj`` past a "but"
    or a dash, which denies something else ("You are very obliging to say such things--but certainly not")."""
    return any(not _denies_later(c, adj) for c in _negators(tok))


def _negators(tok: Token) -> Iterator[Token]:
    """The children of ``tok`` that deny it (``_has_negator``, before any position test)."""
    return (c for c in tok.children if (c.dep_ == "neg" or (c.dep_ == "advmod" and c.lower_ in NEGATORS))
            and not _not_only(c))


def _denies_later(negator: Token, adj: Token | None) -> bool:
    """``negator`` comes after ``adj`` with a "but" or a dash between them."""
    return adj is not None and negator.i > adj.i and any(
        t.lower_ == "but" or (t.is_punct and set(t.text) <= DASH_CHARS) for t in negator.doc[adj.i + 1:negator.i])


def _not_only(tok: Token) -> bool:
    """"not" right before "only" / "merely"."""
    doc = tok.doc
    return tok.lower_ in ("not", "n't") and tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ in ("only", "merely")


def _minimal_under_negation(adj: Token, att: Attachment) -> bool:
    """A superlative of the least degree before a noun whose verb is negated ("had never had the slightest
    suspicion", "did not show the least concern"): it denies that there was any."""
    if adj.lower_ not in MINIMAL_SUPERLATIVES or att.relation != "amod" or att.target < 0:
        return False
    verb = adj.doc[att.target].head
    return verb.pos_ in ("VERB", "AUX") and _has_negator(verb)


def _neither_nor(tok: Token) -> bool:
    """``tok`` opens a "neither" coordination or is a conjunct after "nor"."""
    if any(c.dep_ == "preconj" and c.lower_ == "neither" for c in tok.children):
        return True
    head = tok.head
    return tok.dep_ == "conj" and any(c.dep_ == "cc" and c.lower_ == "nor" and head.i < c.i < tok.i
                                      for c in head.children)


def _negating_phrase_before(adj: Token) -> bool:
    """"had by no means been pleasant", "was in no way offended": a negating phrase in the few words before
    the adjective, within its clause piece (no comma between: "he waited no longer, and the tall man came"
    negates nothing), as the parser rarely attaches these to the verb they negate."""
    doc = adj.doc
    lo = adj.i
    while lo > 0 and adj.i - lo < 8 and doc[lo - 1].text not in (",", ";", ":", ".", "!", "?"):
        lo -= 1
    words = f" {' '.join(t.lower_ for t in doc[lo:adj.i])} "  # padded: whole words only ("piano longer")
    return any(f" {phrase} " in words for phrase in NEGATING_PHRASES)


def is_non_asserted(att: Attachment, doc: Doc) -> bool:
    """A predicate the text does not assert (data/gold/README.md, non-asserted contexts): its verb has a
    hypothetical modal ("would be happy"), a subjunctive "were" after a singular subject ("till he were
    old"), a conditional complementiser ("if she were rich", "unless it is true"), or it is the complement
    of a wish or an attempt ("wished to be useful", "hoped she was well", "wished it unsaid"), the "to be"
    complement of "too" ("too great to be withstood": what does not follow; "tired enough to be very glad"
    often does, and "too young to own herself frightened" denies the owning, not the fright), the infinitive
    of a finite "be" ("we are to be thankful": ``_be_to``), or asked in a direct question ("are you
    sure?", "when shall you be ready?"), or a state to come in a time clause ("when Tom is better, I shall
    go"), or an infinitive expected of an object (EXPECTING_VERBS), or the adjective has a conditional
    complementiser of its own ("as if eager to escape"). Attributive pairs never are."""
    if att.first >= 0 and any(c.dep_ == "mark" and c.lower_ in IRREALIS_MARKS for c in doc[att.first].children):
        return True  # "hurrying off as if eager to escape", "if possible"
    chain = _verb_chain(att, doc)  # empty for attributive pairs (no governing verb)
    if not chain:
        return False
    if len(chain) > 1 and chain[0].lemma_ == "be" and _too_head(chain[1]) and not _too_head(doc[att.first]):
        return True  # "too great to be withstood"; not "too young to own herself frightened" (she was)
    if any(_be_to(verb) or _for_to(verb) for verb in chain):
        return True  # "we are to be thankful", "difficult for her to be certain": due, arranged or supposed
    if _obliged_action(chain[0]):
        return True  # "I must set her right": what is to be done, not what is
    for verb in chain:
        for c in verb.children:
            if c.dep_ in ("aux", "auxpass") and c.lower_ in IRREALIS_MODALS:
                return True
            if c.dep_ == "mark" and c.lower_ in IRREALIS_MARKS:
                return True
            if c.dep_ in SUBJECT_DEPS and any(g.dep_ == "mark" and g.lower_ in IRREALIS_MARKS for g in c.children):
                return True  # "whether the more lively character were most likely": the mark hung on the subject
    wanting = chain[1:] + ([chain[-1].head] if chain[-1].dep_ == "ccomp" else [])  # "hoped (that) she was"
    if att.base_relation == "oprd":
        wanting.append(chain[0])  # an object predicate of a wish is wanted, not had: "wished it unsaid"
    if any(LEMMA_FIXES.get(v.lower_, v.lemma_.lower()) in IRREALIS_VERBS for v in wanting):
        return True
    if chain[-1].dep_ in ("ccomp", "xcomp") and chain[-1].head.lemma_ in EXPECTING_VERBS \
            and _infinitive_to(chain[-1]) is not None:
        return True  # "expected him to be useful"
    pred = doc[att.first] if att.first >= 0 else None
    return _subjunctive_were(chain[0]) or _question(chain[-1], pred) or _future_time_clause(chain[-1])


def _obliged_action(verb: Token) -> bool:
    """A verb other than "be" under "must" without a perfect "have" ("I must set her right", "you must keep
    him quiet"): an obligation. "must be" ("you must be tired") and "must have found" are inferences, which
    assert."""
    auxes = {c.lower_ for c in verb.children if c.dep_ == "aux"}
    if not auxes and verb.dep_ == "conj" and not _has_subject(verb):  # "must run after her and set her right"
        auxes = {c.lower_ for c in verb.head.children if c.dep_ == "aux"}
    return verb.lemma_ != "be" and "must" in auxes and not auxes & {"have", "'ve"}


def _be_to(verb: Token) -> bool:
    """A "to" infinitive right after a finite "be" (adverbs between at most) that is its xcomp ("we are to be
    thankful", "the hours were soon to be early"): an obligation or an arrangement, not a fact. Not after
    "it" ("new as it was to imagine herself capable": an extraposed subject) nor after a phrase ("she was in
    a state of mind to be glad")."""
    be = verb.head
    to = _infinitive_to(verb)
    if verb.dep_ != "xcomp" or be is verb or be.lemma_ != "be" or be.tag_ not in FINITE_VERB_TAGS or to is None:
        return False
    if to.i < be.i or not all(t.pos_ in ("ADV", "PART") for t in verb.doc[be.i + 1:to.i]):
        return False
    subject = find_subject(be)
    return subject is None or subject.lower_ != "it"


def _for_to(verb: Token) -> bool:
    """A "for ... to" infinitive ("it was difficult for her to be quite certain", "too late for him to be
    useful"): a proposition put forward, not asserted."""
    return _infinitive_to(verb) is not None and any(c.dep_ == "mark" and c.lower_ == "for" for c in verb.children)


def _infinitive_to(verb: Token) -> Token | None:
    """The "to" of an infinitive verb ("to be"), None for a verb with none."""
    return next((c for c in verb.children if c.dep_ == "aux" and c.lower_ == "to"), None)


def _too_head(tok: Token) -> bool:
    """An adjective graded by "too" ("too great"), whose infinitive says what does not follow."""
    return tok.pos_ == "ADJ" and any(g.lower_ == "too" for g in tok.children)


DASH_CHARS = frozenset("-\u2013\u2014")
"""Characters of a dash token ("--", an en or em dash), which may follow a clause's question mark."""
WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
"""Tags of wh-words ("how", "what", "which"), which make a question or exclamation of another kind."""


def _question(verb: Token, pred: Token | None) -> bool:
    """``verb``'s clause is a direct question that asks rather than asserts (data/gold/README.md: questioned
    properties): the verb or its auxiliary comes before its subject, a question mark ends the clause, and it
    is a yes-no question ("are you sure?", "Is she pretty?") or a wh-question about a state to come ("When
    shall you be ready?", "how shall I ever be able to return it?"). Other wh-questions presuppose the state
    ("how can you be so cross?", "why had she been so partial to it?"), and a wh-word grading the predicate
    exclaims ("how happy was she?"): both assert. A wh-word of a relative clause makes no question of its
    own ("Miss Bates, who passed near: are you mad?")."""
    subj = max((c for c in verb.children if c.dep_ in SUBJECT_DEPS), key=lambda t: t.i, default=None)
    if subj is None:  # the last subject: a vocative before it may be read as one too ("Miss Bates, are you mad?")
        return False
    first = min([verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))], key=lambda t: t.i)
    if first.i > subj.i:
        return False
    end = verb.right_edge  # the question mark is the clause's own punctuation or comes right after it
    while end.i > verb.i and (end.tag_ in QUOTE_TAGS or set(end.text) <= DASH_CHARS):  # "?\"", "?--" hung on it
        end = verb.doc[end.i - 1]
    after = next((t for t in verb.doc[end.i + 1:end.i + 3] if not t.is_space and t.tag_ not in QUOTE_TAGS), None)
    if not (end.text == "?" or (after is not None and after.text == "?")):
        return False
    wh = [t for t in verb.doc[verb.left_edge.i:first.i] if t.tag_ in WH_TAGS and not _in_relative_clause(t, verb)]
    if not wh:
        return True
    graded = pred is not None and any(pred.left_edge.i <= t.i <= pred.right_edge.i for t in wh)
    return not graded and any(c.dep_ == "aux" and c.lower_ in FUTURE_MODALS for c in verb.children)


def _in_relative_clause(tok: Token, verb: Token) -> bool:
    """``tok`` sits in a relative clause below ``verb`` (its head chain crosses a ``relcl`` before ``verb``)."""
    while tok.i != verb.i and tok.head.i != tok.i:
        if tok.dep_ == "relcl":
            return True
        tok = tok.head
    return False


def _future_time_clause(verb: Token) -> bool:
    """``verb`` heads a present-tense time clause of a main clause in the future (FUTURE_MODALS:
    "When Tom is better, I shall go", "how shall you employ yourself when you grow old?"): a state still to
    come, which the text supposes like an "if" clause rather than asserts."""
    if verb.dep_ != "advcl" or verb.tag_ not in ("VBZ", "VBP") \
            or not any(c.dep_ in ("mark", "advmod") and c.lower_ in FUTURE_TIME_MARKS for c in verb.children):
        return False
    main = verb.head
    return any(c.dep_ == "aux" and c.lower_ in FUTURE_MODALS for c in main.children)


def _subjunctive_were(verb: Token) -> bool:
    """"were" after a singular subject: "till he were old", "if Emma were rich", "were it a decided thing";
    after a common noun only in a subordinate or inverted clause, as a collective noun takes "were" in
    British English ("her own family were plain, matter-of-fact people")."""
    if verb.lower_ != "were" and not any(c.dep_ in ("auxpass", "aux") and c.lower_ == "were" for c in verb.children):
        return False
    subj = find_subject(verb)
    if subj is None or any(c.dep_ == "conj" for c in subj.children) or _list_apposition(subj) is not None:
        return False  # "Henry and Catherine were", "his father, Mr. Knightley, and Mr. Cole were": plural
    if subj.tag_ == "NN":
        return subj.i > verb.i or any(c.dep_ == "mark" for c in verb.children)
    return subj.lower_ in ("i", "he", "she", "it") or subj.tag_ == "NNP"


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
    while noun.dep_ == "conj" and noun.head is not noun:  # "without feelings of delight or vexation"
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
    """"not one agreeable quality", "not a single kind word": "not" before "one" or "a single" opening the
    noun phrase denies the noun as "no" does (not "not a": "He is not a young man" is bound in the gold)."""
    doc, first = noun.doc, noun.left_edge
    if first.lower_ == "not" and first.i + 1 < noun.i:  # "Not one sailor is hurt": "not" inside the phrase
        first = doc[first.i + 1]
    elif first.i == 0 or doc[first.i - 1].lower_ != "not":
        return False
    return first.lower_ == "one" or (first.lower_ in ("a", "an") and doc[first.i + 1].lower_ == "single")


def than_follows(adj: Token) -> bool:
    """A "than" comparison of the adjective, or of a coordination that shares one "more" / "less" ("more
    heavy, restless, and uncomfortable than before"; not "young, pretty and taller than her sister"), or
    the adjective is what is exceeded ("with more than common certainty": uncommon, a comparison too)."""
    if _than_after(adj) or _than_before(adj) or _than_later(adj):
        return True
    first = adj
    while first.dep_ == "conj" and first.head.pos_ == "ADJ" and first.head is not first:
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
    if adj.pos_ != "ADJ" or adj.dep_ != "advmod" or verb is adj or verb.pos_ not in ("VERB", "AUX") \
            or adj.lower_ not in load_flat_adverbs():
        return False
    if adj.lower_ == "better" and any(c.dep_ == "aux" and c.lower_ in ("had", "'d") for c in verb.children):
        return True  # "you had better go": a modal idiom, whatever the verb
    if verb.lemma_ in OBJECT_PREDICATE_VERBS and any(c.dep_ == "dobj" and c.i < adj.i for c in verb.children):
        return False  # an object predicate the parser misread: "no reason to believe him rich"
    return verb.lemma_ not in PREDICATE_VERBS and attach(adj).target < 0


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


EPITHETS = frozenset({"poor", "dear", "dearest"})
"""Adjectives that, capitalised before a name, are an epithet and no word of the name ("Poor Tom", "Dear
Emma"), unlike "Great Britain" or "Frank Churchill" (the tagger makes both PROPN)."""


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


def is_expletive_it(tok: Token) -> bool:
    """Expletive 'it': dep expl, or subject of a predicate with an extraposed clause ("it was necessary
    to go", "it is true that...", "it seemed that...", "it was impossible for her to be", and of an object
    predicate: "made it clear that...", "found it hard to believe")."""
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
        if c.dep_ in ("advcl", "ccomp") and _extraposable(c) and predicates and not any(
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


# ----------------------------------------------------------------------------------------------
# Mentions and coreference


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
    if _pronoun_noun_phrase(tok):  # never joins another "one" by lemma; "somebody" is a person, "it" not
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
                    subj = find_subject(tok.head) if tok.head is not tok else None
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


# ----------------------------------------------------------------------------------------------
# Pair features


def dep_path(a: Token, b: Token) -> str:
    """Dependency path from ``a`` up to the lowest common ancestor and down to ``b``:
    "nsubj^acomp" (a is nsubj of the LCA, b its acomp); '^amod' style when a is the LCA; 'far' when
    longer than MAX_PATH edges."""
    up_a = [a] + list(a.ancestors)
    up_b = [b] + list(b.ancestors)
    idx_b = {t.i: k for k, t in enumerate(up_b)}
    for k, t in enumerate(up_a):
        if t.i in idx_b:
            left = [x.dep_ for x in up_a[:k]]
            right = [x.dep_ for x in reversed(up_b[:idx_b[t.i]])]
            if len(left) + len(right) > MAX_PATH:
                return "far"
            return ">".join(left) + "^" + ">".join(right)
    return "far"


def _governing_verb(tok: Token) -> int:
    """The nearest VERB/AUX at or above ``tok`` (the clause it belongs to), -1 if none."""
    for t in [tok] + list(tok.ancestors):
        if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("amod", "acomp", "auxpass", "aux"):
            return t.i
    return -1


def _word_positions(doc: Doc) -> list[int]:
    """Position of each token counting only non-space tokens (hard line breaks are SPACE tokens)."""
    pos, out = 0, []
    for t in doc:
        out.append(pos)
        if not t.is_space:
            pos += 1
    return out


def _sentence_ids(doc: Doc) -> tuple[list[int], list[Span]]:
    ids = [0] * len(doc)
    sents = list(doc.sents)
    for k, s in enumerate(sents):
        for i in range(s.start, s.end):
            ids[i] = k
    return ids, sents


def _sent_mentions_between(mention_pos: list[int], lo: int, hi: int) -> int:
    return sum(1 for p in mention_pos if lo < p < hi)


QUOTATION_MARKS = frozenset({'"', "\u201c", "\u201d", "``", "''"})
"""Double quotation marks (straight, curly, and the PTB-style pairs): a quotation mark whatever the tag."""
QUOTE_TAGS = frozenset({"``", "''"})
"""The tagger's tags for an opening and a closing quotation mark. They tell a single quote ("'Very true,'
said Frank", as British editions print dialogue) from an apostrophe, which is tagged POS or part of a
word ("boys'", "isn't")."""


def _quote_marks_before(doc: Doc) -> list[int]:
    """For each token, how many quotation marks (QUOTATION_MARKS, or a token tagged as one) come before it."""
    count, out = 0, []
    for t in doc:
        out.append(count)
        count += t.text in QUOTATION_MARKS or t.tag_ in QUOTE_TAGS
    return out


def entity_mentions(doc: Doc, sent_of: list[int] | None = None) -> list[Mention]:
    """All entity mentions of ``doc`` in token order, with ``ent_id`` and ``antecedent`` resolved."""
    if sent_of is None:
        sent_of = _sentence_ids(doc)[0]
    mentions = [make_mention(t, kind, sent_of[t.i]) for t in doc if (kind := mention_kind(t))]
    resolve_entities(doc, mentions)
    return mentions


def extract_candidates(doc: Doc, doc_id: str, max_distance: int = 12) -> list[dict]:
    """Candidate rows for one parsed passage, ordered by (ent_i, attr_i); columns CANDIDATE_COLUMNS.

    Types: ints for sent, ent_i, attr_i, *_start, *_end, ent_id, antecedent_i, attr_target_i,
    distance, nouns_between, quotes_between; bools for ent_person, ent_plural, ent_definite, ent_subject,
    antecedent_person, same_clause, negated, non_asserted, neg_det, than_follows, in_name, adverbial_idiom,
    expletive_it, attr_before,
    nearest_mention, next_mention, nearest_person; strings for the rest ('' when empty).
    """
    sent_of, sents = _sentence_ids(doc)
    words, quotes = _word_positions(doc), _quote_marks_before(doc)
    mentions = entity_mentions(doc, sent_of)
    by_i = {m.i: m for m in mentions}
    attrs = [t for t in doc if is_attribute(t)]
    if not attrs or not mentions:
        return []
    name_ents = multiword_name_ents(doc)
    lexicon = load_lexicon()
    mentions_in_sent: dict[int, list[Mention]] = {}
    for m in mentions:
        mentions_in_sent.setdefault(m.sent, []).append(m)

    sent_texts: dict[int, str] = {}  # Span.text walks the sentence's tokens: once per sentence, not per pair
    rows: list[dict] = []
    for adj in attrs:
        att = attach(adj)
        shared = conjoined_targets(att, doc)
        s = sent_of[adj.i]
        sent_mentions = mentions_in_sent.get(s, [])
        if not sent_mentions:
            continue
        if s not in sent_texts:
            sent_texts[s] = sents[s].text
        attr_feats = _attribute_features(adj, att, name_ents, lexicon)
        attr_gov = _governing_verb(adj)
        wpos = [words[m.i] for m in sent_mentions]
        dists = [abs(p - words[adj.i]) for p in wpos]
        nearest = min(range(len(sent_mentions)), key=lambda k: (dists[k], -sent_mentions[k].i))
        after = [m for m in sent_mentions if m.i > adj.i]
        persons = [k for k, m in enumerate(sent_mentions) if m.person]
        nearest_person = min(persons, key=lambda k: (dists[k], -sent_mentions[k].i)) if persons else -1
        for k, m in enumerate(sent_mentions):
            linked = m.i == att.target or m.i in shared
            if dists[k] > max_distance and not linked:
                continue
            tok = doc[m.i]
            lo, hi = sorted((words[m.i], words[adj.i]))
            ante = doc[m.antecedent] if m.antecedent >= 0 else None
            row = {
                "cand_id": f"{doc_id}:{m.i}:{adj.i}", "doc_id": doc_id, "sent": s,
                "ent_i": m.i, "attr_i": adj.i,
                "ent_start": tok.idx, "ent_end": tok.idx + len(tok.text),
                "attr_start": adj.idx, "attr_end": adj.idx + len(adj.text),
                "ent_id": m.ent_id, "antecedent_i": m.antecedent,
                "ent_text": tok.text, "ent_lower": tok.lower_, "ent_lemma": tok.lemma_.lower(),
                "ent_pos": tok.pos_, "ent_tag": tok.tag_, "ent_dep": tok.dep_, "ent_type": tok.ent_type_,
                "ent_kind": m.kind, "ent_name": m.name_text, "ent_person": m.person,
                "ent_plural": m.plural, "ent_gender": m.gender, "ent_definite": m.definite,
                "ent_subject": tok.dep_ in SUBJECT_DEPS,
                "antecedent_text": ante.text if ante is not None else "",
                "antecedent_person": by_i[ante.i].person if ante is not None else False,
                **attr_feats,
                "relation": att.relation if linked else "none",
                "base_relation": att.base_relation if linked else "none",
                "attr_target_i": m.i if linked else att.target,
                "same_clause": attr_gov >= 0 and attr_gov == _governing_verb(tok),
                "dep_path": dep_path(tok, adj),
                "distance": dists[k],
                "nouns_between": _sent_mentions_between(wpos, lo, hi),
                "quotes_between": abs(quotes[m.i] - quotes[adj.i]),
                "attr_before": adj.i < m.i,
                "nearest_mention": k == nearest,
                "next_mention": bool(after) and after[0].i == m.i,
                "nearest_person": k == nearest_person,
                "expletive_it": m.expletive,
                "sent_text": sent_texts[s],
            }
            rows.append(row)
    rows.sort(key=lambda r: (r["ent_i"], r["attr_i"]))
    return [{c: r[c] for c in CANDIDATE_COLUMNS} for r in rows]


def _attribute_features(adj: Token, att: Attachment, name_ents: dict[int, Span], lexicon) -> dict:
    lemma = attribute_lemma(adj)
    doc = adj.doc
    gov = ""
    if att.gov >= 0:
        verb = doc[att.gov]
        if verb.i == att.first:  # a passive participle or a small clause: the auxiliary, if any
            gov = next((c.lemma_.lower() for c in verb.children if c.dep_ in ("auxpass", "cop")), "")
        else:
            gov = _linking_chain(verb).lemma_.lower()
    return {
        "attr_text": adj.text, "attr_lower": adj.lower_, "attr_lemma": lemma, "attr_pos": adj.pos_,
        "attr_tag": adj.tag_, "attr_dep": adj.dep_, "attr_type": lexicon.get(lemma, ""),
        "attr_conj_lemmas": conjoined_predicate_lemmas(adj), "gov_lemma": gov,
        "negated": is_negated(adj, att), "non_asserted": is_non_asserted(att, doc),
        "neg_det": has_negative_det(att, doc),
        "than_follows": than_follows(adj), "prep": prep_of(adj),
        "in_name": in_name(adj, name_ents), "adverbial_idiom": adverbial_idiom(adj),
    }


def extract_many(docs: Iterable[tuple[str, Doc]], max_distance: int = 12) -> list[dict]:
    """Candidates of several (doc_id, Doc) pairs, in the given order."""
    out: list[dict] = []
    for doc_id, doc in docs:
        out.extend(extract_candidates(doc, doc_id, max_distance=max_distance))
    return out


__all__ = ["CANDIDATE_COLUMNS", "extract_candidates", "extract_many", "entity_mentions", "attach",
           "is_attribute", "mention_kind", "resolve_entities", "attribute_type"]
