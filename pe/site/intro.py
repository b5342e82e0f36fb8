"""Figures of the chapters "Why order must be injected", "Designs that fail" and "The sinusoidal encoding".

Each function computes its data from :mod:`pe` and returns the HTML of
:func:`pe.site.figures.render` (both palettes, alt text, labelled axes).
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe import numeric
from pe.experiments import why_order as attention
from pe.experiments import sinusoidal_encoding as encoding_facts
from pe.experiments import failed_designs as naive_encodings
from pe.site.figures import Palette, render
from pe.site.report import Html

__all__ = [
    "binary_vs_sinusoid",
    "column_lines",
    "cosine_histograms",
    "normalised_index_gaps",
    "position_share",
    "sentence_outputs",
    "wavelength_ladder",
]


def sentence_outputs(d_model: int = 64, components: int = 24) -> Html:
    """The output for "dog" in both sentences: attention without and with the encoding, and an RNN."""
    plain = attention.sentence_pair(d_model)
    placed = attention.sentence_pair(d_model, positions=True)
    vocabulary = attention.toy_vocabulary(d_model)
    rnn = attention.toy_rnn(d_model)
    states = [
        attention.rnn_states(attention.sentence_matrix(s, vocabulary), rnn)[-1]
        for s in (attention.SENTENCE, attention.SWAPPED)
    ]
    dog1, dog2 = attention.SENTENCE.index("dog"), attention.SWAPPED.index("dog")
    panels = (
        ("attention, no positions", plain.first[dog1], plain.second[dog2], "output for 'dog'"),
        ("attention + sinusoidal PE", placed.first[dog1], placed.second[dog2], "output for 'dog'"),
        ("RNN, final state h_3", states[0], states[1], "final state"),
    )

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(3, 1, sharex=True)
        for ax, (title, first, second, ylabel) in zip(axes, panels, strict=True):
            index = np.arange(min(components, first.size))
            ax.plot(index, first[index], "o", ms=6, color=palette.lines[0], label="dog bites man")
            ax.plot(index, second[index], "x", ms=6, color=palette.lines[1], label="man bites dog")
            ax.set_title(title, fontsize=10)
            ax.set_ylabel(ylabel)
            ax.grid(True, lw=0.4)
        axes[-1].set_xlabel("component")
        axes[0].legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        fig.tight_layout()

    return render(
        draw,
        alt=(
            "Three stacked panels comparing 'dog bites man' (circles) with 'man bites dog' "
            "(crosses). Top: without positions the attention output for 'dog' is the same in both "
            "sentences, the crosses sit inside the circles. Middle: with the sinusoidal "
            "encoding added the two outputs for 'dog' differ. Bottom: an RNN's final states "
            "differ between the two orders."
        ),
        caption=(
            f"Toy head with d = {d_model} (seeded embeddings and weights); first {components} "
            f"components. Largest difference between the two outputs for 'dog': "
            f"{np.abs(plain.first[dog1] - plain.second[dog2]).max():.1g} without positions, "
            f"{np.abs(placed.first[dog1] - placed.second[dog2]).max():.2f} with the encoding."
        ),
        size=(7.5, 6.6),
    )


def position_share(d_model: int = 512) -> Html:
    """Share of the squared norm held by the position: raw index against the sinusoidal encoding."""
    positions = np.unique(np.logspace(0, 4, 60).astype(np.int64))
    raw = naive_encodings.position_share(positions, d_model, design="raw")
    sinusoidal = naive_encodings.position_share(positions, d_model, design="sinusoidal")

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        ax.semilogx(positions, raw, "-", color=palette.lines[0], label="raw index: [e; p]")
        ax.semilogx(
            positions, sinusoidal, "--", color=palette.lines[1], label="sinusoidal: e + PE(p)"
        )
        ax.set_xlabel("position p")
        ax.set_ylabel("share of the squared norm")
        ax.set_ylim(0, 1.02)
        ax.grid(True, lw=0.4)
        ax.legend(fontsize=8, loc="center right")

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
    short, long = naive_encodings.normalised_index(4), naive_encodings.normalised_index(40)

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        ax.plot(long, np.full(long.size, 0.0), "|", ms=14, color=palette.lines[1])
        ax.plot(short, np.full(short.size, 1.0), "o", ms=7, color=palette.lines[0])
        ax.annotate(
            f"gap {short[1] - short[0]:.2f}",
            xy=(0.125, 1.0),
            xytext=(0.125, 1.35),
            ha="center",
            fontsize=9,
            color=palette.ink,
        )
        ax.annotate(
            f"gap {long[1] - long[0]:.3f}",
            xy=(0.0125, 0.0),
            xytext=(0.07, -0.45),
            ha="left",
            fontsize=9,
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
        size=(7.0, 2.6),
    )


def column_lines(d_model: int = 512, n_positions: int = 200) -> Html:
    """Selected sine columns of the table against the position."""
    table = numeric.sinusoidal(n_positions, d_model)
    lam = encoding_facts.wavelengths(d_model)
    columns = (0, 64, 128, 256)

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(len(columns), 1, sharex=True)
        positions = np.arange(n_positions)
        for ax, colour, column in zip(axes, palette.lines, columns, strict=True):
            ax.plot(positions, table[:, column], "-", lw=1.3, color=colour)
            ax.plot(positions[::4], table[::4, column], "o", ms=2.5, color=colour)
            ax.set_ylim(-1.15, 1.15)
            ax.set_yticks([-1, 0, 1])
            ax.set_ylabel(f"PE(p, {column})")
            ax.set_title(
                f"column {column}: pair i = {column // 2}, wavelength {lam[column // 2]:.3g}",
                fontsize=9,
                loc="left",
            )
            ax.grid(True, lw=0.4)
        axes[-1].set_xlabel("position p")
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Four sine columns of the encoding with d = {d_model} over positions 0 to "
            f"{n_positions - 1}: column 0 oscillates with wavelength about 6.3, column 64 with "
            "about 20, column 128 with about 63, and column 256 rises slowly, its wavelength "
            "about 628 being longer than the plot."
        ),
        caption="Sine columns 2i for i = 0, 32, 64, 128 (lines; dots every 4 positions).",
        size=(7.0, 6.4),
    )


def wavelength_ladder(d_model: int = 512) -> Html:
    """Wavelengths of the paper's pairs and of note 001's 1-indexed convention, log scale."""
    lam = encoding_facts.wavelengths(d_model)
    _, shifted = encoding_facts.frequency_sets(d_model)

    def draw(fig: Figure, palette: Palette) -> None:
        full, zoom = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        index = np.arange(lam.size)
        full.semilogy(index, lam, "-", color=palette.lines[0], lw=1.6, label="paper")
        full.axhline(2 * np.pi * 10000, color=palette.lines[2], lw=1.0, ls=":", label="2π·10000")
        full.axhline(2 * np.pi, color=palette.lines[3], lw=1.0, ls=":", label="2π")
        full.set_xlabel("pair index i")
        full.set_ylabel("wavelength λ_i (positions)")
        full.set_title("all pairs", fontsize=9)
        full.grid(True, which="major", lw=0.4)
        full.legend(fontsize=8, loc="lower right")
        last = index[-6:]
        zoom.plot(last, lam[-6:], "o-", color=palette.lines[0], label="paper")
        zoom.plot(last, 2 * np.pi / shifted[-6:], "s--", color=palette.lines[1], label="note 001")
        zoom.axhline(2 * np.pi * 10000, color=palette.lines[2], lw=1.0, ls=":", label="2π·10000")
        zoom.set_xlabel("pair index i (last six)")
        zoom.set_ylabel("wavelength (positions)")
        zoom.set_title("the top end", fontsize=9)
        zoom.grid(True, lw=0.4)
        zoom.legend(fontsize=8, loc="lower right")
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Left: log-scale plot of the wavelength of each pair for d = {d_model}, a straight "
            "line from 2π at i = 0 to just under the dotted 2π·10000 line. Right: a zoom on "
            "the last six pairs: the paper's last wavelength stays below 2π·10000, while the "
            "1-indexed convention of note 001 runs one step higher and ends exactly on it."
        ),
        caption=(
            f"d = {d_model}: λ_0 = {lam[0]:.4f}, λ_{lam.size - 1} = {lam[-1]:.1f}, "
            f"2π·10000 = {2 * np.pi * 10000:.1f}."
        ),
    )


def binary_vs_sinusoid(n_positions: int = 17) -> Html:
    """Bits 0-2 of the position (steps) against sine columns of a d = 16 encoding (smooth)."""
    bits = encoding_facts.binary_bits(n_positions, 3)
    fine = np.linspace(0, n_positions - 1, 400)
    omega = numeric.frequencies(16)

    def draw(fig: Figure, palette: Palette) -> None:
        top, bottom = fig.subplots(2, 1, sharex=True)
        positions = np.arange(n_positions)
        for b in range(3):
            top.step(
                positions,
                bits[:, b] + 1.5 * b,
                where="post",
                color=palette.lines[b],
                label=f"bit {b} (period {2 ** (b + 1)})",
            )
        top.set_ylabel("bit (offset)")
        top.set_yticks([])
        top.set_ylim(-0.2, 5.2)
        top.legend(fontsize=8, loc="lower center", ncol=3, bbox_to_anchor=(0.5, 1.0))
        for i in range(3):
            bottom.plot(
                fine,
                np.sin(omega[i] * fine),
                "-",
                color=palette.lines[i],
                label=f"sin ω_{i} p (λ = {2 * np.pi / omega[i]:.3g})",
            )
            bottom.plot(positions, np.sin(omega[i] * positions), "o", ms=3, color=palette.lines[i])
        bottom.set_xlabel("position p")
        bottom.set_ylabel("PE(p, 2i), d = 16")
        bottom.legend(fontsize=8, loc="upper center", ncol=3, bbox_to_anchor=(0.5, -0.32))
        for ax in (top, bottom):
            ax.grid(True, lw=0.4)

    return render(
        draw,
        alt=(
            "Top: bits 0, 1 and 2 of the positions 0 to 16 as step functions that jump "
            "between 0 and 1 with periods 2, 4 and 8. Bottom: the first three sine columns of "
            "a 16-wide encoding, smooth waves with wavelengths 6.28, 19.9 and 62.8, sampled "
            "at the integer positions."
        ),
        caption="Bits flip abruptly with periods that double; sinusoids glide, and their "
        f"wavelengths grow by 10000^(2/d) per pair, here 10000^(1/8) = {10000 ** (1 / 8):.3f}.",
        size=(7.5, 5.2),
    )


def cosine_histograms(widths: tuple[int, ...] = (16, 64, 512)) -> Html:
    """Histograms of cos(e, PE(p)) for random embeddings at several widths."""
    data = {d: encoding_facts.cosine_embedding_encoding(d).ravel() for d in widths}

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        bins = [float(b) for b in np.linspace(-1, 1, 161)]
        for colour, (d, values) in zip(palette.lines, data.items(), strict=False):
            ax.hist(
                values,
                bins=bins,
                density=True,
                histtype="step",
                lw=1.4,
                color=colour,
                label=f"d = {d}: std {values.std():.3f} (1/√d = {1 / np.sqrt(d):.3f})",
            )
        ax.set_xlabel("cosine between a token embedding and PE(p)")
        ax.set_ylabel("density")
        ax.grid(True, lw=0.4)
        ax.legend(fontsize=8, loc="upper left")

    return render(
        draw,
        alt=(
            "Histograms of the cosine between random token embeddings and encoding rows for "
            "widths 16, 64 and 512: all centred on 0, and narrower as the width grows, with "
            "standard deviation close to one over the square root of the width."
        ),
        caption="1000 random embeddings (N(0, 1) entries) against positions 0 to 199.",
    )
