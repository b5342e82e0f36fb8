"""Figures of the page "The relative-position family", drawn from :mod:`pe.experiments.relative_family`.

Each function returns the HTML of :func:`pe.site.figures.render` (both palettes, alt text).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from pe.experiments import relative_family as relative
from pe.site.figures import Palette, render
from pe.site.report import Html

__all__ = ["repeated_token_scores", "t5_buckets"]


def repeated_token_scores(
    schemes: tuple[str, ...] = ("learned absolute", "sinusoidal (added)", "rope", "t5"),
) -> Html:
    """Score matrices of one token repeated, one panel per scheme."""

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(1, len(schemes))
        for ax, scheme in zip(axes, schemes, strict=True):
            scores = relative.identical_token_scores(scheme)
            ax.imshow(scores, cmap="RdBu_r", interpolation="nearest")
            dev = relative.toeplitz_deviation(scores)
            ax.set_title(f"{scheme}\ndiagonal spread {dev:.1g}", fontsize=8, color=palette.ink)
            ax.set_xlabel("key j", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
        axes[0].set_ylabel("query i", fontsize=8)
        fig.tight_layout()

    return render(
        draw,
        alt=(
            "Four 12 by 12 heat maps of attention scores for one token repeated at every "
            "position. The learned absolute and added sinusoidal encodings give irregular "
            "patterns. RoPE and T5 give matrices constant along every diagonal: the score "
            "depends only on i minus j."
        ),
        caption=(
            "Same token at every position, random weights: relative schemes produce scores "
            "that are constant along diagonals (they depend only on i - j)."
        ),
        size=(7.4, 2.4),
    )


def t5_buckets(num_buckets: int = 32, max_distance: int = 128) -> Html:
    """T5's bucket against the relative position, bidirectional and causal."""
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
        ax.set_xlabel("relative position r = j − i (key minus query)")
        ax.set_ylabel("bucket")
        ax.grid(True, lw=0.5)
        ax.legend(fontsize=8)

    return render(
        draw,
        alt=(
            f"Step plot of T5's bucket against the relative position from {-2 * max_distance} "
            f"to {2 * max_distance}. Near zero every offset has its own bucket; further out the "
            f"steps widen logarithmically; beyond plus or minus {max_distance} (dashed lines) the "
            "bucket stays constant. Bidirectional bucketing gives keys after the query the upper "
            "half of the buckets; causal bucketing sends them all to bucket 0."
        ),
        caption=(
            f"T5's bucketing with {num_buckets} buckets and max_distance {max_distance}, computed "
            "by pe.experiments.relative_family.t5_bucket."
        ),
    )
