"""Tables, figures and the worked session of the chapter "Conventions and pitfalls".

Everything here is computed when the page is built, from :mod:`pe.conventions`,
:mod:`pe.bug_zoo`, :mod:`pe.identify`, :mod:`pe.identify_accuracy` and the chapter,
:mod:`pe.chapters.conventions`. Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import contextlib
import inspect
import io
import shlex
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe import bug_zoo, cli, conventions, numeric
from pe import identify_accuracy as experiments
from pe.chapters import conventions as proofs
from pe.identify import MIN_ROWS, Identification, identify
from pe.site import report
from pe.site.figures import Palette, colorbar, label_axes, render
from pe.site.html import Html, code, escape, table

__all__ = [
    "SESSION",
    "VALUES",
    "accuracy_table",
    "alias_notes",
    "bug_heatmaps",
    "bug_source",
    "bug_table",
    "cli_session",
    "convention_heatmaps",
    "conventions_table",
    "identify_from_python",
    "law_equivalence",
    "layout_proof",
    "permutation_table",
    "refusals",
    "uncertainty_figure",
]

#: Widths and rows used for the chapter's pictures.
D_SHOW, N_SHOW = 64, 100
#: Width of :func:`permutation_table` on the page; rows, width and offset of :func:`bug_table`
#: (the column-index bug gets more rows), and the width identify reads each bug at.
PERMUTATION_WIDTH = 8
BUG_ROWS, BUG_WIDTH, BUG_SHIFT = proofs.ZOO_ROWS, proofs.ZOO_WIDTH, proofs.ZOO_SHIFT
COLUMN_INDEX_ROWS = 4000
BUG_IDENTIFY_WIDTH = BUG_WIDTH + 48
#: The claim behind the zoo's "rotation identity" cells that say the identity holds.
ZOO_CLAIM = "bug-zoo-shift-matrices"
#: Rows of the tables identify's accuracy is measured on.
ACCURACY_ROWS = 256


#: The worked session of ``pe identify`` shown on the page (see :func:`cli_session`).
SESSION: tuple[tuple[str, ...], ...] = (
    ("identify", "{dir}/paper.npy"),
    ("identify", "{dir}/fairseq.npy"),
    ("identify", "pe.bug_zoo:column_index_exponent", "--n", "200", "--d", "64"),
    ("identify", "{dir}/random.npy"),
    ("identify", "{dir}/missing.npy"),
)


def _code(text: str) -> Html:
    """``text`` escaped, with its `backticked` parts shown as code."""
    parts = text.split("`")
    return Html("".join(code(p) if i % 2 else escape(p) for i, p in enumerate(parts)))


def _fail(message: str) -> NoReturn:
    """Fail the page build: what the page shows no longer holds."""
    raise RuntimeError(message)


def conventions_table() -> Html:
    """The named conventions of :data:`pe.conventions.CONVENTIONS`, as data."""
    rows = [
        (
            code(c.name),
            c.layout,
            c.order,
            c.law,
            f"{c.base:g}",
            str(c.offset),
        )
        for c in conventions.CONVENTIONS.values()
    ]
    return table(("name", "layout", "order", "law", "base", "row 0 at position"), rows)


def _heatmap_grid(
    panels: Sequence[tuple[str, npt.NDArray[Any]]], *, alt: str, caption: str, columns: int = 2
) -> Html:
    count = len(panels)
    lines = (count + columns - 1) // columns

    def draw(fig: Figure, palette: Palette) -> None:
        fig.set_layout_engine("constrained")
        image = None
        for index, (title, values) in enumerate(panels):
            ax: Axes = fig.add_subplot(lines, columns, index + 1)
            image = ax.imshow(
                values, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest"
            )
            ax.set_title(title)
            if index % columns == 0:
                ax.set_ylabel("position")
            if index >= count - columns:
                ax.set_xlabel("column")
        if image is not None:
            colorbar(fig, image, palette, "value", ax=fig.axes, location="bottom", aspect=30)

    return render(draw, alt=alt, caption=caption, size=(4.2, 0.6 + 1.6 * lines))


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
        alt=(
            "Eight heat maps: the paper's table, then each bug of the zoo. The doubled "
            "exponent flattens the right half; multiplying gives noise-like stripes; integer "
            "division gives two blocks, each one pair repeated; using i for i // 2 looks almost "
            "right; halves shows two fans; the odd width adds a lone column; the fairseq "
            "offset starts two rows late."
        ),
        caption=f"The bug zoo (pe.bug_zoo), d = {D_SHOW} (65 for the odd width), 100 rows.",
    )


def bug_source(name: str) -> Html:
    """The source of one bug's function, as a code block."""
    bug = next(b for b in bug_zoo.BUGS if b.name == name)
    source = escape(inspect.getsource(bug.make))
    return Html(f'<pre class="pe-code"><code class="language-python">{source}</code></pre>')


