"""No warning escapes from ``pe.identify`` or ``pe.testing``, on any table size.

pytest runs with ``filterwarnings = error`` (as many projects do): a RuntimeWarning raised
inside identify would turn every assertion of :mod:`pe.testing` into an exception instead
of a verdict. The sweep covers short and long tables, narrow and wide ones, every named
convention, fast and slow laws (a float16 table of base 1e9 has columns of frequency 0,
whose uncertainty is 0), and each dtype.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import numpy as np
import pytest

from pe import bug_zoo, conventions, numeric
from pe.identify import identify
from pe.identify._result import precision_weights
from pe.testing import assert_convention, assert_matches_paper

ROWS = [16, 64, 1100]
WIDTHS = [2, 8, 128]
BASES = [100.0, 1e4, 1e9]


def _judged(table: Any) -> None:
    """identify and both table assertions, under warnings-as-errors; verdicts may be anything."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        identify(table)
        for check in (assert_matches_paper, lambda t: assert_convention(t, layout="halves")):
            with contextlib.suppress(AssertionError):
                check(table)


@pytest.mark.parametrize("n", ROWS)
@pytest.mark.parametrize("d", WIDTHS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_no_warning_on_any_size(n: int, d: int, dtype: Any) -> None:
    for name in ("paper", "tensor2tensor", "fairseq"):
        for base in BASES:
            if name != "paper" and d == 2:
                continue  # tensor2tensor's law needs two pairs
            _judged(conventions.get(name).with_base(base).table(n, d, dtype=dtype))


@pytest.mark.parametrize("n", ROWS)
def test_no_warning_on_the_bug_zoo(n: int) -> None:
    for bug in bug_zoo.BUGS:
        _judged(bug.make(n, 65 if bug.name == "odd-width" else 64))


def test_a_zero_uncertainty_has_a_finite_weight() -> None:
    """The case that warned: a column of frequency 0 pins it exactly (uncertainty 0)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        weights = precision_weights(np.array([0.0, 1e-200, 2.0]))
    assert np.all(np.isfinite(weights))
    assert weights[2] == 0.25


def _table_from(start: float, n: int = 200, d: int = 64) -> np.ndarray:
    """The paper's table with row 0 at position ``start`` (fractional allowed)."""
    angles = np.outer(np.arange(n) + start, numeric.frequencies(d))
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table


@pytest.mark.parametrize(("start", "noted"), [(0.03, False), (0.07, True), (0.3, True)])
def test_a_fractional_row_0_is_noted_from_five_hundredths_of_a_position(
    start: float, noted: bool
) -> None:
    """Row 0 0.05 or more from the integer it is rounded to is said to be rounded (the
    offset itself is known within far less here); closer than that it is not."""
    notes = identify(_table_from(start)).notes
    assert any("not an integer; rounded to 0" in note for note in notes) is noted
