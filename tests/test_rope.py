"""The rope chapter: pe.rotary against independent references, and the chapter pe.chapters.rope."""

from __future__ import annotations

import inspect
import math
import re
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp

from pe import _validate, position_scores, reference, rotary
from pe._tolerance import ToleranceCheck
from pe.chapters import rope as experiments
from pe.chapters import rope as proofs
from pe.claims import Candidate
from pe.error_models import ROTATION
from tests.helpers import wrong


def gptj_style(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Adjacent pairs, written as a plain loop: inv_freq = 1 / base**(arange(0, d, 2) / d)."""
    n, d = x.shape
    out = np.empty_like(x, dtype=np.float64)
    for row in range(n):
        for j in range(0, d, 2):
            inv_freq = 1.0 / base ** (j / d)
            t = float(positions[row]) * inv_freq
            a, b = float(x[row, j]), float(x[row, j + 1])
            out[row, j] = a * math.cos(t) - b * math.sin(t)
            out[row, j + 1] = b * math.cos(t) + a * math.sin(t)
    return out


def neox_style(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Halves pairs with rotate_half: x * cos + rotate_half(x) * sin, freqs repeated twice."""
    d = x.shape[1]
    inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    freqs = np.outer(positions.astype(np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[:, half:], x[:, :half]], axis=-1)
    return np.asarray(x * np.cos(emb) + rotated * np.sin(emb), dtype=np.float64)


@pytest.fixture
def sample() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    positions = np.array([0, 1, 2, 7, 100, 2048, 9999, 123_456])
    return rng.standard_normal((positions.size, 32)), positions


def test_adjacent_matches_a_gptj_style_loop(sample: tuple[np.ndarray, np.ndarray]) -> None:
    x, ps = sample
    expected = gptj_style(x, ps)
    np.testing.assert_allclose(rotary.rope(x, ps), expected, atol=1e-10)
    np.testing.assert_allclose(rotary.rope(x, ps, pairing="adjacent"), expected, atol=1e-10)


def test_halves_matches_a_neox_style_rotate_half(sample: tuple[np.ndarray, np.ndarray]) -> None:
    x, ps = sample
    np.testing.assert_allclose(rotary.rope(x, ps, pairing="halves"), neox_style(x, ps), atol=1e-10)


def test_the_pairings_are_different_functions(sample: tuple[np.ndarray, np.ndarray]) -> None:
    x, ps = sample
    assert not np.allclose(rotary.rope(x, ps, pairing="halves"), gptj_style(x, ps), atol=1e-3)
    assert not np.allclose(rotary.rope(x, ps), neox_style(x, ps), atol=1e-3)


def test_a_flipped_sign_is_rejected(sample: tuple[np.ndarray, np.ndarray]) -> None:
    x, ps = sample
    assert not np.allclose(wrong.FLIPPED_ROPE.value(x, ps), gptj_style(x, ps), atol=1e-3)


def test_entries_against_mpmath() -> None:
    x = np.array([[0.3, -1.25, 2.0, 0.5]])
    p = 31_337
    out = rotary.rope(x, np.array([p]))[0]
    for i in range(2):
        t = reference.angle(p, i, 4)
        with mpmath.workdps(reference.DPS):
            a, b = mpmath.mpf(x[0, 2 * i]), mpmath.mpf(x[0, 2 * i + 1])
            first, second = (
                a * mpmath.cos(t) - b * mpmath.sin(t),
                b * mpmath.cos(t) + a * mpmath.sin(t),
            )
        assert abs(out[2 * i] - float(first)) < 1e-11
        assert abs(out[2 * i + 1] - float(second)) < 1e-11


def test_rope_error_bound_holds_against_mpmath_and_follows_each_pairing() -> None:
    x = np.array([[0.3, -1.25, 2.0, 0.5]])
    p = 31_337
    bound = rotary.rope_error_bound(x, [p])[0]
    out = rotary.rope(x, np.array([p]))[0]
    for i in range(2):
        t = reference.angle(p, i, 4)
        with mpmath.workdps(reference.DPS):
            a, b = mpmath.mpf(x[0, 2 * i]), mpmath.mpf(x[0, 2 * i + 1])
            exact = (a * mpmath.cos(t) - b * mpmath.sin(t), b * mpmath.cos(t) + a * mpmath.sin(t))
        for j in (2 * i, 2 * i + 1):
            assert abs(out[j] - float(exact[j - 2 * i])) <= bound[j]
        # the pair's size |a| + |b| times the model at |p| w_i
        model = ROTATION(abs(x[0, 2 * i]) + abs(x[0, 2 * i + 1]), p * 10000.0 ** (-i / 2), 4)
        assert bound[2 * i] == bound[2 * i + 1] == pytest.approx(float(model), rel=1e-12, abs=0)
    halves = rotary.rope_error_bound(x, [p], pairing="halves")[0]
    assert halves[0] == halves[2] == pytest.approx(float(ROTATION(2.3, p, 4)), rel=1e-12, abs=0)
    assert halves[0] != bound[0]


def test_rope_is_a_rotation_and_keeps_dtype_and_batch_shape() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5, 16)).astype(np.float32)
    out = rotary.rope(x, 5, pairing="halves")
    assert out.shape == x.shape
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-5)
    np.testing.assert_array_equal(rotary.rope(x, 5)[:, 0], x[:, 0])  # position 0: identity


