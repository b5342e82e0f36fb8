"""``pe.testing``'s thresholds, each crossed from both sides by a value computed from it.

The paper's ``atol`` (one entry moved by half and by twice it), the probe's ``MOVE_EPS``
(columns past ``rotary_dim`` nudged by a fraction and a multiple of it) and ``GAIN_EPS``
(one pair scaled by a quarter and four times it).
"""

from __future__ import annotations

import math
import re
from functools import partial
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


def _coarse_sines(dtype: Any) -> Any:
    """RoPE (adjacent pairs) whose angles, sines and cosines are formed in ``dtype`` and the
    rotation in float64, as code that builds its cos/sin cache in half precision does."""

    def fn(x: Any, positions: Any) -> Any:
        x = np.asarray(x, dtype=np.float64)
        d = x.shape[1]
        w = (10000.0 ** (-np.arange(0, d, 2) / d)).astype(dtype)
        angles = np.outer(np.asarray(positions).astype(dtype), w)
        cos, sin = np.cos(angles).astype(np.float64), np.sin(angles).astype(np.float64)
        out = np.empty_like(x)
        out[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
        out[:, 1::2] = x[:, 1::2] * cos + x[:, 0::2] * sin
        return out

    return fn


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_coarse_sines_are_named_with_their_dtype(dtype: Any) -> None:
    """Lengths off by a few of ``dtype``'s epsilons, not float64's: the probe names the
    dtype to pass, not "not a rotation", and passes once it is given."""
    name = np.dtype(dtype).name
    with pytest.raises(AssertionError, match=rf"exact only to {name} .* angle_dtype=numpy\.{name}"):
        assert_rope_relative(_coarse_sines(dtype), 16)
    assert assert_rope_relative(_coarse_sines(dtype), 16, angle_dtype=dtype) == "adjacent"


def _interpolated_float16(x: Any, positions: Any) -> Any:
    """Position interpolation by 16 (pe.rope of p / 16: slow angles, small sum_i rho_i w_i)
    with its angles formed in float16."""
    return pe.rope(x, np.asarray(positions) / 16, angle_dtype=np.float16)


def test_the_score_tolerance_is_the_error_model_for_slow_angles() -> None:
    """Declared float32 angles, formed in float16: refused, with the tolerance of the error
    model of ``_relative_tolerance``'s docstring, written out here for d = 16 and the q, k
    of ``numpy.random.default_rng(0)``: tau(m, r) = sum_i rho_i (2 eps_a w_i (|m| + |m + r| +
    |r|) + (d + 8) eps), both scores' bounds (at m and at 0) added; gain 1, eps = eps_a =
    float32's (a rotation exact only to float32). Declared float16, the same function passes."""
    d = 16
    with pytest.raises(AssertionError, match="beyond the tolerance") as caught:
        assert_rope_relative(_interpolated_float16, d, angle_dtype=np.float32, base=None)
    found = re.search(
        r"at m=(\d+), r=(\d+), beyond the tolerance (\S+) for float32", str(caught.value)
    )
    assert found is not None, str(caught.value)
    m, r, printed = int(found.group(1)), int(found.group(2)), float(found.group(3))
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    rho = np.hypot(q[0::2], q[1::2]) * np.hypot(k[0::2], k[1::2])
    omega = 10000.0 ** (-np.arange(0, d, 2) / d) / 16
    eps = float(np.finfo(np.float32).eps)

    def tau(m: int) -> float:
        reach = abs(m) + abs(m + r) + abs(r)
        return float(np.sum(rho * (2 * eps * omega * reach + (d + 8) * eps)))

    expected = tau(m) + tau(0)
    assert abs(printed - expected) <= 10.0 ** (math.floor(math.log10(expected)) - 2) / 2
    assert assert_rope_relative(_interpolated_float16, d, angle_dtype=np.float16, base=None) == (
        "adjacent"
    )


def test_a_mixed_pairing_names_the_first_column_that_pairs_neither_way() -> None:
    """Columns 0, 1, 4, 5 pair the halves way and 3 the adjacent way; column 2 pairs with 7,
    neither: the message names column 2, not column 0 (the first that is not adjacent)."""
    partner = np.array([4, 5, 7, 2, 0, 1, 3, 6])
    with pytest.raises(AssertionError, match=r"fn pairs column 2 with column 7: neither"):
        _rope_probe._pairing(partner, 8)


def _tensor2tensor_table(n: int, d: int, base: float) -> np.ndarray:
    """tensor2tensor's layout written here from its description: halves, sines first,
    w_i = exp(-i ln(base) / (d/2 - 1))."""
    half = d // 2
    angles = np.arange(n)[:, None] * np.exp(-np.arange(half) * math.log(base) / (half - 1))
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


@pytest.mark.parametrize(("d", "base"), [(4, 1e4), (6, 1e4), (10, 1e4), (8, 1e3), (64, 1e4)])
def test_a_law_stated_with_its_base_is_judged_by_the_frequencies(d: int, base: float) -> None:
    """Where both laws give a round base, identify names the paper's, yet a tensor2tensor
    table passes with its own law and base stated; a base 1e-4 off fails, in that law's
    terms, and so does the paper's law stated with the same base.

    Fault caught: a correct tensor2tensor table refused at small widths (audit v23), or a
    conversion between the laws that accepts any base."""
    table = _tensor2tensor_table(200, d, base)
    stated = partial(pe.testing.assert_convention, layout="halves", order="sin-first", offset=0)
    stated(table, law="tensor2tensor", base=base)
    off = base * (1 + 1e-4)
    with pytest.raises(AssertionError, match=r"expected (base )?" + re.escape(f"{off:g}")):
        stated(table, law="tensor2tensor", base=off)
    with pytest.raises(AssertionError, match="paper"):
        stated(table, law="paper", base=base)


@pytest.mark.parametrize(
    ("d", "base", "ties"), [(4, 1e4, True), (6, 1e4, True), (8, 1e3, True), (64, 1e4, False)]
)
def test_a_law_stated_without_a_base_passes_on_a_tie_only(d: int, base: float, ties: bool) -> None:
    """A tensor2tensor table with its law stated and the base left free passes at every
    width; the paper's law stated instead passes only where both bases are equally round
    (a tie identify notes), never at d = 64.

    Fault caught: a tie at small widths refused (audit v24), or a tie test that accepts
    any law."""
    table = _tensor2tensor_table(200, d, base)
    pe.testing.assert_convention(table, layout="halves", law="tensor2tensor")
    if ties:
        pe.testing.assert_convention(table, layout="halves", law="paper")
    else:
        with pytest.raises(AssertionError, match="expected the paper's law"):
            pe.testing.assert_convention(table, layout="halves", law="paper")
