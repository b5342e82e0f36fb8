"""HTML for the site's executed pages: claims, proofs and checks, computed when shown.

Notebook pages call these functions and let Jupyter display the returned
:class:`~pe.site.html.Html` (through ``_repr_html_``), so a page never retypes a formula or
a number: the math comes from :mod:`pe.symbolic` and :mod:`pe.proofs`, the numbers from
:mod:`pe.numeric` and :mod:`pe.experiments`, the verdicts from :mod:`pe.claims`. Showing a
claim that does not verify raises :class:`~pe.claims.ClaimFailedError`, which fails the
docs build.

The page reads first: a claim shows as a one-line mark ("verified at build", linking to its
entry on the Claims page), and its statement, evidence, SymPy proof and the wrong
candidates it rejects sit in a closed fold below. Long proof steps are shortened (the first
terms of each entry, then "... 48 more terms") so that no formula runs wider than the
column; :func:`shortened` says how.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import sympy as sp

from pe import claims
from pe.numeric import RotationCheck
from pe.site.html import Html, Row, code, escape, math, table
from pe.symbolic import Proof, Step, to_latex

__all__ = [
    "REJECTED",
    "Html",
    "check_table",
    "claim",
    "claims_table",
    "exercise",
    "math",
    "proof",
    "reader_label",
    "shortened",
    "split_lines",
    "statement",
    "title",
]

#: How a page words a wrong candidate's outcome: expected, not an error of the site.
REJECTED = "rejected, as expected"

#: Characters, as typeset (:func:`typeset_length`), a row of a formula may take: about the
#: width of the content column at 1280 px inside a fold.
ROW_BUDGET = 80
#: Rows and columns of a matrix shown before the rest is summarised.
MAX_ROWS, MAX_COLUMNS = 8, 4

_SYMPY_CALL = re.compile(r"\s*\(([a-z_]+)\)")
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


def reader_label(title: str) -> Html:
    """A proof step's title in the words a reader uses, the SymPy call set apart.

    ``"Collect terms (expand)"`` reads "Collect terms" with ``expand`` shown small after
    it; a parenthesis that is not a SymPy function (``(Pythagoras)``) stays in the text.

    Examples
    --------
    >>> str(reader_label("Apply the angle-addition formulas (expand_trig)"))
    'Apply the angle-addition formulas <span class="pe-sympy">SymPy: <code>expand_trig</code></span>'
    >>> str(reader_label("Substitute (Pythagoras)"))
    'Substitute (Pythagoras)'
    """
    calls = [name for name in _SYMPY_CALL.findall(title) if callable(getattr(sp, name, None))]
    text = _SYMPY_CALL.sub(lambda m: "" if m.group(1) in calls else m.group(0), title)
    if not calls:
        return escape(text)
    names = ", ".join(code(name) for name in calls)
    return Html(f'{escape(text)} <span class="pe-sympy">SymPy: {names}</span>')


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


def _step_latex(step: Step) -> str:
    return shortened(step.expr) if step.expr is not None else split_lines(step.latex)


#: A statement that is words only: one ``\text{...}`` with no formula inside.
_WORDS_ONLY = re.compile(r"\\text\{([^{}$]*)\}")


def statement(latex: str) -> Html:
    r"""A claim's statement: typeset math, or a paragraph where it is words only.

    A cited fact is often a sentence in ``\text{...}``; as math it cannot wrap, so it is
    shown as text, which wraps to the column.

    Examples
    --------
    >>> str(statement(r"\text{about 80\% longer}"))
    '<p class="pe-statement">about 80% longer</p>'
    """
    words = _WORDS_ONLY.fullmatch(latex.strip())
    if words is None:
        return math(latex)
    return Html(f'<p class="pe-statement">{escape(words.group(1).replace(chr(92) + "%", "%"))}</p>')


def _proof_body(result: Proof) -> Html:
    """The statement, the numbered steps and the outcome of a proof (no fold)."""
    steps = "".join(
        f"<li><p>{reader_label(step.title)}</p>{math(_step_latex(step)) if step.latex else ''}</li>"
        for step in result.steps
    )
    outcome = (
        "The residual is exactly 0: the statement holds."
        if result.holds
        else "The residual does not reduce to 0."
    )
    return Html(
        f'<div class="pe-proof"><p><strong>Statement</strong> ({escape(result.name)})</p>'
        f"{math(result.statement)}<ol>{steps}</ol>"
        f'<p class="pe-outcome">{outcome}</p></div>'
    )


def _steps(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''}"


def proof(result: Proof) -> Html:
    """A SymPy proof in a closed fold: "Show the SymPy proof, 6 steps".

    A reduction whose residual does not vanish (a wrong candidate fed to the proof) is
    labelled as such, in the same quiet style: it is the expected outcome on the page.
    """
    kind = "SymPy proof" if result.holds else "SymPy reduction (the residual does not vanish)"
    return Html(
        f'<details class="pe-fold"><summary>Show the {kind}, {_steps(len(result.steps))}'
        f"</summary>{_proof_body(result)}</details>"
    )


_INLINE_TEX = re.compile(r"\$([^$]+)\$")


def title(text: str) -> Html:
    r"""A claim's title as HTML: its text escaped, each ``$...$`` typeset as inline math.

    Titles are plain words with inline TeX between dollar signs (``"$T_k$ is a rotation"``);
    the registry keeps that source (``pe verify --json`` shows it as written).

    Examples
    --------
    >>> print(title("$T_k$ is a rotation & more"))
    \(T_k\) is a rotation &amp; more

    Raises
    ------
    ValueError
        If a ``$`` is left unpaired.
    """
    if text.count("$") % 2:
        raise ValueError(f"claim title with an unpaired $: {text!r}")
    parts = _INLINE_TEX.split(text)  # text, math, text, math, ..., text
    return Html(
        "".join(math(p, display=False) if i % 2 else escape(p) for i, p in enumerate(parts))
    )


def _evidence_list(items: Iterable[claims.Evidence], mark: str) -> Html:
    return Html(
        "".join(
            f'<li><span class="pe-tag">{mark}</span> {code(e.method)} {escape(e.detail)}</li>'
            for e in items
        )
    )


def claim(claim_id: str, *, proofs: bool | Sequence[int] = False) -> Html:
    """A claim as a one-line mark, its statement and evidence folded below, verified now.

    The mark reads "verified at build" and links to the claim's entry on the Claims page;
    a claim that rests on its source alone (no checks) reads "cited". A claim with a
    source names it, linking to its entry in the bibliography.
    The fold holds the statement, each piece of evidence, the wrong candidates (each
    "rejected, as expected") and, with ``proofs``, the SymPy proofs step by step: ``True``
    for every proof of the claim, or the indices of the pieces of evidence whose proofs
    to show (a proof that backs two checks is shown once).

    Raises
    ------
    pe.claims.ClaimFailedError
        If the evidence does not hold or a wrong candidate is accepted.
    """
    result = claims.verify(claim_id)
    if not result.ok:
        raise claims.ClaimFailedError(
            f"claim {claim_id!r} does not verify: "
            + "; ".join(e.detail for e in result.evidence + result.controls)
        )
    wanted = range(len(result.evidence)) if proofs is True else (proofs or ())
    shown = [e.proof for i, e in enumerate(result.evidence) if i in wanted and e.proof is not None]
    bodies = {_proof_body(p): len(p.steps) for p in shown}  # a proof behind two checks: once
    rejected = len(result.controls)
    if shown:
        opener = f"Show the SymPy proof, {_steps(sum(bodies.values()))}"
    else:
        opener = "Show the statement and the evidence"
    body = "".join(bodies)
    cited = result.method == "source"
    mark = "cited" if cited else "verified at build"
    if cited:
        opener, evidence = "Show the statement and its source", Html("")
    else:
        evidence = Html(
            f"<p>Evidence (all must hold):</p><ul>{_evidence_list(result.evidence, 'holds')}</ul>"
            f"<p>Wrong candidates (each must be rejected):</p>"
            f"<ul>{_evidence_list(result.controls, REJECTED)}</ul>"
        )
        opener += f"; {rejected} wrong candidate{'s' if rejected != 1 else ''} rejected"
    return Html(
        f'<div class="pe-claim" id="claim-{result.id}">'
        f'<p class="pe-claim-head"><a class="pe-mark" href="../claims/#claim-{result.id}" '
        f'title="Claim {result.id} on the Claims page">{mark}</a> '
        f'<span class="pe-claim-title">{title(result.title)}</span>{_citation(result)}</p>'
        f'<details class="pe-fold"><summary>{opener}</summary>'
        f"<p>Claim {code(result.id)} ({result.method}):</p>{statement(result.statement)}"
        f"{evidence}{body}</details></div>"
    )


def _citation(result: claims.ClaimResult) -> Html:
    """The claim's source as a link to its bibliography entry ("" for a claim of pe's own).

    A source claim with no checks is "cited" (nothing in the work could be recomputed);
    one with checks was also "recomputed" from the work's own formula or table.
    """
    if result.source is None:
        return Html("")
    how = "cited from" if result.method == "source" else "recomputed from"
    return Html(
        f' <span class="pe-claim-source">{how} '
        f'<a href="bibliography.md#{escape(result.source)}">{escape(result.source)}</a></span>'
    )


def _status(ok: bool, yes: str, no: str) -> Html:
    css = "pe-ok" if ok else "pe-off"
    return Html(f'<span class="pe-verdict {css}">{yes if ok else no}</span>')


def check_table(results: Iterable[RotationCheck]) -> Html:
    """A table of numeric rotation-identity checks with the error model's tolerances."""
    return table(
        [
            "d",
            "dtype",
            "positions",
            "offsets",
            "max |error|",
            "where",
            "tolerance there",
            "worst error / tolerance",
            "verdict",
        ],
        (
            [
                r.d_model,
                r.dtype,
                r.n_positions,
                r.n_offsets,
                f"{r.max_abs_error:.3g}",
                f"p={r.position}, k={r.offset}, column {r.column}",
                f"{r.tolerance:.3g}",
                f"{r.worst_ratio:.3g}",
                _status(r.passed, "within", "outside"),
            ]
            for r in results
        ),
    )


