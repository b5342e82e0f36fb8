r"""Exact proofs of the chapter "The sinusoidal encoding", in SymPy.

Notation (the paper's): width ``d`` (even), pair index ``i = 0, ..., d/2 - 1``,
:math:`\omega_i = 10000^{-2i/d}`, wavelength :math:`\lambda_i = 2\pi/\omega_i`.

- :func:`wavelength_progression`: the wavelengths form a geometric progression of ratio
  :math:`10000^{2/d}` from :math:`2\pi` to :math:`2\pi \cdot 10000^{(d-2)/d}`;
- :func:`width_refinement`: doubling the width keeps every frequency,
  :math:`\omega_i^{(d)} = \omega_{2i}^{(2d)}`;
- :func:`step_distance`: one step moves a pair by :math:`2\sin(\omega/2)`;
- :func:`period_mean`: sine and cosine average to 0 over a full period;
- :func:`concat_projection`: concatenating then projecting is adding two projections.

Each takes the candidate it proves (a law, an index factor, a step length, a power, a
right-hand side); the true one is the default, and the wrong ones of
:mod:`pe.proofs.wrong` leave a non-zero residual.

Examples
--------
>>> from pe.proofs import sinusoidal_encoding as proofs
>>> proofs.period_mean().holds, proofs.period_mean(2).holds
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import sympy as sp

from pe import _validate
from pe.symbolic import Derivation, Proof

__all__ = [
    "PAPER_WAVELENGTHS",
    "Projection",
    "WavelengthLaw",
    "chord_squared",
    "concat_projection",
    "paper_wavelength",
    "period_mean",
    "projection_text",
    "separate_projections",
    "step_distance",
    "wavelength_progression",
    "width_refinement",
]

#: The right-hand side of :math:`W[e; q] = \dots` as a function ``(W_e, W_q, e, q)``.
Projection = Callable[[Any, Any, Any, Any], Any]

_I = sp.Symbol("i", integer=True, nonnegative=True)
_D = sp.Symbol("d", integer=True, positive=True)
_BASE = sp.Integer(10000)


class WavelengthLaw(NamedTuple):
    r"""A statement about the wavelengths: :math:`\lambda_i` and the last one, :math:`\lambda_{d/2-1}`.

    Attributes
    ----------
    wavelength
        :math:`\lambda_i` as a SymPy expression of ``(i, d)``.
    last
        The stated last wavelength as a SymPy expression of ``d``.
    last_text
        How the stated last wavelength reads ("2π·10000^((d−2)/d)").
    """

    wavelength: Callable[[Any, Any], Any]
    last: Callable[[Any], Any]
    last_text: str


def paper_wavelength(i: Any, d: Any) -> Any:
    r"""The paper's :math:`\lambda_i = 2\pi \cdot 10000^{2i/d}`.

    Examples
    --------
    >>> paper_wavelength(sp.Integer(1), sp.Integer(4))
    200*pi
    """
    return 2 * sp.pi * _BASE ** (2 * i / d)


def _paper_last(d: Any) -> Any:
    return 2 * sp.pi * _BASE ** ((d - 2) / d)


#: The paper's wavelengths and their last one, :math:`2\pi \cdot 10000^{(d-2)/d}`.
PAPER_WAVELENGTHS = WavelengthLaw(paper_wavelength, _paper_last, "2π·10000^((d−2)/d)")


def wavelength_progression(law: WavelengthLaw = PAPER_WAVELENGTHS) -> Proof:
    r"""Prove the wavelength law: ratio :math:`10000^{2/d}`, first :math:`2\pi`, last short of :math:`2\pi \cdot 10000`.

    Residuals (symbolic ``i`` and ``d``, exact base 10000), with :math:`\lambda` the
    candidate's wavelength and ``L`` its stated last wavelength:

    1. :math:`\lambda_{i+1}/\lambda_i - 10000^{2/d}`;
    2. :math:`\lambda_0 - 2\pi`;
    3. :math:`\lambda_{d/2-1} - L`;
    4. :math:`\lambda_{d/2-1} / (2\pi\cdot 10000) - 10000^{-2/d}`.

    Examples
    --------
    >>> wavelength_progression().summary()
    'wavelengths form a geometric progression: 3 steps, residual is exactly 0'
    """
    lam = law.wavelength
    derivation = Derivation()
    derivation.note(
        "Wavelength of pair i", rf"\lambda_i = \frac{{2\pi}}{{\omega_i}} = {sp.latex(lam(_I, _D))}"
    )
    residual = sp.Matrix(
        [
            lam(_I + 1, _D) / lam(_I, _D) - _BASE ** (sp.Integer(2) / _D),
            lam(0, _D) - 2 * sp.pi,
            lam(_D / 2 - 1, _D) - law.last(_D),
            lam(_D / 2 - 1, _D) / (2 * sp.pi * _BASE) - _BASE ** (-sp.Integer(2) / _D),
        ]
    )
    derivation.note(
        "Residuals: ratio, first, last, last against 2π·10000", sp.latex(residual), residual
    )
    residual = derivation.apply(
        "Combine the powers of 10000 (powsimp), then expand the exponents (expand)",
        residual,
        lambda e: sp.expand(sp.powsimp(sp.expand(e), force=True)),
    )
    return derivation.proof(
        "wavelengths form a geometric progression",
        r"\begin{gathered} \lambda_{i+1} / \lambda_i = 10000^{2/d},\quad \lambda_0 = 2\pi \\"
        r" \lambda_{d/2-1} = 2\pi\cdot 10000^{(d-2)/d} = 2\pi \cdot 10000 \cdot 10000^{-2/d}"
        r" \end{gathered}",
        residual,
    )


def width_refinement(index_factor: int = 2) -> Proof:
    r"""Prove :math:`\omega_i^{(d)} = \omega_{2i}^{(2d)}`: doubling the width keeps every frequency.

    The candidate is the factor ``f`` of the index in the wider table,
    :math:`\omega_i^{(d)} = \omega_{f i}^{(2d)}`; only ``f = 2`` holds.

    Examples
    --------
    >>> width_refinement().holds, width_refinement(1).holds
    (True, False)
    """
    b = sp.Symbol("base", positive=True)

    def omega(index: Any, width: Any) -> Any:
        return b ** (-2 * index / width)

    derivation = Derivation()
    residual = sp.Matrix([omega(_I, _D) - omega(index_factor * _I, 2 * _D)])
    derivation.note(
        "Residual: frequency i at width d minus frequency 2i at width 2d",
        sp.latex(residual[0]),
        residual,
    )
    residual = derivation.apply(
        "Cancel the exponents (powsimp, expand)", residual, lambda e: sp.expand(sp.powsimp(e))
    )
    return derivation.proof(
        "doubling the width keeps every frequency",
        r"\omega_i^{(d)} = \mathrm{base}^{-2i/d} = \mathrm{base}^{-2(2i)/(2d)} = \omega_{2i}^{(2d)}",
        residual,
    )


def chord_squared(w: Any) -> Any:
    r"""The squared step of a pair turning by :math:`\omega`: :math:`4\sin^2(\omega/2) = 2 - 2\cos\omega`.

    Examples
    --------
    >>> chord_squared(sp.pi)
    4
    """
    return 2 - 2 * sp.cos(w)


def step_distance(squared_step: Callable[[Any], Any] = chord_squared) -> Proof:
    r"""Prove :math:`\lVert v(p+1) - v(p) \rVert = 2\sin(\omega/2)` for one pair (a smooth step).

    The residual is :math:`\lVert v(p+1) - v(p)\rVert^2` minus the candidate squared step
    (a function of :math:`\omega`), by default :math:`4\sin^2(\omega/2) = 2 - 2\cos\omega`.

    Examples
    --------
    >>> step_distance().holds, step_distance(lambda w: w**2).holds
    (True, False)
    """
    p = sp.Symbol("p", real=True)
    w = sp.Symbol("omega", positive=True)
    step = sp.Matrix([sp.sin(w * (p + 1)) - sp.sin(w * p), sp.cos(w * (p + 1)) - sp.cos(w * p)])
    target = squared_step(w)
    derivation = Derivation()
    derivation.note(
        "Residual: squared step of the pair minus the stated squared step",
        rf"\lVert {sp.latex(step)} \rVert^2 - {sp.latex(target)}",
    )
    residual = sp.Matrix([(step.T * step)[0] - target])
    residual = derivation.angle_addition(residual)
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "one step moves a pair by 2 sin(ω/2)",
        r"\lVert v_i(p+1) - v_i(p) \rVert = 2 \sin(\omega_i / 2) \le \omega_i",
        residual,
    )


def period_mean(power: int = 1) -> Proof:
    r"""Prove that sine and cosine average to 0 over a full period :math:`2\pi/\omega`.

    Residuals: :math:`\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin^k(\omega t)\,dt` and the
    same for cosine, with the candidate power ``k``; only ``k = 1`` holds (the squares
    average to 1/2).

    Examples
    --------
    >>> list(period_mean(2).residual)
    [1/2, 1/2]
    """
    t = sp.Symbol("t", real=True)
    w = sp.Symbol("omega", positive=True)
    derivation = Derivation()
    integrals = sp.Matrix(
        [
            w / (2 * sp.pi) * sp.integrate(sp.sin(w * t) ** power, (t, 0, 2 * sp.pi / w)),
            w / (2 * sp.pi) * sp.integrate(sp.cos(w * t) ** power, (t, 0, 2 * sp.pi / w)),
        ]
    )
    derivation.note(
        "Mean of the sine and of the cosine over one period (sympy.integrate)",
        rf"\frac{{\omega}}{{2\pi}}\int_0^{{2\pi/\omega}} \sin^{{{power}}}(\omega t)\,dt,\ "
        rf"\frac{{\omega}}{{2\pi}}\int_0^{{2\pi/\omega}} \cos^{{{power}}}(\omega t)\,dt",
    )
    residual = derivation.apply("Evaluate and expand", integrals, sp.expand)
    return derivation.proof(
        "zero mean over a full period",
        r"\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin \omega t\,dt ="
        r" \frac{\omega}{2\pi}\int_0^{2\pi/\omega} \cos \omega t\,dt = 0",
        residual,
    )


def separate_projections(w_e: Any, w_q: Any, e: Any, q: Any) -> Any:
    r""":math:`W_e e + W_q q`: two separate projections, added.

    Examples
    --------
    >>> separate_projections(sp.eye(1), 2 * sp.eye(1), sp.eye(1), sp.eye(1))
    Matrix([[3]])
    """
    return w_e @ e + w_q @ q


def projection_text(rhs: Projection) -> str:
    r"""The right-hand side ``rhs`` written out, as plain LaTeX ("W_e e + W_q q").

    Examples
    --------
    >>> projection_text(separate_projections)
    'W_e e + W_q q'
    """
    w_e, w_q = sp.MatrixSymbol("W_e", 2, 2), sp.MatrixSymbol("W_q", 2, 2)
    e, q = sp.MatrixSymbol("e", 2, 1), sp.MatrixSymbol("q", 2, 1)
    text = sp.latex(rhs(w_e, w_q, e, q), symbol_names={w_e: "W_e", w_q: "W_q"})
    return str(text).replace(r"\left(", "(").replace(r"\right)", ")")


def concat_projection(rhs: Projection = separate_projections, *, width: int = 2) -> Proof:
    r"""Prove :math:`W [e; q] = W_e e + W_q q` with ``W = [W_e | W_q]``: concatenating then projecting.

    A layer reading the concatenation ``[e; q]`` (width ``2 width``) equals two separate
    projections added; adding ``e + q`` first is the special case :math:`W_e = W_q`. The
    candidate is the right-hand side as a function of ``(W_e, W_q, e, q)``.

    Examples
    --------
    >>> concat_projection().holds, concat_projection(width=1).holds
    (True, True)
    """
    size = _validate.positive_int("width", width)
    e = sp.Matrix(size, 1, lambda r, _: sp.Symbol(f"e_{r + 1}", real=True))
    q = sp.Matrix(size, 1, lambda r, _: sp.Symbol(f"q_{r + 1}", real=True))
    w_e = sp.Matrix(size, size, lambda r, c: sp.Symbol(f"a_{{{r + 1}{c + 1}}}", real=True))
    w_q = sp.Matrix(size, size, lambda r, c: sp.Symbol(f"b_{{{r + 1}{c + 1}}}", real=True))
    whole = sp.Matrix.hstack(w_e, w_q)
    stacked = sp.Matrix.vstack(e, q)
    derivation = Derivation()
    derivation.note(
        "Residual: the layer on the concatenation minus the candidate",
        rf"{sp.latex(whole)} {sp.latex(stacked)} - ({projection_text(rhs)})",
    )
    residual = derivation.apply(
        "Multiply out (expand)", whole * stacked - rhs(w_e, w_q, e, q), sp.expand
    )
    return derivation.proof(
        "concatenate-then-project is add-after-separate-projections",
        r"\begin{pmatrix} W_e & W_q \end{pmatrix} \begin{pmatrix} e \\ q \end{pmatrix}"
        r" = W_e e + W_q q",
        residual,
    )
