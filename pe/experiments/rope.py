r"""The NumPy measurements of the chapter "From sinusoids to rotary embeddings".

Each function measures one property of :func:`pe.rotary.rope` for a *candidate* (the
rotation itself, a permutation, a way to convert weights, a way to score, a bound), so that
a claim feeds the true candidate and the wrong ones to the same measurement:

- :func:`complex_gaps`: RoPE against the complex product :math:`(a + ib)\,e^{ip\omega_i}`;
- :func:`permutation_gap` and :func:`converted_weights_gap`: the two pairings and the
  conversion of weights between them;
- :func:`offset_spreads`: how far scores after :math:`W_q, W_k` move with the position at a
  fixed offset (:func:`additive_scores`, :func:`rope_after_projection`);
- :func:`offset_checks`: :func:`pe.rotary.check_offset_dependence` at the chapter's positions;
- :func:`decay_ratio`, :func:`largest_rise`, :func:`rope_score_sequences`,
  :func:`alibi_score_sequence`, :func:`bound_windows`: RoFormer's decay bound and the scores;
- :func:`extension_reach`: how far a context extension (:func:`position_interpolation`,
  :func:`base_scaling`) takes each pair past its trained angles (the chapter "The
  relative-position family" shows it).

Examples
--------
>>> from pe import rotary
>>> max(complex_gaps(rotary.rope)) < 1e-12
True
>>> largest_rise([3.0, 1.0, 2.0])
1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric, rotary
from pe._tolerance import gamma, rotation_rounding
from pe.experiments.relative_family import alibi_bias, ntk_base, signed_sinusoid

__all__ = [
    "EXTENSION",
    "OFFSETS",
    "POSITIONS",
    "Extension",
    "ExtensionReach",
    "additive_scores",
    "alibi_score_sequence",
    "base_scaling",
    "bound_windows",
    "complex_gap_ratio",
    "complex_gaps",
    "complex_reference",
    "converted_weights_gap",
    "converted_weights_tolerance",
    "decay_pairs",
    "decay_ratio",
    "extension_reach",
    "largest_rise",
    "offset_checks",
    "offset_spreads",
    "permutation_gap",
    "permutation_gap_ratio",
    "position_interpolation",
    "rope_after_projection",
    "rope_score_sequences",
]

Float64Array = npt.NDArray[np.float64]
#: A rotation like :func:`pe.rotary.rope`: ``(x, positions, pairing=...) -> array``.
Rope = Callable[..., Any]
#: A way to score query positions ``ms`` against key positions ``ns`` after ``W_q, W_k``.
Scores = Callable[[Float64Array, Float64Array, Any, Any, np.random.Generator], Float64Array]
#: A bound like :func:`pe.rotary.abel_bound`: ``(q, k, offsets) -> (bound, scores)``.
Bound = Callable[[Any, Any, Any], tuple[Float64Array, Float64Array]]

#: Positions of the numeric offset checks: the first 64 and far ones (below float16's max).
POSITIONS = np.concatenate([np.arange(64), [1000, 2047, 2049, 4097, 10_000, 60_001]])
#: Offsets of the numeric checks, negative ones included.
OFFSETS = np.array([0, 1, 5, 37, -3, 500])
#: Width of the decay measurements.
DECAY_WIDTH = 128


def complex_reference(
    x: Float64Array, positions: npt.NDArray[np.int64], pairing: str
) -> Float64Array:
    """Rotate by multiplying complex pairs by :math:`e^{ip\\omega}` (NumPy complex arithmetic).

    Examples
    --------
    >>> complex_reference(np.array([[1.0, 0.0]]), np.array([0]), "adjacent")
    array([[1., 0.]])
    """
    d = x.shape[-1]
    angles = np.multiply.outer(
        positions.astype(np.float64), rotary.rope_angles(np.array([1]), d)[0]
    )
    if pairing == "adjacent":
        z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * angles)
        out = np.empty_like(x)
        out[..., 0::2], out[..., 1::2] = z.real, z.imag
        return out
    z = (x[..., : d // 2] + 1j * x[..., d // 2 :]) * np.exp(1j * angles)
    return np.concatenate([z.real, z.imag], axis=-1)


def complex_gaps(candidate: Rope) -> tuple[float, float]:
    """Largest gap of ``candidate`` from :func:`complex_reference`, adjacent and halves.

    50 random vectors, ``d = 64``, positions ``0, 100, .., 4900``.
    """
    x = np.random.default_rng(3).standard_normal((50, 64))
    ps = np.arange(0, 5000, 100)
    adjacent, halves = (
        float(np.abs(candidate(x, ps, pairing=p) - complex_reference(x, ps, p)).max())
        for p in ("adjacent", "halves")
    )
    return adjacent, halves


def _pair_size(x: Float64Array, pairing: str) -> Float64Array:
    """:math:`|a| + |b|` of the pair each entry of ``x`` belongs to (last axis)."""
    d = x.shape[-1]
    if pairing == "adjacent":
        size = np.abs(x[..., 0::2]) + np.abs(x[..., 1::2])
        return np.repeat(size, 2, axis=-1)
    size = np.abs(x[..., : d // 2]) + np.abs(x[..., d // 2 :])
    return np.concatenate([size, size], axis=-1)


def _reach(positions: npt.ArrayLike, d: int, pairing: str) -> Float64Array:
    """:math:`|p|\\,\\omega_i` for each row (position) and entry, in the pairing's layout."""
    omega = numeric.frequencies(d)
    per_pair = np.abs(np.multiply.outer(np.asarray(positions, dtype=np.float64), omega))
    if pairing == "adjacent":
        return np.repeat(per_pair, 2, axis=-1)
    return np.concatenate([per_pair, per_pair], axis=-1)


