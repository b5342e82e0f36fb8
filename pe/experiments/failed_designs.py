r"""Two position encodings that fail, and the requirements the sinusoidal one meets.

The raw index
    Position ``p`` written into the vector as the number ``p`` (for example one extra
    coordinate, :math:`[e; p]`). It is unbounded: its share of the squared norm,
    :math:`p^2 / (p^2 + \lVert e \rVert^2)`, tends to 1, so far positions swamp the
    token embedding ``e``.

The normalised index
    :math:`p / n` in a sentence of ``n`` tokens. It is bounded, but the gap between
    neighbours is :math:`1/n` (0.25 for 4 tokens, 0.025 for 40), and the value of a given
    position changes with the length of its sentence.

The requirements that follow, each checked for the sinusoidal encoding on the page
"Designs that fail": bounded, a distinct vector per position, the same offset looks the
same everywhere (:math:`\lVert PE(p+k) - PE(p) \rVert` depends on ``k`` only), defined for
any position independently of the sentence length, deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _rotation_table, _validate, numeric
from pe._tolerance import EPS64, gamma, phase_tolerance

__all__ = [
    "SEED",
    "Design",
    "binary_bits",
    "bits_needed",
    "closest_rows",
    "gram_distance_rounding",
    "log2_bits",
    "normalised",
    "normalised_index",
    "offset_distance_rounding",
    "offset_distances",
    "one_over_n",
    "one_pair_points",
    "position_share",
    "raw_index",
    "raw_index_ratio",
    "row_distance_by_offset",
    "separation_floor",
    "sinusoidal",
    "smallest_row_distance",
    "toy_embeddings",
]

Float64Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: A way to write positions as numbers: ``(positions, n, d) -> rows``, one row per position
#: of a sentence of ``n`` tokens, for embeddings of width ``d``.
Design = Callable[[IntArray, int, int], Float64Array]

#: Seed of the random token embeddings used in this chapter.
SEED = 4
#: Offsets up to this far are compared by the uniqueness checks (``encoding-rows-distinct``).
UNIQUE_SPAN = 20_000


def raw_index(positions: IntArray, _n: int, _d_model: int) -> Float64Array:
    """Design 1: the position ``p`` itself, as one extra coordinate (``n`` and ``d`` unused)."""
    return np.asarray(positions, dtype=np.float64)[:, None]


def normalised(positions: IntArray, n: int, _d_model: int) -> Float64Array:
    """Design 2: ``p / n``, as one extra coordinate, in a sentence of ``n`` tokens."""
    return np.asarray(positions, dtype=np.float64)[:, None] / n


def sinusoidal(positions: IntArray, _n: int, d_model: int) -> Float64Array:
    """The sinusoidal encoding :math:`PE(|p|)` of width ``d_model`` (``n`` unused)."""
    return np.asarray(numeric.sinusoidal(np.abs(positions), d_model), dtype=np.float64)


def one_over_n(n: Any) -> Any:
    """The neighbour gap :math:`1/n` of the normalised index (for a number or a SymPy symbol)."""
    return 1 / n


def toy_embeddings(n_tokens: int, d_model: int, *, seed: int = SEED) -> Float64Array:
    r"""Random token embeddings with entries :math:`N(0, 1)` (typical scale 1 per entry).

    This is the scale of the paper's embeddings after their multiplication by
    :math:`\sqrt{d}`; their norm is about :math:`\sqrt{d}`.
    """
    count = _validate.positive_int("n_tokens", n_tokens)
    width = _validate.positive_int("d_model", d_model)
    _validate.capped_elements("toy_embeddings", count * width, 8)
    return np.random.default_rng(seed).standard_normal((count, width))


def raw_index_ratio(positions: npt.ArrayLike, d_model: int = 512) -> Float64Array:
    r"""Ratio of the raw index ``p`` to the typical size of an embedding entry.

    The typical size is the root mean square of the entries of 1000 random embeddings
    (:func:`toy_embeddings`), about 1; the ratio is then about ``p``.
    """
    ps = _validate.integer_positions("positions", positions).astype(np.float64)
    rms = float(np.sqrt(np.mean(toy_embeddings(1000, d_model) ** 2)))
    return np.asarray(np.abs(ps) / rms, dtype=np.float64)


def position_share(design: Design, positions: npt.ArrayLike, d_model: int = 512) -> Float64Array:
    r"""Mean share of the squared norm that the position holds, over 1000 random embeddings.

    The share is :math:`\lVert E(p)\rVert^2 / (\lVert E(p)\rVert^2 + \lVert e\rVert^2)`:
    for the raw index the vector :math:`[e; p]` (the index as an extra coordinate), for the
    sinusoidal encoding :math:`e + PE(p)` (the two are nearly orthogonal in high dimension,
    so the squared norms nearly add).

    Examples
    --------
    >>> share = position_share(raw_index, [10, 1000], 64)
    >>> bool(share[0] < 0.9 < share[1])
    True
    """
    ps = _validate.integer_positions("positions", positions)
    width = _validate.even_width("d_model", d_model)
    embedding_sq = (toy_embeddings(1000, width) ** 2).sum(axis=1)
    position_sq = (design(ps, ps.size, width) ** 2).sum(axis=1)
    share = position_sq[:, None] / (position_sq[:, None] + embedding_sq[None, :])
    return np.asarray(share.mean(axis=1), dtype=np.float64)


def normalised_index(n: int) -> Float64Array:
    """The normalised index ``p / n`` for the positions ``0 .. n-1`` of a sentence of ``n``."""
    length = _validate.positive_int("n", n)
    return np.arange(length, dtype=np.float64) / length


def row_distance_by_offset(
    offsets: npt.ArrayLike, d_model: int, *, base: float = 10000.0
) -> Float64Array:
    r""":math:`\lVert PE(p+k) - PE(p)\rVert = \sqrt{\sum_i (2 - 2\cos\omega_i k)}` for each offset ``k``.

    By :func:`offset_distance_proof` this is the distance between any two rows ``k`` apart.
    """
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("row_distance_by_offset", ks.size * width, 16)
    omega = numeric.frequencies(width, base)
    squared = (2.0 - 2.0 * np.cos(np.multiply.outer(ks, omega))).sum(axis=1)
    return np.asarray(np.sqrt(np.maximum(squared, 0.0)), dtype=np.float64)


def smallest_row_distance(n_positions: int, d_model: int) -> tuple[float, int, int]:
    """Smallest distance between two distinct rows of the table of ``n`` positions, by brute force.

    Returns the distance and the two positions. Works from the Gram matrix of the table
    (``n x n``), so keep ``n`` to a few thousand.
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


