"""The labeling pipeline's stages, each a function with declared inputs, outputs, config and code.

A stage reads its inputs from the run folder, writes its outputs atomically and returns a summary
(figures for run.json). pipeline.commands.runner decides from the lock file whether a stage must run.
"""
from __future__ import annotations

import dataclasses
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.commands.cluster import (Shard, Tasks, doc_shards, finish_parts, parts_dir, remove_parts, row_group_shards,
                                      run_shards)
from pipeline.core import schemas as S
from pipeline.core.io import (assemble_parts, check_aligned, check_kind, file_sha256, num_rows, read_metadata,
                              read_row_group, read_rows, read_table, row_group_sizes, write_json, write_parquet, write_part)
from pipeline.core.paths import PROJECT_ROOT
from pipeline.core.progress import progress_bar

# Named in annotations only: spaCy loads in the stages that parse, and PipelineConfig imports torch (through
# the trainer's config sections), which the command line loads only when it runs the pipeline.
if TYPE_CHECKING:
    from pipeline.commands.pipeline_config import CandidatesConfig, ParseConfig, PipelineConfig


@dataclass
class Context:
    run_dir: Path
    config: PipelineConfig
    warnings: list[str] = dataclasses.field(default_factory=list)
    tasks: Tasks = dataclasses.field(default_factory=Tasks)
    """Where the sharded stages' tasks run (pipeline.commands.cluster)."""
    key: str = ""
    """The stage's fingerprint as one hash (the runner sets it): it names the stage's shard parts."""

    def path(self, name: str) -> Path:
        return self.run_dir / name

    def shared(self) -> str:
        """The run folder as tasks name it: absolute, since a Dask worker runs in a folder of its own."""
        return str(self.run_dir.resolve())

    def meta(self, kind: str, **extra: Any) -> dict[str, Any]:
        return {"kind": kind, "schema_version": S.SCHEMA_VERSION, **extra}


@dataclass(frozen=True)
class Stage:
    name: str
    inputs: tuple[str, ...]
    """Run-folder files this stage reads (written by earlier stages)."""
    outputs: tuple[str, ...]
    """Run-folder files this stage writes."""
    sections: tuple[str, ...]
    """Config sections whose resolved values belong to this stage's fingerprint."""
    run: Callable[[Context], dict[str, Any]]
    """A top-level function of this module: its code version is found from what it imports
    (pipeline.commands.codehash)."""
    volatile: tuple[str, ...] = ()
    """Config keys that change speed, not output: left out of the fingerprint."""
    environment: Callable[[PipelineConfig], dict[str, Any]] | None = None
    """Facts outside the run folder that the output depends on (corpus files, the spaCy pipeline)."""

    def functions(self) -> list[str]:
        """The names of this stage's functions in this module, whose imports make its code version."""
        return [f.__name__ for f in (self.run, self.environment) if f is not None]


def ingest_stage(ctx: Context) -> dict[str, Any]:
    from pipeline.commands.ingest import ingest, resolve_corpus

    files = resolve_corpus(ctx.config.ingest.corpus)
    with progress_bar("ingest", len(files)) as advance:
        rows, unit_splits, report = ingest(ctx.config.ingest, advance)
    docs = pd.DataFrame(rows, columns=S.DOC_COLUMNS)
    write_parquet(docs, ctx.path(S.DOCS), ctx.meta("docs", corpus=ctx.config.ingest.corpus or "bundled"))
    write_json(ctx.path("splits.json"), unit_splits)
    write_json(ctx.path("ingest_report.json"), report)
    skipped = report["skipped"]["counts"]
    if skipped:
        ctx.warnings.append(f"ingest skipped {sum(skipped.values())} document(s)/passage(s): {skipped} "
                            f"(see ingest_report.json)")
    for unit, split in report.get("units_moved_to_empty_splits", {}).items():
        ctx.warnings.append(f"ingest: the split hash left {split!r} empty, so {unit!r} moved there from train "
                            f"(set ingest.{split}_fraction=0 to keep it empty)")
    return {k: v for k, v in report.items() if k != "skipped"} | {"skipped": skipped}


