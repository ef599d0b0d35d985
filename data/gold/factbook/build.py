"""Build data/gold/factbook/dev.jsonl and test.jsonl from the annotation file work/labels.jsonl.

    python data/gold/factbook/build.py RUN_DIR [GOLD_DIR]

RUN_DIR is a run of the Factbook corpus (data/factbook) with the default ingest.passage_chars (the
README of this folder gives the command). work/labels.jsonl holds one annotated region a line: doc_id,
split (the run's split of the country profile: valid or test), start/end (characters of the passage) and
bindings naming tokens by their index ``i`` in the run's tokens.parquet; the character spans come from
there. Regions of the valid split go to dev.jsonl, those of the test split to test.jsonl, so the two
files never share a country. The output format is that of labelers/report/gold.py. GOLD_DIR (default this
folder) builds another set annotated the same way: data/gold/austen_train, whose train-split regions go to
its dev.jsonl.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
FILE_OF_SPLIT = {"train": "dev.jsonl", "valid": "dev.jsonl", "test": "test.jsonl"}
"""Output file of each split of the annotated passages (a set drawn from train chapters is a dev set)."""


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def passage_record(region: dict, spans: dict[tuple[str, int], tuple[int, int, str]]) -> dict:
    """A gold ``passage`` record of one annotated region (token indices turned into character spans)."""
    bindings = []
    for b in region["bindings"]:
        (es, ee, et), (as_, ae, at) = spans[(region["doc_id"], b["ent"])], spans[(region["doc_id"], b["attr"])]
        if (et, at) != (b["ent_word"], b["attr_word"]):  # the run tokenised the passage otherwise
            raise SystemExit(f"{region['doc_id']}: tokens {b['ent']}/{b['attr']} are {et!r}/{at!r} in this run, "
                             f"the annotation says {b['ent_word']!r}/{b['attr_word']!r}: use a run of data/factbook "
                             "with the default ingest and parse settings")
        bindings.append({"ent_start": es, "ent_end": ee, "attr_start": as_, "attr_end": ae,
                         "negated": bool(b["negated"]), "ent_text": et, "attr_text": at})
    return {"type": "passage", "doc_id": region["doc_id"], "start": region["start"], "end": region["end"],
            "bindings": bindings}


def main(run: str, folder: str = "") -> None:
    here = Path(folder) if folder else HERE
    regions = read_jsonl(here / "work" / "labels.jsonl")
    tokens = pd.read_parquet(Path(run) / "tokens.parquet", columns=["doc_id", "i", "start", "end", "text"])
    spans = {(d, i): (s, e, t) for d, i, s, e, t in tokens.itertuples(index=False)}
    docs = pd.read_parquet(Path(run) / "docs.parquet", columns=["doc_id", "source_id"])
    source = {d: s.split("#")[0] for d, s in zip(docs["doc_id"], docs["source_id"])}
    for name in sorted({FILE_OF_SPLIT[r["split"]] for r in regions}):
        mine = [r for r in regions if FILE_OF_SPLIT[r["split"]] == name]
        records = [passage_record(r, spans) for r in mine]
        (here / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        counts = Counter("negated" if b["negated"] else "bindings" for r in mine for b in r["bindings"])
        print(f"{name}: {len(records)} regions, {counts['bindings']} bindings, {counts['negated']} negated, "
              f"{len({source[r['doc_id']] for r in mine})} sources")


if __name__ == "__main__":
    main(*sys.argv[1:3])
