r"""Conventions and pitfalls (``docs/conventions.py``): the layouts, orders and laws of public code, and the bugs.

The proofs, in SymPy:

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

Each takes its candidate as an argument, the true one by default. The measurements, in
NumPy: a rule for the shift matrix of other layouts applied to the paper's table permuted
into each layout (:func:`layout_shift_errors`); every convention's table against its
definitions written out column by column (:func:`pe.conventions.described_table`),
tensor2tensor's own formula among them (:func:`t2t_formula_error`); and what identify
recovers from these tables, and how accurately (:mod:`pe.identify_accuracy`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _rotation_table, bug_zoo, conventions, numeric, symbolic
from pe._machine_dependent import below, measured, measured_within, on_site
from pe._tolerance import ELEMENTARY_ULPS, EPS64, Tolerance, exponential_rounding
from pe.chapters.rotation_identity import PAPER_BLOCK
from pe.claims import (
    Candidate,
    Chapter,
    Check,
    Evidence,
    Method,
    by_proof,
    case_by_case,
    checked,
    every_row,
    within,
)
from pe.conventions import (
    DESCRIPTION,
    LAYOUTS,
    Convention,
    Description,
    Layout,
    OddWidth,
    Order,
    described_table,
    odd_width_outcome,
)
from pe.error_models import SHIFT
from pe.identify import identify
from pe.identify_accuracy import WIDTHS, non_encodings, recovery, uncertainty_slopes
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

chapter = Chapter(__name__, follows="fixed_or_learned")
claim = chapter.claim


def _reduced(
    name: str,
    statement: str,
    difference: tuple[str, Any],
    *rewrites: tuple[str, Callable[[Any], Any]],
) -> Proof:
    """A proof of one identity, or of several (a list of residuals, one entry each): its
    residual (titled), then each rewrite in turn (a SymPy function is shown as the call the
    step makes)."""
    title, expr = difference
    derivation = Derivation()
    residual = sp.Matrix(expr if isinstance(expr, list) else [expr])
    derivation.note(
        title,
        sp.latex(residual if len(residual) > 1 else residual[0], symbol_names={BASE: "b"}),
        residual,
    )
    for step, rewrite in rewrites:
        call = getattr(rewrite, "__name__", "")
        calls = (call,) if getattr(sp, call, None) is rewrite else ()
        residual = derivation.apply(step, residual, rewrite, calls=calls)
    return derivation.proof(name, statement, residual)


def _logarithms_agree(name: str, statement: str, log_left: Any, log_right: Any) -> Proof:
    """Two positive sides are equal: the difference of their logarithms, reduced."""
    return _reduced(
        name,
        statement,
        ("Residual of the logarithms (both sides are positive)", log_left - log_right),
        ("Put over one denominator", sp.together),
        ("Cancel common factors", sp.cancel),
    )


def _formula_agrees(error: float, frequency_error: float, rounding: str, compared: str) -> Evidence:
    r"""``error`` of a float64 formula (1000 rows) against pe's table, held to pe's entry
    bound :math:`\delta`, the formula's sine or cosine (:math:`\varepsilon`) and its angles up
    to 999: their frequencies err by ``frequency_error`` (relative, both laws together, the
    LaTeX ``rounding``), and each angle is rounded once more (:math:`u`)."""
    angle = (frequency_error + EPS64 / 2) * 999.0
    tolerance = _rotation_table.ENTRY_ERROR_BOUND + ELEMENTARY_ULPS * EPS64 + angle
    return within(
        error,
        Tolerance(tolerance, rf"\delta + \varepsilon + ({rounding} + u)\,p\,\omega"),
        f"{compared}, 1000 rows: max difference {measured_within(error, tolerance)}",
    )


#: Offsets ``k`` of the layout check.
OFFSETS = (1, 7, 100, -3)


class ShiftErrors(NamedTuple):
    """Largest error of the moved rows, and of the error over its tolerance."""

    worst: float
    ratio: float


def layout_shift_errors(rule: ShiftInLayout, d: int = 512) -> ShiftErrors:
    """Move rows ``p`` of each layout's table by :data:`OFFSETS` with the rule's matrices.

    The table is the paper's for positions 200 to 1223 permuted into the layout; the
    tolerance is :func:`pe.numeric.rotation_tolerance` per column.

    Examples
    --------
    >>> layout_shift_errors(ShiftInLayout(conjugated), d=16).ratio <= 1.0
    True
    """
    positions = np.arange(1024)
    paper = numeric.sinusoidal(positions + 200, d)
    worst, worst_ratio = 0.0, 0.0
    for layout, order in rule.layouts:
        perm = conventions.permutation(d, LAYOUTS[0], (layout, order))
        table = paper[:, perm]
        omega = np.repeat(numeric.frequencies(d), 2)[perm]
        p_matrix = conventions.permutation_matrix(d, LAYOUTS[0], (layout, order))
        for k in OFFSETS:
            matrix = rule.build(p_matrix, numeric.shift_matrix(k, d))
            start, stop = max(0, -k), 1024 - max(0, k)
            moved = table[start:stop] @ matrix.T
            target = table[start + k : stop + k]
            error = np.abs(moved - target)
            tolerance = numeric.rotation_tolerance(omega[None, :], 1224.0, k, np.float64)
            worst = max(worst, float(error.max()))
            worst_ratio = max(worst_ratio, float((error / tolerance).max()))
    return ShiftErrors(worst, worst_ratio)


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
    true :func:`conjugated`, or a wrong rule (:data:`UNCONJUGATED_SHIFT`, ...).

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
    shown = min(4, d_model)  # entries the derivation shows of each vector and matrix
    derivation = Derivation()
    derivation.note(
        f"Layout {layout}, {order}: the vector PE_L(p) = P PE(p) begins",
        to_latex(before[:shown, :]),
    )
    derivation.note(
        f"Candidate matrix ({build.__name__.lstrip('_')}): its top-left {shown} x {shown} corner",
        to_latex(matrix[:shown, :shown]),
    )
    residual = matrix * before - after
    residual = residual.applyfunc(sp.expand)
    residual = residual.applyfunc(sp.expand_trig)
    residual = residual.applyfunc(sp.expand)
    nonzero = sum(1 for entry in residual if entry != 0)
    derivation.note(
        "Residual, after expanding the arguments, expand_trig and expand: "
        f"{nonzero} of {d_model} entries are non-zero",
        to_latex(residual[:shown, :]),
        residual[:shown, :],
    )
    return derivation.proof(
        f"rotation identity in the {layout}, {order} layout", statement, residual
    )


def _unconjugated(_perm: Any, shift: Any) -> Any:
    return shift


def _transposed_conjugation(perm: Any, shift: Any) -> Any:
    return perm.T @ shift @ perm


_HALVES: tuple[conventions.Layout, conventions.Order] = ("halves", "sin-first")

#: The paper's :math:`T_k` used as is on a halves table (no conjugation by ``P``).
UNCONJUGATED_SHIFT = Candidate(
    "T_k not conjugated",
    ShiftInLayout(_unconjugated, (_HALVES,), "the paper's T_k on halves"),
)

#: :math:`P^{\mathsf T} T_k P`: conjugated by the inverse permutation.
TRANSPOSED_CONJUGATION = Candidate(
    "P^T T_k P instead", ShiftInLayout(_transposed_conjugation, (_HALVES,), "P^T T_k P")
)

#: The paper's (sin, cos) blocks on an interleaved (cos, sin) table.
COS_FIRST_UNCONJUGATED = Candidate(
    "the paper's blocks in (cos, sin) order",
    ShiftInLayout(_unconjugated, (("interleaved", "cos-first"),), "the paper's T_k"),
)

#: The true rule: :math:`P\,T_k\,P^{\mathsf T}` in every layout.
CONJUGATED = ShiftInLayout(conjugated)


def _layouts_proved(rule: ShiftInLayout) -> Evidence:
    shown = [layout_identity(layout, order, rule.build) for layout, order in rule.layouts]
    detail = "; ".join(p.summary() for p in shown)
    return Evidence(Method.SYMPY, all(p.holds for p in shown), detail)


def _layouts_numeric(rule: ShiftInLayout) -> Evidence:
    worst, ratio = layout_shift_errors(rule)
    return within(
        ratio,
        SHIFT.per_entry(),
        f"d=512, positions 200..1223, k in {OFFSETS}, {len(rule.layouts)} "
        f"layout(s), {rule.formula}: "
        + on_site(
            f"max error {worst:.2g}, worst error/tolerance {ratio:.2g}",
            f"worst error/tolerance {below(ratio, 1.0, '.2g')}",
        ),
    )


claim(
    "layout-shift-matrix",
    "The rotation identity in every layout",
    Check(
        _layouts_proved,
        true=CONJUGATED,
        wrong=(
            UNCONJUGATED_SHIFT,
            TRANSPOSED_CONJUGATION,
            COS_FIRST_UNCONJUGATED,
        ),
    ),
    Check(_layouts_numeric, true=CONJUGATED, wrong=(UNCONJUGATED_SHIFT,)),
    statement=(
        r"\begin{gathered}PE_L(p+k) = \bigl(P_L\,T_k\,P_L^{\mathsf T}\bigr)\,PE_L(p),\quad "
        r"PE_L = P_L\,PE \text{ in all four layouts} \\ \text{(SymPy at } d = "
        + f"{PROOF_WIDTH}"
        + r"\text{ with a symbolic base; NumPy at } d = 512\text{)}\end{gathered}"
    ),
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


claim(
    "cos-first-block",
    "In (cos, sin) order the block turns the other way",
    Check(
        by_proof(cos_first_block),
        true=cos_sin_block,
        wrong=(PAPER_BLOCK,),
    ),
    statement=(
        r"\begin{pmatrix} \cos\omega(p+k) \\ \sin\omega(p+k) \end{pmatrix} = "
        r"\begin{pmatrix} \cos k\omega & -\sin k\omega \\ \sin k\omega & \cos k\omega"
        r"\end{pmatrix} \begin{pmatrix} \cos\omega p \\ \sin\omega p \end{pmatrix}"
    ),
)


def t2t_formula_error(convention: Convention, d: int = 512, n: int = 1000) -> float:
    r"""Largest difference between a convention's table and tensor2tensor's own formula.

    The formula, :math:`\sin, \cos(p\,\exp(-k \ln 10000 / (d/2 - 1)))` in halves, is
    written out in float64 by :func:`pe.conventions.described_table`.

    Examples
    --------
    >>> t2t_formula_error(conventions.get("tensor2tensor"), d=16, n=50) < 1e-12
    True
    """
    reference, _ = described_table(conventions.get("tensor2tensor"), n, d)
    return float(np.abs(convention.table(n, d) - reference).max())


#: The true exponent of the base in :func:`t2t_equals_paper`: :math:`d/(d-2)`.
t2t_exponent = D / (D - 2)


def t2t_equals_paper(exponent: Any = t2t_exponent) -> Proof:
    r"""Prove :math:`e^{-i \ln b/(d/2 - 1)} = \bigl(b^{d/(d-2)}\bigr)^{-2i/d}`.

    Both sides are positive: the proof reduces the difference of their logarithms,
    :math:`-i\ln b/(d/2-1)` and :math:`-(2i/d)\cdot(d/(d-2))\ln b` (rational functions of
    ``d``). ``exponent`` is the candidate for :math:`d/(d-2)`.

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


