"""Named wrong candidates of the chapter "sinusoidal-encoding"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import bug_zoo, conventions, numeric
from pe.experiments import sinusoidal_encoding as _facts
from pe.proofs import sinusoidal_encoding as _encoding
from pe.proofs.wrong._candidate import Candidate


# --- sinusoidal-encoding ---------------------------------------------------------------------
def _doubled_exponent_wavelength(i: Any, d: Any) -> Any:
    return 2 * sp.pi * sp.Integer(10000) ** (4 * i / d)


def _one_indexed_table(n: int, d: int) -> npt.NDArray[np.float64]:
    return np.asarray(conventions.get("one-indexed").table(n, d), dtype=np.float64)


#: The pair index read one-indexed, :math:`1 \le i \le d/2` (d = 512): pair 256 has no
#: columns and columns 0, 1 are never written.
ONE_INDEXED_PAIRS: Candidate[range] = Candidate("1 <= i <= d/2 (one-indexed)", range(1, 257))
#: The pair index read as a column index, :math:`0 \le i < d` (d = 512): 256 pairs too many.
PAIRS_AS_COLUMNS: Candidate[range] = Candidate("0 <= i < d (i read as a column)", range(512))
#: "i from 0 to d/2" read inclusively (d = 512): one pair too many.
INCLUSIVE_PAIRS: Candidate[range] = Candidate("0 <= i <= d/2 (inclusive)", range(257))
#: The stated last wavelength :math:`2\pi \cdot 10000` (the paper's sentence), one step too far.
LAST_WAVELENGTH_2PI_BASE: Candidate[_encoding.WavelengthLaw] = Candidate(
    "last = 2π·10000",
    _encoding.PAPER_WAVELENGTHS._replace(last=lambda _d: 2 * sp.pi * 10000, last_text="2π·10000"),
)
#: The doubled exponent :math:`4i/d`: the index already steps by 2 and is doubled again.
DOUBLED_EXPONENT_WAVELENGTHS: Candidate[_encoding.WavelengthLaw] = Candidate(
    "doubled exponent",
    _encoding.PAPER_WAVELENGTHS._replace(wavelength=_doubled_exponent_wavelength),
)
#: :math:`\omega_i^{(d)} = \omega_i^{(2d)}`: the index factor 1 instead of 2.
SAME_INDEX_WIDER: Candidate[int] = Candidate("ω_i(d) = ω_i(2d)", 1)
#: Doubling the width read as "one new frequency between each neighbouring pair" only:
#: (new ones between neighbours, new ones below the slowest) for d = 512.
ONLY_BETWEEN: Candidate[tuple[int, int]] = Candidate(
    "one between each neighbouring pair, none slower", (256, 0)
)
#: The doubled exponent's table ``(n, d) -> (n, d)``, with the doubled exponent.
DOUBLED_EXPONENT_TABLE: Candidate[Callable[[int, int], npt.NDArray[np.float64]]] = Candidate(
    "the doubled exponent", bug_zoo.doubled_exponent
)
#: The 1-indexed table ``(n, d) -> (n, d)``: every frequency the paper's next one.
ONE_INDEXED_TABLE: Candidate[Callable[[int, int], npt.NDArray[np.float64]]] = Candidate(
    "the 1-indexed frequencies", _one_indexed_table
)
#: The squared step :math:`\omega^2` of a pair: "one step moves a pair by exactly ω".
STEP_IS_OMEGA: Candidate[Callable[[Any], Any]] = Candidate("step = ω exactly", lambda w: w**2)
#: "sin² and cos² average to 0 over a period" (they average to 1/2): the power 2.
SQUARED_MEAN: Candidate[int] = Candidate("sin² and cos²", 2)
#: :math:`W[e; q] = W_e (e + q)`: one projection for both halves.
TIED_PROJECTION: Candidate[_encoding.Projection] = Candidate(
    "W_e (e + q)", lambda w_e, _w_q, e, q: w_e @ (e + q)
)


#: The paper's law rounded to whole turns every 10000 positions: a law for which 10000
#: *would* be a length (every row repeats 10000 positions later).
WHOLE_TURNS_PER_BASE: Candidate[npt.NDArray[np.float64]] = Candidate(
    "frequencies rounded to whole turns per 10000 positions (period 10000)",
    2 * np.pi * np.round(numeric.frequencies(512) * 10_000 / (2 * np.pi)) / 10_000,
)
#: The matrices reading the stream read as "queries, keys, values, output".
QKV_AND_OUTPUT_READ: Candidate[tuple[str, ...]] = Candidate(
    "queries, keys, values and output", ("W_Q", "W_K", "W_V", "W_O")
)
#: PyTorch's default ``nn.Embedding`` initialisation, N(0, 1).
UNIT_EMBEDDING_INIT: Candidate[float] = Candidate("N(0, 1) entries (nn.Embedding's default)", 1.0)
#: Embeddings that share a direction with every encoding row (wrong: not isotropic).
SHARES_PE0: Candidate[_facts.Embeddings] = Candidate(
    "embeddings sharing PE(0)'s direction", _facts.embeddings_plus_pe0
)
#: Embeddings inside the span of the encoding rows (wrong: not isotropic).
MADE_OF_ROWS: Candidate[_facts.Embeddings] = Candidate(
    "embeddings made of encoding rows", _facts.encoding_row_embeddings
)
