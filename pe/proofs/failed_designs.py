r"""Why the raw and the normalised index fail, and what the sinusoidal pairs do: SymPy proofs.

* :func:`share_limit`: the raw index's share of the squared norm,
  :math:`p^2/(p^2 + c)`, tends to 1;
* :func:`neighbour_gap`: under the normalised index :math:`p/n` neighbours are
  :math:`1/n` apart (0.25 for 4 tokens, 0.025 for 40);
* :func:`pair_bounded`: every sine/cosine pair lies on the unit circle;
* :func:`offset_distance`: the distance between a pair at ``p + k`` and at ``p`` is
  :math:`2 - 2\cos\omega k`, free of ``p``.

Each takes the thing it is about as its first argument (a share, a gap law, a pair); the
wrong candidates of :mod:`pe.proofs.wrong` (section failed-designs) go through the same
proof and leave a non-zero residual.

Examples
--------
>>> pair_bounded().holds, neighbour_gap().holds
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from pe.experiments.failed_designs import one_over_n
from pe.symbolic import Derivation, Proof, pair

__all__ = ["neighbour_gap", "offset_distance", "pair_bounded", "raw_share", "share_limit"]

#: A pair of entries as a function of the position and the frequency, ``(p, w) -> 2-vector``.
Pair = Callable[[Any, Any], Any]


def raw_share(p: Any, c: Any) -> Any:
    r"""The raw index's share of the squared norm of :math:`[e; p]`, :math:`p^2/(p^2 + c)`."""
    return p**2 / (p**2 + c)


def share_limit(share: Callable[[Any, Any], Any] = raw_share) -> Proof:
    r"""Prove :math:`\lim_{p\to\infty} \mathrm{share}(p, c) = 1` for every ``c > 0``.

    ``share(p, c)`` is the position's share of the squared norm with :math:`c = \lVert e
    \rVert^2`. For the raw index it is :func:`raw_share`. A wrong candidate, the share of
    one sine/cosine pair :math:`(\sin^2 + \cos^2)/(\sin^2 + \cos^2 + c)`, reduces by
    Pythagoras to :math:`1/(1 + c)` at every ``p``: the residual against 1 is not zero.

    Examples
    --------
    >>> share_limit().summary()
    "the position's share tends to 1: 3 steps, residual is exactly 0"
    """
    p = sp.Symbol("p", positive=True)
    c = sp.Symbol("c", positive=True)
    derivation = Derivation()
    expr = share(p, c)
    derivation.note("Share of the squared norm held by the position", sp.latex(expr))
    flat = sp.expand(sp.together(expr.subs(sp.sin(p) ** 2, 1 - sp.cos(p) ** 2)))
    limit = sp.limit(flat, p, sp.oo)
    derivation.note(
        "Substitute sin²p = 1 − cos²p (Pythagoras), then the limit as p → ∞ (sympy.limit)",
        sp.latex(limit),
    )
    residual = sp.Matrix([sp.together(limit - 1)])
    derivation.note("Residual: the limit minus 1", sp.latex(residual[0]))
    return derivation.proof(
        "the position's share tends to 1",
        r"\lim_{p \to \infty} \frac{p^2}{p^2 + \lVert e \rVert^2} = 1",
        residual,
    )


def neighbour_gap(
    gap: Callable[[Any], Any] = one_over_n, lengths: tuple[int, ...] = (4, 40)
) -> Proof:
    r"""Prove that neighbours differ by :math:`g(n) = 1/n` under the normalised index.

    The residual stacks :math:`(p+1)/n - p/n - g(n)` for a symbolic ``n`` and, for each
    length in ``lengths``, its value with that ``n`` substituted. ``gap`` is the law
    :math:`n \mapsto g(n)`; a wrong one (the same gap for every ``n``) fails.

    Examples
    --------
    >>> neighbour_gap(lengths=(4,)).holds
    True
    """
    p = sp.Symbol("p", integer=True, nonnegative=True)
    n = sp.Symbol("n", integer=True, positive=True)
    candidate = gap(n)
    derivation = Derivation()
    difference = (p + 1) / n - p / n
    derivation.note("Neighbour gap under the normalised index", r"\frac{p+1}{n} - \frac{p}{n}")
    residual = sp.Matrix([difference - candidate])
    residual = derivation.apply(
        "Residual against the gap, multiplied out (expand)", residual, sp.expand
    )
    values = [sp.expand(difference.subs(n, m)) for m in lengths]
    derivation.note(
        "The gap in sentences of " + " and ".join(str(m) for m in lengths) + " tokens",
        r",\ ".join(rf"n = {m}:\ {sp.latex(v)}" for m, v in zip(lengths, values, strict=True)),
    )
    residual = sp.Matrix(
        [residual[0], *(sp.expand((difference - candidate).subs(n, m)) for m in lengths)]
    )
    return derivation.proof(
        "neighbour gap of the normalised index",
        r"\frac{p+1}{n} - \frac{p}{n} = \frac{1}{n}",
        residual,
    )


def offset_distance(vector: Pair = pair) -> Proof:
    r"""Prove :math:`\lVert v(p+k) - v(p)\rVert^2 = 2 - 2\cos\omega k` for one pair, free of ``p``.

    ``vector`` is the pair :math:`v(p) = (\sin\omega p, \cos\omega p)`
    (:func:`pe.symbolic.pair`); a wrong candidate whose cosine turns at another frequency
    keeps ``p`` in the residual.

    Examples
    --------
    >>> offset_distance().holds
    True
    """
    p, k = sp.Symbol("p", real=True), sp.Symbol("k", real=True)
    w = sp.Symbol("omega", positive=True)
    diff = sp.Matrix(vector(p + k, w) - vector(p, w))
    derivation = Derivation()
    derivation.note(
        "Residual: squared distance between the pair at p + k and at p, minus 2 − 2 cos ωk",
        rf"\lVert {sp.latex(diff)} \rVert^2 - (2 - 2\cos \omega k)",
    )
    residual = sp.Matrix([(diff.T * diff)[0] - (2 - 2 * sp.cos(w * k))])
    residual = derivation.apply(
        "Multiply out and expand the arguments (expand)", residual, sp.expand
    )
    residual = derivation.apply("Angle-addition formulas (expand_trig)", residual, sp.expand_trig)
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "the same offset looks the same at every position",
        r"\lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i} \bigl(2 - 2\cos \omega_i k\bigr)",
        residual,
    )


def pair_bounded(vector: Pair = pair) -> Proof:
    r"""Prove :math:`\sin^2 \omega p + \cos^2 \omega p = 1`: every pair lies on the unit circle.

    So every entry is in ``[-1, 1]`` and :math:`\lVert PE(p) \rVert^2 = d/2`. ``vector`` is
    the pair (:func:`pe.symbolic.pair`); a wrong candidate (the raw index ``p`` in place of
    the cosine) is not bounded.

    Examples
    --------
    >>> pair_bounded().summary()
    'each pair lies on the unit circle: 4 steps, residual is exactly 0'
    """
    p = sp.Symbol("p", real=True)
    w = sp.Symbol("omega", positive=True)
    v = sp.Matrix(vector(p, w))
    derivation = Derivation()
    residual = sp.Matrix([(v.T * v)[0] - 1])
    derivation.note("Residual: squared norm of the pair minus 1", sp.latex(residual[0]))
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "each pair lies on the unit circle",
        r"\sin^2 \omega_i p + \cos^2 \omega_i p = 1 \implies |PE(p, j)| \le 1",
        residual,
    )
