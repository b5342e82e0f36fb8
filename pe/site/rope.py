"""Figures, tables and page helpers of "From sinusoids to rotary embeddings" (docs/rope.py).

Each figure returns the HTML of :func:`pe.site.figures.render` (both palettes, alt text);
the other helpers return the small tables and lines of computed numbers the page shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure
from matplotlib.patches import Arc, Rectangle

from pe import position_scores, rotary
from pe.chapters import rope as chapter
from pe.site.figures import Palette, error_plot, render
from pe.site.html import Html, code, escape, table

__all__ = [
    "VALUES",
    "decay",
    "merged_angles",
    "offset_error",
    "offset_table",
    "pairing_permutation",
    "pairings",
    "rotated_example",
    "same_input_gap",
]


def rotated_example() -> Html:
    """The vector ``[1, 0, 1, 0]`` rotated at positions 0..3 (``d = 4``), and its lengths."""
    rotated = rotary.rope(np.tile(np.array([1.0, 0.0, 1.0, 0.0]), (4, 1)), 4)
    lengths = np.array2string(np.linalg.norm(rotated, axis=1), precision=6)
    return Html(
        "<pre>"
        + escape(
            "rope([1, 0, 1, 0] at positions 0..3), d = 4:\n"
            + np.array2string(rotated, precision=4, suppress_small=True)
            + f"\nlengths: {lengths}"
        )
        + "</pre>"
    )


def pairing_permutation(d_model: int = 8) -> Html:
    """The line ``pe.rotary.pairing_permutation(d) = [...]``."""
    perm = rotary.pairing_permutation(d_model).tolist()
    return Html(f"<p>{code(f'pe.rotary.pairing_permutation({d_model})')} = {code(perm)}</p>")


def same_input_gap(position: int = 5, d_model: int = 8) -> Html:
    """How far the two pairings move one random vector apart, as a sentence."""
    x = np.random.default_rng(0).standard_normal((1, d_model))
    gap = np.abs(rotary.rope(x, [position]) - rotary.rope(x, [position], pairing="halves")).max()
    return Html(
        f"<p>Same input vector at position {position}, $d = {d_model}$: the two pairings differ "
        f"by up to {gap:.3f} in a coordinate.</p>"
    )


def merged_angles(positions: Sequence[int] = (2048, 2049)) -> Html:
    """The angle of pair 0 at two positions, formed in float16."""
    merged = rotary.rope_angles(np.array(positions), 8, angle_dtype="float16")[:, 0]
    return Html(
        f"<p>Angle of pair 0 at positions {positions[0]} and {positions[1]} formed in float16: "
        f"{merged[0]:g} and {merged[1]:g}.</p>"
    )


#: The grid of :func:`offset_table`: a few positions and offsets, named in its header.
TABLE_POSITIONS = np.array([0, 10, 1000, 4097, 60_001])
TABLE_OFFSETS = np.array([1, 5, 37])


def offset_table(dtypes: Sequence[str] = ("float64", "float32", "float16")) -> Html:
    """:func:`pe.rotary.check_offset_dependence` per angle dtype, against the float64 model
    (float16 below position 10^4 only, where its model can fail: see
    :data:`pe.chapters.rope.FLOAT16_POSITIONS`)."""
    rows = []
    for dtype in dtypes:
        positions = TABLE_POSITIONS
        if dtype == "float16":
            positions = positions[positions < 10_000]
        r = rotary.check_offset_dependence(128, positions, TABLE_OFFSETS, angle_dtype=dtype)
        strict = rotary.check_offset_dependence(
            r.d_model,
            np.array([r.position]),
            np.array([r.offset]),
            pairing=r.pairing,  # type: ignore[arg-type]
            angle_dtype=r.angle_dtype,
            model_dtype="float64",
        )
        verdict = "within" if strict.passed else "exceeds"
        rows.append(
            [
                r.angle_dtype,
                f"{r.max_abs_error:.3g} (m={r.position}, k={r.offset})",
                f"{r.tolerance:.3g}",
                f"{strict.tolerance:.3g}: {verdict}",
            ]
        )
    grid = (
        f"m in {{{', '.join(str(int(m)) for m in TABLE_POSITIONS)}}} (float16: below 10,000), "
        f"k in {{{', '.join(str(int(k)) for k in TABLE_OFFSETS)}}}"
    )
    return table(
        [
            "angles in",
            f"largest error (where), over {grid}",
            "tolerance, own dtype",
            "tolerance, float64 angles",
        ],
        rows,
    )


def _pairs(pairing: str, d: int) -> list[tuple[int, int]]:
    half = d // 2
    if pairing == "adjacent":
        return [(2 * i, 2 * i + 1) for i in range(half)]
    return [(i, i + half) for i in range(half)]


def pairings(d_model: int = 8) -> Html:
    """The coordinates of one vector, with an arc joining the two members of each pair."""
    half = d_model // 2

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(2, 1)
        titles = {
            "adjacent": "adjacent: pair i = (x[2i], x[2i+1])\nRoFormer, GPT-J, Meta Llama",
            "halves": f"halves: pair i = (x[i], x[i + r/2]), r = {d_model} rotated\n"
            "GPT-NeoX, Hugging Face Llama",
        }
        for ax, pairing in zip(axes, ("adjacent", "halves"), strict=True):
            colours = [palette.lines[i % len(palette.lines)] for i in range(half)]
            for (a, b), colour in zip(_pairs(pairing, d_model), colours, strict=True):
                for j in (a, b):
                    ax.add_patch(Rectangle((j - 0.4, -0.4), 0.8, 0.8, fc="none", ec=colour, lw=1.6))
                    ax.text(j, 0, f"x{j}", ha="center", va="center", color=palette.ink)
                centre, width = (a + b) / 2, b - a
                ax.add_patch(
                    Arc(
                        (centre, 0.4),
                        width,
                        0.5 + 0.25 * width,
                        theta1=0,
                        theta2=180,
                        color=colour,
                        lw=1.6,
                    )
                )
                ax.text(
                    centre,
                    0.72 + 0.125 * width,
                    f"ω{(a // 2) if pairing == 'adjacent' else a}",
                    ha="center",
                    va="bottom",
                    color=colour,
                )
            ax.set_xlim(-0.7, d_model - 0.3)
            ax.set_ylim(-0.6, 1.9)
            ax.set_title(titles[pairing], loc="left")
            ax.set_xticks(range(d_model))
            ax.set_xlabel("coordinate index j")
            ax.set_yticks([])
            for side in ("left", "right", "top"):
                ax.spines[side].set_visible(False)
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Two rows of {d_model} boxes, the coordinates x0 to x{d_model - 1} of one query. "
            "Top row, adjacent pairing: arcs join neighbours x0-x1, x2-x3 and so on. Bottom row, "
            f"halves pairing: arcs join x0-x{half}, x1-x{half + 1} and so on. Each arc is labelled "
            "with the frequency that rotates its pair."
        ),
        caption=(
            "Which coordinates rotate together. Same frequencies, same angles, different "
            "coordinates: the two layouts differ by the permutation P."
        ),
        size=(4.2, 4.6),
    )


def offset_error(d_model: int = 128, offset: int = 5) -> Html:
    """Largest ``|s(m, m + k) - <q, R_k kappa>|`` against ``m`` for angles in float64/32/16
    (``k`` the offset, ``kappa`` the key vector)."""
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(d_model), rng.standard_normal(d_model)
    positions = np.unique(np.logspace(0, 4.8, 40).astype(np.int64))
    offsets = np.array([offset])
    curves = {
        dtype: (
            rotary.offset_error(q, k, positions, offsets, angle_dtype=dtype)[:, 0],
            rotary.offset_tolerance(q, k, positions, offsets, model_dtype=dtype)[:, 0],
        )
        for dtype in ("float16", "float32", "float64")
    }
    # |s(m, m + k) - <q, R_k kappa>| is at most twice the sum of the (adjacent) pairs' norm
    # products: each pair's score lies in [-rho_i, rho_i].
    largest = 2.0 * float(np.sum(np.hypot(q[0::2], q[1::2]) * np.hypot(k[0::2], k[1::2])))

    return render(
        error_plot(
            positions,
            curves,
            floor=1e-17,
            labels=("{}: measured", "{}: model"),
            xlabel="query position m",
            ylabel=f"|s(m, m+{offset}) − ⟨q, R_{offset} κ⟩|",
        ),
        alt=(
            f"Log-log plot against the query position from 1 to {positions[-1]:,} of how far "
            f"the RoPE score at offset {offset} is from its value at position 0, for "
            f"d = {d_model} and random q and κ: "
            + "; ".join(
                f"with {dtype} angles the error runs from {errors.min():.0e} to "
                f"{errors.max():.0e}, "
                + ("all below" if np.all(errors <= model) else "NOT all below")
                + " its error-model line"
                + _above_any_difference(positions, model, largest)
                for dtype, (errors, model) in curves.items()
            )
            + "."
        ),
        caption=(
            "Where the relative property breaks in floating point: dots are measured, lines are "
            "the error model of pe.rotary (angle error 2 eps_a w_i |p|, linear in the position)."
        ),
        size=(3.8, 3.2),
    )


def _above_any_difference(
    positions: npt.NDArray[np.int64], model: npt.NDArray[np.float64], largest: float
) -> str:
    """Where an error-model line passes the largest difference possible, in words (or "")."""
    above = np.flatnonzero(model >= largest)
    if above.size == 0:
        return ""
    return (
        f" (from m = {positions[above[0]]:,} on, that line is above {largest:.3g}, the largest"
        " difference two scores can have, so there it bounds nothing)"
    )


@cache
def _trend() -> tuple[dict[str, float], dict[str, list[float]]]:
    """The rises and window means of ``rope-scores-not-monotone``'s sequences."""
    sequences = chapter.rope_score_sequences(chapter.TREND_OFFSETS)
    means = {label: chapter.window_means(values) for label, values in sequences.items()}
    return chapter.relative_rises(sequences), means