#: Exponents of the base for tensor2tensor's law (true: :math:`d/(d-2)`).
T2T_EXPONENT_D_MINUS_1 = Candidate("base b^(d/(d-1))", symbolic.D / (symbolic.D - 1))
#: Either law read as the other with the base unchanged (an exponent of 1 on the base).
SAME_BASE = Candidate("the same base b", sp.Integer(1))
#: The paper's convention (base 10000) read as tensor2tensor's table.
PAPER_CONVENTION = Candidate("the paper's convention, base 10000", conventions.get("paper"))


def _t2t_numeric(convention: conventions.Convention) -> Evidence:
    error = t2t_formula_error(convention)
    ln_base = float(np.log(10000.0))
    # the base 10000^(512/510): its exponent rounded once; tensor2tensor's frequencies
    # exp(-i ln(10000) / (h - 1)): the logarithm, the product and the quotient rounded
    frequency = exponential_rounding(ln_base, 1) + exponential_rounding(ln_base, 3)
    return _formula_agrees(
        error,
        frequency,
        r"r_b + r_{t2t}",
        "tensor2tensor table (via the paper's law, base 10000^(512/510)) vs its own formula, d=512",
    )


claim(
    "t2t-law-is-paper-law",
    "tensor2tensor's law is the paper's with another base",
    Check(
        by_proof(t2t_equals_paper),
        true=t2t_exponent,
        wrong=(T2T_EXPONENT_D_MINUS_1, SAME_BASE),
    ),
    Check(_t2t_numeric, true=conventions.get("tensor2tensor"), wrong=(PAPER_CONVENTION,)),
)


