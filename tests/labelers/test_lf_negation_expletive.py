"""labelers.lfs.negation and labelers.lfs.expletive."""
from lf_helpers import check_votes

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs import expletive, negation


def test_negated(parser):
    check_votes(parser, negation.lf_negated, [
        ("She was not happy.", "She", "happy", NOT_BOUND),
        ("He was never tired.", "He", "tired", NOT_BOUND),
        ("She did not seem to be happy.", "She", "happy", NOT_BOUND),
        ("She was happy.", "She", "happy", ABSTAIN),
    ])


def test_negative_determiner(parser):
    check_votes(parser, negation.lf_negative_determiner, [
        ("There was no great beauty in her.", "beauty", "great", NOT_BOUND),
        ("There was a great beauty in her.", "beauty", "great", ABSTAIN),
    ])


def test_expletive_it(parser):
    check_votes(parser, expletive.lf_expletive_it, [
        ("It was necessary to go.", "It", "necessary", NOT_BOUND),
        ("It is true that she was poor.", "It", "true", NOT_BOUND),
        ("The box was heavy and it was old.", "it", "old", ABSTAIN),
    ])


def test_weather_it(parser):
    check_votes(parser, expletive.lf_weather_it, [
        ("It was cold.", "It", "cold", NOT_BOUND),
        ("It was late and dark.", "It", "late", NOT_BOUND),
        ("The soup was cold.", "soup", "cold", ABSTAIN),
        ("The box was heavy and it was old.", "it", "old", ABSTAIN),
    ])
