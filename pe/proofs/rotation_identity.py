r"""The shift matrices form a group of rotations: exact proofs of the group laws, in SymPy.

For one frequency :math:`\omega` the block of :math:`T_k` is

.. math::

    B(k) = \begin{pmatrix} \cos k\omega & \sin k\omega \\
                           -\sin k\omega & \cos k\omega \end{pmatrix}
         = R(-k\omega), \qquad
    R(\theta) = \begin{pmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{pmatrix},

with :math:`R(\theta)` the textbook (counter-clockwise) rotation. Because :math:`T_k` is
block-diagonal with one such block per pair, every law proved here for one block holds for
:math:`T_k` at every width:

* :math:`T_0 = I`;
* :math:`T_a T_b = T_{a+b}` (shifting by ``b`` then by ``a`` is shifting by ``a + b``);
* :math:`T_{-k} T_k = I` and :math:`T_k^{\mathsf T} = T_{-k}`, so
  :math:`T_{-k} = T_k^{-1} = T_k^{\mathsf T}`;
* in (sin, cos) order the block is :math:`R(-k\omega)` (clockwise), and in (cos, sin) order
  the textbook :math:`R(k\omega)` is the right block.

Each proof reduces a residual to exactly zero with the strategies of
:class:`pe.symbolic.Derivation` (angle addition, Pythagoras) or, where multiple angles
appear, :func:`pythagorean_reduce` (polynomial division by :math:`s^2 + c^2 - 1`).
No ``simplify``, no floats. Every function takes an optional wrong candidate and then
returns ``holds=False``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import sympy as sp

from pe.symbolic import OMEGA, Derivation, K, P, Proof, pair, shift_block, to_latex

__all__ = [
    "A",
    "B",
    "Order",
    "block_in_order",
    "composition",
    "identity_at_zero",
    "inverse_is_transpose",
    "pythagorean_reduce",
    "sin_cos_block_is_clockwise",
    "ten_to_fifteen_to_twenty",
    "textbook_rotation",
]

#: Two offsets (real).
A = sp.Symbol("a", real=True)
B = sp.Symbol("b", real=True)

#: A candidate block ``(k, w) -> 2 x 2 Matrix``.
Block = Callable[[Any, Any], Any]
#: Order of the two entries of a pair.
Order = Literal["sin-cos", "cos-sin"]


def textbook_rotation(theta: Any) -> Any:
    r"""The counter-clockwise rotation :math:`R(\theta) = [[\cos\theta, -\sin\theta], [\sin\theta, \cos\theta]]`."""
    c, s = sp.cos(theta), sp.sin(theta)
    return sp.Matrix([[c, -s], [s, c]])


def _block(block: Block | None, k: Any, w: Any) -> Any:
    matrix = (block or shift_block)(k, w)
    if not isinstance(matrix, sp.MatrixBase) or matrix.shape != (2, 2):
        raise TypeError("block must return a 2 x 2 sympy Matrix")
    return sp.Matrix(matrix)


def _ordered_pair(position: Any, w: Any, order: Order) -> Any:
    if order == "sin-cos":
        return pair(position, w)
    if order == "cos-sin":
        return sp.Matrix([sp.cos(w * position), sp.sin(w * position)])
    raise ValueError(f"order must be 'sin-cos' or 'cos-sin', got {order!r}")


def block_in_order(block: Block, order: Order) -> Proof:
    r"""Prove that ``block`` maps the pair at ``p`` to the pair at ``p + k`` in the given order.

    For ``order="sin-cos"`` the pair is :math:`(\sin\omega p, \cos\omega p)` (the paper's);
    for ``"cos-sin"`` it is :math:`(\cos\omega p, \sin\omega p)`. The residual
    :math:`B\,u(p) - u(p+k)` is reduced by the angle-addition strategy.

    Parameters
    ----------
    block
        ``(k, w) -> 2 x 2 sympy.Matrix``, e.g. :func:`pe.symbolic.shift_block` or
        ``lambda k, w: textbook_rotation(k * w)``.
    order
        ``"sin-cos"`` or ``"cos-sin"``.
    """
    matrix = _block(block, K, OMEGA)
    before, after = _ordered_pair(P, OMEGA, order), _ordered_pair(P + K, OMEGA, order)
    statement = f"{to_latex(matrix)} {to_latex(before)} = {to_latex(after)}"
    derivation = Derivation()
    residual = matrix * before - after
    derivation.note(f"Residual in ({order}) order: left side minus right side", to_latex(residual))
    residual = derivation.angle_addition(residual)
    return derivation.proof(f"shift block in ({order}) order", statement, residual)


def sin_cos_block_is_clockwise(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(k) = R(-k\omega)`: in (sin, cos) coordinates the shift turns clockwise.

    The residual :math:`B(k) - R(-k\omega)` is reduced with ``expand`` (SymPy writes
    :math:`\sin(-x) = -\sin x` and :math:`\cos(-x) = \cos x` on construction).
    """
    matrix = _block(block, K, OMEGA)
    clockwise = textbook_rotation(-K * OMEGA)
    statement = f"{to_latex(matrix)} = R(-k\\omega_i) = {to_latex(clockwise)}"
    derivation = Derivation()
    derivation.note(
        "R(θ) is the textbook counter-clockwise rotation; R(−kω) turns clockwise",
        rf"R(\theta) = {to_latex(textbook_rotation(sp.Symbol('theta')))}",
    )
    residual = derivation.apply("Residual B(k) − R(−kω), expanded", matrix - clockwise, sp.expand)
    return derivation.proof("the (sin, cos) block turns clockwise", statement, residual)


def identity_at_zero(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(0) = I`, hence :math:`T_0 = I`."""
    matrix = _block(block, sp.Integer(0), OMEGA)
    statement = rf"T_0 = \operatorname{{diag}}(B(0), \dots) = I, \quad B(0) = {to_latex(matrix)}"
    derivation = Derivation()
    derivation.note("Set k = 0 in the block", to_latex(_block(block, K, OMEGA)) + r"\Big|_{k=0}")
    residual = derivation.apply(
        "Residual B(0) − I (cos 0 = 1, sin 0 = 0)", matrix - sp.eye(2), sp.expand
    )
    return derivation.proof("T_0 is the identity", statement, residual)


def composition(
    block: Block | None = None, combine: Callable[[Any, Any], Any] | None = None
) -> Proof:
    r"""Prove :math:`B(a)\,B(b) = B(a + b)`, hence :math:`T_a T_b = T_{a+b}`.

    Parameters
    ----------
    block
        Optional candidate block.
    combine
        Optional wrong law for the right-hand offset, e.g. ``lambda a, b: a - b``;
        default ``a + b``.
    """
    left = _block(block, A, OMEGA) * _block(block, B, OMEGA)
    total = (combine or (lambda a, b: a + b))(A, B)
    right = _block(block, total, OMEGA)
    statement = rf"B(a)\,B(b) = B({sp.latex(total)})"
    derivation = Derivation()
    derivation.note("Residual B(a) B(b) − B(a + b)", f"{to_latex(left)} - {to_latex(right)}")
    residual = derivation.apply("Multiply out the product", left - right, sp.expand)
    residual = derivation.angle_addition(residual)
    return derivation.proof("T_a T_b = T_(a+b)", statement, residual)


def inverse_is_transpose(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(-k)\,B(k) = I` and :math:`B(k)^{\mathsf T} = B(-k)`.

    So :math:`T_{-k} = T_k^{-1} = T_k^{\mathsf T}`: shifting back undoes the shift, and the
    inverse costs nothing (a transpose). The residual stacks the four entries of
    :math:`B(-k)B(k) - I` and the four of :math:`B(k)^{\mathsf T} - B(-k)`; it is reduced
    by multiplying out and substituting :math:`\sin^2 x = 1 - \cos^2 x`.
    """
    forward, backward = _block(block, K, OMEGA), _block(block, -K, OMEGA)
    statement = rf"B(-k)\,B(k) = I, \quad B(k)^{{\mathsf T}} = B(-k) = {to_latex(backward)}"
    derivation = Derivation()
    residual = sp.Matrix([*list(backward * forward - sp.eye(2)), *list(forward.T - backward)])
    derivation.note(
        "Residual: the entries of B(−k)B(k) − I, then of B(k)ᵀ − B(−k)", to_latex(residual.T)
    )
    residual = derivation.pythagoras(residual)
    return derivation.proof("T_(-k) = T_k^(-1) = T_k^T", statement, residual)


def pythagorean_reduce(expr: Any, angle: Any) -> Any:
    r"""Remainder of ``expr`` modulo :math:`\sin^2 x + \cos^2 x - 1`, as a polynomial.

    ``sin(angle)`` and ``cos(angle)`` become the symbols ``s`` and ``c``; the polynomial is
    divided by :math:`s^2 + c^2 - 1` (lexicographic order, ``c`` first), which leaves a
    remainder of degree at most one in ``c``. The remainder is zero exactly when ``expr``
    vanishes for every angle.
    """
    s, c = sp.symbols("s c")
    poly = sp.expand(expr).subs({sp.sin(angle): s, sp.cos(angle): c})
    _, remainder = sp.reduced(poly, [s**2 + c**2 - 1], c, s, order="lex")
    return sp.expand(remainder.subs({s: sp.sin(angle), c: sp.cos(angle)}))


def ten_to_fifteen_to_twenty(block: Block | None = None) -> Proof:
    r"""Prove that one matrix takes position 10 to 15 and position 15 to 20, for every pair.

    With :math:`x = 5\omega` the pairs at 10, 15 and 20 are :math:`(\sin 2x, \cos 2x)`,
    :math:`(\sin 3x, \cos 3x)` and :math:`(\sin 4x, \cos 4x)`. The residuals
    :math:`B(5)\,v(10) - v(15)` and :math:`B(5)\,v(15) - v(20)` are expanded into
    polynomials in :math:`\sin x, \cos x` (``expand_trig``) and reduced modulo
    :math:`\sin^2 x + \cos^2 x = 1` (:func:`pythagorean_reduce`).
    """
    x = sp.Symbol("x", real=True)  # x = 5 ω
    matrix = _block(block, sp.Integer(1), x)  # B(5) for frequency ω is the block of angle x
    v10, v15, v20 = pair(2, x), pair(3, x), pair(4, x)
    statement = (
        rf"B(5)\,v(10) = v(15) \text{{ and }} B(5)\,v(15) = v(20), \quad"
        rf" B(5) = {sp.latex(matrix)},\ x = 5\omega_i"
    )
    derivation = Derivation()
    residual = sp.Matrix([*list(matrix * v10 - v15), *list(matrix * v15 - v20)])
    derivation.note(
        "Residual: B(5) v(10) − v(15), then B(5) v(15) − v(20), with x = 5ω",
        sp.latex(residual.T),
        residual,
    )
    residual = derivation.apply(
        "Multiple angles as polynomials in sin x, cos x (expand_trig, expand)",
        residual,
        lambda e: sp.expand(sp.expand_trig(e)),
    )
    residual = derivation.apply(
        "Divide by sin²x + cos²x − 1 and keep the remainder (Pythagoras)",
        residual,
        lambda e: pythagorean_reduce(e, x),
    )
    return derivation.proof("the same map takes 10 to 15 and 15 to 20", statement, residual)