def one_indexed_error(exponent: float, d: int = 64, n: int = 1000) -> float:
    r"""Largest difference between the one-indexed law and the wider paper table, pair 1 on.

    The one-indexed table :math:`\sin, \cos(p\,b^{-2(k+1)/d})` (``b = 10000``) against
    columns ``2 .. d+1`` of the paper's table of width ``d + 2`` with the base
    :math:`b^{\text{exponent}}`, positions ``0 .. n-1`` (the one-indexed table written out by
    :func:`pe.conventions.described_table`). Both in float64: with the right
    base (``exponent = (d+2)/d``) they agree to about :math:`10^{-13}` (angles up to
    :math:`10^3`, rounded frequencies); with the base unchanged they differ by order one.

    Examples
    --------
    >>> one_indexed_error(66 / 64) < 1e-12, one_indexed_error(1.0) > 0.1
    (True, True)
    """
    one_indexed, _ = described_table(conventions.get("one-indexed"), n, d)
    wider = numeric.sinusoidal(n, d + 2, base=10000.0**exponent)[:, 2:]
    return float(np.abs(wider - one_indexed).max())


#: The true exponent of the base in :func:`one_indexed_is_wider_paper`: :math:`(d+2)/d`.
one_indexed_exponent = (D + 2) / D


def one_indexed_is_wider_paper(exponent: Any = one_indexed_exponent) -> Proof:
    r"""Prove :math:`b^{-2(i+1)/d} = \bigl(b^{(d+2)/d}\bigr)^{-2(i+1)/(d+2)}`.

    The right side is the frequency of pair :math:`i + 1` in the paper's law of width
    :math:`d + 2`: the one-indexed table is that wider table without its first pair, *with
    the base changed* to :math:`b^{(d+2)/d}`. ``exponent`` is the candidate for
    :math:`(d+2)/d`; with the base unchanged (``exponent = 1``) the wider table's pairs are
    :math:`b^{-2(i+1)/(d+2)}`, slower than the one-indexed ones. The proof reduces the
    difference of the logarithms of the two (positive) sides.

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


def _one_indexed_numeric(exponent: Any) -> Evidence:
    d = 64
    value = float(exponent.subs(symbolic.D, d))
    error = one_indexed_error(value, d)
    # the base 10000^(66/64) (a dyadic exponent: one power) and the one-indexed frequencies
    # 10000^(-2(k+1)/64) (dyadic too): two powers
    return _formula_agrees(
        error,
        2 * exponential_rounding(0.0, 0),
        r"2\varepsilon",
        f"one-indexed law vs columns 2..{d + 1} of the paper's table of width {d + 2} with "
        f"base 10000^{value:.6g}, d={d}",
    )


claim(
    "one-indexed-law-is-wider-paper-law",
    "The one-indexed law is the paper's of width $d + 2$, first pair dropped, base changed",
    Check(
        by_proof(one_indexed_is_wider_paper),
        true=one_indexed_exponent,
        wrong=(SAME_BASE,),
    ),
    Check(
        _one_indexed_numeric,
        true=one_indexed_exponent,
        wrong=(SAME_BASE,),
    ),
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
        ("Combine powers", sp.powsimp),
        ("Collect terms", sp.expand),
    )


#: The doubled exponent read as the base cubed (true: squared).
BASE_CUBED = Candidate("the base cubed", 3)

claim(
    "doubled-exponent-base",
    "The doubled exponent squares the base",
    Check(by_proof(doubled_exponent), true=2, wrong=(BASE_CUBED,)),
)

#: The paper's table ``(n, d) -> (n, d)``: every pair at one frequency, so a shift matrix exists.
PAPER_TABLE = Candidate("the paper's table", numeric.sinusoidal)


def _swapped_partners(n: int, d: int) -> npt.NDArray[Any]:
    table = numeric.sinusoidal(n, d)
    cosines = table[:, 1::2].copy()
    cosines[:, 0::2], cosines[:, 1::2] = table[:, 3::4], table[:, 1::4]
    table[:, 1::2] = cosines
    return table


#: The paper's table with the cosines of pairs 2j and 2j + 1 swapped: sine and cosine differ
#: in frequency within every pair, yet every sine has its cosine in another column.
SWAPPED_PARTNERS = Candidate("cosines of neighbouring pairs swapped", _swapped_partners)


def _no_shift_matrix(make: Callable[[int, int], Any]) -> Evidence:
    error = conventions.linear_shift_error(make(4000, 16), 3)
    return checked(
        error > 0.1,
        f"best matrix mapping row p to row p+3, fitted on rows 0..1997 and applied to "
        f"rows 1998..3996 (d=16): largest error {measured(error, 0.1)}",
    )


def sine_cosine_exponents_apart(cosine_shift: int = 2) -> Proof:
    r"""Prove that with the column index in the exponent no sine turns at a cosine's frequency.

    The bug fills column :math:`2i` with :math:`\sin(p\,b^{-4i/d})` and column :math:`2i+1`
    with :math:`\cos(p\,b^{-(4i+c)/d})`, :math:`c = 2`. The sine of pair :math:`i` and the
    cosine of pair :math:`i'` share a frequency only if :math:`4i = 4i' + c`; for :math:`c = 2`
    the difference is 2 modulo 4 for all integers :math:`i, i'`, so never 0, at every width :math:`d` and base
    :math:`b > 1`. ``cosine_shift`` is the candidate :math:`c` (0 is the paper's pairing,
    where every sine has its cosine).

    Examples
    --------
    >>> sine_cosine_exponents_apart().holds, sine_cosine_exponents_apart(0).holds
    (True, False)
    """
    i, other = sp.symbols("i i'", integer=True)  # two pair indices
    difference = sp.Mod(4 * i - (4 * other + cosine_shift), 4, evaluate=False)
    return _reduced(
        "sine and cosine exponents never meet",
        r"4i - (4i' + 2) \equiv 2 \pmod 4 \quad \forall i, i' \in \mathbb{Z}",
        ("Residual: the exponents' difference (times d) modulo 4, minus 2", difference - 2),
        ("Reduce modulo 4 (4i and 4i' vanish)", lambda residual: residual.doit()),
    )


#: The paper's pairing, where the cosine of pair ``j`` has the sine's exponent ``4j/d``.
COSINE_AT_SINE_EXPONENT = Candidate("the cosine at its sine's exponent", 0)

claim(
    "column-index-bug-breaks-identity",
    r"With the column index where the pair index was meant, no matrix shifts the encoding",
    Check(by_proof(sine_cosine_exponents_apart), true=2, wrong=(COSINE_AT_SINE_EXPONENT,)),
    Check(
        _no_shift_matrix,
        true=bug_zoo.column_index_exponent,
        wrong=(PAPER_TABLE, SWAPPED_PARTNERS),
    ),
    statement=(
        r"\begin{gathered}\text{column-index bug, every } d\text{: sine exponents } 4i/d,"
        r" \text{ cosine exponents } (4i'+2)/d \text{ (pairs } i, i'\text{)},\ 4i - (4i'+2)"
        r" \equiv 2 \pmod 4; \\"
        r" \text{no sine frequency is a cosine frequency} \implies \nexists M:\ M\,x(p)"
        r" = x(p+k) \ \forall p \\ \text{(fitted at } d = 16\text{); a mismatch within"
        r" pairs alone is not enough (the cosines may sit in other pairs)}\end{gathered}"
    ),
)


#: The bug zoo's shift check: width (17 for the odd width), rows and offset.
ZOO_WIDTH, ZOO_ROWS, ZOO_SHIFT = 16, 400, 3
ZooPairs = Callable[[bug_zoo.Bug, int], bug_zoo.Pairs]


def _named_pairs(bug: bug_zoo.Bug, d: int) -> bug_zoo.Pairs:
    """The pairs a bug's identity cell names (``bug.pairs``)."""
    assert bug.pairs is not None
    return bug.pairs(d)


