"""The page "The sinusoidal encoding": its figures, tables and exercises.

Each function computes its data from :mod:`pe` (the table from :mod:`pe.numeric`, the
measurements from :mod:`pe.chapters.sinusoidal_encoding`, exact values from
:mod:`pe.reference`) and returns :class:`~pe.site.html.Html`: figures through
:func:`pe.site.figures.render` (both palettes, alt text, labelled axes), tables through
:func:`pe.site.html.table`.

Examples
--------
>>> from pe.site import sinusoidal_encoding as page
>>> str(page.base_table())[:40]
'<p>Changing the base changes the slowest'
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import numpy as np
import sympy as sp
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe import binary, column_means, concatenation, embeddings, frequency_ladder, numeric, reference
from pe.chapters import sinusoidal_encoding as facts
from pe.site import report
from pe.site.figures import LEGEND_BELOW, Palette, Slider, colorbar, interactive, label_axes, render
from pe.site.html import Html, escape, math, table

__all__ = [
    "VALUES",
    "base_table",
    "binary_vs_sinusoid",
    "column_lines",
    "column_means_table",
    "cosine_histograms",
    "exercises",
    "projection_cost_table",
    "subspace_numbers",
    "table_explorer",
    "table_heatmap",
    "wavelength_ladder",
    "wavelength_numbers",
    "worked_example",
]

#: The width of the page's examples.
D = 512

#: The values the page's prose names (``{{ name }}``, :mod:`pe.site.prose`).
VALUES: dict[str, Callable[[], object]] = {"d": lambda: D}


def table_explorer(n_positions: int = 50) -> Html:
    """The table, live: point at a cell (or move the cursor with the arrow keys) to read
    PE(p, j) and its formula; sliders for d and the base. Static fallback:
    :func:`table_heatmap` at the same size."""
    return interactive(
        "table",
        table_heatmap(n_positions, 64),
        [Slider("d", "width d", 16, 128, 16, 64), Slider("base", "base", 2, 6, 0.5, 4, log10=True)],
        label=f"The encoding table, {n_positions} positions down and d columns across; "
        "the cell under the pointer is read out below.",
        positions=n_positions,
    )


def table_heatmap(n_positions: int = 100, d_model: int = D, *, base: float = 10000.0) -> Html:
    """Heat map of :func:`pe.numeric.sinusoidal`, its sine and its cosine columns side by side.

    The table interleaves them (column ``2i`` a sine, ``2i + 1`` a cosine); drawn as it is
    stored, neighbouring columns alternate and the picture looks like a barcode. Split by
    parity, each half shows the fan: pair ``i`` across, position down, fast pairs left.
    """
    table = numeric.sinusoidal(n_positions, d_model, base=base)
    halves = (("sines: col. 2i", table[:, 0::2]), ("cosines: 2i + 1", table[:, 1::2]))

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(1, 2, sharey=True, gridspec_kw={"wspace": 0.08})
        for ax, (title, half) in zip(axes, halves, strict=True):
            image = ax.imshow(
                half, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest"
            )
            ax.set_title(title)
            ax.set_xlabel("pair i")
        axes[0].set_ylabel("position p")
        colorbar(fig, image, palette, "PE(p, j)", ax=list(axes), shrink=0.9, pad=0.02)

    return render(
        draw,
        alt=(
            f"Two heat maps of the sinusoidal encoding, positions 0 to {n_positions - 1} down, "
            f"the {d_model // 2} pairs across: on the left the sine columns, on the right the "
            "cosine columns. Both fan out from the left, where the fast pairs stripe quickly "
            "down the positions, to the right, where the slow pairs barely change; the sines "
            "start at 0 in row 0 and the cosines at 1."
        ),
        caption=(
            f"The table PE(p, j) for d = {d_model}, computed by pe.numeric.sinusoidal, its "
            "sine columns (even j) and cosine columns (odd j) drawn apart."
        ),
        size=(4.3, 3.0),
    )


def column_lines(d_model: int = 512, n_positions: int = 200) -> Html:
    """Selected sine columns of the table against the position."""
    table = numeric.sinusoidal(n_positions, d_model)
    lam = frequency_ladder.wavelengths(d_model)
    columns = (0, 64, 256)

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(len(columns), 1, sharex=True)
        positions = np.arange(n_positions)
        for ax, colour, column in zip(axes, palette.lines[: len(columns)], columns, strict=True):
            ax.plot(positions, table[:, column], "-", lw=1.3, color=colour)
            ax.plot(positions[::4], table[::4, column], "o", ms=2.5, color=colour)
            ax.set_ylim(-1.15, 1.15)
            ax.set_yticks([-1, 0, 1])
            ax.set_ylabel(f"PE(p, {column})")
            ax.set_title(
                f"column {column}: pair i = {column // 2}, wavelength {lam[column // 2]:.3g}",
                loc="left",
            )
            ax.grid(True, lw=0.4)
        axes[-1].set_xlabel("position p")
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Three sine columns of the encoding with d = {d_model} over positions 0 to "
            f"{n_positions - 1}: "
            + ", ".join(
                f"column {c} (pair {c // 2}) with wavelength {lam[c // 2]:.3g}" for c in columns
            )
            + "; the fast column oscillates many times, the slowest barely completes "
            f"{n_positions / lam[columns[-1] // 2]:.2f} of a turn."
        ),
        caption=(
            "Sine columns 2i for i = "
            + ", ".join(str(c // 2) for c in columns)
            + " (lines; dots every 4 positions)."
        ),
        size=(4.2, 3.25),
    )


def wavelength_ladder(d_model: int = 512) -> Html:
    """Wavelengths of the paper's pairs and of the 1-indexed convention, log scale."""
    lam = frequency_ladder.wavelengths(d_model)
    shifted = frequency_ladder.one_indexed_frequencies(d_model)

    def draw(fig: Figure, palette: Palette) -> None:
        full, zoom = fig.subplots(2, 1)
        index = np.arange(lam.size)
        full.semilogy(index, lam, "-", color=palette.lines[0], lw=1.6, label="paper")
        full.axhline(2 * np.pi * 10000, color=palette.lines[2], lw=1.0, ls=":", label="2π·10000")
        full.axhline(2 * np.pi, color=palette.lines[3], lw=1.0, ls=":", label="2π")
        full.set_xlabel("pair index i")
        full.set_ylabel("wavelength λ_i (positions)")
        full.set_title("all pairs")
        full.grid(True, which="major", lw=0.4)
        full.legend(loc="lower right")
        last = index[-6:]
        zoom.plot(last, lam[-6:], "o-", color=palette.lines[0], label="paper")
        zoom.plot(last, 2 * np.pi / shifted[-6:], "s--", color=palette.lines[1], label="1-indexed")
        zoom.axhline(2 * np.pi * 10000, color=palette.lines[2], lw=1.0, ls=":", label="2π·10000")
        zoom.set_xlabel("columns 2j, 2j+1: slot j (last six)")
        zoom.set_ylabel("wavelength (positions)")
        zoom.set_title("the top end")
        zoom.grid(True, lw=0.4)
        zoom.legend(loc="lower right")
        fig.tight_layout()

    return render(
        draw,
        alt=(
            f"Top: log-scale plot of the wavelength of each pair for d = {d_model}, a straight "
            f"line from 2π at i = 0 to {lam[-1]:.0f}, "
            f"{100 * (1 - lam[-1] / (2 * np.pi * 10000)):.1f} % under the dotted 2π·10000 "
            "line. Bottom: a zoom on "
            "the last six pairs: the paper's last wavelength stays below 2π·10000, while the "
            "1-indexed convention runs one step higher and ends exactly on it."
        ),
        caption=(
            f"d = {d_model}: λ_0 = {lam[0]:.4f}, λ_{lam.size - 1} = {lam[-1]:.1f}, "
            f"2π·10000 = {2 * np.pi * 10000:.1f}."
        ),
        size=(4.0, 5.8),
    )


