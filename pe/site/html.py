"""The few HTML building blocks of the site's pages: every table and every formula.

Pages and page helpers build HTML only through these functions, never from strings of
their own, so escaping and markup have one definition.

Examples
--------
>>> from pe.site.html import math, table
>>> str(table(["k", "error"], [[1, "2e-16"], [2, math("x^2", display=False)]]))[:64]
'<table class="pe-table"><thead><tr><th>k</th><th>error</th></tr>'
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Html", "Row", "code", "escape", "math", "source", "table"]


class Html(str):
    """A string of HTML that Jupyter displays as HTML (and that :func:`table` keeps as is)."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def escape(text: object) -> Html:
    """``text`` as HTML, with ``<``, ``>`` and ``&`` escaped (an :class:`Html` is kept)."""
    if isinstance(text, Html):
        return text
    return Html(html.escape(str(text), quote=False))


def math(latex: str, *, display: bool = True) -> Html:
    """LaTeX wrapped in MathJax delimiters, HTML-escaped (``<`` stays literal for MathJax)."""
    body = html.escape(latex, quote=False)
    return Html(f"\\[{body}\\]" if display else f"\\({body}\\)")


def code(text: object) -> Html:
    """``text`` in a ``<code>`` element."""
    return Html(f"<code>{escape(text)}</code>")


def source(obj: object) -> Html:
    """The Python source of a function or module as a code block (the theme adds its copy
    button).

    Examples
    --------
    >>> str(source(escape))[:57]
    '<pre class="pe-source"><code class="language-python">def '
    """
    text = inspect.getsource(obj)  # type: ignore[arg-type]
    return Html(f'<pre class="pe-source"><code class="language-python">{escape(text)}</code></pre>')


@dataclass(frozen=True)
class Row:
    """A table row with an element ``id`` and, optionally, a full-width cell ``below`` it
    (a long statement under a short row of facts)."""

    cells: Sequence[object]
    below: object = None
    id: str | None = None


def _row(row: Sequence[object] | Row, columns: int) -> str:
    if not isinstance(row, Row):
        return "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
    anchor = f' id="{html.escape(row.id)}"' if row.id else ""
    cells = "".join(f"<td>{escape(cell)}</td>" for cell in row.cells)
    below = (
        f'<tr class="pe-below"><td colspan="{columns}">{escape(row.below)}</td></tr>'
        if row.below is not None
        else ""
    )
    return f"<tr{anchor}>{cells}</tr>{below}"


def table(
    header: Sequence[object],
    rows: Iterable[Sequence[object] | Row],
    *,
    caption: str | Html | None = None,
    css_class: str = "pe-table",
) -> Html:
    """A table: one header row, then one row per sequence of cells.

    A cell that is an :class:`Html` (a formula from :func:`math`, a link, a verdict) is
    inserted as it is; anything else is converted with ``str`` and escaped. A :class:`Row`
    adds an id and a full-width cell below it. An empty header cell is a plain ``<td>``.

    Examples
    --------
    >>> str(table(["", "value"], []))[:58]
    '<table class="pe-table"><thead><tr><td></td><th>value</th>'

    >>> str(table(["a"], [Row([1], below="note", id="r1")]))[-94:]
    '<tr id="r1"><td>1</td></tr><tr class="pe-below"><td colspan="1">note</td></tr></tbody></table>'
    """
    # An empty header cell (above a column of row labels) is a plain cell: a header
    # without text names nothing (axe-core: empty-table-header).
    head = "".join(
        f"<th>{escape(cell)}</th>" if str(cell).strip() else "<td></td>" for cell in header
    )
    body = "".join(_row(row, len(header)) for row in rows)
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return Html(
        f'<table class="{css_class}">{title}<thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
