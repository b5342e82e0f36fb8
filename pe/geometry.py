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

On the table itself, :func:`dot_product_error`, :func:`symmetry_gap` (the dot product is even
in :math:`k`) and :func:`norm_error` (:math:`\lVert PE(p) \rVert^2 = d/2`) measure these
facts against :data:`pe.error_models.DOT_PRODUCT`; :func:`pair_distances` gives the chords
of each pair alone for every offset, and :func:`pair_shift_ratio` how well each pair's own
block shifts it.

Examples
--------
>>> float(dot_by_offset(4, [0])[0])
2.0
>>> nearest_rows(100, 16)[0]
1
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric, reference
from pe._tolerance import EPS64, gamma, phase_tolerance

__all__ = [
    "FrequencyLaw",
    "chord_lengths",
    "chord_squared",
    "closest_rows",
    "dot_by_offset",
    "dot_product_error",
    "nearest_rows",
    "neighbour_distance",
    "norm_error",
    "one_pair_points",
    "pair_distances",
    "pair_min_distance",
    "pair_shift_ratio",
    "reference_dot_by_offset",
    "row_distance_by_offset",
    "rows_distance_past",
    "separation_floor",
    "smallest_row_distance",
    "symmetry_gap",
]

Float64Array = npt.NDArray[np.float64]

#: A frequency law ``d -> (d/2,) array`` of angular frequencies, like :func:`pe.numeric.frequencies`.
FrequencyLaw = Callable[[int], Float64Array]


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


def dot_product_error(d_model: int, n_positions: int, power: int = 1) -> float:
    r"""Largest :math:`|PE(p) \cdot PE(q) - \sum_i \cos(\omega_i^{\mathrm{power}} (q - p))|` over every two rows.

    The dot products of all ``n x n`` pairs of rows of :func:`pe.numeric.sinusoidal` (one
    matrix product) against the sum of cosines of their offset. ``power = 1`` is the identity
    above; 2 is the doubled exponent :math:`10000^{-4i/d}`. For ``power = 1`` each dot
    product is within :data:`pe.error_models.DOT_PRODUCT` at reach :math:`2n`.

    Examples
    --------
    >>> dot_product_error(8, 20) < 1e-12
    True
    """
    width = _validate.even_width("d_model", d_model)
    count = _validate.positive_int("n_positions", n_positions)
    exponent = _validate.positive_int("power", power)
    _validate.capped_elements("dot_product_error", 3 * count * (count + width), 8)
    table = numeric.sinusoidal(count, width)
    offsets = np.arange(-(count - 1), count, dtype=np.float64)
    omega = numeric.frequencies(width) ** exponent
    f = np.cos(np.multiply.outer(offsets, omega)).sum(axis=1)
    q_minus_p = np.subtract.outer(np.arange(count), np.arange(count)).T
    return float(np.abs(table @ table.T - f[q_minus_p + count - 1]).max())


def symmetry_gap(d_model: int, position: int, max_offset: int, between: int = 0) -> float:
    r"""Largest :math:`|PE(p)^{\mathsf T} T_j PE(p+k) - PE(p)^{\mathsf T} T_j PE(p-k)|`, ``0 < k < max_offset``.

    ``between`` is :math:`j`: 0 places nothing between the rows (the dot product, even in
    :math:`k`: the gap is the rounding of two dot products, each within
    :data:`pe.error_models.DOT_PRODUCT`), another offset the shift matrix :math:`T_j`
    (:func:`pe.numeric.shift_matrix`), which tells ``k`` ahead from ``k`` behind.

    Examples
    --------
    >>> symmetry_gap(16, 100, 50) < 1e-12, symmetry_gap(16, 100, 50, between=1) > 0.1
    (True, True)
    """
    width = _validate.even_width("d_model", d_model)
    p = _validate.positive_int("position", position, minimum=0)
    reach = _validate.positive_int("max_offset", max_offset, minimum=2)
    if reach > p + 1:
        raise ValueError(f"max_offset must be <= position + 1 (rows p - k must exist), got {reach}")
    _validate.real_scalar("between", between)
    _validate.capped_elements("symmetry_gap", 2 * reach * (width + 2) + width * width, 8)
    ks = np.arange(1, reach)
    table = numeric.sinusoidal(np.concatenate([[p], p + ks, p - ks]), width)
    row = numeric.shift_matrix(between, width).T @ table[0]
    ahead, behind = table[1 : 1 + ks.size], table[1 + ks.size :]
    return float(np.abs(ahead @ row - behind @ row).max())


def norm_error(d_models: tuple[int, ...], positions: npt.ArrayLike, per_dimension: float) -> float:
    r"""Largest :math:`|\lVert PE(p) \rVert - \sqrt{c\,d}|` over the widths and positions, :math:`c` = ``per_dimension``.

    Every pair has norm 1, so :math:`c = 1/2` is the truth. The squared norm is a dot product
    of a row with itself, within :data:`pe.error_models.DOT_PRODUCT` at reach 0, and its
    square root (at least 1) halves that error.

    Examples
    --------
    >>> norm_error((8,), [0, 10**9], 0.5) < 1e-14
    True
    """
    for index, width in enumerate(_validate.sequence("d_models", d_models, "widths")):
        _validate.even_width(f"d_models[{index}]", width)
    if _validate.real_scalar("per_dimension", per_dimension) < 0:
        raise ValueError(f"per_dimension must be >= 0, got {per_dimension}")
    worst = 0.0
    for d in d_models:
        norms = np.linalg.norm(numeric.sinusoidal(positions, d), axis=1)
        worst = max(worst, float(np.abs(norms - np.sqrt(per_dimension * d)).max()))
    return worst


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
    return 2 - 2 * sp.cos(_validate.exact_scalar("w", w))


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


