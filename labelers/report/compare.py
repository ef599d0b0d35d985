"""--compare: every figure of this run against another run's, and the candidates whose label flipped."""
from __future__ import annotations

from numbers import Number
from typing import Any

import pandas as pd

from labelers.report.rundata import RunData
from labelers.report.snippets import snippet

SKIPPED = {"errors", "register_view", "compare", "unmatched", "counts", "bins"}
"""Keys that hold examples or raw lists, not figures; compared elsewhere or not at all."""
MAX_FLIPS = 500
"""Flipped candidates kept in report.json (all are counted)."""


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Numbers and strings at dotted paths; a list of records is keyed by its 'lf' or 'label' field."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, sub in value.items():
            if key not in SKIPPED:
                out |= flatten(sub, f"{prefix}{key}.")
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        name = next((k for k in ("lf", "label") if k in value[0]), None)
        return {} if name is None else flatten({v[name]: {k: x for k, x in v.items() if k != name} for v in value},
                                               prefix)
    if isinstance(value, list) and all(isinstance(v, Number) for v in value):
        return {f"{prefix}{n}": v for n, v in enumerate(value)}
    return {prefix.rstrip("."): value} if isinstance(value, (Number, str)) or value is None else {}


def figure_changes(current: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    """Per figure: this run's value, the other run's, and the difference (this - other) when both are numbers."""
    now, before = flatten(current), flatten(other)
    rows = []
    for path in sorted(now.keys() | before.keys()):
        a, b = now.get(path), before.get(path)
        numeric = isinstance(a, Number) and isinstance(b, Number) and not isinstance(a, bool)
        rows.append({"figure": path, "this": a, "other": b, "delta": a - b if numeric else None,
                     "changed": a != b})
    return rows


def flips(run: RunData, other: RunData) -> dict[str, Any]:
    """Candidates (by cand_id) in both runs whose accepted label differs, with counts of those in only one."""
    here = run.cands[["cand_id", "doc_id", "sent_text", "ent_start", "ent_end", "attr_start", "attr_end"]].assign(
        accepted=run.bindings["accepted"].to_numpy(bool), p_lm=run.bindings["p_lm"].to_numpy())
    there = pd.DataFrame({"cand_id": other.cands["cand_id"],
                          "accepted_other": other.bindings["accepted"].to_numpy(bool),
                          "p_lm_other": other.bindings["p_lm"].to_numpy()})
    both = here.merge(there, on="cand_id")
    flipped = both[both["accepted"] != both["accepted_other"]]
    texts = dict(zip(run.docs["doc_id"], run.docs["text"]))
    items = [{"cand_id": r.cand_id, "accepted": bool(r.accepted), "p_lm": float(r.p_lm),
              "p_lm_other": float(r.p_lm_other),
              "snippet": snippet(texts[r.doc_id], r.sent_text, (r.ent_start, r.ent_end), (r.attr_start, r.attr_end))}
             for r in flipped.head(MAX_FLIPS).itertuples()]
    return {"flipped": len(flipped), "to_bound": int(flipped["accepted"].sum()),
            "to_not_bound": int((~flipped["accepted"]).sum()), "only_this": len(here) - len(both),
            "only_other": len(there) - len(both), "items": items}
