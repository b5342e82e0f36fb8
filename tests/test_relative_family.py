"""The relative-family chapter: each scheme of pe.relative against a loop
written here, and the proofs of pe.chapters.relative_family with their wrong candidates."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from pe import claims, numeric, relative
from pe._tolerance import rotation_rounding
from pe.chapters import relative_family as measured
from pe.chapters import relative_family as proofs
from pe.claims import Candidate
from pe.symbolic import Verdict
from tests.helpers import wrong


def t5_bucket_reference(
    r: int, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> int:
    """T5's bucket of one relative position ``r``, in scalar Python (``math.log``).

    A loop written here from the description of the scheme, one value at a time (the
    chapter's claim checks :func:`pe.relative.t5_bucket` against transformers' own code).

    Examples
    --------
    >>> [t5_bucket_reference(r) for r in (-3, 0, 3, 500)]
    [3, 0, 19, 31]
    """
    half = num_buckets // 2 if bidirectional else num_buckets
    if bidirectional:
        offset, distance = (half if r > 0 else 0), abs(r)
    else:
        offset, distance = 0, max(0, -r)
    exact = half // 2
    if distance < exact:
        return offset + distance
    widened = exact + int(
        math.log(distance / exact) / math.log(max_distance / exact) * (half - exact)
    )
    return offset + min(widened, half - 1)


t5_reference = t5_bucket_reference


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), [(32, 128), (16, 64), (64, 1000)])
def test_t5_bucket_matches_the_reference(
    bidirectional: bool, num_buckets: int, max_distance: int
) -> None:
    rel = np.arange(-3 * max_distance, 3 * max_distance + 1)
    got = relative.t5_bucket(
        rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    expected = [
        t5_reference(
            int(r), bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
        )
        for r in rel
    ]
    assert got.tolist() == expected
    ok, detail = relative.t5_bucket_properties(
        bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    assert ok, detail


def test_t5_reference_by_hand() -> None:
    """A few buckets worked out from T5's description (32 buckets, max distance 128)."""
    # backward: 0..7 exact; forward gets 16 + the same; far distances share bucket 15 / 31
    assert [t5_reference(r) for r in (0, -1, -7, 1, 7, -128, -10_000, 10_000)] == [
        0, 1, 7, 17, 23, 15, 15, 31,
    ]  # fmt: skip
    assert t5_reference(-8) == 8  # first logarithmic bucket: 8 + floor(ln(1) ...) = 8
    assert t5_reference(-3, bidirectional=False) == 3
    assert t5_reference(3, bidirectional=False) == 0


@pytest.mark.parametrize("candidate", [wrong.UNCAPPED_BUCKETS, wrong.DIRECTION_FORGOTTEN])
def test_t5_properties_reject_wrong_bucketings(candidate: Candidate[Any]) -> None:
    assert not relative.t5_bucket_properties(candidate.value)[0]


def test_t5_bias_depends_only_on_the_offset() -> None:
    table = np.random.default_rng(0).standard_normal(32)
    bias = relative.t5_bias(40, table)
    for i in range(40):
        for j in range(40):
            assert bias[i, j] == table[t5_reference(j - i)]


def test_shaw_offsets_and_scores_match_loops() -> None:
    n, k, d = 9, 2, 6
    rng = np.random.default_rng(1)
    q, keys, rel = (
        rng.standard_normal((n, d)),
        rng.standard_normal((n, d)),
        rng.standard_normal((2 * k + 1, d)),
    )
    offsets = relative.shaw_offsets(n, k)
    scores = relative.shaw_scores(q, keys, rel, k)
    for i in range(n):
        for j in range(n):
            clipped = max(-k, min(k, j - i))
            assert offsets[i, j] == clipped
            assert scores[i, j] == pytest.approx(q[i] @ (keys[j] + rel[clipped + k]), abs=1e-12)