def nearest_rows(
    n_positions: int,
    d_model: int,
    *,
    base: float = 10000.0,
    frequencies: npt.ArrayLike | None = None,
) -> tuple[int, float]:
    """Among positions ``0 .. n-1``: the offset of the closest two rows and their distance.

    The distance between rows ``p`` and ``q`` depends only on ``|p - q|``, so the minimum
    over all pairs of rows is the minimum of :func:`row_distance_by_offset` (chord form)
    over ``k = 1 .. n - 1``: :math:`O(n d)` work instead of :math:`O(n^2 d)`. The rows have
    the paper's frequencies, or the ``d_model / 2`` given ``frequencies`` (a candidate law).

    Examples
    --------
    >>> nearest_rows(100, 16)[0]
    1
    >>> nearest_rows(1000, 4, frequencies=[np.pi / 2, np.pi / 4])[1] < 1e-12  # period 8
    True
    """
    n = _validate.positive_int("n_positions", n_positions)
    if n < 2:
        raise ValueError("n_positions must be >= 2")
    if frequencies is None:
        distances = row_distance_by_offset(np.arange(1, n), d_model, base=base, chord=True)
    else:
        distances = chord_lengths(frequencies, np.arange(1, n))
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
    distance = pair_distances(omega, n_positions)
    where = np.argmin(distance, axis=0)
    return distance[where, np.arange(distance.shape[1])], (where + 1).astype(np.int64)


def pair_distances(omega: npt.ArrayLike, n_positions: int) -> Float64Array:
    r"""Per offset ``0 < k < n`` (rows) and frequency (columns): :math:`\lVert v(p+k) - v(p) \rVert = 2|\sin(\omega k/2)|`.

    The chord of one pair's circle, the same for every ``p``; the sine of the half angle,
    formed in float64, errs by about :math:`\varepsilon + u\,\omega k`.

    Examples
    --------
    >>> pair_distances([np.pi], 3).round(12).tolist()
    [[2.0], [0.0]]
    """
    w = _frequency_values("omega", omega)
    n = _validate.positive_int("n_positions", n_positions)
    _validate.capped_elements("pair_distances", n * w.size, 16)
    ks = np.arange(1, n, dtype=np.float64)
    return np.asarray(2.0 * np.abs(np.sin(np.multiply.outer(ks, w) / 2.0)), dtype=np.float64)


def _frequency_values(name: str, value: object) -> Float64Array:
    """``value`` as a non-empty 1-D float64 array of finite frequencies, else a one-line error."""
    w = _validate.float_array(name, value, "(m,)").astype(np.float64)
    if w.ndim != 1 or w.size == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D array of frequencies, got shape {w.shape}"
        )
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{name} must be finite")
    return w


def pair_shift_ratio(
    d_model: int, n_positions: int, offsets: tuple[int, ...], blocks: FrequencyLaw
) -> float:
    r"""Worst error/tolerance of :math:`B(k\omega'_i)\,v_i(p)` against :math:`v_i(p+k)`, every pair.

    Each pair alone obeys the rotation identity: its block turns it by :math:`k\omega_i`.
    The table has the true frequencies; the blocks turn pair ``i`` by :math:`k\omega'_i`
    with :math:`\omega' =` ``blocks(d)`` (:func:`pe.numeric.frequencies` is the truth). Each
    entry is held to the shift model :func:`pe.numeric.rotation_tolerance` of its pair,
    :math:`4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega_i(|p| + |k|)` at
    the largest position: the truth stays at or below 1.

    Examples
    --------
    >>> pair_shift_ratio(16, 100, (1, 7), numeric.frequencies) <= 1.0
    True
    """
    width = _validate.even_width("d_model", d_model)
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    for index, k in enumerate(_validate.sequence("offsets", offsets, "offsets")):
        if _validate.positive_int(f"offsets[{index}]", k) >= count:
            raise ValueError(f"offsets[{index}] must be < n_positions = {count}, got {k}")
    _validate.function("blocks", blocks)
    _validate.capped_elements("pair_shift_ratio", 3 * count * width, 8)
    omega = numeric.frequencies(width)
    used = _frequency_values("blocks(d_model)", blocks(width))
    if used.shape != omega.shape:
        raise ValueError(f"blocks(d_model) must give d_model / 2 frequencies, got {used.shape}")
    table = numeric.sinusoidal(count, width)
    worst = 0.0
    for k in offsets:
        shifted = numeric.shift(table[: n_positions - k], k)
        for i in np.flatnonzero(used != omega):
            angle = k * used[i]
            a, b = table[: n_positions - k, 2 * i], table[: n_positions - k, 2 * i + 1]
            shifted[:, 2 * i] = np.cos(angle) * a + np.sin(angle) * b
            shifted[:, 2 * i + 1] = np.cos(angle) * b - np.sin(angle) * a
        error = np.abs(shifted - table[k:]).reshape(n_positions - k, d_model // 2, 2)
        tol = numeric.rotation_tolerance(omega, n_positions, k, np.float64)
        worst = max(worst, float((error.max(axis=(0, 2)) / tol).max()))
    return worst


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
    # the 1000 x 1000 block of squared distances (with two temporaries), and the angles of
    # every offset up to 2 horizon with their cosines
    block = 3 * 1000 * 1000
    _validate.capped_elements("rows_distance_past", block + 2 * (2 * span) * (width // 2), 8)

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
