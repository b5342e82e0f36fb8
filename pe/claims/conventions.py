"""Claims of the page "Conventions and pitfalls" (docs/conventions.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pe import bug_zoo, conventions, numeric, symbolic
from pe.claims import ROUNDING, Chapter, Check, Evidence, by_proof, checked
from pe.experiments import conventions as experiments
from pe.identify import identify
from pe.proofs import conventions as proofs
from pe.proofs import wrong
from pe.proofs.conventions import ShiftInLayout

claim = Chapter("conventions").claim

#: The true rule: :math:`P\,T_k\,P^{\mathsf T}` in every layout.
CONJUGATED = ShiftInLayout(proofs.conjugated)


def _layouts_proved(rule: ShiftInLayout) -> Evidence:
    shown = [proofs.layout_identity(layout, order, rule.build) for layout, order in rule.layouts]
    detail = "; ".join(p.summary() for p in shown)
    return Evidence("sympy", all(p.holds for p in shown), detail)


def _layouts_numeric(rule: ShiftInLayout) -> Evidence:
    worst, ratio = experiments.layout_shift_errors(rule)
    return checked(
        ratio <= 1.0,
        f"d=512, positions 200..1223, k in {experiments.OFFSETS}, {len(rule.layouts)} "
        f"layout(s), {rule.formula}: max error {worst:.2g}, worst error/tolerance {ratio:.2g}",
        error=ratio,
        tolerance=1.0,
    )


def _t2t_numeric(convention: conventions.Convention) -> Evidence:
    error = experiments.t2t_formula_error(convention)
    return checked(
        error < 1e-9,
        f"tensor2tensor table (via the paper's law, base 10000^(512/510)) vs its own "
        f"formula, d=512, 1000 rows: max difference {error:.2g}",
        error=error,
        tolerance=1e-9,
    )


def _one_indexed_numeric(exponent: Any) -> Evidence:
    d = 64
    value = float(exponent.subs(symbolic.D, d))
    error = experiments.one_indexed_error(value, d)
    return checked(
        error < 1e-12,
        f"one-indexed law vs columns 2..{d + 1} of the paper's table of width {d + 2} with "
        f"base 10000^{value:.6g}, d={d}, 1000 rows: max difference {error:.2g}",
    )


def _no_shift_matrix(make: Callable[[int, int], Any]) -> Evidence:
    error = conventions.linear_shift_error(make(4000, 16), 3)
    return checked(
        error > 0.1,
        f"best matrix mapping row p to row p+3, fitted on rows 0..1997 and applied to "
        f"rows 1998..3996 (d=16): largest error {error:.3g}",
    )


def _recovers(named: dict[str, conventions.Convention]) -> Evidence:
    cases, failures, bugs_named = experiments.recovery(named)
    return checked(
        not failures and bugs_named,
        f"{cases} tables ({len(named)} conventions x d in {experiments.WIDTHS} x "
        f"float64/float32): layout, order, offset, law, base and sine frequencies recovered "
        f"in {cases - len(failures)}; every bug of the zoo named: {bugs_named}"
        + (f"; failures: {failures[:3]}" if failures else ""),
    )


def _accepted(make: Callable[[], Any]) -> Evidence:
    result = identify(make())
    return checked(result.is_encoding, result.reason)


def _paper_table() -> Any:
    return numeric.sinusoidal(200, 64)


CLAIMS = (
    claim(
        "layout-shift-matrix",
        "The rotation identity in every layout",
        Check(
            _layouts_proved,
            true=CONJUGATED,
            wrong=(
                wrong.UNCONJUGATED_SHIFT,
                wrong.TRANSPOSED_CONJUGATION,
                wrong.COS_FIRST_UNCONJUGATED,
            ),
        ),
        Check(_layouts_numeric, true=CONJUGATED, wrong=(wrong.UNCONJUGATED_SHIFT,)),
        statement=(
            r"PE_L(p+k) = \bigl(P_L\,T_k\,P_L^{\mathsf T}\bigr)\,PE_L(p),\quad "
            r"PE_L = P_L\,PE \text{ in all four layouts}"
        ),
    ),
    claim(
        "cos-first-block",
        "In (cos, sin) order the block turns the other way",
        Check(
            by_proof(proofs.cos_first_block),
            true=proofs.cos_sin_block,
            wrong=(wrong.PAPER_BLOCK,),
        ),
        statement=(
            r"\begin{pmatrix} \cos\omega(p+k) \\ \sin\omega(p+k) \end{pmatrix} = "
            r"\begin{pmatrix} \cos k\omega & -\sin k\omega \\ \sin k\omega & \cos k\omega"
            r"\end{pmatrix} \begin{pmatrix} \cos\omega p \\ \sin\omega p \end{pmatrix}"
        ),
    ),
    claim(
        "t2t-law-is-paper-law",
        "tensor2tensor's law is the paper's with another base",
        Check(
            by_proof(proofs.t2t_equals_paper),
            true=proofs.t2t_exponent,
            wrong=(wrong.T2T_EXPONENT_D_MINUS_1, wrong.T2T_SAME_BASE),
        ),
        Check(_t2t_numeric, true=conventions.get("tensor2tensor"), loose=ROUNDING),
    ),
    claim(
        "one-indexed-law-is-wider-paper-law",
        "The one-indexed law is the paper's of width $d + 2$, first pair dropped, base changed",
        Check(
            by_proof(proofs.one_indexed_is_wider_paper),
            true=proofs.one_indexed_exponent,
            wrong=(wrong.ONE_INDEXED_SAME_BASE,),
        ),
        Check(
            _one_indexed_numeric,
            true=proofs.one_indexed_exponent,
            wrong=(wrong.ONE_INDEXED_SAME_BASE,),
        ),
    ),
    claim(
        "doubled-exponent-base",
        "The doubled exponent squares the base",
        Check(by_proof(proofs.doubled_exponent), true=2, wrong=(wrong.BASE_CUBED,)),
    ),
    claim(
        "column-index-bug-breaks-identity",
        r"With $i$ for $\lfloor i/2 \rfloor$, no matrix shifts the encoding",
        Check(
            _no_shift_matrix,
            true=bug_zoo.column_index_exponent,
            wrong=(wrong.PAPER_TABLE, wrong.SWAPPED_PARTNERS),
        ),
        statement=(
            r"\begin{gathered}\text{column-index bug: no sine frequency is a cosine frequency}"
            r" \implies \nexists M:\ M\,x(p) = x(p+k) \ \forall p; \\ \text{a mismatch"
            r" within pairs alone is not enough (the cosines may sit in other pairs)}"
            r"\end{gathered}"
        ),
    ),
    claim(
        "identify-recovers-conventions",
        "pe identify recovers every convention and names every bug",
        Check(_recovers, true=conventions.CONVENTIONS),
        Check(
            _accepted,
            true=_paper_table,
            wrong=(wrong.UNIFORM_NOISE_TABLE, wrong.NOISY_PAPER_TABLE, wrong.ZERO_TABLE),
        ),
        statement=(
            r"\texttt{identify}(\text{table}) \to \text{layout, order, offset, law, base, }"
            r"\omega_k \text{ (relative error} \le 10^{-6} \text{ float64}, 10^{-3} \text{ float32)}"
        ),
    ),
)
