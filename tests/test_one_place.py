"""Every numeric check and ``pe check`` reject a candidate wrong in one place only.

A check that looked only at the entry with the largest error, the first or the last offset,
the last group of offsets or the fastest pair would accept these candidates (built in
:mod:`tests.one_place`); each test also asserts the check reports the place that is wrong.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pe import _tolerance, cli, numeric, rotary

from .one_place import shift_slow_pair_off, shift_wrong_at_entry, shift_wrong_at_offset

OFFSETS = np.array([0, 1, 3, 100, -7, 12])
POSITIONS = np.concatenate([np.arange(40), [4096, 65_536]])
D = 64
#: Perturbations far above each dtype's tolerance at the entry, far below order 1.
DELTA = {np.float64: 1e-9, np.float32: 1e-3}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("wrong_k", OFFSETS.tolist())
def test_rotation_check_rejects_a_matrix_wrong_at_one_offset(dtype: Any, wrong_k: int) -> None:
    result = numeric.check_rotation_identity(
        D, POSITIONS, OFFSETS, dtype=dtype, candidate=shift_wrong_at_offset(wrong_k, DELTA[dtype])
    )
    assert not result.passed
    assert result.offset == wrong_k
    assert result.column == 0


@pytest.mark.parametrize(("row", "column"), [(0, 0), (-1, -1), (-2, -1), (31, 30)])
def test_rotation_check_rejects_a_matrix_wrong_at_one_entry(row: int, column: int) -> None:
    candidate = shift_wrong_at_entry(row, column, 1e-9)
    result = numeric.check_rotation_identity(D, POSITIONS, OFFSETS, candidate=candidate)
    assert not result.passed
    assert result.column == row % D
    assert numeric.check_rotation_identity(D, POSITIONS, OFFSETS).passed


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rotation_check_rejects_a_slow_pair_turning_slightly_wrong(dtype: Any) -> None:
    """The slowest pair turns by 1e-4 k: off by 1e-3 relative, only its columns are wrong."""
    result = numeric.check_rotation_identity(
        D, POSITIONS, OFFSETS, dtype=dtype, candidate=shift_slow_pair_off(1e-3)
    )
    assert not result.passed
    assert result.column in (D - 2, D - 1)
    assert result.offset == 100


def test_rotation_check_rejects_an_error_only_at_the_smallest_position() -> None:
    """1e-13 off in the fast pair: above the tolerance at p = 0, far below it at p = 2^40."""
    candidate = shift_wrong_at_entry(0, 1, 1e-13)
    far = numeric.check_rotation_identity(D, [2**40], [1], candidate=candidate)
    assert far.passed
    both = numeric.check_rotation_identity(D, [0, 2**40], [1], candidate=candidate)
    assert not both.passed
    assert both.worst_ratio > 1


@pytest.mark.parametrize("index", [(0, 0), (4, 7), (9, 11), (9, 0)])
def test_worst_case_fails_on_one_entry_over_its_tolerance(index: tuple[int, int]) -> None:
    """The entry over its tolerance is not the largest error: the ratio decides, everywhere."""
    tolerance = np.full((10, 12), 1e-3)
    tolerance[index] = 1e-12
    errors = np.full((10, 12), 5e-4)
    errors[index] = 2e-12
    check = _tolerance.worst_case(errors, tolerance)
    assert not check.passed
    assert check.worst_ratio == pytest.approx(2.0, rel=1e-6, abs=0)
    errors[index] = 0.5e-12
    assert _tolerance.worst_case(errors, tolerance).passed


@pytest.mark.parametrize("index", [(0, 0), (9, 11), (3, 5)])
def test_worst_case_fails_on_one_nan(index: tuple[int, int]) -> None:
    errors = np.zeros((10, 12))
    errors[index] = np.nan
    check = _tolerance.worst_case(errors, 1.0)
    assert not check.passed
    assert check.index == index


def test_worst_case_reports_the_largest_error_wherever_it_is() -> None:
    errors = np.zeros((10, 12))
    errors[9, 11] = 3e-3
    check = _tolerance.worst_case(errors, 1.0)
    assert check.index == (9, 11)
    assert check.max_abs_error == 3e-3


def _true_errors(q: Any, k: Any, ms: Any, rs: Any, dtype: Any) -> Any:
    """|s(m, m + r) - <q, R_r k>| one entry at a time (the definition, no vectorisation)."""
    out = np.empty((len(ms), len(rs)))
    for i, m in enumerate(ms):
        for j, r in enumerate(rs):
            score = rotary.rope_scores(q, k, [m], [m + r], angle_dtype=dtype)[0]
            out[i, j] = abs(score - rotary.rope_scores(q, k, [0], [r])[0])
    return out


def test_offset_error_is_right_at_every_position_and_offset() -> None:
    """float16 angles: every entry differs, so a wrong row or column would show."""
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    ms, rs = [0, 3, 700, 2049, 30_000], [0, 1, -5, 1000, 7]
    errors = rotary.offset_error(q, k, ms, rs, angle_dtype=np.float16)
    np.testing.assert_allclose(errors, _true_errors(q, k, ms, rs, np.float16), rtol=0, atol=1e-14)
    assert np.unique(errors[1:, 1:]).size > 10


@pytest.mark.parametrize("where", [(0, 0), (4, 4), (2, 3), (4, 0)])
def test_offset_check_fails_on_one_entry(monkeypatch: pytest.MonkeyPatch, where: Any) -> None:
    ms, rs = np.array([0, 3, 70, 200, 5000]), np.array([0, 1, -5, 100, 7])
    true_error = rotary.offset_error

    def wrong_in_one_place(*args: Any, **kwargs: Any) -> Any:
        errors = true_error(*args, **kwargs)
        errors[where] += 1e-9
        return errors

    assert rotary.check_offset_dependence(16, ms, rs).passed
    monkeypatch.setattr(rotary, "offset_error", wrong_in_one_place)
    result = rotary.check_offset_dependence(16, ms, rs)
    assert not result.passed
    assert (result.position, result.offset) == (ms[where[0]], rs[where[1]])


@pytest.mark.parametrize("wrong_k", [0, 1, 2, 5, 9])
def test_pe_check_fails_when_one_offset_is_wrong(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], wrong_k: int
) -> None:
    """Offsets 0..9 in groups [0] [1] [2, 3] [4..7] [8, 9]: one FAIL, in the right group."""
    monkeypatch.setattr(numeric, "shift_matrix", shift_wrong_at_offset(wrong_k, 1e-9))
    args = ["check", "--d-model", "16", "--positions", "50", "--offsets", "10"]
    assert cli.main(args) == 1
    failing = [line.split()[0] for line in capsys.readouterr().out.splitlines() if "FAIL" in line]
    group = next(g for g in cli._offset_groups(10) if wrong_k in g)
    label = str(group[0]) if group.size == 1 else f"{group[0]}..{group[-1]}"
    assert failing == [label]


def test_pe_check_fails_when_only_the_slow_pair_is_wrong(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(numeric, "shift_matrix", shift_slow_pair_off(1e-3))
    assert cli.main(["check", "--d-model", "16", "--positions", "50", "--offsets", "40"]) == 1
    assert "SOME ENTRIES EXCEED TOLERANCE" in capsys.readouterr().out
