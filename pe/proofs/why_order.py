r"""Self-attention without positions is permutation-equivariant: the exact proof, in SymPy.

For every ``n x n`` permutation matrix ``P``,
:math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)` with
:math:`\mathrm{Attn}(X) = \mathrm{softmax}(XW_q(XW_k)^{\mathsf T}/\sqrt d)\,XW_v`.
:func:`equivariance` proves it with independent symbols for every entry of ``X`` and the
weights, over all ``n!`` permutations, by multiplying out polynomials. The statement is a
value (:data:`pe.experiments.why_order.Sides`): the wrong candidates of
:mod:`pe.proofs.wrong` (section why-order) go through the same proof and fail.

The chapter also counts what attention costs and how far apart it puts two tokens, exactly,
on the symbolic expressions: :func:`attention_cost` counts the multiplications of its two
matrix products (``2 n^2 d``, against ``2 n d^2`` for a recurrent layer, :func:`rnn_cost`),
and :func:`path_lengths` counts the nonlinear steps between each input token and each output.

Examples
--------
>>> equivariance(n=2, d_model=1).holds
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import sympy as sp

from pe import _validate
from pe.experiments.why_order import Sides, equivariant
from pe.symbolic import Derivation, Proof

__all__ = [
    "COST_SIZES",
    "CostLaw",
    "StepLaw",
    "SymbolicLayer",
    "attention_cost",
    "attention_cost_law",
    "attention_layer",
    "causal_attention_layer",
    "elman_layer",
    "equivariance",
    "one_step",
    "path_lengths",
    "recurrent_steps",
    "rnn_cost",
    "rnn_cost_law",
]


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


#: A cost law ``(n, d) -> number of multiplications`` for ``n`` tokens of width ``d``.
CostLaw = Callable[[int, int], int]

#: The sizes ``(n, d)`` at which :func:`attention_cost` and :func:`rnn_cost` count.
COST_SIZES: tuple[tuple[int, int], ...] = ((2, 1), (3, 2), (4, 3), (6, 2), (2, 5))


def attention_cost_law(n: int, d: int) -> int:
    """``2 n^2 d``: the scores :math:`QK^T` (``n^2 d``) and the weighted sum :math:`AV`."""
    return 2 * n * n * d


def rnn_cost_law(n: int, d: int) -> int:
    """``2 n d^2``: at each of ``n`` steps, :math:`W_x x_t` and :math:`W_h h_{t-1}`."""
    return 2 * n * d * d


def _multiplications(matrix: Any) -> int:
    mul = sp.Symbol("MUL")
    return sum(int(sp.count_ops(entry, visual=True).coeff(mul)) for entry in matrix)


def _attention_count(n: int, d: int) -> int:
    r"""Multiplications in :math:`QK^{\mathsf T}` and :math:`AV` for symbolic ``n x d`` inputs."""
    q, k, v = (_symbolic_matrix(name, n, d) for name in "qkv")
    weights = _symbolic_matrix("a", n, n)
    return _multiplications(q * k.T) + _multiplications(weights * v)


def _rnn_count(n: int, d: int) -> int:
    """Multiplications of ``n`` Elman steps, a fresh symbolic state at each step."""
    w_x, w_h = _symbolic_matrix("w^x", d, d), _symbolic_matrix("w^h", d, d)
    x, h = _symbolic_matrix("x", n, d), _symbolic_matrix("h", n, d)
    return sum(
        _multiplications(w_x * x[t, :].T) + _multiplications(w_h * h[t, :].T) for t in range(n)
    )


def _cost_proof(title: str, count: CostLaw, law: CostLaw, what: str) -> Proof:
    """``count(n, d)`` at each size of :data:`COST_SIZES` against ``law(n, d)``."""
    counted = {(n, d): count(n, d) for n, d in COST_SIZES}
    derivation = Derivation()
    derivation.note(
        f"Count the multiplications in {what}, as SymPy writes the products out, at "
        + ", ".join(f"(n, d) = ({n}, {d}): {c}" for (n, d), c in counted.items()),
        r"\text{counted} - \text{law}(n, d)",
    )
    residual = sp.Matrix([c - law(n, d) for (n, d), c in counted.items()])
    formula = sp.latex(law(sp.Symbol("n"), sp.Symbol("d")))
    return derivation.proof(title, rf"\text{{multiplications}} = {formula}", residual)


def attention_cost(law: CostLaw = attention_cost_law) -> Proof:
    r"""Count the multiplications of one attention head's two products against ``law``.

    For ``n`` tokens of width ``d`` with independent symbolic entries, the scores
    :math:`QK^{\mathsf T}` are ``n^2`` sums of ``d`` products and the weighted sum
    :math:`AV` (``A`` the ``n x n`` softmax weights) is ``n d`` sums of ``n`` products:
    ``2 n^2 d`` in all, quadratic in the length. The count is exact (SymPy's
    ``count_ops`` on the written-out products) at each size of :data:`COST_SIZES`; the
    residual is the count minus ``law(n, d)``. The softmax itself (``n^2`` exponentials)
    and the projections (``3 n d^2``) are not counted.

    Examples
    --------
    >>> attention_cost().holds, attention_cost(rnn_cost_law).holds
    (True, False)
    """
    return _cost_proof("attention's multiplications", _attention_count, law, "QKᵀ and AV")


def rnn_cost(law: CostLaw = rnn_cost_law) -> Proof:
    r"""Count the multiplications of an Elman layer's ``n`` steps against ``law``.

    Each step forms :math:`W_x x_t + W_h h_{t-1}` with ``d x d`` matrices: ``2 d^2``
    multiplications, ``2 n d^2`` for ``n`` steps, linear in the length (the ``tanh`` and
    the bias are not counted). Counted exactly as in :func:`attention_cost`, with a fresh
    symbolic state at every step so that nothing is multiplied out across steps.

    Examples
    --------
    >>> rnn_cost().holds, rnn_cost(attention_cost_law).holds
    (True, False)
    """
    return _cost_proof(
        "an Elman layer's multiplications", _rnn_count, law, "W_x x_t and W_h h_(t-1)"
    )


#: A sequence layer on symbolic tokens: ``X`` (``n x d``) to its outputs (``n x d``).
SymbolicLayer = Callable[[Any], Any]


def _weights(d: int) -> tuple[Any, ...]:
    return tuple(_symbolic_matrix(f"w^{name}", d, d) for name in "qkv")


def attention_layer(x: Any) -> Any:
    """One attention head, no mask, on symbolic tokens."""
    return _symbolic_attention(x, _weights(x.shape[1]), False)


def causal_attention_layer(x: Any) -> Any:
    """One attention head with a causal mask (token ``i`` sees tokens ``j <= i``)."""
    return _symbolic_attention(x, _weights(x.shape[1]), True)


def elman_layer(x: Any) -> Any:
    r"""The states of an Elman network, :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`."""
    d = x.shape[1]
    w_x, w_h = _symbolic_matrix("w^x", d, d), _symbolic_matrix("w^h", d, d)
    b = _symbolic_matrix("b", d, 1)
    states, h = [], sp.zeros(d, 1)
    for t in range(x.shape[0]):
        h = (w_x * x[t, :].T + w_h * h + b).applyfunc(sp.tanh)
        states.append(h.T)
    return sp.Matrix.vstack(*states)


def _depth(expr: Any, token: frozenset[Any]) -> int | None:
    """Nested ``exp``/``tanh`` between a symbol of ``token`` and the top of ``expr``."""
    if expr in token:
        return 0
    inner = [d for d in (_depth(a, token) for a in expr.args) if d is not None]
    if not inner:
        return None
    return max(inner) + (1 if isinstance(expr, (sp.exp, sp.tanh)) else 0)


def one_step(_i: int, _j: int) -> Any:
    """Attention's steps from any token to any output: one softmax."""
    return sp.Integer(1)


def recurrent_steps(i: int, j: int) -> Any:
    """An Elman network's steps: ``i - j + 1`` updates for ``j <= i``; none reach back."""
    return sp.Integer(i - j + 1) if j <= i else sp.oo


#: The steps expected from token ``j`` to output ``i`` (``sympy.oo``: no path).
StepLaw = Callable[[int, int], Any]


def path_lengths(
    layer: SymbolicLayer = attention_layer, steps: StepLaw = one_step, n: int = 4, d_model: int = 1
) -> Proof:
    r"""The nonlinear steps between input token ``j`` and output ``i``, against ``steps``.

    The layer runs on ``n`` symbolic tokens of width ``d_model``; entry ``(i, j)`` counts
    the ``exp`` (softmax) or ``tanh`` applications nested between a symbol of token ``j``
    and output ``i`` (:math:`\infty` where output ``i`` does not depend on token ``j``).
    The residual is zero where the count equals ``steps(i, j)``. For attention every
    output is one softmax from every token (:func:`one_step`), so the longest path has
    length 1; a causal mask leaves later tokens unreachable, and in an Elman network
    token ``j`` reaches state ``i`` through ``i - j + 1`` updates (:func:`recurrent_steps`).

    Examples
    --------
    >>> path_lengths().holds, path_lengths(elman_layer, n=3).holds
    (True, False)
    >>> path_lengths(elman_layer, recurrent_steps, n=3).holds
    True
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.positive_int("d_model", d_model)
    if length > 6 or width > 2:
        raise ValueError("path_lengths takes n <= 6 and d_model <= 2")
    x = _symbolic_matrix("x", length, width)
    out = layer(x)
    tokens = [frozenset(x[j, :]) for j in range(length)]

    def counted(i: int, j: int) -> Any:
        found = [d for d in (_depth(e, tokens[j]) for e in out[i, :]) if d is not None]
        return sp.Integer(max(found)) if found else sp.oo

    measured = sp.Matrix(length, length, counted)
    expected = sp.Matrix(length, length, steps)
    derivation = Derivation()
    derivation.note(
        f"Steps (exp or tanh) from token j (column) to output i (row), n = {length}",
        sp.latex(measured),
    )
    residual = sp.Matrix(
        length,
        length,
        lambda i, j: 0 if measured[i, j] == expected[i, j] else measured[i, j] - expected[i, j],
    )
    statement = rf"\text{{steps}}(x_j \to y_i) = {sp.latex(expected)}"
    return derivation.proof(f"path lengths, n = {length}", statement, residual)
