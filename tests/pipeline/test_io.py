"""The write and read layer: storage faults and damaged files give one-line errors naming the file and
the fix, and a failed write leaves the final path as it was."""
from __future__ import annotations

import errno
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from pipeline.core import io
from pipeline.core.errors import UserError
from pipeline.core.io import read_metadata, read_parquet, write_json, write_parquet

FRAME = pd.DataFrame({"doc_id": [f"d{i % 50}" for i in range(5000)], "x": range(5000)})


def flip_page_byte(path: Path) -> None:
    """Flip one byte in the middle of the first column chunk's compressed page data."""
    column = pq.ParquetFile(path).metadata.row_group(0).column(1)
    offset = column.data_page_offset + column.total_compressed_size // 2
    raw = bytearray(path.read_bytes())
    raw[offset] ^= 0x10
    path.write_bytes(bytes(raw))


def test_a_flipped_byte_in_a_page_is_detected_not_read_as_other_values(tmp_path):
    path = tmp_path / "f.parquet"
    write_parquet(FRAME, path, {"kind": "f"})
    flip_page_byte(path)
    with pytest.raises(UserError, match=rf"{path} is damaged .*regscaffold run --out {tmp_path} --force"):
        read_parquet(path)


def test_a_truncated_file_names_itself_and_the_fix(tmp_path):
    path = tmp_path / "t.parquet"
    write_parquet(FRAME, path, {"kind": "t"})
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    for read in (read_metadata, read_parquet):
        with pytest.raises(UserError, match=rf"{path} is damaged \(truncated"):
            read(path)


@pytest.mark.parametrize("code, fix", [(errno.ENOSPC, "free disk space"), (errno.EIO, "check the disk")])
def test_disk_full_or_failing_keeps_the_earlier_file_and_no_temporary(tmp_path, monkeypatch, code, fix):
    path = tmp_path / "out.json"
    write_json(path, {"kept": True})
    before = path.read_bytes()

    def fails(tmp, text, encoding):
        Path(tmp).write_bytes(b'{"half')  # a partial write, then the fault
        raise OSError(code, "simulated")

    monkeypatch.setattr(Path, "write_text", fails)
    with pytest.raises(UserError, match=rf"cannot write {path}: simulated; {fix}.* and rerun the same command"):
        write_json(path, {"kept": False})
    assert path.read_bytes() == before
    assert list(tmp_path.iterdir()) == [path]


def test_an_unwritable_folder_is_a_one_line_error(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(io.tempfile, "mkstemp", refused)
    with pytest.raises(UserError, match=rf"cannot write {tmp_path / 'x.json'}: Permission denied; make "):
        write_json(tmp_path / "x.json", {})
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="cannot create folder"):
        io.make_dir(tmp_path / "file" / "sub")


def test_other_errors_inside_a_write_are_not_disguised(tmp_path):
    with pytest.raises(KeyError):
        with io.atomic_path(tmp_path / "x") as tmp:
            tmp.write_text("partial")
            raise KeyError("a bug")
    assert not list(tmp_path.iterdir())


def test_a_full_disk_when_making_a_folder_or_the_run_lock_says_to_free_space(tmp_path, monkeypatch):
    from pipeline.commands import lock

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "mkdir", full)
    with pytest.raises(UserError, match="free disk space"):
        io.make_dir(tmp_path / "new")
    monkeypatch.undo()
    monkeypatch.setattr(lock.os, "open", full)
    with pytest.raises(UserError, match="free disk space"):
        with lock.exclusive(tmp_path):
            pass
