"""Held-out measures of a trained model for the real-text experiment (benchmarks/real_text.py).

Passages are cut into windows exactly as in training (training.data.windows: block_size + 1 tokens,
overlapping by one), so every token after a passage's first is predicted once, from its own window.

- Perplexity: exp(mean next-token NLL) over the valid passages' predicted tokens.
- Attribute tokens at re-mentions: the predicted tokens whose first non-space character lies in the
  adjective of a binding accepted by the LabelModel run (p_lm > its threshold, not negated) whose
  entity was mentioned before the binding's own mention (some mention of the same ``ent_id``, a
  candidate's entity token or a pronoun's antecedent, at a lower token index). Their perplexity asks:
  does the model predict the attribute better when the entity it belongs to is being tracked?
- Linear decodability: for each register slot, a fresh multinomial logistic regression on the frozen
  final-LayerNorm output at each input token predicts the slot's label (the attribute currently bound to
  the slot's entity, from the LabelModel registers), on the tokens where the slot holds one of the
  ``top_classes`` (20) most frequent attributes of the fitting positions (OTHER excluded; up to
  ``max_examples`` tokens per slot and split, drawn with a seed; a probe over the full vocabulary costs
  minutes per slot on 2 cores). Fitted on the valid passages, scored on the test passages
  (both held out from training). Control task (Hewitt &
  Liang 2019): the same probe fitted to a label drawn at random per input token type (seeded, from the
  task's label distribution); selectivity = task accuracy - control accuracy. The majority class's
  accuracy is reported too.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from tokenizers import Tokenizer

from pipeline.core.registers import is_binding
from pipeline.core import schemas as S
from pipeline.core.io import read_metadata, read_parquet
from training import checkpoint
from training.data import LabeledRun, load_run
from training.model import GPT
from training.tokenizer import align

NLL_BATCH = 32


@dataclass
class Passage:
    doc_id: str
    text: str
    offsets: list[tuple[int, int]]  # char span of each BPE token
    ids: np.ndarray                 # (n,) token ids
    nll: np.ndarray                 # (n,) NLL of token t given the tokens before it; NaN at t = 0
    hidden: np.ndarray              # (n, d) final LayerNorm output at token t as an input; NaN for the last


@torch.no_grad()
def run_passages(model: GPT, tokenizer: Tokenizer, docs: pd.DataFrame, keep_hidden: bool) -> list[Passage]:
    """Per-token NLL (and hidden states) of every passage, windowed as in training."""
    block, captured = model.config.block_size, {}
    hook = model.ln_f.register_forward_hook(lambda _m, _i, out: captured.update(h=out))
    passages, pieces = [], []  # pieces: (passage index, window start, ids)
    for doc_id, text, enc in zip(docs["doc_id"], docs["text"], tokenizer.encode_batch(list(docs["text"]))):
        ids = np.array(enc.ids, dtype=np.int64)
        d = model.config.d_model if keep_hidden else 0
        passages.append(Passage(doc_id, text, enc.offsets, ids, np.full(len(ids), np.nan),
                                np.full((len(ids), d), np.nan, dtype=np.float32)))
        pieces += [(len(passages) - 1, lo, ids[lo:lo + block + 1]) for lo in range(0, max(len(ids) - 1, 0), block)]
    try:
        for lo in range(0, len(pieces), NLL_BATCH):
            chunk = pieces[lo:lo + NLL_BATCH]
            width = max(len(p) for _, _, p in chunk)
            tokens = torch.zeros((len(chunk), width), dtype=torch.long)
            for row, (_, _, piece) in enumerate(chunk):
                tokens[row, :len(piece)] = torch.from_numpy(piece)
            logits = model(tokens[:, :-1]).logits.float()
            nll = F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none").numpy()
            hidden = captured["h"].float().numpy()
            for row, (index, start, piece) in enumerate(chunk):
                n = len(piece) - 1
                passages[index].nll[start + 1:start + 1 + n] = nll[row, :n]
                if keep_hidden:
                    passages[index].hidden[start:start + n] = hidden[row, :n]
    finally:
        hook.remove()
    return passages


def first_chars(text: str, offsets: list[tuple[int, int]]) -> np.ndarray:
    """Each token's first non-whitespace character (its end when it is all whitespace)."""
    return np.array([s + len(text[s:e]) - len(text[s:e].lstrip()) for s, e in offsets], dtype=np.int64)


