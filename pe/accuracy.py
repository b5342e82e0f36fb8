r"""How accurate a table is: its entries against the exact values, computed by mpmath.

A *table* here is any function ``(positions, d_model) -> (positions.size, d_model)``: pe's
own, a recipe of :mod:`pe.recipes`, your code. Its errors are absolute errors of entries
(every entry lies in ``[-1, 1]``), measured by :func:`pe.reference.errors` at 50 digits, so
that the reference's own rounding does not enter the measurement:

- :func:`row_errors`: every entry (or chosen columns) of some rows;
- :func:`max_sampled_error`: the largest error on sampled entries (:func:`sample_entries`,
  the largest positions always included), computing only the sampled rows;
- :func:`rounding_census`: how many entries differ from the exact value rounded to nearest
  in the table's dtype, and by how many units in the last place (:func:`census_sample`);
- :func:`row_separation`: how close two distinct rows come, and how many rows repeat.

The page "Precision and speed" measures pe's tables and the usual recipes with them, and
``make bench`` writes the accuracy table it shows.

Examples
--------
>>> from pe import numeric
>>> error, position, column = max_sampled_error(numeric.sinusoidal, 2**20, 64, count=50)
>>> error <= 4.9e-16
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import mpmath
import numpy as np
import numpy.typing as npt

from pe import _validate, reference

__all__ = [
    "RoundingCensus",
    "RowSeparation",
    "Table",
    "census_sample",
    "max_sampled_error",
    "rounding_census",
    "row_errors",
    "row_separation",
    "sample_entries",
]

#: A table method: ``(positions, d_model) -> (positions.size, d_model)`` array.
Table = Callable[[npt.NDArray[np.int64], int], npt.NDArray[Any]]


def sample_entries(
    n_positions: int, d_model: int, count: int, *, seed: int = 0, largest: int = 8
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``count`` (position, column) pairs: random ones plus the ``largest`` positions' rows.

    The last ``largest`` positions are always included (with random columns), as are the
    first and last columns, so that the worst places of an error growing with position or
    frequency are sampled.
    """
    rng = np.random.default_rng(seed)
    positions = rng.integers(0, n_positions, count)
    columns = rng.integers(0, d_model, count)
    tail = min(largest, n_positions, count)
    positions[:tail] = n_positions - 1 - np.arange(tail)
    columns[: min(2, count)] = [0, d_model - 1][: min(2, count)]
    return positions.astype(np.int64), columns.astype(np.int64)


def row_errors(
    table: Table, positions: npt.ArrayLike, d_model: int, columns: npt.ArrayLike | None = None
) -> npt.NDArray[np.float64]:
    """Errors of ``table(positions, d_model)`` at the given ``columns`` (all by default).

    Returns
    -------
    numpy.ndarray
        Shape ``(positions.size, columns.size)``; NaN where the method produced NaN.
    """
    ps = np.asarray(positions, dtype=np.int64)
    cs = np.arange(d_model) if columns is None else np.asarray(columns, dtype=np.int64)
    values = np.asarray(table(ps, d_model))[:, cs].ravel()
    grid_p, grid_c = np.repeat(ps, cs.size), np.tile(cs, ps.size)
    return reference.errors(values, grid_p, grid_c, d_model).reshape(ps.size, cs.size)


@dataclass(frozen=True)
class RowSeparation:
    """How close two distinct rows of a table come (:func:`row_separation`).

    Attributes
    ----------
    label
        Which table.
    n_positions, d_model
        Its size (positions ``0 .. n - 1``).
    duplicates
        Number of rows equal to an earlier row (positions the table cannot tell apart).
    smallest
        Smallest Euclidean distance between two different positions' rows.
    pair
        Two positions at that distance.
    """

    label: str
    n_positions: int
    d_model: int
    duplicates: int
    smallest: float
    pair: tuple[int, int]


def row_separation(table: npt.ArrayLike, label: str) -> RowSeparation:
    """Smallest distance between rows of ``table`` (all pairs) and the count of duplicates.

    Distances come from the Gram matrix in float64, in blocks of 1024 rows; exact
    duplicates are counted with :func:`numpy.unique`, so a distance of zero is exact.
    """
    rows = np.asarray(table).astype(np.float64)
    n, d = rows.shape
    duplicates = n - np.unique(rows, axis=0).shape[0]
    norms = np.einsum("ij,ij->i", rows, rows)
    best, pair = np.inf, (0, 0)
    block = 1024
    for a0 in range(0, n, block):
        a = rows[a0 : a0 + block]
        for b0 in range(a0, n, block):
            b = rows[b0 : b0 + block]
            squared = norms[a0 : a0 + block, None] + norms[None, b0 : b0 + block] - 2 * a @ b.T
            if a0 == b0:
                squared[np.tril_indices(a.shape[0])] = np.inf
            k = int(np.argmin(squared))
            r, c = divmod(k, squared.shape[1])
            if squared[r, c] < best:
                best, pair = float(squared[r, c]), (a0 + r, b0 + c)
    if duplicates:
        best = 0.0
        _, first, counts = np.unique(rows, axis=0, return_index=True, return_counts=True)
        again = np.flatnonzero(counts > 1)[0]
        match = np.flatnonzero((rows == rows[first[again]]).all(axis=1))
        pair = (int(match[0]), int(match[1]))
    return RowSeparation(label, n, d, int(duplicates), float(np.sqrt(max(best, 0.0))), pair)


