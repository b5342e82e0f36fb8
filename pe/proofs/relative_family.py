r"""Exact proofs about the relative-position family, in SymPy.

- :func:`absolute_score_four_terms`: the additive score splits into the four terms that
  Transformer-XL (Dai et al. 2019) re-parametrises;
- :func:`causal_mean_counts_position`: with a causal mask and equal scores (NoPE), the output
  at position ``i`` is :math:`(v_0 + i\,v)/(i+1)`, which changes with ``i`` whenever the first
  value differs;
- :func:`ntk_frequencies`: NTK-aware base scaling keeps the highest frequency and divides the
  lowest by the scale factor.

Every proof reduces its residual to exactly zero with named rewrites (expand, cancel,
power rules); a wrong candidate leaves a non-zero residual.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from pe.symbolic import Derivation, Proof

__all__ = [
    "CAUSAL",
    "FOUR_TERMS",
    "Mask",
    "absolute_score_four_terms",
    "causal_mean_counts_position",
    "ntk_frequencies",
    "ntk_scaled_base",
]

#: The four terms (a), (b), (c), (d) of the additive score.
FOUR_TERMS = ("a", "b", "c", "d")


@dataclass(frozen=True)
class Mask:
    """Which keys a query sees when every score is equal: ``visible(i, L)`` of ``L`` keys.

    Examples
    --------
    >>> CAUSAL.visible(4, 10)
    5
    """

    description: str
    visible: Callable[[Any, Any], Any]


#: The causal mask: the query at ``i`` sees the keys ``0 .. i``.
CAUSAL = Mask("causal mask: mean of the first i + 1 values", lambda i, _length: i + 1)


def ntk_scaled_base(b: Any, s: Any, d: Any) -> Any:
    r"""NTK-aware scaling of the base, :math:`b' = b\,s^{d/(d-2)}` (symbolic or numeric).

    Examples
    --------
    >>> import sympy as sp
    >>> b, s, d = sp.symbols("b s d", positive=True)
    >>> ntk_scaled_base(b, s, d)
    b*s**(d/(d - 2))
    """
    return b * s ** (d / (d - 2))


def _vector(name: str, size: int) -> Any:
    return sp.Matrix(sp.symbols(f"{name}_0:{size}", real=True))


def absolute_score_four_terms(candidate: Sequence[str] = FOUR_TERMS) -> Proof:
    r"""Prove :math:`(W_q(E_i + U_i))^{\mathsf T} W_k(E_j + U_j) = (a) + (b) + (c) + (d)`.

    With every entry symbolic (``d = 2``):
    (a) :math:`E_i^{\mathsf T} W_q^{\mathsf T} W_k E_j`, (b) :math:`E_i^{\mathsf T} W_q^{\mathsf T} W_k U_j`,
    (c) :math:`U_i^{\mathsf T} W_q^{\mathsf T} W_k E_j`, (d) :math:`U_i^{\mathsf T} W_q^{\mathsf T} W_k U_j`.
    Transformer-XL replaces :math:`U_j` by a sinusoid :math:`R_{i-j}` (with its own
    :math:`W_{k,R}`) and the query-side :math:`U_i^{\mathsf T} W_q^{\mathsf T}` by learned ``u``, ``v``.
    ``candidate`` names the terms summed on the right (:data:`FOUR_TERMS`; a wrong candidate
    leaves one out).
    """
    wq = sp.Matrix(2, 2, sp.symbols("a_0:4", real=True))
    wk = sp.Matrix(2, 2, sp.symbols("b_0:4", real=True))
    e_i, e_j, u_i, u_j = (_vector(name, 2) for name in ("E_i", "E_j", "U_i", "U_j"))
    terms = {
        "a": e_i.T * wq.T * wk * e_j,
        "b": e_i.T * wq.T * wk * u_j,
        "c": u_i.T * wq.T * wk * e_j,
        "d": u_i.T * wq.T * wk * u_j,
    }
    if not set(candidate) <= set(terms):
        raise ValueError(f"terms must be among a, b, c, d, got {candidate!r:.20}")
    kept = [terms[name] for name in candidate]
    total = kept[0]
    for term in kept[1:]:
        total = total + term
    left = (wq * (e_i + u_i)).T * (wk * (e_j + u_j))
    derivation = Derivation()
    derivation.note(
        "Residual: the score minus the sum of the terms " + ", ".join(f"({n})" for n in candidate),
        r"(W_q(E_i + U_i))^{\mathsf T} W_k (E_j + U_j) - \sum \text{terms}",
    )
    residual = derivation.apply("Multiply out (expand)", left - total, sp.expand)
    statement = (
        r"\begin{gathered}(W_q(E_i + U_i))^{\mathsf T} W_k(E_j + U_j) = \\"
        r"\underbrace{E_i^{\mathsf T} W_q^{\mathsf T} W_k E_j}_{(a)}"
        r" + \underbrace{E_i^{\mathsf T} W_q^{\mathsf T} W_k U_j}_{(b)}"
        r" + \underbrace{U_i^{\mathsf T} W_q^{\mathsf T} W_k E_j}_{(c)}"
        r" + \underbrace{U_i^{\mathsf T} W_q^{\mathsf T} W_k U_j}_{(d)}\end{gathered}"
    )
    return derivation.proof("the additive score has four terms", statement, residual)


def causal_mean_counts_position(candidate: Mask = CAUSAL) -> Proof:
    r"""Prove that equal-score causal attention tells position ``i`` from ``i + 1``.

    A first token with value :math:`v_0` followed by copies of ``v``: with a causal mask the
    output at ``i`` is :math:`o_i = (v_0 + i v)/(i + 1)` and

    .. math::

        o_i - o_{i+1} = \frac{v_0 - v}{(i + 1)(i + 2)} \ne 0 \quad (v_0 \ne v).

    ``candidate`` says how many of the ``L`` keys position ``i`` sees (:data:`CAUSAL`).
    Without the mask (the wrong candidate) every output is the mean of the whole sequence
    and the same difference is 0, not the formula.
    """
    i = sp.Symbol("i", integer=True, nonnegative=True)
    length = sp.Symbol("L", integer=True, positive=True)
    v0, v = sp.symbols("v_0 v", real=True)

    def output(position: Any) -> Any:
        seen = candidate.visible(position, length)
        return (v0 + (seen - 1) * v) / seen

    claimed = (v0 - v) / ((i + 1) * (i + 2))
    derivation = Derivation()
    derivation.note(
        f"Outputs at i and i + 1 ({candidate.description})",
        rf"o_i = {sp.latex(output(i))},\quad o_{{i+1}} = {sp.latex(output(i + 1))}",
    )
    residual = sp.Matrix([output(i) - output(i + 1) - claimed])
    derivation.note("Residual o_i − o_(i+1) − (v_0 − v)/((i+1)(i+2))", sp.latex(residual[0]))
    residual = derivation.apply("Put over one denominator and cancel (cancel)", residual, sp.cancel)
    statement = r"o_i - o_{i+1} = \frac{v_0 - v}{(i+1)(i+2)},\quad o_i = \frac{v_0 + i\,v}{i+1}"
    return derivation.proof("causal attention counts positions", statement, residual)


def ntk_frequencies(candidate: Callable[[Any, Any, Any], Any] = ntk_scaled_base) -> Proof:
    r"""Prove that :math:`b' = b\,s^{d/(d-2)}` divides :math:`\omega_i` by :math:`s^{2i/(d-2)}`, every ``i``.

    :math:`\omega'_i = b'^{-2i/d}`; the residual stacks :math:`\omega'_i - \omega_i
    s^{-2i/(d-2)}` for a symbolic pair ``i``, and the two ends :math:`\omega'_0 - 1` and
    :math:`\omega'_{d/2-1} - \omega_{d/2-1}/s`, with ``b``, ``s``, ``d`` symbolic (positive).
    The factor :math:`s^{2i/(d-2)}` grows with ``i`` from 1 to ``s``: every pair in between is
    slowed by a factor in between. ``candidate(b, s, d)`` is the scaled base
    (:func:`ntk_scaled_base`; a wrong candidate: plain base scaling :math:`b' = b\,s`).
    """
    b, s = sp.symbols("b s", positive=True)
    d = sp.Symbol("d", positive=True)
    i = sp.Symbol("i", nonnegative=True)
    scaled = candidate(b, s, d)

    def omega(base: Any, index: Any) -> Any:
        return base ** (-2 * index / d)

    last = (d - 2) / 2
    derivation = Derivation()
    derivation.note(
        "Scaled base; every frequency and the two ends",
        rf"b' = {sp.latex(scaled)},\quad \omega'_i = b'^{{-2i/d}},\quad \omega'_0 = b'^{{0}},"
        rf"\quad \omega'_{{d/2-1}} = b'^{{-(d-2)/d}}",
    )
    residual = sp.Matrix(
        [
            omega(scaled, i) - omega(b, i) * s ** (-2 * i / (d - 2)),
            omega(scaled, 0) - 1,
            omega(scaled, last) - omega(b, last) / s,
        ]
    )
    residual = derivation.apply(
        "Split the power of a product and multiply exponents (expand_power_base, powdenest)",
        residual,
        lambda e: sp.powdenest(sp.expand_power_base(e, force=True), force=True),
    )
    residual = derivation.apply(
        "Combine powers of one base (powsimp) and cancel their exponents (cancel)",
        residual,
        lambda e: sp.powsimp(e).replace(
            lambda x: x.is_Pow, lambda x: sp.Pow(x.base, sp.cancel(x.exp))
        ),
    )
    residual = derivation.apply("Collect terms (expand)", residual, sp.expand)
    statement = (
        r"b' = b\,s^{d/(d-2)} \implies \omega'_i = \omega_i\,s^{-2i/(d-2)} \text{ for every pair } i:"
        r"\quad \omega'_0 = \omega_0,\quad \omega'_{d/2-1} = \omega_{d/2-1} / s"
    )
    return derivation.proof("NTK-aware base scaling", statement, residual)
