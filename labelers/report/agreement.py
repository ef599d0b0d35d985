"""Figures that need no gold set: how the labeling functions agree with the LabelModel and with each other,
the distribution of P(BOUND), and the candidates the LFs disagree on most.

On a corpus without gold labels these are the evidence of label quality there is: an LF that rarely agrees
with the aggregate, two LFs that contradict each other wherever both vote, or a P(BOUND) mass piled at 0.5
point to a labeling function or a corpus the LFs were not written for.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.report.metrics import ECE_BINS, bin_index, ratio
from labelers.report.rundata import RunData
from labelers.report.snippets import snippet

CONTESTED_SHOWN = 25
"""Candidates listed in the "LFs disagree most" section (report.json has the same list)."""


def agreement_with_label_model(L: np.ndarray, accepted: np.ndarray) -> list[dict[str, Any]]:
    """Per LF: the fraction of its votes that equal the accepted label (BOUND vote on an accepted candidate,
    NOT_BOUND vote on a rejected one), over the candidates it voted on."""
    out = []
    for votes in L.T:
        voted = votes != ABSTAIN
        same = ((votes == BOUND) & accepted) | ((votes == NOT_BOUND) & ~accepted)
        out.append({"agree_lm": ratio(same.sum(), voted.sum()), "n_voted_all": int(voted.sum())})
    return out


def pairwise_agreement(L: np.ndarray) -> dict[str, Any]:
    """For each pair of LFs: the candidates both voted on, and the fraction of those where the votes agree
    (None when they never vote on the same candidate)."""
    voted, bound, not_bound = ((L != ABSTAIN).astype(np.float64), (L == BOUND).astype(np.float64),
                               (L == NOT_BOUND).astype(np.float64))
    both = voted.T @ voted
    same = bound.T @ bound + not_bound.T @ not_bound
    agree = [[ratio(same[i, j], both[i, j]) for j in range(L.shape[1])] for i in range(L.shape[1])]
    return {"co_voted": both.astype(int).tolist(), "agreement": agree}


def p_bound_distribution(bindings) -> dict[str, Any]:
    """Candidates per equal-width bin of P(BOUND), for the LabelModel and for majority vote."""
    return {"bins": [[b / ECE_BINS, (b + 1) / ECE_BINS] for b in range(ECE_BINS)],
            **{name: np.bincount(bin_index(bindings[column].to_numpy()), minlength=ECE_BINS).tolist()
               for name, column in (("label_model", "p_lm"), ("majority_vote", "p_mv"))}}


def contested(run: RunData, limit: int = CONTESTED_SHOWN) -> list[dict[str, Any]]:
    """Candidates with both BOUND and NOT_BOUND votes, most evenly split first (then most votes, then
    P(BOUND) nearest 0.5, then cand_id, so the list is stable)."""
    n_bound, n_not = (run.L == BOUND).sum(axis=1), (run.L == NOT_BOUND).sum(axis=1)
    rows = np.flatnonzero((n_bound > 0) & (n_not > 0))
    p_lm = run.bindings["p_lm"].to_numpy()
    cand_ids = run.cands["cand_id"].to_numpy()
    order = sorted(rows, key=lambda r: (-min(n_bound[r], n_not[r]), -(n_bound[r] + n_not[r]),
                                        abs(float(p_lm[r]) - 0.5), str(cand_ids[r])))[:limit]
    texts = dict(zip(run.docs["doc_id"], run.docs["text"]))
    items = []
    for r in order:
        cand = run.cands.iloc[r]
        items.append({"cand_id": str(cand["cand_id"]), "p_lm": float(p_lm[r]), "bound": int(n_bound[r]),
                      "not_bound": int(n_not[r]),
                      "votes": {name: int(v) for name, v in zip(run.lf_names, run.L[r]) if v != ABSTAIN},
                      "snippet": snippet(texts[cand["doc_id"]], cand["sent_text"],
                                         (cand["ent_start"], cand["ent_end"]), (cand["attr_start"], cand["attr_end"]))})
    return items


def agreement_figures(run: RunData) -> dict[str, Any]:
    return {"lfs": run.lf_names, **pairwise_agreement(run.L),
            "p_bound": p_bound_distribution(run.bindings),
            "contested": {"candidates": int(((run.L == BOUND).any(axis=1) & (run.L == NOT_BOUND).any(axis=1)).sum()),
                          "items": contested(run)}}
