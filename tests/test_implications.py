"""pe.experiments.implications: dot products, norms, distances and scores, against independent references."""

from __future__ import annotations

import inspect

import mpmath
import numpy as np
import pytest
import sympy as sp

from pe import numeric, symbolic
from pe.experiments import implications as similarity


def _mp_f(k: int, d: int) -> float:
    with mpmath.workdps(50):
        total = mpmath.fsum(
            mpmath.cos(k * mpmath.power(10000, mpmath.mpf(-2 * i) / d)) for i in range(d // 2)
        )
        return float(total)


@pytest.mark.parametrize("k", [0, 1, 43, 44, 1000, -17])
def test_dot_by_offset_against_mpmath(k: int) -> None:
    assert abs(similarity.dot_by_offset(64, [k])[0] - _mp_f(k, 64)) < 1e-12


def test_dot_by_offset_matches_table_rows_at_any_position() -> None:
    table = numeric.sinusoidal(np.array([5, 12, 900, 907]), 32)
    f7 = similarity.dot_by_offset(32, [7])[0]
    assert abs(table[0] @ table[1] - f7) < 1e-12
    assert abs(table[2] @ table[3] - f7) < 1e-12
    assert abs(table[0] @ table[3] - f7) > 0.1  # offset 902 is different


def test_first_rise() -> None:
    assert similarity.first_rise([3.0, 2.0, 1.0, 2.0]) == 2
    assert similarity.first_rise([3.0, 2.0, 1.0]) is None
    assert similarity.first_rise([1.0, 1.0]) is None


def test_first_rise_for_d512_is_where_mpmath_says() -> None:
    f = similarity.dot_by_offset(512, np.arange(200))
    rise = similarity.first_rise(f)
    assert rise is not None
    assert _mp_f(rise + 1, 512) > _mp_f(rise, 512)
    assert all(_mp_f(k + 1, 512) < _mp_f(k, 512) for k in range(0, rise, 6))


def test_nearest_rows_against_brute_force() -> None:
    n, d = 300, 16
    table = numeric.sinusoidal(n, d)
    best = (np.inf, 0)
    for p in range(n):
        for q in range(p + 1, n):
            dist = float(np.linalg.norm(table[p] - table[q]))
            if dist < best[0]:
                best = (dist, q - p)
    k, dist = similarity.nearest_rows(n, d)
    assert k == best[1]
    assert abs(dist - best[0]) < 1e-12


def test_nearest_rows_refuses_one_position() -> None:
    with pytest.raises(ValueError, match="n_positions"):
        similarity.nearest_rows(1, 16)


def test_pair_min_distance_against_brute_force() -> None:
    omega = np.array([1.0, 0.01, 2 * np.pi / 8])
    distances, where = similarity.pair_min_distance(omega, 50)
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


def test_offset_spread() -> None:
    toeplitz = np.subtract.outer(np.arange(20), np.arange(20)).astype(float) ** 2
    assert similarity.offset_spread(toeplitz)[0] == 0.0
    broken = toeplitz.copy()
    broken[3, 5] += 1.0
    assert similarity.offset_spread(broken)[0] == 1.0


def test_scores_relative_only_for_raw_and_rotation_blocks() -> None:
    for projection, relative in (("identity", True), ("rotation", True), ("random", False)):
        spread, scale = similarity.offset_spread(similarity.scores(80, 32, projection=projection))
        assert (spread < 1e-10 * scale) is relative, projection
    spread, scale = similarity.offset_spread(
        similarity.scores(80, 32, content=1.0, projection="identity")
    )
    assert spread > 0.01 * scale  # content breaks it even without projections


def test_scores_bad_projection() -> None:
    with pytest.raises(ValueError, match="projection must be"):
        similarity.scores(10, 8, projection="learned")


def test_symbolic_dot_products_and_wrong_candidates() -> None:
    assert similarity.dot_product_per_pair().holds
    assert not similarity.dot_product_per_pair(lambda k, w: sp.sin(k * w)).holds
    assert similarity.dot_product_concrete(8).holds
    assert not similarity.dot_product_concrete(8, doubled=True).holds
    assert similarity.offset_symmetry().holds
    assert not similarity.offset_symmetry(lambda _k, w: symbolic.shift_block(1, w)).holds


def test_symbolic_norm_and_distance() -> None:
    assert similarity.norm_per_pair().holds
    assert not similarity.norm_per_pair(
        lambda p, w: sp.Matrix([sp.sin(w * p), sp.sin(w * p)])
    ).holds
    assert similarity.norm_concrete(16).holds
    assert not similarity.norm_concrete(16, claimed=16).holds
    assert similarity.distance_identity().holds
    assert not similarity.distance_identity(lambda p, q, w: 2 - 2 * sp.cos(w * (p + q))).holds


def test_symbolic_attention_terms() -> None:
    assert similarity.attention_four_terms().holds
    assert not similarity.attention_four_terms(drop_cross_terms=True).holds
    assert similarity.position_term().holds
    assert not similarity.position_term(relative_only=True).holds


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
        similarity.dot_product_concrete(128)
    with pytest.raises(ValueError, match="d_model"):
        similarity.norm_concrete(7)


def test_no_simplify() -> None:
    assert "simplify(" not in inspect.getsource(similarity)
