"""Determinism (item 10 of issue 14): a fresh run on a local Dask cluster of two worker processes (-j 2, in
small spaCy batches) in another folder writes byte for byte the outputs of the fresh -j 1 reference run, the
training checkpoint and report.json included; the thorough mode (REGSCAFFOLD_FAULTS=full) adds a second fresh
-j 1 run."""
from __future__ import annotations

import tomllib

import pytest

from faultkit import RUN, RUN_ARGS, THOROUGH, Cli, new_home, outputs

PARALLEL = RUN_ARGS + ["-j", "2", "--parse.batch_size=1"]


def fresh_run(home, args) -> dict[str, object]:
    cli = Cli(home, args)
    assert cli.finish() == 0, cli.output()
    assert set(cli.statuses.values()) == {"ran"}
    return outputs(home / RUN)


def test_two_worker_processes_give_the_same_bytes_as_one(reference, tmp_path):
    home = new_home(tmp_path, "parallel")
    found = fresh_run(home, PARALLEL)
    assert tomllib.loads((home / RUN / "config.toml").read_text())["cluster"]["workers"] == 2
    # config.toml records the speed settings (-j, batch size), which outputs do not depend on
    assert {k: v for k, v in found.items() if k != "config.toml"} == \
        {k: v for k, v in reference.outputs.items() if k != "config.toml"}


@pytest.mark.skipif(not THOROUGH, reason="thorough mode only (REGSCAFFOLD_FAULTS=full)")
def test_a_second_fresh_run_gives_the_same_bytes(reference, tmp_path):
    assert fresh_run(new_home(tmp_path, "again"), RUN_ARGS) == reference.outputs
