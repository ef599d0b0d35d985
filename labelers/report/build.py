"""Assemble the report: figures (report.json) and page (report.html) of one run folder."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from labelers.report.agreement import agreement_figures
from labelers.report.compare import figure_changes, flips
from labelers.report.disagreements import by_lf, disagreements
from labelers.report.evaluate import aggregation, calibration_on, lf_table
from labelers.report.gold import (GOLD_SPLITS, KEY, Gold, bindings_without_candidate, default_gold_paths, load_gold,
                                  match_pairs, passage_rows)
from labelers.report.options import diagnosis, options_on_gold
from labelers.report.rundata import RunData, load_run
from labelers.report.targets import register_figures, register_view
from pipeline.core.errors import UserError
from pipeline.core.io import write_json, write_text
from pipeline.core.paths import PROJECT_ROOT

PROJECT_GOLD = PROJECT_ROOT / "data" / "gold"
"""The project's own gold set (of the bundled corpus), used when no --gold is given."""
NEEDS_GOLD = ("precision, recall and calibration need a gold set of this corpus: make one with "
              "`regscaffold gold sample {run} --n 60` (see data/gold/README.md), then "
              "`regscaffold report {run} --gold FILE`")


def shown_path(path: Path, run_dir: Path) -> str:
    """A path as the report shows it: relative to the project when inside it, else to the run folder (the
    run folder itself by its name), so a page or screenshot never carries one machine's absolute paths."""
    path, run_dir = Path(path).resolve(), Path(run_dir).resolve()
    if path.is_relative_to(PROJECT_ROOT):
        return path.relative_to(PROJECT_ROOT).as_posix()
    if path == run_dir:
        return run_dir.name
    return Path(os.path.relpath(path, run_dir)).as_posix()


def resolve_gold(gold: Path | None) -> tuple[list[Path], str | None]:
    """Gold files to read and a note for the page: an explicit file must exist (checked when read), the
    default set may be absent (the report then has no gold sections)."""
    if gold is not None:
        return [Path(gold)], None
    paths = default_gold_paths(PROJECT_GOLD)
    return paths, None if paths else ("no gold set: data/gold/pairs.jsonl and passages.jsonl do not exist, so "
                                      "gold sections are left out; pass one with --gold FILE")


def gold_of_run(run: RunData, paths: list[Path], explicit: bool, note: str | None) -> tuple[Gold | None, str | None]:
    """The gold set that applies to this run, and the page's note. The default set applies to the run's
    passages it labels; when it labels none (another corpus) the report is gold-free and says what to do."""
    if not paths:
        return None, note
    gold = load_gold(paths, run.docs, subset=not explicit, shown=lambda p: shown_path(p, run.run_dir))
    if gold.empty and not explicit:
        return None, NEEDS_GOLD.format(run=shown_path(run.run_dir, run.run_dir))
    if gold.passages_left_out:
        note = (f"the default gold set labels {gold.passages_left_out} passage(s) this run does not have "
                "(another ingest setting or part of the bundled corpus): only the records of this run's "
                "passages are used")
    return gold, note


def gold_note(figures: dict[str, Any], run_dir: Path) -> str | None:
    """The page's gold note for the terminal: the needs-a-gold-set line names the run folder as the user
    typed it, so its commands can be pasted (the page names the folder without its absolute path)."""
    gold = figures["gold"]
    return NEEDS_GOLD.format(run=run_dir) if gold.get("needs_gold") else gold.get("note")


def _keyed(row: pd.Series) -> dict[str, Any]:
    return {k: (str(row[k]) if k == "doc_id" else int(row[k])) for k in KEY}


def gold_summary(gold: Gold, cands: pd.DataFrame) -> dict[str, Any]:
    """Counts of the gold set, and its items that no candidate matches (misses of candidate generation)."""
    pairs = match_pairs(gold.pairs, cands)
    unmatched, missed = pairs[pairs["row"] < 0], bindings_without_candidate(gold, cands)
    return {"files": gold.files, "pairs": len(pairs), "pairs_bound": int(pairs["y"].sum()),
            "pairs_unmatched": len(unmatched), "pairs_unmatched_bound": int(unmatched["y"].sum()),
            "unmatched": [{**_keyed(r), "label": "BOUND" if r["y"] else "NOT_BOUND", "source": r["source"]}
                          for _, r in unmatched.iterrows()],
            "passages": len(gold.passages), "passage_bindings": int((~gold.bindings["negated"].astype(bool)).sum()),
            "passage_negated": int(gold.bindings["negated"].astype(bool).sum()),
            "passage_bindings_no_candidate": len(missed),
            "bindings_no_candidate": [{**_keyed(r), "source": r["source"]} for _, r in missed.iterrows()]}


