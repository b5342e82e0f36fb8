"""Positions as users hold them: whole-valued floats everywhere, fractional ones where RoPE allows.

- every function that takes integer positions or offsets accepts a float array whose values
  are whole numbers and gives the same bits as for the integers;
- a fractional, NaN or infinite value is refused with a one-line ``ValueError`` that names
  the value and its index;
- :func:`pe.rope` (and the rest of :mod:`pe.rotary` that rotates by positions) accepts
  fractional positions, as position interpolation produces them, within the error model
  stated in its docstring, checked against mpmath.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import pytest

import pe
from pe import numeric, reference, rotary

WHOLE = np.array([0.0, 1.0, 5.0, 130.0, 4096.0])

# Each function of integer positions, called with positions ``v``: its result as an array.
INTEGER_TAKERS: dict[str, Callable[[Any], Any]] = {
    "sinusoidal": lambda v: pe.sinusoidal(v, 16),
    "sinusoidal-float32": lambda v: pe.sinusoidal(v, 16, dtype=np.float32),
    "sinusoidal_direct": lambda v: numeric.sinusoidal_direct(v, 16),
    "check_rotation_identity-positions": lambda v: pe.check_rotation_identity(8, v, 3).summary(),
    "check_rotation_identity-offsets": lambda v: pe.check_rotation_identity(8, 4, v).summary(),
    "fitted_shift_matrix": lambda v: numeric.fitted_shift_matrix(
        1, 4, np.concatenate([v, v[:3] + 7])
    ),
    "offset_error-positions": lambda v: rotary.offset_error(np.ones(4), np.ones(4), v, [1]),
    "offset_error-offsets": lambda v: rotary.offset_error(np.ones(4), np.ones(4), [0], v),
    "offset_tolerance": lambda v: rotary.offset_tolerance(np.ones(4), np.ones(4), v, v),
    "check_offset_dependence": lambda v: rotary.check_offset_dependence(8, v, v).summary(),
    "rope": lambda v: pe.rope(np.ones((v.size, 8)), v),
    "rope_angles": lambda v: rotary.rope_angles(v, 8),
    "rope_scores": lambda v: rotary.rope_scores(np.ones(8), np.arange(8.0), v, v[::-1]),
}

# The functions above that need whole numbers: each with a fractional value at index 2.
FRACTIONAL_REFUSERS = [name for name in INTEGER_TAKERS if not name.startswith("rope")]


def same(a: Any, b: Any) -> bool:
    return a == b if isinstance(a, str) else bool(np.array_equal(a, b))


@pytest.mark.parametrize("name", INTEGER_TAKERS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_whole_floats_give_the_same_result_as_integers(name: str, dtype: type) -> None:
    call = INTEGER_TAKERS[name]
    assert same(call(WHOLE.astype(dtype)), call(WHOLE.astype(np.int64)))


def test_arange_of_floats_is_accepted_by_rope_and_sinusoidal() -> None:
    """The issue's example: ``pe.rope(x, np.arange(5.0))`` was refused."""
    x = np.random.default_rng(0).standard_normal((5, 8))
    assert np.array_equal(pe.rope(x, np.arange(5.0)), pe.rope(x, np.arange(5)))
    assert np.array_equal(pe.sinusoidal(np.arange(5.0), 8), pe.sinusoidal(5, 8))


@pytest.mark.parametrize("name", FRACTIONAL_REFUSERS)
@pytest.mark.parametrize(
    ("bad", "shown"),
    [(2.5, "got 2.5 at index 2"), (float("nan"), "got nan at index 2"), (np.inf, "got inf at")],
)
def test_a_non_integral_value_is_named(name: str, bad: float, shown: str) -> None:
    values = WHOLE.copy()
    values[2] = bad
    with pytest.raises(ValueError, match=shown) as raised:
        INTEGER_TAKERS[name](values)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("name", [n for n in INTEGER_TAKERS if n.startswith("rope")])
def test_rope_refuses_nan_and_infinite_positions(name: str) -> None:
    for bad in (np.nan, -np.inf):
        values = WHOLE.copy()
        values[1] = bad
        with pytest.raises(ValueError, match=r"positions must be finite, got .* at index 1"):
            INTEGER_TAKERS[name](values)


def test_huge_float_positions_are_refused_by_magnitude() -> None:
    with pytest.raises(ValueError, match=r"within \+-2\*\*53, got 1e\+17"):
        pe.rope(np.ones((1, 4)), [1e17])
    with pytest.raises(ValueError, match=r"positions must be <= 2\*\*53"):
        pe.sinusoidal(np.array([2.0**60]), 4)


# --------------------------------------------------------------------------------------------
# Fractional positions in RoPE, against mpmath.

