"""The generated reference pages (docs/config.md, docs/lfs.md) match the code's docstrings."""
from __future__ import annotations

import dataclasses

from pipeline import docs_cmd
from pipeline.run_config import IngestConfig


def test_committed_pages_are_current():
    assert docs_cmd.stale_pages() == [], "run `regscaffold docs` and commit docs/"


def test_a_changed_docstring_makes_the_page_stale(tmp_path, monkeypatch):
    for path, make in docs_cmd.PAGES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(make(), encoding="utf-8")
    assert docs_cmd.stale_pages(tmp_path) == []
    monkeypatch.setattr(docs_cmd, "field_docs", lambda cls: {"corpus": "something else"})
    assert docs_cmd.stale_pages(tmp_path) == ["docs/config.md"]


def test_every_config_field_is_documented():
    from pipeline.run_config import RunConfig
    from training.config import TrainConfig

    missing = [f"{section.name}.{f.name}" for root in (RunConfig, TrainConfig) for section in dataclasses.fields(root)
               for f in dataclasses.fields(section.default_factory())
               if f.name not in docs_cmd.field_docs(section.default_factory().__class__)]
    assert missing == []
    assert docs_cmd.field_docs(IngestConfig)["passage_chars"].startswith("Target passage size")
