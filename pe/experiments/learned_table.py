r"""Learned absolute position embeddings against the fixed sinusoidal table.

A learned table is a trainable ``(n_max, d)`` array: :math:`n_{\max} d` parameters, one row
per position seen in training and no row beyond. The sinusoidal table has no parameters
and a value at every position, but being *defined* at a position is not the same as the
model having *seen* it: beyond the training length the low-frequency pairs reach angles no
training position produced (:func:`unseen_pairs`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric

__all__ = ["LearnedPositions", "unseen_pairs"]


@dataclass
class LearnedPositions:
    """A learned absolute position table (initialised at random, as before training).

    Parameters
    ----------
    n_max
        The trained length: positions ``0 .. n_max - 1`` have a row.
    d_model
        The width.
    seed
        Seed of the random initialisation.
    """

    n_max: int
    d_model: int
    seed: int = 0
    table: npt.NDArray[np.float64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.n_max = _validate.positive_int("n_max", self.n_max)
        self.d_model = _validate.positive_int("d_model", self.d_model)
        _validate.capped_elements("the learned table", self.n_max * self.d_model, 8)
        rng = np.random.default_rng(self.seed)
        self.table = 0.02 * rng.standard_normal((self.n_max, self.d_model))

    @property
    def parameters(self) -> int:
        """Number of trainable numbers: the size of the table, ``n_max * d_model``."""
        return int(self.table.size)

    def lookup(self, positions: Any) -> npt.NDArray[np.float64]:
        """Rows for ``positions``; a position ``>= n_max`` has no row and is refused.

        Raises
        ------
        ValueError
            If a position is negative or ``>= n_max``.
        """
        ps = _validate.integer_positions("positions", positions)
        if ps.min() < 0 or ps.max() >= self.n_max:
            raise ValueError(
                f"positions must be in [0, {self.n_max - 1}]: a learned table has no row "
                f"for position {int(ps.max())}"
            )
        return self.table[ps]


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
    """
    omega = numeric.frequencies(d_model, base)
    n = _validate.positive_int("n_train", n_train)
    target = _validate.positive_int("position", position, minimum=0)
    _validate.capped_elements("unseen_pairs", n * omega.size, 16)
    offsets = target - np.arange(n, dtype=np.float64)
    nearest = (2.0 * np.abs(np.sin(np.multiply.outer(offsets, omega) / 2.0))).min(axis=0)
    step = 2.0 * np.sin(omega / 2.0)
    return np.asarray(nearest > step * (1.0 + 1e-9))
