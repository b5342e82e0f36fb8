"""The error models' and tolerances' edges, crossed from both sides.

An error equal to its tolerance holds and the next float above it fails (``within``,
``checked``, ``at_most``); ``gamma(n)`` is defined up to ``n u < 1`` and no further; a
tolerance of 0 is allowed and the smallest negative one is not; a wrong candidate is
loose up to the tolerance plus exactly ``MARGIN`` rounding bounds.
"""

from __future__ import annotations

import math

import pytest

from pe import claims
from pe._tolerance import EPS64, Tolerance, gamma
from pe.claims import Candidate

from .helpers import claim_of, within

UP = math.inf


@pytest.mark.parametrize("value", [1e-15, 0.5, 3.0])
def test_an_error_at_the_tolerance_holds_and_one_float_above_fails(value: float) -> None:
    tolerance = Tolerance(value, "a test's bound")
    assert claims.within(value, tolerance, "x").holds
    assert not claims.within(math.nextafter(value, UP), tolerance, "x").holds
    assert claims.checked(True, "x", error=value, tolerance=tolerance).holds
    above = math.nextafter(value, UP)
    assert not claims.checked(True, "x", error=above, tolerance=tolerance).holds


def test_at_most_holds_up_to_the_bound_plus_the_rounding() -> None:
    rounding = Tolerance(1e-12, "a test's bound")
    assert claims.at_most(1.0 + 0.5e-12, 1.0, rounding, "x").holds
    assert not claims.at_most(1.0 + 2e-12, 1.0, rounding, "x").holds
    assert claims.at_most(1.0, 1.0, rounding, "x").error == 0.0


def test_gamma_is_defined_below_n_u_equal_one_only() -> None:
    u = EPS64 / 2
    largest = math.floor(1 / u) - 1  # n u < 1
    assert math.isfinite(gamma(largest))
    with pytest.raises(ValueError, match="n u < 1"):
        gamma(math.ceil(1 / u))
    with pytest.raises(ValueError, match="n u < 1"):
        gamma(-1)
    assert gamma(3, eps=0.5) == pytest.approx(3 * 0.25 / (1 - 3 * 0.25), rel=1e-6, abs=0)
    with pytest.raises(ValueError, match="n u < 1"):
        gamma(4, eps=0.5)


def test_a_tolerance_of_zero_is_allowed_and_the_smallest_negative_is_not() -> None:
    assert Tolerance(0.0, "exact").value == 0.0
    with pytest.raises(ValueError, match="finite number >= 0"):
        Tolerance(-5e-324, "below zero")
    with pytest.raises(ValueError, match="finite number >= 0"):
        Tolerance(0.0, "x", stated=-5e-324)


@pytest.mark.parametrize(("rounding", "stated"), [(1.0, 0.0), (0.25, 2.0), (1e-9, 0.0)])
def test_a_candidate_is_loose_up_to_margin_rounding_bounds(rounding: float, stated: float) -> None:
    reach = stated + rounding + claims.MARGIN * rounding
    check = within(rounding, stated)
    at = claims.run(claim_of(claims.Check(check, 2.0, (Candidate("at", 2.0 + reach),))))
    # errors are computed as |value - 2|: compare with what the check measured
    measured = at.controls[0].error
    assert measured is not None
    if measured <= reach:
        assert at.loose
    beyond = 2.0 + reach * (1 + 1e-9) + 1e-12
    far = claims.run(claim_of(claims.Check(check, 2.0, (Candidate("beyond", beyond),))))
    assert far.ok, far.problems
    inside = 2.0 + (stated + rounding) + claims.MARGIN * rounding * 0.99
    near = claims.run(claim_of(claims.Check(check, 2.0, (Candidate("inside", inside),))))
    assert near.controls_rejected
    assert near.loose


def test_power_rounding_is_one_rounding_exactly_at_powers_of_two() -> None:
    """b^(-2i/d) is exact in its exponent only when d is a power of two: every other even
    width carries the ln(b) u of a rounded exponent (10, 18, 34 included, whose bits are
    alternate)."""
    from pe._tolerance import exponential_rounding, power_rounding

    for d in range(2, 4097, 2):
        expected = exponential_rounding(math.log(10000.0), 0 if d.bit_count() == 1 else 1)
        assert power_rounding(d) == expected, d
