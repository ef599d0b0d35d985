"""labelers.lfs.comparison, labelers.lfs.determiners and labelers.lfs.names."""
from lf_helpers import check_votes

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs import comparison, determiners, idioms, names, syntax


def test_than_comparison(parser):
    check_votes(parser, comparison.lf_than_comparison, [
        ("He was taller than his brother.", "He", "taller", NOT_BOUND),
        ("He was taller than his brother.", "brother", "taller", NOT_BOUND),
        ("She was more beautiful than her sister.", "She", "beautiful", NOT_BOUND),
        ("He was tall.", "He", "tall", ABSTAIN),
    ])


def test_relational_prep(parser):
    check_votes(parser, comparison.lf_relational_prep, [
        ("His house was similar to mine.", "house", "similar", NOT_BOUND),
        ("Her taste was different from his.", "taste", "different", NOT_BOUND),
        ("She was fond of music.", "She", "fond", ABSTAIN),
        ("His house was large.", "house", "large", ABSTAIN),
        ("The economy is largely based on agriculture.", "economy", "based", NOT_BOUND),  # the Factbook call
    ])


def test_relational_attributive(parser):
    check_votes(parser, comparison.lf_relational_attributive, [
        ("The two rooms were of equal size.", "size", "equal", NOT_BOUND),
        ("She gave it a different title.", "title", "different", NOT_BOUND),
        ("Her taste was different from his.", "taste", "different", ABSTAIN),
        ("The tall man was here.", "man", "tall", ABSTAIN),
        ("He won by a close margin.", "margin", "close", ABSTAIN),  # proximity before a noun: a property
        ("They went to the house of a near relation.", "relation", "near", ABSTAIN),
        ("Everyone knew that she was a superior singer.", "singer", "superior", ABSTAIN),  # high quality
        ("It is a London-based firm.", "firm", "based", ABSTAIN),  # a compound adjective, a property
    ])
    check_votes(parser, comparison.lf_relational_prep, [
        ("The house was close to the church.", "house", "close", NOT_BOUND),  # with its complement: relational
    ])
    check_votes(parser, syntax.lf_attributive, [
        ("He won by a close margin.", "margin", "close", BOUND),  # not blocked
    ])


def test_fixed_phrase(parser):
    check_votes(parser, idioms.lf_fixed_phrase, [
        ("She had a great deal of money.", "deal", "great", NOT_BOUND),
        ("He stayed a little while.", "while", "little", NOT_BOUND),
        ("I thought I was in very good time.", "time", "good", NOT_BOUND),
        ("It eliminated the position of prime minister.", "minister", "prime", NOT_BOUND),
        ("He is a rear admiral of the white.", "admiral", "rear", NOT_BOUND),
        ("They hunted the right whale.", "whale", "right", NOT_BOUND),  # a species
        ("I give way to you with a very bad grace.", "grace", "bad", NOT_BOUND),  # manner: unwillingly
        ("He laughed at himself with a very good grace.", "grace", "good", NOT_BOUND),
        ("She did it with an ill grace.", "grace", "ill", NOT_BOUND),
        ("In the mean time, she went after dinner to show her ring.", "time", "mean", NOT_BOUND),
        ("While you were in the smallest degree wavering, I said nothing.", "degree", "smallest", NOT_BOUND),
        ("The sea, now at high water, was dancing in its glee.", "water", "high", NOT_BOUND),
        ("It was the smallest room in the house.", "room", "smallest", ABSTAIN),
        ("It was a great house.", "house", "great", ABSTAIN),
        ("In short, her civility was great.", "civility", "short", NOT_BOUND),  # adverbial idioms
        ("Women in general were kind.", "Women", "general", NOT_BOUND),
        ("He spoke in general terms.", "terms", "general", ABSTAIN),  # an adjective before its noun
        ("As a general rule, you must first get fast to a whale.", "rule", "general", NOT_BOUND),  # usually
        ("It holds in general and ordinary cases.", "cases", "general", ABSTAIN),
    ])


def test_determiner_like(parser):
    check_votes(parser, determiners.lf_determiner_like, [
        ("The other girl came home.", "girl", "other", NOT_BOUND),
        ("Such weather is rare.", "weather", "Such", NOT_BOUND),
        ("She had many friends and her own house.", "friends", "many", NOT_BOUND),
        ("She had many friends and her own house.", "house", "own", NOT_BOUND),
        ("The first visit was the last.", "visit", "first", NOT_BOUND),
        ("It happened in the 19th century and in its twelfth year.", "century", "19th", NOT_BOUND),
        ("It happened in the 19th century and in its twelfth year.", "year", "twelfth", NOT_BOUND),
        ("She came on the following day.", "day", "following", NOT_BOUND),
        ("The young girl came home.", "girl", "young", ABSTAIN),
        # a position picks out a part, as an ordinal picks out a member
        ("The fibres in the upper layers are long.", "layers", "upper", NOT_BOUND),
        ("Keep the warehouse on your starboard hand.", "hand", "starboard", NOT_BOUND),
        ("He walked to the outer gate.", "gate", "outer", NOT_BOUND),
        ("He gazed up to the two remaining horns.", "horns", "remaining", NOT_BOUND),  # the rest
        # "lower", "left" and "right" are positions only in context
        ("The fibres in the upper and lower layers are long.", "layers", "lower", NOT_BOUND),
        ("He held the pen in his left hand.", "hand", "left", NOT_BOUND),
        ("They sat on the right side of the boat.", "side", "right", NOT_BOUND),
        ("Lower prices helped the farmers.", "prices", "Lower", ABSTAIN),
        ("That was the right answer.", "answer", "right", ABSTAIN),
        # a rank compound is a quality, not an ordinal
        ("He was a man of first-rate abilities.", "abilities", "first", ABSTAIN),
        ("The first-class carriage was full.", "carriage", "first", ABSTAIN),
    ])


