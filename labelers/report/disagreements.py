"""The error browser: gold rows where the accepted label (LabelModel) disagrees, grouped by LF.

A false positive (accepted, gold NOT_BOUND) is listed under each LF that voted BOUND on it; a false
negative (not accepted, gold BOUND) under each LF that voted NOT_BOUND. Rows no LF voted that way on are
grouped as "(no LF voted BOUND)" / "(no LF voted NOT_BOUND)", and gold bindings that are no candidate as
"(not a candidate)".
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from labelers.labels import BOUND, NOT_BOUND
from labelers.report.gold import SPANS
from labelers.report.rundata import RunData
from labelers.report.snippets import snippet

NOT_CANDIDATE = "(not a candidate)"


def _item(run: RunData, texts: dict[str, str], gold: pd.Series, source: str, kind: str) -> dict[str, Any]:
    row = int(gold["row"])
    cand = run.cands.iloc[row] if row >= 0 else None
    votes = {name: int(v) for name, v in zip(run.lf_names, run.L[row])} if row >= 0 else {}
    blamed_vote = BOUND if kind == "FP" else NOT_BOUND
    blamed = [name for name, v in votes.items() if v == blamed_vote]
    if row < 0:
        blamed = [NOT_CANDIDATE]
    elif not blamed:
        blamed = [f"(no LF voted {'BOUND' if kind == 'FP' else 'NOT_BOUND'})"]
    return {"kind": kind, "source": source, "doc_id": str(gold["doc_id"]), **{k: int(gold[k]) for k in SPANS},
            "cand_id": cand["cand_id"] if cand is not None else None,
            "p_lm": float(run.bindings["p_lm"].iloc[row]) if row >= 0 else None,
            "votes": {n: v for n, v in votes.items() if v != -1}, "lfs": blamed,
            "snippet": snippet(texts[gold["doc_id"]], cand["sent_text"] if cand is not None else None,
                               (int(gold["ent_start"]), int(gold["ent_end"])),
                               (int(gold["attr_start"]), int(gold["attr_end"])))}


def disagreements(run: RunData, tables: dict[str, pd.DataFrame]) -> list[dict[str, Any]]:
    """Every FP and FN of the accepted label on the gold tables (pairs: matched rows only)."""
    texts = dict(zip(run.docs["doc_id"], run.docs["text"]))
    accepted = run.bindings["accepted"].to_numpy(bool)
    items = []
    for source, table in tables.items():
        for _, gold in table.iterrows():
            pred = bool(accepted[gold["row"]]) if gold["row"] >= 0 else False
            if pred != bool(gold["y"]):
                items.append(_item(run, texts, gold, source, "FP" if pred else "FN"))
    return items


def by_lf(items: list[dict[str, Any]]) -> dict[str, dict[str, list[int]]]:
    """{"FP": {lf: [item index, ...]}, "FN": {...}}, LFs with most errors first."""
    groups: dict[str, dict[str, list[int]]] = {"FP": {}, "FN": {}}
    for n, item in enumerate(items):
        for lf in item["lfs"]:
            groups[item["kind"]].setdefault(lf, []).append(n)
    return {kind: dict(sorted(g.items(), key=lambda kv: (-len(kv[1]), kv[0]))) for kind, g in groups.items()}
