"""pe.numeric: values against 50-digit mpmath, layout, the shift, the check and its error model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pe import _tolerance, numeric, reference
from pe.claims import Candidate
from tests.helpers import wrong
from tests.one_place import shift_wrong_at_entry


def test_frequencies_follow_the_paper_law() -> None:
    d = 512
    omega = numeric.frequencies(d)
    assert omega.shape == (d // 2,)
    exact = [float(w) for w in reference.frequencies(d)]
    np.testing.assert_allclose(omega, exact, rtol=4e-16)
    assert omega[0] == 1.0
    assert np.all(np.diff(omega) < 0)


def test_frequencies_reject_the_doubled_exponent() -> None:
    """The tutorial bug 10000**(2*i/d) with i stepping by 2 gives other frequencies."""
    d = 64
    doubled = np.array([10000.0 ** (-(2 * i) / d) for i in range(0, d, 2)])
    assert not np.allclose(numeric.frequencies(d), doubled)


@pytest.mark.parametrize(
    ("p", "column"),
    [(0, 0), (0, 1), (1, 0), (1, 1), (1, 256), (1, 511), (37, 100), (10_000, 3), (123_456, 510)],
)
def test_table_entries_match_mpmath(p: int, column: int) -> None:
    table = numeric.sinusoidal(np.array([p]), 512)
    assert abs(table[0, column] - float(reference.entry(p, column, 512))) <= 2e-16 + 4e-16 * p


def test_layout_is_interleaved_sine_then_cosine() -> None:
    table = numeric.sinusoidal(50, 16)
    omega = numeric.frequencies(16)
    positions = np.arange(50)[:, None]
    np.testing.assert_allclose(table[:, 0::2], np.sin(positions * omega), atol=1e-15)
    np.testing.assert_allclose(table[:, 1::2], np.cos(positions * omega), atol=1e-15)
    # the halves layout (all sines, then all cosines) is a different table
    halves = np.concatenate([np.sin(positions * omega), np.cos(positions * omega)], axis=1)
    assert not np.allclose(table, halves)


def test_count_and_array_of_positions_agree() -> None:
    full = numeric.sinusoidal(40, 32)
    picked = numeric.sinusoidal(np.array([39, 0, 5]), 32)
    np.testing.assert_array_equal(picked, full[[39, 0, 5]])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_dtype_is_respected_and_rounded_once(dtype: type[np.floating[Any]]) -> None:
    table = numeric.sinusoidal(64, 32, dtype=dtype)
    assert table.dtype == dtype
    reference = numeric.sinusoidal(64, 32)
    assert np.max(np.abs(table.astype(np.float64) - reference)) <= np.finfo(dtype).eps / 2


def test_shift_matrix_blocks_and_sign() -> None:
    k, d = 3, 8
    matrix = numeric.shift_matrix(k, d)
    omega = numeric.frequencies(d)
    for i, w in enumerate(omega):
        block = matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
        c, s = np.cos(k * w), np.sin(k * w)
        np.testing.assert_allclose(block, [[c, s], [-s, c]], atol=1e-16)
    off_block = matrix.copy()
    for i in range(d // 2):
        off_block[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = 0
    assert not off_block.any()


def test_shift_equals_the_matrix_and_moves_rows() -> None:
    table = numeric.sinusoidal(300, 64)
    moved = numeric.shift(table[:200], 100)
    np.testing.assert_allclose(moved, table[:200] @ numeric.shift_matrix(100, 64).T, atol=1e-14)
    np.testing.assert_allclose(moved, table[100:], atol=1e-13)
    backwards = numeric.shift(table[100:], -100)
    np.testing.assert_allclose(backwards, table[:200], atol=1e-13)


def test_shift_keeps_float32() -> None:
    table = numeric.sinusoidal(20, 16, dtype=np.float32)
    assert numeric.shift(table, 2).dtype == np.float32


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_check_passes_within_the_error_model(dtype: type[np.floating[Any]]) -> None:
    positions = np.array([0, 1, 2, 100, 1000, 50_000, 2_000_000])
    result = numeric.check_rotation_identity(
        128, positions, np.array([1, 3, 64, -1, 999]), dtype=dtype
    )
    assert result.passed, result.summary()
    assert 0 < result.max_abs_error <= result.tolerance
    assert result.worst_ratio <= 1.0
    assert isinstance(result, _tolerance.ToleranceCheck)
    assert result.verdict in result.summary()


def test_tolerance_is_not_loose() -> None:
    """The model's tolerance stays within a factor 20 of the errors actually seen."""
    for dtype in (np.float32, np.float64):
        result = numeric.check_rotation_identity(256, 2048, 32, dtype=dtype)
        assert result.worst_ratio > 1 / 20, (dtype, result.summary())


