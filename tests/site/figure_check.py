"""The check every figure of the site passes: both palettes drawn, alt text, real PNGs."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable

import pytest

from pe.site.html import Html

#: A page helper that returns one figure.
Draw = Callable[[], Html]


def each_figure(*draws: Draw) -> pytest.MarkDecorator:
    """Parametrize a test's ``draw`` over page helpers, in name order, each case named after it."""
    ordered = sorted(draws, key=lambda draw: draw.__name__)
    return pytest.mark.parametrize("draw", ordered, ids=[draw.__name__ for draw in ordered])


def assert_is_figure(html: str) -> None:
    """``html`` is one figure drawn in the light and the dark palette, each with alt text."""
    images = re.findall(
        r'<img class="pe-fig pe-fig-(light|dark)" alt="([^"]+)" src="([^"]+)"', html
    )
    assert [palette for palette, _, _ in images] == ["light", "dark"]
    for _, alt, src in images:
        assert len(alt) > 40
        png = base64.b64decode(src.removeprefix("data:image/png;base64,"))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(png) > 5_000
    assert images[0][2] != images[1][2]  # the two palettes are drawn differently
