"""Shard parts (issue 15, item 1): assembled row group by row group, an empty shard kept as an empty row group;
a finished part is not redone; the LabelModel's train sample is drawn shard by shard."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from labelers.aggregation import fit_sample
from pipeline.commands.cluster import Shard, Tasks, finish_parts, run_shards
from pipeline.commands.stages import fit_rows
from pipeline.core.io import read_metadata, read_parquet, read_row_group, read_rows, write_part


def parts(tmp_path: Path, frames: list[pd.DataFrame]) -> list[Shard]:
    shards = [Shard(k, -1, -1, str(tmp_path / ".parts" / "x" / f"{k}.parquet")) for k in range(len(frames))]
    for shard, frame in zip(shards, frames):
        write_part(frame, Path(shard.part), {"rows": len(frame)})
    return shards


def test_parts_assemble_to_one_row_group_per_shard_with_the_stage_metadata(tmp_path):
    frames = [pd.DataFrame([], columns=["a", "b"]), pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}),
              pd.DataFrame({"a": [3], "b": ["z"]})]
    out = tmp_path / "out.parquet"
    finish_parts(parts(tmp_path, frames), out, {"kind": "x", "schema_version": 1}, tmp_path, "x")
    assert not (tmp_path / ".parts").exists()
    assert [pq.ParquetFile(out).metadata.row_group(k).num_rows for k in range(3)] == [0, 2, 1]
    assert read_metadata(out) == {"kind": "x", "schema_version": 1}
    assert read_parquet(out, ["a", "b"], "x", 1).equals(pd.concat(frames[1:], ignore_index=True))
    assert read_row_group(out, 2).equals(frames[2])
    assert read_rows(out, 1, 3)["b"].tolist() == ["y", "z"]


def test_a_finished_part_is_not_redone_and_gives_its_summary_from_its_footer(tmp_path):
    shards = [Shard(k, -1, -1, str(tmp_path / f"{k}.parquet")) for k in range(3)]
    write_part(pd.DataFrame({"a": [0]}), Path(shards[1].part), {"rows": 1, "made": "earlier"})
    calls = []
    summaries = run_shards(Tasks(), "x", 3, record_task, shards, calls=calls)
    assert calls == [0, 2]
    assert [s.get("made") for s in summaries] == ["now", "earlier", "now"]


def record_task(shard: Shard, calls: list[int]) -> dict:
    calls.append(shard.index)
    summary = {"rows": 1, "made": "now"}
    write_part(pd.DataFrame({"a": [shard.index]}), Path(shard.part), summary)
    return summary


def test_the_fit_sample_is_drawn_shard_by_shard_and_only_above_the_limit(tmp_path):
    rng = np.random.default_rng(0)
    frames = [pd.DataFrame({"split": rng.choice(["train", "valid"], n), "lf_a": rng.integers(-1, 2, n).astype(np.int8),
                            "lf_b": rng.integers(-1, 2, n).astype(np.int8)}) for n in (40, 0, 25)]
    votes = tmp_path / "votes.parquet"
    finish_parts(parts(tmp_path, frames), votes, {"kind": "votes"}, tmp_path, "x")
    train = [np.flatnonzero(f["split"].to_numpy() == "train") for f in frames]
    n_train = sum(map(len, train))
    def is_train(f: pd.DataFrame) -> np.ndarray:
        return (f["split"] == "train").to_numpy()
    rows, total = fit_rows(votes, ["split"], is_train, n_train, seed=3)
    assert total == n_train and all(np.array_equal(r, t) for r, t in zip(rows, train)) and len(rows) == 3
    sample, total = fit_rows(votes, ["split"], is_train, 10, seed=3)
    expected = [t[fit_sample(len(t), 10 / n_train, 3, k)] for k, t in enumerate(train)]
    assert total == n_train and all(np.array_equal(r, e) for r, e in zip(sample, expected))
    assert 0 < sum(map(len, sample)) < n_train and all(np.isin(r, t).all() for r, t in zip(sample, train))