def bug_table(n: int = BUG_ROWS, d: int = BUG_WIDTH, k: int = BUG_SHIFT) -> Html:
    """Per bug: the heat map and identify's words, then the rotation identity in numbers."""
    items, rows = [], []
    for bug in bug_zoo.BUGS:
        width = d + 1 if bug.name == "odd-width" else d
        result = identify(bug.make(200, width + BUG_IDENTIFY_WIDTH - d))
        values = bug.make(n if bug.name != "column-index" else COLUMN_INDEX_ROWS, width)
        paper_error = (
            conventions.linear_shift_error(values, k, matrix=numeric.shift_matrix(k, d))
            if width == d
            else float("nan")
        )
        best = conventions.linear_shift_error(values, k)
        named = "; ".join(_code(note) for note in result.notes if "pinned" not in note)
        items.append(
            f"<li><strong>{_code(bug.title)}</strong>. Heat map: {_code(bug.heat_map)}. "
            f"{code('identify')}: {named}.</li>"
        )
        rows.append(
            (
                _code(bug.title),
                "n/a (odd width)" if np.isnan(paper_error) else f"{paper_error:.2g}",
                f"{best:.2g}",
                Html(_code(bug.identity) + (report.mark(ZOO_CLAIM) if bug.pairs else "")),
            )
        )
    numbers = table(
        (
            "bug",
            Html(f"paper's T<sub>{k}</sub>: max error"),
            "best fixed matrix: max error",
            "rotation identity",
        ),
        rows,
    )
    explained = (
        f"<p>For each bug: what it does to the heat map and what {code('identify')} says "
        f"about its table (\\(d = {BUG_IDENTIFY_WIDTH}\\)); then the largest error of the "
        f"paper's shift matrix \\(T_{{{k}}}\\) applied to the bug's table (\\(d = {d}\\), "
        f"{n} rows; {COLUMN_INDEX_ROWS} for the column-index bug), next to that of the best "
        "fixed matrix fitted by least squares on the first half of the rows and applied to "
        "the second half. A large second number shows that no fixed matrix shifts the rows; "
        "a small one does not show that one exists: the odd width's lone sine turns so "
        "slowly that a fitted matrix nearly follows it over these rows.</p>"
    )
    return Html(f"{explained}<ul>{''.join(items)}</ul>{numbers}")


def permutation_table(d_model: int = PERMUTATION_WIDTH) -> Html:
    """Where each column of the paper's layout goes in the other layouts.

    Each conversion is checked first: there and back gives the paper's table again.
    """
    paper = conventions.LAYOUTS[0]
    paper_table = conventions.get("paper").table(50, d_model)
    rows = []
    for layout, order in conventions.LAYOUTS:
        there = conventions.convert(paper_table, paper, (layout, order))
        if not np.array_equal(conventions.convert(there, (layout, order), paper), paper_table):
            _fail(f"converting to {layout}, {order} and back changes the table")
        perm = conventions.permutation(d_model, paper, (layout, order))
        pair, sine = conventions.column_roles(d_model, layout, order)
        roles = Html(
            " ".join(f"{'s' if s else 'c'}<sub>{i}</sub>" for i, s in zip(pair, sine, strict=True))
        )
        rows.append((f"{layout}, {order}", roles, code(perm.tolist())))
    return table(
        ("layout", f"columns 0..{d_model - 1} hold", "perm (target = paper[:, perm])"), rows
    )


