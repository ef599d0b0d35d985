"""Shared fixtures: the spaCy pipeline is loaded once per session (loading costs about a second)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("REGSCAFFOLD_QUIET", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def nlp():
    from labelers.parsing import load_pipeline

    return load_pipeline("")


@pytest.fixture
def tiny_corpus() -> Path:
    return FIXTURES / "tiny"
