"""The encoding and RoPE from scratch, in plain NumPy: the code the pages show to copy.

Two short functions written the way a reader would type them, without the argument checks,
dtypes and error models of :func:`pe.sinusoidal` and :func:`pe.rope`: :func:`sinusoidal_table`
(the paper's table) and :func:`rope` (rotary embeddings, adjacent pairs, positions
``0 .. n-1``). The chapters show their source, run them while the site is built, and the
claims ``from-scratch-table`` and ``from-scratch-rope`` check them equal to the library
within the rounding of a float64 angle :math:`p\\,\\omega_i` and of its sine and cosine
(:func:`pe.experiments.sinusoidal_encoding.from_scratch_tolerance`).

Examples
--------
>>> import numpy as np
>>> from pe import from_scratch, numeric, rotary
>>> bool(np.allclose(from_scratch.sinusoidal_table(50, 16), numeric.sinusoidal(50, 16)))
True
>>> x = np.ones((4, 8))
>>> bool(np.allclose(from_scratch.rope(x), rotary.rope(x, 4)))
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["rope", "sinusoidal_table"]


def sinusoidal_table(n: int, d: int, base: float = 10000.0) -> npt.NDArray[np.float64]:
    """PE(p, 2i) = sin(p w_i) and PE(p, 2i+1) = cos(p w_i), w_i = base^(-2i/d), p < n."""
    p = np.arange(n)[:, None]  # positions, as a column
    w = base ** (-np.arange(0, d, 2) / d)  # one frequency per pair i
    table = np.empty((n, d))
    table[:, 0::2] = np.sin(p * w)  # even columns: sines
    table[:, 1::2] = np.cos(p * w)  # odd columns: cosines
    return table


def rope(x: npt.NDArray[np.float64], base: float = 10000.0) -> npt.NDArray[np.float64]:
    """Turn pair (x[p, 2i], x[p, 2i+1]) of row p by the angle p w_i, w_i = base^(-2i/d)."""
    n, d = x.shape
    angle = np.arange(n)[:, None] * base ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angle), np.sin(angle)
    a, b = x[:, 0::2], x[:, 1::2]
    out = np.empty((n, d))
    out[:, 0::2] = a * cos - b * sin
    out[:, 1::2] = b * cos + a * sin
    return out
