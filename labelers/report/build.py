"""Assemble the report: figures (report.json) and page (report.html) of one run folder."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from labelers.report.compare import figure_changes, flips
from labelers.report.disagreements import by_lf, disagreements
from labelers.report.evaluate import aggregation, calibration_on, lf_table
from labelers.report.gold import KEY, Gold, default_gold_paths, load_gold, match_pairs, passage_rows
from labelers.report.rundata import RunData, load_run
from labelers.report.targets import register_figures, register_view
from pipeline.io import write_json, write_text

PROJECT_GOLD = Path(__file__).resolve().parents[2] / "data" / "gold"
"""The project's own gold set, used when no --gold is given."""


def resolve_gold(gold: Path | None) -> tuple[list[Path], str | None]:
    """Gold files to read and a note for the page: an explicit file must exist (checked when read), the
    default set may be absent (the report then has no gold sections)."""
    if gold is not None:
        return [Path(gold)], None
    paths = default_gold_paths(PROJECT_GOLD)
    return paths, None if paths else (f"no gold set: {PROJECT_GOLD}/pairs.jsonl and passages.jsonl do not "
                                      "exist, so gold sections are left out; pass one with --gold FILE")


def gold_summary(gold: Gold, pairs: pd.DataFrame) -> dict[str, Any]:
    unmatched = pairs[pairs["row"] < 0]
    return {"files": gold.files, "pairs": len(pairs), "pairs_bound": int(pairs["y"].sum()),
            "pairs_unmatched": len(unmatched), "pairs_unmatched_bound": int(unmatched["y"].sum()),
            "unmatched": [{**{k: (str(r[k]) if k == "doc_id" else int(r[k])) for k in KEY},
                           "label": "BOUND" if r["y"] else "NOT_BOUND", "source": r["source"]}
                          for _, r in unmatched.iterrows()],
            "passages": len(gold.passages), "passage_bindings": int((~gold.bindings["negated"].astype(bool)).sum()),
            "passage_negated": int(gold.bindings["negated"].astype(bool).sum())}


def gold_tables(run: RunData, gold: Gold) -> dict[str, pd.DataFrame]:
    """The evaluation rows of each gold set that has any: matched pairs, and passage rows."""
    pairs = match_pairs(gold.pairs, run.cands)
    tables = {"pairs": pairs[pairs["row"] >= 0].reset_index(drop=True), "passages": passage_rows(gold, run.cands)}
    return {name: table for name, table in tables.items() if len(table)}


def compute_figures(run: RunData, gold_paths: list[Path], note: str | None = None) -> dict[str, Any]:
    """Every figure and example of the report for one run folder, JSON-ready."""
    gold = load_gold(gold_paths, run.docs) if gold_paths else None
    tables = gold_tables(run, gold) if gold is not None else {}
    items = disagreements(run, tables)
    return {
        "run_dir": str(run.run_dir), "method": run.aggregate.get("method"), "threshold": run.threshold,
        "totals": {"passages": len(run.docs), "candidates": len(run.cands), "lfs": len(run.lf_names),
                   "accepted": int(run.bindings["accepted"].sum())},
        "gold": (gold_summary(gold, match_pairs(gold.pairs, run.cands)) | {"note": note}
                 if gold is not None else {"files": [], "note": note}),
        "lfs": lf_table(run, tables.get("pairs")),
        "gold_sets": {name: {"rows": len(t), "aggregation": aggregation(run, t), "calibration": calibration_on(run, t)}
                      for name, t in tables.items()},
        "registers": register_figures(run.registers, run.register_meta),
        "errors": {"items": items, "by_lf": by_lf(items)},
        "register_view": register_view(run.registers, run.docs, run.register_meta.get("vocab", []),
                                       gold.passages["doc_id"].tolist() if gold is not None else []),
    }


def write_report(run_dir: Path, gold: Path | None = None, compare: Path | None = None) -> dict[str, Any]:
    """Write RUN_DIR/report.json and RUN_DIR/report.html; return report.json's content.

    gold: a gold JSONL file (format: labelers.report.gold), or None for the project's data/gold set.
    compare: another run folder whose figures and accepted labels are compared with this run's.
    """
    from labelers.report.html import render  # matplotlib loads only when a page is written

    run_dir = Path(run_dir)
    paths, note = resolve_gold(gold)
    run = load_run(run_dir)
    figures = compute_figures(run, paths, note)
    if compare is not None:
        other = load_run(Path(compare))
        figures["compare"] = {"other_run": str(compare),
                              "figures": figure_changes(figures, compute_figures(other, paths, note)),
                              "flips": flips(run, other)}
    write_json(run_dir / "report.json", figures)
    write_text(run_dir / "report.html", render(figures))
    return figures
