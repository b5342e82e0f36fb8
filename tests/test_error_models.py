"""Each tolerance function is its documented error model, restated here term by term.

A tolerance loosened (or tightened) in the code but not in the model its docstring and its
claim state fails here, even where every candidate the claims try is wrong by far more.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from pe import _rotation_table, _tolerance, numeric, rotary
from pe.experiments import implications, rotation_identity

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
    stated = 4 * EPS[dtype] + 4 * EPS64 * omega * (np.abs(p) + abs(k))
    np.testing.assert_array_equal(numeric.rotation_tolerance(omega, p, k, dtype), stated)


def test_law_and_dot_tolerances() -> None:
    for reach in (0.0, 25.0, 12345.0):
        assert rotation_identity.law_tolerance(reach) == 4 * EPS64 + 4 * EPS64 * reach
        assert implications.dot_tolerance(64, reach) == 64 * (4 * EPS64 + 4 * EPS64 * reach)


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
            assert got[a, b] == pytest.approx(stated, rel=1e-12)


def test_entry_error_bound_is_the_stated_4_9e_16() -> None:
    """2 sqrt2 delta + 3 * 2^-54 with delta = 1.02 * 2^-53: about 4.9e-16."""
    stated = 2 * math.sqrt(2) * 1.02 * 2.0**-53 + 3 * 2.0**-54
    assert pytest.approx(stated, rel=1e-15) == _rotation_table.ENTRY_ERROR_BOUND
    assert 4.8e-16 < _rotation_table.ENTRY_ERROR_BOUND < 4.9e-16
