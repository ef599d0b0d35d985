from pathlib import Path

import pytest

from pipeline.config import apply_overrides, load_config, parse_override, to_toml
from pipeline.errors import UserError
from pipeline.run_config import RunConfig


def test_override_values_are_read_as_toml_else_string():
    assert parse_override("--parse.n_process=2") == (["parse", "n_process"], 2)
    assert parse_override("--ingest.corpus=some/dir") == (["ingest", "corpus"], "some/dir")
    assert parse_override("--label.lfs=['a','b']") == (["label", "lfs"], ["a", "b"])
    assert apply_overrides({"parse": {"batch_size": 3}}, ["--parse.n-process=4"]) == {
        "parse": {"batch_size": 3, "n_process": 4}}


def test_file_then_overrides(tmp_path: Path):
    path = tmp_path / "c.toml"
    path.write_text("[registers]\nslots = 6\n[aggregate]\nthreshold = 0.7\n")
    config = load_config(RunConfig, path, ["--registers.slots=8"])
    assert config.registers.slots == 8 and config.aggregate.threshold == 0.7
    again = tmp_path / "resolved.toml"
    again.write_text(to_toml(config))
    assert load_config(RunConfig, again) == config


def test_validation_collects_every_problem():
    with pytest.raises(UserError) as err:
        load_config(RunConfig, None, ["--registers.slots=0", "--aggregate.threshold=2",
                                      "--parse.n_process=x", "--ingest.nope=1"])
    message = str(err.value)
    assert "4 problem(s)" in message or "problem(s)" in message
    for fragment in ("parse.n_process: expected int, got 'x'", "ingest.nope: unknown setting"):
        assert fragment in message
    with pytest.raises(UserError) as err:
        load_config(RunConfig, None, ["--registers.slots=0", "--aggregate.threshold=2"])
    assert "registers.slots must be in [1, 64], got 0" in str(err.value)
    assert "aggregate.threshold must be in [0.5, 1)" in str(err.value)


def test_missing_and_broken_config_files(tmp_path: Path):
    with pytest.raises(UserError, match="does not exist"):
        load_config(RunConfig, tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[parse\n")
    with pytest.raises(UserError, match="not valid TOML"):
        load_config(RunConfig, bad)


def test_a_threshold_below_one_half_would_accept_ties_and_is_refused():
    assert load_config(RunConfig, None, ["--aggregate.threshold=0.5"]).aggregate.threshold == 0.5
    with pytest.raises(UserError, match=r"aggregate.threshold must be in \[0.5, 1\) .*got 0.4"):
        load_config(RunConfig, None, ["--aggregate.threshold=0.4"])
