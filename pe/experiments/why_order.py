r"""Self-attention without positions, a recurrent reader, and why order must be injected.

Single-head self-attention of a sequence :math:`X \in \mathbb{R}^{n \times d}` (one token
per row) is

.. math::

    \mathrm{Attn}(X) = \mathrm{softmax}\!\left(\frac{X W_q (X W_k)^{\mathsf T}}{\sqrt{d}}\right)
    X W_v,

with the softmax taken along each row. For every ``n x n`` permutation matrix ``P``,

.. math::

    \mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)

(permutation equivariance): reordering the tokens only reorders the outputs, so the
outputs, taken as a multiset, do not depend on the order. Adding a position-dependent
vector to each row (:math:`X + E`) breaks this, because :math:`PX + E \ne P(X + E)`.

An Elman recurrent network reads the tokens one by one,
:math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`, :math:`h_0 = 0`, so its final state
depends on the order.

Error model of the numeric checks
---------------------------------
:math:`\mathrm{Attn}(PX)` and :math:`P\,\mathrm{Attn}(X)` perform the same floating-point
operations except that the sums over the ``n`` keys run in a different order. A
reordered sum of ``n`` terms differs by at most about :math:`n\,\varepsilon` times the sum
of the magnitudes; the outputs are convex combinations of the rows of :math:`X W_v`, so
every entry is accepted within

.. math::

    \tau = 4\,n\,\varepsilon\,\max_{j,c} |(X W_v)_{jc}|,

with :math:`\varepsilon` the machine epsilon of float64.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric
from pe.symbolic import Derivation, Proof

__all__ = [
    "SENTENCE",
    "SWAPPED",
    "AttentionWeights",
    "EquivarianceCheck",
    "RnnWeights",
    "SentencePair",
    "attention",
    "attention_row",
    "check_equivariance",
    "equivariance_proof",
    "permutation_matrix",
    "rnn_final_gap",
    "rnn_states",
    "rnn_step_without_history_gap",
    "row_independence_gap",
    "sentence_matrix",
    "sentence_pair",
    "toy_attention",
    "toy_rnn",
    "toy_vocabulary",
]

Float64Array = npt.NDArray[np.float64]

#: The two sentences of the chapter: same words, opposite meanings.
SENTENCE: tuple[str, ...] = ("dog", "bites", "man")
SWAPPED: tuple[str, ...] = ("man", "bites", "dog")

#: Seed of every toy object (embeddings, weights): the pages are deterministic.
SEED = 20170612


@dataclass(frozen=True)
class AttentionWeights:
    """The three projections of one attention head, each ``d x d``."""

    w_q: Float64Array
    w_k: Float64Array
    w_v: Float64Array


@dataclass(frozen=True)
class RnnWeights:
    """An Elman recurrent cell: input matrix, recurrent matrix and bias."""

    w_x: Float64Array
    w_h: Float64Array
    b: Float64Array


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


def rnn_states(x: npt.ArrayLike, weights: RnnWeights) -> Float64Array:
    r"""States :math:`h_1, \dots, h_n` of the Elman cell :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`.

    ``h_0 = 0``. Step ``t`` needs :math:`h_{t-1}`: the reading is sequential.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, hidden)``.
    """
    rows = _matrix("x", x)
    hidden = weights.w_h.shape[0]
    state = np.zeros(hidden)
    states = np.empty((rows.shape[0], hidden))
    for t, token in enumerate(rows):
        state = np.tanh(weights.w_x @ token + weights.w_h @ state + weights.b)
        states[t] = state
    return states


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


def toy_vocabulary(d_model: int = 64, words: tuple[str, ...] = SENTENCE) -> dict[str, Float64Array]:
    r"""Deterministic token embeddings: entries drawn from :math:`N(0, 1)` with a fixed seed.

    The scale matches the paper's, whose embeddings are multiplied by :math:`\sqrt{d}`
    (learned entries of size about :math:`1/\sqrt{d}`, scaled to about 1).
    """
    width = _validate.positive_int("d_model", d_model)
    rng = np.random.default_rng(SEED)
    return {word: rng.standard_normal(width) for word in sorted(set(words))}


def sentence_matrix(
    words: tuple[str, ...], vocabulary: dict[str, Float64Array], *, positions: bool = False
) -> Float64Array:
    """Stack the embeddings of ``words``; with ``positions``, add the sinusoidal encoding."""
    unknown = [w for w in words if w not in vocabulary]
    if unknown:
        raise ValueError(f"words not in the vocabulary: {', '.join(unknown)}")
    rows = np.stack([vocabulary[w] for w in words])
    if positions:
        rows = rows + numeric.sinusoidal(len(words), rows.shape[1])
    return np.asarray(rows, dtype=np.float64)


def toy_attention(d_model: int = 64) -> AttentionWeights:
    r"""Deterministic random projections, entries :math:`N(0, 1/d)`."""
    width = _validate.positive_int("d_model", d_model)
    rng = np.random.default_rng(SEED + 1)
    w_q, w_k, w_v = (rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(3))
    return AttentionWeights(w_q, w_k, w_v)


def toy_rnn(d_model: int = 64, hidden: int = 16) -> RnnWeights:
    r"""A deterministic Elman cell with inputs of width ``d_model`` and ``hidden`` state units."""
    width = _validate.positive_int("d_model", d_model)
    size = _validate.positive_int("hidden", hidden)
    rng = np.random.default_rng(SEED + 2)
    w_x = rng.standard_normal((size, width)) / np.sqrt(width)
    w_h = rng.standard_normal((size, size)) / np.sqrt(size)
    return RnnWeights(w_x, w_h, np.zeros(size))


@dataclass(frozen=True)
class EquivarianceCheck:
    """Outcome of :func:`check_equivariance`: the largest error against the tolerance."""

    n: int
    d: int
    candidate: str
    max_abs_error: float
    tolerance: float
    passed: bool

    def summary(self) -> str:
        """One line: what was compared, the error, the tolerance, the verdict."""
        verdict = "holds" if self.passed else "FAILS"
        return (
            f"n={self.n}, d={self.d}, {self.candidate}: max error {self.max_abs_error:.3g} "
            f"(tolerance 4 n eps max|XW_v| = {self.tolerance:.3g}): {verdict}"
        )


Candidate = Literal["equivariant", "invariant", "causal", "positions"]


def check_equivariance(
    n: int = 32, d_model: int = 64, *, candidate: Candidate = "equivariant", seed: int = SEED
) -> EquivarianceCheck:
    r"""Compare :math:`\mathrm{Attn}(PX)` with :math:`P\,\mathrm{Attn}(X)` for random ``X``, ``W``, ``P``.

    Parameters
    ----------
    n, d_model
        Sequence length and width.
    candidate
        ``"equivariant"`` (the true statement), or a wrong one that must fail:
        ``"invariant"`` (compare with :math:`\mathrm{Attn}(X)`, unpermuted),
        ``"causal"`` (attention with a causal mask) or ``"positions"`` (the sinusoidal
        encoding added to the rows before attention).
    seed
        Seed of the random embeddings, weights and permutation.
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((length, width))
    weights = AttentionWeights(
        *(rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(3))
    )
    perm = permutation_matrix(rng.permutation(length))
    causal = candidate == "causal"
    extra = numeric.sinusoidal(length, width) if candidate == "positions" else 0.0
    left = attention(perm @ x + extra, weights, causal=causal)
    reference = attention(x + extra, weights, causal=causal)
    right = reference if candidate == "invariant" else perm @ reference
    error = float(np.abs(left - right).max())
    tolerance = 4 * length * float(np.finfo(np.float64).eps) * float(np.abs(x @ weights.w_v).max())
    return EquivarianceCheck(length, width, candidate, error, tolerance, error <= tolerance)


# --- the exact proof -------------------------------------------------------------------


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


def _symbolic_attention(x: Any, w: tuple[Any, Any, Any], causal: bool) -> Any:
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


def equivariance_proof(
    n: int = 3, d_model: int = 2, *, candidate: Candidate = "equivariant"
) -> Proof:
    r"""Prove :math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)` exactly for every ``P`` in :math:`S_n`.

    ``X`` (``n x d``), :math:`W_q, W_k, W_v` (``d x d``) have independent symbolic entries;
    the softmax is written with ``exp``. The proof runs over all ``n!`` permutation
    matrices and reduces three residuals to exactly zero by expanding polynomials
    (``expand``): the scores (:math:`S(PX) = P S(X) P^T`), the softmax
    (:math:`\mathrm{softmax}(PSP^T) = P\,\mathrm{softmax}(S)P^T`, a row's denominator is a
    sum whose terms are only reordered) and the output (using :math:`P^T P = I`).

    Parameters
    ----------
    n, d_model
        Sequence length (``2 <= n <= 4``) and width (``1 <= d_model <= 3``).
    candidate
        ``"equivariant"`` proves the statement; ``"invariant"``, ``"causal"`` and
        ``"positions"`` (fixed symbolic position vectors ``E`` added to the rows) are
        wrong candidates whose residual does not vanish.
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.positive_int("d_model", d_model)
    if length > 4 or width > 3:
        raise ValueError("the exact proof takes n <= 4 and d_model <= 3")
    causal = candidate == "causal"
    x = _symbolic_matrix("x", length, width)
    w = tuple(_symbolic_matrix(f"w^{name}", width, width) for name in "qkv")
    extra = _symbolic_matrix("e", length, width) if candidate == "positions" else None
    perms = _permutations(length)

    derivation = Derivation()
    derivation.note(
        f"Symbols: X is {length}×{width}, W_q, W_k, W_v are {width}×{width}; "
        f"all {len(perms)} permutation matrices P of S_{length} are tried",
        rf"X = {sp.latex(x)}",
    )
    if extra is not None:
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
    shifted = x if extra is None else x + extra
    reference = _symbolic_attention(shifted, w, causal)
    residuals = []
    for p in perms:
        moved = p * x if extra is None else p * x + extra
        right = reference if candidate == "invariant" else p * reference
        residuals.append(_symbolic_attention(moved, w, causal) - right)
    residual = sp.Matrix.vstack(*residuals).applyfunc(_expand)
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
    name = f"permutation equivariance, n = {length}, d = {width}"
    if candidate != "equivariant":
        name += f" ({candidate} candidate)"
    return derivation.proof(name, statement, residual)


