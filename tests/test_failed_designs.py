"""Chapter failed-designs: the raw and normalised index fail (proofs and measurements, with
their wrong candidates); the requirements hold for the sinusoidal encoding."""

from __future__ import annotations

import math
import re
from functools import partial

import mpmath
import numpy as np
import pytest
import sympy as sp

from pe import MAX_BYTES, geometry, numeric, position_designs, reference
from pe.chapters import failed_designs as designs
from pe.chapters import failed_designs as proofs
from pe.embeddings import random_embeddings
from tests.helpers import wrong


def test_limit_proof_and_its_control() -> None:
    assert proofs.share_limit().holds
    control = proofs.share_limit(wrong.PAIR_SHARE.value)
    assert not control.holds
    c = sp.Symbol("c", positive=True)
    assert sp.cancel(control.residual[0] + c / (1 + c)) == 0


def test_neighbour_gap_proof_and_wrong_gaps() -> None:
    assert proofs.neighbour_gap().holds
    assert proofs.neighbour_gap(lengths=(4, 40, 400)).holds
    for candidate in (wrong.CONSTANT_GAP, wrong.GAP_ONE_OVER_N_MINUS_ONE):
        assert not proofs.neighbour_gap(candidate.value).holds
    assert not proofs.neighbour_gap(lambda n: 2 / n).holds


def _cosine_at(factor: object, p: object, w: object) -> sp.Matrix:
    """A pair whose cosine turns at ``factor`` times the sine's frequency."""
    return sp.Matrix([sp.sin(w * p), sp.cos(factor * w * p)])  # type: ignore[operator]


def test_offset_distance_proof_rejects_mismatched_frequencies() -> None:
    assert proofs.offset_distance().holds
    assert not proofs.offset_distance(wrong.DOUBLED_COSINE_PAIR.value).holds
    for factor in (3, sp.Rational(1, 2)):
        assert not proofs.offset_distance(partial(_cosine_at, factor)).holds


def test_row_distance_by_offset_against_mpmath() -> None:
    d = 16
    omegas = reference.frequencies(d, dps=30)
    for k in (1, 7, 710, 12_345):
        exact = mpmath.sqrt(sum(2 - 2 * mpmath.cos(k * w) for w in omegas))
        got = geometry.row_distance_by_offset([k], d)[0]
        assert got == pytest.approx(float(exact), rel=1e-9, abs=0)


def test_smallest_row_distance_against_loops() -> None:
    n, d = 60, 8
    table = numeric.sinusoidal(n, d)
    best = min((math.dist(table[p], table[q]), p, q) for p in range(n) for q in range(p + 1, n))
    got = geometry.smallest_row_distance(n, d)
    assert got[0] == pytest.approx(best[0], abs=1e-7)


def test_a_single_pair_nearly_repeats_at_710() -> None:
    distance = geometry.row_distance_by_offset(np.arange(1, 1000), 2)
    assert int(np.argmin(distance)) + 1 == 710
    assert distance.min() == pytest.approx(2 * abs(math.sin(710 / 2)), rel=1e-6, abs=0)


def test_pair_bounded_proof_and_controls() -> None:
    assert proofs.pair_bounded().holds
    assert not proofs.pair_bounded(lambda p, w: sp.Matrix([sp.sin(w * p), 2 * sp.cos(w * p)])).holds
    assert not proofs.pair_bounded(wrong.RAW_INDEX_PAIR.value).holds
    assert not proofs.pair_bounded(wrong.DOUBLED_COSINE_PAIR.value).holds


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="d_model must be even"):
        position_designs.position_share(position_designs.raw_index, [1], 7)
    with pytest.raises(ValueError, match="d_model must be even"):
        geometry.row_distance_by_offset([1], 7)
    with pytest.raises(TypeError, match="n must be an integer"):
        position_designs.normalised_index(4.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="GiB"):
        geometry.smallest_row_distance(100_000, 8)


def test_designs_and_the_wrong_tables() -> None:
    far = np.array([0, 1, 2**53])
    assert position_designs.raw_index(far, 3, 8)[-1, 0] == 2.0**53
    np.testing.assert_array_equal(
        position_designs.normalised(np.arange(4), 4, 8)[:, 0], [0, 0.25, 0.5, 0.75]
    )
    with pytest.raises(ValueError, match="no row for position 9007199254740992"):
        wrong.LEARNED_TABLE.value(far, 3, 8)
    assert designs.one_over_n(4) == 0.25


def test_checks_that_could_not_fail_now_reject_near_misses() -> None:
    """encoding-any-position used a tolerance of eps + 4 eps w p, about 8 at p = 2^53 (any
    value in [-1, 1] passed); encoding-rows-distinct asked only for a distance above 1."""
    from pe.chapters import failed_designs as claims

    eps = float(np.finfo(np.float64).eps)
    assert eps + 4 * eps * 2.0**53 > 2  # the old tolerance at p = 2^53, pair 0
    assert claims._any_position(position_designs.sinusoidal).holds
    assert not claims._any_position(wrong.FLOAT64_ANGLES_DESIGN.value).holds
    assert claims._distinct(512).holds
    assert not claims._distinct(wrong.FOUR_PAIRS.value).holds
    # d = 16 passes the new criterion, so the old "> 1" was not what separated them
    assert claims._distinct(16).holds
    assert claims._deterministic(position_designs.sinusoidal).holds
    assert not claims._deterministic(wrong.ROTATED_FROM_FIRST.value).holds


