"""The generated reference pages (docs/config.md, docs/lfs.md) match the code's docstrings."""
from __future__ import annotations

import dataclasses

from pipeline.commands import docs_cmd
from pipeline.commands.pipeline_config import IngestConfig


def test_committed_pages_are_current():
    assert docs_cmd.stale_pages() == [], "run `regscaffold docs` and commit docs/"


def test_a_changed_docstring_makes_the_page_stale(tmp_path, monkeypatch):
    for path, make in docs_cmd.PAGES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(make(), encoding="utf-8")
    assert docs_cmd.stale_pages(tmp_path) == []
    monkeypatch.setattr(docs_cmd, "field_docs", lambda cls: {"corpus": "something else"})
    assert docs_cmd.stale_pages(tmp_path) == ["docs/config.md"]


def undocumented(config, where: str = "") -> list[str]:
    """The dotted names of the leaf fields of a (nested) config without a docstring."""
    docs, found = docs_cmd.field_docs(type(config)), []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            found += undocumented(value, f"{where}{f.name}.")
        elif f.name not in docs:
            found.append(f"{where}{f.name}")
    return found


def test_every_config_field_is_documented():
    from pipeline.commands.pipeline_config import PipelineConfig
    from training.config import TrainConfig

    assert undocumented(PipelineConfig()) == [] and undocumented(TrainConfig()) == []
    assert docs_cmd.field_docs(IngestConfig)["passage_chars"].startswith("Target passage size")
    assert "| `train.steps` | `train.optim.steps` |" in docs_cmd.config_page()  # the renamed keys are listed
