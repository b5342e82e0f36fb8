r"""What the rotation identity implies for dot products, norms and attention scores.

Notation as in :mod:`pe.numeric`: :math:`\omega_i = \mathrm{base}^{-2i/d}`,
:math:`v_i(p) = (\sin\omega_i p, \cos\omega_i p)`, :math:`PE(p) = (v_0(p), \dots, v_{d/2-1}(p))`.

Exact statements (SymPy, each reduced to a zero residual; wrong candidates are rejected):

.. math::

    v_i(p) \cdot v_i(p+k) = \cos\omega_i k, \qquad
    PE(p) \cdot PE(p+k) = \sum_i \cos\omega_i k, \qquad
    \lVert PE(p) \rVert^2 = d/2,

.. math::

    \lVert v_i(p) - v_i(q) \rVert^2 = 2 - 2\cos\omega_i (p - q),

and for a general :math:`2 \times 2` block :math:`W` between two pairs

.. math::

    v(p)^{\mathsf T} W v(q) = \tfrac{w_{11}+w_{22}}{2}\cos\omega(p-q)
      + \tfrac{w_{12}-w_{21}}{2}\sin\omega(p-q)
      + \tfrac{w_{22}-w_{11}}{2}\cos\omega(p+q)
      + \tfrac{w_{12}+w_{21}}{2}\sin\omega(p+q),

so the score depends on :math:`p + q` unless :math:`W` is a scaled rotation.

Error model of the numeric functions: every angle :math:`\omega_i k` is formed in float64
with absolute error about :math:`\varepsilon_{64}\,\omega_i |k|`; a sum over the
:math:`d/2` pairs accumulates at most :math:`d/2` such errors plus :math:`d/2` roundings.
:func:`dot_tolerance` states the bound used by the checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric
from pe.symbolic import OMEGA, Derivation, K, P, Proof, Q, pair, to_latex

__all__ = [
    "attention_four_terms",
    "distance_identity",
    "dot_by_offset",
    "dot_product_concrete",
    "dot_product_per_pair",
    "dot_tolerance",
    "first_rise",
    "nearest_rows",
    "norm_concrete",
    "norm_per_pair",
    "offset_spread",
    "offset_symmetry",
    "pair_min_distance",
    "position_term",
    "row_distance_by_offset",
    "scores",
]

Float64Array = npt.NDArray[np.float64]

# --- exact proofs -------------------------------------------------------------------------


def dot_product_per_pair(rhs: Callable[[Any, Any], Any] | None = None) -> Proof:
    r"""Prove :math:`v(p) \cdot v(p+k) = \cos\omega k` for symbolic ``p``, ``k``, ``i``, ``d``.

    Parameters
    ----------
    rhs
        Optional wrong right-hand side ``(k, w) -> expression``; default ``cos(k w)``.
    """
    right = (rhs or (lambda k, w: sp.cos(k * w)))(K, OMEGA)
    left = pair(P, OMEGA).dot(pair(P + K, OMEGA))
    statement = rf"v_i(p) \cdot v_i(p+k) = {to_latex(right)}"
    derivation = Derivation()
    derivation.note("Residual: the dot product minus the right side", to_latex(left - right))
    residual = derivation.angle_addition(sp.Matrix([left - right]))
    residual = derivation.pythagoras(residual)
    return derivation.proof("dot product of one pair", statement, residual)


def _exact_omegas(d_model: int) -> list[Any]:
    width = _validate.even_width("d_model", d_model)
    if width > 64:
        raise ValueError(f"d_model must be <= 64 for an exact proof, got {width}")
    return [sp.Integer(10000) ** sp.Rational(-2 * i, width) for i in range(width // 2)]


def _pe(position: Any, omegas: list[Any]) -> Any:
    return sp.Matrix([f(w * position) for w in omegas for f in (sp.sin, sp.cos)])


def dot_product_concrete(d_model: int = 8, *, doubled: bool = False) -> Proof:
    r"""Prove :math:`PE(p) \cdot PE(p+k) = \sum_i \cos\omega_i k` for a concrete width.

    Frequencies are exact: :math:`\omega_i = 10000^{-2i/d}`. With ``doubled=True`` the
    right side uses the frequencies of the doubled exponent :math:`10000^{-4i/d}` (a wrong
    candidate: ``10000 ** (2 * i / d)`` with ``i`` stepping by 2).
    """
    omegas = _exact_omegas(d_model)
    right_omegas = [w**2 for w in omegas] if doubled else omegas
    left = _pe(P, omegas).dot(_pe(P + K, omegas))
    right = sum((sp.cos(w * K) for w in right_omegas), sp.Integer(0))
    statement = rf"PE(p) \cdot PE(p+k) = {sp.latex(right)} \quad (d = {d_model})"
    derivation = Derivation()
    derivation.note(f"Residual: {d_model // 2} pair products minus the sum of cosines", "")
    residual = derivation.angle_addition(sp.Matrix([left - right]))
    residual = derivation.pythagoras(residual)
    return derivation.proof(f"dot product, d = {d_model}", statement, residual)


def offset_symmetry(between: Callable[[Any, Any], Any] | None = None) -> Proof:
    r"""Prove :math:`v(p)^{\mathsf T} M v(p+k) = v(p)^{\mathsf T} M v(p-k)` with :math:`M = I`.

    Parameters
    ----------
    between
        Optional matrix ``(k, w) -> 2 x 2`` placed between the pairs (a wrong candidate:
        ``lambda k, w: shift_block(1, w)`` gives a score that tells left from right).
    """
    matrix = between(K, OMEGA) if between else sp.eye(2)
    ahead = (pair(P, OMEGA).T * matrix * pair(P + K, OMEGA))[0]
    behind = (pair(P, OMEGA).T * matrix * pair(P - K, OMEGA))[0]
    statement = rf"v(p)^{{\mathsf T}} {to_latex(matrix)} v(p+k) = v(p)^{{\mathsf T}} {to_latex(matrix)} v(p-k)"
    derivation = Derivation()
    derivation.note(
        "Residual: the score k ahead minus the score k behind", to_latex(ahead - behind)
    )
    residual = derivation.angle_addition(sp.Matrix([ahead - behind]))
    residual = derivation.pythagoras(residual)
    return derivation.proof("the dot product is even in k", statement, residual)


def norm_per_pair(candidate: Callable[[Any, Any], Any] | None = None) -> Proof:
    r"""Prove :math:`\lVert v(p) \rVert^2 = 1`, hence :math:`\lVert PE(p) \rVert^2 = d/2`.

    Parameters
    ----------
    candidate
        Optional wrong pair ``(p, w) -> 2 x 1 Matrix``, e.g. :math:`(\sin\omega p, \cos 2\omega p)`.
    """
    vector = (candidate or pair)(P, OMEGA)
    statement = rf"\lVert {to_latex(vector)} \rVert^2 = 1"
    derivation = Derivation()
    residual = sp.Matrix([vector.dot(vector) - 1])
    derivation.note("Residual: the squared norm minus 1", to_latex(residual))
    residual = derivation.angle_addition(residual)
    residual = derivation.pythagoras(residual)
    return derivation.proof("each pair has norm 1", statement, residual)


def norm_concrete(d_model: int = 8, *, claimed: Any = None) -> Proof:
    r"""Prove :math:`\lVert PE(p) \rVert^2 = d/2` for a concrete width (``claimed`` overrides d/2)."""
    omegas = _exact_omegas(d_model)
    vector = _pe(P, omegas)
    target = sp.Rational(d_model, 2) if claimed is None else claimed
    statement = rf"\lVert PE(p) \rVert^2 = {sp.latex(target)} \quad (d = {d_model})"
    derivation = Derivation()
    derivation.note("Residual: the sum of squares minus the claimed value", "")
    residual = derivation.pythagoras(sp.Matrix([vector.dot(vector) - target]))
    return derivation.proof(f"norm, d = {d_model}", statement, residual)


def distance_identity(rhs: Callable[[Any, Any, Any], Any] | None = None) -> Proof:
    r"""Prove :math:`\lVert v(p) - v(q) \rVert^2 = 2 - 2\cos\omega(p - q)`.

    Parameters
    ----------
    rhs
        Optional wrong right side ``(p, q, w) -> expression``.
    """
    right = (rhs or (lambda p, q, w: 2 - 2 * sp.cos(w * (p - q))))(P, Q, OMEGA)
    gap = pair(P, OMEGA) - pair(Q, OMEGA)
    statement = rf"\lVert v_i(p) - v_i(q) \rVert^2 = {to_latex(right)}"
    derivation = Derivation()
    residual = sp.Matrix([gap.dot(gap) - right])
    derivation.note("Residual: the squared distance minus the right side", to_latex(residual))
    residual = derivation.angle_addition(residual)
    residual = derivation.pythagoras(residual)
    return derivation.proof("distance between two positions of one pair", statement, residual)


def attention_four_terms(drop_cross_terms: bool = False) -> Proof:
    r"""Prove the four-term expansion of the score with content and positions, for one pair.

    .. math::

        (x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y + x^{\mathsf T} W e_q
        + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q,
        \qquad W = W_q^{\mathsf T} W_k,

    with :math:`x, y` symbolic content, :math:`e_p = v(p)`, :math:`e_q = v(q)` and
    :math:`W` a general symbolic :math:`2 \times 2` matrix. ``drop_cross_terms`` is a wrong
    candidate that keeps only the content-content and position-position terms.
    """
    x = sp.Matrix(sp.symbols("x_1 x_2", real=True))
    y = sp.Matrix(sp.symbols("y_1 y_2", real=True))
    w = sp.Matrix(2, 2, sp.symbols("w_11 w_12 w_21 w_22", real=True))
    ep, eq = pair(P, OMEGA), pair(Q, OMEGA)
    terms = [x.T * w * y, x.T * w * eq, ep.T * w * y, ep.T * w * eq]
    if drop_cross_terms:
        terms = [terms[0], terms[3]]
    left = ((x + ep).T * w * (y + eq))[0]
    right = sum((t[0] for t in terms), sp.Integer(0))
    names = ["x^T W y", "x^T W e_q", "e_p^T W y", "e_p^T W e_q"]
    shown = names if not drop_cross_terms else [names[0], names[3]]
    statement = (
        r"(x + e_p)^{\mathsf T} W (y + e_q) = "
        + " + ".join(n.replace("^T", r"^{\mathsf T}") for n in shown)
        + r", \quad W = W_q^{\mathsf T} W_k"
    )
    derivation = Derivation()
    derivation.note("W is a general 2 × 2 matrix", to_latex(w))
    residual = derivation.apply(
        "Residual: the score minus the sum of the terms, multiplied out (expand)",
        sp.Matrix([left - right]),
        sp.expand,
    )
    return derivation.proof("four-term expansion of the score", statement, residual)


def position_term(relative_only: bool = False) -> Proof:
    r"""Prove the sum-and-difference form of :math:`e_p^{\mathsf T} W e_q` for one pair.

    The :math:`\cos\omega(p+q)` and :math:`\sin\omega(p+q)` terms vanish only when
    :math:`w_{22} = w_{11}` and :math:`w_{21} = -w_{12}` (a scaled rotation). With
    ``relative_only=True`` the candidate keeps only the :math:`p - q` terms (wrong for a
    general ``W``).
    """
    w11, w12, w21, w22 = sp.symbols("w_11 w_12 w_21 w_22", real=True)
    w = sp.Matrix([[w11, w12], [w21, w22]])
    left = (pair(P, OMEGA).T * w * pair(Q, OMEGA))[0]
    half = sp.Rational(1, 2)
    right = half * (w11 + w22) * sp.cos(OMEGA * (P - Q)) + half * (w12 - w21) * sp.sin(
        OMEGA * (P - Q)
    )
    if not relative_only:
        right += half * (w22 - w11) * sp.cos(OMEGA * (P + Q)) + half * (w12 + w21) * sp.sin(
            OMEGA * (P + Q)
        )
    statement = rf"e_p^{{\mathsf T}} W e_q = {to_latex(right)}"
    derivation = Derivation()
    derivation.note("Residual: the position-position term minus the right side", "")
    residual = derivation.angle_addition(sp.Matrix([left - right]))
    return derivation.proof("the position-position term", statement, residual)


# --- numeric functions --------------------------------------------------------------------


def dot_by_offset(d_model: int, offsets: npt.ArrayLike, *, base: float = 10000.0) -> Float64Array:
    r""":math:`f(k) = \sum_{i<d/2} \cos\omega_i k` for each offset ``k`` (float64).

    By :func:`dot_product_per_pair` this equals :math:`PE(p) \cdot PE(p+k)` for every ``p``.
    """
    omega = numeric.frequencies(d_model, base)
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    _validate.capped_elements("dot_by_offset", ks.size * omega.size, 16)
    return np.asarray(np.cos(np.multiply.outer(ks, omega)).sum(axis=1), dtype=np.float64)


def dot_tolerance(d_model: int, reach: float) -> float:
    r"""Bound for a sum of ``d/2`` pair products: :math:`d\,(4\varepsilon + 4\varepsilon\,\mathrm{reach})`.

    ``reach`` is the largest :math:`|p| + |k|` involved (angles of the fastest pair).
    """
    eps = float(np.finfo(np.float64).eps)
    return d_model * (4.0 * eps + 4.0 * eps * reach)


def first_rise(values: npt.ArrayLike) -> int | None:
    """The first index ``k`` with ``values[k + 1] > values[k]``, or None if never."""
    array = np.asarray(values, dtype=np.float64)
    rises = np.flatnonzero(np.diff(array) > 0)
    return int(rises[0]) if rises.size else None


def row_distance_by_offset(
    d_model: int, offsets: npt.ArrayLike, *, base: float = 10000.0
) -> Float64Array:
    r""":math:`\lVert PE(p) - PE(p+k) \rVert = \sqrt{\sum_i 4\sin^2(\omega_i k / 2)}` per offset.

    Uses :func:`distance_identity` in the cancellation-free form
    :math:`2 - 2\cos x = 4\sin^2(x/2)`, so small distances keep full relative precision.
    """
    omega = numeric.frequencies(d_model, base)
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    _validate.capped_elements("row_distance_by_offset", ks.size * omega.size, 16)
    half = np.sin(np.multiply.outer(ks, omega) / 2.0)
    return np.asarray(np.sqrt((4.0 * half**2).sum(axis=1)), dtype=np.float64)


def nearest_rows(n_positions: int, d_model: int, *, base: float = 10000.0) -> tuple[int, float]:
    """Among positions ``0 .. n-1``: the offset of the closest two rows and their distance.

    The distance between rows ``p`` and ``q`` depends only on ``|p - q|``, so the minimum
    over all pairs of rows is the minimum of :func:`row_distance_by_offset` over
    ``k = 1 .. n - 1``: :math:`O(n d)` work instead of :math:`O(n^2 d)`.
    """
    n = _validate.positive_int("n_positions", n_positions)
    if n < 2:
        raise ValueError("n_positions must be >= 2")
    distances = row_distance_by_offset(d_model, np.arange(1, n), base=base)
    index = int(np.argmin(distances))
    return index + 1, float(distances[index])


def pair_min_distance(
    omega: npt.ArrayLike, n_positions: int
) -> tuple[Float64Array, npt.NDArray[np.int64]]:
    r"""Per frequency: the smallest :math:`\lVert v(p) - v(q) \rVert = 2|\sin(\omega k/2)|`, ``0 < k < n``.

    Returns the minimum distances and the offsets where they occur.
    """
    w = np.asarray(omega, dtype=np.float64)
    n = _validate.positive_int("n_positions", n_positions)
    _validate.capped_elements("pair_min_distance", n * w.size, 16)
    ks = np.arange(1, n, dtype=np.float64)
    distance = 2.0 * np.abs(np.sin(np.multiply.outer(ks, w) / 2.0))
    where = np.argmin(distance, axis=0)
    return distance[where, np.arange(w.size)], (where + 1).astype(np.int64)


def scores(
    n_positions: int,
    d_model: int,
    *,
    d_head: int = 16,
    content: float = 0.0,
    projection: str = "random",
    seed: int = 0,
) -> Float64Array:
    r"""Attention scores :math:`S_{pq} = (x + PE(p))^{\mathsf T} W_q^{\mathsf T} W_k (x + PE(q))`.

    Parameters
    ----------
    n_positions, d_model
        Positions ``0 .. n-1`` and the width.
    d_head
        Rows of :math:`W_q` and :math:`W_k`.
    content
        Scale of one content vector ``x`` (the same token at every position; 0: none).
    projection
        ``"random"``: Gaussian :math:`W_q, W_k` scaled by :math:`1/\sqrt d`;
        ``"identity"``: :math:`W = I` (the raw dot product);
        ``"rotation"``: :math:`W` block-diagonal of scaled rotations
        :math:`[[a_i, b_i], [-b_i, a_i]]`, which commute with every :math:`T_k`.
    seed
        Seed of the random weights and content.
    """
    rng = np.random.default_rng(seed)
    table = numeric.sinusoidal(n_positions, d_model)
    x = content * rng.standard_normal(d_model) / np.sqrt(d_model)
    rows = table + x
    if projection == "identity":
        w = np.eye(d_model)
    elif projection == "random":
        wq = rng.standard_normal((d_head, d_model)) / np.sqrt(d_model)
        wk = rng.standard_normal((d_head, d_model)) / np.sqrt(d_model)
        w = wq.T @ wk
    elif projection == "rotation":
        a, b = rng.standard_normal(d_model // 2), rng.standard_normal(d_model // 2)
        w = np.zeros((d_model, d_model))
        idx = np.arange(0, d_model, 2)
        w[idx, idx], w[idx + 1, idx + 1] = a, a
        w[idx, idx + 1], w[idx + 1, idx] = b, -b
    else:
        raise ValueError(
            f"projection must be 'random', 'identity' or 'rotation', got {projection!r}"
        )
    return np.asarray(rows @ w @ rows.T, dtype=np.float64)


def offset_spread(matrix: npt.ArrayLike) -> tuple[float, float]:
    r"""How far a square score matrix is from a function of :math:`q - p` alone.

    Returns ``(spread, scale)``: the largest range (max minus min) of the entries along one
    diagonal :math:`q - p = k`, over all ``k``, and the standard deviation of all entries.
    A function of the offset alone has ``spread`` at rounding level.
    """
    s = np.asarray(matrix, dtype=np.float64)
    n = s.shape[0]
    spread = max(float(np.ptp(np.diagonal(s, offset=k))) for k in range(-(n - 2), n - 1))
    return spread, float(s.std())
