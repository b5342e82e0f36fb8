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
  exact buckets near 0 and logarithmic ones further out (:func:`t5_bucket_properties`);
- ALiBi (:func:`alibi_slopes`, :func:`alibi_bias`): :math:`-m_h (i - j)` for :math:`j \le i`,
  with the paper's slopes for any head count (exactly: :func:`alibi_slope_exponents`);
- NoPE (:func:`causal_mean_attention`): no encoding; the causal mask alone;
- RoPE's context extensions (:func:`position_interpolation`, :func:`base_scaling` with
  :func:`ntk_base`, :func:`ntk_scaled_base`): the angles a model trained on :math:`L` positions is run with on
  :math:`sL`, and how far past the trained angles they reach (:func:`extension_reach`);
- the repeated-token test of relativity (:func:`identical_token_scores`,
  :func:`toeplitz_deviation`, with its rounding bound :func:`identical_token_rounding`): on a
  sequence repeating one token, a scheme that encodes only relative position gives scores
  that depend only on :math:`i - j`.

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
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe._tolerance import EPS64, gamma, rotation_rounding
from pe.numeric import frequencies, sinusoidal
from pe.rotary import rope, rope_angles

__all__ = [
    "EXTENSION",
    "SCHEMES",
    "BucketFunction",
    "Extension",
    "ExtensionReach",
    "alibi_bias",
    "alibi_slope_exponents",
    "alibi_slopes",
    "base_scaling",
    "causal_mean_attention",
    "extension_reach",
    "identical_token_rounding",
    "identical_token_scores",
    "interpolated_end",
    "learned_lookup",
    "ntk_base",
    "ntk_scaled_base",
    "position_interpolation",
    "shaw_offsets",
    "shaw_scores",
    "signed_sinusoid",
    "t5_bias",
    "t5_bucket",
    "t5_bucket_properties",
    "toeplitz_deviation",
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


#: A T5 bucketing like :func:`t5_bucket`: ``(rel, *, bidirectional, num_buckets, max_distance)``.
BucketFunction = Callable[..., IntArray]


def t5_bucket_properties(
    bucket: BucketFunction = t5_bucket,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> tuple[bool, str]:
    """Check the properties T5's bucketing is designed to have, for a bucketing function.

    Over every relative position ``r`` with ``|r| <= 4 max_distance``:

    1. buckets lie in ``0 .. num_buckets - 1`` and every bucket is used, except (bidirectional)
       bucket ``num_buckets // 2``, distance 0 looking forward, which ``r = 0`` never reaches;
    2. the first ``E`` distances of each direction get one bucket each (exact);
    3. buckets never decrease with the distance within a direction;
    4. every distance ``>= max_distance`` falls in the last bucket of its direction;
    5. (bidirectional) the two directions use disjoint buckets.

    Returns
    -------
    tuple
        ``(all hold, one line per property)``.

    Examples
    --------
    >>> t5_bucket_properties()[0]
    True
    >>> t5_bucket_properties(lambda rel, **kw: t5_bucket(-np.abs(rel), **kw))[0]
    False
    """
    _validate.function("bucket", bucket)
    if not isinstance(bidirectional, bool):
        raise TypeError(f"bidirectional must be a bool, got {bidirectional!r:.40}")
    num_buckets = _validate.positive_int("num_buckets", num_buckets, minimum=4)
    max_distance = _validate.positive_int("max_distance", max_distance, minimum=2)
    span = 4 * max_distance
    # the relative positions, their buckets and a few masks and sorted copies of them
    _validate.capped_elements("t5_bucket_properties", 16 * (2 * span + 1), 8)
    rel = np.arange(-span, span + 1)
    b = np.asarray(
        bucket(rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    )
    if b.shape != rel.shape or b.dtype.kind not in "iu":
        raise ValueError(
            f"bucket must return one integer bucket per relative position, got {b.shape}"
        )
    half = num_buckets // 2 if bidirectional else num_buckets
    exact = half // 2
    directions = [rel <= 0, rel > 0] if bidirectional else [rel <= 0]
    results: list[tuple[str, bool]] = []
    expected = set(range(num_buckets)) - ({half} if bidirectional else set())
    results.append(("range", set(np.unique(b).tolist()) == expected))
    exact_ok, monotone_ok, far_ok = True, True, True
    sets = []
    for side in directions:
        distance = np.abs(rel[side])
        order = np.argsort(distance)
        distance, values = distance[order], b[side][order]
        sets.append(set(values.tolist()))
        small = values[distance < exact]
        exact_ok &= np.unique(small).size == np.unique(distance[distance < exact]).size
        monotone_ok &= bool(np.all(np.diff(values) >= 0))
        far_ok &= bool(np.all(values[distance >= max_distance] == values.max()))
    results += [("exact near 0", bool(exact_ok)), ("monotone", monotone_ok), ("far", far_ok)]
    if bidirectional:
        results.append(("directions disjoint", not (sets[0] & sets[1])))
    ok = all(flag for _, flag in results)
    detail = ", ".join(f"{name}: {'yes' if flag else 'NO'}" for name, flag in results)
    return ok, f"B={num_buckets}, D={max_distance}, bidirectional={bidirectional}: {detail}"


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


def alibi_slope_exponents(n_heads: int) -> list[Fraction]:
    r"""The exponents :math:`e_h` of ALiBi's slopes :math:`m_h = 2^{-e_h}`, as exact fractions.

    The rule as Press et al. state it in words (paper, section 3: the geometric sequence
    starting at :math:`2^{-8/H}` with that ratio, for ``H`` a power of two) and as their
    reference code extends it (``get_slopes``): for other ``H``, the slopes of the closest
    power of two below, then every other slope of twice that count, as many as are missing.
    Written as a recursion on exponents, independently of :func:`alibi_slopes`, to check it.

    Examples
    --------
    >>> [str(e) for e in alibi_slope_exponents(3)]
    ['4', '8', '2']
    """
    heads = _validate.positive_int("n_heads", n_heads)
    _validate.capped_elements("alibi_slope_exponents", 2 * heads, 128)  # a list of Fractions
    if heads & (heads - 1) == 0:
        return [Fraction(8 * h, heads) for h in range(1, heads + 1)]
    power = 1 << (heads.bit_length() - 1)
    return alibi_slope_exponents(power) + alibi_slope_exponents(2 * power)[::2][: heads - power]


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


def ntk_scaled_base(b: Any, s: Any, d: Any) -> Any:
    r"""NTK-aware scaling of the base, :math:`b' = b\,s^{d/(d-2)}`, of numbers or SymPy symbols.

    Examples
    --------
    >>> import sympy as sp
    >>> b, s, d = sp.symbols("b s d", positive=True)
    >>> ntk_scaled_base(b, s, d)
    b*s**(d/(d - 2))
    """
    for name, value in (("b", b), ("s", s), ("d", d)):
        if _validate.not_positive(_validate.exact_scalar(name, value)):
            raise ValueError(f"{name} must be > 0, got {value}")
    if d == 2:
        raise ValueError("d must not be 2 (the exponent d / (d - 2) needs d > 2), got 2")
    return b * s ** (d / (d - 2))


def ntk_base(base: float, scale: float, d_model: int) -> float:
    r"""NTK-aware base :math:`b' = b\,s^{d/(d-2)}`: keeps :math:`\omega_0` and divides :math:`\omega_{d/2-1}` by ``s``."""
    b = _validate.base_value("base", base)
    s = _validate.real_scalar("scale", scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {s}")
    width = _validate.even_width("d_model", d_model)
    if width < 4:
        raise ValueError(f"d_model must be >= 4 for NTK scaling, got {width}")
    return float(ntk_scaled_base(b, s, width))


#: A context extension ``(n_positions, d_model, scale) -> angles (n, d/2)``: the RoPE angles
#: a model trained on ``n / scale`` positions is run with on ``n`` positions.
Extension = Callable[[int, int, float], Float64Array]


def position_interpolation(n_positions: int, d_model: int, scale: float) -> Float64Array:
    r"""Position interpolation: the angles :math:`(p/s)\,\omega_i`, :math:`0 \le p < n`."""
    return rope_angles(n_positions, d_model, scale=scale)


def interpolated_end(trained: Any, scale: Any) -> Any:
    """The largest interpolated position, :math:`(sL - 1)/s = L - 1/s` (for integer ``sL``;
    numbers or SymPy symbols).

    Examples
    --------
    >>> interpolated_end(2048, 4.0)
    2047.75
    """
    _validate.exact_scalar("trained", trained)
    if _validate.not_positive(_validate.exact_scalar("scale", scale)):
        raise ValueError(f"scale must be > 0, got {scale}")
    return trained - 1 / scale


def base_scaling(n_positions: int, d_model: int, scale: float) -> Float64Array:
    r"""NTK-aware base scaling: the angles :math:`p\,\omega'_i` with :func:`ntk_base`."""
    return rope_angles(n_positions, d_model, base=ntk_base(10000.0, scale, d_model))


#: The context extension of the examples: width ``d``, trained length ``L``, factor ``s``
#: (a Llama-sized head, 2048 trained positions run on four times as many).
EXTENSION = (128, 2048, 4.0)


class ExtensionReach(NamedTuple):
    r"""Per pair, how far an extension's angles reach past the largest trained angle.

    A model trained on the positions :math:`0 \le p \le L - 1` has seen the angles
    :math:`0 \le \theta \le (L-1)\,\omega_i` of pair ``i``. ``excess[i]`` is
    :math:`\max_p \theta_{p,i} / ((L-1)\,\omega_i) - 1` over the ``sL`` extended positions
    (positive: beyond the largest trained angle); ``turns[i]`` says whether pair ``i``
    completes a turn within training, :math:`(L-1)\,\omega_i \ge 2\pi` (then every angle
    modulo :math:`2\pi` was seen).

    Examples
    --------
    >>> reach = ExtensionReach(np.array([0.5, -0.1, 0.2]), np.array([True, False, False]))
    >>> reach.unseen.tolist()
    [2]
    """

    excess: Float64Array
    turns: npt.NDArray[np.bool_]

    @property
    def unseen(self) -> IntArray:
        """Pairs that never complete a turn in training and reach past the trained angles."""
        return np.flatnonzero((self.excess > 0) & ~self.turns).astype(np.int64)


def extension_reach(
    method: Extension, d_model: int = 128, trained: int = 2048, scale: float = 4.0
) -> ExtensionReach:
    r"""How far ``method`` run on :math:`sL` positions reaches past the trained angles.

    A model trained on positions :math:`0 \le p < L` has seen the angles
    :math:`p\,\omega_i \le (L-1)\,\omega_i` of pair ``i``. The extension's angles are
    computed in float64 (relative error about :math:`10^{-16}`, far below the excesses
    compared: position interpolation's smallest, :math:`(1 - 1/s)/(L - 1)`, is
    :math:`3.7 \cdot 10^{-4}` in the page's example).

    Examples
    --------
    >>> reach = extension_reach(position_interpolation, 16, 64, 2.0)
    >>> bool((reach.excess > 0).all()), float(reach.excess.max()) < 1 / 63
    (True, True)
    """
    width = _validate.even_width("d_model", d_model)
    length = _validate.positive_int("trained", trained, minimum=2)
    s = _validate.real_scalar("scale", scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {s}")
    omega = frequencies(width)
    angles = method(round(s * length), width, s)
    excess = angles.max(axis=0) / ((length - 1) * omega) - 1.0
    return ExtensionReach(excess, (length - 1) * omega >= 2 * math.pi)


def toeplitz_deviation(matrix: npt.ArrayLike) -> float:
    """Largest spread (max - min) along any diagonal, relative to the largest |entry|.

    0 means every entry depends only on ``i - j``. Non-finite entries (masks) must sit on
    whole diagonals; otherwise the result is ``inf``.

    Examples
    --------
    >>> toeplitz_deviation(alibi_bias(4, 0.5))
    0.0
    >>> toeplitz_deviation([[1.0, 0.0], [0.0, 2.0]])
    0.5
    """
    a = np.asarray(matrix, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"matrix must be square, got shape {a.shape}")
    finite = np.isfinite(a)
    scale = float(np.abs(a[finite]).max()) if finite.any() else 1.0
    worst = 0.0
    n = a.shape[0]
    for offset in range(-n + 1, n):
        diagonal = np.diagonal(a, offset)
        mask = np.isfinite(diagonal)
        if mask.any() and not mask.all():
            return math.inf
        if mask.all():
            worst = max(worst, float(diagonal.max() - diagonal.min()))
    return worst / max(scale, 1e-300)


#: Schemes known to :func:`identical_token_scores`.
SCHEMES: tuple[str, ...] = (
    "learned absolute",
    "sinusoidal (added)",
    "rope",
    "shaw",
    "transformer-xl",
    "t5",
    "alibi",
    "nope",
)


def _repeated_token(
    n: int, d_model: int, seed: int
) -> tuple[int, int, np.random.Generator, Float64Array, Float64Array, Float64Array]:
    """The sizes, the generator, the token and the projections :math:`W_q, W_k` drawn from it,
    in the order both :func:`identical_token_scores` and its rounding bound draw them."""
    size = _validate.positive_int("n", n, minimum=2)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(_validate.positive_int("seed", seed, minimum=0))
    token = rng.standard_normal(width)
    w_q = rng.standard_normal((width, width)) / math.sqrt(width)
    w_k = rng.standard_normal((width, width)) / math.sqrt(width)
    return size, width, rng, token, w_q, w_k


def identical_token_rounding(
    scheme: str, n: int = 12, d_model: int = 16, *, seed: int = 0
) -> float:
    r"""A bound on the rounding part of :func:`toeplitz_deviation` of :func:`identical_token_scores`.

    Every score of a repeated token is the same exact value along a diagonal, computed as a
    sum of dot products of length ``d`` between vectors made by at most two matrix
    products: by Cauchy-Schwarz each term :math:`a^{\mathsf T}b` errs by at most
    :math:`\gamma_{3d}\lVert a\rVert\lVert b\rVert`, with :math:`\lVert Wx\rVert \le
    \lVert W\rVert_F\lVert x\rVert` for the norms. RoPE adds its rotation's rounding
    (:func:`pe._tolerance.rotation_rounding` at the largest angle), a bias (T5, ALiBi) one
    rounding of the sum; an absolute encoding is a dot product of the encoded rows. For a
    relative scheme two entries of a diagonal differ by at most twice the bound; the result
    is relative to the largest score, as :func:`toeplitz_deviation` is (first order).

    Examples
    --------
    >>> scores = identical_token_scores("rope")
    >>> toeplitz_deviation(scores) <= identical_token_rounding("rope") < 1e-11
    True
    """
    size, width, rng, token, w_q, w_k = _repeated_token(n, d_model, seed)
    norm = float(np.linalg.norm(token))
    q, k = norm * float(np.linalg.norm(w_q)), norm * float(np.linalg.norm(w_k))
    g, u = gamma(3 * width), EPS64 / 2
    bound = g * q * k
    if scheme in ("learned absolute", "sinusoidal (added)"):
        table = (
            rng.standard_normal((size, width))
            if scheme == "learned absolute"
            else np.asarray(sinusoidal(size, width), dtype=np.float64)
        )
        rows = float(np.linalg.norm(token + table, axis=1).max())
        bound = g * rows**2 * float(np.linalg.norm(w_q)) * float(np.linalg.norm(w_k))
    elif scheme == "rope":
        bound += 2 * q * k * float(rotation_rounding(np.sqrt(2), size - 1, width))
    elif scheme == "shaw":
        relative = float(np.linalg.norm(rng.standard_normal((7, width)), axis=1).max())
        bound += g * q * relative
    elif scheme == "transformer-xl":
        w_kr = rng.standard_normal((width, width)) / math.sqrt(width)
        r = float(np.linalg.norm(w_kr)) * math.sqrt(width / 2)
        uu, vv = (float(np.linalg.norm(rng.standard_normal(width))) for _ in range(2))
        bound += g * (q * r + k * uu + r * vv) + 3 * u * (q * k + q * r + k * uu + r * vv)
    scores = identical_token_scores(scheme, size, width, seed=seed)
    scale = float(np.abs(scores[np.isfinite(scores)]).max())
    if scheme in ("t5", "alibi"):
        bound += u * (q * k + scale)
    elif scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r:.40}")
    return 2 * bound / scale


def identical_token_scores(
    scheme: str, n: int = 12, d_model: int = 16, *, seed: int = 0
) -> Float64Array:
    """Scores of a sequence repeating one token, under ``scheme`` (one of :data:`SCHEMES`).

    Weights, the token, learned tables and biases are drawn from
    ``numpy.random.default_rng(seed)``; they stand in for trained ones. A scheme that
    encodes only relative position gives a matrix that depends only on ``i - j``.

    Examples
    --------
    >>> identical_token_scores("alibi", n=4).shape
    (4, 4)
    >>> toeplitz_deviation(identical_token_scores("learned absolute")) > 1e-2
    True
    """
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r:.40}")
    size, width, rng, token, w_q, w_k = _repeated_token(n, d_model, seed)
    x = np.tile(token, (size, 1))
    if scheme in ("learned absolute", "sinusoidal (added)"):
        table: Float64Array = (
            rng.standard_normal((size, width))
            if scheme == "learned absolute"
            else np.asarray(sinusoidal(size, width), dtype=np.float64)
        )
        h = x + learned_lookup(table, size)
        return (h @ w_q.T) @ (h @ w_k.T).T
    q, k = x @ w_q.T, x @ w_k.T
    scores: Float64Array = q @ k.T  # NoPE: the content score alone
    if scheme == "rope":
        scores = rope(q, size) @ rope(k, size).T
    elif scheme == "shaw":
        clip = 3
        scores = shaw_scores(q, k, rng.standard_normal((2 * clip + 1, width)), clip)
    elif scheme == "transformer-xl":
        w_kr = rng.standard_normal((width, width)) / math.sqrt(width)
        u, v = rng.standard_normal(width), rng.standard_normal(width)
        scores = transformer_xl_scores(x, w_q, w_k, w_kr, u=u, v=v)
    elif scheme == "t5":
        scores = scores + t5_bias(size, rng.standard_normal(32))
    elif scheme == "alibi":
        scores = scores + alibi_bias(size, float(alibi_slopes(8)[0]))
    return scores
