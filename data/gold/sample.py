"""Draw the gold-set samples from a run of the bundled corpus (valid and test chapters only).

    .venv/bin/python data/gold/sample.py runs/default data/gold/work

Writes annotation packets that show the text, never the labeling functions' votes:
- pairs_todo.jsonl: candidate pairs. For each labeling function, up to PER_LF pairs it voted on (drawn
  with a seeded RNG, so every LF's votes are represented), then random candidates up to N_PAIRS.
- passages_todo.jsonl: N_PASSAGES regions of 2-6 whole sentences (at most MAX_REGION_CHARS), one per
  passage, with the region's tokens numbered so annotators can name mentions by token index.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.core.io import read_metadata

N_PAIRS, PER_LF, N_PASSAGES, MAX_REGION_CHARS, SEED = 440, 14, 66, 700, 20261130


def marked_sentence(row: pd.Series, text: str) -> str:
    """The sentence with the entity in [[...]] and the attribute in <<...>>."""
    spans = sorted([(row.ent_start, row.ent_end, "[[", "]]"), (row.attr_start, row.attr_end, "<<", ">>")],
                   reverse=True)
    for start, end, left, right in spans:
        text = text[:start] + left + text[start:end] + right + text[end:]
    return text


def sentence_bounds(tokens: pd.DataFrame, doc_id: str, sent: int) -> tuple[int, int]:
    rows = tokens[(tokens.doc_id == doc_id) & (tokens.sent == sent)]
    return int(rows.start.min()), int(rows.end.max())


def sample_pairs(run: Path, rng: np.random.Generator) -> list[dict]:
    cands = pd.read_parquet(run / "candidates.parquet")
    votes = pd.read_parquet(run / "votes.parquet")
    held = (cands.split != "train").to_numpy()
    chosen: list[int] = []
    for lf in read_metadata(run / "votes.parquet")["lfs"]:
        voted = np.flatnonzero(held & (votes[lf].to_numpy() != -1))
        pool = np.setdiff1d(voted, chosen)
        chosen += rng.choice(pool, size=min(PER_LF, len(pool)), replace=False).tolist()
    rest = np.setdiff1d(np.flatnonzero(held), chosen)
    chosen += rng.choice(rest, size=N_PAIRS - len(chosen), replace=False).tolist()
    texts = pd.read_parquet(run / "docs.parquet").set_index("doc_id").text
    tokens = pd.read_parquet(run / "tokens.parquet", columns=["doc_id", "sent", "start", "end"])
    out = []
    for index in sorted(chosen):
        row = cands.iloc[index]
        text = texts[row.doc_id]
        s, e = sentence_bounds(tokens, row.doc_id, int(row.sent))
        if row.antecedent_i >= 0:  # show from the antecedent's sentence for pronoun pairs
            s = min(s, int(tokens[(tokens.doc_id == row.doc_id)].start.iloc[int(row.antecedent_i)]))
        s, e = min(s, row.ent_start, row.attr_start), max(e, row.ent_end, row.attr_end)
        shifted = row.copy()
        for k in ("ent_start", "ent_end", "attr_start", "attr_end"):
            shifted[k] = row[k] - s
        out.append({"id": row.cand_id, "doc_id": row.doc_id, "ent_start": int(row.ent_start),
                    "ent_end": int(row.ent_end), "attr_start": int(row.attr_start), "attr_end": int(row.attr_end),
                    "ent_text": row.ent_text, "attr_text": row.attr_text,
                    "context": marked_sentence(shifted, text[s:e])})
    return out


def sample_passages(run: Path, rng: np.random.Generator) -> list[dict]:
    docs = pd.read_parquet(run / "docs.parquet")
    tokens = pd.read_parquet(run / "tokens.parquet", columns=["doc_id", "sent", "i", "start", "end", "text", "pos"])
    held = docs[docs.split != "train"]
    out = []
    for index in rng.permutation(len(held)):
        doc = held.iloc[index]
        toks = tokens[tokens.doc_id == doc.doc_id]
        n_sents = int(toks.sent.max()) + 1
        first = int(rng.integers(0, max(1, n_sents - 2)))
        region = toks[toks.sent == first]
        for sent in range(first + 1, min(first + 6, n_sents)):
            more = toks[toks.sent == sent]
            if more.end.max() - region.start.min() > MAX_REGION_CHARS and region.sent.nunique() >= 2:
                break
            region = pd.concat([region, more])
        if region.sent.nunique() < 2 or region.end.max() - region.start.min() > MAX_REGION_CHARS * 1.5:
            continue
        numbered = " ".join(f"{t.i}:{t.text}" for t in region.itertuples() if t.text.strip())
        out.append({"doc_id": doc.doc_id, "start": int(region.start.min()), "end": int(region.end.max()),
                    "text": doc.text[int(region.start.min()):int(region.end.max())], "tokens": numbered})
        if len(out) == N_PASSAGES:
            break
    return out


def main(run: str, out: str) -> None:
    rng = np.random.default_rng(SEED)
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    for name, rows in (("pairs_todo.jsonl", sample_pairs(Path(run), rng)),
                       ("passages_todo.jsonl", sample_passages(Path(run), rng))):
        (target / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        print(f"{name}: {len(rows)}")


if __name__ == "__main__":
    main(*sys.argv[1:])
