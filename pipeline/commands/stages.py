"""The labeling pipeline's stages, each a function with declared inputs, outputs, config and code.

A stage reads its inputs from the run folder, writes its outputs atomically and returns a summary
(figures for run.json). pipeline.commands.runner decides from the lock file whether a stage must run.
"""
from __future__ import annotations

import dataclasses
import shutil
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import pandas as pd

from pipeline.commands.lock import json_sha256
from pipeline.core import schemas as S
from pipeline.core.io import check_aligned, file_sha256, read_metadata, read_parquet, write_json, write_parquet
from pipeline.core.paths import PROJECT_ROOT
from pipeline.core.progress import Advance, progress_bar

# Named in annotations only: spaCy loads in the stages that parse, and PipelineConfig imports torch (through
# the trainer's config sections), which the command line loads only when it runs the pipeline.
if TYPE_CHECKING:
    from spacy.language import Language

    from pipeline.commands.pipeline_config import PipelineConfig


@dataclass
class Context:
    run_dir: Path
    config: PipelineConfig
    warnings: list[str] = dataclasses.field(default_factory=list)

    def path(self, name: str) -> Path:
        return self.run_dir / name

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


def _parse_shard(ctx: Context, nlp: Language, shard: pd.DataFrame, key: str, parts: Path, advance: Advance) -> Path:
    from labelers.parsing import parse_frame

    part = parts / f"{key}.parquet"
    if part.exists():  # finished by an earlier, interrupted run
        advance(len(shard))
        return part
    cfg = ctx.config.parse
    frame = parse_frame(nlp, shard["doc_id"].tolist(), shard["text"].tolist(), cfg.batch_size,
                        cfg.n_process, advance)
    write_parquet(frame, part)
    return part


