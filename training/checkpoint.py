"""Checkpoints: everything a resumed run needs to continue exactly, and a loader for later analysis."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from tokenizers import Tokenizer

from pipeline.config import build_config
from pipeline.errors import UserError
from pipeline.io import atomic_path
from training.config import TrainConfig
from training.model import GPT

CKPT = "ckpt.pt"


def step_path(out: Path, step: int) -> Path:
    return Path(out) / f"ckpt-{step}.pt"


def save(path: Path, state: dict[str, Any]) -> None:
    """Write a checkpoint atomically. ``state`` holds: step, done, config (dict), tokenizer (JSON),
    register_vocab, train_word_counts (the train split's word counts, for the probes' frequency
    baseline), model, optimizer, scheduler, sampler and rng states."""
    with atomic_path(path) as tmp:
        torch.save(state, tmp)


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
        # our own files: they hold numpy RNG state and plain dicts besides tensors
        return torch.load(path, map_location="cpu", weights_only=False)
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
