"""Can the end model overrule the votes where majority vote is wrong? A sweep on the dev sets only.

Majority vote's gold errors lie almost all on candidates whose LFs agree (label_quality.md, headroom table),
so no aggregator of the votes can gain much there; the end model is the one step that can overrule a
unanimous vote. This fits it (labelers/endmodel.py, the stage's features and noise-aware loss) with each
inverse L2 strength C and each source of soft labels (the LabelModel's, as the stage does, and majority
vote's, ties at 0.5) and each feature set (the stage's structural features, and those plus spaCy's contextual
token vectors of the entity and the adjective: the 96-float output of the pipeline's tok2vec, recomputed
here over the run's own tokens and standardised per column, scaled by VECTOR_SCALE) on the train split of
the run, and scores passage-level bindings against majority vote on the dev gold only: the Austen valid
chapters, the train-chapter dev set and, with --factbook-run, the Factbook dev half (the test halves stay
for label_quality.py, once per change).

    OMP_WAIT_POLICY=PASSIVE python benchmarks/endmodel_sweep.py --run runs/default --factbook-run runs/factbook
"""
from __future__ import annotations

import argparse
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

import label_quality as lq
from bench_common import provenance, publish
from labelers import endmodel
from labelers.aggregation import majority_class_balance, majority_proba
from labelers.labels import ABSTAIN
from labelers.parsing import FALLBACK, doc_from_rows, load_pipeline
from labelers.report.gold import default_gold_paths, load_gold, passage_rows
from labelers.report.metrics import prf
from pipeline.core import schemas as S
from pipeline.core.io import read_parquet

ROOT = lq.ROOT
C_VALUES = (0.05, 0.2, 1.0, 5.0)
"""1.0 is the stage's default (EndModelConfig.C)."""
VECTOR_SCALE = 0.1
"""Standardised vectors times this: at 1.0 their 192 dense columns outweigh the few hashed ones of a pair
(tried on the dev sets: no better)."""


def contextual_vectors(run: Path, cands: pd.DataFrame) -> sparse.csr_matrix:
    """Per candidate, the tok2vec vectors of its entity and adjective tokens, standardised and scaled."""
    nlp = load_pipeline(FALLBACK, ner=False)
    tok2vec = nlp.get_pipe("tok2vec")
    tokens = read_parquet(run / S.TOKENS)
    where = cands.groupby("doc_id", sort=False).indices
    ent_i, attr_i = cands["ent_i"].to_numpy(), cands["attr_i"].to_numpy()
    ends = np.zeros((len(cands), 2 * tok2vec.model.get_dim("nO")), np.float32)
    for doc_id, rows in tokens.groupby("doc_id", sort=False):
        if doc_id in where:
            idx, tensor = where[doc_id], tok2vec(doc_from_rows(nlp.vocab, rows)).tensor
            ends[idx] = np.hstack([tensor[ent_i[idx]], tensor[attr_i[idx]]])
    return sparse.csr_matrix(ends / (ends.std(axis=0, keepdims=True) + 1e-6) * VECTOR_SCALE)


def dev_tables(run: Path, factbook: bool):
    docs, cands, L, train, X, _ = lq.load_matrix(run)
    features = {"structural": X, "structural+vectors": sparse.hstack([X, contextual_vectors(run, cands)]).tocsr()}
    if factbook:
        return L, train, features, {"factbook-dev": passage_rows(load_gold([lq.halves("factbook")["factbook-dev"]], docs), cands)}
    regions = passage_rows(load_gold(default_gold_paths(ROOT / "data/gold"), docs), cands)
    split_of = dict(zip(docs["doc_id"], docs["split"]))
    valid = regions[regions["doc_id"].map(split_of) == "valid"]
    return L, train, features, {"valid": valid, "train-dev": passage_rows(load_gold([lq.TRAIN_DEV_GOLD], docs), cands)}


def sweep(run: Path, factbook: bool) -> list[dict]:
    L, train, features, tables = dev_tables(run, factbook)
    p_mv = majority_proba(L)
    p_lm, _ = lq.snorkel(L, train, majority_class_balance(p_mv[train]), 1.0)
    voted = train & (L != ABSTAIN).any(axis=1)
    rng, rows = np.random.default_rng(0), []
    for (labels, p_train), (kind, X), C in product((("label_model", p_lm), ("majority_vote", p_mv)),
                                                    features.items(), C_VALUES):
        fitted = endmodel.fit(X[voted], p_train[voted], endmodel.EndModelConfig(C=C))
        p = endmodel.predict(fitted, X)
        for split, table in tables.items():
            y, base = table["y"].to_numpy(), lq.on_gold(p_mv, table)
            pred = lq.on_gold(p, table)
            rows.append({"split": split, "labels": labels, "features": kind, "C": C, **prf(pred, y),
                         "majority_f1": prf(base, y)["f1"],
                         "overruled": int((pred != base).sum()), "overruled_right": int(((pred != base) & (pred == y)).sum()),
                         "f1_minus_majority_ci": lq.f1_gap(pred, base, y, table["doc_id"].to_numpy(), rng)})
    return rows


def markdown(results: dict) -> str:
    lines = ["# End model sweep: inverse L2 strength, label source and features, against majority vote on dev gold", "",
             f"- date: {results['date']}", f"- command: `{results['command']}`",
             f"- machine: {results['machine']['cpu']} ({results['machine']['cpus']} CPUs)", "",
             "Passage-level bindings. Overruled: gold rows where the end model's decision differs from majority "
             "vote's (right: of those, the end model is right).", "",
             "| split | labels | features | C | precision | recall | F1 | F1 - majority [95% CI, passages resampled] | overruled (right) |",
             "|---|---|---|---:|---:|---:|---:|---|---|"]
    for r in results["rows"]:
        lo, hi = r["f1_minus_majority_ci"]
        lines.append(f"| {r['split']} | {r['labels']} | {r['features']} | {r['C']} | {r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} "
                     f"| {r['f1'] - r['majority_f1']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {r['overruled']} ({r['overruled_right']}) |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, default=ROOT / "runs/default")
    parser.add_argument("--factbook-run", type=Path, default=None, help="a run of data/factbook (omitted: Austen only)")
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/endmodel_sweep.json")
    args = parser.parse_args()
    rows = sweep(args.run, False) + (sweep(args.factbook_run, True) if args.factbook_run else [])
    results = {**provenance(__file__, ROOT), "run": lq.shown_run(args.run), "rows": rows}
    publish(args.results, results, markdown)


if __name__ == "__main__":
    main()
