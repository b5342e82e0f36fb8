"""Each tolerance function is its documented error model, restated here term by term.

A tolerance loosened (or tightened) in the code but not in the model its docstring and its
claim state fails here, even where every candidate the claims try is wrong by far more.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np
import pytest

from pe import _rotation_table, _tolerance, error_models, numeric, rotary
from pe.accuracy import ulps_error

EPS64 = 2.0**-52
EPS: dict[Any, float] = {np.float16: 2.0**-10, np.float32: 2.0**-23, np.float64: 2.0**-52}


@pytest.mark.parametrize("dtype", list(EPS))
def test_phase_tolerance_is_4_eps_plus_4_eps64_omega_reach(dtype: Any) -> None:
    omega = np.array([1.0, 0.1, 1e-4])[:, None]
    reach = np.array([0.0, 3.0, -250.0, 2.0**40])[None, :]
    stated = 4 * EPS[dtype] + 4 * EPS64 * omega * np.abs(reach)
    np.testing.assert_array_equal(_tolerance.phase_tolerance(EPS[dtype], omega, reach), stated)


@pytest.mark.parametrize("dtype", list(EPS))
def test_rotation_tolerance_reach_is_p_plus_k(dtype: Any) -> None:
    omega, p, k = np.array([1.0, 1e-3]), np.array([[0.0], [7.0], [4096.0]]), -5
    stated = 4 * EPS[dtype] + 8 * EPS64 + 4 * EPS64 * omega * (np.abs(p) + abs(k))
    np.testing.assert_array_equal(numeric.rotation_tolerance(omega, p, k, dtype), stated)


def test_shift_tolerance_covers_its_derivation() -> None:
    """(2 sqrt2 + 1) cosines and sines within 1 ulp, the dtype's roundings, the angles."""
    for eps in EPS.values():
        for reach in (0.0, 1.0, 1e6):
            derived = (2 * math.sqrt(2) + 1) * _tolerance.ELEMENTARY_ULPS * EPS64
            derived += (2 * math.sqrt(2) + 1) * eps / 2 + _tolerance.gamma(2, eps)
            derived += (2 * math.sqrt(2) + 1) * EPS64 / 2 * reach
            assert derived <= float(_tolerance.shift_tolerance(eps, 1.0, reach))


def test_law_and_dot_tolerances() -> None:
    u = EPS64 / 2
    for reach in (0.0, 25.0, 12345.0):
        assert error_models.shift_product_bound(reach) == 12 * EPS64 + 4 * EPS64 * reach
        d = 64
        stated = (
            math.sqrt(2) * d * _rotation_table.ENTRY_ERROR_BOUND
            + d * u / (1 - d * u) * d / 2
            + d / 2 * (EPS64 + (u + u) * reach)
            + (d / 2) * u / (1 - (d / 2) * u) * d / 2
        )
        assert error_models.dot_product_bound(d, reach) == pytest.approx(stated, rel=1e-12, abs=0)


def test_gamma_is_n_u_over_1_minus_n_u() -> None:
    u = EPS64 / 2
    for n in (0, 1, 2, 64, 10**6):
        assert _tolerance.gamma(n) == pytest.approx(n * u / (1 - n * u), rel=1e-15, abs=0)
    assert _tolerance.gamma(3, 2.0**-23) == pytest.approx(
        3 * 2.0**-24 / (1 - 3 * 2.0**-24), rel=1e-15, abs=0
    )
    for bad in (-1, 2**60):
        with pytest.raises(ValueError, match="gamma needs"):
            _tolerance.gamma(bad)


def test_power_rounding_has_exact_exponents_for_powers_of_two() -> None:
    assert _tolerance.power_rounding(512) == _tolerance.ELEMENTARY_ULPS * EPS64
    assert _tolerance.power_rounding(768) == pytest.approx(
        _tolerance.ELEMENTARY_ULPS * EPS64 + math.log(10000.0) * EPS64 / 2, rel=1e-14, abs=0
    )


def elementary_ulps() -> dict[str, float]:
    """The largest error, in ulps, of NumPy's sin, cos, exp and power on 2000 arguments each.

    Where the tolerances use them: angles up to 2^20, exponents of frequency laws.
    """
    rng = np.random.default_rng(11)
    angles = np.concatenate([rng.uniform(-4, 4, 1000), rng.uniform(0, 2.0**20, 1000)])
    exponents = rng.uniform(-1, 0, 2000)
    powers = np.power(10000.0, exponents)
    logs = rng.uniform(-12, 2, 2000)
    with mpmath.workdps(40):
        return {
            "sin": ulps_error(np.sin(angles), [mpmath.sin(mpmath.mpf(a)) for a in angles.tolist()]),
            "cos": ulps_error(np.cos(angles), [mpmath.cos(mpmath.mpf(a)) for a in angles.tolist()]),
            "exp": ulps_error(np.exp(logs), [mpmath.exp(mpmath.mpf(x)) for x in logs.tolist()]),
            "power": ulps_error(
                powers, [mpmath.power(10000, mpmath.mpf(e)) for e in exponents.tolist()]
            ),
        }