def test_transformer_xl_matches_the_four_terms() -> None:
    n, d = 7, 8
    rng = np.random.default_rng(2)
    x = rng.standard_normal((n, d))
    w_q, w_ke, w_kr = (rng.standard_normal((d, d)) for _ in range(3))
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    got = relative.transformer_xl_scores(x, w_q, w_ke, w_kr, u=u, v=v)
    omega = numeric.frequencies(d)
    for i in range(n):
        for j in range(n):
            r = np.empty(d)
            r[0::2], r[1::2] = np.sin((i - j) * omega), np.cos((i - j) * omega)
            a = x[i] @ w_q.T @ w_ke @ x[j]
            b = x[i] @ w_q.T @ w_kr @ r
            c = u @ w_ke @ x[j]
            e = v @ w_kr @ r
            assert got[i, j] == pytest.approx(a + b + c + e, abs=1e-10)


def test_alibi_slopes_are_geometric_for_powers_of_two() -> None:
    for heads in (1, 2, 8, 16, 64):
        slopes = relative.alibi_slopes(heads)
        for h, m in enumerate(slopes, start=1):
            assert m == pytest.approx(2.0 ** (-8.0 * h / heads), rel=1e-15, abs=0)
    # the paper's section 3: 8 heads take 2^-1 .. 2^-8; 16 heads start at 2^-0.5, ratio 2^-0.5
    assert [Fraction(m) for m in relative.alibi_slopes(8)] == [
        Fraction(1, 2**h) for h in range(1, 9)
    ]
    assert relative.alibi_slopes(16) == pytest.approx(
        2.0 ** (-np.arange(1, 17) / 2), rel=1e-15, abs=0
    )
    assert wrong.HALVING_SLOPES.value(16)[-1] != relative.alibi_slopes(16)[-1]


def test_alibi_slopes_for_twelve_heads_interleave() -> None:
    """H = 12: the 8 slopes of 8 heads, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (every other of 16)."""
    want = [2.0**-h for h in range(1, 9)] + [2.0 ** -(h + 0.5) for h in range(4)]
    assert relative.alibi_slopes(12) == pytest.approx(want, rel=1e-15, abs=0)
    old = wrong.GEOMETRIC_SLOPES.value(12)
    assert float(np.abs(old / relative.alibi_slopes(12) - 1).max()) > 1.5  # up to 152 %
    assert not proofs._alibi(wrong.GEOMETRIC_SLOPES.value).holds


@given(st.integers(min_value=1, max_value=4096))
def test_alibi_slopes_follow_the_rule_for_every_head_count(heads: int) -> None:
    """Every H: P powers of two with exponent 8h/P, then H - P with exponent 4(2j - 1)/P."""
    slopes = relative.alibi_slopes(heads)
    power = 2 ** math.floor(math.log2(heads))
    assert slopes.shape == (heads,)
    exponents = [8 * h / power for h in range(1, power + 1)]
    exponents += [4 * (2 * j - 1) / power for j in range(1, heads - power + 1)]
    assert slopes == pytest.approx([2.0**-e for e in exponents], rel=4e-16, abs=0)
    assert set(slopes[power:]).isdisjoint(slopes[:power]) or heads == power
    assert bool(np.all((slopes > 0) & (slopes < 1)))


def test_alibi_bias_is_causal_and_linear() -> None:
    bias = relative.alibi_bias(6, 0.25)
    for i in range(6):
        for j in range(6):
            assert bias[i, j] == (-0.25 * (i - j) if j <= i else -np.inf)


def test_causal_mean_attention_matches_a_loop() -> None:
    values = np.random.default_rng(3).standard_normal(30)
    out = relative.causal_mean_attention(values)
    for i in range(30):
        assert out[i] == pytest.approx(sum(values[: i + 1]) / (i + 1), abs=1e-14)
    assert np.all(
        relative.causal_mean_attention(values, causal=False)
        == pytest.approx(values.mean(), rel=1e-6, abs=0)
    )
    assert np.all(
        wrong.UNMASKED_MEAN.value(values) == relative.causal_mean_attention(values, causal=False)
    )


