"""Binding probes: the JSONL format, scoring with a trained model, and the figures that say whether a model
reads a binding from its context: plain accuracy, the swap test, the binding margin, a no-context control,
strata and the shortcut baselines, each with a pair-bootstrap interval.

Format (one JSON object a line; blank lines are ignored)::

    {"id": "3f2a-0-a", "pair": "3f2a-0", "context": "<passage text>", "query": " The captain was",
     "candidates": ["old", "young"], "answer": "old",
     "bound": [[4, 11, 0, 3], [20, 26, 31, 36]], "via_pronoun": false, "cooccurrence": {"old": 3, "young": 1}}

- ``id``: unique item id.
- ``pair``: the item's group. The items of a group share ONE context and ONE candidate list; each asks
  about a different entity, and their answers are different candidates (a pair, or a triple...). Any
  strategy that ignores which entity is asked (recency, frequency, position, an adjective's prior)
  therefore gets exactly one item of a fully paired group right: chance.
- ``context``: the text the model reads (a real passage, cut after the bindings it tests).
- ``query``: appended to the context as is, e.g. " The captain was" (leading space, no trailing one); its
  word before the verb ("captain") is the query word.
- ``candidates``: two or more distinct words; ``answer``: one of them.
- ``bound`` (optional; needs exactly two candidates): for each candidate, in order, the character offsets
  ``[entity start, entity end, adjective start, adjective end]`` in ``context`` of the binding that makes it
  an answer (``context[adjective start:adjective end]`` is the candidate, any case). The swap test, the
  twin-averaged margin and the strata need it; a file without it is scored for accuracy, the plain margin
  and the baselines, with a note that names the fix (rebuild the file with ``regscaffold probes build``).
- ``via_pronoun`` (optional, default false): a binding of the pair is made through a pronoun.
- ``cooccurrence`` (optional): per candidate, the number of train-split sentences holding it and the query
  word (labelers/probe_sets.py writes it); the co-occurrence baseline needs it.
- Any other key (``source``, ``doc_id``...) is carried along and ignored by scoring.

Scoring: prefix = context + query, continuation = " " + candidate. An item's candidate scores the total
log-probability of the continuation's tokens given the prefix. The space is scored as part of the
candidate because a byte-level BPE attaches a word's leading space to the word (" old" is one token in
running text); prefix and continuation are tokenized separately, which at a space boundary gives the
same tokens as tokenizing the whole string. When prefix + continuation exceed block_size + 1 tokens, the
prefix is cut from the LEFT (the probes put their bindings near the end of the context). The item is
right when the answer has the highest score (a tie goes to the earlier candidate). Every item is scored
in three versions and all its candidates' scores are kept (``items``: every figure below is recomputed from
them by ``summarize``):

- ``scores``: the context as it is;
- ``swapped_scores`` (items with ``bound``): the twin context, the pair's two adjectives exchanged at their
  offsets (each recased like the word it replaces), so that the answers exchange too;
- ``nocontext_scores``: the query alone (the no-context control: what the model knows of the noun).

Figures: ``accuracy`` (95% interval: a percentile bootstrap over groups, 1000 resamples of whole pairs,
seeded, because the items of a pair share a context); ``chance`` = mean of 1/len(candidates). ``swap``: an
item counts when it is right on both versions; random guessing scores 0.25 on pairs, any strategy that
ignores the context 0 (its pick cannot follow the exchanged answer). ``margin``: per pair (items a, b
asking about e1, e2 with answers a1, a2), Delta = [s(a1|q1) - s(a2|q1)] - [s(a1|q2) - s(a2|q2)] in nats,
averaged with the same Delta of its twin (answers exchanged): the noun's prior for an adjective and the
adjective's own prior cancel, so it is 0 for a model that does not read the binding and > 0 for one that
does; its interval is a bootstrap over pairs. ``nocontext``: accuracy of the no-context scores. ``strata``
(pairs with ``bound``): ``pronoun`` (a binding via a pronoun), else ``adjacent`` (both adjectives within
one word of their entity's mention: the next word, punctuation aside) or ``distant``.

Baselines (no model), each with its accuracy and, where ``bound`` allows, its swap-test accuracy:
``most_recent`` (the candidate whose last occurrence in the context, as a whole word, is latest),
``adjacency`` (the candidate occurring nearest, in words, to the last mention of the query word),
``cooccurrence`` (the candidate co-occurring in more train sentences with the query word; needs
``cooccurrence``), ``most_frequent`` (the candidate seen most often in the train split of the checkpoint's
training run; counts are stored in the checkpoint), ``first`` (the first candidate).
"""
from __future__ import annotations