def test_elementary_functions_are_within_elementary_ulps() -> None:
    """The accuracy every error model assumes, measured on the kernels this machine runs
    (the machine matrix measures it under each NumPy dispatch level, tests/machine_probe.py)."""
    measured = elementary_ulps()
    assert max(measured.values()) <= _tolerance.ELEMENTARY_ULPS, measured


def test_an_inaccurate_elementary_function_is_caught() -> None:
    """The measure can fail: a sine wrong by 3 units in the last place is seen as such."""
    angles = np.linspace(0.5, 1.5, 50)
    exact = [mpmath.sin(mpmath.mpf(a)) for a in angles.tolist()]
    bad = np.sin(angles) + 3 * np.spacing(np.sin(angles))
    assert ulps_error(bad, exact) > _tolerance.ELEMENTARY_ULPS


@pytest.mark.parametrize("pairing", ["adjacent", "halves"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_offset_tolerance_term_by_term(pairing: Any, dtype: Any) -> None:
    """sum_i rho_i (2 eps_a w_i (|m| + |m + r|) + 2 eps_a w_i |r| + (d + 8) eps64)."""
    d, base = 8, 10000.0
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    ms, rs = np.array([0, 5, -300]), np.array([0, 1, -9, 70])
    got = rotary.offset_tolerance(q, k, ms, rs, base=base, pairing=pairing, model_dtype=dtype)
    omega = numeric.frequencies(d, base)
    if pairing == "adjacent":
        pairs = [(2 * i, 2 * i + 1) for i in range(d // 2)]
    else:
        pairs = [(i, i + d // 2) for i in range(d // 2)]
    eps_a = EPS[dtype]
    for a, m in enumerate(ms):
        for b, r in enumerate(rs):
            stated = sum(
                math.hypot(q[x], q[y])
                * math.hypot(k[x], k[y])
                * (2 * eps_a * w * (abs(m) + abs(m + r)) + 2 * eps_a * w * abs(r) + (d + 8) * EPS64)
                for (x, y), w in zip(pairs, omega, strict=True)
            )
            assert got[a, b] == pytest.approx(stated, rel=1e-12, abs=0)


def test_entry_error_bound_is_the_stated_4_9e_16() -> None:
    """2 sqrt2 delta + 3 * 2^-54 with delta = 1.02 * 2^-53: about 4.9e-16."""
    stated = 2 * math.sqrt(2) * 1.02 * 2.0**-53 + 3 * 2.0**-54
    assert pytest.approx(stated, rel=1e-15, abs=0) == _rotation_table.ENTRY_ERROR_BOUND
    assert 4.8e-16 < _rotation_table.ENTRY_ERROR_BOUND < 4.9e-16


@pytest.mark.parametrize(
    ("d", "base"), [(8, 10000.0), (64, 10000.0), (768, 500000.0), (20000, 1e4)]
)
def test_frequencies_are_correctly_rounded(d: int, base: float) -> None:
    """pe.numeric.frequencies is within u relative of the exact base^(-2i/d) (FREQUENCY_ROUNDING),
    and so are the same bits on every machine; a power rounded the other way is caught."""
    got = numeric.frequencies(d, base)
    step = max(1, d // 2 // 400)
    with mpmath.workdps(40):
        for i in range(0, d // 2, step):
            exact = mpmath.power(mpmath.mpf(base), mpmath.mpf(-2 * i) / d)
            assert abs(mpmath.mpf(float(got[i])) / exact - 1) <= _tolerance.FREQUENCY_ROUNDING
            neighbour = np.nextafter(got[i], 2.0)
            assert abs(mpmath.mpf(float(neighbour)) - exact) >= abs(
                mpmath.mpf(float(got[i])) - exact
            )


@pytest.mark.parametrize("k", [5, 10**6])
def test_fitted_shift_bound_is_its_stated_formula(k: int) -> None:
    """tau_M = (|E_A|_F + |E_B|_F) / sigma_min(A) + kappa(A) gamma_mn sqrt(d), the rows of B
    at positions p + k (their angles (p + k) omega_i), and the mapped row's excess on top;
    written out here from the docstring, entry by entry."""
    d, fit = 16, np.arange(0, 10**6, 9973)  # far positions: the rows' errors dominate
    eps, u = 2.0**-52, 2.0**-53
    omega = numeric.frequencies(d)
    err_a = [eps * _tolerance.ELEMENTARY_ULPS + u * w * p for p in fit for w in omega for _ in "sc"]
    err_b = [
        eps * _tolerance.ELEMENTARY_ULPS + u * w * (p + k) for p in fit for w in omega for _ in "sc"
    ]
    a = numeric.sinusoidal_direct(fit, d)
    sigma = np.linalg.svd(a, compute_uv=False)
    m, n = a.shape
    tau = (math.hypot(*err_a) + math.hypot(*err_b)) / sigma.min() + sigma.max() / sigma.min() * (
        _tolerance.gamma(m * n) * math.sqrt(n)
    )
    mapped = (
        tau * math.sqrt(n / 2)
        + _tolerance.gamma(n) * math.sqrt(n)
        + 2 * (_rotation_table.ENTRY_ERROR_BOUND)
    )
    assert error_models.fitted_shift_bound(k, d, fit) == pytest.approx(
        max(tau, mapped), rel=1e-12, abs=0
    )
