"""Attachment: what an adjective is asserted of (its relation and target token), and the nouns that
share a predicate's target."""
from __future__ import annotations

from spacy.tokens import Doc, Token

from labelers.extraction.attributes import (absolute_with, copula_predicate, is_attribute, mention_kind,
                                            misread_initial_adjective, misread_prenominal_participle, mistagged_stacked,
                                            passive_subject, predicate_well, rank_predicate,
                                            set_off_state, stacked_on)
from labelers.extraction.clauses import (Attachment, comma_between, find_subject, graded_adverb, has_subject,
                                         infinitive_to, inverted_predicate, noun_head, object_predicate,
                                         own_subject, subject_attachment, verb_object, verb_predicate)
from labelers.extraction.vocab import (DASH_CHARS, GRADERS, LINKING_VERBS, MISTAGGED_PREDICATE_DEPS, PREDICATE_DEPS,
                                       RESULT_VERBS, TIME_NOUNS)


EPITHET_HEAD_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "npadvmod"})
"""Roles of a noun phrase's head (an adjective that the parser made one has lost its noun)."""


NO_ATTACHMENT = Attachment(-1, "none", "none", -1, -1)


def hyphen_glued(adj: Token, noun: Token) -> bool:
    """``adj`` and ``noun`` are one hyphenated word ("low-cost", "good-humour"): a hyphen between them and
    no space on either side."""
    doc = adj.doc
    return (noun.i == adj.i + 2 and doc[adj.i + 1].text == "-" and not adj.whitespace_
            and not doc[adj.i + 1].whitespace_)


def hyphen_compound_head(adj: Token, noun: Token) -> Token:
    """The noun that a hyphenated compound modifier describes: "low-cost labour" -> labour (spaCy parses
    "low" as a modifier of "cost"); ``noun`` itself when adj-noun is no such compound."""
    if hyphen_glued(adj, noun) and noun.dep_ in ("nmod", "amod", "compound") \
            and noun.head.pos_ in ("NOUN", "PROPN") and noun.head.i > noun.i:
        return noun.head
    return noun


def _direct_attachment(adj: Token) -> Attachment:
    """Attachment of an adjective that is not a later conjunct."""
    head, dep = adj.head, adj.dep_
    if adj.pos_ == "NOUN" and dep in MISTAGGED_PREDICATE_DEPS:  # "sat motionless": dobj, as if a noun
        dep = "acomp"
    repaired = _as_predicate(adj) or _postposed_on_time_noun(adj) or _predicate_past_of_phrase(adj) \
        or _possessed_epithet(adj) or _result_infinitive(adj) or _graded_before_article(adj) or _shifted_result(adj) \
        or _fronted_depictive(adj) or _wh_object_predicate(adj) or _measured_degree(adj) or _exclamative(adj) \
        or inverted_predicate(adj) or rank_predicate(adj) or _one_of_predicate(adj)
    if repaired is not None:
        return repaired
    described = misread_prenominal_participle(adj) or misread_initial_adjective(adj) or mistagged_stacked(adj)
    if described is not None:  # "whose pale and jaded looks", "Perfect happiness": the tagger read a verb
        return Attachment(described.i, "amod", "amod", -1, adj.i)
    absolute = absolute_with(adj)
    if absolute is not None:  # "with his eyes fixed": an object predicate of "with"
        return Attachment(absolute.i, "oprd", "oprd", -1, adj.i)
    stacked = stacked_on(adj)
    if stacked is not None:  # "a long awkward passage": attributive like the next adjective
        head, dep = stacked.head, "amod"
    described = set_off_state(adj)
    if described is not None:  # "Miss Bingley, seated near him"; "stood her ground, determined to hear"
        if adj.dep_ == "acl":
            relation = "appos" if adj.doc[adj.i - 1].text == "," else "amod"
            return Attachment(noun_head(described).i, relation, relation, -1, adj.i)
        return Attachment(noun_head(described).i, "depictive", "depictive", adj.head.i, adj.i)
    if dep in ("amod", "compound", "nmod") and head.i != adj.i and not _possessor_between(adj, head) \
            and not _dash_between(adj, head) \
            and (head.pos_ in ("NOUN", "PROPN", "PRON") or mention_kind(head) == "noun"):  # "great unkindness"/JJ
        target = noun_head(hyphen_compound_head(adj, head))
        relation = "amod"
        if adj.i > head.i and comma_between(head, adj):
            relation = "appos"
        return Attachment(target.i, relation, relation, -1, adj.i)
    if dep == "appos" and head.pos_ in ("NOUN", "PROPN", "PRON"):
        return Attachment(noun_head(head).i, "appos", "appos", -1, adj.i)
    subj = passive_subject(adj) if adj.tag_ == "VBN" else None
    if subj is not None:  # "he was seated"
        return subject_attachment(adj, adj, "predicative", subj)
    own_subj = own_subject(adj)
    if own_subj is not None:  # small clause: "found him asleep", "made him happy"
        if dep in ("ccomp", "xcomp", "oprd", "advcl", "conj", "dobj") and head.pos_ in ("VERB", "AUX") \
                and head.lemma_ not in LINKING_VERBS:
            return Attachment(own_subj.i, "oprd", "oprd", head.i, adj.i)
        return Attachment(own_subj.i, "predicative", "predicative", adj.i, adj.i)
    if predicate_well(adj):
        dep = "acomp"
    if dep in PREDICATE_DEPS and head.pos_ in ("VERB", "AUX") and head.i != adj.i:
        return verb_predicate(adj, head, dep)
    return Attachment(-1, "none", "none", -1, adj.i)