import dataclasses
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
from pipeline.core.probe_rules import query_word
from training.model import GPT
from training.tokenizer import PAD_ID

FIELDS = ("id", "pair", "context", "query", "candidates", "answer")
BOOTSTRAP_REPS = 1000
WORD = re.compile(r"\w+")
REBUILD = ("rebuild the file with `regscaffold probes build` (data/probes/README.md) to add each item's "
           "`bound` offsets")
LogProb = Callable[[Sequence[tuple[str, str]]], list[float]]
"""Total log-probability of each (prefix, continuation) pair."""
Span = tuple[int, int, int, int]  # entity start, entity end, adjective start, adjective end


@dataclass(frozen=True)
class Probe:
    id: str
    pair: str
    context: str
    query: str
    candidates: tuple[str, ...]
    answer: str
    bound: tuple[Span, ...] | None = None  # one binding per candidate (see the module docstring)
    via_pronoun: bool = False
    cooccurrence: Mapping[str, int] | None = None

    @property
    def prefix(self) -> str:
        return self.context + self.query


def recase(word: str, like: str) -> str:
    """``word`` in the case pattern of ``like`` (all capitals, a capital first letter, or lower case)."""
    if len(like) > 1 and like.isupper():
        return word.upper()
    return word[:1].upper() + word[1:].lower() if like[:1].isupper() else word.lower()


def exchange(text: str, first: tuple[int, int], second: tuple[int, int]) -> str:
    """``text`` with the words at two non-overlapping character spans exchanged, each recased like the word
    it replaces ("Old" <-> "young" gives "Young" <-> "old")."""
    (s1, e1), (s2, e2) = sorted([first, second])
    w1, w2 = text[s1:e1], text[s2:e2]
    return text[:s1] + recase(w2, w1) + text[e1:s2] + recase(w1, w2) + text[e2:]


def other(probe: Probe) -> str:
    """The other candidate of a two-candidate item: its answer on the twin context."""
    return probe.candidates[1 - probe.candidates.index(probe.answer)]


def twin(probe: Probe) -> Probe:
    """The probe with its pair's two adjectives exchanged in the context, so its answer is the other candidate."""
    assert probe.bound is not None
    context = exchange(probe.context, probe.bound[0][2:], probe.bound[1][2:])
    return dataclasses.replace(probe, context=context, answer=other(probe), bound=None)


def _bound_problem(obj: dict) -> str | None:
    bound, cands, n = obj["bound"], obj["candidates"], len(obj["context"])
    if len(cands) != 2 or not isinstance(bound, list) or len(bound) != 2:
        return "bound needs exactly two candidates and one [entity start, entity end, adjective start, " \
               "adjective end] list for each"
    for cand, span in zip(cands, bound):
        if not (isinstance(span, list) and len(span) == 4 and all(isinstance(x, int) for x in span)
                and 0 <= span[0] < span[1] <= n and 0 <= span[2] < span[3] <= n):
            return f"bound {span} is not four offsets inside the context of {n} characters"
        if obj["context"][span[2]:span[3]].lower() != cand.lower():
            return f"bound {span}: the context holds {obj['context'][span[2]:span[3]]!r} there, not {cand!r}"
    if bound[0][2] < bound[1][3] and bound[1][2] < bound[0][3]:
        return f"bound: the adjective spans {bound[0][2:]} and {bound[1][2:]} overlap"
    return None


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
    if "bound" in obj and (found := _bound_problem(obj)):
        return found
    if not isinstance(obj.get("via_pronoun", False), bool):
        return "via_pronoun must be true or false"
    counts = obj.get("cooccurrence", {})
    if not (isinstance(counts, dict) and all(isinstance(counts.get(c, 0), int) for c in cands)):
        return "cooccurrence must map candidates to counts"
    return None


