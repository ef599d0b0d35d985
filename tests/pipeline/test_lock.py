"""pipeline.commands.lock: the lock entry's hashes, when a stage counts as fresh, and the folder's holder."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.commands.lock import (IN_USE_NAME, LOCK_NAME, exclusive, files_sha256, is_fresh, json_sha256,
                                    read_lock, write_lock)
from pipeline.core.errors import UserError
from pipeline.core.io import file_sha256


def test_json_hash_ignores_key_order_but_not_values(tmp_path: Path):
    assert json_sha256({"a": 1, "b": [1, 2]}) == json_sha256({"b": [1, 2], "a": 1})
    assert json_sha256({"a": 1}) != json_sha256({"a": 2})
    assert json_sha256({"p": Path("x")}) == json_sha256({"p": "x"})  # paths hash as their text
    (tmp_path / "f").write_bytes(b"x")
    assert files_sha256([tmp_path / "f"]) == {str(tmp_path / "f"): file_sha256(tmp_path / "f")}


def test_a_missing_or_damaged_lock_reads_as_empty_and_a_written_one_reads_back(tmp_path: Path):
    assert read_lock(tmp_path) == {"stages": {}}
    (tmp_path / LOCK_NAME).write_text("{not json")
    assert read_lock(tmp_path) == {"stages": {}}
    write_lock(tmp_path, {"stages": {"ingest": {"fingerprint": {"config": "c"}}}})
    assert read_lock(tmp_path)["stages"]["ingest"]["fingerprint"] == {"config": "c"}


def test_a_stage_is_fresh_only_with_the_same_fingerprint_and_untouched_outputs(tmp_path: Path):
    out = tmp_path / "docs.parquet"
    out.write_bytes(b"rows")
    entry = {"fingerprint": {"config": "c"}, "outputs": {"docs.parquet": file_sha256(out)}}
    assert is_fresh(entry, {"config": "c"}, tmp_path)
    assert not is_fresh(entry, {"config": "other"}, tmp_path)
    assert not is_fresh(None, {"config": "c"}, tmp_path)
    out.write_bytes(b"edited")
    assert not is_fresh(entry, {"config": "c"}, tmp_path)
    out.unlink()
    assert not is_fresh(entry, {"config": "c"}, tmp_path)


def test_the_holder_writes_its_pid_and_a_second_holder_is_refused_naming_it(tmp_path: Path):
    with exclusive(tmp_path):
        assert (tmp_path / IN_USE_NAME).read_text().strip() == str(os.getpid())
        with pytest.raises(UserError, match=rf"{tmp_path} is in use by another regscaffold run \(pid {os.getpid()}\)"):
            with exclusive(tmp_path):
                pass
    with exclusive(tmp_path):  # released on leaving: the next run takes the folder
        pass
