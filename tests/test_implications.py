"""What the identity implies: proofs, measurements and wrong candidates, against independent references."""

from __future__ import annotations

import inspect
import math
import re
from typing import Any

import mpmath
import numpy as np
import pytest

from pe import MAX_BYTES, geometry, numeric, position_scores, reference
from pe.chapters import implications as measured
from pe.chapters import implications as proofs
from pe.claims import Candidate
from pe.error_models import DOT_PRODUCT
from pe.symbolic import pair
from tests.helpers import wrong


def exact_f(k: int, d: int) -> float:
    """f(k) = sum_i cos(w_i k) from the 50-digit reference cosines (odd columns of the table)."""
    return float(sum(reference.entry(k, 2 * i + 1, d) for i in range(d // 2)))


@pytest.mark.parametrize("k", [0, 1, 43, 44, 1000, -17])
def test_dot_by_offset_against_the_reference(k: int) -> None:
    assert abs(geometry.dot_by_offset(64, [k])[0] - exact_f(k, 64)) < 1e-12
    assert abs(geometry.reference_dot_by_offset(64, [k])[0] - exact_f(k, 64)) < 1e-12


def test_dot_by_offset_matches_table_rows_at_any_position() -> None:
    table = numeric.sinusoidal(np.array([5, 12, 900, 907]), 32)
    f7 = geometry.dot_by_offset(32, [7])[0]
    assert abs(table[0] @ table[1] - f7) < 1e-12
    assert abs(table[2] @ table[3] - f7) < 1e-12
    assert abs(table[0] @ table[3] - f7) > 0.1  # offset 902 is different


def test_first_rise() -> None:
    assert position_scores.first_rise([3.0, 2.0, 1.0, 2.0]) == 2
    assert position_scores.first_rise([3.0, 2.0, 1.0]) is None
    assert position_scores.first_rise([1.0, 1.0]) is None


def test_first_rise_for_d512_is_where_the_reference_says() -> None:
    rise, low, value = position_scores.decay_facts(512, 20_000)
    assert rise == position_scores.first_rise(geometry.dot_by_offset(512, np.arange(200)))
    assert exact_f(rise + 1, 512) > exact_f(rise, 512)
    assert all(exact_f(k + 1, 512) < exact_f(k, 512) for k in range(0, rise, 6))
    assert value < 0
    assert value == geometry.dot_by_offset(512, [low])[0]


def test_dot_product_statements_of_the_same_check() -> None:
    """The page says f turns negative: the check rejects "stays positive" and "falls steadily"."""
    from pe.chapters import implications as claims

    assert claims._not_monotone((43, 3284)).holds
    assert not claims._not_monotone(wrong.MONOTONE_DECAY.value).holds
    assert not claims._not_monotone(wrong.RISES_STAYS_POSITIVE.value).holds
    f = geometry.dot_by_offset(512, np.arange(3285))
    assert f[:3284].min() >= 0 > f[3284]


def test_dot_product_error_and_the_doubled_exponent() -> None:
    assert geometry.dot_product_error(64, 300) < DOT_PRODUCT(64, 600)
    assert geometry.dot_product_error(64, 300, wrong.DOUBLED_EXPONENT.value) > 1.0


def test_symmetry_gap_and_a_shift_between_the_rows() -> None:
    assert geometry.symmetry_gap(64, 500, 200) < DOT_PRODUCT(64, 700)
    assert geometry.symmetry_gap(64, 500, 200, wrong.SHIFT_BETWEEN_ROWS.value) > 1.0


def test_norm_error_and_the_wrong_norm() -> None:
    positions = [0, 17, 10**6, 2**40]
    assert geometry.norm_error((8, 64), positions, 0.5) < DOT_PRODUCT(64, 0.0)
    assert geometry.norm_error((8, 64), positions, float(wrong.NORM_SQUARED_D.value)) > 1.0


def test_nearest_rows_against_brute_force() -> None:
    n, d = 300, 16
    table = numeric.sinusoidal(n, d)
    best = (np.inf, 0)
    for p in range(n):
        for q in range(p + 1, n):
            dist = float(np.linalg.norm(table[p] - table[q]))
            if dist < best[0]:
                best = (dist, q - p)
    k, dist = geometry.nearest_rows(n, d)
    assert k == best[1]
    assert abs(dist - best[0]) < 1e-12
    assert abs(geometry.smallest_row_distance(n, d)[0] - best[0]) < 1e-9


def test_nearest_rows_refuses_one_position() -> None:
    with pytest.raises(ValueError, match="n_positions"):
        geometry.nearest_rows(1, 16)


def test_binary_counter_rows_repeat() -> None:
    distances = geometry.chord_lengths(wrong.BINARY_COUNTER.value(16), np.arange(1, 1000))
    assert distances[255] < 1e-12  # offset 256 = 2^(d/2): every pair back where it was
    assert geometry.chord_lengths(numeric.frequencies(16), np.arange(1, 1000)).min() > 0.5


def test_pair_min_distance_against_brute_force() -> None:
    omega = np.array([1.0, 0.01, 2 * np.pi / 8])
    distances, where = geometry.pair_min_distance(omega, 50)
    for j, w in enumerate(omega):
        points = np.stack([np.sin(w * np.arange(50)), np.cos(w * np.arange(50))], axis=1)
        gaps = [
            (float(np.linalg.norm(points[p] - points[q])), q - p)
            for p in range(50)
            for q in range(p + 1, 50)
        ]
        assert abs(distances[j] - min(gaps)[0]) < 1e-12
    assert where[2] == 8
    assert distances[2] < 1e-12  # rational period: positions coincide


@pytest.mark.parametrize("candidate", [wrong.PAIR0_SLOWEST_ANGLE, wrong.RATIONAL_PERIOD])
def test_pair_shift_ratio_rejects_wrong_blocks(
    candidate: Candidate[geometry.FrequencyLaw],
) -> None:
    assert geometry.pair_shift_ratio(64, 2000, (1, 7), numeric.frequencies) <= 1.0
    assert geometry.pair_shift_ratio(64, 2000, (1, 7), candidate.value) > 1e6


@pytest.mark.parametrize(("off", "within"), [(2.0**-52, True), (1e-6, False)])
def test_pair_shift_ratio_turns_each_pair_by_its_blocks_angle(off: float, within: bool) -> None:
    """Blocks whose frequencies differ from the table's by one unit in the last place turn
    every pair by their own angle k ω', within the shift model; a millionth off is not."""
    ratio = geometry.pair_shift_ratio(
        64, 2000, (1, 7), lambda d: numeric.frequencies(d) * (1 + off)
    )
    assert (ratio <= 1.0) is within


def test_offset_spread() -> None:
    toeplitz = np.subtract.outer(np.arange(20), np.arange(20)).astype(float) ** 2
    assert position_scores.offset_spread(toeplitz)[0] == 0.0
    broken = toeplitz.copy()
    broken[3, 5] += 1.0
    assert position_scores.offset_spread(broken)[0] == 1.0


def test_scores_relative_only_for_raw_and_rotation_blocks() -> None:
    for projection, relative in (
        (wrong.IDENTITY_PROJECTION.value, True),
        (wrong.ROTATION_PROJECTION.value, True),
        (position_scores.RANDOM, False),
    ):
        spread, scale = position_scores.offset_spread(
            position_scores.scores(80, 32, projection=projection)
        )
        assert (spread < 1e-10 * scale) is relative, projection.name
    spread, scale = position_scores.offset_spread(
        position_scores.scores(80, 32, content=1.0, projection=position_scores.IDENTITY)
    )
    assert spread > 0.01 * scale  # content breaks it even without projections


def test_symbolic_dot_products_and_wrong_candidates() -> None:
    assert proofs.dot_product_per_pair().holds
    assert not proofs.dot_product_per_pair(wrong.DOUBLE_ANGLE_COSINE.value).holds
    assert proofs.dot_product_concrete().holds
    assert not proofs.dot_product_concrete(wrong.DOUBLED_EXPONENT.value).holds
    assert proofs.offset_symmetry().holds
    assert not proofs.offset_symmetry(wrong.SHIFT_BETWEEN_ROWS.value).holds


def test_symbolic_norm_and_distance() -> None:
    assert proofs.norm_per_pair(pair).holds
    assert not proofs.norm_per_pair(wrong.MIXED_FREQUENCY_PAIR.value).holds
    assert proofs.norm_concrete(proofs.HALF, 16).holds
    assert not proofs.norm_concrete(wrong.NORM_SQUARED_D.value, 16).holds
    assert proofs.distance_identity().holds
    assert not proofs.distance_identity(wrong.SUM_ANGLE_DISTANCE.value).holds


def test_symbolic_attention_terms() -> None:
    assert proofs.attention_four_terms().holds
    assert not proofs.attention_four_terms(wrong.CROSS_TERMS_DROPPED.value).holds
    assert proofs.position_term().holds
    assert not proofs.position_term(wrong.DIFFERENCE_ONLY.value).holds


def test_position_term_numerically_for_a_random_block() -> None:
    """Independent check of the sum-and-difference form with plain NumPy."""
    rng = np.random.default_rng(3)
    w = rng.standard_normal((2, 2))
    for p, q, om in ((3.0, 11.0, 0.7), (100.0, 2.0, 0.01)):
        ep = np.array([np.sin(om * p), np.cos(om * p)])
        eq = np.array([np.sin(om * q), np.cos(om * q)])
        form = (
            (w[0, 0] + w[1, 1]) / 2 * np.cos(om * (p - q))
            + (w[0, 1] - w[1, 0]) / 2 * np.sin(om * (p - q))
            + (w[1, 1] - w[0, 0]) / 2 * np.cos(om * (p + q))
            + (w[0, 1] + w[1, 0]) / 2 * np.sin(om * (p + q))
        )
        assert abs(ep @ w @ eq - form) < 1e-12


def test_exact_widths_are_capped() -> None:
    with pytest.raises(ValueError, match="d_model"):
        proofs.dot_product_concrete(1, 128)
    with pytest.raises(ValueError, match="d_model"):
        proofs.norm_concrete(proofs.HALF, 7)


def test_no_simplify() -> None:
    assert "simplify(" not in inspect.getsource(proofs)


def test_per_block_condition_is_not_enough() -> None:
    """The page used to say the p + q part vanishes "only when w22 = w11, w21 = -w12": true
    per diagonal block, but a block coupling two pairs breaks the relative property too."""
    from pe.chapters import implications as claims

    assert claims._relative_only(position_scores.ROTATION).holds
    coupled = wrong.COUPLED_ROTATION_PROJECTION.value
    w = coupled.build(np.random.default_rng(0), 8)
    diagonal = [w[i : i + 2, i : i + 2] for i in range(0, 8, 2)]
    assert all(b[0, 0] == b[1, 1] and b[0, 1] == -b[1, 0] for b in diagonal)
    assert not claims._relative_only(coupled).holds


def test_one_claim_for_the_projected_score() -> None:
    from pe import claims

    ids = [c.id for c in claims.all_claims()]
    assert "projected-score-not-relative" in ids
    assert "additive-not-relative-after-projection" not in ids


def test_the_split_is_a_matter_of_margin() -> None:
    """The old wording said the slow/fast split "does not exist": the pairs' margins differ."""
    from pe.chapters import implications as chapter

    assert chapter._margins(chapter.CONFUSED_OFFSETS).holds
    assert not chapter._margins(chapter.SAME_MARGINS.value).holds
    assert not chapter._margins(chapter.REVERSED_MARGINS.value).holds


def test_pair_min_distance_takes_every_frequency_of_a_wide_model() -> None:
    # d = 512 (256 frequencies) over 10,000 positions: 41 MB, far under pe.MAX_BYTES
    omega = 10000.0 ** (-np.arange(256) / 256)
    distances, where = geometry.pair_min_distance(omega, 10_000)
    ks = np.arange(1, 10_000, dtype=np.float64)
    for j in (0, 1, 37, 128, 255):
        # the chord from the point at position 0, (sin 0, cos 0), to the one at position k
        chord = np.hypot(np.sin(omega[j] * ks), np.cos(omega[j] * ks) - 1.0)
        assert abs(distances[j] - chord.min()) < 1e-12
        assert abs(chord[where[j] - 1] - chord.min()) < 1e-12


def test_pair_min_distance_refuses_just_above_the_cap() -> None:
    # 256 frequencies x (2^18 + 1) offsets, 16 bytes each: one offset above pe.MAX_BYTES = 1 GiB
    omega = 10000.0 ** (-np.arange(256) / 256)
    assert (2**18 + 1) * omega.size * 16 > MAX_BYTES >= 2**18 * omega.size * 16
    with pytest.raises(ValueError, match=r"pe\.MAX_BYTES"):
        geometry.pair_min_distance(omega, 2**18 + 1)


def _exact_closest(omega: mpmath.mpf, n: int) -> tuple[int, mpmath.mpf]:
    """The offset 0 < k < n of the smallest exact chord 2|sin(omega k / 2)|, and the chord."""
    chords = [(2 * abs(mpmath.sin(omega * k / 2)), k) for k in range(1, n)]
    distance, k = min(chords)
    return k, distance


def _printed_within(printed: str, exact: mpmath.mpf) -> bool:
    """Whether ``printed`` (three significant digits) is ``exact`` rounded: within half a
    unit of its third digit."""
    unit = 10.0 ** (math.floor(math.log10(float(exact))) - 2)
    return abs(float(printed) - float(exact)) <= unit / 2


def test_the_every_pair_evidence_prints_the_closest_positions_of_the_pairs_it_names() -> None:
    """The card of every-pair-relative-and-absolute names pair 0 and pair d/2 - 1: the
    offset and distance printed for each are that pair's, by the exact chords (mpmath)."""
    from pe import claims

    (claim,) = [c for c in claims.all_claims() if c.id == "every-pair-relative-and-absolute"]
    (check,) = [c for c in claim.checks if c.run is measured._every_pair]
    text = check.run(check.true).text
    found = re.search(
        r"d=(\d+), p < (\d+):.*pair 0's closest two positions are (\d+) apart at distance "
        r"(\S+), pair (\d+)'s closest two positions are (\d+) apart at distance (\S+)$",
        text,
    )
    assert found is not None, text
    d, n, k0, distance0, last, k_last, distance_last = found.groups()
    assert int(last) == int(d) // 2 - 1
    with mpmath.workdps(30):
        for pair, k, distance in ((0, k0, distance0), (int(last), k_last, distance_last)):
            omega = mpmath.mpf(10000) ** (-mpmath.mpf(2 * pair) / int(d))
            exact_k, exact_distance = _exact_closest(omega, int(n))
            assert int(k) == exact_k
            assert _printed_within(distance, exact_distance), (pair, distance, exact_distance)


@pytest.mark.parametrize(("power", "law"), [(1, "w_i"), (wrong.DOUBLED_EXPONENT.value, "w_i^2")])
def test_the_dot_product_evidence_names_the_frequency_law_it_measured(power: int, law: str) -> None:
    """The card of dot-product-offset-only says which cosines the rows were compared with:
    cos(w_i (q - p)) for the paper's frequencies, cos(w_i^2 (q - p)) for the doubled exponent
    (a reader must not read the wrong candidate's line as the paper's law)."""
    text = measured._dot_products(power).text
    found = re.search(r"against sum_i cos\((\S+) \(q - p\)\)", text)
    assert found is not None, text
    assert found.group(1) == law


@pytest.mark.parametrize("contradicted_place", ["rise", "first negative"])
def test_the_decay_check_fails_when_mpmath_disagrees_at_either_place(
    monkeypatch: pytest.MonkeyPatch, contradicted_place: str
) -> None:
    """Both places float64 finds, the first rise and the first negative value, must be
    confirmed by mpmath: a reference that contradicts either one alone fails the check."""
    true = measured._not_monotone((43, 3284))
    assert true.holds, true.detail
    exact = geometry.reference_dot_by_offset
    asked = {"rise": [43, 44], "first negative": [3283, 3284]}[contradicted_place]

    def contradicted(d: int, offsets: Any) -> Any:
        values = np.array(exact(d, offsets))
        if list(offsets) == asked:  # the later value: lower than f(43), or not negative
            values[1] = values[0] - 1.0 if contradicted_place == "rise" else -values[1]
        return values

    monkeypatch.setattr(measured, "reference_dot_by_offset", contradicted)
    refused = measured._not_monotone((43, 3284))
    assert not refused.holds
    assert "confirmed with mpmath: no" in refused.detail


def test_frequencies_of_the_wrong_shape_are_named_with_the_shape_expected() -> None:
    with pytest.raises(ValueError, match=r"frequencies must have shape \(4,\), got \(3,\)"):
        geometry.rows_distance_past(8, horizon=1000, frequencies=np.ones(3))


def test_the_whole_turns_card_says_what_lindemann_gives() -> None:
    """The card states pi's transcendence as SymPy reports it, and the law's algebraic
    frequencies: a reworded branch ("not known transcendental" printed for the known
    fact) is caught. Fault caught: the condition of the printed clause inverted."""
    import sympy as sp

    from pe.chapters import implications

    def law(d: int) -> list[sp.Expr]:
        return [sp.Integer(10000) ** sp.Rational(-2 * i, d) for i in range(d // 2)]

    text = implications._no_whole_turns(law).text
    assert sp.pi.is_transcendental
    assert "pi is transcendental" in text
    assert "not known transcendental" not in text
    assert "256 of 256 of these frequencies are algebraic" in text


def test_a_range_without_a_negative_value_is_reported_as_never(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Offsets that stop before the first negative value (k = 3283 < 3284) give "never",
    with the rise still confirmed, instead of failing to format a missing value."""
    monkeypatch.setattr(proofs, "DECAY_RANGE", 3283)
    evidence = proofs._not_monotone((43, None))
    assert evidence.holds
    assert "first negative at k = None (never)" in evidence.text
    assert not proofs._not_monotone((43, 3284)).holds
