"""Everything the page "The rotation identity" renders: figures, the explorer, exercises.

Each function computes its data with :mod:`pe` (figures through
:func:`pe.site.figures.render`, in both palettes with alt text) and returns
:class:`~pe.site.html.Html`. The numeric check of the identity and its error model are
drawn on the precision page (:mod:`pe.site.precision`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from pe import claims, numeric
from pe.chapters import rotation_identity as experiments
from pe.chapters import rotation_identity as proofs
from pe.chapters import rotation_identity as wrong
from pe.site import report
from pe.site.figures import Palette, Slider, interactive, render
from pe.site.html import Html

__all__ = [
    "VALUES",
    "exercises",
    "rejected_textbook",
    "rotation_explorer",
    "turn_direction",
    "turning_pairs",
]

#: The values the page's prose names (``{{ name }}``, :mod:`pe.site.prose`).
VALUES: dict[str, Callable[[], object]] = {"law_width": lambda: experiments.LAW_WIDTH}


def turning_pairs(
    d_model: int = 16,
    pairs: tuple[int, ...] = (0, 1, 2),
    k: int = 2,
    starts: tuple[int, ...] = (0, 3),
) -> Html:
    """Each pair ``(sin w_i p, cos w_i p)`` on its circle, and the turn from ``p`` to ``p + k``
    drawn as an arrow at two starting positions: the same angle ``k w_i`` at both.

    The points are rows of :func:`pe.numeric.sinusoidal`; the angle each arrow spans is
    measured from them (clockwise, from ``PE(p)`` to ``PE(p + k)``), and the figure raises
    if it is not ``k w_i`` at every start.
    """
    omega = numeric.frequencies(d_model)
    table = numeric.sinusoidal(max(starts) + k + 1, d_model)
    angle = np.arctan2(table[:, 0::2], table[:, 1::2])  # clockwise from the top: w_i p

    for i in pairs:
        turns = np.mod([angle[p + k, i] - angle[p, i] for p in starts], 2 * np.pi)
        if not np.allclose(turns, k * omega[i], rtol=0, atol=1e-12):
            raise claims.ClaimFailedError(f"pair {i}: turns {turns} are not k w_i")

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(1, len(pairs), gridspec_kw={"wspace": 0.5})
        circle = np.linspace(0, 2 * np.pi, 200)
        for ax, i in zip(axes, pairs, strict=True):
            ax.plot(np.sin(circle), np.cos(circle), color=palette.grid, lw=1.2)
            for colour, p in zip(palette.lines, starts, strict=False):
                arc = np.linspace(omega[i] * p, omega[i] * (p + k), 40)
                ax.plot(0.82 * np.sin(arc), 0.82 * np.cos(arc), color=colour, lw=1.2)
                for end in (p, p + k):
                    ax.plot([0, np.sin(omega[i] * end)], [0, np.cos(omega[i] * end)],
                            color=colour, lw=0.8, alpha=0.6)  # fmt: skip
                ax.annotate(
                    "",
                    xy=(table[p + k, 2 * i], table[p + k, 2 * i + 1]),
                    xytext=(table[p, 2 * i], table[p, 2 * i + 1]),
                    arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2.0,
                                "connectionstyle": "arc3,rad=-0.3", "shrinkA": 3, "shrinkB": 3},
                )  # fmt: skip
                ax.plot(table[p, 2 * i], table[p, 2 * i + 1], "o", color=colour, ms=6)
            ax.set_title(f"pair {i}\n{k}ω = {k * omega[i]:.2f} rad")
            ax.set_aspect("equal")
            ax.set_xlim(-1.25, 1.25)
            ax.set_ylim(-1.25, 1.25)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.set_xlabel(f"sin: col. {2 * i}")
            ax.set_ylabel(f"cos: col. {2 * i + 1}", labelpad=1)
        handles = [
            Line2D([], [], color=colour, lw=2, marker="o", label=f"p = {p} → p + {k} = {p + k}")
            for colour, p in zip(palette.lines, starts, strict=False)
        ]
        fig.legend(handles=handles, loc="upper center", ncol=1, bbox_to_anchor=(0.5, 0.1))

    return render(
        draw,
        alt=(
            f"{len(pairs)} unit circles, pairs {', '.join(map(str, pairs))} of a d = {d_model} "
            f"encoding. On each, two arrows go clockwise from the pair at position p to the "
            f"pair at p + {k}, starting at p = {starts[0]} and at p = {starts[1]}; both arrows "
            f"of a circle span the same angle, {k} times the pair's frequency: "
            + ", ".join(f"{k * omega[i]:.2f} rad for pair {i}" for i in pairs)
            + "."
        ),
        caption=(
            f"Moving {k} positions turns pair i by the same angle {k} ω_i wherever it starts "
            f"(p = {starts[0]} and p = {starts[1]}, d = {d_model}): clockwise in (sin, cos) "
            "coordinates. That turn is the block of T_k."
        ),
        size=(4.4, 2.2),
    )


def turn_direction(
    omega: float = 0.5,
    positions: int = 6,
    turns: tuple[str, str] = ("clockwise", "counter-clockwise"),
) -> Html:
    """One pair at the positions ``0 .. positions-1``, drawn in the paper's (sin, cos) order
    and in (cos, sin) order: the same motion turns clockwise in the first, counter-clockwise
    in the second (``turns``, the titles).

    The points are a column pair of :func:`pe.numeric.sinusoidal` (the pair whose frequency
    is ``omega`` < 1, through the base); the direction of each panel is measured from the
    sign of the 2-D cross product of consecutive points, and the figure raises if it is not
    the direction its title states (the textbook's belief, ``turns`` swapped, is refused).

    Raises
    ------
    pe.claims.ClaimFailedError
        If a panel does not turn the way its title says.
    """
    d_model = 4
    base = omega ** (-d_model / 2)  # pair 1 of a width-4 table turns at base^(-2/4) = omega
    table = numeric.sinusoidal(positions, d_model, base=base)
    orders = (
        ("(sin, cos): the paper", table[:, 2], table[:, 3], turns[0]),
        ("(cos, sin)", table[:, 3], table[:, 2], turns[1]),
    )
    for title, x, y, turn in orders:
        cross = x[:-1] * y[1:] - y[:-1] * x[1:]
        measured = "clockwise" if np.all(cross < 0) else "counter-clockwise"
        if not (np.all(cross < 0) or np.all(cross > 0)) or measured != turn:
            raise claims.ClaimFailedError(f"{title}: the pair does not turn {turn}")

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(1, 2, gridspec_kw={"wspace": 0.35})
        circle = np.linspace(0, 2 * np.pi, 200)
        for ax, (title, x, y, turn) in zip(axes, orders, strict=True):
            ax.plot(np.cos(circle), np.sin(circle), color=palette.grid, lw=1.2)
            ax.plot(x, y, "o", color=palette.lines[0], ms=5)
            for p in (0, positions - 1):  # labelled just inside the circle
                ax.text(0.6 * x[p], 0.6 * y[p], f"p={p}", ha="center", va="center",
                        color=palette.ink)  # fmt: skip
            middle = positions // 2
            ax.annotate(
                "",
                xy=(0.35 * x[middle], 0.35 * y[middle]),
                xytext=(0.35 * x[0], 0.35 * y[0]),
                arrowprops={"arrowstyle": "-|>", "color": palette.lines[1], "lw": 2.0,
                            "connectionstyle": f"arc3,rad={-0.3 if turn == 'clockwise' else 0.3}"},
            )  # fmt: skip
            ax.set_title(f"{title}\n{turn}")
            ax.set_aspect("equal")
            ax.set_xlim(-1.15, 1.15)
            ax.set_ylim(-1.15, 1.15)
            ax.set_xticks([])
            ax.set_yticks([])
            first, second = title.split(":")[0].strip("()").split(", ")
            ax.set_xlabel(f"{first}, horizontal")
            ax.set_ylabel(f"{second}, vertical", labelpad=1)

    return render(
        draw,
        alt=(
            f"Two unit circles with the same pair of the encoding at positions 0 to "
            f"{positions - 1}, {omega} radians apart. Left, the paper's order, sine on the "
            "horizontal axis: the points start at the top, (0, 1), and go clockwise. Right, "
            "cosine on the horizontal axis: they start at (1, 0) and go counter-clockwise."
        ),
        caption=(
            f"One pair at positions 0 to {positions - 1}: which way it turns depends only on "
            "which coordinate is drawn first."
        ),
        size=(4.2, 2.4),
    )


def rotation_explorer() -> Html:
    """:func:`turning_pairs`, live: sliders for the position p, the offset k, the width d and
    the base; each of the first four pairs a point on its circle, the turn from PE(p) to
    PE(p + k) read out, the same whatever p (the static figure is the fallback)."""
    return interactive(
        "rotation",
        turning_pairs(),
        [
            Slider("p", "position p", 0, 60, 1, 3),
            Slider("k", "offset k", 0, 20, 1, 2),
            Slider("d", "width d", 8, 64, 8, 16),
            Slider("base", "base", 2, 6, 0.5, 4, log10=True),
        ],
        label="Four circles, one per frequency pair: the pair at position p and at p + k, "
        "and the angle between them, which does not depend on p.",
    )


def rejected_textbook() -> Html:
    """The one-pair identity fed the textbook :math:`R(k\\omega)` for (sin, cos) pairs.

    SymPy's residual does not vanish (claim ``block-sign-sin-cos-order`` rejects the same
    candidate); the proof is shown step by step with its non-zero residual.

    Raises
    ------
    pe.claims.ClaimFailedError
        If the textbook block is not rejected.
    """
    result = proofs.rotation_identity(wrong.TEXTBOOK_ROTATION.value)
    if result.holds:
        raise claims.ClaimFailedError("the textbook rotation was not rejected for (sin, cos)")
    return report.proof(result)


def exercises() -> Html:
    """The chapter's three exercises, their answers computed now, each with its claim."""
    t3 = numeric.shift_matrix(3, 512)
    back_error = float(np.abs(t3.T @ t3 - np.eye(512)).max())
    table = numeric.sinusoidal(16, 512)
    two_then_three = numeric.shift_matrix(2, 512) @ numeric.shift_matrix(3, 512) @ table[10]
    composed_error = float(np.abs(two_then_three - table[15]).max())
    return Html(
        report.exercise(
            "You have \\(T_3\\) for \\(d = 512\\). How do you get the matrix that moves every "
            "position three steps <em>back</em>, without evaluating a single sine or cosine?",
            "Transpose it: \\(T_{-3} = T_3^{-1} = T_3^{\\mathsf T}\\). Computed here, "
            f"\\(\\max |T_3^{{\\mathsf T}} T_3 - I| = {back_error:.1e}\\).",
            claim_id="shift-inverse-is-transpose",
        )
        + report.exercise(
            "A library stores each pair as \\((\\cos\\omega_i p, \\sin\\omega_i p)\\), cosine "
            "first. Which \\(2 \\times 2\\) block shifts its pairs by \\(k\\), and which way do "
            "they turn?",
            "The textbook rotation \\(R(k\\omega_i) = \\begin{pmatrix} \\cos k\\omega_i & "
            "-\\sin k\\omega_i \\\\ \\sin k\\omega_i & \\cos k\\omega_i \\end{pmatrix}\\): "
            "in (cos, sin) order the pairs turn counter-clockwise, in the paper's (sin, cos) "
            "order clockwise.",
            claim_id="textbook-block-cos-sin-order",
        )
        + report.exercise(
            "Apply \\(T_3\\) and then \\(T_2\\) to \\(PE(10)\\) with \\(d = 512\\). "
            "Which row do you get?",
            "\\(T_2 T_3 = T_5\\), so the row of position 15: computed here, "
            f"\\(\\max|T_2 T_3 PE(10) - PE(15)| = {composed_error:.1e}\\).",
            claim_id="shift-composition",
        )
    )