def corpus_environment(config: PipelineConfig) -> dict[str, Any]:
    from pipeline.commands.ingest import resolve_corpus

    return {"corpus_files": {str(p): file_sha256(p) for p in resolve_corpus(config.ingest.corpus)}}


def pipeline_environment(config: PipelineConfig) -> dict[str, Any]:
    import spacy

    from labelers.parsing import resolve_pipeline

    name = resolve_pipeline(config.parse.pipeline)
    try:
        version = spacy.info(name)["version"]
    except Exception:  # not installed: parse_stage reports it with the fix
        version = None
    return {"pipeline": name, "pipeline_version": version, "spacy": spacy.__version__}


def parse_part(shard: Shard, cfg: ParseConfig, docs: str) -> dict[str, Any]:
    """Parse task: the token rows of passages [shard.begin, shard.end) of docs.parquet."""
    import spacy

    from labelers.parsing import parse_frame, pipeline_id, shared_pipeline

    nlp = shared_pipeline(cfg.pipeline, cfg.ner, cfg.split_dashes)
    rows = read_rows(Path(docs), shard.begin, shard.end, ["doc_id", "text"])
    frame = parse_frame(nlp, rows["doc_id"].tolist(), rows["text"].tolist(), cfg.batch_size, cfg.n_process,
                        emphasis=cfg.keep_emphasis)
    summary = {"rows": len(rows), "tokens": len(frame), "words": int(rows["text"].str.split().str.len().sum()),
               "sentences": int(frame.groupby("doc_id")["sent"].max().add(1).sum()), "pipeline": pipeline_id(nlp),
               "lang": nlp.lang, "components": list(nlp.pipe_names), "spacy": spacy.__version__}
    write_part(frame, Path(shard.part), summary)
    return summary


def parse_stage(ctx: Context) -> dict[str, Any]:
    from labelers.parsing import resolve_pipeline

    docs, cfg = ctx.path(S.DOCS), ctx.config.parse
    check_kind(docs, "docs", S.SCHEMA_VERSION)
    n_docs, started = num_rows(docs), time.perf_counter()
    shards = doc_shards(ctx.run_dir, "parse", ctx.key, n_docs, cfg.shard_docs)
    found = run_shards(ctx.tasks, f"parse ({resolve_pipeline(cfg.pipeline)})", n_docs, parse_part, shards, cfg=cfg,
                       docs=str(docs.resolve()))
    first = found[0]
    finish_parts(shards, ctx.path(S.TOKENS), ctx.meta("tokens", pipeline=first["pipeline"], lang=first["lang"],
                                                      spacy=first["spacy"]), ctx.run_dir, "parse")
    seconds = time.perf_counter() - started
    return {"pipeline": first["pipeline"], "spacy": first["spacy"], "components": first["components"],
            "tokens": sum(f["tokens"] for f in found), "sentences": sum(f["sentences"] for f in found),
            "words_per_s": round(sum(f["words"] for f in found) / seconds, 1)}


def candidates_part(shard: Shard, cfg: CandidatesConfig, run_dir: str, lang: str) -> dict[str, Any]:
    """Candidates task: the candidate rows of the passages in row group shard.index of tokens.parquet."""
    from labelers.extraction import CANDIDATE_COLUMNS, extract_candidates
    from labelers.parsing import docs_from_tokens, language_vocab

    tokens = read_row_group(Path(run_dir) / S.TOKENS, shard.index, S.TOKEN_COLUMNS)
    doc_ids = tokens["doc_id"].unique().tolist()
    rows = [row for doc_id, doc in docs_from_tokens(language_vocab(lang), tokens, doc_ids)
            for row in extract_candidates(doc, doc_id, max_distance=cfg.max_distance)]
    frame = pd.DataFrame(rows, columns=CANDIDATE_COLUMNS)
    splits = read_table(Path(run_dir) / S.DOCS, ["doc_id", "split"]).to_pandas()
    frame["split"] = frame["doc_id"].map(dict(zip(splits["doc_id"], splits["split"]))).astype("str")
    summary = {"rows": len(doc_ids), "candidates": len(frame), "docs_with_candidates": int(frame["doc_id"].nunique()),
               "by_split": {k: int(v) for k, v in frame["split"].value_counts().items()}}
    write_part(frame, Path(shard.part), summary)
    return summary


