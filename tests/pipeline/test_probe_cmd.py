"""`regscaffold probe`'s table: swap test with its random level, the margin with its interval, the no-context
control, the baselines and the strata; an old probe file's note names the fix."""
from __future__ import annotations

from rich.console import Console

from pipeline.commands.probe_cmd import result_table
from training.probes import Probe, evaluate

CONTEXT = "The old captain met a young sailor."
BOUND = ((8, 15, 4, 7), (28, 34, 22, 27))
PAIR = [Probe("p-a", "p", CONTEXT, " The captain was", ("old", "young"), "old", BOUND),
        Probe("p-b", "p", CONTEXT, " The sailor was", ("old", "young"), "young", BOUND)]


def shown(result) -> str:
    console = Console(record=True, width=120)
    console.print(result_table("probes", result))
    return console.export_text()


def by_length(pairs):  # a context-free stand-in model: longer candidates score lower
    return [-float(len(cont)) for _, cont in pairs]


def test_the_table_shows_the_binding_figures_beside_the_baselines():
    text = shown(evaluate(PAIR, by_length, {"old": 3, "young": 1}))
    for row in ("swap test", "random 0.250", "margin (nats)", "+0.0000", "no-context accuracy",
                "baseline: adjacency", "baseline: most_frequent", "swap test, adjacent", "2 items in 1 pairs"):
        assert row in text, row


def test_an_old_file_without_offsets_is_scored_with_a_note_naming_the_fix():
    old = [Probe(p.id, p.pair, p.context, p.query, p.candidates, p.answer) for p in PAIR]
    text = shown(evaluate(old, by_length))
    assert "swap test," not in text and "random 0.250" not in text
    assert "regscaffold probes build" in text and "margin over 1 pairs, no twins" in text
