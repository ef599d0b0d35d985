"""Binding probes: scoring, the paired bootstrap, the baselines, the set builder and the CLI."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from runfolder import write_labeled_run
from trainfix import tiny_config
from typer.testing import CliRunner

from labelers.probe_sets import generated_items
from pipeline.commands.app import app
import pipeline.commands.cli  # noqa: F401  (registers the commands)
from pipeline.core.errors import UserError
from training.model import GPT, ModelConfig
from training.probes import Probe, baseline_accuracy, bootstrap_ci, evaluate, model_logprob, read_probes
from training.tokenizer import train_bpe

CONTEXT = "The old captain met a young sailor. The sailor was young and the captain old."
PAIR = [Probe("p0-a", "p0", CONTEXT, " The captain was", ("old", "young"), "old"),
        Probe("p0-b", "p0", CONTEXT, " The sailor was", ("old", "young"), "young")]


def test_evaluate_scores_candidates_after_context_and_query():
    table = {(CONTEXT + " The captain was", " old"): -1.0, (CONTEXT + " The captain was", " young"): -2.0,
             (CONTEXT + " The sailor was", " old"): -0.5, (CONTEXT + " The sailor was", " young"): -3.0,
             (" The captain was", " old"): -1.0, (" The captain was", " young"): -1.5,  # the no-context control
             (" The sailor was", " old"): -2.0, (" The sailor was", " young"): -1.0}
    seen = []

    def fake(pairs):
        seen.extend(pairs)
        return [table[p] for p in pairs]

    result = evaluate(PAIR, fake, {"old": 5, "young": 9})
    assert set(seen) == set(table)  # " " + candidate is the scored continuation, after context and alone
    assert [i["right"] for i in result["items"]] == [True, False]
    assert result["accuracy"] == 0.5 and result["chance"] == 0.5 and result["n"] == 2 and result["pairs"] == 1
    assert result["nocontext"]["accuracy"] == 1.0
    assert result["items"][1]["nocontext_scores"] == {"old": -2.0, "young": -1.0}
    # no `bound` offsets: no swap test, a plain (untwinned) margin, and a note naming the fix
    assert result["swap"] is None and "regscaffold probes build" in result["note"]
    assert result["margin"]["pairs"] == 1 and not result["margin"]["twinned"]
    assert result["margin"]["mean"] == pytest.approx((-1.0 + 2.0) - (-0.5 + 3.0))
    assert {k: v["accuracy"] for k, v in result["baselines"].items()} == {
        "most_recent": 0.5, "adjacency": 1.0, "first": 0.5, "most_frequent": 0.5}  # adjacency reads the context


def test_bootstrap_resamples_whole_pairs():
    assert bootstrap_ci([True, False] * 20, [f"p{i // 2}" for i in range(40)]) == (0.5, 0.5)
    right, groups = [True, True, False, False], ["a", "a", "b", "b"]
    assert bootstrap_ci(right, groups) == (0.0, 1.0)
    low, high = bootstrap_ci([True] * 30 + [False] * 10, [f"g{i}" for i in range(40)], seed=1)
    assert low < 0.75 < high and (low, high) == bootstrap_ci([True] * 30 + [False] * 10,
                                                            [f"g{i}" for i in range(40)], seed=1)


def test_baselines_sit_exactly_at_chance_on_a_paired_set():
    triple_context = "A tall man, a short woman and a calm dog. Tall, tall, tall."
    triple = [Probe(f"t-{k}", "t", triple_context, f" The {who} was", ("short", "calm", "tall"), ans)
              for k, (who, ans) in enumerate([("man", "tall"), ("woman", "short"), ("dog", "calm")])]
    found = baseline_accuracy(PAIR + triple, {"old": 1, "young": 7, "tall": 3, "short": 0, "calm": 9})
    # 2 of 5 = chance for every strategy that ignores which entity is asked; adjacency does not ignore it
    assert found == {"most_recent": 0.4, "adjacency": 1.0, "first": 0.4, "most_frequent": 0.4}
    assert evaluate(PAIR + triple, lambda pairs: [0.0] * len(pairs))["chance"] == pytest.approx((0.5 * 2 + 1) / 5)


def tiny_model(block_size: int = 12):
    tokenizer = train_bpe([CONTEXT] * 3, 300)
    torch.manual_seed(0)
    config = ModelConfig(n_layer=1, n_head=2, d_model=16, block_size=block_size,
                         vocab_size=tokenizer.get_vocab_size(), n_slots=1, n_classes=2)
    return GPT(config).eval(), tokenizer


def test_model_logprob_matches_a_direct_computation_and_cuts_the_context_from_the_left():
    model, tokenizer = tiny_model()
    prefix, cont = CONTEXT + " The captain was", " old"
    ids = tokenizer.encode(prefix).ids + tokenizer.encode(cont).ids
    assert ids == tokenizer.encode(prefix + cont).ids  # the space boundary tokenizes the same
    n_cont = len(tokenizer.encode(cont).ids)
    kept = ids[-(model.config.block_size + 1):]  # the context is cut from the left
    with torch.no_grad():
        logp = F.log_softmax(model(torch.tensor([kept[:-1]])).logits[0], dim=-1)
    expected = sum(float(logp[t - 1, kept[t]]) for t in range(len(kept) - n_cont, len(kept)))
    score = model_logprob(model, tokenizer, batch_size=1)
    assert score([(prefix, cont)])[0] == pytest.approx(expected, abs=1e-5)
    both = score([(prefix, cont), ("The", " young")])  # batched with padding: same values
    assert both[0] == pytest.approx(expected, abs=1e-5)
    assert both[1] == pytest.approx(score([("The", " young")])[0], abs=1e-5)


def test_read_probes_reports_every_problem(tmp_path):
    path = tmp_path / "p.jsonl"
    good = {"id": "a", "pair": "p", "context": "x", "query": " q", "candidates": ["u", "v"], "answer": "u"}
    path.write_text("\n".join(json.dumps(r) for r in [good, {**good, "answer": "w"}, {**good, "id": "b",
                                                                                      "candidates": ["u"]}]))
    with pytest.raises(UserError, match=r"2 problem\(s\).*:2: answer 'w' is not one.*:3: candidates"):
        read_probes(path)
    with pytest.raises(UserError, match="does not exist"):
        read_probes(tmp_path / "missing.jsonl")


def test_generated_set_pairs_entities_with_distinct_adjectives(tmp_path):
    items = generated_items(write_labeled_run(tmp_path / "run"), min_p=0.9)
    assert [(i["query"], i["candidates"], i["answer"]) for i in items] == [
        (" The cup was", ["full", "ill"], "full"), (" Marianne was", ["full", "ill"], "ill")]
    assert items[0]["context"] == "The blue cup was full . Marianne was ill ."
    assert generated_items(tmp_path / "run", min_p=0.96) == []  # cup-full has p 0.92


def test_cli_probe_build_and_sample(tmp_path):
    from runfolder import write_run

    from training.train import train

    run_dir = write_labeled_run(tmp_path / "run")
    runner = CliRunner()
    probes = tmp_path / "probes.jsonl"
    result = runner.invoke(app, ["probes", "build", str(run_dir), "--out", str(probes)])
    assert result.exit_code == 0, result.output
    assert "2 items in 1 pairs" in result.output and "most_frequent 0.500" in result.output
    result = runner.invoke(app, ["probes", "sample", str(probes), "--n", "1", "--out", str(tmp_path / "todo.jsonl")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "todo.jsonl").read_text())["correct"] is None

    ckpt = tmp_path / "model"
    train(tiny_config(data={"labels": str(write_run(tmp_path / "labels"))}), ckpt)
    out = tmp_path / "probe.json"
    result = runner.invoke(app, ["probe", "--checkpoint", str(ckpt / "ckpt.pt"), "--probes", str(probes),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    assert {"accuracy", "chance", "ci_low", "ci_high", "n", "baselines"} <= figures.keys()
    assert figures["n"] == 2 and set(figures["baselines"]) == {"most_recent", "adjacency", "cooccurrence", "first",
                                                               "most_frequent"}
    assert figures["swap"]["random"] == 0.25 and figures["margin"]["twinned"]
    assert np.isfinite([s for i in figures["items"] for s in i["scores"].values()]).all()
    assert "baseline: most_recent" in result.output and "swap test" in result.output
    assert "random 0.250" in result.output and "margin (nats)" in result.output


def test_bootstrap_of_a_paired_difference():
    # one arm's hits minus another's, per item: pairs whose items cancel give a zero-width interval at 0
    assert bootstrap_ci([1.0, -1.0] * 20, [f"p{i // 2}" for i in range(40)]) == (0.0, 0.0)
    low, high = bootstrap_ci([1.0] * 10 + [0.0] * 30, [f"g{i}" for i in range(40)])
    assert 0.0 < low < 0.25 < high < 0.5