def _paper_frequencies(bug: bug_zoo.Bug, d: int) -> bug_zoo.Pairs:
    """The bug's own column pairs, turned at the paper's frequencies instead."""
    sines, cosines, omegas = _named_pairs(bug, d)
    return sines, cosines, numeric.frequencies(2 * omegas.size)


#: "The paper's T_k fits every bug": the bugs' column pairs at the paper's frequencies.
PAPER_BLOCKS_FOR_EVERY_BUG = Candidate(
    "the paper's frequencies in each bug's pairs", _paper_frequencies
)


def _zoo_shifts(pairs_of: ZooPairs) -> Evidence:
    """Each bug of the zoo whose identity cell says "holds": its table shifted by the matrix
    turning the named pairs, on the columns in a pair (the odd width's lone sine is not)."""
    worst, parts = 0.0, []
    for bug in (b for b in bug_zoo.BUGS if b.pairs is not None):
        d = ZOO_WIDTH + (bug.name == "odd-width")
        pairs = pairs_of(bug, d)
        matrix = bug_zoo.pair_shift(d, ZOO_SHIFT, pairs)
        x = bug.make(ZOO_ROWS, d)
        sines, cosines, _ = pairs
        paired = np.concatenate([sines, cosines])
        error = float(np.abs(x[:-ZOO_SHIFT] @ matrix.T - x[ZOO_SHIFT:])[:, paired].max())
        bound = 16 * EPS64 * (1 + (ZOO_ROWS + ZOO_SHIFT) * float(pairs[2].max()))
        worst = max(worst, error / bound)
        parts.append(f"{bug.name} {measured(error, bound, '.2g')}")
    return within(
        worst,
        Tolerance(1.0, r"16\,\varepsilon_{64}\,(1 + (n + k)\max_i \omega_i) \text{ per bug}"),
        f"d = {ZOO_WIDTH} ({ZOO_WIDTH + 1} for the odd width), {ZOO_ROWS} rows, k = {ZOO_SHIFT}, "
        f"largest |M x(p) - x(p+k)| on the paired columns: {'; '.join(parts)}",
    )


claim(
    "bug-zoo-shift-matrices",
    "Where the bug zoo says the rotation identity holds, the named blocks shift the table",
    Check(_zoo_shifts, true=_named_pairs, wrong=(PAPER_BLOCKS_FOR_EVERY_BUG,)),
    statement=(
        r"\begin{gathered}M\,x(p) = x(p + k) \text{ to rounding, } M \text{ turning each"
        r" named (sine, cosine) pair by } k\omega: \\ \text{doubled exponent: } \omega_i ="
        r" (10^8)^{-2i/d};\ \text{multiplied: } \omega_i = 10^{4 \cdot 2i/d};\ \text{integer"
        r" division: } \omega = 1 \text{ (left half)}, 10^{-4} \text{ (right)}; \\"
        r" \text{halves: columns } i, h + i;\ \text{odd width: the } \lfloor d/2 \rfloor"
        r" \text{ pairs, not the lone sine;} \\ \text{fairseq: halves, } \omega_i ="
        r" 10^{-4i/(h-1)} \quad (d = 16, 17;\ 400 \text{ rows};\ k = 3)\end{gathered}"
    ),
)


