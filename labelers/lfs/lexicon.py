"""Attribute-lexicon LFs: the adjective's type (labelers/resources/attribute_lexicon.json) against the
kind of mention, largely independent of the parse."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND
from labelers.lexicon import PERSON_TYPES, PHYSICAL_TYPES, attribute_type, load_lexicon  # noqa: F401
from labelers.lfs._util import BLOCK, blocked, flag, modifies_a_noun, num, text

_R = dict(block=BLOCK, lexicon=load_lexicon(), person_types=PERSON_TYPES, physical_types=PHYSICAL_TYPES)


@labeling_function(resources=_R)
def lf_lexicon_person_trait(x, block, lexicon, person_types, physical_types):
    """A person-type adjective (emotion, character, intellect, health, social) and the nearest
    person-like mention of the same clause, at most 6 words away, the adjective not attached to another
    word -> BOUND."""
    ok = (lexicon.get(text(x.attr_lemma)) in person_types and flag(x.ent_person)
          and flag(x.nearest_person) and flag(x.same_clause) and num(x.distance, 99) <= 6
          and num(x.attr_target_i) in (-1, num(x.ent_i)))
    return BOUND if ok and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_lexicon_physical_prenominal(x, block, lexicon, person_types, physical_types):
    """A physical-type adjective (colour, size, shape, age, appearance...) and the next mention after it,
    no mention between, at most 3 words, the adjective a noun modifier and the mention no modifier of another
    noun -> BOUND ("a large old house" -> house; not "large Shia-majority population" -> Shia)."""
    ok = (lexicon.get(text(x.attr_lemma)) in physical_types and text(x.attr_dep) in ("amod", "compound", "conj")
          and flag(x.attr_before) and flag(x.next_mention)
          and num(x.nouns_between, 1) == 0 and num(x.distance, 99) <= 3 and text(x.ent_kind) != "pron"
          and not modifies_a_noun(x))
    return BOUND if ok and not blocked(x, block) else ABSTAIN


LFS = [lf_lexicon_person_trait, lf_lexicon_physical_prenominal]