def gold_tables(run: RunData, gold: Gold, split: str = "all") -> dict[str, pd.DataFrame]:
    """The evaluation rows of each gold set that has any: matched pairs, and passage rows, of ``split``."""
    pairs = match_pairs(gold.pairs, run.cands)
    tables = {"pairs": pairs[pairs["row"] >= 0].reset_index(drop=True), "passages": passage_rows(gold, run.cands)}
    if split != "all":
        in_split = set(run.docs.loc[run.docs["split"] == split, "doc_id"])
        tables = {name: t[t["doc_id"].isin(in_split)].reset_index(drop=True) for name, t in tables.items()}
    return {name: table for name, table in tables.items() if len(table)}


def bound_counts(table: pd.DataFrame) -> dict[str, int]:
    """Gold BOUND rows of an evaluation table and those that are no candidate (row -1: missed by every method,
    recall lost before any LF votes; only passage rows have them, unmatched pairs are left out of the pair table)."""
    bound = table["y"].to_numpy() == 1
    return {"gold_bound": int(bound.sum()), "bound_no_candidate": int((bound & (table["row"].to_numpy() < 0)).sum())}


def compute_figures(run: RunData, gold_paths: list[Path], note: str | None = None,
                    explicit: bool = True, split: str = "all") -> dict[str, Any]:
    """Every figure and example of the report for one run folder, JSON-ready.

    explicit: the gold files were chosen by the user (they must match the run) rather than the default set.
    split: the gold figures use the gold passages of this split only (GOLD_SPLITS)."""
    gold, note = gold_of_run(run, gold_paths, explicit, note)
    needs_gold = gold is None and bool(gold_paths)
    tables = gold_tables(run, gold, split) if gold is not None else {}
    items = disagreements(run, tables)
    return {
        "run_dir": shown_path(run.run_dir, run.run_dir), "method": run.aggregate.get("method"),
        "threshold": run.threshold,
        "totals": {"passages": len(run.docs), "candidates": len(run.cands), "lfs": len(run.lf_names),
                   "accepted": int(run.bindings["accepted"].sum())},
        "gold": (gold_summary(gold, run.cands) | {"note": note, "split": split}
                 if gold is not None else {"files": [], "note": note, "needs_gold": needs_gold}),
        "lfs": lf_table(run, tables.get("pairs")),
        "gold_sets": {name: {"rows": len(t), **bound_counts(t), "aggregation": aggregation(run, t),
                             "calibration": calibration_on(run, t), "options": options_on_gold(run, t)}
                      for name, t in tables.items()},
        "labels_from": run.endmodel_source,
        "diagnosis": diagnosis(run),
        "agreement": agreement_figures(run),
        "registers": register_figures(run.registers, run.register_meta),
        "errors": {"items": items, "by_lf": by_lf(items)},
        "register_view": register_view(run.registers, run.docs, run.register_meta.get("vocab", []),
                                       gold.passages["doc_id"].tolist() if gold is not None else []),
    }


def write_report(run_dir: Path, gold: Path | None = None, compare: Path | None = None,
                 split: str = "all") -> dict[str, Any]:
    """Write RUN_DIR/report.json and RUN_DIR/report.html; return report.json's content.

    gold: a gold JSONL file (format: labelers.report.gold), or None for the project's data/gold set.
    compare: another run folder whose figures and accepted labels are compared with this run's.
    split: the gold figures use the gold passages of this split only ("all", "valid" or "test").
    """
    if split not in GOLD_SPLITS:
        raise UserError(f"gold split {split!r} is not one of {', '.join(GOLD_SPLITS)}; pass --split all, valid or test")
    from labelers.report.html import render  # matplotlib loads only when a page is written

    run_dir = Path(run_dir)
    paths, note = resolve_gold(gold)
    run = load_run(run_dir)
    figures = compute_figures(run, paths, note, explicit=gold is not None, split=split)
    if compare is not None:
        other = load_run(Path(compare))
        figures["compare"] = {"other_run": shown_path(compare, run_dir),
                              "figures": figure_changes(figures, compute_figures(other, paths, note,
                                                                                 explicit=gold is not None,
                                                                                 split=split)),
                              "flips": flips(run, other)}
    write_json(run_dir / "report.json", figures)
    write_text(run_dir / "report.html", render(figures))
    return figures