#: Tables that are not sinusoidal encodings, for ``identify``.
UNIFORM_NOISE_TABLE = Candidate("uniform random table", non_encodings()["uniform noise"])
NOISY_PAPER_TABLE = Candidate(
    "paper table + noise 0.01 (learned-like)",
    np.clip(
        numeric.sinusoidal(200, 64) + np.random.default_rng(1).normal(0, 0.01, (200, 64)), -1, 1
    ),
)
ZERO_TABLE = Candidate("all zeros", np.zeros((100, 64)))


@dataclasses.dataclass(frozen=True)
class Misdescribed(Convention):
    """A convention whose table is ``actual``'s while its fields describe another one: what a
    reader who mistakes one convention for another expects ``identify`` to find.

    Examples
    --------
    >>> t2t = conventions.get("tensor2tensor")
    >>> read = T2T_READ_AS_PAPER_LAW.value["tensor2tensor"]
    >>> read.law, bool((read.table(3, 8) == t2t.table(3, 8)).all())
    ('paper', True)
    """

    actual: Convention = dataclasses.field(kw_only=True)

    def table(
        self, n_positions: int, d_model: int, *, dtype: npt.DTypeLike = np.float64
    ) -> npt.NDArray[Any]:
        """``actual``'s table (see :meth:`pe.conventions.Convention.table`)."""
        return self.actual.table(n_positions, d_model, dtype=dtype)


def _atlas_with(name: str, **description: Any) -> dict[str, Convention]:
    """The atlas with convention ``name`` described by ``description`` (its table unchanged)."""
    atlas = dict(conventions.CONVENTIONS)
    actual = atlas[name]
    atlas[name] = Misdescribed(**(dataclasses.asdict(actual) | description), actual=actual)
    return atlas


#: The atlas with tensor2tensor's table taken for the paper's law (``b^(-2k/d)``, same base).
T2T_READ_AS_PAPER_LAW = Candidate(
    "tensor2tensor's table read as the paper's law", _atlas_with("tensor2tensor", law="paper")
)


def _recovers(named: dict[str, conventions.Convention]) -> Evidence:
    cases, failures, bugs_named = recovery(named)
    return checked(
        not failures and bugs_named,
        f"{cases} tables ({len(named)} conventions x d in {WIDTHS} x "
        f"float64/float32): layout, order, offset, law, base and sine frequencies recovered "
        f"in {cases - len(failures)}; every bug of the zoo named: {bugs_named}"
        + (
            f"; failures (the first {min(len(failures), 3)} of {len(failures)}): {failures[:3]}"
            if failures
            else ""
        ),
    )


def _accepted(table: npt.NDArray[Any]) -> Evidence:
    result = identify(table)
    return checked(result.is_encoding, result.reason)


claim(
    "identify-recovers-conventions",
    "pe identify recovers each convention of the atlas and names each bug of the zoo",
    Check(_recovers, true=conventions.CONVENTIONS, wrong=(T2T_READ_AS_PAPER_LAW,)),
    Check(
        _accepted,
        true=numeric.sinusoidal(200, 64),
        wrong=(UNIFORM_NOISE_TABLE, NOISY_PAPER_TABLE, ZERO_TABLE),
    ),
    statement=(
        r"\begin{gathered}\texttt{identify}(\text{table}) \to \text{layout, order, offset, law,"
        r" base, } \omega_i \text{ from the sines (relative error} \le 10^{-6} \text{ float64}, 10^{-3}"
        r" \text{ float32)} \\ \text{measured on each convention of the atlas at the widths of"
        r" the check; frequencies above } \pi \text{ only as their aliases}\end{gathered}"
    ),
)


#: The tables read by :func:`_rounder_base`: (convention, width) -> (law reported, whether
#: identify notes that both laws have a round base).
ROUNDER_BASE = {
    ("tensor2tensor", 6): ("paper", True),
    ("paper", 8): ("paper", True),
    ("tensor2tensor", 8): ("tensor2tensor", False),
    ("paper", 512): ("paper", False),
    ("tensor2tensor", 512): ("tensor2tensor", False),
}


def _rounder_base(stated: Mapping[tuple[str, int], tuple[str, bool]]) -> Evidence:
    """What ``identify`` reports for tables that both laws can write, against ``stated``."""
    found = {}
    for name, width in stated:
        result = identify(conventions.get(name).table(200, width))
        both = any("also the tensor2tensor law" in note for note in result.notes)
        found[name, width] = (str(result.law), both)
    return case_by_case(
        found,
        stated,
        lambda key: f"{key[0]} table, d={key[1]}",
        lambda reported: f"{reported[0]} law" + (", the tie noted" if reported[1] else ""),
    )


claim(
    "identify-rounder-base",
    "pe identify reports the law whose base is rounder, the paper's on a tie",
    Check(
        _rounder_base,
        true=ROUNDER_BASE,
        wrong=(
            Candidate(
                "always the paper's law",
                {key: ("paper", both) for key, (_law, both) in ROUNDER_BASE.items()},
            ),
            Candidate("a tie not noted", {**ROUNDER_BASE, ("paper", 8): ("paper", False)}),
        ),
    ),
    statement=(
        r"\begin{gathered}\text{both bases round: } d = 8\text{, the paper's law with base 10000 is"
        r" tensor2tensor's with base 1000;} \\ d = 6\text{, tensor2tensor's with base 10000 is the"
        r" paper's with base } 10^6\text{: the paper's reported, the tie noted;} \\"
        r" \text{otherwise the law whose base is round (10000); checked at } d = 6, 8, 512"
        r"\end{gathered}"
    ),
)


