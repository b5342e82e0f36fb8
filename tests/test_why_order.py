"""Chapter why-order: attention against a loop re-implementation, the equivariance proof and
check with their wrong candidates, the two sentences, the RNN contrast."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pe import attention as attn
from pe import numeric, symbolic_attention
from pe._tolerance import ELEMENTARY_ULPS
from pe.chapters import why_order as proofs
from pe.claims import Candidate
from tests.helpers import wrong

WRONG_SIDES = (wrong.INVARIANCE, wrong.CAUSAL_MASK, wrong.POSITIONS_ADDED)


def loop_attention(x: np.ndarray, w: attn.AttentionWeights, causal: bool = False) -> np.ndarray:
    """Self-attention written out with Python loops and math.exp (independent of pe)."""
    n, d = x.shape
    q, k, v = x @ w.w_q, x @ w.w_k, x @ w.w_v
    out = np.zeros((n, d))
    for i in range(n):
        keys = range(i + 1) if causal else range(n)
        scores = [sum(q[i, c] * k[j, c] for c in range(d)) / math.sqrt(d) for j in keys]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        for j, wj in zip(keys, weights, strict=True):
            out[i] += wj / total * v[j]
    return out


def loop_rnn(x: np.ndarray, w: attn.RnnWeights) -> np.ndarray:
    h = np.zeros(w.w_h.shape[0])
    for token in x:
        h = np.array(
            [
                math.tanh(
                    sum(w.w_x[r, c] * token[c] for c in range(token.size))
                    + sum(w.w_h[r, c] * h[c] for c in range(h.size))
                    + w.b[r]
                )
                for r in range(h.size)
            ]
        )
    return h


@pytest.mark.parametrize("causal", [False, True])
def test_attention_matches_a_loop_implementation(causal: bool) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((7, 6))
    w = attn.AttentionWeights(*(rng.standard_normal((6, 6)) for _ in range(3)))
    np.testing.assert_allclose(
        attn.attention(x, w, causal=causal), loop_attention(x, w, causal), atol=1e-12
    )


def test_causal_first_output_is_the_first_value() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 4))
    w = attn.toy_attention(4)
    out = attn.attention(x, w, causal=True)
    np.testing.assert_allclose(out[0], x[0] @ w.w_v, atol=1e-14)


def test_each_row_alone_equals_the_batched_output() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((9, 8))
    w = attn.toy_attention(8)
    batched = attn.attention(x, w)
    for i in range(9):
        np.testing.assert_allclose(attn.attention_row(x, w, i), batched[i], atol=1e-13)


def test_permutation_matrix_moves_rows() -> None:
    x = np.arange(12.0).reshape(4, 3)
    order = [2, 0, 3, 1]
    np.testing.assert_array_equal(attn.permutation_matrix(order) @ x, x[order])


@pytest.mark.parametrize("bad", [[0, 0, 1], [1, 2, 3], [0, 2]])
def test_permutation_matrix_refuses_non_permutations(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="order must be a permutation"):
        attn.permutation_matrix(bad)


def test_symbolic_equivariance_holds_for_every_permutation() -> None:
    proof = proofs.equivariance(n=3, d_model=2)
    assert proof.holds
    assert len(proof.residual) == math.factorial(3) * 3 * 2
    assert all(entry == 0 for entry in proof.residual)


def test_symbolic_equivariance_for_two_tokens() -> None:
    assert proofs.equivariance(n=2, d_model=2).holds


@pytest.mark.parametrize("candidate", WRONG_SIDES, ids=lambda c: c.name)
def test_symbolic_proof_rejects_wrong_candidates(candidate: Candidate[attn.Sides]) -> None:
    proof = proofs.equivariance(candidate.value, n=3, d_model=1)
    assert not proof.holds
    assert any(entry != 0 for entry in proof.residual)


def test_symbolic_proof_notes_the_positions_and_the_mask() -> None:
    added = proofs.equivariance(wrong.POSITIONS_ADDED.value, n=2, d_model=1)
    assert any("position vectors E" in step.title for step in added.steps)
    causal = proofs.equivariance(wrong.CAUSAL_MASK.value, n=2, d_model=1)
    plain = proofs.equivariance(n=2, d_model=1)
    assert len(causal.steps) == len(plain.steps) == len(added.steps) - 1


def test_symbolic_proof_refuses_large_sizes() -> None:
    with pytest.raises(ValueError, match="n <= 4"):
        proofs.equivariance(n=5, d_model=2)


@pytest.mark.parametrize(("n", "d", "seed"), [(32, 64, 0), (8, 16, 1), (50, 128, 2)])
def test_numeric_equivariance(n: int, d: int, seed: int) -> None:
    result = attn.check_equivariance(n=n, d_model=d, seed=seed)
    assert result.passed, result.summary()
    assert result.max_abs_error <= result.tolerance
    assert result.summary().endswith("holds")


@pytest.mark.parametrize("candidate", WRONG_SIDES, ids=lambda c: c.name)
def test_numeric_equivariance_rejects_wrong_candidates(
    candidate: Candidate[attn.Sides],
) -> None:
    result = attn.check_equivariance(candidate.value, 32, 64)
    assert not result.passed
    assert result.max_abs_error > 1e6 * result.tolerance
    assert result.summary().endswith("does not hold")


def test_equivariance_against_every_permutation_of_four_tokens() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 6))
    w = attn.toy_attention(6)
    base = loop_attention(x, w)
    for order in itertools.permutations(range(4)):
        np.testing.assert_allclose(attn.attention(x[list(order)], w), base[list(order)], atol=1e-13)


def test_dog_bites_man_same_outputs_without_positions() -> None:
    pair = attn.sentence_pair(d_model=64)
    assert pair.word_gap <= pair.tolerance
    # the multiset: sort the rows of both outputs and compare
    first = pair.first[np.lexsort(pair.first.T[::-1])]
    second = pair.second[np.lexsort(pair.second.T[::-1])]
    np.testing.assert_allclose(first, second, atol=1e-13)


def test_the_encoding_changes_the_output_of_dog() -> None:
    vocab = attn.toy_vocabulary(64)
    w = attn.toy_attention(64)
    pe_rows = numeric.sinusoidal(3, 64)
    one = np.stack([vocab[t] for t in attn.SENTENCE]) + pe_rows
    two = np.stack([vocab[t] for t in attn.SWAPPED]) + pe_rows
    out_one, out_two = loop_attention(one, w), loop_attention(two, w)
    pair = attn.sentence_pair(attn.SINUSOIDAL, 64)
    np.testing.assert_allclose(pair.first, out_one, atol=1e-12)
    # word r of the first sentence stands at position 2 - r in the second
    gaps = [np.abs(out_one[r] - out_two[2 - r]).max() for r in range(3)]
    assert max(gaps) == pytest.approx(pair.word_gap, abs=1e-12)
    assert min(gaps[0], gaps[2]) > 0.1  # dog and man moved


def test_a_constant_encoding_does_not_break_the_symmetry() -> None:
    pair = attn.sentence_pair(wrong.CONSTANT_ENCODING.value, 64)
    assert pair.word_gap <= pair.tolerance
    assert attn.sentence_pair(wrong.SINUSOIDAL_ENCODING.value, 64).word_gap > 0.1


def test_rnn_matches_a_loop_implementation_and_reads_order() -> None:
    vocab = attn.toy_vocabulary(16)
    w = attn.toy_rnn(16, hidden=5)
    x = attn.sentence_matrix(attn.SENTENCE, vocab)
    np.testing.assert_allclose(attn.rnn_states(x, w)[-1], loop_rnn(x, w), atol=1e-14)
    swapped = attn.sentence_matrix(attn.SWAPPED, vocab)
    assert np.abs(loop_rnn(x, w) - loop_rnn(swapped, w)).max() > 1e-3


def test_rnn_without_recurrence_forgets_the_order() -> None:
    assert attn.rnn_final_gap(wrong.FORGETFUL_READER.value, 64) <= 1e-14
    assert attn.rnn_final_gap(d_model=64) > 0.1


def test_rnn_steps_need_the_previous_state() -> None:
    assert attn.row_independence_gap(wrong.RECURRENT_STEPS.value, 8, 16) > 1e-3
    assert attn.row_independence_gap(n=8, d_model=16) <= 1e-13
    encoded = attn.row_independence_gap(n=8, d_model=16, encoding=attn.SINUSOIDAL)
    assert encoded <= 1e-13


def test_toy_objects_are_deterministic() -> None:
    a, b = attn.toy_vocabulary(8), attn.toy_vocabulary(8)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert np.array_equal(attn.toy_attention(8).w_q, attn.toy_attention(8).w_q)


def test_bad_input_is_refused_with_a_clear_message() -> None:
    w = attn.toy_attention(4)
    with pytest.raises(ValueError, match="x must be a non-empty real 2-D array"):
        attn.attention(np.zeros(4), w)
    with pytest.raises(ValueError, match=r"weights\.w_q must be \(5, 5\) to match x"):
        attn.attention(np.zeros((3, 5)), w)
    with pytest.raises(ValueError, match="x must be finite"):
        attn.attention(np.full((2, 4), np.nan), w)
    with pytest.raises(ValueError, match="i must be < n"):
        attn.attention_row(np.zeros((3, 4)), w, 3)
    with pytest.raises(ValueError, match="not in the vocabulary"):
        attn.sentence_matrix(("cat",), attn.toy_vocabulary(4))
    with pytest.raises(ValueError, match="d_model must be even"):
        attn.check_equivariance(n=4, d_model=5)


def test_attention_cost_is_counted_not_assumed() -> None:
    proof = proofs.layer_cost()
    assert proof.holds
    # The count at each size is the law's value: n^2 d for QK^T plus n^2 d for AV.
    assert "(n, d) = (4, 3): 96" in proof.steps[0].title
    assert not proofs.layer_cost(wrong.RECURRENT_COST.value).holds
    assert not proofs.layer_cost(lambda n, d: 2 * n * n * d + 1).holds


def test_rnn_cost_is_linear_in_the_length() -> None:
    assert proofs.layer_cost(symbolic_attention.rnn_cost_law, recurrent=True).holds
    assert not proofs.layer_cost(wrong.ATTENTION_COST.value, recurrent=True).holds


@pytest.mark.parametrize(
    ("layer", "steps", "holds"),
    [
        (symbolic_attention.symbolic_attention_layer, symbolic_attention.one_step, True),
        (symbolic_attention.symbolic_elman_layer, symbolic_attention.recurrent_steps, True),
        (wrong.CAUSAL_LAYER.value, symbolic_attention.one_step, False),
        (wrong.RECURRENT_LAYER.value, symbolic_attention.one_step, False),
        (symbolic_attention.symbolic_elman_layer, wrong.ONE_STEP.value, False),
        (symbolic_attention.symbolic_attention_layer, symbolic_attention.recurrent_steps, False),
    ],
)
def test_path_lengths(
    layer: symbolic_attention.SymbolicLayer, steps: symbolic_attention.StepLaw, holds: bool
) -> None:
    assert proofs.path_lengths(layer, steps, n=3, d_model=2).holds is holds


def test_path_lengths_counts_each_update_of_the_recurrence() -> None:
    # Token 1 reaches the last of 5 states through 5 updates: the one wrong entry is caught.
    def off_by_one(i: int, j: int) -> object:
        return symbolic_attention.recurrent_steps(i, j) if (i, j) != (4, 0) else 4

    assert not proofs.path_lengths(symbolic_attention.symbolic_elman_layer, off_by_one, n=5).holds


@pytest.mark.parametrize(("n", "d_model"), [(1, 1), (7, 1), (3, 3)])
def test_path_lengths_refuses_sizes_it_cannot_expand(n: int, d_model: int) -> None:
    with pytest.raises(ValueError, match="n"):
        proofs.path_lengths(n=n, d_model=d_model)


@pytest.mark.parametrize("encoding", [attn.SINUSOIDAL, wrong.CONSTANT_ENCODING.value])
def test_the_symmetry_card_prints_the_gap_relative_to_the_scale(encoding: Any) -> None:
    """The encoding-breaks-symmetry card prints the word gap, then that gap as a share of the
    output scale. As measured, the share is gap / scale; on the site, where the gap is
    within the rounding bound B (the constant vector), it reads "below" B / scale rounded up
    to two digits: a bound the share is under, the same on every machine."""
    pair = attn.sentence_pair(encoding, 64)
    evidence = proofs._symmetry_broken(encoding)
    pattern = r"differ by (below )?(\S+), (below )?(\S+) of the output scale (\S+) "
    measured_line = re.search(pattern, evidence.text)
    assert measured_line is not None, evidence.text
    share = pair.word_gap / pair.scale
    assert (
        abs(float(measured_line.group(4)) - share)
        <= 10.0 ** (math.floor(math.log10(share)) - 2) / 2
    )
    site = re.search(pattern, evidence.shown)
    assert site is not None, evidence.shown
    if pair.word_gap <= pair.tolerance:
        assert site.group(1) == site.group(3) == "below "
        ratio_bound = pair.tolerance / pair.scale
        last_digit = 10.0 ** (math.floor(math.log10(ratio_bound)) - 1)
        assert ratio_bound <= float(site.group(4)) < ratio_bound + last_digit
        assert share <= float(site.group(4))
    else:
        assert site.group(4) == measured_line.group(4)


def _gamma(m: int) -> Fraction:
    """Higham's gamma_m = m u / (1 - m u), u = 2^-53, exactly."""
    u = Fraction(1, 2**53)
    return m * u / (1 - m * u)