def test_rank_compound_is_one_attribute_and_its_noun_no_mention(parser):
    row = parser.pair("Harriet has some first-rate qualities.", "qualities", "first")
    assert (row["attr_lemma"], row["relation"]) == ("first-rate", "amod")
    nominal = parser.frame("She fell in with the second-rate and third-rate of Highbury.")
    assert "rate" not in set(nominal["ent_text"])
    assert parser.pair("It was the first time.", "time", "first")["attr_lemma"] == "first"


def test_a_rank_compound_predicate_describes_the_subject(parser):
    text = "Literacy, longevity, and social cohesion are first rate by world standards."
    for subject in ("Literacy", "longevity", "cohesion"):
        row = parser.pair(text, subject, "first")
        assert (row["attr_lemma"], row["relation"]) == ("first-rate", "predicative"), subject
    assert parser.pair("Their roads are second-class.", "roads", "second")["relation"] == "predicative"
    assert parser.pair("He was a first rate shot.", "shot", "first")["attr_lemma"] == "first-rate"
    assert parser.pair("He came in the first class of boys.", "class", "first")["attr_lemma"] == "first"


def test_determiner_attributive(parser):
    check_votes(parser, determiners.lf_determiner_attributive, [
        ("A certain gentleman called.", "gentleman", "certain", NOT_BOUND),
        ("She heard a ring at the door, the certain signal of a visitor.", "signal", "certain", ABSTAIN),
        ("You have heard of a certain Frank Churchill, I presume.", "Churchill", "certain", NOT_BOUND),
        ("On that particular morning she left.", "morning", "particular", NOT_BOUND),
        ("She was certain of it.", "She", "certain", ABSTAIN),
        ("She stayed with little intermission the whole afternoon.", "intermission", "little", NOT_BOUND),
        ("Then by a little curiosity she satisfied herself.", "curiosity", "little", NOT_BOUND),
        ("They danced in a little room.", "room", "little", ABSTAIN),
        ("All the little variations of the last week were gone through.", "variations", "little", ABSTAIN),
        ("She had certainly little cause to love the state.", "cause", "little", NOT_BOUND),  # opens the phrase
        ("There was little time for conversation.", "time", "little", NOT_BOUND),
        ("Her little boy was ill.", "boy", "little", ABSTAIN),
        ("Poor little Emma was tired.", "Emma", "little", ABSTAIN),
        ("Recent increases in taxes hurt trade.", "increases", "Recent", NOT_BOUND),  # temporal
        ("The change was recent.", "change", "recent", ABSTAIN),
        ("She got up at her usual time.", "time", "usual", NOT_BOUND),
        ("She met him with all her usual cheerfulness.", "cheerfulness", "usual", ABSTAIN),  # a quality
        ("She copied it in the proper place.", "place", "proper", ABSTAIN),  # appropriate: a property
    ])


def test_in_name(parser):
    check_votes(parser, names.lf_in_name, [
        ("The girl came from Great Britain.", "Britain", "Great", NOT_BOUND),
        ("The girl came from Great Britain.", "girl", "Great", NOT_BOUND),
        ("Poor Miss Taylor was gone.", "Taylor", "Poor", ABSTAIN),
        ("The great house was empty.", "house", "great", ABSTAIN),
        # a name the tagger reads as common nouns
        ("He hinted that we could not do better than try pot-luck at the Try Pots.", "Pots", "Try", NOT_BOUND),
        ("Large whales were seen.", "whales", "Large", ABSTAIN),  # capitalised as a sentence's first word
    ])


def test_compound_word(parser):
    check_votes(parser, names.lf_compound_word, [
        ("Her good-nature had honourable mention.", "nature", "good", NOT_BOUND),
        ("He wore a great-coat.", "coat", "great", NOT_BOUND),
        ("They rely on low-cost labour.", "labour", "low", ABSTAIN),  # a compound modifier of a later noun
        ("Her good nature was known.", "nature", "good", ABSTAIN),
    ])
    assert syntax.lf_attributive(parser.pair("He wore a great-coat.", "coat", "great")) == ABSTAIN  # guarded


def test_guarded_rules_silence_the_structural_lfs(parser):
    """Where a NOT_BOUND rule fires, the structural LFs abstain (no clash for the label models to misread)."""
    check_votes(parser, syntax.lf_attributive, [
        ("She had a great deal of money.", "deal", "great", ABSTAIN),
        ("It was a great house.", "house", "great", BOUND),
    ])
    check_votes(parser, syntax.lf_conjunct, [
        ("It was a large and equal share.", "share", "equal", ABSTAIN),
        ("It was a large and heavy box.", "box", "heavy", BOUND),
    ])
    check_votes(parser, comparison.lf_relational_attributive, [
        ("It was a large and equal share.", "share", "equal", NOT_BOUND),
    ])
    from labelers.lfs import noisy
    for lf in (noisy.lf_noisy_nearest_mention, noisy.lf_noisy_clause_subject):
        check_votes(parser, lf, [("Women in general were kind.", "Women", "general", ABSTAIN)])