def _percent(fraction: float) -> str:
    return f"{100 * fraction:.0f} %"


def _listed(values: Sequence[float]) -> str:
    return ", ".join(f"{v:.4g}" for v in values[:-1]) + f" and {values[-1]:.4g}"


#: Values the page's prose quotes, by placeholder name (``{{ name }}``), each computed by pe.
VALUES: dict[str, Callable[[], object]] = {
    "bound_means": lambda: _listed(_trend()[1]["bound (q=κ=1)"]),
    "score_means": lambda: _listed(_trend()[1]["s (q=κ=1)"]),
    "bound_rise": lambda: _percent(_trend()[0]["bound (q=κ=1)"]),
    "score_rise": lambda: _percent(_trend()[0]["s (q=κ=1)"]),
    "random_rise": lambda: f"{_trend()[0]['s (random q, κ)']:.2g}",
    "trend_last": lambda: int(chapter.TREND_OFFSETS[-1]),
    "checked_positions": lambda: chapter.POSITIONS.size,
    "last_position": lambda: f"{int(chapter.POSITIONS.max()):,}",
    "offsets": lambda: _listed(sorted(int(k) for k in chapter.OFFSETS)),
}


def decay(max_offset: int = 1000) -> Html:
    """RoFormer's bound and the scores it bounds, for q = κ = 1 and for random q, κ."""
    offsets = np.arange(0, max_offset + 1)
    labels = ("q = κ = (1, ..., 1)", "random q, κ")
    measured = [rotary.abel_bound(q, k, offsets) for q, k in chapter.decay_pairs()]

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(2, 1)
        for ax, label, (bound, scores) in zip(axes, labels, measured, strict=True):
            ax.plot(offsets, bound, color=palette.lines[1], lw=1.0, label="bound on |s(k)|")
            ax.plot(offsets, np.abs(scores), color=palette.lines[0], lw=0.9, label="|s(k)|")
            ax.set_yscale("log")
            ax.set_xlabel("offset k = n − m")
            ax.set_ylabel("value")
            ax.set_title(label)
            ax.grid(True, lw=0.5)
        axes[0].legend()
        fig.tight_layout()

    (bound1, scores1), (bound2, scores2) = measured
    below = all(bool(np.all(np.abs(s) <= b * (1 + 1e-9))) for b, s in measured)
    means = _trend()[1]
    rising = "" if position_scores.largest_rise(scores1) > 0 else " (NOT: it never rises)"
    return render(
        draw,
        alt=(
            f"Two panels, one above the other, against the offset from 0 to {max_offset}, log "
            f"scale, d = {chapter.DECAY_WIDTH}. The summation-by-parts bound for q = κ = 1 goes "
            f"from {bound1[0]:.4g} at offset 0 to {bound1[-1]:.4g} at offset {max_offset}, "
            f"oscillating (for random q and κ: {bound2[0]:.4g} to {bound2[-1]:.4g}). The score "
            f"magnitude stays {'below it at every offset' if below else 'NOT always below it'}. "
            f"For q = κ = 1 the score falls from {abs(scores1[0]):.4g}, its means over the "
            f"offsets 0 to 9, 10 to 99 and 100 to 999 are {_listed(means['s (q=κ=1)'])}, and "
            f"it climbs back up after lower values{rising}; for random q and κ it goes from "
            f"{abs(scores2[0]):.3g} to {abs(scores2[-1]):.3g}."
        ),
        caption=(
            "RoFormer's long-term decay is a falling trend of a bound (orange), which itself "
            "oscillates. The scores (blue) stay below it and do not fall at every step."
        ),
        size=(4.0, 5.8),
    )
