"""The register loss: masking and every option (confidence weight, soft targets, threshold, smoothing, lambda 0)."""
from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from pipeline.core.config_loader import build_config
from pipeline.core.errors import UserError
from training.loss import LossConfig, register_loss, register_targets
from training.model import GPT, ModelConfig

C = 4
LABELS = torch.tensor([[[2, 0], [3, 1]]])      # (B=1, T=2, K=2)
CONF = torch.tensor([[[0.8, 1.0], [0.4, 1.0]]])
VALID = torch.tensor([[True, True]])
LOGITS = torch.log_softmax(torch.arange(16, dtype=torch.float32).view(1, 2, 2, 4).sin(), -1)


def loss(config: LossConfig, valid: torch.Tensor = VALID) -> float:
    return register_loss(LOGITS, register_targets(LABELS, CONF, valid, C, config)).item()


def nll(t: int, k: int, c: int) -> float:
    return -LOGITS[0, t, k, c].item()


def test_hard_labels_average_every_slot_and_position():
    expected = (nll(0, 0, 2) + nll(0, 1, 0) + nll(1, 0, 3) + nll(1, 1, 1)) / 4
    assert loss(LossConfig()) == pytest.approx(expected, rel=1e-6)
    torch.testing.assert_close(torch.tensor(loss(LossConfig())),
                               F.cross_entropy(LOGITS.view(-1, C), LABELS.view(-1)))


def test_padding_positions_are_left_out():
    expected = (nll(0, 0, 2) + nll(0, 1, 0)) / 2
    assert loss(LossConfig(), torch.tensor([[True, False]])) == pytest.approx(expected, rel=1e-6)


def test_no_kept_entry_gives_zero_not_nan():
    assert loss(LossConfig(), torch.tensor([[False, False]])) == 0.0


def test_confidence_weighting():
    expected = (0.8 * nll(0, 0, 2) + nll(0, 1, 0) + 0.4 * nll(1, 0, 3) + nll(1, 1, 1)) / 4
    assert loss(LossConfig(confidence="weight")) == pytest.approx(expected, rel=1e-6)


def test_soft_targets_put_the_rest_on_nothing():
    first = 0.8 * nll(0, 0, 2) + 0.2 * nll(0, 0, 0)
    third = 0.4 * nll(1, 0, 3) + 0.6 * nll(1, 0, 0)
    expected = (first + nll(0, 1, 0) + third + nll(1, 1, 1)) / 4
    assert loss(LossConfig(confidence="soft")) == pytest.approx(expected, rel=1e-6)


def test_threshold_drops_low_confidence_labels():
    expected = (nll(0, 0, 2) + nll(0, 1, 0) + nll(1, 1, 1)) / 3
    assert loss(LossConfig(min_conf=0.5)) == pytest.approx(expected, rel=1e-6)


def test_label_smoothing_matches_torch():
    expected = F.cross_entropy(LOGITS.view(-1, C), LABELS.view(-1), label_smoothing=0.1).item()
    assert loss(LossConfig(label_smoothing=0.1)) == pytest.approx(expected, rel=1e-6)


def test_loss_config_problems():
    with pytest.raises(UserError, match="4 problem"):
        build_config(LossConfig, {"aux_weight": -1, "confidence": "fuzzy", "min_conf": 2, "label_smoothing": 1})


def test_lambda_zero_is_plain_cross_entropy():
    """With aux_weight 0 every LM parameter gets exactly the gradient of the CE alone."""
    torch.manual_seed(0)
    model = GPT(ModelConfig(n_layer=1, n_head=2, d_model=8, block_size=6, vocab_size=11, n_slots=2, n_classes=C))
    idx, targets = torch.randint(0, 11, (2, 6)), torch.randint(0, 11, (2, 6))
    regs = register_targets(torch.randint(0, C, (2, 6, 2)), torch.ones(2, 6, 2), torch.ones(2, 6, dtype=torch.bool),
                            C, LossConfig())

    def grads(weight: float | None) -> dict[str, torch.Tensor]:
        model.zero_grad()
        out = model(idx, targets, regs)
        (out.ce_loss if weight is None else out.ce_loss + weight * out.reg_loss).backward()
        return {n: p.grad.clone() for n, p in model.named_parameters() if not n.startswith("reg_head")}

    plain, zero, half = grads(None), grads(0.0), grads(0.5)
    assert all(torch.equal(plain[n], zero[n]) for n in plain)
    assert not all(torch.equal(plain[n], half[n]) for n in plain)
    assert math.isfinite(model(idx, targets, regs).reg_loss.item())
