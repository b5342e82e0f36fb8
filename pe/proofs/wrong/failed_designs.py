"""Named wrong candidates of the chapter "failed-designs"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric
from pe.experiments import failed_designs
from pe.proofs.wrong._candidate import Candidate

# --- failed-designs --------------------------------------------------------------------------


def _pair_share(p: Any, c: Any) -> Any:
    pair = sp.sin(p) ** 2 + sp.cos(p) ** 2
    return pair / (pair + c)


def _raw_index_pair(p: Any, w: Any) -> Any:
    return sp.Matrix([sp.sin(w * p), p])


def _doubled_cosine_pair(p: Any, w: Any) -> Any:
    return sp.Matrix([sp.sin(w * p), sp.cos(2 * w * p)])


def _learned_512(positions: Any, _n: int, d_model: int) -> npt.NDArray[np.float64]:
    table = np.random.default_rng(0).standard_normal((512, d_model))
    return np.asarray(table[positions], dtype=np.float64)


#: The share of one sine/cosine pair, :math:`(\sin^2 + \cos^2)/(\sin^2 + \cos^2 + c)`.
PAIR_SHARE: Candidate[Callable[[Any, Any], Any]] = Candidate("a sine/cosine pair", _pair_share)
#: The sinusoidal encoding added to the embedding, in place of the raw index.
SINUSOIDAL_DESIGN: Candidate[failed_designs.Design] = Candidate(
    "e + PE(p) (sinusoidal)", failed_designs.sinusoidal
)
#: The same neighbour gap 1/4 for every sentence length.
CONSTANT_GAP: Candidate[Callable[[Any], Any]] = Candidate(
    "gap 1/4 for every n", lambda _: sp.Rational(1, 4)
)
#: The gap :math:`1/(n-1)` (positions spread over [0, 1]).
GAP_ONE_OVER_N_MINUS_ONE: Candidate[Callable[[Any], Any]] = Candidate(
    "gap 1/(n-1)", lambda n: 1 / (n - 1)
)
#: The raw index ``p`` in place of the cosine of a pair.
RAW_INDEX_PAIR: Candidate[Callable[[Any, Any], Any]] = Candidate(
    "raw index p in place of the cosine", _raw_index_pair
)
#: Design 1, the raw index.
RAW_INDEX: Candidate[failed_designs.Design] = Candidate(
    "raw index at the same positions", failed_designs.raw_index
)
#: Design 2, the normalised index ``p / n``.
NORMALISED_INDEX: Candidate[failed_designs.Design] = Candidate("p/n", failed_designs.normalised)
#: One sine/cosine pair alone (width 2): it comes back near itself.
SINGLE_PAIR: Candidate[int] = Candidate("one pair alone", 2)
#: Four pairs (width 8): offset 6283 brings the row closer than a neighbour.
FOUR_PAIRS: Candidate[int] = Candidate("four pairs (d = 8)", 8)
#: A pair whose cosine turns at twice the sine's frequency.
DOUBLED_COSINE_PAIR: Candidate[Callable[[Any, Any], Any]] = Candidate(
    "cosine at twice the sine's frequency", _doubled_cosine_pair
)
#: A learned table of 512 rows: no row for a later position.
LEARNED_TABLE: Candidate[failed_designs.Design] = Candidate(
    "a learned table of 512 rows", _learned_512
)


def _float64_angles(positions: Any, _n: int, d: int) -> npt.NDArray[np.float64]:
    return np.asarray(numeric.sinusoidal_direct(np.abs(positions), d), dtype=np.float64)


#: The formula with its angles formed in float64: defined everywhere, off by order one at 2^53.
FLOAT64_ANGLES_DESIGN: Candidate[failed_designs.Design] = Candidate(
    "angles formed in float64", _float64_angles
)


def _rotated_from_first(positions: Any, _n: int, d: int) -> npt.NDArray[np.float64]:
    ps = np.abs(np.asarray(positions, dtype=np.int64))
    first = numeric.sinusoidal(ps[:1], d)[0]
    angle = np.multiply.outer((ps - ps[0]).astype(np.float64), numeric.frequencies(d))
    sin0, cos0 = first[0::2], first[1::2]
    rows = np.empty((ps.size, d))
    rows[:, 0::2] = sin0 * np.cos(angle) + cos0 * np.sin(angle)
    rows[:, 1::2] = cos0 * np.cos(angle) - sin0 * np.sin(angle)
    return rows


#: Rows rotated from the first requested row: right to rounding, but the bits depend on
#: which position came first.
ROTATED_FROM_FIRST: Candidate[failed_designs.Design] = Candidate(
    "rows rotated from the first one asked for", _rotated_from_first
)


def _log2_rounded_down(n: int) -> int:
    return n.bit_length() - 1


#: :math:`\lfloor \log_2 n \rfloor` bits: one too few unless ``n`` is a power of two.
LOG2_ROUNDED_DOWN: Candidate[Callable[[int], int]] = Candidate("⌊log₂ n⌋ bits", _log2_rounded_down)
#: A pair turning a rational fraction of a full turn per position (``2π/8``): it repeats.
RATIONAL_TURN: Candidate[float] = Candidate("ω = 2π/8, a rational fraction of a turn", np.pi / 4)