@pytest.mark.parametrize(("n", "d"), [(4, 2), (5, 3), (8, 6)])
def test_the_attention_bound_in_a_case_computable_by_hand(n: int, d: int) -> None:
    """W_q = W_k = 0, W_v = I: every score is 0, every weight 1/n, the output each column's
    mean. The module's model then reads B_Q = B_K = B_S = 0, r_ij = eps (the exponential),
    |dA_ij| / A_ij <= 2 eps + gamma_(n-1) + u, B_V = gamma_d |X|, so every entry of column c
    is bounded by (gamma_n + 2 eps + gamma_(n-1) + u + gamma_d) * mean_j |X_jc|; and the
    computed outputs are within it of the exact means."""
    x = np.random.default_rng(n).standard_normal((n, d))
    weights = attn.AttentionWeights(np.zeros((d, d)), np.zeros((d, d)), np.eye(d))
    bound = attn.attention_error_bound(x, weights)
    eps = ELEMENTARY_ULPS * Fraction(1, 2**52)
    factor = _gamma(n) + 2 * eps + _gamma(n - 1) + Fraction(1, 2**53) + _gamma(d)
    out = attn.attention(x, weights)
    for c in range(d):
        column = [Fraction(float(v)) for v in x[:, c]]
        expected = factor * sum((abs(v) for v in column), Fraction(0)) / n
        exact_mean = sum(column, Fraction(0)) / n
        for i in range(n):
            assert abs(Fraction(float(bound[i, c])) - expected) <= expected * Fraction(8, 2**53)
            assert abs(Fraction(float(out[i, c])) - exact_mean) <= expected


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=48),
    half_width=st.integers(min_value=1, max_value=32),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_equivariance_holds_at_any_length_width_and_order(
    n: int, half_width: int, seed: int
) -> None:
    """The claim's statement is for every n, d and permutation: random ones, within the
    error model of the check (each entry within the rounding bound of its two sides)."""
    found = attn.check_equivariance(n=n, d_model=2 * half_width, seed=seed)
    assert found.passed, found.summary()


def test_a_random_elman_cell_has_the_documented_scales() -> None:
    """W_x ~ N(0, 1/d), W_h ~ N(0, 1/hidden): mean and variance of 40,000 and 160,000
    entries within six standard errors of their laws."""
    cell = attn.RnnWeights.gaussian(np.random.default_rng(1), 100, 400)
    for matrix, fan_in in ((cell.w_x, 100), (cell.w_h, 400)):
        size, variance = matrix.size, 1.0 / fan_in
        assert abs(matrix.mean()) < 6 * math.sqrt(variance / size)
        assert abs(matrix.var() / variance - 1.0) < 6 * math.sqrt(2.0 / size)
