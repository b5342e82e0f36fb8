"""The page "What the identity implies": its figures, tables, sentences and exercises.

Each function computes its numbers with :mod:`pe.chapters.implications` and
:mod:`pe.position_scores` when called
and returns :class:`~pe.site.html.Html`; figures go through :func:`pe.site.figures.render`.
A function that states a fact the prose relies on raises if the fact does not hold.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from pe import geometry, numeric
from pe import position_scores as measured
from pe.chapters import implications as facts
from pe.site import report
from pe.site.figures import Palette, Slider, colorbar, interactive, render
from pe.site.html import Html, table

__all__ = [
    "VALUES",
    "decay_sentence",
    "dot_product_by_offset",
    "dot_product_explorer",
    "exercise_dot_product",
    "exercise_first_rise",
    "exercise_norm",
    "nearest_rows_table",
    "pair_distances_sentence",
    "score_matrices",
    "spread_table",
]

#: The score matrices of :func:`spread_table`: label, projection, content scale.
SPREAD_SETTINGS = (
    ("raw PE · PE", measured.IDENTITY, 0.0),
    ("scaled rotations, no content", measured.ROTATION, 0.0),
    ("raw PE, content added", measured.IDENTITY, 1.0),
    ("random W_q, W_k, no content", measured.RANDOM, 0.0),
    ("random W_q, W_k, content added", measured.RANDOM, 1.0),
)

#: The offsets the dot-product explorer draws, ``k = 0 .. EXPLORER_OFFSETS``.
EXPLORER_OFFSETS = facts.NEAR_RANGE

#: The values the page's prose names (``{{ name }}``, :mod:`pe.site.prose`).
VALUES: dict[str, Callable[[], object]] = {"explorer_offsets": lambda: EXPLORER_OFFSETS}


def _decay() -> tuple[int, int, float, npt.NDArray[np.float64]]:
    """First rise, minimum and its value, and ``f(0 .. rise + 1)``, for d = 512."""
    rise, low, low_value = measured.decay_facts(facts.DECAY_WIDTH, facts.DECAY_RANGE)
    return rise, low, low_value, geometry.dot_by_offset(facts.DECAY_WIDTH, np.arange(rise + 2))


def _first_negative() -> int:
    """The first offset ``k`` with ``f(k) < 0``, for d = 512."""
    f = geometry.dot_by_offset(facts.DECAY_WIDTH, np.arange(facts.DECAY_RANGE + 1))
    return int(np.flatnonzero(f < 0)[0])


def decay_sentence() -> Html:
    """Where ``f(k) = PE(p) · PE(p+k)`` first rises, and its minimum, for d = 512.

    Examples
    --------
    >>> "rises for the first time" in decay_sentence()
    True
    """
    rise, low, low_value, f = _decay()
    return Html(
        f"<p>For \\(d = {facts.DECAY_WIDTH}\\), \\(f\\) decreases from \\(f(0) = {f[0]:.0f}\\) "
        f"down to \\(f({rise}) = {f[rise]:.4f}\\), then rises for the first time: "
        f"\\(f({rise + 1}) = {f[rise + 1]:.4f}\\). Over \\(0 \\le k \\le {facts.DECAY_RANGE}\\) "
        f"its minimum is \\(f({low}) = {low_value:.2f}\\), a negative value: rows {low} "
        "positions apart point, on balance, away from each other. The first negative value "
        f"is at \\(k = {_first_negative()}\\).</p>"
    )


def dot_product_explorer(offsets: int = EXPLORER_OFFSETS) -> Html:
    """PE(p) . PE(p + k) against k, live, with sliders for d, the base and k. Static
    fallback: :func:`dot_product_by_offset` at d = 512."""
    return interactive(
        "dot",
        dot_product_by_offset(512, offsets),
        [
            Slider("d", "width d", 8, 512, 8, 128),
            Slider("base", "base", 2, 6, 0.5, 4, log10=True),
            Slider("k", "offset k", 0, offsets, 1, 10),
        ],
        label=f"The dot product of PE(p) and PE(p + k) against k from 0 to {offsets}, "
        "with the value at the chosen k marked.",
        offsets=offsets,
    )


def dot_product_by_offset(d_model: int = 512, k_max: int = 20_000) -> Html:
    """``f(k) = sum_i cos(w_i k)`` against ``k``, with the first rise and the minimum marked."""
    ks = np.arange(k_max + 1)
    f = geometry.dot_by_offset(d_model, ks)
    rise = measured.first_rise(f)
    low = int(np.argmin(f))
    sign = "dips below zero" if f[low] < 0 else "stays above zero"

    def draw(fig: Figure, palette: Palette) -> None:
        left, right = fig.subplots(2, 1)
        near = ks <= facts.NEAR_RANGE
        left.plot(ks[near], f[near], color=palette.lines[0], lw=1.2)
        if rise is not None:
            left.plot(
                [rise], [f[rise]], "o", color=palette.lines[1], label=f"first rise after k = {rise}"
            )
        left.set_xlabel("offset k")
        left.set_ylabel("PE(p) · PE(p+k)")
        left.legend()
        left.grid(True, lw=0.4)
        right.plot(ks, f, color=palette.lines[0], lw=0.6)
        right.plot([low], [f[low]], "o", color=palette.lines[1], label=f"minimum at k = {low}")
        right.axhline(0, color=palette.grid, lw=0.8)
        right.set_xlabel("offset k")
        right.set_ylabel("PE(p) · PE(p+k)")
        right.legend()
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Two line plots of the dot product between rows k apart, d = {d_model}. Top, "
            f"k from 0 to {facts.NEAR_RANGE}: it falls from {f[0]:.0f} with small wiggles; the first "
            f"increase is marked after k = {rise}. Bottom, k up to {k_max}: it keeps "
            f"oscillating, {sign}, with its lowest value {f[low]:.1f} at k = {low}."
        ),
        caption=(
            f"f(k) = Σ cos(ω_i k), d = {d_model}: large for nearby positions, but it does not "
            "decrease steadily with the distance."
        ),
        size=(4.0, 5.6),
    )


def nearest_rows_table() -> Html:
    """The closest two rows among ``n`` positions, for the settings of the claim.

    Raises
    ------
    AssertionError
        If the closest rows are not neighbours or coincide (the prose says they never do).
    """
    nearest = [(n, d, *geometry.nearest_rows(n, d)) for n, d in facts.ROW_SETTINGS]
    if not all(k == 1 and dist > 0 for _, _, k, dist in nearest):
        raise AssertionError(f"the closest rows are not distinct neighbours: {nearest}")
    return table(
        ["positions n", "d", "offset of the closest two rows", "their distance"],
        [[n, d, k, f"{dist:.4f}"] for n, d, k, dist in nearest],
    )


def pair_distances_sentence(d_model: int = 512, n: int = 10_000) -> Html:
    """How close the fastest and the slowest pair come to a former value among ``n`` positions.

    Raises
    ------
    AssertionError
        If either pair returns exactly to a former value.
    """
    omega = numeric.frequencies(d_model)
    closest, apart = geometry.pair_min_distance(omega[[0, -1]], n)
    if not np.all(closest > 0):
        raise AssertionError(f"a pair returns to a former value: {closest}")
    return Html(
        f"<p>Among positions 0 to {n - 1}, pair 0's closest two positions are {apart[0]} apart "
        f"(\\({apart[0]} \\approx {apart[0] / (2 * np.pi):.2f} \\cdot 2\\pi\\)), at distance "
        f"{closest[0]:.2g}; pair {omega.size - 1}'s closest are {apart[1]} apart, at distance "
        f"{closest[1]:.2g}. Both are small and both are non-zero.</p>"
    )


def spread_table(n: int = 300, d_model: int = 64) -> Html:
    """Largest spread along a diagonal ``q - p = k`` against the scores' std, per setting."""
    rows = []
    for label, projection, content in SPREAD_SETTINGS:
        spread, scale = measured.offset_spread(
            measured.scores(n, d_model, projection=projection, content=content)
        )
        rows.append([label, f"{spread:.3g}", f"{scale:.3g}"])
    return table(["score", "largest spread along a diagonal", "std of all scores"], rows)


