"""Every aggregator option and the end model against majority vote on the gold rows, and the diagnosis of
what the label models make of the LFs: why the LabelModel rates the BOUND-voting LFs at chance.

The options' P(BOUND) come from aggregators.parquet (each fitted on the train split by the aggregate stage)
and the end model's from endmodel.parquet, so the report fits nothing. The interval of each method's F1
minus majority vote's is a paired bootstrap over gold passages: one resample of passages (every gold row
of a passage together) scores both methods.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from labelers.label_models import correlated_groups, phi
from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.report.metrics import calibration, prf, ratio
from labelers.report.rundata import RunData
from pipeline.core.registers import is_binding

BOOTSTRAP = 1000
"""Resamples of gold passages behind each interval (seeded: the report is reproducible)."""
BOOTSTRAP_SEED = 0
BASELINE = "majority"
END_MODEL = "endmodel"


def method_probs(run: RunData) -> dict[str, np.ndarray]:
    """P(BOUND) per candidate of each aggregator option, and of the end model when the run trained one."""
    probs = dict(run.options)
    if run.endmodel is not None and run.endmodel_source == END_MODEL:
        probs[END_MODEL] = run.endmodel
    return probs


def _counts(pred: np.ndarray, y: np.ndarray, codes: np.ndarray, n_groups: int) -> np.ndarray:
    """(n_groups, 3) true positives, false positives, false negatives per gold passage."""
    return np.stack([np.bincount(codes, weights=(pred & y), minlength=n_groups),
                     np.bincount(codes, weights=(pred & ~y), minlength=n_groups),
                     np.bincount(codes, weights=(~pred & y), minlength=n_groups)], axis=1)


def _f1(counts: np.ndarray) -> np.ndarray:
    tp, fp, fn = counts[..., 0], counts[..., 1], counts[..., 2]
    return np.divide(2 * tp, 2 * tp + fp + fn, out=np.zeros_like(tp, dtype=np.float64), where=(2 * tp + fp + fn) > 0)


def paired_f1_gap(pred: np.ndarray, base: np.ndarray, y: np.ndarray, groups: np.ndarray,
                  resamples: int = BOOTSTRAP, seed: int = BOOTSTRAP_SEED) -> list[float]:
    """95% interval of F1(pred) - F1(base), resampling gold passages with replacement (paired: one resample
    scores both).

    >>> y = np.array([1, 1, 0, 1], bool)
    >>> paired_f1_gap(y, y, y, np.array(["a", "a", "b", "c"]))
    [0.0, 0.0]
    """
    codes, uniques = pd.factorize(groups)
    pred, base, y = np.asarray(pred, bool), np.asarray(base, bool), np.asarray(y, bool)
    a, b = _counts(pred, y, codes, len(uniques)), _counts(base, y, codes, len(uniques))
    draws = np.random.default_rng(seed).integers(0, len(uniques), (resamples, len(uniques)))
    weights = np.stack([np.bincount(d, minlength=len(uniques)) for d in draws]).astype(np.float64)
    gaps = _f1(weights @ a) - _f1(weights @ b)
    return [float(np.percentile(gaps, 2.5)), float(np.percentile(gaps, 97.5))]


def _on_gold(pred: np.ndarray, table: pd.DataFrame) -> np.ndarray:
    rows = table["row"].to_numpy()
    return np.where(rows >= 0, pred[np.maximum(rows, 0)], False)


def options_on_gold(run: RunData, table: pd.DataFrame) -> list[dict[str, Any]]:
    """Per method (majority vote first): P/R/F1 on the gold rows, F1 minus majority vote's with its paired
    bootstrap interval, Brier and ECE on the gold rows that are candidates, and the share of all candidates
    it accepts."""
    probs = method_probs(run)
    if not probs:
        return []
    y, groups = table["y"].to_numpy(bool), table["doc_id"].to_numpy()
    matched = table[table["row"] >= 0]
    decided = {name: is_binding(p, run.threshold) for name, p in probs.items()}
    base = _on_gold(decided[BASELINE], table)
    base_f1 = prf(base, y)["f1"] or 0.0
    rows = []
    for name, p in probs.items():
        pred = _on_gold(decided[name], table)
        scores = prf(pred, y)
        cal = calibration(p[matched["row"].to_numpy()], matched["y"].to_numpy())
        rows.append({"method": name, "chosen": name == run.aggregate.get("method"), **scores,
                     "f1_minus_majority": (scores["f1"] or 0.0) - base_f1,
                     "f1_minus_majority_ci": paired_f1_gap(pred, base, y, groups),
                     "brier": cal["brier"], "ece": cal["ece"], "accepted_share": float(decided[name].mean())})
    return rows


def vote_patterns(L: np.ndarray) -> dict[str, float | None]:
    """Shares of candidates by the votes they receive: none, NOT_BOUND only, BOUND only, both."""
    bound, not_bound = (L == BOUND).any(axis=1), (L == NOT_BOUND).any(axis=1)
    n = len(L)
    return {"no_vote": ratio((~bound & ~not_bound).sum(), n), "not_bound_only": ratio((~bound & not_bound).sum(), n),
            "bound_only": ratio((bound & ~not_bound).sum(), n), "both": ratio((bound & not_bound).sum(), n)}


def lf_rows(run: RunData, L: np.ndarray, estimates: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """Per LF on the train split: polarity, coverage, the share of its votes another LF contradicts, the share
    it casts alone, and each option's estimated accuracy (a merged group's estimate under each member)."""
    fired = L != ABSTAIN
    out = []
    for j, name in enumerate(run.lf_names):
        mine = fired[:, j]
        votes = set(np.unique(L[mine, j]).tolist())
        other = np.delete(L, j, axis=1)
        contradicted = ((other != ABSTAIN) & (other != L[:, [j]])).any(axis=1) & mine
        alone = mine & ~np.delete(fired, j, axis=1).any(axis=1)
        est = {}
        for method, by_column in estimates.items():
            column = next((c for c in by_column if name in c.split("+")), None)
            est[method] = by_column.get(column) if column else None
        out.append({"lf": name, "polarity": sorted(votes, reverse=True),
                    "coverage": float(mine.mean()) if len(L) else 0.0,
                    "contradicted": ratio(contradicted.sum(), mine.sum()), "alone": ratio(alone.sum(), mine.sum()),
                    "estimates": est})
    return out


def groups_with_overlap(run: RunData, L: np.ndarray) -> list[dict[str, Any]]:
    """Groups of same-polarity LFs that fire together on the train split, each pair's phi and overlap (the
    share of candidates either LF votes on that both vote on), and the share of the group's votes cast by
    every member at once."""
    fired = L != ABSTAIN
    out = []
    for group in correlated_groups(L):
        pairs = []
        for a_pos, a in enumerate(group):
            for b in group[a_pos + 1:]:
                pairs.append({"a": run.lf_names[a], "b": run.lf_names[b], "phi": phi(fired[:, a], fired[:, b]),
                              "overlap": ratio((fired[:, a] & fired[:, b]).sum(), (fired[:, a] | fired[:, b]).sum())})
        any_member, every_member = fired[:, group].any(axis=1), fired[:, group].all(axis=1)
        out.append({"lfs": [run.lf_names[j] for j in group], "vote": int(L[fired[:, group[0]], group[0]][0]),
                    "coverage": float(any_member.mean()), "all_fire": ratio(every_member.sum(), any_member.sum()),
                    "pairs": pairs})
    return out


def diagnosis(run: RunData) -> dict[str, Any]:
    """What the label models see on the train split: class balance, vote patterns, correlated LF groups,
    and per LF how often it is contradicted or alone, beside each option's estimated accuracy."""
    train = (run.cands["split"] == "train").to_numpy()
    L = run.L[train]
    info = run.aggregate.get("options", {})
    estimates = {m: i.get("lf_accuracy_estimates", {}) for m, i in info.items() if i.get("lf_accuracy_estimates")}
    bound_lfs = [j for j in range(L.shape[1]) if (L[:, j] == BOUND).any()]
    fired = L != ABSTAIN
    bound_any = fired[:, bound_lfs].any(axis=1) if bound_lfs else np.zeros(len(L), bool)
    return {"train_rows": int(train.sum()),
            "class_balance": {"majority_vote_bound_share": float(np.mean(run.options[BASELINE][train] > 0.5))
                              if BASELINE in run.options and train.any() else None,
                              **{m: i.get("class_balance_bound") for m, i in info.items()
                                 if i.get("class_balance_bound") is not None}},
            "votes": vote_patterns(L),
            "bound_votes_contradicted": ratio((bound_any & (L == NOT_BOUND).any(axis=1)).sum(), bound_any.sum()),
            "groups": groups_with_overlap(run, L),
            "lfs": lf_rows(run, L, estimates),
            "unfitted": {m: i["reason"] for m, i in info.items() if not i.get("fitted", True)}}