def remention_spans(run_dir: Path, doc_ids: set[str]) -> dict[str, list[tuple[int, int]]]:
    """Per passage, the char spans of adjectives of accepted bindings whose entity was mentioned before."""
    cands = read_parquet(run_dir / S.CANDIDATES, ["doc_id", "ent_id", "ent_i", "antecedent_i", "attr_start",
                                                  "attr_end", "negated"], "candidates", S.SCHEMA_VERSION)
    p_lm = read_parquet(run_dir / S.BINDINGS, ["p_lm"], "bindings", S.SCHEMA_VERSION)["p_lm"].to_numpy()
    threshold = read_metadata(run_dir / S.BINDINGS).get("threshold", 0.5)
    cands = cands.assign(p_lm=p_lm)[cands["doc_id"].isin(doc_ids).to_numpy()]
    mentions = pd.concat([cands[["doc_id", "ent_id", "ent_i"]],
                          cands.loc[cands["antecedent_i"] >= 0, ["doc_id", "ent_id", "antecedent_i"]]
                          .rename(columns={"antecedent_i": "ent_i"})])
    first = mentions.groupby(["doc_id", "ent_id"])["ent_i"].min().rename("first_i")
    bound = cands[is_binding(cands["p_lm"], threshold) & ~cands["negated"]].join(first, on=["doc_id", "ent_id"])
    bound = bound[bound["first_i"] < bound["ent_i"]]
    return {d: list(zip(g["attr_start"], g["attr_end"])) for d, g in bound.groupby("doc_id")}


def perplexities(passages: list[Passage], spans: dict[str, list[tuple[int, int]]]) -> dict[str, Any]:
    """Overall and re-mention-attribute perplexity, with token counts."""
    all_nll, attr_nll = [], []
    for p in passages:
        all_nll.append(p.nll[1:])
        chars = first_chars(p.text, p.offsets)
        inside = np.zeros(len(chars), dtype=bool)
        for start, end in spans.get(p.doc_id, []):
            inside |= (chars >= start) & (chars < end)
        inside[0] = False
        attr_nll.append(p.nll[inside])
    overall, attribute = np.concatenate(all_nll), np.concatenate(attr_nll)
    return {"ppl": float(np.exp(overall.mean())), "tokens": int(overall.size),
            "ppl_attr_remention": float(np.exp(attribute.mean())) if attribute.size else None,
            "attr_remention_tokens": int(attribute.size)}


def slot_examples(passages: list[Passage], run: LabeledRun) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hidden (N, d), labels (N, K), token ids (N,)) at every input position of the passages."""
    empty = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, run.slots), np.int64),
             np.zeros((0, run.slots), np.float32))
    hidden, labels, ids = [], [], []
    for p in passages:
        lab, _ = align(p.text, p.offsets, *run.spans.get(p.doc_id, empty))
        hidden.append(p.hidden[:-1])
        labels.append(lab[:-1])
        ids.append(p.ids[:-1])
    return np.concatenate(hidden), np.concatenate(labels), np.concatenate(ids)


def fit_score(x_fit: np.ndarray, y_fit: np.ndarray, x_eval: np.ndarray, y_eval: np.ndarray, seed: int) -> float:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if len(np.unique(y_fit)) < 2:
        return float(np.mean(y_eval == y_fit[0]))
    probe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=200, random_state=seed))
    return float(probe.fit(x_fit, y_fit).score(x_eval, y_eval))


def control_labels(ids: np.ndarray, classes: np.ndarray, seed: int) -> dict[int, int]:
    """A random label per token type, drawn from the task's label distribution (Hewitt & Liang)."""
    rng = np.random.default_rng(seed)
    types = np.unique(ids)
    return dict(zip(types.tolist(), rng.choice(classes, size=len(types)).tolist()))


