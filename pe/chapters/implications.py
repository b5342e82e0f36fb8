r"""What the identity implies (``docs/implications.py``): dot products, norms, distances and scores.

Notation as in :mod:`pe.numeric`: :math:`\omega_i = \mathrm{base}^{-2i/d}`,
:math:`v_i(p) = (\sin\omega_i p, \cos\omega_i p)`, :math:`PE(p) = (v_0(p), \dots, v_{d/2-1}(p))`.
Each proof reduces a residual to exactly zero (no ``simplify``, no floats):

.. math::

    v_i(p) \cdot v_i(p+k) = \cos\omega_i k, \qquad
    PE(p) \cdot PE(p+k) = \sum_i \cos\omega_i k, \qquad
    \lVert PE(p) \rVert^2 = d/2,

.. math::

    \lVert v_i(p) - v_i(q) \rVert^2 = 2 - 2\cos\omega_i (p - q),

and for a general :math:`2 \times 2` block :math:`W` between two pairs the score
:math:`v(p)^{\mathsf T} W v(q)` has terms in :math:`p - q` and in :math:`p + q`
(:func:`pe.position_scores.sum_and_difference`): it depends on :math:`p + q` unless
:math:`W` is a scaled rotation. Every proof is a function of one candidate (the right side,
the pair, the matrix between the rows, the terms kept), the true one by default; the wrong
candidates make it fail.

The measurements: every angle :math:`\omega_i k` is formed in float64 with absolute error
about :math:`\varepsilon_{64}\,\omega_i |k|`; a sum over the :math:`d/2` pairs
accumulates at most :math:`d/2` such errors plus :math:`d/2` roundings.
:data:`pe.error_models.DOT_PRODUCT` states the bound used by the checks.

Examples
--------
>>> dot_product_per_pair().holds
True
>>> dot_product_concrete(2).holds  # frequencies squared on the right side
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache, partial
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric, symbolic
from pe._machine_dependent import judged_within, measured, measured_within
from pe._tolerance import (
    EPS64,
    Tolerance,
    phase_tolerance,
)
from pe.chapters.rope import (
    IDENTITY_PROJECTIONS,
    ROPE_AFTER_PROJECTION,
    additive_counterexample,
)
from pe.chapters.rotation_identity import TRANSPOSED_BLOCK, rotation_identity
from pe.claims import Candidate, Chapter, Check, Evidence, Method, by_proof, checked, within
from pe.error_models import DOT_PRODUCT, GRAM_DISTANCE, SHIFT
from pe.geometry import (
    FrequencyLaw,
    chord_lengths,
    dot_by_offset,
    dot_product_error,
    nearest_rows,
    norm_error,
    pair_distances,
    pair_min_distance,
    pair_shift_ratio,
    reference_dot_by_offset,
    row_distance_by_offset,
    smallest_row_distance,
    symmetry_gap,
)
from pe.position_scores import (
    IDENTITY,
    RANDOM,
    RANDOM_ROWS,
    ROTATION,
    ProjectedScores,
    Projection,
    additive_scores,
    content_gap,
    decay_facts,
    difference_terms,
    first_rise,
    offset_spread,
    offset_spreads,
    relative_blocks,
    score_rounding,
    scores,
    sum_and_difference,
)
from pe.symbolic import OMEGA, D, Derivation, K, P, Proof, Q, pair, shift_block, to_latex

chapter = Chapter(__name__, follows="rotation_identity")
claim = chapter.claim

Float64Array = npt.NDArray[np.float64]

_W = sp.Matrix(2, 2, sp.symbols("w_11 w_12 w_21 w_22", real=True))


def _closed(derivation: Derivation, residual: Any) -> Any:
    residual = derivation.angle_addition(sp.Matrix([residual]))
    return derivation.pythagoras(residual)


def offset_cosine(k: Any, w: Any) -> Any:
    r"""The true right side :math:`\cos\omega k` of the one-pair dot product."""
    return sp.cos(k * w)


def dot_product_per_pair(rhs: Callable[[Any, Any], Any] = offset_cosine) -> Proof:
    r"""Prove :math:`v(p) \cdot v(p+k) = \cos\omega k` for symbolic ``p``, ``k``, ``i``, ``d``.

    Parameters
    ----------
    rhs
        The right side ``(k, w) -> expression``; :func:`offset_cosine` is the true one.
    """
    right = rhs(K, OMEGA)
    left = pair(P, OMEGA).dot(pair(P + K, OMEGA))
    statement = rf"v_i(p) \cdot v_i(p+k) = {to_latex(right)}"
    derivation = Derivation()
    derivation.note("Residual: the dot product minus the right side", to_latex(left - right))
    return derivation.proof("dot product of one pair", statement, _closed(derivation, left - right))


def dot_product_concrete(power: int = 1, d_model: int = 8) -> Proof:
    r"""Prove :math:`PE(p) \cdot PE(p+k) = \sum_i \cos\omega_i k` for a concrete width.

    Frequencies are exact: :math:`\omega_i = 10000^{-2i/d}`. The right side uses
    :math:`\omega_i^{\mathrm{power}}`: 1 is the truth, 2 the doubled exponent
    :math:`10000^{-4i/d}` (``10000 ** (2 * i / d)`` with ``i`` stepping by 2).
    """
    omegas = symbolic.exact_frequencies(symbolic.exact_width(d_model, 64), 10000)
    left = symbolic.encoding(P, omegas).dot(symbolic.encoding(P + K, omegas))
    exponent_law = symbolic.exact_frequencies(d_model, 10000**power)
    right = sum((sp.cos(w * K) for w in exponent_law), sp.Integer(0))
    statement = rf"PE(p) \cdot PE(p+k) = {sp.latex(right)} \quad (d = {d_model})"
    derivation = Derivation()
    derivation.note(f"Residual: {d_model // 2} pair products minus the sum of cosines", "")
    residual = _closed(derivation, left - right)
    return derivation.proof(f"dot product, d = {d_model}", statement, residual)


#: Right side of the one-pair dot product :math:`\cos 2\omega k` instead of :math:`\cos\omega k`.
DOUBLE_ANGLE_COSINE = Candidate("cos(2ωk)", lambda k, w: sp.cos(2 * k * w))

#: Frequencies :math:`\omega_i^2 = 10000^{-4i/d}`: the exponent doubled (a power of 2).
DOUBLED_EXPONENT = Candidate("doubled exponent", 2)


def _dot_products(power: int) -> Evidence:
    d, n = 512, 1500
    error = dot_product_error(d, n, power)
    tol = DOT_PRODUCT.tolerance(d, 2 * n)
    law = "w_i" if power == 1 else f"w_i^{power}"
    return within(
        error,
        tol,
        f"d={d}, all {n}x{n} dot products of rows against sum_i cos({law} (q - p)): "
        f"max error {measured_within(error, tol.value)}",
    )


claim(
    "dot-product-offset-only",
    "The dot product of two rows depends only on their offset",
    Check(
        by_proof(dot_product_per_pair),
        true=offset_cosine,
        wrong=(DOUBLE_ANGLE_COSINE,),
    ),
    Check(by_proof(dot_product_concrete), true=1, wrong=(DOUBLED_EXPONENT,)),
    Check(_dot_products, true=1, wrong=(DOUBLED_EXPONENT,)),
    statement=r"PE(p) \cdot PE(p+k) = \sum_{i=0}^{d/2-1} \cos \omega_i k",
)


def offset_symmetry(between: int = 0) -> Proof:
    r"""Prove :math:`v(p)^{\mathsf T} M v(p+k) = v(p)^{\mathsf T} M v(p-k)` with :math:`M = B(j, \omega)`.

    Parameters
    ----------
    between
        The shift :math:`j` of the block placed between the pairs: 0 (the identity, the
        raw dot product) is the truth; 1 gives a score that tells left from right.
    """
    matrix = shift_block(between, OMEGA)
    ahead = (pair(P, OMEGA).T * matrix * pair(P + K, OMEGA))[0]
    behind = (pair(P, OMEGA).T * matrix * pair(P - K, OMEGA))[0]
    shown = to_latex(matrix)
    statement = rf"v(p)^{{\mathsf T}} {shown} v(p+k) = v(p)^{{\mathsf T}} {shown} v(p-k)"
    derivation = Derivation()
    derivation.note(
        "Residual: the score k ahead minus the score k behind", to_latex(ahead - behind)
    )
    residual = _closed(derivation, ahead - behind)
    return derivation.proof("the dot product is even in k", statement, residual)


#: :math:`T_1` between the two rows (the shift placed between them, 0 being none).
SHIFT_BETWEEN_ROWS = Candidate("T_1 between the rows", 1)


def _symmetric(between: int) -> Evidence:
    d, p, reach = 512, 2000, 1500
    gap = symmetry_gap(d, p, reach, between)
    tol = 2 * DOT_PRODUCT(d, p + reach)
    label = "PE(p) · PE(p±k)" if between == 0 else f"PE(p)^T T_{between} PE(p±k)"
    # two dot products that agree exactly, each within the model
    return within(
        gap,
        Tolerance(tol, f"2({DOT_PRODUCT.latex})"),
        f"d={d}, p={p}, k=1..{reach - 1}: max |{label} ahead - behind| = "
        f"{measured_within(gap, tol)}",
    )


claim(
    "dot-product-symmetric",
    "The dot product cannot tell $k$ ahead from $k$ behind",
    Check(by_proof(offset_symmetry), true=0, wrong=(SHIFT_BETWEEN_ROWS,)),
    Check(_symmetric, true=0, wrong=(SHIFT_BETWEEN_ROWS,)),
    statement=r"PE(p) \cdot PE(p+k) = PE(p) \cdot PE(p-k)",
)


#: Statements about :math:`f(k) = PE(p) \cdot PE(p+k)`, d = 512, as (first k with
#: f(k+1) > f(k), first k with f(k) < 0), None for never: "it falls steadily and stays
#: positive", and "it rises, but never turns negative".
MONOTONE_DECAY = Candidate("falls steadily, stays positive", (None, None))
RISES_STAYS_POSITIVE = Candidate("rises at k = 44 but stays positive", (43, None))

#: Width and range of offsets for the decay of the dot product.
DECAY_WIDTH = 512
DECAY_RANGE = 20_000
#: The near offsets, 0 to NEAR_RANGE, that the page's explorer and its still figure show.
NEAR_RANGE = 200


def _not_monotone(stated: tuple[int | None, int | None]) -> Evidence:
    """``f(k) = PE(p) . PE(p+k)``, d = 512: where it first rises and first turns negative.

    ``stated`` is (last k before the first rise, first k with f(k) < 0), None for never;
    both places are confirmed with 50-digit mpmath.
    """
    f = dot_by_offset(DECAY_WIDTH, np.arange(DECAY_RANGE + 1))
    rise = first_rise(f)
    negative = np.flatnonzero(f < 0)
    first_negative = int(negative[0]) if negative.size else None
    confirmed = True  # each place found is confirmed with mpmath on both of its sides
    if rise is not None:
        before, after = reference_dot_by_offset(DECAY_WIDTH, [rise, rise + 1])
        confirmed &= bool(after > before)
    if first_negative is not None:
        before, after = reference_dot_by_offset(DECAY_WIDTH, [first_negative - 1, first_negative])
        confirmed &= bool(before >= 0 > after)
    value = "never" if first_negative is None else f"f = {f[first_negative]:.3g}"
    return checked(
        (rise, first_negative) == stated and confirmed,
        f"d={DECAY_WIDTH}, k = 0..{DECAY_RANGE}: f falls until k = {rise} and rises at "
        f"k = {None if rise is None else rise + 1}; first negative at k = {first_negative} "
        f"({value}), minimum {f.min():.4g} at k = {int(np.argmin(f))}; "
        f"both places confirmed with mpmath: {'yes' if confirmed else 'no'} (stated: {stated})",
    )


def _minimum(k_max: int) -> Callable[[int], Evidence]:
    """Where ``f`` is lowest for ``0 <= k <= k_max``: ``stated``, its order against the
    next lowest value confirmed with 50-digit mpmath, by a gap beyond both values' error."""

    def check(stated: int) -> Evidence:
        f = dot_by_offset(DECAY_WIDTH, np.arange(k_max + 1))
        low, next_low = (int(k) for k in np.argsort(f, kind="stable")[:2])
        exact = reference_dot_by_offset(DECAY_WIDTH, [low, next_low])
        bound = DOT_PRODUCT(DECAY_WIDTH, k_max)
        return checked(
            low == stated and exact[1] - exact[0] > 2 * bound,
            f"d={DECAY_WIDTH}, k = 0..{k_max}: minimum f({low}) = {f[low]:.4g}, next lowest "
            f"f({next_low}) = {f[next_low]:.4g}; mpmath's gap {exact[1] - exact[0]:.2g} "
            f"against twice the error bound, {2 * bound:.2g} (stated: {stated})",
        )

    return check