def binary_vs_sinusoid(n_positions: int = 17) -> Html:
    """Bits 0-2 of the position (steps) against sine columns of a d = 16 encoding (smooth)."""
    bits = binary.binary_bits(n_positions, 3)
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
        top.legend(loc="lower center", ncol=2, bbox_to_anchor=(0.5, 1.0), columnspacing=1.0)
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
        bottom.legend(loc="upper center", ncol=1, bbox_to_anchor=(0.5, -0.3))
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
        size=(4.2, 3.25),
    )


def cosine_histograms(widths: tuple[int, ...] = (16, 64, 512)) -> Html:
    """Histograms of cos(e, PE(p)) for random embeddings at several widths."""
    data = {
        d: embeddings.cosine_embedding_encoding(embeddings.random_embeddings(1000, d)).ravel()
        for d in widths
    }

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
        label_axes(
            ax,
            "cosine between a token embedding and PE(p)",
            "density",
            grid=0.4,
            **LEGEND_BELOW | {"ncol": 1},
        )

    return render(
        draw,
        alt=(
            "Histograms of the cosine between random token embeddings and encoding rows for "
            "widths 16, 64 and 512: all centred on 0, and narrower as the width grows, with "
            "standard deviation close to one over the square root of the width."
        ),
        caption="1000 random embeddings (N(0, 1) entries) against positions 0 to 199.",
    )


