"""Named wrong candidates of the chapter "why-order"."""

from __future__ import annotations

from typing import Any

from pe.experiments import why_order
from pe.proofs import why_order as proofs
from pe.proofs.wrong._candidate import Candidate

# --- why-order -------------------------------------------------------------------------------


def _invariant(attend: Any, x: Any, perm: Any, _positions: Any) -> tuple[Any, Any]:
    return attend(perm @ x, False), attend(x, False)


def _causal(attend: Any, x: Any, perm: Any, _positions: Any) -> tuple[Any, Any]:
    return attend(perm @ x, True), perm @ attend(x, True)


def _positions_added(attend: Any, x: Any, perm: Any, positions: Any) -> tuple[Any, Any]:
    return attend(perm @ x + positions, False), perm @ attend(x + positions, False)


#: :math:`\mathrm{Attn}(PX) = \mathrm{Attn}(X)`: forgets to reorder the outputs.
INVARIANCE: Candidate[why_order.Sides] = Candidate("invariance Attn(PX) = Attn(X)", _invariant)
#: Attention with a causal mask (token ``i`` sees tokens ``j <= i``): depends on the order.
CAUSAL_MASK: Candidate[why_order.Sides] = Candidate("causal mask", _causal)
#: Position vectors ``E`` added to the rows before attention: :math:`PX + E \ne P(X + E)`.
POSITIONS_ADDED: Candidate[why_order.Sides] = Candidate("position vectors added", _positions_added)
#: The sinusoidal encoding added to the words: the two sentences no longer agree.
SINUSOIDAL_ENCODING: Candidate[why_order.Encoding] = Candidate(
    "sinusoidal encoding", why_order.SINUSOIDAL
)
#: The same vector :math:`PE(0)` on every row: carries no order.
CONSTANT_ENCODING: Candidate[why_order.Encoding] = Candidate(
    "constant vector PE(0) on every row", why_order.CONSTANT_PE0
)
#: A reader with no memory: :math:`W_h = 0`, the states summed.
FORGETFUL_READER: Candidate[why_order.Summary] = Candidate(
    "W_h = 0, sum of the states", why_order.summed_states_without_recurrence
)
#: An Elman cell, whose step ``t`` computed alone (with :math:`h_{t-1} = 0`) is wrong.
RECURRENT_STEPS: Candidate[why_order.Layer] = Candidate(
    "Elman cell, h_t computed without h_(t-1)", why_order.elman_layer
)
#: A recurrent layer's count, :math:`2nd^2`: linear in the length.
RECURRENT_COST: Candidate[proofs.CostLaw] = Candidate("2nd², linear in n", proofs.rnn_cost_law)
#: Attention's count, :math:`2n^2d`, for an Elman layer.
ATTENTION_COST: Candidate[proofs.CostLaw] = Candidate(
    "2n²d, quadratic in n", proofs.attention_cost_law
)
#: Attention with a causal mask: a token's output does not see the tokens after it.
CAUSAL_LAYER: Candidate[proofs.SymbolicLayer] = Candidate(
    "causal mask", proofs.causal_attention_layer
)
#: An Elman network: the first token is ``n`` updates from the last state.
RECURRENT_LAYER: Candidate[proofs.SymbolicLayer] = Candidate("Elman network", proofs.elman_layer)
#: Attention's one step from every token, said of an Elman network.
ONE_STEP: Candidate[proofs.StepLaw] = Candidate("one step for every pair", proofs.one_step)
