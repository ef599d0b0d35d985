"""Fault injection for the pipeline's tests: the CLI in a subprocess, killed with SIGKILL (its whole process
group) inside a chosen stage, and a run folder's outputs in a form that two runs can be compared by.

Where a kill lands: a stage's window opens at its trigger and closes when the CLI prints the stage's line
(just after run.lock records the stage). The trigger is the previous stage's line, except for ingest
(RUN/config.toml is rewritten, the first thing a run does) and train (RUN/model/tokenizer.json is
written, just before the training loop starts). Windows are measured on an uninterrupted run on this
machine at test time, so a delay is a fraction of how long the stage takes here and now; a kill that
still lands too late is detected (run.lock records the stage) and retried with a shorter delay.

REGSCAFFOLD_FAULTS=full is the thorough mode (several kills per stage, a disk fault at every write);
the default does one of each per stage, to keep CI short. REGSCAFFOLD_FAULTS_SEED reseeds the delays.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pipeline.commands.lock import IN_USE_NAME
from pipeline.commands.pipeline_config import PipelineConfig
from pipeline.commands.stages import STAGE_NAMES
from pipeline.core.config_loader import flatten, load_config, parse_overrides, to_dict

THOROUGH = os.environ.get("REGSCAFFOLD_FAULTS") == "full"
SEED = int(os.environ.get("REGSCAFFOLD_FAULTS_SEED", "14"))
HARBOR = Path(__file__).parents[1] / "fixtures" / "own" / "harbor.txt"
CORPUS, RUN = "harbor.txt", "run"

# Sized so every stage does real work in seconds: 10 passages in 5 parse shards; the LabelModel (not the
# small-corpus fallback) is fitted and the end model trained; 60 training steps with a checkpoint every 20;
# the probe is scored.
SETTINGS = ["--ingest.valid_fraction=0.2", "--ingest.test_fraction=0.2", "--parse.shard_docs=2",
            "--aggregate.min_train_rows=20", "--aggregate.epochs=50", "--endmodel.min_train_rows=20",
            "--probe.min_pairs=5",
            "--train.steps=60", "--train.eval_every=20", "--train.n_layer=1", "--train.n_head=2",
            "--train.d_model=16", "--train.block_size=32", "--train.data.readout_tokens=8", "--train.bpe_vocab_size=512",
            "--train.batch_size=2", "--train.warmup_steps=0"]
RUN_ARGS = ["run", "--corpus", CORPUS, "--out", RUN, *SETTINGS]
ENV = {"PATH": "/usr/bin:/bin", "OMP_WAIT_POLICY": "PASSIVE", "REGSCAFFOLD_QUIET": "1",
       "PYTHONUNBUFFERED": "1", "COLUMNS": "200", "PYTHONPATH": str(Path(__file__).parents[2]),
       **{k: os.environ[k] for k in ("OMP_NUM_THREADS",) if k in os.environ}}
"""PYTHONPATH: the processes run this checkout's code (the venv's editable install may point at another);
a Dask cluster's worker processes inherit it. OMP_NUM_THREADS passes through: torch's float sums depend on
its thread count, so a reference run in a subprocess must use the same count as the in-process runs it is
compared with (with OMP_NUM_THREADS=1 in the test's environment, endmodel.pt and the trained model differ
otherwise)."""
FILE_TRIGGERS = {"ingest": "config.toml", "train": "model/tokenizer.json"}
STAGE_LINE = re.compile(r"^(\w+)\s+(ran|cached)\s")
TIMINGS = ("tokens_per_s", "train_seconds")
"""metrics.jsonl fields that measure time, not the model."""


def train_args(labels: str, out: str) -> list[str]:
    """`regscaffold train` with the settings the run's train stage passes the trainer."""
    train = load_config(PipelineConfig, None, parse_overrides([a for a in SETTINGS if a.startswith("--train.")])).train
    settings = flatten(to_dict(train)) | {"data.labels": labels}
    return ["train", "--out", out, *(f"--{key}={json.dumps(value)}" for key, value in settings.items())]