#: "It falls all the way": the minimum at the last offset measured.
LOWEST_AT_THE_END = Candidate("lowest at the last offset", DECAY_RANGE)
#: The same belief over the near offsets.
NEAR_LOWEST_AT_THE_END = Candidate(f"lowest at k = {NEAR_RANGE}, the last near offset", NEAR_RANGE)


@cache
def decay_minimum() -> tuple[int, float]:
    """Where ``f(k) = PE(p) . PE(p+k)``, d = 512, is lowest for ``0 <= k <= DECAY_RANGE``,
    and its value (what the page and the statement name)."""
    _, low, value = decay_facts(DECAY_WIDTH, DECAY_RANGE)
    return low, value


@cache
def near_minimum() -> tuple[int, float]:
    """Where ``f`` is lowest for ``0 <= k <= NEAR_RANGE``, and its value."""
    _, low, value = decay_facts(DECAY_WIDTH, NEAR_RANGE)
    return low, value


claim(
    "dot-product-not-monotone",
    "The dot product does not fall steadily with distance",
    Check(
        _not_monotone,
        true=(43, 3284),
        wrong=(MONOTONE_DECAY, RISES_STAYS_POSITIVE),
    ),
    Check(_minimum(DECAY_RANGE), true=decay_minimum()[0], wrong=(LOWEST_AT_THE_END,)),
    Check(_minimum(NEAR_RANGE), true=near_minimum()[0], wrong=(NEAR_LOWEST_AT_THE_END,)),
    statement=(
        r"\begin{gathered}f(k) = \sum_i \cos\omega_i k,\ d = 512: \text{ falls for }"
        r" 0 \le k \le 43,\ f(44) > f(43); \\ f(k) \ge 0 \text{ for } k < 3284,"
        rf"\ f(3284) < 0; \\ \min_{{0 \le k \le {DECAY_RANGE}}} f = f({decay_minimum()[0]})"
        rf" = {decay_minimum()[1]:.2f}, \\ \min_{{0 \le k \le {NEAR_RANGE}}} f ="
        rf" f({near_minimum()[0]}) = {near_minimum()[1]:.2f}\end{{gathered}}"
    ),
)


