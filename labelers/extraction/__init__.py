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
    everything, somebody...), demonstrative, "all", "both" and "each" subjects ("This is full", "Both were
    silent"), a demonstrative with an "of" phrase ("those of the middle one") and "one" after a determiner
    or a possessive ("an odd one", "my narrow leather one") are mentions of kind noun
    (``pronoun_noun_phrase``: nothing to resolve).
* Attribute: pos ADJ; a participle (tag VBN/VBG) used as ``amod``/``acomp``/``oprd`` ("tarred twine");
  another participle that names a state (``is_adjectival_participle``: "quite overcome", "seemed
  impelled", "found herself obliged", "with his eyes fixed", "is landlocked and hilly"; never one with
  an agent);
  a passive participle whose word form is in the attribute lexicon ("he was seated"; not a feeling with
  its cause as agent, "was startled by a rap": ``_caused_feeling``), or such a
  participle set off by a comma after its noun or its clause ("Miss Bingley, seated near him";
  "stood her ground, determined to hear all": ``set_off_state``); a capitalised
  word that the lexicon knows as an adjective inside a proper name ("Great Britain", so that the
  in-name LF can vote on it); a proper adjective on a common noun ("the Ugandan government",
  ``is_proper_adjective``), which is then no mention itself; a word the tagger called a noun that is
  only ever an adjective (resources/adjective_forms.json) before its noun or after a linking or posture
  verb ("her doting mother", "he was headstrong", "sat motionless": ``_mistagged_adjective``), or, in
  any base-form tag, conjoined with an adjective ("thin and gaunt", gaunt/VB: ``_mistagged_conjunct``),
  which is then no mention either; a participle conjoined with an attributive adjective before the same noun ("a
  young and rapidly increasing population": ``_prenominal_conjunct``); an un- participle that is only
  ever an adjective, even with a by-phrase ("wholly unmoved by any feeling": ``_negative_state``); a past
  participle the tagger read as a verb right before its noun ("and deflated asset prices constricted":
  ``misread_prenominal_participle``), attached to that noun. Never
  an attribute: a word form that is no adjective ("hereafter", "selfishness": ``_never_attribute_form``), a
  word WordNet lists only as a noun that the tagger called an adjective ("codfish vertebra":
  ``_noun_tagged_adjective``),
  a past verb the tagger reads as an adjective of its object ("in 1988 permanently relinquished Jordanian
  claims": ``_misread_verb``), an adjective grading the next adjective ("real pretty":
  ``_grades_adjective``), unless both stand before their noun ("a long awkward passage": ``stacked_on``,
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
  ... any", a subject opened by "not a"), in_name (a word of a proper name, not an epithet such as "Poor"
  in "Poor Isabella!"), adverbial_idiom (used as an adverb: "in short", "at last", "thought ill of him",
  "stopped short"), opens_phrase (an attributive adjective with no determiner, possessive, number or other
  modifier before it: "little hope", not "a little hope"), in_compound (the first part of a hyphenated
  compound noun: "good-humour", "ill-health"; not "low-cost labour").
* ent_id: a document-level entity id (ints from 0 in order of first mention), see ``resolve_entities``.

Modules, each importing only those above it: ``vocab`` (closed word classes), ``clauses`` (subjects, objects
and predicates), ``attributes`` (token classes), ``attachment`` (relation and target), ``assertion`` (negated,
non-asserted), ``flags`` (the other flags), ``mentions`` (mentions and coreference), ``candidates`` (pair
features and the table).
"""
from labelers.extraction.assertion import is_negated, is_non_asserted
from labelers.extraction.attachment import attach
from labelers.extraction.attributes import is_attribute, mention_kind
from labelers.extraction.candidates import CANDIDATE_COLUMNS, entity_mentions, extract_candidates, extract_many
from labelers.extraction.flags import adverbial_idiom, than_follows
from labelers.extraction.mentions import resolve_entities


__all__ = ["CANDIDATE_COLUMNS", "extract_candidates", "extract_many", "entity_mentions", "attach", "is_attribute",
           "mention_kind", "resolve_entities", "is_negated", "is_non_asserted", "than_follows", "adverbial_idiom"]