@pytest.mark.parametrize(
    "candidate",
    [
        wrong.TRANSPOSED_SHIFT_MATRIX,
        wrong.OTHER_BASE_SHIFT_MATRIX,
        Candidate("T_k with one entry off by 1e-9", shift_wrong_at_entry(4, 4, 1e-9)),
    ],
    ids=lambda c: c.name,
)
def test_check_rejects_wrong_candidates(candidate: Candidate[Any]) -> None:
    result = numeric.check_rotation_identity(64, 256, np.array([1, 5]), candidate=candidate.value)
    assert not result.passed
    assert result.worst_ratio > 1.0


@settings(max_examples=60, deadline=None)
@given(
    half=st.integers(1, 128),
    p=st.integers(0, 10**7),
    k=st.integers(-1000, 1000),
    base=st.floats(1.5, 1e6),
)
def test_shift_moves_any_row_within_tolerance(half: int, p: int, k: int, base: float) -> None:
    d = 2 * half
    p = max(p, -k)
    row = numeric.sinusoidal(np.array([p]), d, base=base)
    target = numeric.sinusoidal(np.array([p + k]), d, base=base)
    moved = numeric.shift(row, k, base=base)
    omega = np.repeat(numeric.frequencies(d, base), 2)
    tolerance = numeric.rotation_tolerance(omega, p, k, np.float64)
    assert np.all(np.abs(moved - target) <= tolerance)


@settings(max_examples=40, deadline=None)
@given(half=st.integers(1, 64), n=st.integers(1, 200), base=st.floats(1.01, 1e8))
def test_rows_are_bounded_unit_pairs(half: int, n: int, base: float) -> None:
    table = numeric.sinusoidal(n, 2 * half, base=base)
    assert np.all(np.abs(table) <= 1.0)
    pairs = table[:, 0::2] ** 2 + table[:, 1::2] ** 2
    np.testing.assert_allclose(pairs, 1.0, atol=1e-15)


def test_fitted_matrix_is_the_shift_matrix() -> None:
    fitted = numeric.fitted_shift_matrix(5, 16, np.arange(0, 100_000, 97))
    np.testing.assert_allclose(fitted, numeric.shift_matrix(5, 16), atol=1e-12)
    assert not np.allclose(fitted, numeric.shift_matrix(5, 16).T, atol=1e-3)


