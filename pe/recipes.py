r"""The usual ways code computes the sinusoidal table, which pe's chapters compare against.

Each recipe is written the way deep-learning code writes it, with the precision it uses:

- :func:`float32_recipe`: positions, frequencies and angles all in float32 (or float16),
  ``position[:, None] * exp(arange(0, d, 2) * -(log(base) / d))``, then ``sin`` and
  ``cos`` in that dtype: the angle's error grows like :math:`\varepsilon\,\omega_i p / 2`;
- :func:`chained_rotation`: each row from the previous one by one complex multiplication,
  the tempting use of the rotation identity, whose rounding errors add up along the rows.

:func:`pe.numeric.sinusoidal` avoids both; the page "Precision and speed" measures them
against 50-digit mpmath, and :func:`pe.from_scratch.sinusoidal_table` is the plain float64
formula.

Examples
--------
>>> float32_recipe(np.array([0, 1]), 4).dtype
dtype('float32')
>>> chained_rotation(3, 4).shape
(3, 4)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pe.numeric import frequencies

__all__ = ["chained_rotation", "float32_recipe"]


def float32_recipe(
    positions: npt.ArrayLike, d_model: int, *, base: float = 10000.0, dtype: Any = np.float32
) -> npt.NDArray[Any]:
    r"""The common deep-learning recipe: positions, frequencies and angles all in ``dtype``.

    ``position[:, None] * exp(arange(0, d, 2) * -(log(base) / d))``, every step rounded
    to ``dtype`` (float32 in most code), then ``sin`` and ``cos`` in that dtype,
    interleaved. The angle :math:`\omega_i p` is rounded to ``dtype``, so its error grows
    like :math:`\varepsilon\,\omega_i p / 2`: about ``5e-4`` radians at ``p = 1e4`` in float32.
    """
    kind = np.dtype(dtype)
    out = np.empty((np.asarray(positions).size, d_model), dtype=kind)
    # float16 positions from 65520 on overflow to infinity: their rows come out NaN, as
    # they would in half-precision code.
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.asarray(positions).astype(kind)[:, None]
        scale = kind.type(-np.log(base) / d_model)
        inverse = np.exp(np.arange(0, d_model, 2).astype(kind) * scale)
        angles = p * inverse
        out[:, 0::2] = np.sin(angles)
        out[:, 1::2] = np.cos(angles)
    return out


def chained_rotation(
    n_positions: int, d_model: int, *, base: float = 10000.0, dtype: Any = np.complex64
) -> npt.NDArray[Any]:
    r"""Rows built by chaining the one-step rotation: :math:`z(p+1) = z(p)\,e^{-\mathrm{i}\omega}`.

    The tempting way to use the rotation identity: multiply row ``p`` by the step factor
    to get row ``p + 1``, in complex ``dtype``. Each product adds a rounding error, so the
    error performs a random walk and drifts in its phase: after ``p`` steps it is about
    :math:`\varepsilon \sqrt{p}` to :math:`\varepsilon\,p`. :func:`pe.numeric.sinusoidal`
    avoids this by re-anchoring every block from accurate angles.
    Returns the interleaved real table (float32 for complex64, float64 for complex128).
    """
    kind = np.dtype(dtype)
    omega = frequencies(d_model, base)
    step = (np.cos(omega) - 1j * np.sin(omega)).astype(kind)
    rows = np.empty((n_positions, d_model // 2), dtype=kind)
    rows[0] = 1j
    for p in range(1, n_positions):
        rows[p] = rows[p - 1] * step
    return rows.view(rows.real.dtype).reshape(n_positions, d_model)
