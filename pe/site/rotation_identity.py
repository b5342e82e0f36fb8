"""Figures of the chapters "The rotation identity", "What the identity implies", "Fixed or learned".

Each function computes its data with :mod:`pe` and draws it through
:func:`pe.site.figures.render` (both palettes, alt text, labelled axes).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from pe import numeric
from pe.experiments import learned_table
from pe.experiments import residual_stack
from pe.experiments import implications as similarity
from pe.site.figures import Palette, render
from pe.site.report import Html

__all__ = [
    "dot_product_by_offset",
    "position_signal_by_depth",
    "score_matrices",
    "turning_pairs",
    "unseen_pairs_by_position",
]


def turning_pairs(d_model: int = 16, pairs: tuple[int, ...] = (0, 1, 2, 3), n: int = 13) -> Html:
    """Each pair ``(sin w_i p, cos w_i p)`` as a point on its circle, for ``p = 0 .. n-1``."""
    omega = numeric.frequencies(d_model)
    table = numeric.sinusoidal(n, d_model)

    def draw(fig: Figure, palette: Palette) -> None:
        rows = (len(pairs) + 1) // 2
        axes = fig.subplots(rows, 2, gridspec_kw={"wspace": 0.55, "hspace": 0.45}).ravel()
        theta = np.linspace(0, 2 * np.pi, 200)
        for ax, i in zip(axes, pairs, strict=True):
            ax.plot(np.sin(theta), np.cos(theta), color=palette.grid, lw=1)
            x, y = table[:, 2 * i], table[:, 2 * i + 1]
            ax.plot(x, y, "-", color=palette.lines[0], lw=0.8, alpha=0.6)
            points = ax.scatter(x, y, c=np.arange(n), cmap="viridis", s=18, zorder=3)
            ax.annotate("p=0", (x[0], y[0]), textcoords="offset points", xytext=(4, 4))
            ax.annotate(f"p={n - 1}", (x[-1], y[-1]), textcoords="offset points", xytext=(4, -10))
            ax.set_title(f"pair {i}: ω = {omega[i]:.3g}", fontsize=9)
            ax.set_xlabel(f"sin(ω p), column {2 * i}", fontsize=9)
            ax.set_ylabel(f"cos(ω p), column {2 * i + 1}", fontsize=9)
            ax.set_aspect("equal")
            ax.set_xlim(-1.35, 1.35)
            ax.set_ylim(-1.35, 1.35)
            ax.tick_params(labelsize=7)
        bar = fig.colorbar(points, ax=list(axes), shrink=0.6)
        bar.set_label("position p")
        bar.outline.set_edgecolor(palette.ink)

    return render(
        draw,
        alt=(
            f"{len(pairs)} unit circles, one per frequency pair of a d = {d_model} encoding. "
            f"On each, the points for positions 0 to {n - 1} start at the top (sin 0, cos 0) "
            "= (0, 1) and step clockwise by the pair's angle per position: pair 0 by 1 radian, "
            "so it laps the circle about twice, the slower pairs by less, the last one "
            "covering only a short arc."
        ),
        caption=(
            f"Pairs of PE(p) for p = 0 .. {n - 1}, d = {d_model} (colour: position). "
            "Moving k positions turns every pair by its own angle k ω_i, clockwise in "
            "(sin, cos) coordinates: that turn is the block of T_k."
        ),
        size=(6.4, 6.0),
    )


def dot_product_by_offset(d_model: int = 512, k_max: int = 20_000) -> Html:
    """``f(k) = sum_i cos(w_i k)`` against ``k``, with the first rise and the minimum marked."""
    ks = np.arange(k_max + 1)
    f = similarity.dot_by_offset(d_model, ks)
    rise = similarity.first_rise(f)
    low = int(np.argmin(f))

    def draw(fig: Figure, palette: Palette) -> None:
        left, right = fig.subplots(1, 2)
        near = ks <= 200
        left.plot(ks[near], f[near], color=palette.lines[0], lw=1.2)
        if rise is not None:
            left.plot(
                [rise], [f[rise]], "o", color=palette.lines[1], label=f"first rise after k = {rise}"
            )
        left.set_xlabel("offset k")
        left.set_ylabel("PE(p) · PE(p+k)")
        left.legend(fontsize=8)
        left.grid(True, lw=0.4)
        right.plot(ks, f, color=palette.lines[0], lw=0.6)
        right.plot([low], [f[low]], "o", color=palette.lines[1], label=f"minimum at k = {low}")
        right.axhline(0, color=palette.grid, lw=0.8)
        right.set_xlabel("offset k")
        right.set_ylabel("PE(p) · PE(p+k)")
        right.legend(fontsize=8)
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Two line plots of the dot product between rows k apart, d = {d_model}. Left, "
            f"k from 0 to 200: it falls from {f[0]:.0f} with small wiggles; the first "
            f"increase is marked after k = {rise}. Right, k up to {k_max}: it keeps "
            f"oscillating, dips below zero, with its lowest value {f[low]:.1f} at k = {low}."
        ),
        caption=(
            f"f(k) = Σ cos(ω_i k), d = {d_model}: large for nearby positions, but it does not "
            "decrease steadily with the distance."
        ),
        size=(8.5, 3.2),
    )


def score_matrices(n: int = 120, d_model: int = 64) -> Html:
    """Score matrices: raw ``PE PE^T`` (constant along diagonals) and with projections."""
    raw = similarity.scores(n, d_model, projection="identity")
    projected = similarity.scores(n, d_model, projection="random", content=1.0)

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(1, 2)
        titles = ("PE(p) · PE(q)", "(x + PE(p))ᵀ W_qᵀ W_k (x + PE(q))")
        for ax, data, title in zip(axes, (raw, projected), titles, strict=True):
            image = ax.imshow(data, cmap="RdBu_r", interpolation="nearest")
            ax.set_title(title, fontsize=9)
            ax.set_xlabel("key position q")
            ax.set_ylabel("query position p")
            bar = fig.colorbar(image, ax=ax, shrink=0.8)
            bar.set_label("score")
            bar.outline.set_edgecolor(palette.ink)
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Two heat maps of scores between positions 0 to {n - 1}, d = {d_model}. Left, "
            "the raw dot products: every diagonal has one constant colour, so the score "
            "depends only on q − p. Right, with random projections and a content vector: the "
            "colours change along the diagonals, so the score depends on p and q separately."
        ),
        caption=(
            "Raw encodings give a score that is a function of q − p (constant diagonals); "
            "projections and content break that."
        ),
        size=(8.5, 3.6),
    )


def unseen_pairs_by_position(d_model: int = 512, n_train: int = 512) -> Html:
    """How many pairs take values no training position came near, against the position."""
    positions = np.unique(np.concatenate([np.arange(0, 4 * n_train, 8), [n_train]]))
    counts = np.array(
        [learned_table.unseen_pairs(d_model, n_train, int(p)).sum() for p in positions]
    )

    def draw(fig: Figure, palette: Palette) -> None:
        ax = fig.add_subplot()
        ax.plot(positions, counts, color=palette.lines[0], lw=1.2)
        ax.axvline(n_train, color=palette.lines[1], lw=1, ls="--", label="training length")
        ax.set_xlabel("position p")
        ax.set_ylabel(f"pairs (of {d_model // 2}) with unseen values")
        ax.legend(fontsize=8)
        ax.grid(True, lw=0.4)

    beyond = counts[positions > n_train]
    return render(
        draw,
        alt=(
            f"Line plot of the number of frequency pairs, out of {d_model // 2}, whose value at "
            f"position p lies outside what positions 0 to {n_train - 1} produced. It is 0 up "
            f"to the training length {n_train}, then rises to {beyond.max()} and stays between "
            f"{beyond[beyond > 0].min()} and {beyond.max()} once it has risen."
        ),
        caption=(
            f"d = {d_model}, trained on positions 0 .. {n_train - 1}: beyond the training "
            "length, the slow pairs move into angles the model never saw."
        ),
    )


def position_signal_by_depth(d_model: int = 64, n: int = 128, depth: int = 12) -> Html:
    """Mean cosine between the top's change and PE, residual against plain stacks."""
    layers = np.arange(1, depth + 1)
    with_residual = [residual_stack.position_signal(d_model, n, int(k)) for k in layers]
    plain = [residual_stack.position_signal(d_model, n, int(k), residual=False) for k in layers]

    def draw(fig: Figure, palette: Palette) -> None:
        ax = fig.add_subplot()
        ax.plot(
            layers, with_residual, "o-", color=palette.lines[0], ms=4, label="residual: h + f(h)"
        )
        ax.plot(layers, plain, "s-", color=palette.lines[1], ms=4, label="plain: f(h)")
        ax.set_xlabel("number of sublayers L")
        ax.set_ylabel("mean cosine(h_L(x+PE) − h_L(x), PE)")
        ax.set_ylim(-0.1, 1.05)
        ax.legend(fontsize=8)
        ax.grid(True, lw=0.4)

    return render(
        draw,
        alt=(
            f"Line plot against the number of sublayers, 1 to {depth}: with residual "
            f"connections the cosine between the change at the top and PE starts at "
            f"{with_residual[0]:.2f} and declines slowly to {with_residual[-1]:.2f}; without, "
            f"it stays between {min(plain):.2f} and {max(plain):.2f}."
        ),
        caption=(
            f"d = {d_model}, {n} positions, random sublayers (gain 0.5). The residual path "
            "keeps PE in the sum; the sublayers' outputs add to it and slowly dilute it."
        ),
    )
