r"""The frequency ladder of the sinusoidal table, read as wavelengths.

Pair ``i = 0 .. d/2 - 1`` turns at :math:`\omega_i = 10000^{-2i/d}` radians per position,
so it repeats every :math:`\lambda_i = 2\pi/\omega_i` positions (:func:`wavelengths`): a
geometric progression of ratio :math:`10000^{2/d}` from :math:`2\pi` to
:math:`2\pi \cdot 10000^{(d-2)/d}`, the slowest frequency being :math:`10000^{-(d-2)/d}`
(:func:`slowest_frequency`), not :math:`10000^{-1}`. Unlike a binary counter's periods
the ratio is never 2 for the base 10000 (:func:`ratio_equals_two_width`). A common
1-indexed convention shifts the whole ladder by one step
(:func:`one_indexed_frequencies`).

Examples
--------
>>> wavelengths(4, base=100.0).round(2)
array([ 6.28, 62.83])
>>> slowest_frequency(8)
0.001
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric

__all__ = [
    "one_indexed_frequencies",
    "ratio_equals_two_width",
    "slowest_frequency",
    "wavelengths",
]

Float64Array = npt.NDArray[np.float64]


def wavelengths(d_model: int, *, base: float = 10000.0) -> Float64Array:
    r"""Wavelengths :math:`\lambda_i = 2\pi / \omega_i`, in positions, ``i = 0 .. d/2 - 1``.

    Each is within :math:`r_\omega + 2u` (relative) of the exact value: the frequency's
    rounding and the quotient's, :math:`2\pi` rounded once.

    Examples
    --------
    >>> wavelengths(4, base=100.0).round(2)
    array([ 6.28, 62.83])
    """
    return np.asarray(2.0 * np.pi / numeric.frequencies(d_model, base), dtype=np.float64)


def one_indexed_frequencies(d_model: int) -> Float64Array:
    r"""The frequencies of the 1-indexed convention, as it is written.

    It writes :math:`W_p[2i-1, t] = \sin(t / \ell^{2i/d})` with :math:`0 < i \le d/2`,
    so its pair ``i`` turns at :math:`10000^{-2i/d}` for ``i = 1 .. d/2``.

    Examples
    --------
    >>> one_indexed_frequencies(4)
    array([0.01  , 0.0001])
    """
    width = _validate.even_width("d_model", d_model)
    one_indexed = np.power(10000.0, -2.0 * np.arange(1, width // 2 + 1) / width)
    return np.asarray(one_indexed, dtype=np.float64)


def slowest_frequency(d_model: int) -> float:
    r"""The slowest frequency of width ``d``, :math:`10000^{-(d-2)/d}` (exact rational exponent).

    It is :math:`10000^{-1} \cdot 10000^{2/d}`: ten times :math:`10000^{-1}` at ``d = 8``,
    and above it at every width.

    Examples
    --------
    >>> slowest_frequency(8), slowest_frequency(2)
    (0.001, 1.0)
    """
    return float(10000.0 ** (-(d_model - 2) / d_model))


def ratio_equals_two_width(base: int = 10000) -> tuple[Any, bool]:
    r"""The width ``d`` at which consecutive wavelengths would double, and whether it is even.

    :math:`\mathrm{base}^{2/d} = 2 \iff \tfrac{2}{d}\ln \mathrm{base} = \ln 2 \iff
    d = 2\log_2 \mathrm{base}`. That is an even integer exactly when
    :math:`\log_2 \mathrm{base}` is an integer, that is when ``base`` is a power of two
    (10000 = 2^4 · 625 is not: :math:`d = 8\ln 10/\ln 2 \approx 26.58`).

    Returns
    -------
    tuple
        The exact width (a SymPy expression) and whether it is an even integer.

    Examples
    --------
    >>> ratio_equals_two_width(2**13)
    (26, True)
    """
    value = _validate.positive_int("base", base, minimum=2)
    width = sp.expand_log(2 * sp.log(sp.Integer(value)) / sp.log(2), force=True)
    power_of_two = value & (value - 1) == 0
    return width, power_of_two
