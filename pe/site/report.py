"""HTML for the site's executed pages: claims, proofs and checks, computed when shown.

Notebook pages call these functions and let Jupyter display the returned
:class:`~pe.site.html.Html` (through ``_repr_html_``), so a page never retypes a formula or
a number: the math comes from :mod:`pe.symbolic` and the chapters (:mod:`pe.chapters`), the numbers
from :mod:`pe.numeric` and the chapters, the verdicts from :mod:`pe.claims`. Showing a
claim that does not verify raises :class:`~pe.claims.ClaimFailedError`, which fails the
docs build.

The page reads first: a sentence carries at most one small mark ("checked", linking to its
claim on the Claims page), and the cards of a section's claims (statement, evidence, SymPy
proof and the wrong candidates each rejects) are gathered in one closed fold at the
section's end, "How we know" (:func:`how_we_know`). Long proof steps are shortened (the first
terms of each entry, then "... 48 more terms") so that no formula runs wider than the
column; :mod:`pe.site.latex_fit` says how.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence

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
    "fold",
    "how_we_know",
    "mark",
    "math",
    "proof",
    "proof_of",
    "reader_label",
    "statement",
    "title",
]

#: How a page words a wrong candidate's outcome: expected, not an error of the site.
REJECTED = "rejected, as expected"


def reader_label(step: Step) -> Html:
    """A proof step's words as a reader says them, the SymPy calls that did it set apart.

    The words and the calls are separate fields of the :class:`~pe.symbolic.Step`: the calls
    are shown small after the words, never parsed out of them.

    Examples
    --------
    >>> str(reader_label(Step("Apply the angle-addition formulas", "0", calls=("expand_trig",))))
    'Apply the angle-addition formulas <span class="pe-sympy">SymPy: <code>expand_trig</code></span>'
    >>> str(reader_label(Step("Substitute (Pythagoras)", "0")))
    'Substitute (Pythagoras)'
    """
    if not step.calls:
        return escape(step.words)
    names = ", ".join(code(name) for name in step.calls)
    return Html(f'{escape(step.words)} <span class="pe-sympy">SymPy: {names}</span>')


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
        f"<li><p>{reader_label(step)}</p>{math(_step_latex(step)) if step.latex else ''}</li>"
        for step in result.steps
    )
    if result.holds:
        outcome = "The residual is exactly 0: the statement holds."
    elif result.counterexample is not None:
        point = math(result.counterexample.latex())
        outcome = f"Disproved: at an exact point the residual is not zero, {point}"
    else:
        outcome = f"Not decided ({escape(result.reason)}): not a disproof."
    return Html(
        f'<div class="pe-proof"><p><strong>Statement</strong> ({escape(result.name)})</p>'
        f"{math(result.statement)}<ol>{steps}</ol>"
        f'<p class="pe-outcome">{outcome}</p></div>'
    )


def _steps(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''}"


def proof(result: Proof, *, summary: str = "Show the") -> Html:
    """A SymPy proof in a closed fold: "Show the SymPy proof, 6 steps".

    ``summary`` opens the fold's label: ``"How the machine checked it: the"`` reads "How the
    machine checked it: the SymPy proof, 6 steps", under a derivation the page displays.
    A reduction whose residual does not vanish (a wrong candidate fed to the proof) is
    labelled as such, in the same quiet style: it is the expected outcome on the page.

    Examples
    --------
    >>> from pe.chapters import rotation_identity as proofs
    >>> shown = proof(proofs.rotation_identity(), summary="How the machine checked it: the")
    >>> shown.startswith('<details class="pe-fold"><summary>How the machine checked it: the SymPy')
    True
    """
    kind = "SymPy proof" if result.holds else "SymPy reduction (the residual does not vanish)"
    return Html(
        f'<details class="pe-fold"><summary>{escape(summary)} {kind}, '
        f"{_steps(len(result.steps))}</summary>{_proof_body(result)}</details>"
    )


def proof_of(claim_id: str, which: int = 0, *, summary: str = "Show the") -> Html:
    """The SymPy proof number ``which`` (from 0) behind claim ``claim_id``, as the registry
    ran it (:func:`pe.claims.proofs`), in a closed fold (:func:`proof`): a page shows the
    proof that verified its claim, never a second run of it.

    Examples
    --------
    >>> proof_of("rotation-identity").startswith('<details class="pe-fold"><summary>Show the')
    True
    """
    found = claims.proofs(claim_id)
    if not 0 <= which < len(found):
        raise ValueError(f"claim {claim_id!r} has {len(found)} SymPy proofs, not {which + 1}")
    return proof(found[which], summary=summary)


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
    """One item per piece of evidence; two that read the same (one wrong candidate rejected
    the same way by two checks) are shown once."""
    lines = (
        f'<li><span class="pe-tag">{mark}</span> {code(e.method)} {escape(e.shown)}</li>'
        for e in items
    )
    return Html("".join(dict.fromkeys(lines)))


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
    result = _verified(claim_id)
    wanted = range(len(result.evidence)) if proofs is True else (proofs or ())
    shown = [e.proof for i, e in enumerate(result.evidence) if i in wanted and e.proof is not None]
    bodies = {_proof_body(p): len(p.steps) for p in shown}  # a proof behind two checks: once
    rejected = _candidates(result)
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


def check_table(results: Iterable[RotationCheck], grid: tuple[str, str] | None = None) -> Html:
    """A table of numeric rotation-identity checks with the error model's tolerances;
    ``grid``: the positions and offsets written out, instead of their counts."""
    return table(
        [
            "d",
            "dtype",
            "positions",
            "offsets",
            "max |error|",
            "where",
            "tolerance there",
            "worst error / its tolerance, any entry",
            "verdict",
        ],
        (
            [
                r.d_model,
                r.dtype,
                r.n_positions if grid is None else grid[0],
                r.n_offsets if grid is None else grid[1],
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
    its page (the source to its bibliography entry); one table per page, in site order,
    each in a closed fold that names the page and counts its claims.

    Without ``results``, every registered claim is verified now. Each entry has the id
    ``claim-<id>``, the target of the marks on the chapter pages (the theme's script opens
    the fold of the entry a link points to, on load and when the fragment changes). The
    folds keep the page light: about 150 statements, with their formulas, laid out at once
    kept a phone busy for a second.

    Raises
    ------
    pe.claims.ClaimFailedError
        If any claim does not verify (fails the docs build).
    """
    results = tuple(claims.verify_all() if results is None else results)
    failed = [r.id for r in results if not r.ok]
    if failed:
        raise claims.ClaimFailedError(f"claims that do not verify: {', '.join(failed)}")
    parts = []
    for page, grouped in itertools.groupby(results, key=lambda r: r.page):
        shown = tuple(grouped)
        rows = (
            Row(
                [
                    Html(f'<a href="../{r.page}/#claim-{r.id}">{code(r.id)}</a>'),
                    _status(
                        r.holds, "cited" if r.method == "source" else "verified", "does not hold"
                    ),
                    _METHODS.get(r.method, r.method),
                    f"{_candidates(r)} rejected" if r.controls_rejected else "one ACCEPTED",
                    _source_cell(r),
                ],
                below=Html(f"{title(r.title)}{statement(r.statement)}"),
                id=f"claim-{r.id}",
            )
            for r in shown
        )
        header = ["claim", "status", "method", "wrong candidates", "source"]
        cited = sum(r.method == "source" for r in shown)
        kinds = [
            f"{n} {kind}" for n, kind in ((len(shown) - cited, "verified"), (cited, "cited")) if n
        ]
        summary = (
            f"Shown on {page}: {len(shown)} claim{'s' * (len(shown) > 1)}, {' and '.join(kinds)}"
        )
        parts.append(fold(summary, table(header, rows, css_class="pe-table pe-claims")))
    return Html("".join(parts))


