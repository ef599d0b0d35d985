"""labelers.lfs.distance and labelers.lfs.lexicon."""
from lf_helpers import check_votes

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs import distance, lexicon

LONG = "The young officer, whom everybody in the village admired for his manners, left early."
PRETTY = "She was a pretty girl."


def test_far_unlinked(parser):
    check_votes(parser, distance.lf_far_unlinked, [
        (LONG, "manners", "young", NOT_BOUND),
        ("The red ball rolled under the table.", "ball", "red", ABSTAIN),  # linked
        ("The ball hit the red cat.", "ball", "red", ABSTAIN),  # unlinked but near
    ])


def test_noun_between_unlinked(parser):
    check_votes(parser, distance.lf_noun_between_unlinked, [
        ("The red ball hit the cat.", "cat", "red", NOT_BOUND),
        ("The red ball hit the cat.", "ball", "red", ABSTAIN),
    ])


def test_attached_elsewhere(parser):
    check_votes(parser, distance.lf_attached_elsewhere, [
        (PRETTY, "She", "pretty", NOT_BOUND),  # pretty attaches to girl
        (PRETTY, "girl", "pretty", ABSTAIN),
    ])


def test_across_quotes(parser):
    check_votes(parser, distance.lf_across_quotes, [
        ('"Yes, very true," cried Frank.', "Frank", "true", NOT_BOUND),  # speech and narration
        ('"Good heavens!" cried Catherine, quite frightened.', "heavens", "frightened", NOT_BOUND),
        ('"Good heavens!" cried Catherine, quite frightened.', "Catherine", "frightened", ABSTAIN),
        ('\u201cThe old man is tired,\u201d she said.', "man", "tired", ABSTAIN),  # both inside one quotation
        ("'Very true,' said Frank.", "Frank", "true", NOT_BOUND),  # single quotes, as British editions print
        ("The boys' dog isn't tired.", "dog", "tired", ABSTAIN),  # apostrophes are no quotation marks
    ])


def test_unattached_unlinked(parser):
    check_votes(parser, distance.lf_unattached_unlinked, [
        ("In general the girls were away.", "girls", "general", NOT_BOUND),
        (PRETTY, "She", "pretty", ABSTAIN),  # attached (to girl): lf_attached_elsewhere's case
        (PRETTY, "girl", "pretty", ABSTAIN),
    ])


def test_adjacent_prenominal(parser):
    check_votes(parser, distance.lf_adjacent_prenominal, [
        (PRETTY, "girl", "pretty", BOUND),
        (PRETTY, "She", "pretty", ABSTAIN),
        ("The other girl came home.", "girl", "other", ABSTAIN),
        ("Prices abated following low global food and fuel prices.", "food", "global", ABSTAIN),  # "food" modifies
    ])


def test_lexicon_person_trait(parser):
    check_votes(parser, lexicon.lf_lexicon_person_trait, [
        ("Mr. Knightley was sensible.", "Knightley", "sensible", BOUND),
        ("She was a sensible woman.", "woman", "sensible", BOUND),
        ("She was a sensible woman.", "She", "sensible", ABSTAIN),  # attached to woman
        ("The room was large.", "room", "large", ABSTAIN),  # not a person type / entity
    ])


def test_lexicon_physical_prenominal(parser):
    check_votes(parser, lexicon.lf_lexicon_physical_prenominal, [
        ("They lived in a large old house.", "house", "large", BOUND),
        ("They lived in a large old house.", "house", "old", BOUND),
        ("He was a sensible man.", "man", "sensible", ABSTAIN),  # character, not physical
        ("They lived in a large old house.", "They", "large", ABSTAIN),
        ("It manages relations with its large Shia-majority population.", "Shia", "large", ABSTAIN),
    ])