FRACTIONAL = np.array([0.5, 0.25, 1.75, 1000.125, -3.3, 65536.0 / 3.0, 1e6 + 0.1])
D = 16


def exact_rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Adjacent-pair RoPE at 50 digits, each position taken as the float64 number it is."""
    out = np.empty_like(x, dtype=np.float64)
    omega = reference.frequencies(D)
    with mpmath.workdps(reference.DPS):
        for row, p in enumerate(positions.tolist()):
            for i, w in enumerate(omega):
                theta = mpmath.mpf(p) * w
                c, s = mpmath.cos(theta), mpmath.sin(theta)
                a, b = mpmath.mpf(float(x[row, 2 * i])), mpmath.mpf(float(x[row, 2 * i + 1]))
                out[row, 2 * i] = float(a * c - b * s)
                out[row, 2 * i + 1] = float(b * c + a * s)
    return out


def rope_bound(x: np.ndarray, positions: np.ndarray, dtype: type = np.float64) -> np.ndarray:
    """The docstring's model: angle error ``2 eps_a w_i |p|`` times the pair's norm, plus
    four float64 roundings of values at most the pair's norm."""
    eps_a = float(np.finfo(dtype).eps)
    eps64 = float(np.finfo(np.float64).eps)
    norms = np.hypot(x[:, 0::2], x[:, 1::2])
    angle = 2.0 * eps_a * np.abs(positions)[:, None] * numeric.frequencies(D)[None, :]
    return np.repeat(norms * (angle + 4.0 * eps64), 2, axis=1)


@pytest.fixture
def rows() -> np.ndarray:
    return np.random.default_rng(5).standard_normal((FRACTIONAL.size, D))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fractional_positions_are_within_the_error_model(rows: np.ndarray, dtype: type) -> None:
    positions = FRACTIONAL.astype(dtype).astype(np.float64)  # the numbers the rotation sees
    computed = pe.rope(rows, positions, angle_dtype=dtype)
    error = np.abs(computed - exact_rope(rows, positions))
    assert np.all(error <= rope_bound(rows, positions, dtype))


def test_rounding_fractional_positions_is_caught_by_the_same_check(rows: np.ndarray) -> None:
    """A wrong candidate: positions rounded to integers leave the error model's bound."""
    wrong = pe.rope(rows, np.round(FRACTIONAL))
    error = np.abs(wrong - exact_rope(rows, FRACTIONAL))
    assert np.any(error > 1e6 * rope_bound(rows, FRACTIONAL))


def test_interpolated_positions_equal_the_scale_argument(rows: np.ndarray) -> None:
    """``rope(x, p / s)`` and ``rope(x, p, scale=s)``: the same angles for exact quotients."""
    positions = np.array([0, 1, 3, 4, 1000, 4095, -8])
    for s in (2.0, 4.0, 8.0):  # p / s exact in float64
        assert np.array_equal(pe.rope(rows, positions / s), pe.rope(rows, positions, scale=s))
    # s = 3: p / 3 is rounded in both, by the same float64 division
    quotient = rotary.rope_angles(positions / 3.0, D)
    assert np.array_equal(quotient, rotary.rope_angles(positions, D, scale=3.0))


def score_tolerance(q: np.ndarray, k: np.ndarray, m: np.ndarray, r: float) -> np.ndarray:
    """The module's bound on ``|s(m, m + r) - <q, R_r k>|``, at real ``m`` and ``r``."""
    eps = float(np.finfo(np.float64).eps)
    omega = numeric.frequencies(D)
    rho = np.hypot(q[0::2], q[1::2]) * np.hypot(k[0::2], k[1::2])
    reach = np.abs(m) + np.abs(m + r) + abs(r)
    tau = 2.0 * eps * float(np.sum(rho * omega)) * reach + (D + 8) * eps * float(rho.sum())
    return np.asarray(tau, dtype=np.float64)


def test_fractional_scores_depend_only_on_the_offset() -> None:
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal(D), rng.standard_normal(D)
    starts = np.array([0.5, 17.25, 1000.125, -40.75])
    for r in (0.5, 3.0, 10.25):
        scores = rotary.rope_scores(q, k, starts, starts + r)
        offset_only = rotary.rope_scores(q, k, [0.0], [r])[0]
        assert np.all(np.abs(scores - offset_only) <= score_tolerance(q, k, starts, r))
    # a score at offset 0.5 is neither the score at offset 0 nor at 1 (the check can fail)
    half = rotary.rope_scores(q, k, [0.0], [0.5])[0]
    whole = rotary.rope_scores(q, k, [0, 0], [0, 1])
    assert np.all(np.abs(whole - half) > 1e3 * score_tolerance(q, k, np.zeros(1), 1.0))