def fold(summary: str, *content: Html) -> Html:
    """``content`` (a figure, a table) in a closed fold labelled ``summary``: what a reader
    opens to look closer, below the story.

    Examples
    --------
    >>> str(fold("Show the table", Html("<table></table>")))
    '<details class="pe-fold"><summary>Show the table</summary><table></table></details>'
    """
    return Html(
        f'<details class="pe-fold"><summary>{escape(summary)}</summary>{"".join(content)}</details>'
    )


def mark(claim_id: str) -> Html:
    """The small inline mark of a claim, verified now: "checked" ("cited" for a claim that
    rests on its source alone), linking to its entry on the Claims page. It is what a
    ``[checked](claims.py#claim-ID)`` link in a page's prose becomes, for HTML built by
    ``pe.site`` (an exercise's answer).

    Examples
    --------
    >>> str(mark("shift-composition"))[:75]
    '<a class="pe-mark pe-checked" href="../claims/#claim-shift-composition" tit'

    Raises
    ------
    pe.claims.ClaimFailedError
        If the claim does not verify.
    """
    result = _verified(claim_id)
    cited = result.method == "source"
    what = f"Cited from {result.source}: claim" if cited else "Checked by claim"
    return Html(
        f'<a class="pe-mark pe-checked" href="../claims/#claim-{result.id}" '
        f'title="{what} {escape(result.id)} (Claims page)">{"cited" if cited else "checked"}</a>'
    )