#: The true squared norm per dimension: :math:`\lVert PE(p) \rVert^2 = d/2`.
HALF = sp.Rational(1, 2)


def norm_per_pair(vector: Callable[[Any, Any], Any] = pair) -> Proof:
    r"""Prove :math:`\lVert v(p) \rVert^2 = 1`, hence :math:`\lVert PE(p) \rVert^2 = d/2`.

    Parameters
    ----------
    vector
        The pair ``(p, w) -> 2 x 1 Matrix``; :func:`pe.symbolic.pair` is the true one.
    """
    v = vector(P, OMEGA)
    statement = rf"\lVert {to_latex(v)} \rVert^2 = 1"
    derivation = Derivation()
    residual = sp.Matrix([v.dot(v) - 1])
    derivation.note("Residual: the squared norm minus 1", to_latex(residual))
    return derivation.proof("each pair has norm 1", statement, _closed(derivation, residual[0]))


def norm_concrete(per_dimension: Any = HALF, d_model: int = 8) -> Proof:
    r"""Prove :math:`\lVert PE(p) \rVert^2 = c\,d` for a concrete width; :math:`c = 1/2` is true."""
    omegas = symbolic.exact_frequencies(symbolic.exact_width(d_model, 64), 10000)
    vector = symbolic.encoding(P, omegas)
    target = sp.sympify(per_dimension) * d_model
    statement = rf"\lVert PE(p) \rVert^2 = {sp.latex(target)} \quad (d = {d_model})"
    derivation = Derivation()
    derivation.note("Residual: the sum of squares minus the claimed value", "")
    residual = derivation.pythagoras(sp.Matrix([vector.dot(vector) - target]))
    return derivation.proof(f"norm, d = {d_model}", statement, residual)


#: The pair :math:`(\sin\omega p, \cos 2\omega p)`.
MIXED_FREQUENCY_PAIR = Candidate(
    "pair (sin ωp, cos 2ωp)", lambda p, w: sp.Matrix([sp.sin(w * p), sp.cos(2 * w * p)])
)

#: Squared norm :math:`d` instead of :math:`d/2` (per dimension 1 instead of 1/2).
NORM_SQUARED_D = Candidate("norm² = d", sp.Integer(1))

