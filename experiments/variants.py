"""Register-label variants for the real-text experiment's arms, each written as a run-folder-like
directory (docs.parquet copied byte for byte, registers.parquet with full metadata incl. docs_sha256),
so that ``regscaffold train --labels DIR`` reads it like a pipeline run.

- ``lm``: the run's own registers (LabelModel bindings, p_lm > threshold), copied.
- ``mv``: registers materialised from the majority-vote probabilities p_mv at the same threshold.
- ``shuffled``: the accepted bindings' attribute lemmas permuted at random (seeded) among the accepted
  bindings of the same split, across passages; which tokens switch a slot on, and which slots are
  occupied, stay exactly those of ``lm`` (the vocabulary too, since each split keeps its lemma counts).
  The control that separates "binding supervision helps" from "any extra loss helps".
- ``names``: each binding sets its slot to its ENTITY's identity class (the lower-cased canonical name of
  the entity's first name mention in the passage, else its first noun lemma, else its pronoun) instead of
  the attribute; the same tokens carry a non-NOTHING label as in ``lm`` (same density).

All variants reuse labelers.registers.materialise with the run's slots, vocabulary size and threshold,
and every variant's vocabulary has as many classes as the run's (see ``padded``).

Window targets (data.targets = "window") are not read from registers.parquet: the trainer recomputes them
per window from candidates.parquet's accepted bindings (training.data.load_events), and readouts read
candidates.parquet, bindings.parquet and tokens.parquet too. So ``lm``, ``shuffled`` and ``names`` also
carry those three files, candidates.parquet with the variant's ``attr_lemma`` (all else as in the run,
``attr_lower`` included: readouts and probes ask the text's own adjective, so they stay those of ``lm``);
without this a shuffled arm under window targets would silently train on the LabelModel's attributes.
``mv`` carries none of them (it thresholds p_mv, which window targets and readouts do not read), so
training it with window targets fails on the missing candidates.parquet instead.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.core.registers import is_binding
from labelers.registers import materialise
from pipeline.core import schemas as S
from pipeline.core.errors import UserError
from pipeline.core.io import (atomic_path, check_aligned, file_sha256, read_metadata, read_parquet, read_table,
                              write_json, write_parquet)

ARMS = ("lm", "mv", "shuffled", "names")
WINDOW_ARMS = ("lm", "shuffled", "names")
"""Variants that carry candidates, bindings and tokens for window targets (see the module docstring)."""
CANDIDATE_COLUMNS = S.CANDIDATE_KEY_COLUMNS + ["split", "attr_lemma", "ent_kind", "ent_name", "ent_lemma"]


def shuffled_lemmas(cands: pd.DataFrame, accepted: np.ndarray, seed: int) -> pd.Series:
    """attr_lemma with the accepted rows' lemmas permuted within each split (seeded)."""
    lemmas = cands["attr_lemma"].to_numpy(copy=True)
    rng = np.random.default_rng(seed)
    for split in sorted(cands["split"].unique()):
        rows = np.flatnonzero(accepted & (cands["split"] == split).to_numpy())
        lemmas[rows] = lemmas[rng.permutation(rows)]
    return pd.Series(lemmas, index=cands.index)


def identity_classes(cands: pd.DataFrame) -> pd.Series:
    """Each row's entity identity: first name mention's name, else first noun lemma, else the pronoun."""
    order = {"name": 0, "noun": 1, "pron": 2}
    ranked = cands.assign(rank=cands["ent_kind"].map(order).fillna(3),
                          label=np.where(cands["ent_kind"] == "name", cands["ent_name"], cands["ent_lemma"]))
    first = (ranked.sort_values(["rank", "ent_i"], kind="stable")
             .drop_duplicates(["doc_id", "ent_id"]).set_index(["doc_id", "ent_id"])["label"].str.lower())
    keys = pd.MultiIndex.from_frame(cands[["doc_id", "ent_id"]])
    return pd.Series(first.reindex(keys).to_numpy(), index=cands.index)