def _verified(claim_id: str) -> claims.ClaimResult:
    result = claims.verify(claim_id)
    if not result.ok:
        raise claims.ClaimFailedError(
            f"claim {claim_id!r} does not verify: "
            + "; ".join(e.text for e in result.evidence + result.controls)
        )
    return result


def _candidates(result: claims.ClaimResult) -> int:
    """How many wrong candidates a claim rejected, each counted once however many of its
    checks it was fed to (by name: "causal mask" rejected by a proof and a measurement)."""
    return len({name for names in result.candidate_names for name in names})


def how_we_know(
    *claim_ids: str,
    proofs: bool | Mapping[str, bool | Sequence[int]] = False,
    more: Sequence[Html] = (),
) -> Html:
    """The cards of a section's claims, gathered in one closed fold at the section's end.

    The fold reads "How we know: 3 claims verified at build, 7 wrong candidates rejected"
    (a claim resting on its source alone counts as "cited"); inside, each claim's card
    (:func:`claim`), then ``more`` (a SymPy transcript, a table of measurements). The cards
    show the SymPy proofs of every claim with ``proofs=True``, or per claim with a mapping
    (``{"id": True}`` for all its proofs, ``{"id": [0]}`` for its first evidence's only).

    Raises
    ------
    ValueError
        If no claim is given, or one twice (its card's id would repeat on the page).
    pe.claims.ClaimFailedError
        If a claim does not verify.
    """
    if not claim_ids or len(set(claim_ids)) != len(claim_ids):
        raise ValueError(f"how_we_know needs distinct claims, got {claim_ids!r}")
    chosen: Mapping[str, bool | Sequence[int]] = (
        dict.fromkeys(claim_ids, proofs) if isinstance(proofs, bool) else proofs
    )
    unknown = set(chosen) - set(claim_ids)
    if unknown:
        raise ValueError(f"proofs for claims not shown: {sorted(unknown)}")
    results = [_verified(claim_id) for claim_id in claim_ids]
    cards = "".join(claim(r.id, proofs=chosen.get(r.id, False)) for r in results)
    cited = sum(r.method == "source" for r in results)
    checked = len(results) - cited
    rejected = sum(_candidates(r) for r in results)
    parts = []
    if checked:
        parts.append(f"{checked} claim{'s' if checked != 1 else ''} verified at build")
    if cited:
        parts.append(f"{cited} cited")
    if rejected:
        parts.append(f"{rejected} wrong candidate{'s' if rejected != 1 else ''} rejected")
    return Html(
        f'<details class="pe-fold pe-how"><summary>How we know: {", ".join(parts)}</summary>'
        f"{cards}{''.join(more)}</details>"
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
        The registered claim that proves the answer: its mark ends the answer (the card
        itself stands in the section that states the claim, not again here).
    """
    checked = f" {mark(claim_id)}" if claim_id is not None else ""
    return Html(
        f'<div class="pe-exercise"><p><strong>Exercise.</strong> {question}</p>'
        f"<details><summary>Answer</summary><p>{answer}{checked}</p></details></div>"
    )
