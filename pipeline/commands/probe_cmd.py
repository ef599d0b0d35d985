"""``regscaffold probe`` (score a checkpoint on a binding-probe file) and ``regscaffold probes build|sample``
(make probe sets from a run folder; format and design in training/probes.py and labelers/probe_sets.py)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from labelers.probe_sets import write_jsonl
from pipeline.commands.app import app
from pipeline.core.errors import UserError
from pipeline.core.io import write_json

probes_app = typer.Typer(help="Build binding-probe sets from a run folder.", no_args_is_help=True)
app.add_typer(probes_app, name="probes")

HANDCHECK_FIELDS = ("id", "pair", "context", "query", "candidates", "answer", "evidence")
CONTEXT_SHOWN = 600  # characters of context an annotator sees (the bindings are in the last 400)


def _interval(figures: dict[str, Any], fmt: str = ".3f") -> str:
    return f"[{figures['ci_low']:{fmt}}, {figures['ci_high']:{fmt}}]"


def result_table(title: str, result: dict[str, Any]) -> Table:
    """The figures of training.probes.summarize: rows of (figure, value, 95% interval, what to compare with)."""
    table = Table(title=title)
    for column in ("figure", "value", "95% interval", "compare"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    table.add_row("accuracy", f"{result['accuracy']:.3f}", _interval(result), f"chance {result['chance']:.3f}")
    swap, margin = result.get("swap"), result.get("margin")
    if swap:
        table.add_row("swap test", f"{swap['accuracy']:.3f}", _interval(swap), f"random {swap['random']:.3f}")
    if margin:
        table.add_row("margin (nats)", f"{margin['mean']:+.4f}", _interval(margin, "+.4f"), "0 = no binding")
    table.add_row("no-context accuracy", f"{result['nocontext']['accuracy']:.3f}", _interval(result["nocontext"]),
                  "swap test 0")
    for name, figures in result["baselines"].items():
        swapped = f"swap test {figures['swap_accuracy']:.3f}" if "swap_accuracy" in figures else ""
        table.add_row(f"baseline: {name}", f"{figures['accuracy']:.3f}", "", swapped)
    for name, figures in result["strata"].items():
        shown = f"margin {figures['margin']['mean']:+.4f}" if figures["margin"] else ""
        table.add_row(f"swap test, {name}", f"{figures['swap']['accuracy']:.3f}", _interval(figures["swap"]), shown)
    notes = [f"{result['n']} items in {result['pairs']} pairs"]
    if margin:
        twins = "averaged with their twins" if margin["twinned"] else "no twins"
        notes.append(f"margin over {margin['pairs']} pairs, {twins}")
    notes += [f"{name}: {f['swap']['pairs']} pairs" for name, f in result["strata"].items()]
    table.caption = "; ".join(notes + ([result["note"]] if "note" in result else []))
    return table


def probe_file(checkpoint: Path, probes: Path, out: Optional[Path] = None) -> dict[str, Any]:
    """Score a checkpoint on a probe file; writes ``out`` (JSON) when given."""
    from training.checkpoint import evaluate_checkpoint
    from training.probes import read_probes

    result = {"checkpoint": str(checkpoint), "probes": str(probes),
              **evaluate_checkpoint(checkpoint, read_probes(probes))}
    if out is not None:
        write_json(out, result)
    return result


@app.command()
def probe(
    checkpoint: Path = typer.Option(..., help="Checkpoint file or training folder (ckpt.pt)."),
    probes: Path = typer.Option(..., help="Probe JSONL file (format: training/probes.py)."),
    out: Optional[Path] = typer.Option(None, help="Write the figures and every item's scores here (JSON)."),
) -> None:
    """Binding probes of a checkpoint: accuracy, the swap test with its random level, the binding margin, the
    no-context control, the strata and the baselines, with pair-bootstrap 95% intervals."""
    result = probe_file(checkpoint, probes, out)
    Console().print(result_table(f"probes {probes}", result))
    if out is not None:
        Console().print(f"wrote {out}", highlight=False, soft_wrap=True)


@probes_app.command("build")
def build(
    run_dir: Path = typer.Argument(..., help="Run folder written by `regscaffold run`."),
    out: Path = typer.Option(Path("data/probes/generated_test.jsonl"), help="Probe file to write."),
    min_p: float = typer.Option(0.9, help="Generated set: every binding used needs p_lm >= this."),
    gold: Optional[Path] = typer.Option(None, help="Build the gold set (a) from this gold passages file "
                                        "instead of the generated set (b)."),
    split: list[str] = typer.Option(["test"], help="Split(s) whose passages are used (repeat the option)."),
    pronouns: bool = typer.Option(False, "--pronouns", help="Generated set: also use bindings made through a "
                                  "pronoun (resolved by the heuristic coreference)."),
) -> None:
    """Write a paired probe set and print its size and its baselines (which must sit at chance)."""
    from pipeline.core import schemas as S
    from pipeline.core.io import read_parquet
    from labelers.probe_sets import generated_items, gold_items
    from training.data import word_counts
    from training.probes import baseline_accuracy, probe_of

    if gold is None and len(split) != 1:
        raise UserError(f"--split: the generated set takes one split, got {split}")
    items = gold_items(run_dir, gold, split) if gold else generated_items(run_dir, min_p, split[0], pronouns=pronouns)
    if not items:
        raise UserError(f"no probe item could be made from {run_dir} (splits {split}); see labelers/probe_sets.py "
                        "for the conditions an entity pair must meet")
    write_jsonl(out, items)
    docs = read_parquet(run_dir / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    counts = word_counts(docs.loc[docs["split"] == "train", "text"].tolist())
    probes = [probe_of(i) for i in items]
    shown = ", ".join(f"{k} {v:.3f}" for k, v in baseline_accuracy(probes, counts).items())
    Console().print(f"wrote {out}: {len(items)} items in {len({i['pair'] for i in items})} pairs from "
                    f"{len({i['doc_id'] for i in items})} passages; baselines: {shown}", highlight=False,
                    soft_wrap=True)


@probes_app.command("sample")
def sample(
    probes: Path = typer.Argument(..., help="Probe file to draw from."),
    out: Path = typer.Option(Path("data/probes/handcheck_todo.jsonl"), help="Annotation packet to write."),
    n: int = typer.Option(50, help="Items to draw."),
    seed: int = typer.Option(0, help="Seed of the draw."),
) -> None:
    """Draw items for a hand check of the set's precision: is the answer what the text asserts?"""
    from training.probes import read_probes

    read_probes(probes)  # validates the file
    rows = [json.loads(line) for line in probes.read_text(encoding="utf-8").splitlines() if line.strip()]
    if n > len(rows):
        raise UserError(f"--n {n} is more than the {len(rows)} items of {probes}")
    drawn = random.Random(seed).sample(rows, n)
    packet = [{k: row[k] for k in HANDCHECK_FIELDS if k in row} | {
        "context": ("..." if len(row["context"]) > CONTEXT_SHOWN else "") + row["context"][-CONTEXT_SHOWN:],
        "correct": None} for row in drawn]
    write_jsonl(out, packet)
    Console().print(f"wrote {out}: {n} items (seed {seed}); set \"correct\" to true or false in each line",
                    highlight=False, soft_wrap=True)
