"""Checkpoints: everything a resumed run needs to continue exactly, and a loader for later analysis.

A checkpoint holds only tensors, numbers, strings and dicts/lists/tuples of them, and is read with
torch.load(weights_only=True): a checkpoint from someone else cannot run code when it is loaded.
"""
from __future__ import annotations

import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from tokenizers import Tokenizer

from pipeline.core.config_loader import build_config
from pipeline.core.errors import UserError
from pipeline.core.io import atomic_path
from training.config import TrainConfig
from training.model import GPT
from training.probes import Probe, evaluate, model_logprob

CKPT = "ckpt.pt"


def step_path(out: Path, step: int) -> Path:
    return Path(out) / f"ckpt-{step}.pt"


PLAIN = (torch.Tensor, str, int, float, bool, type(None))


def not_plain(obj: Any, where: str = "state") -> str | None:
    """Where ``obj`` holds a value that torch.load(weights_only=True) would refuse, or None."""
    if isinstance(obj, dict):
        items = [(f"{where} key {k!r}", k) for k in obj] + [(f"{where}[{k!r}]", v) for k, v in obj.items()]
    elif isinstance(obj, (list, tuple)):
        items = [(f"{where}[{n}]", v) for n, v in enumerate(obj)]
    else:
        return None if isinstance(obj, PLAIN) else f"{where} is a {type(obj).__module__}.{type(obj).__name__}"
    return next((found for inner, value in items if (found := not_plain(value, inner))), None)


def save(path: Path, state: dict[str, Any]) -> None:
    """Write a checkpoint atomically. ``state`` holds: step, done, config (dict), tokenizer (JSON),
    register_vocab, train_word_counts (the train split's word counts, for the probes' frequency
    baseline), model, optimizer, scheduler, sampler and rng states."""
    problem = not_plain(state)
    if problem:  # a bug in the caller: such a checkpoint could not be read back
        raise TypeError(f"checkpoint {path}: {problem}; only tensors and plain values may be saved")
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:  # a file object: no temp name inside the archive
        torch.save(canonical(state), fh)


def canonical(obj: Any) -> Any:
    """``obj`` with every string interned and every container rebuilt, so that equal states pickle to equal
    bytes: pickle writes a string that appears twice once, by object identity, and a resumed run's keys are
    strings read back from a checkpoint rather than the literals of an unbroken run."""
    if isinstance(obj, str):
        return sys.intern(obj)
    if isinstance(obj, dict):
        out = type(obj)((canonical(k), canonical(v)) for k, v in obj.items())
        if hasattr(obj, "_metadata"):  # a module state dict's per-module versions
            out._metadata = canonical(obj._metadata)
        return out
    if isinstance(obj, (list, tuple)):
        return type(obj)(canonical(v) for v in obj)
    return obj


def rng_state() -> dict[str, Any]:
    return {"torch": torch.get_rng_state(),
            "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else []}


def set_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    if state["cuda"]:
        torch.cuda.set_rng_state_all(state["cuda"])


def read(path: Path) -> dict[str, Any]:
    """A checkpoint file, or the ckpt.pt of a training folder."""
    path = Path(path)
    if path.is_dir():
        path = path / CKPT
    if not path.exists():
        raise UserError(f"checkpoint {path} does not exist; train first or pass a folder that holds {CKPT}")
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise UserError(f"checkpoint {path} holds objects other than tensors and plain values (or is no "
                        "checkpoint); it is refused because loading such objects could run code: use a "
                        "checkpoint written by regscaffold train") from None
    except Exception as exc:
        raise UserError(f"checkpoint {path} cannot be read ({exc}); it is damaged or not a checkpoint; "
                        "retrain or resume from another one") from None


def load_model(path: Path) -> tuple[GPT, Tokenizer, TrainConfig]:
    """(model in eval mode on CPU, its tokenizer, its resolved config) from a checkpoint or training folder.

    The register class names are ``read(path)["register_vocab"]``.
    """
    return from_state(read(path), path)


def from_state(state: dict[str, Any], source: Path) -> tuple[GPT, Tokenizer, TrainConfig]:
    """load_model for a checkpoint already read (``source`` names it in errors)."""
    config = build_config(TrainConfig, state["config"], source=f"{source} (config)")
    model = GPT(config.model)
    model.load_state_dict(state["model"])
    return model.eval(), Tokenizer.from_str(state["tokenizer"]), config


EXPORTED = ("step", "done", "config", "tokenizer", "register_vocab", "train_word_counts")
"""What an export keeps beside the weights: all that load_model and evaluate_checkpoint read."""


def export_half(source: Path, target: Path) -> None:
    """A checkpoint for others to score: its weights in half precision (floating tensors only) and what
    loading needs (EXPORTED), without the optimizer, sampler and RNG states, so it cannot be resumed. It is
    read like any checkpoint (weights_only; load_state_dict casts the weights back to the model's fp32)."""
    state = read(source)
    weights = {k: v.half() if v.is_floating_point() else v for k, v in state["model"].items()}
    save(Path(target), {k: state[k] for k in EXPORTED if k in state} | {"model": weights, "exported_from": str(source)})


def evaluate_checkpoint(path: Path, probes: Sequence[Probe], seed: int = 0) -> dict[str, Any]:
    """training.probes.evaluate with a saved model; the frequency baseline uses the train split's word counts
    saved with it (absent in checkpoints older than the probes: that baseline is then left out)."""
    state = read(path)
    model, tokenizer, _ = from_state(state, path)
    return evaluate(probes, model_logprob(model, tokenizer), state.get("train_word_counts"), seed=seed)
