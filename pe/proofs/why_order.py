r"""Self-attention without positions is permutation-equivariant: the exact proof, in SymPy.

For every ``n x n`` permutation matrix ``P``,
:math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)` with
:math:`\mathrm{Attn}(X) = \mathrm{softmax}(XW_q(XW_k)^{\mathsf T}/\sqrt d)\,XW_v`.
:func:`equivariance` proves it with independent symbols for every entry of ``X`` and the
weights, over all ``n!`` permutations, by multiplying out polynomials. The statement is a
value (:data:`pe.experiments.why_order.Sides`): the wrong candidates of
:mod:`pe.proofs.wrong` (section why-order) go through the same proof and fail.

Examples
--------
>>> equivariance(n=2, d_model=1).holds
True
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

from pe import _validate
from pe.experiments.why_order import Sides, equivariant
from pe.symbolic import Derivation, Proof

__all__ = ["equivariance"]


def _symbolic_matrix(name: str, rows: int, cols: int) -> Any:
    return sp.Matrix(rows, cols, lambda r, c: sp.Symbol(f"{name}_{{{r + 1}{c + 1}}}", real=True))


def _symbolic_softmax(scores: Any, causal: bool) -> Any:
    n = scores.shape[0]
    exps = scores.applyfunc(sp.exp)

    def entry(r: int, c: int) -> Any:
        keys = range(r + 1) if causal else range(n)
        if c not in keys:
            return sp.Integer(0)
        return exps[r, c] / sp.Add(*(exps[r, j] for j in keys))

    return sp.Matrix(n, n, entry)


def _symbolic_attention(x: Any, w: tuple[Any, ...], causal: bool) -> Any:
    d = x.shape[1]
    scores = ((x * w[0]) * (x * w[1]).T / sp.sqrt(d)).applyfunc(_expand)
    return _symbolic_softmax(scores, causal) * (x * w[2])


def _permutations(n: int) -> list[Any]:
    matrices = []
    for order in itertools.permutations(range(n)):
        matrix = sp.zeros(n, n)
        for r, c in enumerate(order):
            matrix[r, c] = 1
        matrices.append(matrix)
    return matrices


def _nonzero(matrix: Any) -> int:
    return sum(1 for entry in matrix if entry != 0)


def _expand(expr: Any) -> Any:
    """Multiply out polynomials, leaving ``exp(a + b)`` whole (no ``exp(a) exp(b)``)."""
    return sp.expand(expr, power_exp=False)


def equivariance(sides: Sides = equivariant, n: int = 3, d_model: int = 2) -> Proof:
    r"""Prove :math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)` exactly for every ``P`` in :math:`S_n`.

    ``X`` (``n x d``), :math:`W_q, W_k, W_v` (``d x d``) have independent symbolic entries;
    the softmax is written with ``exp``. The proof runs over all ``n!`` permutation
    matrices and reduces three residuals to exactly zero by expanding polynomials
    (``expand``): the scores (:math:`S(PX) = P S(X) P^T`), the softmax
    (:math:`\mathrm{softmax}(PSP^T) = P\,\mathrm{softmax}(S)P^T`, a row's denominator is a
    sum whose terms are only reordered, with the causal mask where the statement uses it)
    and the output (using :math:`P^T P = I`).

    Parameters
    ----------
    sides
        The statement, ``(attend, X, P, E) -> (left, right)``: the true
        :func:`~pe.experiments.why_order.equivariant`, or a wrong candidate (comparing with
        the unpermuted output, a causal mask, symbolic position vectors ``E`` added to the
        rows) whose residual does not vanish.
    n, d_model
        Sequence length (``2 <= n <= 4``) and width (``1 <= d_model <= 3``).

    Examples
    --------
    >>> proof = equivariance(n=3, d_model=1)
    >>> proof.holds, len(proof.residual)
    (True, 18)
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.positive_int("d_model", d_model)
    if length > 4 or width > 3:
        raise ValueError("the exact proof takes n <= 4 and d_model <= 3")
    x = _symbolic_matrix("x", length, width)
    w = tuple(_symbolic_matrix(f"w^{name}", width, width) for name in "qkv")
    extra = _symbolic_matrix("e", length, width)
    perms = _permutations(length)
    masks: set[bool] = set()

    def attend(rows: Any, causal: bool) -> Any:
        masks.add(causal)
        return _symbolic_attention(rows, w, causal)

    residual = sp.Matrix.vstack(
        *(sp.Matrix(left - right) for left, right in (sides(attend, x, p, extra) for p in perms))
    ).applyfunc(_expand)
    causal = True in masks
    uses_positions = bool(residual.free_symbols & extra.free_symbols)

    derivation = Derivation()
    derivation.note(
        f"Symbols: X is {length}×{width}, W_q, W_k, W_v are {width}×{width}; "
        f"all {len(perms)} permutation matrices P of S_{length} are tried",
        rf"X = {sp.latex(x)}",
    )
    if uses_positions:
        derivation.note("Wrong candidate: position vectors E added, X → X + E", sp.latex(extra))
    scores = ((x * w[0]) * (x * w[1]).T).applyfunc(_expand)
    score_residual = sp.Matrix.vstack(
        *(((p * x * w[0]) * (p * x * w[1]).T - p * scores * p.T).applyfunc(_expand) for p in perms)
    )
    derivation.note(
        "Scores: (PX W_q)(PX W_k)ᵀ − P (X W_q)(X W_k)ᵀ Pᵀ, multiplied out (expand): "
        f"{_nonzero(score_residual)} of {len(score_residual)} entries non-zero",
        r"S(PX) = P\,S(X)\,P^{\mathsf T}",
    )
    soft = _symbolic_softmax(scores, causal)
    soft_residual = sp.Matrix.vstack(
        *(_symbolic_softmax(p * scores * p.T, causal) - p * soft * p.T for p in perms)
    ).applyfunc(_expand)
    derivation.note(
        "Softmax: each row's denominator is a sum whose terms P only reorders (expand): "
        f"{_nonzero(soft_residual)} of {len(soft_residual)} entries non-zero",
        r"\operatorname{softmax}(P S P^{\mathsf T}) = P \operatorname{softmax}(S) P^{\mathsf T}",
    )
    derivation.note(
        "Output: Attn(PX) − P Attn(X) for every P, with PᵀP = I, multiplied out (expand): "
        f"{_nonzero(residual)} of {len(residual)} entries non-zero",
        r"\operatorname{Attn}(PX) - P\,\operatorname{Attn}(X) = "
        + (r"0" if _nonzero(residual) == 0 else r"\text{non-zero}"),
    )
    statement = (
        r"\begin{gathered} \operatorname{Attn}(PX) = P\,\operatorname{Attn}(X)\ \text{for every }"
        rf" P \in S_{length} \\ \operatorname{{Attn}}(X) = \operatorname{{softmax}}\!\Bigl("
        r"\tfrac{XW_q(XW_k)^{\mathsf T}}{\sqrt{d}}\Bigr) XW_v \end{gathered}"
    )
    return derivation.proof(
        f"permutation equivariance, n = {length}, d = {width}", statement, residual
    )