def candidates_stage(ctx: Context) -> dict[str, Any]:
    tokens = ctx.path(S.TOKENS)
    lang = check_kind(tokens, "tokens", S.SCHEMA_VERSION)["lang"]
    shards = row_group_shards(ctx.run_dir, "candidates", ctx.key, tokens)
    found = run_shards(ctx.tasks, "candidates", num_rows(ctx.path(S.DOCS)), candidates_part, shards,
                       cfg=ctx.config.candidates, run_dir=ctx.shared(), lang=lang)
    finish_parts(shards, ctx.path(S.CANDIDATES), ctx.meta("candidates"), ctx.run_dir, "candidates")
    by_split = sum((Counter(f["by_split"]) for f in found), Counter())
    return {"candidates": sum(f["candidates"] for f in found), "by_split": dict(by_split.most_common()),
            "docs_with_candidates": sum(f["docs_with_candidates"] for f in found)}


def selected_lfs(ctx: Context) -> list:
    from labelers.lfs import ALL_LFS

    wanted = ctx.config.label.lfs
    return [lf for lf in ALL_LFS if not wanted or lf.name in wanted]


def label_part(shard: Shard, lf_names: list[str], run_dir: str) -> dict[str, Any]:
    """Label task: the LFs' votes on the candidates in row group shard.index of candidates.parquet, through
    Snorkel's LFApplier on the rows as namedtuples (PandasLFApplier hands each LF a pandas Series, whose
    attribute lookups cost 5x the LFs themselves)."""
    from collections import namedtuple

    from snorkel.labeling import LFApplier

    from labelers.lfs import lfs_by_name

    cands = read_row_group(Path(run_dir) / S.CANDIDATES, shard.index)
    lfs = lfs_by_name(lf_names)
    # built from column lists: DataFrame.itertuples took 5x as long (0.59 s vs 0.12 s, 19k rows)
    row = namedtuple("Candidate", cands.columns)
    rows = list(map(row._make, zip(*(cands[c].tolist() for c in cands.columns))))
    L = LFApplier(lfs).apply(rows, progress_bar=False) if rows else np.zeros((0, len(lfs)), dtype=np.int64)
    votes = pd.DataFrame(L.astype(np.int8), columns=lf_names)
    votes.insert(0, "split", cands["split"].to_numpy())
    votes.insert(0, "cand_id", cands["cand_id"].to_numpy())
    summary = {"rows": len(cands), "votes": (L != -1).sum(axis=0).tolist(), "any_vote": int((L != -1).any(axis=1).sum())}
    write_part(votes, Path(shard.part), summary)
    return summary


def label_stage(ctx: Context) -> dict[str, Any]:
    cands = ctx.path(S.CANDIDATES)
    check_kind(cands, "candidates", S.SCHEMA_VERSION)
    names = [lf.name for lf in selected_lfs(ctx)]
    shards, rows = row_group_shards(ctx.run_dir, "label", ctx.key, cands), num_rows(cands)
    found = run_shards(ctx.tasks, f"label ({len(names)} LFs)", rows, label_part, shards, lf_names=names,
                       run_dir=ctx.shared())
    finish_parts(shards, ctx.path(S.VOTES), ctx.meta("votes", lfs=names), ctx.run_dir, "label")
    votes = np.sum([f["votes"] for f in found], axis=0)
    return {"lfs": len(names), "rows": rows,
            "coverage": {name: round(int(v) / rows, 4) if rows else 0.0 for name, v in zip(names, votes)},
            "any_vote": round(sum(f["any_vote"] for f in found) / rows, 4) if rows else 0.0}


LABEL_MODEL = "label_model.pt"
"""The chosen aggregator's parameters (labelers.aggregation.load_aggregator reads them)."""


