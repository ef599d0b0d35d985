"""Disk full and write errors (item 7 of issue 14), in-process through the console entry point
(pipeline.commands.cli.main): a write fails, the user gets one line (exit 2) naming the file and the fix, no file at
a final path is partial, finished outputs and run.lock are intact, and the rerun after the disk recovers
redoes only unfinished stages and ends byte-identical to an uninterrupted run.

How a fault is made, at the write layer (pipeline.core.io.atomic_path, which every output goes through):
  ENOSPC: the temporary file is a link to /dev/full, so the kernel's ENOSPC reaches pyarrow, torch.save
          or the text writer, each with its own error path;
  EIO:    the writer succeeds, the rename into place fails with EIO;
  create: creating the temporary file fails with ENOSPC (no free inode or directory block).
One run folder takes the faults in pipeline order, each in its own invocation. Default mode: a fault in
every stage and at run.lock, config.toml and run.json; REGSCAFFOLD_FAULTS=full: every file every stage
writes, with each kind of fault.
"""
from __future__ import annotations

import errno
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from faultkit import RUN, RUN_ARGS, STAGE_LINE, THOROUGH, new_home, outputs
from pipeline.commands.cli import main
from pipeline.core.io import WRITE_FAULTS, file_sha256

ENOSPC, EIO, CREATE = "ENOSPC", "EIO", "create"
ERRNO = {ENOSPC: errno.ENOSPC, EIO: errno.EIO, CREATE: errno.ENOSPC}


@dataclass
class Fault:
    target: str
    """Glob (PurePath.match) of the final path, relative to the run folder."""
    kind: str
    nth: int = 1
    """Which write to a matching path fails: the earlier ones succeed."""
    seen: int = 0
    fired: Path | None = None
    """The final path whose write failed."""
    kept: bytes | None = None
    """What that path held when its write began (None: no file), which it must still hold."""
    doomed: set[str] = field(default_factory=set)
    """Temporary files whose rename must fail (EIO)."""

    def hits(self, final: Path, run_dir: Path) -> bool:
        """Whether the write to ``final`` is the one that fails (counting the writes that match)."""
        if self.fired or not final.is_relative_to(run_dir) or not final.relative_to(run_dir).match(self.target):
            return False
        self.seen += 1
        return self.seen == self.nth


# (target, kind, nth) in the order a run writes them; a stage whose write failed reruns in the next run
# and passes the failed write, so every target is reached.
DEFAULT = [("config.toml", ENOSPC, 1), ("docs.parquet", EIO, 1), (".parts/parse/*.parquet", ENOSPC, 2),
           ("tokens.parquet", CREATE, 1), ("candidates.parquet", ENOSPC, 1), ("run.lock", EIO, 1),
           ("votes.parquet", ENOSPC, 1), ("label_model.pt", ENOSPC, 1), ("aggregate.json", EIO, 1),
           ("endmodel.pt", ENOSPC, 1), ("registers.parquet", ENOSPC, 1), ("report.html", EIO, 1), ("model/ckpt.pt", ENOSPC, 2),
           ("probe.json", EIO, 1), ("run.json", ENOSPC, 1)]
WRITES = ["config.toml", "docs.parquet", "splits.json", "ingest_report.json", ".parts/parse/*.parquet",
          "tokens.parquet", "candidates.parquet", "votes.parquet", "bindings.parquet", "aggregators.parquet",
          "label_model.pt", "aggregate.json", "endmodel.parquet", "endmodel.pt", "registers.parquet", "report.json", "report.html", "model/config.toml",
          "model/tokenizer.json", "model/metrics.jsonl", "model/ckpt.pt", "probes_test.jsonl", "probe.json",
          "run.lock", "run.json"]
FULL = [(target, kind, 2 if target in ("model/ckpt.pt", ".parts/parse/*.parquet") else 1)
        for target in WRITES for kind in (ENOSPC, EIO, CREATE)]


