r"""Measurements of the chapter "The sinusoidal encoding": indices, wavelengths, conventions, means, geometry.

Notation (the paper's): width ``d`` (even), pair index ``i = 0, ..., d/2 - 1``, position
``p``, :math:`\omega_i = 10000^{-2i/d}`, :math:`PE(p, 2i) = \sin \omega_i p`,
:math:`PE(p, 2i+1) = \cos \omega_i p`.

- Wavelengths :math:`\lambda_i = 2\pi/\omega_i = 2\pi \cdot 10000^{2i/d}` form a geometric
  progression of ratio :math:`10000^{2/d}` from :math:`2\pi` to
  :math:`2\pi \cdot 10000^{(d-2)/d}` (proved in :mod:`pe.proofs.sinusoidal_encoding`).
- A 1-indexed convention with :math:`\sin(t / 10000^{2i/d})`, :math:`0 < i \le d/2`
  (a common variant) uses the frequencies :math:`10000^{-2i/d}` for ``i = 1 .. d/2``: the
  paper's shifted by one step; its highest is :math:`10000^{-2/d}`, not 1.
- Token embeddings are modelled as i.i.d. :math:`N(0, 1)` vectors (seeded); their
  cosines with the encoding rows and their share inside the span of the rows are measured.

Exact values come from :mod:`pe.reference`.

Examples
--------
>>> from pe.experiments import sinusoidal_encoding as facts
>>> facts.pair_columns(4)
[0, 1, 2, 3]
>>> facts.least_periods(facts.binary_bits(64, 3))
(2, 4, 8)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _rotation_table, _validate, numeric, reference
from pe._tolerance import ELEMENTARY_ULPS, EPS64, power_rounding
from pe.experiments.failed_designs import binary_bits

__all__ = [
    "WORKED_SENTENCE",
    "Embeddings",
    "MatrixUse",
    "PairColumns",
    "binary_bits",
    "column_means",
    "column_means_closed_form",
    "column_means_exact",
    "cosine_embedding_encoding",
    "embeddings_plus_pe0",
    "encoding_row_embeddings",
    "encoding_subspace_share",
    "from_scratch_gap",
    "from_scratch_tolerance",
    "layer_matrices",
    "least_periods",
    "neighbour_distance",
    "one_indexed_frequencies",
    "pair_column_census",
    "pair_columns",
    "projection_cost",
    "random_embeddings",
    "ratio_equals_two_width",
    "rows_distance_past",
    "wavelengths",
]

Float64Array = npt.NDArray[np.float64]
#: Token embeddings ``(n_tokens, d_model, seed) -> (n_tokens, d_model)`` array.
Embeddings = Callable[[int, int, int], Float64Array]

#: The worked example of the chapter: a four-token sentence.
WORKED_SENTENCE: tuple[str, ...] = ("My", "name", "is", "RK")


def pair_columns(d_model: int, n_pairs: int | None = None) -> list[int]:
    """Columns ``2i`` and ``2i + 1`` written by the pairs ``i = 0 .. n_pairs - 1``, in order.

    By default ``n_pairs = d/2``. Reading "i ranges from 0 to d_model/2" as inclusive
    gives ``d/2 + 1`` pairs: one too many, writing the columns ``d`` and ``d + 1``.

    Examples
    --------
    >>> pair_columns(4, 3)
    [0, 1, 2, 3, 4, 5]
    """
    width = _validate.even_width("d_model", d_model)
    count = width // 2 if n_pairs is None else _validate.positive_int("n_pairs", n_pairs)
    return [c for i in range(count) for c in (2 * i, 2 * i + 1)]


def wavelengths(d_model: int, *, base: float = 10000.0) -> Float64Array:
    r"""Wavelengths :math:`\lambda_i = 2\pi / \omega_i`, in positions, ``i = 0 .. d/2 - 1``.

    Examples
    --------
    >>> wavelengths(4, base=100.0).round(2)
    array([ 6.28, 62.83])
    """
    return np.asarray(2.0 * np.pi / numeric.frequencies(d_model, base), dtype=np.float64)


def one_indexed_frequencies(d_model: int) -> Float64Array:
    r"""The frequencies of the 1-indexed convention, as it is written.

    It writes :math:`W_p[2i-1, t] = \sin(t / \ell^{2i/d})` with :math:`0 < i \le d/2`,
    so its pair ``i`` turns at :math:`10000^{-2i/d}` for ``i = 1 .. d/2``.

    Examples
    --------
    >>> one_indexed_frequencies(4)
    array([0.01  , 0.0001])
    """
    width = _validate.even_width("d_model", d_model)
    one_indexed = np.power(10000.0, -2.0 * np.arange(1, width // 2 + 1) / width)
    return np.asarray(one_indexed, dtype=np.float64)


def least_periods(columns: npt.NDArray[Any]) -> tuple[int, ...]:
    """The least period of each column (the smallest shift that maps it onto itself).

    A column with no period shorter than its length gets its length.

    Examples
    --------
    >>> least_periods(np.array([[0, 1], [1, 1], [0, 0], [1, 0]]))
    (2, 4)
    """
    rows = columns.shape[0]
    return tuple(
        next(
            (s for s in range(1, rows) if np.array_equal(column[s:], column[:-s])),
            rows,
        )
        for column in columns.T
    )


def ratio_equals_two_width(base: int = 10000) -> tuple[Any, bool]:
    r"""The width ``d`` at which consecutive wavelengths would double, and whether it is even.

    :math:`\mathrm{base}^{2/d} = 2 \iff \tfrac{2}{d}\ln \mathrm{base} = \ln 2 \iff
    d = 2\log_2 \mathrm{base}`. That is an even integer exactly when
    :math:`\log_2 \mathrm{base}` is an integer, that is when ``base`` is a power of two
    (10000 = 2^4 · 625 is not: :math:`d = 8\ln 10/\ln 2 \approx 26.58`).

    Returns
    -------
    tuple
        The exact width (a SymPy expression) and whether it is an even integer.

    Examples
    --------
    >>> ratio_equals_two_width(2**13)
    (26, True)
    """
    value = _validate.positive_int("base", base, minimum=2)
    width = sp.expand_log(2 * sp.log(sp.Integer(value)) / sp.log(2), force=True)
    power_of_two = value & (value - 1) == 0
    return width, power_of_two


def column_means(n_positions: int, d_model: int) -> Float64Array:
    """Mean of each column of the table over the positions ``0 .. n-1`` (measured).

    Examples
    --------
    >>> column_means(2, 2).round(3)
    array([0.421, 0.77 ])
    """
    return np.asarray(numeric.sinusoidal(n_positions, d_model).mean(axis=0), dtype=np.float64)


def column_means_closed_form(n_positions: int, d_model: int, *, shift: float = 1.0) -> Float64Array:
    r"""Column means from the closed forms of the finite sums (Lagrange's identities).

    For :math:`\theta = \omega_i`, :math:`\frac1n\sum_{p=0}^{n-1} \sin p\theta =
    \frac{\sin(n\theta/2)\,\sin((n-1)\theta/2)}{n \sin(\theta/2)}` and the same with
    :math:`\cos((n-1)\theta/2)` for the cosine. ``shift`` is the candidate ``s`` of the
    middle angle :math:`(n - s)\theta/2`; only ``s = 1`` is right.

    Examples
    --------
    >>> column_means_closed_form(2, 2).round(3)
    array([0.421, 0.77 ])
    """
    count = _validate.positive_int("n_positions", n_positions)
    theta = numeric.frequencies(d_model)
    common = np.sin(count * theta / 2) / (count * np.sin(theta / 2))
    middle = (count - shift) * theta / 2
    out = np.empty(2 * theta.size)
    out[0::2] = common * np.sin(middle)
    out[1::2] = common * np.cos(middle)
    return out


def column_means_exact(n_positions: int, d_model: int, *, shift: float = 1.0) -> Float64Array:
    """:func:`column_means_closed_form` evaluated in 40-digit mpmath at the exact frequencies.

    The reference the measured means are held to: its only error is the final rounding.

    Examples
    --------
    >>> bool(np.allclose(column_means_exact(5, 8), column_means(5, 8), rtol=0, atol=1e-15))
    True
    """
    import mpmath

    count = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    out = np.empty(width)
    with mpmath.workdps(40):
        for i, theta in enumerate(reference.frequencies(width, dps=40)):
            common = mpmath.sin(count * theta / 2) / (count * mpmath.sin(theta / 2))
            middle = (count - mpmath.mpf(shift)) * theta / 2
            out[2 * i] = float(common * mpmath.sin(middle))
            out[2 * i + 1] = float(common * mpmath.cos(middle))
    return out


def projection_cost(d_model: int, d_out: int | None = None) -> dict[str, int]:
    """Weights and multiply-adds per token of one projection reading the input, add vs concatenate.

    Adding keeps the input width ``d``; concatenating makes it ``2d``. One ``(d_in x d_out)``
    projection has ``d_in * d_out`` weights and as many multiply-adds per token.

    Examples
    --------
    >>> projection_cost(8, 3)["weights_concat"]
    48
    """
    width = _validate.positive_int("d_model", d_model)
    out = width if d_out is None else _validate.positive_int("d_out", d_out)
    return {
        "width_add": width,
        "width_concat": 2 * width,
        "weights_add": width * out,
        "weights_concat": 2 * width * out,
        "madds_add": width * out,
        "madds_concat": 2 * width * out,
    }


#: The weight matrices of one encoder layer of the paper's model, as (input, output) widths
#: named by what they read and write: the residual stream of width ``d`` ("stream"), the
#: attention heads' concatenated width (``d`` too in the paper), the feed-forward width.
@dataclass(frozen=True)
class MatrixUse:
    """How one weight matrix of an encoder layer met the residual stream in a forward pass."""

    shape: tuple[int, int]
    reads_stream: bool
    writes_stream: bool


def layer_matrices(stream: int, d_model: int = 512, d_ff: int = 2048) -> dict[str, MatrixUse]:
    """Run one encoder layer on a ``stream``-wide residual stream and record its matrices.

    The layer (layer normalisations left out: they hold vectors, not matrices) is attention
    with queries, keys and values of width ``d_model``, its output added back to the stream,
    then a ReLU feed-forward block of width ``d_ff`` added back too. Each matrix is created
    when the forward pass first multiplies by it, with as many rows as its operand has
    columns and as many columns as the code asks for (the stream's width where the product
    is added to the stream); ``reads_stream`` records whether its operand *is* a state of
    the stream, ``writes_stream`` whether its product is added to it. Nothing about which
    matrix touches the stream is typed: it is read off the pass.

    Examples
    --------
    >>> uses = layer_matrices(512)
    >>> uses["W_1"].shape, uses["W_O"].reads_stream, uses["W_O"].writes_stream
    ((512, 2048), False, True)
    """
    width = _validate.positive_int("stream", stream)
    heads, ffn = _validate.positive_int("d_model", d_model), _validate.positive_int("d_ff", d_ff)
    return dict(_forward_pass(width, heads, ffn))


@cache
def _forward_pass(width: int, heads: int, ffn: int) -> tuple[tuple[str, MatrixUse], ...]:
    rng = np.random.default_rng(0)
    uses: dict[str, MatrixUse] = {}
    states: list[Float64Array] = [rng.standard_normal((2, width))]

    def multiply(name: str, operand: Float64Array, columns: int, *, adds: bool) -> Float64Array:
        # the values do not matter, only that the product runs: a constant matrix is cheapest
        matrix = np.full((operand.shape[-1], columns), 1 / np.sqrt(operand.shape[-1]))
        reads = any(operand is state for state in states)
        uses[name] = MatrixUse((matrix.shape[0], matrix.shape[1]), reads, adds)
        return np.asarray(operand @ matrix)

    x = states[0]
    q, k, v = (multiply(name, x, heads, adds=False) for name in ("W_Q", "W_K", "W_V"))
    scores = q @ k.T / np.sqrt(heads)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    mixed = (weights / weights.sum(axis=1, keepdims=True)) @ v
    states.append(x + multiply("W_O", mixed, x.shape[-1], adds=True))
    hidden = np.maximum(multiply("W_1", states[-1], ffn, adds=False), 0.0)
    states.append(states[-1] + multiply("W_2", hidden, states[-1].shape[-1], adds=True))
    return tuple(uses.items())


def random_embeddings(n_tokens: int, d_model: int, seed: int = 7) -> Float64Array:
    r"""Isotropic token embeddings: i.i.d. :math:`N(0, 1)` entries, seeded.

    Examples
    --------
    >>> random_embeddings(3, 4).shape
    (3, 4)
    """
    tokens = _validate.positive_int("n_tokens", n_tokens)
    width = _validate.positive_int("d_model", d_model)
    return np.random.default_rng(seed).standard_normal((tokens, width))


def embeddings_plus_pe0(n_tokens: int, d_model: int, seed: int = 7) -> Float64Array:
    r"""Embeddings that share a direction with the encoding: :func:`random_embeddings` plus :math:`PE(0)`.

    Examples
    --------
    >>> np.allclose(embeddings_plus_pe0(2, 4) - random_embeddings(2, 4), [0.0, 1.0, 0.0, 1.0])
    True
    """
    return random_embeddings(n_tokens, d_model, seed) + numeric.sinusoidal(1, d_model)


def encoding_row_embeddings(
    n_tokens: int, d_model: int, seed: int = 5, *, n_positions: int = 200
) -> Float64Array:
    r"""Embeddings made of encoding rows: random combinations of :math:`PE(0), \dots, PE(n-1)`.

    Examples
    --------
    >>> encoding_row_embeddings(3, 8, n_positions=2).shape
    (3, 8)
    """
    tokens = _validate.positive_int("n_tokens", n_tokens)
    count = _validate.positive_int("n_positions", n_positions)
    weights = np.random.default_rng(seed).standard_normal((tokens, count))
    return np.asarray(weights @ numeric.sinusoidal(count, d_model), dtype=np.float64)


def cosine_embedding_encoding(embeddings: Float64Array, n_positions: int = 200) -> Float64Array:
    r"""Cosines between token embeddings and the encoding rows ``0 .. n-1``, all pairs (measured).

    For an isotropic embedding the cosine with a fixed unit vector has mean 0 and variance
    exactly :math:`1/d`.

    Examples
    --------
    >>> cosine_embedding_encoding(random_embeddings(10, 64), 5).shape
    (10, 5)
    """
    tokens, width = embeddings.shape
    width = _validate.even_width("d_model", width)
    count = _validate.positive_int("n_positions", n_positions)
    _validate.capped_elements("cosines", tokens * (width + count), 8)
    table = numeric.sinusoidal(count, width)
    e_unit = embeddings / np.linalg.norm(embeddings, axis=1, keepdims=True)
    t_unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    return np.asarray(e_unit @ t_unit.T, dtype=np.float64)


def neighbour_distance(d_model: int = 512) -> float:
    r""":math:`\lVert PE(p+1) - PE(p) \rVert = \sqrt{\sum_i (2 - 2\cos\omega_i)}`, the same for every ``p``.

    Examples
    --------
    >>> round(neighbour_distance(512), 4)
    3.7143
    """
    from pe.experiments import failed_designs

    return float(failed_designs.row_distance_by_offset([1], d_model)[0])


def rows_distance_past(
    d_model: int = 512, *, horizon: int = 10_000, frequencies: Float64Array | None = None
) -> float:
    r"""Smallest distance between a row of ``0 .. horizon-1`` and a row of ``horizon .. 2 horizon-1``.

    Computed by brute force on blocks of 1000 positions (every pair of the first 1000 rows
    before and after ``horizon``) and over all offsets up to ``2 horizon`` through
    :math:`\lVert PE(p+k) - PE(p)\rVert^2 = \sum_i (2 - 2\cos\omega_i k)`, for the paper's
    frequencies or the ``d_model / 2`` given ``frequencies`` (a candidate law). Angles below
    :math:`2 \cdot 10^4` in float64 err by about :math:`10^{-12}`, far below the distances
    compared (a neighbour step is about 3.7 at ``d = 512``).

    Examples
    --------
    >>> whole_turns = 2 * np.pi * np.round(numeric.frequencies(8) * 1000 / (2 * np.pi)) / 1000
    >>> rows_distance_past(8, horizon=1000, frequencies=whole_turns) < 1e-6
    True
    """
    width = _validate.even_width("d_model", d_model)
    span = _validate.positive_int("horizon", horizon, minimum=1000)
    omega = numeric.frequencies(width) if frequencies is None else np.asarray(frequencies, float)
    if omega.shape != (width // 2,):
        raise ValueError(f"frequencies must have shape ({width // 2},), got {omega.shape}")

    def rows(positions: npt.NDArray[np.int64]) -> Float64Array:
        angles = np.outer(positions, omega)
        return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)

    a, b = rows(np.arange(1000)), rows(np.arange(span, span + 1000))
    squared = (a**2).sum(1)[:, None] + (b**2).sum(1)[None, :] - 2 * a @ b.T
    by_offset = (2 - 2 * np.cos(np.outer(np.arange(1, 2 * span), omega))).sum(axis=1)
    return float(np.sqrt(max(min(float(squared.min()), float(by_offset.min())), 0.0)))


def encoding_subspace_share(
    n_positions: int = 200,
    d_model: int = 512,
    *,
    embeddings: Float64Array | None = None,
    relative: float = 1e-3,
) -> tuple[int, float]:
    r"""Effective dimension of the encoding rows and the share of embeddings inside it.

    The rows :math:`PE(0), \dots, PE(n-1)` span (numerically) the directions whose singular
    value exceeds ``relative`` times the largest; ``r`` is their number. Returned with it:
    the measured mean share of the squared norm of ``embeddings`` (default: 1000
    :func:`random_embeddings` with seed 11) that falls in that ``r``-dimensional subspace
    (about ``r / d`` for isotropic embeddings).

    Examples
    --------
    >>> rank, share = encoding_subspace_share(4, 64)
    >>> rank, round(share / (rank / 64), 1)
    (4, 1.0)
    """
    count = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    table = numeric.sinusoidal(count, width)
    _, singular, vt = np.linalg.svd(table, full_matrices=False)
    rank = int((singular > relative * singular[0]).sum())
    basis = vt[:rank]
    vectors = random_embeddings(1000, width, 11) if embeddings is None else embeddings
    inside = ((vectors @ basis.T) ** 2).sum(axis=1)
    share = float((inside / (vectors**2).sum(axis=1)).mean())
    return rank, share


@dataclass(frozen=True)
class PairColumns:
    r"""How a range of pair indices meets the columns of pe's table (:func:`pair_column_census`).

    ``matched`` pairs are :math:`\sin, \cos(p\,10000^{-2i/d})` in columns ``2i, 2i+1``
    (within 8 machine epsilons for ``p < 8``), ``missing`` pairs have no such columns, and
    ``each_column_once`` says whether the pairs write every one of the ``columns`` once.
    """

    columns: int
    matched: int
    missing: int
    each_column_once: bool


def pair_column_census(pairs: range, d_model: int) -> PairColumns:
    r"""Read pe's table of width ``d_model`` against the pair indices ``pairs``.

    Pair ``i`` should be :math:`\sin, \cos(p\,10000^{-2i/d})` in columns ``2i, 2i+1``.
    The paper's range is ``range(d // 2)``; reading it as ``1 <= i <= d/2`` (one-indexed)
    or taking ``i`` for a column index (``0 <= i < d``) fails: a pair with no columns, or a
    column no pair writes.

    Examples
    --------
    >>> pair_column_census(range(4), 8)
    PairColumns(columns=8, matched=4, missing=0, each_column_once=True)
    >>> pair_column_census(range(1, 5), 8)
    PairColumns(columns=8, matched=3, missing=1, each_column_once=False)
    """
    positions = np.arange(8)
    table = numeric.sinusoidal(positions, d_model)
    width = table.shape[1]
    eps = float(np.finfo(np.float64).eps)
    matched, missing, covered = 0, 0, []
    for i in pairs:
        if 2 * i + 1 >= width:
            missing += 1
            continue
        covered += [2 * i, 2 * i + 1]
        angle = positions * 10000.0 ** (-2 * i / d_model)
        error = max(
            float(np.abs(table[:, 2 * i] - np.sin(angle)).max()),
            float(np.abs(table[:, 2 * i + 1] - np.cos(angle)).max()),
        )
        matched += error <= 8 * eps
    return PairColumns(width, matched, missing, sorted(covered) == list(range(width)))


def from_scratch_gap(
    make: Callable[[int, int], npt.NDArray[np.float64]],
    sizes: tuple[tuple[int, int], ...] = ((2048, 512), (1000, 64), (50, 8)),
) -> float:
    r"""Largest :math:`|\mathrm{make}(n, d) - PE| / \tau` over ``sizes``, ``PE`` pe's table.

    ``PE`` (:func:`pe.numeric.sinusoidal`) is within :math:`\delta` of the exact values; a
    table that evaluates the formula in float64 forms :math:`\omega_i` (relative error
    :math:`r_\omega`, :func:`pe._tolerance.power_rounding`) and the angle :math:`p\,\omega_i`
    (one more rounding) and takes a sine or cosine (within
    :data:`~pe._tolerance.ELEMENTARY_ULPS`), so it stays within

    .. math::

        \tau = \varepsilon + \delta + (r_\omega + u)\,p\,\omega_i

    of it: the result is at most 1.

    Examples
    --------
    >>> from pe import from_scratch
    >>> from_scratch_gap(from_scratch.sinusoidal_table) <= 1
    True
    """
    worst = 0.0
    for n, d in sizes:
        angle = np.arange(n)[:, None] * np.repeat(numeric.frequencies(d), 2)[None, :]
        gap = np.abs(make(n, d) - numeric.sinusoidal(n, d)) / from_scratch_tolerance(d, angle)
        worst = max(worst, float(gap.max()))
    return worst


def from_scratch_tolerance(d_model: int, angle: npt.ArrayLike) -> Float64Array:
    r"""The model :math:`\tau` of :func:`from_scratch_gap` at the angles :math:`p\,\omega_i`."""
    width = _validate.even_width("d_model", d_model)
    reach = np.abs(np.asarray(angle, dtype=np.float64))
    fixed = ELEMENTARY_ULPS * EPS64 + _rotation_table.ENTRY_ERROR_BOUND
    return np.asarray(fixed + (power_rounding(width) + EPS64 / 2) * reach, dtype=np.float64)
