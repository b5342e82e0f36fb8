r"""How accurate a computed sinusoidal table is, measured against 50-digit mpmath.

The measurements of the page "Precision and speed": the recipes of :mod:`pe.recipes` (angles
formed in float32, a rotation chained step by step without re-anchoring), the rotation algorithm with float64 angles
(:func:`rotation_with_float64_angles`), the error of each method of :data:`METHODS`
against position (:func:`row_errors`, :func:`error_by_position`, :func:`drift`) or on
sampled entries (:func:`max_sampled_error`), and how close distinct rows come in each
dtype (:func:`row_separation`, :func:`separations`).

All errors are absolute errors of table entries (every entry lies in ``[-1, 1]``),
measured by :func:`pe.reference.errors` at 50 digits, so that the reference's own
rounding does not enter the measurement.

Examples
--------
>>> import numpy as np
>>> errors = error_by_position("float32 recipe", np.array([10, 10_000]), 64)
>>> bool(errors[1] > 1e-4 > errors[0])
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

from pe import _rotation_table, _validate, numeric, reference
from pe.recipes import float32_recipe

__all__ = [
    "METHODS",
    "NEOX_1003",
    "NEOX_1003_REPORTED",
    "HalfAngles",
    "NeoxReproducer",
    "RoundingCensus",
    "RowSeparation",
    "Table",
    "angle_reduction_error",
    "census_sample",
    "drift",
    "error_by_position",
    "half_frequency_angles",
    "max_sampled_error",
    "neox_reproducer",
    "rotation_with_float64_angles",
    "rounded_angles",
    "rounding_census",
    "row_errors",
    "row_separation",
    "sample_entries",
    "separations",
    "turn_bits",
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


#: The methods compared on the page: name -> ``table(positions, d_model)``.
METHODS: dict[str, Table] = {
    "pe float64": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float64),
    "pe float32": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float32),
    "pe float16": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float16),
    "direct float64": lambda ps, d: numeric.sinusoidal_direct(ps, d, dtype=np.float64),
    "float32 recipe": lambda ps, d: float32_recipe(ps, d, dtype=np.float32),
    "float16 recipe": lambda ps, d: float32_recipe(ps, d, dtype=np.float16),
}


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


def error_by_position(
    method: str, positions: npt.ArrayLike, d_model: int, *, columns: int = 16, seed: int = 0
) -> npt.NDArray[np.float64]:
    """Largest error over ``columns`` sampled columns (always including 0 and 1), per position.

    ``method`` is a key of :data:`METHODS`.
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

    A position whose row holds a NaN (a float16 position that overflowed) gets NaN.
    """
    ps = np.asarray(positions, dtype=np.int64)
    return {name: row_errors(table, ps, d_model).max(axis=1) for name, table in METHODS.items()}


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


def rotation_with_float64_angles(positions: npt.ArrayLike, d_model: int) -> npt.NDArray[np.float64]:
    r"""The rotation algorithm with its anchors' angles formed in plain float64 (a wrong design).

    Same blocks and the same single complex product per entry as :func:`pe.numeric.sinusoidal`,
    but :math:`\omega_i p` is rounded to float64 before ``sin``/``cos``: the anchors of far
    block starts inherit an angle error near :math:`2^{-53}\,\omega_i q`, so the table is no
    longer within the float64 bound at large positions.
    """
    ps = np.asarray(positions, dtype=np.int64)
    block = _rotation_table.BLOCK
    omega = numeric.frequencies(d_model)
    low = np.multiply.outer((ps % block).astype(np.float64), omega)
    high = np.multiply.outer((ps - ps % block).astype(np.float64), omega)
    z = (np.sin(low) + 1j * np.cos(low)) * (np.cos(high) - 1j * np.sin(high))
    out: npt.NDArray[np.float64] = z.view(np.float64).reshape(ps.size, d_model)
    return out


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


#: The reproducer of GPT-NeoX issue #1003: head width, positions, base, the entry printed.
NEOX_1003 = (32, 2048, 10000.0, (1857, 1))
#: What the reporter printed: the float32 angle, the float16 angle, the largest change of
#: the cosine over the table (``tensor(1044.2678)``, ``tensor(1045.)``, ``tensor(0.7819)``).
NEOX_1003_REPORTED = (1044.2678, 1045.0, 0.7819)

#: How float16 angles are formed ``(positions, inv_freq) -> (n, d/2)`` float16, from the
#: float32 positions and frequencies of the reproducer.
HalfAngles = Callable[[npt.NDArray[np.float32], npt.NDArray[np.float32]], npt.NDArray[np.float16]]


def half_frequency_angles(
    positions: npt.NDArray[np.float32], inv_freq: npt.NDArray[np.float32]
) -> npt.NDArray[np.float16]:
    """The reproducer's float16 path: ``inv_freq.half()``, float16 positions, float16 products."""
    return np.multiply.outer(positions.astype(np.float16), inv_freq.astype(np.float16))


def rounded_angles(
    positions: npt.NDArray[np.float32], inv_freq: npt.NDArray[np.float32]
) -> npt.NDArray[np.float16]:
    """The float32 angles, each rounded once to float16."""
    return np.multiply.outer(positions, inv_freq).astype(np.float32).astype(np.float16)


