"""Where the sharded stages' tasks run, and the shard bookkeeping they share.

A sharded stage cuts its input into shards, runs one task per shard that writes the shard's part
(RUN/.parts/<stage>/<key>.parquet, pipeline.core.io.write_part), then assembles the parts into its output
file, row group k holding shard k, so that the next stage's shard k reads row group k. Tasks run in this
process (cluster.workers 1), on a local Dask cluster of single-threaded worker processes (-j N), or on a
running Dask cluster (--scheduler); the tasks, their parts and so the outputs are the same in all three.

A part is named by the stage's fingerprint (Context.key: config, code, inputs) and the shard, and survives
a killed run: the rerun of the stage submits only the shards whose part is missing. A Dask worker that dies
takes its running task with it; the scheduler runs that task again on another worker.
"""
from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from pipeline.commands.lock import json_sha256
from pipeline.core.io import assemble_parts, read_metadata, row_group_sizes
from pipeline.core.progress import Advance, progress_bar

if TYPE_CHECKING:
    from distributed import Client

PARTS = ".parts"
Task = Callable[..., dict[str, Any]]
"""A top-level function (workers import it by name): ``task(shard, **common) -> summary``, the summary a
small dict of plain values with ``rows``, the shard's progress units."""


@dataclass(frozen=True)
class Shard:
    """One task's share of a stage: what it reads and the part it writes."""
    index: int
    """Row group ``index`` of the stage's sharded inputs."""
    begin: int
    end: int
    """Rows [begin, end) of the input read by rows: docs.parquet for parse, candidates.parquet for registers."""
    part: str
    """The part file this shard's task writes."""


class Tasks:
    """Runs a stage's tasks (the settings are PipelineConfig.cluster's); the Dask cluster starts at the first
    task that needs it (a run whose stages are all cached starts none) and stops with ``close``."""

    def __init__(self, workers: int = 1, scheduler: str = ""):
        self.workers, self.scheduler = workers, scheduler
        self._client: Client | None = None
        self._cluster: Any = None

    def local(self) -> bool:
        """Whether the tasks run in this process."""
        return self.workers == 1 and not self.scheduler

    def client(self) -> Client:
        if self._client is None:
            from distributed import Client, LocalCluster

            if self.scheduler:
                self._client = Client(self.scheduler)
            else:  # no dashboard: it needs bokeh and a free port, and nobody looks at it
                self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=logging.ERROR)
                self._client = Client(self._cluster)
        return self._client

    def map(self, task: Task, shards: Sequence[Shard], advance: Advance | None = None,
            **common: Any) -> list[dict[str, Any]]:
        """``task(shard, **common)`` for every shard; the summaries in shard order."""
        return self.call(task, shards, [Path(s.part).stem for s in shards], advance, **common)

    def call(self, task: Callable[..., Any], items: Sequence[Any], names: Sequence[str],
             advance: Advance | None = None, **common: Any) -> list[Any]:
        """``task(item, **common)`` for every item (``names``: unique task names), the results in item order;
        ``advance`` gets each result's ``rows`` as it finishes."""
        if self.local():
            found = []
            for item in items:
                found.append(task(item, **common))
                if advance is not None:
                    advance(found[-1]["rows"])
            return found
        from distributed import as_completed

        client = self.client()
        # an array shared by every task goes to each worker once, not once per task
        common = {k: client.scatter(v, broadcast=True) if isinstance(v, np.ndarray) else v for k, v in common.items()}
        futures = client.map(task, items, key=[f"{task.__name__}-{name}" for name in names], pure=False, **common)
        for future in as_completed(futures):
            if advance is not None:
                advance(future.result()["rows"])
        return client.gather(futures)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = self._cluster = None

    def __enter__(self) -> Tasks:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def parts_dir(run_dir: Path, stage: str) -> Path:
    """Absolute: a Dask worker runs in a folder of its own."""
    return Path(run_dir).resolve() / PARTS / stage


def doc_shards(run_dir: Path, stage: str, key: str, n_docs: int, size: int) -> list[Shard]:
    """Slices of ``size`` passages of docs.parquet (the shard size is a speed setting: it is in the part's
    name, not in the fingerprint)."""
    folder = parts_dir(run_dir, stage)
    return [Shard(k, begin, min(begin + size, n_docs),
                  str(folder / f"{json_sha256([key, begin, min(begin + size, n_docs)])[:24]}.parquet"))
            for k, begin in enumerate(range(0, n_docs, size))]


def row_group_shards(run_dir: Path, stage: str, key: str, sharded_input: Path) -> list[Shard]:
    """One shard per row group of ``sharded_input`` (an earlier stage's assembled output)."""
    folder = parts_dir(run_dir, stage)
    return [Shard(k, -1, -1, str(folder / f"{json_sha256([key, k])[:24]}.parquet"))
            for k in range(len(row_group_sizes(sharded_input)))]


def run_shards(tasks: Tasks, description: str, total: int | None, task: Task,
               shards: list[Shard], **common: Any) -> list[dict[str, Any]]:
    """Run ``task`` on the shards whose part is missing (a killed run's finished parts are kept); every
    shard's summary, in shard order (a finished part's from its footer)."""
    if shards:
        Path(shards[0].part).parent.mkdir(parents=True, exist_ok=True)
    with progress_bar(description, total) as advance:
        done = {s.index: read_metadata(Path(s.part)) for s in shards if Path(s.part).exists()}
        for summary in done.values():
            advance(summary["rows"])
        todo = [s for s in shards if s.index not in done]
        done |= {s.index: summary for s, summary in zip(todo, tasks.map(task, todo, advance, **common))}
    return [done[s.index] for s in shards]


def finish_parts(shards: list[Shard], out: Path, metadata: dict[str, Any], run_dir: Path, stage: str) -> None:
    """Assemble the shards' parts into ``out``, then delete them."""
    assemble_parts([Path(s.part) for s in shards], out, metadata)
    remove_parts(run_dir, stage)


def remove_parts(run_dir: Path, stage: str) -> None:
    """Delete a stage's parts (and RUN/.parts when it is left empty)."""
    folder = parts_dir(run_dir, stage)
    shutil.rmtree(folder, ignore_errors=True)
    if folder.parent.exists() and not any(folder.parent.iterdir()):
        folder.parent.rmdir()