def fit_rows(sharded: Path, columns: list[str], eligible: Callable[[pd.DataFrame], np.ndarray], max_rows: int,
             seed: int) -> tuple[list[np.ndarray], int]:
    """Per row group (shard) of ``sharded``, the positions in it of the rows a model is fitted on: the
    ``eligible`` ones, or about ``max_rows`` of them drawn shard by shard (labelers.aggregation.fit_sample)
    when there are more; and the number eligible. ``columns`` are read a shard at a time (twice above the
    limit), so the driver never holds a whole column of a corpus of any size."""
    from labelers.aggregation import fit_sample

    def eligible_in(k: int) -> np.ndarray:
        return np.flatnonzero(eligible(read_row_group(sharded, k, columns)))

    kept, total = [], 0
    for k in range(len(row_group_sizes(sharded))):
        rows = eligible_in(k)
        total += len(rows)
        kept.append(rows)
        if total > max_rows:  # a sample then: stop holding rows
            kept.clear()
    if total <= max_rows:
        return kept, total
    return [rows[fit_sample(len(rows), max_rows / total, seed, k)]
            for k, rows in ((k, eligible_in(k)) for k in range(len(row_group_sizes(sharded))))], total


def options_on(tasks: Tasks, key: str) -> Callable[..., list]:
    """labelers.aggregation's ``fit_many`` on the run's tasks: the options are fitted side by side on a cluster."""
    from labelers.aggregation import fit_timed

    def fit_many(methods: list[str], L_train: np.ndarray, lf_names: list[str], settings: Any) -> list:
        return tasks.call(fit_timed, methods, [f"{key[:16]}-{m}" for m in methods], L_train=L_train,
                          lf_names=lf_names, s=settings)
    return fit_many


def options_part(shard: Shard) -> Path:
    """The part of aggregators.parquet beside a shard's part of bindings.parquet."""
    return Path(shard.part).with_suffix(".options.parquet")


def aggregate_part(shard: Shard, run_dir: str, fits: Any, threshold: float) -> dict[str, Any]:
    """Aggregate task: every option's P(BOUND) of the candidates in row group shard.index of votes.parquet;
    the options' part is written first, so a bindings part on disk means both are done."""
    from pipeline.core.registers import is_binding

    votes = read_row_group(Path(run_dir) / S.VOTES, shard.index)
    options = fits.apply(votes[fits.chosen.lfs].to_numpy(np.int64))
    frame = pd.DataFrame({"cand_id": votes["cand_id"].to_numpy()} | {k: p.astype(np.float32) for k, p in options.items()})
    write_part(frame, options_part(shard), {"rows": len(votes)})
    bindings = pd.DataFrame({"cand_id": votes["cand_id"].to_numpy(),
                             "p_lm": options[fits.chosen.method].astype(np.float32),
                             "p_mv": options["majority"].astype(np.float32)})
    bindings["accepted"] = is_binding(bindings["p_lm"], threshold)
    summary = {"rows": len(votes), "accepted": int(bindings["accepted"].sum())}
    write_part(bindings, Path(shard.part), summary)
    return summary


