"""Draw the regions of data/gold/austen_train and print them for annotation, each token with its index.

    python data/gold/austen_train/sample.py RUN_DIR [BATCH] > regions.txt

RUN_DIR is a default run of the bundled corpus (the token indices of work/labels.jsonl are its parse's).
Passages of the train split longer than 300 characters, 40 drawn with seed 20261202; in each, from a random sentence, up to 4 whole sentences within 600
characters; the first 32 regions were annotated. Batch N > 1 (24 regions each, annotated the same way
later) draws with seed 20261202 + N - 1 from the passages the earlier batches did not draw.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pandas as pd

SEED = 20261202
REGIONS = {1: 32, 2: 24, 3: 24, 4: 24, 5: 24, 6: 24, 7: 24, 8: 24, 9: 24, 10: 24, 11: 24, 12: 24, 13: 24}


def regions(run: Path, batch: int = 1) -> list[dict]:
    seed = SEED + batch - 1
    rng = random.Random(seed)
    docs = pd.read_parquet(run / "docs.parquet")
    tokens = pd.read_parquet(run / "tokens.parquet", columns=["doc_id", "sent", "i", "start", "end", "text"])
    train = docs[(docs["split"] == "train") & (docs["text"].str.len() > 300)]
    for earlier in range(1, batch):
        train = train[~train["doc_id"].isin(train.sample(n=40, random_state=SEED + earlier - 1)["doc_id"])]
    out = [cut_region(tokens[tokens["doc_id"] == row["doc_id"]], row, rng)
           for _, row in train.sample(n=40, random_state=seed).iterrows()]
    return [r for r in out if r is not None][:REGIONS[batch]]


def cut_region(doc: pd.DataFrame, row: pd.Series, rng: random.Random, max_chars: int = 600) -> dict | None:
    """From a random sentence of one passage (``doc``: its tokens), up to 4 whole sentences within
    ``max_chars`` characters (the first always); None for a passage of one sentence."""
    sents = sorted(doc["sent"].unique())
    if len(sents) < 2:
        return None
    first = rng.choice(sents[:-1])
    chosen: list[int] = []
    for s in sents[sents.index(first):]:
        start = doc[doc["sent"] == (chosen[0] if chosen else s)]["start"].min()
        if chosen and doc[doc["sent"] == s]["end"].max() - start > max_chars:
            break
        chosen.append(s)
        if len(chosen) == 4:
            break
    part = doc[doc["sent"].isin(chosen)]
    return {"doc_id": row["doc_id"], "source": row["source_id"], "start": int(part["start"].min()),
            "end": int(part["end"].max()), "tokens": list(zip(part["i"].tolist(), part["text"].tolist()))}


def print_regions(regions: list[dict]) -> None:
    """The annotation packet: each region's header, then its words as word/index."""
    for k, r in enumerate(regions):
        print(f"=== R{k} {r['doc_id']} {r['source']}" + (f" {r['split']}" if "split" in r else ""))
        print(" ".join(f"{w}/{i}" for i, w in r["tokens"] if w.strip()))


if __name__ == "__main__":
    print_regions(regions(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
