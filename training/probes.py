"""Binding probes: the JSONL format, scoring with a trained model, accuracy with a paired bootstrap
interval, and the shortcut baselines that a well-built paired set holds at chance.

Format (one JSON object a line; blank lines are ignored)::

    {"id": "3f2a-0-a", "pair": "3f2a-0", "context": "<passage text>", "query": " The captain was",
     "candidates": ["old", "young"], "answer": "old"}

- ``id``: unique item id.
- ``pair``: the item's group. The items of a group share ONE context and ONE candidate list; each asks
  about a different entity, and their answers are different candidates (a pair, or a triple...). Any
  strategy that ignores which entity is asked (recency, frequency, position, an adjective's prior)
  therefore gets exactly one item of a fully paired group right: chance.
- ``context``: the text the model reads (a real passage, cut after the bindings it tests).
- ``query``: appended to the context as is, e.g. " The captain was" (leading space, no trailing one).
- ``candidates``: two or more distinct words; ``answer``: one of them.
- Any other key (``source``, ``doc_id``...) is carried along and ignored by scoring.

Scoring: prefix = context + query, continuation = " " + candidate. An item's candidate scores the total
log-probability of the continuation's tokens given the prefix. The space is scored as part of the
candidate because a byte-level BPE attaches a word's leading space to the word (" old" is one token in
running text); prefix and continuation are tokenized separately, which at a space boundary gives the
same tokens as tokenizing the whole string. When prefix + continuation exceed block_size + 1 tokens, the
prefix is cut from the LEFT (the probes put their bindings near the end of the context). The item is
right when the answer has the highest score (a tie goes to the earlier candidate).

Accuracy's 95% interval is a percentile bootstrap over groups (1000 resamples of whole pairs, seeded),
because the items of a pair share a context and are not independent. Chance = mean of
1/len(candidates). Baselines, each with its accuracy: ``most_recent`` (the candidate whose last
occurrence in the context, as a whole word, is latest), ``most_frequent`` (the candidate seen most often
in the train split of the checkpoint's training run; counts are stored in the checkpoint), ``first``
(the first candidate).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from tokenizers import Tokenizer

from pipeline.core.errors import UserError
from training.model import GPT
from training.tokenizer import PAD_ID

FIELDS = ("id", "pair", "context", "query", "candidates", "answer")
BOOTSTRAP_REPS = 1000
LogProb = Callable[[Sequence[tuple[str, str]]], list[float]]
"""Total log-probability of each (prefix, continuation) pair."""


@dataclass(frozen=True)
class Probe:
    id: str
    pair: str
    context: str
    query: str
    candidates: tuple[str, ...]
    answer: str

    @property
    def prefix(self) -> str:
        return self.context + self.query


def _problem(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return "not a JSON object"
    missing = [k for k in FIELDS if k not in obj]
    if missing:
        return f"missing key(s) {missing}"
    if not all(isinstance(obj[k], str) for k in ("id", "pair", "context", "query", "answer")):
        return "id, pair, context, query and answer must be strings"
    cands = obj["candidates"]
    if not (isinstance(cands, list) and len(cands) >= 2 and all(isinstance(c, str) and c.strip() for c in cands)):
        return "candidates must be a list of two or more non-empty strings"
    if len(set(cands)) != len(cands):
        return f"candidates {cands} repeat a word"
    if obj["answer"] not in cands:
        return f"answer {obj['answer']!r} is not one of the candidates {cands}"
    if not obj["context"]:
        return "context is empty"
    return None


def read_probes(path: Path) -> list[Probe]:
    """Read and validate a probe file; every problem is reported at once with its line."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"probe file {path} does not exist; pass a JSONL file in the format of training/probes.py "
                        "(e.g. data/probes/generated_test.jsonl)")
    probes, problems, seen = [], [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{path}:{n}: not JSON ({exc})")
            continue
        problem = _problem(obj) or (f"id {obj['id']!r} is used twice" if obj["id"] in seen else None)
        if problem:
            problems.append(f"{path}:{n}: {problem}")
            continue
        seen.add(obj["id"])
        probes.append(Probe(obj["id"], obj["pair"], obj["context"], obj["query"], tuple(obj["candidates"]),
                            obj["answer"]))
    if problems:
        raise UserError(f"{len(problems)} problem(s) in {path} (format: training/probes.py): "
                        + "; ".join(problems[:10]))
    if not probes:
        raise UserError(f"probe file {path} holds no items")
    return probes


def model_logprob(model: GPT, tokenizer: Tokenizer, batch_size: int = 64) -> LogProb:
    """A LogProb backed by a model: prefixes cut from the left to fit block_size (see module docstring)."""
    block = model.config.block_size

    def encode(prefix: str, continuation: str) -> tuple[list[int], int]:
        cont = tokenizer.encode(continuation).ids
        if not cont or len(cont) > block:
            raise UserError(f"continuation {continuation!r} is {len(cont)} tokens; it must be 1..{block} "
                            "(block_size); shorten the candidate")
        ids = tokenizer.encode(prefix).ids[-(block + 1 - len(cont)):] + cont
        return ids, len(cont)

    @torch.no_grad()
    def score(pairs: Sequence[tuple[str, str]]) -> list[float]:
        encoded = [encode(p, c) for p, c in pairs]
        out: list[float] = []
        for lo in range(0, len(encoded), batch_size):
            chunk = encoded[lo:lo + batch_size]
            width = max(len(ids) for ids, _ in chunk)
            tokens = torch.full((len(chunk), width), PAD_ID, dtype=torch.long)
            for row, (ids, _) in enumerate(chunk):
                tokens[row, :len(ids)] = torch.tensor(ids)
            # right padding: causal attention keeps it from touching the scored positions
            logp = F.log_softmax(model(tokens[:, :-1]).logits.float(), dim=-1)
            for row, (ids, n_cont) in enumerate(chunk):
                targets = torch.tensor(ids[-n_cont:])
                positions = torch.arange(len(ids) - 1 - n_cont, len(ids) - 1)
                out.append(float(logp[row, positions, targets].sum()))
        return out

    return score


def last_position(word: str, text: str) -> int:
    """Start of the word's last whole-word, case-insensitive occurrence in text; -1 when absent."""
    hits = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word.lower())}(?!\w)", text.lower())]
    return hits[-1] if hits else -1


