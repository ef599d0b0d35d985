"""The run-folder files the report reads, loaded once and checked to line up row by row."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.core import schemas as S
from pipeline.core.errors import UserError
from pipeline.core.io import check_aligned, read_metadata, read_parquet

NEEDED = {S.DOCS: "ingest", S.CANDIDATES: "candidates", S.VOTES: "label", S.BINDINGS: "aggregate",
          "aggregate.json": "aggregate", S.REGISTERS: "registers"}
"""Each file the report needs and the stage that writes it (aggregators.parquet and endmodel.parquet, read
when present, are left out so that a run folder from before them still gets its report)."""


@dataclass
class RunData:
    run_dir: Path
    docs: pd.DataFrame
    cands: pd.DataFrame
    L: np.ndarray
    """Votes, one column per LF, rows aligned with cands."""
    lf_names: list[str]
    bindings: pd.DataFrame
    """p_lm, p_mv, accepted; rows aligned with cands."""
    aggregate: dict[str, Any]
    registers: pd.DataFrame
    register_meta: dict[str, Any]
    threshold: float
    """accepted = p_lm > threshold (bindings.parquet metadata)."""
    options: dict[str, np.ndarray]
    """P(BOUND) of every aggregator option (aggregators.parquet); empty for a run folder from before it."""
    endmodel: np.ndarray | None
    """P(BOUND) the registers were made from (endmodel.parquet), None for a run folder from before it."""
    endmodel_source: str | None
    """"endmodel" (the end model's P(BOUND)) or "aggregate" (p_lm copied through)."""


def check_complete(run_dir: Path) -> None:
    missing = [f"{name} (stage {stage})" for name, stage in NEEDED.items() if not (run_dir / name).exists()]
    if missing:
        raise UserError(f"{run_dir} lacks {', '.join(missing)}; run `regscaffold run --out {run_dir}` first")


def load_run(run_dir: Path) -> RunData:
    run_dir = Path(run_dir)
    check_complete(run_dir)
    docs = read_parquet(run_dir / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    cands = read_parquet(run_dir / S.CANDIDATES, S.CANDIDATE_KEY_COLUMNS + ["split", "sent_text"], "candidates",
                         S.SCHEMA_VERSION)
    votes = read_parquet(run_dir / S.VOTES, ["cand_id", "split"], "votes", S.SCHEMA_VERSION)
    lf_names = list(read_metadata(run_dir / S.VOTES).get("lfs", []))
    bindings = read_parquet(run_dir / S.BINDINGS, S.BINDING_COLUMNS, "bindings", S.SCHEMA_VERSION)
    check_aligned(run_dir, S.VOTES, votes, cands)
    check_aligned(run_dir, S.BINDINGS, bindings, cands)
    registers = read_parquet(run_dir / S.REGISTERS, S.REGISTER_COLUMNS, "registers", S.SCHEMA_VERSION)
    aggregate = json.loads((run_dir / "aggregate.json").read_text(encoding="utf-8"))
    L = votes[lf_names].to_numpy(np.int64).reshape(len(votes), len(lf_names))
    options, endmodel, source = {}, None, None
    if (run_dir / S.AGGREGATORS).exists():
        frame = read_parquet(run_dir / S.AGGREGATORS, ["cand_id"], "aggregators", S.SCHEMA_VERSION)
        check_aligned(run_dir, S.AGGREGATORS, frame, cands)
        options = {name: frame[name].to_numpy(np.float64) for name in read_metadata(run_dir / S.AGGREGATORS)["options"]}
    if (run_dir / S.ENDMODEL).exists():
        frame = read_parquet(run_dir / S.ENDMODEL, S.ENDMODEL_COLUMNS, "endmodel", S.SCHEMA_VERSION)
        check_aligned(run_dir, S.ENDMODEL, frame, cands)
        endmodel, source = frame["p_bound"].to_numpy(np.float64), read_metadata(run_dir / S.ENDMODEL)["source"]
    return RunData(run_dir, docs, cands, L, lf_names, bindings, aggregate, registers,
                   read_metadata(run_dir / S.REGISTERS), float(read_metadata(run_dir / S.BINDINGS)["threshold"]),
                   options, endmodel, source)
