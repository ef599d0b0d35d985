"""labelers.lfs.negation and labelers.lfs.expletive."""
from lf_helpers import check_votes

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs import expletive, negation


def test_negated(parser):
    check_votes(parser, negation.lf_negated, [
        ("She was not happy.", "She", "happy", NOT_BOUND),
        ("He was never tired.", "He", "tired", NOT_BOUND),
        ("She did not seem to be happy.", "She", "happy", NOT_BOUND),
        ("It was clear that the drive had by no means been very pleasant.", "drive", "pleasant", NOT_BOUND),
        ("Did she love him enough to make them no longer essential?", "them", "essential", NOT_BOUND),
        ("He waited no longer, and the tall man came in.", "man", "tall", ABSTAIN),
        ("She was happy.", "She", "happy", ABSTAIN),
    ])


def test_negative_determiner(parser):
    check_votes(parser, negation.lf_negative_determiner, [
        ("There was no great beauty in her.", "beauty", "great", NOT_BOUND),
        ("He left without a kind word.", "word", "kind", NOT_BOUND),
        ("She was driven out, without the considerations even of decent civility!", "civility", "decent",
         NOT_BOUND),
        ("I do not know any better qualifications for a friend.", "qualifications", "better", NOT_BOUND),
        ("I know some better qualifications for a friend.", "qualifications", "better", ABSTAIN),
        ("He left with a kind word.", "word", "kind", ABSTAIN),
        ("There was a great beauty in her.", "beauty", "great", ABSTAIN),
    ])


def test_non_asserted(parser):
    check_votes(parser, negation.lf_non_asserted, [
        ("She would be happy.", "She", "happy", NOT_BOUND),
        ("If he were rich, he would marry.", "he", "rich", NOT_BOUND),
        ("Unless the box is heavy, take it.", "box", "heavy", NOT_BOUND),
        ("He stayed till he were old enough.", "he", "old", NOT_BOUND),
        ("I wish they may be heartily ashamed of it.", "they", "ashamed", NOT_BOUND),
        ("She hoped to be useful.", "She", "useful", NOT_BOUND),  # "hoped" is lemmatised "hop"
        ("She hoped that he was well.", "he", "well", NOT_BOUND),
        ("She tried to look calm.", "She", "calm", NOT_BOUND),
        # asserted: plain, confident prediction, ability, linking verb, plural "were", attributive
        ("She was happy.", "She", "happy", ABSTAIN),
        ("She will be very happy.", "She", "happy", ABSTAIN),
        ("He can be very rude.", "He", "rude", ABSTAIN),
        ("She seemed happy.", "She", "happy", ABSTAIN),
        ("They were old.", "They", "old", ABSTAIN),
        ("The event soon followed: Henry and Catherine were married.", "Henry", "married", ABSTAIN),
        ("The old man would come.", "man", "old", ABSTAIN),
    ])


def test_non_asserted_blocks_positive_lfs(parser):
    from labelers.lfs import syntax
    check_votes(parser, syntax.lf_predicative_linking, [
        ("She would be happy.", "She", "happy", ABSTAIN),
        ("She was happy.", "She", "happy", BOUND),
    ])


def test_expletive_it(parser):
    check_votes(parser, expletive.lf_expletive_it, [
        ("It was necessary to go.", "It", "necessary", NOT_BOUND),
        ("It is true that she was poor.", "It", "true", NOT_BOUND),
        ("The box was heavy and it was old.", "it", "old", ABSTAIN),
        ("It was impossible for her to be insensible of his change of manners.", "It", "impossible", NOT_BOUND),
        ("Colonel Fitzwilliam had made it clear that he had no intentions at all.", "it", "clear", NOT_BOUND),
        ("She found it hard to believe him.", "it", "hard", NOT_BOUND),
        ("It was too heavy for him to lift.", "It", "heavy", ABSTAIN),  # a degree complement: the box
        ("It is so delightful to have an evening to oneself.", "It", "delightful", NOT_BOUND),  # "so" intensifies
    ])


def test_weather_it(parser):
    check_votes(parser, expletive.lf_weather_it, [
        ("It was cold.", "It", "cold", NOT_BOUND),
        ("It was late and dark.", "It", "late", NOT_BOUND),
        ("The soup was cold.", "soup", "cold", ABSTAIN),
        ("The box was heavy and it was old.", "it", "old", ABSTAIN),
        ("He drank the coffee. It was hot and bitter.", "It", "hot", ABSTAIN),  # the coffee, not the weather
        ("We went into the hall; it was crowded and warm.", "it", "warm", ABSTAIN),
    ])
