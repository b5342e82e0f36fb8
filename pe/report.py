"""HTML for the site's executed pages: claims, proofs and checks, computed when shown.

Notebook pages call these functions and let Jupyter display the returned :class:`Html`
(through ``_repr_html_``), so a page never retypes a formula or a number: the math comes
from :mod:`pe.symbolic`, the numbers from :mod:`pe.numeric`, the verdicts from
:mod:`pe.claims`. Showing a claim that does not verify raises
:class:`~pe.claims.ClaimFailedError`, which fails the docs build.

Math is written with ``\\( \\)`` and ``\\[ \\]`` delimiters for the site's MathJax.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from pe import claims
from pe.numeric import RotationCheck
from pe.symbolic import Proof

__all__ = ["Html", "check_table", "claim", "claims_table", "exercise", "math", "proof"]


class Html(str):
    """A string of HTML that Jupyter displays as HTML."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def math(latex: str, *, display: bool = True) -> str:
    """LaTeX wrapped in MathJax delimiters, HTML-escaped (``<`` stays literal for MathJax)."""
    body = html.escape(latex, quote=False)
    return f"\\[{body}\\]" if display else f"\\({body}\\)"


def _verdict(ok: bool) -> str:
    return (
        '<span class="pe-verdict pe-ok">holds</span>'
        if ok
        else '<span class="pe-verdict pe-fail">FAILS</span>'
    )


def claim(claim_id: str) -> Html:
    """A card for one claim: statement, evidence and controls, verified now.

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
    evidence = "".join(
        f"<li><code>{e.method}</code> {html.escape(e.detail)}</li>" for e in result.evidence
    )
    controls = "".join(
        f"<li><code>{e.method}</code> {html.escape(e.detail)}</li>" for e in result.controls
    )
    return Html(
        f'<div class="pe-claim" id="claim-{result.id}">'
        f'<p class="pe-claim-head"><strong>Claim <code>{result.id}</code></strong>: '
        f"{html.escape(result.title)} {_verdict(result.ok)} "
        f'<span class="pe-method">({result.method}, verified at build)</span></p>'
        f"{math(result.statement)}"
        f"<details><summary>Evidence and wrong candidates rejected</summary>"
        f"<p>Evidence (all must hold):</p><ul>{evidence}</ul>"
        f"<p>Wrong candidates (all must fail):</p><ul>{controls}</ul></details></div>"
    )


def proof(result: Proof) -> Html:
    """The statement and the numbered rewrite steps of a SymPy proof, as rendered math."""
    steps = "".join(
        f"<li><p>{html.escape(step.title)}</p>{math(step.latex)}</li>" for step in result.steps
    )
    return Html(
        f'<div class="pe-proof"><p><strong>Statement</strong> ({html.escape(result.name)})</p>'
        f"{math(result.statement)}<ol>{steps}</ol>"
        f"<p><strong>Verdict:</strong> {_verdict(result.holds)}: "
        f"{html.escape(result.summary())}.</p></div>"
    )


def check_table(results: Iterable[RotationCheck]) -> Html:
    """A table of numeric rotation-identity checks with the error model's tolerances."""
    rows = "".join(
        f"<tr><td>{r.d_model}</td><td>{r.dtype}</td><td>{r.n_positions}</td>"
        f"<td>{r.n_offsets}</td><td>{r.max_abs_error:.3g}</td>"
        f"<td>p={r.position}, k={r.offset}, column {r.column}</td>"
        f"<td>{r.tolerance:.3g}</td><td>{r.worst_ratio:.3g}</td><td>{_verdict(r.passed)}</td></tr>"
        for r in results
    )
    return Html(
        '<table class="pe-table"><thead><tr><th>d</th><th>dtype</th><th>positions</th>'
        "<th>offsets</th><th>max |error|</th><th>where</th><th>tolerance there</th>"
        "<th>worst error / tolerance</th><th>verdict</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def claims_table(results: Iterable[claims.ClaimResult]) -> Html:
    """The table of every claim with its status, linking to the page that shows it."""
    rows = []
    for r in results:
        link = f"../{r.page}/#claim-{r.id}"
        rows.append(
            f'<tr><td><a href="{link}"><code>{r.id}</code></a></td>'
            f"<td>{html.escape(r.title)}<br>{math(r.statement, display=False)}</td>"
            f"<td>{r.method}</td><td>{_verdict(r.holds)}</td>"
            f"<td>{'all rejected' if r.controls_rejected else 'ACCEPTED'}</td></tr>"
        )
    return Html(
        '<table class="pe-table"><thead><tr><th>claim</th><th>statement</th><th>method</th>'
        "<th>status</th><th>wrong candidates</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
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
