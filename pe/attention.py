r"""Single-head self-attention and an Elman recurrent cell, in NumPy, with attention's error bound.

Self-attention of a sequence :math:`X \in \mathbb{R}^{n \times d}` (one token per row) is

.. math::

    \mathrm{Attn}(X) = \mathrm{softmax}\!\left(\frac{X W_q (X W_k)^{\mathsf T}}{\sqrt{d}}\right)
    X W_v,

the softmax taken along each row (:func:`attention`; :func:`attention_row` computes one
output alone, which is why attention runs in parallel). An Elman cell reads the tokens one
by one, :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`, :math:`h_0 = 0` (:func:`rnn_states`).

The chapter "Why order must be injected" compares the two on toy objects seeded with
:data:`SEED` (:func:`toy_vocabulary`, :func:`toy_attention`, :func:`toy_rnn`):

- for every permutation matrix ``P``, :math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)`
  (permutation equivariance), measured for random ``X``, weights and ``P`` by
  :func:`check_equivariance`, which takes the statement as a value (:data:`Sides`);
- so the same words in another order, :data:`SENTENCE` and :data:`SWAPPED`, give the same
  multiset of outputs, unless an :class:`Encoding` that carries the order is added to the
  words (:func:`sentence_pair`); an Elman cell's final state tells them apart
  (:func:`rnn_final_gap`);
- each output of attention computed alone equals the outputs computed together; an Elman
  step computed without its previous state does not (:func:`row_independence_gap`).

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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt

from pe import _validate, numeric
from pe._tolerance import ELEMENTARY_ULPS, EPS64, ToleranceCheck, gamma, worst_case

__all__ = [
    "CONSTANT_PE0",
    "NO_ENCODING",
    "REFERENCE_OPERATIONS",
    "SEED",
    "SENTENCE",
    "SINUSOIDAL",
    "SWAPPED",
    "Attend",
    "AttentionWeights",
    "Encoding",
    "EquivarianceCheck",
    "Layer",
    "RnnWeights",
    "SentencePair",
    "Sides",
    "Summary",
    "attention",
    "attention_error_bound",
    "attention_layer",
    "attention_row",
    "check_equivariance",
    "elman_layer",
    "equivariant",
    "final_state",
    "permutation_matrix",
    "reference_attention",
    "rnn_final_gap",
    "rnn_states",
    "row_independence_gap",
    "row_independence_tolerance",
    "sentence_matrix",
    "sentence_pair",
    "toy_attention",
    "toy_rnn",
    "toy_vocabulary",
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


def _checked(x: npt.ArrayLike, weights: object) -> tuple[Float64Array, AttentionWeights]:
    """``x`` as float64 rows, and ``weights`` if they are :class:`AttentionWeights` of its width."""
    rows = _matrix("x", x)
    if not isinstance(weights, AttentionWeights):
        raise TypeError(f"weights must be AttentionWeights, got {type(weights).__name__}")
    d = rows.shape[1]
    for name in ("w_q", "w_k", "w_v"):
        shape = np.shape(getattr(weights, name))
        if shape != (d, d):
            raise ValueError(f"weights.{name} must be ({d}, {d}) to match x, got {shape}")
    return rows, weights


def _softmax_rows(scores: Float64Array, mask: npt.NDArray[np.bool_] | None) -> Float64Array:
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return np.asarray(weights / weights.sum(axis=1, keepdims=True), dtype=np.float64)


def _attention_elements(n: int, d: int) -> int:
    """What :func:`attention` allocates for ``n`` tokens of width ``d``, in elements: the
    ``n x n`` scores, their mask and weights, and ``q``, ``k``, ``v``."""
    return 3 * n * n + 3 * n * d


def _bound_elements(n: int, d: int) -> int:
    """What :func:`attention_error_bound` allocates, in elements: the ``n x n`` scores,
    weights and their bounds (with temporaries), and eight ``(n, d)`` products."""
    return 6 * n * n + 8 * n * d


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
    rows, weights = _checked(x, weights)
    n, d = rows.shape
    _validate.capped_elements("attention", _attention_elements(n, d), 8)
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
    rows, weights = _checked(x, weights)
    n, d = rows.shape
    _validate.capped_elements("attention_error_bound", _bound_elements(n, d), 8)
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


#: The most multiple-precision products :func:`reference_attention` takes on (a few seconds).
REFERENCE_OPERATIONS = 10**6


def reference_attention(
    x: npt.ArrayLike, weights: AttentionWeights, *, digits: int = 40
) -> Float64Array:
    r""":func:`attention` (no mask) of the float64 inputs as they stand, computed by mpmath.

    Every product, sum, square root, exponential and quotient carries ``digits`` significant
    digits, and each output is rounded once to float64 at the end: within half an ulp plus
    about :math:`10^{-\text{digits}}` (relative) of the exact outputs, the reference that
    :func:`attention_error_bound` is measured against. It costs :math:`O(n^2 d + n d^2)`
    multiple-precision operations: for a few tokens of a small width.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x, w = rng.standard_normal((3, 4)), AttentionWeights.gaussian(rng, 4)
    >>> bool(np.all(np.abs(reference_attention(x, w) - attention(x, w)) <= attention_error_bound(x, w)))
    True
    """
    rows, weights = _checked(x, weights)
    n, d = rows.shape
    if n * n * d + n * d * d > REFERENCE_OPERATIONS:
        raise ValueError(
            f"x of {n} tokens of width {d} would take {n * n * d + n * d * d} "
            f"multiple-precision products, above {REFERENCE_OPERATIONS}: too many for the reference"
        )
    with mpmath.workdps(digits):
        exact = mpmath.matrix(rows.tolist())
        q, k, v = (
            exact * mpmath.matrix(_matrix(name, w).tolist())
            for name, w in (("w_q", weights.w_q), ("w_k", weights.w_k), ("w_v", weights.w_v))
        )
        scores = q * k.T / mpmath.sqrt(d)
        out = np.empty((n, d))
        for i in range(n):
            top = max(scores[i, j] for j in range(n))
            e = [mpmath.exp(scores[i, j] - top) for j in range(n)]
            total = mpmath.fsum(e)
            for c in range(d):
                out[i, c] = float(mpmath.fsum(e[j] * v[j, c] for j in range(n)) / total)
    return out


def rnn_states(x: npt.ArrayLike, weights: RnnWeights) -> Float64Array:
    r"""States :math:`h_1, \dots, h_n` of the Elman cell :math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`.

    ``h_0 = 0``; shape ``(n, hidden)``. Step ``t`` needs :math:`h_{t-1}`: the reading is
    sequential.
    """
    rows = _rnn_input(x, weights)
    hidden = weights.w_h.shape[0]
    state = np.zeros(hidden)
    states = np.empty((rows.shape[0], hidden))
    for t, token in enumerate(rows):
        state = np.tanh(weights.w_x @ token + weights.w_h @ state + weights.b)
        states[t] = state
    return states


def _rnn_input(x: npt.ArrayLike, weights: object) -> Float64Array:
    """``x`` checked against an Elman cell ``weights``: one row per token, of its input width."""
    rows = _matrix("x", x)
    cell = _validate.instance("weights", weights, RnnWeights)
    hidden = np.shape(cell.w_h)[:1]
    if len(hidden) != 1 or np.shape(cell.w_h) != hidden * 2 or np.shape(cell.b) != hidden:
        raise ValueError(
            f"weights must hold a square W_h and a bias of its size, got {np.shape(cell.w_h)}"
        )
    if np.shape(cell.w_x) != (*hidden, rows.shape[1]):
        raise ValueError(
            f"weights must be an Elman cell of input width {rows.shape[1]} (x's), got W_x "
            f"{np.shape(cell.w_x)} and W_h {np.shape(cell.w_h)}"
        )
    return rows


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


#: The two sentences of the chapter: same words, opposite meanings.
SENTENCE: tuple[str, ...] = ("dog", "bites", "man")

SWAPPED: tuple[str, ...] = ("man", "bites", "dog")

#: Seed of every toy object (embeddings, weights): the pages are deterministic.
SEED = 20170612


def toy_vocabulary(d_model: int = 64, words: tuple[str, ...] = SENTENCE) -> dict[str, Float64Array]:
    r"""Deterministic token embeddings: entries drawn from :math:`N(0, 1)` with a fixed seed.

    The scale matches the paper's, whose embeddings are multiplied by :math:`\sqrt{d}`
    (learned entries of size about :math:`1/\sqrt{d}`, scaled to about 1).

    Examples
    --------
    >>> sorted(toy_vocabulary(4))
    ['bites', 'dog', 'man']
    """
    width = _validate.positive_int("d_model", d_model)
    distinct = sorted(set(_words(words)))
    _validate.capped_elements("toy_vocabulary", len(distinct) * width, 8)
    rng = np.random.default_rng(SEED)
    return {word: rng.standard_normal(width) for word in distinct}


def _words(words: object) -> tuple[str, ...]:
    """``words`` as a non-empty tuple of strings (a sentence), else a one-line error."""
    sentence = tuple(_validate.sequence("words", words, "strings"))
    for word in sentence:
        if not isinstance(word, str):
            raise TypeError(f"words must hold strings, got {word!r:.40}")
    return sentence


@dataclass(frozen=True)
class Encoding:
    """Vectors added to the words' embeddings before attention (``rows(n, d)``), described.

    ``label`` says what is added, as the checks describe it; ``rows(n, d)`` broadcasts to
    ``(n, d)``: the vectors for ``n`` words of width ``d``.
    """

    label: str
    rows: Callable[[int, int], npt.NDArray[np.floating[Any]]]

    def __post_init__(self) -> None:
        if not isinstance(self.label, str):
            raise TypeError(f"label must be a string, got {self.label!r:.40}")
        _validate.function("rows", self.rows)


def _encoding_rows(name: str, encoding: object, n: int, d: int) -> npt.NDArray[Any]:
    """``encoding.rows(n, d)`` checked: ``encoding`` an :class:`Encoding`, its rows real,
    finite and broadcasting to ``(n, d)``."""
    vectors = np.asarray(_validate.instance(name, encoding, Encoding).rows(n, d))
    if vectors.dtype.kind not in "fiu":
        raise TypeError(f"{name}.rows must return real numbers, got dtype {vectors.dtype}")
    try:
        shape = np.broadcast_shapes(vectors.shape, (n, d))
    except ValueError:
        shape = ()
    if shape != (n, d):
        raise ValueError(f"{name}.rows must broadcast to ({n}, {d}), got {vectors.shape}")
    if not np.all(np.isfinite(vectors)):
        raise ValueError(f"{name}.rows must be finite")
    return vectors


#: No position information: the embeddings alone.
NO_ENCODING = Encoding("embeddings alone", lambda n, d: np.zeros((n, d)))

#: The sinusoidal encoding :math:`PE(p)` of each word's position.
SINUSOIDAL = Encoding("with the sinusoidal encoding added", numeric.sinusoidal)

#: The same vector :math:`PE(0)` added to every word (it carries no order).
CONSTANT_PE0 = Encoding(
    "with the same vector PE(0) added to every word", lambda _, d: numeric.sinusoidal(1, d)
)


def sentence_matrix(
    words: tuple[str, ...], vocabulary: dict[str, Float64Array], encoding: Encoding | None = None
) -> Float64Array:
    """Stack the embeddings of ``words`` and add the ``encoding``'s rows (none by default).

    Examples
    --------
    >>> vocabulary = toy_vocabulary(4)
    >>> sentence_matrix(SENTENCE, vocabulary, SINUSOIDAL).shape
    (3, 4)
    """
    sentence = _words(words)
    if not isinstance(vocabulary, Mapping):
        raise TypeError(f"vocabulary must map words to vectors, got {vocabulary!r:.40}")
    unknown = [w for w in sentence if w not in vocabulary]
    if unknown:
        raise ValueError(f"words not in the vocabulary: {', '.join(unknown)[:80]}")
    vectors = [np.asarray(vocabulary[w]) for w in sentence]
    width = vectors[0].shape
    for word, vector in zip(sentence, vectors, strict=True):
        if vector.dtype.kind not in "fiu":
            raise TypeError(f"vocabulary must hold real vectors, got dtype {vector.dtype}")
        if vector.ndim != 1 or vector.size == 0 or vector.shape != width:
            raise ValueError(
                f"vocabulary must hold non-empty vectors of one width, got {vector.shape} "
                f"for {word!r:.20} and {width}"
            )
        if not np.all(np.isfinite(vector)):
            raise ValueError(f"vocabulary must hold finite vectors, not for {word!r:.20}")
    _validate.capped_elements("sentence_matrix", len(sentence) * width[0], 8)
    added = (
        None if encoding is None else _encoding_rows("encoding", encoding, len(sentence), width[0])
    )
    rows = np.stack(vectors)
    if added is not None:
        rows = rows + added
    return np.asarray(rows, dtype=np.float64)


def toy_attention(d_model: int = 64) -> AttentionWeights:
    r"""Deterministic random projections, entries :math:`N(0, 1/d)`.

    Examples
    --------
    >>> toy_attention(4).w_q.shape
    (4, 4)
    """
    width = _validate.positive_int("d_model", d_model)
    _validate.capped_elements("toy_attention", 3 * width * width, 8)
    return AttentionWeights.gaussian(np.random.default_rng(SEED + 1), width)


def toy_rnn(d_model: int = 64, hidden: int = 16) -> RnnWeights:
    r"""A deterministic Elman cell with inputs of width ``d_model`` and ``hidden`` state units.

    Examples
    --------
    >>> toy_rnn(4, hidden=3).w_h.shape
    (3, 3)
    """
    width = _validate.positive_int("d_model", d_model)
    size = _validate.positive_int("hidden", hidden)
    _validate.capped_elements("toy_rnn", size * (width + size + 1), 8)
    return RnnWeights.gaussian(np.random.default_rng(SEED + 2), width, size)


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
        Largest :math:`|(X W_v)_{jc}|` over both sentences.
    tolerance
        The error model's bound on ``word_gap``: the largest :func:`attention_error_bound`
        of the first sentence plus that of the second.
    """

    first: Float64Array
    second: Float64Array
    word_gap: float
    scale: float
    tolerance: float


def sentence_pair(encoding: Encoding = NO_ENCODING, d_model: int = 64) -> SentencePair:
    """Run the toy attention head on "dog bites man" and "man bites dog".

    Parameters
    ----------
    encoding
        What is added to each word's embedding before attention: nothing, the sinusoidal
        encoding, or the same vector :math:`PE(0)` on every row (a wrong "encoding" that
        carries no order).
    d_model
        Even width of the toy embeddings.

    Examples
    --------
    >>> pair = sentence_pair(d_model=8)
    >>> pair.word_gap <= pair.tolerance
    True
    """
    width = _validate.even_width("d_model", d_model)
    _validate.instance("encoding", encoding, Encoding)
    # the weights, then attention_error_bound's on the sentence
    need = 3 * width * width + _bound_elements(len(SENTENCE), width)
    _validate.capped_elements("sentence_pair", need, 8)
    vocabulary = toy_vocabulary(width)
    weights = toy_attention(width)
    first = sentence_matrix(SENTENCE, vocabulary, encoding)
    second = sentence_matrix(SWAPPED, vocabulary, encoding)
    out1, out2 = attention(first, weights), attention(second, weights)
    gap = max(
        float(np.abs(out1[SENTENCE.index(w)] - out2[SWAPPED.index(w)]).max()) for w in SENTENCE
    )
    scale = float(max(np.abs(first @ weights.w_v).max(), np.abs(second @ weights.w_v).max()))
    bound = sum(float(attention_error_bound(x, weights).max()) for x in (first, second))
    return SentencePair(out1, out2, gap, scale, bound)


#: Attention over the rows of a matrix, NumPy or SymPy: ``(x, causal) -> Attn(x)``.
Attend = Callable[[Any, bool], Any]

#: A statement about attention: ``(attend, x, P, E) -> (left, right)``, the two sides that
#: must agree for every permutation matrix ``P``; ``E`` holds position vectors (one per row)
#: that a statement may add to the tokens.
Sides = Callable[[Attend, Any, Any, Any], tuple[Any, Any]]


def equivariant(attend: Attend, x: Any, perm: Any, _positions: Any) -> tuple[Any, Any]:
    r"""The true statement's two sides: :math:`\mathrm{Attn}(PX)` and :math:`P\,\mathrm{Attn}(X)`.

    The position vectors are not used. The same function serves the NumPy check
    (:func:`check_equivariance`) and the SymPy proof of the chapter.

    Examples
    --------
    >>> x = np.arange(6.0).reshape(3, 2)
    >>> left, right = equivariant(lambda m, causal: 2 * m, x, permutation_matrix([2, 0, 1]), 0)
    >>> bool(np.array_equal(left, right))
    True
    """
    _validate.function("attend", attend)
    for name, value in (("x", x), ("perm", perm)):
        if not isinstance(getattr(value, "shape", None), tuple):
            raise TypeError(f"{name} must be a matrix (NumPy or SymPy), got {value!r:.40}")
    if len(x.shape) != 2 or perm.shape != (x.shape[0], x.shape[0]):
        raise ValueError(f"x must be n x d and perm n x n, got shapes {x.shape} and {perm.shape}")
    return attend(perm @ x, False), perm @ attend(x, False)


@dataclass(frozen=True, kw_only=True)
class EquivarianceCheck(ToleranceCheck):
    """Outcome of :func:`check_equivariance` (sequence length ``n``, width ``d``)."""

    n: int
    d: int

    def summary(self) -> str:
        """One line: what was compared, the error, the tolerance, the verdict."""
        return (
            f"n={self.n}, d={self.d}: max error {self.max_abs_error:.3g} "
            f"(tolerance there B(PX) + P B(X) = {self.tolerance:.3g}): {self.verdict}"
        )


def check_equivariance(
    sides: Sides = equivariant, n: int = 32, d_model: int = 64, *, seed: int = SEED
) -> EquivarianceCheck:
    r"""Compare the two sides of a statement for random ``X``, ``W`` and ``P``, in float64.

    Each side is within :func:`attention_error_bound` of its exact value, entry by entry, so
    the tolerance at each entry is :math:`B(PX) + P\,B(X)`.

    Parameters
    ----------
    sides
        The statement: :func:`equivariant` (true), or a wrong one that must fail (the
        chapter's candidates: invariance, a causal mask, position vectors added). ``E`` is
        the sinusoidal encoding of the ``n`` positions.
    n, d_model
        Sequence length and width.
    seed
        Seed of the random embeddings, weights and permutation.

    Examples
    --------
    >>> check_equivariance(n=4, d_model=8).passed
    True
    """
    _validate.function("sides", sides)
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("check_equivariance", 4 * (length + width) ** 2, 8)
    seed = _validate.positive_int("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((length, width))
    weights = AttentionWeights.gaussian(rng, width)
    perm = permutation_matrix(rng.permutation(length))

    def attend(rows: Any, causal: bool) -> Float64Array:
        return attention(rows, weights, causal=causal)

    both = sides(attend, x, perm, numeric.sinusoidal(length, width))
    if not isinstance(both, tuple) or len(both) != 2:
        raise TypeError(f"sides must return the two sides, a pair, got {both!r:.40}")
    left, right = both
    if np.shape(left) != x.shape or np.shape(right) != x.shape:
        raise ValueError(
            f"sides must return two {x.shape} arrays, got {np.shape(left)}, {np.shape(right)}"
        )
    tolerance = attention_error_bound(perm @ x, weights) + perm @ attention_error_bound(x, weights)
    worst = worst_case(np.asarray(left) - np.asarray(right), tolerance)
    return EquivarianceCheck(
        max_abs_error=worst.max_abs_error,
        tolerance=worst.tolerance,
        worst_ratio=worst.worst_ratio,
        n=length,
        d=width,
    )


#: What a recurrent reader reports after reading a sentence: ``(x, weights) -> vector``.
Summary = Callable[[Float64Array, RnnWeights], Float64Array]


def final_state(x: Float64Array, weights: RnnWeights) -> Float64Array:
    """The Elman cell's final state :math:`h_n` after reading the rows of ``x`` in order.

    Examples
    --------
    >>> final_state(np.zeros((2, 4)), toy_rnn(4, hidden=3)).tolist()
    [0.0, 0.0, 0.0]
    """
    return np.asarray(rnn_states(x, weights)[-1], dtype=np.float64)


def rnn_final_gap(summary: Summary = final_state, d_model: int = 64) -> float:
    """Largest difference between the ``summary`` of the two sentences by the toy Elman cell.

    Examples
    --------
    >>> rnn_final_gap(d_model=8) > 1e-3
    True
    """
    _validate.function("summary", summary)
    width = _validate.even_width("d_model", d_model)
    vocabulary = toy_vocabulary(width)
    weights = toy_rnn(width)
    first, second = (
        np.asarray(summary(sentence_matrix(s, vocabulary), weights)) for s in (SENTENCE, SWAPPED)
    )
    if first.dtype.kind not in "fiu" or first.shape != second.shape or first.size == 0:
        raise ValueError(
            f"summary must return one real vector per sentence, got {first.shape} and {second.shape}"
        )
    return float(np.abs(first - second).max())


#: A sequence layer ``x -> (outputs computed together, each output computed alone)``.
Layer = Callable[[Float64Array], tuple[Float64Array, Float64Array]]


def attention_layer(x: Float64Array) -> tuple[Float64Array, Float64Array]:
    """The toy attention head on ``x``: all rows at once, and each row by :func:`attention_row`.

    Examples
    --------
    >>> together, alone = attention_layer(np.eye(3, 4))
    >>> together.shape == alone.shape == (3, 4)
    True
    """
    rows = _matrix("x", x)
    n, d = rows.shape
    # the rows one by one (n x d), then attention's
    _validate.capped_elements("attention_layer", n * d + _attention_elements(n, d), 8)
    weights = toy_attention(rows.shape[1])
    alone = np.stack([attention_row(rows, weights, i) for i in range(rows.shape[0])])
    return attention(rows, weights), alone


def elman_layer(x: Float64Array) -> tuple[Float64Array, Float64Array]:
    """The toy Elman cell on ``x``: its states, and each step computed with :math:`h_{t-1} = 0`.

    Examples
    --------
    >>> states, alone = elman_layer(np.eye(3, 4))
    >>> bool(np.array_equal(states[0], alone[0])), bool(np.array_equal(states[1], alone[1]))
    (True, False)
    """
    rows = _matrix("x", x)
    weights = toy_rnn(rows.shape[1])
    alone = np.tanh(rows @ weights.w_x.T + weights.b)
    return rnn_states(rows, weights), np.asarray(alone, dtype=np.float64)


def _layer_input(
    n: int, d_model: int, encoding: Encoding, *, name: str = "the layer's input"
) -> Float64Array:
    length = _validate.positive_int("n", n, minimum=1)
    width = _validate.even_width("d_model", d_model)
    _validate.instance("encoding", encoding, Encoding)
    # the toy head forms n x n scores and weights (and their bounds) beside the n x d input
    _validate.capped_elements(name, 4 * length * (length + width), 8)
    added = _encoding_rows("encoding", encoding, length, width)
    rng = np.random.default_rng(SEED + 3)
    return np.asarray(rng.standard_normal((length, width)) + added)


def row_independence_gap(
    layer: Layer = attention_layer,
    n: int = 32,
    d_model: int = 64,
    encoding: Encoding = NO_ENCODING,
) -> float:
    """Largest difference between each output computed alone and all outputs computed together.

    Within :func:`row_independence_tolerance` for attention, with or without an encoding;
    not for an Elman cell.

    Examples
    --------
    >>> row_independence_gap(n=4, d_model=8) <= row_independence_tolerance(4, 8)
    True
    >>> row_independence_gap(elman_layer, n=4, d_model=8) > 1e-3
    True
    """
    _validate.function("layer", layer)
    x = _layer_input(n, d_model, encoding, name="row_independence_gap")
    both = layer(x)
    if not isinstance(both, tuple) or len(both) != 2:
        raise TypeError(f"layer must return two arrays (together, alone), got {both!r:.40}")
    together, alone = (np.asarray(side) for side in both)
    if together.shape != alone.shape or together.dtype.kind not in "fiu":
        raise ValueError(
            f"layer must return two real arrays of one shape, got {together.shape}, {alone.shape}"
        )
    return float(np.abs(together - alone).max())


def row_independence_tolerance(
    n: int = 32, d_model: int = 64, encoding: Encoding = NO_ENCODING
) -> float:
    """The error model's bound on :func:`row_independence_gap` for attention.

    Both ways compute the same outputs, each within :func:`attention_error_bound` of the
    exact ones: twice its largest entry.

    Examples
    --------
    >>> 0 < row_independence_tolerance(4, 8) < 1e-13
    True
    """
    x = _layer_input(n, d_model, encoding, name="row_independence_tolerance")
    rows, width = x.shape
    # the input's estimate, then attention_error_bound's
    need = 4 * rows * (rows + width) + _bound_elements(rows, width)
    _validate.capped_elements("row_independence_tolerance", need, 8)
    return 2 * float(attention_error_bound(x, toy_attention(width)).max())
