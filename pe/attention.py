r"""Single-head self-attention and an Elman recurrent cell, in NumPy, with attention's error bound.

Self-attention of a sequence :math:`X \in \mathbb{R}^{n \times d}` (one token per row) is

.. math::

    \mathrm{Attn}(X) = \mathrm{softmax}\!\left(\frac{X W_q (X W_k)^{\mathsf T}}{\sqrt{d}}\right)
    X W_v,

the softmax taken along each row (:func:`attention`; :func:`attention_row` computes one
output alone, which is why attention runs in parallel). An Elman cell reads the tokens one
by one, :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`, :math:`h_0 = 0` (:func:`rnn_states`).
The chapter "Why order must be injected" compares the two.

Error model of the numeric checks
---------------------------------
Two ways of computing the same attention outputs (:math:`\mathrm{Attn}(PX)` against
:math:`P\,\mathrm{Attn}(X)`, one row alone against all rows at once, the same word in two
sentences) perform the same operations up to the order of their sums, and the kernels that
NumPy and OpenBLAS pick on a given processor choose that order too. Each way is within the
forward error bound :math:`B` of :func:`attention_error_bound` of the exact outputs, so the
two differ by at most the sum of their bounds. :math:`B` follows every rounded operation,
first order in the unit roundoff :math:`u = \varepsilon/2` (Higham's :math:`\gamma_m =
mu/(1 - mu)` for a dot product of length :math:`m`):

.. math::

    B_Q = \gamma_d |X||W_q| \ (\text{and } B_K, B_V), \qquad
    B_S = \bigl(\gamma_d |Q||K|^{\mathsf T} + B_Q |K|^{\mathsf T} + |Q| B_K^{\mathsf T}\bigr)
          / \sqrt d + 2u|S|,

.. math::

    \frac{|\Delta A_{ij}|}{A_{ij}} \le r_{ij} + \max_l r_{il} + \gamma_{n-1} + u, \quad
    r_{ij} = (B_S)_{ij} + u\,|S_{ij} - \max_l S_{il}| + \varepsilon, \qquad
    B = \gamma_n A|V| + B_A |V| + A B_V,

with :math:`A` the attention weights and :math:`\varepsilon` the accuracy of the
exponential (:data:`pe._tolerance.ELEMENTARY_ULPS`). It holds on every IEEE 754 machine,
whatever order the kernels sum in.

Examples
--------
>>> x = np.random.default_rng(0).standard_normal((4, 8))
>>> weights = AttentionWeights(*(np.eye(8),) * 3)
>>> out = attention(x, weights)
>>> out.shape, bool(np.allclose(out[2], attention_row(x, weights, 2)))
((4, 8), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe._tolerance import ELEMENTARY_ULPS, EPS64, gamma

__all__ = [
    "AttentionWeights",
    "RnnWeights",
    "attention",
    "attention_error_bound",
    "attention_row",
    "permutation_matrix",
    "rnn_states",
]

Float64Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class AttentionWeights:
    """The three projections of one attention head, each ``d x d``."""

    w_q: Float64Array
    w_k: Float64Array
    w_v: Float64Array

    @classmethod
    def gaussian(cls, rng: np.random.Generator, d: int) -> AttentionWeights:
        r"""Random projections with entries :math:`N(0, 1/d)`, drawn from ``rng`` in the order q, k, v.

        Examples
        --------
        >>> AttentionWeights.gaussian(np.random.default_rng(0), 4).w_v.shape
        (4, 4)
        """
        width = _validate.positive_int("d", d)
        w_q, w_k, w_v = (rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(3))
        return cls(w_q, w_k, w_v)


@dataclass(frozen=True)
class RnnWeights:
    """An Elman recurrent cell: input matrix, recurrent matrix and bias."""

    w_x: Float64Array
    w_h: Float64Array
    b: Float64Array

    @classmethod
    def gaussian(cls, rng: np.random.Generator, d: int, hidden: int) -> RnnWeights:
        r"""A random cell: :math:`W_x` with entries :math:`N(0, 1/d)`, :math:`W_h` with entries
        :math:`N(0, 1/\mathrm{hidden})` (drawn in that order from ``rng``), no bias.

        Examples
        --------
        >>> RnnWeights.gaussian(np.random.default_rng(0), 4, 3).w_x.shape
        (3, 4)
        """
        width = _validate.positive_int("d", d)
        size = _validate.positive_int("hidden", hidden)
        w_x = rng.standard_normal((size, width)) / np.sqrt(width)
        w_h = rng.standard_normal((size, size)) / np.sqrt(size)
        return cls(w_x, w_h, np.zeros(size))


def _matrix(name: str, value: npt.ArrayLike) -> Float64Array:
    array = np.asarray(value)
    if array.dtype.kind not in "fiu" or array.ndim != 2 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty real 2-D array, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite")
    return array.astype(np.float64)


def _softmax_rows(scores: Float64Array, mask: npt.NDArray[np.bool_] | None) -> Float64Array:
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return np.asarray(weights / weights.sum(axis=1, keepdims=True), dtype=np.float64)


def attention(x: npt.ArrayLike, weights: AttentionWeights, *, causal: bool = False) -> Float64Array:
    r"""Single-head self-attention :math:`\mathrm{softmax}(XW_q(XW_k)^T/\sqrt d)\,XW_v`.

    Parameters
    ----------
    x
        The sequence, shape ``(n, d)``: one token per row, no position information.
    weights
        The projections, each ``(d, d)``.
    causal
        If true, token ``i`` attends only to tokens ``j <= i`` (a mask that depends on
        the order, used as a counter-example).

    Returns
    -------
    numpy.ndarray
        Shape ``(n, d)``, float64.
    """
    rows = _matrix("x", x)
    n, d = rows.shape
    if weights.w_q.shape != (d, d):
        raise ValueError(f"weights must be ({d}, {d}) to match x, got {weights.w_q.shape}")
    q, k, v = rows @ weights.w_q, rows @ weights.w_k, rows @ weights.w_v
    mask = np.tril(np.ones((n, n), dtype=bool)) if causal else None
    return _softmax_rows(q @ k.T / np.sqrt(d), mask) @ v


def attention_error_bound(x: npt.ArrayLike, weights: AttentionWeights) -> Float64Array:
    r"""A bound on the rounding error of each entry of :func:`attention` (no mask).

    The bound :math:`B` of the module's error model: every way of computing the outputs
    (all rows at once, a row alone, the rows permuted) is within :math:`B` of the exact
    outputs, entry by entry, on every IEEE 754 machine (first order in the unit roundoff;
    the terms left out are :math:`u` times smaller).

    Returns
    -------
    numpy.ndarray
        Shape ``(n, d)``, float64, like the outputs.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((4, 8))
    >>> w = np.random.default_rng(1).standard_normal((3, 8, 8)) / np.sqrt(8)
    >>> bound = attention_error_bound(x, AttentionWeights(*w))
    >>> bound.shape, bool(0 < bound.max() < 1e-13)
    ((4, 8), True)
    """
    rows = _matrix("x", x)
    n, d = rows.shape
    u, g = EPS64 / 2, gamma(d)
    a = np.abs(rows)
    q, k, v = (rows @ w for w in (weights.w_q, weights.w_k, weights.w_v))
    b_q, b_k, b_v = (g * (a @ np.abs(w)) for w in (weights.w_q, weights.w_k, weights.w_v))
    scores = q @ k.T / np.sqrt(d)
    b_s = (g * np.abs(q) @ np.abs(k).T + b_q @ np.abs(k).T + np.abs(q) @ b_k.T) / np.sqrt(
        d
    ) + 2 * u * np.abs(scores)
    shifted = scores - scores.max(axis=1, keepdims=True)
    r = b_s + u * np.abs(shifted) + ELEMENTARY_ULPS * EPS64
    weights_a = _softmax_rows(scores, None)
    b_a = (r + r.max(axis=1, keepdims=True) + gamma(n - 1) + u) * weights_a
    bound = gamma(n) * (weights_a @ np.abs(v)) + b_a @ np.abs(v) + weights_a @ b_v
    return np.asarray(bound, dtype=np.float64)


def rnn_states(x: npt.ArrayLike, weights: RnnWeights) -> Float64Array:
    r"""States :math:`h_1, \dots, h_n` of the Elman cell :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`.

    ``h_0 = 0``; shape ``(n, hidden)``. Step ``t`` needs :math:`h_{t-1}`: the reading is
    sequential.
    """
    rows = _matrix("x", x)
    hidden = weights.w_h.shape[0]
    state = np.zeros(hidden)
    states = np.empty((rows.shape[0], hidden))
    for t, token in enumerate(rows):
        state = np.tanh(weights.w_x @ token + weights.w_h @ state + weights.b)
        states[t] = state
    return states


def attention_row(x: npt.ArrayLike, weights: AttentionWeights, i: int) -> Float64Array:
    r"""Output ``i`` of :func:`attention` computed alone: query ``x_i`` against every key.

    It needs no other output, which is why attention over all ``n`` rows runs in parallel.
    """
    rows = _matrix("x", x)
    index = _validate.positive_int("i", i, minimum=0)
    if index >= rows.shape[0]:
        raise ValueError(f"i must be < n = {rows.shape[0]}, got {index}")
    d = rows.shape[1]
    query = rows[index] @ weights.w_q
    scores = (rows @ weights.w_k) @ query / np.sqrt(d)
    out = _softmax_rows(scores[None, :], None) @ (rows @ weights.w_v)
    return np.asarray(out[0], dtype=np.float64)


def permutation_matrix(order: npt.ArrayLike) -> Float64Array:
    """The matrix ``P`` with ``(P X)[r] = X[order[r]]``.

    Raises
    ------
    ValueError
        If ``order`` is not a permutation of ``0 .. n-1``.
    """
    perm = _validate.integer_positions("order", order)
    if sorted(perm.tolist()) != list(range(perm.size)):
        raise ValueError("order must be a permutation of 0 .. n-1")
    matrix = np.zeros((perm.size, perm.size))
    matrix[np.arange(perm.size), perm] = 1.0
    return matrix
