"""Figures and page helpers of "The relative-position family" (docs/relative-family.py).

Figures are drawn from :mod:`pe.chapters.relative_family` and :mod:`pe.relative` and return the HTML of
:func:`pe.site.figures.render` (both palettes, alt text); the other helpers return the lines
of computed numbers the page shows.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.figure import Figure

from pe import numeric, relative, rotary
from pe import relative as experiments
from pe import relative as extension
from pe.chapters import relative_family as chapter
from pe.site.figures import Palette, label_axes, render
from pe.site.html import Html, code, escape

__all__ = [
    "VALUES",
    "alibi_slopes",
    "causal_outputs",
    "learned_lookup",
    "ntk_factors",
    "ntk_unseen",
    "repeated_token_scores",
    "shaw_offsets",
    "t5_buckets",
]


def learned_lookup(rows: int = 512) -> Html:
    """What looking up the positions ``rows - 1`` and ``rows`` in a learned table gives."""
    try:
        relative.learned_lookup(np.zeros((rows, 8)), [rows - 1, rows])
        message = "no error"
    except ValueError as error:
        message = str(error)
    return Html(
        f"<p>Looking up positions {rows - 1} and {rows} in a {rows}-row table: {code(message)}</p>"
    )


#: Values the page's prose quotes, by placeholder name (``{{ name }}``), each computed by pe.
VALUES: dict[str, Callable[[], object]] = {
    "t5_last_encoder": lambda: chapter.last_bucket_starts()[0],
    "t5_last_decoder": lambda: chapter.last_bucket_starts()[2],
}


def shaw_offsets(n: int = 7, clip: int = 2) -> Html:
    """Shaw et al.'s clipped offsets as a printed matrix."""
    text = (
        f"pe.relative.shaw_offsets({n}, clip={clip}), query m down, key n "
        f"across:\n{np.array2string(relative.shaw_offsets(n, clip))}"
    )
    return Html(f"<pre>{escape(text)}</pre>")


def alibi_slopes(n_heads: int = 8) -> Html:
    """The line ``pe.relative.alibi_slopes(H) = [...]`` (slopes to 4 significant digits)."""
    slopes = [float(f"{m:.4g}") for m in relative.alibi_slopes(n_heads)]
    name = f"pe.relative.alibi_slopes({n_heads})"
    return Html(f"<p>{code(name)} = {code(slopes)}</p>")


def causal_outputs(n: int = 6) -> Html:
    """Equal-score attention over values ``[1, 0, ..., 0]``, with and without the causal mask."""
    values = np.zeros(n)
    values[0] = 1.0
    masked = np.round(relative.causal_mean_attention(values), 4).tolist()
    unmasked = np.round(relative.causal_mean_attention(values, causal=False), 4).tolist()
    return Html(
        f"<p>Values {[int(v) for v in values]}, equal scores: with the causal mask the outputs "
        f"are {code(masked)}; without it, {code(unmasked)}.</p>"
    )


def ntk_factors(d_model: int = 128, scale: float = 4.0, trained: int = 2048) -> Html:
    """How NTK scaling and position interpolation divide the frequencies, as a sentence."""
    d, s = d_model, scale
    ratio = numeric.frequencies(d) / numeric.frequencies(d, relative.ntk_base(10000.0, s, d))
    last = int(s) * trained - 1
    angle = rotary.rope_angles(np.array([last]), d, scale=s)[0, 0]
    return Html(
        f"<p>$d = {d}$, $s = {s:g}$: NTK scaling divides the frequencies by factors from "
        f"{ratio[0]:.4g} (pair 0) through {ratio[d // 4]:.4g} (pair {d // 4}) to {ratio[-1]:.4g} "
        f"(pair {d // 2 - 1}); position interpolation divides all of them by {s:g}. With "
        f"interpolation, position {last} turns pair 0 by {angle:.2f} rad: past the "
        f"{trained - 1} rad of the last trained position, {trained - 1}, by "
        f"{100 * (angle / (trained - 1) - 1):.3f} %, less than the 1 rad of one trained "
        f"step.</p>"
    )


