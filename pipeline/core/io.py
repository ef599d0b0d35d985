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


def read_table(path: Path, columns: list[str] | None = None) -> pa.Table:
    """A whole Parquet file (or some of its columns), every page checked against its checksum (files
    written before checksums were added are read unchecked)."""
    try:
        return pq.read_table(path, columns=columns, page_checksum_verification=True)
    except (pa.ArrowException, OSError) as exc:
        raise damaged(path, exc) from None


def check_kind(path: Path, kind: str | None, schema_version: int | None = None) -> dict[str, Any]:
    """The file's metadata, after checking its kind and schema version (a clear error naming the fix)."""
    meta = read_metadata(path)
    if kind is not None and meta.get("kind") != kind:
        raise UserError(f"{path}: expected a {kind!r} file, its metadata says kind={meta.get('kind')!r}")
    if schema_version is not None and meta.get("schema_version") != schema_version:
        raise UserError(f"{path}: schema version {meta.get('schema_version')!r}, this code reads "
                        f"{schema_version}; rerun the stage that writes it with --force")
    return meta


def read_parquet(path: Path, required: list[str] | None = None, kind: str | None = None,
                 schema_version: int | None = None) -> pd.DataFrame:
    """Read a Parquet file and check its columns, kind and schema version, with a clear error."""
    path = Path(path)
    check_kind(path, kind, schema_version)
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


# ----------------------------------------------------------------------------------------------
# Shard parts: a stage that works in shards writes one part per shard (one row group each), then
# assembles them into its output file, whose row group k is shard k (read_row_group).


def write_part(frame: pd.DataFrame | pa.Table, path: Path, summary: dict[str, Any]) -> None:
    """One shard's rows as a single row group (an empty shard too: its row group has no rows), with the
    shard's summary figures in the footer, so a resumed stage reads them back instead of redoing it."""
    table = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           METADATA_KEY: json.dumps(summary, sort_keys=True).encode()})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd", write_page_checksum=True,
                       row_group_size=max(table.num_rows, 1))


def assemble_parts(parts: list[Path], path: Path, metadata: dict[str, Any]) -> None:
    """Write ``path`` from the parts, one row group per part in the given order, with ``metadata`` (and the
    pandas metadata of the first part with rows) in the footer. Parts are read one at a time, twice (schema,
    then rows), so memory holds one shard, not the whole output."""
    schemas = [pq.read_schema(p) for p in parts]
    rows = [pq.ParquetFile(p).metadata.num_rows for p in parts]
    first = next((k for k, n in enumerate(rows) if n), 0)
    pandas_meta = {k: v for k, v in (schemas[first].metadata or {}).items() if k != METADATA_KEY}
    schema = schemas[first].remove_metadata().with_metadata(
        {**pandas_meta, METADATA_KEY: json.dumps(metadata, sort_keys=True).encode()})
    with atomic_path(path) as tmp:
        with pq.ParquetWriter(tmp, schema, compression="zstd", write_page_checksum=True) as writer:
            for part in parts:
                table = read_table(part)
                table = table.replace_schema_metadata(None).cast(schema.remove_metadata())
                writer.write_table(table.replace_schema_metadata(schema.metadata),
                                   row_group_size=max(table.num_rows, 1))


def _footer(path: Path) -> pq.FileMetaData:
    try:
        return pq.read_metadata(path)
    except (pa.ArrowException, OSError) as exc:
        raise damaged(path, exc) from None


def row_group_sizes(path: Path) -> list[int]:
    """The row count of each row group (shard, for a file assembled from parts) of ``path`` (from the
    footer: no data is read)."""
    meta = _footer(path)
    return [meta.row_group(k).num_rows for k in range(meta.num_row_groups)]


def num_rows(path: Path) -> int:
    return _footer(path).num_rows


def read_row_group(path: Path, index: int, columns: list[str] | None = None) -> pd.DataFrame:
    """Row group ``index`` of ``path`` (shard ``index`` of an assembled file), pages checked."""
    try:
        with pq.ParquetFile(path, page_checksum_verification=True) as fh:
            return fh.read_row_group(index, columns=columns).to_pandas()
    except (pa.ArrowException, OSError) as exc:
        raise damaged(path, exc) from None


def read_rows(path: Path, begin: int, end: int, columns: list[str] | None = None) -> pd.DataFrame:
    """Rows [begin, end) of ``path``, reading only the row groups that hold them."""
    try:
        with pq.ParquetFile(path, page_checksum_verification=True) as fh:
            sizes = [fh.metadata.row_group(k).num_rows for k in range(fh.num_row_groups)]
            starts = [sum(sizes[:k]) for k in range(len(sizes))]
            wanted = [k for k, (s, n) in enumerate(zip(starts, sizes)) if s < end and s + n > begin]
            if not wanted:
                return fh.schema_arrow.empty_table().select(columns or fh.schema_arrow.names).to_pandas()
            table = fh.read_row_groups(wanted, columns=columns)
    except (pa.ArrowException, OSError) as exc:
        raise damaged(path, exc) from None
    offset = starts[wanted[0]]
    return table.slice(begin - offset, end - begin).to_pandas()


def load_weights(path: Path, what: str, rerun: str) -> Any:
    """torch.load(weights_only=True) of a file from a run folder (possibly someone else's): tensors and plain
    values only, so loading it never runs code; a refused or damaged file is one UserError naming ``rerun``."""
    import pickle

    import torch

    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise UserError(f"{path} holds objects other than tensors and plain values (or is no {what} file); it "
                        f"is refused because loading such objects could run code: {rerun}") from None
    except Exception as exc:  # torch raises several types for a damaged archive
        raise UserError(f"{path} cannot be read ({str(exc)[:200]}); it is damaged: {rerun}") from None
