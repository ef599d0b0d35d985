"""Register materialisation on literal inputs with hand-worked expected labels."""
import numpy as np
import pandas as pd

from labelers.registers import attribute_vocab, materialise, slot_entities

# Tokens of one passage: "The red ball was big . He was tired ." (indices 0..9)
TOKENS = pd.DataFrame({"doc_id": ["d"] * 10, "i": range(10), "start": range(0, 20, 2), "end": range(1, 21, 2)})


def cands(rows):
    frame = pd.DataFrame(rows, columns=["cand_id", "doc_id", "ent_i", "attr_i", "ent_id", "antecedent_i",
                                        "attr_lemma", "split"])
    return frame


def test_labels_take_effect_at_the_later_token_and_follow_the_latest_binding():
    c = cands([
        ("c1", "d", 2, 1, 0, -1, "red", "train"),    # red ball: effect at 2 (ball)
        ("c2", "d", 2, 4, 0, -1, "big", "train"),    # ball was big: effect at 4
        ("c3", "d", 6, 8, 1, -1, "tired", "train"),  # He was tired: slot 1 from 8
        ("c4", "d", 6, 1, 1, -1, "red", "train"),    # rejected (p below threshold)
    ])
    p = np.array([0.9, 0.8, 0.7, 0.2], dtype=np.float32)
    table, vocab, summary = materialise(TOKENS, c, p, 0.5, slots=2, vocab_size=10)
    assert vocab == ["NOTHING", "OTHER", "big", "red", "tired"]
    labels = np.stack(table.column("labels").to_pylist())
    conf = np.stack(table.column("conf").to_pylist())
    assert labels[:, 0].tolist() == [0, 0, 3, 3, 2, 2, 2, 2, 2, 2]
    assert labels[:, 1].tolist() == [0] * 8 + [4, 4]
    assert np.allclose(conf[:, 0], [1, 1, .9, .9, .8, .8, .8, .8, .8, .8])
    assert summary["accepted_bindings"] == 3
    assert summary["token_fraction_any_slot"] == 0.8
    assert table.column_names == ["doc_id", "i", "start", "end", "labels", "conf"]


def test_slots_follow_first_mention_and_vocab_overflow_is_other():
    c = cands([
        ("a", "d", 5, 4, 7, -1, "happy", "train"),
        ("b", "d", 8, 9, 3, 1, "calm", "train"),   # pronoun at 8 resolved to a mention at 1 -> first
        ("e", "d", 0, 1, 9, -1, "odd", "train"),   # entity 9 mentioned first but never accepted
    ])
    accepted = c.iloc[:2]
    assert slot_entities(c, accepted, 4) == [3, 7]
    assert slot_entities(c, accepted, 1) == [3]
    table, vocab, _ = materialise(TOKENS, c, np.array([1.0, 1.0, 0.0]), 0.5, slots=2, vocab_size=1)
    assert vocab == ["NOTHING", "OTHER", "calm"]
    labels = np.stack(table.column("labels").to_pylist())
    assert labels[9].tolist() == [2, 1]  # slot 0 = entity 3 (calm), slot 1 = entity 7 (happy -> OTHER)


def test_vocab_counts_train_split_only():
    accepted = pd.DataFrame({"attr_lemma": ["Red", "red", "blue", "green"],
                             "split": ["train", "train", "train", "test"]})
    assert attribute_vocab(accepted, 5) == ["NOTHING", "OTHER", "red", "blue"]