def complex_gap_ratio(candidate: Rope) -> float:
    """Worst ``|candidate - complex_reference|`` over twice the rotation's rounding bound.

    Both rotate the same pairs by float64 angles, each within
    :func:`pe._tolerance.rotation_rounding` of the exact rotation, so their gap is within
    twice that: at most 1 for a correct RoPE, for both pairings. The vectors and positions
    are those of :func:`complex_gaps`.
    """
    x = np.random.default_rng(3).standard_normal((50, 64))
    ps = np.arange(0, 5000, 100)
    worst = 0.0
    for pairing in ("adjacent", "halves"):
        gap = np.abs(candidate(x, ps, pairing=pairing) - complex_reference(x, ps, pairing))
        bound = 2 * rotation_rounding(_pair_size(x, pairing), _reach(ps, 64, pairing), 64)
        worst = max(worst, float((gap / bound).max()))
    return worst


def permutation_gap_ratio(candidate: Callable[[int], Any], d_model: int = 64) -> float:
    """:func:`permutation_gap` over twice the rotation's rounding bound, entry by entry."""
    perm = np.asarray(candidate(d_model))
    x = np.random.default_rng(4).standard_normal((40, d_model))
    ps = np.arange(0, 4000, 100)
    halves = rotary.rope(x, ps, pairing="halves")
    adjacent = rotary.rope(x[:, np.argsort(perm)], ps, pairing="adjacent")[:, perm]
    bound = 2 * rotation_rounding(_pair_size(x, "halves"), _reach(ps, d_model, "halves"), d_model)
    return float((np.abs(halves - adjacent) / bound).max())


def converted_weights_tolerance(d_model: int = 64) -> float:
    r"""A bound on :func:`converted_weights_gap` for weights converted correctly.

    Both score matrices compute the same :math:`\langle R_m W_q x, R_n W_k x\rangle` with
    sums in another order: projections within :math:`B_q = \gamma_d |x||W_q|^{\mathsf T}`,
    rotations adding :func:`pe._tolerance.rotation_rounding` (and carrying :math:`B_q` of
    both coordinates of a pair), scores within :math:`\gamma_d |q'||k'|^{\mathsf T} +
    B_{q'}|k'|^{\mathsf T} + |q'| B_{k'}^{\mathsf T}`; twice the largest, over the largest
    score.
    """
    rng = np.random.default_rng(5)
    w_q, w_k = rng.standard_normal((d_model, d_model)), rng.standard_normal((d_model, d_model))
    x = rng.standard_normal((32, d_model))
    ps = np.arange(32) * 37
    g = gamma(d_model)
    rotated, bounds = [], []
    for w in (w_q, w_k):
        projected = x @ w.T
        carried = _pair_size(g * (np.abs(x) @ np.abs(w).T), "adjacent")
        size = _pair_size(projected, "adjacent")
        rounding = rotation_rounding(size, _reach(ps, d_model, "adjacent"), d_model)
        rotated.append(np.abs(rotary.rope(projected, ps)))
        bounds.append(carried + rounding)
    (q, k), (b_q, b_k) = rotated, bounds
    score_bound = g * q @ k.T + b_q @ k.T + q @ b_k.T
    scores = rotary.rope(x @ w_q.T, ps) @ rotary.rope(x @ w_k.T, ps).T
    return float(2 * score_bound.max() / np.abs(scores).max())


