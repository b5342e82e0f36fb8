"""pe.site.rotation_identity: the chapter's figures."""

from __future__ import annotations

import pytest

from pe import claims
from pe.site import rotation_identity as page

from .figure_check import Draw, assert_is_figure, each_figure


@each_figure(page.turn_direction, page.turning_pairs)
def test_figure_has_both_palettes_and_alt_text(draw: Draw) -> None:
    assert_is_figure(draw())


def test_turn_direction_states_what_it_measures() -> None:
    html = page.turn_direction()
    assert "Left, the paper" in html
    assert "go clockwise" in html
    assert "go counter-clockwise" in html


def test_turn_direction_refuses_the_textbook_belief() -> None:
    """The wrong candidate: the paper's (sin, cos) pair said to turn counter-clockwise."""
    with pytest.raises(claims.ClaimFailedError, match="does not turn counter-clockwise"):
        page.turn_direction(turns=("counter-clockwise", "clockwise"))
