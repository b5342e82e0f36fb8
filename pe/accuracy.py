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

The page "Precision and speed" compares the methods of :data:`METHODS` (pe's tables in
three dtypes, the direct float64 evaluation, the recipes of :mod:`pe.recipes`) with
:func:`error_by_position`, :func:`drift` and :func:`separations`. Two functions measure pe's
extended-precision angles (:mod:`pe._extended_precision`) against mpmath:
:func:`turn_bits` (its frequencies) and :func:`angle_reduction_error` (its reduced angles).

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import mpmath
import numpy as np
import numpy.typing as npt

from pe import _extended_precision, _validate, numeric, reference
from pe.recipes import float32_recipe

__all__ = [
    "METHODS",
    "RoundingCensus",
    "RowSeparation",
    "Table",
    "angle_reduction_error",
    "census_sample",
    "drift",
    "error_by_position",
    "max_sampled_error",
    "rounding_census",
    "row_errors",
    "row_separation",
    "sample_entries",
    "separations",
    "turn_bits",
    "ulps_error",
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
    if duplicates:  # the first row that repeats an earlier one, and that earlier row
        best = 0.0
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        earlier = first[inverse.ravel()]
        again = int(np.flatnonzero(earlier != np.arange(n))[0])
        pair = (int(earlier[again]), again)
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


#: The methods the page "Precision and speed" compares: name -> ``table(positions, d_model)``.
METHODS: dict[str, Table] = {
    "pe float64": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float64),
    "pe float32": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float32),
    "pe float16": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float16),
    "direct float64": lambda ps, d: numeric.sinusoidal_direct(ps, d, dtype=np.float64),
    "float32 recipe": lambda ps, d: float32_recipe(ps, d, dtype=np.float32),
    "float16 recipe": lambda ps, d: float32_recipe(ps, d, dtype=np.float16),
}


def error_by_position(
    method: str, positions: npt.ArrayLike, d_model: int, *, columns: int = 16, seed: int = 0
) -> npt.NDArray[np.float64]:
    """Largest error over ``columns`` sampled columns (always including 0 and 1), per position.

    ``method`` is a key of :data:`METHODS`.

    Examples
    --------
    >>> errors = error_by_position("float32 recipe", np.array([10, 10_000]), 64)
    >>> bool(errors[1] > 1e-4 > errors[0])
    True
    """
    rng = np.random.default_rng(seed)
    chosen = np.unique(np.concatenate([[0, 1], rng.integers(0, d_model, columns - 2)]))
    worst: npt.NDArray[np.float64] = row_errors(METHODS[method], positions, d_model, chosen).max(
        axis=1
    )
    return worst


def drift(
    positions: tuple[int, ...] = (10**3, 10**4, 10**5, 10**6), d_model: int = 64
) -> dict[str, npt.NDArray[np.float64]]:
    """Largest error over all columns at each position, for each method of :data:`METHODS`.

    ``positions`` are by default the four decades :math:`10^3 .. 10^6`, at ``d_model = 64``.
    A position whose row holds a NaN (a float16 position that overflowed) gets NaN.

    Examples
    --------
    >>> found = drift((10**4,), 8)
    >>> bool(found["float32 recipe"][0] > 1e-5 > found["pe float64"][0])
    True
    """
    ps = np.asarray(positions, dtype=np.int64)
    return {name: row_errors(table, ps, d_model).max(axis=1) for name, table in METHODS.items()}


def separations(n_positions: int = 4096, d_model: int = 16) -> list[RowSeparation]:
    """:func:`row_separation` of the recipe and of pe's table, in float16, float32 and float64.

    Examples
    --------
    >>> [r.label for r in separations(8, 4)][:2]
    ['recipe in float16', 'pe, rounded to float16']
    """
    positions = np.arange(n_positions)
    found = []
    for dtype in (np.float16, np.float32, np.float64):
        name = np.dtype(dtype).name
        recipe = float32_recipe(positions, d_model, dtype=dtype)
        found.append(row_separation(recipe, f"recipe in {name}"))
        table = numeric.sinusoidal(n_positions, d_model, dtype=dtype)
        found.append(row_separation(table, f"pe, rounded to {name}"))
    return found