#: The page's description with tensor2tensor dividing by d/2 (the paper's divisor).
T2T_DESCRIBED_WITH_HALF_WIDTH = Candidate(
    "tensor2tensor dividing by d/2",
    DESCRIPTION._replace(
        laws={
            **DESCRIPTION.laws,
            "tensor2tensor": lambda k, d, b: np.exp(-k * np.log(b) / (d / 2)),
        }
    ),
)

#: The page's description with fairseq-style tables starting at position 1.
FAIRSEQ_FROM_ONE = Candidate(
    "fairseq-style tables starting at 1",
    DESCRIPTION._replace(first_position={"fairseq-tokens": 1}),
)

#: The page's description with the interleaved pair in columns (2k + 1, 2k).
INTERLEAVED_SWAPPED = Candidate(
    "interleaved pair i in columns 2i + 1, 2i",
    DESCRIPTION._replace(
        columns={
            **DESCRIPTION.columns,
            "interleaved": lambda k, _d: (2 * k + 1, 2 * k),
        }
    ),
)


def _described(description: Description) -> Evidence:
    """Every named convention's table against the page's description of it, entry by entry."""
    worst, where = 0.0, ""
    for name, convention in conventions.CONVENTIONS.items():
        described, tolerance = described_table(convention, 1000, 64, description)
        ratio = float((np.abs(convention.table(1000, 64) - described) / tolerance).max())
        if ratio >= worst:
            worst, where = ratio, name
    return within(
        worst,
        Tolerance(1.0, r"6\varepsilon(1 + p\,\omega)(1 + |\ln \omega|) \text{ per entry}"),
        f"{len(conventions.CONVENTIONS)} conventions, d=64, 1000 rows, against the described "
        f"columns, laws and first positions: worst |difference| / 6 eps (1 + p w)(1 + |ln w|) "
        f"= {worst:.3g} ({where})",
    )


claim(
    "conventions-as-described",
    "Every named convention is the table its description gives",
    Check(
        _described,
        true=DESCRIPTION,
        wrong=(
            T2T_DESCRIBED_WITH_HALF_WIDTH,
            FAIRSEQ_FROM_ONE,
            INTERLEAVED_SWAPPED,
        ),
    ),
    statement=(
        r"\begin{gathered}\text{pair } i \text{ in columns } 2i, 2i+1 \text{ (interleaved)"
        r" or } i, i + d/2 \text{ (halves)}; \\ \omega_i = b^{-2i/d},\ \exp(-i\ln b"
        r" / (d/2 - 1)),\ b^{-2(i+1)/d}; \text{ fairseq: stored rows from position 0,"
        r" padding row 1 zeroed, its tokens' rows from position 2}"
        r"\end{gathered}"
    ),
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
        ("Collect terms", sp.expand),
    )


#: The counter-clockwise phase :math:`\mathrm{i}\,e^{\mathrm{i}\theta}` for the (sin, cos) pair.
COUNTER_CLOCKWISE_PHASE = Candidate(
    "i e^(i theta), the turn of (cos, sin) pairs", lambda theta: sp.I * sp.exp(sp.I * theta)
)

claim(
    "sin-cos-pair-turns-clockwise",
    r"The $(\sin, \cos)$ pair is $i e^{-i\theta}$: it turns clockwise",
    Check(
        by_proof(pair_as_phase),
        true=sin_first_phase,
        wrong=(COUNTER_CLOCKWISE_PHASE,),
    ),
    statement=(
        r"\cos\theta + i\sin\theta = e^{i\theta}, \qquad \sin\theta + i\cos\theta"
        r" = i\,e^{-i\theta}"
    ),
)


def _uncertainty(exponent: float) -> Evidence:
    cosine, sine, slow = uncertainty_slopes()
    return checked(
        abs(cosine + exponent) <= 0.25 and abs(sine) <= 0.25,
        f"paper law, base 1e6, d=128, 256 rows, float32, {slow} slow pairs (θ < 1/2): "
        f"log-log slope of identify's relative uncertainty against θ: cosines {cosine:.3f}, "
        f"sines {sine:.3f} (stated: cosines -{exponent:g} ± 0.25, sines 0 ± 0.25)",
    )


claim(
    "slow-cosine-pins-less",
    r"A slow cosine pins its frequency only to about $\varepsilon/\theta^2$, its sine to about $\varepsilon$",
    Check(_uncertainty, true=2.0, wrong=(Candidate("ε/θ, like a linear column", 1.0),)),
    statement=(
        r"\begin{gathered}\sin\omega p \approx \omega p,\quad \cos\omega p \approx 1 -"
        r" (\omega p)^2/2: \\ \delta\omega/\omega \approx \varepsilon/\theta^2 \text{ from the"
        r" cosine, } \varepsilon \text{ from the sine},\ \theta = \omega(n - 1)"
        r" \text{ small}\end{gathered}"
    ),
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
            "Residuals, one per equality (p an integer)",
            [
                sp.sin(other * INTEGER_P) + sp.sin(FREQUENCY * INTEGER_P),
                sp.cos(other * INTEGER_P) - sp.cos(FREQUENCY * INTEGER_P),
            ],
        ),
        (
            "Expand the arguments",
            lambda e: e.replace(sp.sin, lambda x: sp.sin(sp.expand(x))).replace(
                sp.cos, lambda x: sp.cos(sp.expand(x))
            ),
        ),
        ("Angle addition; sin 2πp = 0, cos 2πp = 1", sp.expand_trig),
        ("Collect terms", sp.expand),
    )


#: The paper's table ``(n, d) -> table``: no frequency above pi, so nothing to note.
PAPER_TABLE_MAKER = Candidate("the paper's table (no frequency above π)", numeric.sinusoidal)

