"""Fixtures for the labelers tests: spaCy is loaded once per session and parses are cached."""
from __future__ import annotations

import pytest
import spacy

from lf_helpers import PIPELINE, Parser


@pytest.fixture(scope="session")
def labelers_nlp():
    return spacy.load(PIPELINE)


@pytest.fixture(scope="session")
def parser(labelers_nlp) -> Parser:
    return Parser(labelers_nlp)