def _one_of_predicate(adj: Token) -> Attachment | None:
    """"investment per capita is one of the highest in Europe", "the country is among the poorest": a
    superlative with no noun of its own, in an "of" phrase of a predicate "one" or an "among" phrase of a
    linking verb, describes the verb's subject ("one of the highest birth rates" is attributive)."""
    superlative = adj.tag_ == "JJS" or any(c.lower_ in ("most", "least") and c.dep_ == "advmod" for c in adj.children)
    if adj.dep_ != "pobj" or not superlative:
        return None
    prep = adj.head
    if prep.lower_ == "of" and prep.head.lower_ == "one" and prep.head.dep_ in ("attr", "acomp"):
        verb = prep.head.head
    elif prep.lower_ == "among" and prep.dep_ == "prep":
        verb = prep.head
    else:
        return None
    return subject_attachment(adj, verb, "predicative") if verb.lemma_ in LINKING_VERBS else None


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


def _as_predicate(adj: Token) -> Attachment | None:
    """"treating their fears as idle", "he was regarded as foolish": an adjective object of "as" on a verb
    is an object predicate (of the object, or of the subject of a passive); None for other adjectives."""
    prep = adj.head
    if adj.dep_ not in ("pobj", "amod") or prep.lower_ != "as" or prep.dep_ != "prep" \
            or prep.head.pos_ not in ("VERB", "AUX") or prep.head is prep:
        return None
    verb = prep.head
    obj = verb_object(verb)
    if obj is not None:
        return object_predicate(adj, verb, obj)
    subj = passive_subject(verb)
    return subject_attachment(adj, verb, "oprd", subj) if subj is not None else None


def _result_infinitive(adj: Token) -> Attachment | None:
    """"walls so thick as to be impregnable", "argued the case ... as to be finally successful": the "as to
    be" infinitive of a result clause is asserted of what its clause (or the graded adjective it completes)
    is about, and negated or supposed with that clause; the parser often gives "be" a subject of its own
    from the words before it ("the ball, and herself, as to be"), which an infinitive cannot have. Only
    after "so" or "such" (a result clause needs one); None for other adjectives and for "so as to be", a
    purpose ("dressed so as to be admired")."""
    be = adj.head
    if adj.dep_ != "acomp" or be is adj or be.lemma_ != "be" or be.head is be \
            or infinitive_to(be) is None:
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
    return None if subj is None else subject_attachment(adj, gov, "predicative", subj)


