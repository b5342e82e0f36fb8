"""``pe.identify``'s law classification just inside and just outside each of its edges.

Every threshold of :mod:`pe.identify._law` is crossed from both sides by a table or a line
placed a small factor from it, computed from the constant itself: a table whose frequencies
are a few float32 floors too fast or too slow, a base a hair off 10000, 1e8 or 100, a line
whose worst residual is the threshold or the next float above it. A threshold loosened or
tightened tenfold moves one of the two cases to the other side.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pe import numeric
from pe.identify import _law, identify
from pe.identify._law import LawInput, _classify, _Line, _paper_or_t2t

N, D = 1100, 16
#: The floor of ln(omega) when the frequencies are read at float32 precision.
FLOOR32 = _law.LAW_FLOOR_EPS * float(np.finfo(np.float32).eps)


def _table(w: np.ndarray, dtype: type) -> np.ndarray:
    """The paper's interleaved table for the frequencies ``w`` (sine, cosine per pair)."""
    angles = np.arange(N)[:, None] * w[None, :]
    table = np.empty((N, 2 * w.size))
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table.astype(dtype)


def test_the_table_builder_is_the_paper_table() -> None:
    assert np.allclose(_table(numeric.frequencies(D, 1e4), np.float64), numeric.sinusoidal(N, D))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_frequencies_a_few_floors_too_fast_or_slow(dtype: type, sign: float) -> None:
    """Every frequency times 1 +- f: the paper's law within a quarter floor, another law
    (the intercept is no longer 0) at two floors (about 3e-5: a table 1e-4 too fast too)."""
    w = numeric.frequencies(D, 1e4)
    for factor, law in ((FLOOR32 / 4, "paper"), (2 * FLOOR32, "other"), (1e-4, "other")):
        found = identify(_table(w * (1.0 + sign * factor), dtype))
        assert found.is_encoding, found.reason
        assert found.law == law, (factor, found.law, found.base)
        if law == "paper":
            assert found.base == pytest.approx(1e4, rel=1e-3, abs=0)


def _line(slope: float, *, intercept: float = 0.0, sigma: float = 1e-15) -> _Line:
    return _Line(intercept, slope, sigma, sigma, 0.0)


def test_line_fit_edge() -> None:
    at = _Line(0.0, -1.0, 1.0, 1.0, _law.LINE_FIT)
    above = _Line(0.0, -1.0, 1.0, 1.0, math.nextafter(_law.LINE_FIT, math.inf))
    assert _law._fits(at)
    assert not _law._fits(above)
    assert not _law._fits(_Line(0.0, -1.0, 1.0, 1.0, _law.LINE_FIT * 1.01))


def test_pinned_edge() -> None:
    """A frequency enters the line only when its uncertainty is below PINNED of it."""
    k = np.array([0.0, 1.0])
    w = np.array([1.0, 0.5])
    for share, kept in ((_law.PINNED * (1 - 1e-9), True), (_law.PINNED * (1 + 1e-9), False)):
        sigma = np.array([1e-6, share * 0.5])
        line = _law._log_line(k, w, sigma, floor=1e-12)
        assert (line is not None) is kept, share


def _paper_line(base: float, width: int = D) -> _Line:
    return _line(-2.0 * math.log(base) / width)