_METHODS = {
    "sympy": "SymPy proof",
    "numpy": "NumPy check",
    "sympy+numpy": "SymPy and NumPy",
    "source": "cited",
}


def _source_cell(result: claims.ClaimResult) -> Html | str:
    """The source of a claim as a link to the bibliography, or "-" for pe's own claims."""
    if result.source is None:
        return "-"
    return Html(f'<a href="bibliography.md#{escape(result.source)}">{escape(result.source)}</a>')


def claims_table(results: Iterable[claims.ClaimResult] | None = None) -> Html:
    """Every claim: its id, status and source on one line, its statement below, linking to
    its page (the source to its bibliography entry).

    Without ``results``, every registered claim is verified now. Each entry has the id
    ``claim-<id>``, the target of the marks on the chapter pages.

    Raises
    ------
    pe.claims.ClaimFailedError
        If any claim does not verify (fails the docs build).
    """
    results = tuple(claims.verify_all() if results is None else results)
    failed = [r.id for r in results if not r.ok]
    if failed:
        raise claims.ClaimFailedError(f"claims that do not verify: {', '.join(failed)}")
    return table(
        ["claim", "status", "method", "wrong candidates", "source"],
        (
            Row(
                [
                    Html(f'<a href="../{r.page}/#claim-{r.id}">{code(r.id)}</a>'),
                    _status(
                        r.holds, "cited" if r.method == "source" else "verified", "does not hold"
                    ),
                    _METHODS.get(r.method, r.method),
                    f"{len(r.controls)} rejected" if r.controls_rejected else "one ACCEPTED",
                    _source_cell(r),
                ],
                below=Html(f"{title(r.title)}{statement(r.statement)}"),
                id=f"claim-{r.id}",
            )
            for r in results
        ),
        css_class="pe-table pe-claims",
    )


def exercise(question: str, answer: str, *, claim_id: str | None = None) -> Html:
    """An exercise with its answer folded below it.

    Parameters
    ----------
    question
        The question, as HTML (math with ``\\( \\)`` delimiters).
    answer
        The answer, as HTML, computed by the page (never typed-in numbers).
    claim_id
        The registered claim that proves the answer, shown (and verified) inside the fold.
    """
    card = claim(claim_id) if claim_id is not None else ""
    return Html(
        f'<div class="pe-exercise"><p><strong>Exercise.</strong> {question}</p>'
        f"<details><summary>Answer</summary><p>{answer}</p>{card}</details></div>"
    )
