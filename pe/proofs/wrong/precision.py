"""Named wrong candidates of the chapter "precision"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _extended_precision, numeric
from pe.experiments.precision import (
    HalfAngles,
    rotation_with_float64_angles,
    rounded_angles,
)
from pe.proofs.wrong._candidate import Candidate, ShiftMatrix
from pe.recipes import chained_rotation, float32_recipe


# --- precision -------------------------------------------------------------------------------
def _conjugate_factor(q: Any, w: Any) -> Any:
    return sp.cos(w * q) + sp.I * sp.sin(w * q)


def _swapped_factor(q: Any, w: Any) -> Any:
    return sp.sin(w * q) - sp.I * sp.cos(w * q)


def _chained(positions: Any, d: int) -> Any:
    return chained_rotation(int(np.max(positions)) + 1, d)[positions]


def _other_base_shift_matrix(k: int, d: int, base: float) -> npt.NDArray[np.float64]:
    return numeric.shift_matrix(k, d, base=base * 1.001)


def _nudged_shift_matrix(k: int, d: int, base: float) -> npt.NDArray[np.float64]:
    matrix = numeric.shift_matrix(k, d, base=base)
    matrix[4, 4] += 1e-9  # far below any plotting precision, far above float64's
    return matrix


#: :math:`\cos \omega q + \mathrm{i}\sin \omega q` for the complex shift factor: a shift by -q.
CONJUGATE_FACTOR: Candidate[Callable[[Any, Any], Any]] = Candidate(
    "factor cos + i sin", _conjugate_factor
)
#: :math:`\sin \omega q - \mathrm{i}\cos \omega q`: sine and cosine swapped in the factor.
SWAPPED_FACTOR: Candidate[Callable[[Any, Any], Any]] = Candidate(
    "factor sin - i cos", _swapped_factor
)
#: :math:`T_k` built with base 10010 instead of 10000: slightly wrong frequencies.
OTHER_BASE_SHIFT_MATRIX: Candidate[ShiftMatrix] = Candidate(
    "T_k with base 10010", _other_base_shift_matrix
)
#: :math:`T_k` with one entry off by ``1e-9``.
NUDGED_SHIFT_MATRIX: Candidate[ShiftMatrix] = Candidate(
    "T_k with one entry off by 1e-9", _nudged_shift_matrix
)
#: Table methods ``(positions, d) -> table`` that miss the float64 or float32 bounds.
DIRECT_FLOAT64_TABLE: Candidate[Callable[[Any, int], Any]] = Candidate(
    "direct float64 evaluation", numeric.sinusoidal_direct
)
FLOAT64_ANGLE_ANCHORS: Candidate[Callable[[Any, int], Any]] = Candidate(
    "rotation with anchors from float64 angles", rotation_with_float64_angles
)
FLOAT32_RECIPE: Candidate[Callable[[Any, int], Any]] = Candidate(
    "the float32 recipe", float32_recipe
)
#: The direct float64 evaluation rounded to float32: close, but not correctly rounded.
DIRECT_FLOAT32_TABLE: Candidate[Callable[[Any, int], Any]] = Candidate(
    "direct float64 evaluation rounded to float32",
    lambda positions, d: numeric.sinusoidal_direct(positions, d).astype(np.float32),
)
#: The statement "float64 tables are correctly rounded" (true: they are not).
CORRECTLY_ROUNDED_64: Candidate[bool] = Candidate("correctly rounded in float64", True)
#: The float32 angle rounded once to float16, read as the cause of GPT-NeoX #1003's 1045.
ROUNDED_ANGLES: Candidate[HalfAngles] = Candidate(
    "the float32 angle rounded to float16", rounded_angles
)
#: Rows chained by one complex multiplication each, z(p + 1) = z(p) u, in complex64 and
#: never re-anchored: the rounding errors add up along the rows.
CHAINED_COMPLEX64: Candidate[Callable[[Any, int], Any]] = Candidate(
    "rows chained z(p+1) = z(p) u in complex64 without re-anchoring", _chained
)
#: The frequencies of d = 512, base 10000, in turns, kept to two doubles (about 106 bits)
#: instead of three: too coarse to reduce angles near 2^53 to 1e-24 rad.
TWO_DOUBLE_FREQUENCIES: Candidate[tuple[npt.NDArray[np.float64], ...]] = Candidate(
    "frequencies kept in two doubles (about 106 bits)",
    _extended_precision.frequency_turns(512, 10000.0)[:2],
)
