"""What an accepted binding is and what a register slot holds: the one definition the labeler
(labelers.registers, the registers stage) and the trainer (training.visible, window targets) share.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.core.schemas import NOTHING_ID, OTHER_ID

MIN_THRESHOLD = 0.5
"""The lowest binding threshold: majority vote gives P(BOUND) = 0.5 exactly on a tie and on a row with no
vote, and such a row asserts nothing."""


def is_binding(p_bound, threshold: float) -> np.ndarray:
    """Accepted bindings: P(BOUND) strictly above ``threshold`` (>= MIN_THRESHOLD), so that a tie or a
    row without votes is never one, for the LabelModel, majority vote and its fallback alike."""
    return np.asarray(p_bound) > threshold


def slot_entities(accepted: pd.DataFrame, slots: int) -> list[int]:
    """The first ``slots`` ent_ids of one passage, by first mention, among entities with a binding.

    The extractor numbers ent_id from 0 in order of first mention (labelers.extraction.resolve_entities),
    so the id order is the mention order, including mentions that have no candidate row.
    """
    return sorted(int(e) for e in accepted["ent_id"].unique())[:slots]


def passage_registers(n_tokens: int, accepted: pd.DataFrame, index: dict[str, int],
                      slots: int) -> tuple[np.ndarray, np.ndarray]:
    """(labels, conf), each (n_tokens, slots): the attribute most recently bound at or before each token.

    A binding takes effect at the later of its two tokens; at equal positions the later attribute wins.
    """
    labels = np.full((n_tokens, slots), NOTHING_ID, dtype=np.int16)
    conf = np.ones((n_tokens, slots), dtype=np.float32)
    # numpy columns, read once: pandas indexing per entity cost more than the registers themselves
    ent_ids, ent_i, attr_i = (accepted[c].to_numpy() for c in ("ent_id", "ent_i", "attr_i"))
    lemmas, p = accepted["attr_lemma"].to_numpy(dtype=object), accepted["p"].to_numpy()
    for k, ent_id in enumerate(slot_entities(accepted, slots)):
        rows = np.flatnonzero(ent_ids == ent_id)
        effect = np.maximum(ent_i[rows], attr_i[rows])
        for j in np.lexsort((attr_i[rows], effect)):
            labels[effect[j]:, k] = index.get(lemmas[rows[j]].lower(), OTHER_ID)
            conf[effect[j]:, k] = p[rows[j]]
    return labels, conf
