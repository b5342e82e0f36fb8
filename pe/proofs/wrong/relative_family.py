"""Named wrong candidates of the chapter "relative-family"."""

from __future__ import annotations

from functools import partial

import numpy as np

from pe import relative
from pe.proofs import relative_family as _family_proofs
from pe.proofs.wrong._candidate import Candidate

# --- relative-family -------------------------------------------------------------------------
#: Absolute schemes, for the claim that relative ones give scores depending on i - j only.
LEARNED_ABSOLUTE = Candidate("learned absolute", ("learned absolute",))
SINUSOIDAL_ADDED = Candidate("sinusoidal (added)", ("sinusoidal (added)",))
#: Shaw et al.'s clip as far as a sequence of 20 reaches: no clipping.
NO_CLIPPING = Candidate("no clipping", 19)
#: Transformer-XL's sum with term (c) missing.
TERM_C_LEFT_OUT = Candidate("term (c) left out", ("a", "b", "d"))
#: T5 bucketings ``(rel, *, bidirectional, num_buckets, max_distance) -> buckets``.
UNCAPPED_BUCKETS = Candidate(
    "no cap at the last bucket",
    lambda rel, *, num_buckets, max_distance, **kw: relative.t5_bucket(
        rel, num_buckets=4 * num_buckets, max_distance=16 * max_distance, **kw
    ),
)
DIRECTION_FORGOTTEN = Candidate(
    "direction forgotten", lambda rel, **kw: relative.t5_bucket(-np.abs(np.asarray(rel)), **kw)
)
#: ALiBi slopes ``H -> m_h`` halving per head.
HALVING_SLOPES = Candidate("2^(-h)", lambda h: 2.0 ** -np.arange(1, h + 1, dtype=np.float64))
#: Equal-score attention without the causal mask: as a proof's mask and as a measurement.
NO_CAUSAL_MASK = Candidate(
    "no causal mask", _family_proofs.Mask("no mask: mean of all L values", lambda _i, n: n)
)
UNMASKED_MEAN = Candidate("no causal mask", partial(relative.causal_mean_attention, causal=False))
#: Context extensions ``(n, d, s) -> angles``: none at all, and NTK-aware base scaling read
#: as keeping every angle inside the trained window (it does not).
NO_INTERPOLATION = Candidate(
    "no interpolation", lambda n, d, _s: relative.position_interpolation(n, d, 1.0)
)
NTK_IN_RANGE = Candidate("NTK-aware base scaling", relative.base_scaling)
#: The pairs NTK scaling takes past the trained window, with the excess in percent: none
#: (the statement "without unseen angles"), or the slowest pair counted too.
NO_UNSEEN_PAIRS = Candidate("no pair beyond the trained window", (range(0), (0, 0)))
SLOWEST_PAIR_TOO = Candidate("pairs 41 to 63, the slowest too", (range(41, 64), (0, 62)))
#: Plain base scaling ``(b, s, d) -> b s``.
PLAIN_BASE_SCALING = Candidate("b' = b s", lambda b, s, _d: b * s)
