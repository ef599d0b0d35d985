"""The real-text benchmark's measures: perplexities, re-mention spans, decodability."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from runfolder import PASSAGES, passage, write_labeled_run
from tokenizers import Tokenizer
from trainfix import tiny_config

from experiments.measures import Passage, decodability, measure, perplexities, remention_spans
from training.train import train


def test_perplexities_count_only_attribute_tokens_at_rementions():
    text = "Emma was kind. She was tall."
    offsets = [(0, 4), (4, 8), (8, 13), (13, 14), (14, 18), (18, 22), (22, 27), (27, 28)]
    nll = np.array([np.nan, 1.0, 2.0, 1.0, 1.0, 1.0, 3.0, 1.0])
    passage = Passage("d", text, offsets, np.arange(8), nll, np.zeros((8, 0)))
    figures = perplexities([passage], {"d": [(23, 27)]})  # "tall": its token " tall" starts at 22
    assert figures["tokens"] == 7 and math.isclose(figures["ppl"], math.exp(10 / 7))
    assert figures["attr_remention_tokens"] == 1 and math.isclose(figures["ppl_attr_remention"], math.exp(3.0))


def test_remention_spans_need_an_earlier_mention_of_the_entity(tmp_path):
    run_dir = write_labeled_run(tmp_path / "run")
    cands = pd.read_parquet(run_dir / "candidates.parquet")
    # every binding's entity is first mentioned at the binding itself: nothing is a re-mention...
    assert remention_spans(run_dir, set(cands["doc_id"])) == {}
    # ...until the name's pronoun-like re-mention: pretend Emma was mentioned at token 0
    cands.loc[cands["ent_id"] == 1, "antecedent_i"] = 0
    cands.to_parquet(tmp_path / "c.parquet")
    from pipeline.core.io import read_metadata, write_parquet

    write_parquet(pd.read_parquet(tmp_path / "c.parquet"), run_dir / "candidates.parquet",
                  read_metadata(run_dir / "bindings.parquet") | {"kind": "candidates"})
    spans = remention_spans(run_dir, set(cands["doc_id"]))
    first = cands.iloc[2]  # Name-c of the first passage: accepted, entity 1
    assert spans[first["doc_id"]] == [(first["attr_start"], first["attr_end"])]


def test_measure_agrees_with_the_trainers_own_evaluation(tmp_path):
    run_dir = write_labeled_run(tmp_path / "run")
    records = train(tiny_config(data={"labels": str(run_dir)}), tmp_path / "model")
    figures = measure(tmp_path / "model", run_dir)
    (valid_text,) = [passage(row)[0] for row in PASSAGES if row[0] == "valid"]
    tokenizer = Tokenizer.from_file(str(tmp_path / "model" / "tokenizer.json"))
    assert figures["valid"]["tokens"] == len(tokenizer.encode(valid_text).ids) - 1  # every next-token pair
    # the same windows as the trainer's evaluation of the valid split: the same mean cross-entropy
    assert math.isclose(figures["valid"]["ppl"], math.exp(records[-1]["eval_ce_loss"]), rel_tol=1e-4)
    assert figures["decodability"]["slots"] == []  # five passages: too few positions to fit a probe


def test_decodability_fits_a_probe_per_slot_and_its_control():
    from training.data import LabeledRun

    rng = np.random.default_rng(0)
    n, d = 400, 6
    labels = rng.integers(2, 5, size=n)  # the slot holds attribute class 2, 3 or 4
    hidden = np.eye(d)[labels] + 0.01 * rng.normal(size=(n, d))  # linearly decodable by construction
    text = "x" * n
    spans = (np.arange(n), np.arange(1, n + 1), labels[:, None], np.ones((n, 1), np.float32))

    def passage(doc_id: str) -> Passage:
        return Passage(doc_id, text, [(i, i + 1) for i in range(n)], rng.integers(0, 50, size=n),
                       np.zeros(n), hidden.astype(np.float32))

    run = LabeledRun(pd.DataFrame(), ["NOTHING", "OTHER", "a", "b", "c"], 1, {"fit": spans, "eval": spans})
    figures = decodability([passage("fit")], [passage("eval")], run, top_classes=2)
    (slot,) = figures["slots"]
    assert slot["fit"] > 200 and slot["accuracy"] == 1.0  # only the two most frequent classes are kept
    assert slot["selectivity"] == slot["accuracy"] - slot["control_accuracy"] < 1.0
