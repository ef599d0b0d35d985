"""Gold sets for any corpus: stratified drawing, and both directions of Label Studio (tasks out, a real
export in) against the gold format the report reads."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from labelers.gold_tools import (LABEL_CONFIG, allocate, draw, gold_from_label_studio, label_studio_tasks,
                                 passage_strata)
from labelers.report.gold import load_gold
from pipeline.core.errors import UserError

EXPORT = Path(__file__).parents[1] / "fixtures" / "own" / "label_studio_export.json"
REGION = "Clara was quick and stubborn, and her eyes were dark. Her father was not happy."
DOCS = pd.DataFrame({"doc_id": ["d1", "d2", "d3"],
                     "text": ["x" * 100 + REGION + " More.", "The wharf was long and crooked.",
                              "The wharf was long and crooked."]})


def test_import_of_a_label_studio_export(tmp_path):
    passages, pending = gold_from_label_studio(EXPORT)
    assert pending == 1  # task 42: its only annotation was cancelled
    d1, d3 = passages
    assert (d1["type"], d1["doc_id"], d1["start"], d1["end"]) == ("passage", "d1", 100, 179)
    # offsets move from the region to the passage; direction does not matter (stubborn -> Clara);
    # a relation without a label is "bound", one labeled "negated" is negated
    assert [(b["ent_text"], b["attr_text"], b["ent_start"], b["attr_start"], b["negated"]) for b in d1["bindings"]] == [
        ("Clara", "quick", 100, 110, False), ("Clara", "stubborn", 100, 120, False),
        ("eyes", "dark", 138, 148, False), ("father", "happy", 158, 173, True)]
    # task 43 has two annotations: the last one counts
    assert [b["attr_text"] for b in d3["bindings"]] == ["long", "crooked"]
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in passages))
    gold = load_gold([path], DOCS)  # the report accepts it: offsets and texts match the passages
    assert len(gold.passages) == 2 and gold.bindings["negated"].tolist() == [False, False, False, True, False, False]


def test_a_relation_must_join_an_entity_and_an_attribute(tmp_path):
    tasks = json.loads(EXPORT.read_text())
    tasks[0]["annotations"][0]["result"][7]["to_id"] = "q9LmT2s8Vd"  # Clara -> eyes
    tasks[2]["annotations"][1]["result"][1]["value"]["text"] = "lung"
    bad = tmp_path / "export.json"
    bad.write_text(json.dumps(tasks))
    with pytest.raises(UserError) as err:
        gold_from_label_studio(bad)
    message = str(err.value)
    assert message.startswith("2 problem(s) in the Label Studio export") and "\n" not in message
    assert "task 41: relation 'Xk3v9aQ1pL'->'q9LmT2s8Vd' must join one Entity and one Attribute" in message
    assert "task 43: span 'l2' says 'lung', the text has 'long'" in message


TODO = {"doc_id": "d1", "split": "valid", "stratum": "valid/conflict", "start": 100, "end": 179, "text": REGION,
        "candidates": [
            {"cand_id": "d1:0:2", "ent_start": 100, "ent_end": 105, "attr_start": 110, "attr_end": 115,
             "ent_text": "Clara", "attr_text": "quick", "p_lm": 0.93, "accepted": True},
            {"cand_id": "d1:0:4", "ent_start": 100, "ent_end": 105, "attr_start": 120, "attr_end": 128,
             "ent_text": "Clara", "attr_text": "stubborn", "p_lm": 0.88, "accepted": True},
            {"cand_id": "d1:8:10", "ent_start": 138, "ent_end": 142, "attr_start": 120, "attr_end": 128,
             "ent_text": "eyes", "attr_text": "stubborn", "p_lm": 0.2, "accepted": False}]}


def test_export_prefills_the_accepted_bindings_and_round_trips(tmp_path):
    (task,) = label_studio_tasks([TODO])
    assert task["data"]["text"] == REGION and task["data"]["start"] == 100
    result = task["predictions"][0]["result"]
    spans = {r["id"]: r["value"] for r in result if r["type"] == "labels"}
    assert [(v["text"], v["labels"], v["start"]) for v in spans.values()] == [
        ("Clara", ["Entity"], 0), ("quick", ["Attribute"], 10), ("stubborn", ["Attribute"], 20)]  # Clara once
    relations = [r for r in result if r["type"] == "relation"]
    assert [(spans[r["from_id"]]["text"], spans[r["to_id"]]["text"], r["labels"]) for r in relations] == [
        ("Clara", "quick", ["bound"]), ("Clara", "stubborn", ["bound"])]
    accepted = copy.deepcopy(task) | {"annotations": [{"result": result, "was_cancelled": False}]}
    path = tmp_path / "export.json"
    path.write_text(json.dumps([accepted]))
    (passage,), _ = gold_from_label_studio(path)
    assert [(b["ent_start"], b["attr_start"]) for b in passage["bindings"]] == [(100, 110), (100, 120)]


def test_labeling_config_names_the_labels_and_relations():
    for part in ('<Label value="Entity"', '<Label value="Attribute"', '<Relation value="bound"/>',
                 '<Relation value="negated"/>', '<Text name="text" value="$text"'):
        assert part in LABEL_CONFIG


def test_strata_use_held_out_passages_and_vote_patterns():
    docs = pd.DataFrame({"doc_id": ["a", "b", "c", "t"], "split": ["valid", "test", "test", "train"]})
    cands = pd.DataFrame({"doc_id": ["a", "a", "b", "t"]})
    L = np.array([[1, 0], [-1, -1], [0, -1], [1, 0]])
    assert passage_strata(docs, cands, L).to_dict() == {"a": "valid/conflict", "b": "test/not_bound",
                                                        "c": "test/none"}


def test_a_run_without_held_out_passages_has_no_strata():
    docs = pd.DataFrame({"doc_id": ["t"], "split": ["train"]})
    assert passage_strata(docs, pd.DataFrame({"doc_id": ["t"]}), np.array([[1]])).empty


def test_allocation_is_proportional_and_the_draw_is_seeded():
    assert allocate({"x": 6, "y": 3, "z": 1}, 5) == {"x": 3, "y": 2, "z": 0}
    strata = pd.Series(["s/a"] * 6 + ["s/b"] * 4, index=[f"p{i}" for i in range(10)])
    first = draw(strata, 5, seed=3)
    assert first == draw(strata, 5, seed=3) and len(set(first)) == 5
    assert sum(p in {"p6", "p7", "p8", "p9"} for p in first) == 2
