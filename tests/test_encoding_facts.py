"""pe.experiments.sinusoidal_encoding: indices, wavelengths, conventions, the worked example, means, geometry."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from pe import numeric
from pe.experiments import sinusoidal_encoding as encoding_facts

mpmath.mp.dps = 50


def test_pair_columns_cover_each_column_once() -> None:
    for d in (2, 8, 512):
        assert encoding_facts.pair_columns(d) == list(range(d))
        inclusive = encoding_facts.pair_columns(d, inclusive=True)
        assert inclusive[-2:] == [d, d + 1]


def test_wavelengths_against_mpmath_end_points() -> None:
    lam = encoding_facts.wavelengths(512)
    assert lam[0] == pytest.approx(float(2 * mpmath.pi), rel=1e-15)
    last = 2 * mpmath.pi * mpmath.power(10000, mpmath.mpf(510) / 512)
    assert lam[-1] == pytest.approx(float(last), rel=1e-14)
    assert lam[-1] < float(2 * mpmath.pi * 10000)
    ratio = float(mpmath.power(10000, mpmath.mpf(2) / 512))
    np.testing.assert_allclose(lam[1:] / lam[:-1], ratio, rtol=1e-14)


def test_wavelength_proof_and_wrong_candidates() -> None:
    proof = encoding_facts.wavelength_proof()
    assert proof.holds
    assert list(proof.residual) == [0, 0, 0, 0]
    assert not encoding_facts.wavelength_proof(last=2 * sp.pi * 10000).holds
    assert not encoding_facts.wavelength_proof(exponent_factor=4).holds


def test_one_indexed_frequencies_are_the_paper_shifted_by_one() -> None:
    d = 64
    paper, shifted = encoding_facts.frequency_sets(d)
    exact = [float(mpmath.power(10000, -mpmath.mpf(2 * i) / d)) for i in range(1, d // 2 + 1)]
    np.testing.assert_allclose(shifted, exact, rtol=1e-15)
    np.testing.assert_allclose(shifted[:-1], paper[1:], rtol=1e-15)
    assert shifted[0] < 1.0
    assert paper[0] == 1.0
    assert shifted[-1] == pytest.approx(1e-4, rel=1e-15)


def test_width_refinement() -> None:
    assert encoding_facts.width_refinement_proof().holds
    assert not encoding_facts.width_refinement_proof(index_factor=1).holds
    assert not encoding_facts.width_refinement_proof(index_factor=3).holds
    np.testing.assert_array_equal(numeric.frequencies(64), numeric.frequencies(128)[::2])


def test_reference_table_against_math_and_the_worked_values() -> None:
    table = encoding_facts.reference_table(4, 512)
    assert np.array_equal(table[0], np.tile([0.0, 1.0], 256))
    assert table[1, 0] == pytest.approx(math.sin(1.0), abs=1e-16)
    assert table[1, 1] == pytest.approx(math.cos(1.0), abs=1e-16)
    assert table[1, 256] == pytest.approx(math.sin(0.01), abs=1e-17)
    assert table[1, 511] == pytest.approx(math.cos(10000 ** (-510 / 512)), abs=1e-16)
    assert 1 - table[1, 511] < 1e-8
    np.testing.assert_allclose(numeric.sinusoidal(4, 512), table, atol=4.5e-16)


def test_binary_bits_against_format() -> None:
    bits = encoding_facts.binary_bits(64, 6)
    for p in range(64):
        assert [int(c) for c in reversed(f"{p:06b}")] == bits[p].tolist()


def test_ratio_equals_two_width() -> None:
    width, even = encoding_facts.ratio_equals_two_width(10000)
    assert not even
    assert float(width) == pytest.approx(2 * math.log2(10000), rel=1e-15)
    assert 10000 ** (2 / float(width)) == pytest.approx(2.0, rel=1e-14)
    width, even = encoding_facts.ratio_equals_two_width(2**13)
    assert even
    assert width == 26


def test_step_distance_proof() -> None:
    assert encoding_facts.step_distance_proof().holds
    assert not encoding_facts.step_distance_proof(half_angle=False).holds
    table = numeric.sinusoidal(50, 16)
    omega = numeric.frequencies(16)
    steps = np.linalg.norm(np.diff(table.reshape(50, 8, 2), axis=0), axis=2)
    expected = np.broadcast_to(2 * np.sin(omega / 2), steps.shape)
    np.testing.assert_allclose(steps, expected, atol=1e-14)


def test_period_mean_proof() -> None:
    assert encoding_facts.period_mean_proof().holds
    wrong = encoding_facts.period_mean_proof(squared=True)
    assert not wrong.holds
    assert list(wrong.residual) == [sp.Rational(1, 2), sp.Rational(1, 2)]


@pytest.mark.parametrize("n", [1, 4, 37])
def test_column_means_closed_form_against_mpmath(n: int) -> None:
    d = 16
    closed = encoding_facts.column_means_closed_form(n, d)
    for i in range(d // 2):
        w = mpmath.power(10000, -mpmath.mpf(2 * i) / d)
        sin_mean = sum(mpmath.sin(p * w) for p in range(n)) / n
        cos_mean = sum(mpmath.cos(p * w) for p in range(n)) / n
        assert closed[2 * i] == pytest.approx(float(sin_mean), abs=1e-13)
        assert closed[2 * i + 1] == pytest.approx(float(cos_mean), abs=1e-13)
    np.testing.assert_allclose(encoding_facts.column_means(n, d), closed, atol=1e-13)
    if n > 1:
        wrong = encoding_facts.column_means_closed_form(n, d, shift=0.0)
        assert np.abs(wrong - closed).max() > 1e-3


@pytest.mark.parametrize("width", [1, 2, 3])
def test_concat_projection_proof(width: int) -> None:
    assert encoding_facts.concat_projection_proof(width=width).holds
    assert not encoding_facts.concat_projection_proof(tied=True, width=width).holds


def test_projection_cost() -> None:
    cost = encoding_facts.projection_cost(512)
    assert cost["weights_add"] == 512 * 512
    assert cost["weights_concat"] == 2 * 512 * 512
    assert encoding_facts.projection_cost(8, 3)["madds_concat"] == 48


@pytest.mark.parametrize("d", [64, 1024])
def test_cosines_spread_like_one_over_sqrt_d(d: int) -> None:
    cosines = encoding_facts.cosine_embedding_encoding(d, n_tokens=500, n_positions=50)
    assert cosines.std() * math.sqrt(d) == pytest.approx(1.0, abs=0.08)
    aligned = encoding_facts.cosine_embedding_encoding(
        d, n_tokens=500, n_positions=50, aligned=True
    )
    assert aligned.mean() > 2 * cosines.std()


def test_encoding_subspace_share() -> None:
    rank, share = encoding_facts.encoding_subspace_share(100, 128)
    table = numeric.sinusoidal(100, 128)
    singular = np.linalg.svd(table, compute_uv=False)
    assert rank == int((singular > 1e-3 * singular[0]).sum())
    assert 1 <= rank < 128
    assert share == pytest.approx(rank / 128, rel=0.15)


def test_wrapped_rows_distance() -> None:
    assert encoding_facts.wrapped_rows_distance(64, horizon=2000) > 1.0
    assert encoding_facts.wrapped_rows_distance(64, horizon=2000, wrap=2000) == 0.0


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="d_model must be even"):
        encoding_facts.pair_columns(7)
    with pytest.raises(ValueError, match="horizon must be an integer >= 1000"):
        encoding_facts.wrapped_rows_distance(8, horizon=10)
    with pytest.raises(TypeError, match="base must be an integer"):
        encoding_facts.ratio_equals_two_width(1.5)  # type: ignore[arg-type]
