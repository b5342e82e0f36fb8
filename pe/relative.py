r"""The relative-position family: what Shaw et al., Transformer-XL, T5, ALiBi and NoPE add to a score.

Each scheme is given by the attention score it produces between a query at position ``i``
and a key at position ``j`` (column-vector convention, :math:`q_i = W_q x_i`); the functions
are small and exact, to compute examples with:

- learned absolute (:func:`learned_lookup`): :math:`x_i + E_i`, one trained row per position
  up to a maximum;
- Shaw et al. (2018) (:func:`shaw_offsets`, :func:`shaw_scores`):
  :math:`q_i^{\mathsf T}(k_j + a_{\mathrm{clip}(j-i, K)})`;
- Transformer-XL (:func:`transformer_xl_scores`, term by term :func:`transformer_xl_terms`):
  four terms, two of them through the sinusoid of :math:`i - j` (:func:`signed_sinusoid`) and
  two learned global vectors ``u``, ``v``;
- T5 (:func:`t5_bucket`, :func:`t5_bias`): a learned scalar per bucket of :math:`j - i`,
  exact buckets near 0 and logarithmic ones further out;
- ALiBi (:func:`alibi_slopes`, :func:`alibi_bias`): :math:`-m_h (i - j)` for :math:`j \le i`,
  with the paper's slopes for any head count;
- NoPE (:func:`causal_mean_attention`): no encoding; the causal mask alone;
- RoPE's context extensions (:func:`position_interpolation`, :func:`base_scaling` with
  :func:`ntk_base`): the angles a model trained on :math:`L` positions is run with on
  :math:`sL`.

Examples
--------
>>> alibi_slopes(4).tolist()
[0.25, 0.0625, 0.015625, 0.00390625]
>>> t5_bucket(np.array([-3, 0, 3, 500])).tolist()
[3, 0, 19, 31]
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe.numeric import frequencies
from pe.rotary import rope_angles

__all__ = [
    "Extension",
    "alibi_bias",
    "alibi_slopes",
    "base_scaling",
    "causal_mean_attention",
    "learned_lookup",
    "ntk_base",
    "position_interpolation",
    "shaw_offsets",
    "shaw_scores",
    "signed_sinusoid",
    "t5_bias",
    "t5_bucket",
    "transformer_xl_scores",
    "transformer_xl_terms",
]

Float64Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def learned_lookup(table: npt.ArrayLike, positions: int | npt.ArrayLike) -> Float64Array:
    """Rows of a learned absolute table ``E`` (``n_max x d``) for the given positions.

    Raises
    ------
    ValueError
        For a position ``>= n_max``: a learned table has no row there (it cannot extrapolate).
    """
    matrix = np.asarray(table, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"table must have shape (n_max, d), got {matrix.shape}")
    ps = _validate.integer_positions("positions", positions)
    if ps.min() < 0:
        raise ValueError("positions must be >= 0")
    if ps.max() >= matrix.shape[0]:
        raise ValueError(
            f"positions must be < n_max = {matrix.shape[0]} (a learned table has no row for "
            f"position {int(ps.max())})"
        )
    return np.asarray(matrix[ps], dtype=np.float64)


def shaw_offsets(n: int, clip: int) -> IntArray:
    r"""The clipped offsets :math:`\mathrm{clip}(j - i, -K, K)` of Shaw et al., shape ``(n, n)``.

    Row ``i`` is the query, column ``j`` the key. Entry + ``K`` indexes one of the
    ``2K + 1`` learned relative vectors.
    """
    size = _validate.positive_int("n", n)
    k = _validate.positive_int("clip", clip, minimum=0)
    _validate.capped_elements("the offsets", size * size, 8)
    offsets = np.arange(size)[None, :] - np.arange(size)[:, None]
    return np.asarray(np.clip(offsets, -k, k), dtype=np.int64)


def shaw_scores(
    queries: npt.ArrayLike, keys: npt.ArrayLike, relative_keys: npt.ArrayLike, clip: int
) -> Float64Array:
    r""":math:`e_{ij} = q_i^{\mathsf T}(k_j + a_{\mathrm{clip}(j-i, K) + K})` (without the 1/√d).

    Parameters
    ----------
    queries, keys
        Arrays ``(n, d)`` of projected queries and keys.
    relative_keys
        Array ``(2K + 1, d)``: the learned vectors :math:`a_{-K}, \dots, a_K`.
    clip
        ``K``.
    """
    q = np.asarray(queries, dtype=np.float64)
    k = np.asarray(keys, dtype=np.float64)
    rel = np.asarray(relative_keys, dtype=np.float64)
    if q.ndim != 2 or q.shape != k.shape:
        raise ValueError(f"queries and keys must have one shape (n, d), got {q.shape}, {k.shape}")
    offsets = shaw_offsets(q.shape[0], clip)
    if rel.shape != (2 * clip + 1, q.shape[1]):
        raise ValueError(f"relative_keys must have shape {(2 * clip + 1, q.shape[1])}")
    return np.asarray(q @ k.T + np.einsum("id,ijd->ij", q, rel[offsets + clip]), dtype=np.float64)


def signed_sinusoid(offsets: npt.NDArray[np.int64], d_model: int) -> Float64Array:
    r"""Interleaved :math:`(\sin r\omega_i, \cos r\omega_i)` for signed offsets ``r``, shape ``(..., d)``.

    The sinusoidal encoding evaluated at any integer, negative ones included (Transformer-XL's
    :math:`R_{i-j}`); angles in float64.
    """
    angles = np.multiply.outer(offsets.astype(np.float64), frequencies(d_model))
    out = np.empty((*offsets.shape, d_model), dtype=np.float64)
    out[..., 0::2] = np.sin(angles)
    out[..., 1::2] = np.cos(angles)
    return out


def _txl_arrays(*arrays: npt.ArrayLike) -> tuple[Float64Array, ...]:
    """Transformer-XL's ``x, w_q, w_ke, w_kr, u, v`` as float64 arrays, ``x`` checked."""
    tokens = np.asarray(arrays[0], dtype=np.float64)
    if tokens.ndim != 2:
        raise ValueError(f"x must have shape (n, d), got {tokens.shape}")
    n, width = tokens.shape
    _validate.even_width("x.shape[1]", width)
    _validate.capped_elements("the scores", 3 * n * n * width, 8)
    return (tokens, *(np.asarray(a, dtype=np.float64) for a in arrays[1:]))


