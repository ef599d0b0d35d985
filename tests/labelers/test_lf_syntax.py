"""labelers.lfs.syntax: one firing and one non-firing case per LF, on hand-written sentences."""
from lf_helpers import check_votes

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs import syntax

EMMA = "Emma Woodhouse, handsome, clever, and rich, seemed to unite some of the best blessings of existence."


def test_attributive(parser):
    check_votes(parser, syntax.lf_attributive, [
        ("The red ball rolled under the table.", "ball", "red", BOUND),
        ("The tarred twine lay on the deck.", "twine", "tarred", BOUND),  # adjectival participle
        ("The red ball rolled under the table.", "table", "red", ABSTAIN),
        ("The other girl came home.", "girl", "other", ABSTAIN),  # determiner-like: guarded
    ])


def test_predicative_linking(parser):
    check_votes(parser, syntax.lf_predicative_linking, [
        ("Emma was handsome.", "Emma", "handsome", BOUND),
        ("She seemed happy.", "She", "happy", BOUND),
        ("He grew pale.", "He", "pale", BOUND),
        ("She seemed to be very happy.", "She", "happy", BOUND),
        ("He was seated by the fire.", "He", "seated", BOUND),
        ("She was not happy.", "She", "happy", ABSTAIN),  # negated: guarded
        ("She sat silent for a while.", "She", "silent", ABSTAIN),  # not a linking verb
    ])


def test_depictive(parser):
    check_votes(parser, syntax.lf_depictive, [
        ("She sat silent for a while.", "She", "silent", BOUND),
        ("She seemed happy.", "She", "happy", ABSTAIN),
    ])


def test_appositive(parser):
    check_votes(parser, syntax.lf_appositive, [
        (EMMA, "Woodhouse", "handsome", BOUND),
        (EMMA, "Woodhouse", "clever", ABSTAIN),  # a later conjunct: lf_conjunct's case
        (EMMA, "blessings", "best", ABSTAIN),
    ])


def test_conjunct(parser):
    check_votes(parser, syntax.lf_conjunct, [
        (EMMA, "Woodhouse", "clever", BOUND),
        (EMMA, "Woodhouse", "rich", BOUND),
        ("The man was tall and dark.", "man", "dark", BOUND),
        ("The man was tall and dark.", "man", "tall", ABSTAIN),
        (EMMA, "blessings", "rich", ABSTAIN),
    ])


def test_relative_clause(parser):
    check_votes(parser, syntax.lf_relative_clause, [
        ("There was a man who was rich.", "man", "rich", BOUND),
        ("He was a man who seemed rich.", "man", "rich", BOUND),
        ("He was a man who seemed rich.", "He", "rich", ABSTAIN),
    ])


def test_object_predicate(parser):
    check_votes(parser, syntax.lf_object_predicate, [
        ("They found him asleep.", "him", "asleep", BOUND),
        ("She made him happy.", "him", "happy", BOUND),
        ("They found him asleep.", "They", "asleep", ABSTAIN),
        ("She made him happy.", "She", "happy", ABSTAIN),
    ])


def test_adjective_as_noun(parser):
    check_votes(parser, syntax.lf_adjective_as_noun, [
        ("The husband of the eldest came in.", "husband", "eldest", NOT_BOUND),
        ("The red ball rolled under the table.", "ball", "red", ABSTAIN),
        ("But, my dearest Catherine, have you settled what to wear?", "Catherine", "dearest", ABSTAIN),  # epithet
        ("But, my dearest Catherine, have you settled what to wear?", "you", "dearest", NOT_BOUND),
        ("The country is among the poorest in Africa.", "country", "poorest", ABSTAIN),  # attached all the same
        ("The country is among the poorest in Africa.", "Africa", "poorest", NOT_BOUND),
    ])