def wavelength_numbers() -> Html:
    r"""The end points of the wavelength ladder for :math:`d = 512`, against :math:`2\pi\cdot 10000`.

    Examples
    --------
    >>> "60611.48" in wavelength_numbers()
    True
    """
    lam = frequency_ladder.wavelengths(D)
    return Html(
        f"<p>For \\(d = 512\\): \\(\\lambda_0 = 2\\pi = {lam[0]:.6f}\\), \\(\\lambda_{{255}} = "
        f"2\\pi\\cdot 10000^{{510/512}} = {lam[-1]:.2f}\\) positions, against "
        f"\\(2\\pi\\cdot 10000 = {2 * np.pi * 10000:.2f}\\): the longest wavelength is "
        f"{100 * (1 - lam[-1] / (2 * np.pi * 10000)):.2f}% shorter, the factor "
        f"\\(10000^{{-2/512}} = {10000 ** (-2 / 512):.6f}\\). Consecutive wavelengths grow by "
        f"\\(10000^{{2/512}} = {lam[1] / lam[0]:.6f}\\).</p>"
    )


def base_table(bases: tuple[float, ...] = (100.0, 10_000.0, 1_000_000.0)) -> Html:
    """The slowest frequency and the longest wavelength for several bases, ``d = 512``.

    Examples
    --------
    >>> "<td>0.0102</td>" in base_table((100.0,))
    True
    """
    rows = [
        [
            f"{b:g}",
            f"{numeric.frequencies(D, b)[-1]:.3g}",
            f"{frequency_ladder.wavelengths(D, base=b)[-1]:.4g}",
        ]
        for b in bases
    ]
    return Html(
        "<p>Changing the base changes the slowest frequency and the longest wavelength "
        "(\\(d = 512\\)):</p>"
        + table(["base", "slowest frequency", "longest wavelength (positions)"], rows)
    )


