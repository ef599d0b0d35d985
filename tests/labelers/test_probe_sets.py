"""Probe-set building: offsets of each pair's bindings, train co-occurrence counts, the exchange rule, and the
committed test-chapter sets in the documented format."""
from __future__ import annotations

from pathlib import Path

from runfolder import write_labeled_run

from labelers.probe_sets import cooccurrence, generated_items, write_jsonl
from pipeline.core.probe_rules import Binding, exchangeable, query_word
from training.probes import read_probes, stratum, twin

PROBES = Path(__file__).parents[2] / "data" / "probes"


def binding(entity: int, adjective: str, attr: tuple[int, int]) -> Binding:
    return Binding(entity, adjective, (0, 3), attr, True, "", False)


def read_probes_of(tmp_path: Path, items: list[dict]):
    write_jsonl(tmp_path / "items.jsonl", items)
    return read_probes(tmp_path / "items.jsonl")


def test_generated_items_carry_the_offsets_of_both_bindings(tmp_path):
    items = generated_items(write_labeled_run(tmp_path / "run"), min_p=0.9)
    context = items[0]["context"]  # "The blue cup was full . Marianne was ill ."
    for item in items:
        assert [context[s:e] for s, e, _, _ in item["bound"]] == ["cup", "Marianne"]
        assert [context[s:e] for _, _, s, e in item["bound"]] == item["candidates"] == ["full", "ill"]
    probe = read_probes_of(tmp_path, items)[0]
    assert twin(probe).context == "The blue cup was ill . Marianne was full ." and stratum(probe) == "distant"


def test_cooccurrence_counts_train_sentences_holding_the_query_word_and_a_candidate():
    items = [{"query": " The captain was", "candidates": ["old", "young"]}]
    texts = ["The captain was old. The old sailor saw the captain!", "A young captain? No. Old captain, young man."]
    assert cooccurrence(texts, items)[0]["cooccurrence"] == {"old": 3, "young": 2}
    assert query_word(" Miss Elliot was") == "Elliot" and query_word(" The Miss Steeles were") == "Steeles"


def test_a_pair_is_exchangeable_only_when_each_adjective_is_asserted_of_its_entity_alone():
    x, y = binding(0, "old", (10, 13)), binding(1, "young", (20, 25))
    assert exchangeable(x, y, [x, y])
    assert not exchangeable(x, y, [x, y, binding(1, "old", (30, 33))])   # the other entity is old too
    assert not exchangeable(x, y, [x, y, binding(0, "old", (40, 43))])   # old said of it twice: one would stay
    assert exchangeable(x, y, [x, y, binding(0, "tall", (40, 44))])


def test_the_committed_test_sets_load_with_offsets_for_every_item():
    for name in ("gold_test.jsonl", "generated_test.jsonl"):
        probes = read_probes(PROBES / name)
        assert all(p.bound is not None and p.cooccurrence is not None for p in probes), name
