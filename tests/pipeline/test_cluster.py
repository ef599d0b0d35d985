"""The labeling pipeline on Dask (issue 15, items 1 and 3): a local cluster (-j 2), and a cluster started from
Dask's own command line (`dask scheduler`, two `dask worker` processes) reached with --scheduler, write the bytes
of the in-process -j 1 run through the registers stage; so does a run whose worker is SIGKILLed while tasks
run (the scheduler runs the lost task again on the other worker).

The corpus is the fault tests' (10 passages, 5 parse shards of 2). The runs stop at registers: the stages
after it do not run on the cluster.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from faultkit import ENV, RUN, SETTINGS, Cli, new_home, outputs

ARGS = ["run", "--corpus", "harbor.txt", "--out", RUN, "--until", "registers", *SETTINGS]
DASK = Path(sys.executable).parent / "dask"


def fresh(home: Path, extra: list[str]) -> dict[str, object]:
    cli = Cli(home, ARGS + extra)
    assert cli.finish() == 0, cli.output()
    assert set(cli.statuses.values()) == {"ran"}, cli.output()
    found = outputs(home / RUN)
    # config.toml records the cluster settings, which nothing else depends on (run.lock's fingerprints neither)
    assert found.pop("config.toml")
    return found


@pytest.fixture(scope="module")
def in_process(tmp_path_factory) -> dict[str, object]:
    return fresh(new_home(tmp_path_factory.mktemp("j1"), "home"), [])


class DaskCluster:
    """`dask scheduler` and ``n`` `dask worker` processes (no nanny: killing a worker's process kills the
    worker), on localhost at ports the OS picks."""

    def __init__(self, root: Path, n: int):
        self.file = root / "scheduler.json"
        self.scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0",
                                           "--no-dashboard", "--scheduler-file", str(self.file)], env=ENV,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while not self.file.exists():
            assert time.monotonic() < deadline and self.scheduler.poll() is None, "dask scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]
        self.workers = [subprocess.Popen([str(DASK), "worker", "--scheduler-file", str(self.file), "--nthreads", "1",
                                          "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                                          "--local-directory", str(root / f"worker{k}"), "--name", f"w{k}"],
                                         env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                        for k in range(n)]
        self.wait_for_workers(n, deadline)

    def wait_for_workers(self, n: int, deadline: float) -> None:
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            while len(client.scheduler_info()["workers"]) < n:
                assert time.monotonic() < deadline, "the dask workers did not connect"
                time.sleep(0.2)

    def close(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [*self.workers, self.scheduler]:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def dask_cluster(tmp_path) -> Iterator[DaskCluster]:
    cluster = DaskCluster(tmp_path, 2)
    try:
        yield cluster
    finally:
        cluster.close()


def test_a_local_cluster_of_two_workers_writes_the_in_process_bytes(in_process, tmp_path):
    assert fresh(new_home(tmp_path, "home"), ["-j", "2"]) == in_process


def test_a_cluster_started_from_the_dask_cli_writes_the_in_process_bytes(in_process, dask_cluster, tmp_path):
    assert fresh(new_home(tmp_path, "home"), ["--scheduler", dask_cluster.address]) == in_process


def test_a_worker_killed_while_tasks_run_changes_nothing(in_process, dask_cluster, tmp_path):
    home = new_home(tmp_path, "home")
    cli = Cli(home, ARGS + ["--scheduler", dask_cluster.address])
    parts = home / RUN / ".parts" / "parse"
    deadline = time.monotonic() + 300
    while not (parts.exists() and any(parts.glob("*.parquet"))):  # a first shard is done, four are to come
        assert cli.proc.poll() is None and time.monotonic() < deadline, cli.output()
        time.sleep(0.01)
    victim = dask_cluster.workers[0]
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    assert cli.proc.poll() is None, "the run ended before the kill: it tested nothing"
    assert cli.finish() == 0, cli.output()
    found = outputs(home / RUN)
    assert found.pop("config.toml")
    assert found == in_process
