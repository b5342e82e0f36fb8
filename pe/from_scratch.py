"""The encoding and RoPE from scratch, in plain NumPy: the code the pages show to copy.

Two short functions written the way a reader would type them, without the argument checks,
dtypes and error models of :func:`pe.sinusoidal` and :func:`pe.rope`: :func:`sinusoidal_table`
(the paper's table) and :func:`rope` (rotary embeddings, adjacent pairs, positions
``0 .. n-1``). The chapters show their source, run them while the site is built, and the
claims ``from-scratch-table`` and ``from-scratch-rope`` check them equal to the library
within the rounding of a float64 angle :math:`p\\,\\omega_i` and of its sine and cosine.
The table's error model is kept beside its code: :func:`table_tolerance`, as
:data:`TABLE_ERROR` (an :class:`~pe.error_models.ErrorModel`).

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

from pe import _rotation_table, _validate
from pe._tolerance import ELEMENTARY_ULPS, EPS64, power_rounding
from pe.error_models import ErrorModel

__all__ = ["TABLE_ERROR", "rope", "sinusoidal_table", "table_tolerance"]


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


def table_tolerance(d_model: int, angle: npt.ArrayLike) -> npt.NDArray[np.float64]:
    r"""The error model :math:`\tau = \varepsilon + \delta + (r_\omega + u)\,p\,\omega_i` of
    a float64 table of the formula (:func:`sinusoidal_table`) against pe's, at the angles
    :math:`p\,\omega_i`.

    ``PE`` (:func:`pe.numeric.sinusoidal`) is within :math:`\delta` of the exact values; a
    table that evaluates the formula in float64 forms :math:`\omega_i` (relative error
    :math:`r_\omega`, :func:`pe._tolerance.power_rounding`) and the angle :math:`p\,\omega_i`
    (one more rounding) and takes a sine or cosine (within
    :data:`~pe._tolerance.ELEMENTARY_ULPS`), so it stays within :math:`\tau` of it.

    Parameters
    ----------
    d_model
        The table's width (even).
    angle
        The angles :math:`p\,\omega_i`, any shape.

    Returns
    -------
    numpy.ndarray
        :math:`\tau` at each angle, in the shape of ``angle``.

    Examples
    --------
    >>> from pe import numeric
    >>> angle = np.arange(50)[:, None] * np.repeat(numeric.frequencies(16), 2)[None, :]
    >>> gap = np.abs(sinusoidal_table(50, 16) - numeric.sinusoidal(50, 16))
    >>> bool((gap <= table_tolerance(16, angle)).all())
    True
    """
    width = _validate.even_width("d_model", d_model)
    reach = np.abs(np.asarray(angle, dtype=np.float64))
    fixed = ELEMENTARY_ULPS * EPS64 + _rotation_table.ENTRY_ERROR_BOUND
    return np.asarray(fixed + (power_rounding(width) + EPS64 / 2) * reach, dtype=np.float64)


#: The error model of a float64 table of the formula (:func:`table_tolerance`).
TABLE_ERROR = ErrorModel(table_tolerance, r"\varepsilon + \delta + (r_\omega + u)\,p\,\omega_i")
