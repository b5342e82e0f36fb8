r"""Position designs: ways to write a position into the vectors a layer reads.

A design maps the positions of a sentence of ``n`` tokens to rows, ``(positions, n, d) ->
rows`` (:data:`Design`). The chapter "Designs that fail" sets three of them side by side:

- the raw index (:func:`raw_index`): position ``p`` written into the vector as the number
  ``p``, as one extra coordinate, :math:`[e; p]`. It is unbounded: its share of the squared
  norm, :math:`p^2 / (p^2 + \lVert e \rVert^2)`, tends to 1 (:func:`position_share`), so
  far positions swamp the token embedding ``e``; against the typical size of an embedding
  entry it grows like ``p`` (:func:`raw_index_ratio`);
- the normalised index (:func:`normalised`, :func:`normalised_index`): :math:`p / n` in a
  sentence of ``n`` tokens. It is bounded, but the gap between neighbours is :math:`1/n`,
  and the value of a given position changes with the length of its sentence
  (:func:`offset_distances`);
- the sinusoidal encoding (:func:`sinusoidal`): :math:`PE(|p|)`, added to the embedding;
  bounded, and the distance of two rows depends on their offset only.

The token embeddings are :func:`pe.embeddings.random_embeddings` with the seed
:data:`SEED`.

Examples
--------
>>> raw_index(np.array([0, 7]), 2, 8).tolist()
[[0.0], [7.0]]
>>> normalised_index(4).tolist()
[0.0, 0.25, 0.5, 0.75]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric
from pe.embeddings import random_embeddings

__all__ = [
    "SEED",
    "Design",
    "normalised",
    "normalised_index",
    "offset_distances",
    "position_share",
    "raw_index",
    "raw_index_ratio",
    "sinusoidal",
]

Float64Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: A way to write positions as numbers: ``(positions, n, d) -> rows``, one row per position
#: of a sentence of ``n`` tokens, for embeddings of width ``d``.
Design = Callable[[IntArray, int, int], Float64Array]


#: Seed of the random token embeddings the designs are measured against.
SEED = 4


def raw_index(positions: IntArray, _n: int, _d_model: int) -> Float64Array:
    """Design 1: the position ``p`` itself, as one extra coordinate (``n`` and ``d`` unused).

    Examples
    --------
    >>> raw_index(np.array([3]), 4, 8).tolist()
    [[3.0]]
    """
    return np.asarray(positions, dtype=np.float64)[:, None]


def normalised(positions: IntArray, n: int, _d_model: int) -> Float64Array:
    """Design 2: ``p / n``, as one extra coordinate, in a sentence of ``n`` tokens.

    Examples
    --------
    >>> normalised(np.array([1, 3]), 4, 8).tolist()
    [[0.25], [0.75]]
    """
    return np.asarray(positions, dtype=np.float64)[:, None] / n


def sinusoidal(positions: IntArray, _n: int, d_model: int) -> Float64Array:
    """The sinusoidal encoding :math:`PE(|p|)` of width ``d_model`` (``n`` unused).

    Examples
    --------
    >>> sinusoidal(np.array([0]), 1, 4).tolist()
    [[0.0, 1.0, 0.0, 1.0]]
    """
    return np.asarray(numeric.sinusoidal(np.abs(positions), d_model), dtype=np.float64)


def normalised_index(n: int) -> Float64Array:
    """The normalised index ``p / n`` for the positions ``0 .. n-1`` of a sentence of ``n``.

    Neighbours are :math:`1/n` apart: 0.25 for 4 tokens, 0.025 for 40.

    Examples
    --------
    >>> normalised_index(4).tolist()
    [0.0, 0.25, 0.5, 0.75]
    """
    length = _validate.positive_int("n", n)
    return np.arange(length, dtype=np.float64) / length


def raw_index_ratio(positions: npt.ArrayLike, d_model: int = 512) -> Float64Array:
    r"""Ratio of the raw index ``p`` to the typical size of an embedding entry.

    The typical size is the root mean square of the entries of 1000 random embeddings
    (:func:`pe.embeddings.random_embeddings`, seed :data:`SEED`), about 1; the ratio is
    then about ``p``.

    Examples
    --------
    >>> ratio = raw_index_ratio([10, 100], 64)
    >>> round(float(ratio[1] / ratio[0]), 6)
    10.0
    """
    ps = _validate.integer_positions("positions", positions).astype(np.float64)
    rms = float(np.sqrt(np.mean(random_embeddings(1000, d_model, SEED) ** 2)))
    return np.asarray(np.abs(ps) / rms, dtype=np.float64)


def position_share(design: Design, positions: npt.ArrayLike, d_model: int = 512) -> Float64Array:
    r"""Mean share of the squared norm that the position holds, over 1000 random embeddings.

    The share is :math:`\lVert E(p)\rVert^2 / (\lVert E(p)\rVert^2 + \lVert e\rVert^2)`:
    for the raw index the vector :math:`[e; p]` (the index as an extra coordinate), for the
    sinusoidal encoding :math:`e + PE(p)` (the two are nearly orthogonal in high dimension,
    so the squared norms nearly add).

    Examples
    --------
    >>> share = position_share(raw_index, [10, 1000], 64)
    >>> bool(share[0] < 0.9 < share[1])
    True
    """
    ps = _validate.integer_positions("positions", positions)
    width = _validate.even_width("d_model", d_model)
    embedding_sq = (random_embeddings(1000, width, SEED) ** 2).sum(axis=1)
    position_sq = (design(ps, ps.size, width) ** 2).sum(axis=1)
    share = position_sq[:, None] / (position_sq[:, None] + embedding_sq[None, :])
    return np.asarray(share.mean(axis=1), dtype=np.float64)


def offset_distances(
    design: Design,
    offsets: npt.ArrayLike,
    starts: npt.ArrayLike,
    d_model: int,
    n: int = 4,
) -> Float64Array:
    r"""Distances :math:`\lVert E(p+k) - E(p)\rVert` for each start ``p`` (rows) and offset ``k`` (columns).

    ``E`` is the ``design``, in a sentence of ``n`` tokens.

    Examples
    --------
    >>> offset_distances(normalised, [1], [0, 1], 2, n=4)
    array([[0.25],
           [0.25]])
    """
    ks = _validate.integer_positions("offsets", offsets)
    ps = _validate.integer_positions("starts", starts)
    width = _validate.even_width("d_model", d_model)
    length = _validate.positive_int("n", n)
    far = design(np.add.outer(ps, ks).ravel(), length, width)
    near = design(ps, length, width)
    diff = far.reshape(ps.size, ks.size, -1) - near[:, None, :]
    return np.asarray(np.sqrt((diff**2).sum(axis=2)), dtype=np.float64)
