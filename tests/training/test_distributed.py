"""Data-parallel training: 2 CPU processes (gloo) follow the 1-process loss trajectory; resume under DDP."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from pipeline.commands.train_cmd import without_nproc
from pipeline.core.paths import PROJECT_ROOT as ROOT
from training import checkpoint
from training.distributed import World
from training.train import train
from trainfix import metrics, tiny_config

FLAGS = ["--data", "synthetic:fusion", "--steps", "6", "--eval-every", "3", "--model.n_layer=2", "--model.n_head=2",
         "--model.d_model=16", "--model.block_size=16", "--optim.batch_size=8", "--optim.lr=0.003",
         "--data.n_train=64", "--data.n_test=16", "--run.save_every=3", "--run.progress=false", "--run.device=cpu",
         "--run.precision=fp32"]


def cli_train(out: Path, *extra: str) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "train", "--out", str(out), *FLAGS, *extra],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    # torchrun prints a failed rank's own traceback before its summary: keep both ends of stderr
    assert done.returncode == 0, done.stderr[:3000] + "\n...\n" + done.stderr[-3000:]


def test_world_slices_a_global_batch_into_contiguous_shares():
    idx = torch.arange(8)
    assert [World(r, 2).slice(idx).tolist() for r in range(2)] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert without_nproc(["train", "--nproc", "2", "--out", "x"]) == ["train", "--out", "x"]


def test_two_processes_follow_the_one_process_trajectory_and_resume(tmp_path):
    one = tiny_config(data={"synthetic": "fusion"}, optim={"steps": 6, "lr": 3e-3},
                      run={"eval_every": 3, "save_every": 3})
    train(one, tmp_path / "one")
    cli_train(tmp_path / "two", "--nproc", "2")
    a, b = metrics(tmp_path / "one"), metrics(tmp_path / "two")
    assert [r["step"] for r in a] == [r["step"] for r in b] == [3, 6]
    for ra, rb in zip(a, b):
        for key in ("loss", "ce_loss", "reg_loss", "eval_loss", "reg_acc", "answer_acc"):
            assert rb[key] == pytest.approx(ra[key], rel=1e-5), key
    # an interrupted 2-process run: its step-3 checkpoint, then --resume under DDP
    resumed = tmp_path / "resumed"
    resumed.mkdir()
    shutil.copy(tmp_path / "two" / "ckpt-3.pt", resumed / checkpoint.CKPT)
    shutil.copy(tmp_path / "two" / "metrics.jsonl", resumed / "metrics.jsonl")  # lines past step 3 are dropped
    cli_train(resumed, "--nproc", "2", "--resume")
    straight, again = checkpoint.read(tmp_path / "two"), checkpoint.read(resumed)
    assert again["step"] == 6 and again["done"]
    assert all(torch.equal(straight["model"][k], again["model"][k]) for k in straight["model"])
    assert metrics(resumed) == metrics(tmp_path / "two")


def test_batch_must_split_evenly(tmp_path):
    env = {**os.environ, "WORLD_SIZE": "3"}  # as a launcher would set it; rejected before joining a group
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "train", "--out", str(tmp_path / "x"), *FLAGS],
                          env={**env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "batch_size 8 is not divisible by the 3 processes" in done.stderr
