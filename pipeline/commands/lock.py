"""The run lock (weasel style): per stage, content hashes of its inputs, outputs, resolved config and
code (pipeline.commands.codehash). A stage whose recorded hashes all still match is skipped; anything else reruns it.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from pipeline.core.errors import UserError
from pipeline.core.io import WRITE_FAULTS, file_sha256, write_json

LOCK_NAME = "run.lock"
IN_USE_NAME = ".in-use"
"""Held (flock) by the process running stages in the folder; it holds that process's pid, for the message.
The kernel drops the lock when the process ends, killed or not, so a crash never leaves it stuck."""


def json_sha256(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


def files_sha256(paths: list[Path]) -> dict[str, str]:
    return {str(p): file_sha256(p) for p in paths}


def read_lock(run_dir: Path) -> dict[str, Any]:
    path = run_dir / LOCK_NAME
    if not path.exists():
        return {"stages": {}}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return {"stages": {}}  # a damaged lock only costs a rerun


def write_lock(run_dir: Path, lock: dict[str, Any]) -> None:
    write_json(run_dir / LOCK_NAME, lock)


def is_fresh(entry: dict[str, Any] | None, fingerprint: dict[str, Any], run_dir: Path) -> bool:
    """True when the stage ran with this fingerprint and its outputs are still the files it wrote."""
    if not entry or entry.get("fingerprint") != fingerprint:
        return False
    for name, sha in entry.get("outputs", {}).items():
        path = run_dir / name
        if not path.exists() or file_sha256(path) != sha:
            return False
    return True


@contextmanager
def exclusive(run_dir: Path) -> Iterator[None]:
    """Hold the run folder for this process, or refuse at once when another process holds it: two runs
    writing one folder would interleave their outputs and lock entries."""
    path = Path(run_dir) / IN_USE_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        fix = WRITE_FAULTS.get(exc.errno, f"make {run_dir} writable or give this run another --out")
        raise UserError(f"cannot write {path}: {exc.strerror}; {fix}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            raise UserError(f"{run_dir} is in use by another regscaffold run (pid {holder}); wait for it to "
                            "finish, or give this run another --out") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock
