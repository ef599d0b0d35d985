"""Gold files: validation errors that name the file, line, value and fix; matching to candidates."""
import json
from pathlib import Path

import pandas as pd
import pytest

from labelers.report.gold import bindings_without_candidate, load_gold, match_pairs, passage_rows
from pipeline.core.errors import UserError

DOCS = pd.DataFrame({"doc_id": ["d1"], "text": ["Emma was handsome and clever."]})
EMMA, HANDSOME, CLEVER = (0, 4), (9, 17), (22, 28)


def pair(ent, attr, label="BOUND", doc="d1", **extra):
    return {"type": "pair", "doc_id": doc, "ent_start": ent[0], "ent_end": ent[1], "attr_start": attr[0],
            "attr_end": attr[1], "label": label, **extra}


def write(tmp_path: Path, records) -> Path:
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n")
    return path


def test_valid_pairs_and_passages_load(tmp_path: Path):
    passage = {"type": "passage", "doc_id": "d1", "start": 0, "end": 29, "bindings": [
        {"ent_start": 0, "ent_end": 4, "attr_start": 9, "attr_end": 17, "negated": False}]}
    gold = load_gold([write(tmp_path, [pair(EMMA, HANDSOME, ent_text="Emma"), "", passage])], DOCS)
    assert gold.pairs[["y", "source"]].values.tolist() == [[1, f"{tmp_path}/gold.jsonl:1"]]
    assert len(gold.passages) == 1 and gold.bindings["negated"].tolist() == [False]


def test_every_problem_is_reported_with_file_line_and_fix(tmp_path: Path):
    path = write(tmp_path, [pair(EMMA, HANDSOME, doc=7), pair(EMMA, HANDSOME, label="YES"),
                            pair(EMMA, CLEVER, attr_text="clever!"), "{not json", pair((0, 99), HANDSOME)])
    with pytest.raises(UserError) as err:
        load_gold([path], DOCS)
    message = str(err.value)
    assert message.startswith("5 problem(s)")
    assert f"{path}:1: doc_id must be a passage id string" in message
    assert f"{path}:2: label 'YES'" in message
    assert f"{path}:3: attr_text 'clever!' but the passage has 'clever'" in message
    assert f"{path}:4: not a gold record" in message and f"{path}:5: ent span [0, 99)" in message


def test_gold_of_other_passages_is_one_error_with_count_and_first_ids(tmp_path: Path):
    foreign = [pair(EMMA, HANDSOME, doc=f"other{n}") for n in range(5)]
    path = write(tmp_path, [pair(EMMA, HANDSOME), *foreign, pair(EMMA, CLEVER, doc="other0")])
    with pytest.raises(UserError) as err:
        load_gold([path], DOCS)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"gold file {path}: 5 of the 6 passages it labels are not passages of this run's")
    assert "(other0, other1, other2, ...)" in message and "other3" not in message
    assert "regscaffold gold sample RUN_DIR" in message


def test_default_gold_keeps_the_records_of_the_run_passages(tmp_path: Path):
    path = write(tmp_path, [pair(EMMA, HANDSOME), pair(EMMA, HANDSOME, doc="other")])
    gold = load_gold([path], DOCS, subset=True, shown=lambda p: p.name)
    assert gold.pairs["source"].tolist() == ["gold.jsonl:1"] and gold.passages_left_out == 1
    assert gold.files == ["gold.jsonl"]
    none = load_gold([write(tmp_path, [pair(EMMA, HANDSOME, doc="other")])], DOCS, subset=True)
    assert none.empty and none.passages_left_out == 1


def test_duplicate_pairs_name_both_lines(tmp_path: Path):
    path = write(tmp_path, [pair(EMMA, HANDSOME), pair(EMMA, HANDSOME, "NOT_BOUND")])
    with pytest.raises(UserError, match=r"gold.jsonl:1: the same pair is also at .*gold.jsonl:2"):
        load_gold([path], DOCS)


CANDS = pd.DataFrame({"doc_id": ["d1", "d1"], "ent_start": [0, 0], "ent_end": [4, 4],
                      "attr_start": [9, 22], "attr_end": [17, 28]})


def test_unmatched_pairs_keep_row_minus_one(tmp_path: Path):
    gold = load_gold([write(tmp_path, [pair(EMMA, CLEVER), pair((9, 17), CLEVER, "NOT_BOUND")])], DOCS)
    assert match_pairs(gold.pairs, CANDS)["row"].tolist() == [1, -1]


def test_passage_rows_label_candidates_in_the_region_and_add_missed_bindings(tmp_path: Path):
    passage = {"type": "passage", "doc_id": "d1", "start": 0, "end": 29, "bindings": [
        {"ent_start": 0, "ent_end": 4, "attr_start": 22, "attr_end": 28, "negated": False},    # candidate 1
        {"ent_start": 0, "ent_end": 4, "attr_start": 9, "attr_end": 17, "negated": True},      # candidate 0
        {"ent_start": 9, "ent_end": 17, "attr_start": 22, "attr_end": 28, "negated": False}]}  # no candidate
    gold = load_gold([write(tmp_path, [passage])], DOCS)
    rows = passage_rows(gold, CANDS).sort_values(["row"])
    assert rows[["row", "y"]].values.tolist() == [[-1, 1], [0, 0], [1, 1]]
    narrow = dict(passage, end=20, bindings=[])  # region "Emma was handsome an": candidate 1 is outside
    rows = passage_rows(load_gold([write(tmp_path, [narrow])], DOCS), CANDS)
    assert rows[["row", "y"]].values.tolist() == [[0, 0]]


def test_bindings_without_candidate_are_the_non_negated_gold_bindings_no_candidate_matches(tmp_path: Path):
    passage = {"type": "passage", "doc_id": "d1", "bindings": [
        {"ent_start": 0, "ent_end": 4, "attr_start": 22, "attr_end": 28, "negated": False},    # candidate 1
        {"ent_start": 9, "ent_end": 17, "attr_start": 0, "attr_end": 4, "negated": True},      # negated: no binding
        {"ent_start": 9, "ent_end": 17, "attr_start": 22, "attr_end": 28, "negated": False}]}  # no candidate
    missed = bindings_without_candidate(load_gold([write(tmp_path, [passage])], DOCS), CANDS)
    assert missed[["ent_start", "attr_start"]].values.tolist() == [[9, 22]]
    empty = load_gold([write(tmp_path, [dict(passage, bindings=[])])], DOCS)
    assert bindings_without_candidate(empty, CANDS).empty
