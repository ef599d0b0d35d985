"""A gold set for a run of any corpus: draw regions to annotate, round-trip them through Label Studio, and
write the gold format of labelers/report/gold.py.

1. ``sample_regions``: passages of the valid and test splits only (the train split is what the
   LabelModel is fitted on), stratified by split and by the passage's LF vote pattern (whether any
   candidate has conflicting votes, else any BOUND vote, else any NOT_BOUND vote, else none), so the
   draw covers the contested passages and not only the easy ones. In each passage one region of whole
   sentences (at most ``MAX_REGION_CHARS``) is to be annotated completely. The to-do file holds one JSON
   object a line: doc_id, split, stratum, start/end (characters of the passage), text (the region) and
   the run's candidates inside it with P(BOUND).
2. ``label_studio_tasks``: the to-do regions as Label Studio import tasks (``data.text`` is the region),
   with the LabelModel's accepted bindings as pre-annotations ("predictions": an Entity span, an
   Attribute span and a "bound" relation from the entity to the attribute). ``LABEL_CONFIG`` is the
   project's labeling config: Entity/Attribute labels and the relations "bound" and "negated".
   Pre-filled spans speed annotation up but invite accepting them: the annotator must add every binding
   the region asserts and delete the wrong ones (the guideline is data/gold/README.md).
3. ``gold_from_label_studio``: a Label Studio JSON export (a list of tasks, each with "annotations" whose
   "result" holds "labels" spans and "relation" entries) back to gold ``passage`` records, offsets
   shifted from the region to the passage. Every relation needs one Entity and one Attribute end.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from labelers.labels import BOUND, NOT_BOUND
from pipeline.core import schemas as S
from pipeline.core.errors import UserError
from pipeline.core.io import check_aligned, read_metadata, read_parquet

HELD_OUT = ("valid", "test")
MAX_REGION_CHARS = 700
PATTERNS = ("conflict", "bound", "not_bound", "none")
"""A passage's LF vote pattern, strongest first: the first that any of its candidates shows."""
ENTITY, ATTRIBUTE, RELATION_BOUND, RELATION_NEGATED = "Entity", "Attribute", "bound", "negated"
FROM_NAME, TO_NAME = "label", "text"
LABEL_CONFIG = f"""<View>
  <Header value="Mark every entity-attribute binding the text asserts (guideline: data/gold/README.md)"/>
  <Relations>
    <Relation value="{RELATION_BOUND}"/>
    <Relation value="{RELATION_NEGATED}"/>
  </Relations>
  <Labels name="{FROM_NAME}" toName="{TO_NAME}">
    <Label value="{ENTITY}" background="#cfe3ff"/>
    <Label value="{ATTRIBUTE}" background="#ffe2b8"/>
  </Labels>
  <Text name="{TO_NAME}" value="$text" granularity="word"/>
</View>
"""
MAX_PROBLEMS_SHOWN = 10


def candidate_patterns(L: np.ndarray) -> np.ndarray:
    """Each candidate's vote pattern (see PATTERNS)."""
    bound, not_bound = (L == BOUND).any(axis=1), (L == NOT_BOUND).any(axis=1)
    return np.select([bound & not_bound, bound, not_bound], PATTERNS[:3], PATTERNS[3])


def passage_strata(docs: pd.DataFrame, cands: pd.DataFrame, L: np.ndarray) -> pd.Series:
    """split/pattern of each held-out passage, indexed by doc_id (a passage without candidates: none)."""
    rank = pd.Series(candidate_patterns(L), index=cands.index).map(PATTERNS.index)
    strongest = rank.groupby(cands["doc_id"]).min()
    held = docs[docs["split"].isin(HELD_OUT)]
    ranks = held["doc_id"].map(strongest).fillna(len(PATTERNS) - 1).astype(int)
    return pd.Series([f"{split}/{PATTERNS[r]}" for split, r in zip(held["split"], ranks)],
                     index=held["doc_id"].to_numpy(), dtype=object)


def allocate(sizes: dict[str, int], n: int) -> dict[str, int]:
    """n draws shared among strata in proportion to their sizes (largest remainder, ties by name)."""
    total = sum(sizes.values())
    quotas = {k: n * v / total for k, v in sizes.items()}
    counts = {k: int(q) for k, q in quotas.items()}
    for k in sorted(quotas, key=lambda k: (counts[k] - quotas[k], k))[:n - sum(counts.values())]:
        counts[k] += 1
    return counts


def draw(strata: pd.Series, n: int, seed: int) -> list[str]:
    """n passage ids, stratified (see allocate), drawn with a seeded generator; sorted for a stable file."""
    rng = np.random.default_rng(seed)
    groups = {k: sorted(v) for k, v in strata.groupby(strata).groups.items()}
    chosen: list[str] = []
    for stratum, count in sorted(allocate({k: len(v) for k, v in groups.items()}, n).items()):
        chosen += list(rng.choice(groups[stratum], size=count, replace=False))
    return sorted(chosen)


