r"""Exact proofs of the chapter "The rotation identity", in SymPy.

Pair ``i`` of the encoding is :math:`v(p) = (\sin\omega_i p, \cos\omega_i p)^T` with
:math:`\omega_i = \mathrm{base}^{-2i/d}` symbolic (see :mod:`pe.symbolic`). For one
frequency the block of the shift matrix :math:`T_k` is

.. math::

    B(k) = \begin{pmatrix} \cos k\omega & \sin k\omega \\
                           -\sin k\omega & \cos k\omega \end{pmatrix}
         = R(-k\omega), \qquad
    R(\theta) = \begin{pmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{pmatrix},

with :math:`R(\theta)` the textbook (counter-clockwise) rotation
(:func:`pe.symbolic.rotation`). The proofs:

* the rotation identity :math:`B(k)\,v(p) = v(p+k)` (:func:`rotation_identity`), and for
  the whole vector at a concrete width, :math:`T_k\,PE(p) = PE(p+k)`
  (:func:`block_diagonal_identity`);
* :math:`T_k` does not depend on the position (:func:`shift_is_position_free`) and is a
  rotation, :math:`B^{\mathsf T} B = I`, :math:`\det B = 1` (:func:`shift_is_orthogonal`);
* the group laws, which hold for :math:`T_k` at every width because it is block-diagonal:
  :math:`T_0 = I`, :math:`T_a T_b = T_{a+b}`, :math:`T_{-k} = T_k^{-1} = T_k^{\mathsf T}`,
  and one map takes 10 to 15 and 15 to 20;
* in (sin, cos) order the block is :math:`R(-k\omega)` (clockwise), and in (cos, sin) order
  the textbook :math:`R(k\omega)` is the right block.

Each proof reduces a residual to exactly zero with the strategies of
:class:`pe.symbolic.Derivation` (angle addition, Pythagoras) or, where multiple angles
appear, :func:`pythagorean_reduce` (polynomial division by :math:`s^2 + c^2 - 1`).
No ``simplify``, no floats. Every function takes an optional wrong candidate (the named
ones are in :mod:`pe.proofs.wrong`) and then returns ``holds=False`` with the non-zero
residual.

Examples
--------
>>> from pe.proofs import wrong
>>> rotation_identity().holds, rotation_identity(wrong.TRANSPOSED_BLOCK.value).holds
(True, False)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Literal

import sympy as sp

from pe import _validate, symbolic
from pe.symbolic import OMEGA, A, B, Block, Derivation, K, P, Proof, Q, pair, to_latex

__all__ = [
    "Order",
    "block_diagonal_identity",
    "block_in_order",
    "composition",
    "identity_at_zero",
    "inverse_is_transpose",
    "pythagorean_reduce",
    "rotation_identity",
    "shift_is_orthogonal",
    "shift_is_position_free",
    "sin_cos_block_is_clockwise",
    "ten_to_fifteen_to_twenty",
]

#: Order of the two entries of a pair.
Order = Literal["sin-cos", "cos-sin"]


def _block(block: Block | None, k: Any, w: Any) -> Any:
    candidate = (block or symbolic.shift_block)(k, w)
    if not isinstance(candidate, sp.MatrixBase):
        raise TypeError(f"block must return a sympy Matrix, got {type(candidate).__name__}")
    if candidate.shape != (2, 2):
        raise ValueError(f"block must return a 2 x 2 Matrix, got shape {candidate.shape}")
    return sp.Matrix(candidate)


def rotation_identity(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(k, \omega_i)\,v(p) = v(p+k)` for symbolic ``p``, ``k``, ``i``, ``d``, ``base``.

    Parameters
    ----------
    block
        Optional candidate ``(k, w) -> 2 x 2 sympy.Matrix``; default :func:`pe.symbolic.shift_block`.

    Returns
    -------
    Proof
        ``holds`` is true iff the residual :math:`B v(p) - v(p+k)` reduces to exactly 0.
    """
    matrix = _block(block, K, OMEGA)
    before, after = pair(P, OMEGA), pair(P + K, OMEGA)
    statement = (
        f"{to_latex(matrix)} {to_latex(before)} = {to_latex(after)}, "
        r"\qquad \omega_i = \mathrm{base}^{-2i/d}"
    )
    derivation = Derivation()
    residual = derivation.product_residual(matrix, before, after)
    derivation.note(
        "What the angle-addition formulas (expand_trig) make of the shifted pair",
        f"{to_latex(after)} = {to_latex(after.applyfunc(sp.expand).applyfunc(sp.expand_trig))}",
    )
    residual = derivation.angle_addition(residual)
    return derivation.proof("rotation identity (one pair)", statement, residual)


