"""The sinusoidal encoding of Vaswani et al. (2017), in PyTorch."""

import torch
from torch import Tensor, nn


class SinusoidalEncoding(nn.Module):
    """x + PE(p) for embeddings x of shape (..., n, d), p = 0..n-1."""

    def __init__(self, d: int, max_len: int = 8192, base: float = 1e4):
        super().__init__()
        if d % 2:
            raise ValueError(f"d must be even, got {d}")
        # Angles in float64: a float32 angle's rounding error grows with p.
        f64 = torch.float64
        p = torch.arange(max_len, dtype=f64)[:, None]  # positions
        w = base ** (-torch.arange(0, d, 2, dtype=f64) / d)  # w_i
        table = torch.empty(max_len, d, dtype=f64)
        table[:, 0::2] = torch.sin(p * w)  # even columns: sines
        table[:, 1::2] = torch.cos(p * w)  # odd columns: cosines
        table = table.to(torch.get_default_dtype())
        self.register_buffer("table", table, persistent=False)

    def forward(self, x: Tensor) -> Tensor:
        return x + self.table[: x.shape[-2]].to(x.dtype)