def _graded_before_article(adj: Token) -> Attachment | None:
    """"so wretched an example", "too long a time", "how fine a day": an adjective graded by so / too / as /
    how stands before the article of its noun, which the parser then hangs on the adjective (as a pobj or
    npadvmod); it is attributive of that noun. None for other adjectives."""
    doc = adj.doc
    if adj.i + 2 >= len(doc) or doc[adj.i + 1].lower_ not in ("a", "an") \
            or not (adj.pos_ == "ADJ" or graded_adverb(adj)):
        return None
    if not any(c.dep_ in ("advmod", "mark") and c.lower_ in GRADERS and c.i == adj.i - 1
               for c in adj.children):  # "as complete a delusion as any": the first "as" parsed a mark
        return None
    noun = doc[adj.i + 1].head
    if noun.pos_ not in ("NOUN", "PROPN") or noun.i <= adj.i + 1 or noun.i > adj.i + 4 \
            or any(t.pos_ in ("VERB", "AUX", "PUNCT") for t in doc[adj.i + 2:noun.i]):
        return None
    return Attachment(noun_head(noun).i, "amod", "amod", -1, adj.i)


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
    return None if subj is None else Attachment(noun_head(subj).i, "predicative", "predicative", verb.i, adj.i)


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
    obj = verb_object(verb)
    if obj is None or obj.left_edge.i != adj.i + 1:
        return None
    return Attachment(noun_head(obj).i, "oprd", "oprd", verb.i, adj.i)


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
        return subject_attachment(adj, concession, "predicative", inner)
    return subject_attachment(adj, verb, "depictive", subj)


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
    obj = verb_object(verb)
    return object_predicate(adj, verb, obj) if obj is not None and obj.i > verb.i else None


def _measured_degree(adj: Token) -> Attachment | None:
    """"you are a great deal too apt", "he was a good deal older": "a great / good deal" grades the adjective
    after it, which the parser hangs on "deal" as if attributive; it is the predicate of the verb "deal"
    hangs on. None for other adjectives."""
    deal, verb = adj.head, adj.head.head
    if deal.lemma_ != "deal" or adj.i <= deal.i or verb.pos_ not in ("VERB", "AUX") or verb is deal \
            or not any(c.lower_ in ("great", "good") and c.i < deal.i for c in deal.children):
        return None
    return verb_predicate(adj, verb, "acomp")


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
            or comma_between(noun, adj):
        return None
    prep = noun.head
    if prep.dep_ != "prep" or prep.head.pos_ not in ("VERB", "AUX") or prep.head is prep:
        return None
    return verb_predicate(adj, prep.head, "acomp")


def _predicate_past_of_phrase(adj: Token) -> Attachment | None:
    """"to render a different disposal of the next presentation necessary": the parser hangs the object
    predicate of a verb in RESULT_VERBS on the noun of the object's "of" phrase; re-attach it to the
    object. None for other adjectives ("a heart of gold pure as snow")."""
    noun = adj.head
    if adj.dep_ != "amod" or noun.i >= adj.i or noun.dep_ != "pobj" or comma_between(noun, adj):
        return None
    prep = noun.head
    obj = prep.head
    if prep.lower_ != "of" or prep.dep_ != "prep" or obj.dep_ != "dobj" or obj.head.lemma_ not in RESULT_VERBS:
        return None
    return object_predicate(adj, obj.head, obj)


def attach(adj: Token) -> Attachment:
    """What ``adj`` is asserted of; later conjuncts inherit the first conjunct's target."""
    first, steps = adj, 0
    while first.dep_ == "conj" and first.head.i != first.i and not has_subject(first) and steps < 12:
        previous = first.head if is_attribute(first.head) else copula_predicate(first)
        if previous is None:
            break
        first, steps = previous, steps + 1
    base = _direct_attachment(first)
    if first.i == adj.i:
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
    list_appos = list_apposition(doc[att.target])
    if list_appos is not None:  # "his father, Mr. Knightley, Mr. Cox, and Mr. Cole, were left very busy"
        found.add(list_appos.i)
        todo.append(list_appos)
    while todo and len(found) < 12:
        for c in todo.pop().children:
            if c.dep_ == "conj" and c.i not in found and mention_kind(c) is not None:
                found.add(c.i)
                todo.append(c)
    return frozenset(found)


def list_apposition(noun: Token) -> Token | None:
    """The second item of a list the parser hung on the first as an apposition with the rest as its
    conjuncts ("his father, Mr. Knightley, Mr. Cox, and Mr. Cole": Knightley appos of father, Cox and Cole
    its conjuncts); an apposition with no conjunct ("his father, Mr. Weston") names the same one."""
    return next((c for c in noun.children if c.dep_ == "appos" and mention_kind(c) is not None
                 and any(g.dep_ == "conj" and mention_kind(g) is not None for g in c.children)), None)