class NeoxReproducer(NamedTuple):
    r"""The numbers of GPT-NeoX #1003's reproducer, recomputed in NumPy.

    ``angle32`` is the float32 angle at the printed entry, ``rounded`` that angle rounded to
    float16, ``angle16`` the float16 angle the candidate path forms there; ``entry_change``
    is :math:`|\cos` (float16 path) :math:`- \cos` (float32 path)| at that entry and
    ``largest_change`` the largest such change over the table, at ``where``.
    """

    angle32: float
    rounded: float
    angle16: float
    entry_change: float
    largest_change: float
    where: tuple[int, int]


def neox_reproducer(half_angles: HalfAngles = half_frequency_angles) -> NeoxReproducer:
    """Recompute the reproducer of GPT-NeoX #1003 with float16 angles from ``half_angles``.

    As in the reporter's code: ``inv_freq = 1 / base ** (arange(0, d, 2) / d)`` and the
    positions in float32, the angles as their outer product, the cosines of the float32
    angles in float32 and of the float16 angles in float16 (NumPy computes both through
    float32 and rounds once, as the GPU kernels do up to a unit in the last place).

    Examples
    --------
    >>> found = neox_reproducer()
    >>> round(found.angle32, 4), found.rounded, found.angle16
    (1044.2678, 1044.0, 1045.0)
    """
    d, n, base, (row, column) = NEOX_1003
    exponents = np.arange(0, d, 2, dtype=np.float32) / np.float32(d)
    inv_freq = np.float32(1.0) / (np.float32(base) ** exponents)
    positions = np.arange(n, dtype=np.float32)
    angles32 = np.multiply.outer(positions, inv_freq).astype(np.float32)
    angles16 = np.asarray(half_angles(positions, inv_freq), dtype=np.float16)
    change = np.abs(np.cos(angles16).astype(np.float32) - np.cos(angles32))
    where = np.unravel_index(int(np.argmax(change)), change.shape)
    return NeoxReproducer(
        angle32=float(angles32[row, column]),
        rounded=float(np.float16(angles32[row, column])),
        angle16=float(angles16[row, column]),
        entry_change=float(change[row, column]),
        largest_change=float(change.max()),
        where=(int(where[0]), int(where[1])),
    )


def separations(n_positions: int = 4096, d_model: int = 16) -> list[RowSeparation]:
    """:func:`row_separation` of the recipe and of pe's table, in float16, float32 and float64."""
    positions = np.arange(n_positions)
    found = []
    for dtype in (np.float16, np.float32, np.float64):
        name = np.dtype(dtype).name
        recipe = float32_recipe(positions, d_model, dtype=dtype)
        found.append(row_separation(recipe, f"recipe in {name}"))
        table = numeric.sinusoidal(n_positions, d_model, dtype=dtype)
        found.append(row_separation(table, f"pe, rounded to {name}"))
    return found


def angle_reduction_error(
    turns: tuple[npt.NDArray[np.float64], ...], positions: npt.ArrayLike, d_model: int
) -> tuple[float, float]:
    r"""Error of the anchors' reduced angles against :math:`\omega_i p \bmod 2\pi` (mpmath, 70 digits).

    ``turns``: the frequencies in turns per position as a sum of float64 arrays (pe's three,
    or fewer for a candidate), reduced by pe's ``_extended_precision._reduced_turns``.
    Returns the largest error and the largest :math:`|x|`, both in radians.
    """
    from pe import _extended_precision

    ps = np.asarray(positions, dtype=np.float64)
    parts = (*turns, *(np.zeros_like(turns[0]),) * (3 - len(turns)))
    s, e = _extended_precision._reduced_turns(ps, (parts[0], parts[1], parts[2]))
    worst = mpmath.mpf(0)
    with mpmath.workdps(70):
        exact = [
            reference.frequency(i, d_model, dps=70) / (2 * mpmath.pi) for i in range(d_model // 2)
        ]
        for row, p in enumerate(ps):
            for i, f in enumerate(exact):
                t = mpmath.mpf(int(p)) * f - mpmath.nint(mpmath.mpf(int(p)) * f)
                gap = abs(mpmath.mpf(float(s[row, i])) + mpmath.mpf(float(e[row, i])) - t)
                worst = max(worst, min(gap, abs(gap - 1)))
    return float(2 * mpmath.pi * worst), float(2 * np.pi * np.abs(s + e).max())


def turn_bits(d_model: int = 512) -> float:
    """Bits to which pe's three-double frequencies (in turns) match the exact ones, worst pair.

    >>> turn_bits(8) > 150
    True
    """
    from pe import _extended_precision

    turns = _extended_precision.frequency_turns(d_model, 10000.0)
    with mpmath.workdps(70):
        worst = max(
            abs(mpmath.fsum(mpmath.mpf(float(t[i])) for t in turns) * 2 * mpmath.pi / f - 1)
            for i, f in enumerate(reference.frequencies(d_model, dps=70))
        )
    return float(-mpmath.log(worst, 2))
