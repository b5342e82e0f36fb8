"""LaTeX that fits the page's column: long sums shortened, long formulas split over lines.

The site never lets a formula run wider than its column (about :data:`ROW_BUDGET`
characters at 1280 px inside a fold). :func:`typeset_length` estimates how wide a piece of
LaTeX is once typeset; :func:`shortened` keeps the first terms of a long SymPy sum or
matrix and says how many it leaves out; :func:`split_lines` breaks a long formula over
aligned lines at its top-level ``+``, ``-`` and ``=``. Nothing is rewritten: the terms
shown are SymPy's own, in SymPy's order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import sympy as sp

from pe.symbolic import to_latex

__all__ = ["MAX_COLUMNS", "MAX_ROWS", "ROW_BUDGET", "shortened", "split_lines", "typeset_length"]

#: Characters, as typeset (:func:`typeset_length`), a row of a formula may take: about the
#: width of the content column at 1280 px inside a fold.
ROW_BUDGET = 80
#: Rows and columns of a matrix shown before the rest is summarised.
MAX_ROWS, MAX_COLUMNS = 8, 4

_SIZING = re.compile(r"\\(?:left|right|begin\{\w+\}|end\{\w+\})")
_SPACING = re.compile(r"[{}\s&]")
_COMMAND = re.compile(r"\\[A-Za-z]+")
_SCRIPT = re.compile(r"[_^]\{[^{}]*\}|[_^].")


def typeset_length(latex: str) -> float:
    r"""About how many characters wide ``latex`` is once typeset: commands count three (a
    function name), sub- and superscripts half, braces and spacing nothing.

    Examples
    --------
    >>> typeset_length(r"\sin{\left(a \omega_{i} \right)}")
    9.5
    """

    def width(text: str) -> int:
        return len(_SPACING.sub("", _COMMAND.sub("abc", _SIZING.sub("", text))))

    scripts = sum(width(m[1:]) for m in _SCRIPT.findall(latex)) / 2
    return width(_SCRIPT.sub("", latex)) + scripts


def _terms_latex(terms: Sequence[Any]) -> list[str]:
    """Each term's LaTeX with its sign in front (``+ x``, ``- y``; the first without ``+``)."""
    out = []
    for index, term in enumerate(terms):
        latex = to_latex(term)
        if index and not latex.startswith("-"):
            latex = "+ " + latex
        out.append(latex)
    return out