def pick(values: Sequence[float]) -> int:
    """Index of the highest value; a tie goes to the earliest."""
    return int(np.argmax(np.asarray(values, dtype=float)))


Baseline = Callable[[Probe], int]


def baselines(counts: Mapping[str, int] | None) -> dict[str, Baseline]:
    """The shortcut strategies: each picks a candidate without looking at the query."""
    found: dict[str, Baseline] = {
        "most_recent": lambda p: pick([last_position(c, p.context) for c in p.candidates]),
        "first": lambda p: 0,
    }
    if counts is not None:
        found["most_frequent"] = lambda p: pick([counts.get(c.lower(), 0) for c in p.candidates])
    return found


def bootstrap_ci(values: Sequence[float], groups: Sequence[str], reps: int = BOOTSTRAP_REPS,
                 seed: int = 0) -> tuple[float, float]:
    """Percentile 95% interval of the mean of per-item VALUES (accuracy when they are 0/1 hits; a paired
    difference when they are one arm's hits minus another's), resampling whole groups (pairs) with replacement."""
    codes = np.unique(np.asarray(groups), return_inverse=True)[1]
    n_groups = int(codes.max()) + 1
    group_sums = np.bincount(codes, weights=np.asarray(values, dtype=float), minlength=n_groups)
    sizes = np.bincount(codes, minlength=n_groups).astype(float)
    draws = np.random.default_rng(seed).integers(0, n_groups, size=(reps, n_groups))
    means = group_sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def evaluate(probes: Sequence[Probe], logprob: LogProb, counts: Mapping[str, int] | None = None,
             seed: int = 0) -> dict[str, Any]:
    """Accuracy, its interval, chance, the baselines and every item's scores."""
    flat = logprob([(p.prefix, " " + c) for p in probes for c in p.candidates])
    items, right, lo = [], [], 0
    for p in probes:
        scores = flat[lo:lo + len(p.candidates)]
        lo += len(p.candidates)
        predicted = p.candidates[pick(scores)]
        right.append(predicted == p.answer)
        items.append({"id": p.id, "pair": p.pair, "scores": dict(zip(p.candidates, scores)),
                      "predicted": predicted, "answer": p.answer, "right": right[-1]})
    groups = [p.pair for p in probes]
    ci_low, ci_high = bootstrap_ci(right, groups, seed=seed)
    base = {name: {"accuracy": acc} for name, acc in baseline_accuracy(probes, counts).items()}
    return {"n": len(probes), "pairs": len(set(groups)), "accuracy": float(np.mean(right)),
            "ci_low": ci_low, "ci_high": ci_high,
            "chance": float(np.mean([1 / len(p.candidates) for p in probes])),
            "baselines": base, "items": items}


def baseline_accuracy(probes: Sequence[Probe], counts: Mapping[str, int] | None) -> dict[str, float]:
    """Each baseline's accuracy alone (no model): what the probe-set builder checks against chance."""
    return {name: float(np.mean([p.candidates[f(p)] == p.answer for p in probes]))
            for name, f in baselines(counts).items()}

