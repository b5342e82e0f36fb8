r"""The page "Precision and speed": figures, tables and formulas, computed at build time.

Errors are measured against 50-digit mpmath (:mod:`pe.accuracy`). Figures
need matplotlib (the ``docs`` extra), through :func:`pe.site.figures.render`. The
benchmark shown is the last saved run of ``benchmarks/run.py``, shipped with the package
as ``pe/site/data/benchmarks.json`` (:func:`benchmark_results`).

Examples
--------
>>> print(latex_number(4.87e-16))
4.87 \times 10^{-16}
>>> benchmark_results()["targets"][0]["met"] in (True, False)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe import (
    _extended_precision,
    _rotation_table,
    accuracy,
    error_models,
    numeric,
    recipes,
    reference,
)
from pe.chapters import precision as chapter
from pe.chapters import rotation_identity
from pe.site import report
from pe.site.figures import LEGEND_BELOW, Palette, error_plot, label_axes, render
from pe.site.html import Html, escape, math, table

__all__ = [
    "VALUES",
    "anchoring",
    "benchmark_results",
    "benchmark_table",
    "benchmark_targets",
    "block_size",
    "drift_table",
    "entry_bound",
    "error_vs_position",
    "identity_error",
    "identity_table",
    "latex_number",
    "rounding_sentence",
    "separation_table",
]

#: The saved benchmark, inside the package (written by ``benchmarks/run.py``).
BENCHMARK_RESOURCE = "data/benchmarks.json"

#: Methods drawn by :func:`error_vs_position`, with their line style and error bound.
_CURVES = (
    ("direct float64", "o", None),
    ("pe float64", "s", _rotation_table.ENTRY_ERROR_BOUND),
    ("float32 recipe", "^", None),
    ("pe float32", "D", error_models.ENTRY_FLOAT32()),
    ("float16 recipe", "v", None),
    ("pe float16", "P", error_models.ENTRY_FLOAT16()),
)


def error_vs_position(d_model: int = 256, points: int = 28) -> Html:
    """Largest error over sampled columns against position, for pe and the usual recipes."""
    positions = np.unique(np.logspace(0, 20 * np.log10(2), points).astype(np.int64))
    curves = {
        name: np.maximum(accuracy.error_by_position(name, positions, d_model), 1e-18)
        for name, _, _ in _CURVES
    }

    # the first position where the float16 recipe errs by half the values' range or more
    saturated = int(np.argmax(np.nan_to_num(curves["float16 recipe"], nan=1.0) >= 0.5))

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
        label_axes(ax, "position p", "max |computed − exact|")

    return render(
        draw,
        alt=(
            f"Log-log plot of table error against position from 1 to 2^20 for d = {d_model}. "
            "The float64, float32 and float16 tables of pe stay flat at their rounding "
            "levels (dashed bounds); the direct float64 evaluation grows from "
            f"{curves['direct float64'][0]:.0e} to {curves['direct float64'][-1]:.0e}, and the "
            "float32 recipe grows linearly; the float16 recipe grows until its errors reach "
            f"order 1 (at position {int(positions[saturated])}) and stops near 65504, the "
            "largest float16: positions from 65520 on overflow."
        ),
        caption=(
            "Error against 50-digit mpmath, largest over 16 sampled columns (0 and 1 "
            "included). Dashed lines: pe's bounds for float64, float32 and float16. The "
            "float16 recipe has no points above 65504: from 65520 on, float16 positions are "
            "infinite."
        ),
        size=(4.0, 2.8),
    )


def anchoring(n_positions: int = 8192, d_model: int = 16) -> Html:
    """Chained rotation z(p+1) = z(p) u against pe's anchored blocks, per position."""
    positions = np.unique(np.logspace(0, np.log10(n_positions - 1), 24).astype(np.int64))

    def worst(rows: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        found = accuracy.row_errors(lambda ps, _d: rows[ps], positions, d_model)
        result: npt.NDArray[np.float64] = np.maximum(found.max(axis=1), 1e-18)
        return result

    curves = {
        "chained, complex64": worst(recipes.chained_rotation(n_positions, d_model)),
        "chained, complex128": worst(
            recipes.chained_rotation(n_positions, d_model, dtype=np.complex128)
        ),
        "pe float32 (anchored)": worst(
            accuracy.METHODS["pe float32"](np.arange(n_positions), d_model)
        ),
        "pe float64 (anchored)": worst(
            accuracy.METHODS["pe float64"](np.arange(n_positions), d_model)
        ),
    }

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        for colour, (name, values) in zip(palette.lines, curves.items(), strict=False):
            ax.loglog(positions, values, "o-", ms=3, lw=1.0, color=colour, label=name)
        label_axes(
            ax, "position p (chained steps)", "max |computed − exact|", **LEGEND_BELOW | {"ncol": 1}
        )

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
        size=(4.0, 3.0),
    )