def max_sampled_error(
    table: Table, n_positions: int, d_model: int, *, count: int = 600, seed: int = 0
) -> tuple[float, int, int]:
    """Largest error of ``table(positions, d)`` on sampled entries; where it occurs.

    Positions are drawn below ``n_positions`` (the largest ones always included, see
    :func:`sample_entries`); only the sampled rows are computed.

    Returns
    -------
    tuple
        ``(error, position, column)``.
    """
    positions, columns = sample_entries(n_positions, d_model, count, seed=seed, largest=32)
    values = np.asarray(table(positions, d_model))[np.arange(positions.size), columns]
    found = reference.errors(values, positions, columns, d_model)
    k = int(np.argmax(found))
    return float(found[k]), int(positions[k]), int(columns[k])


class RoundingCensus(NamedTuple):
    """How a table's entries compare with the exact values rounded to nearest in its dtype.

    ``misrounded`` entries differ from that correctly rounded value; ``worst_ulps`` is the
    largest error in units in the last place of the exact entry, ``worst_error`` the largest
    absolute error.
    """

    entries: int
    misrounded: int
    worst_ulps: float
    worst_error: float


def census_sample(d_model: int = 64) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The entries of the rounding census: consecutive rows and sampled ones, below 2^20.

    Every entry of the rows ``0 .. 63`` and ``2^20 - 64 .. 2^20 - 1`` (so that consecutive
    positions at both ends are covered), and 2000 sampled entries below :math:`2^{20}`
    (:func:`sample_entries`, the 32 largest positions included).
    """
    width = _validate.even_width("d_model", d_model)
    rows = np.concatenate([np.arange(64), 2**20 - 64 + np.arange(64)])
    positions = np.repeat(rows, width)
    columns = np.tile(np.arange(width), rows.size)
    sampled = sample_entries(2**20, width, 2000, seed=width, largest=32)
    return (
        np.concatenate([positions, sampled[0]]).astype(np.int64),
        np.concatenate([columns, sampled[1]]).astype(np.int64),
    )


def rounding_census(
    table: Table,
    dtype: npt.DTypeLike,
    d_model: int = 64,
) -> RoundingCensus:
    r"""Compare ``table(positions, d)`` with the exact entries rounded to nearest in ``dtype``.

    The exact entry is computed at :data:`pe.reference.DPS` digits from
    :func:`pe.reference.frequencies` (as :func:`pe.reference.entry` does) and rounded to the
    dtype's precision (24 bits for float32, 53 for float64) by mpmath, so the correctly
    rounded value is never itself a double rounding. Entries are those of
    :func:`census_sample`.

    Examples
    --------
    >>> from pe import numeric
    >>> census = rounding_census(lambda p, d: numeric.sinusoidal(p, d, dtype=np.float32),
    ...                          np.float32, 4)
    >>> census.entries, census.misrounded
    (2512, 0)
    """
    kind = np.dtype(dtype)
    if kind not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {kind}")
    bits = np.finfo(kind).nmant + 1
    positions, columns = census_sample(d_model)
    rows, where = np.unique(positions, return_inverse=True)
    values = np.asarray(table(rows, d_model))[where, columns].astype(np.float64)
    omega = reference.frequencies(d_model)
    misrounded, worst_ulps, worst_error = 0, 0.0, 0.0
    for value, p, c in zip(values.tolist(), positions.tolist(), columns.tolist(), strict=True):
        with mpmath.workdps(reference.DPS):
            angle = omega[c // 2] * p
            exact = mpmath.sin(angle) if c % 2 == 0 else mpmath.cos(angle)
        with mpmath.workprec(bits):
            nearest = float(+exact)
        ulp = math.ldexp(1.0, math.frexp(float(exact))[1] - bits)
        error = float(abs(mpmath.mpf(value) - exact))
        misrounded += value != nearest
        worst_ulps = max(worst_ulps, error / ulp)
        worst_error = max(worst_error, error)
    return RoundingCensus(positions.size, misrounded, worst_ulps, worst_error)