def worked_example() -> Html:
    """The table of "My name is RK" (``d = 512``): four entries against mpmath, then eight columns.

    Examples
    --------
    >>> "0.84147098480789650665" in worked_example()
    True
    """
    words = facts.WORKED_SENTENCE
    example = numeric.sinusoidal(len(words), D)
    if not np.array_equal(example[0], np.tile([0.0, 1.0], D // 2)):
        raise AssertionError("PE(0) is not the pair (0, 1) repeated")
    formulas = {
        (1, 0): r"\sin 1",
        (1, 1): r"\cos 1",
        (1, 256): r"\sin(1/100)",
        (1, 511): r"\cos(10000^{-510/512})",
    }
    entries = table(
        ["entry", "formula", "pe (float64)", "mpmath, 50 digits (first 20 shown)", "|difference|"],
        (
            [
                f"PE({p}, {j})",
                math(formula, display=False),
                f"{example[p, j]:.17g}",
                mpmath.nstr(reference.entry(p, j, D), 20),
                mpmath.nstr(abs(mpmath.mpf(float(example[p, j])) - reference.entry(p, j, D)), 2),
            ]
            for (p, j), formula in formulas.items()
        ),
    )
    columns = (0, 1, 2, 3, 256, 257, 510, 511)
    sentence = table(
        ["word", "p", *(f"j = {j}" for j in columns)],
        ([w, p, *(f"{example[p, j]:.4f}" for j in columns)] for p, w in enumerate(words)),
    )
    first_row = ", ".join(f"{v:g}" for v in example[0, :8])
    return Html(
        f"<p><em>{escape(words[0])}</em> (position 0): "
        f"\\(PE(0) = ({first_row}, \\dots)\\), the pair \\((0, 1)\\) repeated {D // 2} "
        f"times.</p>{entries}{sentence}"
    )


def _shown(value: float) -> str:
    """Three decimals, without a minus sign on values that round to zero."""
    return f"{value:.3f}" if abs(value) >= 5e-4 else "0.000"


def column_means_table(
    lengths: tuple[int, ...] = (4, 100, 1000),
    columns: tuple[int, ...] = (0, 1, 128, 129, 256, 257, 510, 511),
) -> Html:
    """Measured means of some columns and of the whole table over the positions ``0 .. n-1``.

    Examples
    --------
    >>> "<td>0.473</td>" in column_means_table((4,), (0,))
    True
    """
    lam = frequency_ladder.wavelengths(D)
    means = {n: column_means.column_means(n, D) for n in lengths}
    rows: list[list[object]] = [
        [
            f"column {j} ({'sin' if j % 2 == 0 else 'cos'}, λ = {lam[j // 2]:.3g})",
            *(_shown(means[n][j]) for n in lengths),
        ]
        for j in columns
    ]
    rows.append(
        [
            Html("<strong>whole table</strong>"),
            *(_shown(float(numeric.sinusoidal(n, D).mean())) for n in lengths),
        ]
    )
    return Html(
        "<p>Measured means over the positions \\(0, \\dots, n-1\\), \\(d = 512\\):</p>"
        + table(["column", *(f"n = {n}" for n in lengths)], rows)
    )


def _stream_sentence() -> str:
    """Which matrices of an encoder layer read and write the stream, and the extra weights."""
    added, concatenated = concatenation.layer_matrices(D), concatenation.layer_matrices(2 * D)
    reading = [n for n, use in added.items() if use.reads_stream]
    writing = [n for n, use in added.items() if use.writes_stream]
    extra = sum(
        int(np.prod(concatenated[n].shape) - np.prod(use.shape)) for n, use in added.items()
    )
    return (
        f"<p>The extra width is carried by the residual stream through every layer. In each "
        f"encoder layer of the base model, {', '.join(reading)} read the stream and "
        f"{' and '.join(writing)} write it, so a {2 * D}-wide stream doubles all "
        f"{len(added)} matrices: {extra:,} more weights per layer.</p>"
    )


def projection_cost_table() -> Html:
    """Input width, weights and multiply-adds of one projection, add against concatenate.

    Examples
    --------
    >>> "<td>524,288</td>" in projection_cost_table()
    True
    """
    cost = concatenation.projection_cost(D)
    rows = [
        [way, cost[f"width_{key}"], f"{cost[f'weights_{key}']:,}", f"{cost[f'madds_{key}']:,}"]
        for way, key in (("add", "add"), ("concatenate", "concat"))
    ]
    return Html(
        table(
            ["", "input width", "weights of one 512-output projection", "multiply-adds per token"],
            rows,
        )
        + _stream_sentence()
    )


def subspace_numbers() -> Html:
    """The norm of an encoding row against a random embedding's, and the singular values of
    200 rows.

    Examples
    --------
    >>> "have 67 singular values" in subspace_numbers()
    True
    """
    rank, share = embeddings.encoding_subspace_share(200, D)
    norms = np.linalg.norm(numeric.sinusoidal(200, D), axis=1)
    low, high = f"{norms.min():.4f}", f"{norms.max():.4f}"
    norm = low if low == high else f"{low} \\text{{ to }} {high}"
    fine, _ = embeddings.encoding_subspace_share(200, D, relative=1e-10)
    return Html(
        f"<p>Measured for \\(d = 512\\): \\(\\lVert PE(p)\\rVert = {norm}\\) "
        f"at every \\(p < 200\\) (\\(\\sqrt{{256}}\\) at every \\(p\\) "
        f"{report.mark('norm-constant')}); a random embedding with \\(N(0,1)\\) entries has "
        "norm about "
        f"\\(\\sqrt{{512}} = {np.sqrt(512):.2f}\\); the encodings of positions 0-199 have "
        f"{rank} singular values above \\(10^{{-3}}\\) of the largest "
        f"({fine} above \\(10^{{-10}}\\): the count depends on the cut-off), so they lie close "
        f"to the span of their \\(r = {rank}\\) leading singular vectors. An embedding with "
        f"independent \\(N(0, 1)\\) entries keeps \\(r/d = {100 * rank / D:.1f}\\%\\) of its "
        f"squared norm in that span on average; 1000 seeded ones keep {100 * share:.1f}%.</p>"
    )


def exercises() -> Html:
    """The chapter's three exercises, each answered from :mod:`pe` and backed by a claim."""
    lam128 = frequency_ladder.wavelengths(128)
    value = numeric.sinusoidal(3, D)[2, 256]
    width, _ = frequency_ladder.ratio_equals_two_width(10000)
    return Html(
        report.exercise(
            "For \\(d = 128\\), what are the shortest and the longest wavelength, and how far "
            "is the longest from \\(2\\pi\\cdot 10000\\)?",
            f"\\(\\lambda_0 = 2\\pi = {lam128[0]:.4f}\\) and \\(\\lambda_{{63}} = 2\\pi\\cdot "
            f"10000^{{126/128}} = {lam128[-1]:.1f}\\), a factor \\(10000^{{-2/128}} = "
            f"{lam128[-1] / (2 * np.pi * 10000):.4f}\\) of \\(2\\pi\\cdot 10000\\).",
            claim_id="wavelength-progression",
        )
        + report.exercise(
            'In "My name is RK" with \\(d = 512\\), what is the entry of column 256 for '
            "<em>is</em> (position 2)?",
            f"\\(\\sin(2 \\cdot 10000^{{-256/512}}) = \\sin(2/100) = {value:.10f}\\).",
            claim_id="worked-example-my-name-is-rk",
        )
        + report.exercise(
            "At which width \\(d\\) would consecutive wavelengths double, as the periods of the "
            "bits of a binary counter do?",
            f"\\(10000^{{2/d}} = 2\\) gives \\(d = {escape(sp.latex(width))} \\approx "
            f"{float(width):.3f}\\), not an even integer: no width makes the analogy exact.",
            claim_id="wavelength-ratio-not-two",
        )
    )
