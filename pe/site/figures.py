"""Figures for the site, drawn from :mod:`pe` at build time, readable in light and dark palettes.

:func:`render` draws a figure twice, once with dark ink for the light palette and once with
light ink for the dark palette, on a transparent background, and returns HTML holding both
PNGs (with alt text); the site's CSS shows the one that matches the palette. PNGs carry no
date or software stamp, so two builds give identical bytes.

Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import matplotlib as mpl
from cycler import cycler

mpl.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from PIL import Image

from pe.site.report import Html

__all__ = ["Palette", "render"]


@dataclass(frozen=True)
class Palette:
    """Ink colours for one site palette: text and axes, then a cycle of line colours."""

    name: str
    ink: str
    grid: str
    lines: tuple[str, ...]


LIGHT = Palette("light", "#1f1f1f", "#d0d0d0", ("#1f5fbf", "#c2410c", "#15803d", "#7e22ce"))
DARK = Palette("dark", "#e6e6e6", "#4a4a4a", ("#7fb2ff", "#ffa26b", "#6ee7a0", "#d8a8ff"))

#: Draws on a figure with the palette's colours.
Draw = Callable[[Figure, Palette], None]


def _style(palette: Palette) -> dict[str, Any]:
    return {
        "figure.facecolor": "none",
        "axes.facecolor": "none",
        "savefig.facecolor": "none",
        "savefig.transparent": True,
        "text.color": palette.ink,
        "axes.labelcolor": palette.ink,
        "axes.edgecolor": palette.ink,
        "xtick.color": palette.ink,
        "ytick.color": palette.ink,
        "grid.color": palette.grid,
        "legend.frameon": False,
        "axes.prop_cycle": cycler(color=list(palette.lines)),
        "font.size": 10,
        "svg.hashsalt": "pe",
    }


def _png(draw: Draw, palette: Palette, size: tuple[float, float]) -> str:
    with plt.rc_context(cast(Any, _style(palette))):
        fig = plt.figure(figsize=size, dpi=100)
        try:
            draw(fig, palette)
            buffer = io.BytesIO()
            fig.savefig(
                buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None}
            )
        finally:
            plt.close(fig)
    return base64.b64encode(_quantised(buffer.getvalue())).decode("ascii")


def _quantised(png: bytes) -> bytes:
    """The PNG reduced to a 256-colour palette (with alpha): about a third of the bytes.

    Pages embed every figure twice (one per palette), so this keeps each page well under the
    2 MB budget. Quantisation is deterministic and adds no metadata.
    """
    image = Image.open(io.BytesIO(png))
    palette = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", optimize=True)
    return out.getvalue()


def render(
    draw: Draw, alt: str, *, caption: str = "", size: tuple[float, float] = (7.0, 3.4)
) -> Html:
    """Draw ``draw`` for both palettes and return the HTML figure.

    Parameters
    ----------
    draw
        ``draw(fig, palette)`` adds axes to ``fig`` and draws with ``palette``'s colours.
    alt
        Alt text describing what the figure shows (required, non-empty).
    caption
        Optional caption below the figure.
    size
        Figure size in inches.
    """
    if not alt.strip():
        raise ValueError("alt text is required for every figure")
    images = "".join(
        f'<img class="pe-fig pe-fig-{p.name}" alt="{html.escape(alt)}" '
        f'src="data:image/png;base64,{_png(draw, p, size)}">'
        for p in (LIGHT, DARK)
    )
    text = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return Html(f'<figure class="pe-figure">{images}{text}</figure>')
