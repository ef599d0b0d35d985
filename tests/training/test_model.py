"""The model: shapes, causality, padding masked out of the CE, register heads as a pure side output."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from pipeline.core.config_loader import build_config
from pipeline.core.errors import UserError
from training.model import GPT, IGNORE, ModelConfig

CONFIG = ModelConfig(n_layer=2, n_head=2, d_model=16, block_size=12, vocab_size=30, n_slots=3, n_classes=5)


def model(**changes) -> GPT:
    torch.manual_seed(0)
    return GPT(ModelConfig(**{**CONFIG.__dict__, **changes})).eval()


def test_shapes():
    idx = torch.randint(0, 30, (4, 12))
    out = model()(idx)
    assert out.logits.shape == (4, 12, 30)
    assert out.reg_logits.shape == (4, 12, 3, 5)
    assert out.ce_loss is None and out.reg_loss is None


def test_causal():
    m, idx = model(), torch.randint(0, 30, (2, 10))
    changed = idx.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % 30
    a, b = m(idx), m(changed)
    assert torch.equal(a.logits[:, :6], b.logits[:, :6])
    assert torch.equal(a.reg_logits[:, :6], b.reg_logits[:, :6])
    assert not torch.allclose(a.logits[:, 6:], b.logits[:, 6:])


@pytest.mark.parametrize("reg_layer", [-1, 0, 1])
def test_zeroed_register_heads_leave_lm_logits_bit_identical(reg_layer):
    m, idx = model(reg_layer=reg_layer), torch.randint(0, 30, (3, 12))
    before = m(idx)
    with torch.no_grad():
        m.reg_head.weight.zero_()
        m.reg_head.bias.zero_()
    after = m(idx)
    assert torch.equal(before.logits, after.logits)
    assert torch.count_nonzero(after.reg_logits) == 0


def test_register_heads_read_the_chosen_layer():
    final, first = model(reg_layer=-1), model(reg_layer=0)
    first.load_state_dict(final.state_dict())
    idx = torch.randint(0, 30, (2, 8))
    assert torch.equal(final(idx).logits, first(idx).logits)
    assert not torch.allclose(final(idx).reg_logits, first(idx).reg_logits)


def test_ce_ignores_padding_targets():
    m, idx = model(), torch.randint(0, 30, (2, 8))
    targets = torch.randint(0, 30, (2, 8))
    targets[1, 5:] = IGNORE
    out = m(idx, targets)
    keep = targets != IGNORE
    expected = F.cross_entropy(out.logits[keep], targets[keep])
    torch.testing.assert_close(out.ce_loss, expected)


def test_init_std():
    m = GPT(ModelConfig(n_layer=2, n_head=4, d_model=256, vocab_size=2000, n_slots=1, n_classes=3))
    assert abs(m.wte.weight.std().item() - 0.02) < 1e-3
    assert abs(m.blocks[0].mlp.fc.weight.std().item() - 0.02) < 1e-3


def test_config_problems_are_all_reported():
    with pytest.raises(UserError) as err:
        build_config(ModelConfig, {"n_layer": 0, "d_model": 30, "n_head": 4, "reg_layer": 5})
    message = str(err.value)
    assert "3 problem(s)" in message and "n_layer" in message and "d_model 30" in message
    assert "reg_layer 5" in message


def test_sequence_longer_than_context_is_rejected():
    with pytest.raises(ValueError, match="block_size 12"):
        model()(torch.zeros(1, 13, dtype=torch.long))


def test_published_architecture_options():
    tied, published = model(), model(tie_head=False, bias=True)
    assert tied.lm_head.weight is tied.wte.weight and tied.lm_head.bias is None
    assert tied.blocks[0].mlp.fc.bias is None
    assert published.lm_head.weight is not published.wte.weight
    assert published.lm_head.bias is not None and published.blocks[0].mlp.fc.bias is not None
    assert published.blocks[0].attn.qkv.bias is None  # attention never has biases
    extra = 30 * 16 + 30 + 2 * (4 * 16 + 16)  # untied head, its bias, the two MLP biases of each block
    count = lambda m: sum(p.numel() for p in m.parameters())
    assert count(published) - count(tied) == extra
    out = published(torch.randint(0, 30, (2, 8)), torch.randint(0, 30, (2, 8)))
    out.ce_loss.backward()
    assert published.lm_head.bias.grad is not None and published.lm_head.weight.grad is not None
