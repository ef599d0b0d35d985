"""Aggregators and the end model against gold, on one run folder: why the LabelModel says what it says.

For the run's label matrix (votes.parquet) it fits, on the train split: majority vote; Snorkel's
LabelModel with this project's settings (class balance from majority vote, L2 1.0) and with Snorkel's
defaults (learned balance, L2 0); Dawid-Skene EM with a learned and with a fixed class balance
(labelers/label_models.py); the same after merging groups of LFs that fire together; and the end model
(labelers/endmodel.py) trained on the LabelModel's train-split labels. Each is scored on the gold pairs and
the fully annotated gold regions of the valid and test chapters and of the train-chapter dev set
(data/gold/austen_train, split "train-dev"): precision, recall, F1, Brier, share of
candidates accepted, and F1 minus majority vote's with a 95% interval from resampling gold passages.
The diagnosis part lists, per LF, its precision on valid gold pairs and each model's estimated accuracy,
and, per gold table, where majority vote's errors lie by the candidate's vote pattern (unanimous,
conflicting, no vote, no candidate) with the F1 of an oracle that gets every conflicting candidate right:
the headroom any aggregator of these votes has over majority vote.

With --factbook-run (a run of the Factbook corpus, data/factbook; command in data/gold/factbook/README.md)
and --melville-run (a run of Moby Dick, data/melville; command in data/gold/melville/README.md) the same
methods are fitted on that run's own train split and scored, with the same measures, on that gold set's
dev and test halves (data/gold/<set>/dev.jsonl, test.jsonl: fully annotated regions, so passage rows
only). For every gold table the results also count the gold bindings that are no candidate: recall lost
before any LF votes.

    OMP_WAIT_POLICY=PASSIVE python benchmarks/label_quality.py --run runs/default --factbook-run runs/factbook \
        --melville-run runs/melville
"""
from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_common import machine_info  # noqa: E402
from labelers import endmodel, label_models  # noqa: E402
from labelers.aggregation import majority_class_balance, majority_proba  # noqa: E402
from labelers.labels import ABSTAIN, BOUND  # noqa: E402
from labelers.report.gold import default_gold_paths, load_gold, match_pairs, passage_rows  # noqa: E402
from labelers.report.metrics import calibration, prf  # noqa: E402
from pipeline.core import schemas as S  # noqa: E402
from pipeline.core.io import read_parquet, write_json, write_text  # noqa: E402

SPLITS = ("valid", "test")
BOOTSTRAP = 1000
TRAIN_DEV_GOLD = ROOT / "data/gold/austen_train/dev.jsonl"
"""Fully annotated regions of train-chapter passages, a dev set (data/gold/austen_train/README.md): scored as
the split "train-dev"; no method fits gold, so its train-split passages are fair to score."""
OTHER_SETS = {"factbook": "Factbook", "melville": "Moby Dick"}
"""Gold sets of other corpora (data/gold/<name>/dev.jsonl and test.jsonl, scored as "<name>-dev" and
"<name>-test") -> how the results name their corpus."""


def snorkel(L: np.ndarray, train: np.ndarray, balance: list[float] | None, l2: float):
    from snorkel.labeling.model import LabelModel

    model = LabelModel(cardinality=2, verbose=False, device="cpu")
    model.fit(L[train], class_balance=balance, n_epochs=500, lr=0.01, l2=l2, seed=0, progress_bar=False)
    return model.predict_proba(L)[:, BOUND], dict(zip(range(L.shape[1]), model.get_weights()))


