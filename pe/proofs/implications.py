r"""What the rotation identity implies: exact proofs, in SymPy, of dot products, norms and scores.

Notation as in :mod:`pe.numeric`: :math:`\omega_i = \mathrm{base}^{-2i/d}`,
:math:`v_i(p) = (\sin\omega_i p, \cos\omega_i p)`, :math:`PE(p) = (v_0(p), \dots, v_{d/2-1}(p))`.
Each proof reduces a residual to exactly zero (no ``simplify``, no floats):

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

Every proof is a function of one candidate (the right side, the pair, the matrix between
the rows, the terms kept); the default is the true one, and the wrong candidates of
:mod:`pe.proofs.wrong` make it fail.

Examples
--------
>>> from pe.proofs import implications
>>> implications.dot_product_per_pair().holds
True
>>> implications.dot_product_concrete(2).holds  # frequencies squared on the right side
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from pe import _validate
from pe.symbolic import OMEGA, Derivation, K, P, Proof, Q, pair, shift_block, to_latex

__all__ = [
    "ALL_TERMS",
    "HALF",
    "attention_four_terms",
    "chord_squared",
    "difference_terms",
    "distance_identity",
    "dot_product_concrete",
    "dot_product_per_pair",
    "norm_concrete",
    "norm_per_pair",
    "offset_cosine",
    "offset_symmetry",
    "position_term",
    "sum_and_difference",
]

#: The four terms of the score with content, in the order of :func:`attention_four_terms`.
TERM_NAMES = ("x^T W y", "x^T W e_q", "e_p^T W y", "e_p^T W e_q")
#: Every term kept: the true expansion.
ALL_TERMS = (0, 1, 2, 3)
#: The true squared norm per dimension: :math:`\lVert PE(p) \rVert^2 = d/2`.
HALF = sp.Rational(1, 2)
_W = sp.Matrix(2, 2, sp.symbols("w_11 w_12 w_21 w_22", real=True))


def offset_cosine(k: Any, w: Any) -> Any:
    r"""The true right side :math:`\cos\omega k` of the one-pair dot product."""
    return sp.cos(k * w)


def chord_squared(p: Any, q: Any, w: Any) -> Any:
    r"""The true squared distance :math:`2 - 2\cos\omega(p - q)` of one pair."""
    return 2 - 2 * sp.cos(w * (p - q))


def difference_terms(w: Any) -> Any:
    r"""The :math:`p - q` part of :math:`e_p^{\mathsf T} W e_q` for a :math:`2 \times 2` ``w``."""
    half = sp.Rational(1, 2)
    return half * (w[0, 0] + w[1, 1]) * sp.cos(OMEGA * (P - Q)) + half * (
        w[0, 1] - w[1, 0]
    ) * sp.sin(OMEGA * (P - Q))


def sum_and_difference(w: Any) -> Any:
    r"""The true form of :math:`e_p^{\mathsf T} W e_q`: the :math:`p - q` and :math:`p + q` parts."""
    half = sp.Rational(1, 2)
    return (
        difference_terms(w)
        + half * (w[1, 1] - w[0, 0]) * sp.cos(OMEGA * (P + Q))
        + half * (w[0, 1] + w[1, 0]) * sp.sin(OMEGA * (P + Q))
    )


def _closed(derivation: Derivation, residual: Any) -> Any:
    residual = derivation.angle_addition(sp.Matrix([residual]))
    return derivation.pythagoras(residual)


def dot_product_per_pair(rhs: Callable[[Any, Any], Any] = offset_cosine) -> Proof:
    r"""Prove :math:`v(p) \cdot v(p+k) = \cos\omega k` for symbolic ``p``, ``k``, ``i``, ``d``.

    Parameters
    ----------
    rhs
        The right side ``(k, w) -> expression``; :func:`offset_cosine` is the true one.
    """
    right = rhs(K, OMEGA)
    left = pair(P, OMEGA).dot(pair(P + K, OMEGA))
    statement = rf"v_i(p) \cdot v_i(p+k) = {to_latex(right)}"
    derivation = Derivation()
    derivation.note("Residual: the dot product minus the right side", to_latex(left - right))
    return derivation.proof("dot product of one pair", statement, _closed(derivation, left - right))


def _exact_omegas(d_model: int, power: int = 1) -> list[Any]:
    width = _validate.even_width("d_model", d_model)
    if width > 64:
        raise ValueError(f"d_model must be <= 64 for an exact proof, got {width}")
    return [sp.Integer(10000) ** sp.Rational(-2 * i * power, width) for i in range(width // 2)]


def _pe(position: Any, omegas: list[Any]) -> Any:
    return sp.Matrix([f(w * position) for w in omegas for f in (sp.sin, sp.cos)])


def dot_product_concrete(power: int = 1, d_model: int = 8) -> Proof:
    r"""Prove :math:`PE(p) \cdot PE(p+k) = \sum_i \cos\omega_i k` for a concrete width.

    Frequencies are exact: :math:`\omega_i = 10000^{-2i/d}`. The right side uses
    :math:`\omega_i^{\mathrm{power}}`: 1 is the truth, 2 the doubled exponent
    :math:`10000^{-4i/d}` (``10000 ** (2 * i / d)`` with ``i`` stepping by 2).
    """
    omegas = _exact_omegas(d_model)
    left = _pe(P, omegas).dot(_pe(P + K, omegas))
    right = sum((sp.cos(w * K) for w in _exact_omegas(d_model, power)), sp.Integer(0))
    statement = rf"PE(p) \cdot PE(p+k) = {sp.latex(right)} \quad (d = {d_model})"
    derivation = Derivation()
    derivation.note(f"Residual: {d_model // 2} pair products minus the sum of cosines", "")
    residual = _closed(derivation, left - right)
    return derivation.proof(f"dot product, d = {d_model}", statement, residual)


def offset_symmetry(between: int = 0) -> Proof:
    r"""Prove :math:`v(p)^{\mathsf T} M v(p+k) = v(p)^{\mathsf T} M v(p-k)` with :math:`M = B(j, \omega)`.

    Parameters
    ----------
    between
        The shift :math:`j` of the block placed between the pairs: 0 (the identity, the
        raw dot product) is the truth; 1 gives a score that tells left from right.
    """
    matrix = shift_block(between, OMEGA)
    ahead = (pair(P, OMEGA).T * matrix * pair(P + K, OMEGA))[0]
    behind = (pair(P, OMEGA).T * matrix * pair(P - K, OMEGA))[0]
    shown = to_latex(matrix)
    statement = rf"v(p)^{{\mathsf T}} {shown} v(p+k) = v(p)^{{\mathsf T}} {shown} v(p-k)"
    derivation = Derivation()
    derivation.note(
        "Residual: the score k ahead minus the score k behind", to_latex(ahead - behind)
    )
    residual = _closed(derivation, ahead - behind)
    return derivation.proof("the dot product is even in k", statement, residual)


def norm_per_pair(vector: Callable[[Any, Any], Any] = pair) -> Proof:
    r"""Prove :math:`\lVert v(p) \rVert^2 = 1`, hence :math:`\lVert PE(p) \rVert^2 = d/2`.

    Parameters
    ----------
    vector
        The pair ``(p, w) -> 2 x 1 Matrix``; :func:`pe.symbolic.pair` is the true one.
    """
    v = vector(P, OMEGA)
    statement = rf"\lVert {to_latex(v)} \rVert^2 = 1"
    derivation = Derivation()
    residual = sp.Matrix([v.dot(v) - 1])
    derivation.note("Residual: the squared norm minus 1", to_latex(residual))
    return derivation.proof("each pair has norm 1", statement, _closed(derivation, residual[0]))


def norm_concrete(per_dimension: Any = HALF, d_model: int = 8) -> Proof:
    r"""Prove :math:`\lVert PE(p) \rVert^2 = c\,d` for a concrete width; :math:`c = 1/2` is true."""
    omegas = _exact_omegas(d_model)
    vector = _pe(P, omegas)
    target = sp.sympify(per_dimension) * d_model
    statement = rf"\lVert PE(p) \rVert^2 = {sp.latex(target)} \quad (d = {d_model})"
    derivation = Derivation()
    derivation.note("Residual: the sum of squares minus the claimed value", "")
    residual = derivation.pythagoras(sp.Matrix([vector.dot(vector) - target]))
    return derivation.proof(f"norm, d = {d_model}", statement, residual)


def distance_identity(rhs: Callable[[Any, Any, Any], Any] = chord_squared) -> Proof:
    r"""Prove :math:`\lVert v(p) - v(q) \rVert^2 = 2 - 2\cos\omega(p - q)`.

    Parameters
    ----------
    rhs
        The right side ``(p, q, w) -> expression``; :func:`chord_squared` is the true one.
    """
    right = rhs(P, Q, OMEGA)
    gap = pair(P, OMEGA) - pair(Q, OMEGA)
    statement = rf"\lVert v_i(p) - v_i(q) \rVert^2 = {to_latex(right)}"
    derivation = Derivation()
    residual = sp.Matrix([gap.dot(gap) - right])
    derivation.note("Residual: the squared distance minus the right side", to_latex(residual))
    residual = _closed(derivation, residual[0])
    return derivation.proof("distance between two positions of one pair", statement, residual)


def attention_four_terms(terms: Sequence[int] = ALL_TERMS) -> Proof:
    r"""Prove the four-term expansion of the score with content and positions, for one pair.

    .. math::

        (x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y + x^{\mathsf T} W e_q
        + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q,
        \qquad W = W_q^{\mathsf T} W_k,

    with :math:`x, y` symbolic content, :math:`e_p = v(p)`, :math:`e_q = v(q)` and
    :math:`W` a general symbolic :math:`2 \times 2` matrix.

    Parameters
    ----------
    terms
        Indices into :data:`TERM_NAMES` of the terms on the right side; all four are true.
    """
    x = sp.Matrix(sp.symbols("x_1 x_2", real=True))
    y = sp.Matrix(sp.symbols("y_1 y_2", real=True))
    ep, eq = pair(P, OMEGA), pair(Q, OMEGA)
    products = [x.T * _W * y, x.T * _W * eq, ep.T * _W * y, ep.T * _W * eq]
    left = ((x + ep).T * _W * (y + eq))[0]
    right = sum((products[t][0] for t in terms), sp.Integer(0))
    statement = (
        r"(x + e_p)^{\mathsf T} W (y + e_q) = "
        + " + ".join(TERM_NAMES[t].replace("^T", r"^{\mathsf T}") for t in terms)
        + r", \quad W = W_q^{\mathsf T} W_k"
    )
    derivation = Derivation()
    derivation.note("W is a general 2 × 2 matrix", to_latex(_W))
    residual = derivation.apply(
        "Residual: the score minus the sum of the terms, multiplied out (expand)",
        sp.Matrix([left - right]),
        sp.expand,
    )
    return derivation.proof("four-term expansion of the score", statement, residual)


def position_term(form: Callable[[Any], Any] = sum_and_difference) -> Proof:
    r"""Prove the sum-and-difference form of :math:`e_p^{\mathsf T} W e_q` for one pair.

    The :math:`\cos\omega(p+q)` and :math:`\sin\omega(p+q)` terms vanish only when
    :math:`w_{22} = w_{11}` and :math:`w_{21} = -w_{12}` (a scaled rotation).

    Parameters
    ----------
    form
        The right side as a function of the general block ``W``;
        :func:`sum_and_difference` is the true one.
    """
    left = (pair(P, OMEGA).T * _W * pair(Q, OMEGA))[0]
    right = form(_W)
    statement = rf"e_p^{{\mathsf T}} W e_q = {to_latex(right)}"
    derivation = Derivation()
    derivation.note("Residual: the position-position term minus the right side", "")
    residual = derivation.angle_addition(sp.Matrix([left - right]))
    return derivation.proof("the position-position term", statement, residual)
