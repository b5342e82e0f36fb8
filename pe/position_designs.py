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

The chapter "Fixed or learned" sets a learned table beside the sinusoidal one: a trainable
``(n_max, d)`` array (:class:`LearnedPositions`), :math:`n_{\max} d` parameters and no row
beyond the trained length. The sinusoidal table has a row everywhere, but beyond the
training length its slow pairs, those that complete no turn over the training positions
(:func:`turnless_pairs`), reach values no training position came close to
(:func:`unseen_pairs`; :func:`arc_counts` counts them independently, in mpmath).

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
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt

from pe import _validate, numeric
from pe.embeddings import random_embeddings

__all__ = [
    "SEED",
    "Design",
    "LearnedPositions",
    "arc_counts",
    "normalised",
    "normalised_index",
    "offset_distances",
    "position_share",
    "raw_index",
    "raw_index_ratio",
    "sinusoidal",
    "turnless_pairs",
    "unseen_pairs",
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


def position_share(design: Design, positions: npt.ArrayLike, d_model: int) -> Float64Array:
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


@dataclass
class LearnedPositions:
    """A learned absolute position table, as before training: each entry drawn from
    :math:`N(0, 0.02^2)`.

    Parameters
    ----------
    n_max
        The trained length: positions ``0 .. n_max - 1`` have a row.
    d_model
        The width.
    seed
        Seed of the random initialisation.

    Examples
    --------
    >>> LearnedPositions(8, 2).lookup([0, 7]).shape
    (2, 2)
    >>> LearnedPositions(16, 4).parameters
    64
    """

    n_max: int
    d_model: int
    seed: int = 0
    table: Float64Array = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.n_max = _validate.positive_int("n_max", self.n_max)
        self.d_model = _validate.positive_int("d_model", self.d_model)
        _validate.capped_elements("the learned table", self.n_max * self.d_model, 8)
        self.seed = _validate.positive_int("seed", self.seed, minimum=0)
        rng = np.random.default_rng(self.seed)
        self.table = 0.02 * rng.standard_normal((self.n_max, self.d_model))

    @property
    def parameters(self) -> int:
        """Number of trainable numbers: the size of the table, ``n_max * d_model``."""
        return int(self.table.size)

    def lookup(self, positions: Any) -> Float64Array:
        """Rows for ``positions``; a position ``>= n_max`` has no row and is refused.

        Raises
        ------
        ValueError
            If a position is negative or ``>= n_max``.
        """
        ps = _validate.integer_positions("positions", positions)
        _validate.capped_elements("lookup", ps.size * self.d_model, 8)
        if ps.min() < 0 or ps.max() >= self.n_max:
            raise ValueError(
                f"positions must be in [0, {self.n_max - 1}]: a learned table has no row "
                f"for position {int(ps.max())}"
            )
        return self.table[ps]


def turnless_pairs(d_model: int, n_train: int) -> npt.NDArray[np.bool_]:
    r"""Which pairs complete no turn over the training positions ``0 .. n_train - 1``.

    Pair ``i`` turns through :math:`(n - 1)\,\omega_i` radians from the first training
    position to the last; it completes no turn when that is below :math:`2\pi`.

    Examples
    --------
    >>> turnless_pairs(16, 32).tolist()
    [False, False, True, True, True, True, True, True]
    """
    n = _validate.positive_int("n_train", n_train)
    return np.asarray(numeric.frequencies(d_model) * (n - 1) < 2 * np.pi)


def unseen_pairs(
    d_model: int, n_train: int, position: int, *, base: float = 10000.0
) -> npt.NDArray[np.bool_]:
    r"""Which pairs take at ``position`` a value no training position came close to.

    Pair ``i`` at training positions ``0 .. n_train - 1`` visits the points
    :math:`v_i(p)` on its circle, consecutive points :math:`2\sin(\omega_i/2)` apart. The
    pair is *unseen* at ``position`` when its point is farther than that step from every
    training point: it lies outside the arc the training covered.

    Returns
    -------
    numpy.ndarray
        Boolean array of length ``d/2``.

    Examples
    --------
    >>> bool(unseen_pairs(16, 32, 10).any())
    False
    >>> int(unseen_pairs(64, 128, 1000).sum()) > 0
    True
    """
    omega = numeric.frequencies(d_model, base)
    n = _validate.positive_int("n_train", n_train)
    target = _validate.positive_int("position", position, minimum=0)
    _validate.capped_elements("unseen_pairs", n * omega.size, 16)
    offsets = target - np.arange(n, dtype=np.float64)
    nearest = (2.0 * np.abs(np.sin(np.multiply.outer(offsets, omega) / 2.0))).min(axis=0)
    step = 2.0 * np.sin(omega / 2.0)
    return np.asarray(nearest > step * (1.0 + 1e-9))


def arc_counts(d_model: int, n_train: int, position: int) -> tuple[int, int]:
    r"""The pairs that complete no turn in training, and those of them unseen at ``position``.

    An independent count in mpmath (40 digits), without :func:`unseen_pairs`: pair
    :math:`i` completes no turn when :math:`(n-1)\,\omega_i < 2\pi`; its training points
    then cover the arc :math:`[0, (n-1)\omega_i]`, and the point at ``position`` is unseen
    when its angle lies farther than :math:`\omega_i` from that arc (a pair that turns
    leaves no gap wider than :math:`\omega_i`, so none of its points is unseen).

    Examples
    --------
    >>> arc_counts(16, 32, 10), arc_counts(16, 32, 70)
    ((6, 0), (6, 5))
    """
    width = _validate.even_width("d_model", d_model)
    n = _validate.positive_int("n_train", n_train)
    target = _validate.positive_int("position", position, minimum=0)
    _validate.capped_elements("arc_counts", width // 2, 16)
    slow = unseen = 0
    with mpmath.workdps(40):
        turn = 2 * mpmath.pi
        for i in range(width // 2):
            omega = mpmath.power(10000, mpmath.mpf(-2 * i) / width)
            arc = (n - 1) * omega
            if arc >= turn:
                continue
            slow += 1
            angle = mpmath.fmod(target * omega, turn)
            # without a wrap the angle is a whole number of steps past the arc's end
            # (exactly one step, at position n, is a gap of omega: not farther)
            wrapped = target * omega >= turn
            beyond_end = angle - arc > omega if wrapped else target - (n - 1) > 1
            unseen += bool(beyond_end and turn - angle > omega)
    return slow, unseen