def new_home(root: Path, name: str) -> Path:
    """A user's folder holding the corpus, given to the CLI by a relative name: split assignment hashes
    the name as given, so runs in different folders are comparable."""
    home = root / name
    home.mkdir()
    shutil.copy(HARBOR, home / CORPUS)
    return home


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _lock_hashes(path: Path) -> dict:
    return {name: {"fingerprint": e["fingerprint"], "outputs": e["outputs"]}
            for name, e in json.loads(path.read_text())["stages"].items()}


def _metrics_without_timings(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k not in TIMINGS}
            for line in path.read_text().splitlines()]


NORMALISED = {"run.lock": _lock_hashes, "metrics.jsonl": _metrics_without_timings}
"""By file name: a training folder's metrics.jsonl is RUN/model/'s."""


NOT_OUTPUTS = {"run.json", IN_USE_NAME}
"""A record of this run (timings, cached or ran) and the folder lock (its holder's pid)."""


def outputs(run_dir: Path) -> dict[str, object]:
    """Every file of a run folder but NOT_OUTPUTS, hidden ones included (a left-over temporary file shows),
    as its SHA-256; run.lock and metrics.jsonl are kept without their timings."""
    found: dict[str, object] = {}
    for path in sorted(p for p in run_dir.rglob("*") if p.is_file()):
        name = path.relative_to(run_dir).as_posix()
        if name not in NOT_OUTPUTS:
            found[name] = NORMALISED.get(path.name, _sha256)(path)
    return found


def recorded_stages(run_dir: Path) -> set[str]:
    lock = run_dir / "run.lock"
    return set(json.loads(lock.read_text())["stages"]) if lock.exists() else set()


def _signature(path: Path) -> tuple[int, int] | None:
    """Changes when the file is replaced (atomic writes give it a new inode and mtime)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_ino, stat.st_mtime_ns


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group is still running (zombies, already dead, do not count)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


class Cli:
    """`regscaffold ARGS` in its own process group, its output lines timestamped as they arrive."""

    def __init__(self, home: Path, args: list[str]):
        script = Path(sys.executable).parent / "regscaffold"
        self.run_dir, self.log = home / RUN, []
        self.statuses: dict[str, str] = {}
        """What each stage's line said: ran or cached."""
        self.ended: dict[str, float] = {}
        self.before = _file_signatures(self.run_dir)  # before it starts: a trigger is a change from these
        self.proc = subprocess.Popen([str(script), *args], cwd=home, env=ENV, text=True, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line))
        self.lines.put((time.monotonic(), None))

    def output(self) -> str:
        return "".join(self.log)

    def _next(self) -> str | None:
        """The next line (None at the end of output), logged, with the stage status it reports."""
        when, line = self.lines.get(timeout=600)
        found = STAGE_LINE.match(line or "")
        if found:
            self.statuses[found[1]], self.ended[found[1]] = found[2], when
        if line is not None:
            self.log.append(line)
        return line

    def stage_end(self, stage: str) -> float:
        """Wait for the line that says ``stage`` ended; when it came."""
        while stage not in self.ended:
            if self._next() is None:
                raise AssertionError(f"regscaffold ended (exit {self.proc.wait()}) before stage {stage} did:\n"
                                     f"{self.output()}")
        return self.ended[stage]

    def file_replaced(self, path: Path, before: tuple[int, int] | None) -> float:
        """Poll until ``path`` differs from its signature ``before``; when it did."""
        while _signature(path) == before:
            if self.proc.poll() is not None:
                raise AssertionError(f"regscaffold ended (exit {self.proc.returncode}) before writing {path}")
            time.sleep(0.001)
        return time.monotonic()

    def kill(self) -> None:
        """SIGKILL to the whole group (spaCy's worker processes too), then wait until none is left."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:  # it had already ended: the caller sees its exit status
            pass
        self.proc.wait()
        deadline = time.monotonic() + 30
        while _group_alive(self.proc.pid):
            assert time.monotonic() < deadline, f"processes of group {self.proc.pid} outlived SIGKILL"
            time.sleep(0.01)

    def finish(self) -> int:
        while self._next() is not None:
            pass
        return self.proc.wait()


def _trigger(cli: Cli, stage: str, previous_end: float | None) -> float:
    if stage in FILE_TRIGGERS:
        return cli.file_replaced(cli.run_dir / FILE_TRIGGERS[stage], cli.before[stage])
    return previous_end


def _file_signatures(run_dir: Path) -> dict:
    return {stage: _signature(run_dir / name) for stage, name in FILE_TRIGGERS.items()}


@dataclass
class Reference:
    """An uninterrupted run: where it is, each stage's window in seconds, and its outputs."""
    home: Path
    windows: dict[str, float]
    outputs: dict[str, object]


