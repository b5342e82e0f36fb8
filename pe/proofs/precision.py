r"""Exact proofs of the page "Precision and speed", in SymPy.

The rotation algorithm of :func:`pe.numeric.sinusoidal` stores each (sine, cosine) pair
as one complex number, :math:`z(p) = \sin \omega p + \mathrm{i}\cos \omega p` (sine
real, cosine imaginary), and moves it by ``q`` positions with one multiplication:

.. math::

    z(p + q) = z(p)\,(\cos \omega q - \mathrm{i}\sin \omega q).

:func:`complex_shift` proves it for a candidate factor (:func:`shift_factor` is the true
one; the wrong ones are in :mod:`pe.proofs.wrong`). The residual is reduced with the
angle-addition strategy of :class:`pe.symbolic.Derivation` (expand, expand_trig, expand;
:math:`\mathrm{i}^2 = -1` is applied by ``expand``).

Examples
--------
>>> complex_shift(shift_factor).holds
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from pe.symbolic import Derivation, Proof

__all__ = ["Factor", "complex_shift", "shift_factor"]

#: A candidate shift factor ``(q, w) -> expression``.
Factor = Callable[[Any, Any], Any]


def shift_factor(q: Any, w: Any) -> Any:
    r"""The true factor :math:`\cos \omega q - \mathrm{i}\sin \omega q` of a shift by ``q``.

    Examples
    --------
    >>> q, w = sp.symbols("q w")
    >>> shift_factor(q, w)
    -I*sin(q*w) + cos(q*w)
    """
    return sp.cos(w * q) - sp.I * sp.sin(w * q)


def complex_shift(factor: Factor) -> Proof:
    r"""Proof that multiplying by ``factor(q, w)`` shifts a complex pair by ``q`` positions.

    Parameters
    ----------
    factor
        The candidate ``(q, w) -> expression``; :func:`shift_factor` holds, a wrong
        factor leaves a non-zero residual.

    Returns
    -------
    pe.symbolic.Proof
        Statement :math:`z(p + q) = z(p)\,\mathrm{factor}(q, \omega)` with :math:`z` written
        out, and the steps that reduce left minus right.

    Examples
    --------
    >>> complex_shift(lambda q, w: sp.cos(w * q) + sp.I * sp.sin(w * q)).holds
    False
    """
    p, q = sp.symbols("p q", integer=True, nonnegative=True)
    w = sp.Symbol("omega_i", positive=True)

    def z(x: Any) -> Any:
        return sp.sin(w * x) + sp.I * sp.cos(w * x)

    shift = factor(q, w)
    left, right = z(p + q), z(p) * shift
    statement = (
        f"{sp.latex(left)} = \\left({sp.latex(z(p))}\\right) \\left({sp.latex(shift)}\\right)"
    )
    derivation = Derivation()
    residual = sp.Matrix([left - right])
    derivation.note("Residual: left side minus right side", sp.latex(residual[0]), residual)
    residual = derivation.angle_addition(residual)
    return derivation.proof("one complex multiplication shifts a pair by q", statement, residual)