def test_learned_table_has_no_row_beyond_its_length() -> None:
    table = np.zeros((16, 4))
    assert relative.learned_lookup(table, [0, 15]).shape == (2, 4)
    with pytest.raises(ValueError, match="n_max = 16"):
        relative.learned_lookup(table, [3, 16])


def test_ntk_base_keeps_the_first_frequency_and_divides_the_last() -> None:
    d, s = 64, 4.0
    new = numeric.frequencies(d, relative.ntk_base(10000.0, s, d))
    old = numeric.frequencies(d)
    assert new[0] == old[0] == 1.0
    assert new[-1] == pytest.approx(old[-1] / s, rel=1e-13, abs=0)
    assert np.all(new <= old)
    plain = numeric.frequencies(d, wrong.PLAIN_BASE_SCALING.value(10000.0, s, d))
    assert plain[-1] != pytest.approx(old[-1] / s, rel=1e-3, abs=0)
    assert relative.ntk_scaled_base(10000.0, s, d) == relative.ntk_base(10000.0, s, d)


@pytest.mark.parametrize("scheme", ["rope", "shaw", "transformer-xl", "t5", "alibi", "nope"])
def test_relative_schemes_give_toeplitz_scores_on_a_repeated_token(scheme: str) -> None:
    assert relative.toeplitz_deviation(relative.identical_token_scores(scheme)) < 1e-12


@pytest.mark.parametrize("scheme", ["learned absolute", "sinusoidal (added)"])
def test_absolute_schemes_do_not(scheme: str) -> None:
    assert relative.toeplitz_deviation(relative.identical_token_scores(scheme)) > 1e-2


def test_toeplitz_deviation_refuses_partial_masks() -> None:
    a = np.zeros((3, 3))
    a[0, 1] = -np.inf
    assert relative.toeplitz_deviation(a) == math.inf


def test_proofs_hold_and_reject_wrong_candidates() -> None:
    assert proofs.absolute_score_four_terms().holds
    assert not proofs.absolute_score_four_terms(wrong.TERM_C_LEFT_OUT.value).holds
    for term in proofs.FOUR_TERMS:
        three = tuple(t for t in proofs.FOUR_TERMS if t != term)
        assert not proofs.absolute_score_four_terms(three).holds
    assert proofs.causal_mean_counts_position().holds
    assert not proofs.causal_mean_counts_position(wrong.NO_CAUSAL_MASK.value).holds
    assert proofs.ntk_frequencies().holds
    assert not proofs.ntk_frequencies(wrong.PLAIN_BASE_SCALING.value).holds


def test_ntk_disproof_point_lies_in_the_pages_domain() -> None:
    """Plain base scaling is disproved (not merely undecided) at a point of the page's
    domain: an even width above 2, a pair below d/2, base and stretch above 1.

    Fault caught: a relation of the proof's domain broken, which leaves no admissible point."""
    proof = proofs.ntk_frequencies(wrong.PLAIN_BASE_SCALING.value)
    assert proof.verdict is Verdict.DISPROVED
    assert proof.counterexample is not None
    point = {str(symbol): value for symbol, value in proof.counterexample.point}
    assert point["d"] % 2 == 0
    assert point["d"] > 2
    assert 0 <= point["i"] < point["d"] / 2
    assert point["b"] > 1
    assert point["s"] > 1


