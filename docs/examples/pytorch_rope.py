"""Rotary position embeddings (RoPE, Su et al.) as a PyTorch module: adjacent pairs."""

from __future__ import annotations

import torch
from torch import nn


class RotaryEmbedding(nn.Module):
    """Turns pair (x[..., 2i], x[..., 2i+1]) of a query or key at position p by the angle
    p w_i, w_i = base^(-2i/d); x has shape (..., n, d), one position per row."""

    def __init__(self, d: int, base: float = 10000.0) -> None:
        super().__init__()
        if d % 2:
            raise ValueError(f"d must be even, got {d}")
        self.d, self.base = d, base

    def forward(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        # Frequencies and angles in float64, made here: a buffer would follow model.half().
        w = self.base ** (-torch.arange(0, self.d, 2, dtype=torch.float64) / self.d)
        angle = positions.to(torch.float64)[:, None] * w.to(positions.device)  # (n, d/2)
        cos, sin = torch.cos(angle).to(x.dtype), torch.sin(angle).to(x.dtype)
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, b * cos + a * sin), dim=-1).flatten(-2)