def probe_of(obj: dict) -> Probe:
    """A Probe from one validated line of a probe file."""
    bound = tuple(tuple(span) for span in obj["bound"]) if "bound" in obj else None
    return Probe(obj["id"], obj["pair"], obj["context"], obj["query"], tuple(obj["candidates"]), obj["answer"],
                 bound, obj.get("via_pronoun", False), obj.get("cooccurrence"))


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
        probes.append(probe_of(obj))
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
        # one forward pass per distinct input: every one-token candidate after the same prefix is read off
        # that prefix's last position, and only the scored positions go through the output layer
        encoded = [encode(p, c) for p, c in pairs]
        # distinct inputs in first-seen order, then by length: batches of similar lengths pad little
        inputs = sorted(dict.fromkeys(tuple(ids[:-1]) for ids, _ in encoded), key=len)
        place = {row: n for n, row in enumerate(inputs)}
        asks = [(place[tuple(ids[:-1])], range(len(ids) - 1 - n_cont, len(ids) - 1), ids[-n_cont:])
                for ids, n_cont in encoded]
        scores = [0.0] * len(asks)
        by_row: dict[int, list[int]] = {}
        for k, (row, _, _) in enumerate(asks):
            by_row.setdefault(row, []).append(k)
        for lo in range(0, len(inputs), batch_size):
            chunk = inputs[lo:lo + batch_size]
            tokens = torch.full((len(chunk), max(len(r) for r in chunk)), PAD_ID, dtype=torch.long)
            for n, row in enumerate(chunk):
                tokens[n, :len(row)] = torch.tensor(row)
            # right padding: causal attention keeps it from touching the scored positions
            hidden = model.hidden(tokens)[0]
            wanted = [(k, n, t, target) for n in range(len(chunk)) for k in by_row[lo + n]
                      for t, target in zip(asks[k][1], asks[k][2])]
            at = torch.tensor([[n, t] for _, n, t, _ in wanted])
            logp = F.log_softmax(model.lm_head(hidden[at[:, 0], at[:, 1]]).float(), dim=-1)
            picked = logp[torch.arange(len(wanted)), torch.tensor([target for *_, target in wanted])]
            for (k, *_), value in zip(wanted, picked.tolist()):
                scores[k] += value
        return scores

    return score


def last_position(word: str, text: str) -> int:
    """Start of the word's last whole-word, case-insensitive occurrence in text; -1 when absent."""
    hits = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word.lower())}(?!\w)", text.lower())]
    return hits[-1] if hits else -1


def pick(values: Sequence[float]) -> int:
    """Index of the highest value; a tie goes to the earliest."""
    return int(np.argmax(np.asarray(values, dtype=float)))


def nearest_to_query(probe: Probe) -> int:
    """The adjacency heuristic: the candidate whose nearest whole-word occurrence is fewest words away from
    the last mention of the query word (a candidate absent from the context is infinitely far)."""
    words = [w.lower() for w in WORD.findall(probe.context)]
    target = query_word(probe.query).lower()
    mentions = [n for n, w in enumerate(words) if w == target]
    if not mentions:
        return 0
    far = [min((abs(n - mentions[-1]) for n, w in enumerate(words) if w == c.lower()), default=np.inf)
           for c in probe.candidates]
    return pick([-d for d in far])


Baseline = Callable[[Probe], int]


def baselines(probes: Sequence[Probe], counts: Mapping[str, int] | None) -> dict[str, Baseline]:
    """The shortcut strategies, each picking a candidate without a model; those that need a field some item
    lacks (word counts, co-occurrence counts) are left out."""
    found: dict[str, Baseline] = {
        "most_recent": lambda p: pick([last_position(c, p.context) for c in p.candidates]),
        "adjacency": nearest_to_query,
        "first": lambda p: 0,
    }
    if all(p.cooccurrence is not None for p in probes):
        found["cooccurrence"] = lambda p: pick([p.cooccurrence.get(c, 0) for c in p.candidates])
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


