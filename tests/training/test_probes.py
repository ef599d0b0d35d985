"""Binding probes: scoring, the paired bootstrap, the baselines, the set builder and the CLI."""
from __future__ import annotations

import json
import re

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
from training.probes import (Probe, baseline_accuracy, bootstrap_ci, evaluate, exchange, headline, model_logprob,
                             read_probes, stratum, summarize, twin)
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


def test_candidates_sharing_a_prefix_score_as_they_do_alone():
    model, tokenizer = tiny_model()
    prefix = CONTEXT + " The captain was"
    conts = [" old", " young", " oldyoung"]  # the last is several tokens: it needs its own forward pass
    assert len(tokenizer.encode(conts[-1]).ids) > 1
    score = model_logprob(model, tokenizer, batch_size=2)
    together = score([(prefix, c) for c in conts] + [("The", " old")])
    alone = [score([(prefix, c)])[0] for c in conts] + score([("The", " old")])
    assert together == pytest.approx(alone, abs=1e-5)
    assert len(set(together)) == 4


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


# Binding figures on hand-built pairs: "old captain"/"young sailor" (adjacent), a distant pair, a pronoun pair.
ADJ_CONTEXT = "The old captain met a young sailor."
DIST_CONTEXT = "The captain, who had been ill, was tired; then the sailor was calm."
PRON_CONTEXT = "Anne came in. She was happy. The wet dog ran."


def span(text: str, word: str, nth: int = 0) -> list[int]:
    starts = [m.start() for m in re.finditer(rf"\b{word}\b", text)]
    return [starts[nth], starts[nth] + len(word)]


def pair_of(name: str, context: str, queries: tuple[str, str], cands: tuple[str, str], mentions: tuple[str, str],
            pronoun: bool = False) -> list[Probe]:
    bound = tuple(tuple(span(context, m) + span(context, c)) for m, c in zip(mentions, cands))
    return [Probe(f"{name}-{k}", name, context, q, cands, c, bound, pronoun, {"old": 1, "young": 2})
            for k, (q, c) in enumerate(zip(queries, cands))]


BOUND_SET = (pair_of("adj", ADJ_CONTEXT, (" The captain was", " The sailor was"), ("old", "young"),
                     ("captain", "sailor"))
             + pair_of("far", DIST_CONTEXT, (" The captain was", " The sailor was"), ("tired", "calm"),
                       ("captain", "sailor"))
             + pair_of("pro", PRON_CONTEXT, (" Anne was", " The dog was"), ("happy", "wet"), ("She", "dog"), True))


def reader(pairs):
    """A model that reads the context: the nearer a candidate is to the query word's last mention, the higher."""
    out = []
    for prefix, cont in pairs:
        context, query = prefix.rsplit(" ", 2)[0], prefix.split()[-2]
        words = [w.lower() for w in re.findall(r"\w+", context)]
        hits = [n for n, w in enumerate(words) if w == query.lower()]
        out.append(-min((abs(n - hits[-1]) for n, w in enumerate(words) if w == cont.strip()), default=50)
                   if hits else -50.0)
    return out


def prior(pairs):
    """A model that ignores the context: a fixed score per (query word, candidate).

    Word lengths, not `hash()`, which Python salts per process (PYTHONHASHSEED): a salted score can leave every
    plain Delta at zero in one run and not the next."""
    return [float(len(prefix.split()[-2]) * len(cont.strip())) for prefix, cont in pairs]


def test_margin_is_positive_for_a_reader_and_zero_for_a_prior_once_averaged_with_the_twin():
    read = evaluate(BOUND_SET, reader)
    assert read["margin"]["twinned"] and read["margin"]["pairs"] == 3 and read["margin"]["mean"] > 0
    assert all(m["margin"] > 0 for m in read["pair_margins"])
    ignore = evaluate(BOUND_SET, prior)
    assert all(m["margin"] == pytest.approx(0.0) for m in ignore["pair_margins"])
    assert any(m["plain_margin"] != 0 for m in ignore["pair_margins"])  # the plain Delta alone carries the prior
    # Delta by hand for the adjacent pair, from the stored scores
    a, b = ignore["items"][:2]
    plain = (a["scores"]["old"] - a["scores"]["young"]) - (b["scores"]["old"] - b["scores"]["young"])
    assert ignore["pair_margins"][0]["plain_margin"] == pytest.approx(plain)


def test_swap_test_counts_an_item_only_when_both_versions_are_right():
    read, ignore = evaluate(BOUND_SET, reader), evaluate(BOUND_SET, prior)
    assert read["swap"]["accuracy"] == 1.0 and read["swap"]["random"] == 0.25 and read["swap"]["n"] == 6
    assert ignore["swap"]["accuracy"] == 0.0  # its pick cannot follow the exchanged answer
    right_once = {"scores": {"old": 0.0, "young": -1.0}, "swapped_scores": {"old": 0.0, "young": -1.0}}
    items = [{"id": p.id, "pair": p.pair, "answer": p.answer, "stratum": "adjacent", **right_once,
              "nocontext_scores": right_once["scores"]} for p in BOUND_SET[:2]]
    found = summarize(BOUND_SET[:2], items)
    assert found["accuracy"] == 0.5 and found["swap"]["accuracy"] == 0.0


def test_twin_exchanges_the_two_adjectives_with_their_case():
    twin_probe = twin(BOUND_SET[0])
    assert twin_probe.context == "The young captain met a old sailor." and twin_probe.answer == "young"
    assert exchange("Old men and young", (0, 3), (12, 17)) == "Young men and old"


def test_strata_follow_the_offsets_and_the_pronoun_flag():
    assert [stratum(p) for p in BOUND_SET[::2]] == ["adjacent", "distant", "pronoun"]
    assert stratum(PAIR[0]) is None
    read = evaluate(BOUND_SET, reader)
    assert {name: f["swap"]["pairs"] for name, f in read["strata"].items()} == {"adjacent": 1, "distant": 1,
                                                                                "pronoun": 1}


def test_figures_recompute_from_the_stored_scores_and_the_bootstrap_is_seeded():
    result = evaluate(BOUND_SET, reader, seed=3)
    items = result.pop("items")
    assert summarize(BOUND_SET, items, seed=3) == result
    assert evaluate(BOUND_SET, reader, seed=3)["margin"] == result["margin"]
    assert {"swap_accuracy": 1.0, "swap_random": 0.25}.items() <= headline(result).items()


def test_baselines_beside_the_model_include_adjacency_and_cooccurrence():
    found = evaluate(BOUND_SET, prior, {"old": 1})["baselines"]
    assert found["adjacency"] == {"accuracy": 1.0, "swap_accuracy": 1.0}  # a context reader passes the swap test
    assert found["cooccurrence"]["swap_accuracy"] == 0.0 and found["first"]["swap_accuracy"] == 0.0


def test_old_files_load_and_bad_offsets_fail_naming_the_problem(tmp_path):
    old = {"id": "a", "pair": "p", "context": "The old man.", "query": " The man was", "candidates": ["old", "new"],
           "answer": "old"}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n" + json.dumps({**old, "id": "b", "answer": "new"}))
    result = evaluate(read_probes(path), prior)
    assert result["swap"] is None and "regscaffold probes build" in result["note"]
    path.write_text(json.dumps({**old, "bound": [[8, 11, 0, 3], [8, 11, 4, 7]]}))
    with pytest.raises(UserError, match=r"old.jsonl:1: bound \[8, 11, 0, 3\]: the context holds 'The' there"):
        read_probes(path)