def _nonzero(matrix: Any) -> int:
    return sum(1 for entry in matrix if entry != 0)


def _expand(expr: Any) -> Any:
    """Multiply out polynomials, leaving ``exp(a + b)`` whole (no ``exp(a) exp(b)``)."""
    return sp.expand(expr, power_exp=False)


# --- the two sentences -----------------------------------------------------------------


@dataclass(frozen=True)
class SentencePair:
    """Attention outputs for :data:`SENTENCE` and :data:`SWAPPED` (same toy weights).

    Attributes
    ----------
    first, second
        Outputs, shape ``(3, d)``, rows in each sentence's word order.
    word_gap
        Largest difference between the output of the same word in the two sentences
        (``dog`` against ``dog`` ...): 0 up to rounding exactly when the two sentences give
        the same multiset of outputs (their words are distinct).
    scale
        Largest :math:`|(X W_v)_{jc}|` over both sentences (the error model's scale).
    """

    first: Float64Array
    second: Float64Array
    word_gap: float
    scale: float

    @property
    def tolerance(self) -> float:
        """The error model's :math:`4 n \\varepsilon \\max|XW_v|` with ``n = 3``."""
        return 4 * 3 * float(np.finfo(np.float64).eps) * self.scale


def sentence_pair(
    d_model: int = 64, *, positions: bool = False, constant_encoding: bool = False
) -> SentencePair:
    """Run the toy attention head on "dog bites man" and "man bites dog".

    Parameters
    ----------
    d_model
        Even width of the toy embeddings.
    positions
        Add the sinusoidal encoding to each row before attention.
    constant_encoding
        Add the same vector :math:`PE(0)` to every row instead (a wrong "encoding" that
        carries no order).
    """
    width = _validate.even_width("d_model", d_model)
    vocabulary = toy_vocabulary(width)
    weights = toy_attention(width)
    first = sentence_matrix(SENTENCE, vocabulary, positions=positions)
    second = sentence_matrix(SWAPPED, vocabulary, positions=positions)
    if constant_encoding:
        first = first + numeric.sinusoidal(1, width)
        second = second + numeric.sinusoidal(1, width)
    out1, out2 = attention(first, weights), attention(second, weights)
    gap = max(
        float(np.abs(out1[SENTENCE.index(w)] - out2[SWAPPED.index(w)]).max()) for w in SENTENCE
    )
    scale = float(max(np.abs(first @ weights.w_v).max(), np.abs(second @ weights.w_v).max()))
    return SentencePair(out1, out2, gap, scale)


