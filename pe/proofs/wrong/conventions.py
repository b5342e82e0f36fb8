"""Named wrong candidates of the chapter "conventions"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import conventions, numeric, symbolic
from pe.experiments import conventions as _experiments
from pe.proofs import conventions as _layouts
from pe.proofs.wrong._candidate import Candidate

# --- conventions -----------------------------------------------------------------------------


def _unconjugated(_perm: Any, shift: Any) -> Any:
    return shift


def _transposed_conjugation(perm: Any, shift: Any) -> Any:
    return perm.T @ shift @ perm


def _uniform_noise() -> npt.NDArray[np.float64]:
    return np.random.default_rng(0).uniform(-1, 1, size=(200, 64))


def _noisy_paper() -> npt.NDArray[np.float64]:
    noise = np.random.default_rng(1).normal(0, 0.01, size=(200, 64))
    return np.clip(numeric.sinusoidal(200, 64) + noise, -1, 1)


def _zeros() -> npt.NDArray[np.float64]:
    return np.zeros((100, 64))


_HALVES: tuple[conventions.Layout, conventions.Order] = ("halves", "sin-first")
#: The paper's :math:`T_k` used as is on a halves table (no conjugation by ``P``).
UNCONJUGATED_SHIFT: Candidate[_layouts.ShiftInLayout] = Candidate(
    "T_k not conjugated",
    _layouts.ShiftInLayout(_unconjugated, (_HALVES,), "the paper's T_k on halves"),
)
#: :math:`P^{\mathsf T} T_k P`: conjugated by the inverse permutation.
TRANSPOSED_CONJUGATION: Candidate[_layouts.ShiftInLayout] = Candidate(
    "P^T T_k P instead", _layouts.ShiftInLayout(_transposed_conjugation, (_HALVES,), "P^T T_k P")
)
#: The paper's (sin, cos) blocks on an interleaved (cos, sin) table.
COS_FIRST_UNCONJUGATED: Candidate[_layouts.ShiftInLayout] = Candidate(
    "the paper's blocks in (cos, sin) order",
    _layouts.ShiftInLayout(_unconjugated, (("interleaved", "cos-first"),), "the paper's T_k"),
)
#: Exponents of the base for tensor2tensor's law (true: :math:`d/(d-2)`).
T2T_EXPONENT_D_MINUS_1: Candidate[Any] = Candidate(
    "base b^(d/(d-1))", symbolic.D / (symbolic.D - 1)
)
T2T_SAME_BASE: Candidate[Any] = Candidate("the same base b", sp.Integer(1))
#: The one-indexed law read as the wider paper table with the base unchanged (true:
#: :math:`b^{(d+2)/d}`).
ONE_INDEXED_SAME_BASE: Candidate[Any] = Candidate("the same base b", sp.Integer(1))
#: The doubled exponent read as the base cubed (true: squared).
BASE_CUBED: Candidate[int] = Candidate("the base cubed", 3)
#: The paper's table ``(n, d) -> (n, d)``: every pair at one frequency, so a shift matrix exists.
PAPER_TABLE: Candidate[Callable[[int, int], npt.NDArray[Any]]] = Candidate(
    "the paper's table", numeric.sinusoidal
)


def _swapped_partners(n: int, d: int) -> npt.NDArray[Any]:
    table = numeric.sinusoidal(n, d)
    cosines = table[:, 1::2].copy()
    cosines[:, 0::2], cosines[:, 1::2] = table[:, 3::4], table[:, 1::4]
    table[:, 1::2] = cosines
    return table


#: The paper's table with the cosines of pairs 2j and 2j + 1 swapped: sine and cosine differ
#: in frequency within every pair, yet every sine has its cosine in another column.
SWAPPED_PARTNERS: Candidate[Callable[[int, int], npt.NDArray[Any]]] = Candidate(
    "cosines of neighbouring pairs swapped", _swapped_partners
)
#: Tables that are not sinusoidal encodings (makers ``() -> (n, d)``), for ``identify``.
UNIFORM_NOISE_TABLE: Candidate[Callable[[], npt.NDArray[np.float64]]] = Candidate(
    "uniform random table", _uniform_noise
)
NOISY_PAPER_TABLE: Candidate[Callable[[], npt.NDArray[np.float64]]] = Candidate(
    "paper table + noise 0.01 (learned-like)", _noisy_paper
)
ZERO_TABLE: Candidate[Callable[[], npt.NDArray[np.float64]]] = Candidate("all zeros", _zeros)


#: The counter-clockwise phase :math:`\mathrm{i}\,e^{\mathrm{i}\theta}` for the (sin, cos) pair.
COUNTER_CLOCKWISE_PHASE: Candidate[Callable[[Any], Any]] = Candidate(
    "i e^(i theta), the turn of (cos, sin) pairs", lambda theta: sp.I * sp.exp(sp.I * theta)
)
#: The page's description with tensor2tensor dividing by d/2 (the paper's divisor).
T2T_DESCRIBED_WITH_HALF_WIDTH: Candidate[_experiments.Description] = Candidate(
    "tensor2tensor dividing by d/2",
    _experiments.DESCRIPTION._replace(
        laws={
            **_experiments.DESCRIPTION.laws,
            "tensor2tensor": lambda k, d, b: np.exp(-k * np.log(b) / (d / 2)),
        }
    ),
)
#: The page's description with fairseq-style tables starting at position 1.
FAIRSEQ_FROM_ONE: Candidate[_experiments.Description] = Candidate(
    "fairseq-style tables starting at 1",
    _experiments.DESCRIPTION._replace(first_position={"fairseq-tokens": 1}),
)
#: The page's description with the interleaved pair in columns (2k + 1, 2k).
INTERLEAVED_SWAPPED: Candidate[_experiments.Description] = Candidate(
    "interleaved pair k in columns 2k + 1, 2k",
    _experiments.DESCRIPTION._replace(
        columns={
            **_experiments.DESCRIPTION.columns,
            "interleaved": lambda k, _d: (2 * k + 1, 2 * k),
        }
    ),
)

#: The alias taken as :math:`\pi - \omega` (a half turn) instead of :math:`2\pi - \omega`.
HALF_TURN_ALIAS: Candidate[Callable[[Any], Any]] = Candidate("π − ω", lambda omega: sp.pi - omega)

#: A default ``atol`` of :math:`4\varepsilon` that does not grow with the number of rows.
FLAT_PAPER_TOLERANCE: Candidate[Callable[[int, Any], float]] = Candidate(
    "4 eps, not growing with n", lambda _n, dtype: 4 * float(np.finfo(dtype).eps)
)