def aggregate_stage(ctx: Context) -> dict[str, Any]:
    from labelers.aggregation import AGGREGATORS, fit_options, save_aggregator

    votes, cfg = ctx.path(S.VOTES), ctx.config.aggregate
    check_kind(votes, "votes", S.SCHEMA_VERSION)
    lf_names = read_metadata(votes)["lfs"]
    rows, _ = fit_rows(votes, ["split"], lambda f: (f["split"] == "train").to_numpy(), cfg.max_fit_rows, cfg.seed)
    L_train = np.concatenate([np.zeros((0, len(lf_names)), np.int64)] + [
        read_row_group(votes, k, lf_names).to_numpy(np.int64)[r] for k, r in enumerate(rows)])
    fits = fit_options(L_train, lf_names, cfg.model, cfg.settings(), options_on(ctx.tasks, ctx.key))
    ctx.warnings.extend(fits.warnings)
    shards = row_group_shards(ctx.run_dir, "aggregate", ctx.key, votes)
    found = run_shards(ctx.tasks, "aggregate", num_rows(votes), aggregate_part, shards, run_dir=ctx.shared(),
                       fits=fits, threshold=cfg.threshold)
    assemble_parts([options_part(s) for s in shards], ctx.path(S.AGGREGATORS),
                   ctx.meta("aggregators", options=list(AGGREGATORS)))
    finish_parts(shards, ctx.path(S.BINDINGS), ctx.meta("bindings", method=fits.method, threshold=cfg.threshold),
                 ctx.run_dir, "aggregate")
    save_aggregator(ctx.path(LABEL_MODEL), fits.chosen)
    n, accepted = num_rows(votes), sum(f["accepted"] for f in found)
    summary = {"method": fits.method, "accepted": accepted, "accepted_fraction": round(accepted / n, 4) if n else 0.0,
               "lf_accuracy_estimates": {k: round(v, 4) for k, v in fits.weights.items()}}
    write_json(ctx.path("aggregate.json"), summary | {"options": fits.option_info, "warnings": fits.warnings})
    return summary | {"fit_rows": len(L_train), "seconds": {k: round(v, 2) for k, v in fits.seconds.items()}}


END_MODEL = "endmodel.pt"
"""The end model's weights (labelers.endmodel.load_end_model reads them)."""


def endmodel_features_part(shard: Shard, run_dir: str, window: int) -> dict[str, Any]:
    """End model task: the hashed pair features (labelers.endmodel.featurize) of the candidates in row group
    shard.index of candidates.parquet, as a list column."""
    from labelers.endmodel import feature_column, featurize

    cands = read_row_group(Path(run_dir) / S.CANDIDATES, shard.index)
    tokens = read_row_group(Path(run_dir) / S.TOKENS, shard.index, ["doc_id", "i", "pos", "dep", "lemma"])
    summary = {"rows": len(cands)}
    write_part(pa.table({"features": feature_column(featurize(cands, tokens, window))}), Path(shard.part), summary)
    return summary


def shard_features(shard: Shard) -> Any:
    from labelers.endmodel import from_feature_column

    return from_feature_column(read_table(Path(shard.part), ["features"]).column("features"))


def fit_end_model(ctx: Context, rows: list[np.ndarray], p_fit: np.ndarray) -> tuple[Any, list[Shard]]:
    """Featurize every shard (tasks), then fit on the chosen train rows of each."""
    from scipy import sparse

    from labelers.endmodel import fit

    shards = row_group_shards(ctx.run_dir, "endmodel", ctx.key, ctx.path(S.CANDIDATES))
    run_shards(ctx.tasks, "end model features", num_rows(ctx.path(S.CANDIDATES)), endmodel_features_part, shards,
               run_dir=ctx.shared(), window=ctx.config.endmodel.window)
    X = sparse.vstack([shard_features(s)[r] for s, r in zip(shards, rows)]).tocsr()
    return fit(X, p_fit, ctx.config.endmodel), shards


