"""Named wrong candidates of the rotation identity: the shift block, the shift matrix and the group laws (and the chapters built on them)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric, symbolic
from pe.proofs.wrong._candidate import Block, Candidate, ShiftMatrix


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


def _doubled_frequency(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, 2 * w)


def _transposed_shift_matrix(k: int, d: int, base: float) -> npt.NDArray[np.float64]:
    return numeric.shift_matrix(k, d, base=base).T


def _flipped_sine_shift_matrix(k: int, d: int, base: float) -> npt.NDArray[np.float64]:
    matrix = numeric.shift_matrix(k, d, base=base)
    matrix[1::2, 0::2] *= -1.0
    return matrix


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
#: :math:`B(k, 2\omega)`: a rotation by the wrong angle.
DOUBLED_FREQUENCY_BLOCK: Candidate[Block] = Candidate(
    "block at twice the frequency", _doubled_frequency
)
#: The paper's block where the pairs are stored (cos, sin): wrong in that order.
PAPER_BLOCK: Candidate[Block] = Candidate("the paper's block", symbolic.shift_block)

# --- the shift matrix T_k ------------------------------------------------------------------
#: :math:`T_k^{\mathsf T}`, which is :math:`T_{-k}`.
TRANSPOSED_SHIFT_MATRIX: Candidate[ShiftMatrix] = Candidate(
    "transposed T_k", _transposed_shift_matrix
)
#: :math:`T_k` with the sign of every lower sine flipped: not orthogonal.
FLIPPED_SINE_SHIFT_MATRIX: Candidate[ShiftMatrix] = Candidate(
    "T_k with the lower sine's sign flipped", _flipped_sine_shift_matrix
)

# --- the group laws of T_k: offsets and laws -----------------------------------------------
#: :math:`T_1` offered as the identity (the true offset is 0).
OFFSET_ONE: Candidate[int] = Candidate("T_1", 1)
#: The law :math:`T_a T_b = T_{a-b}` (offsets subtract).
OFFSETS_SUBTRACT: Candidate[Callable[[Any, Any], Any]] = Candidate("T_(a-b)", operator.sub)
#: The inverse offset :math:`+k`: :math:`T_{-k} = T_k`.
INVERSE_IS_SELF: Candidate[Callable[[Any], Any]] = Candidate("T_(-k) = T_k", operator.pos)
