"""The terminal annotator: its state machine driven by scripted keys (answers, undo, skip, added bindings,
resuming), and the real command through CliRunner, quitting and resuming; every gold file it writes
loads with the report's load_gold."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from labelers.gold_annotator import Annotator, words
from labelers.report.gold import load_gold
from pipeline.commands.cli import app
from pipeline.commands.gold_annotate import highlighted, load_progress
from pipeline.core.errors import UserError
from test_gold_tools import DOCS, REGION, TODO

WHARF = {"doc_id": "d2", "split": "test", "stratum": "test/bound", "start": 0, "end": 31,
         "text": "The wharf was long and crooked.",
         "candidates": [{"cand_id": "d2:1:3", "ent_start": 4, "ent_end": 9, "attr_start": 14, "attr_end": 18,
                         "ent_text": "wharf", "attr_text": "long", "p_lm": 0.9, "accepted": True}]}
REGIONS = [TODO, WHARF]
# REGION's words: Clara 1, quick 3, stubborn 5, eyes 8, dark 10, father 12, happy 15
CLARA = ["b", "b", "n", "a", "8", "10", "b", "a", "12", "15", "x", "d"]


def fed(keys: list[str], todo=REGIONS) -> Annotator:
    annotator = Annotator(todo)
    for key in keys:
        annotator.feed(key)
    return annotator


def bindings(passage: dict) -> list[tuple]:
    return [(b["ent_text"], b["attr_text"], b["ent_start"], b["attr_start"], b["negated"]) for b in passage["bindings"]]


def write(path, rows) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_a_region_answered_and_completed_is_a_gold_passage_the_report_loads(tmp_path):
    annotator = fed(CLARA)
    assert (annotator.region(), annotator.candidate()) == (1, 0)  # on to the wharf
    (passage,) = annotator.passages()
    assert (passage["doc_id"], passage["start"], passage["end"]) == ("d1", 100, 179)
    # eyes-stubborn answered n is no binding; the added ones have passage offsets
    assert bindings(passage) == [("Clara", "quick", 100, 110, False), ("Clara", "stubborn", 100, 120, False),
                                 ("eyes", "dark", 138, 148, False), ("father", "happy", 158, 173, True)]
    write(tmp_path / "gold.jsonl", annotator.passages())
    gold = load_gold([tmp_path / "gold.jsonl"], DOCS)
    assert len(gold.passages) == 1 and gold.bindings["negated"].tolist() == [False, False, False, True]


def test_undo_steps_back_one_answer_even_into_a_done_region():
    annotator = fed(CLARA + ["u"])
    assert annotator.passages() == [] and (annotator.region(), annotator.candidate()) == (0, None)
    for _ in range(3):  # the negated addition, the dark one, the last candidate's answer
        annotator.feed("u")
    assert annotator.candidate() == 2
    annotator.feed("x")
    assert annotator.records[-1]["answer"] == "negated" and annotator.records[-1]["cand_id"] == "d1:8:10"
    assert fed([]).feed("u").message == "nothing to undo"


def test_invalid_keys_change_nothing_and_enter_does_not_take_the_suggestion():
    annotator = fed(["b", "b", "n", "a"])
    before = list(annotator.records)
    for key, told in [("99", "type 1 to 15"), ("8", ""), ("8", "the adjective is another word"), ("10", ""),
                      ("n", "b bound · x negated")]:
        assert told in annotator.feed(key).message
    assert annotator.records == before and annotator.adding == [8, 10]
    assert fed([]).feed("").message.startswith("'' is no answer to this candidate (the suggestion is not taken")
    assert "type one of: a add" in fed(["b", "b", "n"]).feed("b").message


def test_a_candidate_or_a_binding_cannot_be_added_twice():
    annotator = fed(["b", "b", "n", "a", "8", "5", "b"])  # eyes-stubborn is candidate d1:8:10
    assert "candidate d1:8:10, answered not_bound" in fed(["b", "b", "n", "a", "8", "5"]).feed("b").message
    assert len(annotator.records) == 3 and annotator.adding is None
    annotator = fed(["b", "b", "n", "a", "8", "10", "b", "a", "8", "10"])
    assert annotator.feed("x").message == "that binding is added already" and len(annotator.records) == 4


def test_a_skipped_region_is_left_out_and_undo_reopens_it():
    annotator = fed(["b", "s", "b", "d"])
    assert [p["doc_id"] for p in annotator.passages()] == ["d2"] and annotator.finished
    assert annotator.feed("b").quit  # nothing left to ask
    annotator = fed(["b", "s", "u"])
    assert (annotator.region(), annotator.candidate()) == (0, 1)


def test_quit_and_resume_continue_at_the_same_question(tmp_path):
    first = fed(CLARA[:5])
    assert first.feed("q").quit and first.adding == [8]  # an unfinished addition is not kept
    progress = tmp_path / "gold.progress.jsonl"
    write(progress, first.records)
    resumed = load_progress(progress, REGIONS)
    assert resumed.records == first.records and resumed.candidate() is None and resumed.adding is None
    for key in ["a", "8", "10", "b", "a", "12", "15", "x", "d", "b", "d"]:
        resumed.feed(key)
    assert resumed.passages() == fed(CLARA + ["b", "d"]).passages() and resumed.finished


def test_a_progress_file_of_another_to_do_file_is_refused(tmp_path):
    progress = tmp_path / "gold.progress.jsonl"
    write(progress, fed(["b"]).records)
    with pytest.raises(UserError) as err:
        load_progress(progress, [WHARF])
    message = str(err.value)
    assert message.startswith(f"progress file {progress}:1: ") and "'cand_id': 'd1:0:2'" in message
    assert message.endswith(f"pass the to-do file it was made with, or move {progress} away to start over")
    added = fed(CLARA[:7]).records
    write(progress, added[:3] + [added[3] | {"attr_start": 149}])  # "dark" from its second letter
    with pytest.raises(UserError, match=r"gold.progress.jsonl:4: .*'attr_start': 149"):
        load_progress(progress, REGIONS)


def test_words_are_numbered_and_the_candidate_is_highlighted():
    assert [REGION[s:e] for s, e in words(REGION)][:5] == ["Clara", "was", "quick", "and", "stubborn"]
    assert words("fortune?--You're well-bred") == [(0, 7), (10, 16), (17, 26)]
    text = highlighted(TODO, TODO["candidates"][2])
    assert [(str(text)[s.start:s.end], s.style) for s in text.spans] == [
        ("eyes", "bold black on cyan"), ("stubborn", "bold black on yellow")]


def test_the_command_quits_resumes_and_writes_a_valid_gold_file_after_every_region(tmp_path):
    todo, out = tmp_path / "todo.jsonl", tmp_path / "gold.jsonl"
    write(todo, REGIONS)
    command = ["gold", "annotate", str(todo), "--out", str(out)]
    runner = CliRunner(env={"COLUMNS": "200"})  # one screen line per text line
    result = runner.invoke(app, command, input="\n".join(CLARA + ["q"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "LabelModel suggests bound (P(BOUND) = 0.93)" in result.output and "father[12]" in result.output
    assert "1 of 2 regions done (0 skipped), 4 bindings" in result.output
    assert len(load_gold([out], DOCS).passages) == 1
    result = runner.invoke(app, command, input="b\n")  # the input ends mid-region: like q, all is saved
    assert result.exit_code == 0 and "rerun the same command to continue" in result.output
    result = runner.invoke(app, command, input="d\n")
    assert result.exit_code == 0 and "2 of 2 regions done" in result.output
    gold = load_gold([out], DOCS)
    assert gold.passages["doc_id"].tolist() == ["d1", "d2"] and len(gold.bindings) == 5


def test_the_command_writes_no_gold_file_when_every_region_is_skipped(tmp_path):
    todo, out = tmp_path / "todo.jsonl", tmp_path / "gold.jsonl"
    write(todo, REGIONS)
    result = CliRunner().invoke(app, ["gold", "annotate", str(todo), "--out", str(out)], input="s\ns\n")
    assert result.exit_code == 0 and "every region was skipped, so no gold file was written" in result.output
    assert not out.exists() and len((tmp_path / "gold.progress.jsonl").read_text().splitlines()) == 2


def test_the_command_keeps_a_gold_file_it_did_not_write(tmp_path):
    todo, out = tmp_path / "todo.jsonl", tmp_path / "gold.jsonl"
    write(todo, REGIONS)
    out.write_text("{}\n")
    result = CliRunner().invoke(app, ["gold", "annotate", str(todo), "--out", str(out)], input="b\n")
    assert isinstance(result.exception, UserError) and "has no progress file" in str(result.exception)
    assert out.read_text() == "{}\n"
