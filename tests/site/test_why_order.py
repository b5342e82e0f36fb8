"""pe.site.why_order: the chapter's figure renders both palettes with alt text."""

from __future__ import annotations

from pe.site import why_order

from .figure_check import assert_is_figure


def test_sentence_outputs_is_a_figure() -> None:
    assert_is_figure(why_order.sentence_outputs())
