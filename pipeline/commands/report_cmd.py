"""``regscaffold report``: the label-quality report of a run folder (report.html, report.json, a table)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from labelers.report.build import gold_note, write_report
from pipeline.commands.app import app

METHODS = {"label_model": "LabelModel", "majority_vote": "majority vote", "best_lf": "best LF"}


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{value:.3f}"


def summary_table(figures: dict[str, Any]) -> Table:
    """One row per gold set and method: precision, recall, F1, Brier, ECE."""
    table = Table(title=f"label quality: {figures['run_dir']}")
    for column in ("gold", "method", "P", "R", "F1", "Brier", "ECE"):
        table.add_column(column, justify="left" if column in ("gold", "method") else "right")
    for name, section in figures["gold_sets"].items():
        for method, label in METHODS.items():
            scores = section["aggregation"].get(method)
            if scores is None:
                continue
            cal = section["calibration"].get(method, {})
            shown = f"{label} ({scores['lf']})" if "lf" in scores else label
            table.add_row(name, shown, _fmt(scores["precision"]), _fmt(scores["recall"]), _fmt(scores["f1"]),
                          _fmt(cal.get("brier")), _fmt(cal.get("ece")))
    return table


def options_table(name: str, rows: list[dict[str, Any]]) -> Table:
    """One row per aggregator option (and the end model) on one gold set: P, R, F1, F1 minus majority vote's
    and its paired bootstrap interval; the run's aggregator is starred (Brier and ECE: report.html)."""
    table = Table(title=f"aggregator options vs majority vote, gold {name}")
    for column in ("method", "P", "R", "F1", "ΔF1", "95% CI"):
        table.add_column(column, justify="left" if column == "method" else "right")
    for r in rows:
        lo, hi = r["f1_minus_majority_ci"]
        table.add_row(r["method"] + ("*" if r["chosen"] else ""), _fmt(r["precision"]), _fmt(r["recall"]),
                      _fmt(r["f1"]), f"{r['f1_minus_majority']:+.3f}", f"[{lo:+.3f},{hi:+.3f}]")
    return table


def agreement_line(figures: dict[str, Any]) -> str:
    """The gold-free headline: the LF that agrees least with the LabelModel and the contested candidates."""
    rated = [lf for lf in figures["lfs"] if lf.get("agree_lm") is not None]
    worst = min(rated, key=lambda lf: (lf["agree_lm"], lf["lf"]), default=None)
    least = f"least agreeing LF {worst['lf']} ({_fmt(worst['agree_lm'])}); " if worst else ""
    return (f"LF agreement with the LabelModel: {least}{figures['agreement']['contested']['candidates']:,} of "
            f"{figures['totals']['candidates']:,} candidates have both BOUND and NOT_BOUND votes")


@app.command()
def report(
    run_dir: Path = typer.Argument(..., help="Run folder written by `regscaffold run`."),
    gold: Optional[Path] = typer.Option(None, help="Gold JSONL file (format: labelers/report/gold.py); "
                                        "default: data/gold/pairs.jsonl and passages.jsonl."),
    compare: Optional[Path] = typer.Option(None, help="Another run folder to compare figures and labels with."),
    split: str = typer.Option("all", help="Gold figures on the gold passages of this split only: all, valid "
                              "(to develop on) or test (to report once per change)."),
) -> None:
    """Write RUN_DIR/report.html and RUN_DIR/report.json and print the headline figures."""
    figures = write_report(run_dir, gold, compare, split)
    console = Console()
    if figures["gold_sets"]:
        console.print(summary_table(figures))
        for name, section in figures["gold_sets"].items():
            if section["options"]:
                console.print(options_table(name, section["options"]))
    if "passages" in figures["gold_sets"]:
        scored, split = figures["gold_sets"]["passages"], figures["gold"]["split"]
        console.print(f"gold passages{'' if split == 'all' else f' ({split} split)'}: {scored['gold_bound']:,} "
                      f"bindings, {scored['bound_no_candidate']:,} of them no candidate (recall lost before any LF "
                      "votes)", highlight=False)
    note = gold_note(figures, run_dir)
    if note:
        console.print(f"[yellow]note:[/] {note}", highlight=False, soft_wrap=True)
    console.print(agreement_line(figures), highlight=False, soft_wrap=True)
    regs = figures["registers"]
    console.print(f"register targets: {_fmt(regs['token_fraction_any_slot'])} of tokens have a slot label; "
                  f"OTHER share {_fmt(regs['attributes']['other_share'])}", highlight=False)
    if "compare" in figures:
        flips = figures["compare"]["flips"]
        changed = sum(row["changed"] for row in figures["compare"]["figures"])
        console.print(f"vs {figures['compare']['other_run']}: {changed} figures changed, {flips['flipped']} "
                      f"candidates flipped", highlight=False)
    console.print(f"wrote {run_dir / 'report.html'} and {run_dir / 'report.json'}", highlight=False)