BAD_CALLS: list[tuple[Callable[[], Any], type[Exception], str]] = [
    (lambda: numeric.frequencies(7), ValueError, "d_model must be even"),
    (lambda: numeric.frequencies(0), ValueError, "d_model"),
    (lambda: numeric.frequencies(-4), ValueError, "d_model"),
    (lambda: numeric.frequencies(8.0), TypeError, "d_model must be an integer"),  # type: ignore[arg-type]
    (lambda: numeric.frequencies(True), TypeError, "d_model must be an integer"),
    (lambda: numeric.frequencies("8"), TypeError, "d_model must be an integer"),  # type: ignore[arg-type]
    (lambda: numeric.frequencies(8, base=1.0), ValueError, "base must be > 1"),
    (lambda: numeric.frequencies(8, base=0.5), ValueError, "base must be > 1"),
    (lambda: numeric.frequencies(8, base=float("nan")), ValueError, "base must be finite"),
    (lambda: numeric.frequencies(8, base=float("inf")), ValueError, "base must be finite"),
    (lambda: numeric.frequencies(8, base="10000"), TypeError, "base must be a real number"),  # type: ignore[arg-type]
    (lambda: numeric.sinusoidal(0, 8), ValueError, "positions must be an integer >= 1"),
    (lambda: numeric.sinusoidal(-3, 8), ValueError, "positions"),
    (lambda: numeric.sinusoidal(3.5, 8), TypeError, "positions"),
    (lambda: numeric.sinusoidal(10, 9), ValueError, "d_model must be even"),
    (lambda: numeric.sinusoidal(10, 8, dtype=np.int32), TypeError, "dtype"),
    (lambda: numeric.sinusoidal(10, 8, dtype="complex128"), TypeError, "dtype"),
    (lambda: numeric.sinusoidal(10, 8, dtype="nonsense"), TypeError, "dtype"),
    (lambda: numeric.sinusoidal(10**9, 10**4), ValueError, "cap"),
    (lambda: numeric.sinusoidal(10**15, 8), ValueError, "cap"),
    (lambda: numeric.sinusoidal(np.array([-1, 2]), 8), ValueError, "positions must be >= 0"),
    (lambda: numeric.sinusoidal(np.array([1.5]), 8), ValueError, "got 1.5 at index 0"),
    (lambda: numeric.sinusoidal(np.array([[1, 2]]), 8), ValueError, "1-D"),
    (lambda: numeric.sinusoidal(np.array([2**60]), 8), ValueError, "2\\*\\*53"),
    (lambda: numeric.shift_matrix(float("nan"), 8), ValueError, "k must be finite"),
    (lambda: numeric.shift_matrix(1, 2**20), ValueError, "cap"),
    (lambda: numeric.shift(np.ones((3, 7)), 1), ValueError, "even"),
    (lambda: numeric.shift(np.ones(3, dtype=complex), 1), TypeError, "real array"),
    (lambda: numeric.shift("abc", 1), TypeError, "real array"),
    (lambda: numeric.check_rotation_identity(8, 10, 10, dtype="int8"), TypeError, "dtype"),
    (
        lambda: numeric.check_rotation_identity(8, 10, 10, candidate=lambda k, d, b: np.eye(3)),
        ValueError,
        "candidate must return a \\(8, 8\\) matrix",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_CALLS)
def test_bad_input_gets_a_one_line_error(
    call: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as raised:
        call()
    assert "\n" not in str(raised.value)


def test_shift_of_float16_rows_by_a_large_offset_stays_finite() -> None:
    """The angles are formed in float64: a float16 angle would overflow past 65504."""
    rows = numeric.sinusoidal(np.array([0, 100_000]), 16, dtype=np.float16)
    moved = numeric.shift(rows[:1], 100_000)
    assert np.all(np.isfinite(moved))
    assert np.max(np.abs(moved[0].astype(np.float64) - rows[1])) <= 4 * np.finfo(np.float16).eps


def test_fit_needs_as_many_positions_as_the_width() -> None:
    with pytest.raises(ValueError, match="at least d_model = 8 distinct positions"):
        numeric.fitted_shift_matrix(1, 8, 3)


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("abc", 1, 1, np.float64), TypeError, "omega"),
        ((1.0, [1, 2], float("nan"), np.float64), ValueError, "offset must be finite"),
        ((1.0, [np.inf], 1, np.float64), ValueError, "position must be finite"),
    ],
)
def test_rotation_tolerance_names_bad_arguments(
    args: tuple[Any, ...], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        numeric.rotation_tolerance(*args)


def test_rotation_tolerance_is_the_shift_model() -> None:
    omega = numeric.frequencies(16)
    expected = _tolerance.shift_tolerance(float(np.finfo(np.float32).eps), omega, 12.0)
    np.testing.assert_array_equal(numeric.rotation_tolerance(omega, 5, -7, np.float32), expected)
    assert not np.array_equal(numeric.rotation_tolerance(omega, 5, -7, np.float64), expected)


def test_check_reports_the_first_largest_error() -> None:
    """The worst entry is found over every offset; NaN errors fail the check."""
    result = numeric.check_rotation_identity(
        8, 64, np.array([1, 2]), candidate=lambda k, d, b: np.full((d, d), np.nan)
    )
    assert not result.passed
    assert result.max_abs_error == np.inf
    assert (result.offset, result.position, result.column) == (1, 0, 0)


def test_every_default_base_is_the_papers() -> None:
    """Vaswani et al. set the base to 10000 (section 3.5): every function of pe that takes
    a ``base`` and gives it a number for default gives that one (a default one off passes
    everything else, since the tests name the base)."""
    import importlib
    import inspect
    import pkgutil

    import pe

    defaults = {}
    for info in pkgutil.walk_packages(pe.__path__, "pe."):
        if info.name.startswith(("pe.site", "pe.chapters", "pe.__main__")):
            continue
        module = importlib.import_module(info.name)
        for name, member in vars(module).items():
            if not callable(member) or getattr(member, "__module__", None) != module.__name__:
                continue
            try:
                parameters = inspect.signature(member).parameters
            except (TypeError, ValueError):
                continue
            base = parameters.get("base")
            if base is not None and base.default is not inspect.Parameter.empty:
                defaults[f"{info.name}.{name}"] = base.default
    assert "pe.rotary.check_offset_dependence" in defaults
    assert "pe.numeric.frequencies" in defaults
    # None: "the table's own base", read from it
    assert {k: v for k, v in defaults.items() if v is not None and v != 10000} == {}


@pytest.mark.parametrize(("position", "offset"), [(3, 2**53 - 3), (3, 2**53 - 2)])
def test_a_position_plus_its_offset_stays_within_2_to_the_53(position: int, offset: int) -> None:
    """The rotation check takes p + k = 2**53 and refuses 2**53 + 1 (a sum, not p << k)."""
    if position + offset <= 2**53:
        numeric.check_rotation_identity(8, [position], [offset])
    else:
        with pytest.raises(ValueError, match=r"positions \+ offsets must stay within 2\*\*53"):
            numeric.check_rotation_identity(8, [position], [offset])
