"""Fixtures for the trainer tests (helpers live in trainfix.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from trainfix import write_run


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return write_run(tmp_path / "run")
