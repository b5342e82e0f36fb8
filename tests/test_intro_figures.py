"""pe.site.intro: every figure of chapters 1-3 renders both palettes with alt text."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable

import pytest

from pe.site import intro as intro_figures
from pe.site.report import Html

FIGURES: dict[str, Callable[[], Html]] = {
    "sentence_outputs": intro_figures.sentence_outputs,
    "position_share": intro_figures.position_share,
    "normalised_index_gaps": intro_figures.normalised_index_gaps,
    "column_lines": intro_figures.column_lines,
    "wavelength_ladder": intro_figures.wavelength_ladder,
    "binary_vs_sinusoid": intro_figures.binary_vs_sinusoid,
    "cosine_histograms": intro_figures.cosine_histograms,
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_has_both_palettes_and_alt_text(name: str) -> None:
    html = str(FIGURES[name]())
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


def test_figures_are_deterministic() -> None:
    assert str(intro_figures.normalised_index_gaps()) == str(intro_figures.normalised_index_gaps())
