"""labelers.lfs.coref and labelers.lfs.noisy."""
from lf_helpers import check_votes

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs import coref, noisy

EMMA = "Emma Woodhouse came in. She was tired."


def test_coref_pronoun_subject(parser):
    check_votes(parser, coref.lf_coref_pronoun_subject, [
        (EMMA, "She", "tired", BOUND),
        ("Mr. Knightley called. Emma said he seemed angry.", "he", "angry", BOUND),
        ("She was tired.", "She", "tired", ABSTAIN),  # no antecedent
        ("Emma came in. She was not tired.", "She", "tired", ABSTAIN),  # negated
    ])


def test_coref_person_pronoun_trait(parser):
    check_votes(parser, coref.lf_coref_person_pronoun_trait, [
        (EMMA, "She", "tired", BOUND),
        ("Emma came in. She had a generous heart.", "She", "generous", ABSTAIN),  # attaches to heart
        ("The box came. It was heavy.", "It", "heavy", ABSTAIN),
    ])


def test_coref_unresolved_it(parser):
    check_votes(parser, coref.lf_coref_unresolved_it, [
        ("It was very pleasant.", "It", "pleasant", NOT_BOUND),
        ("The box came. It was heavy.", "It", "heavy", ABSTAIN),  # resolved to box
    ])


def test_noisy_nearest_mention(parser):
    check_votes(parser, noisy.lf_noisy_nearest_mention, [
        ("The red ball hit the cat.", "ball", "red", BOUND),
        ("The red ball hit the cat.", "cat", "red", ABSTAIN),
    ])


def test_noisy_clause_subject(parser):
    check_votes(parser, noisy.lf_noisy_clause_subject, [
        ("She had a pretty face.", "She", "pretty", BOUND),  # deliberately noisy: wrong here
        ("She was happy.", "She", "happy", BOUND),
        ("She had a pretty face.", "face", "pretty", ABSTAIN),
    ])