#: Positions and width of :func:`drift_table` (and of the prose that quotes it).
DRIFT_POSITIONS = (10**3, 10**4, 10**5, 10**6)
DRIFT_WIDTH = 64


@cache
def _drift() -> dict[str, npt.NDArray[np.float64]]:
    return accuracy.drift(DRIFT_POSITIONS, DRIFT_WIDTH)


def _drift_at(method: str, position: int) -> float:
    return float(_drift()[method][DRIFT_POSITIONS.index(position)])


@cache
def _separations() -> dict[str, accuracy.RowSeparation]:
    return {r.label: r for r in accuracy.separations()}


#: The width at which the prose quotes the precision of the frequencies in turns.
TURN_WIDTH = 512


def drift_table(positions: tuple[int, ...] = DRIFT_POSITIONS, d_model: int = DRIFT_WIDTH) -> Html:
    """Largest error over all columns at a few positions, for each method of the page."""
    same = positions == DRIFT_POSITIONS and d_model == DRIFT_WIDTH
    found = _drift() if same else accuracy.drift(positions, d_model)
    return table(
        [f"method (d = {d_model})", *(f"p = {p:,}" for p in positions)],
        (
            [name, *("NaN (overflow)" if np.isnan(e) else f"{e:.2g}" for e in errors)]
            for name, errors in found.items()
        ),
    )


def separation_table(n_positions: int = 4096, d_model: int = 16) -> Html:
    """How close two rows of the recipe's and of pe's tables come, per dtype."""
    return table(
        [
            f"table (positions 0..{n_positions - 1}, d = {d_model})",
            "rows equal to an earlier row",
            "smallest distance between two rows",
            "positions apart (many pairs tie)",
        ],
        (
            [r.label, r.duplicates, f"{r.smallest:.3g}", f"{r.pair[1] - r.pair[0]}"]
            for r in accuracy.separations(n_positions, d_model)
        ),
    )


def identity_table(
    positions: npt.ArrayLike = chapter.POSITIONS, offsets: npt.ArrayLike = chapter.OFFSETS
) -> Html:
    """:func:`pe.site.report.check_table` of the identity checked in float16, float32, float64,
    on the grid of the claim ``identity-low-precision`` (by default).

    Raises
    ------
    AssertionError
        If a check fails (the page is then not built).
    """
    checks = [
        numeric.check_rotation_identity(64, np.asarray(positions), np.asarray(offsets), dtype=t)
        for t in (np.float16, np.float32, np.float64)
    ]
    failed = [c.summary() for c in checks if not c.passed]
    if failed:
        raise AssertionError("; ".join(failed))
    ps, ks = np.asarray(positions), np.asarray(offsets)
    first = int(np.sum(np.diff(ps) == 1)) + 1 if ps[0] == 0 else 0
    shown = f"0..{first - 1}" if first else ""
    written = ", ".join([shown, *map(str, ps[first:].tolist())]).strip(", ")
    return report.check_table(checks, (written, ", ".join(map(str, ks.tolist()))))


def identity_error(d_model: int = 512, k: int = 7) -> Html:
    """Largest error of :math:`T_k PE(p) - PE(p+k)` against position, float32 and float64."""
    positions = np.unique(np.logspace(0, 7, 36).astype(np.int64))
    measured = {
        dtype: rotation_identity.error_by_position(d_model, positions, k, dtype)
        for dtype in ("float32", "float64")
    }

    return render(
        error_plot(
            positions,
            measured,
            floor=1e-18,
            labels=("{}: measured", "{}: tolerance"),
            xlabel="position p",
            ylabel=f"max |T_{k} PE(p) − PE(p+{k})|",
        ),
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
            f"{error_models.SHIFT.text}, maximised over columns."
        ),
        size=(3.8, 2.7),
    )


