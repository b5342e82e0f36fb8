"""Figures of the page "Precision and speed", drawn at build time against 50-digit mpmath.

Needs matplotlib (the ``docs`` extra), through :func:`pe.site.figures.render`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe.experiments import precision
from pe import _rotation_table as rotation_table
from pe.site.figures import Palette, render
from pe.site.report import Html

__all__ = ["anchoring", "error_vs_position"]

#: Methods drawn by :func:`error_vs_position`, with their line style and error bound.
_CURVES = (
    ("direct float64", "o", None),
    ("pe float64", "s", rotation_table.ENTRY_ERROR_BOUND),
    ("float32 recipe", "^", None),
    ("pe float32", "D", 2.0**-25 + rotation_table.ENTRY_ERROR_BOUND),
    ("float16 recipe", "v", None),
    ("pe float16", "P", 2.0**-12 + rotation_table.ENTRY_ERROR_BOUND),
)


def error_vs_position(d_model: int = 256, points: int = 28) -> Html:
    """Largest error over sampled columns against position, for pe and the usual recipes."""
    positions = np.unique(np.logspace(0, 20 * np.log10(2), points).astype(np.int64))
    curves = {
        name: np.maximum(precision.error_by_position(name, positions, d_model), 1e-18)
        for name, _, _ in _CURVES
    }

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        for k, (name, marker, bound) in enumerate(_CURVES):
            colour = palette.lines[(k // 2) % len(palette.lines)]
            dashed = name.startswith("pe")
            ax.loglog(
                positions,
                curves[name],
                marker=marker,
                ms=3.5,
                lw=1.0,
                ls="-" if dashed else ":",
                color=colour,
                label=name,
            )
            if bound is not None:
                ax.axhline(bound, color=colour, lw=0.7, ls="--")
        ax.set_xlabel("position p")
        ax.set_ylabel("max |computed - exact| over 16 columns")
        ax.grid(True, which="major", lw=0.5)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))

    return render(
        draw,
        alt=(
            f"Log-log plot of table error against position from 1 to 2^20 for d = {d_model}. "
            "The float64, float32 and float16 tables of pe stay flat at their rounding "
            "levels (dashed bounds); the direct float64 evaluation grows from 1e-16 to "
            "about 1e-10, and the float32 and float16 recipes grow linearly; the float16 "
            "recipe stops at 65504, where float16 positions overflow."
        ),
        caption=(
            "Error against 50-digit mpmath, largest over 16 sampled columns (0 and 1 "
            "included). Dashed lines: pe's bounds for float64, float32 and float16. The "
            "float16 recipe has no points above 65504: positions overflow to infinity there."
        ),
        size=(7.0, 3.8),
    )


def anchoring(n_positions: int = 8192, d_model: int = 16) -> Html:
    """Chained rotation z(p+1) = z(p) u against pe's anchored blocks, per position."""
    positions = np.unique(np.logspace(0, np.log10(n_positions - 1), 24).astype(np.int64))
    columns = np.arange(d_model)
    grid_p, grid_c = np.repeat(positions, d_model), np.tile(columns, positions.size)

    def worst(table: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        values = table[grid_p, grid_c]
        found = precision.exact_error(values, grid_p, grid_c, d_model)
        result: npt.NDArray[np.float64] = np.maximum(
            found.reshape(positions.size, d_model).max(axis=1), 1e-18
        )
        return result

    curves = {
        "chained, complex64": worst(precision.chained_rotation(n_positions, d_model)),
        "chained, complex128": worst(
            precision.chained_rotation(n_positions, d_model, dtype=np.complex128)
        ),
        "pe float32 (anchored)": worst(
            precision.METHODS["pe float32"](np.arange(n_positions), d_model)
        ),
        "pe float64 (anchored)": worst(
            precision.METHODS["pe float64"](np.arange(n_positions), d_model)
        ),
    }

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        for colour, (name, values) in zip(palette.lines, curves.items(), strict=False):
            ax.loglog(positions, values, "o-", ms=3, lw=1.0, color=colour, label=name)
        ax.set_xlabel("position p (number of chained steps)")
        ax.set_ylabel("max |computed - exact| over columns")
        ax.grid(True, which="major", lw=0.5)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))

    return render(
        draw,
        alt=(
            f"Log-log plot of error against position up to {n_positions - 1} for d = "
            f"{d_model}: rows built by chaining one-step rotations lose accuracy "
            + ", ".join(
                f"({name}: from {values[0]:.0e} to {values[-1]:.0e})"
                for name, values in curves.items()
                if name.startswith("chained")
            )
            + ", while pe's anchored tables stay at their rounding level "
            + ", ".join(
                f"({name}: at most {values.max():.0e})"
                for name, values in curves.items()
                if name.startswith("pe")
            )
            + "."
        ),
        caption=(
            "Why each block is re-anchored: repeated multiplication by the one-step "
            "rotation accumulates rounding errors; one product of two accurate anchors does not."
        ),
        size=(7.0, 3.4),
    )