def endmodel_stage(ctx: Context) -> dict[str, Any]:
    """The end model's P(BOUND) per candidate, fitted on (a sample of) the train split's candidates with a
    vote and applied shard by shard; disabled or without enough rows, the aggregate's passed through."""
    from labelers.endmodel import fallback_reason, save_end_model
    from labelers.labels import ABSTAIN
    from pipeline.core.registers import is_binding

    cands, votes, bindings = (ctx.path(name) for name in (S.CANDIDATES, S.VOTES, S.BINDINGS))
    for path, kind in ((cands, "candidates"), (votes, "votes"), (bindings, "bindings")):
        check_kind(path, kind, S.SCHEMA_VERSION)
    cfg, threshold, lf_names = ctx.config.endmodel, ctx.config.aggregate.threshold, read_metadata(votes)["lfs"]
    rows, n_train = fit_rows(votes, ["split", *lf_names], lambda f: ((f["split"] == "train").to_numpy() & (
        f[lf_names].to_numpy() != ABSTAIN).any(axis=1)), cfg.max_fit_rows, cfg.seed)
    p_fit = np.concatenate([np.zeros(0)] + [read_row_group(bindings, k, ["p_lm"])["p_lm"].to_numpy(np.float64)[r]
                                            for k, r in enumerate(rows)])
    reason = fallback_reason(n_train, p_fit, cfg.min_train_rows)
    if cfg.enabled and reason is not None:
        ctx.warnings.append(f"end model not trained, the aggregate's labels are used: {reason}")
    model, shards = fit_end_model(ctx, rows, p_fit) if cfg.enabled and reason is None else (None, None)
    parts, accepted, changed = [], 0, 0
    for k in range(len(row_group_sizes(cands))):  # applied shard by shard: the driver holds one at a time
        ids, aggregated = read_row_group(cands, k, ["cand_id"]), read_row_group(bindings, k, S.BINDING_COLUMNS)
        check_aligned(ctx.run_dir, S.BINDINGS, aggregated, ids)
        check_aligned(ctx.run_dir, S.VOTES, read_row_group(votes, k, ["cand_id"]), ids)
        p = model.predict(shard_features(shards[k])) if model is not None else aggregated["p_lm"].to_numpy()
        table = pd.DataFrame({"cand_id": ids["cand_id"].to_numpy(), "p_bound": p.astype(np.float32)})
        table["accepted"] = is_binding(table["p_bound"], threshold)
        accepted += int(table["accepted"].sum())
        changed += int((table["accepted"] != aggregated["accepted"]).sum())
        parts.append(parts_dir(ctx.run_dir, "endmodel") / f"{ctx.key[:24]}-{k}.labels.parquet")
        write_part(table, parts[-1], {"rows": len(table)})
    source = "endmodel" if model is not None else "aggregate"
    assemble_parts(parts, ctx.path(S.ENDMODEL), ctx.meta("endmodel", source=source, threshold=threshold))
    remove_parts(ctx.run_dir, "endmodel")
    save_end_model(ctx.path(END_MODEL), model)
    return {"source": source, "train_rows": n_train, "fit_rows": len(p_fit), "accepted": accepted,
            "changed_vs_aggregate": changed}


def _register_inputs(run_dir: Path, shard: Shard, threshold: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The shard's tokens and its accepted bindings (candidate columns, ``p``) from endmodel.parquet (the end
    model's labels, or the aggregate's copied through when it is disabled), read by the shard's candidate rows
    [shard.begin, shard.end): the end model's file is written whole."""
    from labelers.registers import accepted_bindings

    tokens = read_row_group(run_dir / S.TOKENS, shard.index, ["doc_id", "i", "start", "end"])
    cands = read_row_group(run_dir / S.CANDIDATES, shard.index, S.CANDIDATE_KEY_COLUMNS + ["split", "attr_lemma"])
    labels = read_rows(run_dir / S.ENDMODEL, shard.begin, shard.end, S.ENDMODEL_COLUMNS)
    check_aligned(run_dir, S.ENDMODEL, labels, cands)
    return tokens, accepted_bindings(cands, labels["p_bound"].to_numpy(), threshold)


def with_candidate_rows(shards: list[Shard], candidates: Path) -> list[Shard]:
    """The shards, each with its rows of candidates.parquet as [begin, end) (row group k is shard k's)."""
    sizes = row_group_sizes(candidates)
    starts = np.cumsum([0, *(sizes[s.index] for s in shards)])
    return [dataclasses.replace(s, begin=int(b), end=int(e)) for s, b, e in zip(shards, starts[:-1], starts[1:])]


def lemma_count_part(shard: Shard, run_dir: str, threshold: float) -> dict[str, Any]:
    """Registers task, first pass: the shard's share of the vocabulary counts."""
    from labelers.registers import lemma_counts

    return {"rows": 0, "counts": dict(lemma_counts(_register_inputs(Path(run_dir), shard, threshold)[1]))}


