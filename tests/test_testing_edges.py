"""``pe.testing``'s thresholds, each crossed from both sides by a value computed from it.

The paper's ``atol`` (one entry moved by half and by twice it), the probe's ``MOVE_EPS``
(columns past ``rotary_dim`` nudged by a fraction and a multiple of it) and ``GAIN_EPS``
(one pair scaled by a quarter and four times it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pe
from pe import _rope_probe
from pe.testing import assert_matches_paper, assert_rope_relative, paper_tolerance

N, D = 64, 16


@pytest.mark.parametrize(("row", "column"), [(1, 0), (40, 7), (N - 1, D - 1)])
def test_one_entry_inside_and_outside_the_papers_atol(row: int, column: int) -> None:
    """float64 (in float32 the fit of identify, stricter than atol at this size, decides)."""
    dtype = np.float64
    exact = pe.sinusoidal(N, D)
    atol = paper_tolerance(N, dtype)
    for factor, passes in ((0.5, True), (2.0, False)):
        table = exact.astype(dtype)
        # move the stored entry away from the exact value by factor * atol in total
        table[row, column] = exact[row, column] + factor * atol
        if passes:
            assert_matches_paper(table)
        else:
            with pytest.raises(AssertionError, match=f"row {row}, column {column}"):
                assert_matches_paper(table)


def test_the_papers_atol_grows_with_the_rows() -> None:
    eps = float(np.finfo(np.float64).eps)
    assert paper_tolerance(1, np.float64) == 4 * eps
    assert paper_tolerance(2, np.float64) - paper_tolerance(1, np.float64) == 2 * eps


def _nudged(shift: float, rotary: int) -> Any:
    """RoPE on the first ``rotary`` columns; the others moved by ``shift`` at position > 0."""

    def fn(x: Any, positions: Any) -> Any:
        out = np.array(x, dtype=np.float64)
        out[:, :rotary] = pe.rope(out[:, :rotary], positions)
        moved = np.asarray(positions)[:, None] > 0
        out[:, rotary:] = out[:, rotary:] + np.where(moved, shift, 0.0)
        return out

    return fn


def test_columns_beyond_rotary_dim_move_edge() -> None:
    eps = float(np.finfo(np.float64).eps)
    still = _nudged(_rope_probe.MOVE_EPS * eps / 4, 8)
    assert assert_rope_relative(still, 16, rotary_dim=8) == "adjacent"
    moved = _nudged(_rope_probe.MOVE_EPS * eps * 4, 8)
    with pytest.raises(AssertionError, match="beyond rotary_dim=8"):
        assert_rope_relative(moved, 16, rotary_dim=8)


def _scaled_pair(factor: float) -> Any:
    """RoPE with pair 1 (columns 2, 3) scaled by ``factor``."""

    def fn(x: Any, positions: Any) -> Any:
        out = pe.rope(np.asarray(x, dtype=np.float64), positions)
        out[:, 2:4] *= factor
        return out

    return fn


def test_unequal_pair_gains_edge() -> None:
    eps = float(np.finfo(np.float64).eps)
    inside = 1.0 + _rope_probe.GAIN_EPS * eps / 4
    assert assert_rope_relative(_scaled_pair(inside), 8) == "adjacent"
    outside = 1.0 + _rope_probe.GAIN_EPS * eps * 4
    with pytest.raises(AssertionError, match=r"exact only to float32|not a rotation"):
        assert_rope_relative(_scaled_pair(outside), 8)
    far = 1.0 + _rope_probe.GAIN_EPS * float(np.finfo(np.float16).eps) * 4
    with pytest.raises(AssertionError, match="not a rotation"):
        assert_rope_relative(_scaled_pair(far), 8)