#: Positions of the norm check: every p < 10^4 and three far ones.
NORM_POSITIONS = np.concatenate([np.arange(10_000), [10**6, 10**9, 2**40]])


def _norm(per_dimension: Any) -> Evidence:
    widths = (64, 512)
    worst = norm_error(widths, NORM_POSITIONS, float(per_dimension))
    # |PE(p)|^2 is a dot product of a row with itself; its square root halves the error
    tol = max(DOT_PRODUCT(d, 0.0) for d in widths)
    return within(
        worst,
        Tolerance(tol, DOT_PRODUCT.latex + r",\ \mathrm{reach} = 0"),
        f"d in (64, 512), p < 10^4 and p in ({', '.join(str(int(p)) for p in NORM_POSITIONS[10_000:])}): max | |PE(p)| - "
        f"sqrt({per_dimension * D}) | = {worst:.2g} (tolerance {tol:.2g})",
    )


claim(
    "norm-constant",
    "Every row has the same length",
    Check(by_proof(norm_per_pair), true=pair, wrong=(MIXED_FREQUENCY_PAIR,)),
    Check(by_proof(norm_concrete), true=HALF, wrong=(NORM_SQUARED_D,)),
    Check(_norm, true=HALF, wrong=(NORM_SQUARED_D,)),
    statement=r"\lVert PE(p) \rVert = \sqrt{d/2} \quad \text{for every } p",
)


def chord_squared(p: Any, q: Any, w: Any) -> Any:
    r"""The true squared distance :math:`2 - 2\cos\omega(p - q)` of one pair."""
    return 2 - 2 * sp.cos(w * (p - q))


def distance_identity(rhs: Callable[[Any, Any, Any], Any] = chord_squared) -> Proof:
    r"""Prove :math:`\lVert v(p) - v(q) \rVert^2 = 2 - 2\cos\omega(p - q)`.

    Parameters
    ----------
    rhs
        The right side ``(p, q, w) -> expression``; :func:`chord_squared` is the true one.
    """
    right = rhs(P, Q, OMEGA)
    gap = pair(P, OMEGA) - pair(Q, OMEGA)
    statement = rf"\lVert v_i(p) - v_i(q) \rVert^2 = {to_latex(right)}"
    derivation = Derivation()
    residual = sp.Matrix([gap.dot(gap) - right])
    derivation.note("Residual: the squared distance minus the right side", to_latex(residual))
    residual = _closed(derivation, residual[0])
    return derivation.proof("distance between two positions of one pair", statement, residual)


#: :math:`2 - 2\cos\omega(p+q)`: the sum of the positions instead of their difference.
SUM_ANGLE_DISTANCE = Candidate("2 − 2cos ω(p+q)", lambda p, q, w: 2 - 2 * sp.cos(w * (p + q)))

