"""pe.site.failed_designs: the chapter's figures render both palettes with alt text."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pe.site import failed_designs
from pe.site.html import Html

from .figure_check import assert_is_figure

FIGURES: dict[str, Callable[[], Html]] = {
    "position_share": failed_designs.position_share,
    "normalised_index_gaps": failed_designs.normalised_index_gaps,
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_has_both_palettes_and_alt_text(name: str) -> None:
    assert_is_figure(FIGURES[name]())


def test_figures_are_deterministic() -> None:
    assert str(failed_designs.normalised_index_gaps()) == str(
        failed_designs.normalised_index_gaps()
    )
