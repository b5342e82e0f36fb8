"""Named wrong candidates of the chapter "implications"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric
from pe.experiments import implications as _measured
from pe.proofs import implications as _implications
from pe.proofs.wrong._candidate import Candidate

# --- implications ----------------------------------------------------------------------------


def _double_angle_cosine(k: Any, w: Any) -> Any:
    return sp.cos(2 * k * w)


def _mixed_frequency_pair(p: Any, w: Any) -> Any:
    return sp.Matrix([sp.sin(w * p), sp.cos(2 * w * p)])


def _sum_angle_chord(p: Any, q: Any, w: Any) -> Any:
    return 2 - 2 * sp.cos(w * (p + q))


def _binary_counter(d: int) -> npt.NDArray[np.float64]:
    return np.asarray(2 * np.pi / 2.0 ** np.arange(1, d // 2 + 1))


def _pair0_at_slowest(d: int) -> npt.NDArray[np.float64]:
    omega = numeric.frequencies(d)
    omega[0] = omega[-1]
    return omega


def _pair0_period_8(d: int) -> npt.NDArray[np.float64]:
    omega = numeric.frequencies(d)
    omega[0] = 2 * np.pi / 8
    return omega


#: Right side of the one-pair dot product :math:`\cos 2\omega k` instead of :math:`\cos\omega k`.
DOUBLE_ANGLE_COSINE: Candidate[Callable[[Any, Any], Any]] = Candidate(
    "cos(2ωk)", _double_angle_cosine
)
#: Frequencies :math:`\omega_i^2 = 10000^{-4i/d}`: the exponent doubled (a power of 2).
DOUBLED_EXPONENT: Candidate[int] = Candidate("doubled exponent", 2)
#: :math:`T_1` between the two rows (the shift placed between them, 0 being none).
SHIFT_BETWEEN_ROWS: Candidate[int] = Candidate("T_1 between the rows", 1)
#: Statements about :math:`f(k) = PE(p) \cdot PE(p+k)`, d = 512, as (first k with
#: f(k+1) > f(k), first k with f(k) < 0), None for never: "it falls steadily and stays
#: positive", and "it rises, but never turns negative".
MONOTONE_DECAY: Candidate[tuple[int | None, int | None]] = Candidate(
    "falls steadily, stays positive", (None, None)
)
RISES_STAYS_POSITIVE: Candidate[tuple[int | None, int | None]] = Candidate(
    "rises at k = 44 but stays positive", (43, None)
)
#: The pair :math:`(\sin\omega p, \cos 2\omega p)`.
MIXED_FREQUENCY_PAIR: Candidate[Callable[[Any, Any], Any]] = Candidate(
    "pair (sin ωp, cos 2ωp)", _mixed_frequency_pair
)
#: Squared norm :math:`d` instead of :math:`d/2` (per dimension 1 instead of 1/2).
NORM_SQUARED_D: Candidate[Any] = Candidate("norm² = d", sp.Integer(1))
#: :math:`2 - 2\cos\omega(p+q)`: the sum of the positions instead of their difference.
SUM_ANGLE_DISTANCE: Candidate[Callable[[Any, Any, Any], Any]] = Candidate(
    "2 − 2cos ω(p+q)", _sum_angle_chord
)
#: Frequencies :math:`2\pi/2^{j}`, ``j = 1 .. d/2``, as in a binary counter.
BINARY_COUNTER: Candidate[_measured.FrequencyLaw] = Candidate(
    "frequencies 2π/2^j (a binary counter)", _binary_counter
)
#: Blocks that turn pair 0 by the angle of the slowest pair.
PAIR0_SLOWEST_ANGLE: Candidate[_measured.FrequencyLaw] = Candidate(
    "pair 0 turned by pair d/2 − 1's angle", _pair0_at_slowest
)
#: Pair 0 at :math:`\omega = 2\pi/8`: period 8, a whole fraction of a turn.
RATIONAL_PERIOD: Candidate[_measured.FrequencyLaw] = Candidate(
    "pair 0 with ω = 2π/8 (period 8)", _pair0_period_8
)
#: The score with only the content-content and position-position terms.
CROSS_TERMS_DROPPED: Candidate[tuple[int, ...]] = Candidate("cross terms dropped", (0, 3))
#: :math:`e_p^{\mathsf T} W e_q` with the :math:`p - q` terms only.
DIFFERENCE_ONLY: Candidate[Callable[[Any], Any]] = Candidate(
    "p − q terms only", _implications.difference_terms
)
#: :math:`W = I`: the raw dot product, a function of :math:`q - p`.
IDENTITY_PROJECTION: Candidate[_measured.Projection] = Candidate("W = I", _measured.IDENTITY)


def _coupled_rotation(rng: np.random.Generator, d: int) -> npt.NDArray[np.float64]:
    w = _measured.ROTATION.build(rng, d)
    w[0:2, 2:4] += np.eye(2)  # couples pair 0 to pair 1
    return w


#: Scaled rotations on the diagonal (each block passes the per-pair condition) and one
#: non-zero block coupling pairs 0 and 1.
COUPLED_ROTATION_PROJECTION: Candidate[_measured.Projection] = Candidate(
    "scaled rotations plus one block coupling pairs 0 and 1",
    _measured.Projection("rotations plus a coupling block", _coupled_rotation),
)
#: Random :math:`W_q^{\mathsf T} W_k`.
RANDOM_PROJECTION: Candidate[_measured.Projection] = Candidate("random W", _measured.RANDOM)
#: :math:`W` made of scaled rotations, which commute with every :math:`T_k`.
ROTATION_PROJECTION: Candidate[_measured.Projection] = Candidate(
    "W of scaled rotations", _measured.ROTATION
)


def _binary_turn(i: int, _d: int) -> sp.Expr:
    return sp.pi / 2**i


#: Frequencies that are whole fractions of a turn, :math:`\omega_b = \pi / 2^b` (a binary
#: counter's bits as angles): position ``2^(b+1)`` brings pair ``b`` back exactly.
BINARY_TURNS: Candidate[Callable[[int, int], sp.Expr]] = Candidate(
    "omega_b = pi / 2^b (a binary counter)", _binary_turn
)