def latex_number(value: float, digits: int = 3) -> str:
    r"""``value`` in LaTeX scientific notation, e.g. ``4.87 \times 10^{-16}``."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def block_size() -> Html:
    """The block size ``B`` of the rotation algorithm."""
    return Html(math(rf"B = {_rotation_table.BLOCK}"))


def entry_bound() -> Html:
    """The error bound of a float64 entry, with its value."""
    return Html(
        math(
            r"|\widehat{PE} - PE| \le 2\sqrt2\,\delta + 3\cdot 2^{-54}"
            rf" \le {latex_number(_rotation_table.ENTRY_ERROR_BOUND)},"
            rf" \quad \delta = {_extended_precision.ANCHOR_ERROR_BOUND / 2.0**-53:.3g}\cdot 2^{{-53}}"
        )
    )


def rounding_sentence() -> Html:
    """What holds for each dtype: the rounding census of float64 and float32, as a sentence."""
    wide = accuracy.rounding_census(numeric.sinusoidal, np.float64)
    narrow = accuracy.rounding_census(
        lambda p, d: numeric.sinusoidal(p, d, dtype=np.float32), np.float32
    )
    share = 100 * wide.misrounded / wide.entries
    return Html(
        f"<p>Measured on {wide.entries} entries ($d = 64$: rows 0 to 63 and the last 64 rows "
        f"below $2^{{20}}$ whole, and 2000 sampled entries below $2^{{20}}$): in float64, "
        f"{wide.misrounded} entries ({share:.0f} %) differ from the exact value rounded to the "
        f"nearest float64, by up to {wide.worst_ulps:.0f} units in the last place of the entry "
        f"(entries near a zero crossing are tiny, so their last place is tiny too), while "
        f"the largest absolute error is ${latex_number(wide.worst_error)}$. In float32, "
        f"{narrow.misrounded} of the {narrow.entries} entries differ from the exact value "
        f"rounded to the nearest float32.</p>"
    )


@cache
def _neox() -> recipes.NeoxReproducer:
    """The reproducer of GPT-NeoX #1003 recomputed, with the reporter's float16 path."""
    return recipes.neox_reproducer()


@cache
def _neox_rounded() -> recipes.NeoxReproducer:
    """The same reproducer with the float32 angles rounded once to float16."""
    return recipes.neox_reproducer(recipes.rounded_angles)


#: The values the page's prose names (``{{ name }}``, :mod:`pe.site.prose`), each computed by pe.
VALUES: dict[str, Callable[[], object]] = {
    "reference_digits": lambda: reference.DPS,
    "radix": lambda: _rotation_table.RADIX,
    "sine_ulps": lambda: _extended_precision.LIBRARY_SINE_ULPS,
    "drift_width": lambda: DRIFT_WIDTH,
    "recipe32_at_1e4": lambda: _drift_at("float32 recipe", 10**4),
    "direct64_at_1e3": lambda: _drift_at("direct float64", 10**3),
    "drift_ratio_low": lambda: min(chapter.drift_ratios()),
    "drift_ratio_high": lambda: max(chapter.drift_ratios()),
    "direct64_at_1e6": lambda: _drift_at("direct float64", 10**6),
    "turn_bits": lambda: accuracy.turn_bits(TURN_WIDTH),
    "wide_turn_bits": lambda: accuracy.turn_bits(chapter.WIDE_ANGLES[0]),
    "angle_positions": lambda: len(chapter.ANGLE_POSITIONS),
    "turn_width": lambda: TURN_WIDTH,
    "decimal_width": lambda: 2 * _extended_precision._DECIMAL_PAIRS,
    "wide_width": lambda: chapter.WIDE_ANGLES[0],
    "wide_pairs": lambda: len(chapter.WIDE_ANGLES[1]),
    "wide_all_pairs": lambda: chapter.WIDE_ANGLES[0] // 2,
    "separation_positions": lambda: _separations()["pe, rounded to float16"].n_positions,
    "separation_width": lambda: _separations()["pe, rounded to float16"].d_model,
    "float16_neighbours": lambda: _separations()["pe, rounded to float16"].smallest,
    "float16_apart": lambda: chapter.FLOAT16_APART,
    "neox_d": lambda: recipes.NEOX_1003[0],
    "neox_n": lambda: recipes.NEOX_1003[1],
    "neox_row": lambda: recipes.NEOX_1003[3][0],
    "neox_pair": lambda: recipes.NEOX_1003[3][1],
    "neox_angle32": lambda: _neox().angle32,
    "neox_rounded": lambda: _neox_rounded().angle16,
    "neox_angle16": lambda: _neox().angle16,
    "neox_entry_change": lambda: _neox().entry_change,
    "neox_largest_change": lambda: _neox().largest_change,
    "neox_largest_row": lambda: _neox().where[0],
    "neox_largest_pair": lambda: _neox().where[1],
    "neox_rounded_change": lambda: _neox_rounded().largest_change,
}