def test_pairing_permutation_maps_one_pairing_to_the_other() -> None:
    d = 16
    perm = rotary.pairing_permutation(d)
    # Hugging Face row r = Meta row 2r, row d/2 + r = Meta row 2r + 1
    for r in range(d // 2):
        assert perm[r] == 2 * r
        assert perm[d // 2 + r] == 2 * r + 1
    rng = np.random.default_rng(3)
    x, ps = rng.standard_normal((6, d)), np.array([0, 3, 17, 250, 4000, 77_777])
    back = np.argsort(perm)
    np.testing.assert_allclose(
        rotary.rope(x, ps, pairing="halves"), rotary.rope(x[:, back], ps)[:, perm], atol=1e-12
    )
    # the wrong direction (P^T rope(P x)) does not match for d > 4
    assert not np.allclose(
        rotary.rope(x, ps, pairing="halves"), rotary.rope(x[:, perm], ps)[:, back], atol=1e-3
    )
    assert experiments.permutation_error(rotary.pairing_permutation).holds
    for candidate in (wrong.TRANSPOSED_PERMUTATION, wrong.NO_PERMUTATION):
        assert experiments.permutation_error(candidate.value).error > 1e10  # type: ignore[operator]


def test_converted_weights_give_the_same_scores() -> None:
    rng = np.random.default_rng(4)
    d = 32
    w_q, w_k, x = (
        rng.standard_normal((d, d)),
        rng.standard_normal((d, d)),
        rng.standard_normal((9, d)),
    )
    perm, ps = rotary.pairing_permutation(d), np.arange(9) * 11
    meta = rotary.rope(x @ w_q.T, ps) @ rotary.rope(x @ w_k.T, ps).T
    hf = (
        rotary.rope(x @ w_q[perm].T, ps, pairing="halves")
        @ rotary.rope(x @ w_k[perm].T, ps, pairing="halves").T
    )
    np.testing.assert_allclose(hf, meta, atol=1e-9)
    unconverted = (
        rotary.rope(x @ w_q.T, ps, pairing="halves")
        @ rotary.rope(x @ w_k.T, ps, pairing="halves").T
    )
    assert not np.allclose(unconverted, meta, atol=1e-3)
    assert rotary.conversion_gap(rotary.permute_both).gap < 1e-12
    assert rotary.conversion_gap(wrong.ONLY_QUERY_PERMUTED.value).gap > 0.1


@pytest.mark.parametrize("pairing", ["adjacent", "halves"])
def test_scores_depend_only_on_the_offset_in_float64(pairing: Any) -> None:
    result = rotary.check_offset_dependence(
        64, np.array([0, 5, 999, 50_000, 10**6]), np.array([0, 3, -9, 400]), pairing=pairing
    )
    assert result.passed, result.summary()
    assert isinstance(result, ToleranceCheck)
    assert result.worst_ratio <= 1.0


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_low_precision_angles_break_the_float64_tolerance(dtype: str) -> None:
    ps, rs = np.array([0, 3000, 20_000, 60_000]), np.array([1, 7])
    own = rotary.check_offset_dependence(64, ps, rs, angle_dtype=dtype)
    assert own.passed, own.summary()  # within its own error model
    strict = rotary.check_offset_dependence(64, ps, rs, angle_dtype=dtype, model_dtype="float64")
    assert not strict.passed


def test_float16_angles_merge_positions_above_2048() -> None:
    angles = rotary.rope_angles(np.array([2048, 2049]), 8, angle_dtype="float16")
    assert angles[0, 0] == angles[1, 0]  # 2049 is not a float16 number
    assert rotary.rope_angles(np.array([2049]), 8)[0, 0] == 2049.0


def test_position_interpolation_divides_positions() -> None:
    np.testing.assert_allclose(
        rotary.rope_angles(np.array([0, 8, 400]), 16, scale=4.0),
        rotary.rope_angles(np.array([0, 2, 100]), 16),
        rtol=1e-15,
    )


def test_abel_bound_holds_and_scores_match_rope() -> None:
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    offsets = np.arange(-50, 3000, 7)
    bound, scores = rotary.abel_bound(q, k, offsets)
    direct = rotary.rope_scores(q, k, np.zeros_like(offsets), offsets)
    np.testing.assert_allclose(scores, direct, atol=1e-9)
    assert np.all(np.abs(scores) <= bound)
    assert experiments.decay_ratio(rotary.abel_bound) <= 1.0
    assert experiments.decay_ratio(wrong.LAST_PARTIAL_SUM.value) > 1.0


def test_abel_bound_is_the_summation_by_parts_bound_in_mpmath() -> None:
    """The bound as RoFormer writes it, recomputed in mpmath: max |h_(i+1) - h_i| with
    h_(d/2) = 0, times sum_j |S_j(r)|. Equal pair products make every step 0 but the last,
    |h_(d/2-1) - 0|, so the last step alone sets the bound."""
    q = np.tile([0.5, 0.0], 8)  # h_i = q_i k_i = 0.25 for every pair
    k = q.copy()
    offsets = np.array([0, 1, 5, 40, 333])
    bound, _ = rotary.abel_bound(q, k, offsets)
    omega = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / 16) for i in range(8)]
    with mpmath.workdps(40):
        for r, got in zip(offsets.tolist(), bound.tolist(), strict=True):
            partial = [mpmath.fsum(mpmath.expj(r * w) for w in omega[:j]) for j in range(1, 9)]
            want = mpmath.mpf("0.25") * mpmath.fsum(abs(s) for s in partial)
            assert abs(got - float(want)) <= 1e-12 * float(want), r