def test_determinism_rejects_a_design_that_depends_on_the_length() -> None:
    """The control of encoding-deterministic is the same check fed a neighbouring design: the
    index divided by the length gives the same bits in repeated and shuffled calls, and is
    caught only by the shorter sentence."""
    from pe.chapters import failed_designs as claims

    design = wrong.NORMALISED_INDEX.value
    positions = np.arange(64)
    np.testing.assert_array_equal(design(positions, 64, 512), design(positions, 64, 512))
    assert not claims._deterministic(design).holds


def test_closest_points_of_one_pair_against_mpmath() -> None:
    p, q, distance = geometry.closest_rows(geometry.one_pair_points(1000, 1.0))
    with mpmath.workdps(30):
        exact = 2 * abs(mpmath.sin(mpmath.mpf(q - p) / 2))
        # The true closest offset below 1000, by the exact distance of every offset.
        best = min(range(1, 1000), key=lambda k: 2 * abs(mpmath.sin(mpmath.mpf(k) / 2)))
    assert q - p == best == 710
    assert abs(distance - float(exact)) <= 8 * 2**-52
    assert geometry.separation_floor(1000, 1.0) < distance < 1e-4


@pytest.mark.parametrize(("omega", "period"), [(1.0, None), (math.pi / 4, 8)])
def test_the_one_pair_evidence_names_the_smallest_offset_of_the_closest_points(
    omega: float, period: int | None
) -> None:
    """What the claim card prints: the smallest offset whose exact distance (mpmath) is the
    least, which for a pair turning 1/8 of a turn is its period 8, not one of the multiples
    of 8 where float64 rounding happens to land lowest; no pair is named as if it alone
    were closest (every pair k apart ties)."""
    text = designs._one_pair(omega).text
    found = re.search(r"the smallest offset that close is k = (\d+) ", text)
    assert found is not None, text
    if period is None:  # no repeat: the offset of the least exact distance, 710
        with mpmath.workdps(30):
            exact = [2 * abs(mpmath.sin(mpmath.mpf(omega) * j / 2)) for j in range(1, 1000)]
        period = 1 + min(range(999), key=lambda j: exact[j])
        assert period == 710
    assert int(found.group(1)) == period


def test_a_pair_that_turns_a_rational_fraction_of_a_turn_repeats() -> None:
    _, _, distance = geometry.closest_rows(
        geometry.one_pair_points(1000, wrong.RATIONAL_TURN.value)
    )
    assert distance < geometry.separation_floor(1000, wrong.RATIONAL_TURN.value)


def test_closest_rows_refuses_more_pairs_than_the_cap_before_allocating() -> None:
    """Every pair's difference is count * count * width float64 numbers: 100,000 points of
    one pair (1.6 MB) would need 160 GB, and 8193 points 8 bytes an entry above 1 GiB."""
    with pytest.raises(ValueError, match=r"pe\.MAX_BYTES"):
        geometry.closest_rows(geometry.one_pair_points(100_000, 1.0))
    count = 8193
    assert count * count * 2 * 8 > MAX_BYTES >= (count - 1) ** 2 * 2 * 8
    with pytest.raises(ValueError, match=r"pe\.MAX_BYTES"):
        geometry.closest_rows(geometry.one_pair_points(count, 1.0))


@pytest.mark.parametrize("rows", [np.zeros(3), np.zeros((1, 2))])
def test_closest_rows_refuses_fewer_than_two_rows(rows: np.ndarray) -> None:
    with pytest.raises(ValueError, match="at least two rows"):
        geometry.closest_rows(rows)


def test_the_offset_check_refuses_rows_rounded_to_float32() -> None:
    """The offset distances are held to their rounding bound (about 1e-11), not to 1 in
    absolute terms: the sinusoidal table rounded to float32 (distances off by about 1e-7,
    far under 1) fails, the float64 table passes."""

    def float32_table(positions: np.ndarray, _n: int, d_model: int) -> np.ndarray:
        table = numeric.sinusoidal(np.abs(positions), d_model, dtype=np.float32)
        return np.asarray(table, dtype=np.float64)

    assert designs._offsets(position_designs.sinusoidal).holds
    rounded = designs._offsets(float32_table)
    assert not rounded.holds
    assert rounded.error is not None
    assert rounded.error > 1.0


def test_share_card_prints_the_share_at_each_of_its_positions() -> None:
    """The raw-index card prints the mean share p^2 / (p^2 + |e|^2) over its 1000 embeddings
    at p = 10, 100 and 1000, each at its own position, recomputed here with mpmath.

    Fault caught: one position's share printed in another's place."""
    squares = (random_embeddings(1000, 512, position_designs.SEED) ** 2).sum(axis=1).tolist()
    with mpmath.workdps(30):
        shares = [
            float(mpmath.fsum(p**2 / (p**2 + mpmath.mpf(s)) for s in squares) / len(squares))
            for p in (10, 100, 1000)
        ]
    text = designs._share(position_designs.raw_index).text
    assert f"is {shares[0]:.3g}, {shares[1]:.3g}, {shares[2]:.4g} at p = 10, 100, 1000" in text
    assert len({f"{s:.3g}" for s in shares}) == 3