def reference_run(home: Path) -> Reference:
    cli, windows, end = Cli(home, RUN_ARGS), {}, None
    for stage in STAGE_NAMES:
        start = _trigger(cli, stage, end)
        end = cli.stage_end(stage)
        windows[stage] = end - start
    assert cli.finish() == 0, cli.output()
    return Reference(home, windows, outputs(home / RUN))


def kill_in_stage(home: Path, args: list[str], stage: str, delay: float) -> Cli:
    """Start a run and SIGKILL it ``delay`` seconds after ``stage``'s trigger; the killed CLI, whose
    ``statuses`` say what the stages before it printed (ran or cached)."""
    cli, end = Cli(home, args), None
    for name in STAGE_NAMES[:STAGE_NAMES.index(stage)]:
        end = cli.stage_end(name)
    start = _trigger(cli, stage, end)
    time.sleep(max(0.0, start + delay - time.monotonic()))  # the delay is the fault being injected
    cli.kill()
    return cli


def kill_after_write(home: Path, args: list[str], path: Path, delay: float) -> Cli:
    """Start ``regscaffold ARGS`` and SIGKILL it ``delay`` seconds after it (re)writes ``path``."""
    before = _signature(path)
    cli = Cli(home, args)
    start = cli.file_replaced(path, before)
    time.sleep(max(0.0, start + delay - time.monotonic()))  # the delay is the fault being injected
    cli.kill()
    return cli


def land_kill(folder: Path, kill: Callable[[float], Cli], inside: Callable[[], bool], delay: float,
              tries: int = 5) -> Cli:
    """``kill(delay)`` until ``inside()`` says it landed where it should (the process must then have died
    of SIGKILL). A kill that came too late (the machine ran faster than when the window was measured) is
    undone by restoring ``folder`` as it was, and retried with half the delay."""
    snapshot = folder.with_name(f"{folder.name}.before-kill")
    for _ in range(tries):
        shutil.rmtree(snapshot, ignore_errors=True)
        if folder.exists():
            shutil.copytree(folder, snapshot, symlinks=True)
        cli = kill(delay)
        if inside():
            assert cli.proc.returncode == -signal.SIGKILL, f"exit {cli.proc.returncode}:\n{cli.output()}"
            return cli
        shutil.rmtree(folder, ignore_errors=True)
        if snapshot.exists():
            shutil.copytree(snapshot, folder, symlinks=True)
        delay /= 2
    raise AssertionError(f"no kill landed inside the window in {tries} tries (last delay {delay:.4f}s)")


def kill_inside(home: Path, args: list[str], stage: str, delay: float) -> Cli:
    """A kill that lands inside ``stage``: after its trigger, before run.lock recorded it."""
    return land_kill(home / RUN, lambda d: kill_in_stage(home, args, stage, d),
                     lambda: stage not in recorded_stages(home / RUN), delay)


def delays(windows: dict[str, float], per_stage: int, seed: int = SEED) -> list[tuple[str, float]]:
    """(stage, delay) in the order of ``windows``: ``per_stage`` seeded points inside each stage's window."""
    rng = random.Random(seed)
    return [(stage, rng.uniform(0.05, 0.8) * window) for stage, window in windows.items() for _ in range(per_stage)]