#: Frequencies :math:`2\pi/2^{j}`, ``j = 1 .. d/2``, as in a binary counter.
BINARY_COUNTER = Candidate(
    "frequencies 2π/2^j (a binary counter)",
    lambda d: np.asarray(2 * np.pi / 2.0 ** np.arange(1, d // 2 + 1)),
)

#: (n, d) settings for the smallest distance between rows.
ROW_SETTINGS = ((10_000, 64), (100_000, 64), (10_000, 512), (100_000, 512))


def _latex_set(values: Iterable[int]) -> str:
    r"""Distinct ``values`` in increasing order, thousands set apart: ``10\,000, 100\,000``."""
    return ", ".join(f"{v:,}".replace(",", r"\,") for v in sorted(set(values)))


#: Frequencies that are whole fractions of a turn, :math:`\omega_b = \pi / 2^b` (a binary
#: counter's bits as angles): position ``2^(b+1)`` brings pair ``b`` back exactly.
BINARY_TURNS = Candidate(
    "omega_b = pi / 2^b (a binary counter)", lambda d: [sp.pi / 2**b for b in range(d // 2)]
)

#: A frequency law as SymPy sees it: ``d -> [omega_0, ..., omega_(d/2-1)]``, exact.
FrequencyExpr = Callable[[int], list[Any]]


def _no_whole_turns(law: FrequencyExpr) -> Evidence:
    """Every pair's frequency is algebraic while pi is transcendental (Lindemann), so no
    integer offset ``p - q != 0`` is a whole number of turns of any pair."""
    d = 512
    frequencies = law(d)
    algebraic = sum(bool(omega.is_algebraic) for omega in frequencies)
    pi_transcendental = bool(sp.pi.is_transcendental)
    # the paper's law at every width: an integer to a rational power, for integer symbols i, d
    i, width = (
        sp.Symbol("i", integer=True, nonnegative=True),
        sp.Symbol("d", integer=True, positive=True),
    )
    every_width = bool((sp.Integer(10000) ** (-2 * i / width)).is_algebraic)
    every = algebraic == len(frequencies)
    return Evidence(
        Method.SYMPY,
        every and pi_transcendental and every_width,
        f"d={d}: {algebraic} of {len(frequencies)} of these frequencies are algebraic numbers "
        f"(SymPy); the paper's law 10000^(-2i/d) for integer symbols i, d (every width): "
        f"{'algebraic' if every_width else 'not decided algebraic'}; "
        f"pi is {'transcendental' if pi_transcendental else 'not known transcendental'}: "
        + (
            "omega_i (p - q) = 2 pi m would make pi algebraic"
            if every
            else "the argument needs every frequency algebraic and does not apply"
        ),
    )


#: Below this distance two rows count as the same row (far above a chord's rounding,
#: sqrt(d) (eps + u k omega) < 1e-9 for k < 10^5, d <= 512; far below the smallest true
#: distance measured, about 1e-4).
SAME_ROW = 1e-6


def _closest_text(law: FrequencyLaw, n: int, d: int) -> tuple[int, str]:
    """The offset of the closest rows of ``law`` among ``0 .. n-1`` (width ``d``), 0 when
    rows repeat, and the account: the closest offset and distance, or the first offset at
    which rows coincide (not the one float rounding happens to favour)."""
    # the chord of every offset, as nearest_rows forms it, kept to read repeats and ties
    chords = chord_lengths(law(d), np.arange(1, n))
    k = int(np.argmin(chords)) + 1
    distance = float(chords[k - 1])
    if distance <= SAME_ROW:
        first = int(np.argmax(chords <= SAME_ROW)) + 1
        return 0, f"n={n}, d={d}: rows {first} apart coincide (below {SAME_ROW:g})"
    # offsets whose chords agree with the smallest to 1e-9 (relative) tie: which of them
    # float rounding makes smallest is the processor's choice, so none is named closest
    ties = np.flatnonzero(chords <= distance * (1 + 1e-9)) + 1
    if ties.size > 1:
        return -1, f"n={n}, d={d}: {distance:.4g} ({ties.size} offsets tie, from {ties[0]})"
    return k, f"n={n}, d={d}: {distance:.4g} (offset {k})"


def _rows_distinct(law: FrequencyLaw) -> Evidence:
    found = [_closest_text(law, n, d) for n, d in ROW_SETTINGS]
    holds = all(k == 1 for k, _ in found)
    return checked(
        holds,
        "smallest distance between two rows (measured, every offset below n): "
        + "; ".join(text for _, text in found)
        + f"; the closest rows are distinct neighbours: {'yes' if holds else 'no'}",
    )


#: An offset scan that starts at offset 2: it misses the neighbours.
SCAN_FROM_TWO = Candidate(
    "the offsets scanned from 2",
    lambda n, d: float(row_distance_by_offset(np.arange(2, n), d, chord=True).min()),
)


def _scan_is_brute_force(scan: Callable[[int, int], float]) -> Evidence:
    """The offset scan (one chord per offset) against the brute force over every pair of
    rows of pe's table, ``n = 2000``, ``d = 64``."""
    brute = smallest_row_distance(2000, 64)[0]
    shortcut = scan(2000, 64)
    # the Gram matrix's rounding (the chord formula keeps full relative precision: a few eps)
    rounding = GRAM_DISTANCE(64, shortcut) + 8 * EPS64 * shortcut
    return checked(
        True,
        f"pe's table, n=2000, d=64: brute force over all pairs {brute:.6g}, offset scan "
        f"{shortcut:.6g}: {judged_within(abs(brute - shortcut), rounding)}",
        error=abs(brute - shortcut),
        tolerance=Tolerance(rounding, r"\text{Gram distance} + 8\varepsilon D"),
    )


def _rows_repeat_never(law: FrequencyLaw) -> Evidence:
    k, text = _closest_text(law, 1000, 16)
    return checked(
        k != 0,
        f"smallest distance between two rows, {text}; no two rows coincide: "
        f"{'yes' if k != 0 else 'no'}",
    )


claim(
    "rows-distinct",
    "Every position has its own row",
    Check(
        by_proof(distance_identity),
        true=chord_squared,
        wrong=(SUM_ANGLE_DISTANCE,),
    ),
    Check(
        _no_whole_turns,
        true=partial(symbolic.exact_frequencies, base=10000),
        wrong=(BINARY_TURNS,),
    ),
    Check(_rows_distinct, true=numeric.frequencies, wrong=(BINARY_COUNTER,)),
    Check(_rows_repeat_never, true=numeric.frequencies, wrong=(BINARY_COUNTER,)),
    Check(
        _scan_is_brute_force,
        true=lambda n, d: nearest_rows(n, d)[1],
        wrong=(SCAN_FROM_TWO,),
    ),
    statement=(
        r"\begin{gathered}\lVert PE(p) - PE(q) \rVert^2 = \sum_i \bigl(2 - 2\cos\omega_i"
        r" (p - q)\bigr) > 0 \text{ for integers } p \ne q \\ \text{(no } \omega_i (p - q)"
        r" \text{ is a whole number of turns: Lindemann);} \\ \text{measured for }"
        rf" n \in \{{{_latex_set(n for n, _ in ROW_SETTINGS)}\}},"
        rf"\ d \in \{{{_latex_set(d for _, d in ROW_SETTINGS)}\}}:"
        r" \text{ the closest rows are neighbours}\end{gathered}"
    ),
)


claim(
    "pairs-never-return",
    "No pair ever returns exactly to a former value",
    Check(
        _no_whole_turns,
        true=partial(symbolic.exact_frequencies, base=10000),
        wrong=(BINARY_TURNS,),
    ),
    statement=(
        r"\begin{gathered} \omega_i = 10000^{-2i/d} \text{ algebraic},\ \pi \text{ transcendental}"
        r" \\ \implies \omega_i (p - q) \ne 2\pi m \text{ for integers } p \ne q,\ m"
        r" \end{gathered}"
    ),
    source="lindemann1882",
)


def _pair0_at(frequency: Callable[[Float64Array], float]) -> FrequencyLaw:
    """The true frequencies, pair 0's replaced by ``frequency(true frequencies)``."""

    def law(d: int) -> Float64Array:
        omega = numeric.frequencies(d)
        omega[0] = frequency(omega)
        return omega

    return law


#: Blocks that turn pair 0 by the angle of the slowest pair.
PAIR0_SLOWEST_ANGLE = Candidate(
    "pair 0 turned by pair d/2 − 1's angle", _pair0_at(lambda omega: float(omega[-1]))
)

#: Pair 0 at :math:`\omega = 2\pi/8`: period 8, a whole fraction of a turn.
RATIONAL_PERIOD = Candidate(
    "pair 0 with ω = 2π/8 (period 8)", _pair0_at(lambda _omega: 2 * np.pi / 8)
)


def _every_pair(blocks: FrequencyLaw) -> Evidence:
    d, n = 512, 10_000
    ratio = pair_shift_ratio(d, n, (1, 7, 500), blocks)
    omega = blocks(d)
    distances, where = pair_min_distance(omega, n)
    floor = 1000 * np.broadcast_to(phase_tolerance(EPS64, omega, n), omega.shape)
    distinct = bool(np.all(distances > floor))

    def closest(pair: int) -> str:
        if distances[pair] > floor[pair]:
            return (
                f"closest two positions are {where[pair]} apart at distance {distances[pair]:.3g}"
            )
        # a repeat: the first offset within rounding, not the one rounding happens to favour
        first = int(np.argmax(pair_distances(omega[[pair]], n)[:, 0] <= floor[pair])) + 1
        return (
            f"positions {first} apart coincide (distance within rounding, below {floor[pair]:.2g})"
        )

    return checked(
        ratio <= 1.0 and distinct,
        f"d={d}, p < {n}: every pair's block maps v_i(p) to v_i(p+k) for k in (1, 7, 500), "
        f"worst error/tolerance {ratio:.2g}; every pair alone separates all positions: "
        f"pair 0's {closest(0)}, pair {d // 2 - 1}'s {closest(d // 2 - 1)}",
        error=ratio,
        tolerance=SHIFT.per_entry("per pair"),
    )


#: Which offsets the fastest and the slowest pair of ``d = 512`` confuse most among 10^4
#: positions: (pair 0's closest offset, pair 255's closest offset). The fast pair comes
#: back near itself after a multiple of about :math:`2\pi` positions, the slow one is
#: closest between neighbours.
CONFUSED_OFFSETS = (710, 1)
#: The old wording "the split does not exist" read as "every pair confuses the same offsets".
SAME_MARGINS = Candidate("every pair confuses the same positions (no difference)", (1, 1))
#: The split turned round: the fast pair confuses neighbours, the slow one far positions.
REVERSED_MARGINS = Candidate("the fast pair confuses neighbours, the slow one far ones", (1, 710))


def _margins(stated: tuple[int, int]) -> Evidence:
    r"""The offset at which pair 0 and pair ``d/2 - 1`` come closest, among 10^4 positions.

    Exact integer offsets; the distances :math:`2|\sin(k\omega_i/2)|` are compared only to
    find the smallest, and the runner-up of each pair is more than 1.5 times as far (checked),
    far beyond the rounding of a sine (:math:`\varepsilon` plus the angle's :math:`u\,k\omega`).
    """
    d, n = 512, 10_000
    distance = pair_distances(numeric.frequencies(d)[[0, -1]], n)
    order = np.sort(distance, axis=0)
    clear = bool(np.all(order[1] > 1.5 * order[0]))
    found = tuple(int(k) for k in np.argmin(distance, axis=0) + 1)
    return checked(
        found == tuple(stated) and clear,
        f"d={d}, positions 0..{n - 1}: pair 0 comes closest to itself at offset {found[0]} "
        f"(distance {order[0, 0]:.2g}, next {order[1, 0]:.2g}); pair {d // 2 - 1} at offset "
        f"{found[1]} (distance {order[0, 1]:.2g}, next {order[1, 1]:.2g}); stated {stated}",
    )


claim(
    "every-pair-relative-and-absolute",
    "Every pair carries both relative and absolute position",
    Check(by_proof(rotation_identity), true=shift_block, wrong=(TRANSPOSED_BLOCK,)),
    Check(
        _no_whole_turns,
        true=partial(symbolic.exact_frequencies, base=10000),
        wrong=(BINARY_TURNS,),
    ),
    Check(
        _every_pair,
        true=numeric.frequencies,
        wrong=(PAIR0_SLOWEST_ANGLE, RATIONAL_PERIOD),
    ),
    Check(_margins, true=CONFUSED_OFFSETS, wrong=(SAME_MARGINS, REVERSED_MARGINS)),
    statement=(
        r"\begin{gathered}\text{for every pair } i:\quad B(k\omega_i)\,v_i(p) = v_i(p+k)"
        r" \\ \text{and}\quad v_i(p) \ne v_i(q) \text{ for integers } p \ne q"
        r" \text{ (Lindemann)}; \\"
        r" d = 512,\ p < 10^4: \text{ pair 0 comes closest to itself at offset 710, pair 255"
        r" at offset 1}\end{gathered}"
    ),
)

#: The four terms of the score with content, in the order of :func:`attention_four_terms`.
TERM_NAMES = ("x^T W y", "x^T W e_q", "e_p^T W y", "e_p^T W e_q")

#: Every term kept: the true expansion.
ALL_TERMS = (0, 1, 2, 3)


def attention_four_terms(terms: Sequence[int] = ALL_TERMS) -> Proof:
    r"""Prove the four-term expansion of the score with content and positions, for one pair.

    .. math::

        (x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y + x^{\mathsf T} W e_q
        + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q,
        \qquad W = W_q^{\mathsf T} W_k,

    with :math:`x, y` symbolic content, :math:`e_p = v(p)`, :math:`e_q = v(q)` and
    :math:`W` a general symbolic :math:`2 \times 2` matrix.

    Parameters
    ----------
    terms
        Indices into :data:`TERM_NAMES` of the terms on the right side; all four are true.
    """
    x = sp.Matrix(sp.symbols("x_1 x_2", real=True))
    y = sp.Matrix(sp.symbols("y_1 y_2", real=True))
    ep, eq = pair(P, OMEGA), pair(Q, OMEGA)
    products = [x.T * _W * y, x.T * _W * eq, ep.T * _W * y, ep.T * _W * eq]
    left = ((x + ep).T * _W * (y + eq))[0]
    right = sum((products[t][0] for t in terms), sp.Integer(0))
    statement = (
        r"(x + e_p)^{\mathsf T} W (y + e_q) = "
        + " + ".join(TERM_NAMES[t].replace("^T", r"^{\mathsf T}") for t in terms)
        + r", \quad W = W_q^{\mathsf T} W_k"
    )
    derivation = Derivation()
    derivation.note("W is a general 2 × 2 matrix", to_latex(_W))
    residual = derivation.apply(
        "Residual: the score minus the sum of the terms, multiplied out",
        sp.Matrix([left - right]),
        sp.expand,
        calls=("expand",),
    )
    return derivation.proof("four-term expansion of the score", statement, residual)


#: The score with only the content-content and position-position terms.
CROSS_TERMS_DROPPED = Candidate("cross terms dropped", (0, 3))

claim(
    "attention-score-four-terms",
    "With content added, the score has four terms",
    Check(
        by_proof(attention_four_terms),
        true=ALL_TERMS,
        wrong=(CROSS_TERMS_DROPPED,),
    ),
    statement=(
        r"\begin{gathered}(x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y"
        r" + x^{\mathsf T} W e_q + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q, \\"
        r" W = W_q^{\mathsf T} W_k\end{gathered}"
    ),
)


def position_term(form: Callable[[Any], Any] = sum_and_difference) -> Proof:
    r"""Prove the sum-and-difference form of :math:`e_p^{\mathsf T} W e_q` for one pair.

    The :math:`\cos\omega(p+q)` and :math:`\sin\omega(p+q)` terms vanish only when
    :math:`w_{22} = w_{11}` and :math:`w_{21} = -w_{12}` (a scaled rotation).

    Parameters
    ----------
    form
        The right side as a function of the general block ``W``;
        :func:`sum_and_difference` is the true one.
    """
    left = (pair(P, OMEGA).T * _W * pair(Q, OMEGA))[0]
    right = form(_W)
    statement = rf"e_p^{{\mathsf T}} W e_q = {to_latex(right)}"
    derivation = Derivation()
    derivation.note("Residual: the position-position term minus the right side", "")
    residual = derivation.angle_addition(sp.Matrix([left - right]))
    return derivation.proof("the position-position term", statement, residual)


#: :math:`e_p^{\mathsf T} W e_q` with the :math:`p - q` terms only.
DIFFERENCE_ONLY = Candidate("p − q terms only", difference_terms)

#: :math:`W = I`: the raw dot product, a function of :math:`q - p`.
IDENTITY_PROJECTION = Candidate("W = I", IDENTITY)

#: :math:`W` made of scaled rotations, which commute with every :math:`T_k`.
ROTATION_PROJECTION = Candidate("W of scaled rotations", ROTATION)


def _not_relative(projection: Projection, content: float = 0.0) -> Evidence:
    n, d = 300, 64
    spread, scale = offset_spread(scores(n, d, projection=projection, content=content))
    ratio = spread / scale
    return checked(
        ratio > 0.1,
        f"d={d}, n={n}, W = {projection.name}, content scale {content}: largest spread along "
        f"one diagonal q - p = const is {measured(ratio, 0.1)} times the scores' std",
    )


#: The one setting where the score is relative: :math:`W` of scaled rotations and no content
#: (with a content vector only :math:`W = 0` is relative: the cross terms need
#: :math:`W x = W^{\mathsf T} x = 0`).
ROTATION_WITHOUT_CONTENT = Candidate("W of scaled rotations, no content", (0.0, ROTATION))


#: Integer projections whose additive score is not a function of the offset (exactly).
_WQ = ((1, 2), (0, 1))
_WK = ((2, 0), (1, 1))


def _matrix(rows: Sequence[Sequence[int]]) -> str:
    return "[" + ",".join("[" + ",".join(str(e) for e in row) + "]" for row in rows) + "]"


def _counterexample(projections: tuple[Any, Any]) -> Evidence:
    w_q, w_k = projections
    proof, value = additive_counterexample(w_q, w_k)
    # SymPy decides the sign of a sum of products of sin 1 and cos 1 (both positive)
    found = (not proof.holds) and value.is_zero is False
    return Evidence(
        Method.SYMPY,
        bool(found),
        f"W_q = {_matrix(w_q)}, W_k = {_matrix(w_k)}: s(1, 1) − s(0, 0) = {value} exactly at "
        f"pair 0, ω₀ = 1 (offset 0 both times); {'a counter-example' if found else 'no counter-example'}",
        proof,
    )


def _spread(candidate: ProjectedScores) -> Evidence:
    spreads = offset_spreads(candidate)
    return checked(
        min(spreads) > 1e-3,
        "scores after W_q, W_k, d=64, m = 0, 7, ..., 1995: spread of s(m, m+k) over m for "
        "k = 0, 1, 10: "
        + ", ".join(measured(v, 1e-3) for v in spreads)
        + " (> 1e-3 means not a function of the offset)",
    )


claim(
    "projected-score-not-relative",
    "After the projections the score is not a function of $p - q$ alone",
    Check(
        by_proof(position_term),
        true=sum_and_difference,
        wrong=(DIFFERENCE_ONLY,),
    ),
    Check(_counterexample, true=(_WQ, _WK), wrong=(IDENTITY_PROJECTIONS,)),
    Check(
        _not_relative,
        true=RANDOM,
        wrong=(IDENTITY_PROJECTION, ROTATION_PROJECTION),
    ),
    Check(
        lambda setting: _not_relative(setting[1], content=setting[0]),
        true=(1.0, RANDOM),
        wrong=(ROTATION_WITHOUT_CONTENT,),
    ),
    Check(
        lambda setting: _not_relative(setting[1], content=setting[0]),
        true=(1.0, IDENTITY),
        wrong=(ROTATION_WITHOUT_CONTENT,),
    ),
    Check(
        _spread,
        true=additive_scores,
        wrong=(ROPE_AFTER_PROJECTION,),
    ),
    statement=(
        r"\begin{gathered}e_p^{\mathsf T} W e_q = \tfrac{w_{11}+w_{22}}{2}\cos\omega(p-q)"
        r" + \tfrac{w_{12}-w_{21}}{2}\sin\omega(p-q) \\"
        r" + \tfrac{w_{22}-w_{11}}{2}\cos\omega(p+q) + \tfrac{w_{12}+w_{21}}{2}\sin\omega(p+q)"
        r" \text{ per pair;} \\ \exists\, W_q, W_k:\ \langle W_q PE(m), W_k PE(n)\rangle"
        r" \text{ is not a function of } n - m \\ \text{(nor, measured, for random } W_q, W_k"
        rf" \text{{ with {RANDOM_ROWS} rows, with or without a content vector,}}"
        r" \\ \text{nor for } W = I \text{ once a content vector is added)}\end{gathered}"
    ),
)


def _coupled_rotation(rng: np.random.Generator, d: int) -> npt.NDArray[np.float64]:
    w = ROTATION.build(rng, d)
    w[0:2, 2:4] += np.eye(2)  # couples pair 0 to pair 1
    return w


#: Scaled rotations on the diagonal (each block passes the per-pair condition) and one
#: non-zero block coupling pairs 0 and 1.
COUPLED_ROTATION_PROJECTION = Candidate(
    "scaled rotations plus one block coupling pairs 0 and 1",
    Projection("rotations plus a coupling block", _coupled_rotation),
)

#: Random :math:`W_q^{\mathsf T} W_k`.
RANDOM_PROJECTION = Candidate("random W", RANDOM)


def _relative_only(projection: Projection) -> Evidence:
    """Is the position-position term e_p^T W e_q a function of q - p alone, to rounding?"""
    spread, scale = offset_spread(scores(300, 64, projection=projection))
    ratio = spread / scale
    # two entries of one diagonal, equal exactly, each within the scores' rounding bound
    rounding = 2 * score_rounding(300, 64, projection=projection) / scale
    return within(
        ratio,
        Tolerance(
            rounding, r"2\max(2\gamma_d |R||W||R|^{\mathsf T} + \delta(\dots)) / \mathrm{std}"
        ),
        f"d=64, n=300, W = {projection.name}: largest spread along one diagonal q - p = const "
        f"is {measured(ratio, rounding)} times the scores' std (a function of q - p: at most the rounding "
        f"bound {rounding:.2g})",
    )


def _coupling_block_breaks_offset(pairs: tuple[int, int]) -> Evidence:
    """Is a block that couples pair ``pairs[0]`` with pair ``pairs[1]`` relative only when it
    is zero (:func:`pe.position_scores.relative_blocks`, exact)?"""
    groups, solutions = relative_blocks(same_frequency=pairs[0] == pairs[1])
    return Evidence(
        Method.SYMPY,
        solutions == sp.FiniteSet((0, 0, 0, 0)),
        f"block between pairs {pairs[0]} and {pairs[1]}: {groups} exponentials in "
        f"(p, q, t), each coefficient zero; the blocks keeping s a function of q - p: "
        f"{solutions}",
    )


claim(
    "position-term-relative-condition",
    "Relative only when every block is a scaled rotation and no block couples two pairs",
    Check(
        _relative_only,
        true=ROTATION,
        wrong=(COUPLED_ROTATION_PROJECTION, RANDOM_PROJECTION),
    ),
    Check(
        _coupling_block_breaks_offset,
        true=(0, 1),
        wrong=(Candidate("a block of one pair with itself", (0, 0)),),
    ),
    statement=(
        r"\begin{gathered}W = \operatorname{diag}\bigl(\bigl[\begin{smallmatrix} a_i & b_i"
        r" \\ -b_i & a_i \end{smallmatrix}\bigr]\bigr) \implies e_p^{\mathsf T} W e_q ="
        r" f(q - p); \\ \text{a non-zero block } W_{ij},\ i \ne j, \text{ adds terms in }"
        r" \omega_i p - \omega_j q \text{: not a function of } q - p"
        r" \\ \text{(proved for any frequencies } \omega_i \ne \omega_j)\end{gathered}"
    ),
)


def _content_breaks_the_offset(content: tuple[int, int]) -> Evidence:
    """With ``x = y = content``, is the raw score different at ``(1, 1)`` and ``(0, 0)``, the
    same offset (:func:`pe.position_scores.content_gap`, exact)?"""
    gap = content_gap(content)
    moved = gap.is_zero is False
    return Evidence(
        Method.SYMPY,
        moved,
        f"W = I, one pair, content x = y = {content}: s(1, 1) - s(0, 0) = {gap}"
        + (" (exact, non-zero): the offset is 0 both times" if moved else ": no counter-example"),
    )


claim(
    "content-breaks-raw-offset",
    "With content, even the raw dot product is not a function of the offset",
    Check(
        _content_breaks_the_offset,
        true=(1, 0),
        wrong=(Candidate("no content: the raw score stays relative", (0, 0)),),
    ),
    statement=(
        r"\begin{gathered} (x + e_p)^{\mathsf T} (y + e_q) = x^{\mathsf T} y + x^{\mathsf T} e_q"
        r" + e_p^{\mathsf T} y + \cos \omega(p - q) \text{ per pair;} \\"
        r" x = y = (1, 0),\ \omega = 1:\ s(1, 1) - s(0, 0) = 2 \sin 1 \ne 0 \end{gathered}"
    ),
)

claim(
    "vectree-frequency-split",
    "A write-up splits absolute and relative position between the frequencies",
    statement=(
        r"\text{vectree.io assigns fine-grained local order to the high-frequency dimensions"
        r" and broad global position to the low-frequency ones}"
    ),
    source="vectree",
)

claim(
    "khapra-closer-positions",
    "Course notes: closer positions have closer encodings",
    statement=(
        r"\text{Khapra's course notes (sinusoidal position encoding): positions closer to each"
        r" other have closer vectors}"
    ),
    source="khapra-notes",
)
