"""pe.symbolic_attention: the symbolic softmax, the multiplication counts against the cost
laws, and the nonlinear steps between a token and an output."""

from __future__ import annotations

import pytest
import sympy as sp

from pe import symbolic_attention as sym


@pytest.mark.parametrize("causal", [False, True])
def test_the_symbolic_softmax_weights_each_row_over_its_keys(causal: bool) -> None:
    """Row r of the symbolic attention weights sums to exactly 1 over its keys, 0..r with a
    causal mask (r + 1 keys, row 0 attending to itself) and all n without; the rest are 0."""
    n = 4
    scores = sp.Matrix(n, n, lambda r, c: sp.Symbol(f"s_{r}{c}", real=True))
    weights = sym.symbolic_softmax(scores, causal)
    for r in range(n):
        keys = range(r + 1) if causal else range(n)
        assert sp.cancel(sp.Add(*weights.row(r)) - 1) == 0
        assert [c for c in range(n) if weights[r, c] != 0] == list(keys)


@pytest.mark.parametrize(("n", "d"), [(2, 1), (3, 2), (5, 3)])
def test_the_counts_follow_the_cost_laws_and_tell_them_apart(n: int, d: int) -> None:
    # n^2 d products for QK^T, n^2 d for AV; 2 d^2 per Elman step.
    assert sym.attention_multiplications(n, d) == 2 * n * n * d
    assert sym.elman_multiplications(n, d) == 2 * n * d * d
    assert sym.attention_cost_law(n, d) != sym.rnn_cost_law(n, d)


def test_the_depth_counts_nested_nonlinearities_only() -> None:
    a, b = sp.symbols("a b")
    token = frozenset({a})
    assert sym.nonlinear_depth(a * b + 1, token) == 0
    assert sym.nonlinear_depth(sp.exp(sp.tanh(a) + b), token) == 2
    assert sym.nonlinear_depth(sp.exp(b), token) is None


def test_the_step_counts_of_a_causal_head_leave_later_tokens_unreachable() -> None:
    x = sym.symbolic_matrix("x", 3, 1)
    counts = sym.step_counts(sym.causal_attention_layer(x), x)
    # Row 0 attends to itself alone: its softmax weight is exactly 1, no exp is left.
    assert counts == sp.Matrix([[0, sp.oo, sp.oo], [1, 1, sp.oo], [1, 1, 1]])
    assert counts != sp.Matrix(3, 3, sym.one_step)
