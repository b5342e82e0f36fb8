r"""What the rotation identity implies, measured: dot products, norms, distances and scores.

Notation as in :mod:`pe.numeric`: :math:`\omega_i = \mathrm{base}^{-2i/d}`,
:math:`v_i(p) = (\sin\omega_i p, \cos\omega_i p)`, :math:`PE(p) = (v_0(p), \dots, v_{d/2-1}(p))`.
The exact statements behind these measurements are proved in :mod:`pe.proofs.implications`.

Error model of the numeric functions: every angle :math:`\omega_i k` is formed in float64
with absolute error about :math:`\varepsilon_{64}\,\omega_i |k|`; a sum over the
:math:`d/2` pairs accumulates at most :math:`d/2` such errors plus :math:`d/2` roundings.
:func:`dot_tolerance` states the bound used by the checks.

Examples
--------
>>> from pe.experiments import implications
>>> float(implications.dot_by_offset(4, [0])[0])
2.0
>>> implications.first_rise([3.0, 2.0, 2.5])
1
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric, reference
from pe._rotation_table import ENTRY_ERROR_BOUND
from pe._tolerance import ELEMENTARY_ULPS, EPS64, FREQUENCY_ROUNDING, gamma

__all__ = [
    "IDENTITY",
    "RANDOM",
    "ROTATION",
    "FrequencyLaw",
    "Projection",
    "brute_force_nearest",
    "chord_lengths",
    "decay_facts",
    "dot_by_offset",
    "dot_product_error",
    "dot_tolerance",
    "first_rise",
    "nearest_rows",
    "norm_error",
    "offset_spread",
    "pair_min_distance",
    "pair_shift_ratio",
    "reference_dot_by_offset",
    "row_distance_by_offset",
    "score_rounding",
    "scores",
    "symmetry_gap",
]

Float64Array = npt.NDArray[np.float64]
#: A frequency law ``d -> (d/2,) array`` of angular frequencies, like :func:`pe.numeric.frequencies`.
FrequencyLaw = Callable[[int], Float64Array]


def dot_by_offset(d_model: int, offsets: npt.ArrayLike, *, base: float = 10000.0) -> Float64Array:
    r""":math:`f(k) = \sum_{i<d/2} \cos\omega_i k` for each offset ``k`` (float64).

    By :func:`pe.proofs.implications.dot_product_per_pair` this equals
    :math:`PE(p) \cdot PE(p+k)` for every ``p``.

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


