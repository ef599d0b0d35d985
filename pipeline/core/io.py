"""Atomic file writes and hashing: every output is written to a temporary file, then renamed."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.core import schemas as S
from pipeline.core.errors import UserError

METADATA_KEY = b"regscaffold"
WRITE_FAULTS = {errno.ENOSPC: "free disk space", errno.EDQUOT: "free disk space (the quota is full)",
                errno.EIO: "check the disk (it reported an I/O error)"}
"""Errors of the storage, not of the code: they reach the user as one line (the rerun resumes)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def make_dir(path: Path) -> None:
    """mkdir -p, with a one-line error when the folder cannot be made (read-only, a file in the way)."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fix = WRITE_FAULTS.get(exc.errno, "choose another output folder or make its parent writable")
        raise UserError(f"cannot create folder {path}: {exc.strerror}; {fix}") from exc


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it into place only if the block succeeds, so the
    final path holds either its earlier content or the complete new one."""
    path = Path(path)
    make_dir(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:  # a full disk (no inode or directory block left) also fails here
        fix = WRITE_FAULTS.get(exc.errno, f"make {path.parent} writable or choose another output folder")
        raise UserError(f"cannot write {path}: {exc.strerror}; {fix}") from exc
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; outputs get the usual permissions
        os.replace(tmp, path)
    except OSError as exc:
        if exc.errno not in WRITE_FAULTS:
            raise
        raise UserError(f"cannot write {path}: {exc.strerror}; {WRITE_FAULTS[exc.errno]} and rerun the same "
                        "command: finished outputs are kept and not redone") from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def remove_temporaries(folder: Path) -> None:
    """Delete the temporary files that atomic_path left in ``folder`` when its process was killed (its
    cleanup never ran). Only while holding the folder (pipeline.commands.lock.exclusive): another writer's are in use."""
    for tmp in Path(folder).glob(".*.tmp"):
        tmp.unlink(missing_ok=True)


def write_text(path: Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: Path, obj: Any) -> None:
    write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


def write_parquet(data: pd.DataFrame | pa.Table, path: Path, metadata: dict[str, Any] | None = None) -> None:
    """Write a frame or table with our JSON metadata (kind, schema version, ...) in the Parquet footer."""
    table = data if isinstance(data, pa.Table) else pa.Table.from_pandas(data, preserve_index=False)
    if metadata is not None:
        existing = table.schema.metadata or {}
        table = table.replace_schema_metadata(
            {**existing, METADATA_KEY: json.dumps(metadata, sort_keys=True).encode()})
    with atomic_path(path) as tmp:
        # page checksums: without them most flipped bytes in a page decode silently to other values
        pq.write_table(table, tmp, compression="zstd", write_page_checksum=True)


def damaged(path: Path, exc: Exception) -> UserError:
    """The one-line error for a Parquet file that cannot be read back."""
    return UserError(f"{path} is damaged (truncated, corrupted or not Parquet: {str(exc)[:200]}); rerun the "
                     f"command that wrote it (for a run folder: regscaffold run --out {Path(path).parent} "
                     "--force) or restore the file from a copy")


def _must_exist(path: Path) -> None:
    if not Path(path).exists():
        raise UserError(f"{path} does not exist; run the command that writes it first")


def read_metadata(path: Path) -> dict[str, Any]:
    _must_exist(path)
    try:
        raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
        return json.loads(raw) if raw else {}
    except (pa.ArrowException, OSError, ValueError) as exc:  # ValueError: its metadata is not JSON
        raise damaged(path, exc) from None


def read_table(path: Path) -> pa.Table:
    """A whole Parquet file, every page checked against its checksum (files written before checksums
    were added are read unchecked)."""
    try:
        return pq.read_table(path, page_checksum_verification=True)
    except (pa.ArrowException, OSError) as exc:
        raise damaged(path, exc) from None


def read_parquet(path: Path, required: list[str] | None = None, kind: str | None = None,
                 schema_version: int | None = None) -> pd.DataFrame:
    """Read a Parquet file and check its columns, kind and schema version, with a clear error."""
    path = Path(path)
    meta = read_metadata(path)
    if kind is not None and meta.get("kind") != kind:
        raise UserError(f"{path}: expected a {kind!r} file, its metadata says kind={meta.get('kind')!r}")
    if schema_version is not None and meta.get("schema_version") != schema_version:
        raise UserError(f"{path}: schema version {meta.get('schema_version')!r}, this code reads "
                        f"{schema_version}; rerun the stage that writes it with --force")
    df = read_table(path).to_pandas()
    missing = [c for c in (required or []) if c not in df.columns]
    if missing:
        raise UserError(f"{path}: missing column(s) {missing}; has {list(df.columns)}")
    return df


def check_aligned(run_dir: Path, name: str, frame: pd.DataFrame, cands: pd.DataFrame) -> None:
    """A file keyed by candidate (votes, bindings) must list candidates.parquet's rows in the same order."""
    if not frame["cand_id"].equals(cands["cand_id"]):
        raise UserError(f"{Path(run_dir) / name} does not match {Path(run_dir) / S.CANDIDATES} row by "
                        f"row; rerun `regscaffold run --out {run_dir} --force` from the label stage")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
