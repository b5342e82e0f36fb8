"""pe.column_means: the measured means and their closed form, against mpmath."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from pe import column_means, reference


@pytest.mark.parametrize("n", [1, 4, 37])
def test_column_means_closed_form_against_the_reference(n: int) -> None:
    d = 16
    closed = column_means.column_means_closed_form(n, d)
    with mpmath.workdps(reference.DPS):
        exact = [sum(reference.entry(p, column, d) for p in range(n)) / n for column in range(d)]
    np.testing.assert_allclose(closed, [float(v) for v in exact], atol=1e-13)
    np.testing.assert_allclose(column_means.column_means(n, d), closed, atol=1e-13)
    if n > 1:
        shifted = column_means.column_means_closed_form(n, d, shift=0.0)
        assert np.abs(shifted - closed).max() > 1e-3
