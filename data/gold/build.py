"""Build data/gold/pairs.jsonl and passages.jsonl from the annotators' label files in data/gold/work/.

    .venv/bin/python data/gold/build.py runs/default

Pairs take their offsets from pairs_todo.jsonl; passage bindings name tokens by index and take their
character spans from the run's tokens.parquet, which must be tokenized as when the regions were labeled
(parse.split_dashes false and parse.keep_emphasis true: the token indices are those of spaCy's own rules). A span with a dash glued in
("silent.--His", a token of those rules) is cut to its first word, which the annotators judged (README).
UNCLEAR pairs are left out and counted.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pandas as pd

GOLD = Path(__file__).parent
WORK = GOLD / "work"
SPAN_KEYS = ("ent_start", "ent_end", "attr_start", "attr_end")
DASH = re.compile(r"--|\u2014")
WORD = re.compile(r"\w+(?:['\u2019]\w+)*")


def word_span(start: int, text: str) -> tuple[int, int, str]:
    """(start, end, text) of a span starting at ``start`` with text ``text``; one with a dash glued in
    ("silent.--His", "fortune?--You") becomes its first word's."""
    word = WORD.search(text) if DASH.search(text) else None
    if word is None:
        return start, start + len(text), text
    return start + word.start(), start + word.end(), word.group()


def sides(ent_start: int, ent_text: str, attr_start: int, attr_text: str) -> dict:
    (es, ee, et), (as_, ae, at) = word_span(ent_start, ent_text), word_span(attr_start, attr_text)
    return {"ent_start": es, "ent_end": ee, "attr_start": as_, "attr_end": ae, "ent_text": et, "attr_text": at}


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def build_pairs() -> Counter:
    todo = {item["id"]: item for item in read_jsonl(WORK / "pairs_todo.jsonl")}
    labels = [row for name in ("labels_pairs_A.jsonl", "labels_pairs_B.jsonl") for row in read_jsonl(WORK / name)]
    counts, out = Counter(row["label"] for row in labels), []
    for row in labels:
        if row["label"] == "UNCLEAR":
            continue
        item = todo[row["id"]]
        span = sides(item["ent_start"], item["ent_text"], item["attr_start"], item["attr_text"])
        out.append({"type": "pair", "doc_id": item["doc_id"], **{k: span[k] for k in SPAN_KEYS},
                    "label": row["label"], "ent_text": span["ent_text"], "attr_text": span["attr_text"],
                    "note": row.get("note", "")})
    write_jsonl(GOLD / "pairs.jsonl", out)
    return counts


def build_passages(run: Path) -> Counter:
    tokens = pd.read_parquet(run / "tokens.parquet", columns=["doc_id", "i", "start", "end", "text"])
    spans = {(d, i): (s, e, t) for d, i, s, e, t in tokens.itertuples(index=False)}
    counts, out = Counter(), []
    for region in read_jsonl(WORK / "labels_passages.jsonl"):
        bindings = []
        for b in region["bindings"]:
            (es, _, et), (as_, _, at) = spans[(region["doc_id"], b["ent"])], spans[(region["doc_id"], b["attr"])]
            span = sides(es, et, as_, at)
            bindings.append({**{k: span[k] for k in SPAN_KEYS}, "negated": bool(b.get("negated", False)),
                             "ent_text": span["ent_text"], "attr_text": span["attr_text"]})
            counts["negated" if b.get("negated") else "bindings"] += 1
        counts["regions"] += 1
        out.append({"type": "passage", "doc_id": region["doc_id"], "start": region["start"],
                    "end": region["end"], "bindings": bindings})
    write_jsonl(GOLD / "passages.jsonl", out)
    return counts


if __name__ == "__main__":
    print("pairs:", dict(build_pairs()))
    print("passages:", dict(build_passages(Path(sys.argv[1]))))