def parse_stage(ctx: Context) -> dict[str, Any]:
    import spacy

    from labelers.parsing import load_pipeline, pipeline_id

    docs = read_parquet(ctx.path(S.DOCS), S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    nlp = load_pipeline(ctx.config.parse.pipeline)
    used = pipeline_id(nlp)
    parts = ctx.path(".parts") / "parse"
    parts.mkdir(parents=True, exist_ok=True)
    size, started, files = ctx.config.parse.shard_docs, time.perf_counter(), []
    with progress_bar(f"parse ({used})", len(docs)) as advance:
        for begin in range(0, len(docs), size):
            shard = docs.iloc[begin:begin + size]
            key = json_sha256([used, spacy.__version__, shard["doc_id"].tolist()])[:24]
            files.append(_parse_shard(ctx, nlp, shard, key, parts, advance))
    tokens = pd.concat([read_parquet(f) for f in files], ignore_index=True)
    seconds = time.perf_counter() - started
    write_parquet(tokens, ctx.path(S.TOKENS), ctx.meta("tokens", pipeline=used, lang=nlp.lang,
                                                       spacy=spacy.__version__))
    shutil.rmtree(parts)
    if not any(parts.parent.iterdir()):
        parts.parent.rmdir()
    words = int(docs["text"].str.split().str.len().sum())
    return {"pipeline": used, "spacy": spacy.__version__, "components": nlp.pipe_names,
            "tokens": len(tokens), "sentences": int(tokens.groupby("doc_id")["sent"].max().add(1).sum()),
            "words_per_s": round(words / seconds, 1)}


def candidates_stage(ctx: Context) -> dict[str, Any]:
    import spacy

    from labelers.extraction import CANDIDATE_COLUMNS, extract_candidates
    from labelers.parsing import docs_from_tokens

    docs = read_parquet(ctx.path(S.DOCS), S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    tokens = read_parquet(ctx.path(S.TOKENS), S.TOKEN_COLUMNS, "tokens", S.SCHEMA_VERSION)
    rows: list[dict] = []
    with progress_bar("candidates", len(docs)) as advance:
        # The language's vocab, not a blank one: lexical attributes (is_stop, like_num...) come from it.
        vocab = spacy.blank(read_metadata(ctx.path(S.TOKENS))["lang"]).vocab
        for doc_id, doc in docs_from_tokens(vocab, tokens, docs["doc_id"].tolist()):
            rows.extend(extract_candidates(doc, doc_id, max_distance=ctx.config.candidates.max_distance))
            advance()
    frame = pd.DataFrame(rows, columns=CANDIDATE_COLUMNS)
    frame["split"] = frame["doc_id"].map(dict(zip(docs["doc_id"], docs["split"]))).astype("str")
    write_parquet(frame, ctx.path(S.CANDIDATES), ctx.meta("candidates"))
    return {"candidates": len(frame), "by_split": frame["split"].value_counts().to_dict(),
            "docs_with_candidates": int(frame["doc_id"].nunique())}


def selected_lfs(ctx: Context) -> list:
    from labelers.lfs import ALL_LFS

    wanted = ctx.config.label.lfs
    return [lf for lf in ALL_LFS if not wanted or lf.name in wanted]


LABEL_CHUNK = 10_000


def label_stage(ctx: Context) -> dict[str, Any]:
    from snorkel.labeling import LFAnalysis, PandasLFApplier

    cands = read_parquet(ctx.path(S.CANDIDATES), S.CANDIDATE_KEY_COLUMNS + ["split"], "candidates",
                         S.SCHEMA_VERSION)
    lfs = selected_lfs(ctx)
    applier, chunks = PandasLFApplier(lfs), range(0, len(cands), LABEL_CHUNK)
    with progress_bar(f"label ({len(lfs)} LFs)", len(cands)) as advance:
        parts = []
        for begin in chunks:  # in chunks only to drive the progress bar
            parts.append(applier.apply(cands.iloc[begin:begin + LABEL_CHUNK], progress_bar=False))
            advance(len(parts[-1]))
    L = np.concatenate(parts) if parts else np.zeros((0, len(lfs)), dtype=np.int64)
    votes = pd.DataFrame(L.astype(np.int8), columns=[lf.name for lf in lfs])
    votes.insert(0, "split", cands["split"].to_numpy())
    votes.insert(0, "cand_id", cands["cand_id"].to_numpy())
    write_parquet(votes, ctx.path(S.VOTES), ctx.meta("votes", lfs=[lf.name for lf in lfs]))
    with warnings.catch_warnings():  # scipy's FutureWarning about diags() inside LFAnalysis: harmless
        warnings.simplefilter("ignore", FutureWarning)
        summary = LFAnalysis(L, lfs).lf_summary()
    return {"lfs": len(lfs), "rows": len(votes),
            "coverage": {name: round(float(c), 4) for name, c in summary["Coverage"].items()},
            "any_vote": round(float((L != -1).any(axis=1).mean()), 4)}


def read_votes(ctx: Context) -> tuple[pd.DataFrame, list[str]]:
    votes = read_parquet(ctx.path(S.VOTES), ["cand_id", "split"], "votes", S.SCHEMA_VERSION)
    return votes, read_metadata(ctx.path(S.VOTES))["lfs"]


LABEL_MODEL = "label_model.pt"
"""The chosen aggregator's parameters (labelers.aggregation.load_aggregator reads them)."""


def aggregate_stage(ctx: Context) -> dict[str, Any]:
    from labelers.aggregation import aggregate, save_aggregator
    from pipeline.core.registers import is_binding

    votes, lf_names = read_votes(ctx)
    cfg = ctx.config.aggregate
    L = votes[lf_names].to_numpy(dtype=np.int64)
    result = aggregate(L, (votes["split"] == "train").to_numpy(), lf_names, cfg.model, cfg.settings())
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


def endmodel_stage(ctx: Context) -> dict[str, Any]:
    from labelers.endmodel import save_end_model, train
    from labelers.labels import ABSTAIN
    from pipeline.core.registers import is_binding

    cands = read_parquet(ctx.path(S.CANDIDATES), None, "candidates", S.SCHEMA_VERSION)
    bindings = read_parquet(ctx.path(S.BINDINGS), S.BINDING_COLUMNS, "bindings", S.SCHEMA_VERSION)
    votes, lf_names = read_votes(ctx)
    check_aligned(ctx.run_dir, S.BINDINGS, bindings, cands)
    check_aligned(ctx.run_dir, S.VOTES, votes, cands)
    cfg, threshold = ctx.config.endmodel, ctx.config.aggregate.threshold
    p_aggregate = bindings["p_lm"].to_numpy(np.float64)
    train_rows = (cands["split"] == "train").to_numpy() & (votes[lf_names].to_numpy() != ABSTAIN).any(axis=1)
    if cfg.enabled:
        tokens = read_parquet(ctx.path(S.TOKENS), ["doc_id", "i", "pos", "dep", "lemma"], "tokens", S.SCHEMA_VERSION)
        trained = train(cands, tokens, p_aggregate, train_rows, cfg)
        ctx.warnings.extend(trained.warnings)
        p, model = trained.p_bound, trained.model
    else:
        p, model = p_aggregate, None
    source = "endmodel" if model is not None else "aggregate"
    table = pd.DataFrame({"cand_id": cands["cand_id"], "p_bound": p.astype(np.float32)})
    table["accepted"] = is_binding(table["p_bound"], threshold)
    write_parquet(table, ctx.path(S.ENDMODEL), ctx.meta("endmodel", source=source, threshold=threshold))
    save_end_model(ctx.path(END_MODEL), model)
    return {"source": source, "train_rows": int(train_rows.sum()), "accepted": int(table["accepted"].sum()),
            "changed_vs_aggregate": int((table["accepted"] != bindings["accepted"]).sum())}


def registers_stage(ctx: Context) -> dict[str, Any]:
    from labelers.registers import materialise

    tokens = read_parquet(ctx.path(S.TOKENS), ["doc_id", "i", "start", "end"], "tokens", S.SCHEMA_VERSION)
    cands = read_parquet(ctx.path(S.CANDIDATES), S.CANDIDATE_KEY_COLUMNS + ["split", "attr_lemma"],
                         "candidates", S.SCHEMA_VERSION)
    # the end model's labels, or the aggregate's copied through when it is disabled (endmodel.enabled)
    labels = read_parquet(ctx.path(S.ENDMODEL), S.ENDMODEL_COLUMNS, "endmodel", S.SCHEMA_VERSION)
    check_aligned(ctx.run_dir, S.ENDMODEL, labels, cands)
    cfg, threshold = ctx.config.registers, ctx.config.aggregate.threshold
    with progress_bar("registers", tokens["doc_id"].nunique()) as advance:
        table, vocab, summary = materialise(tokens, cands, labels["p_bound"].to_numpy(), threshold,
                                            cfg.slots, cfg.vocab_size, advance)
    write_parquet(table, ctx.path(S.REGISTERS), ctx.meta(
        "registers", slots=cfg.slots, vocab=vocab, threshold=threshold,
        docs_sha256=file_sha256(ctx.path(S.DOCS))))
    return summary


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
          volatile=("batch_size", "n_process", "shard_docs"), environment=pipeline_environment),
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
