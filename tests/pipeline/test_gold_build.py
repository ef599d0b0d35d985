"""data/gold/build.py: a gold span with a dash glued in (a token of spaCy's own rules) is cut to the word
the annotators judged, so the gold set matches candidates whether or not parse.split_dashes is on."""
import importlib.util
import json

import pytest

from pipeline.core.paths import PROJECT_ROOT

GOLD = PROJECT_ROOT / "data" / "gold"


def build():
    spec = importlib.util.spec_from_file_location("gold_build", GOLD / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("text,word", [
    ("silent.--His", "silent"), ("despondence;--but", "despondence"), ("agitation--", "agitation"),
    ('no,"--recollecting', "no"), ("fortune?\u2014You", "fortune"),
    ("Mr.", "Mr."), ("well-known", "well-known"), ("Knightley's", "Knightley's"),  # no dash: kept whole
])
def test_word_span(text, word):
    start, end, got = build().word_span(100, text)
    assert got == word and (start, end) == (100 + text.index(word), 100 + text.index(word) + len(word))


def test_no_committed_gold_span_has_a_dash_glued_in():
    for name in ("pairs.jsonl", "passages.jsonl"):
        for line in (GOLD / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            for span in record.get("bindings", [record]):
                assert "--" not in span["ent_text"] + span["attr_text"], (name, span)