def methods(L: np.ndarray, train: np.ndarray, X, lf_names: list[str]) -> tuple[dict, dict, dict]:
    """(P(BOUND) per candidate of each method, per-LF estimated accuracies, notes)."""
    p_mv = majority_proba(L)
    balance = majority_class_balance(p_mv[train])
    probs, accuracy, notes = {"majority_vote": p_mv}, {}, {"majority_balance": balance[BOUND]}
    probs["label_model"], acc = snorkel(L, train, balance, 1.0)
    accuracy["label_model"] = [float(acc[j]) for j in range(len(lf_names))]
    probs["label_model_defaults"], acc = snorkel(L, train, None, 0.0)
    accuracy["label_model_defaults"] = [float(acc[j]) for j in range(len(lf_names))]
    for name, prior in (("dawid_skene", None), ("dawid_skene_fixed_balance", np.array(balance))):
        model = label_models.fit_dawid_skene(L[train], p_mv[train], prior=prior)
        probs[name], accuracy[name] = model.predict_proba(L)[:, BOUND], model.accuracy().tolist()
        notes[f"{name}_prior_bound"] = float(model.prior[BOUND])
    groups = label_models.correlated_groups(L[train])
    notes["groups"] = [[lf_names[j] for j in g] for g in groups]
    merged, _ = label_models.merge_groups(L, groups)
    p_merged = majority_proba(merged)
    probs["majority_vote_grouped"] = p_merged
    probs["label_model_grouped"], _ = snorkel(merged, train, majority_class_balance(p_merged[train]), 1.0)
    model = label_models.fit_dawid_skene(merged[train], p_merged[train])
    probs["dawid_skene_grouped"] = model.predict_proba(merged)[:, BOUND]
    voted = train & (L != ABSTAIN).any(axis=1)
    started = time.perf_counter()
    fitted = endmodel.fit(X[voted], probs["label_model"][voted], endmodel.EndModelConfig())
    probs["end_model"] = endmodel.predict(fitted, X)
    notes["end_model_fit_seconds"] = time.perf_counter() - started
    return probs, accuracy, notes


def on_gold(p: np.ndarray, table: pd.DataFrame) -> np.ndarray:
    rows = table["row"].to_numpy()
    return np.where(rows >= 0, p[np.maximum(rows, 0)] > 0.5, False)


def f1_gap(pred: np.ndarray, base: np.ndarray, y: np.ndarray, groups: np.ndarray, rng) -> list[float]:
    """95% interval of F1(pred) - F1(base), resampling gold passages (all rows of a passage together)."""
    codes, uniques = pd.factorize(groups)
    members = [np.flatnonzero(codes == k) for k in range(len(uniques))]
    gaps = []
    for _ in range(BOOTSTRAP):
        idx = np.concatenate([members[k] for k in rng.integers(0, len(members), len(members))])
        a, b = prf(pred[idx], y[idx])["f1"], prf(base[idx], y[idx])["f1"]
        gaps.append((a or 0.0) - (b or 0.0))
    return [float(np.percentile(gaps, 2.5)), float(np.percentile(gaps, 97.5))]


def score(probs: dict, tables: dict[str, pd.DataFrame]) -> list[dict]:
    rng, rows = np.random.default_rng(0), []
    for (split, kind), table in tables.items():
        y, base = table["y"].to_numpy(), on_gold(probs["majority_vote"], table)
        matched = table[table["row"] >= 0]
        for name, p in probs.items():
            pred = on_gold(p, table)
            entry = {"split": split, "gold": kind, "method": name, **prf(pred, y),
                     "brier": calibration(p[matched["row"].to_numpy()], matched["y"].to_numpy())["brier"],
                     "accepted_share": float(np.mean(p > 0.5))}
            entry["f1_minus_majority"] = (entry["f1"] or 0.0) - (prf(base, y)["f1"] or 0.0)
            entry["f1_minus_majority_ci"] = f1_gap(pred, base, y, table["doc_id"].to_numpy(), rng)
            rows.append(entry)
    return rows


def vote_patterns(L: np.ndarray) -> np.ndarray:
    """Per candidate: "none" (every LF abstains), "unanimous" (every vote the same class) or "conflict".

    >>> vote_patterns(np.array([[ABSTAIN, ABSTAIN], [BOUND, ABSTAIN], [BOUND, 1 - BOUND]])).tolist()
    ['none', 'unanimous', 'conflict']
    """
    voted = L != ABSTAIN
    bound = (voted & (L == BOUND)).any(axis=1)
    other = (voted & (L != BOUND)).any(axis=1)
    return np.where(bound & other, "conflict", np.where(bound | other, "unanimous", "none"))


