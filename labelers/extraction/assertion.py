"""Flags on an adjective: negated (a negator on it or its verbs) and non-asserted (hypothetical,
conditional, wished or attempted, asked)."""
from __future__ import annotations

from typing import Iterator

from spacy.tokens import Doc, Token

from labelers.extraction.attachment import list_apposition
from labelers.extraction.clauses import Attachment, find_subject, has_subject, infinitive_to
from labelers.extraction.vocab import DASH_CHARS, FINITE_VERB_TAGS, LEMMA_FIXES, QUOTE_TAGS, SUBJECT_DEPS


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
NEG_RAISING_VERBS = frozenset({"think", "believe", "suppose", "imagine", "appear", "seem", "fancy"})
"""Verbs whose negation denies their that-clause ("It does not appear that my hand is unworthy", "I do not
think he is rich"); not "know" ("I did not know that she was ill" asserts it)."""


def _verb_chain(att: Attachment, doc: Doc) -> list[Token]:
    """The governing verb and the verbs it is an xcomp of ("did not seem to be happy"), up to a gerund of
    "help" ("could not help feeling anxious")."""
    if att.gov < 0:
        return []
    chain, verb = [doc[att.gov]], doc[att.gov]
    while verb.dep_ == "xcomp" and verb.head.i != verb.i and len(chain) < 4:
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
    if verb.dep_ != "ccomp" or head.i == verb.i or head.lemma_ not in NEG_RAISING_VERBS \
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
            and infinitive_to(chain[-1]) is not None:
        return True  # "expected him to be useful"
    pred = doc[att.first] if att.first >= 0 else None
    return _subjunctive_were(chain[0]) or _question(chain[-1], pred) or _future_time_clause(chain[-1])


def _obliged_action(verb: Token) -> bool:
    """A verb other than "be" under "must" without a perfect "have" ("I must set her right", "you must keep
    him quiet"): an obligation. "must be" ("you must be tired") and "must have found" are inferences, which
    assert."""
    auxes = {c.lower_ for c in verb.children if c.dep_ == "aux"}
    if not auxes and verb.dep_ == "conj" and not has_subject(verb):  # "must run after her and set her right"
        auxes = {c.lower_ for c in verb.head.children if c.dep_ == "aux"}
    return verb.lemma_ != "be" and "must" in auxes and not auxes & {"have", "'ve"}


def _be_to(verb: Token) -> bool:
    """A "to" infinitive right after a finite "be" (adverbs between at most) that is its xcomp ("we are to be
    thankful", "the hours were soon to be early"): an obligation or an arrangement, not a fact. Not after
    "it" ("new as it was to imagine herself capable": an extraposed subject) nor after a phrase ("she was in
    a state of mind to be glad")."""
    be = verb.head
    to = infinitive_to(verb)
    if verb.dep_ != "xcomp" or be is verb or be.lemma_ != "be" or be.tag_ not in FINITE_VERB_TAGS or to is None:
        return False
    if to.i < be.i or not all(t.pos_ in ("ADV", "PART") for t in verb.doc[be.i + 1:to.i]):
        return False
    subject = find_subject(be)
    return subject is None or subject.lower_ != "it"


def _for_to(verb: Token) -> bool:
    """A "for ... to" infinitive ("it was difficult for her to be quite certain", "too late for him to be
    useful"): a proposition put forward, not asserted."""
    return infinitive_to(verb) is not None and any(c.dep_ == "mark" and c.lower_ == "for" for c in verb.children)


def _too_head(tok: Token) -> bool:
    """An adjective graded by "too" ("too great"), whose infinitive says what does not follow."""
    return tok.pos_ == "ADJ" and any(g.lower_ == "too" for g in tok.children)
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
    if subj is None or any(c.dep_ == "conj" for c in subj.children) or list_apposition(subj) is not None:
        return False  # "Henry and Catherine were", "his father, Mr. Knightley, and Mr. Cole were": plural
    if subj.tag_ == "NN":
        return subj.i > verb.i or any(c.dep_ == "mark" for c in verb.children)
    return subj.lower_ in ("i", "he", "she", "it") or subj.tag_ == "NNP"
