"""Claims of the page "Conventions and pitfalls" (docs/conventions.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from pe import bug_zoo, conventions, numeric, symbolic
from pe.claims import Claim, Evidence, checked, proved
from pe.conventions import LAYOUTS, Layout, Order
from pe.identify import identify
from pe.symbolic import BASE, Derivation, K, P, Proof

PAGE = "conventions"

#: Width of the exact layout proofs.
PROOF_WIDTH = 8


# --------------------------------------------------------------------------- layouts


def _paper_vector(position: Any, omegas: list[Any]) -> Any:
    entries: list[Any] = []
    for w in omegas:
        entries.extend([sp.sin(w * position), sp.cos(w * position)])
    return sp.Matrix(entries)


def _sympy_permutation(
    d_model: int, layout: Layout, order: Order, *, transpose: bool = False
) -> Any:
    matrix = conventions.permutation_matrix(d_model, ("interleaved", "sin-first"), (layout, order))
    exact = sp.Matrix(d_model, d_model, [int(v) for v in matrix.ravel()])
    return exact.T if transpose else exact


#: How a candidate shift matrix is built from T_k and P: "conjugated" is P T P^T (true).
Candidate = str


def layout_identity(
    layout: Layout, order: Order, candidate: Candidate = "conjugated", d_model: int = PROOF_WIDTH
) -> Proof:
    r"""Prove :math:`(P T_k P^{\mathsf T})\,(P\,PE(p)) = P\,PE(p+k)` exactly for one layout.

    ``P`` is the permutation matrix from the paper's layout to ``(layout, order)``;
    :math:`\omega_i = \mathrm{base}^{-2i/d}` with a symbolic base and exact exponents, ``p``
    and ``k`` symbolic. ``candidate`` selects the matrix tried: ``"conjugated"``
    (:math:`P T_k P^{\mathsf T}`, the true one), ``"unconjugated"`` (the paper's
    :math:`T_k` as is) or ``"transposed"`` (:math:`P^{\mathsf T} T_k P`).
    """
    omegas = [BASE ** sp.Rational(-2 * i, d_model) for i in range(d_model // 2)]
    shift = sp.diag(*[symbolic.shift_block(K, w) for w in omegas])
    perm = _sympy_permutation(d_model, layout, order)
    if candidate == "conjugated":
        matrix = perm * shift * perm.T
    elif candidate == "unconjugated":
        matrix = shift
    elif candidate == "transposed":
        matrix = perm.T * shift * perm
    else:
        raise ValueError(f"unknown candidate {candidate!r}")
    before = perm * _paper_vector(P, omegas)
    after = perm * _paper_vector(P + K, omegas)
    statement = (
        rf"(P\,T_k\,P^{{\mathsf T}})\,PE_L(p) = PE_L(p+k),\quad PE_L = P\,PE,"
        rf"\quad d = {d_model}"
    )
    derivation = Derivation()
    derivation.note(
        f"Layout {layout}, {order}: the vector PE_L(p) = P PE(p) begins",
        symbolic.to_latex(before[:4, :]),
    )
    derivation.note(
        f"Candidate matrix ({candidate}): its top-left 4 x 4 corner",
        symbolic.to_latex(matrix[:4, :4]),
    )
    residual = matrix * before - after
    residual = residual.applyfunc(sp.expand)
    residual = residual.applyfunc(sp.expand_trig)
    residual = residual.applyfunc(sp.expand)
    nonzero = sum(1 for entry in residual if entry != 0)
    derivation.note(
        "Residual, after expanding the arguments, expand_trig and expand: "
        f"{nonzero} of {d_model} entries are non-zero",
        symbolic.to_latex(residual[:4, :]),
        residual[:4, :],
    )
    return derivation.proof(
        f"rotation identity in the {layout}, {order} layout", statement, residual
    )


def _all_layouts_proved() -> Evidence:
    proofs = [layout_identity(layout, order) for layout, order in LAYOUTS]
    detail = "; ".join(p.summary() for p in proofs)
    return Evidence("sympy", all(p.holds for p in proofs), detail)


def _layouts_numeric(candidate: Candidate = "conjugated") -> Callable[[], Evidence]:
    def run() -> Evidence:
        d, positions, offsets = 512, np.arange(1024), (1, 7, 100, -3)
        paper = numeric.sinusoidal(positions + 200, d)
        worst, worst_ratio = 0.0, 0.0
        tried: list[tuple[Layout, Order]] = (
            [("halves", "sin-first")] if candidate == "unconjugated" else list(LAYOUTS)
        )
        for layout, order in tried:
            perm = conventions.permutation(d, ("interleaved", "sin-first"), (layout, order))
            table = paper[:, perm]
            omega = np.repeat(numeric.frequencies(d), 2)[perm]
            for k in offsets:
                if candidate == "conjugated":
                    matrix = conventions.shift_matrix(k, d, layout, order)
                else:
                    matrix = numeric.shift_matrix(k, d)
                start, stop = max(0, -k), 1024 - max(0, k)
                moved = table[start:stop] @ matrix.T
                target = table[start + k : stop + k]
                error = np.abs(moved - target)
                tolerance = numeric.rotation_tolerance(omega[None, :], 1224.0, k, np.float64)
                worst = max(worst, float(error.max()))
                worst_ratio = max(worst_ratio, float((error / tolerance).max()))
        label = "P T_k P^T" if candidate == "conjugated" else "the paper's T_k on halves"
        return checked(
            worst_ratio <= 1.0,
            f"d=512, positions 200..1223, k in {offsets}, {len(tried)} layout(s), {label}: "
            f"max error {worst:.2g}, worst error/tolerance {worst_ratio:.2g}",
        )

    return run


# --------------------------------------------------------------------------- order and sign


def cos_first_block(block: symbolic.Block | None = None) -> Proof:
    r"""Prove :math:`[[c, -s], [s, c]]\,(\cos\omega p, \sin\omega p)^{\mathsf T} = (\cos\omega(p+k), \sin\omega(p+k))^{\mathsf T}`.

    In (cos, sin) order the shift block is the textbook counter-clockwise rotation, the
    transpose of the paper's (sin, cos) block. ``block`` replaces it with a candidate.
    """
    w = symbolic.OMEGA
    c, s = sp.cos(K * w), sp.sin(K * w)
    matrix = sp.Matrix([[c, -s], [s, c]]) if block is None else sp.Matrix(block(K, w))
    before = sp.Matrix([sp.cos(w * P), sp.sin(w * P)])
    after = sp.Matrix([sp.cos(w * (P + K)), sp.sin(w * (P + K))])
    statement = (
        f"{symbolic.to_latex(matrix)} {symbolic.to_latex(before)} = {symbolic.to_latex(after)}"
    )
    derivation = Derivation()
    derivation.note(
        "Residual: left side minus right side",
        f"{symbolic.to_latex(matrix)} {symbolic.to_latex(before)} - {symbolic.to_latex(after)}",
    )
    residual = matrix * before - after
    derivation.note("Multiply out the product", symbolic.to_latex(residual), residual)
    residual = derivation.angle_addition(residual)
    return derivation.proof("shift block in (cos, sin) order", statement, residual)


# --------------------------------------------------------------------------- laws

D_SYM = sp.Symbol("d", integer=True, positive=True)
I_SYM = sp.Symbol("i", integer=True, nonnegative=True)


def t2t_equals_paper(exponent: Any = None) -> Proof:
    r"""Prove :math:`e^{-i \ln b/(d/2 - 1)} = \bigl(b^{d/(d-2)}\bigr)^{-2i/d}`.

    Both sides are positive, so the proof compares their logarithms,
    :math:`-i\ln b/(d/2-1)` and :math:`-(2i/d)\cdot(d/(d-2))\ln b`, and reduces the
    difference with ``together`` then ``cancel`` (rational functions of ``d``).
    ``exponent`` replaces :math:`d/(d-2)` with a candidate.
    """
    power = D_SYM / (D_SYM - 2) if exponent is None else exponent
    log_t2t = -I_SYM * sp.log(BASE) / (D_SYM / 2 - 1)
    log_paper = -2 * I_SYM / D_SYM * power * sp.log(BASE)
    statement = (
        r"\exp\Bigl(-\frac{i \ln b}{d/2 - 1}\Bigr) = \bigl(b^{"
        + sp.latex(power)
        + r"}\bigr)^{-2i/d}"
    )
    derivation = Derivation()
    residual = sp.Matrix([log_t2t - log_paper])
    derivation.note(
        "Residual of the logarithms (both sides are positive)",
        sp.latex(residual[0], symbol_names={BASE: "b"}),
        residual,
    )
    residual = derivation.apply("Put over one denominator (together)", residual, sp.together)
    residual = derivation.apply("Cancel common factors (cancel)", residual, sp.cancel)
    return derivation.proof(
        "tensor2tensor law = paper law with base b^(d/(d-2))", statement, residual
    )


def doubled_exponent(base_power: int = 2) -> Proof:
    r"""Prove :math:`b^{-2(2i)/d} = (b^2)^{-2i/d}`: the doubled exponent is the base squared."""
    lhs = BASE ** (-2 * (2 * I_SYM) / D_SYM)
    rhs = (BASE**base_power) ** (-2 * I_SYM / D_SYM)
    statement = r"b^{-2(2i)/d} = \bigl(b^{" + str(base_power) + r"}\bigr)^{-2i/d}"
    derivation = Derivation()
    residual = sp.Matrix([lhs - rhs])
    derivation.note(
        "Residual (b > 0, so (b^m)^x = b^(m x))",
        sp.latex(residual[0], symbol_names={BASE: "b"}),
        residual,
    )
    residual = derivation.apply("Combine powers (powsimp)", residual, sp.powsimp)
    residual = derivation.apply("Collect terms (expand)", residual, sp.expand)
    return derivation.proof("doubled exponent = squared base", statement, residual)


def _t2t_numeric() -> Evidence:
    d, n = 512, 1000
    h = d // 2
    table = conventions.get("tensor2tensor").table(n, d)
    freq = np.exp(-np.arange(h) * np.log(10000.0) / (h - 1))
    angle = np.multiply.outer(np.arange(n, dtype=np.float64), freq)
    reference = np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    error = float(np.abs(table - reference).max())
    return checked(
        error < 1e-9,
        f"tensor2tensor table (via the paper's law, base 10000^(512/510)) vs its own "
        f"formula, d=512, 1000 rows: max difference {error:.2g}",
    )


# --------------------------------------------------------------------------- bugs


def _column_index_breaks(table_maker: Callable[[int, int], Any]) -> Callable[[], Evidence]:
    def run() -> Evidence:
        table = table_maker(4000, 16)
        error = conventions.linear_shift_error(table, 3)
        return checked(
            error > 0.1,
            f"best matrix mapping row p to row p+3, fitted on rows 0..1997 and applied to "
            f"rows 1998..3996 (d=16): largest error {error:.3g}",
        )

    return run


def _paper_table(n: int, d: int) -> Any:
    return numeric.sinusoidal(n, d)


# --------------------------------------------------------------------------- identify

#: Relative accuracy required of identify's sine frequencies (pinned everywhere).
ACCURACY = {np.float64: 1e-6, np.float32: 1e-3}


def _recovers_conventions() -> Evidence:
    failures: list[str] = []
    cases = 0
    for name, convention in conventions.CONVENTIONS.items():
        for d in (8, 64, 512):
            for dtype, target in ACCURACY.items():
                cases += 1
                result = identify(convention.table(200, d, dtype=dtype))
                law = {"one-indexed": "other"}.get(convention.law, convention.law)
                sin_error = float(
                    np.max(np.abs(result.sin_frequencies / convention.frequencies(d) - 1))
                )
                got = (
                    result.layout,
                    result.order,
                    result.position_offset,
                    result.law,
                )
                want = (convention.layout, convention.order, convention.offset, law)
                base_ok = (
                    result.base is not None and abs(result.base / convention.base - 1) < target
                )
                if got != want or not base_ok or sin_error > target:
                    failures.append(f"{name} d={d} {np.dtype(dtype)}: {got} base {result.base}")
    bugs_named = all(_bug_named(bug) for bug in bug_zoo.BUGS)
    ok = not failures and bugs_named
    return checked(
        ok,
        f"{cases} tables ({len(conventions.CONVENTIONS)} conventions x d in (8, 64, 512) x "
        f"float64/float32): layout, order, offset, law, base and sine frequencies recovered "
        f"in {cases - len(failures)}; every bug of the zoo named: {bugs_named}"
        + (f"; failures: {failures[:3]}" if failures else ""),
    )


#: A word that identify's notes must contain for each bug.
BUG_SIGNS = {
    "doubled-exponent": "doubled-exponent",
    "multiplied": "multiplied by",
    "integer-division": "integer division",
    "column-index": "`i // 2`",
    "halves-for-interleaved": "layout halves",
    "odd-width": "without a partner",
    "fairseq-offset": "position 2",
}


def _bug_named(bug: bug_zoo.Bug) -> bool:
    d = 65 if bug.name == "odd-width" else 64
    result = identify(bug.make(200, d))
    return (
        result.is_encoding
        and not result.matches_paper
        and any(BUG_SIGNS[bug.name] in note for note in result.notes)
    )


def _accepts(make: Callable[[], Any], label: str) -> Callable[[], Evidence]:
    def run() -> Evidence:
        result = identify(make())
        return checked(result.is_encoding, f"{label}: {result.reason}")

    return run


def _random_table() -> Any:
    return np.random.default_rng(0).uniform(-1, 1, size=(200, 64))


def _learned_like() -> Any:
    noise = np.random.default_rng(1).normal(0, 0.01, size=(200, 64))
    return np.clip(numeric.sinusoidal(200, 64) + noise, -1, 1)


CLAIMS = (
    Claim(
        id="layout-shift-matrix",
        title="The rotation identity in every layout",
        statement=(
            r"PE_L(p+k) = \bigl(P_L\,T_k\,P_L^{\mathsf T}\bigr)\,PE_L(p),\quad "
            r"PE_L = P_L\,PE \text{ in all four layouts}"
        ),
        page=PAGE,
        evidence=(_all_layouts_proved, _layouts_numeric()),
        controls=(
            lambda: proved(
                layout_identity("halves", "sin-first", "unconjugated"), "T_k not conjugated"
            ),
            lambda: proved(
                layout_identity("halves", "sin-first", "transposed"), "P^T T_k P instead"
            ),
            lambda: proved(
                layout_identity("interleaved", "cos-first", "unconjugated"),
                "the paper's blocks in (cos, sin) order",
            ),
            _layouts_numeric("unconjugated"),
        ),
    ),
    Claim(
        id="cos-first-block",
        title="In (cos, sin) order the block turns the other way",
        statement=(
            r"\begin{pmatrix} \cos\omega(p+k) \\ \sin\omega(p+k) \end{pmatrix} = "
            r"\begin{pmatrix} \cos k\omega & -\sin k\omega \\ \sin k\omega & \cos k\omega"
            r"\end{pmatrix} \begin{pmatrix} \cos\omega p \\ \sin\omega p \end{pmatrix}"
        ),
        page=PAGE,
        evidence=(lambda: proved(cos_first_block()),),
        controls=(
            lambda: proved(cos_first_block(symbolic.shift_block), "the paper's (sin, cos) block"),
        ),
    ),
    Claim(
        id="t2t-law-is-paper-law",
        title="tensor2tensor's law is the paper's with another base",
        statement=(r"\exp\Bigl(-\frac{i \ln b}{d/2 - 1}\Bigr) = \bigl(b^{d/(d-2)}\bigr)^{-2i/d}"),
        page=PAGE,
        evidence=(lambda: proved(t2t_equals_paper()), _t2t_numeric),
        controls=(
            lambda: proved(t2t_equals_paper(D_SYM / (D_SYM - 1)), "base b^(d/(d-1))"),
            lambda: proved(t2t_equals_paper(sp.Integer(1)), "the same base b"),
        ),
    ),
    Claim(
        id="doubled-exponent-base",
        title="The doubled exponent squares the base",
        statement=r"b^{-2(2i)/d} = \bigl(b^{2}\bigr)^{-2i/d}",
        page=PAGE,
        evidence=(lambda: proved(doubled_exponent()),),
        controls=(lambda: proved(doubled_exponent(3), "the base cubed"),),
    ),
    Claim(
        id="column-index-bug-breaks-identity",
        title="With i for i // 2, no matrix shifts the encoding",
        statement=(
            r"\omega_{\sin} \ne \omega_{\cos} \text{ within a pair} \implies "
            r"\nexists M:\ M\,x(p) = x(p+k) \ \forall p"
        ),
        page=PAGE,
        evidence=(_column_index_breaks(bug_zoo.column_index_exponent),),
        controls=(_column_index_breaks(_paper_table),),
    ),
    Claim(
        id="identify-recovers-conventions",
        title="pe identify recovers every convention and names every bug",
        statement=(
            r"\texttt{identify}(\text{table}) \to \text{layout, order, offset, law, base, }"
            r"\omega_k \text{ (relative error} \le 10^{-6} \text{ float64}, 10^{-3} \text{ float32)}"
        ),
        page=PAGE,
        evidence=(_recovers_conventions,),
        controls=(
            _accepts(_random_table, "uniform random table"),
            _accepts(_learned_like, "paper table + noise 0.01 (learned-like)"),
            _accepts(lambda: np.zeros((100, 64)), "all zeros"),
        ),
    ),
)
