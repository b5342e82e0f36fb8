r"""Named wrong candidates: the neighbouring statements a reader might believe.

Every proof, claim and test that must reject a wrong candidate takes it from here, so
that one wrong block has one definition. A :class:`Candidate` is a value with a name;
claims pass it to the same proof or check that the true candidate passes
(:class:`pe.claims.Check`), and the registry prefixes its verdict with the name.

The candidates for the shift block :math:`B(k, \omega)` are functions
``(k, w) -> 2 x 2 sympy.Matrix`` (the signature of :func:`pe.symbolic.shift_block`);
for the shift matrix :math:`T_k` they are functions ``(k, d, base) -> ndarray`` (the
signature of :func:`pe.numeric.shift_matrix`); for the RoPE rotation they are functions
``(position, w) -> 2 x 2 sympy.Matrix``.

Examples
--------
>>> import sympy as sp
>>> from pe import symbolic
>>> from pe.proofs import wrong
>>> k, w = sp.symbols("k w", real=True)
>>> wrong.TRANSPOSED_BLOCK.value(k, w) == symbolic.shift_block(-k, w)
True
>>> wrong.TRANSPOSED_BLOCK.name
'transposed block'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric, symbolic

__all__ = [
    "NOT_A_ROTATION",
    "SCALED_BLOCK",
    "SWAPPED_BLOCK",
    "TEXTBOOK_ROTATION",
    "TRANSPOSED_BLOCK",
    "TRANSPOSED_SHIFT_MATRIX",
    "Candidate",
]

T = TypeVar("T")

#: A candidate block ``(k, w) -> 2 x 2 sympy.Matrix``.
Block = Callable[[Any, Any], Any]
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


def _transposed(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, w).T


def _scaled(k: Any, w: Any) -> Any:
    return 2 * symbolic.shift_block(k, w)


def _not_a_rotation(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [s, c]])


def _textbook(k: Any, w: Any) -> Any:
    return symbolic.rotation(k * w)


def _swapped(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[s, c], [-c, s]])


def _transposed_shift_matrix(k: int, d: int, base: float) -> npt.NDArray[np.float64]:
    return numeric.shift_matrix(k, d, base=base).T


# --- the shift block B(k, w) (rotation-identity and the chapters built on it) -------------
#: :math:`B^{\mathsf T}`: the shift by :math:`-k` (the most common slip).
TRANSPOSED_BLOCK: Candidate[Block] = Candidate("transposed block", _transposed)
#: :math:`2B`: right direction, wrong length.
SCALED_BLOCK: Candidate[Block] = Candidate("block scaled by 2", _scaled)
#: :math:`[[c, s], [s, c]]`: not a rotation at all.
NOT_A_ROTATION: Candidate[Block] = Candidate("[[c, s], [s, c]]", _not_a_rotation)
#: The textbook :math:`R(k\omega)`: right for (cos, sin) order only.
TEXTBOOK_ROTATION: Candidate[Block] = Candidate("textbook R(kω)", _textbook)
#: Sine and cosine swapped in the block.
SWAPPED_BLOCK: Candidate[Block] = Candidate("sin and cos swapped", _swapped)

# --- the shift matrix T_k ------------------------------------------------------------------
#: :math:`T_k^{\mathsf T}`, which is :math:`T_{-k}`.
TRANSPOSED_SHIFT_MATRIX: Candidate[ShiftMatrix] = Candidate(
    "transposed T_k", _transposed_shift_matrix
)

# --- why-order -------------------------------------------------------------------------------
# --- failed-designs --------------------------------------------------------------------------
# --- sinusoidal-encoding ---------------------------------------------------------------------
# --- implications ----------------------------------------------------------------------------
# --- fixed-or-learned ------------------------------------------------------------------------
# --- conventions -----------------------------------------------------------------------------
# --- precision -------------------------------------------------------------------------------
# --- rope ------------------------------------------------------------------------------------
# --- relative-family -------------------------------------------------------------------------
