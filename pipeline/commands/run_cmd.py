"""``regscaffold run``: the labeling pipeline on a corpus (default: the bundled Austen novels)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from pipeline.commands.app import OVERRIDES, app
from pipeline.commands.runner import run_pipeline
from pipeline.commands.stages import STAGE_NAMES
from pipeline.core.config_loader import load_config, parse_overrides

HEADLINES = {"ingest": "passages", "parse": "tokens", "candidates": "candidates", "label": "any_vote",
             "aggregate": "accepted", "endmodel": "accepted", "registers": "token_fraction_any_slot", "report": "html",
             "train": "eval_ce_loss"}
HEADLINE_FALLBACKS = {"eval_ce_loss": "ce_loss"}
"""A headline figure a stage may lack and the one shown instead: a corpus too small to give the valid split
one training window has no evaluation loss, only the training loss."""


def _headline(name: str, entry: dict[str, Any]) -> str:
    summary = entry.get("summary", {})
    if name == "probe":  # per probe file: accuracy and binding figures; a set built from the run says its size
        return ", ".join(_probe_headline(file, r) for file, r in summary.items())
    key = HEADLINES.get(name)
    if key in HEADLINE_FALLBACKS and key not in summary:
        key = HEADLINE_FALLBACKS[key]
    value = summary.get(key)
    if isinstance(value, float):
        return f"{key} = {value:.4f}"
    return f"{key} = {value:,}" if isinstance(value, int) else f"{key} = {value}" if key else ""


def _probe_headline(name: str, result: dict[str, Any]) -> str:
    size = f"{name} ({result['n']:,} items, {result['pairs']:,} pairs)" if result.get("built") else name
    if "skipped" in result:
        return f"{size} not scored (too few pairs)"
    found = f"{size} acc = {result['accuracy']:.3f}"
    if "swap_accuracy" in result:  # the binding figures: the swap test against its random level, the margin
        found += f", swap {result['swap_accuracy']:.3f} (random {result['swap_random']:.2f})"
    if "margin" in result:
        found += f", margin {result['margin']:+.4f} [{result['margin_ci_low']:+.4f}, {result['margin_ci_high']:+.4f}]"
    return found


@app.command(context_settings=OVERRIDES)
def run(
    ctx: typer.Context,
    corpus: Optional[str] = typer.Option(None, help="File, directory or glob (.txt, .txt.gz, .jsonl, .parquet); "
                                         "default: the bundled Austen corpus."),
    out: Path = typer.Option(Path("runs/default"), help="Run folder."),
    config: Optional[Path] = typer.Option(None, help="TOML config file (sections: docs/config.md)."),
    until: Optional[str] = typer.Option(None, help=f"Last stage to run: {', '.join(STAGE_NAMES)}."),
    only: Optional[str] = typer.Option(None, help="Run just this stage (its inputs must exist)."),
    force: bool = typer.Option(False, "--force", help="Rerun the selected stages even if cached."),
    jobs: Optional[int] = typer.Option(None, "-j", "--jobs", help="Worker processes of a local Dask cluster "
                                       "(cluster.workers; 1: no cluster, every task in this process)."),
    scheduler: Optional[str] = typer.Option(None, help="Address of a running Dask scheduler to run the tasks "
                                            "on (cluster.scheduler), e.g. tcp://10.0.0.5:8786."),
) -> None:
    """Run the labeling pipeline; extra --section.key=value arguments override the config."""
    from pipeline.commands.pipeline_config import PipelineConfig  # it imports torch: load it when running

    overrides = parse_overrides(ctx.args)
    if corpus is not None:
        overrides["ingest.corpus"] = corpus
    if jobs is not None:
        overrides["cluster.workers"] = jobs
    if scheduler is not None:
        overrides["cluster.scheduler"] = scheduler
    resolved = load_config(PipelineConfig, config, overrides)
    console = Console()

    def show(name: str, entry: dict[str, Any]) -> None:
        console.print(f"[bold]{name:<11}[/] {entry['status']:<7} {entry.get('seconds', 0):>8.1f}s  "
                      f"{_headline(name, entry)}", highlight=False)

    report = run_pipeline(out, resolved, until=until, only=only, force=force, on_stage=show)
    table = Table(title=f"run folder {out}")
    for column in ("stage", "status", "seconds", "figure"):
        table.add_column(column)
    for name, entry in report["stages"].items():
        table.add_row(name, entry["status"], f"{entry.get('seconds', 0):.1f}", _headline(name, entry))
    console.print(table)
    for warning in report["warnings"]:
        console.print(f"[yellow]warning:[/] {warning}", highlight=False)
