"""The sinusoidal positional encoding of Vaswani et al. (2017) as a PyTorch module."""

from __future__ import annotations

import torch
from torch import nn


class SinusoidalEncoding(nn.Module):
    """x + PE(p) for embeddings x of shape (..., n, d), at the positions p = 0 .. n-1."""

    def __init__(self, d: int, max_len: int = 8192, base: float = 10000.0) -> None:
        super().__init__()
        if d % 2:
            raise ValueError(f"d must be even, got {d}")
        # Angles in float64: in float32, p * w would be off by up to about p / 2**24 radians.
        p = torch.arange(max_len, dtype=torch.float64)[:, None]  # positions, as a column
        w = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # w_i = base^(-2i/d)
        table = torch.empty(max_len, d, dtype=torch.float64)
        table[:, 0::2] = torch.sin(p * w)  # even columns: sines
        table[:, 1::2] = torch.cos(p * w)  # odd columns: cosines
        self.register_buffer("table", table.to(torch.get_default_dtype()), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[-2] > self.table.shape[0]:
            raise ValueError(f"{x.shape[-2]} positions; the table has {self.table.shape[0]}")
        return x + self.table[: x.shape[-2]].to(x.dtype)
