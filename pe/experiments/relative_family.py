r"""The relative-position family, measured: scores of a repeated token under each scheme.

The schemes themselves are library code (:mod:`pe.relative`). :func:`identical_token_scores`
computes the score matrix of a sequence repeating one token under each scheme;
:func:`toeplitz_deviation` measures how far it is from depending only on :math:`i - j`;
:func:`t5_bucket_reference` re-implements T5's bucketing one value at a time and
:func:`t5_bucket_properties` checks the properties it is designed to have.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe._tolerance import EPS64, gamma, rotation_rounding
from pe.numeric import sinusoidal
from pe.relative import (
    alibi_bias,
    alibi_slopes,
    learned_lookup,
    shaw_scores,
    t5_bias,
    t5_bucket,
    transformer_xl_scores,
)
from pe.rotary import rope

__all__ = [
    "SCHEMES",
    "identical_token_rounding",
    "identical_token_scores",
    "t5_bucket_properties",
    "t5_bucket_reference",
    "toeplitz_deviation",
]

Float64Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

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


BucketFunction = Callable[..., IntArray]


def t5_bucket_reference(
    r: int, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> int:
    """T5's bucket of one relative position ``r``, in scalar Python (``math.log``).

    An independent re-implementation of :func:`t5_bucket`, from the description of the
    scheme, one value at a time.

    Examples
    --------
    >>> [t5_bucket_reference(r) for r in (-3, 0, 3, 500)]
    [3, 0, 19, 31]
    """
    half = num_buckets // 2 if bidirectional else num_buckets
    if bidirectional:
        offset, distance = (half if r > 0 else 0), abs(r)
    else:
        offset, distance = 0, max(0, -r)
    exact = half // 2
    if distance < exact:
        return offset + distance
    widened = exact + int(
        math.log(distance / exact) / math.log(max_distance / exact) * (half - exact)
    )
    return offset + min(widened, half - 1)


def t5_bucket_properties(
    bucket: BucketFunction = t5_bucket,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> tuple[bool, str]:
    """Check the properties T5's bucketing is designed to have, for a bucketing function.

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
    """
    span = 4 * max_distance
    rel = np.arange(-span, span + 1)
    b = np.asarray(
        bucket(rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    )
    half = num_buckets // 2 if bidirectional else num_buckets
    exact = half // 2
    directions = [rel <= 0, rel > 0] if bidirectional else [rel <= 0]
    results: list[tuple[str, bool]] = []
    # Bidirectional: bucket num_buckets // 2 would be distance 0 looking forward, which
    # r = 0 never reaches (it is counted backward), so exactly that bucket stays unused.
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


def toeplitz_deviation(matrix: npt.ArrayLike) -> float:
    """Largest spread (max - min) along any diagonal, relative to the largest |entry|.

    0 means every entry depends only on ``i - j``. Non-finite entries (masks) must sit on
    whole diagonals; otherwise the result is ``inf``.
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
    """
    size = _validate.positive_int("n", n, minimum=2)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(_validate.positive_int("seed", seed, minimum=0))
    token = rng.standard_normal(width)
    w_q = rng.standard_normal((width, width)) / math.sqrt(width)
    w_k = rng.standard_normal((width, width)) / math.sqrt(width)
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
    """
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r:.40}")
    size = _validate.positive_int("n", n, minimum=2)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(_validate.positive_int("seed", seed, minimum=0))
    token = rng.standard_normal(width)
    w_q = rng.standard_normal((width, width)) / math.sqrt(width)
    w_k = rng.standard_normal((width, width)) / math.sqrt(width)
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
