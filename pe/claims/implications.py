"""Claims of the page "What the identity implies" (docs/implications.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import sympy as sp

from pe import numeric
from pe._tolerance import EPS64, Tolerance, phase_tolerance
from pe.claims import Chapter, Check, Evidence, by_proof, checked, within
from pe.experiments import failed_designs
from pe.experiments import implications as measured
from pe.experiments import rope as rope_experiments
from pe.proofs import implications as proofs
from pe.proofs import rope as rope_proofs
from pe.proofs import wrong
from pe.proofs.rotation_identity import rotation_identity
from pe.symbolic import D, pair, shift_block

claim = Chapter("implications").claim

#: Width and range of offsets for the decay of the dot product.
DECAY_WIDTH = 512
DECAY_RANGE = 20_000
#: (n, d) settings for the smallest distance between rows.
ROW_SETTINGS = ((10_000, 64), (100_000, 64), (10_000, 512), (100_000, 512))
#: Positions of the norm check: every p < 10^4 and three far ones.
NORM_POSITIONS = np.concatenate([np.arange(10_000), [10**6, 10**9, 2**40]])

#: The model of :func:`pe.experiments.implications.dot_tolerance`.
_DOT_MODEL = (
    r"\sqrt2\,d\,\delta + \gamma_d \tfrac d2 + \tfrac d2(\varepsilon + (r_\omega + u)"
    r"\,\mathrm{reach}) + \gamma_{d/2} \tfrac d2"
)


def _dot_products(power: int) -> Evidence:
    d, n = 512, 1500
    error = measured.dot_product_error(d, n, power)
    tol = measured.dot_tolerance(d, 2 * n)
    law = "w_i" if power == 1 else f"w_i^{power}"
    return within(
        error,
        Tolerance(tol, _DOT_MODEL),
        f"d={d}, all {n}x{n} dot products of rows against sum_i cos({law} (q - p)): "
        f"max error {error:.2g} (tolerance {tol:.2g})",
    )


def _symmetric(between: int) -> Evidence:
    d, p, reach = 512, 2000, 1500
    gap = measured.symmetry_gap(d, p, reach, between)
    tol = measured.dot_tolerance(d, p + reach)
    label = "PE(p) · PE(p±k)" if between == 0 else f"PE(p)^T T_{between} PE(p±k)"
    # two dot products that agree exactly, each within the model
    return within(
        gap,
        Tolerance(2 * tol, "2(" + _DOT_MODEL + ")"),
        f"d={d}, p={p}, k=1..{reach - 1}: max |{label} ahead - behind| = {gap:.2g} "
        f"(tolerance {2 * tol:.2g})",
    )


def _not_monotone(stated: tuple[int | None, int | None]) -> Evidence:
    """``f(k) = PE(p) . PE(p+k)``, d = 512: where it first rises and first turns negative.

    ``stated`` is (last k before the first rise, first k with f(k) < 0), None for never;
    both places are confirmed with 50-digit mpmath.
    """
    f = measured.dot_by_offset(DECAY_WIDTH, np.arange(DECAY_RANGE + 1))
    rise = measured.first_rise(f)
    negative = np.flatnonzero(f < 0)
    first_negative = int(negative[0]) if negative.size else None
    confirmed = True
    if rise is not None and first_negative is not None:
        exact = measured.reference_dot_by_offset(
            DECAY_WIDTH, [rise, rise + 1, first_negative - 1, first_negative]
        )
        confirmed = bool(exact[1] > exact[0] and exact[2] >= 0 > exact[3])
    return checked(
        (rise, first_negative) == stated and confirmed,
        f"d={DECAY_WIDTH}, k = 0..{DECAY_RANGE}: f falls until k = {rise} and rises at "
        f"k = {None if rise is None else rise + 1}; first negative at k = {first_negative} "
        f"(f = {f[first_negative]:.3g}), minimum {f.min():.4g} at k = {int(np.argmin(f))}; "
        f"both places confirmed with mpmath: {'yes' if confirmed else 'no'} (stated: {stated})",
    )


def _norm(per_dimension: Any) -> Evidence:
    widths = (64, 512)
    worst = measured.norm_error(widths, NORM_POSITIONS, float(per_dimension))
    # |PE(p)|^2 is a dot product of a row with itself; its square root halves the error
    tol = max(measured.dot_tolerance(d, 0.0) for d in widths)
    return within(
        worst,
        Tolerance(tol, _DOT_MODEL + r",\ \mathrm{reach} = 0"),
        f"d in (64, 512), p < 10^4 and p in (10^6, 10^9, 2^40): max | |PE(p)| - "
        f"sqrt({per_dimension * D}) | = {worst:.2g} (tolerance {tol:.2g})",
    )


def _nearest(law: measured.FrequencyLaw, n: int, d: int) -> tuple[int, float]:
    distances = measured.chord_lengths(law(d), np.arange(1, n))
    return int(np.argmin(distances)) + 1, float(distances.min())


def _rows_distinct(law: measured.FrequencyLaw) -> Evidence:
    nearest = [(n, d, *_nearest(law, n, d)) for n, d in ROW_SETTINGS]
    brute = measured.brute_force_nearest(2000, 64)
    shortcut = _nearest(law, 2000, 64)[1]
    # the Gram matrix's rounding (the chord formula keeps full relative precision: a few eps)
    rounding = failed_designs.gram_distance_rounding(64, shortcut) + 8 * EPS64 * shortcut
    return checked(
        all(distance > 1e-6 for *_, distance in nearest),
        "smallest distance between two rows: "
        + "; ".join(f"n={n}, d={d}: {dist:.4g} (offset {k})" for n, d, k, dist in nearest)
        + f"; brute force over all pairs, n=2000, d=64: {brute:.6g} = {shortcut:.6g} "
        f"(tolerance {rounding:.2g})",
        error=abs(brute - shortcut),
        tolerance=Tolerance(rounding, r"\text{Gram distance} + 8\varepsilon D"),
    )


def _rows_repeat_never(law: measured.FrequencyLaw) -> Evidence:
    d, n = 16, 1000
    k, distance = _nearest(law, n, d)
    return checked(
        distance > 1e-6,
        f"d={d}, n={n}: smallest distance between two rows {distance:.3g} at offset {k}",
    )


def _every_pair(blocks: measured.FrequencyLaw) -> Evidence:
    d, n = 512, 10_000
    ratio = measured.pair_shift_ratio(d, n, (1, 7, 500), blocks)
    omega = blocks(d)
    distances, where = measured.pair_min_distance(omega, n)
    distinct = bool(np.all(distances > 1000 * phase_tolerance(EPS64, omega, n)))
    return checked(
        ratio <= 1.0 and distinct,
        f"d={d}, p < {n}: every pair's block maps v_i(p) to v_i(p+k) for k in (1, 7, 500), "
        f"worst error/tolerance {ratio:.2g}; every pair alone separates all positions: "
        f"pair 0's closest two positions are {where[0]} apart at distance {distances[0]:.3g}, "
        f"pair {d // 2 - 1}'s {where[-1]} apart at {distances[-1]:.3g}",
        error=ratio,
        tolerance=Tolerance(
            1.0,
            r"4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega_i(|p| + |k|) \text{ per pair}",
        ),
    )


def _not_relative(content: float, projection: measured.Projection) -> Evidence:
    spread, scale = measured.offset_spread(
        measured.scores(300, 64, projection=projection, content=content)
    )
    ratio = spread / scale
    return checked(
        ratio > 0.1,
        f"d=64, n=300, W = {projection.name}, content scale {content}: largest spread along "
        f"one diagonal q - p = const is {spread:.3g}, {ratio:.3g} times the scores' std",
    )


#: Integer projections whose additive score is not a function of the offset (exactly).
_WQ = ((1, 2), (0, 1))
_WK = ((2, 0), (1, 1))


def _matrix(rows: Sequence[Sequence[int]]) -> str:
    return "[" + ",".join("[" + ",".join(str(e) for e in row) + "]" for row in rows) + "]"


def _counterexample(projections: tuple[Any, Any]) -> Evidence:
    w_q, w_k = projections
    proof, value = rope_proofs.additive_counterexample(w_q, w_k)
    found = (not proof.holds) and value != 0
    return Evidence(
        "sympy",
        bool(found),
        f"W_q = {_matrix(w_q)}, W_k = {_matrix(w_k)}: s(π/2ω, π/2ω) − s(0, 0) = {value} exactly "
        f"(offset 0 both times); {'a counter-example' if found else 'no counter-example'}",
        proof,
    )


def _spread(candidate: rope_experiments.Scores) -> Evidence:
    spreads = rope_experiments.offset_spreads(candidate)
    return checked(
        min(spreads) > 1e-3,
        "scores after W_q, W_k, d=64, integer m < 2000: spread of s(m, m+r) over m for r = 0, 1, 10: "
        + ", ".join(f"{v:.3g}" for v in spreads)
        + " (> 1e-3 means not a function of the offset)",
    )


def _relative_only(projection: measured.Projection) -> Evidence:
    """Is the position-position term e_p^T W e_q a function of q - p alone, to rounding?"""
    spread, scale = measured.offset_spread(measured.scores(300, 64, projection=projection))
    ratio = spread / scale
    # two entries of one diagonal, equal exactly, each within the scores' rounding bound
    rounding = 2 * measured.score_rounding(300, 64, projection=projection) / scale
    return within(
        ratio,
        Tolerance(
            rounding, r"2\max(2\gamma_d |R||W||R|^{\mathsf T} + \delta(\dots)) / \mathrm{std}"
        ),
        f"d=64, n=300, W = {projection.name}: largest spread along one diagonal q - p = const "
        f"is {ratio:.3g} times the scores' std (a function of q - p: at most the rounding "
        f"bound {rounding:.2g})",
    )


#: A frequency law as SymPy sees it: ``(i, d) -> omega_i``, exact.
FrequencyExpr = Callable[[int, int], sp.Expr]


def _paper_frequency(i: int, d: int) -> sp.Expr:
    return sp.Integer(10000) ** sp.Rational(-2 * i, d)


def _no_whole_turns(law: FrequencyExpr) -> Evidence:
    """Every pair's frequency is algebraic while pi is transcendental (Lindemann), so no
    integer offset ``p - q != 0`` is a whole number of turns of any pair."""
    d = 512
    frequencies = [law(i, d) for i in range(d // 2)]
    algebraic = sum(bool(omega.is_algebraic) for omega in frequencies)
    pi_transcendental = bool(sp.pi.is_transcendental)
    return Evidence(
        "sympy",
        algebraic == len(frequencies) and pi_transcendental,
        f"d={d}: {algebraic} of {len(frequencies)} frequencies are algebraic numbers (SymPy); "
        f"pi is {'transcendental' if pi_transcendental else 'not known transcendental'}: "
        "omega_i (p - q) = 2 pi m would make pi algebraic",
    )


CLAIMS = (
    claim(
        "dot-product-offset-only",
        "The dot product of two rows depends only on their offset",
        Check(
            by_proof(proofs.dot_product_per_pair),
            true=proofs.offset_cosine,
            wrong=(wrong.DOUBLE_ANGLE_COSINE,),
        ),
        Check(by_proof(proofs.dot_product_concrete), true=1, wrong=(wrong.DOUBLED_EXPONENT,)),
        Check(_dot_products, true=1, wrong=(wrong.DOUBLED_EXPONENT,)),
        statement=r"PE(p) \cdot PE(p+k) = \sum_{i=0}^{d/2-1} \cos \omega_i k",
    ),
    claim(
        "dot-product-symmetric",
        "The dot product cannot tell $k$ ahead from $k$ behind",
        Check(by_proof(proofs.offset_symmetry), true=0, wrong=(wrong.SHIFT_BETWEEN_ROWS,)),
        Check(_symmetric, true=0, wrong=(wrong.SHIFT_BETWEEN_ROWS,)),
        statement=r"PE(p) \cdot PE(p+k) = PE(p) \cdot PE(p-k)",
    ),
    claim(
        "dot-product-not-monotone",
        "The dot product does not fall steadily with distance",
        Check(
            _not_monotone,
            true=(43, 3284),
            wrong=(wrong.MONOTONE_DECAY, wrong.RISES_STAYS_POSITIVE),
        ),
        statement=(
            r"\begin{gathered}f(k) = \sum_i \cos\omega_i k,\ d = 512: \text{ falls for }"
            r" 0 \le k \le 43,\ f(44) > f(43); \\ f(k) \ge 0 \text{ for } k < 3284,"
            r"\ f(3284) < 0\end{gathered}"
        ),
    ),
    claim(
        "norm-constant",
        "Every row has the same length",
        Check(by_proof(proofs.norm_per_pair), true=pair, wrong=(wrong.MIXED_FREQUENCY_PAIR,)),
        Check(by_proof(proofs.norm_concrete), true=proofs.HALF, wrong=(wrong.NORM_SQUARED_D,)),
        Check(_norm, true=proofs.HALF, wrong=(wrong.NORM_SQUARED_D,)),
        statement=r"\lVert PE(p) \rVert = \sqrt{d/2} \quad \text{for every } p",
    ),
    claim(
        "rows-distinct",
        "Every position has its own row",
        Check(
            by_proof(proofs.distance_identity),
            true=proofs.chord_squared,
            wrong=(wrong.SUM_ANGLE_DISTANCE,),
        ),
        Check(_rows_distinct, true=numeric.frequencies),
        Check(_rows_repeat_never, true=numeric.frequencies, wrong=(wrong.BINARY_COUNTER,)),
        statement=(
            r"\lVert PE(p) - PE(q) \rVert^2 = \sum_i \bigl(2 - 2\cos\omega_i (p - q)\bigr) > 0"
            r" \text{ for integers } p \ne q"
        ),
    ),
    claim(
        "pairs-never-return",
        "No pair ever returns exactly to a former value",
        Check(_no_whole_turns, true=_paper_frequency, wrong=(wrong.BINARY_TURNS,)),
        statement=(
            r"\begin{gathered} \omega_i = 10000^{-2i/d} \text{ algebraic},\ \pi \text{ transcendental}"
            r" \\ \implies \omega_i (p - q) \ne 2\pi m \text{ for integers } p \ne q,\ m"
            r" \end{gathered}"
        ),
        source="lindemann1882",
    ),
    claim(
        "every-pair-relative-and-absolute",
        "Every pair carries both relative and absolute position",
        Check(by_proof(rotation_identity), true=shift_block),
        Check(
            _every_pair,
            true=numeric.frequencies,
            wrong=(wrong.PAIR0_SLOWEST_ANGLE, wrong.RATIONAL_PERIOD),
        ),
        statement=(
            r"\begin{gathered}\text{for every pair } i:\quad B(k\omega_i)\,v_i(p) = v_i(p+k)"
            r" \\ \text{and}\quad v_i(p) \ne v_i(q) \text{ for integers } p \ne q\end{gathered}"
        ),
    ),
    claim(
        "attention-score-four-terms",
        "With content added, the score has four terms",
        Check(
            by_proof(proofs.attention_four_terms),
            true=proofs.ALL_TERMS,
            wrong=(wrong.CROSS_TERMS_DROPPED,),
        ),
        statement=(
            r"\begin{gathered}(x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y"
            r" + x^{\mathsf T} W e_q + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q, \\"
            r" W = W_q^{\mathsf T} W_k\end{gathered}"
        ),
    ),
    claim(
        "projected-score-not-relative",
        "After the projections the score is not a function of $p - q$ alone",
        Check(
            by_proof(proofs.position_term),
            true=proofs.sum_and_difference,
            wrong=(wrong.DIFFERENCE_ONLY,),
        ),
        Check(_counterexample, true=(_WQ, _WK), wrong=(wrong.IDENTITY_PROJECTIONS,)),
        Check(
            partial(_not_relative, 0.0),
            true=measured.RANDOM,
            wrong=(wrong.IDENTITY_PROJECTION, wrong.ROTATION_PROJECTION),
        ),
        Check(partial(_not_relative, 1.0), true=measured.RANDOM),
        Check(
            _spread,
            true=rope_experiments.additive_scores,
            wrong=(wrong.ROPE_AFTER_PROJECTION,),
        ),
        statement=(
            r"\begin{gathered}e_p^{\mathsf T} W e_q = \tfrac{w_{11}+w_{22}}{2}\cos\omega(p-q)"
            r" + \tfrac{w_{12}-w_{21}}{2}\sin\omega(p-q) \\"
            r" + \tfrac{w_{22}-w_{11}}{2}\cos\omega(p+q) + \tfrac{w_{12}+w_{21}}{2}\sin\omega(p+q)"
            r" \text{ per pair;} \\ \exists\, W_q, W_k:\ \langle W_q PE(m), W_k PE(n)\rangle"
            r" \text{ is not a function of } n - m\end{gathered}"
        ),
    ),
    claim(
        "position-term-relative-condition",
        "Relative only when every block is a scaled rotation and no block couples two pairs",
        Check(
            _relative_only,
            true=measured.ROTATION,
            wrong=(wrong.COUPLED_ROTATION_PROJECTION, wrong.RANDOM_PROJECTION),
        ),
        statement=(
            r"\begin{gathered}W = \operatorname{diag}\bigl(\bigl[\begin{smallmatrix} a_i & b_i"
            r" \\ -b_i & a_i \end{smallmatrix}\bigr]\bigr) \implies e_p^{\mathsf T} W e_q ="
            r" f(q - p); \\ \text{a non-zero block } W_{ij},\ i \ne j, \text{ adds terms in }"
            r" \omega_i p - \omega_j q \text{: not a function of } q - p\end{gathered}"
        ),
    ),
)