@pytest.mark.parametrize(
    ("base", "noted"),
    [
        (1e4 * (1 + _law.BASE_MATCH / 4), False),
        (1e4 * (1 - _law.BASE_MATCH / 4), False),
        (1e4 * (1 + 4 * _law.BASE_MATCH), True),
        (1e4 * (1 - 4 * _law.BASE_MATCH), True),
    ],
)
def test_base_match_edge(base: float, noted: bool) -> None:
    found = _paper_or_t2t(_paper_line(base), D // 2, D, [])
    assert found.law == "paper"
    assert found.base == pytest.approx(base, rel=1e-12, abs=0)
    assert any("not the paper's 10000" in n for n in found.notes) is noted, found.notes


@pytest.mark.parametrize(("centre", "word"), [(1e8, "doubled-exponent"), (100.0, "half as fast")])
def test_doubled_and_halved_exponent_edges(centre: float, word: str) -> None:
    """Base 1e8 (or 100) within 1e-6 relative is the known bug; beyond, just another base."""
    for rel, named in ((0.25e-6, True), (-0.25e-6, True), (4e-6, False), (-4e-6, False)):
        found = _paper_or_t2t(_paper_line(centre * (1 + rel)), D // 2, D, [])
        assert any(word in n for n in found.notes) is named, (rel, found.notes)
        if not named:
            assert any("not the paper's 10000" in n for n in found.notes)


def test_a_flat_law_edge() -> None:
    """A slope within 2 sigma (+1e-12) of 0 is "every pair has the same frequency"."""
    sigma = 1e-6
    edge = 2 * sigma + 1e-12
    for slope, flat in ((-edge * 0.9, True), (-edge * 1.1, False), (edge * 0.9, True)):
        found = _classify(_Line(0.0, slope, 1e-15, sigma, 0.0), D // 2, D, [])
        assert any("same frequency" in n for n in found.notes) is flat, slope
        assert (found.law == "paper") is not flat


def test_a_slow_base_of_1_02_is_still_a_law() -> None:
    """Base 1.02: frequencies fall slowly but measurably; base 1 + 1e-13 does not fall."""
    found = identify(numeric.sinusoidal(N, D, base=1.02))
    assert (found.law, round(found.base or 0.0, 6)) == ("paper", 1.02)
    flat = identify(_table(np.ones(D // 2), np.float64))
    assert flat.law == "other"


def test_intercept_edge_decides_paper_or_one_indexed() -> None:
    """ln w_0 within 2 sigma (+1e-9) of 0 is a law from 1; within 2 sigma of the slope
    it is the 1-indexed law; elsewhere neither."""
    slope = -2.0 * math.log(1e4) / D
    sa = 1e-6
    edge = 2 * (sa + 1e-9)
    cases = (
        (edge * 0.9, "paper"),
        (edge * 1.1, "neither"),
        (slope + edge * 0.9, "1-indexed"),
        (slope - edge * 1.1, "neither"),
    )
    for intercept, kind in cases:
        found = _classify(_Line(intercept, slope, sa, 1e-12, 0.0), D // 2, D, [])
        notes = " ".join(found.notes)
        assert (found.law == "paper") is (kind == "paper"), (intercept, found)
        assert ("exponents counted from 1" in notes) is (kind == "1-indexed"), (intercept, notes)
        assert ("starts neither at 1" in notes) is (kind == "neither"), (intercept, notes)


def test_growing_frequencies_from_one_are_named() -> None:
    found = _classify(_Line(0.0, 0.05, 1e-9, 1e-9, 0.0), D // 2, D, [])
    assert found.law == "other"
    assert found.base == pytest.approx(math.exp(0.05 * D / 2), rel=1e-6, abs=0)
    assert "multiplied by base" in found.notes[0]


def _law_input(w: np.ndarray, sigma: float = 1e-9) -> LawInput:
    s = np.full(w.size, sigma)
    ok = np.ones(w.size, dtype=bool)
    return LawInput(w, w, s, s, ok, ~ok, 2 * w.size)


def test_few_distinct_frequencies_edge() -> None:
    """Three distinct values across more pairs: an integer division; four: no law."""
    three = np.array([1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25])
    four = np.array([1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.125, 0.125])
    assert _law._distinct(three, np.full(8, 1e-9)) == 3
    assert _law._distinct(four, np.full(8, 1e-9)) == 4
    assert "integer division" in _law._no_law(three, np.full(8, 1e-9), _law_input(three))[0]
    assert "no geometric law" in _law._no_law(four, np.full(8, 1e-9), _law_input(four))[0]


def test_distinct_values_edge() -> None:
    """Two frequencies count as one within 2 combined sigmas (+1e-9 relative)."""
    sigma = 1e-6
    edge = 2 * math.hypot(sigma, sigma)
    s = np.full(2, sigma)
    assert _law._distinct(np.array([0.5, 0.5 + edge * 0.9]), s) == 1
    assert _law._distinct(np.array([0.5, 0.5 + edge * 1.1 + 1e-9]), s) == 2


def test_fewest_rows_edge() -> None:
    """MIN_ROWS rows are read; one fewer is refused, by identify and by the assertion."""
    from pe.identify import MIN_ROWS
    from pe.testing import assert_matches_paper

    found = identify(numeric.sinusoidal(MIN_ROWS, 8))
    assert (found.is_encoding, found.law) == (True, "paper")
    assert_matches_paper(numeric.sinusoidal(MIN_ROWS, 8))
    for call in (identify, assert_matches_paper):
        with pytest.raises(ValueError, match=f"at least {MIN_ROWS} rows"):
            call(numeric.sinusoidal(MIN_ROWS - 1, 8))


def test_an_intercept_within_reach_of_both_laws_goes_to_the_nearer() -> None:
    """With a loose intercept (sigma 0.01) and a small slope (-0.01), both 0 (paper) and
    the slope (1-indexed) are within 2 sigma: the nearer one names the law."""
    slope, sa = -0.01, 0.01
    for intercept, paper in ((0.006, True), (0.004, True), (-0.004, True), (-0.006, False)):
        found = _classify(_Line(intercept, slope, sa, 1e-9, 0.0), D // 2, D, [])
        assert (found.law == "paper") is paper, intercept
        assert any("exponents counted from 1" in n for n in found.notes) is not paper
