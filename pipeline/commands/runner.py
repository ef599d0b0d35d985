"""Run the pipeline's stages in order, skipping those whose lock fingerprint still matches."""
from __future__ import annotations

import time
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from pipeline.commands.cluster import Tasks
from pipeline.commands.codehash import code_sha256
from pipeline.commands.lock import exclusive, files_sha256, is_fresh, json_sha256, read_lock, write_lock
from pipeline.commands.stages import STAGE_NAMES, STAGES, Context, Stage
from pipeline.core.config_loader import to_dict, to_toml
from pipeline.core.errors import UserError
from pipeline.core.io import file_sha256, make_dir, remove_temporaries, write_json, write_text

if TYPE_CHECKING:  # an annotation only: PipelineConfig imports torch, which the CLI loads when it runs
    from pipeline.commands.pipeline_config import PipelineConfig

OnStage = Callable[[str, dict[str, Any]], None]
"""Called after each stage with its name and its run.json entry (status, seconds, summary...)."""


def package_version() -> str:
    try:
        return version("regscaffold")
    except PackageNotFoundError:
        return "source"


def fingerprint(stage: Stage, ctx: Context) -> dict[str, Any]:
    """Everything a stage's output depends on, as hashes: config, code, inputs and environment."""
    resolved = to_dict(ctx.config)
    sections = {name: {k: v for k, v in resolved.get(name, {}).items() if k not in stage.volatile}
                for name in stage.sections}
    inputs = files_sha256([ctx.path(name) for name in stage.inputs])
    return {
        "config": json_sha256(sections),
        "code": code_sha256(stage.functions()),
        "inputs": {Path(k).name: v for k, v in inputs.items()},
        "environment": json_sha256(stage.environment(ctx.config)) if stage.environment else None,
    }


def producer_of(name: str) -> str:
    return next(stage.name for stage in STAGES if name in stage.outputs)


def check_inputs(stage: Stage, run_dir: Path) -> None:
    for name in stage.inputs:
        if not (run_dir / name).exists():
            producer = producer_of(name)
            raise UserError(f"stage {stage.name!r} needs {run_dir / name}, which does not exist: run stage "
                            f"{producer!r} first (regscaffold run --out {run_dir} --until {producer})")


def select(until: str | None, only: str | None) -> list[Stage]:
    for name in (until, only):
        if name is not None and name not in STAGE_NAMES:
            raise UserError(f"unknown stage {name!r}; stages are {', '.join(STAGE_NAMES)}")
    if only is not None:
        return [s for s in STAGES if s.name == only]
    last = STAGE_NAMES.index(until) if until else len(STAGES) - 1
    return list(STAGES[: last + 1])


def run_pipeline(run_dir: Path, config: PipelineConfig, *, until: str | None = None, only: str | None = None,
                 force: bool = False, on_stage: OnStage | None = None) -> dict[str, Any]:
    """Run (or skip) the selected stages; returns run.json's content, which is also written to the folder.
    One process at a time per folder (pipeline.commands.lock.exclusive)."""
    stages = select(until, only)
    make_dir(run_dir)
    with exclusive(run_dir), Tasks(config.cluster.workers, config.cluster.scheduler) as tasks:
        return _run_stages(run_dir, config, stages, force, on_stage, tasks)


def _run_stages(run_dir: Path, config: PipelineConfig, stages: list[Stage], force: bool,
                on_stage: OnStage | None, tasks: Tasks) -> dict[str, Any]:
    remove_temporaries(run_dir)  # half-written files of a killed run (model/ and .parts/ go with their stage)
    write_text(run_dir / "config.toml", to_toml(config))
    lock = read_lock(run_dir)
    report: dict[str, Any] = {"version": package_version(), "run_dir": str(run_dir), "stages": {}}
    for stage in stages:
        check_inputs(stage, run_dir)
        ctx = Context(run_dir, config, tasks=tasks)
        print_fp = fingerprint(stage, ctx)
        ctx.key = json_sha256(print_fp)
        entry = lock["stages"].get(stage.name)
        if not force and is_fresh(entry, print_fp, run_dir):
            report["stages"][stage.name] = {**entry, "status": "cached"}
        else:
            started = time.perf_counter()
            summary = stage.run(ctx)
            # keyed by the name relative to the run folder, as lock.is_fresh looks outputs up (model/ckpt.pt)
            entry = {"fingerprint": print_fp, "outputs": {name: file_sha256(ctx.path(name)) for name in stage.outputs},
                "seconds": round(time.perf_counter() - started, 2), "summary": summary,
                "warnings": ctx.warnings, "finished": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            lock["stages"][stage.name] = entry
            write_lock(run_dir, lock)  # after every stage: a killed run resumes at the next one
            report["stages"][stage.name] = {**entry, "status": "ran"}
        if on_stage is not None:
            on_stage(stage.name, report["stages"][stage.name])
    report["warnings"] = [w for s in report["stages"].values() for w in s.get("warnings", [])]
    write_json(run_dir / "run.json", report)
    return report
