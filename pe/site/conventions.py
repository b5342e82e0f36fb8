"""Tables, figures and the worked session of the chapter "Conventions and pitfalls".

Everything here is computed when the page is built, from :mod:`pe.conventions`,
:mod:`pe.bug_zoo` and :mod:`pe.identify`. Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import contextlib
import html
import inspect
import io
import shlex
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe import bug_zoo, cli, conventions, numeric
from pe.site.figures import Palette, render
from pe.identify import Identification, identify
from pe.site.report import Html

__all__ = [
    "accuracy_table",
    "bug_heatmaps",
    "bug_source",
    "bug_table",
    "cli_session",
    "convention_heatmaps",
    "conventions_table",
    "permutation_table",
    "uncertainty_figure",
]

#: Widths and rows used for the chapter's pictures.
D_SHOW, N_SHOW = 64, 100


def _code(text: str) -> str:
    """HTML-escape ``text`` and show its `backticked` parts as code."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> Html:
    header = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return Html(
        f'<table class="pe-table"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'
    )


def conventions_table() -> Html:
    """The named conventions of :data:`pe.conventions.CONVENTIONS`, as data."""
    rows = [
        (
            f"<code>{c.name}</code>",
            c.layout,
            c.order,
            c.law,
            f"{c.base:g}",
            str(c.offset),
        )
        for c in conventions.CONVENTIONS.values()
    ]
    return _table(("name", "layout", "order", "law", "base", "row 0 at position"), rows)


def _heatmap_grid(
    panels: Sequence[tuple[str, npt.NDArray[Any]]], *, alt: str, caption: str, columns: int = 3
) -> Html:
    count = len(panels)
    lines = (count + columns - 1) // columns

    def draw(fig: Figure, palette: Palette) -> None:
        fig.set_layout_engine("constrained")
        image = None
        for index, (title, table) in enumerate(panels):
            ax: Axes = fig.add_subplot(lines, columns, index + 1)
            image = ax.imshow(
                table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest"
            )
            ax.set_title(title, fontsize=8)
            if index % columns == 0:
                ax.set_ylabel("row (position)")
            if index >= count - columns:
                ax.set_xlabel("column")
        if image is not None:
            bar = fig.colorbar(image, ax=fig.axes, shrink=0.8)
            bar.set_label("value")
            bar.outline.set_edgecolor(palette.ink)

    return render(draw, alt=alt, caption=caption, size=(8.0, 2.6 * lines))


def convention_heatmaps() -> Html:
    """Heat maps of the named conventions, side by side (d = 64, 100 rows)."""
    names = ("paper", "interleaved-cos-first", "halves", "halves-cos-first", "tensor2tensor")
    panels = [(name, conventions.get(name).table(N_SHOW, D_SHOW)) for name in names]
    panels.append(("one-indexed", conventions.get("one-indexed").table(N_SHOW, D_SHOW)))
    return _heatmap_grid(
        panels,
        alt=(
            "Six heat maps of 100 positions by 64 columns. Interleaved layouts alternate sine "
            "and cosine columns, so the fast left part looks striped; halves layouts show the "
            "same fan of frequencies twice, sines on the left half and cosines on the right. "
            "Cos-first layouts start with a column equal to 1 at row 0."
        ),
        caption=(
            f"Named conventions, d = {D_SHOW}, positions 0 to {N_SHOW - 1} "
            "(computed by pe.conventions)."
        ),
    )


def _zoo_width(bug: bug_zoo.Bug) -> int:
    return D_SHOW + 1 if bug.name == "odd-width" else D_SHOW


def bug_heatmaps() -> Html:
    """Heat maps of the bug zoo, with the paper's table first for comparison."""
    panels = [("paper (correct)", numeric.sinusoidal(N_SHOW, D_SHOW))]
    panels += [(bug.name, bug.make(N_SHOW, _zoo_width(bug))) for bug in bug_zoo.BUGS]
    return _heatmap_grid(
        panels,
        columns=4,
        alt=(
            "Eight heat maps: the paper's table, then each bug of the zoo. The doubled "
            "exponent flattens the right half; multiplying gives noise-like stripes; integer "
            "division gives two blocks of identical columns; using i for i // 2 looks almost "
            "right; halves shows two fans; the odd width adds a lone column; the fairseq "
            "offset starts two rows late."
        ),
        caption=f"The bug zoo (pe.bug_zoo), d = {D_SHOW} (65 for the odd width), 100 rows.",
    )


def bug_source(name: str) -> Html:
    """The source of one bug's function, as a code block."""
    bug = next(b for b in bug_zoo.BUGS if b.name == name)
    source = html.escape(inspect.getsource(bug.make))
    return Html(f'<pre class="pe-code"><code class="language-python">{source}</code></pre>')


def bug_table(n: int = 400, d: int = 16, k: int = 3) -> Html:
    """Per bug: the heat map and identify's words, then the rotation identity in numbers."""
    items, rows = [], []
    for bug in bug_zoo.BUGS:
        width = d + 1 if bug.name == "odd-width" else d
        result = identify(bug.make(200, width + 48))
        table = bug.make(n if bug.name != "column-index" else 4000, width)
        paper_error = (
            conventions.linear_shift_error(table, k, matrix=numeric.shift_matrix(k, d))
            if width == d
            else float("nan")
        )
        best = conventions.linear_shift_error(table, k)
        named = "; ".join(_code(note) for note in result.notes if "pinned" not in note)
        items.append(
            f"<li><strong>{_code(bug.title)}</strong>. Heat map: {_code(bug.heat_map)}. "
            f"<code>identify</code>: {named}.</li>"
        )
        rows.append(
            (
                _code(bug.title),
                "n/a (odd width)" if np.isnan(paper_error) else f"{paper_error:.2g}",
                f"{best:.2g}",
                _code(bug.identity),
            )
        )
    numbers = _table(
        (
            "bug",
            f"paper's T<sub>{k}</sub>: max error",
            "best fixed matrix: max error",
            "rotation identity",
        ),
        rows,
    )
    return Html(f"<ul>{''.join(items)}</ul>{numbers}")


