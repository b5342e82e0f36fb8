"""pe.position_scores: the scores against a 50-digit reference within their rounding bound,
and the projections that make a score relative or not."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from pe import numeric, position_scores, reference
from pe._rotation_table import ENTRY_ERROR_BOUND


@pytest.mark.parametrize(
    "projection",
    [position_scores.RANDOM, position_scores.ROTATION, position_scores.IDENTITY],
)
def test_scores_are_within_their_rounding_bound_of_the_exact_ones(
    projection: position_scores.Projection,
) -> None:
    """Exact rows (mpmath, 50 digits) times the same W, summed exactly: every float64 score
    is within score_rounding of it, and the bound is not loose by orders of magnitude."""
    n, d = 12, 8
    got = position_scores.scores(n, d, projection=projection)
    rng = np.random.default_rng(0)
    rng.standard_normal(d)  # the content vector scores() draws first
    w = projection.build(rng, d)
    with mpmath.workdps(50):
        rows = mpmath.matrix([[reference.entry(p, c, d) for c in range(d)] for p in range(n)])
        exact = rows * mpmath.matrix(w.tolist()) * rows.T
        error = max(abs(got[p, q] - exact[p, q]) for p in range(n) for q in range(n))
    bound = position_scores.score_rounding(n, d, projection=projection)
    assert float(error) <= bound
    assert bound < 1e-12


def test_a_random_projection_is_far_from_relative_and_rotations_are_not() -> None:
    for projection, relative in (
        (position_scores.IDENTITY, True),
        (position_scores.ROTATION, True),
        (position_scores.RANDOM, False),
    ):
        scores = position_scores.scores(60, 16, projection=projection)
        spread = position_scores.offset_spread(scores)[0]
        rounding = 2 * position_scores.score_rounding(60, 16, projection=projection)
        assert (spread <= rounding) is relative, projection.name


def test_decay_facts_refuses_a_range_without_a_rise() -> None:
    with pytest.raises(ValueError, match="never rises"):
        position_scores.decay_facts(512, 10)


@pytest.mark.parametrize(
    "projection", [position_scores.RANDOM, position_scores.ROTATION, position_scores.IDENTITY]
)
def test_score_rounding_is_its_documented_formula(projection: position_scores.Projection) -> None:
    """2 gamma_d |R||W||R|^T + delta (1^T |W| |R|^T + |R| |W| 1), its largest entry: both
    terms of the rows' error add (a fault that subtracts one makes the bound too small)."""
    n, d = 12, 8
    rng = np.random.default_rng(0)
    rng.standard_normal(d)  # the content vector scores() draws first
    w = np.abs(projection.build(rng, d))
    rows = np.abs(numeric.sinusoidal(n, d))
    u = 2.0**-53
    gamma_d = d * u / (1 - d * u)
    by_entry = [
        [
            2 * gamma_d * float(rows[p] @ w @ rows[q])
            + ENTRY_ERROR_BOUND * float(np.ones(d) @ w @ rows[q] + rows[p] @ w @ np.ones(d))
            for q in range(n)
        ]
        for p in range(n)
    ]
    bound = position_scores.score_rounding(n, d, projection=projection)
    assert bound == pytest.approx(max(map(max, by_entry)), rel=1e-12, abs=0)
