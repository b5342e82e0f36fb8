"""Named wrong candidates of the chapter "rope"."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from pe import numeric, rotary, symbolic
from pe.experiments import rope as _rope_experiments
from pe.proofs.wrong._candidate import Candidate

# --- rope ------------------------------------------------------------------------------------
# RoPE rotations ``(position, w) -> 2 x 2 sympy.Matrix`` (true: pe.proofs.rope.rope_rotation).


def _last_partial_sum_bound(q: Any, k: Any, offsets: Any) -> tuple[Any, Any]:
    h = np.conj(q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2])
    step = float(np.abs(np.diff(np.append(h, 0.0))).max())
    phases = np.exp(1j * np.multiply.outer(offsets, numeric.frequencies(q.size)))
    return step * np.abs(phases.sum(axis=1)), rotary.abel_bound(q, k, offsets)[1]


#: :math:`R(p\omega)^{\mathsf T}`: the other way round (still relative, offset reversed).
TRANSPOSED_ROTATION = Candidate("transposed rotation", lambda p, w: symbolic.rotation(p * w).T)
#: :math:`2R(p\omega)` and :math:`R(p^2\omega)`: wrong length; an angle not linear in p.
SCALED_ROTATION = Candidate("rotation scaled by 2", lambda p, w: 2 * symbolic.rotation(p * w))
SQUARED_ANGLE = Candidate("angle p² ω", lambda p, w: symbolic.rotation(p**2 * w))
#: ``rope(x, -p)`` in place of :func:`pe.rotary.rope`.
FLIPPED_ROPE = Candidate(
    "rope with the sign of the angle flipped",
    lambda x, ps, pairing="adjacent": rotary.rope(x, -np.asarray(ps), pairing=pairing),
)
#: Pairing permutations ``d -> perm``: the inverse of P, and none.
TRANSPOSED_PERMUTATION = Candidate(
    "P^T in place of P", lambda d: np.argsort(rotary.pairing_permutation(d))
)
NO_PERMUTATION = Candidate("no permutation", lambda d: np.arange(d, dtype=np.int64))
#: Converting weights ``(permute, q, k) -> (q', k')`` by permuting only the query side.
ONLY_QUERY_PERMUTED = Candidate("only q permuted (rows of W_q)", lambda f, q, k: (f(q), k))
#: ``(W, R, v) -> W R v``: rotating the input before the projection.
ROTATE_BEFORE_PROJECTING = Candidate("rotate before projecting", lambda w, r, v: w * r * v)
#: Projections ``(W_q, W_k)`` that keep the additive encoding relative.
IDENTITY_PROJECTIONS = Candidate("W_q = W_k = I", (((1, 0), (0, 1)), ((1, 0), (0, 1))))
#: Right sides ``(h, S, N) -> expr`` of summation by parts: S_j for S_(j+1); the sign flipped.
PARTIAL_SUM_SHIFTED = Candidate(
    "S_j in place of S_{j+1}",
    lambda h, s, n: -sp.Add(*[s[j] * (h[j + 1] - h[j]) for j in range(n)]),
)
ABEL_SIGN_FLIPPED = Candidate(
    "sign flipped", lambda h, s, n: sp.Add(*[s[j + 1] * (h[j + 1] - h[j]) for j in range(n)])
)
#: A "bound" ``(q, k, offsets) -> (bound, scores)`` that keeps only the last partial sum.
LAST_PARTIAL_SUM = Candidate(
    "max|h_{i+1} − h_i| · |S_N(r)| (last partial sum only)", _last_partial_sum_bound
)
#: Angle dtypes held to the float64 tolerance; a tolerance too strict for float16 angles.
FLOAT32_ANGLES = Candidate("angles in float32", "float32")
FLOAT16_ANGLES = Candidate("angles in float16", "float16")
FLOAT32_TOLERANCE = Candidate("float16 angles, tolerance for float32 angles", "float32")
#: Relative scores after W_q, W_k (RoPE), and a monotone sequence (ALiBi's bias).
ROPE_AFTER_PROJECTION = Candidate("RoPE after W_q, W_k", _rope_experiments.rope_after_projection)
ALIBI_SEQUENCE = Candidate("ALiBi's bias -r/2", _rope_experiments.alibi_score_sequence)
#: A plain rope ``x -> x'`` turning every pair the other way (``rope(x, -p)``).
PLAIN_ROPE_BACKWARDS = Candidate(
    "each pair turned by -p w_i", lambda x: rotary.rope(x, -np.arange(len(x)))
)