def region(sentences: pd.DataFrame, rng: np.random.Generator) -> tuple[int, int]:
    """Whole sentences from a random first one, while they fit in MAX_REGION_CHARS (at least one)."""
    first = int(rng.integers(0, len(sentences)))
    start, end = int(sentences["start"].iloc[first]), int(sentences["end"].iloc[first])
    for s, e in zip(sentences["start"].iloc[first + 1:], sentences["end"].iloc[first + 1:]):
        if e - start > MAX_REGION_CHARS:
            break
        end = int(e)
    return start, end


def _region_candidates(cands: pd.DataFrame, p_lm: np.ndarray, accepted: np.ndarray, start: int,
                       end: int) -> list[dict[str, Any]]:
    inside = (cands[["ent_start", "attr_start"]].min(axis=1) >= start) & (cands[["ent_end", "attr_end"]].max(axis=1) <= end)
    return [{"cand_id": r.cand_id, "ent_start": int(r.ent_start), "ent_end": int(r.ent_end),
             "attr_start": int(r.attr_start), "attr_end": int(r.attr_end), "ent_text": r.ent_text,
             "attr_text": r.attr_text, "p_lm": round(float(p), 4), "accepted": bool(a)}
            for r, p, a in zip(cands[inside.to_numpy()].itertuples(), p_lm[inside.to_numpy()], accepted[inside.to_numpy()])]


