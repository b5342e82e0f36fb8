"""Figures for the site, drawn from :mod:`pe` at build time, readable in light and dark palettes.

:func:`render` draws a figure twice, once with dark ink for the light palette and once with
light ink for the dark palette, on a transparent background, and returns HTML holding both
PNGs (with alt text); the site's CSS shows the one that matches the palette. Each PNG has
twice the pixels of its displayed width (sharp on phones and dense screens) and carries no
date or software stamp, so two builds give identical bytes.

Figures are drawn for the phone first: text is set at :data:`FONT_SIZE` points or more and
a figure is at most :data:`MAX_WIDTH` CSS pixels wide (panels stacked, not side by side),
so that on a 390 px screen, where a notebook page shows a figure :data:`PHONE_WIDTH` px
wide, its smallest text is still :data:`MIN_TEXT_PX` px. Each image states the size of
its smallest text (``data-min-text-px``, in the image's own pixels, read from matplotlib's
text objects as drawn); the browser tests scale it by the displayed width.

:func:`colorbar`, :func:`label_axes` and :func:`measured_and_model` are the drawing steps
several figures share; :func:`error_plot` draws a whole plot of measured errors against
their model.

Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import matplotlib as mpl
import numpy as np
import numpy.typing as npt
from cycler import cycler

mpl.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from pe.site.report import Html

__all__ = [
    "FONT_SIZE",
    "LEGEND_BELOW",
    "MAX_WIDTH",
    "MIN_TEXT_PX",
    "PHONE_WIDTH",
    "Palette",
    "Slider",
    "colorbar",
    "error_plot",
    "interactive",
    "label_axes",
    "measured_and_model",
    "render",
]


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


def colorbar(
    fig: Figure, mappable: ScalarMappable, palette: Palette, label: str, **where: Any
) -> None:
    """A colour bar for ``mappable``, labelled ``label``, its outline in the palette's ink.

    ``where`` goes to :meth:`matplotlib.figure.Figure.colorbar` (``ax``, ``shrink``, ...).

    Examples
    --------
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> colorbar(fig, ax.imshow([[0.0, 1.0]]), LIGHT, "value", ax=ax)
    >>> fig.axes[-1].get_ylabel()
    'value'
    """
    bar = fig.colorbar(mappable, **where)
    bar.set_label(label)
    bar.outline.set_edgecolor(palette.ink)


def measured_and_model(
    ax: Axes,
    palette: Palette,
    x: npt.ArrayLike,
    curves: Mapping[str, tuple[npt.ArrayLike, npt.ArrayLike]],
    *,
    floor: float,
    labels: tuple[str, str],
) -> None:
    """Per curve ``name: (measured, model)``, on log-log axes in the next palette colour:
    the measured errors as dots (raised to ``floor``, so that exact zeros still show) and
    their error model as a line. ``labels`` are the legend entries of the dots and of the
    line, with ``{}`` standing for the curve's name.

    Examples
    --------
    >>> ax = Figure().add_subplot()
    >>> curves = {"float64": ([0.0, 1e-16], [1e-15, 1e-15])}
    >>> measured_and_model(ax, LIGHT, [1, 10], curves, floor=1e-17, labels=("{}", "{} bound"))
    >>> [line.get_label() for line in ax.lines]
    ['float64', 'float64 bound']
    """
    for colour, (name, (measured, model)) in zip(palette.lines, curves.items(), strict=False):
        dots, line = (label.format(name) for label in labels)
        ax.loglog(x, np.maximum(measured, floor), "o", ms=3.5, color=colour, label=dots)
        ax.loglog(x, model, "-", lw=1.2, color=colour, label=line)


#: The usual legend: below the plot, two entries a line (a legend at the side would widen
#: the figure past what a phone shows legibly).
LEGEND_BELOW: dict[str, Any] = {
    "loc": "upper center",
    "bbox_to_anchor": (0.5, -0.22),
    "ncol": 2,
    "columnspacing": 1.0,
    "handlelength": 1.5,
}


def label_axes(ax: Axes, xlabel: str, ylabel: str, *, grid: float = 0.5, **legend: Any) -> None:
    """Axis labels, a major grid of line width ``grid`` and the legend (``legend`` goes to
    :meth:`matplotlib.axes.Axes.legend`; by default :data:`LEGEND_BELOW`).

    Examples
    --------
    >>> ax = Figure().add_subplot()
    >>> _ = ax.plot([0, 1], label="a line")
    >>> label_axes(ax, "position p", "error")
    >>> ax.get_xlabel(), ax.get_legend().get_texts()[0].get_text()
    ('position p', 'a line')
    """
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", lw=grid)
    ax.legend(**(legend or LEGEND_BELOW))


def error_plot(
    x: npt.ArrayLike,
    curves: Mapping[str, tuple[npt.ArrayLike, npt.ArrayLike]],
    *,
    floor: float,
    labels: tuple[str, str],
    xlabel: str,
    ylabel: str,
) -> Draw:
    """The drawing (for :func:`render`) of one log-log plot of measured errors and their
    error model: :func:`measured_and_model` of ``x``, ``curves``, ``floor`` and ``labels``
    on a single axes, labelled ``xlabel`` and ``ylabel`` by :func:`label_axes`.

    Examples
    --------
    >>> curves = {"float64": ([0.0, 1e-16], [1e-15, 1e-15])}
    >>> draw = error_plot([1, 10], curves, floor=1e-17, labels=("{}", "{} bound"),
    ...                   xlabel="position p", ylabel="error")
    >>> fig = Figure()
    >>> draw(fig, LIGHT)
    >>> fig.axes[0].get_xlabel(), [line.get_label() for line in fig.axes[0].lines]
    ('position p', ['float64', 'float64 bound'])
    """

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        measured_and_model(ax, palette, x, curves, floor=floor, labels=labels)
        label_axes(ax, xlabel, ylabel)

    return draw


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
        "font.size": FONT_SIZE,
        "axes.titlesize": FONT_SIZE,
        "legend.fontsize": FONT_SIZE,
        "xtick.labelsize": FONT_SIZE,
        "ytick.labelsize": FONT_SIZE,
        "svg.hashsalt": "pe",
    }


#: CSS pixels per inch of a figure, and image pixels per CSS pixel (2: sharp on phones and
#: high-density screens; the page shows each image at half its pixel width).
DPI, SCALE = 110, 2
#: The smallest text a figure may show, in CSS pixels, on a phone.
MIN_TEXT_PX = 11
#: The width in CSS pixels at which a notebook page shows a figure on a 390 px wide screen
#: (the content column less the output area's margins; measured in Chromium).
PHONE_WIDTH = 318
#: The text size of every figure, in points: 11 pt is 16.8 CSS px at :data:`DPI`.
FONT_SIZE = 11.0
#: The widest a figure may be, in CSS pixels, for its :data:`FONT_SIZE` text to show at
#: :data:`MIN_TEXT_PX` on a phone: 485 px (about 4.4 inches).
MAX_WIDTH = int(FONT_SIZE * DPI / 72 * PHONE_WIDTH / MIN_TEXT_PX)


def smallest_text(fig: Figure) -> float:
    """The size in points of the smallest text ``fig`` draws: tick labels, legends, titles,
    labels and annotations (every visible, non-empty :class:`~matplotlib.text.Text`).

    Inside ``$...$`` matplotlib sets sub- and superscripts smaller, as any formula does;
    the size counted is the text's own.

    Examples
    --------
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.set_title("title", fontsize=14)
    >>> _ = ax.annotate("note", (0.5, 0.5), fontsize=9)
    >>> fig.canvas.draw()
    >>> smallest_text(fig)
    9.0
    """
    sizes = [
        float(text.get_fontsize())
        for text in fig.findobj(Text)
        if isinstance(text, Text) and text.get_visible() and text.get_text().strip()
    ]
    if not sizes:
        raise ValueError("the figure draws no text: label its axes")
    return min(sizes)


def _png(draw: Draw, palette: Palette, size: tuple[float, float]) -> tuple[str, int, int, float]:
    """The figure as a base64 PNG at :data:`SCALE` times its CSS size, that CSS width and
    height, and the height of its smallest text in the image's pixels."""
    with plt.rc_context(cast(Any, _style(palette))):
        fig = plt.figure(figsize=size, dpi=100)
        try:
            draw(fig, palette)
            buffer = io.BytesIO()
            fig.savefig(
                buffer,
                format="png",
                dpi=DPI * SCALE,
                bbox_inches="tight",
                metadata={"Software": None},
            )
            text_px = smallest_text(fig) * DPI * SCALE / 72
        finally:
            plt.close(fig)
    png = _quantised(buffer.getvalue())
    width, height = Image.open(io.BytesIO(png)).size
    return base64.b64encode(png).decode("ascii"), width // SCALE, height // SCALE, text_px