def frequent_classes(labels: np.ndarray, top: int) -> np.ndarray:
    """The ``top`` most frequent attribute classes (OTHER and NOTHING excluded) among ``labels``."""
    attrs = labels[labels > S.OTHER_ID]
    values, counts = np.unique(attrs, return_counts=True)
    return values[np.argsort(-counts, kind="stable")[:top]]


def decodability(fit: list[Passage], evaluate: list[Passage], run: LabeledRun, max_examples: int = 2000,
                 top_classes: int = 20, seed: int = 0) -> dict[str, Any]:
    """Per slot: probe, control and majority accuracy on ``evaluate`` of probes fitted on ``fit``."""
    x_fit, y_fit, t_fit = slot_examples(fit, run)
    x_eval, y_eval, t_eval = slot_examples(evaluate, run)
    rng, per_slot = np.random.default_rng(seed), []
    for k in range(run.slots):
        kept = frequent_classes(y_fit[:, k], top_classes)
        on_fit, on_eval = np.flatnonzero(np.isin(y_fit[:, k], kept)), np.flatnonzero(np.isin(y_eval[:, k], kept))
        if len(on_fit) < 20 or len(on_eval) < 20:
            continue  # too few positions to fit or score
        on_fit = rng.choice(on_fit, min(max_examples, len(on_fit)), replace=False)
        on_eval = rng.choice(on_eval, min(max_examples, len(on_eval)), replace=False)
        labels, targets = y_fit[on_fit, k], y_eval[on_eval, k]
        control = control_labels(np.concatenate([t_fit[on_fit], t_eval[on_eval]]), labels, seed + k)
        c_fit, c_eval = (np.array([control[t] for t in tokens]) for tokens in (t_fit[on_fit], t_eval[on_eval]))
        values, counts = np.unique(labels, return_counts=True)
        task = fit_score(x_fit[on_fit], labels, x_eval[on_eval], targets, seed)
        ctrl = fit_score(x_fit[on_fit], c_fit, x_eval[on_eval], c_eval, seed)
        per_slot.append({"slot": k, "fit": len(on_fit), "eval": len(on_eval), "accuracy": task,
                         "control_accuracy": ctrl, "selectivity": task - ctrl,
                         "majority_accuracy": float(np.mean(targets == values[counts.argmax()]))})
    weights = np.array([s["eval"] for s in per_slot], dtype=float)

    def pooled(key: str) -> float | None:
        return float(np.average([s[key] for s in per_slot], weights=weights)) if per_slot else None

    return {"slots": per_slot, **{k: pooled(k) for k in ("accuracy", "control_accuracy", "selectivity",
                                                           "majority_accuracy")}}


def measure(checkpoint_path: Path, labels_dir: Path, max_examples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Valid perplexities and valid->test linear decodability of a checkpoint, against ``labels_dir`` (the
    LabelModel run: its registers and candidates define the targets for every arm)."""
    model, tokenizer, _ = checkpoint.load_model(checkpoint_path)
    run = load_run(labels_dir)
    docs = {split: run.docs[run.docs["split"] == split] for split in ("valid", "test")}
    valid = run_passages(model, tokenizer, docs["valid"], keep_hidden=True)
    test = run_passages(model, tokenizer, docs["test"], keep_hidden=True)
    return {"valid": perplexities(valid, remention_spans(Path(labels_dir), set(docs["valid"]["doc_id"]))),
            "decodability": decodability(valid, test, run, max_examples=max_examples, seed=seed)}
