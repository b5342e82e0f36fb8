r"""Exact proofs of the chapter "Conventions and pitfalls", in SymPy.

* In every layout the shift matrix is the paper's :math:`T_k` conjugated by the column
  permutation: :math:`(P\,T_k\,P^{\mathsf T})\,P\,PE(p) = P\,PE(p+k)`
  (:func:`layout_identity`, at a concrete width with a symbolic base).
* In (cos, sin) order the shift block is the textbook rotation :math:`R(k\omega)`, the
  transpose of the paper's (sin, cos) block (:func:`cos_first_block`).
* tensor2tensor's law is the paper's with the base :math:`b^{d/(d-2)}`
  (:func:`t2t_equals_paper`).
* The doubled exponent :math:`b^{-2(2i)/d}` is the paper's law with the base squared
  (:func:`doubled_exponent`).
* The one-indexed law :math:`b^{-2(i+1)/d}` is pair :math:`i + 1` of the paper's law of
  width :math:`d + 2` with the base :math:`b^{(d+2)/d}` (:func:`one_indexed_is_wider_paper`).

Each function takes its candidate (the matrix rule, the block, the exponent, the power) as
an argument, with the true one as default; a wrong candidate gives ``holds=False``. The
wrong candidates are named in :mod:`pe.proofs.wrong`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import sympy as sp

from pe import conventions
from pe.conventions import LAYOUTS, Layout, Order
from pe.symbolic import (
    BASE,
    OMEGA,
    D,
    Derivation,
    I,
    K,
    P,
    Proof,
    pair,
    rotation,
    shift_block,
    to_latex,
)

__all__ = [
    "PROOF_WIDTH",
    "ShiftInLayout",
    "alias_at_integers",
    "conjugated",
    "cos_first_block",
    "cos_sin_block",
    "doubled_exponent",
    "integer_alias",
    "layout_identity",
    "one_indexed_exponent",
    "one_indexed_is_wider_paper",
    "pair_as_phase",
    "sin_first_phase",
    "t2t_equals_paper",
    "t2t_exponent",
]

#: Width of the exact layout proofs.
PROOF_WIDTH = 8

#: A rule ``(P, T_k) -> matrix`` building a layout's shift matrix (SymPy or NumPy matrices).
Construction = Callable[[Any, Any], Any]


def conjugated(perm: Any, shift: Any) -> Any:
    r"""The true rule: :math:`P\,T_k\,P^{\mathsf T}`.

    Examples
    --------
    >>> import numpy as np
    >>> swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> conjugated(swap, np.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
    [[4.0, 3.0], [2.0, 1.0]]
    """
    return perm @ shift @ perm.T


class ShiftInLayout(NamedTuple):
    """A candidate shift matrix for other layouts: how it is built, and where it is claimed.

    Attributes
    ----------
    build
        ``(P, T_k) -> matrix``, with ``P`` the permutation matrix from the paper's layout
        and ``T_k`` the paper's shift matrix (SymPy or NumPy).
    layouts
        The ``(layout, order)`` pairs the rule is claimed for.
    formula
        How the rule reads, for the record of a check.
    """

    build: Construction
    layouts: tuple[tuple[Layout, Order], ...] = LAYOUTS
    formula: str = "P T_k P^T"


def _sympy_permutation(d_model: int, layout: Layout, order: Order) -> Any:
    matrix = conventions.permutation_matrix(d_model, LAYOUTS[0], (layout, order))
    return sp.Matrix(d_model, d_model, [int(v) for v in matrix.ravel()])


def layout_identity(
    layout: Layout,
    order: Order,
    build: Construction = conjugated,
    d_model: int = PROOF_WIDTH,
) -> Proof:
    r"""Prove :math:`(P T_k P^{\mathsf T})\,(P\,PE(p)) = P\,PE(p+k)` exactly for one layout.

    ``P`` is the permutation matrix from the paper's layout to ``(layout, order)``;
    :math:`\omega_i = \mathrm{base}^{-2i/d}` with a symbolic base and exact exponents, ``p``
    and ``k`` symbolic. ``build`` makes the matrix tried from ``P`` and :math:`T_k`: the
    true :func:`conjugated`, or a wrong rule of :mod:`pe.proofs.wrong`.

    Examples
    --------
    >>> layout_identity("halves", "cos-first", d_model=4).holds
    True
    """
    omegas = [BASE ** sp.Rational(-2 * i, d_model) for i in range(d_model // 2)]
    shift = sp.diag(*[shift_block(K, w) for w in omegas])
    perm = _sympy_permutation(d_model, layout, order)
    matrix = build(perm, shift)
    before = perm * sp.Matrix.vstack(*[pair(P, w) for w in omegas])
    after = perm * sp.Matrix.vstack(*[pair(P + K, w) for w in omegas])
    statement = (
        rf"(P\,T_k\,P^{{\mathsf T}})\,PE_L(p) = PE_L(p+k),\quad PE_L = P\,PE,"
        rf"\quad d = {d_model}"
    )
    derivation = Derivation()
    derivation.note(
        f"Layout {layout}, {order}: the vector PE_L(p) = P PE(p) begins",
        to_latex(before[:4, :]),
    )
    derivation.note(
        f"Candidate matrix ({build.__name__.lstrip('_')}): its top-left 4 x 4 corner",
        to_latex(matrix[:4, :4]),
    )
    residual = matrix * before - after
    residual = residual.applyfunc(sp.expand)
    residual = residual.applyfunc(sp.expand_trig)
    residual = residual.applyfunc(sp.expand)
    nonzero = sum(1 for entry in residual if entry != 0)
    derivation.note(
        "Residual, after expanding the arguments, expand_trig and expand: "
        f"{nonzero} of {d_model} entries are non-zero",
        to_latex(residual[:4, :]),
        residual[:4, :],
    )
    return derivation.proof(
        f"rotation identity in the {layout}, {order} layout", statement, residual
    )


def cos_sin_block(k: Any, w: Any) -> Any:
    r"""The shift block in (cos, sin) order: the textbook rotation :math:`R(k\omega)`."""
    return rotation(k * w)


def cos_first_block(block: Callable[[Any, Any], Any] = cos_sin_block) -> Proof:
    r"""Prove :math:`[[c, -s], [s, c]]\,(\cos\omega p, \sin\omega p)^{\mathsf T} = (\cos\omega(p+k), \sin\omega(p+k))^{\mathsf T}`.

    In (cos, sin) order the shift block is the textbook counter-clockwise rotation, the
    transpose of the paper's (sin, cos) block. ``block`` ``(k, w) -> 2 x 2 Matrix`` is the
    candidate.

    Examples
    --------
    >>> from pe.symbolic import shift_block
    >>> cos_first_block().holds, cos_first_block(shift_block).holds
    (True, False)
    """
    matrix = sp.Matrix(block(K, OMEGA))
    before = sp.Matrix([sp.cos(OMEGA * P), sp.sin(OMEGA * P)])
    after = sp.Matrix([sp.cos(OMEGA * (P + K)), sp.sin(OMEGA * (P + K))])
    derivation = Derivation()
    residual = derivation.angle_addition(derivation.product_residual(matrix, before, after))
    statement = f"{to_latex(matrix)} {to_latex(before)} = {to_latex(after)}"
    return derivation.proof("shift block in (cos, sin) order", statement, residual)


def _reduced(
    name: str,
    statement: str,
    difference: tuple[str, Any],
    *rewrites: tuple[str, Callable[[Any], Any]],
) -> Proof:
    """A proof of a scalar identity: its residual (titled), then each rewrite in turn."""
    title, expr = difference
    derivation = Derivation()
    residual = sp.Matrix([expr])
    derivation.note(title, sp.latex(residual[0], symbol_names={BASE: "b"}), residual)
    for step, rewrite in rewrites:
        residual = derivation.apply(step, residual, rewrite)
    return derivation.proof(name, statement, residual)


def _logarithms_agree(name: str, statement: str, log_left: Any, log_right: Any) -> Proof:
    """Two positive sides are equal: the difference of their logarithms, reduced.

    The residual is ``log_left - log_right``; ``together`` puts it over one denominator and
    ``cancel`` removes the common factors (rational functions of ``d``).
    """
    return _reduced(
        name,
        statement,
        ("Residual of the logarithms (both sides are positive)", log_left - log_right),
        ("Put over one denominator (together)", sp.together),
        ("Cancel common factors (cancel)", sp.cancel),
    )


#: The true exponent of the base in :func:`t2t_equals_paper`: :math:`d/(d-2)`.
t2t_exponent = D / (D - 2)


def t2t_equals_paper(exponent: Any = t2t_exponent) -> Proof:
    r"""Prove :math:`e^{-i \ln b/(d/2 - 1)} = \bigl(b^{d/(d-2)}\bigr)^{-2i/d}`.

    Both sides are positive, so the proof compares their logarithms,
    :math:`-i\ln b/(d/2-1)` and :math:`-(2i/d)\cdot(d/(d-2))\ln b`, and reduces the
    difference with ``together`` then ``cancel`` (rational functions of ``d``).
    ``exponent`` is the candidate for :math:`d/(d-2)`.

    Examples
    --------
    >>> t2t_equals_paper().holds, t2t_equals_paper(1).holds
    (True, False)
    """
    log_t2t = -I * sp.log(BASE) / (D / 2 - 1)
    log_paper = -2 * I / D * exponent * sp.log(BASE)
    statement = (
        r"\exp\Bigl(-\frac{i \ln b}{d/2 - 1}\Bigr) = \bigl(b^{"
        + sp.latex(exponent)
        + r"}\bigr)^{-2i/d}"
    )
    return _logarithms_agree(
        "tensor2tensor law = paper law with base b^(d/(d-2))", statement, log_t2t, log_paper
    )


#: The true exponent of the base in :func:`one_indexed_is_wider_paper`: :math:`(d+2)/d`.
one_indexed_exponent = (D + 2) / D


def one_indexed_is_wider_paper(exponent: Any = one_indexed_exponent) -> Proof:
    r"""Prove :math:`b^{-2(i+1)/d} = \bigl(b^{(d+2)/d}\bigr)^{-2(i+1)/(d+2)}`.

    The right side is the frequency of pair :math:`i + 1` in the paper's law of width
    :math:`d + 2`: the one-indexed table is that wider table without its first pair, *with
    the base changed* to :math:`b^{(d+2)/d}`. ``exponent`` is the candidate for
    :math:`(d+2)/d`; with the base unchanged (``exponent = 1``) the wider table's pairs are
    :math:`b^{-2(i+1)/(d+2)}`, slower than the one-indexed ones. Both sides are positive, so
    the proof compares their logarithms and reduces the difference with ``together`` then
    ``cancel``.

    Examples
    --------
    >>> one_indexed_is_wider_paper().holds, one_indexed_is_wider_paper(1).holds
    (True, False)
    """
    log_one_indexed = -2 * (I + 1) / D * sp.log(BASE)
    log_wider = -2 * (I + 1) / (D + 2) * exponent * sp.log(BASE)
    statement = (
        r"b^{-2(i+1)/d} = \bigl(b^{" + sp.latex(exponent) + r"}\bigr)^{-2(i+1)/(d+2)}"
        r"\quad\text{(pair } i + 1 \text{ of the paper's law of width } d + 2\text{)}"
    )
    return _logarithms_agree(
        "one-indexed law = paper law of width d + 2, first pair dropped, base b^((d+2)/d)",
        statement,
        log_one_indexed,
        log_wider,
    )


def doubled_exponent(base_power: int = 2) -> Proof:
    r"""Prove :math:`b^{-2(2i)/d} = (b^2)^{-2i/d}`: the doubled exponent is the base squared.

    ``base_power`` is the candidate power of the base.

    Examples
    --------
    >>> doubled_exponent().holds, doubled_exponent(3).holds
    (True, False)
    """
    lhs = BASE ** (-2 * (2 * I) / D)
    rhs = (BASE**base_power) ** (-2 * I / D)
    statement = r"b^{-2(2i)/d} = \bigl(b^{" + str(base_power) + r"}\bigr)^{-2i/d}"
    return _reduced(
        "doubled exponent = squared base",
        statement,
        ("Residual (b > 0, so (b^m)^x = b^(m x))", lhs - rhs),
        ("Combine powers (powsimp)", sp.powsimp),
        ("Collect terms (expand)", sp.expand),
    )


#: The angle of the phase identities.
THETA = sp.Symbol("theta", real=True)


def sin_first_phase(theta: Any) -> Any:
    r""":math:`\mathrm{i}\,e^{-\mathrm{i}\theta}`: the paper's (sin, cos) pair as a complex number."""
    return sp.I * sp.exp(-sp.I * theta)


def pair_as_phase(phase: Callable[[Any], Any] = sin_first_phase) -> Proof:
    r"""Prove :math:`\sin\theta + \mathrm{i}\cos\theta = \mathrm{i}\,e^{-\mathrm{i}\theta}`.

    With :math:`\cos\theta + \mathrm{i}\sin\theta = e^{\mathrm{i}\theta}` (Euler, the
    rewrite step), the (sin, cos) pair turns clockwise as :math:`\theta` grows. ``phase``
    is the candidate right side.

    Examples
    --------
    >>> pair_as_phase().holds, pair_as_phase(lambda t: sp.I * sp.exp(sp.I * t)).holds
    (True, False)
    """
    right = phase(THETA)
    return _reduced(
        "the (sin, cos) pair as a phase",
        rf"\sin\theta + i\cos\theta = {sp.latex(right)}",
        ("Residual", sp.sin(THETA) + sp.I * sp.cos(THETA) - right),
        ("Euler's formula: e^(ix) = cos x + i sin x", lambda e: e.rewrite(sp.exp, sp.cos)),
        ("Collect terms (expand)", sp.expand),
    )


#: An integer position and a frequency, for the aliasing identity.
INTEGER_P = sp.Symbol("p", integer=True)
FREQUENCY = sp.Symbol("omega", positive=True)


def integer_alias(omega: Any) -> Any:
    r""":math:`2\pi - \omega`: the frequency that takes the same values at integer positions."""
    return 2 * sp.pi - omega


def alias_at_integers(alias: Callable[[Any], Any] = integer_alias) -> Proof:
    r"""Prove :math:`\sin(a(\omega)\,p) = -\sin\omega p` and :math:`\cos(a(\omega)\,p) = \cos\omega p` for integer ``p``.

    With :math:`a(\omega) = 2\pi - \omega` the alias turns the other way at every integer
    position, so a pair turning faster than :math:`\pi` per position cannot be told from
    its alias below :math:`\pi`. ``alias`` is the candidate.

    Examples
    --------
    >>> alias_at_integers().holds, alias_at_integers(lambda w: sp.pi - w).holds
    (True, False)
    """
    other = alias(FREQUENCY)
    return _reduced(
        "aliases at integer positions",
        rf"\sin\bigl(({sp.latex(other)})\,p\bigr) = -\sin\omega p,\ "
        rf"\cos\bigl(({sp.latex(other)})\,p\bigr) = \cos\omega p \quad (p \in \mathbb{{Z}})",
        (
            "Residuals (p an integer)",
            sp.sin(other * INTEGER_P)
            + sp.sin(FREQUENCY * INTEGER_P)
            + sp.cos(other * INTEGER_P)
            - sp.cos(FREQUENCY * INTEGER_P),
        ),
        (
            "Expand the arguments",
            lambda e: e.replace(sp.sin, lambda x: sp.sin(sp.expand(x))).replace(
                sp.cos, lambda x: sp.cos(sp.expand(x))
            ),
        ),
        ("Angle addition; sin 2πp = 0, cos 2πp = 1 (expand_trig)", sp.expand_trig),
        ("Collect terms (expand)", sp.expand),
    )
