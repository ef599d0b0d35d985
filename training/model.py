"""A small causal transformer (nanoGPT style) with auxiliary register heads.

Pre-LayerNorm blocks with rotary position embeddings, a final LayerNorm and an LM head tied to the
token embedding (defaults; ``tie_head`` and ``bias`` give the published synthetic model's untied output
layer with a bias and its MLP biases). The register heads are K linear maps (one fused Linear) from a hidden state to the
register classes; they are a pure side output, so the LM logits never depend on them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F

from training.loss import RegisterTargets, register_loss

IGNORE = -100  # target id that cross-entropy skips (padding)


@dataclass
class ModelConfig:
    n_layer: int = 4
    """Number of transformer blocks."""
    n_head: int = 4
    """Attention heads per block; must divide d_model, and d_model / n_head must be even (RoPE)."""
    d_model: int = 256
    """Width of the residual stream."""
    block_size: int = 64
    """Context length in tokens; longer passages are cut into windows of this length."""
    reg_layer: int = -1
    """Hidden state the register heads read: -1 = the final LayerNorm output, i = the output of block i."""
    vocab_size: int = 0
    """Token vocabulary size; 0 = taken from the tokenizer (the resolved config records the value)."""
    n_slots: int = 0
    """Register slots K; 0 = taken from the labels."""
    n_classes: int = 0
    """Register classes per slot (NOTHING, OTHER, attributes...); 0 = taken from the labels."""
    tie_head: bool = True
    """The LM head shares the token embedding's weights (nanoGPT); false = a separate output layer, as
    in the published synthetic model."""
    bias: bool = False
    """MLP layers and the LM head carry biases (initialised to zero), as in the published synthetic
    model; attention projections never do."""

    def problems(self) -> list[str]:
        found = [f"{name} must be >= 1, got {getattr(self, name)}"
                 for name in ("n_layer", "n_head", "d_model", "block_size") if getattr(self, name) < 1]
        found += [f"{name} must be >= 0, got {getattr(self, name)}"
                  for name in ("vocab_size", "n_slots", "n_classes") if getattr(self, name) < 0]
        if self.n_head >= 1 and (self.d_model % self.n_head or (self.d_model // self.n_head) % 2):
            found.append(f"d_model {self.d_model} / n_head {self.n_head} must be a whole even number "
                         "(RoPE rotates pairs of dimensions); change d_model or n_head")
        if not -1 <= self.reg_layer < self.n_layer:
            found.append(f"reg_layer {self.reg_layer} must be -1 (final LayerNorm) or a block index "
                         f"0..{self.n_layer - 1}")
        return found


class ModelOutput(NamedTuple):
    logits: torch.Tensor       # (B, T, vocab_size)
    reg_logits: torch.Tensor   # (B, T, K, C)
    ce_loss: torch.Tensor | None   # scalar: next-token cross-entropy over non-padding targets
    reg_loss: torch.Tensor | None  # scalar: register loss (see training.loss)


def rope_tables(head_dim: int, length: int, base: float = 10000.0) -> tuple[torch.Tensor, torch.Tensor]:
    inv_freq = 1.0 / base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)
    angles = torch.outer(torch.arange(length, dtype=torch.float32), inv_freq)  # (T, hd/2)
    return angles.cos(), angles.sin()


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate (first half, second half) pairs of x (B, nh, T, hd) by position-dependent angles."""
    T, half = x.size(-2), x.size(-1) // 2
    x1, x2 = x[..., :half], x[..., half:]
    c, s = cos[:T], sin[:T]
    # the fp32 tables would promote bf16 activations under autocast; cast back for attention
    return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c], dim=-1).type_as(x)


class CausalSelfAttention(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.n_head = config.n_head
        self.qkv = nn.Linear(config.d_model, 3 * config.d_model, bias=False)
        self.proj = nn.Linear(config.d_model, config.d_model, bias=False)
        cos, sin = rope_tables(config.d_model // config.n_head, config.block_size)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)  # each (B, T, C)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        q, k = apply_rope(q, self.cos, self.sin), apply_rope(k, self.cos, self.sin)  # (B, nh, T, hd)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hd)
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


class MLP(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.fc = nn.Linear(config.d_model, 4 * config.d_model, bias=config.bias)
        self.proj = nn.Linear(4 * config.d_model, config.d_model, bias=config.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(F.gelu(self.fc(x)))


class Block(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.d_model)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.d_model)
        self.mlp = MLP(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        problems = config.problems() + [f"{n} must be set (> 0) before building the model"
                                        for n in ("vocab_size", "n_slots", "n_classes")
                                        if getattr(config, n) < 1]
        if problems:
            raise ValueError("; ".join(problems))
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.d_model)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layer))
        self.ln_f = nn.LayerNorm(config.d_model)
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=config.bias)
        if config.tie_head:
            self.lm_head.weight = self.wte.weight
        self.reg_head = nn.Linear(config.d_model, config.n_slots * config.n_classes)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def hidden(self, idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(final hidden states after ln_f, the register heads' input), each (B, T, d), of idx (B, T)."""
        if idx.size(1) > self.config.block_size:
            raise ValueError(f"sequence of {idx.size(1)} tokens exceeds block_size {self.config.block_size}")
        x = self.wte(idx)  # (B, T, d)
        reg_in = None
        for i, block in enumerate(self.blocks):
            x = block(x)
            if i == self.config.reg_layer:
                reg_in = x
        x = self.ln_f(x)
        return x, x if reg_in is None else reg_in

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None,
                registers: RegisterTargets | None = None) -> ModelOutput:
        """idx (B, T) token ids; targets (B, T) next-token ids with IGNORE at padding."""
        B, T = idx.size()
        x, reg_in = self.hidden(idx)
        logits = self.lm_head(x)  # (B, T, vocab)
        reg_logits = self.reg_head(reg_in).view(B, T, self.config.n_slots, self.config.n_classes)
        ce_loss = reg_loss_value = None
        if targets is not None:
            ce_loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), targets.view(-1),
                                      ignore_index=IGNORE)
        if registers is not None:
            reg_loss_value = register_loss(reg_logits, registers)
        return ModelOutput(logits, reg_logits, ce_loss, reg_loss_value)