def accuracy_table(n: int = ACCURACY_ROWS) -> Html:
    """identify's measured accuracy on paper-law tables, per width, base and dtype."""
    measured = experiments.identify_accuracy(n)
    widths = sorted({row.d for row in measured})
    rows = [
        (
            row.dtype,
            str(row.d),
            f"{row.base:g}",
            f"{row.sine_error:.1e}",
            f"{row.cosine_error:.1e}",
            f"{row.flagged} of {row.d // 2}",
            f"{row.fitted_base:.7g}" if row.fitted_base else "-",
        )
        for row in measured
    ]
    return table(
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
        caption=(
            f"identify on tables of the paper's law only (interleaved, sine first), {n} rows "
            f"each, at d = {', '.join(str(d) for d in widths)}."
        ),
    )


def uncertainty_figure(n: int = 256, d: int = 512, base: float = 1e6) -> Html:
    """Reported relative uncertainty of sine and cosine columns against eps / theta^2."""
    convention = conventions.Convention("x", "x", base=base)
    true = convention.frequencies(d)
    result: Identification = identify(convention.table(n, d, dtype=np.float32))
    theta = true * (n - 1)
    eps = float(np.finfo(np.float32).eps)
    sine, cosine = result.sin_uncertainty / true, result.cos_uncertainty / true
    on_line = theta[np.abs(np.log2(cosine * theta**2 / eps)) < 1]  # within a factor 2
    above = cosine > 1e-3

    def draw(fig: Figure, palette: Palette) -> None:
        ax: Axes = fig.add_subplot()
        ax.loglog(theta, cosine, "o", ms=2.5, label="cosine columns")
        ax.loglog(theta, sine, "s", ms=2.5, label="sine columns")
        ax.loglog(theta, eps / theta**2, "-", color=palette.ink, lw=1, label="eps / θ²")
        ax.axhline(1e-3, ls=":", color=palette.ink, lw=1, label="float32 target 1e-3")
        label_axes(ax, "θ = ω (n − 1), the pair's largest angle", "relative uncertainty")

    return render(
        draw,
        alt=(
            "Log-log plot of the relative uncertainty identify reports for each column of a "
            f"float32 table against the largest angle θ of its pair: sine columns lie between "
            f"{sine.min():.0e} and {sine.max():.0e}; cosine columns follow the eps over theta "
            f"squared line up to θ = {on_line.max():.1f}, lie between {cosine[theta > 100].min():.0e}"
            f" and {cosine[theta > 100].max():.0e} beyond θ = 100, and rise above the 1e-3 target "
            f"for the {above.sum()} slowest pairs (θ up to {theta[above].max():.2g})."
        ),
        caption=(
            f"identify on the paper's law, base {base:g}, d = {d}, {n} rows, float32: the "
            "uncertainty of a slow cosine grows like eps/θ²; its sine partner stays sharp."
        ),
        size=(3.6, 3.0),  # drawn narrow: it is shown inside a fold, narrower than the column
    )


@cache
def _session(commands: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, int], ...]:
    """Each command run by ``pe`` in a scratch directory: (command shown, output, exit status)."""
    runs = []
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
            runs.append((shown, text, status))
    return tuple(runs)