def _pe_vector(position: Any, omegas: list[Any]) -> Any:
    entries: list[Any] = []
    for w in omegas:
        entries.extend([sp.sin(w * position), sp.cos(w * position)])
    return sp.Matrix(entries)


def _exact_base(base: object) -> Any:
    if isinstance(base, bool) or not isinstance(base, int | sp.Integer | sp.Rational):
        raise TypeError(f"base must be an integer or a sympy Rational (no floats), got {base!r}")
    value = sp.Rational(base)
    if value <= 1:
        raise ValueError(f"base must be > 1, got {value}")
    return value


def block_diagonal_identity(
    d_model: int, *, base: int | Any = 10000, block: Block | None = None
) -> Proof:
    r"""Prove :math:`T_k\,PE(p) = PE(p+k)` exactly for a concrete even width ``d_model``.

    :math:`T_k` is the ``d x d`` block-diagonal matrix of the blocks
    :math:`B(k, \omega_i)`, :math:`\omega_i = \mathrm{base}^{-2i/d}` with exact rational
    exponents; ``p`` and ``k`` stay symbolic.

    Parameters
    ----------
    d_model
        Even width, ``2 <= d_model <= 512``.
    base
        An integer or sympy Rational ``> 1`` (floats are refused: no floats in proofs).
    block
        Optional candidate block, as in :func:`rotation_identity`.

    Examples
    --------
    >>> block_diagonal_identity(4).holds
    True
    """
    width = _validate.even_width("d_model", d_model)
    if width > 512:
        raise ValueError(f"d_model must be <= 512 for an exact proof, got {width}")
    b = _exact_base(base)
    omegas = [b ** sp.Rational(-2 * i, width) for i in range(width // 2)]
    blocks = [_block(block, K, w) for w in omegas]
    matrix = sp.diag(*blocks)
    before, after = _pe_vector(P, omegas), _pe_vector(P + K, omegas)
    statement = (
        rf"T_k\,PE(p) = PE(p+k) \text{{ for }} d = {width},\ \mathrm{{base}} = {sp.latex(b)}:"
        rf" T_k = \operatorname{{diag}}\left(B(k,\omega_0), \dots, B(k,\omega_{{{width // 2 - 1}}})\right)"
    )
    derivation = Derivation()
    derivation.note(
        f"T_k has {width // 2} blocks; the first and the last are",
        f"{to_latex(blocks[0])}, \\quad {to_latex(blocks[-1])}",
    )
    residual = matrix * before - after
    derivation.note(
        f"Residual T_k PE(p) − PE(p+k): {width} entries; the first two are",
        to_latex(residual[:2, :]),
        residual[:2, :],
    )
    residual = derivation.angle_addition_in_one_step(residual, shown=2)
    return derivation.proof(f"rotation identity, d = {width}", statement, residual)


def shift_is_position_free(block: Block | None = None) -> Proof:
    r"""Prove that the linear map taking :math:`v(p) \to v(p+k)` is the block itself, whatever ``p``.

    Take two positions ``p`` and ``q`` and :math:`V = [v(p)\ v(q)]`,
    :math:`V' = [v(p+k)\ v(q+k)]`. Whenever :math:`\det V = \sin \omega(p - q) \ne 0`, the only
    matrix ``M`` with :math:`M V = V'` is :math:`V' V^{-1} = V' \operatorname{adj}(V) / \det V`.
    The proof reduces :math:`V' \operatorname{adj}(V) - B(k, \omega) \det V` to zero: so
    :math:`M = B(k, \omega)`, which contains neither ``p`` nor ``q``.
    """
    matrix = _block(block, K, OMEGA)
    stack = sp.Matrix.hstack(pair(P, OMEGA), pair(Q, OMEGA))
    shifted = sp.Matrix.hstack(pair(P + K, OMEGA), pair(Q + K, OMEGA))
    free = sorted(str(s) for s in matrix.free_symbols)
    statement = (
        r"M\,[v(p)\ v(q)] = [v(p+k)\ v(q+k)],\ \sin\omega_i(p-q) \neq 0"
        rf" \implies M = {to_latex(matrix)}"
    )
    derivation = Derivation()
    derivation.note(
        "The candidate contains the symbols " + ", ".join(free) + " (neither p nor q)",
        to_latex(matrix),
    )
    derivation.note(
        "Residual: V′ adj(V) − B det(V)",
        f"{to_latex(shifted)} {to_latex(stack.adjugate())} - {to_latex(matrix)} \\cdot ({to_latex(stack.det())})",
    )
    residual = derivation.apply(
        "Multiply out the products", shifted * stack.adjugate() - matrix * stack.det(), sp.expand
    )
    residual = derivation.angle_addition(residual)
    proof = derivation.proof("T_k does not depend on the position", statement, residual)
    if P in matrix.free_symbols or Q in matrix.free_symbols:
        return Proof(proof.name, proof.statement, proof.steps, False, proof.residual)
    return proof


def shift_is_orthogonal(block: Block | None = None) -> Proof:
    r"""Prove :math:`B^T B = I` and :math:`\det B = 1`, so every :math:`T_k` is a rotation.

    :math:`T_k^T T_k` is block-diagonal with blocks :math:`B_i^T B_i`, so the block result
    gives :math:`T_k^T T_k = I` for every width. The residual stacks
    :math:`B^T B - I` (four entries) and :math:`\det B - 1`.

    Examples
    --------
    >>> from pe.proofs import wrong
    >>> shift_is_orthogonal().holds, shift_is_orthogonal(wrong.SCALED_BLOCK.value).holds
    (True, False)
    """
    matrix = _block(block, K, OMEGA)
    statement = rf"B^T B = I,\ \det B = 1 \quad\text{{for}}\quad B = {to_latex(matrix)}"
    derivation = Derivation()
    gram = matrix.T * matrix - sp.eye(2)
    residual = sp.Matrix([*list(gram), matrix.det() - 1])
    derivation.note(
        "Residual: the entries of BᵀB − I, then det B − 1",
        to_latex(residual),
        residual,
    )
    residual = derivation.pythagoras(residual)
    return derivation.proof("T_k is orthogonal with determinant 1", statement, residual)


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
        ``pe.proofs.wrong.TEXTBOOK_ROTATION.value``.
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
    clockwise = symbolic.rotation(-K * OMEGA)
    statement = f"{to_latex(matrix)} = R(-k\\omega_i) = {to_latex(clockwise)}"
    derivation = Derivation()
    derivation.note(
        "R(θ) is the textbook counter-clockwise rotation; R(−kω) turns clockwise",
        rf"R(\theta) = {to_latex(symbolic.rotation(sp.Symbol('theta')))}",
    )
    residual = derivation.apply("Residual B(k) − R(−kω), expanded", matrix - clockwise, sp.expand)
    return derivation.proof("the (sin, cos) block turns clockwise", statement, residual)


def identity_at_zero(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(0) = I`, hence :math:`T_0 = I`.

    Examples
    --------
    >>> identity_at_zero().residual.tolist()
    [[0, 0], [0, 0]]
    """
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
        Optional law for the right-hand offset, e.g. the wrong ``operator.sub``;
        default ``operator.add``.

    Examples
    --------
    >>> import operator
    >>> composition().holds, composition(combine=operator.sub).holds
    (True, False)
    """
    left = _block(block, A, OMEGA) * _block(block, B, OMEGA)
    total = (combine or operator.add)(A, B)
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

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> pythagorean_reduce(sp.sin(x) ** 2 + sp.cos(x) ** 2, x)
    1
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