def permutation_gap(candidate: Callable[[int], Any], d_model: int = 64) -> float:
    r"""``max|rope_halves(x) - P rope_adjacent(P^T x)|`` with ``P`` from ``candidate(d)``.

    ``(P y)[j] = y[perm[j]]``; 40 random vectors at positions ``0, 100, .., 3900``.
    """
    perm = np.asarray(candidate(d_model))
    x = np.random.default_rng(4).standard_normal((40, d_model))
    ps = np.arange(0, 4000, 100)
    halves = rotary.rope(x, ps, pairing="halves")
    adjacent = rotary.rope(x[:, np.argsort(perm)], ps, pairing="adjacent")[:, perm]
    return float(np.abs(halves - adjacent).max())


def converted_weights_gap(candidate: Callable[..., tuple[Any, Any]], d_model: int = 64) -> float:
    """Relative gap between adjacent scores and halves scores of converted weights.

    ``candidate(permute, W_q, W_k)`` converts the weights (``permute(W)`` permutes the rows
    by :func:`pe.rotary.pairing_permutation`); 32 random tokens at positions ``37 j``.
    """
    rng = np.random.default_rng(5)
    w_q, w_k = rng.standard_normal((d_model, d_model)), rng.standard_normal((d_model, d_model))
    x = rng.standard_normal((32, d_model))
    perm = rotary.pairing_permutation(d_model)
    ps = np.arange(32) * 37
    adjacent = rotary.rope(x @ w_q.T, ps) @ rotary.rope(x @ w_k.T, ps).T
    wq2, wk2 = candidate(lambda w: w[perm], w_q, w_k)
    q2, k2 = x @ wq2.T, x @ wk2.T
    halves = rotary.rope(q2, ps, pairing="halves") @ rotary.rope(k2, ps, pairing="halves").T
    return float(np.abs(adjacent - halves).max() / np.abs(adjacent).max())


def additive_scores(
    w_q: Float64Array, w_k: Float64Array, ms: Any, ns: Any, rng: np.random.Generator
) -> Float64Array:
    """Position-position scores of the additive encoding, ``<W_q PE(m), W_k PE(n)>``."""
    del rng  # the additive encoding draws nothing
    table = signed_sinusoid(np.concatenate([ms, ns]), w_q.shape[0])
    pm, pn = table[: len(ms)], table[len(ms) :]
    return np.asarray(np.einsum("jd,jd->j", pm @ w_q.T, pn @ w_k.T), dtype=np.float64)


def rope_after_projection(
    w_q: Float64Array, w_k: Float64Array, ms: Any, ns: Any, rng: np.random.Generator
) -> Float64Array:
    """Scores ``<R_m W_q x, R_n W_k x>`` of one random token ``x`` (RoPE after the projections)."""
    x = rng.standard_normal(w_q.shape[0])
    q = np.tile(w_q @ x, (len(ms), 1))
    k = np.tile(w_k @ x, (len(ns), 1))
    return np.asarray(np.einsum("jd,jd->j", rotary.rope(q, ms), rotary.rope(k, ns)))


def offset_spreads(candidate: Scores) -> list[float]:
    """Spread over ``m`` of ``s(m, m + r)`` for ``r = 0, 1, 10``: 0 for a relative score.

    Random ``W_q, W_k`` (``d = 64``), integer ``m < 2000`` in steps of 7.
    """
    rng = np.random.default_rng(6)
    d = 64
    w_q = rng.standard_normal((d, d)) / 8
    w_k = rng.standard_normal((d, d)) / 8
    ms = np.arange(0, 2000, 7)
    spreads = []
    for r in (0, 1, 10):
        s = candidate(w_q, w_k, ms, ms + r, rng)
        spreads.append(float(s.max() - s.min()))
    return spreads


def offset_checks(
    angle_dtype: str, model_dtype: str, pairings: Sequence[str] = ("adjacent", "halves")
) -> list[rotary.OffsetCheck]:
    """:func:`pe.rotary.check_offset_dependence` at :data:`POSITIONS` and :data:`OFFSETS`, d=128."""
    return [
        rotary.check_offset_dependence(
            128,
            POSITIONS,
            OFFSETS,
            angle_dtype=angle_dtype,
            model_dtype=model_dtype,
            pairing=p,  # type: ignore[arg-type]
        )
        for p in pairings
    ]


def decay_pairs() -> tuple[tuple[Float64Array, Float64Array], ...]:
    """The two ``(q, k)`` of the decay checks: all ones, and a random pair (``d = 128``)."""
    rng = np.random.default_rng(1)
    ones = np.ones(DECAY_WIDTH)
    return (ones, ones), (rng.standard_normal(DECAY_WIDTH), rng.standard_normal(DECAY_WIDTH))


def decay_ratio(candidate: Bound) -> float:
    """Largest ``|s(r)| / bound(r)`` for ``q = k = 1`` and random ``q, k``, ``r = 0 .. 5000``."""
    offsets = np.arange(0, 5001)
    worst = 0.0
    for q, k in decay_pairs():
        bound, scores = candidate(q, k, offsets)
        worst = max(worst, float(np.max(np.abs(scores) / bound)))
    return worst