def registers_part(shard: Shard, run_dir: str, threshold: float, vocab: list[str], slots: int) -> dict[str, Any]:
    """Registers task: the register rows of the tokens in row group shard.index of tokens.parquet."""
    from labelers.registers import register_arrays, register_counts, register_table

    tokens, accepted = _register_inputs(Path(run_dir), shard, threshold)
    labels, conf = register_arrays(tokens, accepted, vocab, slots)
    summary = {"rows": int(tokens["doc_id"].nunique())} | register_counts(labels, len(accepted))
    write_part(register_table(tokens, labels, conf), Path(shard.part), summary)
    return summary


def registers_stage(ctx: Context) -> dict[str, Any]:
    from labelers.registers import register_summary, vocab_from_counts

    for name, kind in ((S.TOKENS, "tokens"), (S.CANDIDATES, "candidates"), (S.ENDMODEL, "endmodel")):
        check_kind(ctx.path(name), kind, S.SCHEMA_VERSION)
    cfg, threshold, run_dir = ctx.config.registers, ctx.config.aggregate.threshold, ctx.shared()
    shards = with_candidate_rows(row_group_shards(ctx.run_dir, "registers", ctx.key, ctx.path(S.TOKENS)),
                                 ctx.path(S.CANDIDATES))
    # the one global fact: the vocabulary, counted over every shard before any shard's registers
    counts = sum((Counter(f["counts"]) for f in ctx.tasks.map(lemma_count_part, shards, run_dir=run_dir,
                                                               threshold=threshold)), Counter())
    vocab = vocab_from_counts(counts, cfg.vocab_size)
    found = run_shards(ctx.tasks, "registers", num_rows(ctx.path(S.DOCS)), registers_part, shards, run_dir=run_dir,
                       threshold=threshold, vocab=vocab, slots=cfg.slots)
    finish_parts(shards, ctx.path(S.REGISTERS), ctx.meta(
        "registers", slots=cfg.slots, vocab=vocab, threshold=threshold,
        docs_sha256=file_sha256(ctx.path(S.DOCS))), ctx.run_dir, "registers")
    return register_summary(found, vocab)


def report_stage(ctx: Context) -> dict[str, Any]:
    from labelers.report.build import gold_note, write_report

    cfg = ctx.config.report
    figures = write_report(ctx.run_dir, Path(cfg.gold) if cfg.gold else None,
                           Path(cfg.compare) if cfg.compare else None, cfg.split)
    note = gold_note(figures, ctx.run_dir)
    if note:  # a run of another corpus: the one line that says how to get precision and recall
        ctx.warnings.append(note)
    return {"gold": figures.get("gold", {}).get("files", []), "html": str(ctx.path("report.html"))}


def report_environment(config: PipelineConfig) -> dict[str, Any]:
    """The gold files and the compared run's bindings are outside the run folder."""
    from labelers.report.build import resolve_gold

    paths, _ = resolve_gold(Path(config.report.gold) if config.report.gold else None)
    compared = Path(config.report.compare) / S.BINDINGS if config.report.compare else None
    return {"gold": {str(p): file_sha256(p) for p in paths if p.exists()},
            "compare": file_sha256(compared) if compared and compared.exists() else None}


MODEL_DIR = "model"
MODEL_CKPT = f"{MODEL_DIR}/ckpt.pt"
PROBE_RESULTS = "probe.json"
DEFAULT_PROBES = ("data/probes/gold_test.jsonl", "data/probes/generated_test.jsonl")


def train_stage(ctx: Context) -> dict[str, Any]:
    """A short training run on the run's own registers into RUN_DIR/model/ (always from scratch: the
    stage reruns only when its inputs, config or code changed)."""
    from labelers.probe_sets import load_assertions
    from training.train import train

    out = ctx.path(MODEL_DIR)
    if out.exists():
        shutil.rmtree(out)
    sections = ctx.config.train
    records = train(dataclasses.replace(sections, data=dataclasses.replace(sections.data, labels=str(ctx.run_dir))), out,
                    assertions=load_assertions)
    last = records[-1]
    if "eval_ce_loss" not in last:
        ctx.warnings.append(f"train: the {sections.data.split_to_eval()} split of {ctx.run_dir} has no passage, so "
                            "there is no evaluation loss (the headline is the training loss); a larger corpus or "
                            "a larger ingest.valid_fraction gives it one")
    return {"checkpoint": str(ctx.path(MODEL_CKPT)), "steps": last["step"],
            "tokens_per_s": round(last["tokens_per_s"], 1), "train_seconds": round(sum(
                r["train_seconds"] for r in records), 1),
            **{k: round(last[k], 4) for k in ("ce_loss", "reg_loss", "eval_ce_loss", "reg_acc") if k in last}}