def test_the_complex_product_matches_and_a_flipped_sign_does_not() -> None:
    assert experiments.complex_product(rotary.rope).holds
    assert experiments.complex_product(wrong.FLIPPED_ROPE.value).error > 1e10  # type: ignore[operator]


def test_additive_scores_move_with_the_position_and_rope_scores_do_not() -> None:
    assert min(position_scores.offset_spreads(position_scores.additive_scores)) > 1.0
    assert max(position_scores.offset_spreads(wrong.ROPE_AFTER_PROJECTION.value)) < 1e-10


def test_rope_scores_rise_again_and_alibi_does_not() -> None:
    offsets = np.arange(0, 2001)
    for scores in experiments.rope_score_sequences(offsets).values():
        assert position_scores.largest_rise(scores) > 0.1 * np.abs(scores).max()
    for scores in wrong.ALIBI_SEQUENCE.value(offsets).values():
        assert position_scores.largest_rise(scores) <= 0
    sequences = experiments.rope_score_sequences(offsets)
    for label in ("bound (q=κ=1)", "s (q=κ=1)"):
        first, second, third = experiments.window_means(sequences[label])
        assert first > second > third


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: rotary.rope(np.ones((2, 5)), 2), ValueError),  # odd d
        (lambda: rotary.rope(np.ones((3, 4)), 2), ValueError),  # rows != positions
        (lambda: rotary.rope(np.ones(4), 1), ValueError),  # no position axis
        (lambda: rotary.rope(np.ones((2, 4)), [0.5, np.nan]), ValueError),  # NaN position
        (lambda: rotary.rope(np.ones((2, 4)), ["0", "1"]), TypeError),  # strings
        (lambda: rotary.rope(np.ones((2, 4)), 2, pairing="interleaved"), ValueError),  # type: ignore[arg-type]
        (lambda: rotary.rope(np.ones((2, 4)), 2, pairing=3), TypeError),  # type: ignore[arg-type]
        (lambda: rotary.rope("abcd", 1), TypeError),
        (lambda: rotary.rope(np.ones((2, 4), dtype=bool), 2), TypeError),
        (lambda: rotary.rope(np.ones((2, 4), dtype=complex), 2), TypeError),
        (lambda: rotary.rope(np.ones((2, 4)), 2, base=1.0), ValueError),
        (lambda: rotary.rope(np.ones((2, 4)), 2, scale=0.0), ValueError),
        (lambda: rotary.rope_angles([70_000], 4, angle_dtype="float16"), ValueError),
        (lambda: rotary.rope_angles([2**60], 4), ValueError),
        (lambda: rotary.pairing_permutation(7), ValueError),
        (lambda: rotary.rope_angles(2**28, 4096), ValueError),  # above pe.MAX_BYTES
    ],
)
def test_bad_input_gets_a_one_line_error(call: Any, error: type) -> None:
    with pytest.raises(error) as info:
        call()
    assert "\n" not in str(info.value)