def _entry(expr: Any, budget: int) -> str:
    """LaTeX of ``expr``, cut after the terms that fit ``budget`` characters when it is a
    long sum (or, in a product, each long sum it multiplies), with the number of terms left
    out."""
    latex = to_latex(expr)
    if typeset_length(latex) <= budget:
        return latex
    if isinstance(expr, sp.Mul):
        factors = expr.as_ordered_factors()
        sign = "- " if factors[0] == -1 else ""
        factors = [f for f in factors if f != -1]
        sums = [f for f in factors if isinstance(f, sp.Add)]
        rest = typeset_length(" ".join(to_latex(f) for f in factors if f not in sums))
        share = max(int(budget - rest) // max(len(sums), 1), 12)
        shown = (
            rf"\left({_entry(f, share)}\right)" if isinstance(f, sp.Add) else to_latex(f)
            for f in factors
        )
        return sign + " ".join(shown)
    if not isinstance(expr, sp.Add):
        return latex
    ordered = expr.as_ordered_terms()
    terms = _terms_latex(ordered)
    if typeset_length(terms[0]) > budget:  # a long first term: shorten its own sums
        terms[0] = _entry(ordered[0], budget)
    kept: list[str] = []
    for term in terms:
        if kept and typeset_length(" ".join([*kept, term])) > budget:
            break
        kept.append(term)
    left = len(terms) - len(kept)
    if not left:
        return latex
    more = f"{left} more term{'s' if left > 1 else ''}"
    return f"{' '.join(kept)} + \\cdots\\ {{\\scriptsize \\text{{({more})}}}}"


def shortened(expr: Any, *, budget: int = ROW_BUDGET) -> str:
    r"""LaTeX of a SymPy expression or matrix, shortened to fit the page's column.

    A long sum keeps its first terms (about ``budget`` LaTeX characters per matrix row,
    shared by the row's entries) and says how many it leaves out; a matrix keeps its first
    :data:`MAX_ROWS` rows and :data:`MAX_COLUMNS` columns and marks the rest with dots, and
    one too wide as a grid is written one entry per line, ``(row, column):`` first.
    Nothing is rewritten: the terms shown are SymPy's own, in SymPy's order.

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> shortened(sum(x**n for n in range(40)), budget=12)
    'x^{39} + x^{38} + x^{37} + x^{36} + \\cdots\\ {\\scriptsize \\text{(36 more terms)}}'
    >>> shortened(sp.Matrix([[x, 0, 0, 0, 0, 0]]))
    '\\left[\\begin{matrix}x & 0 & 0 & 0 & \\cdots\\end{matrix}\\right]'
    """
    if not isinstance(expr, sp.MatrixBase):
        return _entry(expr, budget)
    rows, columns = expr.shape
    shown_rows, shown_columns = min(rows, MAX_ROWS), min(columns, MAX_COLUMNS)
    more_columns = [r"\cdots"] if columns > shown_columns else []
    cells = [
        [_entry(expr[r, c], max(budget // shown_columns, 12)) for c in range(shown_columns)]
        for r in range(shown_rows)
    ]
    if shown_columns > 1 and max(typeset_length(" ".join(row)) for row in cells) > budget:
        return _entries(expr, budget)  # too wide as a grid: one entry per line
    body = [" & ".join(row + more_columns) for row in cells]
    if rows > shown_rows:
        body.append(" & ".join([r"\vdots"] * (shown_columns + len(more_columns))))
    return r"\left[\begin{matrix}" + r" \\ ".join(body) + r"\end{matrix}\right]"


def _entries(matrix: Any, budget: int) -> str:
    """The entries of ``matrix`` one per line, ``(row, column):`` first (1-based)."""
    rows, columns = matrix.shape
    lines = [
        rf"({r + 1}, {c + 1})\colon\ & {_entry(matrix[r, c], budget)}"
        for r in range(min(rows, MAX_ROWS))
        for c in range(min(columns, MAX_COLUMNS))
    ]
    left = rows * columns - len(lines)
    if left:
        lines.append(rf"& \text{{({left} more entries)}}")
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


_OPENERS = re.compile(r"\\left\b|\\begin\{\w+\*?\}|(?<!\\)\{")
_CLOSERS = re.compile(r"\\right\b|\\end\{\w+\*?\}|(?<!\\)\}")
_BREAKS = (" - ", " + ", " = ", " \\overset{?}{=} ")


def _top_level_breaks(latex: str) -> list[int]:
    """Positions of ``-``, ``+`` and ``=`` between terms outside every brace, ``\\left``
    and environment of ``latex``."""
    depth, found, index = 0, [], 0
    while index < len(latex):
        opener, closer = _OPENERS.match(latex, index), _CLOSERS.match(latex, index)
        if opener:
            depth += 1
            index = opener.end()
            continue
        if closer:
            depth -= 1
            index = closer.end()
            continue
        if depth == 0 and index and latex.startswith(_BREAKS, index):
            found.append(index)
        index += 1
    return found


def split_lines(latex: str, *, budget: int = ROW_BUDGET) -> str:
    r"""``latex`` broken over aligned lines before a top-level ``+``, ``-`` or ``=`` so that
    each line holds about ``budget`` characters (unchanged when it is short or has no
    such break).

    Examples
    --------
    >>> split_lines(r"\frac{a}{b} + c - d", budget=6)
    '\\begin{aligned} & \\frac{a}{b} \\\\ & + c - d\\end{aligned}'
    >>> split_lines("x + y", budget=6)
    'x + y'
    """
    if typeset_length(latex) <= budget:
        return latex
    lines, start = [], 0
    for cut in _top_level_breaks(latex):
        rest = typeset_length(latex[start:])
        if typeset_length(latex[start:cut]) > budget * 0.5 and rest > budget:
            lines.append(latex[start:cut])
            start = cut + 1
    lines.append(latex[start:])
    if len(lines) == 1:
        return latex
    return r"\begin{aligned} & " + r" \\ & ".join(lines) + r"\end{aligned}"
