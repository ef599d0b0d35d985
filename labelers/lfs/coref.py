"""Pronoun-subject bindings through the coreference heuristic (antecedent_i from extraction)."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lexicon import PERSON_TYPES, load_lexicon
from labelers.lfs._util import BLOCK, blocked, flag, num, text

PREDICATE_RELATIONS = frozenset({"predicative", "depictive", "conj"})
PERSON_PRONOUNS = frozenset({"he", "she", "him", "her", "himself", "herself"})


@labeling_function(resources=dict(block=BLOCK, relations=PREDICATE_RELATIONS))
def lf_coref_pronoun_subject(x, block, relations):
    """A resolved pronoun subject with a predicative adjective: "Emma ... She was tired" -> (She, tired)."""
    ok = (text(x.ent_kind) == "pron" and flag(x.ent_subject) and num(x.antecedent_i) >= 0
          and text(x.relation) in relations)
    return BOUND if ok and not blocked(x, block) else ABSTAIN


@labeling_function(resources=dict(block=BLOCK, pronouns=PERSON_PRONOUNS, lexicon=load_lexicon(),
                                  person_types=PERSON_TYPES))
def lf_coref_person_pronoun_trait(x, block, pronouns, lexicon, person_types):
    """he/she resolved to a person, subject of the clause, a person-type adjective after it in that
    clause (no other mention between, not attached to another word) -> BOUND; parse-light version of the pronoun-subject rule."""
    ok = (text(x.ent_lower) in pronouns and flag(x.ent_subject) and flag(x.antecedent_person)
          and flag(x.same_clause) and not flag(x.attr_before) and num(x.nouns_between, 1) == 0
          and lexicon.get(text(x.attr_lemma)) in person_types and num(x.attr_target_i) in (-1, num(x.ent_i)))
    return BOUND if ok and not blocked(x, block) else ABSTAIN


@labeling_function()
def lf_coref_unresolved_it(x):
    """"it" with no antecedent but a predicate: situational / expletive it -> NOT_BOUND."""
    ok = text(x.ent_lower) == "it" and num(x.antecedent_i) < 0 and text(x.relation) not in ("", "none")
    return NOT_BOUND if ok else ABSTAIN


LFS = [lf_coref_pronoun_subject, lf_coref_person_pronoun_trait, lf_coref_unresolved_it]
