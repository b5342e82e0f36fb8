"""pe.site.failed_designs: the chapter's figures render both palettes with alt text."""

from __future__ import annotations

from pe.site import failed_designs

from .figure_check import Draw, assert_is_figure, each_figure


@each_figure(failed_designs.position_share, failed_designs.normalised_index_gaps)
def test_figure_has_both_palettes_and_alt_text(draw: Draw) -> None:
    assert_is_figure(draw())


def test_figures_are_deterministic() -> None:
    assert str(failed_designs.normalised_index_gaps()) == str(
        failed_designs.normalised_index_gaps()
    )
