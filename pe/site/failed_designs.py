"""The page "Designs that fail": its figures, table, note and exercises.

Each function computes its data from :mod:`pe` and returns :class:`~pe.site.html.Html`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe import _rotation_table, claims, geometry, numeric, position_designs
from pe.chapters import failed_designs as experiments
from pe.site import report
from pe.site.figures import Palette, label_axes, render
from pe.site.html import Html, table
from pe.site.precision import latex_number

__all__ = [
    "VALUES",
    "exercises",
    "normalised_index_gaps",
    "position_share",
    "raw_index_table",
    "single_pair_note",
]


def _distinct_width() -> int:
    """The width the claim ``encoding-rows-distinct`` checks (its true candidate)."""
    width: int = claims.get("encoding-rows-distinct").checks[0].true
    return width


#: The values the page's prose names (``{{ name }}``, :mod:`pe.site.prose`).
VALUES: dict[str, Callable[[], object]] = {
    "distinct_d": _distinct_width,
    "distinct_pairs": lambda: _distinct_width() // 2,
    "distinct_span": lambda: experiments.UNIQUE_SPAN,
    "entry_bound": lambda: latex_number(_rotation_table.ENTRY_ERROR_BOUND, 2),
    "bits_sizes": lambda: len(experiments.BITS_SIZES),
    "bits_largest": lambda: max(experiments.BITS_SIZES),
}


def raw_index_table(positions: tuple[int, ...] = (10, 100, 1_000, 10_000)) -> Html:
    """The raw index against the size of an embedding entry, and its share of the norm.

    Examples
    --------
    >>> "share of |[e; p]|²" in raw_index_table((10,))
    True
    """
    probe = np.array(positions)
    ratio = position_designs.raw_index_ratio(probe, 512)
    share = position_designs.position_share(position_designs.raw_index, probe, 512)
    return table(
        [
            "position p",
            "p / rms of an embedding entry",
            "share of |[e; p]|² held by p (d = 512)",
        ],
        ([p, f"{r:.4g}", f"{s:.4f}"] for p, r, s in zip(probe.tolist(), ratio, share, strict=True)),
    )


def position_share(d_model: int = 512) -> Html:
    """Share of the squared norm held by the position: raw index against the sinusoidal encoding."""
    positions = np.unique(np.logspace(0, 4, 60).astype(np.int64))
    raw = position_designs.position_share(position_designs.raw_index, positions, d_model)
    sinusoidal = position_designs.position_share(position_designs.sinusoidal, positions, d_model)

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        ax.semilogx(positions, raw, "-", color=palette.lines[0], label="raw index: [e; p]")
        ax.semilogx(
            positions, sinusoidal, "--", color=palette.lines[1], label="sinusoidal: e + PE(p)"
        )
        ax.set_ylim(0, 1.02)
        label_axes(ax, "position p", "share of the squared norm", grid=0.4, loc="center right")

    return render(
        draw,
        alt=(
            "Log-x plot of the share of a vector's squared norm that the position holds, "
            "against position 1 to 10000, for random embeddings of width 512: for the raw "
            "index it rises from near 0 to above 0.99 by position 1000; for the sinusoidal "
            "encoding it stays flat at about one third."
        ),
        caption=(
            f"d = {d_model}, 1000 random embeddings with N(0, 1) entries (norm about "
            f"{np.sqrt(d_model):.1f}); mean share p²/(p² + |e|²) and |PE|²/(|PE|² + |e|²)."
        ),
    )


def normalised_index_gaps() -> Html:
    """The normalised index p/n for sentences of 4 and 40 tokens on one axis."""
    short, long = position_designs.normalised_index(4), position_designs.normalised_index(40)

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        ax.plot(long, np.full(long.size, 0.0), "|", ms=14, color=palette.lines[1])
        ax.plot(short, np.full(short.size, 1.0), "o", ms=7, color=palette.lines[0])
        ax.annotate(
            f"gap {short[1] - short[0]:.2f}",
            xy=(0.125, 1.0),
            xytext=(0.125, 1.35),
            ha="center",
            color=palette.ink,
        )
        ax.annotate(
            f"gap {long[1] - long[0]:.3f}",
            xy=(0.0125, 0.0),
            xytext=(0.07, -0.45),
            ha="left",
            color=palette.ink,
            arrowprops={"arrowstyle": "->", "color": palette.ink, "lw": 0.8},
        )
        ax.set_yticks([0.0, 1.0], ["40 tokens", "4 tokens"])
        ax.set_ylim(-0.8, 1.7)
        ax.set_xlim(-0.03, 1.0)
        ax.set_xlabel("normalised index p / n")
        ax.set_ylabel("sentence")
        ax.grid(True, axis="x", lw=0.4)

    return render(
        draw,
        alt=(
            "Two rows of marks on the interval 0 to 1: a 4-token sentence has marks at 0, "
            "0.25, 0.5 and 0.75 (gap 0.25); a 40-token sentence has marks every 0.025. The "
            "same next-door step is a tenth as long in the longer sentence."
        ),
        caption="p / n for the positions of a 4-token and a 40-token sentence.",
        size=(3.6, 2.6),
    )


def single_pair_note(span: int = experiments.UNIQUE_SPAN) -> Html:
    """Where pair 0 alone comes closest to repeating within ``span`` positions, in a sentence.

    Examples
    --------
    >>> "offset 710" in single_pair_note(1000)
    True
    """
    offsets = np.arange(1, span + 1)
    single = geometry.row_distance_by_offset(offsets, 2)
    k_near = int(offsets[np.argmin(single)])
    return Html(
        f"<p>Within {span} positions, pair 0 comes closest to repeating at offset {k_near}: "
        f"{k_near} radians are {k_near / (2 * np.pi):.7f} turns, and the pair at position "
        f"\\(p + {k_near}\\) is only {single.min():.2g} away from the pair at \\(p\\). The "
        "other pairs turn at other rates and keep the full vectors apart: with \\(d = 512\\) "
        f"no two rows of the first {span} positions come closer than neighbours do "
        f"{report.mark('encoding-rows-distinct')}.</p>"
    )


def exercises() -> Html:
    """The chapter's three exercises, answers computed now.

    Examples
    --------
    >>> exercises().count('class="pe-exercise"')
    3
    """
    far = position_designs.position_share(position_designs.raw_index, [1_000], 512)[0]
    one_step = geometry.row_distance_by_offset([1], 512)[0]
    encoded = numeric.sinusoidal(1001, 512)
    measured = float(np.linalg.norm(encoded[1000] - encoded[999]))
    return Html(
        report.exercise(
            "Under \\(p/n\\), what is the gap between neighbours in a sentence of 4 tokens, "
            "and in one of 40?",
            f"\\(1/n\\): {position_designs.normalised_index(4)[1]:.2f} and "
            f"{position_designs.normalised_index(40)[1]:.3f}, computed from the index itself.",
            claim_id="normalised-index-gap",
        )
        + report.exercise(
            "With \\(d = 512\\) and embedding entries of size about 1, what share of the "
            "squared norm of \\([e;\\,p]\\) does the raw index hold at position 1000?",
            f"About {far:.4f}: \\(p^2/(p^2 + \\lVert e\\rVert^2)\\) with \\(\\lVert e\\rVert^2 "
            "\\approx 512\\). It tends to 1 as \\(p\\) grows.",
            claim_id="raw-index-dominates",
        )
        + report.exercise(
            "How far apart are the encodings (d = 512) of positions 0 and 1, and of positions "
            "999 and 1000?",
            f"The same distance, \\(\\sqrt{{\\sum_i (2 - 2\\cos\\omega_i)}} = {one_step:.6f}\\) "
            f"(measured between 999 and 1000: {measured:.6f}): it depends on the offset only.",
            claim_id="offset-distance-position-free",
        )
    )