def cli_session(commands: Sequence[Sequence[str]] = SESSION) -> Html:
    """Run ``pe`` commands in a scratch directory (tables saved there first) and show them.

    Each command is a list of arguments; the token ``{dir}`` is replaced by the scratch
    directory, which holds ``paper.npy`` (float32, 128 x 64), ``fairseq.npy`` (a
    fairseq-style table, 100 x 512) and ``random.npy`` (uniform noise, 100 x 64).
    """
    blocks = [
        f"$ pe {escape(shown)}\n{escape(text)}[exit status {status}]"
        for shown, text, status in _session(tuple(tuple(c) for c in commands))
    ]
    return Html('<pre class="pe-session"><code>' + "\n\n".join(blocks) + "</code></pre>")


def layout_proof(
    layout: conventions.Layout = "halves", order: conventions.Order = "sin-first"
) -> Html:
    """The SymPy proof of the rotation identity in one layout, step by step."""
    return report.proof(proofs.layout_identity(layout, order))


def law_equivalence() -> Html:
    """The two laws at d = 512 and d = 8: each is the other with another base."""
    t2t_512 = 10000.0 ** (512 / 510)
    paper_8 = 10000.0 ** (6 / 8)
    return Html(
        "<p>For $d = 512$, tensor2tensor with base 10000 is the paper's law with base "
        f"{t2t_512:.6g}; for $d = 8$ the paper's base 10000 is tensor2tensor's base "
        f"{paper_8:.6g}: the two laws give the same frequencies (the same table, in the same "
        f"layout), and no program can tell which law was meant. {code('pe identify')} reports the law whose base is rounder, the paper's on "
        "a tie, and says when both are round.</p>"
    )


def identify_from_python() -> Html:
    """``identify`` on a fairseq-style float32 table (100 x 512), its summary as text."""
    found = identify(conventions.get("fairseq").table(100, 512, dtype=np.float32))
    got = (found.layout, found.law, found.position_offset, found.first_token_row)
    if got != ("halves", "tensor2tensor", 0, 2):
        _fail(f"identify misreads the fairseq table: {found.reason}")
    return Html(f"<pre>{code(found.summary())}</pre>")


def alias_notes() -> Html:
    """identify's notes on the multiplying bug, whose frequencies alias above π."""
    grown = identify(bug_zoo.multiplied(200, 64))
    if not any("above π" in note for note in grown.notes):
        _fail("identify no longer notes the frequencies above π")
    return Html("<ul>" + "".join(f"<li>{escape(note)}</li>" for note in grown.notes) + "</ul>")


def refusals() -> Html:
    """identify's verdict on tables that are not sinusoidal encodings (all refused)."""
    verdicts = {name: identify(t) for name, t in experiments.non_encodings().items()}
    if any(v.is_encoding for v in verdicts.values()):
        _fail("identify accepted a table that is not a sinusoidal encoding")
    items = "".join(
        f"<li><strong>{escape(name)}</strong>: {escape(v.reason)}</li>"
        for name, v in verdicts.items()
    )
    return Html(f"<ul>{items}</ul>")


def _status(index: int) -> int:
    return _session(SESSION)[index][2]


#: Values the page's prose quotes, by placeholder name (``{{ name }}``), each computed by pe.
VALUES: dict[str, Callable[[], object]] = {
    "heatmap_width": lambda: D_SHOW,
    "heatmap_pairs": lambda: D_SHOW // 2,
    "permutation_width": lambda: PERMUTATION_WIDTH,
    "proof_width": lambda: proofs.PROOF_WIDTH,
    "bug_identify_width": lambda: BUG_IDENTIFY_WIDTH,
    "bug_shift": lambda: BUG_SHIFT,
    "bug_width": lambda: BUG_WIDTH,
    "bug_rows": lambda: BUG_ROWS,
    "column_index_rows": lambda: COLUMN_INDEX_ROWS,
    "identify_min_rows": lambda: MIN_ROWS,
    "status_encoding": lambda: _status(0),
    "status_not_encoding": lambda: _status(3),
    "status_bad_input": lambda: _status(4),
    "recovery_rows": lambda: experiments.RECOVERY_ROWS,
    "recovery_widths": lambda: ", ".join(map(str, experiments.WIDTHS)),
}
