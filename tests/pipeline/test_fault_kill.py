"""SIGKILL at seeded points inside every stage (item 6 of issue 14): the rerun completes and every output
(Parquet files, registers, label model, checkpoint, report.json, probe.json) is byte-identical to an
uninterrupted run, with no temporary file left behind; and `regscaffold train --resume` after kills
inside the training loop ends where the uninterrupted run ended.

One run folder takes all the kills in pipeline order: each rerun must redo only the stage that the
previous kill interrupted (the others print "cached") before it is killed in turn. Default mode: one kill
per stage; REGSCAFFOLD_FAULTS=full: three, and the parse stage's kills take down -j 2 worker processes.
"""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import torch

from faultkit import (ENV, RUN, RUN_ARGS, THOROUGH, Cli, delays, kill_after_write, kill_inside, land_kill,
                      new_home, outputs, recorded_stages, train_args)
from pipeline.commands.stages import STAGE_NAMES
from training import checkpoint

PER_STAGE = 3 if THOROUGH else 1


def args_for(stage: str) -> list[str]:
    """In the thorough mode a kill in the parse stage must also end spaCy's worker processes."""
    return RUN_ARGS + ["-j", "2"] if THOROUGH and stage == "parse" else RUN_ARGS


def test_sigkill_inside_every_stage_then_the_rerun_is_byte_identical(reference, tmp_path):
    home, interrupted = new_home(tmp_path, "killed"), None
    for stage, delay in delays(reference.windows, PER_STAGE):
        killed = kill_inside(home, args_for(stage), stage, delay)
        redone = {name: "ran" if name == interrupted else "cached" for name in STAGE_NAMES[:STAGE_NAMES.index(stage)]}
        assert killed.statuses == redone, f"killed in {stage} after a kill in {interrupted}:\n{killed.output()}"
        assert recorded_stages(home / RUN) == set(redone)
        interrupted = stage
    final = Cli(home, RUN_ARGS)
    assert final.finish() == 0, final.output()
    assert final.statuses == {name: "ran" if name == interrupted else "cached" for name in STAGE_NAMES}
    assert outputs(home / RUN) == reference.outputs


KILLED_WRITE = """
import os, signal, sys
from pipeline.core.io import atomic_path
with atomic_path(sys.argv[1]) as tmp:
    tmp.write_bytes(b"PAR1 and half a file")
    os.kill(os.getpid(), signal.SIGKILL)
"""
"""A process killed inside the write layer, half-way through writing: atomic_path's cleanup never runs."""


def test_a_write_killed_half_way_leaves_no_file_behind_after_the_rerun(reference, tmp_path):
    home = new_home(tmp_path, "half-written")
    shutil.copytree(reference.home / RUN, home / RUN)
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(home / RUN / "tokens.parquet")], env=ENV)
    assert killed.returncode == -signal.SIGKILL and list((home / RUN).glob(".tokens.parquet.*.tmp"))
    rerun = Cli(home, RUN_ARGS)
    assert rerun.finish() == 0, rerun.output()
    assert set(rerun.statuses.values()) == {"cached"}
    assert outputs(home / RUN) == reference.outputs


@pytest.fixture(scope="module")
def resumed(reference, tmp_path_factory) -> Path:
    """The trainer on the reference run's labels, killed inside its loop after a checkpoint (three times
    in the thorough mode), then resumed to the end: its training folder."""
    home = new_home(tmp_path_factory.mktemp("resume"), "trainer")
    shutil.copytree(reference.home / RUN, home / RUN, ignore=shutil.ignore_patterns("model"))
    trained = home / "trained"
    ckpt = trained / checkpoint.CKPT

    def kill(delay: float) -> Cli:
        """The first kill comes after the first checkpoint, so that there is a run to resume; a resumed run
        is killed anywhere in its loop, which starts when it rewrites tokenizer.json."""
        if ckpt.exists():
            return kill_after_write(home, train_args(RUN, "trained") + ["--resume"], trained / "tokenizer.json",
                                    delay)
        return kill_after_write(home, train_args(RUN, "trained"), ckpt, delay)

    for _, delay in delays({"train": reference.windows["train"]}, PER_STAGE, seed=7):
        land_kill(trained, kill, lambda: not checkpoint.read(ckpt)["done"], delay)
    finish = Cli(home, train_args(RUN, "trained") + ["--resume"])
    assert finish.finish() == 0, finish.output()
    return trained


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, tensors element by element, dict keys in the same order."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


def test_train_resume_after_sigkill_repeats_the_uninterrupted_run(reference, resumed):
    """The resumed run ends with the tokenizer, config and losses of the reference run's train stage (which
    trained without a break), and a checkpoint holding the same values. (A kill may have left a temporary
    file: the test after the next is about those.)"""
    model = reference.home / RUN / "model"
    found = {k: v for k, v in outputs(resumed).items() if k != checkpoint.CKPT and not k.endswith(".tmp")}
    assert found == {k: v for k, v in outputs(model).items() if k != checkpoint.CKPT}
    assert same(checkpoint.read(resumed), checkpoint.read(model))


def test_train_resume_after_sigkill_writes_the_uninterrupted_checkpoint_bytes(reference, resumed):
    assert outputs(resumed)[checkpoint.CKPT] == outputs(reference.home / RUN / "model")[checkpoint.CKPT]


def test_train_resume_deletes_a_file_half_written_by_the_killed_run(resumed, tmp_path):
    home = new_home(tmp_path, "trainer")
    shutil.copytree(resumed.parent / RUN, home / RUN)
    shutil.copytree(resumed, home / "trained")
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(home / "trained" / "metrics.jsonl")], env=ENV)
    assert killed.returncode == -signal.SIGKILL and list((home / "trained").glob(".metrics.jsonl.*.tmp"))
    again = Cli(home, train_args(RUN, "trained") + ["--resume"])
    assert again.finish() == 0, again.output()
    assert not list((home / "trained").glob(".*.tmp"))
