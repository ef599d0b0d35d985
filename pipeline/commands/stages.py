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

from pipeline.commands.cluster import Shard, Tasks, doc_shards, finish_parts, row_group_shards, run_shards
from pipeline.core import schemas as S
from pipeline.core.io import (check_aligned, check_kind, file_sha256, num_rows, read_metadata, read_parquet,
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
    frame = parse_frame(nlp, rows["doc_id"].tolist(), rows["text"].tolist(), cfg.batch_size, cfg.n_process)
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


def read_votes(ctx: Context) -> tuple[pd.DataFrame, list[str]]:
    votes = read_parquet(ctx.path(S.VOTES), ["cand_id", "split"], "votes", S.SCHEMA_VERSION)
    return votes, read_metadata(ctx.path(S.VOTES))["lfs"]


def fit_mask(sharded: Path, eligible: np.ndarray, max_rows: int, seed: int) -> np.ndarray:
    """The rows a model is fitted on: the ``eligible`` ones (train split), or about ``max_rows`` of them drawn
    shard by shard (labelers.aggregation.fit_sample: row group k of ``sharded`` is shard k) when there are
    more."""
    from labelers.aggregation import fit_sample

    n_eligible = int(eligible.sum())
    if n_eligible <= max_rows:
        return eligible
    mask, begin = np.zeros(len(eligible), dtype=bool), 0
    for k, size in enumerate(row_group_sizes(sharded)):
        rows = np.flatnonzero(eligible[begin:begin + size]) + begin
        mask[rows[fit_sample(len(rows), max_rows / n_eligible, seed, k)]] = True
        begin += size
    return mask


def options_on(tasks: Tasks, key: str) -> Callable[..., list]:
    """labelers.aggregation's ``fit_many`` on the run's tasks: the options are fitted side by side on a cluster."""
    from labelers.aggregation import fit_timed

    def fit_many(methods: list[str], L_train: np.ndarray, lf_names: list[str], settings: Any) -> list:
        return tasks.call(fit_timed, methods, [f"{key[:16]}-{m}" for m in methods], L_train=L_train,
                          lf_names=lf_names, s=settings)
    return fit_many


def aggregate_stage(ctx: Context) -> dict[str, Any]:
    from labelers.aggregation import aggregate, save_aggregator
    from pipeline.core.registers import is_binding

    votes, lf_names = read_votes(ctx)
    cfg = ctx.config.aggregate
    L = votes[lf_names].to_numpy(dtype=np.int64)
    fit_rows = fit_mask(ctx.path(S.VOTES), votes["split"].to_numpy() == "train", cfg.max_fit_rows, cfg.seed)
    result = aggregate(L, fit_rows, lf_names, cfg.model, cfg.settings(), options_on(ctx.tasks, ctx.key))
    ctx.warnings.extend(result.warnings)
    bindings = pd.DataFrame({"cand_id": votes["cand_id"], "p_lm": result.p_lm.astype(np.float32),
                             "p_mv": result.p_mv.astype(np.float32)})
    bindings["accepted"] = is_binding(bindings["p_lm"], cfg.threshold)
    write_parquet(bindings, ctx.path(S.BINDINGS), ctx.meta("bindings", method=result.method,
                                                           threshold=cfg.threshold))
    options = pd.DataFrame({"cand_id": votes["cand_id"]} | {name: p.astype(np.float32)
                                                             for name, p in result.options.items()})
    write_parquet(options, ctx.path(S.AGGREGATORS), ctx.meta("aggregators", options=list(result.options)))
    save_aggregator(ctx.path(LABEL_MODEL), result.fitted)
    summary = {"method": result.method, "accepted": int(bindings["accepted"].sum()),
               "accepted_fraction": round(float(bindings["accepted"].mean()), 4) if len(bindings) else 0.0,
               "lf_accuracy_estimates": {k: round(v, 4) for k, v in result.weights.items()}}
    write_json(ctx.path("aggregate.json"), summary | {"options": result.option_info, "warnings": result.warnings})
    return summary | {"seconds": {k: round(v, 2) for k, v in result.seconds.items()}}


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


def fit_end_model(ctx: Context, p_aggregate: np.ndarray, train_rows: np.ndarray) -> tuple[Any, list[Shard], int]:
    """Featurize every shard (tasks), then fit on the train rows (a sample above endmodel.max_fit_rows)."""
    from scipy import sparse

    from labelers.endmodel import fit

    cfg = ctx.config.endmodel
    shards = with_candidate_rows(row_group_shards(ctx.run_dir, "endmodel-features", ctx.key, ctx.path(S.TOKENS)),
                                 ctx.path(S.CANDIDATES))
    run_shards(ctx.tasks, "end model features", len(train_rows), endmodel_features_part, shards,
               run_dir=str(Path(ctx.run_dir).resolve()), window=cfg.window)
    rows = fit_mask(ctx.path(S.CANDIDATES), train_rows, cfg.max_fit_rows, cfg.seed)
    X = sparse.vstack([shard_features(s)[rows[s.begin:s.end]] for s in shards]).tocsr()
    return fit(X, p_aggregate[rows], cfg), shards, int(rows.sum())


def endmodel_stage(ctx: Context) -> dict[str, Any]:
    from labelers.endmodel import fallback_reason, save_end_model
    from labelers.labels import ABSTAIN
    from pipeline.core.registers import is_binding

    cands = read_parquet(ctx.path(S.CANDIDATES), ["cand_id", "split"], "candidates", S.SCHEMA_VERSION)
    bindings = read_parquet(ctx.path(S.BINDINGS), S.BINDING_COLUMNS, "bindings", S.SCHEMA_VERSION)
    votes, lf_names = read_votes(ctx)
    check_aligned(ctx.run_dir, S.BINDINGS, bindings, cands)
    check_aligned(ctx.run_dir, S.VOTES, votes, cands)
    cfg, threshold = ctx.config.endmodel, ctx.config.aggregate.threshold
    p_aggregate = bindings["p_lm"].to_numpy(np.float64)
    train_rows = (cands["split"] == "train").to_numpy() & (votes[lf_names].to_numpy() != ABSTAIN).any(axis=1)
    reason = fallback_reason(int(train_rows.sum()), p_aggregate[train_rows], cfg.min_train_rows)
    model, fit_rows, meta = None, 0, ctx.meta("endmodel", source="aggregate", threshold=threshold)
    if cfg.enabled and reason is not None:
        ctx.warnings.append(f"end model not trained, the aggregate's labels are used: {reason}")
    if not cfg.enabled or reason is not None:
        table = pd.DataFrame({"cand_id": cands["cand_id"], "p_bound": p_aggregate.astype(np.float32)})
        table["accepted"] = is_binding(table["p_bound"], threshold)
        write_parquet(table, ctx.path(S.ENDMODEL), meta)
        accepted = table["accepted"].to_numpy()
    else:  # applied shard by shard: the driver holds one shard's features at a time
        model, shards, fit_rows = fit_end_model(ctx, p_aggregate, train_rows)
        meta["source"], parts, accepted = "endmodel", [], []
        for s in shards:
            part = Path(s.part).with_suffix(".labels.parquet")
            table = pd.DataFrame({"cand_id": cands["cand_id"].iloc[s.begin:s.end].to_numpy(),
                                  "p_bound": model.predict(shard_features(s)).astype(np.float32)})
            table["accepted"] = is_binding(table["p_bound"], threshold)
            write_part(table, part, {"rows": len(table)})
            parts.append(dataclasses.replace(s, part=str(part)))
            accepted.append(table["accepted"].to_numpy())
        finish_parts(parts, ctx.path(S.ENDMODEL), meta, ctx.run_dir, "endmodel-features")
        accepted = np.concatenate(accepted)
    save_end_model(ctx.path(END_MODEL), model)
    return {"source": meta["source"], "train_rows": int(train_rows.sum()), "fit_rows": fit_rows,
            "accepted": int(accepted.sum()), "changed_vs_aggregate": int((accepted != bindings["accepted"]).sum())}


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