def transformer_xl_scores(
    x: npt.ArrayLike,
    w_q: npt.ArrayLike,
    w_ke: npt.ArrayLike,
    w_kr: npt.ArrayLike,
    *,
    u: npt.ArrayLike,
    v: npt.ArrayLike,
) -> Float64Array:
    r"""Transformer-XL's score :math:`A_{ij} = (a) + (b) + (c) + (d)` for tokens ``x`` (``n x d``).

    .. math::

        A_{ij} = \underbrace{x_i^{\mathsf T} W_q^{\mathsf T} W_{k,E} x_j}_{(a)}
        + \underbrace{x_i^{\mathsf T} W_q^{\mathsf T} W_{k,R} R_{i-j}}_{(b)}
        + \underbrace{u^{\mathsf T} W_{k,E} x_j}_{(c)}
        + \underbrace{v^{\mathsf T} W_{k,R} R_{i-j}}_{(d)},

    with :math:`R_{i-j}` the sinusoid of the offset (:math:`\omega_i = 10000^{-2i/d}`).
    """
    tokens, wq, wke, wkr, uu, vv = _txl_arrays(x, w_q, w_ke, w_kr, u, v)
    n, width = tokens.shape
    offsets = np.arange(n)[:, None] - np.arange(n)[None, :]
    r = signed_sinusoid(offsets, width) @ wkr.T  # (n, n, d): W_kR R_{i-j}
    q = tokens @ wq.T
    k = tokens @ wke.T
    return np.asarray(
        q @ k.T + np.einsum("id,ijd->ij", q, r) + (k @ uu)[None, :] + r @ vv, dtype=np.float64
    )


