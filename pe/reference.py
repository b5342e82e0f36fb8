r"""High-precision reference values of the encoding, computed with mpmath.

The one definition of "the exact value" that every accuracy claim, experiment and test
compares against. Each function works at ``dps`` significant decimal digits (50 unless
told), far beyond float64's 16, so that the error of a reference value rounded to float64
is at most half an ulp of that value.

.. math::

    \omega_i = \mathrm{base}^{-2i/d}, \qquad
    PE(p)_{2i} = \sin \omega_i p, \qquad PE(p)_{2i+1} = \cos \omega_i p

Examples
--------
>>> from pe import reference
>>> float(reference.frequency(1, 4))
0.01
>>> round(float(reference.entry(1, 0, 4)), 12)
0.841470984808
"""

from __future__ import annotations

from collections.abc import Iterable

import mpmath
import numpy as np
import numpy.typing as npt

__all__ = ["DPS", "angle", "entry", "errors", "frequencies", "frequency", "shift_block", "table"]

#: Significant decimal digits of every reference value, unless a caller asks for more.
DPS = 50


def frequency(i: int, d: int, base: float = 10000.0, *, dps: int = DPS) -> mpmath.mpf:
    r"""The frequency :math:`\omega_i = \mathrm{base}^{-2i/d}` at ``dps`` digits."""
    with mpmath.workdps(dps):
        return mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d)


def frequencies(d: int, base: float = 10000.0, *, dps: int = DPS) -> list[mpmath.mpf]:
    r"""Every frequency :math:`\omega_0, \dots, \omega_{d/2-1}` at ``dps`` digits."""
    return [frequency(i, d, base, dps=dps) for i in range(d // 2)]


def angle(p: float, i: int, d: int, base: float = 10000.0, *, dps: int = DPS) -> mpmath.mpf:
    r"""The angle :math:`\omega_i p` of pair ``i`` at position ``p`` (``p`` taken exactly)."""
    with mpmath.workdps(dps):
        return mpmath.mpf(p) * frequency(i, d, base, dps=dps)


def entry(p: float, column: int, d: int, base: float = 10000.0, *, dps: int = DPS) -> mpmath.mpf:
    r"""The exact entry :math:`PE(p)_{column}`: a sine in even columns, a cosine in odd."""
    with mpmath.workdps(dps):
        theta = angle(p, column // 2, d, base, dps=dps)
        return mpmath.sin(theta) if column % 2 == 0 else mpmath.cos(theta)


def table(
    positions: Iterable[float], d: int, base: float = 10000.0, *, dps: int = DPS
) -> npt.NDArray[np.float64]:
    """The paper's table at ``positions``, each entry the float64 nearest the exact value."""
    rows = [[float(entry(p, c, d, base, dps=dps)) for c in range(d)] for p in positions]
    return np.array(rows, dtype=np.float64).reshape(-1, d)


def errors(
    values: npt.ArrayLike,
    positions: npt.ArrayLike,
    columns: npt.ArrayLike,
    d: int,
    base: float = 10000.0,
    *,
    dps: int = DPS,
) -> npt.NDArray[np.float64]:
    r"""``|value - PE(p)_column|`` for each triple, computed at ``dps`` digits.

    The difference is taken before rounding, so the reference's own rounding to float64
    does not enter the measured error.

    Parameters
    ----------
    values
        Computed entries (any float dtype), one per ``(position, column)`` pair.
    positions, columns
        Integer arrays of the same length as ``values``.
    d, base
        The encoding: :math:`\omega_i = \mathrm{base}^{-2i/d}` (``base`` taken exactly).

    Examples
    --------
    >>> float(errors([0.5], [0], [0], 4)[0])
    0.5
    """
    vals = np.asarray(values).astype(np.float64).ravel()
    ps = np.asarray(positions, dtype=np.int64).ravel()
    cs = np.asarray(columns, dtype=np.int64).ravel()
    found = np.empty(vals.size, dtype=np.float64)
    omega: dict[int, mpmath.mpf] = {}
    with mpmath.workdps(dps):
        for k, (value, p, c) in enumerate(
            zip(vals.tolist(), ps.tolist(), cs.tolist(), strict=True)
        ):
            if c // 2 not in omega:
                omega[c // 2] = frequency(c // 2, d, base, dps=dps)
            theta = omega[c // 2] * p
            exact = mpmath.sin(theta) if c % 2 == 0 else mpmath.cos(theta)
            found[k] = float(abs(mpmath.mpf(value) - exact))
    return found


def shift_block(k: float, w: mpmath.mpf, *, dps: int = DPS) -> mpmath.matrix:
    r"""The block :math:`B(k\omega) = [[\cos k\omega, \sin k\omega], [-\sin k\omega, \cos k\omega]]`."""
    with mpmath.workdps(dps):
        c, s = mpmath.cos(k * w), mpmath.sin(k * w)
        return mpmath.matrix([[c, s], [-s, c]])
