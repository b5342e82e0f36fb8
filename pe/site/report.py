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
column; :mod:`pe.site.latex_fit` says how.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import sympy as sp

from pe import claims
from pe.numeric import RotationCheck
from pe.site.html import Html, Row, code, escape, math, table
from pe.site.latex_fit import shortened, split_lines
from pe.symbolic import Proof, Step

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
    "statement",
    "title",
]

#: How a page words a wrong candidate's outcome: expected, not an error of the site.
REJECTED = "rejected, as expected"

_SYMPY_CALL = re.compile(r"\s*\(([a-z_]+)\)")


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