def gram_distance_rounding(
    d_model: int, distance: float, entry_error: float = _rotation_table.ENTRY_ERROR_BOUND
) -> float:
    r"""A bound on the error of a distance between two rows of pe's table, from the Gram matrix.

    :func:`smallest_row_distance` forms :math:`s = |a|^2 + |b|^2 - 2\,a \cdot b` for rows
    of norm :math:`\sqrt{d/2}` whose entries are within :math:`\delta` (pe's entry bound)
    of the exact ones (``entry_error``: pe's entry bound by default). Table errors move :math:`s` by at most :math:`4\delta\sqrt d\,D +
    4\delta^2 d` (:math:`D` the distance); the three sums of :math:`d` products by at most
    :math:`\gamma_d (d/2 + d/2 + d)` (Cauchy-Schwarz bounds :math:`\sum |a_j b_j|` by
    :math:`d/2`), in any order; the two additions by :math:`u(d + D^2)`. The square root
    divides that by :math:`\sqrt{\hat s} + \sqrt s \ge D` and adds :math:`uD`:

    .. math::

        \tau = \frac{4\delta\sqrt d\,D + 4\delta^2 d + 2d\,\gamma_d + u(d + D^2)}{D} + uD.

    Examples
    --------
    >>> f"{gram_distance_rounding(512, 3.714):.2g}"
    '1.6e-11'
    """
    width = _validate.even_width("d_model", d_model)
    delta, u, dist = float(entry_error), EPS64 / 2, float(distance)
    squared = (
        4 * delta * np.sqrt(width) * dist
        + 4 * delta**2 * width
        + 2 * width * gamma(width)
        + u * (width + dist**2)
    )
    return float(squared / dist + u * dist)