def benchmark_results() -> dict[str, Any]:
    """The results saved by ``benchmarks/run.py`` (machine, rows, targets)."""
    text = resources.files("pe.site").joinpath(BENCHMARK_RESOURCE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _cell(value: object, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def _strong(value: object, fmt: str) -> Html:
    return Html(f"<strong>{escape(_cell(value, fmt))}</strong>")


def _setup_costs(rows: list[dict[str, Any]]) -> str:
    """The one-time frequency cost per width, once per ``d`` (a range where runs differ).

    Examples
    --------
    >>> _setup_costs([{"d": 8, "frequency_setup_ms": 0.52}, {"d": 8, "frequency_setup_ms": 0.61}])
    '0.52 to 0.61 ms for d = 8'
    """
    costs: dict[int, list[float]] = {}
    for row in rows:
        costs.setdefault(int(row["d"]), []).append(float(row["frequency_setup_ms"]))
    parts = []
    for d, values in sorted(costs.items()):
        low, high = f"{min(values):.2g}", f"{max(values):.2g}"
        parts.append(f"{low} ms for d = {d}" if low == high else f"{low} to {high} ms for d = {d}")
    return ", ".join(parts)


def benchmark_table(results: dict[str, Any] | None = None) -> Html:
    """The saved benchmark as two HTML tables: times, then errors and memory."""
    data = benchmark_results() if results is None else results
    size = Html("n &times; d")
    times = table(
        [size, "dtype", "pe", "np.full", "pe / np.full", "direct", "direct / pe", "recipe", "loop"],
        (
            [
                Html(f"{r['n']} &times; {r['d']}"),
                r["dtype"],
                _cell(r["ms"]["pe"], ".3g"),
                _cell(r["ms"]["full"], ".3g"),
                _strong(r["ratio_full"], ".3g"),
                _cell(r["ms"]["direct64"], ".3g"),
                _strong(r["speedup_direct"], ".3g"),
                _cell(r["ms"]["recipe"], ".3g"),
                _cell(r["ms"]["naive"], ".3g"),
            ]
            for r in data["rows"]
        ),
    )
    quality = table(
        [
            size,
            "dtype",
            "max error pe",
            "max error direct",
            "max error recipe",
            "pe peak extra memory",
        ],
        (
            [
                Html(f"{r['n']} &times; {r['d']}"),
                r["dtype"],
                _cell(r["error"]["pe"], ".2g"),
                _cell(r["error"]["direct64"], ".2g"),
                _cell(r["error"]["recipe"], ".2g"),
                f"{_cell(100 * r['peak_extra_fraction'], '.1f')} %",
            ]
            for r in data["rows"]
        ),
    )
    setup = _setup_costs(data["rows"])
    machine = escape(", ".join(f"{k}: {v}" for k, v in data["machine"].items()))
    return Html(
        f"{times}<p><small>Best times in milliseconds, three significant digits. <em>direct</em>: sin and cos of "
        "p&middot;w in float64, then cast; <em>recipe</em>: the float32 recipe; "
        "<em>loop</em>: a Python double loop (small sizes only). pe's times are for "
        "repeated calls: the frequencies of a new (d, base) are computed once and cached "
        f"(one-time cost: {setup}).</small></p>{quality}<p><small>Errors against 50-digit "
        "mpmath on sampled entries (last positions included); memory traced by tracemalloc "
        f"beyond the output, as a share of the output's size. Machine: {machine}.</small></p>"
    )


def benchmark_targets(results: dict[str, Any] | None = None) -> Html:
    """The benchmark's targets as a list: name, measured value, met or not."""
    data = benchmark_results() if results is None else results
    items = "".join(
        f"<li>{escape(t['name'])}: <strong>{escape(t['value'])}</strong> "
        f"({'met' if t['met'] else 'not met'})</li>"
        for t in data["targets"]
    )
    return Html(f"<ul>{items}</ul>")
