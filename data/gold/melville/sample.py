"""Draw the regions of data/gold/melville and print them for annotation, each token with its index.

    python data/gold/melville/sample.py RUN_DIR > regions.txt

RUN_DIR is the run of data/melville that data/gold/melville/README.md names (the token indices of
work/labels.jsonl are its parse's). From each of the valid and test splits, 24 passages longer than 300
characters, drawn with seed 20261207; in each, from a random sentence, up to 4 whole sentences within 700
characters (Melville's sentences are long: Austen's dev set used 600).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "austen_train"))
from sample import cut_region, print_regions  # noqa: E402  (the same cut as the Austen train-chapter dev set)

SEED = 20261207
PER_SPLIT = 24
MAX_CHARS = 700


def regions(run: Path) -> list[dict]:
    rng = random.Random(SEED)
    docs = pd.read_parquet(run / "docs.parquet")
    tokens = pd.read_parquet(run / "tokens.parquet", columns=["doc_id", "sent", "i", "start", "end", "text"])
    out = []
    for split in ("valid", "test"):
        pool = docs[(docs["split"] == split) & (docs["text"].str.len() > 300)]
        cut = (cut_region(tokens[tokens["doc_id"] == row["doc_id"]], row, rng, MAX_CHARS)
               for _, row in pool.sample(n=PER_SPLIT + 6, random_state=SEED).iterrows())
        out += [{**r, "split": split} for r in cut if r is not None][:PER_SPLIT]
    return out


if __name__ == "__main__":
    print_regions(regions(Path(sys.argv[1])))
