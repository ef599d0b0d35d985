"""Closed word classes and tag and dependency sets that several parts of extraction read."""
from __future__ import annotations


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
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
CLAUSE_END_MARKS = frozenset({".", "!", "?", ";", ":"})
"""Punctuation that ends a clause, which a reporting clause between two halves of a quotation never holds."""
LEMMA_FIXES = {"hoped": "hope", "hoping": "hope", "farther": "further"}
"""Word forms the small English pipeline lemmatises wrongly ("hoped" -> "hop"; "any farther allusion" is
"further", determiner-like, not "far")."""
RELATIVE_PRONOUNS = frozenset({"who", "which", "that", "whom"})
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
PREDICATE_DEPS = frozenset({"acomp", "attr", "oprd", "xcomp", "ccomp", "advcl"})
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
VOCATIVE_PARTNERS = frozenset({"i", "you", "we", "it"})
"""Subjects beside which a name set off by commas is the one addressed, not a second subject ("Elinor, for
some time after ..., remained" has one subject, and "Thorpe, for she ..." a subject of each clause)."""
CLAUSE_DEPS = frozenset({"aux", "auxpass", "mark"})
FINITE_VERB_TAGS = frozenset({"VBD", "VBZ", "VBP", "VB", "MD"})
RESULT_VERBS = frozenset({"make", "render", "find", "think", "consider", "keep", "leave", "deem", "believe",
                          "hold", "judge", "declare", "call", "wish", "want", "like", "prefer"})
"""Verbs that take an object predicate ("render it necessary", "thought her handsome")."""
OBJECT_PREDICATE_VERBS = RESULT_VERBS | {"fancy", "have", "lay", "set", "get", "suppose", "imagine"}
"""Verbs whose adjective after an object may describe that object ("fancied myself unwell", "to have you
so rich", "lay me open to"), however the parser attached it."""
TIME_NOUNS = frozenset({"time", "moment", "instant", "while", "minute", "second", "hour", "day", "week"})
"""Nouns of a duration adverbial ("for a short time"), which an adjective after them does not describe."""


INVERTED_DEGREE = frozenset({"little", "much"})
"""Fronted before an inverted copula, a degree ("so little were they in the habit of", "so much was she
changed"), not a predicate (``inverted_predicate``)."""


DASH_CHARS = frozenset("-\u2013\u2014")
"""Characters of a dash token ("--", an en or em dash), which may follow a clause's question mark."""


EPITHETS = frozenset({"poor", "dear", "dearest"})
"""Adjectives that, capitalised before a name, are an epithet and no word of the name ("Poor Tom", "Dear
Emma"), unlike "Great Britain" or "Frank Churchill" (the tagger makes both PROPN)."""
QUOTE_TAGS = frozenset({"``", "''"})
"""The tagger's tags for an opening and a closing quotation mark. They tell a single quote ("'Very true,'
said Frank", as British editions print dialogue) from an apostrophe, which is tagged POS or part of a
word ("boys'", "isn't")."""
ARCHAIC_PRONOUNS = frozenset({"thou", "thee", "thy", "thine", "ye"})
"""Pronouns of older English that the tagger sometimes reads as adjectives ("Thou shalt see", "dost thou
sign") or as nouns ("thou makest"); never an attribute, nor a subject the parser made a compound."""
