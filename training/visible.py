"""Register targets a training window can see (data.targets = "window"), and a count of those it cannot.

The first real-text design took each passage's registers as they were and cut the passage into windows,
so a window from the middle of a passage inherited slots and labels set by bindings before it began (64%
of its non-NOTHING targets, measured). Here a window's targets come only from the accepted bindings whose
two tokens both lie inside the window: its slots are the first K entities (in the passage's order of first
mention, pipeline.core.registers.slot_entities) that receive such a binding, and slot k at an input position t
holds the attribute most recently bound to its entity inside the window at or before t
(pipeline.core.registers.passage_registers on the window's bindings). ``invisible`` counts, for any targets,
the non-NOTHING ones that no binding inside the window at or before t explains.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.core.registers import passage_registers, slot_entities
from pipeline.core.schemas import NOTHING_ID, OTHER_ID

EVENT_COLUMNS = ["ent_i", "attr_i", "ent_id", "attr_lemma", "p"]
"""An accepted binding of one passage: its spaCy token indices, entity, attribute lemma and P(BOUND)."""


def inside(events: pd.DataFrame, rows: np.ndarray) -> tuple[pd.DataFrame, int, int]:
    """The bindings whose two tokens are spaCy tokens the window covers, re-indexed from the window's first
    covered token; and that token range [lo, hi)."""
    covered = rows[rows >= 0]
    if not len(covered):
        return events.iloc[:0], 0, 0
    lo, hi = int(covered.min()), int(covered.max()) + 1
    keep = events[events["ent_i"].between(lo, hi - 1) & events["attr_i"].between(lo, hi - 1)]
    return keep.assign(ent_i=keep["ent_i"] - lo, attr_i=keep["attr_i"] - lo), lo, hi


def window_targets(rows: np.ndarray, events: pd.DataFrame, index: dict[str, int],
                   slots: int) -> tuple[np.ndarray, np.ndarray]:
    """(labels, conf), each (n, slots), of a window whose n input tokens sit on spaCy tokens ``rows``
    (training.tokenizer.token_rows: -1 before the first)."""
    local, lo, hi = inside(events, rows)
    labels_sp, conf_sp = passage_registers(hi - lo, local, index, slots)
    labels = np.full((len(rows), slots), NOTHING_ID, dtype=np.int64)
    conf = np.ones((len(rows), slots), dtype=np.float32)
    on = rows >= 0
    labels[on], conf[on] = labels_sp[rows[on] - lo], conf_sp[rows[on] - lo]
    return labels, conf


def invisible(labels: np.ndarray, rows: np.ndarray, events: pd.DataFrame, slot_ents: list[int],
              index: dict[str, int]) -> tuple[int, int]:
    """(targets no binding inside the window at or before their position explains, non-NOTHING targets).

    A target (t, k) = c is explained when slot k's entity ``slot_ents[k]`` has a binding to an attribute of
    class c whose two tokens are covered by the window and whose later token is at or before row t.
    """
    local, lo, _ = inside(events, rows)
    effect = np.maximum(local["ent_i"].to_numpy(), local["attr_i"].to_numpy()) + lo
    classes = np.array([index.get(a.lower(), OTHER_ID) for a in local["attr_lemma"]], dtype=np.int64)
    ents = local["ent_id"].to_numpy()
    unexplained = total = 0
    for t, k in zip(*np.nonzero(labels != NOTHING_ID)):
        total += 1
        entity = slot_ents[k] if k < len(slot_ents) else None
        if not ((ents == entity) & (classes == labels[t, k]) & (effect <= rows[t])).any():
            unexplained += 1
    return unexplained, total


def window_slot_entities(rows: np.ndarray, events: pd.DataFrame, slots: int) -> list[int]:
    """The entities a window's slots track (see the module docstring)."""
    return slot_entities(inside(events, rows)[0], slots)
