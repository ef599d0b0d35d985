"""Register materialisation on literal inputs with hand-worked expected labels."""
import numpy as np
import pandas as pd

from labelers.registers import attribute_vocab, materialise
from pipeline.core.registers import slot_entities

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
        ("a", "d", 5, 4, 1, -1, "happy", "train"),
        ("b", "d", 8, 9, 0, 1, "calm", "train"),   # pronoun at 8 resolved to entity 0 (first mention at 1)
        ("e", "d", 3, 4, 2, -1, "odd", "train"),   # entity 2 is never accepted
    ])
    accepted = c.iloc[:2]
    assert slot_entities(accepted, 4) == [0, 1]
    assert slot_entities(accepted, 1) == [0]
    table, vocab, _ = materialise(TOKENS, c, np.array([1.0, 1.0, 0.0]), 0.5, slots=2, vocab_size=1)
    assert vocab == ["NOTHING", "OTHER", "calm"]
    labels = np.stack(table.column("labels").to_pylist())
    assert labels[9].tolist() == [2, 1]  # slot 0 = entity 0 (calm), slot 1 = entity 1 (happy -> OTHER)


def test_a_first_mention_without_candidate_still_orders_the_slots(parser):
    """Emma (entity 0) is mentioned first but her only candidate comes after Harriet's."""
    frame = parser.frame("Emma came in. Harriet sat down. Harriet was happy. Emma was sad.")
    accepted = frame[frame["attr_lemma"].isin(["happy", "sad"]) & frame["relation"].eq("predicative")]
    names = dict(zip(accepted["ent_id"], accepted["ent_text"]))
    assert [names[e] for e in slot_entities(accepted, 4)] == ["Emma", "Harriet"]
    assert [names[e] for e in slot_entities(accepted, 1)] == ["Emma"]


def test_more_entities_than_slots_keeps_the_first_mentioned():
    """Entities 0 and 1 are bound late (after 2, 3 and 4): they still take the two slots."""
    c = cands([
        ("c2", "d", 1, 2, 2, -1, "red", "train"),
        ("c3", "d", 3, 4, 3, -1, "big", "train"),
        ("c4", "d", 5, 6, 4, -1, "old", "train"),
        ("c0", "d", 9, 8, 0, 0, "tired", "train"),   # a pronoun for entity 0, first mentioned at token 0
        ("c1", "d", 7, 8, 1, -1, "calm", "train"),
    ])
    assert slot_entities(c, 2) == [0, 1]
    table, vocab, _ = materialise(TOKENS, c, np.ones(5), 0.5, slots=2, vocab_size=10)
    labels = np.stack(table.column("labels").to_pylist())
    assert [vocab[x] for x in labels[9]] == ["tired", "calm"]
    assert (labels[:8] == 0).all()  # the bindings of entities 2-4 have no slot


def test_ties_at_one_token_keep_mention_order_whatever_the_row_order():
    """"Emma and Harriet were happy": both bindings take effect at the adjective; rows listed 1 before 0."""
    c = cands([
        ("h", "d", 2, 4, 1, -1, "happy", "train"),
        ("e", "d", 0, 4, 0, -1, "happy", "train"),
    ])
    assert slot_entities(c, 2) == [0, 1]
    assert slot_entities(c, 1) == [0]
    table, vocab, _ = materialise(TOKENS, c, np.ones(2), 0.5, slots=2, vocab_size=10)
    labels = np.stack(table.column("labels").to_pylist())
    assert labels[:, 0].tolist() == labels[:, 1].tolist() == [0] * 4 + [2] * 6


def test_vocab_counts_train_split_only():
    accepted = pd.DataFrame({"attr_lemma": ["Red", "red", "blue", "green"],
                             "split": ["train", "train", "train", "test"]})
    assert attribute_vocab(accepted, 5) == ["NOTHING", "OTHER", "red", "blue"]


def test_a_majority_vote_tie_is_no_binding():
    c = cands([
        ("tie", "d", 2, 1, 0, -1, "red", "train"),   # p = 0.5: a tie or no vote under majority vote
        ("won", "d", 6, 8, 1, -1, "tired", "train"),
    ])
    table, vocab, summary = materialise(TOKENS, c, np.array([0.5, 1.0]), 0.5, slots=2, vocab_size=10)
    assert summary["accepted_bindings"] == 1 and vocab == ["NOTHING", "OTHER", "tired"]
    labels = np.stack(table.column("labels").to_pylist())
    assert labels[9].tolist() == [2, 0]  # entity 1 takes slot 0: entity 0 has no binding
