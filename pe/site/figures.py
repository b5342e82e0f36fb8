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
import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from PIL import Image

from pe import numeric
from pe.site.report import Html

__all__ = ["Palette", "identity_error", "render", "table_heatmap"]


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


def table_heatmap(n_positions: int = 100, d_model: int = 128, *, base: float = 10000.0) -> Html:
    """Heat map of :func:`pe.numeric.sinusoidal`: positions down, columns across."""
    table = numeric.sinusoidal(n_positions, d_model, base=base)

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        image = ax.imshow(
            table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest"
        )
        ax.set_xlabel("column j (even: sine, odd: cosine)")
        ax.set_ylabel("position p")
        bar = fig.colorbar(image, ax=ax)
        bar.set_label("PE(p, j)")
        bar.outline.set_edgecolor(palette.ink)

    return render(
        draw,
        alt=(
            f"Heat map of the sinusoidal encoding for positions 0 to {n_positions - 1} and "
            f"{d_model} columns: the left columns oscillate quickly down the positions, the "
            "right columns barely change, sine columns start at 0 and cosine columns at 1."
        ),
        caption=f"The table PE(p, j) for d = {d_model}, computed by pe.numeric.sinusoidal.",
        size=(7.0, 4.0),
    )


def _error_by_position(
    d_model: int, positions: npt.NDArray[np.int64], k: int, dtype: str
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    omega = numeric.frequencies(d_model)
    errors, tolerances = [], []
    for p in positions:
        result = numeric.check_rotation_identity(d_model, np.array([p]), np.array([k]), dtype=dtype)
        errors.append(result.max_abs_error)
        tolerances.append(float(numeric.rotation_tolerance(omega, p, k, dtype).max()))
    return np.asarray(errors), np.asarray(tolerances)


def identity_error(d_model: int = 512, k: int = 7) -> Html:
    """Largest error of :math:`T_k PE(p) - PE(p+k)` against position, float32 and float64."""
    positions = np.unique(np.logspace(0, 7, 36).astype(np.int64))
    measured = {
        dtype: _error_by_position(d_model, positions, k, dtype) for dtype in ("float32", "float64")
    }

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        for colour, (dtype, (errors, tolerances)) in zip(
            palette.lines, measured.items(), strict=False
        ):
            ax.loglog(
                positions,
                np.maximum(errors, 1e-18),
                "o",
                ms=3.5,
                color=colour,
                label=f"{dtype}: measured",
            )
            ax.loglog(
                positions,
                tolerances,
                "-",
                color=colour,
                lw=1.2,
                label=f"{dtype}: error model's tolerance",
            )
        ax.set_xlabel("position p")
        ax.set_ylabel(f"max over columns of |T_{k} PE(p) - PE(p+{k})|")
        ax.grid(True, which="major", lw=0.5)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))

    return render(
        draw,
        alt=(
            f"Log-log plot of the largest error of the rotation identity for offset {k} and "
            f"d = {d_model}, against position from 1 to {positions[-1]:,}: "
            + "; ".join(
                f"{dtype} errors range from {errors.min():.0e} to {errors.max():.0e}, "
                + ("all below" if np.all(errors <= tolerances) else "NOT all below")
                + " its tolerance line"
                for dtype, (errors, tolerances) in measured.items()
            )
            + "."
        ),
        caption=(
            "Measured error (dots) and the error model's tolerance (lines): "
            "4 eps + 4 eps64 w_i (|p| + |k|), maximised over columns."
        ),
    )
