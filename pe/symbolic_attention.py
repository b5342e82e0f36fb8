r"""Attention and an Elman cell written with symbolic entries: their exact forms, costs and paths.

The NumPy forms are in :mod:`pe.attention`; here every entry of the tokens
:math:`X \in \mathbb{R}^{n \times d}` and of the weights is an independent SymPy symbol, so
that a statement about the layers can be checked on the expressions themselves:

.. math::

    \mathrm{Attn}(X) = \mathrm{softmax}\!\left(\frac{X W_q (X W_k)^{\mathsf T}}{\sqrt{d}}\right)
    X W_v, \qquad h_t = \tanh(W_x x_t + W_h h_{t-1} + b),\ h_0 = 0,

the softmax written with ``exp`` (:func:`symbolic_attention`, :func:`symbolic_elman_layer`).
Two facts of Vaswani et al.'s Table 1 are counted on these expressions, exactly:

- the **cost**: the multiplications of attention's two products :math:`QK^{\mathsf T}` and
  :math:`AV` (:func:`attention_multiplications`, ``2 n^2 d`` by :func:`attention_cost_law`)
  against those of ``n`` Elman steps (:func:`elman_multiplications`, ``2 n d^2`` by
  :func:`rnn_cost_law`);
- the **path length**: the nonlinear steps (``exp`` or ``tanh``) nested between a symbol of
  input token ``j`` and output ``i`` (:func:`step_counts`): one for attention
  (:func:`one_step`), ``i - j + 1`` for an Elman network (:func:`recurrent_steps`).

Nothing here is rounded: the counts are integers read off SymPy's expression trees.

Examples
--------
>>> x = symbolic_matrix("x", 2, 1)
>>> step_counts(symbolic_attention_layer(x), x) == sp.ones(2, 2)
True
>>> attention_multiplications(3, 2) == attention_cost_law(3, 2)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

__all__ = [
    "CostLaw",
    "StepLaw",
    "SymbolicLayer",
    "attention_cost_law",
    "attention_multiplications",
    "causal_attention_layer",
    "elman_multiplications",
    "expand_products",
    "multiplications",
    "nonlinear_depth",
    "one_step",
    "recurrent_steps",
    "rnn_cost_law",
    "step_counts",
    "symbolic_attention",
    "symbolic_attention_layer",
    "symbolic_elman_layer",
    "symbolic_matrix",
    "symbolic_softmax",
]

#: A sequence layer on symbolic tokens: ``X`` (``n x d``) to its outputs (``n x d``).
SymbolicLayer = Callable[[Any], Any]

#: A cost law ``(n, d) -> number of multiplications`` for ``n`` tokens of width ``d``.
CostLaw = Callable[[int, int], int]

#: The steps expected from token ``j`` to output ``i`` (``sympy.oo``: no path).
StepLaw = Callable[[int, int], Any]


def symbolic_matrix(name: str, rows: int, cols: int) -> Any:
    """A ``rows x cols`` matrix of independent real symbols ``name_{rc}`` (1-based).

    Examples
    --------
    >>> symbolic_matrix("x", 1, 2)
    Matrix([[x_{11}, x_{12}]])
    """
    return sp.Matrix(rows, cols, lambda r, c: sp.Symbol(f"{name}_{{{r + 1}{c + 1}}}", real=True))


def expand_products(expr: Any) -> Any:
    """Multiply out polynomials, leaving ``exp(a + b)`` whole (no ``exp(a) exp(b)``).

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> expand_products((a + b) * sp.exp(a + b))
    a*exp(a + b) + b*exp(a + b)
    """
    return sp.expand(expr, power_exp=False)


def symbolic_softmax(scores: Any, causal: bool) -> Any:
    r"""The softmax of each row of a square matrix, :math:`e^{s_{rc}} / \sum_j e^{s_{rj}}`.

    With ``causal``, row ``r`` runs over the keys ``j <= r`` only and is 0 beyond them.

    Examples
    --------
    >>> s = symbolic_matrix("s", 2, 2)
    >>> symbolic_softmax(s, True)[0, :]
    Matrix([[1, 0]])
    """
    n = scores.shape[0]
    exps = scores.applyfunc(sp.exp)

    def entry(r: int, c: int) -> Any:
        keys = range(r + 1) if causal else range(n)
        if c not in keys:
            return sp.Integer(0)
        return exps[r, c] / sp.Add(*(exps[r, j] for j in keys))

    return sp.Matrix(n, n, entry)


def symbolic_attention(x: Any, weights: tuple[Any, ...], causal: bool) -> Any:
    r"""Self-attention of the rows of ``x`` with the projections ``weights = (W_q, W_k, W_v)``.

    The scores :math:`XW_q(XW_k)^{\mathsf T}/\sqrt d` are multiplied out
    (:func:`expand_products`) before the softmax.

    Examples
    --------
    >>> x = symbolic_matrix("x", 2, 1)
    >>> symbolic_attention(x, (sp.eye(1),) * 3, False).shape
    (2, 1)
    """
    d = x.shape[1]
    scores = ((x * weights[0]) * (x * weights[1]).T / sp.sqrt(d)).applyfunc(expand_products)
    return symbolic_softmax(scores, causal) * (x * weights[2])


def _attention_weights(d: int) -> tuple[Any, ...]:
    return tuple(symbolic_matrix(f"w^{name}", d, d) for name in "qkv")


def symbolic_attention_layer(x: Any) -> Any:
    """One attention head, no mask, symbolic weights, on symbolic tokens."""
    return symbolic_attention(x, _attention_weights(x.shape[1]), False)


def causal_attention_layer(x: Any) -> Any:
    """One attention head with a causal mask (token ``i`` sees tokens ``j <= i``)."""
    return symbolic_attention(x, _attention_weights(x.shape[1]), True)


def symbolic_elman_layer(x: Any) -> Any:
    r"""The states of an Elman network, :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`, as rows.

    Examples
    --------
    >>> symbolic_elman_layer(symbolic_matrix("x", 3, 1)).shape
    (3, 1)
    """
    d = x.shape[1]
    w_x, w_h = symbolic_matrix("w^x", d, d), symbolic_matrix("w^h", d, d)
    b = symbolic_matrix("b", d, 1)
    states, h = [], sp.zeros(d, 1)
    for t in range(x.shape[0]):
        h = (w_x * x[t, :].T + w_h * h + b).applyfunc(sp.tanh)
        states.append(h.T)
    return sp.Matrix.vstack(*states)


def attention_cost_law(n: int, d: int) -> int:
    """``2 n^2 d``: the scores :math:`QK^T` (``n^2 d``) and the weighted sum :math:`AV`."""
    return 2 * n * n * d


def rnn_cost_law(n: int, d: int) -> int:
    """``2 n d^2``: at each of ``n`` steps, :math:`W_x x_t` and :math:`W_h h_{t-1}`."""
    return 2 * n * d * d


def multiplications(matrix: Any) -> int:
    """The multiplications SymPy's ``count_ops`` finds in the entries of ``matrix``.

    Examples
    --------
    >>> multiplications(symbolic_matrix("a", 1, 2) * symbolic_matrix("b", 2, 1))
    2
    """
    mul = sp.Symbol("MUL")
    return sum(int(sp.count_ops(entry, visual=True).coeff(mul)) for entry in matrix)


def attention_multiplications(n: int, d: int) -> int:
    r"""Multiplications in :math:`QK^{\mathsf T}` and :math:`AV` for symbolic ``n x d`` inputs.

    ``A`` is an ``n x n`` matrix of symbolic weights: the softmax (``n^2`` exponentials)
    and the projections (``3 n d^2``) are not counted.

    Examples
    --------
    >>> attention_multiplications(4, 3)
    96
    """
    q, k, v = (symbolic_matrix(name, n, d) for name in "qkv")
    weights = symbolic_matrix("a", n, n)
    return multiplications(q * k.T) + multiplications(weights * v)


def elman_multiplications(n: int, d: int) -> int:
    """Multiplications of ``n`` Elman steps, a fresh symbolic state at each step.

    The fresh state keeps anything from being multiplied out across steps; the ``tanh``
    and the bias are not counted.

    Examples
    --------
    >>> elman_multiplications(4, 3) == rnn_cost_law(4, 3)
    True
    """
    w_x, w_h = symbolic_matrix("w^x", d, d), symbolic_matrix("w^h", d, d)
    x, h = symbolic_matrix("x", n, d), symbolic_matrix("h", n, d)
    return sum(
        multiplications(w_x * x[t, :].T) + multiplications(w_h * h[t, :].T) for t in range(n)
    )


def nonlinear_depth(expr: Any, token: frozenset[Any]) -> int | None:
    """Nested ``exp``/``tanh`` between a symbol of ``token`` and the top of ``expr``.

    None if ``expr`` holds no symbol of ``token``; the deepest path where several do.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> nonlinear_depth(sp.tanh(sp.exp(a) + b), frozenset({a})), nonlinear_depth(b, frozenset({a}))
    (2, None)
    """
    if expr in token:
        return 0
    inner = [d for d in (nonlinear_depth(a, token) for a in expr.args) if d is not None]
    if not inner:
        return None
    return max(inner) + (1 if isinstance(expr, (sp.exp, sp.tanh)) else 0)


def step_counts(outputs: Any, x: Any) -> Any:
    r"""The nonlinear steps from input token ``j`` (row ``j`` of ``x``) to output ``i``.

    Entry ``(i, j)`` is the largest :func:`nonlinear_depth` of a symbol of token ``j`` in
    row ``i`` of ``outputs``, or :math:`\infty` where output ``i`` does not depend on it.

    Examples
    --------
    >>> x = symbolic_matrix("x", 2, 1)
    >>> step_counts(symbolic_elman_layer(x), x)
    Matrix([
    [1, oo],
    [2,  1]])
    """
    tokens = [frozenset(x[j, :]) for j in range(x.shape[0])]

    def counted(i: int, j: int) -> Any:
        found = [d for d in (nonlinear_depth(e, tokens[j]) for e in outputs[i, :]) if d is not None]
        return sp.Integer(max(found)) if found else sp.oo

    return sp.Matrix(outputs.shape[0], x.shape[0], counted)


def one_step(_i: int, _j: int) -> Any:
    """Attention's steps from any token to any output: one softmax."""
    return sp.Integer(1)


def recurrent_steps(i: int, j: int) -> Any:
    """An Elman network's steps: ``i - j + 1`` updates for ``j <= i``; none reach back.

    Examples
    --------
    >>> recurrent_steps(2, 0), recurrent_steps(0, 2)
    (3, oo)
    """
    return sp.Integer(i - j + 1) if j <= i else sp.oo
