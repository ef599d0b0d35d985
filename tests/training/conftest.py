"""Fixtures for the trainer tests (run folders: tests/runfolder.py; tiny configs: tests/trainfix.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from runfolder import write_run


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return write_run(tmp_path / "run")
