"""Rotary position embeddings (RoPE), in PyTorch: adjacent pairs."""

import torch
from torch import Tensor, nn


class RotaryEmbedding(nn.Module):
    """Turns pair (x[..., 2i], x[..., 2i+1]) of the row at position p
    by the angle p w_i, w_i = base^(-2i/d); x of shape (..., n, d)."""

    def __init__(self, d: int, base: float = 1e4):
        super().__init__()
        if d % 2:
            raise ValueError(f"d must be even, got {d}")
        self.d, self.base = d, base

    def forward(self, x: Tensor, positions: Tensor) -> Tensor:
        # Angles in float64, made here (a buffer would follow .half()).
        d, f64 = self.d, torch.float64
        w = self.base ** (-torch.arange(0, d, 2, dtype=f64) / d)  # w_i
        angle = positions.to(f64)[:, None] * w.to(positions.device)
        cos = torch.cos(angle).to(x.dtype)
        sin = torch.sin(angle).to(x.dtype)
        a, b = x[..., 0::2], x[..., 1::2]
        turned = (a * cos - b * sin, b * cos + a * sin)
        return torch.stack(turned, dim=-1).flatten(-2)
