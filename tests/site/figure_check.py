"""The check every figure of the site passes: both palettes drawn, alt text, real PNGs with
twice the pixels of their displayed width and height (both stated, so that the page keeps
their room), loaded lazily, and text still legible on a phone."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable

import pytest

from pe.site.figures import MIN_TEXT_PX, PHONE_WIDTH
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
        r'<img class="pe-fig pe-fig-(light|dark)" alt="([^"]+)" width="(\d+)" height="(\d+)" '
        r'loading="lazy" decoding="async" src="([^"]+)" data-min-text-px="([\d.]+)"',
        html,
    )
    assert [palette for palette, *_ in images] == ["light", "dark"]
    for _, alt, width, height, src, text_px in images:
        assert len(alt) > 40
        png = base64.b64decode(src.removeprefix("data:image/png;base64,"))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(png) > 5_000
        pixels = int.from_bytes(png[16:20], "big")  # the IHDR width
        rows = int.from_bytes(png[20:24], "big")  # and height
        assert pixels >= 2 * int(width)  # twice the pixels of its displayed width: sharp
        assert int(width) == pixels // 2  # its room, as drawn
        assert int(height) == rows // 2
        # Its smallest text, shown at the width a notebook page gives it on a 390 px phone.
        on_phone = float(text_px) * min(PHONE_WIDTH, int(width)) / pixels
        assert on_phone >= MIN_TEXT_PX, f"smallest text {on_phone:.1f} px on a phone"
    assert images[0][4] != images[1][4]  # the two palettes are drawn differently
