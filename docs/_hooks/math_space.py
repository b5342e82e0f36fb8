"""MkDocs hook: a display formula holds, before MathJax typesets it, the height it will take.

MathJax typesets the page after it is first painted (``docs/javascripts/mathjax-config.js``):
until then a display formula shows its TeX source, usually a few lines of text, and the
formula that replaces it is shorter or taller, so that everything below it jumped (the
largest layout shift of the chapters, measured by Lighthouse). Each display formula that
stands alone in its paragraph (``<p>$$...$$</p>`` in the notebooks, ``<div
class="arithmatex">`` in Markdown pages) gets the class ``pe-tex-display`` and the height it
will take as ``--pe-tex-h``, estimated from its TeX: a line of text, a row more per ``\\\\``
of its tallest array, a fraction, a large operator with limits, a labelled brace. The stylesheet holds that
height (and hides the source) until the formula is typeset, where scripts run.
"""

from __future__ import annotations

import re
from typing import Any

#: Height in ems: one line, each further row of an array, a fraction, an operator with
#: limits, a brace with a label under or over it; at most :data:`TALLEST` (measured at
#: 390-1280 px in Chromium: within a line of MathJax's own height for every display
#: formula of the chapters that fits its column, ``tests/site/test_browser.py``; most
#: within a third of a line).
LINE, ROW, FRACTION, LIMITS, BRACE, TALLEST = 1.15, 1.55, 1.2, 2.0, 1.2, 8.0

DISPLAY = re.compile(
    r'<p>(?P<tex>\$\$.*?\$\$|\\\[.*?\\\])</p>|<div class="arithmatex">(?P<md>\\\[.*?\\\])</div>',
    re.DOTALL,
)
ENVIRONMENT = re.compile(r"\\begin\{([a-z]+\*?)\}(.*?)\\end\{\1\}", re.DOTALL)


def height(tex: str) -> float:
    r"""The height, in ems, that the display formula ``tex`` will take once typeset.

    Examples
    --------
    >>> height(r"PE(p + k) = T_k\, PE(p)")
    1.15
    >>> round(height(r"\begin{pmatrix} a \\ b \end{pmatrix} = \begin{pmatrix} c \\ d \end{pmatrix}"), 2)
    2.7
    >>> round(height(r"\lambda = \frac{2\pi}{\omega}"), 2), round(height(r"\sum_{j=1}^{n} x_j"), 2)
    (2.35, 3.15)
    """
    arrays = [body.count("\\\\") for _, body in ENVIRONMENT.findall(tex)]
    rows = max(arrays) if arrays else tex.count("\\\\")
    tall = [
        size
        for pattern, size in ((r"d?frac|binom", FRACTION), (r"sum|prod|int", LIMITS))
        if re.search(rf"\\({pattern})(?![a-zA-Z])", tex)
    ]
    total = LINE + ROW * rows + max(tall, default=0.0)  # side by side: the taller counts
    if re.search(r"\\(under|over)brace(?![a-zA-Z])", tex):
        total += BRACE
    return round(min(total, TALLEST), 2)


def reserve(html: str) -> str:
    """``html`` with each lone display formula marked with the height it will take.

    Examples
    --------
    >>> reserve("<p>$$a \\\\frac{1}{2}$$</p>")
    '<p class="pe-tex-display" style="--pe-tex-h: 2.35em">$$a \\\\frac{1}{2}$$</p>'
    >>> reserve('<div class="arithmatex">\\\\[x\\\\]</div>')
    '<div class="arithmatex pe-tex-display" style="--pe-tex-h: 1.15em">\\\\[x\\\\]</div>'
    """

    def mark(match: re.Match[str]) -> str:
        if match.group("tex") is not None:
            tex = match.group("tex")
            return f'<p class="pe-tex-display" style="--pe-tex-h: {height(tex)}em">{tex}</p>'
        tex = match.group("md")
        return (
            f'<div class="arithmatex pe-tex-display" style="--pe-tex-h: {height(tex)}em">'
            f"{tex}</div>"
        )

    return DISPLAY.sub(mark, html)


def on_post_page(output: str, **_: Any) -> str:
    """Mark the display formulas of every page."""
    return reserve(output)