def score_matrices(n: int = 120, d_model: int = 64) -> Html:
    """Score matrices: raw ``PE PE^T`` (constant along diagonals) and with projections."""
    raw = measured.scores(n, d_model, projection=measured.IDENTITY)
    projected = measured.scores(n, d_model, projection=measured.RANDOM, content=1.0)

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(2, 1)
        titles = ("PE(p) · PE(q)", "(x + PE(p))ᵀ W_qᵀ W_k (x + PE(q))")
        for ax, data, title in zip(axes, (raw, projected), titles, strict=True):
            image = ax.imshow(data, cmap="RdBu_r", interpolation="nearest")
            ax.set_title(title)
            ax.set_xlabel("key position q")
            ax.set_ylabel("query position p")
            colorbar(fig, image, palette, "score", ax=ax, shrink=0.8)
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Two heat maps of scores between positions 0 to {n - 1}, d = {d_model}. Top, "
            "the raw dot products: every diagonal has one constant colour, so the score "
            "depends only on q − p. Bottom, with random projections and a content vector: the "
            "colours change along the diagonals, so the score depends on p and q separately."
        ),
        caption=(
            "Raw encodings give a score that is a function of q − p (constant diagonals); "
            "projections and content break that."
        ),
        size=(4.0, 6.8),
    )


def exercise_dot_product() -> Html:
    """Exercise: the dot product of neighbouring rows, d = 512."""
    f1 = geometry.dot_by_offset(512, [1])[0]
    return report.exercise(
        "For \\(d = 512\\), what is \\(PE(p) \\cdot PE(p+1)\\), and for which positions \\(p\\)?",
        f"\\(\\sum_i \\cos \\omega_i = {f1:.4f}\\) for every position \\(p\\): the dot product "
        "depends only on the offset.",
        claim_id="dot-product-offset-only",
    )


def exercise_first_rise() -> Html:
    """Exercise: the first offset where the dot product rises, d = 512."""
    rise, _, _, f = _decay()
    return report.exercise(
        "For \\(d = 512\\), at which offset does \\(PE(p) \\cdot PE(p+k)\\) first increase?",
        f"From \\(k = {rise}\\) to \\(k = {rise + 1}\\): "
        f"\\(f({rise}) = {f[rise]:.4f} < f({rise + 1}) = {f[rise + 1]:.4f}\\).",
        claim_id="dot-product-not-monotone",
    )


def exercise_norm() -> Html:
    """Exercise: the length of a far row, d = 512."""
    far = np.linalg.norm(numeric.sinusoidal(np.array([10**6]), 512)[0])
    return report.exercise(
        "What is the length of \\(PE(10^6)\\) for \\(d = 512\\)?",
        f"\\(\\sqrt{{512/2}} = 16\\); computed: {far:.12f}.",
        claim_id="norm-constant",
    )