def pattern_oracle(keys: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each row predicted as the gold majority of the rows that share its key (its whole vote vector): fitted
    on the gold it is scored on, so its F1 bounds every aggregator of these votes from above, those that
    overrule unanimous votes included (a tie predicts NOT_BOUND).

    >>> pattern_oracle(np.array(["a", "a", "a", "b", "b"]), np.array([1, 1, 0, 1, 0])).tolist()
    [True, True, True, False, False]
    """
    return pd.Series(y).groupby(keys).transform("mean").to_numpy() > 0.5


def headroom(L: np.ndarray, p_mv: np.ndarray, tables: dict[str, pd.DataFrame]) -> list[dict]:
    """Where majority vote's gold errors lie, by the candidate's vote pattern; the F1 of an oracle that
    gets every conflicting candidate right and keeps the rest as voted (the most any aggregator that follows
    unanimous votes can gain over majority vote); and that of the pattern oracle (pattern_oracle: the most
    any function of the votes can reach). Errors beyond the latter need other LFs or the end model."""
    patterns, out = vote_patterns(L), []
    keys = np.array([row.tobytes() for row in L], dtype=object)
    for (split, kind), table in tables.items():
        rows, y = table["row"].to_numpy(), table["y"].to_numpy().astype(bool)
        pred = on_gold(p_mv, table)
        pattern = np.where(rows >= 0, patterns[np.maximum(rows, 0)], "no candidate")
        wrong = pred != y
        oracle = np.where(pattern == "conflict", y, pred)
        # no candidate: no vote vector, and nothing any aggregator can accept
        best = pattern_oracle(np.where(rows >= 0, keys[np.maximum(rows, 0)], b""), y) & (rows >= 0)
        out.append({"split": split, "gold": kind, "majority_f1": prf(pred, y)["f1"], "conflict_oracle_f1": prf(oracle, y)["f1"],
                    "pattern_oracle_f1": prf(best, y)["f1"],
                    "errors": {name: {"false_positive": int((wrong & pred & (pattern == name)).sum()),
                                      "false_negative": int((wrong & ~pred & (pattern == name)).sum()),
                                      "rows": int((pattern == name).sum())}
                               for name in ("unanimous", "conflict", "none", "no candidate")}})
    return out


def gold_counts(tables: dict[str, pd.DataFrame]) -> list[dict]:
    """Per gold table: rows scored, gold bindings (BOUND), and those that are no candidate (row -1)."""
    return [{"split": split, "gold": kind, "rows": len(t), "gold_bound": int(t["y"].sum()),
             "bound_no_candidate": int(((t["row"] < 0) & (t["y"] == 1)).sum())} for (split, kind), t in tables.items()]


def load_matrix(run: Path) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray, np.ndarray, object, list[str]]:
    """docs, candidates, label matrix, train-split mask, end-model features and LF names of a run folder."""
    docs = read_parquet(run / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    cands = read_parquet(run / S.CANDIDATES)
    votes = read_parquet(run / S.VOTES)
    tokens = read_parquet(run / S.TOKENS, ["doc_id", "i", "pos", "dep", "lemma"])
    lf_names = [c for c in votes.columns if c not in ("cand_id", "split")]
    L = votes[lf_names].to_numpy().astype(np.int64)
    return docs, cands, L, (votes["split"] == "train").to_numpy(), endmodel.featurize(cands, tokens), lf_names


def shown_run(run: Path) -> str:
    """The run folder relative to the project when under it (a link there, e.g. runs/x -> /tmp/x, is kept)."""
    return str(run.absolute().relative_to(ROOT)) if run.absolute().is_relative_to(ROOT) else run.name


def halves(name: str) -> dict[str, Path]:
    """Split name in the results -> the gold file of that half of the gold set ``name`` (OTHER_SETS)."""
    return {f"{name}-{half}": ROOT / "data/gold" / name / f"{half}.jsonl" for half in ("dev", "test")}


def other_set(run: Path, name: str) -> dict:
    """Every method fitted on the train split of a run of another corpus, scored on its gold halves."""
    docs, cands, L, train, X, lf_names = load_matrix(run)
    probs, _, notes = methods(L, train, X, lf_names)
    tables = {(half, "passages"): passage_rows(load_gold([path], docs), cands) for half, path in halves(name).items()}
    return {"run": shown_run(run), "candidates": len(cands), "notes": notes, "scores": score(probs, tables),
            "gold_counts": gold_counts(tables), "headroom": headroom(L, probs["majority_vote"], tables)}


def lf_diagnosis(L: np.ndarray, lf_names: list[str], pairs: pd.DataFrame, accuracy: dict) -> list[dict]:
    valid = pairs[(pairs["split"] == "valid") & (pairs["row"] >= 0)]
    out = []
    for j, name in enumerate(lf_names):
        votes = L[valid["row"].to_numpy(), j]
        fired = votes != ABSTAIN
        precision = float((votes[fired] == valid["y"].to_numpy()[fired]).mean()) if fired.any() else None
        out.append({"lf": name, "coverage": float((L[:, j] != ABSTAIN).mean()), "votes_bound": bool((L[:, j] == BOUND).any()),
                    "valid_gold_votes": int(fired.sum()), "valid_gold_precision": precision,
                    **{f"est_{m}": a[j] for m, a in accuracy.items()}})
    return out


def _all(results: dict, key: str) -> list[dict]:
    """The rows of ``key`` of the bundled corpus, then of each other gold set scored."""
    return results[key] + [row for name in OTHER_SETS for row in results.get(name, {}).get(key, [])]


def markdown(results: dict) -> str:
    lines = ["# Label quality: aggregators and the end model", "", f"- date: {results['date']}",
             f"- command: `{results['command']}`", f"- machine: {results['machine']['cpu']} ({results['machine']['cpus']} CPUs)",
             f"- run: `{results['run']}` ({results['candidates']:,} candidates, {results['lfs']} LFs); majority vote's "
             f"BOUND share of the train split {results['notes']['majority_balance']:.3f}; Dawid-Skene's learned "
             f"P(BOUND) {results['notes']['dawid_skene_prior_bound']:.3f}",
             f"- LF groups that fire together (phi >= 0.5, same polarity): {results['notes']['groups']}",
             *(f"- {label} run: `{results[name]['run']}` ({results[name]['candidates']:,} candidates), every "
               "method fitted on its own train split; majority vote's BOUND share there "
               f"{results[name]['notes']['majority_balance']:.3f}; LF groups {results[name]['notes']['groups']}"
               for name, label in OTHER_SETS.items() if name in results), "",
             "Gold bindings that are no candidate (recall lost before any LF votes; every method misses them):", "",
             "| split | gold | rows scored | gold BOUND | of which no candidate |", "|---|---|---:|---:|---:|",
             *(f"| {c['split']} | {c['gold']} | {c['rows']:,} | {c['gold_bound']:,} | {c['bound_no_candidate']:,} |"
               for c in _all(results, "gold_counts")), "",
             "| split | gold | method | precision | recall | F1 | F1 - majority [95% CI, passages resampled] | Brier | accepted |",
             "|---|---|---|---:|---:|---:|---|---:|---:|"]
    for r in _all(results, "scores"):
        lo, hi = r["f1_minus_majority_ci"]
        lines.append(f"| {r['split']} | {r['gold']} | {r['method']} | {r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} "
                     f"| {r['f1_minus_majority']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {r['brier']:.3f} | {r['accepted_share']:.3f} |")
    lines += ["", "Headroom for aggregation: majority vote's gold errors (false positives / false negatives) by the "
              "candidate's vote pattern, and the F1 of an oracle that gets every conflicting candidate right and keeps "
              "the rest as voted (the most an aggregator that follows unanimous votes can reach), and the F1 of the "
              "pattern oracle, which predicts each candidate as the gold majority of the gold rows with its exact "
              "vote vector (fitted on the rows it scores: the most any aggregator of these votes can reach).", "",
              "| split | gold | majority F1 | conflict-oracle F1 | pattern-oracle F1 | unanimous rows: FP / FN "
              "| conflict rows: FP / FN | no vote: FP / FN | no candidate: FN |", "|---|---|---:|---:|---:|---|---|---|---:|"]
    for h in _all(results, "headroom"):
        e = h["errors"]
        cells = [f"{e[k]['false_positive']} / {e[k]['false_negative']} (of {e[k]['rows']:,})"
                 for k in ("unanimous", "conflict", "none")]
        lines.append(f"| {h['split']} | {h['gold']} | {h['majority_f1']:.3f} | {h['conflict_oracle_f1']:.3f} | "
                     f"{h['pattern_oracle_f1']:.3f} | "
                     + " | ".join(cells) + f" | {e['no candidate']['false_negative']} |")
    models = [k for k in results["lfs_diagnosis"][0] if k.startswith("est_")]
    lines += ["", "Per LF: coverage of all candidates, precision on the valid gold pairs it votes on, and each model's "
              "estimated accuracy.", "", "| LF | coverage | valid gold votes | gold precision | " + " | ".join(models) + " |",
              "|---|---:|---:|---:|" + "---:|" * len(models)]
    for d in results["lfs_diagnosis"]:
        prec = "-" if d["valid_gold_precision"] is None else f"{d['valid_gold_precision']:.2f}"
        lines.append(f"| {d['lf']} | {d['coverage']:.3f} | {d['valid_gold_votes']} | {prec} | "
                     + " | ".join(f"{d[m]:.2f}" for m in models) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, default=ROOT / "runs/default")
    parser.add_argument("--factbook-run", type=Path, default=None,
                        help="a run of data/factbook, scored on the Factbook gold halves (omitted: not scored)")
    parser.add_argument("--melville-run", type=Path, default=None,
                        help="a run of data/melville, scored on the Moby Dick gold halves (omitted: not scored)")
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/label_quality.json")
    args = parser.parse_args()
    docs, cands, L, train, X, lf_names = load_matrix(args.run)
    probs, accuracy, notes = methods(L, train, X, lf_names)
    gold = load_gold(default_gold_paths(ROOT / "data/gold"), docs)
    split_of = dict(zip(docs["doc_id"], docs["split"]))
    pairs = match_pairs(gold.pairs, cands).assign(split=lambda f: f["doc_id"].map(split_of))
    regions = passage_rows(gold, cands).assign(split=lambda f: f["doc_id"].map(split_of))
    tables = {(split, kind): table[table["split"] == split] for split in SPLITS
              for kind, table in (("pairs", pairs), ("passages", regions))}
    tables[("train-dev", "passages")] = passage_rows(load_gold([TRAIN_DEV_GOLD], docs), cands)
    results = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "machine": machine_info(),
               "command": "python " + " ".join([str(Path(__file__).relative_to(ROOT)), *sys.argv[1:]]),
               "run": shown_run(args.run), "candidates": len(cands), "lfs": len(lf_names), "notes": notes,
               "scores": score(probs, tables), "gold_counts": gold_counts(tables),
               "headroom": headroom(L, probs["majority_vote"], tables),
               "lfs_diagnosis": lf_diagnosis(L, lf_names, pairs, accuracy)}
    for name in OTHER_SETS:
        if getattr(args, f"{name}_run") is not None:
            results[name] = other_set(getattr(args, f"{name}_run"), name)
    write_json(args.results, results)
    write_text(args.results.with_suffix(".md"), markdown(results))
    print(markdown(results))


if __name__ == "__main__":
    main()