def probe_files(config: PipelineConfig) -> list[Path]:
    return [Path(f) for f in config.probe.files] or [PROJECT_ROOT / f for f in DEFAULT_PROBES]


def probe_stage(ctx: Context) -> dict[str, Any]:
    """Binding-probe accuracy of RUN_DIR/model/ckpt.pt on each probe set (probe.json keeps every item); a
    run of another corpus than the bundled one is probed on a set built from its own test split."""
    from labelers.probe_sets import probe_sets_for_run
    from training.checkpoint import evaluate_checkpoint
    from training.probes import headline, read_probes

    results = {}
    for found in probe_sets_for_run(ctx.run_dir, probe_files(ctx.config), bool(ctx.config.probe.files),
                                    ctx.config.probe.min_pairs):
        results[found.name] = {"file": str(found.path), "built": found.built}
        if found.skip:
            ctx.warnings.append(f"probe: {found.skip}")
            results[found.name] |= {"n": found.items, "pairs": found.pairs, "skipped": found.skip}
        else:
            results[found.name] |= evaluate_checkpoint(ctx.path(MODEL_CKPT), read_probes(found.path))
    write_json(ctx.path(PROBE_RESULTS), results)
    return {name: {k: round(v, 4) if isinstance(v, float) else v
                   for k, v in ({k: r[k] for k in ("n", "pairs", "built", "skipped", "accuracy", "ci_low", "ci_high",
                                                   "chance") if k in r} | headline(r)).items()}
            for name, r in results.items()}


def probe_environment(config: PipelineConfig) -> dict[str, Any]:
    """The probe files are outside the run folder."""
    return {str(p): file_sha256(p) if p.exists() else None for p in probe_files(config)}


STAGES: tuple[Stage, ...] = (
    Stage("ingest", (), (S.DOCS, "splits.json", "ingest_report.json"), ("ingest",),
          ingest_stage, environment=corpus_environment),
    Stage("parse", (S.DOCS,), (S.TOKENS,), ("parse",), parse_stage,
          volatile=("batch_size", "n_process"), environment=pipeline_environment),
    Stage("candidates", (S.DOCS, S.TOKENS), (S.CANDIDATES,), ("candidates",), candidates_stage),
    Stage("label", (S.CANDIDATES,), (S.VOTES,), ("label",), label_stage),
    Stage("aggregate", (S.VOTES,), (S.BINDINGS, S.AGGREGATORS, LABEL_MODEL, "aggregate.json"), ("aggregate",),
          aggregate_stage),
    Stage("endmodel", (S.CANDIDATES, S.TOKENS, S.VOTES, S.BINDINGS), (S.ENDMODEL, END_MODEL),
          ("endmodel", "aggregate"), endmodel_stage),
    Stage("registers", (S.DOCS, S.TOKENS, S.CANDIDATES, S.ENDMODEL), (S.REGISTERS,),
          ("registers", "aggregate"), registers_stage),
    Stage("report", (S.DOCS, S.CANDIDATES, S.VOTES, S.BINDINGS, S.AGGREGATORS, "aggregate.json", S.ENDMODEL,
                     S.REGISTERS),
          ("report.html", "report.json"), ("report",), report_stage, environment=report_environment),
    Stage("train", (S.DOCS, S.REGISTERS), (MODEL_CKPT,), ("train",), train_stage),
    # the run's own files are inputs too: a run of another corpus builds its probe set from them
    Stage("probe", (MODEL_CKPT, S.DOCS, S.TOKENS, S.CANDIDATES, S.BINDINGS), (PROBE_RESULTS,), ("probe",),
          probe_stage, environment=probe_environment),
)
STAGE_NAMES = tuple(stage.name for stage in STAGES)
