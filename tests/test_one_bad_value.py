"""Guards over arrays see one bad value among good ones, wherever it is.

Hypothesis plants one NaN, infinity, negative or fractional number (or an odd width) at a
random place of an otherwise valid input of :mod:`pe.numeric`, :mod:`pe.rotary`,
:mod:`pe.identify` and :mod:`pe.testing`. A guard reduced from "every element" to "any
element" (or to the first, or the last) passes a bad value alone and fails here; the
message must name the planted value's own place.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pe
from pe import rotary
from pe.identify import identify
from pe.testing import assert_matches_paper, assert_rope_relative

NAN, INF = float("nan"), float("inf")
NOT_FINITE = st.sampled_from([NAN, INF, -INF])
EXAMPLES = settings(max_examples=40, deadline=None)


@st.composite
def planted(draw: st.DrawFn, size: st.SearchStrategy[int], bad: st.SearchStrategy[float]) -> Any:
    """Positions 0 .. n-1 (floats) with one bad value at a random index: (array, index, bad)."""
    n = draw(size)
    index = draw(st.integers(0, n - 1))
    value = draw(bad)
    positions = np.arange(n, dtype=np.float64)
    positions[index] = value
    return positions, index, value


SIZES = st.integers(2, 300)


def _names(message: str, index: int) -> bool:
    return re.search(rf"\bindex {index}\b", message) is not None


@EXAMPLES
@given(case=planted(SIZES, NOT_FINITE))
def test_sinusoidal_refuses_one_non_finite_position(case: Any) -> None:
    positions, index, _ = case
    with pytest.raises(ValueError, match="finite") as error:
        pe.sinusoidal(positions, 8)
    assert _names(str(error.value), index), str(error.value)


@EXAMPLES
@given(case=planted(SIZES, st.floats(-1e6, -0.5)))
def test_sinusoidal_refuses_one_negative_position(case: Any) -> None:
    positions, _, _ = case
    with pytest.raises(ValueError, match=r">= 0|whole numbers"):
        pe.sinusoidal(positions, 8)


@EXAMPLES
@given(case=planted(SIZES, st.floats(0.01, 0.99).map(lambda f: 3 + f)))
def test_sinusoidal_refuses_one_fractional_position(case: Any) -> None:
    positions, index, _ = case
    with pytest.raises(ValueError, match="whole numbers") as error:
        pe.sinusoidal(positions, 8)
    assert _names(str(error.value), index), str(error.value)


@EXAMPLES
@given(case=planted(SIZES, NOT_FINITE))
def test_rope_refuses_one_non_finite_position(case: Any) -> None:
    positions, index, _ = case
    x = np.ones((positions.size, 8))
    with pytest.raises(ValueError, match="finite") as error:
        pe.rope(x, positions)
    assert _names(str(error.value), index), str(error.value)
    with pytest.raises(ValueError, match="finite"):
        rotary.rope_angles(positions, 8)
    with pytest.raises(ValueError, match="finite"):
        rotary.rope_scores(x[0], x[0], positions, np.zeros(positions.size))
    with pytest.raises(ValueError, match="finite"):
        rotary.rope_scores(x[0], x[0], np.zeros(positions.size), positions)


@EXAMPLES
@given(case=planted(SIZES, st.floats(-1e4, -0.25)))
def test_rope_takes_negative_and_fractional_positions(case: Any) -> None:
    """Not a guard: RoPE's positions may be negative or fractional (relative offsets)."""
    positions, index, value = case
    out = pe.rope(np.ones((positions.size, 8)), positions)
    assert np.all(np.isfinite(out))
    alone = pe.rope(np.ones((1, 8)), np.array([value]))
    assert np.array_equal(out[index], alone[0])


