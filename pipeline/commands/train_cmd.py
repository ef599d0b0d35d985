"""``regscaffold train``: the trainer (training/) on a run folder's labels or on the synthetic task."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from pipeline.commands.app import OVERRIDES, app
from pipeline.core.config_loader import Overrides, load_config, parse_overrides
from pipeline.core.errors import UserError

SYNTHETIC = "synthetic:"


def flag_overrides(labels: Optional[Path], data: Optional[str], steps: Optional[int], seed: Optional[int],
                   aux_weight: Optional[float], eval_every: Optional[int], lr_schedule: Optional[str],
                   stop_at_solve: bool) -> Overrides:
    """The named options that were given, as overrides."""
    if data is not None and not data.startswith(SYNTHETIC):
        raise UserError(f"--data {data!r}: expected synthetic:TASK (e.g. synthetic:fusion); "
                        "for a pipeline run folder use --labels RUN_DIR")
    values = {"data.labels": str(labels) if labels is not None else None,
              "data.synthetic": data[len(SYNTHETIC):] if data is not None else None,
              "optim.steps": steps, "run.seed": seed, "loss.aux_weight": aux_weight,
              "run.eval_every": eval_every, "optim.lr_schedule": lr_schedule,
              "run.stop_at_solve": True if stop_at_solve else None}
    return {key: value for key, value in values.items() if value is not None}


def without_nproc(argv: list[str]) -> list[str]:
    """The command line minus its --nproc option, for the processes the launcher starts.

    >>> without_nproc(["train", "--nproc", "2", "--out", "x", "--nproc=3"])
    ['train', '--out', 'x']
    """
    out, skip = [], False
    for arg in argv:
        if skip or arg.startswith("--nproc="):
            skip = False
            continue
        skip = arg == "--nproc"
        if not skip:
            out.append(arg)
    return out


@app.command(context_settings=OVERRIDES)
def train(
    ctx: typer.Context,
    labels: Optional[Path] = typer.Option(None, help="Pipeline run folder with docs.parquet and registers.parquet."),
    data: Optional[str] = typer.Option(None, help="Synthetic task instead of labels: synthetic:fusion."),
    out: Path = typer.Option(..., help="Training folder: checkpoints, tokenizer, config.toml, metrics.jsonl."),
    config: Optional[Path] = typer.Option(None, help="TOML config file (sections model, loss, optim, run, data)."),
    steps: Optional[int] = typer.Option(None, help="Optimizer steps (optim.steps)."),
    seed: Optional[int] = typer.Option(None, help="Seed of initialization and batch order (run.seed)."),
    aux_weight: Optional[float] = typer.Option(None, help="Register loss weight lambda; 0 = plain CE."),
    eval_every: Optional[int] = typer.Option(None, help="Evaluate and checkpoint every N steps."),
    lr_schedule: Optional[str] = typer.Option(None, help="cosine or constant."),
    stop_at_solve: bool = typer.Option(False, "--stop-at-solve", help="Synthetic: stop at answer accuracy >= 0.95."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out from its ckpt.pt."),
    nproc: int = typer.Option(1, "--nproc", min=1, help="Data-parallel processes (torch.distributed.run + DDP); "
                              "optim.batch_size is the global batch and must be a multiple of it."),
) -> None:
    """Train the transformer with register heads; extra --section.key=value arguments override the config
    (named options win over them)."""
    from labelers.probe_sets import load_assertions
    from training import distributed  # torch loads only when training
    from training.config import TrainConfig
    from training.train import READOUTS, train as run_training

    if nproc > 1 and distributed.world_from_env().size == 1:
        distributed.launch(nproc, without_nproc(sys.argv[1:]))
        return

    overrides = parse_overrides(ctx.args) | flag_overrides(labels, data, steps, seed, aux_weight, eval_every,
                                                lr_schedule, stop_at_solve)
    records = run_training(load_config(TrainConfig, config, overrides), out, resume=resume,
                           assertions=load_assertions)
    world = distributed.world_from_env()
    if world.main:
        show(records, out, out / READOUTS)
    distributed.end_rank(world)


def show(records: list[dict], out: Path, readouts: Path) -> None:
    """The finished run's last metrics and, when it trained with readouts, their share and no-context prior."""
    last = records[-1] if records else {}
    shown = ", ".join(f"{k} {last[k]:.4g}" for k in ("loss", "eval_loss", "answer_acc", "reg_acc") if k in last)
    Console().print(f"trained to step {last.get('step', 0)} in {out}: {shown}", highlight=False)
    if readouts.exists():
        found = json.loads(readouts.read_text(encoding="utf-8"))
        prior = found["prior"]
        Console().print(f"readouts: {found['readout_share']:.1%} of training tokens ({found['lines']} lines in "
                        f"{found['rows_with_readouts']} windows + {found['twins']} twins); no-context prior on "
                        f"{prior['held_out_lines']} held-out lines: accuracy {prior['accuracy']:.3f}, with their twins "
                        f"{prior['accuracy_with_twins']:.3f} (chance 0.5), swap test {prior['swap_accuracy']:.3f} (random 0.25)", highlight=False, soft_wrap=True)
        if found.get("annotations"):
            Console().print(f"annotations: {found['annotation_share']:.1%} of training tokens ({found['annotations']} of "
                            f"{found['rementions']} re-mentions)", highlight=False, soft_wrap=True)
