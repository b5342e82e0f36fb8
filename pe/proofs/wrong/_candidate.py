"""The :class:`Candidate` type and the signatures of the shared candidates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from pe.symbolic import Block

__all__ = ["Block", "Candidate", "ShiftMatrix"]

T = TypeVar("T")

#: A candidate shift matrix ``(k, d, base) -> (d, d) ndarray``.
ShiftMatrix = Callable[[int, int, float], npt.NDArray[np.float64]]


@dataclass(frozen=True)
class Candidate(Generic[T]):
    """A named value fed to a proof or a check in place of the true one.

    Attributes
    ----------
    name
        What the candidate is, as a reader would say it ("transposed block").
    value
        The candidate itself: a block, a matrix, a law, a number.
    """

    name: str
    value: T