def rnn_final_gap(d_model: int = 64, *, recurrent: bool = True) -> float:
    """Largest difference between the RNN summaries of the two sentences.

    With ``recurrent`` the summary is the final state :math:`h_3`; without, the recurrent
    matrix is zero and the summary is the sum of the states (a reader with no memory of
    order, which must give no difference).
    """
    width = _validate.even_width("d_model", d_model)
    vocabulary = toy_vocabulary(width)
    weights = toy_rnn(width)
    if not recurrent:
        weights = RnnWeights(weights.w_x, np.zeros_like(weights.w_h), weights.b)
    states = [rnn_states(sentence_matrix(s, vocabulary), weights) for s in (SENTENCE, SWAPPED)]
    if recurrent:
        return float(np.abs(states[0][-1] - states[1][-1]).max())
    return float(np.abs(states[0].sum(axis=0) - states[1].sum(axis=0)).max())


def row_independence_gap(n: int = 32, d_model: int = 64, *, positions: bool = False) -> float:
    """Largest difference between each output row computed alone and the batched output."""
    length = _validate.positive_int("n", n, minimum=1)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(SEED + 3)
    x = rng.standard_normal((length, width))
    if positions:
        x = x + numeric.sinusoidal(length, width)
    weights = toy_attention(width)
    batched = attention(x, weights)
    alone = np.stack([attention_row(x, weights, i) for i in range(length)])
    return float(np.abs(batched - alone).max())


def rnn_step_without_history_gap(n: int = 32, d_model: int = 64) -> float:
    """Largest difference between :math:`h_t` and the same step computed with :math:`h_{t-1} = 0`.

    Non-zero: an RNN step cannot be computed without the previous one.
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(SEED + 3)
    x = rng.standard_normal((length, width))
    weights = toy_rnn(width)
    states = rnn_states(x, weights)
    alone = np.tanh(x @ weights.w_x.T + weights.b)
    return float(np.abs(states[1:] - alone[1:]).max())
