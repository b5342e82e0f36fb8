r"""Two position encodings that fail, and the requirements the sinusoidal one meets.

The raw index
    Position ``p`` written into the vector as the number ``p`` (for example one extra
    coordinate, :math:`[e; p]`). It is unbounded: its share of the squared norm,
    :math:`p^2 / (p^2 + \lVert e \rVert^2)`, tends to 1, so far positions swamp the
    token embedding ``e``.

The normalised index
    :math:`p / n` in a sentence of ``n`` tokens. It is bounded, but the gap between
    neighbours is :math:`1/n` (0.25 for 4 tokens, 0.025 for 40), and the value of a given
    position changes with the length of its sentence.

The requirements that follow, each checked for the sinusoidal encoding on the page
"Designs that fail": bounded, a distinct vector per position, the same offset looks the
same everywhere (:math:`\lVert PE(p+k) - PE(p) \rVert` depends on ``k`` only), defined for
any position independently of the sentence length, deterministic.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric
from pe.symbolic import Derivation, Proof

__all__ = [
    "SEED",
    "neighbour_gap_proof",
    "normalised_index",
    "offset_distance_proof",
    "offset_distances",
    "pair_bounded_proof",
    "position_share",
    "position_share_limit_proof",
    "raw_index_ratio",
    "row_distance_by_offset",
    "smallest_row_distance",
    "toy_embeddings",
]

Float64Array = npt.NDArray[np.float64]

#: Seed of the random token embeddings used in this chapter.
SEED = 4


def toy_embeddings(n_tokens: int, d_model: int, *, seed: int = SEED) -> Float64Array:
    r"""Random token embeddings with entries :math:`N(0, 1)` (typical scale 1 per entry).

    This is the scale of the paper's embeddings after their multiplication by
    :math:`\sqrt{d}`; their norm is about :math:`\sqrt{d}`.
    """
    count = _validate.positive_int("n_tokens", n_tokens)
    width = _validate.positive_int("d_model", d_model)
    _validate.capped_elements("toy_embeddings", count * width, 8)
    return np.random.default_rng(seed).standard_normal((count, width))


def raw_index_ratio(positions: npt.ArrayLike, d_model: int = 512) -> Float64Array:
    r"""Ratio of the raw index ``p`` to the typical size of an embedding entry.

    The typical size is the root mean square of the entries of 1000 random embeddings
    (:func:`toy_embeddings`), about 1; the ratio is then about ``p``.
    """
    ps = _validate.integer_positions("positions", positions).astype(np.float64)
    rms = float(np.sqrt(np.mean(toy_embeddings(1000, d_model) ** 2)))
    return np.asarray(np.abs(ps) / rms, dtype=np.float64)


def position_share(
    positions: npt.ArrayLike, d_model: int = 512, *, design: str = "raw"
) -> Float64Array:
    r"""Mean share of the squared norm that the position holds, over 1000 random embeddings.

    ``design="raw"``: the vector :math:`[e; p]` (the index as an extra coordinate), share
    :math:`p^2 / (p^2 + \lVert e\rVert^2)`. ``design="sinusoidal"``: :math:`e + PE(p)`,
    share :math:`\lVert PE(p)\rVert^2 / (\lVert PE(p)\rVert^2 + \lVert e\rVert^2)` (the two
    are nearly orthogonal in high dimension, so the squared norms nearly add).
    """
    ps = _validate.integer_positions("positions", positions)
    width = _validate.even_width("d_model", d_model)
    embedding_sq = (toy_embeddings(1000, width) ** 2).sum(axis=1)
    if design == "raw":
        position_sq = ps.astype(np.float64) ** 2
    elif design == "sinusoidal":
        position_sq = (numeric.sinusoidal(np.abs(ps), width) ** 2).sum(axis=1)
    else:
        raise ValueError(f"design must be 'raw' or 'sinusoidal', got {design!r}")
    share = position_sq[:, None] / (position_sq[:, None] + embedding_sq[None, :])
    return np.asarray(share.mean(axis=1), dtype=np.float64)


def position_share_limit_proof(*, design: str = "raw") -> Proof:
    r"""Prove :math:`\lim_{p\to\infty} p^2/(p^2 + c) = 1` for every ``c > 0`` (raw index).

    With ``design="sinusoidal"`` (a wrong candidate for "the position swamps the
    embedding") the share of one pair is :math:`(\sin^2 + \cos^2)/(\sin^2 + \cos^2 + c)`,
    which Pythagoras reduces to :math:`1/(1 + c)`: the residual against 1 is not zero.
    """
    p = sp.Symbol("p", positive=True)
    c = sp.Symbol("c", positive=True)
    derivation = Derivation()
    if design == "raw":
        share = p**2 / (p**2 + c)
        derivation.note("Share of the squared norm held by the raw index", sp.latex(share))
        limit = sp.limit(share, p, sp.oo)
        derivation.note("Limit as p → ∞ (sympy.limit)", sp.latex(limit))
    elif design == "sinusoidal":
        pair = sp.sin(p) ** 2 + sp.cos(p) ** 2
        share = pair / (pair + c)
        derivation.note("Share held by one sine/cosine pair", sp.latex(share))
        limit = share.subs(sp.sin(p) ** 2, 1 - sp.cos(p) ** 2)
        limit = sp.expand(sp.together(limit))
        derivation.note(
            "Substitute sin²p = 1 − cos²p (Pythagoras): same for every p", sp.latex(limit)
        )
    else:
        raise ValueError(f"design must be 'raw' or 'sinusoidal', got {design!r}")
    residual = sp.Matrix([sp.together(limit - 1)])
    derivation.note("Residual: the limit minus 1", sp.latex(residual[0]))
    return derivation.proof(
        f"the position's share tends to 1 ({design})",
        r"\lim_{p \to \infty} \frac{p^2}{p^2 + \lVert e \rVert^2} = 1",
        residual,
    )


def normalised_index(n: int) -> Float64Array:
    """The normalised index ``p / n`` for the positions ``0 .. n-1`` of a sentence of ``n``."""
    length = _validate.positive_int("n", n)
    return np.arange(length, dtype=np.float64) / length


def neighbour_gap_proof(lengths: tuple[int, ...] = (4, 40), *, gap: Any = None) -> Proof:
    r"""Prove that neighbours differ by :math:`1/n` under the normalised index.

    The residual stacks :math:`(p+1)/n - p/n - g(n)` for a symbolic ``n`` and, for each
    length in ``lengths``, its value with that ``n`` substituted. The true gap is
    :math:`g(n) = 1/n`; pass ``gap`` (an expression in the symbol ``n``) to test a wrong one.
    """
    p = sp.Symbol("p", integer=True, nonnegative=True)
    n = sp.Symbol("n", integer=True, positive=True)
    candidate = 1 / n if gap is None else gap
    derivation = Derivation()
    difference = (p + 1) / n - p / n
    derivation.note("Neighbour gap under the normalised index", r"\frac{p+1}{n} - \frac{p}{n}")
    residual = sp.Matrix([difference - candidate])
    residual = derivation.apply(
        "Residual against the gap, multiplied out (expand)", residual, sp.expand
    )
    values = [sp.expand(difference.subs(n, m)) for m in lengths]
    derivation.note(
        "The gap in sentences of " + " and ".join(str(m) for m in lengths) + " tokens",
        r",\ ".join(rf"n = {m}:\ {sp.latex(v)}" for m, v in zip(lengths, values, strict=True)),
    )
    residual = sp.Matrix(
        [residual[0], *(sp.expand((difference - candidate).subs(n, m)) for m in lengths)]
    )
    return derivation.proof(
        "neighbour gap of the normalised index",
        r"\frac{p+1}{n} - \frac{p}{n} = \frac{1}{n}",
        residual,
    )


def offset_distance_proof(*, cos_frequency_factor: Any = 1) -> Proof:
    r"""Prove :math:`\lVert v(p+k) - v(p)\rVert^2 = 2 - 2\cos\omega k` for one pair, free of ``p``.

    :math:`v(p) = (\sin\omega p, \cos\omega p)`. Pass ``cos_frequency_factor`` (e.g. 2) for a
    wrong candidate whose cosine turns at another frequency: its residual keeps ``p``.
    """
    p, k = sp.Symbol("p", real=True), sp.Symbol("k", real=True)
    w = sp.Symbol("omega", positive=True)
    a = cos_frequency_factor * w
    diff = sp.Matrix([sp.sin(w * (p + k)) - sp.sin(w * p), sp.cos(a * (p + k)) - sp.cos(a * p)])
    derivation = Derivation()
    derivation.note(
        "Residual: squared distance between the pair at p + k and at p, minus 2 − 2 cos ωk",
        rf"\lVert {sp.latex(diff)} \rVert^2 - (2 - 2\cos \omega k)",
    )
    residual = sp.Matrix([(diff.T * diff)[0] - (2 - 2 * sp.cos(w * k))])
    residual = derivation.apply(
        "Multiply out and expand the arguments (expand)", residual, sp.expand
    )
    residual = derivation.apply("Angle-addition formulas (expand_trig)", residual, sp.expand_trig)
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "the same offset looks the same at every position",
        r"\lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i} \bigl(2 - 2\cos \omega_i k\bigr)",
        residual,
    )


def pair_bounded_proof(*, second: Any = None) -> Proof:
    r"""Prove :math:`\sin^2 \omega p + \cos^2 \omega p = 1`: every pair lies on the unit circle.

    So every entry is in ``[-1, 1]`` and :math:`\lVert PE(p) \rVert^2 = d/2`. ``second``
    replaces the cosine entry by another expression in ``p`` (a wrong candidate, e.g. the
    raw index ``p``).
    """
    p = sp.Symbol("p", real=True)
    w = sp.Symbol("omega", positive=True)
    other = sp.cos(w * p) if second is None else second
    derivation = Derivation()
    residual = sp.Matrix([sp.sin(w * p) ** 2 + other**2 - 1])
    derivation.note("Residual: squared norm of the pair minus 1", sp.latex(residual[0]))
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "each pair lies on the unit circle",
        r"\sin^2 \omega_i p + \cos^2 \omega_i p = 1 \implies |PE(p, j)| \le 1",
        residual,
    )


def row_distance_by_offset(
    offsets: npt.ArrayLike, d_model: int, *, base: float = 10000.0
) -> Float64Array:
    r""":math:`\lVert PE(p+k) - PE(p)\rVert = \sqrt{\sum_i (2 - 2\cos\omega_i k)}` for each offset ``k``.

    By :func:`offset_distance_proof` this is the distance between any two rows ``k`` apart.
    """
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("row_distance_by_offset", ks.size * width, 16)
    omega = numeric.frequencies(width, base)
    squared = (2.0 - 2.0 * np.cos(np.multiply.outer(ks, omega))).sum(axis=1)
    return np.asarray(np.sqrt(np.maximum(squared, 0.0)), dtype=np.float64)


def smallest_row_distance(n_positions: int, d_model: int) -> tuple[float, int, int]:
    """Smallest distance between two distinct rows of the table of ``n`` positions, by brute force.

    Returns the distance and the two positions. Works from the Gram matrix of the table
    (``n x n``), so keep ``n`` to a few thousand.
    """
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("the Gram matrix", 3 * count * count, 8)
    table = numeric.sinusoidal(count, width)
    norms = (table**2).sum(axis=1)
    squared = norms[:, None] + norms[None, :] - 2.0 * table @ table.T
    np.fill_diagonal(squared, np.inf)
    flat = int(np.argmin(squared))
    p, q = divmod(flat, count)
    return float(np.sqrt(max(squared[p, q], 0.0))), min(p, q), max(p, q)


def offset_distances(
    offsets: npt.ArrayLike,
    starts: npt.ArrayLike,
    d_model: int,
    *,
    design: str = "sinusoidal",
    n: int = 4,
) -> Float64Array:
    r"""Distances :math:`\lVert E(p+k) - E(p)\rVert` for each start ``p`` (rows) and offset ``k`` (columns).

    ``design="sinusoidal"`` uses the encoding; ``design="normalised"`` uses ``p / n`` with
    the sentence length ``n``.
    """
    ks = _validate.integer_positions("offsets", offsets)
    ps = _validate.integer_positions("starts", starts)
    width = _validate.even_width("d_model", d_model)
    if design == "sinusoidal":
        far = numeric.sinusoidal(np.add.outer(ps, ks).ravel(), width)
        near = numeric.sinusoidal(ps, width)
        diff = far.reshape(ps.size, ks.size, width) - near[:, None, :]
        return np.asarray(np.sqrt((diff**2).sum(axis=2)), dtype=np.float64)
    if design == "normalised":
        length = _validate.positive_int("n", n)
        return np.abs(np.add.outer(ps, ks) - ps[:, None]) / float(length)
    raise ValueError(f"design must be 'sinusoidal' or 'normalised', got {design!r}")