def install(monkeypatch, fault: Fault, run_dir: Path) -> None:
    """Make the write that ``fault`` names fail, at the write layer."""
    real_mkstemp, real_replace, real_chmod = tempfile.mkstemp, os.replace, os.chmod

    def mkstemp(suffix=None, prefix=None, dir=None, text=False):
        # atomic_path names its temporary file ".NAME.XXXX.tmp", beside the final path
        final = Path(dir).resolve() / prefix[1:-1] if prefix and dir else None
        if final is None or not fault.hits(final, run_dir.resolve()):
            return real_mkstemp(suffix, prefix, dir, text)
        fault.fired, fault.kept = final, final.read_bytes() if final.exists() else None
        if fault.kind == CREATE:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        fd, tmp = real_mkstemp(suffix, prefix, dir, text)
        if fault.kind == ENOSPC:
            os.unlink(tmp)
            os.symlink("/dev/full", tmp)
        fault.doomed.add(tmp)
        return fd, tmp

    def replace(src, dst, **kwargs):
        if fault.kind == EIO and str(src) in fault.doomed:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(src), None, str(dst))
        return real_replace(src, dst, **kwargs)

    def chmod(path, mode, **kwargs):
        # a write to /dev/full that succeeded would otherwise chmod the device itself
        assert os.path.realpath(path) != "/dev/full", f"a write to {fault.fired} did not fail"
        return real_chmod(path, mode, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "chmod", chmod)


def run_cli(monkeypatch) -> int:
    """`regscaffold run ...` in this process; its exit code."""
    monkeypatch.setattr(sys, "argv", ["regscaffold", *RUN_ARGS])
    with pytest.raises(SystemExit) as ended:
        main()
    return ended.value.code


def finished(run_dir: Path) -> dict[str, dict]:
    lock = run_dir / "run.lock"
    return json.loads(lock.read_text())["stages"] if lock.exists() else {}


def check_survived(fault: Fault, code: int, err: str, out: str, done_before: dict[str, dict],
                   run_dir: Path) -> None:
    assert fault.fired is not None, f"no write matched {fault.target} (call {fault.nth}): the fault never fired"
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, f"exit {code}, stderr:\n{err}"
    final = fault.fired.relative_to(run_dir.resolve())
    assert lines[0].startswith("error: cannot write ") and str(Path(RUN) / final) in lines[0], lines[0]
    assert WRITE_FAULTS[ERRNO[fault.kind]] in lines[0], lines[0]
    assert not [p for p in run_dir.rglob("*.tmp")], "a temporary file was left behind"
    now = run_dir / final
    assert (now.read_bytes() if now.exists() else None) == fault.kept, f"{final} changed though its write failed"
    done = finished(run_dir)
    assert {name: done.get(name) for name in done_before} == done_before, "run.lock lost or changed a stage"
    for entry in done.values():
        assert all(file_sha256(run_dir / name) == sha for name, sha in entry["outputs"].items())
    printed = dict(m.groups() for m in map(STAGE_LINE.match, out.splitlines()) if m)
    assert {name: printed.get(name) for name in done_before} == {name: "cached" for name in done_before}


def test_disk_full_and_io_errors_are_one_line_and_the_rerun_completes(reference, tmp_path, monkeypatch,
                                                                     capsys):
    home = new_home(tmp_path, "disk")
    monkeypatch.chdir(home)
    monkeypatch.delenv("REGSCAFFOLD_DEBUG", raising=False)
    run_dir = home / RUN
    for target, kind, nth in FULL if THOROUGH else DEFAULT:
        fault, done_before = Fault(target, kind, nth), finished(run_dir)
        with monkeypatch.context() as patch:
            install(patch, fault, run_dir)
            code = run_cli(patch)
        captured = capsys.readouterr()
        check_survived(fault, code, captured.err, captured.out, done_before, run_dir)
    with monkeypatch.context() as patch:
        assert run_cli(patch) == 0, capsys.readouterr().err
    assert outputs(run_dir) == reference.outputs