# --- proofs ---------------------------------------------------------------------------------


def test_complex_form() -> None:
    assert proofs.complex_form().holds
    assert not proofs.complex_form(wrong.TRANSPOSED_ROTATION.value).holds


def test_relative_property_one_pair() -> None:
    proof = proofs.relative_property()
    assert proof.holds
    assert list(proof.residual) == [0]
    assert any("expand_trig" in s.title for s in proof.steps)


@pytest.mark.parametrize(
    "candidate", [wrong.SCALED_ROTATION, wrong.SQUARED_ANGLE, wrong.NOT_A_ROTATION]
)
def test_relative_property_rejects_wrong_rotations(candidate: Candidate[Any]) -> None:
    assert not proofs.relative_property(candidate.value).holds


def test_a_clockwise_rotation_is_also_relative() -> None:
    """The transposed block rotates the other way: still a function of the offset."""
    assert proofs.relative_property(wrong.TRANSPOSED_ROTATION.value).holds


def test_turned_back_the_offset_is_reversed_and_named_so() -> None:
    """The card's second statement, <R_m^T q, R_n^T kappa> = <q, R_{m-n} kappa>, is its own
    proof with its own title (not the first one's), and a squared angle fails it with an
    exact counter-example at integer positions."""
    proof = proofs.relative_property(turned_back=True)
    assert proof.holds
    assert proof.name == "RoPE relative property, turned the other way (one pair)"
    assert r"R_m^{\mathsf T} q, R_n^{\mathsf T} \kappa" in proof.statement
    assert r"R_{m-n}" in proof.statement
    squared = proofs.relative_property(wrong.SQUARED_ANGLE.value, turned_back=True)
    assert not squared.holds
    assert squared.counterexample is not None
    point = dict(squared.counterexample.point)
    assert all(point[s].is_integer for s in (proofs.M, proofs.N))


@pytest.mark.parametrize("pairing", ["adjacent", "halves"])
def test_relative_property_block_diagonal(pairing: str) -> None:
    assert proofs.relative_property_block_diagonal(pairing=pairing).holds
    squared = wrong.SQUARED_ANGLE.value
    assert not proofs.relative_property_block_diagonal(squared, pairing=pairing).holds