def turn_bits(
    d_model: int = 512, turns: tuple[npt.NDArray[np.float64], ...] | None = None
) -> float:
    r"""Bits to which frequencies in turns match the exact ones, worst pair: :math:`-\log_2` of
    the largest relative error.

    ``turns``: a sum of float64 arrays, by default pe's three of
    :func:`pe._extended_precision.frequency_turns` (base 10000); summed at 70 digits and
    compared with :func:`pe.reference.frequencies` at 70 digits.

    Examples
    --------
    >>> turn_bits(8) > 150
    True
    >>> turn_bits(8, _extended_precision.frequency_turns(8, 10000.0)[:2]) < 110
    True
    """
    if turns is None:
        turns = _extended_precision.frequency_turns(d_model, 10000.0)
    with mpmath.workdps(70):
        worst = max(
            abs(mpmath.fsum(mpmath.mpf(float(t[i])) for t in turns) * 2 * mpmath.pi / f - 1)
            for i, f in enumerate(reference.frequencies(d_model, dps=70))
        )
    return float(-mpmath.log(worst, 2))


def angle_reduction_error(
    turns: tuple[npt.NDArray[np.float64], ...],
    positions: npt.ArrayLike,
    d_model: int,
    pairs: Sequence[int] | None = None,
) -> tuple[float, float]:
    r"""Error of the anchors' reduced angles against :math:`\omega_i p \bmod 2\pi` (mpmath, 70 digits).

    ``turns``: the frequencies in turns per position as a sum of float64 arrays (pe's three,
    or fewer for a candidate), reduced by pe's ``_extended_precision._reduced_turns``;
    ``pairs``: the pair indices measured (all by default).
    Returns the largest error and the largest :math:`|x|`, both in radians.

    Examples
    --------
    >>> turns = _extended_precision.frequency_turns(8, 10000.0)
    >>> error, largest = angle_reduction_error(turns, [2**53 - 1], 8)
    >>> error < 1e-20, largest <= math.pi
    (True, True)
    """
    ps = np.asarray(positions, dtype=np.float64)
    chosen = list(range(d_model // 2)) if pairs is None else list(pairs)
    parts = [np.asarray(t)[chosen] for t in turns]
    parts += [np.zeros(len(chosen))] * (3 - len(parts))
    s, e = _extended_precision._reduced_turns(ps, (parts[0], parts[1], parts[2]))
    worst = mpmath.mpf(0)
    with mpmath.workdps(70):
        exact = [reference.frequency(i, d_model, dps=70) / (2 * mpmath.pi) for i in chosen]
        for row, p in enumerate(ps):
            for i, f in enumerate(exact):
                t = mpmath.mpf(int(p)) * f - mpmath.nint(mpmath.mpf(int(p)) * f)
                gap = abs(mpmath.mpf(float(s[row, i])) + mpmath.mpf(float(e[row, i])) - t)
                worst = max(worst, min(gap, abs(gap - 1)))
    return float(2 * mpmath.pi * worst), float(2 * np.pi * np.abs(s + e).max())


def ulps_error(got: npt.ArrayLike, exact: Sequence[Any]) -> float:
    r"""Largest :math:`|\hat y - y| / \mathrm{ulp}(y)` of float64 values against exact ones.

    ``got``: the computed float64 values; ``exact``: the same values exactly (mpmath numbers
    at enough digits that their own error does not count). A unit in the last place is the
    spacing of float64 at the exact value (the smallest subnormal at zero), so a correctly
    rounded value errs by at most 0.5.

    Examples
    --------
    >>> with mpmath.workdps(50):
    ...     exact = [mpmath.exp(mpmath.mpf(x)) for x in (-1.0, 0.5)]
    >>> ulps_error(np.exp([-1.0, 0.5]), exact) < 1.0
    True
    >>> ulps_error([1.0 + 2.0**-52], [mpmath.mpf(1)])
    1.0
    """
    worst = 0.0
    for value, true in zip(np.asarray(got, dtype=np.float64).tolist(), exact, strict=True):
        spacing = float(np.spacing(abs(float(true)))) if float(true) != 0 else 2.0**-1074
        worst = max(worst, float(abs(mpmath.mpf(value) - true)) / spacing)
    return worst