#: The alias taken as :math:`\pi - \omega` (a half turn) instead of :math:`2\pi - \omega`.
HALF_TURN_ALIAS = Candidate("π − ω", lambda omega: sp.pi - omega)


def _aliases_reported(make: Callable[[int, int], Any]) -> Evidence:
    found = identify(make(200, 64))
    largest = float(np.max(np.concatenate([found.sin_frequencies, found.cos_frequencies])))
    noted = any("above π" in note for note in found.notes)
    return checked(
        noted and largest <= np.pi,
        f"identify on the multiplying bug (200 x 64): a note on frequencies above π: "
        f"{'yes' if noted else 'no'}; largest frequency reported {largest:.6g} (π = {np.pi:.6g})",
    )


def integer_alias_of(omega: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """What a table of integer positions shows of ``omega``: its alias in ``[0, pi]``."""
    return np.asarray(np.arccos(np.cos(omega)), dtype=np.float64)


#: ``identify`` read as recovering every frequency from the table ("every parameter").
RECOVERS_TRUE_FREQUENCY = Candidate(
    "identify recovers the true frequency", lambda omega: np.asarray(omega, dtype=np.float64)
)


def _reported_is_alias(shown: Callable[[npt.NDArray[np.float64]], Any]) -> Evidence:
    r"""Each frequency ``identify`` reports for the multiplying bug against ``shown(true)``.

    The bug turns pair ``i`` at :math:`\omega_i = 10000^{2i/d}` (``d = 64``), above
    :math:`\pi` from pair 4 on. The statement decides between the true frequency and its
    alias, which differ by :math:`2|\omega_i - \pi|` or more for those pairs: it allows half
    the smallest such gap (``stated``), plus the rounding of the true frequencies.
    """
    d = 64
    found = identify(bug_zoo.multiplied(200, d))
    omega = 10000.0 ** (2 * np.arange(d // 2) / d)
    above = omega > np.pi
    aliases = integer_alias_of(omega)
    gap = float(np.abs(omega[above] - aliases[above]).min())
    expected = np.asarray(shown(omega), dtype=np.float64)
    error = float(
        max(
            np.abs(found.sin_frequencies - expected).max(),
            np.abs(found.cos_frequencies - expected).max(),
        )
    )
    return within(
        error,
        Tolerance(
            float(exponential_rounding(math.log(10000.0), 1) * omega.max()),
            r"r_{\mathrm{pow}}\,\max_i \omega_i \text{ (the true frequencies' rounding)}",
            stated=gap / 2,
        ),
        f"multiplying bug, 200 x {d}: {int(above.sum())} pairs turn faster than π; "
        f"max |reported - stated| = {error:.2g} over the pairs; true frequency and alias "
        f"differ by at least {gap:.3g} (allowed: half of it)",
    )


claim(
    "aliases-at-integer-positions",
    r"Above $\pi$ per position, a frequency cannot be told from its alias $2\pi - \omega$",
    Check(
        by_proof(alias_at_integers),
        true=integer_alias,
        wrong=(HALF_TURN_ALIAS,),
    ),
    Check(_aliases_reported, true=bug_zoo.multiplied, wrong=(PAPER_TABLE_MAKER,)),
    Check(_reported_is_alias, true=integer_alias_of, wrong=(RECOVERS_TRUE_FREQUENCY,)),
    statement=(
        r"\begin{gathered}p \in \mathbb{Z}: \sin((2\pi - \omega)p) = -\sin\omega p,\ "
        r"\cos((2\pi - \omega)p) = \cos\omega p; \\ \texttt{identify} \text{ notes it and"
        r" reports the alias in } [0, \pi]: \text{ a frequency above } \pi \text{ is not"
        r" recovered}\end{gathered}"
    ),
)


#: The odd width at which each implementation of :data:`SURVEY` was run (66 rows).
ODD_WIDTH = 33


class Surveyed(NamedTuple):
    """A row of the survey: the layout, order and law of an implementation's table, the row
    of its first token, its zeroed padding rows, and what it does at an odd width."""

    layout: str
    order: str
    law: str
    first_token_row: int
    padding_rows: tuple[int, ...]
    odd_width: OddWidth


#: The survey's rows for the implementations whose code runs in a library recorded by
#: ``tests/real_code/record.py`` (``pe/chapters/data/implementations.npz``, and at the odd
#: width :data:`ODD_WIDTH` ``implementations_odd.npz``).
SURVEY: dict[str, Surveyed] = {
    "DistilBERT": Surveyed("interleaved", "sin-first", "paper", 0, (), OddWidth.EXTRA_SINE),
    "PyTorch tutorial": Surveyed("interleaved", "sin-first", "paper", 0, (), OddWidth.ERROR),
    "Marian": Surveyed("halves", "sin-first", "paper", 0, (), OddWidth.EXTRA_SINE),
    "M2M100": Surveyed("halves", "sin-first", "tensor2tensor", 2, (1,), OddWidth.ZERO_COLUMN),
    "Whisper": Surveyed("halves", "sin-first", "tensor2tensor", 0, (), OddWidth.ERROR),
    "fairseq (FSMT port)": Surveyed(
        "halves", "sin-first", "tensor2tensor", 2, (1,), OddWidth.ZERO_COLUMN
    ),
    "diffusers": Surveyed("halves", "sin-first", "tensor2tensor", 0, (), OddWidth.ZERO_COLUMN),
}
LAYOUTS_SWAPPED = Candidate(
    "every layout the other one",
    every_row(SURVEY, layout={"halves": "interleaved", "interleaved": "halves"}.__getitem__),
)
FAIRSEQ_FROM_TWO = Candidate(
    "fairseq's table starts at position 2, no padding row",
    SURVEY
    | {
        name: SURVEY[name]._replace(first_token_row=0, padding_rows=())
        for name in ("M2M100", "fairseq (FSMT port)")
    },
)
ALL_ON_THE_PAPERS_LAW = Candidate(
    "every table on the paper's law",
    every_row(SURVEY, law="paper"),
)
ODD_WIDTHS_REFUSED = Candidate(
    "every odd width refused",
    every_row(SURVEY, odd_width=OddWidth.ERROR),
)
ODD_WIDTHS_PADDED = Candidate(
    "every odd width padded with a zero column",
    every_row(SURVEY, odd_width=OddWidth.ZERO_COLUMN),
)


def _recorded(file: str) -> dict[str, npt.NDArray[Any]]:
    """The arrays of ``pe/chapters/data/FILE`` (an ``.npz``), by name."""
    data = resources.files("pe.chapters").joinpath("data", file)
    with data.open("rb") as opened, np.load(opened, allow_pickle=False) as archive:
        return {name: np.asarray(archive[name]) for name in archive.files}


def surveyed_tables() -> dict[str, npt.NDArray[np.floating[Any]]]:
    """The recorded tables (66 x 32) of the implementations in :data:`SURVEY`, by name."""
    return _recorded("implementations.npz")


def surveyed_odd_widths() -> dict[str, npt.NDArray[Any]]:
    """What each implementation of :data:`SURVEY` did at 66 x :data:`ODD_WIDTH`, as
    recorded: its table, or a 0-d string array ``"ExceptionType: message"``."""
    return _recorded("implementations_odd.npz")


def _survey(stated: dict[str, Surveyed]) -> Evidence:
    """The survey's rows against what each library's own tables show: ``pe identify`` reads
    the 66 x 32 table, :func:`odd_width_outcome` what it did at width :data:`ODD_WIDTH`."""
    odd = surveyed_odd_widths()
    found = {}
    for name, table in surveyed_tables().items():
        got = identify(table)
        found[name] = Surveyed(
            str(got.layout),
            str(got.order),
            str(got.law),
            int(got.first_token_row),
            tuple(int(r) for r in got.padding_rows),
            odd_width_outcome(odd[name], ODD_WIDTH) if name in odd else OddWidth.OTHER,
        )

    def at_odd_width(name: str) -> str:
        outcome = odd.get(name, np.array("not recorded"))
        if outcome.dtype.kind == "U":
            return f"raises {str(outcome).split(':')[0]}"
        return f"{found[name].odd_width.value} ({' x '.join(map(str, outcome.shape))})"

    return checked(
        found == stated and set(odd) == set(found),
        "tables computed by the libraries themselves (recorded, 66 x 32), read by pe identify: "
        + "; ".join(
            f"{name}: {row.layout}, {row.order}, {row.law} law, first token at row "
            f"{row.first_token_row}"
            + (f", padding rows {list(row.padding_rows)}" if row.padding_rows else "")
            for name, row in found.items()
        )
        + f"; asked for 66 x {ODD_WIDTH}: "
        + "; ".join(f"{name} {at_odd_width(name)}" for name in found),
    )


claim(
    "implementations-surveyed",
    "Who uses which convention, read from each implementation's public source",
    Check(
        _survey,
        true=SURVEY,
        wrong=(
            LAYOUTS_SWAPPED,
            FAIRSEQ_FROM_TWO,
            ALL_ON_THE_PAPERS_LAW,
            ODD_WIDTHS_REFUSED,
            ODD_WIDTHS_PADDED,
        ),
    ),
    statement=(
        r"\begin{gathered}\text{layout, law, first position and odd width of each row: read"
        r" from its linked source file;} \\ \text{recomputed, all four, from what the"
        r" libraries return at } 66 \times 32 \text{ and } 66 \times 33 \text{ (odd"
        r" width)} \\ \text{for transformers' DistilBERT, Marian, M2M100 and its ports of"
        r" Whisper and fairseq (FSMT),} \\ \text{diffusers' timestep embedding (defaults)"
        r" and the PyTorch tutorial's recipe run in PyTorch;} \\ \text{from the"
        r" source only: tensor2tensor, fairseq's own module, The Annotated Transformer,} \\"
        r" \text{Dive into Deep Learning and the TensorFlow text tutorial;} \\ \text{from the"
        r" source too: DistilBERT's sinusoidal table is an option,} \\"
        r" \texttt{sinusoidal\_pos\_embds}\text{, False by default; diffusers'"
        r" } \texttt{flip\_sin\_to\_cos} \\ \text{puts the cosine half first}\end{gathered}"
    ),
    source="implementation-survey",
)

claim(
    "tensor2tensor-is-the-authors-code",
    "tensor2tensor is the paper authors' own code",
    statement=(
        r"\begin{gathered}\text{Vaswani et al. (2017), the contributions footnote of page 1:"
        r" two of the} \\ \text{authors designed and implemented tensor2tensor, which"
        r" replaced their earlier codebase}\end{gathered}"
    ),
    source="vaswani2017",
)

claim(
    "packt-doubled-exponent",
    "A book's Python for the formula doubles the exponent",
    statement=(
        r"\begin{gathered}\text{Transformers for Natural Language Processing and Computer"
        r" Vision} \\ \text{(Packt, 2024), page 32: a loop over } i = 0, 2, 4, \dots \text{"
        r" with the exponent } 2i/d\end{gathered}"
    ),
    source="packt-transformers",
)

claim(
    "camara-column-index",
    "A write-up puts the column index itself in the exponent",
    statement=(
        r"\text{M. Camara Escudero: } \sin(pos / 10000^{2c/d}) \text{ for even } c,"
        r" \text{ the cosine for odd } c,\ c = 0, \dots, d - 1 \text{ (a column; their } i\text{)}"
    ),
    source="camara-escudero",
)

claim(
    "diffusers-cosine-first",
    "diffusers' timestep embedding can put the cosine half first",
    statement=(
        r"\begin{gathered}\text{diffusers, } \texttt{get\_timestep\_embedding}\text{: with }"
        r" \texttt{flip\_sin\_to\_cos=True} \text{ the cosine half comes first} \\ \text{(read from"
        r" its source at the commit the survey links; not run at build)}\end{gathered}"
    ),
    source="implementation-survey",
)