def test_shaw_clipping_and_interpolation_candidates() -> None:
    """The wrong candidates' values do what their names say."""
    unclipped = relative.shaw_offsets(20, wrong.NO_CLIPPING.value)
    assert np.unique(unclipped).size == 39  # every offset -19 .. 19: nothing clipped
    assert relative.identical_token_scores(wrong.LEARNED_ABSOLUTE.value[0]).shape == (12, 12)
    assert np.array_equal(
        wrong.NO_INTERPOLATION.value(8, 4, 2.0), relative.position_interpolation(8, 4, 1.0)
    )


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: relative.t5_bucket(np.array([0.5])), TypeError),
        (lambda: relative.t5_bucket(np.array([1]), num_buckets=8, max_distance=2), ValueError),
        (lambda: relative.shaw_offsets(0, 2), ValueError),
        (lambda: relative.alibi_slopes(0), ValueError),
        (lambda: relative.ntk_base(10000.0, 0.5, 64), ValueError),
        (lambda: relative.identical_token_scores("absolute"), ValueError),
        (lambda: proofs.absolute_score_four_terms(("a", "e")), ValueError),
        (lambda: relative.causal_mean_attention([]), ValueError),
        (lambda: relative.shaw_offsets(100_000, 2), ValueError),  # above pe.MAX_BYTES
    ],
)
def test_bad_input_gets_a_one_line_error(call: Any, error: type) -> None:
    with pytest.raises(error) as info:
        call()
    assert "\n" not in str(info.value)


