"""Stage code versions come from the imports: editing any file a stage uses reruns it, others stay cached."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.commands import codehash
from pipeline.commands.stages import STAGES
from pipeline.core.paths import PROJECT_ROOT

BY_NAME = {stage.name: stage for stage in STAGES}


def names(stage: str, root: Path = PROJECT_ROOT) -> set[str]:
    return {str(f.relative_to(root)) for f in codehash.stage_files(BY_NAME[stage].functions(), root)}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the project's packages: the tests edit it, never the working tree."""
    for package in ("pipeline", "labelers", "training"):
        shutil.copytree(PROJECT_ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_files_the_typed_lists_had_forgotten_are_found():
    lexicon = {"labelers/lexicon.py", "labelers/resources/coref.json", "labelers/resources/attribute_lexicon.json"}
    code = {"labelers/extraction/__init__.py", "labelers/extraction/vocab.py", "labelers/parsing.py",
            "pipeline/commands/stages.py"}
    assert lexicon | code <= names("candidates")
    assert lexicon | {"labelers/lfs/_util.py", "labelers/lfs/coref.py", "labelers/labels.py"} <= names("label")
    assert {"labelers/labels.py", "labelers/aggregation.py", "pipeline/core/io.py"} <= names("aggregate")
    assert {"labelers/report/html.py", "labelers/report/template.py"} <= names("report")  # a lazy import


def test_a_stage_does_not_depend_on_the_other_stages_code():
    assert not {n for n in names("parse") if n.startswith(("labelers/lfs", "labelers/extraction"))}
    assert "labelers/lfs/coref.py" not in names("candidates") | names("aggregate") | names("registers")
    assert not {n for n in names("aggregate") if n.startswith("training/")}


def test_every_stage_function_is_found_and_every_file_exists():
    for stage in STAGES:
        files = codehash.stage_files(stage.functions())
        assert files and all(f.is_file() for f in files), stage.name


def test_editing_any_file_of_a_stage_changes_its_code_version_and_only_theirs(repo: Path):
    for stage in ("candidates", "label", "registers"):
        before = {s: codehash.code_sha256(BY_NAME[s].functions(), repo) for s in BY_NAME}
        for name in sorted(names(stage, repo)):
            path = repo / name
            original = path.read_bytes()
            path.write_bytes(original + (b"\n" if name.endswith(".json") else b"\n# edited\n"))
            after = {s: codehash.code_sha256(BY_NAME[s].functions(), repo) for s in BY_NAME}
            path.write_bytes(original)
            assert after[stage] != before[stage], f"{stage}: editing {name}"
            assert all(after[s] == before[s] for s in BY_NAME if name not in names(s, repo)), name


def test_a_new_import_or_resource_joins_the_stage(repo: Path):
    (repo / "labelers" / "helper.py").write_text('TABLE = "extra.json"\n')
    (repo / "labelers" / "resources" / "extra.json").write_text("{}")
    extraction = repo / "labelers" / "extraction" / "candidates.py"
    extraction.write_text(extraction.read_text() + "\nfrom .. import helper  # noqa\n")
    assert {"labelers/helper.py", "labelers/resources/extra.json"} <= names("candidates", repo)
    assert "labelers/helper.py" not in names("parse", repo)


def test_editing_the_lexicon_reruns_candidates_and_label_but_not_parse(tmp_path, tiny_corpus, repo, monkeypatch):
    from pipeline.commands import runner
    from pipeline.core.config_loader import load_config
    from pipeline.commands.pipeline_config import PipelineConfig

    config = load_config(PipelineConfig, None, {"ingest.corpus": str(tiny_corpus)})
    run_dir = tmp_path / "run"
    monkeypatch.setattr(runner, "code_sha256", lambda functions: codehash.code_sha256(functions, repo))
    runner.run_pipeline(run_dir, config, until="label")
    lexicon = repo / "labelers" / "lexicon.py"
    lexicon.write_text(lexicon.read_text() + "\n# a changed table loader\n")
    status = {name: s["status"] for name, s in runner.run_pipeline(run_dir, config, until="label")["stages"].items()}
    assert (status["parse"], status["candidates"], status["label"]) == ("cached", "ran", "ran")


def test_the_dash_split_is_in_the_parse_fingerprint(tmp_path, tiny_corpus):
    """parse.split_dashes changes the token table, so flipping it reparses (the parser's code is
    labelers/parsing.py, in the parse stage's files)."""
    from pipeline.commands import runner
    from pipeline.commands.pipeline_config import PipelineConfig
    from pipeline.core.config_loader import load_config

    assert "labelers/parsing.py" in names("parse")
    run_dir = tmp_path / "run"

    def parse_status(split: bool) -> str:
        config = load_config(PipelineConfig, None, {"ingest.corpus": str(tiny_corpus), "parse.split_dashes": split})
        return runner.run_pipeline(run_dir, config, until="parse")["stages"]["parse"]["status"]

    assert [parse_status(True), parse_status(False), parse_status(False)] == ["ran", "ran", "cached"]
