"""Claims of the page "Conventions and pitfalls" (docs/conventions.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pe import _rotation_table, bug_zoo, conventions, numeric, symbolic, testing
from pe._tolerance import ELEMENTARY_ULPS, EPS64, Tolerance, exponential_rounding
from pe.claims import Chapter, Check, Evidence, by_proof, checked, within
from pe.experiments import conventions as experiments
from pe.experiments import precision
from pe.identify import identify
from pe.proofs import conventions as proofs
from pe.proofs import wrong
from pe.proofs.conventions import ShiftInLayout
from pe.proofs.wrong import Candidate

claim = Chapter("conventions").claim
#: The page "Testing your own code" (docs/testing.md) has no chapter module: its one claim,
#: on pe.testing's reading of tables, is declared here.
testing_claim = Chapter("testing").claim

#: The true rule: :math:`P\,T_k\,P^{\mathsf T}` in every layout.
CONJUGATED = ShiftInLayout(proofs.conjugated)


def _layouts_proved(rule: ShiftInLayout) -> Evidence:
    shown = [proofs.layout_identity(layout, order, rule.build) for layout, order in rule.layouts]
    detail = "; ".join(p.summary() for p in shown)
    return Evidence("sympy", all(p.holds for p in shown), detail)


def _layouts_numeric(rule: ShiftInLayout) -> Evidence:
    worst, ratio = experiments.layout_shift_errors(rule)
    return within(
        ratio,
        Tolerance(
            1.0,
            r"4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega_i(|p| + |k|) \text{ per entry}",
        ),
        f"d=512, positions 200..1223, k in {experiments.OFFSETS}, {len(rule.layouts)} "
        f"layout(s), {rule.formula}: max error {worst:.2g}, worst error/tolerance {ratio:.2g}",
    )


def _law_tolerance(frequency_error: float, reach: float) -> float:
    """pe's table (within its entry bound) against a float64 formula whose frequencies err
    by ``frequency_error`` (relative, both laws together): the formula's sine or cosine, and
    its angles up to ``reach`` with one more rounding."""
    angle = (frequency_error + EPS64 / 2) * reach
    return _rotation_table.ENTRY_ERROR_BOUND + ELEMENTARY_ULPS * EPS64 + angle


def _t2t_numeric(convention: conventions.Convention) -> Evidence:
    error = experiments.t2t_formula_error(convention)
    ln_base = float(np.log(10000.0))
    # the base 10000^(512/510): its exponent rounded once; tensor2tensor's frequencies
    # exp(-i ln(10000) / (h - 1)): the logarithm, the product and the quotient rounded
    frequency = exponential_rounding(ln_base, 1) + exponential_rounding(ln_base, 3)
    tolerance = _law_tolerance(frequency, 999.0)
    return within(
        error,
        Tolerance(tolerance, r"\delta + \varepsilon + (r_b + r_{t2t} + u)\,p\,\omega"),
        f"tensor2tensor table (via the paper's law, base 10000^(512/510)) vs its own "
        f"formula, d=512, 1000 rows: max difference {error:.2g} (tolerance {tolerance:.2g})",
    )


def _one_indexed_numeric(exponent: Any) -> Evidence:
    d = 64
    value = float(exponent.subs(symbolic.D, d))
    error = experiments.one_indexed_error(value, d)
    # the base 10000^(66/64) (a dyadic exponent: one power) and the one-indexed frequencies
    # 10000^(-2(k+1)/64) (dyadic too): two powers
    tolerance = _law_tolerance(2 * exponential_rounding(0.0, 0), 999.0)
    return within(
        error,
        Tolerance(tolerance, r"\delta + \varepsilon + (2\varepsilon + u)\,p\,\omega"),
        f"one-indexed law vs columns 2..{d + 1} of the paper's table of width {d + 2} with "
        f"base 10000^{value:.6g}, d={d}, 1000 rows: max difference {error:.2g} (tolerance "
        f"{tolerance:.2g})",
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


def _described(description: experiments.Description) -> Evidence:
    """Every named convention's table against the page's description of it, entry by entry."""
    worst, where = 0.0, ""
    for name, convention in conventions.CONVENTIONS.items():
        described, tolerance = experiments.described_table(convention, 1000, 64, description)
        ratio = float((np.abs(convention.table(1000, 64) - described) / tolerance).max())
        if ratio >= worst:
            worst, where = ratio, name
    return within(
        worst,
        Tolerance(1.0, r"6\varepsilon(1 + p\,\omega)(1 + |\ln \omega|) \text{ per entry}"),
        f"{len(conventions.CONVENTIONS)} conventions, d=64, 1000 rows, against the described "
        f"columns, laws and first positions: worst |difference| / 6 eps (1 + p w)(1 + |ln w|) "
        f"= {worst:.3g} ({where})",
    )


def _aliases_reported(make: Callable[[int, int], Any]) -> Evidence:
    found = identify(make(200, 64))
    largest = float(np.max(np.concatenate([found.sin_frequencies, found.cos_frequencies])))
    noted = any("above π" in note for note in found.notes)
    return checked(
        noted and largest <= np.pi,
        f"identify on the multiplying bug (200 x 64): a note on frequencies above π: "
        f"{'yes' if noted else 'no'}; largest frequency reported {largest:.6g} (π = {np.pi:.6g})",
    )


def _recipe_within(tolerance: Callable[[int, Any], float]) -> Evidence:
    """The float32 recipe's table against pe's float64 one, held to ``tolerance(n, float32)``;
    the doubled-exponent table (a wrong frequency) must exceed it."""
    exact = {n: numeric.sinusoidal(n, 256) for n in (64, 512, 2048)}
    ratios = {
        n: float(np.abs(precision.float32_recipe(np.arange(n), 256) - e).max())
        / tolerance(n, np.float32)
        for n, e in exact.items()
    }
    typo = float(np.abs(bug_zoo.doubled_exponent(2048, 256) - exact[2048]).max())
    caught = typo > tolerance(2048, np.float32)
    return checked(
        caught,
        "float32 recipe, d=256, worst |entry - exact| / atol(n): "
        + ", ".join(f"n={n}: {r:.3g}" for n, r in ratios.items())
        + f"; doubled exponent, n=2048: worst |difference| {typo:.3g} (rejected: {caught})",
        error=max(ratios.values()),
        tolerance=Tolerance(
            1.0,
            r"\mathrm{atol}(n) = 4\varepsilon_{32} + 2\varepsilon_{32}(n - 1) \text{ (pe.testing)}",
        ),
    )


def _uncertainty(exponent: float) -> Evidence:
    cosine, sine, slow = experiments.uncertainty_slopes()
    return checked(
        abs(cosine + exponent) <= 0.25 and abs(sine) <= 0.25,
        f"paper law, base 1e6, d=128, 256 rows, float32, {slow} slow pairs (θ < 1/2): "
        f"log-log slope of identify's relative uncertainty against θ: cosines {cosine:.3f}, "
        f"sines {sine:.3f} (stated: cosines -{exponent:g} ± 0.25, sines 0 ± 0.25)",
    )


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
        Check(_t2t_numeric, true=conventions.get("tensor2tensor")),
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
    claim(
        "conventions-as-described",
        "Every named convention is the table its description gives",
        Check(
            _described,
            true=experiments.DESCRIPTION,
            wrong=(
                wrong.T2T_DESCRIBED_WITH_HALF_WIDTH,
                wrong.FAIRSEQ_FROM_ONE,
                wrong.INTERLEAVED_SWAPPED,
            ),
        ),
        statement=(
            r"\begin{gathered}\text{pair } k \text{ in columns } 2k, 2k+1 \text{ (interleaved)"
            r" or } k, k + d/2 \text{ (halves)}; \\ \omega_k = b^{-2k/d},\ \exp(-k\ln b"
            r" / (d/2 - 1)),\ b^{-2(k+1)/d}; \text{ fairseq-style rows from position 2}"
            r"\end{gathered}"
        ),
    ),
    claim(
        "sin-cos-pair-turns-clockwise",
        r"The $(\sin, \cos)$ pair is $i e^{-i\theta}$: it turns clockwise",
        Check(
            by_proof(proofs.pair_as_phase),
            true=proofs.sin_first_phase,
            wrong=(wrong.COUNTER_CLOCKWISE_PHASE,),
        ),
        statement=(
            r"\cos\theta + i\sin\theta = e^{i\theta}, \qquad \sin\theta + i\cos\theta"
            r" = i\,e^{-i\theta}"
        ),
    ),
    claim(
        "slow-cosine-pins-less",
        r"A slow cosine pins its frequency only to about $\varepsilon/\theta^2$, its sine to about $\varepsilon$",
        Check(_uncertainty, true=2.0, wrong=(Candidate("ε/θ, like a linear column", 1.0),)),
        statement=(
            r"\begin{gathered}\sin\omega p \approx \omega p,\quad \cos\omega p \approx 1 -"
            r" (\omega p)^2/2: \\ \delta\omega/\omega \approx \varepsilon/\theta^2 \text{ from the"
            r" cosine, } \varepsilon \text{ from the sine},\ \theta = \omega(n - 1)"
            r" \text{ small}\end{gathered}"
        ),
    ),
    claim(
        "aliases-at-integer-positions",
        r"Above $\pi$ per position, a frequency cannot be told from its alias $2\pi - \omega$",
        Check(
            by_proof(proofs.alias_at_integers),
            true=proofs.integer_alias,
            wrong=(wrong.HALF_TURN_ALIAS,),
        ),
        Check(_aliases_reported, true=bug_zoo.multiplied),
        statement=(
            r"\begin{gathered}p \in \mathbb{Z}: \sin((2\pi - \omega)p) = -\sin\omega p,\ "
            r"\cos((2\pi - \omega)p) = \cos\omega p; \\ \texttt{identify} \text{ notes it and"
            r" reports frequencies in } [0, \pi]\end{gathered}"
        ),
    ),
    claim(
        "implementations-surveyed",
        "Who uses which convention, read from each implementation's public source",
        statement=(
            r"\text{layout, law, first position and odd-width handling of each implementation"
            r" listed, as read from its source file at the linked commit}"
        ),
        source="implementation-survey",
    ),
    claim(
        "packt-doubled-exponent",
        "A book's Python for the formula doubles the exponent",
        statement=(
            r"\text{Transformers for Natural Language Processing and Computer Vision (Packt, 2024),"
            r" page 32: a loop over } i = 0, 2, 4, \dots \text{ with the exponent } 2i/d"
        ),
        source="packt-transformers",
    ),
    testing_claim(
        "paper-tolerance-fits-the-recipe",
        r"assert_matches_paper's default atol, $4\varepsilon + 2\varepsilon(n - 1)$, admits the float32 recipe",
        Check(
            _recipe_within,
            true=testing.paper_tolerance,
            wrong=(wrong.FLAT_PAPER_TOLERANCE,),
        ),
        statement=(
            r"\begin{gathered}\texttt{atol}(n) = 4\varepsilon + 2\varepsilon(n - 1):\ "
            r"|\widehat{PE}_{\text{recipe}, 32} - PE| \le \texttt{atol}(n) \text{ for } n \in"
            r" \{64, 512, 2048\},\ d = 256; \text{ a doubled exponent exceeds it;} \\"
            r" \text{the paper's table: interleaved, sine first,"
            r" } \omega_i = 10000^{-2i/d}, \text{ from position } 0\end{gathered}"
        ),
    ),
)
