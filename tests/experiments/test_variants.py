"""Label variants of the real-text arms: each is a loadable run folder with the promised invariants."""
from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest
from runfolder import write_labeled_run

from experiments.variants import variant_inputs, write_variant
from pipeline.core import schemas as S
from pipeline.core.errors import UserError
from pipeline.core.io import file_sha256, read_metadata
from labelers.probe_sets import load_assertions
from training import readouts
from training.data import load_run, pieces
from training.tokenizer import train_bpe


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    root = tmp_path_factory.mktemp("variants")
    run_dir = write_labeled_run(root / "run")
    out = {arm: root / arm for arm in ("lm", "mv", "shuffled", "names")}
    for arm, path in out.items():
        write_variant(run_dir, arm, path, seed=3)
    return run_dir, out


def labels(path) -> np.ndarray:
    return np.stack(pq.read_table(path / S.REGISTERS).column("labels").to_pylist())


def words(path) -> np.ndarray:
    vocab = read_metadata(path / S.REGISTERS)["vocab"]
    return np.array(vocab)[labels(path)]


def test_every_variant_loads_like_a_run(variants):
    run_dir, out = variants
    for arm, path in out.items():
        run = load_run(path)  # checks docs_sha256, vocab, offsets
        assert read_metadata(path / S.REGISTERS)["docs_sha256"] == file_sha256(run_dir / S.DOCS), arm
        assert run.slots == 2


def test_lm_is_the_runs_own_registers(variants):
    run_dir, out = variants
    assert (out["lm"] / S.REGISTERS).read_bytes() == (run_dir / S.REGISTERS).read_bytes()


def test_mv_uses_majority_vote(variants):
    _, out = variants
    # Name-a (p_lm 0.1, p_mv 1.0) is a binding for majority vote only; it takes effect at the name (token 6),
    # two tokens before the accepted Name-c binding switches the slot on for lm
    assert (labels(out["mv"])[6:8, 1] != S.NOTHING_ID).all()
    assert (labels(out["lm"])[6:8, 1] == S.NOTHING_ID).all()


def test_shuffled_keeps_positions_and_occupancy_and_moves_values(variants):
    _, out = variants
    lm, shuffled = labels(out["lm"]), labels(out["shuffled"])
    assert ((lm != S.NOTHING_ID) == (shuffled != S.NOTHING_ID)).all()
    assert read_metadata(out["shuffled"] / S.REGISTERS)["vocab"] == read_metadata(out["lm"] / S.REGISTERS)["vocab"]
    assert (words(out["lm"]) != words(out["shuffled"])).any()



def window_pieces(path, tokenizer, split="train"):
    """A variant's training windows under window targets, with readouts (what the second design trains on)."""
    run = load_run(path, "window")
    run.assertions = load_assertions(path, [split], 0.9)
    return run, pieces(run, tokenizer, split, 40, readouts.Settings(pairs=2, tokens=16))


def test_window_targets_of_the_shuffled_variant_are_shuffled(variants):
    # window targets come from candidates.parquet, not registers.parquet: the shuffled variant must carry its
    # own, or its arm trains on the LabelModel's attributes
    run_dir, out = variants
    tokenizer = train_bpe(load_run(run_dir).docs.query("split == 'train'")["text"], 512)
    (lm_run, lm), (sh_run, sh) = (window_pieces(out[arm], tokenizer) for arm in ("lm", "shuffled"))
    assert [p.ids.tolist() for p in lm] == [p.ids.tolist() for p in sh]  # same text and readouts
    assert sum(p.readout for p in lm) > 0
    assert [p.rows.tolist() for p in lm] == [p.rows.tolist() for p in sh]
    lm_words = [np.array(lm_run.vocab)[p.labels] for p in lm]
    sh_words = [np.array(sh_run.vocab)[p.labels] for p in sh]
    for a, b in zip(lm_words, sh_words):
        assert ((a != "NOTHING") == (b != "NOTHING")).all()  # same positions and slot occupancy
    assert any((a != b).any() for a, b in zip(lm_words, sh_words))  # other attributes
    assert sum((a != "NOTHING").sum() for a in lm_words) > 0


def test_lm_variant_window_targets_are_the_runs(variants):
    run_dir, out = variants
    tokenizer = train_bpe(load_run(run_dir).docs.query("split == 'train'")["text"], 512)
    (_, own), (_, lm) = (window_pieces(path, tokenizer) for path in (run_dir, out["lm"]))
    assert [p.labels.tolist() for p in own] == [p.labels.tolist() for p in lm]


def test_mv_carries_no_window_files(variants):
    _, out = variants
    assert not (out["mv"] / S.CANDIDATES).exists()


def test_shuffle_permutes_lemmas_within_each_split(variants):
    run_dir, _ = variants
    original, p = variant_inputs(run_dir, "lm", seed=3)
    shuffled, _ = variant_inputs(run_dir, "shuffled", seed=3)
    accepted = p >= 0.5
    for split in ("train", "valid", "test"):
        rows = accepted & (original["split"] == split).to_numpy()
        assert sorted(original["attr_lemma"][rows]) == sorted(shuffled["attr_lemma"][rows])
    assert (original["attr_lemma"][~accepted] == shuffled["attr_lemma"][~accepted]).all()
    assert shuffled["attr_lemma"].equals(variant_inputs(run_dir, "shuffled", seed=3)[0]["attr_lemma"])  # seeded


def test_names_hold_the_entity_identity_at_the_same_positions(variants):
    _, out = variants
    lm, names = labels(out["lm"]), words(out["names"])
    assert ((lm != S.NOTHING_ID) == (names != "NOTHING")).all()
    first = names[:10]  # passage "The red ball was big . Emma was tired ."
    assert first[2, 0] == first[9, 0] == "ball" and first[9, 1] == "emma"


def test_unknown_arm_is_a_user_error(variants, tmp_path):
    run_dir, _ = variants
    with pytest.raises(UserError, match="unknown"):
        write_variant(run_dir, "nope", tmp_path / "x")


def test_every_arm_has_the_same_number_of_classes_hence_the_same_init(variants):
    import torch

    from training.model import GPT, ModelConfig

    _, out = variants
    sizes = {arm: len(read_metadata(path / S.REGISTERS)["vocab"]) for arm, path in out.items()}
    assert len(set(sizes.values())) == 1, sizes

    def build(n_classes: int) -> dict:
        torch.manual_seed(0)  # as training.train does before building the model
        config = ModelConfig(n_layer=1, n_head=2, d_model=8, vocab_size=30, n_slots=2, n_classes=n_classes)
        return GPT(config).state_dict()

    # why equal sizes matter: a head of another size changes the other weights drawn for the same seed
    assert not torch.equal(build(5)["lm_head.weight"], build(9)["lm_head.weight"])
