r"""Attention scores between encoded positions: how they fall with the offset, and when they are relative.

With the sinusoidal rows :math:`PE(p)` (:func:`pe.numeric.sinusoidal`), a content vector
:math:`x` and the projections :math:`W_q, W_k`, the score of query ``p`` against key ``q`` is

.. math::

    S_{pq} = (x + PE(p))^{\mathsf T} W (x + PE(q)), \qquad W = W_q^{\mathsf T} W_k

(:func:`scores`; :class:`Projection` says how :math:`W` is built: :data:`RANDOM`,
:data:`IDENTITY`, :data:`ROTATION`). With :math:`W = I` and no content it is the dot product
:math:`f(q - p) = \sum_i \cos\omega_i (q - p)`, a function of the offset alone that does not
fall steadily (:func:`first_rise`, :func:`decay_facts`). Whether a score matrix is a function
of the offset is measured by :func:`offset_spread`: the largest range along one diagonal
:math:`q - p = k`, at rounding level for a relative score; :func:`offset_spreads` measures
it for scores after random :math:`W_q, W_k` (:func:`additive_scores`,
:func:`rope_after_projection`).

For one pair :math:`e_p = v(p) = (\sin\omega p, \cos\omega p)` and a general :math:`2 \times 2`
block :math:`W` the position-position term is, exactly (:func:`sum_and_difference`),

.. math::

    e_p^{\mathsf T} W e_q = \tfrac{w_{11}+w_{22}}{2}\cos\omega(p-q)
      + \tfrac{w_{12}-w_{21}}{2}\sin\omega(p-q)
      + \tfrac{w_{22}-w_{11}}{2}\cos\omega(p+q)
      + \tfrac{w_{12}+w_{21}}{2}\sin\omega(p+q),

a function of :math:`p - q` alone (:func:`difference_terms`) only when :math:`W` is a scaled
rotation; a block between two pairs keeps it so only when it is zero (:func:`relative_blocks`),
and content breaks even the raw dot product (:func:`content_gap`).

Error model
-----------
:func:`score_rounding` bounds the rounding of any entry of :math:`S = R W R^{\mathsf T}`
(no content) from rows within :math:`\delta` (:data:`pe._rotation_table.ENTRY_ERROR_BOUND`)
of the exact ones: the two products err by at most :math:`2\gamma_d |R||W||R|^{\mathsf T}`
(first order in the unit roundoff), the rows' errors by
:math:`\delta\,(\mathbf 1^{\mathsf T}|W||R|^{\mathsf T} + |R||W|\mathbf 1)`.

Examples
--------
>>> spread, scale = offset_spread(scores(50, 16, projection=IDENTITY))
>>> bool(spread <= 2 * score_rounding(50, 16, projection=IDENTITY))
True
>>> offset_spread(scores(50, 16))[0] > 0.1 * offset_spread(scores(50, 16))[1]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric
from pe._rotation_table import ENTRY_ERROR_BOUND
from pe._tolerance import gamma
from pe.geometry import dot_by_offset
from pe.relative import signed_sinusoid
from pe.rotary import rope
from pe.symbolic import OMEGA, P, Q, pair

__all__ = [
    "IDENTITY",
    "RANDOM",
    "RANDOM_ROWS",
    "ROTATION",
    "ProjectedScores",
    "Projection",
    "additive_scores",
    "content_gap",
    "decay_facts",
    "difference_terms",
    "first_rise",
    "largest_rise",
    "offset_spread",
    "offset_spreads",
    "relative_blocks",
    "rope_after_projection",
    "score_rounding",
    "scores",
    "sum_and_difference",
]

Float64Array = npt.NDArray[np.float64]


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


def largest_rise(values: npt.ArrayLike) -> float:
    """Largest ``values[j] - values[i]`` over ``i < j``: 0 or less for a non-increasing sequence.

    Examples
    --------
    >>> largest_rise([3.0, 2.0, 1.0]), largest_rise([3.0, 1.0, 2.0])
    (-1.0, 1.0)
    """
    v = _validate.float_array("values", values, "(n,)").astype(np.float64)
    if v.ndim != 1 or v.size < 2:
        raise ValueError(f"values must be a 1-D array of at least two values, got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError("values must be finite")
    return float(np.max(v[1:] - np.minimum.accumulate(v)[:-1]))


def decay_facts(d_model: int = 512, k_max: int = 20_000) -> tuple[int, int, float]:
    """First rise, position and value of the minimum of :func:`pe.geometry.dot_by_offset`, ``0 <= k <= k_max``.

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


#: Rows of the random :math:`W_q` and :math:`W_k` of :data:`RANDOM` (a head's width).
RANDOM_ROWS = 16