def dot_tolerance(d_model: int, reach: float) -> float:
    r"""A bound on a dot product of two rows against :math:`\sum_i \cos \omega_i k`.

    The rows come from :func:`pe.numeric.sinusoidal` (entries within :math:`\delta`, norms
    :math:`\sqrt{d/2}`): their dot product errs by at most :math:`\sqrt2\,d\,\delta` from
    the entries and :math:`\gamma_d\,d/2` from its rounding, in any order. The reference
    sums :math:`d/2` cosines of angles :math:`k\,\omega_i` formed in float64 (each within
    :math:`\varepsilon + (r_\omega + u)\,|k|`, :math:`|k| \le` ``reach``, ``omega <= 1``)
    and rounds the sum (:math:`\gamma_{d/2}\,d/2`):

    .. math::

        \tau = \sqrt2\,d\,\delta + \gamma_d\,\tfrac d2
        + \tfrac d2\bigl(\varepsilon + (r_\omega + u)\,\mathrm{reach}\bigr)
        + \gamma_{d/2}\,\tfrac d2.

    Examples
    --------
    >>> f"{dot_tolerance(512, 0.0):.2g}"
    '2.2e-11'
    """
    width = _validate.even_width("d_model", d_model)
    half = width / 2
    return float(
        np.sqrt(2) * width * ENTRY_ERROR_BOUND
        + gamma(width) * half
        + half * (ELEMENTARY_ULPS * EPS64 + (FREQUENCY_ROUNDING + EPS64 / 2) * reach)
        + gamma(width // 2) * half
    )


def dot_product_error(d_model: int, n_positions: int, power: int = 1) -> float:
    r"""Largest :math:`|PE(p) \cdot PE(q) - \sum_i \cos(\omega_i^{\mathrm{power}} (q - p))|`, all rows.

    ``power = 1`` is the true law; 2 is the doubled exponent :math:`10000^{-4i/d}`.

    Examples
    --------
    >>> dot_product_error(8, 20) < 1e-12
    True
    """
    table = numeric.sinusoidal(n_positions, d_model)
    offsets = np.arange(-(n_positions - 1), n_positions, dtype=np.float64)
    omega = numeric.frequencies(d_model) ** power
    f = np.cos(np.multiply.outer(offsets, omega)).sum(axis=1)
    q_minus_p = np.subtract.outer(np.arange(n_positions), np.arange(n_positions)).T
    return float(np.abs(table @ table.T - f[q_minus_p + n_positions - 1]).max())


def symmetry_gap(d_model: int, position: int, max_offset: int, between: int = 0) -> float:
    r"""Largest :math:`|PE(p)^{\mathsf T} T_j PE(p+k) - PE(p)^{\mathsf T} T_j PE(p-k)|`, ``0 < k < max_offset``.

    ``between`` is :math:`j`: 0 (no matrix, the raw dot product) or the shift placed between.

    Examples
    --------
    >>> symmetry_gap(16, 100, 50) < 1e-12, symmetry_gap(16, 100, 50, between=1) > 0.1
    (True, True)
    """
    ks = np.arange(1, max_offset)
    table = numeric.sinusoidal(np.concatenate([[position], position + ks, position - ks]), d_model)
    row = numeric.shift_matrix(between, d_model).T @ table[0]
    ahead, behind = table[1 : 1 + ks.size], table[1 + ks.size :]
    return float(np.abs(ahead @ row - behind @ row).max())


def first_rise(values: npt.ArrayLike) -> int | None:
    """The first index ``k`` with ``values[k + 1] > values[k]``, or None if never.

    Examples
    --------
    >>> first_rise([3.0, 2.0, 1.0, 2.0]), first_rise([2.0, 1.0])
    (2, None)
    """
    array = np.asarray(values, dtype=np.float64)
    rises = np.flatnonzero(np.diff(array) > 0)
    return int(rises[0]) if rises.size else None


def decay_facts(d_model: int = 512, k_max: int = 20_000) -> tuple[int, int, float]:
    """First rise, position and value of the minimum of :func:`dot_by_offset`, ``0 <= k <= k_max``.

    Raises
    ------
    ValueError
        If ``f`` never rises.

    Examples
    --------
    >>> decay_facts(512, 100)[0]
    43
    """
    f = dot_by_offset(d_model, np.arange(k_max + 1))
    rise = first_rise(f)
    if rise is None:
        raise ValueError("f never rises")
    return rise, int(np.argmin(f)), float(f.min())


def norm_error(d_models: tuple[int, ...], positions: npt.ArrayLike, per_dimension: float) -> float:
    r"""Largest :math:`|\lVert PE(p) \rVert - \sqrt{c\,d}|` over the widths and positions, :math:`c` = ``per_dimension``.

    Examples
    --------
    >>> norm_error((8,), [0, 10**9], 0.5) < 1e-14
    True
    """
    worst = 0.0
    for d in d_models:
        norms = np.linalg.norm(numeric.sinusoidal(positions, d), axis=1)
        worst = max(worst, float(np.abs(norms - np.sqrt(per_dimension * d)).max()))
    return worst


def chord_lengths(omega: npt.ArrayLike, offsets: npt.ArrayLike) -> Float64Array:
    r""":math:`\sqrt{\sum_i 4\sin^2(\omega_i k / 2)}` per offset: the row distance for frequencies ``omega``.

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


def row_distance_by_offset(
    d_model: int, offsets: npt.ArrayLike, *, base: float = 10000.0
) -> Float64Array:
    r""":math:`\lVert PE(p) - PE(p+k) \rVert = \sqrt{\sum_i 4\sin^2(\omega_i k / 2)}` per offset.

    Uses :func:`pe.proofs.implications.distance_identity` in the cancellation-free form
    :math:`2 - 2\cos x = 4\sin^2(x/2)`, so small distances keep full relative precision.

    Examples
    --------
    >>> row_distance_by_offset(2, [0]).tolist()
    [0.0]
    """
    return chord_lengths(numeric.frequencies(d_model, base), offsets)


def nearest_rows(n_positions: int, d_model: int, *, base: float = 10000.0) -> tuple[int, float]:
    """Among positions ``0 .. n-1``: the offset of the closest two rows and their distance.

    The distance between rows ``p`` and ``q`` depends only on ``|p - q|``, so the minimum
    over all pairs of rows is the minimum of :func:`row_distance_by_offset` over
    ``k = 1 .. n - 1``: :math:`O(n d)` work instead of :math:`O(n^2 d)`.

    Examples
    --------
    >>> nearest_rows(100, 16)[0]
    1
    """
    n = _validate.positive_int("n_positions", n_positions)
    if n < 2:
        raise ValueError("n_positions must be >= 2")
    distances = row_distance_by_offset(d_model, np.arange(1, n), base=base)
    index = int(np.argmin(distances))
    return index + 1, float(distances[index])


def brute_force_nearest(n_positions: int, d_model: int) -> float:
    """The smallest distance between two rows of the table, over all pairs of rows (:math:`O(n^2 d)`).

    Examples
    --------
    >>> abs(brute_force_nearest(100, 16) - nearest_rows(100, 16)[1]) < 1e-9
    True
    """
    table = numeric.sinusoidal(n_positions, d_model)
    sq = (table**2).sum(axis=1)
    gram = np.maximum(sq[:, None] + sq[None, :] - 2 * table @ table.T, 0.0)
    np.fill_diagonal(gram, np.inf)
    return float(np.sqrt(gram.min()))


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


def pair_shift_ratio(
    d_model: int, n_positions: int, offsets: tuple[int, ...], blocks: FrequencyLaw
) -> float:
    r"""Worst error/tolerance of :math:`B(k\omega'_i)\,v_i(p)` against :math:`v_i(p+k)`, every pair.

    The table has the true frequencies; the blocks turn pair ``i`` by :math:`k\omega'_i`
    with :math:`\omega' =` ``blocks(d)`` (:func:`pe.numeric.frequencies` is the truth).

    Examples
    --------
    >>> pair_shift_ratio(16, 100, (1, 7), numeric.frequencies) <= 1.0
    True
    """
    omega, used = numeric.frequencies(d_model), blocks(d_model)
    table = numeric.sinusoidal(n_positions, d_model)
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


@dataclass(frozen=True)
class Projection:
    r"""A way to build :math:`W = W_q^{\mathsf T} W_k` from a random generator and the width.

    Attributes
    ----------
    name
        What :math:`W` is ("random", "identity", "rotation").
    build
        ``(rng, d) -> (d, d)`` array.
    """

    name: str
    build: Callable[[np.random.Generator, int], Float64Array]


def _random(rng: np.random.Generator, d: int, d_head: int = 16) -> Float64Array:
    wq = rng.standard_normal((d_head, d)) / np.sqrt(d)
    wk = rng.standard_normal((d_head, d)) / np.sqrt(d)
    return np.asarray(wq.T @ wk, dtype=np.float64)


def _identity(_rng: np.random.Generator, d: int) -> Float64Array:
    return np.eye(d)


def _rotation(rng: np.random.Generator, d: int) -> Float64Array:
    a, b = rng.standard_normal(d // 2), rng.standard_normal(d // 2)
    w = np.zeros((d, d))
    idx = np.arange(0, d, 2)
    w[idx, idx], w[idx + 1, idx + 1] = a, a
    w[idx, idx + 1], w[idx + 1, idx] = b, -b
    return w


#: Gaussian :math:`W_q, W_k` with 16 rows, scaled by :math:`1/\sqrt d`.
RANDOM = Projection("random", _random)
#: :math:`W = I`: the raw dot product.
IDENTITY = Projection("identity", _identity)
#: :math:`W` block-diagonal of scaled rotations :math:`[[a_i, b_i], [-b_i, a_i]]`, which
#: commute with every :math:`T_k`.
ROTATION = Projection("rotation", _rotation)


def scores(
    n_positions: int,
    d_model: int,
    *,
    projection: Projection = RANDOM,
    content: float = 0.0,
    seed: int = 0,
) -> Float64Array:
    r"""Attention scores :math:`S_{pq} = (x + PE(p))^{\mathsf T} W_q^{\mathsf T} W_k (x + PE(q))`.

    Parameters
    ----------
    n_positions, d_model
        Positions ``0 .. n-1`` and the width.
    projection
        How :math:`W` is built: :data:`RANDOM`, :data:`IDENTITY` or :data:`ROTATION`.
    content
        Scale of one content vector ``x`` (the same token at every position; 0: none).
    seed
        Seed of the random weights and content.

    Examples
    --------
    >>> scores(3, 4, projection=IDENTITY).diagonal().round(12).tolist()
    [2.0, 2.0, 2.0]
    """
    rng = np.random.default_rng(seed)
    x = content * rng.standard_normal(d_model) / np.sqrt(d_model)
    rows = numeric.sinusoidal(n_positions, d_model) + x
    w = projection.build(rng, d_model)
    return np.asarray(rows @ w @ rows.T, dtype=np.float64)


def score_rounding(
    n_positions: int, d_model: int, *, projection: Projection = RANDOM, seed: int = 0
) -> float:
    r"""A bound on the rounding error of any entry of :func:`scores` (no content vector).

    :math:`S = R W R^{\mathsf T}` from rows within :math:`\delta` of the exact ones: the two
    matrix products err by at most :math:`2\gamma_d\,|R||W||R|^{\mathsf T}` (first order),
    the rows' errors by :math:`\delta\,(\mathbf 1^{\mathsf T}|W||R|^{\mathsf T} + |R||W|\mathbf 1)`;
    the largest entry of their sum.
    """
    rng = np.random.default_rng(seed)
    rng.standard_normal(d_model)  # the content vector scores() draws first
    rows = np.abs(numeric.sinusoidal(n_positions, d_model))
    w = np.abs(projection.build(rng, d_model))
    products = 2 * gamma(d_model) * (rows @ w @ rows.T)
    entries = ENTRY_ERROR_BOUND * (
        (w @ rows.T).sum(axis=0)[None, :] + (rows @ w).sum(axis=1)[:, None]
    )
    return float((products + entries).max())


def offset_spread(matrix: npt.ArrayLike) -> tuple[float, float]:
    r"""How far a square score matrix is from a function of :math:`q - p` alone.

    Returns ``(spread, scale)``: the largest range (max minus min) of the entries along one
    diagonal :math:`q - p = k`, over all ``k``, and the standard deviation of all entries.
    A function of the offset alone has ``spread`` at rounding level.

    Examples
    --------
    >>> offset_spread(np.eye(3))[0]
    0.0
    """
    s = np.asarray(matrix, dtype=np.float64)
    n = s.shape[0]
    spread = max(float(np.ptp(np.diagonal(s, offset=k))) for k in range(-(n - 2), n - 1))
    return spread, float(s.std())
