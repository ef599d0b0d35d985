"""Can a little gold teach the end model what the LFs get wrong? Train-chapter gold as extra training rows.

The end model learns the LFs' decisions from their labels (endmodel_sweep.md), so it cannot overrule the
votes where they agree and are wrong. This adds the candidates of the Austen train-chapter dev set
(data/gold/austen_train: gold labels, train chapters only) to its training rows, each counted WEIGHTS times
beside the train split's soft labels (weight 0 is the stage as it is; "gold only" drops the weak labels),
with the stage's structural features plus the votes themselves (one column per LF and class), so that it
can learn where a vote pattern is wrong. It scores passage-level bindings against majority vote on dev
gold the rows do not come from: the Austen valid chapters and, with their runs, the Factbook and Moby Dick
dev halves (a run of another corpus trains on its own train split plus the same Austen gold rows). The
train dev set itself is shown as in-sample. Test halves stay for label_quality.py. Beside it, a weighted vote
learned from the same gold: a logistic regression on the vote indicators alone (VOTE_C), the most a
supervised aggregator of these votes can take from that gold.

    OMP_WAIT_POLICY=PASSIVE python benchmarks/gold_anchor.py --run runs/default \
        --factbook-run runs/factbook --melville-run runs/melville
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

import label_quality as lq
from bench_common import provenance, publish
from labelers import endmodel
from labelers.aggregation import majority_class_balance, majority_proba
from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.report.gold import default_gold_paths, load_gold, passage_rows
from labelers.report.metrics import prf

ROOT = lq.ROOT
WEIGHTS = (0, 5, 20, 50)
"""How many times each gold row counts beside one weak row (0: the stage's end model)."""
VOTE_C = (0.3, 3.0)
"""Inverse L2 strengths of the gold-weighted vote."""


def vote_indicators(L: np.ndarray) -> np.ndarray:
    """One indicator column per LF and class voted."""
    return np.hstack([L == BOUND, L == NOT_BOUND]).astype(np.float64)


def with_votes(X: sparse.csr_matrix, L: np.ndarray) -> sparse.csr_matrix:
    """The structural features and the vote indicators."""
    return sparse.hstack([X, sparse.csr_matrix(vote_indicators(L))]).tocsr()


def load(run: Path, name: str | None) -> dict:
    """Features, votes, train mask and dev gold tables of a run (name: an OTHER_SETS gold set, or None)."""
    docs, cands, L, train, X, _ = lq.load_matrix(run)
    if name:
        tables = {half: passage_rows(load_gold([path], docs), cands)
                  for half, path in lq.halves(name).items() if half.endswith("-dev")}
    else:
        regions = passage_rows(load_gold(default_gold_paths(ROOT / "data/gold"), docs), cands)
        split_of = dict(zip(docs["doc_id"], docs["split"]))
        tables = {"valid": regions[regions["doc_id"].map(split_of) == "valid"],
                  "train-dev (in-sample)": passage_rows(load_gold([lq.TRAIN_DEV_GOLD], docs), cands)}
    return {"run": lq.shown_run(run), "X": with_votes(X, L), "L": L, "train": train, "tables": tables}


def gold_rows(austen: dict) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
    """Features, votes and gold labels of the train dev set's candidates (its misses have no features)."""
    table = austen["tables"]["train-dev (in-sample)"]
    table = table[table["row"] >= 0]
    rows = table["row"].to_numpy()
    return austen["X"][rows], austen["L"][rows], table["y"].to_numpy().astype(np.float64)


def fits(data: dict, gold_X: sparse.csr_matrix, gold_L: np.ndarray, gold_y: np.ndarray) -> dict[str, np.ndarray]:
    """P(BOUND) per candidate of each training mix, and of the gold-weighted votes."""
    L, train, X = data["L"], data["train"], data["X"]
    p_mv = majority_proba(L)
    p_lm, _ = lq.snorkel(L, train, majority_class_balance(p_mv[train]), 1.0)
    voted = np.flatnonzero(train & (L != ABSTAIN).any(axis=1))
    config = endmodel.EndModelConfig()
    out = {"majority_vote": p_mv}
    for weight in WEIGHTS:
        repeat = np.repeat(np.arange(len(gold_y)), weight)
        rows = sparse.vstack([X[voted], gold_X[repeat]]).tocsr()
        labels = np.r_[p_lm[voted], gold_y[repeat]]
        out[f"weak + gold x{weight}"] = endmodel.predict(endmodel.fit(rows, labels, config), X)
    out["gold only"] = endmodel.predict(endmodel.fit(gold_X, gold_y, config), X)
    gold_votes, votes = vote_indicators(gold_L), vote_indicators(L)
    for C in VOTE_C:
        vote = LogisticRegression(C=C, max_iter=1000).fit(gold_votes, gold_y)
        out[f"gold-weighted vote, C {C}"] = vote.predict_proba(votes)[:, 1]
    return out


def score(data: dict, probs: dict[str, np.ndarray], rng) -> list[dict]:
    rows = []
    for split, table in data["tables"].items():
        y, base = table["y"].to_numpy(), lq.on_gold(probs["majority_vote"], table)
        for method, p in probs.items():
            pred = lq.on_gold(p, table)
            rows.append({"run": data["run"], "split": split, "method": method, **prf(pred, y),
                         "f1_minus_majority": prf(pred, y)["f1"] - prf(base, y)["f1"],
                         "f1_minus_majority_ci": lq.f1_gap(pred, base, y, table["doc_id"].to_numpy(), rng)})
    return rows


def markdown(results: dict) -> str:
    lines = ["# Gold-anchored end model and gold-weighted vote: train-chapter gold beside the weak labels, on dev gold",
             "",
             f"- date: {results['date']}", f"- command: `{results['command']}`",
             f"- machine: {results['machine']['cpu']} ({results['machine']['cpus']} CPUs)",
             f"- gold rows: {results['gold_rows']} candidates of the train dev set ({results['gold_positive']} bound)",
             "", "Passage-level bindings; interval: paired resamples of gold passages.", "",
             "| run | split | method | precision | recall | F1 | F1 - majority [95% CI] |",
             "|---|---|---|---:|---:|---:|---|"]
    for r in results["rows"]:
        lo, hi = r["f1_minus_majority_ci"]
        lines.append(f"| {r['run']} | {r['split']} | {r['method']} | {r['precision']:.3f} | {r['recall']:.3f} "
                     f"| {r['f1']:.3f} | {r['f1_minus_majority']:+.3f} [{lo:+.3f}, {hi:+.3f}] |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, default=ROOT / "runs/default")
    parser.add_argument("--factbook-run", type=Path, default=None)
    parser.add_argument("--melville-run", type=Path, default=None)
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/gold_anchor.json")
    args = parser.parse_args()
    austen = load(args.run, None)
    gold_X, gold_L, gold_y = gold_rows(austen)
    rng, rows = np.random.default_rng(0), []
    for run, name in ((args.run, None), (args.factbook_run, "factbook"), (args.melville_run, "melville")):
        if run is not None:
            data = austen if name is None else load(run, name)
            rows += score(data, fits(data, gold_X, gold_L, gold_y), rng)
    results = {**provenance(__file__, ROOT), "gold_rows": len(gold_y), "gold_positive": int(gold_y.sum()),
               "rows": rows}
    publish(args.results, results, markdown)


if __name__ == "__main__":
    main()
