from pathlib import Path

import pytest

from pipeline.commands.pipeline_config import PipelineConfig
from pipeline.core.config_loader import apply_overrides, load_config, parse_override, parse_overrides, to_toml
from pipeline.core.errors import UserError


def test_override_values_are_read_as_toml_else_string():
    assert parse_override("--parse.n_process=2") == ("parse.n_process", 2)
    assert parse_override("--ingest.corpus=some/dir") == ("ingest.corpus", "some/dir")
    assert parse_override("--label.lfs=['a','b']") == ("label.lfs", ["a", "b"])
    assert apply_overrides({"parse": {"batch_size": 3}}, parse_overrides(["--parse.n-process=4"])) == {
        "parse": {"batch_size": 3, "n_process": 4}}
    with pytest.raises(UserError, match="is not of the form --section.key=value"):
        parse_overrides(["--parse.n_process"])


def test_file_then_overrides(tmp_path: Path):
    path = tmp_path / "c.toml"
    path.write_text("[registers]\nslots = 6\n[aggregate]\nthreshold = 0.7\n")
    config = load_config(PipelineConfig, path, parse_overrides(["--registers.slots=8"]))
    assert config.registers.slots == 8 and config.aggregate.threshold == 0.7
    again = tmp_path / "resolved.toml"
    again.write_text(to_toml(config))
    assert load_config(PipelineConfig, again) == config


def test_validation_collects_every_problem():
    with pytest.raises(UserError) as err:
        load_config(PipelineConfig, None, parse_overrides(["--registers.slots=0", "--aggregate.threshold=2",
                                      "--parse.n_process=x", "--ingest.nope=1"]))
    message = str(err.value)
    assert "2 problem(s)" in message  # values of the wrong type or name stop validation of the others
    for fragment in ("parse.n_process: expected int, got 'x'", "ingest.nope: unknown setting"):
        assert fragment in message
    with pytest.raises(UserError) as err:
        load_config(PipelineConfig, None, parse_overrides(["--registers.slots=0", "--aggregate.threshold=2"]))
    assert "registers.slots must be in [1, 64], got 0" in str(err.value)
    assert "aggregate.threshold must be in [0.5, 1)" in str(err.value)


def test_missing_and_broken_config_files(tmp_path: Path):
    with pytest.raises(UserError, match="does not exist"):
        load_config(PipelineConfig, tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[parse\n")
    with pytest.raises(UserError, match="not valid TOML"):
        load_config(PipelineConfig, bad)


def test_a_threshold_below_one_half_would_accept_ties_and_is_refused():
    assert load_config(PipelineConfig, None, parse_overrides(["--aggregate.threshold=0.5"])).aggregate.threshold == 0.5
    with pytest.raises(UserError, match=r"aggregate.threshold must be in \[0.5, 1\) .*got 0.4"):
        load_config(PipelineConfig, None, parse_overrides(["--aggregate.threshold=0.4"]))


def test_the_train_stage_carries_the_trainers_sections_and_reads_the_old_keys(tmp_path: Path):
    new = load_config(PipelineConfig, None, {"train.optim.steps": 7, "train.model.n_layer": 2})
    old = load_config(PipelineConfig, None, parse_overrides(["--train.steps=7", "--train.n_layer=2"]))
    assert new == old and new.train.optim.steps == 7 and new.train.model.n_layer == 2
    assert new.train.optim.lr_schedule == "constant" and not new.train.run.progress  # the stage's defaults
    path = tmp_path / "old.toml"
    path.write_text("[train]\nsteps = 7\nn_layer = 2\n")
    assert load_config(PipelineConfig, path) == new
    assert load_config(PipelineConfig, path, {"train.steps": 9}).train.optim.steps == 9  # overrides win
    path.write_text("[train]\nsteps = 7\n[train.optim]\nsteps = 8\n")
    with pytest.raises(UserError, match="sets both train.steps and train.optim.steps"):
        load_config(PipelineConfig, path)
    with pytest.raises(UserError, match="train stage trains on the run folder's own registers"):
        load_config(PipelineConfig, None, {"train.data.synthetic": "fusion"})


def test_a_flag_value_reaches_the_config_as_given():
    corpus = 'my "quoted" dir/with=sign'
    assert load_config(PipelineConfig, None, {"ingest.corpus": corpus}).ingest.corpus == corpus
