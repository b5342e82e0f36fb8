r"""The frequency ladder of the sinusoidal table: its pairs, their columns, their wavelengths.

Pair ``i = 0 .. d/2 - 1`` writes the columns ``2i`` and ``2i + 1`` (:func:`pair_columns`;
:func:`pair_column_census` reads pe's table against a range of pair indices, to tell the
paper's range from its misreadings) and turns at :math:`\omega_i = 10000^{-2i/d}` radians
per position, so it repeats every :math:`\lambda_i = 2\pi/\omega_i` positions (:func:`wavelengths`;
exactly, :func:`paper_wavelength`): a
geometric progression of ratio :math:`10000^{2/d}` from :math:`2\pi` to
:math:`2\pi \cdot 10000^{(d-2)/d}`, the slowest frequency being :math:`10000^{-(d-2)/d}`
(:func:`slowest_frequency`), not :math:`10000^{-1}`. Unlike a binary counter's periods
the ratio is never 2 for the base 10000 (:func:`ratio_equals_two_width`). A common
1-indexed convention shifts the whole ladder by one step
(:func:`one_indexed_frequencies`).

Examples
--------
>>> pair_columns(4)
[0, 1, 2, 3]
>>> wavelengths(4, base=100.0).round(2)
array([ 6.28, 62.83])
>>> slowest_frequency(8)
0.001
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric

__all__ = [
    "PairColumns",
    "one_indexed_frequencies",
    "pair_column_census",
    "pair_columns",
    "paper_wavelength",
    "ratio_equals_two_width",
    "slowest_frequency",
    "wavelengths",
]

Float64Array = npt.NDArray[np.float64]


def pair_columns(d_model: int, n_pairs: int | None = None) -> list[int]:
    """Columns ``2i`` and ``2i + 1`` written by the pairs ``i = 0 .. n_pairs - 1``, in order.

    By default ``n_pairs = d/2``. Reading "i ranges from 0 to d_model/2" as inclusive
    gives ``d/2 + 1`` pairs: one too many, writing the columns ``d`` and ``d + 1``.

    Examples
    --------
    >>> pair_columns(4, 3)
    [0, 1, 2, 3, 4, 5]
    """
    width = _validate.even_width("d_model", d_model)
    count = width // 2 if n_pairs is None else _validate.positive_int("n_pairs", n_pairs)
    return [c for i in range(count) for c in (2 * i, 2 * i + 1)]


@dataclass(frozen=True)
class PairColumns:
    r"""How a range of pair indices meets the columns of pe's table (:func:`pair_column_census`).

    Attributes
    ----------
    columns
        The width of the table.
    matched
        The pairs that are :math:`\sin, \cos(p\,10000^{-2i/d})` in columns ``2i, 2i+1``
        (within 8 machine epsilons for ``p < 8``).
    missing
        The pairs with no such columns.
    each_column_once
        Whether the pairs write every one of the ``columns`` once.
    """

    columns: int
    matched: int
    missing: int
    each_column_once: bool


def pair_column_census(pairs: range, d_model: int) -> PairColumns:
    r"""Read pe's table of width ``d_model`` against the pair indices ``pairs``.

    Pair ``i`` should be :math:`\sin, \cos(p\,10000^{-2i/d})` in columns ``2i, 2i+1``.
    The paper's range is ``range(d // 2)``; reading it as ``1 <= i <= d/2`` (one-indexed)
    or taking ``i`` for a column index (``0 <= i < d``) fails: a pair with no columns, or a
    column no pair writes.

    Examples
    --------
    >>> pair_column_census(range(4), 8)
    PairColumns(columns=8, matched=4, missing=0, each_column_once=True)
    >>> pair_column_census(range(1, 5), 8)
    PairColumns(columns=8, matched=3, missing=1, each_column_once=False)
    """
    positions = np.arange(8)
    table = numeric.sinusoidal(positions, d_model)
    width = table.shape[1]
    eps = float(np.finfo(np.float64).eps)
    matched, missing, covered = 0, 0, []
    for i in pairs:
        if 2 * i + 1 >= width:
            missing += 1
            continue
        covered += [2 * i, 2 * i + 1]
        angle = positions * 10000.0 ** (-2 * i / d_model)
        error = max(
            float(np.abs(table[:, 2 * i] - np.sin(angle)).max()),
            float(np.abs(table[:, 2 * i + 1] - np.cos(angle)).max()),
        )
        matched += error <= 8 * eps
    return PairColumns(width, matched, missing, sorted(covered) == list(range(width)))


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


def paper_wavelength(i: Any, d: Any) -> Any:
    r"""The paper's :math:`\lambda_i = 2\pi \cdot 10000^{2i/d}`, exact (SymPy).

    Examples
    --------
    >>> paper_wavelength(sp.Integer(1), sp.Integer(4))
    200*pi
    """
    _validate.exact_scalar("i", i)
    if _validate.not_positive(_validate.exact_scalar("d", d)):
        raise ValueError(f"d must be > 0 (a width), got {d}")
    return 2 * sp.pi * sp.Integer(10000) ** (2 * i / d)


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
