"""The three votes a labeling function can cast on a candidate (entity mention, adjective) pair, and the
one rule that turns a probability of BOUND into an accepted binding."""
import numpy as np

BOUND = 1
"""The text asserts the adjective as a property of the entity mention (issue 2, item 4b)."""
NOT_BOUND = 0
"""The pair is not a binding: unrelated, negated, expletive, comparative, determiner-like, inside a name..."""
ABSTAIN = -1
"""The labeling function has no opinion on this pair."""

LABEL_NAMES = {BOUND: "BOUND", NOT_BOUND: "NOT_BOUND", ABSTAIN: "ABSTAIN"}

MIN_THRESHOLD = 0.5
"""The lowest binding threshold: majority vote gives P(BOUND) = 0.5 exactly on a tie and on a row with no
vote, and such a row asserts nothing."""


def is_binding(p_bound, threshold: float) -> np.ndarray:
    """Accepted bindings: P(BOUND) strictly above ``threshold`` (>= MIN_THRESHOLD), so that a tie or a
    row without votes is never one, for the LabelModel, majority vote and its fallback alike."""
    return np.asarray(p_bound) > threshold