def largest_rise(values: npt.ArrayLike) -> float:
    """Largest ``values[j] - values[i]`` over ``i < j``: 0 for a non-increasing sequence.

    Examples
    --------
    >>> largest_rise([3.0, 2.0, 1.0])
    -1.0
    """
    v = np.asarray(values, dtype=np.float64)
    return float(np.max(v[1:] - np.minimum.accumulate(v)[:-1]))


def rope_score_sequences(offsets: npt.ArrayLike) -> dict[str, Float64Array]:
    """RoPE scores ``s(r)`` of ``q = k = 1`` and of random ``q, k``, ``d = 128``."""
    labels = ("q=k=1", "random q, k")
    return {
        label: rotary.abel_bound(q, k, offsets)[1]
        for label, (q, k) in zip(labels, decay_pairs(), strict=True)
    }


def alibi_score_sequence(offsets: npt.ArrayLike) -> dict[str, Float64Array]:
    """ALiBi's bias ``-r/2`` at the offsets ``r = 0, 1, ..`` (a monotone sequence)."""
    return {"ALiBi's bias -r/2": alibi_bias(np.size(offsets), 0.5)[-1, ::-1]}


def bound_windows(offsets: npt.ArrayLike) -> list[float]:
    """Mean of RoFormer's bound for ``q = k = 1`` over ``r`` in [0, 10), [10, 100), [100, 1000)."""
    ones = np.ones(DECAY_WIDTH)
    bound, _ = rotary.abel_bound(ones, ones, offsets)
    return [float(bound[a:b].mean()) for a, b in ((0, 10), (10, 100), (100, 1000))]


#: The context-extension example of the page: width d, trained length L, factor s.
EXTENSION = (128, 2048, 4.0)

#: A context extension ``(n_positions, d_model, scale) -> angles (n, d/2)``: the RoPE angles
#: a model trained on ``n / scale`` positions is run with on ``n`` positions.
Extension = Callable[[int, int, float], Float64Array]


def position_interpolation(n_positions: int, d_model: int, scale: float) -> Float64Array:
    r"""Position interpolation: the angles :math:`(p/s)\,\omega_i`, :math:`0 \le p < n`."""
    return rotary.rope_angles(n_positions, d_model, scale=scale)


def base_scaling(n_positions: int, d_model: int, scale: float) -> Float64Array:
    r"""NTK-aware base scaling: the angles :math:`p\,\omega'_i` with :func:`ntk_base`."""
    return rotary.rope_angles(n_positions, d_model, base=ntk_base(10000.0, scale, d_model))


class ExtensionReach(NamedTuple):
    r"""Per pair, how far an extension's angles reach past the trained window.

    ``excess[i]`` is :math:`\max_p \theta_{p,i} / (L\,\omega_i) - 1` over the ``sL``
    extended positions (positive: beyond the end :math:`L\,\omega_i` of the trained
    window); ``turns[i]`` says whether pair ``i`` completes a turn within training,
    :math:`(L-1)\,\omega_i \ge 2\pi` (then every angle modulo :math:`2\pi` was seen).
    """

    excess: Float64Array
    turns: npt.NDArray[np.bool_]

    @property
    def unseen(self) -> npt.NDArray[np.int64]:
        """Pairs that never complete a turn in training and reach past the window."""
        return np.flatnonzero((self.excess > 0) & ~self.turns).astype(np.int64)


def extension_reach(
    method: Extension, d_model: int = 128, trained: int = 2048, scale: float = 4.0
) -> ExtensionReach:
    r"""How far ``method`` run on :math:`sL` positions reaches past the trained angles.

    A model trained on positions :math:`0 \le p < L` has seen the angles
    :math:`p\,\omega_i \le (L-1)\,\omega_i < L\,\omega_i` of pair ``i``. The extension's
    angles are computed in float64 (relative error about :math:`10^{-16}`, far below the
    excesses compared).

    Examples
    --------
    >>> reach = extension_reach(position_interpolation, 16, 64, 2.0)
    >>> bool((reach.excess < 0).all()), reach.unseen.size
    (True, 0)
    """
    width = _validate.even_width("d_model", d_model)
    length = _validate.positive_int("trained", trained, minimum=2)
    s = _validate.real_scalar("scale", scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {s}")
    omega = numeric.frequencies(width)
    angles = method(round(s * length), width, s)
    excess = angles.max(axis=0) / (length * omega) - 1.0
    return ExtensionReach(excess, (length - 1) * omega >= 2 * math.pi)