def sample_regions(run_dir: Path, n: int, seed: int = 0) -> list[dict[str, Any]]:
    """The to-do regions of a gold set for this run (see the module docstring)."""
    run_dir = Path(run_dir)
    docs = read_parquet(run_dir / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    cands = read_parquet(run_dir / S.CANDIDATES, S.CANDIDATE_KEY_COLUMNS + ["ent_text", "attr_text"], "candidates",
                         S.SCHEMA_VERSION)
    votes = read_parquet(run_dir / S.VOTES, ["cand_id"], "votes", S.SCHEMA_VERSION)
    bindings = read_parquet(run_dir / S.BINDINGS, S.BINDING_COLUMNS, "bindings", S.SCHEMA_VERSION)
    check_aligned(run_dir, S.VOTES, votes, cands)
    check_aligned(run_dir, S.BINDINGS, bindings, cands)
    L = votes[read_metadata(run_dir / S.VOTES)["lfs"]].to_numpy(np.int64)
    strata = passage_strata(docs, cands, L)
    if strata.empty:
        raise UserError(f"{run_dir} has no passage in the valid or test split (a corpus of few chapters may get "
                        "none): rerun it with larger --ingest.valid_fraction and --ingest.test_fraction, e.g. 0.2")
    if not 1 <= n <= len(strata):
        raise UserError(f"--n {n}: {run_dir} has {len(strata)} passages in the valid and test splits; ask for 1 "
                        f"to {len(strata)}")
    tokens = read_parquet(run_dir / S.TOKENS, ["doc_id", "sent", "start", "end"], "tokens", S.SCHEMA_VERSION)
    chosen = draw(strata, n, seed)
    sentences = tokens[tokens["doc_id"].isin(chosen)].groupby(["doc_id", "sent"]).agg(start=("start", "min"),
                                                                                    end=("end", "max"))
    texts, splits = dict(zip(docs["doc_id"], docs["text"])), dict(zip(docs["doc_id"], docs["split"]))
    rng, out = np.random.default_rng(seed), []
    for doc_id in chosen:
        start, end = region(sentences.loc[doc_id], rng)
        mine = (cands["doc_id"] == doc_id).to_numpy()
        out.append({"doc_id": doc_id, "split": splits[doc_id], "stratum": strata[doc_id], "start": start, "end": end,
                    "text": texts[doc_id][start:end],
                    "candidates": _region_candidates(cands[mine], bindings["p_lm"].to_numpy()[mine],
                                                     bindings["accepted"].to_numpy(bool)[mine], start, end)})
    return out


def _span(result_id: str, start: int, end: int, text: str, label: str) -> dict[str, Any]:
    return {"id": result_id, "from_name": FROM_NAME, "to_name": TO_NAME, "type": "labels",
            "value": {"start": start, "end": end, "text": text, "labels": [label]}}


def prefilled(todo: dict[str, Any]) -> list[dict[str, Any]]:
    """The LabelModel's accepted bindings of a to-do region as Label Studio results (region offsets)."""
    spans: dict[tuple[int, int, str], str] = {}
    result: list[dict[str, Any]] = []

    def span_id(start: int, end: int, label: str) -> str:
        key = (start - todo["start"], end - todo["start"], label)
        if key not in spans:
            spans[key] = f"{label[0].lower()}{len(spans)}"
            result.append(_span(spans[key], key[0], key[1], todo["text"][key[0]:key[1]], label))
        return spans[key]

    relations = [{"from_id": span_id(c["ent_start"], c["ent_end"], ENTITY),
                  "to_id": span_id(c["attr_start"], c["attr_end"], ATTRIBUTE), "type": "relation",
                  "direction": "right", "labels": [RELATION_BOUND]} for c in todo["candidates"] if c["accepted"]]
    return result + relations


def label_studio_tasks(todo: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Label Studio import tasks of the to-do regions, pre-annotated with the LabelModel's bindings."""
    return [{"data": {k: t[k] for k in ("text", "doc_id", "start", "end", "split", "stratum")},
             "predictions": [{"model_version": "regscaffold LabelModel", "result": prefilled(t)}]} for t in todo]


def _final_annotation(task: dict[str, Any]) -> dict[str, Any] | None:
    """The task's last annotation that was not cancelled (Label Studio keeps every annotator's)."""
    done = [a for a in task.get("annotations", []) if not a.get("was_cancelled")]
    return done[-1] if done else None


def _span_problem(value: dict[str, Any], text: str) -> str | None:
    start, end, labels = value.get("start"), value.get("end"), value.get("labels", [])
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
        return f"has offsets {start!r}-{end!r} outside the text"
    if "text" in value and text[start:end] != value["text"]:
        return f"says {value['text']!r}, the text has {text[start:end]!r}"
    if len(labels) != 1 or labels[0] not in (ENTITY, ATTRIBUTE):
        return f"has labels {labels}; give it {ENTITY} or {ATTRIBUTE}"
    return None


def _spans(result: list[dict[str, Any]], text: str, where: str,
           problems: list[str]) -> tuple[dict[str, tuple], set[str]]:
    """The annotation's valid spans by result id, and the ids of the broken ones (already reported)."""
    spans, broken = {}, set()
    for r in (r for r in result if r.get("type") == "labels"):
        value = r.get("value", {})
        problem = _span_problem(value, text)
        if problem:
            problems.append(f"{where}: span {r.get('id')!r} {problem}")
            broken.add(r.get("id"))
        else:
            spans[r["id"]] = (value["start"], value["end"], value["labels"][0])
    return spans, broken


def _binding(rel: dict[str, Any], spans: dict[str, tuple], data: dict[str, Any], where: str,
             problems: list[str]) -> dict[str, Any] | None:
    ends = [spans.get(rel.get("from_id")), spans.get(rel.get("to_id"))]
    if None in ends:
        problems.append(f"{where}: relation {rel.get('from_id')!r}->{rel.get('to_id')!r} joins a missing span")
        return None
    by_label = {label: (s, e) for s, e, label in ends}
    if set(by_label) != {ENTITY, ATTRIBUTE}:
        problems.append(f"{where}: relation {rel['from_id']!r}->{rel['to_id']!r} must join one {ENTITY} and one "
                        f"{ATTRIBUTE}")
        return None
    (es, ee), (as_, ae), base, text = by_label[ENTITY], by_label[ATTRIBUTE], data["start"], data["text"]
    return {"ent_start": base + es, "ent_end": base + ee, "attr_start": base + as_, "attr_end": base + ae,
            "negated": RELATION_NEGATED in rel.get("labels", []), "ent_text": text[es:ee], "attr_text": text[as_:ae]}


def _passage(task: dict[str, Any], where: str, problems: list[str]) -> dict[str, Any] | None:
    data = task.get("data", {})
    missing = [k for k in ("text", "doc_id", "start", "end") if k not in data]
    if missing:
        problems.append(f"{where}: data lacks {missing}; export tasks that were imported from `regscaffold gold "
                        "export`")
        return None
    annotation = _final_annotation(task)
    if annotation is None:
        return None
    result = annotation.get("result", [])
    spans, broken = _spans(result, data["text"], where, problems)
    relations = [r for r in result if r.get("type") == "relation" and not {r.get("from_id"), r.get("to_id")} & broken]
    bindings = [b for r in relations if (b := _binding(r, spans, data, where, problems)) is not None]
    bindings.sort(key=lambda b: (b["ent_start"], b["attr_start"], b["ent_end"], b["attr_end"]))
    return {"type": "passage", "doc_id": data["doc_id"], "start": data["start"], "end": data["end"],
            "bindings": bindings}


def gold_from_label_studio(path: Path) -> tuple[list[dict[str, Any]], int]:
    """Gold passage records of a Label Studio JSON export, and the number of tasks not annotated yet."""
    path = Path(path)
    try:
        tasks = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: not a readable Label Studio JSON export ({exc}); export the project as JSON")
    if not isinstance(tasks, list):
        raise UserError(f"{path}: a Label Studio JSON export is a list of tasks, got {type(tasks).__name__}")
    problems: list[str] = []
    records = [(n, _passage(task, f"{path} task {task.get('id', n)}", problems)) for n, task in enumerate(tasks)]
    if problems:
        more = f"; ... and {len(problems) - MAX_PROBLEMS_SHOWN} more" if len(problems) > MAX_PROBLEMS_SHOWN else ""
        raise UserError(f"{len(problems)} problem(s) in the Label Studio export: "
                        + "; ".join(problems[:MAX_PROBLEMS_SHOWN]) + more)
    passages = sorted((r for _, r in records if r is not None), key=lambda r: (r["doc_id"], r["start"]))
    return passages, sum(r is None for _, r in records)