def test_pairing_permutation_proof() -> None:
    assert proofs.pairings_differ_by_permutation(d_model=8).holds
    assert proofs.pairings_differ_by_permutation(d_model=4).holds
    for candidate in (wrong.TRANSPOSED_PERMUTATION, wrong.NO_PERMUTATION):
        assert not proofs.pairings_differ_by_permutation(candidate.value, 8).holds


def test_permuted_scores_proof() -> None:
    proof = proofs.permuted_scores_agree()
    assert proof.holds
    assert "(Pq, Pκ)" in proof.steps[0].title
    only_query = proofs.permuted_scores_agree(wrong.ONLY_QUERY_PERMUTED.value)
    assert not only_query.holds
    assert "(Pq, κ)" in only_query.steps[0].title


def test_projection_proofs() -> None:
    proof = proofs.offset_only_after_projection()
    assert proof.holds
    assert proof.statement.startswith(r"\langle R_m W_q x, R_n W_k y\rangle")
    before = proofs.offset_only_after_projection(wrong.ROTATE_BEFORE_PROJECTING.value)
    assert not before.holds
    assert before.statement.startswith(r"\langle W_q R_m x, W_k R_n y\rangle")


def test_a_squared_angle_is_disproved_at_width_8_exactly() -> None:
    """At d = 8 the residual mixes 64 content products; the point found re-evaluates,
    substituted back by SymPy, to the value it shows, and that value is non-zero: its
    sines of algebraic angles are sums of exponentials of distinct algebraic numbers
    (Lindemann-Weierstrass), and at 50 digits it is far from 0."""
    from pe.symbolic import Verdict

    for pairing in ("adjacent", "halves"):
        proof = proofs.relative_property_block_diagonal(wrong.SQUARED_ANGLE.value, pairing=pairing)
        assert proof.verdict is Verdict.DISPROVED, proof.summary()
        found = proof.counterexample
        assert found is not None
        entry = list(sp.Matrix(proof.residual))[found.entry]
        value = sp.expand(entry.subs(found.substitution()))
        assert not value.free_symbols
        assert sp.expand((value - found.value).rewrite(sp.exp)) == 0
        assert abs(sp.N(value, 50)) > 1e-6


def test_additive_counterexample_is_exact() -> None:
    proof, value = proofs.additive_counterexample()
    assert not proof.holds
    # A = W_q^T W_k; at m = n = 1 in pair 0 (w = 1) the residual s(1, 1) - s(0, 0) is
    # A_00 sin^2 1 + (A_01 + A_10) sin 1 cos 1 + A_11 cos^2 1 - A_11
    a = sp.Matrix([[1, 2], [0, 1]]).T * sp.Matrix([[2, 0], [1, 1]])
    s, c = sp.sin(1), sp.cos(1)
    expected = (a[0, 0] - a[1, 1]) * s**2 + (a[0, 1] + a[1, 0]) * s * c
    assert sp.expand((value - expected).rewrite(sp.exp)) == 0
    assert not value.has(sp.Symbol)
    assert value.is_positive  # sin 1 and cos 1 are positive (0 < 1 < pi/2), both terms too
    identity, zero = proofs.additive_counterexample(*wrong.IDENTITY_PROJECTIONS.value)
    assert identity.holds
    assert zero == 0


def test_summation_by_parts() -> None:
    assert proofs.summation_by_parts(terms=4).holds
    assert proofs.summation_by_parts(terms=7).holds
    for candidate in (wrong.PARTIAL_SUM_SHIFTED, wrong.ABEL_SIGN_FLIPPED):
        assert not proofs.summation_by_parts(candidate.value).holds


def test_proofs_never_call_simplify_or_use_floats() -> None:
    source = inspect.getsource(proofs)
    assert "simplify(" not in source
    for proof in (proofs.relative_property(), proofs.relative_property_block_diagonal()):
        for entry in proof.residual:
            assert not entry.has(sp.Float)