def variant_inputs(run_dir: Path, arm: str, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """(candidates with the arm's attr_lemma, the binding probability the arm thresholds)."""
    cands = read_parquet(run_dir / S.CANDIDATES, CANDIDATE_COLUMNS, "candidates", S.SCHEMA_VERSION)
    bindings = read_parquet(run_dir / S.BINDINGS, S.BINDING_COLUMNS, "bindings", S.SCHEMA_VERSION)
    check_aligned(run_dir, S.BINDINGS, bindings, cands)
    p = bindings["p_mv" if arm == "mv" else "p_lm"].to_numpy()
    threshold = read_metadata(run_dir / S.REGISTERS)["threshold"]
    if arm == "shuffled":
        cands = cands.assign(attr_lemma=shuffled_lemmas(cands, is_binding(p, threshold), seed))
    elif arm == "names":
        cands = cands.assign(attr_lemma=identity_classes(cands))
    return cands, p


def padded(vocab: list[str], size: int) -> list[str]:
    """The vocabulary filled up to ``size`` classes with unused names. The trainer draws the register
    head's weights in the middle of building the model, so a head of another size would change every
    later weight: equal sizes keep one seed one initialisation across arms."""
    return vocab + [f"UNUSED_{n}" for n in range(size - len(vocab))]


def copy(source: Path, target: Path) -> None:
    with atomic_path(target) as tmp:
        shutil.copyfile(source, tmp)


def write_window_files(run_dir: Path, arm: str, cands: pd.DataFrame | None, out: Path) -> None:
    """candidates.parquet with the arm's attr_lemma (``cands``; None: the run's own file), bindings.parquet
    and tokens.parquet copied: what window targets and readouts read."""
    for name in (S.BINDINGS, S.TOKENS):
        copy(run_dir / name, out / name)
    source = run_dir / S.CANDIDATES
    if cands is None:
        copy(source, out / S.CANDIDATES)
        return
    table = read_table(source)
    column = table.schema.get_field_index("attr_lemma")
    lemmas = pa.array(cands["attr_lemma"].tolist(), type=table.schema.field(column).type)
    write_parquet(table.set_column(column, table.schema.field(column), lemmas), out / S.CANDIDATES,
                  {**read_metadata(source), "variant": arm})


def write_variant(run_dir: Path, arm: str, out: Path, seed: int = 0) -> dict[str, Any]:
    """Write the arm's docs.parquet + registers.parquet (and, for WINDOW_ARMS, candidates, bindings and
    tokens: see the module docstring) + variant.json, the summary, into ``out``."""
    run_dir, out = Path(run_dir), Path(out)
    if arm not in ARMS:
        raise UserError(f"label variant {arm!r} is unknown; known: {', '.join(ARMS)}")
    source = run_dir / S.REGISTERS
    if not source.exists():
        raise UserError(f"{source} does not exist; run the pipeline first (regscaffold run --out {run_dir})")
    meta = read_metadata(source)
    copy(run_dir / S.DOCS, out / S.DOCS)
    if meta.get("docs_sha256") != file_sha256(out / S.DOCS):
        raise UserError(f"{source} was made from other passages than {run_dir / S.DOCS}; rerun the pipeline")
    cands = None
    if arm == "lm":
        copy(source, out / S.REGISTERS)
        summary: dict[str, Any] = {}
    else:
        cands, p = variant_inputs(run_dir, arm, seed)
        tokens = read_parquet(run_dir / S.TOKENS, ["doc_id", "i", "start", "end"], "tokens", S.SCHEMA_VERSION)
        table, vocab, summary = materialise(tokens, cands, p, meta["threshold"], meta["slots"],
                                            len(meta["vocab"]) - 2)
        write_parquet(table, out / S.REGISTERS, {**meta, "vocab": padded(vocab, len(meta["vocab"])),
                                                 "variant": arm})
    if arm in WINDOW_ARMS:
        write_window_files(run_dir, arm, cands, out)
    summary = {"arm": arm, "seed": seed, "source": str(run_dir), **summary}
    write_json(out / "variant.json", summary)
    return summary