def transformer_xl_terms(
    x: npt.ArrayLike,
    w_q: npt.ArrayLike,
    w_ke: npt.ArrayLike,
    w_kr: npt.ArrayLike,
    *,
    u: npt.ArrayLike,
    v: npt.ArrayLike,
    terms: tuple[str, ...] = ("a", "b", "c", "d"),
) -> Float64Array:
    r"""The sum of the chosen terms of Transformer-XL's score, one entry at a time (a loop).

    The formula of :func:`transformer_xl_scores` written out term by term for each
    ``(i, j)``, with :math:`R_{i-j}` from :func:`signed_sinusoid`: a second computation to
    compare it with.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x, w = rng.standard_normal((3, 4)), np.eye(4)
    >>> full = transformer_xl_scores(x, w, w, w, u=np.ones(4), v=np.ones(4))
    >>> bool(np.allclose(full, transformer_xl_terms(x, w, w, w, u=np.ones(4), v=np.ones(4))))
    True
    """
    tokens, wq, wke, wkr, uu, vv = _txl_arrays(x, w_q, w_ke, w_kr, u, v)
    n, width = tokens.shape
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            r = signed_sinusoid(np.array(i - j), width)
            value = {
                "a": tokens[i] @ wq.T @ wke @ tokens[j],
                "b": tokens[i] @ wq.T @ wkr @ r,
                "c": uu @ wke @ tokens[j],
                "d": vv @ wkr @ r,
            }
            out[i, j] = sum(value[t] for t in terms)
    return out