def offset_distance_rounding(offsets: npt.ArrayLike, d_model: int) -> Float64Array:
    r"""A bound on :math:`|` :func:`offset_distances` :math:`-` :func:`row_distance_by_offset` :math:`|`, per offset.

    Both sides compute :math:`D_k^2 = \sum_i (2 - 2\cos\omega_i k)` for the sinusoidal
    design. From the table (entries within :math:`\delta`), each difference of two entries
    errs by at most :math:`e = 2\delta + 2u`, its square by :math:`4e + e^2 + 4u`, and the sum
    of :math:`d` squares (each at most 4) by :math:`4d\,\gamma_d` more. From the formula, each
    cosine errs by the phase model :math:`4\varepsilon + 4\varepsilon\,\omega_i |k|`, each
    term by twice that plus :math:`4u`, and the sum of :math:`d/2` terms by
    :math:`2d\,\gamma_{d/2}` more. The square roots divide the sum :math:`\tau^2` of both by
    :math:`2 D_k` and add :math:`u D_k` each:

    .. math::

        \tau_k = \frac{\tau^2_k}{2 D_k} + 2u D_k.
    """
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    width = _validate.even_width("d_model", d_model)
    u, e = EPS64 / 2, 2 * _rotation_table.ENTRY_ERROR_BOUND + EPS64
    omega = numeric.frequencies(width)
    table_side = width * (4 * e + e**2 + 4 * u) + 4 * width * gamma(width)
    cosines = 2 * phase_tolerance(EPS64, omega[None, :], ks[:, None]).sum(axis=1)
    formula_side = cosines + width / 2 * 4 * u + 2 * width * gamma(width // 2)
    distance = row_distance_by_offset(ks.astype(np.int64), width)
    return np.asarray(
        (table_side + formula_side) / (2 * distance) + 2 * u * distance, dtype=np.float64
    )


def offset_distances(
    design: Design,
    offsets: npt.ArrayLike,
    starts: npt.ArrayLike,
    d_model: int,
    n: int = 4,
) -> Float64Array:
    r"""Distances :math:`\lVert E(p+k) - E(p)\rVert` for each start ``p`` (rows) and offset ``k`` (columns).

    ``E`` is the ``design``, in a sentence of ``n`` tokens.

    Examples
    --------
    >>> offset_distances(normalised, [1], [0, 1], 2, n=4)
    array([[0.25],
           [0.25]])
    """
    ks = _validate.integer_positions("offsets", offsets)
    ps = _validate.integer_positions("starts", starts)
    width = _validate.even_width("d_model", d_model)
    length = _validate.positive_int("n", n)
    far = design(np.add.outer(ps, ks).ravel(), length, width)
    near = design(ps, length, width)
    diff = far.reshape(ps.size, ks.size, -1) - near[:, None, :]
    return np.asarray(np.sqrt((diff**2).sum(axis=2)), dtype=np.float64)


def binary_bits(n_positions: int, n_bits: int = 4) -> npt.NDArray[np.int64]:
    """Bit ``b`` (columns, lowest first) of the integers ``0 .. n-1`` (rows).

    Examples
    --------
    >>> binary_bits(4, 2).tolist()
    [[0, 0], [1, 0], [0, 1], [1, 1]]
    """
    count = _validate.positive_int("n_positions", n_positions)
    bits = _validate.positive_int("n_bits", n_bits)
    return (np.arange(count)[:, None] >> np.arange(bits)[None, :]) & 1


def bits_needed(n_positions: int) -> int:
    """The fewest bits whose codes tell the positions ``0 .. n-1`` apart, found by trying.

    Examples
    --------
    >>> bits_needed(8), bits_needed(9)
    (3, 4)
    """
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    bits = 1
    while np.unique(binary_bits(count, bits), axis=0).shape[0] < count:
        bits += 1
    return bits


def log2_bits(n_positions: int) -> int:
    r""":math:`\lceil \log_2 n \rceil`, the bits a binary code of ``n`` positions needs."""
    return (n_positions - 1).bit_length()


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


def one_pair_points(n_positions: int, omega: float) -> npt.NDArray[np.float64]:
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
