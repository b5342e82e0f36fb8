r"""The geometry of the sinusoidal table: dot products and distances between its rows.

With :math:`v_i(p) = (\sin\omega_i p, \cos\omega_i p)` the rows are
:math:`PE(p) = (v_0(p), \dots, v_{d/2-1}(p))`, and both the dot product and the distance of
two rows depend on their offset :math:`k = q - p` only (the chapters "Designs that fail" and
"What the identity implies" prove it):

.. math::

    PE(p) \cdot PE(p+k) = \sum_i \cos\omega_i k, \qquad
    \lVert PE(p+k) - PE(p) \rVert^2 = \sum_i (2 - 2\cos\omega_i k)
    = \sum_i 4\sin^2(\omega_i k / 2).

So a property of all pairs of rows is a property of the offsets: :func:`dot_by_offset`,
:func:`row_distance_by_offset`, :func:`nearest_rows` compute it in :math:`O(nd)` work
instead of :math:`O(n^2 d)`; :func:`smallest_row_distance` checks it by brute force on the
table, and :func:`pair_min_distance` looks at each pair alone. One step (``k = 1``) moves
pair ``i`` by the chord :math:`2\sin(\omega_i/2)`, whose square :func:`chord_squared` writes
exactly.

The distance of neighbours, :func:`neighbour_distance`, is the yardstick: past any horizon
the rows keep their distance from the earlier ones (:func:`rows_distance_past`). One pair
alone (:func:`one_pair_points`) gives each position its own point on the unit circle, but
two of them can come very close: :func:`closest_rows` finds them by brute force, and
:func:`separation_floor` says which distances are above rounding.

Examples
--------
>>> float(dot_by_offset(4, [0])[0])
2.0
>>> nearest_rows(100, 16)[0]
1
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric, reference
from pe._tolerance import EPS64, gamma, phase_tolerance

__all__ = [
    "chord_lengths",
    "chord_squared",
    "closest_rows",
    "dot_by_offset",
    "nearest_rows",
    "neighbour_distance",
    "one_pair_points",
    "pair_min_distance",
    "reference_dot_by_offset",
    "row_distance_by_offset",
    "rows_distance_past",
    "separation_floor",
    "smallest_row_distance",
]

Float64Array = npt.NDArray[np.float64]


def dot_by_offset(d_model: int, offsets: npt.ArrayLike, *, base: float = 10000.0) -> Float64Array:
    r""":math:`f(k) = \sum_{i<d/2} \cos\omega_i k` for each offset ``k`` (float64): the dot
    product :math:`PE(p) \cdot PE(p+k)` of any two rows ``k`` apart.

    Examples
    --------
    >>> dot_by_offset(2, [0, 1]).round(4)
    array([1.    , 0.5403])
    """
    omega = numeric.frequencies(d_model, base)
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    _validate.capped_elements("dot_by_offset", ks.size * omega.size, 16)
    return np.asarray(np.cos(np.multiply.outer(ks, omega)).sum(axis=1), dtype=np.float64)


def reference_dot_by_offset(d_model: int, offsets: npt.ArrayLike) -> Float64Array:
    r""":math:`f(k)` from the 50-digit cosines of :func:`pe.reference.table`, summed exactly.

    Each :math:`\cos\omega_i k` is the float64 nearest its exact value and the sum is
    correctly rounded (:func:`math.fsum`), so the error is below :math:`d\,\varepsilon_{64}`.

    Examples
    --------
    >>> float(reference_dot_by_offset(2, [1])[0]) == float(dot_by_offset(2, [1])[0])
    True
    """
    ks = [int(k) for k in _validate.integer_positions("offsets", offsets).ravel()]
    cosines = reference.table(ks, d_model)[:, 1::2]
    return np.array([math.fsum(row) for row in cosines], dtype=np.float64)


def chord_lengths(omega: npt.ArrayLike, offsets: npt.ArrayLike) -> Float64Array:
    r""":math:`\sqrt{\sum_i 4\sin^2(\omega_i k / 2)}` per offset: the row distance for frequencies ``omega``.

    The cancellation-free form of :math:`2 - 2\cos x = 4\sin^2(x/2)`: small distances keep
    full relative precision.

    Examples
    --------
    >>> chord_lengths([np.pi], [1]).round(12)
    array([2.])
    """
    w = np.asarray(omega, dtype=np.float64)
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    _validate.capped_elements("row_distance_by_offset", ks.size * w.size, 16)
    half = np.sin(np.multiply.outer(ks, w) / 2.0)
    return np.asarray(np.sqrt((4.0 * half**2).sum(axis=1)), dtype=np.float64)


def chord_squared(w: Any) -> Any:
    r"""The squared step of a pair turning by :math:`\omega`: :math:`4\sin^2(\omega/2) = 2 - 2\cos\omega`.

    Exact (SymPy): the form the proofs compare a pair's squared step with.

    Examples
    --------
    >>> chord_squared(sp.pi)
    4
    """
    return 2 - 2 * sp.cos(w)


def row_distance_by_offset(
    offsets: npt.ArrayLike, d_model: int, *, base: float = 10000.0, chord: bool = False
) -> Float64Array:
    r""":math:`\lVert PE(p+k) - PE(p)\rVert` for each offset ``k``: the distance of any two rows ``k`` apart.

    As the formula reads, :math:`\sqrt{\sum_i (2 - 2\cos\omega_i k)}` (absolute error about
    :math:`\varepsilon` per term); with ``chord=True`` in the cancellation-free form of
    :func:`chord_lengths` (relative error about :math:`\varepsilon`, for small distances).

    Examples
    --------
    >>> row_distance_by_offset([0, 1], 2).round(4).tolist()
    [0.0, 0.9589]
    >>> row_distance_by_offset([0], 2, chord=True).tolist()
    [0.0]
    """
    if chord:
        return chord_lengths(numeric.frequencies(d_model, base), offsets)
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("row_distance_by_offset", ks.size * width, 16)
    omega = numeric.frequencies(width, base)
    squared = (2.0 - 2.0 * np.cos(np.multiply.outer(ks, omega))).sum(axis=1)
    return np.asarray(np.sqrt(np.maximum(squared, 0.0)), dtype=np.float64)


def nearest_rows(n_positions: int, d_model: int, *, base: float = 10000.0) -> tuple[int, float]:
    """Among positions ``0 .. n-1``: the offset of the closest two rows and their distance.

    The distance between rows ``p`` and ``q`` depends only on ``|p - q|``, so the minimum
    over all pairs of rows is the minimum of :func:`row_distance_by_offset` (chord form)
    over ``k = 1 .. n - 1``: :math:`O(n d)` work instead of :math:`O(n^2 d)`.

    Examples
    --------
    >>> nearest_rows(100, 16)[0]
    1
    """
    n = _validate.positive_int("n_positions", n_positions)
    if n < 2:
        raise ValueError("n_positions must be >= 2")
    distances = row_distance_by_offset(np.arange(1, n), d_model, base=base, chord=True)
    index = int(np.argmin(distances))
    return index + 1, float(distances[index])


def smallest_row_distance(n_positions: int, d_model: int) -> tuple[float, int, int]:
    """Smallest distance between two distinct rows of the table of ``n`` positions, by brute force.

    Returns the distance and the two positions. Works from the Gram matrix of the table
    (``n x n``, :math:`O(n^2 d)`), so keep ``n`` to a few thousand.

    Examples
    --------
    >>> distance, p, q = smallest_row_distance(100, 16)
    >>> abs(distance - nearest_rows(100, 16)[1]) < 1e-9, q - p
    (True, 1)
    """
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("the Gram matrix", 3 * count * count, 8)
    table = numeric.sinusoidal(count, width)
    norms = (table**2).sum(axis=1)
    squared = norms[:, None] + norms[None, :] - 2.0 * table @ table.T
    np.fill_diagonal(squared, np.inf)
    flat = int(np.argmin(squared))
    p, q = divmod(flat, count)
    return float(np.sqrt(max(squared[p, q], 0.0))), min(p, q), max(p, q)


def pair_min_distance(
    omega: npt.ArrayLike, n_positions: int
) -> tuple[Float64Array, npt.NDArray[np.int64]]:
    r"""Per frequency: the smallest :math:`\lVert v(p) - v(q) \rVert = 2|\sin(\omega k/2)|`, ``0 < k < n``.

    Returns the minimum distances and the offsets where they occur.

    Examples
    --------
    >>> pair_min_distance([2 * np.pi / 8], 20)[1].tolist()
    [8]
    """
    w = np.asarray(omega, dtype=np.float64)
    n = _validate.positive_int("n_positions", n_positions)
    _validate.capped_elements("pair_min_distance", n * w.size, 16)
    ks = np.arange(1, n, dtype=np.float64)
    distance = 2.0 * np.abs(np.sin(np.multiply.outer(ks, w) / 2.0))
    where = np.argmin(distance, axis=0)
    return distance[where, np.arange(w.size)], (where + 1).astype(np.int64)


def neighbour_distance(d_model: int = 512) -> float:
    r""":math:`\lVert PE(p+1) - PE(p) \rVert = \sqrt{\sum_i (2 - 2\cos\omega_i)}`, the same for every ``p``.

    Examples
    --------
    >>> round(neighbour_distance(512), 4)
    3.7143
    """
    return float(row_distance_by_offset([1], d_model)[0])


def rows_distance_past(
    d_model: int = 512, *, horizon: int = 10_000, frequencies: Float64Array | None = None
) -> float:
    r"""Smallest distance between a row of ``0 .. horizon-1`` and a row of ``horizon .. 2 horizon-1``.

    Computed by brute force on blocks of 1000 positions (every pair of the first 1000 rows
    before and after ``horizon``) and over all offsets up to ``2 horizon`` through
    :math:`\lVert PE(p+k) - PE(p)\rVert^2 = \sum_i (2 - 2\cos\omega_i k)`, for the paper's
    frequencies or the ``d_model / 2`` given ``frequencies`` (a candidate law). Angles below
    :math:`2 \cdot 10^4` in float64 err by about :math:`10^{-12}`, far below the distances
    compared (a neighbour step is about 3.7 at ``d = 512``).

    Examples
    --------
    >>> whole_turns = 2 * np.pi * np.round(numeric.frequencies(8) * 1000 / (2 * np.pi)) / 1000
    >>> rows_distance_past(8, horizon=1000, frequencies=whole_turns) < 1e-6
    True
    """
    width = _validate.even_width("d_model", d_model)
    span = _validate.positive_int("horizon", horizon, minimum=1000)
    omega = numeric.frequencies(width) if frequencies is None else np.asarray(frequencies, float)
    if omega.shape != (width // 2,):
        raise ValueError(f"frequencies must have shape ({width // 2},), got {omega.shape}")

    def rows(positions: npt.NDArray[np.int64]) -> Float64Array:
        angles = np.outer(positions, omega)
        return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

    a, b = rows(np.arange(1000)), rows(np.arange(span, span + 1000))
    squared = (a**2).sum(1)[:, None] + (b**2).sum(1)[None, :] - 2 * a @ b.T
    by_offset = (2 - 2 * np.cos(np.outer(np.arange(1, 2 * span), omega))).sum(axis=1)
    return float(np.sqrt(max(min(float(squared.min()), float(by_offset.min())), 0.0)))


def separation_floor(n_positions: int, omega: float) -> float:
    r"""Distances between points of one pair (:func:`one_pair_points`) below this are rounding.

    Each coordinate of a point at :math:`p < n` is within the phase model
    :math:`4\varepsilon + 4\varepsilon\,\omega p` of its exact value, so two points err by
    at most :math:`2\sqrt2` times that, and the distance computed between them (a norm of
    two differences) by :math:`\gamma_4` times the distance (at most 2) more: a distance
    above the floor separates two distinct points on every machine.

    Examples
    --------
    >>> f"{separation_floor(1000, 1.0):.2g}"
    '2.5e-12'
    """
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    phase = float(phase_tolerance(EPS64, float(omega), count - 1))
    return float(2 * np.sqrt(2) * phase + 2 * gamma(4))


def one_pair_points(n_positions: int, omega: float) -> Float64Array:
    r"""The points :math:`(\sin \omega p, \cos \omega p)` of one pair, ``0 <= p < n``, as rows.

    Examples
    --------
    >>> one_pair_points(2, 1.0).round(3).tolist()
    [[0.0, 1.0], [0.841, 0.54]]
    """
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    angle = float(omega) * np.arange(count)
    return np.stack([np.sin(angle), np.cos(angle)], axis=1)


def closest_rows(rows: npt.ArrayLike) -> tuple[int, int, float]:
    r"""The two closest rows (Euclidean distance), every pair compared: ``(p, q, distance)``.

    For the points of one pair the exact distance is :math:`2|\sin(\omega (q - p)/2)|`,
    which the computed one matches within a few ulps.

    Examples
    --------
    >>> p, q, distance = closest_rows(one_pair_points(1000, 1.0))
    >>> q - p, f"{distance:.2g}"
    (710, '6e-05')
    >>> from pe.binary import binary_bits
    >>> closest_rows(binary_bits(1000, 10))[2]
    1.0
    """
    points = np.asarray(rows, dtype=np.float64)
    count = points.shape[0]
    if points.ndim != 2 or count < 2:
        raise ValueError(f"rows must be a 2-D array of at least two rows, got {points.shape}")
    _validate.capped_elements("the distances", count * count * points.shape[1], 8)
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    gaps[np.tril_indices(count)] = np.inf
    p, q = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
    return int(p), int(q), float(gaps[p, q])
