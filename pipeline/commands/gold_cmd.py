"""``regscaffold gold sample|export|import|annotate``: a gold set for a run of any corpus, annotated in Label
Studio or in the terminal (design and formats: labelers/gold_tools.py and labelers/gold_annotator.py; the
gold format: labelers/report/gold.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from pipeline.commands.app import app
from pipeline.core.errors import UserError
from pipeline.core.io import write_json, write_text

gold_app = typer.Typer(help="Make a gold set for a run: sample regions, annotate them (in Label Studio or the "
                       "terminal), import.",
                       no_args_is_help=True)
app.add_typer(gold_app, name="gold")

TODO_NAME = "gold_todo.jsonl"


def _say(message: str) -> None:
    Console().print(message, highlight=False, soft_wrap=True)


def _jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)


def _read_todo(path: Path) -> list[dict]:
    if not path.is_file():
        raise UserError(f"to-do file {path} does not exist; write one with `regscaffold gold sample RUN_DIR`")
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not a to-do file of `regscaffold gold sample` ({exc})")


@gold_app.command("sample")
def sample(
    run_dir: Path = typer.Argument(..., help="Run folder written by `regscaffold run`."),
    n: int = typer.Option(60, "--n", help="Regions to draw (from valid and test passages only)."),
    seed: int = typer.Option(0, help="Seed of the draw."),
    out: Optional[Path] = typer.Option(None, help=f"To-do file; default RUN_DIR/{TODO_NAME}."),
) -> None:
    """Draw regions to annotate, stratified by split and LF vote pattern, into a to-do file."""
    from labelers.gold_tools import sample_regions

    todo = sample_regions(run_dir, n, seed)
    target = out or run_dir / TODO_NAME
    write_text(target, _jsonl(todo))
    strata = sorted({t["stratum"] for t in todo})
    _say(f"wrote {target}: {len(todo)} regions ({', '.join(strata)}); next: annotate them in the terminal with "
         f"`regscaffold gold annotate {target}`, or in Label Studio after `regscaffold gold export {target}`")


@gold_app.command("export")
def export(
    todo: Path = typer.Argument(..., help="To-do file of `regscaffold gold sample`."),
    out: Optional[Path] = typer.Option(None, help="Label Studio tasks (JSON); default: beside TODO, .tasks.json."),
) -> None:
    """Write Label Studio import tasks (pre-filled with the LabelModel's bindings) and the labeling config."""
    from labelers.gold_tools import LABEL_CONFIG, label_studio_tasks

    tasks = label_studio_tasks(_read_todo(todo))
    target = out or todo.with_suffix(".tasks.json")
    config = target.with_name(target.name.removesuffix(".json") + ".labeling.xml")
    write_json(target, tasks)
    write_text(config, LABEL_CONFIG)
    _say(f"wrote {target} ({len(tasks)} tasks) and {config}: in Label Studio create a project with that labeling "
         "config (Settings > Labeling Interface > Code), import the tasks, annotate, export as JSON, then "
         "`regscaffold gold import EXPORT.json`")


@gold_app.command("import")
def import_(
    export_file: Path = typer.Argument(..., metavar="EXPORT", help="Label Studio JSON export."),
    out: Path = typer.Option(Path("gold.jsonl"), help="Gold file to write (format: labelers/report/gold.py)."),
) -> None:
    """Turn a Label Studio JSON export into a gold file for `regscaffold report RUN_DIR --gold FILE`."""
    from labelers.gold_tools import gold_from_label_studio

    passages, pending = gold_from_label_studio(export_file)
    if not passages:
        raise UserError(f"{export_file}: no task has an annotation yet; annotate in Label Studio and export again")
    write_text(out, _jsonl(passages))
    waiting = f"; {pending} task(s) not annotated yet are left out" if pending else ""
    _say(f"wrote {out}: {len(passages)} annotated regions with {sum(len(p['bindings']) for p in passages)} "
         f"bindings{waiting}; next: `regscaffold report RUN_DIR --gold {out}`")


@gold_app.command("annotate")
def annotate(
    todo: Path = typer.Argument(..., help="To-do file of `regscaffold gold sample`."),
    out: Path = typer.Option(Path("gold.jsonl"), help="Gold file to write (format: labelers/report/gold.py); the "
                             "answers are kept beside it in GOLD.progress.jsonl, so rerunning resumes."),
) -> None:
    """Annotate the to-do regions in the terminal, one candidate at a time, keyboard only (no Label Studio)."""
    from pipeline.commands.gold_annotate import annotate as annotate_in_terminal

    annotate_in_terminal(_read_todo(todo), todo, out, Console())