def with_ci(values: Sequence[float], groups: Sequence[str], seed: int) -> dict[str, float]:
    low, high = bootstrap_ci(values, groups, seed=seed)
    return {"mean": float(np.mean(values)), "ci_low": low, "ci_high": high}


def adjacent(context: str, span: Span) -> bool:
    """The adjective is within one word of its entity's mention: no word lies between them."""
    (s1, e1), (s2, e2) = sorted([span[:2], span[2:]])
    return not WORD.search(context, e1, max(s2, e1))


def stratum(probe: Probe) -> str | None:
    """pronoun, adjacent or distant (module docstring); None without ``bound``."""
    if probe.bound is None:
        return None
    if probe.via_pronoun:
        return "pronoun"
    return "adjacent" if all(adjacent(probe.context, span) for span in probe.bound) else "distant"


VERSIONS = ("scores", "swapped_scores", "nocontext_scores")


def score_items(probes: Sequence[Probe], logprob: LogProb) -> list[dict[str, Any]]:
    """Every candidate's score of every item in each of its versions (see the module docstring)."""
    asked = []
    for p in probes:
        prefixes = {"scores": p.prefix, "nocontext_scores": p.query}
        if p.bound is not None:
            prefixes["swapped_scores"] = twin(p).prefix
        asked += [(p.id, key, c, prefix) for key, prefix in prefixes.items() for c in p.candidates]
    flat = logprob([(prefix, " " + cand) for _, _, cand, prefix in asked])
    by_item: dict[str, dict[str, dict[str, float]]] = {}
    for (item, key, cand, _), score in zip(asked, flat):
        by_item.setdefault(item, {}).setdefault(key, {})[cand] = score
    return [{"id": p.id, "pair": p.pair, "answer": p.answer, "stratum": stratum(p),
             **{key: by_item[p.id][key] for key in VERSIONS if key in by_item[p.id]}} for p in probes]


def right(probe: Probe, scores: Mapping[str, float], answer: str | None = None) -> bool:
    return probe.candidates[pick([scores[c] for c in probe.candidates])] == (answer or probe.answer)


