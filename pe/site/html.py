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
from collections.abc import Iterable, Sequence

__all__ = ["Html", "code", "escape", "math", "table"]


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


def table(
    header: Sequence[object],
    rows: Iterable[Sequence[object]],
    *,
    caption: str | None = None,
    css_class: str = "pe-table",
) -> Html:
    """A table: one header row, then one row per sequence of cells.

    A cell that is an :class:`Html` (a formula from :func:`math`, a link, a verdict) is
    inserted as it is; anything else is converted with ``str`` and escaped.
    """
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return Html(
        f'<table class="{css_class}">{title}<thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