def t5_bucket(
    relative_position: npt.ArrayLike,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> IntArray:
    r"""T5's bucket of each relative position ``r = j - i`` (key minus query).

    With ``B = num_buckets`` (halved when ``bidirectional``, the upper half holding ``r > 0``)
    and ``E = B // 2``: a distance :math:`n < E` gets its own bucket ``n``; larger ones get
    :math:`E + \lfloor \ln(n/E) / \ln(D/E) \cdot (B - E) \rfloor`, capped at ``B - 1``, so
    buckets widen logarithmically up to ``max_distance = D`` and every farther distance
    shares the last one. Unidirectional (causal) bucketing maps ``r > 0`` to bucket 0.
    """
    rel = np.asarray(relative_position)
    if rel.dtype.kind not in "iu":
        raise TypeError(f"relative_position must hold integers, got dtype {rel.dtype}")
    buckets = _validate.positive_int("num_buckets", num_buckets, minimum=4)
    distance = _validate.positive_int("max_distance", max_distance, minimum=2)
    rel = rel.astype(np.int64)
    out = np.zeros(rel.shape, dtype=np.int64)
    if bidirectional:
        buckets //= 2
        out += (rel > 0).astype(np.int64) * buckets
        n = np.abs(rel)
    else:
        n = np.maximum(-rel, 0)
    exact = buckets // 2
    if distance <= exact:
        raise ValueError(f"max_distance must exceed num_buckets // 4 or // 2, got {distance}")
    with np.errstate(divide="ignore"):
        log_ratio = np.log(np.maximum(n, 1) / exact) / math.log(distance / exact)
    large = exact + (log_ratio * (buckets - exact)).astype(np.int64)
    large = np.minimum(large, buckets - 1)
    return np.asarray(out + np.where(n < exact, n, large), dtype=np.int64)


def t5_bias(
    n: int, table: npt.ArrayLike, *, bidirectional: bool = True, max_distance: int = 128
) -> Float64Array:
    """The ``(n, n)`` bias ``table[bucket(j - i)]`` added to one head's scores."""
    size = _validate.positive_int("n", n)
    values = np.asarray(table, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"table must be 1-D (one scalar per bucket), got {values.shape}")
    _validate.capped_elements("the bias", size * size, 16)
    rel = np.arange(size)[None, :] - np.arange(size)[:, None]
    buckets = t5_bucket(
        rel, bidirectional=bidirectional, num_buckets=values.size, max_distance=max_distance
    )
    return np.asarray(values[buckets], dtype=np.float64)


def alibi_slopes(n_heads: int) -> Float64Array:
    r"""ALiBi's head slopes for ``H`` heads, by the rule of Press et al. (2022) for any ``H``.

    With :math:`P = 2^{\lfloor \log_2 H \rfloor}`, the largest power of two not above ``H``,
    the first ``P`` heads take the geometric sequence :math:`m_h = 2^{-8h/P}`,
    ``h = 1 .. P``; the other ``H - P`` heads take every other slope of the sequence for
    ``2P`` heads, starting with its first: :math:`m_{P+j} = 2^{-4(2j-1)/P}`,
    ``j = 1 .. H - P``. For ``H`` a power of two this is :math:`m_h = 2^{-8h/H}`, a geometric
    sequence from :math:`2^{-8/H}` down to :math:`2^{-8}`; for other ``H`` the slopes are
    not geometric (nor decreasing: the added heads sit between the first ones). The paper's
    experiments use powers of two; the rule for other ``H`` is the one of the authors'
    reference code (``get_slopes``). Every slope is a power of two with an exponent
    ``k / P``, computed by one correctly rounded ``exp2`` of a rational exponent.

    Examples
    --------
    >>> alibi_slopes(2).tolist()
    [0.0625, 0.00390625]
    >>> [round(float(m), 6) for m in alibi_slopes(3)]
    [0.0625, 0.003906, 0.25]
    """
    heads = _validate.positive_int("n_heads", n_heads)
    power = 1 << (heads.bit_length() - 1)
    first = 8.0 * np.arange(1, power + 1) / power
    extra = 4.0 * (2 * np.arange(1, heads - power + 1) - 1) / power
    return np.asarray(np.exp2(-np.concatenate([first, extra])), dtype=np.float64)


def alibi_bias(n: int, slope: float) -> Float64Array:
    r"""The causal ALiBi bias :math:`-m (i - j)` for :math:`j \le i`, ``-inf`` above the diagonal."""
    size = _validate.positive_int("n", n)
    m = _validate.real_scalar("slope", slope)
    _validate.capped_elements("the bias", size * size, 8)
    distance = (np.arange(size)[:, None] - np.arange(size)[None, :]).astype(np.float64)
    return np.asarray(np.where(distance >= 0, -m * distance, -np.inf), dtype=np.float64)


def causal_mean_attention(values: npt.ArrayLike, *, causal: bool = True) -> Float64Array:
    r"""Attention with equal scores (NoPE on identical queries and keys): a running mean.

    With a causal mask, position ``i`` averages the values ``0 .. i``; without, every
    position averages all of them.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array, got shape {v.shape}")
    if causal:
        return np.asarray(np.cumsum(v) / np.arange(1, v.size + 1), dtype=np.float64)
    return np.full(v.size, float(v.mean()))


def ntk_base(base: float, scale: float, d_model: int) -> float:
    r"""NTK-aware base :math:`b' = b\,s^{d/(d-2)}`: keeps :math:`\omega_0` and divides :math:`\omega_{d/2-1}` by ``s``."""
    b = _validate.base_value("base", base)
    s = _validate.real_scalar("scale", scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {s}")
    width = _validate.even_width("d_model", d_model)
    if width < 4:
        raise ValueError(f"d_model must be >= 4 for NTK scaling, got {width}")
    return float(b * s ** (width / (width - 2)))


#: A context extension ``(n_positions, d_model, scale) -> angles (n, d/2)``: the RoPE angles
#: a model trained on ``n / scale`` positions is run with on ``n`` positions.
Extension = Callable[[int, int, float], Float64Array]


def position_interpolation(n_positions: int, d_model: int, scale: float) -> Float64Array:
    r"""Position interpolation: the angles :math:`(p/s)\,\omega_i`, :math:`0 \le p < n`."""
    return rope_angles(n_positions, d_model, scale=scale)


def base_scaling(n_positions: int, d_model: int, scale: float) -> Float64Array:
    r"""NTK-aware base scaling: the angles :math:`p\,\omega'_i` with :func:`ntk_base`."""
    return rope_angles(n_positions, d_model, base=ntk_base(10000.0, scale, d_model))