@st.composite
def tables_with_one(draw: st.DrawFn, bad: st.SearchStrategy[float]) -> Any:
    """The paper's (n, d) table with one entry replaced by a bad value: (table, row, col)."""
    n = draw(st.integers(16, 80))
    d = 2 * draw(st.integers(2, 12))
    row, column = draw(st.integers(0, n - 1)), draw(st.integers(0, d - 1))
    table = pe.sinusoidal(n, d)
    table[row, column] = draw(bad)
    return table, row, column


@EXAMPLES
@given(case=tables_with_one(NOT_FINITE))
def test_identify_and_the_assertion_see_one_non_finite_entry(case: Any) -> None:
    table, row, column = case
    found = identify(table)
    assert not found.is_encoding
    what = "NaN" if np.isnan(table[row, column]) else "infinite"
    assert "1 NaN or infinite values" in found.reason
    assert f"(first: {what} at row {row}, column {column})" in found.reason, found.reason
    with pytest.raises(AssertionError, match=f"at row {row}, column {column}"):
        assert_matches_paper(table)


@EXAMPLES
@given(case=tables_with_one(st.floats(1.01, 100.0) | st.floats(-100.0, -1.01)))
def test_identify_sees_one_entry_outside_minus_one_to_one(case: Any) -> None:
    table, _, _ = case
    found = identify(table)
    assert not found.is_encoding
    assert "outside [-1, 1]" in found.reason
    with pytest.raises(AssertionError, match=r"outside \[-1, 1\]"):
        assert_matches_paper(table)


@EXAMPLES
@given(case=tables_with_one(st.floats(-0.9, 0.9)))
def test_one_wrong_entry_in_range_fails_the_assertion(case: Any) -> None:
    table, row, column = case
    exact = pe.sinusoidal(table.shape[0], table.shape[1])
    if abs(table[row, column] - exact[row, column]) <= 1e-3:
        return  # drawn within reach of the true value: not a wrong entry
    with pytest.raises(AssertionError):
        assert_matches_paper(table)


@EXAMPLES
@given(case=tables_with_one(NOT_FINITE))
def test_a_candidate_with_one_non_finite_entry_scores_zero(case: Any) -> None:
    """A tensor of a file is scored as a table candidate on its first rows: one NaN or
    infinity anywhere among them and it is no candidate (score 0, quietly: warnings are
    errors in the suite), although every other column is a sinusoid."""
    from pe.identify._tensors import sinusoid_score

    table, _, _ = case
    assert sinusoid_score(table) == 0.0
    assert sinusoid_score(pe.sinusoidal(table.shape[0], table.shape[1])) == 1.0


@EXAMPLES
@given(n_words=st.integers(1, 5), shape=st.sampled_from([(2, 3), (1, 4), (4, 1)]))
def test_a_vocabulary_of_matrices_is_refused(n_words: int, shape: tuple[int, int]) -> None:
    """Word vectors of one shape that is not a vector (2-D) are refused, not read as rows."""
    from pe.attention import sentence_matrix

    words = tuple(f"w{i}" for i in range(n_words))
    vocabulary = {w: np.ones(shape) for w in words}
    with pytest.raises(ValueError, match="non-empty vectors of one width"):
        sentence_matrix(words, vocabulary)


ODD = st.integers(1, 40).map(lambda h: 2 * h + 1)


@EXAMPLES
@given(d=ODD, n=st.integers(1, 20))
def test_rope_refuses_an_odd_width(d: int, n: int) -> None:
    with pytest.raises(ValueError, match="even"):
        pe.rope(np.ones((n, d)), np.arange(n))
    with pytest.raises(ValueError, match="even"):
        rotary.rope_angles(n, d)
    with pytest.raises(ValueError, match="even"):
        assert_rope_relative(pe.rope, d)


@EXAMPLES
@given(d=ODD, n=st.integers(16, 60))
def test_identify_names_an_odd_width(d: int, n: int) -> None:
    table = pe.sinusoidal(n, d + 1)[:, :d]
    found = identify(table)
    assert found.unpaired_column is not None or not found.is_encoding, found
    with pytest.raises(AssertionError, match=f"d = {d} is odd"):
        assert_matches_paper(table)