def test_ntk_scaling_takes_the_slow_pairs_past_training_by_an_independent_count() -> None:
    """Pairs that never turn in training yet pass (L-1) w_i under b' = b s^(d/(d-2)), by mpmath."""
    import mpmath

    d, trained, s = relative.EXTENSION
    with mpmath.workdps(30):
        b = mpmath.mpf(10000)
        scaled = b * mpmath.mpf(s) ** (mpmath.mpf(d) / (d - 2))
        excess = {}
        for i in range(d // 2):
            w, w_new = b ** (-mpmath.mpf(2 * i) / d), scaled ** (-mpmath.mpf(2 * i) / d)
            last = (trained - 1) * w
            if last < 2 * mpmath.pi and (s * trained - 1) * w_new > last:
                excess[i] = float((s * trained - 1) * w_new / last - 1)
    reach = relative.extension_reach(relative.base_scaling, d, trained, s)
    assert reach.unseen.tolist() == sorted(excess) == list(range(41, 64))
    assert np.allclose(reach.excess[reach.unseen], list(excess.values()), rtol=1e-12)
    interpolated = relative.extension_reach(relative.position_interpolation, d, trained, s)
    assert np.allclose(interpolated.excess, (1 - 1 / s) / (trained - 1), rtol=1e-12)


def test_the_old_statements_are_rejected() -> None:
    """The page used to say interpolation stays "inside the trained range for every pair"
    (compared with L w_i) and that NTK leaves the slowest pair inside."""
    from pe.chapters import relative_family as claims

    assert claims._interpolation(relative.position_interpolation).holds
    assert not claims._interpolation(wrong.NTK_IN_RANGE.value).holds
    assert claims._interpolated_end(relative.interpolated_end).holds
    assert not claims._interpolated_end(wrong.INSIDE_TRAINED_RANGE.value).holds
    assert not claims._interpolated_end(wrong.TRAINED_LENGTH_BOUNDARY.value).holds
    assert claims._ntk_unseen(claims.NTK_UNSEEN).holds
    assert not claims._ntk_unseen(wrong.NO_UNSEEN_PAIRS.value).holds
    assert not claims._ntk_unseen(wrong.SLOWEST_PAIR_INSIDE.value).holds


@given(
    st.integers(min_value=2, max_value=4096),
    st.integers(min_value=1, max_value=16),
    st.sampled_from([2, 4, 8, 16, 64]),
)
def test_interpolation_passes_the_trained_angles_by_less_than_a_step(
    trained: int, scale: int, width: int
) -> None:
    """Every L, integer s, every pair: max_p (p/s) w_i = (L - 1/s) w_i < (L-1) w_i + w_i."""
    angles = relative.position_interpolation(scale * trained, width, float(scale))
    omega = numeric.frequencies(width)
    top = angles.max(axis=0) / omega
    assert top == pytest.approx(trained - 1 / scale, rel=1e-15, abs=0)
    assert bool(np.all(top < trained))


def test_ntk_factor_of_every_pair() -> None:
    d, s = 64, 4.0
    factor = numeric.frequencies(d) / numeric.frequencies(d, relative.ntk_base(10000.0, s, d))
    assert np.allclose(factor, s ** (2 * np.arange(d // 2) / (d - 2)), rtol=1e-13)
    plain = numeric.frequencies(d) / numeric.frequencies(
        d, wrong.PLAIN_BASE_SCALING.value(1e4, s, d)
    )
    assert not np.allclose(plain, s ** (2 * np.arange(d // 2) / (d - 2)), rtol=1e-3)


def test_transformer_xl_claim_checks_its_own_formula() -> None:
    from pe.chapters import relative_family as claims

    assert claims._transformer_xl(proofs.FOUR_TERMS).holds
    for term in proofs.FOUR_TERMS:
        three = tuple(t for t in proofs.FOUR_TERMS if t != term)
        assert not claims._transformer_xl(three).holds


def _gamma(m: int) -> float:
    """Higham's gamma_m = m u / (1 - m u), u = 2^-53."""
    u = 2.0**-53
    return m * u / (1 - m * u)


def _drawn(d: int, seed: int) -> tuple[np.random.Generator, Any, Any, Any]:
    """The generator after the token and W_q, W_k (each d x d over sqrt(d)), as documented."""
    rng = np.random.default_rng(seed)
    token = rng.standard_normal(d)
    w_q = rng.standard_normal((d, d)) / math.sqrt(d)
    w_k = rng.standard_normal((d, d)) / math.sqrt(d)
    return rng, token, w_q, w_k


@pytest.mark.parametrize("seed", [0, 3])
def test_the_repeated_token_bound_of_nope_by_hand(seed: int) -> None:
    """NoPE's score is one dot product (W_q t).(W_k t), equal in every entry: the documented
    bound is twice gamma_(3d) |t|^2 |W_q|_F |W_k|_F over the score, and the spread is under it."""
    d = 16
    _, token, w_q, w_k = _drawn(d, seed)
    score = float((w_q @ token) @ (w_k @ token))
    norms = float(np.linalg.norm(token)) ** 2 * np.linalg.norm(w_q) * np.linalg.norm(w_k)
    expected = 2 * _gamma(3 * d) * norms / abs(score)
    bound = relative.identical_token_rounding("nope", 12, d, seed=seed)
    assert abs(bound - expected) <= 1e-13 * expected
    spread = relative.toeplitz_deviation(relative.identical_token_scores("nope", 12, d, seed=seed))
    assert spread <= bound


@pytest.mark.parametrize("scheme", ["learned absolute", "sinusoidal (added)"])
def test_the_repeated_token_bound_of_an_absolute_encoding_by_hand(scheme: str) -> None:
    """An absolute encoding's score is one dot product of encoded rows, (W_q x_i).(W_k x_j)
    with x_i = t + P_i: each within gamma_(3d) max|x_i|^2 |W_q|_F |W_k|_F, twice that over
    the largest score. P is drawn after W_q, W_k (learned) or is the paper's table."""
    d, n = 16, 12
    rng, token, w_q, w_k = _drawn(d, 0)
    if scheme == "learned absolute":
        table = rng.standard_normal((n, d))
    else:
        p, i = np.arange(n)[:, None], np.arange(d // 2)[None, :]
        angle = p / 10000.0 ** (2 * i / d)
        table = np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(n, d)
    rows = float(np.linalg.norm(token + table, axis=1).max())
    norms = rows**2 * float(np.linalg.norm(w_q)) * float(np.linalg.norm(w_k))
    scale = float(np.abs(relative.identical_token_scores(scheme, n, d)).max())
    bound = relative.identical_token_rounding(scheme, n, d)
    assert abs(bound - 2 * _gamma(3 * d) * norms / scale) <= 1e-13 * bound


def test_the_repeated_token_bound_of_rope_by_hand() -> None:
    """RoPE's score is one dot product of rotated vectors: gamma_(3d) |q| |k| for the product,
    plus the rotations' rounding at the largest position, n - 1 (rotation_rounding of a
    pair of norm sqrt 2 at reach n - 1), twice over the largest score."""
    d, n = 16, 12
    _, token, w_q, w_k = _drawn(d, 0)
    t = float(np.linalg.norm(token))
    q, k = t * float(np.linalg.norm(w_q)), t * float(np.linalg.norm(w_k))
    rounding = float(rotation_rounding(math.sqrt(2), n - 1, d))
    absolute = _gamma(3 * d) * q * k + 2 * q * k * rounding
    scale = float(np.abs(relative.identical_token_scores("rope", n, d)).max())
    bound = relative.identical_token_rounding("rope", n, d)
    assert abs(bound - 2 * absolute / scale) <= 1e-13 * bound
    assert float(rotation_rounding(math.sqrt(2), n, d)) > rounding  # the reach matters


def test_the_repeated_token_bound_of_transformer_xl_by_hand() -> None:
    """Transformer-XL's score is four dot products, q.k + q.(W_kr R) + u.k + v.(W_kr R), R a
    sinusoidal row (norm sqrt(d/2)): each within gamma_(3d) |a| |b| (Cauchy-Schwarz, |Wx| <=
    |W|_F |x|), and three additions, 3u times the sum of the four bounds' norms."""
    d = 16
    rng, token, w_q, w_k = _drawn(d, 0)
    w_kr = rng.standard_normal((d, d)) / math.sqrt(d)
    u_norm, v_norm = (float(np.linalg.norm(rng.standard_normal(d))) for _ in range(2))
    t = float(np.linalg.norm(token))
    q, k = t * float(np.linalg.norm(w_q)), t * float(np.linalg.norm(w_k))
    r = float(np.linalg.norm(w_kr)) * math.sqrt(d / 2)
    terms = q * k + q * r + u_norm * k + v_norm * r
    absolute = _gamma(3 * d) * terms + 3 * 2.0**-53 * terms
    scores = relative.identical_token_scores("transformer-xl", 12, d)
    scale = float(np.abs(scores).max())
    bound = relative.identical_token_rounding("transformer-xl", 12, d)
    assert abs(bound - 2 * absolute / scale) <= 1e-13 * bound
    assert relative.toeplitz_deviation(scores) <= bound


def test_alibi_slopes_one_ulp_off_pass_and_two_do_not() -> None:
    """The slopes are held to eps + u relative (exp2 within one ulp, the exact 2^-e rounded
    once more): slopes one ulp up, within it, pass; two ulps up (2 eps at a power of two,
    past 1.5 eps) fail."""
    eps = 2.0**-52
    evidence = proofs._alibi(relative.alibi_slopes)
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == eps + eps / 2

    def up(ulps: int) -> Any:
        def slopes(heads: int) -> Any:
            s = np.asarray(relative.alibi_slopes(heads), dtype=np.float64)
            for _ in range(ulps):
                s = np.nextafter(s, np.inf)
            return s

        return slopes

    assert proofs._alibi(up(1)).holds
    assert not proofs._alibi(up(2)).holds


def test_the_interpolation_card_names_the_last_position_it_reaches() -> None:
    """Stretched by s from L trained positions, the positions run 0..sL - 1 (8191 for the
    page's L = 2048, s = 4): the card names that last one, not sL."""
    d, trained, s = relative.EXTENSION
    evidence = measured._interpolation(relative.position_interpolation)
    assert f"positions 0..{int(s * trained) - 1}, d={d}, trained on 0..{trained - 1}" in (
        evidence.detail
    )


def test_the_alibi_oracle_reports_its_worst_error_against_the_bound() -> None:
    """The ALiBi oracle's figure is the worst |mu_h / BLOOM - 1| divided by the float32
    bound 2H u32 + 4 eps32 (+ 2 eps64), recomputed here; a slope off by 1e-5 at H = 40 is
    several times that bound and fails (run here, not only with the real-code tests)."""
    recording = measured.alibi_recorded()["slopes"]
    eps32, eps64 = float(np.finfo(np.float32).eps), float(np.finfo(np.float64).eps)
    worst = max(
        float(np.abs(relative.alibi_slopes(int(h)) / np.array(bloom) - 1.0).max())
        / (int(h) * eps32 + 4 * eps32 + 2 * eps64)
        for h, bloom in recording.items()
    )
    evidence = measured._alibi_recorded(relative.alibi_slopes)
    assert evidence.holds
    assert evidence.error is not None
    assert abs(evidence.error - worst) <= 1e-9 * worst

    def nudged(heads: int) -> Any:
        out = relative.alibi_slopes(heads).copy()
        if heads == 40:
            out[-1] *= 1 + 1e-5
        return out

    assert not measured._alibi_recorded(nudged).holds


def test_the_ntk_card_prints_the_first_and_last_factors() -> None:
    """The card's "factors rise from ... to ..." names pair 0's factor (1) and the slowest
    pair's, s = 8 exactly by the law s^(2i/(d-2)) at i = d/2 - 1."""
    detail = claims.verify("ntk-base-scaling").evidence[-1].detail
    assert re.search(r"factors rise from 1 to 8: yes", detail), detail


def test_t5_properties_catch_buckets_that_saturate_too_late() -> None:
    """A bucketing that reaches its last bucket only at twice max_distance keeps every other
    property; the far property alone rejects it."""

    def late(rel: Any, **settings: Any) -> Any:
        return relative.t5_bucket(rel, **{**settings, "max_distance": 2 * settings["max_distance"]})

    ok, detail = relative.t5_bucket_properties(late)
    assert not ok
    assert "far: NO" in detail, detail
    assert detail.count("NO") == 1, detail


def test_shaw_scores_say_the_shape_the_relative_keys_need() -> None:
    """Clip K = 2 at width 8 needs 2K + 1 = 5 relative keys of width 8: the error says so."""
    q = np.ones((4, 8))
    with pytest.raises(ValueError, match=re.escape("relative_keys must have shape (5, 8)")):
        relative.shaw_scores(q, q, np.ones((4, 8)), 2)


@pytest.mark.parametrize("scheme", proofs.RELATIVE_SCHEMES)
def test_each_relative_scheme_alone_moves_with_the_offset_on_a_repeated_token(
    scheme: str,
) -> None:
    """Each scheme's proof stands on its own formula, not on the others cancelling it."""
    assert proofs.repeated_token_relative((scheme,)).holds


def test_an_added_encoding_is_disproved_at_an_exact_integer_point() -> None:
    """The absolute candidate's residual has a counter-example at integer positions and a
    frequency of at most 1, and its value there is the residual evaluated exactly."""
    proof = proofs.repeated_token_relative(("sinusoidal (added)",))
    found = proof.counterexample
    assert not proof.holds
    assert found is not None
    point = dict(found.point)
    assert all(point[sp.Symbol(name, integer=True)].is_integer for name in ("m", "n", "t"))
    assert 0 < point[sp.Symbol("omega", positive=True)] <= 1
    m, n, t = (sp.Symbol(name, integer=True) for name in ("m", "n", "t"))
    residual = proofs.repeated_token_score("sinusoidal (added)", m + t, n + t)
    residual -= proofs.repeated_token_score("sinusoidal (added)", m, n)
    value = residual.subs(point)
    assert sp.expand(value - found.value) == 0
    assert abs(sp.N(value, 30)) > 1e-6
