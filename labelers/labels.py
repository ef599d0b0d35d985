"""The three votes a labeling function can cast on a candidate (entity mention, adjective) pair. The rule
that turns a probability of BOUND into an accepted binding is pipeline.core.registers.is_binding."""

BOUND = 1
"""The text asserts the adjective as a property of the entity mention (issue 2, item 4b)."""
NOT_BOUND = 0
"""The pair is not a binding: unrelated, negated, expletive, comparative, determiner-like, inside a name..."""
ABSTAIN = -1
"""The labeling function has no opinion on this pair."""

LABEL_NAMES = {BOUND: "BOUND", NOT_BOUND: "NOT_BOUND", ABSTAIN: "ABSTAIN"}