def ntk_unseen() -> Html:
    """Which pairs NTK scaling takes past their trained angles, and by how much, as a sentence."""
    d, trained, s = extension.EXTENSION
    reach = extension.extension_reach(relative.base_scaling, d, trained, s)
    unseen = reach.unseen
    turning = int(np.flatnonzero(reach.turns).max())
    first, last = int(unseen[0]), int(unseen[-1])
    return Html(
        f"<p>$d = {d}$, $L = {trained}$, $s = {s:g}$: pairs 0 to {turning} complete at least "
        "one turn in training, so their trained angles go all the way round the circle. Of "
        f"the slower pairs, "
        f"{first} to {last} reach past $(L-1)\\,\\omega_i$ on the {int(s * trained)} "
        f"positions, by {100 * reach.excess[first]:.1f} % (pair {first}) down to "
        f"{100 * reach.excess[last]:.3f} % (pair {last}, divided by exactly $s$, as with "
        f"interpolation).</p>"
    )


def repeated_token_scores(
    schemes: tuple[str, ...] = ("learned absolute", "sinusoidal (added)", "rope", "t5"),
) -> Html:
    """Score matrices of one token repeated, one panel per scheme."""

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(2, (len(schemes) + 1) // 2).ravel()
        for ax, scheme in zip(axes, schemes, strict=True):
            scores = experiments.identical_token_scores(scheme)
            ax.imshow(scores, cmap="RdBu_r", interpolation="nearest")
            dev = experiments.toeplitz_deviation(scores)
            ax.set_title(f"{scheme}\ndiagonal spread {dev:.2g}", color=palette.ink)
            ax.set_xticks([])
            ax.set_yticks([])
        for ax in axes[:: axes.size // 2]:
            ax.set_ylabel("query position m")
        for ax in axes[axes.size // 2 :]:
            ax.set_xlabel("key position n")
        fig.tight_layout()

    return render(
        draw,
        alt=(
            "Four 12 by 12 heat maps of attention scores for one token repeated at every "
            "position. The learned absolute and added sinusoidal encodings give irregular "
            "patterns. RoPE and T5 give matrices constant along every diagonal: the score "
            "depends only on the offset n minus m."
        ),
        caption=(
            "Same token at every position, random weights: relative schemes produce scores "
            "that are constant along diagonals (they depend only on n - m)."
        ),
        size=(4.0, 4.8),
    )


def t5_buckets() -> Html:
    """T5's bucket against the relative position, bidirectional and causal, at T5's
    settings (32 buckets, max_distance 128), where the last buckets' starts are checked."""
    num_buckets, max_distance = 32, 128
    rel = np.arange(-2 * max_distance, 2 * max_distance + 1)

    def draw(fig: Figure, palette: Palette) -> None:
        ax = fig.add_subplot()
        for colour, bidirectional in zip(palette.lines, (True, False), strict=False):
            buckets = relative.t5_bucket(
                rel,
                bidirectional=bidirectional,
                num_buckets=num_buckets,
                max_distance=max_distance,
            )
            label = "bidirectional (encoder)" if bidirectional else "causal (decoder)"
            ax.step(rel, buckets, where="mid", color=colour, lw=1.3, label=label)
        for x in (-max_distance, max_distance):
            ax.axvline(x, color=palette.grid, lw=0.8, ls="--")
        label_axes(ax, "offset n − m", "bucket")

    after, before, decoder = chapter.last_bucket_starts()  # checked against transformers
    return render(
        draw,
        alt=(
            f"Step plot of T5's bucket against the relative position from {-2 * max_distance} "
            f"to {2 * max_distance}. Near zero every offset has its own bucket; further out the "
            f"steps widen logarithmically until the last bucket, reached at distance "
            f"{after} after the query and {before} before it (bidirectional) and {decoder} "
            f"before the query (causal); the dashed lines mark plus or minus max_distance {max_distance}, "
            "where the logarithmic formula would step past the last bucket (it is capped "
            "there). Bidirectional "
            "bucketing gives keys after the query the upper half of the buckets; causal "
            "bucketing sends them all to bucket 0."
        ),
        caption=(
            f"T5's bucketing with {num_buckets} buckets and max_distance {max_distance}, computed "
            "by pe.relative.t5_bucket."
        ),
    )
