"""HTML for the site's executed pages: claims, proofs and checks, computed when shown.

Notebook pages call these functions and let Jupyter display the returned
:class:`~pe.site.html.Html` (through ``_repr_html_``), so a page never retypes a formula or
a number: the math comes from :mod:`pe.symbolic` and :mod:`pe.proofs`, the numbers from
:mod:`pe.numeric` and :mod:`pe.experiments`, the verdicts from :mod:`pe.claims`. Showing a
claim that does not verify raises :class:`~pe.claims.ClaimFailedError`, which fails the
docs build.
"""

from __future__ import annotations

from collections.abc import Iterable

from pe import claims
from pe.numeric import RotationCheck
from pe.site.html import Html, code, escape, math, table
from pe.symbolic import Proof

__all__ = ["Html", "check_table", "claim", "claims_table", "exercise", "math", "proof"]


def _verdict(ok: bool) -> Html:
    return Html(
        '<span class="pe-verdict pe-ok">holds</span>'
        if ok
        else '<span class="pe-verdict pe-fail">FAILS</span>'
    )


def _evidence_list(items: Iterable[claims.Evidence]) -> Html:
    return Html("".join(f"<li>{code(e.method)} {escape(e.detail)}</li>" for e in items))


def claim(claim_id: str, *, proofs: bool = False) -> Html:
    """A card for one claim: statement, evidence and controls, verified now.

    With ``proofs``, the SymPy proofs behind the claim are shown step by step below the card
    (a proof that backs two checks is shown once).

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
    shown = "".join(
        dict.fromkeys(proof(e.proof) for e in result.evidence if proofs and e.proof is not None)
    )
    return Html(
        f'<div class="pe-claim" id="claim-{result.id}">'
        f'<p class="pe-claim-head"><strong>Claim {code(result.id)}</strong>: '
        f"{escape(result.title)} {_verdict(result.ok)} "
        f'<span class="pe-method">({result.method}, verified at build)</span></p>'
        f"{math(result.statement)}"
        f"<details><summary>Evidence and wrong candidates rejected</summary>"
        f"<p>Evidence (all must hold):</p><ul>{_evidence_list(result.evidence)}</ul>"
        f"<p>Wrong candidates (all must fail):</p><ul>{_evidence_list(result.controls)}</ul>"
        f"</details></div>{shown}"
    )


def proof(result: Proof) -> Html:
    """The statement and the numbered rewrite steps of a SymPy proof, as rendered math."""
    steps = "".join(
        f"<li><p>{escape(step.title)}</p>{math(step.latex)}</li>" for step in result.steps
    )
    return Html(
        f'<div class="pe-proof"><p><strong>Statement</strong> ({escape(result.name)})</p>'
        f"{math(result.statement)}<ol>{steps}</ol>"
        f"<p><strong>Verdict:</strong> {_verdict(result.holds)}: "
        f"{escape(result.summary())}.</p></div>"
    )


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
                _verdict(r.passed),
            ]
            for r in results
        ),
    )


def claims_table(results: Iterable[claims.ClaimResult] | None = None) -> Html:
    """The table of every claim with its status, linking to the page that shows it.

    Without ``results``, every registered claim is verified now.

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
        ["claim", "statement", "method", "status", "wrong candidates"],
        (
            [
                Html(f'<a href="../{r.page}/#claim-{r.id}">{code(r.id)}</a>'),
                Html(f"{escape(r.title)}<br>{math(r.statement, display=False)}"),
                r.method,
                _verdict(r.holds),
                "all rejected" if r.controls_rejected else "ACCEPTED",
            ]
            for r in results
        ),
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