def permutation_table(d_model: int = 8) -> Html:
    """Where each column of the paper's layout goes in the other layouts."""
    paper = conventions.LAYOUTS[0]
    rows = []
    for layout, order in conventions.LAYOUTS:
        perm = conventions.permutation(d_model, paper, (layout, order))
        pair, sine = conventions.column_roles(d_model, layout, order)
        roles = " ".join(
            f"{'s' if s else 'c'}<sub>{k}</sub>" for k, s in zip(pair, sine, strict=True)
        )
        rows.append((f"{layout}, {order}", roles, f"<code>{perm.tolist()}</code>"))
    return _table(
        ("layout", f"columns 0..{d_model - 1} hold", "perm (target = paper[:, perm])"), rows
    )


def accuracy_table(n: int = 256) -> Html:
    """identify's measured accuracy on paper-law tables, per width, base and dtype."""
    rows = []
    for dtype, target in ((np.float64, 1e-6), (np.float32, 1e-3)):
        for d in (8, 512, 4096):
            for base in (100.0, 1e4, 1e6):
                convention = conventions.Convention("x", "x", base=base)
                true = convention.frequencies(d)
                result = identify(convention.table(n, d, dtype=dtype))
                sin_err = float(np.max(np.abs(result.sin_frequencies / true - 1)))
                cos_rel = np.abs(result.cos_frequencies / true - 1)
                flagged = result.cos_uncertainty / true > target
                pinned = float(np.max(cos_rel[~flagged])) if (~flagged).any() else 0.0
                rows.append(
                    (
                        np.dtype(dtype).name,
                        str(d),
                        f"{base:g}",
                        f"{sin_err:.1e}",
                        f"{pinned:.1e}",
                        f"{int(flagged.sum())} of {d // 2}",
                        f"{result.base:.7g}" if result.base else "-",
                    )
                )
    return _table(
        (
            "dtype",
            "d",
            "base",
            "max rel. error, sines",
            "max rel. error, cosines within target",
            "cosines reported with uncertainty above target",
            "fitted base",
        ),
        rows,
    )


def uncertainty_figure(n: int = 256, d: int = 512, base: float = 1e6) -> Html:
    """Reported relative uncertainty of sine and cosine columns against eps / theta^2."""
    convention = conventions.Convention("x", "x", base=base)
    true = convention.frequencies(d)
    result: Identification = identify(convention.table(n, d, dtype=np.float32))
    theta = true * (n - 1)
    eps = float(np.finfo(np.float32).eps)

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        ax.loglog(theta, result.cos_uncertainty / true, "o", ms=2.5, label="cosine columns")
        ax.loglog(theta, result.sin_uncertainty / true, "s", ms=2.5, label="sine columns")
        ax.loglog(theta, eps / theta**2, "-", color=palette.ink, lw=1, label="eps / θ²")
        ax.axhline(1e-3, ls=":", color=palette.ink, lw=1, label="float32 target 1e-3")
        ax.set_xlabel("θ = ω (n - 1), the largest angle of the column's pair")
        ax.set_ylabel("reported relative uncertainty")
        ax.grid(True, which="major", lw=0.5)
        ax.legend(fontsize=8, loc="upper right")

    return render(
        draw,
        alt=(
            "Log-log plot of the relative uncertainty identify reports for each column of a "
            "float32 table against the largest angle of its pair: sine columns stay near "
            "1e-8 everywhere, cosine columns follow the eps over theta squared line and rise "
            "above the 1e-3 target only for the slowest pairs."
        ),
        caption=(
            f"identify on the paper's law, base {base:g}, d = {d}, {n} rows, float32: the "
            "uncertainty of a slow cosine grows like eps/θ²; its sine partner stays sharp."
        ),
    )


def cli_session(commands: Sequence[Sequence[str]]) -> Html:
    """Run ``pe`` commands in a scratch directory (tables saved there first) and show them.

    Each command is a list of arguments; the token ``{dir}`` is replaced by the scratch
    directory, which holds ``paper.npy`` (float32, 128 x 64), ``fairseq.npy`` (a
    fairseq-style table, 100 x 512) and ``random.npy`` (uniform noise, 100 x 64).
    """
    blocks = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        np.save(folder / "paper.npy", numeric.sinusoidal(128, 64, dtype=np.float32))
        np.save(folder / "fairseq.npy", bug_zoo.fairseq_offset(100, 512).astype(np.float32))
        np.save(folder / "random.npy", np.random.default_rng(0).uniform(-1, 1, (100, 64)))
        for command in commands:
            args = [a.replace("{dir}", scratch) for a in command]
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    status = cli.main(args)
                except SystemExit as stop:
                    status = int(stop.code or 0)
            shown = " ".join(shlex.quote(a.replace("{dir}/", "")) for a in command)
            text = (out.getvalue() + err.getvalue()).replace(scratch + "/", "")
            blocks.append(f"$ pe {html.escape(shown)}\n{html.escape(text)}[exit status {status}]")
    return Html('<pre class="pe-session"><code>' + "\n\n".join(blocks) + "</code></pre>")
