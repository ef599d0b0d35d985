"""The auxiliary register loss and its options.

Per slot cross-entropy of the register heads against the slot's label at each position, averaged over
every kept (position, slot) entry: all slots at non-padding positions, less any label below the
confidence threshold. Targets are built as dense class distributions so that hard labels, soft
targets and label smoothing share one formula.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from pipeline.core.schemas import NOTHING_ID

CONFIDENCE_MODES = ("none", "weight", "soft")


@dataclass
class LossConfig:
    aux_weight: float = 0.5
    """lambda: total loss = next-token CE + lambda x register loss; 0 trains plain CE."""
    confidence: str = "none"
    """How label confidence enters: none (hard labels), weight (each entry's CE is scaled by its
    confidence) or soft (target puts the confidence on the label and the rest on NOTHING)."""
    min_conf: float = 0.0
    """Labels with confidence below this are left out of the register loss."""
    label_smoothing: float = 0.0
    """Mix this much of the uniform distribution into every register target."""

    def problems(self) -> list[str]:
        found = []
        if self.aux_weight < 0:
            found.append(f"aux_weight must be >= 0, got {self.aux_weight}")
        if self.confidence not in CONFIDENCE_MODES:
            found.append(f"confidence {self.confidence!r} is not one of {', '.join(CONFIDENCE_MODES)}")
        if not 0.0 <= self.min_conf <= 1.0:
            found.append(f"min_conf must be in [0, 1], got {self.min_conf}")
        if not 0.0 <= self.label_smoothing < 1.0:
            found.append(f"label_smoothing must be in [0, 1), got {self.label_smoothing}")
        return found


@dataclass
class RegisterTargets:
    probs: torch.Tensor   # (B, T, K, C) target distribution of each slot
    weight: torch.Tensor  # (B, T, K) multiplier of each entry's CE; 0 where left out
    count: torch.Tensor   # scalar: number of kept entries, the mean's denominator


def register_targets(labels: torch.Tensor, conf: torch.Tensor, valid: torch.Tensor, n_classes: int,
                     config: LossConfig) -> RegisterTargets:
    """labels (B, T, K) class ids, conf (B, T, K) in [0, 1], valid (B, T) False at padding."""
    keep = valid.unsqueeze(-1) & (conf >= config.min_conf)  # (B, T, K)
    probs = F.one_hot(labels.long(), n_classes).float()  # (B, T, K, C)
    if config.confidence == "soft":
        # the aggregated probability that the label is right; otherwise the slot holds nothing
        probs = probs * conf.unsqueeze(-1)
        probs[..., NOTHING_ID] += 1.0 - conf
    if config.label_smoothing:
        probs = probs * (1.0 - config.label_smoothing) + config.label_smoothing / n_classes
    weight = conf.float() if config.confidence == "weight" else torch.ones_like(conf, dtype=torch.float32)
    return RegisterTargets(probs, weight * keep, keep.sum())


def register_loss(reg_logits: torch.Tensor, targets: RegisterTargets) -> torch.Tensor:
    """reg_logits (B, T, K, C) -> scalar mean CE over kept entries (0 when none is kept)."""
    log_probs = F.log_softmax(reg_logits.float(), dim=-1)
    ce = -(targets.probs * log_probs).sum(-1)  # (B, T, K)
    return (ce * targets.weight).sum() / targets.count.clamp(min=1)
