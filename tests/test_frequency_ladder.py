"""pe.frequency_ladder: the pairs' columns, the wavelengths and the 1-indexed ladder, against mpmath."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from pe import frequency_ladder, numeric, reference


def test_pair_columns_cover_each_column_once() -> None:
    for d in (2, 8, 512):
        assert frequency_ladder.pair_columns(d) == list(range(d))
        inclusive = frequency_ladder.pair_columns(d, d // 2 + 1)
        assert inclusive[-2:] == [d, d + 1]


def test_wavelengths_against_the_reference_end_points() -> None:
    lam = frequency_ladder.wavelengths(512)
    with mpmath.workdps(reference.DPS):
        first = 2 * mpmath.pi / reference.frequency(0, 512)
        last = 2 * mpmath.pi / reference.frequency(255, 512)
        ratio = reference.frequency(0, 512) / reference.frequency(1, 512)
        two_pi_base = 2 * mpmath.pi * 10000
    assert lam[0] == pytest.approx(float(first), rel=1e-15, abs=0)
    assert lam[-1] == pytest.approx(float(last), rel=1e-14, abs=0)
    assert lam[-1] < float(two_pi_base)
    np.testing.assert_allclose(lam[1:] / lam[:-1], float(ratio), rtol=1e-14)


def test_one_indexed_frequencies_are_the_paper_shifted_by_one() -> None:
    d = 64
    paper, shifted = numeric.frequencies(d), frequency_ladder.one_indexed_frequencies(d)
    exact = [float(reference.frequency(i, d)) for i in range(1, d // 2 + 1)]
    np.testing.assert_allclose(shifted, exact, rtol=1e-15)
    np.testing.assert_allclose(shifted[:-1], paper[1:], rtol=1e-15)
    assert shifted[0] < 1.0
    assert paper[0] == 1.0
    assert shifted[-1] == pytest.approx(1e-4, rel=1e-15, abs=0)


def test_ratio_equals_two_width() -> None:
    width, even = frequency_ladder.ratio_equals_two_width(10000)
    assert not even
    assert float(width) == pytest.approx(2 * math.log2(10000), rel=1e-15, abs=0)
    assert 10000 ** (2 / float(width)) == pytest.approx(2.0, rel=1e-14, abs=0)
    width, even = frequency_ladder.ratio_equals_two_width(2**13)
    assert even
    assert width == 26
