"""pe.site.sinusoidal_encoding: the chapter's figures and tables."""

from __future__ import annotations

import re

from pe.site import sinusoidal_encoding as page

from .figure_check import Draw, assert_is_figure, each_figure


@each_figure(
    page.column_lines,
    page.wavelength_ladder,
    page.binary_vs_sinusoid,
    page.cosine_histograms,
    page.table_heatmap,
)
def test_figure_has_both_palettes_and_alt_text(draw: Draw) -> None:
    assert_is_figure(draw())


def test_worked_example_tables() -> None:
    html = page.worked_example()
    assert html.count('<table class="pe-table">') == 2
    assert "<td>PE(1, 256)</td><td>\\(\\sin(1/100)\\)</td>" in html
    assert re.findall(r"<td>(My|name|is|RK)</td>", html) == ["My", "name", "is", "RK"]


def test_column_means_table_rounds_zero_without_sign() -> None:
    html = page.column_means_table((1000,), (510,))
    assert "-0.000" not in html
    assert "<td><strong>whole table</strong></td><td>0.230</td>" in html


def test_exercises_carry_their_claims() -> None:
    """Each answer names its claim with a mark; the card itself is not repeated."""
    html = page.exercises()
    assert html.count('<div class="pe-exercise">') == 3
    for claim_id in ("wavelength-progression", "worked-example-my-name-is-rk"):
        assert f'href="../claims/#claim-{claim_id}"' in html
    assert 'id="claim-' not in html
