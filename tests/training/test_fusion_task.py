"""The synthetic binding task: exact invariants on a few hundred examples, and its files."""
from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from pipeline.core import schemas
from training import synthetic as S
from training.data import load_run

Q = 3
EXAMPLES = S.generate(400, seed=0, q=Q)


def parse(words: list[str]) -> tuple[list[tuple[str, str]], dict[tuple[str, str], tuple[str, int]]]:
    """(queries in order, {(name, object): (property, position of the clause's final '.')})."""
    queries = [(words[i + 1], words[i + 2]) for i in range(0, 4 * Q, 4)]
    facts = {}
    for i in range(4 * Q, 4 * Q + 12 * Q, 6):
        name, has, a, prop, obj, stop = words[i:i + 6]
        assert (has, a, stop) == ("has", "a", ".")
        facts[(name, obj)] = (prop, i + 5)
    return queries, facts


def test_example_invariants():
    for example in EXAMPLES:
        check(example)


def check(example: S.Example) -> None:
    words = example.words
    assert len(words) == 4 * Q + 12 * Q + 3
    assert all(words[i] == "?" and words[i + 3] == "." for i in range(0, 4 * Q, 4))
    queries, facts = parse(words)
    names, objects = [n for n, _ in facts], [o for _, o in facts]
    assert len(set(names)) == len(set(objects)) == 2 * Q  # distinct names, distinct objects
    props = [p for p, _ in facts.values()]
    assert sum(p in S.TARGETS for p in props) == Q and sum(p in S.NON_TARGETS for p in props) == Q
    assert len(set(queries)) == Q and all(q in facts for q in queries)
    answer = sum(facts[q][0] in S.TARGETS for q in queries)
    assert example.answer == answer and words[-3:] == ["answer", S.COUNTS[answer], "."]
    for slot, query in enumerate(queries):
        prop, end = facts[query]
        column = example.labels[:, slot]
        assert (column[:end] == schemas.NOTHING_ID).all()
        assert (column[end:] == S.REGISTER_VOCAB.index(prop)).all()


def test_generation_is_seeded_and_texts_are_distinct():
    again = S.generate(400, seed=0, q=Q)
    assert [e.words for e in again] == [e.words for e in EXAMPLES]
    assert len({" ".join(e.words) for e in EXAMPLES}) == 400
    assert [e.words for e in S.generate(5, seed=1, q=Q)] != [e.words for e in EXAMPLES[:5]]


def test_audit_majority_baseline_and_shortcuts():
    report = S.audit(S.generate(3000, seed=0, q=Q), Q)
    assert report["target_count_constant"] is True
    assert report["majority_baseline"] == pytest.approx(0.45, abs=0.02)  # hypergeometric: 9/20
    assert abs(report["first_target_answer_corr"]) < 0.05


def test_other_query_counts():
    for q in (1, 2, 4):
        example = S.make_example(random.Random(0), q)
        assert len(example.words) == 16 * q + 3 and example.labels.shape == (16 * q + 3, q)
    with pytest.raises(ValueError, match="queries=5"):
        S.generate(1, 0, 5)


def test_written_files_pass_the_label_checks(tmp_path):
    S.write_run(tmp_path, Q, n_train=30, n_test=10, train_seed=0, test_seed=9000)
    run = load_run(tmp_path)  # the full validation of a pipeline run folder
    assert run.vocab == S.REGISTER_VOCAB and run.slots == Q
    assert run.docs["split"].value_counts().to_dict() == {"train": 30, "test": 10}
    first = run.docs.iloc[0]
    starts, ends, labels, _ = run.spans[first.doc_id]
    assert [first.text[s:e] for s, e in zip(starts, ends)] == first.text.split(" ")
    assert np.array_equal(labels, S.generate(1, 0, Q)[0].labels)


def test_answer_hits_restricts_to_count_words():
    count_ids = torch.tensor([10, 11, 12, 13])
    x = torch.tensor([[5, 7, 9], [5, 9, 2]])  # answer token id 9
    y = torch.tensor([[7, 9, 12], [9, 11, 2]])
    logits = torch.zeros(2, 3, 20)
    logits[0, 2, 12] = 1.0  # right
    logits[1, 1, 3] = 5.0   # a non-count token scores highest: ignored; then count 0 (id 10) wins ties
    assert S.answer_hits(logits, x, y, 9, count_ids) == (1, 2)