def pair_margins(probes: Sequence[Probe], items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Delta (module docstring) of every group of exactly two items over the same two candidates with
    different answers: averaged with its twin's Delta when both items have swapped scores."""
    groups: dict[str, list[tuple[Probe, Mapping[str, Any]]]] = {}
    for p, item in zip(probes, items):
        groups.setdefault(p.pair, []).append((p, item))
    found = []
    for pair, members in groups.items():
        if len(members) != 2 or len({p.candidates for p, _ in members}) != 1 or len(members[0][0].candidates) != 2:
            continue
        (pa, ia), (pb, ib) = sorted(members, key=lambda m: m[0].candidates.index(m[0].answer))
        a1, a2 = pa.candidates
        if (pa.answer, pb.answer) != (a1, a2):
            continue

        def delta(key: str) -> float:
            return (ia[key][a1] - ia[key][a2]) - (ib[key][a1] - ib[key][a2])

        twinned = "swapped_scores" in ia and "swapped_scores" in ib
        plain = delta("scores")
        margin = (plain - delta("swapped_scores")) / 2 if twinned else plain  # the twin's answers are exchanged
        found.append({"pair": pair, "margin": margin, "plain_margin": plain, "twinned": twinned,
                      "stratum": ia["stratum"]})
    return found


def swap_figures(probes: Sequence[Probe], hits: Sequence[bool], seed: int) -> dict[str, Any]:
    groups = [p.pair for p in probes]
    return {"n": len(probes), "pairs": len(set(groups)), "accuracy": float(np.mean(hits)),
            **{k: v for k, v in with_ci(hits, groups, seed).items() if k != "mean"},
            "random": float(np.mean([len(p.candidates) ** -2.0 for p in probes]))}


def margin_figures(margins: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    return {"pairs": len(margins), **with_ci([m["margin"] for m in margins], [m["pair"] for m in margins], seed),
            "twinned": all(m["twinned"] for m in margins)}


def summarize(probes: Sequence[Probe], items: Sequence[Mapping[str, Any]], counts: Mapping[str, int] | None = None,
              seed: int = 0) -> dict[str, Any]:
    """Every figure of the module docstring from the items' scores (``score_items``)."""
    groups = [p.pair for p in probes]
    hits = [right(p, i["scores"]) for p, i in zip(probes, items)]
    plain = with_ci(hits, groups, seed)
    nocontext = with_ci([right(p, i["nocontext_scores"]) for p, i in zip(probes, items)], groups, seed)
    result: dict[str, Any] = {
        "n": len(probes), "pairs": len(set(groups)), "accuracy": plain["mean"], "ci_low": plain["ci_low"],
        "ci_high": plain["ci_high"], "chance": float(np.mean([1 / len(p.candidates) for p in probes])),
        "nocontext": {"accuracy": nocontext["mean"], "ci_low": nocontext["ci_low"], "ci_high": nocontext["ci_high"]}}
    swappable = [(p, i) for p, i in zip(probes, items) if "swapped_scores" in i]
    swap_hits = [right(p, i["scores"]) and right(p, i["swapped_scores"], other(p)) for p, i in swappable]
    result["swap"] = swap_figures([p for p, _ in swappable], swap_hits, seed) if swappable else None
    margins = pair_margins(probes, items)
    result["margin"] = margin_figures(margins, seed) if margins else None
    result["strata"] = {}
    for name in ("adjacent", "distant", "pronoun"):
        chosen = [(p, h) for (p, i), h in zip(swappable, swap_hits) if i["stratum"] == name]
        if chosen:
            in_stratum = [m for m in margins if m["stratum"] == name]
            result["strata"][name] = {"swap": swap_figures([p for p, _ in chosen], [h for _, h in chosen], seed),
                                      "margin": margin_figures(in_stratum, seed) if in_stratum else None}
    result["baselines"] = baseline_figures(probes, counts)
    if len(swappable) < len(probes):
        result["note"] = (f"{len(probes) - len(swappable)} of {len(probes)} items have no `bound` offsets, so no "
                          f"swap test or strata for them: {REBUILD}")
    result["pair_margins"] = margins
    return result


def headline(result: Mapping[str, Any]) -> dict[str, float]:
    """A result's binding figures as flat numbers: swap-test accuracy and its random level, the margin and its
    interval (absent when the file gives none)."""
    found = {}
    if result.get("swap"):
        found |= {"swap_accuracy": result["swap"]["accuracy"], "swap_random": result["swap"]["random"]}
    if result.get("margin"):
        found |= {"margin": result["margin"]["mean"], "margin_ci_low": result["margin"]["ci_low"],
                  "margin_ci_high": result["margin"]["ci_high"]}
    return found


def evaluate(probes: Sequence[Probe], logprob: LogProb, counts: Mapping[str, int] | None = None,
             seed: int = 0) -> dict[str, Any]:
    """The figures (``summarize``) and every item's scores with its prediction on each version."""
    items = score_items(probes, logprob)
    for p, item in zip(probes, items):
        item["predicted"] = p.candidates[pick([item["scores"][c] for c in p.candidates])]
        item["right"] = item["predicted"] == p.answer
        if "swapped_scores" in item:
            item["swapped_right"] = right(p, item["swapped_scores"], other(p))
    return summarize(probes, items, counts, seed) | {"items": items}


def baseline_figures(probes: Sequence[Probe], counts: Mapping[str, int] | None) -> dict[str, dict[str, float]]:
    """Each baseline's accuracy and, on the items with ``bound``, its swap-test accuracy."""
    swappable = [p for p in probes if p.bound is not None]
    twins = [twin(p) for p in swappable]
    found = {}
    for name, f in baselines(probes, counts).items():
        found[name] = {"accuracy": float(np.mean([p.candidates[f(p)] == p.answer for p in probes]))}
        if swappable:
            found[name]["swap_accuracy"] = float(np.mean([p.candidates[f(p)] == p.answer and
                                                          t.candidates[f(t)] == t.answer
                                                          for p, t in zip(swappable, twins)]))
    return found


def baseline_accuracy(probes: Sequence[Probe], counts: Mapping[str, int] | None) -> dict[str, float]:
    """Each baseline's accuracy alone (no model): what the probe-set builder checks against chance."""
    return {name: figures["accuracy"] for name, figures in baseline_figures(probes, counts).items()}