def _quantised(png: bytes) -> bytes:
    """The PNG reduced to a 256-colour palette (with alpha): about a third of the bytes.

    Every figure is drawn twice (one per palette) and a reader on a phone fetches what the
    screen shows: fewer bytes, a faster page. Quantisation is deterministic and adds no
    metadata.
    """
    image = Image.open(io.BytesIO(png))
    palette = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", optimize=True)
    return out.getvalue()


def render(
    draw: Draw, alt: str, *, caption: str = "", size: tuple[float, float] = (4.0, 3.0)
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
        Figure size in inches (the image is cropped to what is drawn): at most
        :data:`MAX_WIDTH` pixels wide once drawn, for text of :data:`FONT_SIZE`.

    Each image states its smallest text (``data-min-text-px``, in the image's pixels).
    Both images carry their width and height (the page keeps their room before they
    arrive) and load lazily: the site's stylesheet hides the palette not shown, and the
    browser does not fetch a hidden lazy image. (The build moves the PNGs to files,
    ``docs/_hooks/figure_files.py``; here they are inline, so the HTML stands alone.)
    """
    if not alt.strip():
        raise ValueError("alt text is required for every figure")
    images = "".join(
        f'<img class="pe-fig pe-fig-{p.name}" alt="{html.escape(alt)}" width="{width}" '
        f'height="{height}" loading="lazy" decoding="async" '
        f'src="data:image/png;base64,{data}" data-min-text-px="{int(text_px * 10) / 10}">'
        for p in (LIGHT, DARK)
        for data, width, height, text_px in [_png(draw, p, size)]
    )
    text = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return Html(f'<figure class="pe-figure">{images}{text}</figure>')


@dataclass(frozen=True)
class Slider:
    """A slider of an interactive figure: ``name`` is the value's name in the script.

    With ``log10`` the slider moves the exponent: the value is ``10 ** position``.
    """

    name: str
    label: str
    low: float
    high: float
    step: float
    value: float
    log10: bool = False


_LOG10 = {True: ' data-scale="log10"', False: ""}


def interactive(
    widget: str, fallback: Html, sliders: Sequence[Slider], *, label: str, **data: object
) -> Html:
    """An interactive figure drawn in the browser by ``docs/javascripts/pe-explorers.js``.

    ``widget`` names the drawing (``rotation``, ``table``, ``dot``), ``sliders`` its
    controls (native range inputs, so the keyboard moves them), ``label`` describes it to
    screen readers and ``data`` passes constants (``positions=50``) to the script. The
    ``fallback`` figure, drawn by pe, is what print and readers without JavaScript see.

    Examples
    --------
    >>> html = interactive("dot", Html("<p>static</p>"), [Slider("k", "offset k", 0, 9, 1, 3)],
    ...                    label="a plot", offsets=9)
    >>> 'data-pe-widget="dot" data-offsets="9"' in html, 'name="k"' in html
    (True, True)
    """
    controls = "".join(
        f'<label class="pe-slider">{html.escape(s.label)} '
        f'<input type="range" id="pe-{widget}-{s.name}" name="{s.name}" min="{s.low:g}" '
        f'max="{s.high:g}" step="{s.step:g}" value="{s.value:g}"{_LOG10[s.log10]}>'
        f'<output for="pe-{widget}-{s.name}"></output></label>'
        for s in sliders
    )
    attributes = "".join(f' data-{key}="{html.escape(str(value))}"' for key, value in data.items())
    return Html(
        f'<div class="pe-interactive" data-pe-widget="{widget}"{attributes}>'
        f'<div class="pe-live" hidden><div class="pe-controls">{controls}</div>'
        f'<svg class="pe-plot" role="img" tabindex="0" aria-label="{html.escape(label)}"></svg>'
        f'<p class="pe-readout" aria-live="polite"></p></div>'
        f'<div class="pe-fallback">{fallback}</div></div>'
    )