def _random(rng: np.random.Generator, d: int, d_head: int = RANDOM_ROWS) -> Float64Array:
    wq = rng.standard_normal((d_head, d)) / np.sqrt(d)
    wk = rng.standard_normal((d_head, d)) / np.sqrt(d)
    return np.asarray(wq.T @ wk, dtype=np.float64)


def _rotation(rng: np.random.Generator, d: int) -> Float64Array:
    a, b = rng.standard_normal(d // 2), rng.standard_normal(d // 2)
    w = np.zeros((d, d))
    idx = np.arange(0, d, 2)
    w[idx, idx], w[idx + 1, idx + 1] = a, a
    w[idx, idx + 1], w[idx + 1, idx] = b, -b
    return w


def _identity(_rng: np.random.Generator, d: int) -> Float64Array:
    return np.eye(d)


#: Gaussian :math:`W_q, W_k` with 16 rows, scaled by :math:`1/\sqrt d`.
RANDOM = Projection("random", _random)

#: :math:`W` block-diagonal of scaled rotations :math:`[[a_i, b_i], [-b_i, a_i]]`, which
#: commute with every :math:`T_k`.
ROTATION = Projection("rotation", _rotation)

#: :math:`W = I`: the raw dot product.
IDENTITY = Projection("identity", _identity)


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
    n = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    # the n x n scores and the n x d product before them
    _validate.capped_elements("the scores", n * n + n * width, 8)
    rng = np.random.default_rng(seed)
    x = content * rng.standard_normal(d_model) / np.sqrt(d_model)
    rows = numeric.sinusoidal(n_positions, d_model) + x
    w = projection.build(rng, d_model)
    return np.asarray(rows @ w @ rows.T, dtype=np.float64)


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


#: Scores of query positions ``ms`` against key positions ``ns`` after the projections
#: ``W_q, W_k``: ``(W_q, W_k, ms, ns, rng) -> one score per pair (m_j, n_j)``.
ProjectedScores = Callable[
    [Float64Array, Float64Array, Any, Any, np.random.Generator], Float64Array
]


def _projected(
    w_q: object, w_k: object, ms: object, ns: object, rng: object, *, name: str, real: bool
) -> tuple[Float64Array, Float64Array, npt.NDArray[Any], npt.NDArray[Any]]:
    """The arguments of a :data:`ProjectedScores` checked: ``W_q`` and ``W_k`` square, finite,
    of one even width; positions (integers unless ``real``) paired one to one; a generator."""
    q = _validate.float_array("w_q", w_q, "(d, d)")
    k = _validate.float_array("w_k", w_k, "(d, d)")
    if q.ndim != 2 or q.shape[0] != q.shape[1]:
        raise ValueError(f"w_q must be a square matrix (d, d), got shape {q.shape}")
    _validate.even_width("w_q.shape[0]", q.shape[0])
    if k.shape != q.shape:
        raise ValueError(f"w_k must have the shape of w_q, {q.shape}, got {k.shape}")
    for label, w in (("w_q", q), ("w_k", k)):
        if not np.all(np.isfinite(w)):
            raise ValueError(f"{label} must be finite")
    m: npt.NDArray[Any]
    n: npt.NDArray[Any]
    if real:
        m = _validate.real_positions("ms", ms, limit=2**53)
        n = _validate.real_positions("ns", ns, limit=2**53)
    else:
        m = _validate.integer_positions("ms", ms, limit=2**53)
        n = _validate.integer_positions("ns", ns, limit=2**53)
    if m.size != n.size:
        raise ValueError(f"ms and ns must pair up, got {m.size} and {n.size} positions")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {rng!r:.40}")
    _validate.capped_elements(name, 4 * m.size * q.shape[0], 8)
    return cast(Float64Array, q), cast(Float64Array, k), m, n


def additive_scores(
    w_q: Float64Array, w_k: Float64Array, ms: Any, ns: Any, rng: np.random.Generator
) -> Float64Array:
    r"""Position-position scores of the additive encoding, :math:`\langle W_q PE(m_j), W_k PE(n_j)\rangle`.

    :math:`PE` is the sinusoid of :func:`pe.relative.signed_sinusoid` (any integer position);
    ``rng`` is not used (the additive encoding draws nothing).

    Examples
    --------
    >>> w = np.eye(2)
    >>> additive_scores(w, w, np.array([0, 5]), np.array([3, 8]), np.random.default_rng()).round(6)
    array([-0.989992, -0.989992])
    """
    w_q, w_k, ms, ns = _projected(w_q, w_k, ms, ns, rng, name="additive_scores", real=False)
    table = signed_sinusoid(np.concatenate([ms, ns]), w_q.shape[0])
    pm, pn = table[: len(ms)], table[len(ms) :]
    return np.asarray(np.einsum("jd,jd->j", pm @ w_q.T, pn @ w_k.T), dtype=np.float64)


def rope_after_projection(
    w_q: Float64Array, w_k: Float64Array, ms: Any, ns: Any, rng: np.random.Generator
) -> Float64Array:
    r"""Scores :math:`\langle R_{m_j} W_q x, R_{n_j} W_k x\rangle` of one token ``x`` drawn from ``rng``.

    RoPE (:func:`pe.rotary.rope`) applied after the projections: a function of
    :math:`n_j - m_j` alone, up to rounding.

    Examples
    --------
    >>> w, rng = np.eye(4), np.random.default_rng(0)
    >>> s = rope_after_projection(w, w, np.array([0, 7]), np.array([2, 9]), rng)
    >>> bool(abs(s[0] - s[1]) < 1e-12)
    True
    """
    w_q, w_k, ms, ns = _projected(w_q, w_k, ms, ns, rng, name="rope_after_projection", real=True)
    x = rng.standard_normal(w_q.shape[0])
    q = np.tile(w_q @ x, (len(ms), 1))
    k = np.tile(w_k @ x, (len(ns), 1))
    return np.asarray(np.einsum("jd,jd->j", rope(q, ms), rope(k, ns)))


def offset_spreads(candidate: ProjectedScores, d_model: int = 64, *, seed: int = 6) -> list[float]:
    """Spread (max - min) over ``m`` of the scores ``s(m, m + r)`` for ``r = 0, 1, 10``.

    Random ``W_q, W_k`` (``d x d``, entries of standard deviation 1/8) drawn from
    ``numpy.random.default_rng(seed)``, then ``candidate`` is called with the same generator;
    integer ``m < 2000`` in steps of 7. A relative score has spreads at rounding level.

    Examples
    --------
    >>> max(offset_spreads(rope_after_projection)) < 1e-10
    True
    >>> min(offset_spreads(additive_scores)) > 1.0
    True
    """
    _validate.function("candidate", candidate)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("offset_spreads", 3 * width * width, 8)
    rng = np.random.default_rng(_validate.positive_int("seed", seed, minimum=0))
    w_q = rng.standard_normal((width, width)) / 8
    w_k = rng.standard_normal((width, width)) / 8
    ms = np.arange(0, 2000, 7)
    spreads = []
    for r in (0, 1, 10):
        s = np.asarray(candidate(w_q, w_k, ms, ms + r, rng))
        if s.shape != ms.shape or s.dtype.kind not in "fiu":
            raise ValueError(f"candidate must return one real score per pair, got shape {s.shape}")
        spreads.append(float(s.max() - s.min()))
    return spreads


def score_rounding(
    n_positions: int, d_model: int, *, projection: Projection = RANDOM, seed: int = 0
) -> float:
    r"""A bound on the rounding error of any entry of :func:`scores` (no content vector).

    :math:`S = R W R^{\mathsf T}` from rows within :math:`\delta` of the exact ones: the two
    matrix products err by at most :math:`2\gamma_d\,|R||W||R|^{\mathsf T}` (first order),
    the rows' errors by :math:`\delta\,(\mathbf 1^{\mathsf T}|W||R|^{\mathsf T} + |R||W|\mathbf 1)`;
    the largest entry of their sum.

    Examples
    --------
    >>> bool(0 < score_rounding(10, 8) < 1e-13)
    True
    """
    n = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    # the n x n products and entries, and their sum
    _validate.capped_elements("the score bounds", 3 * n * n + n * width, 8)
    rng = np.random.default_rng(seed)
    rng.standard_normal(d_model)  # the content vector scores() draws first
    rows = np.abs(numeric.sinusoidal(n_positions, d_model))
    w = np.abs(projection.build(rng, d_model))
    products = 2 * gamma(d_model) * (rows @ w @ rows.T)
    entries = ENTRY_ERROR_BOUND * (
        (w @ rows.T).sum(axis=0)[None, :] + (rows @ w).sum(axis=1)[:, None]
    )
    return float((products + entries).max())


def difference_terms(w: Any) -> Any:
    r"""The :math:`p - q` part of :math:`e_p^{\mathsf T} W e_q` for a :math:`2 \times 2` ``w``.

    In the symbols :data:`pe.symbolic.P`, :data:`pe.symbolic.Q` and :data:`pe.symbolic.OMEGA`
    (:math:`\omega_i = \mathrm{base}^{-2i/d}`).

    Examples
    --------
    >>> difference_terms(sp.eye(2))
    cos((p - q)/base**(2*i/d))
    """
    half = sp.Rational(1, 2)
    return half * (w[0, 0] + w[1, 1]) * sp.cos(OMEGA * (P - Q)) + half * (
        w[0, 1] - w[1, 0]
    ) * sp.sin(OMEGA * (P - Q))


def sum_and_difference(w: Any) -> Any:
    r"""The exact form of :math:`e_p^{\mathsf T} W e_q`: the :math:`p - q` and :math:`p + q` parts.

    Examples
    --------
    >>> sum_and_difference(sp.Matrix([[1, 0], [0, -1]]))
    -cos((p + q)/base**(2*i/d))
    """
    half = sp.Rational(1, 2)
    return (
        difference_terms(w)
        + half * (w[1, 1] - w[0, 0]) * sp.cos(OMEGA * (P + Q))
        + half * (w[0, 1] + w[1, 0]) * sp.sin(OMEGA * (P + Q))
    )


def relative_blocks(*, same_frequency: bool = False) -> tuple[int, Any]:
    r"""The blocks :math:`B` between two pairs that keep their score a function of :math:`q - p`.

    Exact, with symbolic entries :math:`b_{11}, \dots, b_{22}` and symbolic positive
    frequencies :math:`\omega_i \ne \omega_j` (one :math:`\omega_i` for both pairs with
    ``same_frequency``): the residual :math:`s(p + t, q + t) - s(p, q)` of
    :math:`s(p, q) = v(\omega_i p)^{\mathsf T} B\,v(\omega_j q)` is rewritten into
    exponentials and expanded; the exponentials of distinct frequency vectors in
    :math:`(p, q, t)` are linearly independent, so each coefficient must vanish, and the
    linear system in the :math:`b`'s is solved.

    Returns
    -------
    tuple
        The number of distinct exponentials, and the solutions as a SymPy set: only the zero
        block couples two frequencies, and one pair keeps exactly the scaled rotations.

    Examples
    --------
    >>> relative_blocks()
    (8, {(0, 0, 0, 0)})
    >>> relative_blocks(same_frequency=True)
    (4, {(b22, -b21, b21, b22)})
    """
    if not isinstance(same_frequency, bool):
        raise TypeError(f"same_frequency must be a bool, got {same_frequency!r:.40}")
    p, q, t = sp.symbols("p q t", real=True)
    first, second = sp.symbols("omega_i omega_j", positive=True)
    other = first if same_frequency else second
    entries = sp.symbols("b11 b12 b21 b22")
    block = sp.Matrix(2, 2, entries)

    def score(a: Any, c: Any) -> Any:
        return (pair(a, first).T * block * pair(c, other))[0]

    residual = sp.expand((score(p + t, q + t) - score(p, q)).rewrite(sp.exp))
    groups: dict[tuple[Any, ...], Any] = {}
    for term in sp.Add.make_args(residual):
        coefficient, wave = term.as_independent(p, q, t)
        key = tuple(sp.expand(sp.powsimp(sp.diff(wave, x) / wave)) for x in (p, q, t))
        groups[key] = groups.get(key, 0) + coefficient
    equations = [e for e in (sp.expand(c) for c in groups.values()) if e != 0]
    return len(groups), sp.linsolve(equations, entries)


def content_gap(content: tuple[int, int]) -> Any:
    r"""The raw score with content, :math:`s(p, q) = (x + e_p)^{\mathsf T} (y + e_q)`, at
    :math:`(1, 1)` minus at :math:`(0, 0)` (the same offset), exactly.

    One pair (:math:`\omega = 1`), :math:`W = I` and ``x = y = content``; :math:`\cos^2 1` is
    replaced by :math:`1 - \sin^2 1` and the difference expanded. With content it is a
    non-zero multiple of :math:`\sin 1` (1 is not a multiple of :math:`\pi`): the score is
    not a function of the offset.

    Examples
    --------
    >>> content_gap((1, 0)), content_gap((0, 0))
    (2*sin(1), 0)
    """
    if isinstance(content, str | bytes) or not isinstance(content, tuple | list):
        raise TypeError(f"content must be a pair of numbers, got {content!r:.40}")
    if len(content) != 2:
        raise ValueError(
            f"content must be a pair of numbers (one pair of the encoding), got {len(content)}"
        )
    x = sp.Matrix([_validate.exact_scalar(f"content[{i}]", c) for i, c in enumerate(content)])

    def score(p: int, q: int) -> Any:
        return sp.expand(((x + pair(p, 1)).T * (x + pair(q, 1)))[0])

    return sp.expand((score(1, 1) - score(0, 0)).subs(sp.cos(1) ** 2, 1 - sp.sin(1) ** 2))
