"""Named wrong candidates of the chapter "fixed-or-learned"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pe.experiments import fixed_or_learned as _learned
from pe.proofs.wrong._candidate import Candidate

# --- fixed-or-learned ------------------------------------------------------------------------
#: Parameters :math:`(n_{\max} + 1) d`: a row for every position 0 to :math:`n_{\max}` inclusive.
ROW_FOR_N_MAX: Candidate[Callable[[int, int], int]] = Candidate(
    "(n_max + 1) d, rows for 0 .. n_max", lambda n_max, d: (n_max + 1) * d
)
#: Position 511, the last one of a training range 0 .. 511.
LAST_TRAINED_POSITION: Candidate[int] = Candidate("position 511, the last trained", 511)
#: Position 256, inside a training range 0 .. 511.
INSIDE_TRAINING: Candidate[int] = Candidate("position 256, inside training", 256)
#: The learned table of 512 rows used as an encoding ``(positions, d) -> rows``.
LEARNED_LOOKUP: Candidate[Callable[[Any, int], Any]] = Candidate(
    "a learned table of 512 rows",
    lambda positions, d: _learned.LearnedPositions(512, d).lookup(positions),
)
#: A stack without residual connections.
PLAIN_STACK: Candidate[_learned.Connection] = Candidate("no residual", _learned.PLAIN)
#: The paper's post-LN layer, :math:`h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))`.
POST_LN_STACK: Candidate[_learned.Connection] = Candidate(
    "post-LN (the paper's layer)", _learned.POST_LN
)
#: A residual stack whose first sublayer outputs :math:`-h_0`.
CANCELLING_SUBLAYER: Candidate[_learned.Connection] = Candidate(
    "a sublayer that cancels its input", _learned.CANCELLING
)