def test_proof_arguments_are_checked() -> None:
    with pytest.raises(TypeError):
        proofs.relative_property_block_diagonal(base=10000.0)
    with pytest.raises(ValueError, match="pairing"):
        proofs.relative_property_block_diagonal(pairing="interleaved")
    with pytest.raises(TypeError):
        proofs.additive_counterexample(((0.5, 0), (0, 1)), ((1, 0), (0, 1)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rotation must return"):
        proofs.relative_property(lambda p, w: [[1, 0], [0, 1]])


def test_the_reverse_turn_is_relative_too_and_its_source_is_listed() -> None:
    """R^T is not a wrong candidate of the relative property: the page says it holds, reversed."""
    from pathlib import Path

    from pe.claims import get

    assert proofs.relative_property(wrong.TRANSPOSED_ROTATION.value).holds
    assert not proofs.relative_property(wrong.SCALED_ROTATION.value).holds
    bibliography = Path(__file__).parents[1] / "docs" / "bibliography.md"
    assert f'<a id="{get("rope-pairings-in-public-code").source}">' in bibliography.read_text()


def test_rotary_defaults_to_the_papers_base() -> None:
    """Every function of pe.rotary that defaults its ``base`` defaults it to the paper's
    10000 (RoFormer keeps it); ``test_every_default_base_is_the_papers`` covers the rest."""
    defaults = {
        name: inspect.signature(member).parameters["base"].default
        for name, member in vars(rotary).items()
        if inspect.isfunction(member)
        and member.__module__ == rotary.__name__
        and "base" in inspect.signature(member).parameters
    }
    assert "check_offset_dependence" in defaults
    assert {n: v for n, v in defaults.items() if v not in (10000, None)} == {}


@pytest.mark.parametrize("gain", [1 + 0.1 * math.log(4), 0.9])
def test_read_rope_code_counts_every_column_a_scaled_rotation_moves(gain: float) -> None:
    """Maps of RoPE scaled by a gain (YaRN multiplies cos and sin by 1 + 0.1 ln s): not a
    rotation (no identity at any position, so no pairing is read), but every column moves,
    its diagonal g cos(w p) never 1, above 1 for the slow pairs as below it for the fast."""
    recording = experiments.rope_recorded()
    width, positions = recording["width"], recording["positions"]
    omega = 10000.0 ** (-np.arange(0, width, 2) / width)
    maps = []
    for p in positions:
        m = np.zeros((width, width))
        for i, w in enumerate(omega):
            c, s = gain * math.cos(w * p), gain * math.sin(w * p)
            m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
        maps.append(m)
    assert positions[0] == 0  # the map at 0 is gain * I: every diagonal entry is gain, not 1
    code = rotary.read_rope_code(maps, positions)
    assert code.rotated == width
    assert code.pairing == "neither"


def test_the_decay_check_allows_the_rounding_of_its_stated_model() -> None:
    """The decay check's allowance is 2 gamma_(d+4) sum_i |h_i|, the larger over its two
    (q, k), with h_i = |q_i k_i| of the pairs as complex numbers (worked out here by hand);
    a gamma of another size (d >> 4 for d + 4) is not the model the card states."""
    evidence = experiments._decay(rotary.abel_bound)
    assert evidence.tolerance is not None
    u = 2.0**-53
    expected = 0.0
    for q, k in experiments.decay_pairs():
        d = q.size
        h = np.abs((q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2]))
        expected = max(expected, 2 * ((d + 4) * u / (1 - (d + 4) * u)) * float(h.sum()))
    assert evidence.tolerance.value == pytest.approx(expected, rel=1e-12, abs=0.0)


@pytest.mark.parametrize(
    ("pairing", "pairs"), [("adjacent", [(0, 1), (2, 3)]), ("halves", [(0, 2), (1, 3)])]
)
def test_the_block_proof_names_the_coordinates_each_pairing_turns(
    pairing: str, pairs: list[tuple[int, int]]
) -> None:
    """The proof's first note names, for d = 4, the coordinates each angle turns: (2i, 2i+1)
    adjacent, (i, i + d/2) in halves (the page shows it as the form of R_m)."""
    proof = proofs.relative_property_block_diagonal(d_model=4, pairing=pairing)
    shown = next(step.latex for step in proof.steps if "coordinates" in step.latex)
    found = [tuple(int(c) for c in m) for m in re.findall(r"\((\d+), (\d+)\)", shown)]
    assert found == pairs


def test_the_abel_bound_refuses_just_above_its_allocation_cap() -> None:
    """abel_bound caps its work at 4 * offsets * width elements of 16 bytes: at width 2,
    one offset more than pe.MAX_BYTES allows is refused before anything is allocated (a
    cap counting 3 * offsets * width let it through)."""
    from pe import MAX_BYTES

    q = k = np.ones(2)
    limit = MAX_BYTES // (4 * 2 * 16)  # offsets at width 2 that fit the cap exactly
    with pytest.raises(ValueError, match="the bound asks for"):
        rotary.abel_bound(q, k, np.arange(limit + 1))


@pytest.mark.parametrize(("positions", "allowed"), [(511, True), (513, False)])
def test_rope_angles_are_capped_by_positions_times_width(
    monkeypatch: pytest.MonkeyPatch, positions: int, allowed: bool
) -> None:
    """The angles take 16 bytes per position and column (float64, as the caller's array
    would): with the cap set to 2 MiB, 511 positions of width 256 fit and 513 do not."""
    monkeypatch.setattr(_validate, "MAX_BYTES", 2 * 2**20)
    if allowed:
        assert rotary.rope_angles(positions, 256).shape == (positions, 128)
    else:
        with pytest.raises(ValueError, match=r"the angles asks for 0\.0 GiB, above pe's cap"):
            rotary.rope_angles(positions, 256)


def test_rope_scores_refuse_more_than_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scores' cap counts both rotated sides, 2 n d float64 values: 100 positions of
    width 4 take 6400 bytes, refused under a cap of 4096 before either side is rotated."""
    monkeypatch.setattr(_validate, "MAX_BYTES", 4096)
    q = np.ones(4)
    with pytest.raises(ValueError, match="the scores asks for"):
        rotary.rope_scores(q, q, np.arange(100), np.arange(100))


def test_abel_rounding_is_twice_gamma_d_plus_4_times_the_sum_of_h() -> None:
    """2 gamma_(d+4) sum_i |q~_i k~_i|, gamma_n = n u / (1 - n u), written out here."""
    q, k = np.array([1.0, -2.0, 0.5, 3.0]), np.array([2.0, 1.0, -1.0, 0.25])
    total = abs(complex(1.0, -2.0) * complex(2.0, 1.0)) + abs(complex(0.5, 3.0) * complex(-1, 0.25))
    n, u = 4 + 4, 2.0**-53
    expected = 2 * (n * u / (1 - n * u)) * total
    assert rotary.abel_rounding(q, k) == pytest.approx(expected, rel=1e-12, abs=0)
    wrong = 2 * ((n + 1) * u / (1 - (n + 1) * u)) * total  # gamma_(d+5)
    assert rotary.abel_rounding(q, k) != pytest.approx(wrong, rel=1e-12, abs=0)
    with pytest.raises(ValueError, match="vectors of one length"):
        rotary.abel_rounding(q, k[:2])
    with pytest.raises(ValueError, match="even"):
        rotary.abel_rounding(q[:3], k[:3])


@pytest.mark.parametrize("odd", [1, 2])
def test_read_rope_code_names_the_map_of_another_width(odd: int) -> None:
    """Maps are held to the width of the first: the one that differs is named, wherever it
    stands (last, or between two of the first's width)."""
    maps = [np.eye(4), np.eye(4), np.eye(4)]
    maps[odd] = np.eye(6)
    with pytest.raises(ValueError, match=rf"maps\[{odd}\] must be a square matrix of the width"):
        rotary.read_rope_code(maps, [0, 1, 2])


def test_the_offset_card_writes_its_position_grid_as_measured() -> None:
    """A run from 0 is written 0..last only as far as it is consecutive: a second run after
    a gap is listed position by position, not merged into the first."""
    text = proofs._offsets("float64", "float64", positions=np.array([0, 1, 2, 10, 11])).text
    assert "m in {0..2, 10, 11}," in text
    text = proofs._offsets("float64", "float64", positions=np.array([5, 6, 7])).text
    assert "m in {5, 6, 7}," in text
