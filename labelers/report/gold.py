"""Gold labels for the report: the file format, loading with validation, and matching to candidates.

Gold file format (JSONL: one JSON object per line; blank lines are ignored). Offsets are character
offsets into the passage text of ``docs.parquet`` (end exclusive), like every offset in a run folder; a
span is the entity mention's head word or the adjective, as in ``candidates.parquet``. Two kinds of line
may be mixed in one file:

(a) a labeled candidate pair::

    {"type": "pair", "doc_id": "3f2a...", "ent_start": 10, "ent_end": 14, "attr_start": 19,
     "attr_end": 24, "label": "BOUND", "ent_text": "Emma", "attr_text": "handsome", "note": "optional"}

    ``label`` is ``BOUND`` (the text asserts the adjective of the entity) or ``NOT_BOUND``. A pair is
    matched to the candidate with the same (doc_id, ent_start, ent_end, attr_start, attr_end). A pair
    that matches no candidate is a recall miss of candidate generation: it is counted and listed in the
    report, and left out of the pair metrics (which judge labels of existing candidates).

(b) a fully annotated passage::

    {"type": "passage", "doc_id": "3f2a...", "start": 0, "end": 412, "note": "optional",
     "bindings": [{"ent_start": 10, "ent_end": 14, "attr_start": 19, "attr_end": 24, "negated": false,
                   "ent_text": "Emma", "attr_text": "handsome"}, ...]}

    EVERY asserted binding inside the annotated region is listed. ``start``/``end`` (optional, default
    the whole passage) bound the region, so a few sentences of a long passage can be annotated; a
    binding or candidate counts as inside when both of its spans are. A binding with ``negated: true``
    ("she was not handsome") is listed for the record and counts as NOT bound. On these passages,
    binding-level recall = gold non-negated bindings that are accepted candidates / gold non-negated
    bindings (a binding that is no candidate counts as missed), and precision = accepted candidates
    inside the regions that are gold bindings / accepted candidates inside the regions.

``ent_text`` and ``attr_text`` are optional everywhere; when given they must equal the passage text at
the offsets, which catches labels made on another corpus or another ingest setting. Every doc_id of a
file given with --gold must be a passage of the run's ``docs.parquet`` (a file that labels passages the
run lacks is one error naming how many and the first few). The default gold set,
``data/gold/pairs.jsonl`` plus ``data/gold/passages.jsonl``, was annotated on the bundled corpus: it is
applied to the run's passages it labels (all of them for a default run of the bundled corpus, some for a
run of part of it) and to none of another corpus, without an error.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from labelers.labels import BOUND, NOT_BOUND
from pipeline.core.errors import UserError

KEY = ["doc_id", "ent_start", "ent_end", "attr_start", "attr_end"]
SPANS = KEY[1:]
LABELS = {"BOUND": BOUND, "NOT_BOUND": NOT_BOUND}
MAX_PROBLEMS_SHOWN = 10
FOREIGN_SHOWN = 3
"""Passage ids named when a gold file labels passages the run lacks."""
DEFAULT_GOLD = ("pairs.jsonl", "passages.jsonl")


GOLD_SPLITS = ("all", "valid", "test")
"""What the report's gold figures are computed on: every gold passage, or those of one split (develop on
valid, report test once per change)."""


@dataclass
class Gold:
    files: list[str]
    pairs: pd.DataFrame
    """KEY columns, y (1 BOUND / 0 NOT_BOUND), note, source (file:line)."""
    passages: pd.DataFrame
    """doc_id, start, end, source: the annotated regions."""
    bindings: pd.DataFrame
    """KEY columns, negated, source: every binding listed in the annotated regions."""
    passages_left_out: int = 0
    """Passages the files label that are not in the run (only with load_gold's ``subset``)."""

    @property
    def empty(self) -> bool:
        return not len(self.pairs) and not len(self.passages)


class _Problems(list):
    def add(self, where: str, message: str) -> None:
        self.append(f"{where}: {message}")


def _check_span(row: dict[str, Any], text: str, name: str, where: str, problems: _Problems) -> None:
    start, end = row.get(f"{name}_start"), row.get(f"{name}_end")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        problems.add(where, f"{name}_start/{name}_end must be integers, got {start!r}/{end!r}")
    elif not 0 <= start < end <= len(text):
        problems.add(where, f"{name} span [{start}, {end}) is outside the passage (length {len(text)})")
    elif f"{name}_text" in row and text[start:end] != row[f"{name}_text"]:
        problems.add(where, f"{name}_text {row[f'{name}_text']!r} but the passage has {text[start:end]!r} at "
                     f"[{start}, {end}): the offsets do not match this corpus")


def _doc_text(obj: dict[str, Any], texts: dict[str, str], where: str, problems: _Problems) -> str | None:
    doc_id = obj.get("doc_id")
    if not isinstance(doc_id, str):
        problems.add(where, f"doc_id must be a passage id string of this run's docs.parquet, got {doc_id!r}")
        return None
    return texts[doc_id]


def _pair(obj: dict[str, Any], texts: dict[str, str], where: str, problems: _Problems) -> dict | None:
    text = _doc_text(obj, texts, where, problems)
    if obj.get("label") not in LABELS:
        problems.add(where, f"label {obj.get('label')!r}: expected \"BOUND\" or \"NOT_BOUND\"")
        return None
    if text is None:
        return None
    before = len(problems)
    for name in ("ent", "attr"):
        _check_span(obj, text, name, where, problems)
    if len(problems) > before:
        return None
    return {**{k: obj[k] for k in KEY}, "y": LABELS[obj["label"]], "note": obj.get("note", ""), "source": where}


def _passage(obj: dict[str, Any], texts: dict[str, str], where: str,
             problems: _Problems) -> tuple[dict, list[dict]] | None:
    text = _doc_text(obj, texts, where, problems)
    if text is None:
        return None
    start, end = obj.get("start", 0), obj.get("end", len(text))
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
        problems.add(where, f"region [{start!r}, {end!r}) is not inside the passage (length {len(text)})")
        return None
    if not isinstance(obj.get("bindings"), list):
        problems.add(where, "a passage needs \"bindings\": a list (empty when the region asserts none)")
        return None
    rows = []
    for n, b in enumerate(obj["bindings"]):
        here, before = f"{where} binding {n}", len(problems)
        for name in ("ent", "attr"):
            _check_span(b, text, name, here, problems)
        if len(problems) == before and not (start <= min(b["ent_start"], b["attr_start"])
                                            and max(b["ent_end"], b["attr_end"]) <= end):
            problems.add(here, f"spans are outside the annotated region [{start}, {end})")
        if not isinstance(b.get("negated", False), bool):
            problems.add(here, f"negated must be true or false, got {b.get('negated')!r}")
        if len(problems) == before:
            rows.append({"doc_id": obj["doc_id"], **{k: b[k] for k in SPANS},
                         "negated": b.get("negated", False), "source": here})
    return {"doc_id": obj["doc_id"], "start": start, "end": end, "source": where}, rows


def _lines(path: Path, name: str) -> list[tuple[str, Any]]:
    if not path.is_file():
        raise UserError(f"gold file {path} does not exist; pass an existing JSONL file with --gold "
                        "(format: labelers/report/gold.py) or omit --gold to use data/gold/")
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append((f"{name}:{n}", json.loads(line)))
            except json.JSONDecodeError as exc:
                out.append((f"{name}:{n}", exc))
    return out


def foreign_passages(records: list[tuple[str, Any]], texts: dict[str, str]) -> list[str]:
    """The doc_ids the records label that are no passage of the run, in order of first appearance."""
    ids = (obj.get("doc_id") for _, obj in records if isinstance(obj, dict))
    return list(dict.fromkeys(d for d in ids if isinstance(d, str) and d not in texts))


def foreign_error(path: Path, foreign: list[str], labeled: int) -> UserError:
    shown = ", ".join(foreign[:FOREIGN_SHOWN]) + (", ..." if len(foreign) > FOREIGN_SHOWN else "")
    return UserError(f"gold file {path}: {len(foreign)} of the {labeled} passages it labels are not passages "
                     f"of this run's docs.parquet ({shown}): it was annotated on another corpus or with other "
                     "ingest settings; pass the gold file of this run's corpus, or make one with "
                     "`regscaffold gold sample RUN_DIR`")


def _known_records(path: Path, name: str, texts: dict[str, str], subset: bool) -> tuple[list[tuple[str, Any]], int]:
    """The file's records on passages of this run, and how many passages it labels that the run lacks.

    A file given by the user must match the run entirely (one error otherwise); the default set
    (``subset``) is cut to the run's passages, since it covers only the bundled corpus."""
    records = _lines(path, name)
    foreign = foreign_passages(records, texts)
    if foreign and not subset:
        labeled = len({obj.get("doc_id") for _, obj in records if isinstance(obj, dict)})
        raise foreign_error(path, foreign, labeled)
    dropped = set(foreign)
    return [(w, obj) for w, obj in records if not (isinstance(obj, dict) and obj.get("doc_id") in dropped)], len(dropped)


def _duplicates(frame: pd.DataFrame, columns: list[str], what: str, problems: _Problems) -> None:
    for _, group in frame[frame.duplicated(columns, keep=False)].groupby(columns, sort=False):
        problems.add(group["source"].iloc[0], f"the same {what} is also at {', '.join(group['source'].iloc[1:])}; "
                     "keep one")


def load_gold(paths: list[Path], docs: pd.DataFrame, subset: bool = False,
              shown: Callable[[Path], str] = str) -> Gold:
    """Read and validate gold files against the run's passages; every problem is reported at once.

    subset: keep only the records of the run's passages (for the default gold set) instead of failing.
    shown: how a file is named in the records' ``source`` (the report shows no absolute path)."""
    texts = dict(zip(docs["doc_id"], docs["text"]))
    problems, pairs, passages, bindings, left_out = _Problems(), [], [], [], 0
    for path in paths:
        records, dropped = _known_records(Path(path), shown(Path(path)), texts, subset)
        left_out += dropped
        for where, obj in records:
            kind = obj.get("type") if isinstance(obj, dict) else None
            if isinstance(obj, Exception) or kind not in ("pair", "passage"):
                problems.add(where, f"not a gold record ({obj}); each line is a JSON object with "
                             "\"type\": \"pair\" or \"passage\"")
            elif kind == "pair" and (row := _pair(obj, texts, where, problems)):
                pairs.append(row)
            elif kind == "passage" and (parsed := _passage(obj, texts, where, problems)):
                passages.append(parsed[0])
                bindings.extend(parsed[1])
    pairs_df = pd.DataFrame(pairs, columns=KEY + ["y", "note", "source"])
    passages_df = pd.DataFrame(passages, columns=["doc_id", "start", "end", "source"])
    bindings_df = pd.DataFrame(bindings, columns=KEY + ["negated", "source"])
    _duplicates(pairs_df, KEY, "pair", problems)
    _duplicates(passages_df, ["doc_id"], "passage (one line per passage)", problems)
    _duplicates(bindings_df, KEY, "binding", problems)
    if problems:
        shown = "\n  ".join(problems[:MAX_PROBLEMS_SHOWN])
        more = f"\n  ... and {len(problems) - MAX_PROBLEMS_SHOWN} more" if len(problems) > MAX_PROBLEMS_SHOWN else ""
        raise UserError(f"{len(problems)} problem(s) in the gold file(s) (format: labelers/report/gold.py):"
                        f"\n  {shown}{more}")
    return Gold([shown(Path(p)) for p in paths], pairs_df, passages_df, bindings_df, left_out)


def default_gold_paths(gold_dir: Path) -> list[Path]:
    return [gold_dir / name for name in DEFAULT_GOLD if (gold_dir / name).is_file()]


def match_pairs(pairs: pd.DataFrame, cands: pd.DataFrame) -> pd.DataFrame:
    """The gold pairs with ``row``: the candidate's row in the candidate table, -1 when none matches."""
    index = cands[KEY].assign(row=range(len(cands)))
    return pairs.merge(index, on=KEY, how="left").fillna({"row": -1}).astype({"row": int})


def bindings_without_candidate(gold: Gold, cands: pd.DataFrame) -> pd.DataFrame:
    """The non-negated gold bindings that match no candidate: recall that candidate generation loses before
    any LF votes (every method misses them)."""
    positive = gold.bindings[~gold.bindings["negated"].astype(bool)]
    known = pd.MultiIndex.from_frame(cands[KEY])
    return positive[~pd.MultiIndex.from_frame(positive[KEY]).isin(known)].reset_index(drop=True)


def passage_rows(gold: Gold, cands: pd.DataFrame) -> pd.DataFrame:
    """One row per candidate inside an annotated region (y = 1 when it is a non-negated gold binding),
    plus one row per gold binding that is no candidate (row = -1, a certain miss)."""
    positive = gold.bindings.loc[~gold.bindings["negated"].astype(bool), KEY].assign(y=1)
    inside = cands[KEY].assign(row=range(len(cands))).merge(gold.passages[["doc_id", "start", "end"]], on="doc_id")
    inside = inside[(inside[["ent_start", "attr_start"]].min(axis=1) >= inside["start"])
                    & (inside[["ent_end", "attr_end"]].max(axis=1) <= inside["end"])]
    rows = inside[KEY + ["row"]].merge(positive, on=KEY, how="outer")
    return rows.fillna({"row": -1, "y": 0}).astype({"row": int, "y": int}).reset_index(drop=True)
