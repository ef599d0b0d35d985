"""Every docstring example in the packages runs and gives what it shows."""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import sys

import pytest

from pipeline.core.paths import PROJECT_ROOT as ROOT

MODULES = sorted(".".join(path.relative_to(ROOT).with_suffix("").parts)
                 for package in ("pipeline", "labelers", "training", "experiments") for path in (ROOT / package).rglob("*.py")
                 if ">>> " in path.read_text(encoding="utf-8"))


def test_some_modules_have_examples():
    assert "pipeline.commands.docs_cmd" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_examples(name):
    result = doctest.testmod(importlib.import_module(name.removesuffix(".__init__")), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


SCRIPTS = sorted(path for path in (ROOT / "benchmarks").glob("*.py") if ">>> " in path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_benchmark_examples(path, monkeypatch):
    monkeypatch.syspath_prepend(str(path.parent))  # a script imports its neighbours (bench_common)
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