def test_properties_are_distinct_within_every_example():
    for example in S.generate(2000, seed=3, q=Q):
        props = [w for w in example.words[4 * Q:] if w in S.TARGETS + S.NON_TARGETS]
        assert len(props) == 2 * Q and len(set(props)) == 2 * Q


NOISY = S.generate(1000, seed=5, q=Q)  # 3,000 queried bindings


@pytest.mark.parametrize("wrong, missing", [(0.1, 0.0), (0.0, 0.25), (0.2, 0.25), (0.5, 0.5)])
def test_noise_fractions_are_exact(wrong, missing):
    noisy = S.corrupt(NOISY, S.NoiseConfig(wrong=wrong, missing=missing, seed=2))
    report = S.noise_report(NOISY, noisy)
    assert report["bindings"] == 3000
    assert report["wrong"] == round(wrong * 3000) / 3000 and report["missing"] == round(missing * 3000) / 3000
    assert report["late"] == 0.0
    for clean, bad in zip(NOISY, noisy):
        assert bad.words == clean.words and bad.answer == clean.answer  # the text and CE targets are untouched
        for (start, _), column in zip(S.bindings(clean), bad.labels.T):
            assert (column[:start] == schemas.NOTHING_ID).all()  # a label never appears before its fact
            assert len(set(column[start:])) == 1  # and, once on, holds one class to the end
    assert S.corrupt(NOISY, S.NoiseConfig(wrong=wrong, missing=missing, seed=2))[7].labels.tolist() == \
        noisy[7].labels.tolist()  # seeded


def test_wrong_labels_name_another_property_word():
    noisy = S.corrupt(NOISY, S.NoiseConfig(wrong=1.0, seed=0))
    for clean, bad in zip(NOISY, noisy):
        for (start, cls), column in zip(S.bindings(clean), bad.labels.T):
            assert column[start] != cls and column[start] in S.PROPERTY_IDS


def test_late_labels_switch_on_after_the_lag():
    noisy = S.corrupt(NOISY, S.NoiseConfig(lag=3))
    assert S.noise_report(NOISY, noisy)["late"] == 1.0
    for clean, bad in zip(NOISY, noisy):
        for (start, cls), column in zip(S.bindings(clean), bad.labels.T):
            assert (column[:start + 3] == schemas.NOTHING_ID).all() and (column[start + 3:] == cls).all()


def test_calibrated_confidence_is_lower_on_wrong_labels_and_calibrated_on_average():
    noisy = S.corrupt(NOISY, S.NoiseConfig(wrong=0.2, missing=0.25, confidence="calibrated", seed=4))
    report = S.noise_report(NOISY, noisy)
    assert report["wrong"] == 0.2 and report["missing"] == 0.25
    assert report["mean_conf_wrong"] < report["mean_conf_right"] - 0.1
    labelled_accuracy = 1 - 0.2 / 0.75
    mean_conf = (report["mean_conf_right"] * labelled_accuracy + report["mean_conf_wrong"] * (1 - labelled_accuracy))
    assert mean_conf == pytest.approx(labelled_accuracy, abs=0.03)


def test_noise_reaches_only_the_train_split(tmp_path):
    clean_dir, noisy_dir = tmp_path / "clean", tmp_path / "noisy"
    S.write_run(clean_dir, Q, n_train=40, n_test=10, train_seed=0, test_seed=9000)
    S.write_run(noisy_dir, Q, n_train=40, n_test=10, train_seed=0, test_seed=9000,
                noise=S.NoiseConfig(wrong=0.5, missing=0.25, confidence="calibrated"))
    clean, noisy = load_run(clean_dir), load_run(noisy_dir)
    assert clean.docs.equals(noisy.docs)  # same texts, so the same next-token targets
    changed = {split: any(not np.array_equal(clean.spans[d][2], noisy.spans[d][2])
                          for d in clean.docs.loc[clean.docs["split"] == split, "doc_id"])
               for split in ("train", "test")}
    assert changed == {"train": True, "test": False}


def test_noise_settings_are_validated():
    assert S.NoiseConfig().problems() == [] and not S.NoiseConfig().active()
    problems = S.NoiseConfig(wrong=0.7, missing=0.5, lag=-1, confidence="maybe").problems()
    assert len(problems) == 3 and any("<= 1" in p for p in problems)
