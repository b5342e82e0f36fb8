"""pe.site.implications: the dot-product figure's alt text says what its curve does."""

from __future__ import annotations

import re

import numpy as np

from pe import geometry
from pe.site import implications


def alt_text(html: str) -> str:
    found = re.search(r'alt="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_alt_text_says_whether_the_curve_goes_below_zero() -> None:
    # Up to k = 200 the dot product at d = 512 stays positive; up to 20000 it goes negative.
    near, far = np.arange(201), np.arange(20_001)
    assert geometry.dot_by_offset(512, near).min() > 0 > geometry.dot_by_offset(512, far).min()
    short = alt_text(implications.dot_product_by_offset(512, 200))
    assert "stays above zero" in short
    assert "below zero" not in short
    long = alt_text(implications.dot_product_by_offset(512, 20_000))
    assert "dips below zero" in long
    assert "above zero" not in long
