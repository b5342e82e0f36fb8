"""pe.experiments.failed_designs: the raw and normalised index fail; the requirements hold for PE."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from pe import numeric
from pe.experiments import failed_designs as naive_encodings


def test_position_share_against_a_direct_computation() -> None:
    embeddings = naive_encodings.toy_embeddings(1000, 64)
    norms = (embeddings**2).sum(axis=1)
    for p in (3, 40, 500):
        direct = np.mean([p * p / (p * p + n) for n in norms])
        share = naive_encodings.position_share([p], 64)[0]
        assert share == pytest.approx(direct, rel=1e-12)


def test_raw_share_rises_to_one_and_sinusoidal_share_is_flat() -> None:
    raw = naive_encodings.position_share([1, 10, 100, 1000, 10_000], 512)
    assert np.all(np.diff(raw) > 0)
    assert raw[-1] > 0.9999
    flat = naive_encodings.position_share([1, 10, 100, 1000, 10_000], 512, design="sinusoidal")
    assert np.ptp(flat) < 1e-12
    assert flat[0] < 0.5


def test_raw_index_ratio_grows_linearly() -> None:
    ratio = naive_encodings.raw_index_ratio([10, 100, 1000], 512)
    assert ratio[1] / ratio[0] == pytest.approx(10.0)
    assert 0.9 * 1000 < ratio[2] < 1.1 * 1000


def test_limit_proof_and_its_control() -> None:
    assert naive_encodings.position_share_limit_proof().holds
    control = naive_encodings.position_share_limit_proof(design="sinusoidal")
    assert not control.holds
    c = sp.Symbol("c", positive=True)
    assert sp.cancel(control.residual[0] + c / (1 + c)) == 0


def test_normalised_index_gaps_are_exact_fractions() -> None:
    for n in (4, 40, 7):
        gaps = np.diff(naive_encodings.normalised_index(n))
        exact = float(Fraction(1, n))
        np.testing.assert_allclose(gaps, exact, atol=2e-16)


def test_neighbour_gap_proof_and_wrong_gaps() -> None:
    assert naive_encodings.neighbour_gap_proof().holds
    assert naive_encodings.neighbour_gap_proof((4, 40, 400)).holds
    n = sp.Symbol("n", integer=True, positive=True)
    for wrong in (sp.Rational(1, 4), 1 / (n - 1), 2 / n):
        assert not naive_encodings.neighbour_gap_proof(gap=wrong).holds


@pytest.mark.parametrize("factor", [2, 3, sp.Rational(1, 2)])
def test_offset_distance_proof_rejects_mismatched_frequencies(factor: object) -> None:
    assert naive_encodings.offset_distance_proof().holds
    assert not naive_encodings.offset_distance_proof(cos_frequency_factor=factor).holds


def test_row_distance_by_offset_against_mpmath() -> None:
    mpmath.mp.dps = 30
    d = 16
    for k in (1, 7, 710, 12_345):
        exact = mpmath.sqrt(
            sum(
                2 - 2 * mpmath.cos(k * mpmath.power(10000, -mpmath.mpf(2 * i) / d))
                for i in range(d // 2)
            )
        )
        got = naive_encodings.row_distance_by_offset([k], d)[0]
        assert got == pytest.approx(float(exact), rel=1e-9)


def test_smallest_row_distance_against_loops() -> None:
    n, d = 60, 8
    table = numeric.sinusoidal(n, d)
    best = min((math.dist(table[p], table[q]), p, q) for p in range(n) for q in range(p + 1, n))
    got = naive_encodings.smallest_row_distance(n, d)
    assert got[0] == pytest.approx(best[0], abs=1e-7)


def test_a_single_pair_nearly_repeats_at_710() -> None:
    distance = naive_encodings.row_distance_by_offset(np.arange(1, 1000), 2)
    assert int(np.argmin(distance)) + 1 == 710
    assert distance.min() == pytest.approx(2 * abs(math.sin(710 / 2)), rel=1e-6)


def test_offset_distances_do_not_depend_on_the_start() -> None:
    measured = naive_encodings.offset_distances([1, 9], np.arange(0, 300, 11), 64)
    assert np.ptp(measured, axis=0).max() < 1e-12
    normalised = naive_encodings.offset_distances([1], [0, 1], 2, design="normalised", n=40)
    np.testing.assert_allclose(normalised, 0.025)


def test_pair_bounded_proof_and_controls() -> None:
    assert naive_encodings.pair_bounded_proof().holds
    p = sp.Symbol("p", real=True)
    w = sp.Symbol("omega", positive=True)
    assert not naive_encodings.pair_bounded_proof(second=2 * sp.cos(w * p)).holds
    assert not naive_encodings.pair_bounded_proof(second=p).holds


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="design must be"):
        naive_encodings.position_share([1], 8, design="log")
    with pytest.raises(ValueError, match="d_model must be even"):
        naive_encodings.row_distance_by_offset([1], 7)
    with pytest.raises(TypeError, match="n must be an integer"):
        naive_encodings.normalised_index(4.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="GiB"):
        naive_encodings.smallest_row_distance(100_000, 8)
