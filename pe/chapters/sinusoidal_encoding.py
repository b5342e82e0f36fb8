r"""The sinusoidal encoding (``docs/sinusoidal-encoding.py``): indices, wavelengths, conventions, means, geometry.

Notation (the paper's): width ``d`` (even), pair index ``i = 0, ..., d/2 - 1``, position
``p``, :math:`\omega_i = 10000^{-2i/d}`, :math:`PE(p, 2i) = \sin \omega_i p`,
:math:`PE(p, 2i+1) = \cos \omega_i p`, wavelength :math:`\lambda_i = 2\pi/\omega_i`.

The proofs, each of the candidate it is given (the true one by default; a wrong one leaves
a non-zero residual): the wavelengths form a geometric progression of ratio
:math:`10000^{2/d}` from :math:`2\pi` to :math:`2\pi \cdot 10000^{(d-2)/d}`
(:func:`wavelength_progression`); doubling the width keeps every frequency,
:math:`\omega_i^{(d)} = \omega_{2i}^{(2d)}` (:func:`width_refinement`); one step moves a
pair by :math:`2\sin(\omega/2)` (:func:`step_distance`); sine and cosine average to 0 over
a full period (:func:`period_mean`); concatenating then projecting is adding two
projections (:func:`concat_projection`). The 1-indexed convention,
:math:`\sin(t / 10000^{2i/d})` with :math:`0 < i \le d/2`, shifts the paper's frequencies
by one step: its highest is :math:`10000^{-2/d}`, not 1.

The measurements hold the library (:mod:`pe.frequency_ladder`, :mod:`pe.column_means`,
:mod:`pe.embeddings`, :mod:`pe.concatenation`, :mod:`pe.binary`, :mod:`pe.geometry`) to
exact values from :mod:`pe.reference`; token embeddings are i.i.d. :math:`N(0, 1)`
vectors, seeded.

Examples
--------
>>> least_periods(binary_bits(64, 3))
(2, 4, 8)
>>> period_mean().holds, period_mean(2).holds
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, bug_zoo, conventions, from_scratch, numeric, reference
from pe._machine_dependent import judged_within, measured_within
from pe._tolerance import (
    EPS64,
    FREQUENCY_ROUNDING,
    Tolerance,
    exponential_rounding,
    gamma,
    phase_tolerance,
    power_rounding,
)
from pe.binary import binary_bits, least_periods
from pe.claims import (
    Candidate,
    Chapter,
    Check,
    Evidence,
    Method,
    at_most,
    by_proof,
    checked,
    within,
)
from pe.column_means import column_means, column_means_exact
from pe.concatenation import (
    Projection,
    layer_matrices,
    projection_cost,
    projection_text,
    separate_projections,
)
from pe.embeddings import (
    Embeddings,
    cosine_embedding_encoding,
    embeddings_plus_pe0,
    encoding_row_embeddings,
    encoding_subspace_share,
    random_embeddings,
)
from pe.error_models import ENTRY, GRAM_DISTANCE, OFFSET_DISTANCE
from pe.frequency_ladder import (
    one_indexed_frequencies,
    pair_column_census,
    paper_wavelength,
    ratio_equals_two_width,
    slowest_frequency,
    wavelengths,
)
from pe.geometry import chord_squared, neighbour_distance, rows_distance_past
from pe.symbolic import BASE, Derivation, P, Proof, pair, to_latex
from pe.symbolic_attention import symbolic_matrix

chapter = Chapter(__name__, follows="failed_designs")
claim = chapter.claim


_I = sp.Symbol("i", integer=True, nonnegative=True)
_D = sp.Symbol("d", integer=True, positive=True)


def _one_indexed_table(n: int, d: int) -> npt.NDArray[np.float64]:
    return np.asarray(conventions.get("one-indexed").table(n, d), dtype=np.float64)


#: The doubled exponent's table ``(n, d) -> (n, d)``, with the doubled exponent.
DOUBLED_EXPONENT_TABLE = Candidate("the doubled exponent", bug_zoo.doubled_exponent)

#: The 1-indexed table ``(n, d) -> (n, d)``: every frequency the paper's next one.
ONE_INDEXED_TABLE = Candidate("the 1-indexed frequencies", _one_indexed_table)

#: The width of every check (the paper's base model).
D = 512
U = EPS64 / 2

#: pe's bound :math:`\delta` on every entry of its float64 table.
DELTA = ENTRY()

#: A table-making function ``(n, d) -> (n, d)``.
Table = Callable[[int, int], npt.NDArray[np.float64]]


#: The pair index read one-indexed, :math:`1 \le i \le d/2` (d = 512): pair 256 has no
#: columns and columns 0, 1 are never written.
ONE_INDEXED_PAIRS = Candidate("1 <= i <= d/2 (one-indexed)", range(1, 257))

#: The pair index read as a column index, :math:`0 \le i < d` (d = 512): 256 pairs too many.
PAIRS_AS_COLUMNS = Candidate("0 <= i < d (i read as a column)", range(512))

#: "i from 0 to d/2" read inclusively (d = 512): one pair too many.
INCLUSIVE_PAIRS = Candidate("0 <= i <= d/2 (inclusive)", range(257))


def _columns(pairs: range) -> Evidence:
    """Do the pair indices ``pairs`` account for the columns of pe's table, each once?"""
    census = pair_column_census(pairs, D)
    return checked(
        census.matched == len(pairs) and census.missing == 0 and census.each_column_once,
        f"pe's table, d={D}, has {census.columns} columns; pairs i = {pairs.start}.."
        f"{pairs.stop - 1}: {census.matched} are sin, cos(p 10000^(-2i/d)) in columns 2i, 2i+1 "
        f"(within 8 eps, p < 8), {census.missing} have no columns; every pair has its columns: "
        f"{'yes' if census.matched == len(pairs) and census.missing == 0 else 'no'}; every "
        f"column written once: {'yes' if census.each_column_once else 'no'}",
    )


#: The widths of the every-width part of ``pair-index-range``: every even d up to this.
EVERY_WIDTH = 8192


def _every_width(pairs_of: Callable[[int], range]) -> Evidence:
    """Do the columns 2i, 2i+1 of the pairs ``pairs_of(d)`` cover 0 .. d-1, each once, for
    every even d up to :data:`EVERY_WIDTH`? (Any d: column c is 2i + r, i = c // 2.)"""
    failing = [
        d
        for d in range(2, EVERY_WIDTH + 1, 2)
        if not np.array_equal(
            np.sort(np.concatenate([2 * np.array(pairs_of(d)), 2 * np.array(pairs_of(d)) + 1])),
            np.arange(d),
        )
    ]
    return checked(
        not failing,
        f"every even d = 2..{EVERY_WIDTH}: columns 2i, 2i+1 of the pairs cover 0..d-1 once in "
        f"{EVERY_WIDTH // 2 - len(failing)} of {EVERY_WIDTH // 2} widths"
        + (f" (not at d = {failing[0]}, ...)" if failing else ""),
    )


def _pair_range(d: int) -> range:
    return range(d // 2)


#: The same misreadings at every width.
ONE_INDEXED_EVERY = Candidate("1 <= i <= d/2 (one-indexed)", lambda d: range(1, d // 2 + 1))
INCLUSIVE_EVERY = Candidate("0 <= i <= d/2 (inclusive)", lambda d: range(d // 2 + 1))

claim(
    "pair-index-range",
    r"The pair index runs over $0 \le i < d/2$",
    Check(
        _columns,
        true=range(D // 2),
        wrong=(ONE_INDEXED_PAIRS, PAIRS_AS_COLUMNS, INCLUSIVE_PAIRS),
    ),
    Check(_every_width, true=_pair_range, wrong=(ONE_INDEXED_EVERY, INCLUSIVE_EVERY)),
    statement=(
        r"\begin{gathered} \{2i, 2i+1 : 0 \le i < d/2\} = \{0, 1, \dots, d-1\} \\"
        r" d/2 \text{ pairs, each column once (column } j = 2i + s,\ s \in \{0, 1\},"
        r"\ i = \lfloor j/2 \rfloor;"
        rf" \\ \text{{checked at every even }} d \le {EVERY_WIDTH} \text{{ and against pe's"
        rf" table at }} d = {D}) \end{{gathered}}"
    ),
)


_BASE = sp.Integer(10000)


class WavelengthLaw(NamedTuple):
    r"""A statement about the wavelengths: :math:`\lambda_i` and the last one, :math:`\lambda_{d/2-1}`.

    Attributes
    ----------
    wavelength
        :math:`\lambda_i` as a SymPy expression of ``(i, d)``.
    last
        The stated last wavelength as a SymPy expression of ``d``.
    last_text
        How the stated last wavelength reads ("2π·10000^((d−2)/d)").
    """

    wavelength: Callable[[Any, Any], Any]
    last: Callable[[Any], Any]
    last_text: str


def _paper_last(d: Any) -> Any:
    return 2 * sp.pi * _BASE ** ((d - 2) / d)


#: The paper's wavelengths and their last one, :math:`2\pi \cdot 10000^{(d-2)/d}`.
PAPER_WAVELENGTHS = WavelengthLaw(paper_wavelength, _paper_last, "2π·10000^((d−2)/d)")


def wavelength_progression(law: WavelengthLaw = PAPER_WAVELENGTHS) -> Proof:
    r"""Prove the wavelength law: ratio :math:`10000^{2/d}`, first :math:`2\pi`, last short of :math:`2\pi \cdot 10000`.

    Residuals (symbolic ``i`` and ``d``, exact base 10000), with :math:`\lambda` the
    candidate's wavelength and ``L`` its stated last wavelength:

    1. :math:`\lambda_{i+1}/\lambda_i - 10000^{2/d}`;
    2. :math:`\lambda_0 - 2\pi`;
    3. :math:`\lambda_{d/2-1} - L`;
    4. :math:`\lambda_{d/2-1} / (2\pi\cdot 10000) - 10000^{-2/d}`.

    Examples
    --------
    >>> wavelength_progression().summary()
    'wavelengths form a geometric progression: 3 steps, residual is exactly 0'
    """
    lam = law.wavelength
    derivation = Derivation()
    derivation.note(
        "Wavelength of pair i", rf"\lambda_i = \frac{{2\pi}}{{\omega_i}} = {sp.latex(lam(_I, _D))}"
    )
    residual = sp.Matrix(
        [
            lam(_I + 1, _D) / lam(_I, _D) - _BASE ** (sp.Integer(2) / _D),
            lam(0, _D) - 2 * sp.pi,
            lam(_D / 2 - 1, _D) - law.last(_D),
            lam(_D / 2 - 1, _D) / (2 * sp.pi * _BASE) - _BASE ** (-sp.Integer(2) / _D),
        ]
    )
    derivation.note(
        "Residuals: ratio, first, last, last against 2π·10000", sp.latex(residual), residual
    )
    residual = derivation.apply(
        "Combine the powers of 10000, then expand the exponents",
        residual,
        lambda e: sp.expand(sp.powsimp(sp.expand(e), force=True)),
        calls=("powsimp", "expand"),
    )
    return derivation.proof(
        "wavelengths form a geometric progression",
        r"\begin{gathered} \lambda_{i+1} / \lambda_i = 10000^{2/d},\quad \lambda_0 = 2\pi \\"
        r" \lambda_{d/2-1} = 2\pi\cdot 10000^{(d-2)/d} = 2\pi \cdot 10000 \cdot 10000^{-2/d}"
        r" \end{gathered}",
        residual,
    )


def _doubled_exponent_wavelength(i: Any, d: Any) -> Any:
    return 2 * sp.pi * _BASE ** (4 * i / d)


#: The stated last wavelength :math:`2\pi \cdot 10000` (the paper's sentence), one step too far.
LAST_WAVELENGTH_2PI_BASE = Candidate(
    "last = 2π·10000",
    PAPER_WAVELENGTHS._replace(last=lambda _d: 2 * sp.pi * 10000, last_text="2π·10000"),
)

#: The doubled exponent :math:`4i/d`: the index already steps by 2 and is doubled again.
DOUBLED_EXPONENT_WAVELENGTHS = Candidate(
    "doubled exponent",
    PAPER_WAVELENGTHS._replace(wavelength=_doubled_exponent_wavelength),
)


def _wavelengths(law: WavelengthLaw) -> Evidence:
    lam = wavelengths(D)
    ratios = lam[1:] / lam[:-1]
    expected_last = float(sp.lambdify(_D, law.last(_D), "numpy")(D))
    ratio_error = float(np.abs(ratios / 10000.0 ** (2 / D) - 1).max())
    last_error = abs(lam[-1] / expected_last - 1)
    first_error = abs(lam[0] / (2 * np.pi) - 1)
    # each wavelength: a frequency and 2 pi / omega, so r_omega + 2u; a ratio of two, a
    # power and a quotient: at most three such errors
    rounding = Tolerance(
        3 * (FREQUENCY_ROUNDING + 2 * U), r"3(r_\omega + 2u),\ r_\omega = u \text{ (relative)}"
    )
    return within(
        max(ratio_error, last_error, first_error),
        rounding,
        f"d={D}: λ_0 = {lam[0]:.6f}, λ_255 = {lam[-1]:.1f} against {law.last_text} = "
        f"{expected_last:.1f} (relative error {judged_within(last_error, rounding.value)}); "
        f"consecutive ratios against 10000^(2/d): relative error "
        f"{judged_within(ratio_error, rounding.value)}",
    )


#: How far the last wavelength falls short of :math:`2\pi \cdot 10000`, in percent (two
#: significant digits) at the widths ``8, 128, 512``: the factor :math:`1 - 10000^{-2/d}`.
SHORTFALL_WIDTHS = (8, 128, 512)
SHORTFALL_PERCENT = (90.0, 13.0, 3.5)
#: The last wavelength read as "just under" :math:`2\pi \cdot 10000` at every width.
JUST_UNDER_EVERYWHERE = Candidate("just under 2π·10000 at every width", (3.5, 3.5, 3.5))


def _shortfall(stated: tuple[float, ...]) -> Evidence:
    r"""The last wavelength against :math:`2\pi \cdot 10000` at each of :data:`SHORTFALL_WIDTHS`.

    Error model: :math:`\lambda_{d/2-1} = 2\pi/\omega_{d/2-1}` is within
    :math:`r_\omega + 2u` relative, and the ratio to :math:`2\pi \cdot 10000` one more
    :math:`u`; the percentages shown (two significant digits) are compared exactly, each
    more than :math:`10^{-3}` of a digit from a rounding boundary.
    """
    shortfall = [1.0 - float(wavelengths(d)[-1]) / (2 * np.pi * 10000.0) for d in SHORTFALL_WIDTHS]
    percent = tuple(float(f"{100 * x:.2g}") for x in shortfall)
    return checked(
        percent == tuple(stated),
        "; ".join(
            f"d={d}: λ_last = {wavelengths(d)[-1]:.6g}, {100 * x:.3f}% under 2π·10000"
            for d, x in zip(SHORTFALL_WIDTHS, shortfall, strict=True)
        )
        + f" (stated: {', '.join(f'{p:g}%' for p in stated)}: "
        + f"{'the same' if percent == tuple(stated) else 'differs'})",
    )


claim(
    "wavelength-progression",
    r"Wavelengths: a geometric progression from $2\pi$ to $2\pi \cdot 10000^{(d-2)/d}$,"
    r" short of $2\pi \cdot 10000$ by the factor $10000^{-2/d}$",
    Check(
        by_proof(wavelength_progression),
        true=PAPER_WAVELENGTHS,
        wrong=(LAST_WAVELENGTH_2PI_BASE, DOUBLED_EXPONENT_WAVELENGTHS),
    ),
    Check(_wavelengths, true=PAPER_WAVELENGTHS, wrong=(LAST_WAVELENGTH_2PI_BASE,)),
    Check(_shortfall, true=SHORTFALL_PERCENT, wrong=(JUST_UNDER_EVERYWHERE,)),
    statement=(
        r"\begin{gathered} \lambda_i = 2\pi\cdot 10000^{2i/d},\quad \lambda_{i+1} / \lambda_i = 10000^{2/d} \\"
        r" \lambda_{d/2-1} = 2\pi\cdot 10000^{(d-2)/d} = 2\pi\cdot 10000 \cdot 10000^{-2/d}:"
        r" \text{ under it by } 3.5\,\% \ (d = 512),\ 13\,\% \ (d = 128),\ 90\,\% \ (d = 8)"
        r" \end{gathered}"
    ),
)


def _shifted_one_step(frequencies: npt.NDArray[np.float64]) -> Evidence:
    """Are ``frequencies`` the paper's shifted by one step, ending at 10000^(-1)?"""
    paper = numeric.frequencies(D)
    error = float(np.abs(frequencies[:-1] / paper[1:] - 1).max())
    extra = abs(frequencies[-1] / 1e-4 - 1)
    exponent = round(float(np.log(frequencies[0]) / np.log(10000.0)) * D)
    rounding = FREQUENCY_ROUNDING + power_rounding(D) + U
    return within(
        max(error, extra),
        Tolerance(rounding, r"u + r_{\text{pow}} + u \text{ (relative)}"),
        f"d={D}: the 1-indexed table's pair in columns 2j, 2j+1 turns at the paper's "
        f"frequency of pair j + 1 (max relative difference {judged_within(error, rounding)}); "
        f"its highest frequency is {frequencies[0]:.6f} = 10000^({exponent}/d), its lowest "
        f"{frequencies[-1]:.3g} (10000^-1: {judged_within(extra, rounding)})",
    )


claim(
    "one-indexed-frequencies-shifted",
    "The 1-indexed convention shifts the frequencies by one step",
    Check(
        _shifted_one_step,
        true=one_indexed_frequencies(D),
        wrong=(Candidate("the paper's frequencies", numeric.frequencies(D)),),
    ),
    statement=(
        r"\begin{gathered} W_p[2i-1, t] = \sin(t\,/\,10000^{2i/d}),\ 0 < i \le d/2 \\"
        r" \text{frequencies } 10000^{-2/d}, \dots, 10000^{-1} \\"
        r" \text{instead of } 1, \dots, 10000^{-(d-2)/d} \end{gathered}"
    ),
)


#: The paper's law rounded to whole turns every 10000 positions: a law for which 10000
#: *would* be a length (every row repeats 10000 positions later).
WHOLE_TURNS_PER_BASE = Candidate(
    "frequencies rounded to whole turns per 10000 positions (period 10000)",
    2 * np.pi * np.round(numeric.frequencies(512) * 10_000 / (2 * np.pi)) / 10_000,
)


def _past_base(frequencies: npt.NDArray[np.float64]) -> Evidence:
    distance = rows_distance_past(D, horizon=10_000, frequencies=frequencies)
    neighbours = float(neighbour_distance(D))
    # rows from float64 angles below 2 10^4 (phase model), distances from the Gram matrix or
    # from sum(2 - 2 cos w k) for k < 2 10^4: the larger of the two models
    entry = float(phase_tolerance(EPS64, 1.0, 20_000))
    rounding = max(GRAM_DISTANCE(D, neighbours, entry), float(OFFSET_DISTANCE([19_999], D)[0]))
    return at_most(
        neighbours - distance,
        0.0,
        Tolerance(
            rounding, r"\text{Gram distance of rows within } 4\varepsilon + 4\varepsilon\,\omega p"
        ),
        f"d={D}: smallest distance between a row before 10000 and a row from 10000 on is "
        f"{distance:.6g} (brute force on 1000 x 1000 rows and all offsets up to 20000); "
        f"neighbours are {neighbours:.6g} apart (needs at least that, up to rounding "
        f"{rounding:.2g})",
    )


claim(
    "base-is-not-a-length",
    "10000 is a timescale, not a maximum length",
    Check(_past_base, true=numeric.frequencies(D), wrong=(WHOLE_TURNS_PER_BASE,)),
    statement=(
        r"\begin{gathered} d = 512:\ \lVert PE(p) - PE(q) \rVert \ge \lVert PE(1) - PE(0)"
        r" \rVert \\ \text{for } p < 10000 \le q < 20000 \\"
        r" \text{positions past 10000 get new vectors} \end{gathered}"
    ),
)


def width_refinement(index_factor: int = 2) -> Proof:
    r"""Prove :math:`\omega_i^{(d)} = \omega_{2i}^{(2d)}`: doubling the width keeps every frequency.

    The candidate is the factor ``f`` of the index in the wider table,
    :math:`\omega_i^{(d)} = \omega_{f i}^{(2d)}`; only ``f = 2`` holds.

    Examples
    --------
    >>> width_refinement().holds, width_refinement(1).holds
    (True, False)
    """

    def omega(index: Any, width: Any) -> Any:
        return BASE ** (-2 * index / width)

    derivation = Derivation()
    residual = sp.Matrix([omega(_I, _D) - omega(index_factor * _I, 2 * _D)])
    derivation.note(
        "Residual: frequency i at width d minus frequency 2i at width 2d",
        sp.latex(residual[0]),
        residual,
    )
    residual = derivation.apply(
        "Cancel the exponents (powsimp, expand)", residual, lambda e: sp.expand(sp.powsimp(e))
    )
    return derivation.proof(
        "doubling the width keeps every frequency",
        r"\omega_i^{(d)} = \mathrm{base}^{-2i/d} = \mathrm{base}^{-2(2i)/(2d)} = \omega_{2i}^{(2d)}",
        residual,
    )


#: :math:`\omega_i^{(d)} = \omega_i^{(2d)}`: the index factor 1 instead of 2.
SAME_INDEX_WIDER = Candidate("ω_i(d) = ω_i(2d)", 1)

#: Doubling the width read as "one new frequency between each neighbouring pair" only:
#: (new ones between neighbours, new ones below the slowest) for d = 512.
ONLY_BETWEEN = Candidate("one between each neighbouring pair, none slower", (256, 0))


def _refinement(d_model: int, factor: int) -> Evidence:
    small, large = numeric.frequencies(d_model), numeric.frequencies(2 * d_model)
    error = float(np.abs(small / large[::factor][: small.size] - 1).max())
    picked = {1: "the first half", 2: "every second"}.get(factor, f"every {factor}-th")
    rounding = 2 * FREQUENCY_ROUNDING + U
    return within(
        error,
        Tolerance(rounding, r"2 r_\omega + u \text{ (relative)}"),
        f"d={d_model} vs d={2 * d_model}: {picked} frequency of the wider table, max "
        f"relative difference {judged_within(error, rounding)}",
    )


def _inserted_at_every_width(index: Callable[[Any], Any]) -> Evidence:
    r"""Doubling any width ``d``, at any base :math:`b = 1 + c > 1`: the new frequency
    :math:`\omega = b^{-k/d}` with ``k = index(i)`` lies strictly between the old
    :math:`\omega_i = b^{-2i/d}` and :math:`\omega_{i+1}`, and the last one (``i = d/2 - 1``)
    below the old slowest. Exact: the logarithm of each ratio, expanded, has the sign SymPy
    decides from the assumptions (``c``, ``d`` positive)."""
    base = 1 + sp.Symbol("c", positive=True)

    def log_ratio(k_new: Any, i_old: Any) -> Any:
        ratio = sp.powsimp(base ** (-k_new / _D) / base ** (-2 * i_old / _D))
        return sp.expand(sp.expand_log(sp.log(ratio), force=True))

    below, above = log_ratio(index(_I), _I), log_ratio(index(_I), _I + 1)
    last = log_ratio(index(_D / 2 - 1), _D / 2 - 1)
    holds = bool(below.is_negative and above.is_positive and last.is_negative)
    return Evidence(
        Method.SYMPY,
        holds,
        f"any d, any base 1 + c: log(ω_new / ω_i) = {below}, log(ω_new / ω_(i+1)) = {above}, "
        f"last: log(ω_new / ω_(d/2-1)) = {last}; strictly between and below: "
        f"{'yes' if holds else 'not decided' if below.is_negative is None else 'no'}",
    )


#: The new frequencies of a doubled width at the old ones' places (``k = 2i``).
NEW_AT_OLD_PLACES = Candidate("the new frequencies at the old ones' places", lambda i: 2 * i)


def _inserted(counts: tuple[int, int]) -> Evidence:
    """Where doubling d = 512 puts the new frequencies: ``counts`` = (between, slower)."""
    small, large = numeric.frequencies(D), numeric.frequencies(2 * D)
    new = large[1::2]
    between = int(np.sum((new[:-1] < small[:-1]) & (new[:-1] > small[1:])))
    slower = int(np.sum(new < small[-1]))
    spans = [(float(f[0]), float(f[-1])) for f in (small, large)]
    in_range = all(
        top == 1.0
        and bottom > 1e-4
        and abs(bottom / slowest_frequency(w) - 1) <= FREQUENCY_ROUNDING + power_rounding(w) + EPS64
        for (top, bottom), w in zip(spans, (D, 2 * D), strict=True)
    )
    return checked(
        (between, slower) == counts and in_range,
        f"d={D} -> {2 * D}: of the {new.size} new frequencies, {between} lie strictly between "
        f"neighbouring old ones and {slower} below the old slowest (stated: {counts[0]} and "
        f"{counts[1]}: {'the same' if (between, slower) == counts else 'differs'}); both widths span 1 down to {spans[0][1]:.4g} and {spans[1][1]:.4g}, "
        f"= 10000^(-(d-2)/d) > 10000^-1: {'yes' if in_range else 'no'}",
    )


#: The widths of the slowest-frequency check: every even width up to 4096.
ALL_WIDTHS = range(2, 4097, 2)


#: The slowest frequency read as :math:`10000^{-1}` ("down to just above it") at every width.
SLOWEST_IS_BASE_INVERSE = Candidate("10000^-1 at every width", lambda _d: 1e-4)


def _slowest(law: Callable[[int], float]) -> Evidence:
    r"""The last frequency of every even width up to 4096 against ``law(d)``.

    Error model: :func:`pe.numeric.frequencies` is correctly rounded (:math:`r_\omega = u`);
    the law ``10000.0 ** (-(d-2)/d)`` forms its exponent with one rounding and a ``pow``
    (:func:`pe._tolerance.exponential_rounding`); the quotient one :math:`\varepsilon`.
    """
    worst = max(abs(float(numeric.frequencies(d)[-1]) / law(d) - 1.0) for d in ALL_WIDTHS)
    above = {d: float(numeric.frequencies(d)[-1]) * 10000.0 for d in (8, 128, 512)}
    # the exponent -(d-2)/d is rounded once unless d is a power of two: the general case
    rounding = FREQUENCY_ROUNDING + exponential_rounding(math.log(10000.0), 1) + EPS64
    return within(
        worst,
        Tolerance(rounding, r"r_\omega + r_{\mathrm{pow}} + \varepsilon \text{ (relative)}"),
        f"every even d from 2 to {ALL_WIDTHS[-1]}: max |ω_last / law(d) - 1| "
        f"{judged_within(worst, rounding)}; "
        "ω_last / 10000^-1 = " + ", ".join(f"{v:.4g} (d={d})" for d, v in above.items()),
    )


claim(
    "width-refines-frequencies",
    "The width is a choice: doubling it keeps every frequency",
    Check(by_proof(width_refinement), true=2, wrong=(SAME_INDEX_WIDER,)),
    Check(partial(_refinement, 256), true=2, wrong=(SAME_INDEX_WIDER,)),
    Check(partial(_refinement, 512), true=2, wrong=(SAME_INDEX_WIDER,)),
    Check(_inserted, true=(D // 2 - 1, 1), wrong=(ONLY_BETWEEN,)),
    Check(_inserted_at_every_width, true=lambda i: 2 * i + 1, wrong=(NEW_AT_OLD_PLACES,)),
    Check(_slowest, true=slowest_frequency, wrong=(SLOWEST_IS_BASE_INVERSE,)),
    statement=(
        r"\begin{gathered} \omega_i^{(d)} = \mathrm{base}^{-2i/d} = \omega_{2i}^{(2d)};"
        r" \text{ the new } \omega_{2i+1}^{(2d)} \text{ lie between neighbours,} \\"
        r" \text{ the last one } \omega_{d-1}^{(2d)} \text{ below the old slowest};"
        r" \text{ every width spans } 1 \text{ to } \mathrm{base}^{-(d-2)/d}"
        r" = \mathrm{base}^{-1} \cdot \mathrm{base}^{2/d} \\ (10^{-3} \text{ at } d = 8,"
        r" \text{ ten times } \mathrm{base}^{-1}) \end{gathered}"
    ),
)

#: The worked example of the chapter: a four-token sentence.
WORKED_SENTENCE: tuple[str, ...] = ("My", "name", "is", "RK")


def _worked_example(table: Table) -> Evidence:
    sentence = WORKED_SENTENCE
    exact = reference.table(range(len(sentence)), D)
    values = table(len(sentence), D)
    error = float(np.abs(values - exact).max())
    return within(
        error,
        ENTRY.tolerance(),
        f"'My name is RK', d={D}, all 4 x 512 entries of {table.__module__}.{table.__qualname__} "
        f"against 50-digit mpmath: max error "
        f"{measured_within(error, DELTA)}; "
        f"PE(1,256) = {values[1, 256]:.6f}",
    )


claim(
    "worked-example-my-name-is-rk",
    'The worked example "My name is RK", $d = 512$',
    Check(
        _worked_example,
        true=numeric.sinusoidal,
        wrong=(DOUBLED_EXPONENT_TABLE, ONE_INDEXED_TABLE),
    ),
    statement=(
        r"\begin{gathered} PE(0) = [0, 1, 0, 1, \dots] \\"
        r" PE(1,0) = \sin 1,\quad PE(1,1) = \cos 1 \\"
        r" PE(1,256) = \sin\tfrac{1}{100} \\"
        r" PE(1,511) = \cos 10000^{-510/512} \approx 1 \end{gathered}"
    ),
)


def _least_periods(periods: tuple[int, ...]) -> Evidence:
    ok = least_periods(binary_bits(1024, 4)) == periods
    return checked(
        ok, f"bits 0-3 of 0..1023 have least periods {', '.join(map(str, periods))}: {ok}"
    )


claim(
    "binary-bits-periods",
    "Binary counter: bit $b$ flips with period $2^{b+1}$",
    Check(_least_periods, true=(2, 4, 8, 16), wrong=(Candidate("periods 2^b", (1, 2, 4, 8)),)),
    statement=(
        r"\begin{gathered} \bigl\lfloor p / 2^b \bigr\rfloor \bmod 2 \text{ has least period } 2^{b+1} \\"
        r" 2, 4, 8, 16 \text{ for } b = 0, 1, 2, 3 \end{gathered}"
    ),
)


def _ratio_two(base: int) -> Evidence:
    width, even_integer = ratio_equals_two_width(base)
    return checked(
        not even_integer,
        f"base {base}: consecutive wavelengths double only at d = {sp.sstr(width)} "
        f"= {float(width):.4f}, {'an even width' if even_integer else 'not an even integer'}",
    )


claim(
    "wavelength-ratio-not-two",
    "Unlike bits, consecutive wavelengths never double",
    Check(_ratio_two, true=10000, wrong=(Candidate("base 2^13", 2**13),)),
    statement=(
        r"\begin{gathered} 10000^{2/d} = 2 \iff d = 2\log_2 10000 = 8 + 8\log_2 5 \approx 26.58 \\"
        r" \text{not an even integer} \end{gathered}"
    ),
)


def step_distance(squared_step: Callable[[Any], Any] = chord_squared) -> Proof:
    r"""Prove :math:`\lVert v(p+1) - v(p) \rVert = 2\sin(\omega/2)` for one pair (a smooth step).

    The residual is :math:`\lVert v(p+1) - v(p)\rVert^2` minus the candidate squared step
    (a function of :math:`\omega`), by default :math:`4\sin^2(\omega/2) = 2 - 2\cos\omega`.

    Examples
    --------
    >>> step_distance().holds, step_distance(lambda w: w**2).holds
    (True, False)
    """
    w = sp.Symbol("omega", positive=True)
    step = pair(P + 1, w) - pair(P, w)
    target = squared_step(w)
    derivation = Derivation()
    derivation.note(
        "Residual: squared step of the pair minus the stated squared step",
        rf"\lVert {sp.latex(step)} \rVert^2 - {sp.latex(target)}",
    )
    residual = sp.Matrix([(step.T * step)[0] - target])
    residual = derivation.angle_addition(residual)
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "one step moves a pair by 2 sin(ω/2)",
        r"\lVert v_i(p+1) - v_i(p) \rVert = 2 \sin(\omega_i / 2) \le \omega_i",
        residual,
    )


#: The squared step :math:`\omega^2` of a pair: "one step moves a pair by exactly ω".
STEP_IS_OMEGA = Candidate("step = ω exactly", lambda w: w**2)


def _steps(factor: float) -> Evidence:
    table = numeric.sinusoidal(10_001, D)
    omega = np.repeat(numeric.frequencies(D), 2)[None, :]
    steps = np.abs(np.diff(table, axis=0))
    label = "ω_i" if factor == 1.0 else f"{factor:g} ω_i"
    # two entries within DELTA, their difference rounded (at most 2), the bound's frequency
    rounding = Tolerance(2 * DELTA + 2 * U + FREQUENCY_ROUNDING, r"2\delta + 2u + r_\omega")
    return at_most(
        float((steps - factor * omega).max()),
        0.0,
        rounding,
        f"d={D}, p < 10001: max |PE(p+1, j) − PE(p, j)| / {label} = "
        f"{float((steps / (factor * omega)).max()):.4f} (needs <= 1 up to rounding); "
        "a bit jumps by 1 at every flip",
    )


claim(
    "encoding-steps-smooth",
    "Unlike bits, the encoding moves smoothly",
    Check(by_proof(step_distance), true=chord_squared, wrong=(STEP_IS_OMEGA,)),
    Check(_steps, true=1.0, wrong=(Candidate("|step| <= ω_i / 2", 0.5),)),
    statement=(
        r"\begin{gathered} \lVert v_i(p+1) - v_i(p) \rVert = 2\sin(\omega_i/2) \le \omega_i \le 1 \\"
        r" \Rightarrow\ |PE(p+1, j) - PE(p, j)| \le \omega_i \end{gathered}"
    ),
)


def period_mean(power: int = 1) -> Proof:
    r"""Prove that sine and cosine average to 0 over a full period :math:`2\pi/\omega`.

    Residuals: :math:`\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin^k(\omega t)\,dt` and the
    same for cosine, with the candidate power ``k``; only ``k = 1`` holds (the squares
    average to 1/2).

    Examples
    --------
    >>> list(period_mean(2).residual)
    [1/2, 1/2]
    """
    t = sp.Symbol("t", real=True)
    w = sp.Symbol("omega", positive=True)
    derivation = Derivation()
    integrals = sp.Matrix(
        [
            w / (2 * sp.pi) * sp.integrate(sp.sin(w * t) ** power, (t, 0, 2 * sp.pi / w)),
            w / (2 * sp.pi) * sp.integrate(sp.cos(w * t) ** power, (t, 0, 2 * sp.pi / w)),
        ]
    )
    derivation.note(
        "Mean of the sine and of the cosine over one period",
        rf"\frac{{\omega}}{{2\pi}}\int_0^{{2\pi/\omega}} \sin^{{{power}}}(\omega t)\,dt,\ "
        rf"\frac{{\omega}}{{2\pi}}\int_0^{{2\pi/\omega}} \cos^{{{power}}}(\omega t)\,dt",
        calls=("integrate",),
    )
    residual = derivation.apply("Evaluate and expand", integrals, sp.expand)
    return derivation.proof(
        "zero mean over a full period",
        r"\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin \omega t\,dt ="
        r" \frac{\omega}{2\pi}\int_0^{2\pi/\omega} \cos \omega t\,dt = 0",
        residual,
    )


#: "sin² and cos² average to 0 over a period" (they average to 1/2): the power 2.
SQUARED_MEAN = Candidate("sin² and cos²", 2)

claim(
    "zero-mean-full-period",
    "Zero-centred over a full period",
    Check(by_proof(period_mean), true=1, wrong=(SQUARED_MEAN,)),
)


def _finite_means(shift: float) -> Evidence:
    worst, sizes = 0.0, (4, 100, 1000)
    for n in sizes:
        means = column_means(n, D)
        closed = column_means_exact(n, D, shift=shift)
        worst = max(worst, float(np.abs(means - closed).max()))
    label = f"n − {shift:g}" if shift else "n"
    # n entries within DELTA, summed (at most n) and divided by n; the exact form rounded once
    n = max(sizes)
    rounding = Tolerance(DELTA + gamma(n) + U, r"\delta + \gamma_n + u,\ n = 1000")
    return within(
        worst,
        rounding,
        f"d={D}, n in (4, 100, 1000): measured column means against the closed form with "
        f"{label} (40-digit mpmath): max difference "
        f"{judged_within(worst, rounding.value)}",
    )


claim(
    "finite-column-means",
    "Over finitely many positions the mean is not zero: the closed form",
    Check(_finite_means, true=1.0, wrong=(Candidate("n instead of n − 1", 0.0),)),
    statement=(
        r"\begin{gathered} \frac1n\sum_{p=0}^{n-1} \sin p\omega = \frac{\sin\frac{n\omega}{2} \sin\frac{(n-1)\omega}{2}}{n\sin\frac{\omega}{2}} \\"
        r" \frac1n\sum_{p=0}^{n-1} \cos p\omega = \frac{\sin\frac{n\omega}{2} \cos\frac{(n-1)\omega}{2}}{n\sin\frac{\omega}{2}} \\"
        r" \text{(measured against the columns of } d = 512 \text{ at } n = 4, 100, 1000\text{)}"
        r" \end{gathered}"
    ),
)


#: The matrices reading the stream read as "queries, keys, values, output".
QKV_AND_OUTPUT_READ = Candidate("queries, keys, values and output", ("W_Q", "W_K", "W_V", "W_O"))


def _stream_matrices(readers: tuple[str, ...]) -> Evidence:
    """Which matrices of an encoder layer read the stream (from a forward pass), and a 2d stream."""
    added, concatenated = layer_matrices(D), layer_matrices(2 * D)
    reading = tuple(n for n, use in added.items() if use.reads_stream)
    writing = tuple(n for n, use in added.items() if use.writes_stream)
    sizes = {n: (np.prod(added[n].shape), np.prod(concatenated[n].shape)) for n in added}
    extra = sum(int(b - a) for a, b in sizes.values())
    doubled = all(b == 2 * a for a, b in sizes.values())
    return checked(
        reading == readers and doubled,
        f"d={D}, d_ff=2048, forward pass of one encoder layer: matrices reading the stream "
        f"{', '.join(reading)} (stated: {', '.join(readers)}: "
        f"{'the same' if reading == readers else 'differs'}); writing it {', '.join(writing)}; "
        f"a {2 * D}-wide stream adds {extra:,} weights per layer, doubling every matrix: "
        f"{'yes' if doubled else 'no'}",
    )


claim(
    "concat-doubles-layer-weights",
    "A concatenated stream doubles every weight matrix of an encoder layer",
    Check(_stream_matrices, true=("W_Q", "W_K", "W_V", "W_1"), wrong=(QKV_AND_OUTPUT_READ,)),
    statement=(
        r"\begin{gathered}W_Q, W_K, W_V, W_1 \text{ read the stream, } W_O, W_2"
        r" \text{ write it;} \\ \text{width } 2d \implies \text{every matrix of the"
        r" layer doubles}\end{gathered}"
    ),
)

#: PyTorch's default ``nn.Embedding`` initialisation, N(0, 1).
UNIT_EMBEDDING_INIT = Candidate("N(0, 1) entries (nn.Embedding's default)", 1.0)


def _embedding_scale(init_std: float) -> Evidence:
    """Entries of sqrt(d) E for an embedding table E drawn with standard deviation init_std."""
    scaled = np.sqrt(D) * random_embeddings(2000, D) * init_std
    rms = float(np.sqrt((scaled**2).mean()))
    return checked(
        abs(rms - 1) <= 0.05,
        f"d={D}, 2000 x {D} entries drawn with std {init_std:.4g}, times sqrt(d): root mean "
        f"square {rms:.4g} (size about 1, within 5%: {'yes' if abs(rms - 1) <= 0.05 else 'no'})",
    )


claim(
    "embedding-scale-needs-init",
    r"Scaled by $\sqrt{d}$, embeddings have entries of size 1 only if drawn with std $1/\sqrt{d}$",
    Check(_embedding_scale, true=1 / np.sqrt(D), wrong=(UNIT_EMBEDDING_INIT,)),
    statement=(
        r"\begin{gathered} E_{tj} \sim N(0, \sigma^2) \implies \sqrt d\,E_{tj} \sim"
        r" N(0, d\sigma^2)\text{: standard deviation } \sqrt d\,\sigma\text{, which is 1 when }"
        r" \sigma = 1/\sqrt d \\ \text{(measured at } d = 512\text{: } \sigma = 1/\sqrt d"
        r" \text{ gives size 1, } \sigma = 1 \text{ does not)} \end{gathered}"
    ),
)


def concat_projection(rhs: Projection = separate_projections, *, width: int = 2) -> Proof:
    r"""Prove :math:`W [e; u] = W_e e + W_u u` with ``W = [W_e | W_u]``: concatenating then projecting.

    A layer reading the concatenation ``[e; u]`` (width ``2 width``) of an embedding ``e``
    and an encoding row ``u`` equals two separate projections added; adding ``e + u`` first
    is the special case :math:`W_e = W_u`. The
    candidate is the right-hand side as a function of ``(W_e, W_q, e, q)``.

    Examples
    --------
    >>> concat_projection().holds, concat_projection(width=1).holds
    (True, True)
    """
    size = _validate.positive_int("width", width)
    e = sp.Matrix(size, 1, lambda r, _: sp.Symbol(f"e_{r + 1}", real=True))
    q = sp.Matrix(size, 1, lambda r, _: sp.Symbol(f"u_{r + 1}", real=True))
    w_e, w_q = symbolic_matrix("a", size, size), symbolic_matrix("b", size, size)
    whole = sp.Matrix.hstack(w_e, w_q)
    stacked = sp.Matrix.vstack(e, q)
    derivation = Derivation()
    derivation.note(
        "Residual: the layer on the concatenation minus the candidate",
        rf"{sp.latex(whole)} {sp.latex(stacked)} - ({projection_text(rhs)})",
    )
    residual = derivation.apply(
        "Multiply out", whole * stacked - rhs(w_e, w_q, e, q), sp.expand, calls=("expand",)
    )
    return derivation.proof(
        "concatenate-then-project is add-after-separate-projections",
        r"\begin{pmatrix} W_e & W_u \end{pmatrix} \begin{pmatrix} e \\ u \end{pmatrix}"
        r" = W_e e + W_u u",
        residual,
    )


#: :math:`W[e; u] = W_e (e + u)`: one projection for both halves.
TIED_PROJECTION = Candidate("W_e (e + u)", lambda w_e, _w_q, e, q: w_e @ (e + q))


def _costs(rhs: Projection) -> Evidence:
    cost = projection_cost(D)
    rng = np.random.default_rng(0)
    e, q = rng.standard_normal(D), rng.standard_normal(D)
    w = rng.standard_normal((D, 2 * D))
    x = np.concatenate([e, q])
    error = float(np.abs(w @ x - rhs(w[:, :D], w[:, D:], e, q)).max())
    ratio = cost["weights_concat"] / cost["weights_add"]
    # a dot product of length 2d on the left, two of length d and a sum on the right
    magnitude = float((np.abs(w) @ np.abs(x)).max())
    rounding = Tolerance(
        (gamma(2 * D) + gamma(D + 1)) * magnitude, r"(\gamma_{2d} + \gamma_{d+1}) \max |W||x|"
    )
    return checked(
        ratio == 2,
        f"d={D}: a 512-output projection has {cost['weights_add']} weights after adding and "
        f"{cost['weights_concat']} after concatenating (ratio {ratio:g}); W[e; u] − "
        f"({projection_text(rhs)}) = "
        f"{measured_within(error, rounding.value)}",
        error=error,
        tolerance=rounding,
    )


claim(
    "concat-is-two-projections",
    "Concatenating then projecting equals adding two separate projections",
    Check(by_proof(concat_projection), true=separate_projections, wrong=(TIED_PROJECTION,)),
    Check(_costs, true=separate_projections, wrong=(TIED_PROJECTION,)),
    statement=(
        r"\begin{gathered} \begin{pmatrix} W_e & W_u \end{pmatrix}\begin{pmatrix} e \\ u \end{pmatrix} = W_e e + W_u u \\"
        r" \text{adding } e + u \text{ is the case } W_e = W_u \text{, at half the weights} \end{gathered}"
    ),
)


#: Embeddings that share a direction with every encoding row (wrong: not isotropic).
SHARES_PE0 = Candidate("embeddings sharing PE(0)'s direction", embeddings_plus_pe0)


def _orthogonal(embeddings: Embeddings) -> Evidence:
    cosines = cosine_embedding_encoding(embeddings(1000, D, 7))
    std, mean = float(cosines.std()), float(cosines.mean())
    q99 = float(np.quantile(np.abs(cosines), 0.99))
    isotropic = 1 / np.sqrt(D)  # the spread of the cosine of two random directions
    ok = abs(std / isotropic - 1) <= 0.05 and abs(mean) <= 0.01 and q99 <= 3.5 * isotropic
    return checked(
        ok,
        f"d={D}, 1000 {embeddings.__name__.replace('_', ' ')} x 200 positions: cosine mean "
        f"{mean:.3g}, std {std:.4f} (1/sqrt(d) = {isotropic:.4f}), 99% of |cos| below "
        f"{q99:.3f} (needs std within 5% of 1/sqrt(d), |mean| <= 0.01, 99% quantile <= "
        "3.5/sqrt(d))",
    )


claim(
    "embedding-encoding-nearly-orthogonal",
    "In high dimension, embeddings and encodings are nearly orthogonal",
    Check(_orthogonal, true=random_embeddings, wrong=(SHARES_PE0,)),
    statement=(
        r"\begin{gathered} d = 512,\ \text{isotropic } e: \cos\angle(e, PE(p))"
        r" \text{ has mean} \approx 0 \\ \text{and standard deviation} \approx 1/\sqrt d"
        r" \approx 0.044 \text{ (measured)} \end{gathered}"
    ),
)


#: Embeddings inside the span of the encoding rows (wrong: not isotropic).
MADE_OF_ROWS = Candidate("embeddings made of encoding rows", encoding_row_embeddings)


#: Random embeddings the subspace share is measured on.
SHARE_SAMPLES = 1000


def _subspace(embeddings: Embeddings) -> Evidence:
    rank, share = encoding_subspace_share(200, D, embeddings=embeddings(SHARE_SAMPLES, D, 11))
    expected = rank / D
    # for an isotropic e the share is Beta(r/2, (d - r)/2): variance p(1 - p)/(d/2 + 1); the
    # mean of N draws is held to 6 of its standard errors
    sigma = math.sqrt(expected * (1 - expected) / (D / 2 + 1) / SHARE_SAMPLES)
    return checked(
        abs(share - expected) <= 6 * sigma,
        f"d={D}: the rows PE(0..199) have r = {rank} singular values above 1e-3 of the "
        f"largest; {SHARE_SAMPLES} {embeddings.__name__.replace('_', ' ')} put {share:.4f} of "
        f"their squared norm on average in the span of the r leading singular vectors, "
        f"r/d = {expected:.4f} (needs within 6 standard errors, {6 * sigma:.2g})",
    )


#: The rank of the projection in :func:`normal_share`: a whole number below ``d``.
_R = sp.Symbol("r", integer=True, positive=True)
#: A mean share as a function of ``(r, d)``.
ShareLaw = Callable[[Any, Any], Any]


def _fraction_of_dimensions(r: Any, d: Any) -> Any:
    return r / d


#: The neighbouring belief: the share of the norm, not of the squared norm.
NORM_SHARE = Candidate("the norm's share, sqrt(r/d)", lambda r, d: sp.sqrt(r / d))


def normal_share(mean: ShareLaw = _fraction_of_dimensions) -> Proof:
    r"""Prove :math:`\mathbb{E}\,\lVert \Pi_r e
    Vert^2 / \lVert e
    Vert^2 = r/d` for
        ``e`` with i.i.d. :math:`N(0, 1)` entries, any rank ``r < d`` (``mean(r, d)``: the
        stated mean).

        In an orthonormal basis whose first ``r`` vectors span :math:`\Pi_r` the entries of
        ``e`` are still i.i.d. :math:`N(0, 1)`, so :math:`X = \lVert \Pi_r e
    Vert^2 / 2` and
        :math:`Y = \lVert e - \Pi_r e
    Vert^2 / 2` are independent Gamma variables of shapes
        :math:`a = r/2`, :math:`b = (d - r)/2` (the factor 2 cancels in the share). With
        :math:`1/(X + Y) = \int_0^\infty e^{-t(X + Y)}\,dt`, the mean share is
        :math:`\int_0^\infty \mathbb{E}[X e^{-tX}]\,\mathbb{E}[e^{-tY}]\,dt`; SymPy evaluates the
        three integrals and the residual cancels to 0.

        Examples
        --------
        >>> normal_share().holds
        True
        >>> normal_share(NORM_SHARE.value).counterexample.text()
        'at d = 8, r = 4, entry [0] = 1/2 - sqrt(2)/2'
    """
    a, b, t, x = sp.symbols("a b t x", positive=True)
    derivation = Derivation()
    derivation.note(
        "X = |Π_r e|²/2 ~ Gamma(a = r/2), Y = |e − Π_r e|²/2 ~ Gamma(b = (d − r)/2), "
        "independent; 1/(X + Y) = ∫ exp(−t(X + Y)) dt over t > 0",
        r"\mathbb{E}\frac{X}{X + Y} = \int_0^\infty \mathbb{E}[X e^{-tX}]\,"
        r"\mathbb{E}[e^{-tY}]\,dt",
    )

    def gamma_mean(power: Any, shape: Any) -> Any:
        density = x ** (shape - 1) * sp.exp(-x) / sp.gamma(shape)
        found = sp.integrate(x**power * sp.exp(-t * x) * density, (x, 0, sp.oo), conds="none")
        return sp.gammasimp(found)

    inner = sp.Matrix([gamma_mean(1, a) * gamma_mean(0, b)])
    derivation.note(
        "Integrate over x against each Gamma density (integrate, gammasimp)",
        to_latex(inner),
        inner,
        calls=("integrate", "gammasimp"),
    )
    outer = derivation.apply(
        "Integrate over t from 0 to ∞",
        inner,
        lambda e: sp.gammasimp(sp.integrate(sp.powsimp(e), (t, 0, sp.oo), conds="none")),
        calls=("integrate", "gammasimp"),
    )
    residual = derivation.apply(
        "Set a = r/2, b = (d − r)/2 and subtract the stated mean (cancel)",
        outer,
        lambda e: sp.cancel(e.subs({a: _R / 2, b: (_D - _R) / 2}) - mean(_R, _D)),
        calls=("cancel",),
    )
    statement = (
        r"e_j \sim N(0, 1) \text{ i.i.d.},\ \operatorname{rank} \Pi_r = r < d:\quad"
        r" \mathbb{E}\,\frac{\lVert \Pi_r e \rVert^2}{\lVert e \rVert^2} = "
        + to_latex(mean(_R, _D))
    )
    return derivation.proof(
        "the mean share of a rank-r projection",
        statement,
        residual,
        variables=[],
        where=(sp.Eq(sp.Mod(_D, 2), 0), sp.Lt(_R, _D)),
    )


#: How many singular values of the rows ``PE(0..199)`` of ``d = 512`` lie above the cut-off
#: times the largest, per cut-off: the statement of ``encoding-subspace-share``.
SUBSPACE_RANKS = ((1e-3, 67), (1e-10, 76))
#: "A few dozen" read as a count that does not depend on the cut-off.
RANK_WITHOUT_CUTOFF = Candidate(
    "67 singular values whatever the cut-off", ((1e-3, 67), (1e-10, 67))
)


def _subspace_rank(stated: tuple[tuple[float, int], ...]) -> Evidence:
    r"""The count of singular values of ``PE(0..199)`` (``d = 512``) above each stated cut-off.

    Error model: a backward-stable SVD returns singular values within
    :math:`\gamma_{mn}\,\sigma_1` of the exact ones (Weyl's inequality on the backward
    error, here :math:`m n = 200 \cdot 512`); a count is the same on every machine when no
    singular value lies within that distance of a cut-off, which the check requires.
    """
    table = numeric.sinusoidal(200, D)
    singular = np.linalg.svd(table, compute_uv=False)
    ratio = singular / singular[0]
    margin_needed = gamma(200 * D)
    counts, margins = [], []
    for cutoff, _count in stated:
        counts.append(int((ratio > cutoff).sum()))
        margins.append(float(np.abs(ratio - cutoff).min()))
    ok = counts == [c for _, c in stated] and min(margins) > margin_needed
    return checked(
        ok,
        f"d={D}, rows 0..199: "
        + ", ".join(
            f"{n} singular values above {c:g} of the largest (nearest {m:.2g} away)"
            for (c, _), n, m in zip(stated, counts, margins, strict=True)
        )
        + f"; stated {[n for _, n in stated]}: "
        + f"{'the same' if counts == [c for _, c in stated] else 'differs'}"
        + f"; rounding margin γ_mn = {margin_needed:.2g}",
    )


claim(
    "encoding-subspace-share",
    "The encodings lie near a small subspace; an embedding mostly lies outside it",
    Check(by_proof(normal_share), true=_fraction_of_dimensions, wrong=(NORM_SHARE,)),
    Check(_subspace, true=random_embeddings, wrong=(MADE_OF_ROWS,)),
    Check(_subspace_rank, true=SUBSPACE_RANKS, wrong=(RANK_WITHOUT_CUTOFF,)),
    statement=(
        r"\begin{gathered} \mathbb{E}\,\frac{\lVert \Pi_r e \rVert^2}{\lVert e \rVert^2} = \frac{r}{d}"
        r" \text{ for } e \text{ with i.i.d. } N(0, 1) \text{ entries (SymPy, any } r < d"
        r"\text{; measured on " + f"{SHARE_SAMPLES}" + r" such } e\text{)} \\"
        r" \Pi_r: \text{ projection on the } r \text{ leading right singular vectors of the }"
        r" n \times d \text{ matrix of rows } PE(0), \dots, PE(n-1) \\"
        r" n = 200,\ d = 512:\ r = 67 \text{ singular values above } 10^{-3} \sigma_1,"
        r"\ 76 \text{ above } 10^{-10} \sigma_1 \end{gathered}"
    ),
)


def from_scratch_gap(
    make: Table, sizes: tuple[tuple[int, int], ...] = ((2048, 512), (1000, 64), (50, 8))
) -> Evidence:
    r"""``make(n, d)`` against pe's table over ``sizes``, each entry held to :data:`from_scratch.TABLE_ERROR`.

    Examples
    --------
    >>> from pe import from_scratch
    >>> from_scratch_gap(from_scratch.sinusoidal_table).holds
    True
    """
    worst = 0.0
    for n, d in sizes:
        angle = np.arange(n)[:, None] * np.repeat(numeric.frequencies(d), 2)[None, :]
        gap = np.abs(make(n, d) - numeric.sinusoidal(n, d)) / from_scratch.TABLE_ERROR(d, angle)
        worst = max(worst, float(gap.max()))
    return within(
        worst,
        from_scratch.TABLE_ERROR.per_entry(),
        f"(n, d) in (2048, {D}), (1000, 64), (50, 8): largest |gap| / (eps + δ + (r_ω + u) p w_i) "
        f"= {worst:.3g} (needs <= 1)",
    )


claim(
    "from-scratch-table",
    "Ten lines of plain NumPy compute the same table as pe",
    Check(
        from_scratch_gap,
        true=from_scratch.sinusoidal_table,
        wrong=(DOUBLED_EXPONENT_TABLE, ONE_INDEXED_TABLE),
    ),
    statement=(
        r"\begin{gathered} |\texttt{sinusoidal\_table}(n, d)_{p,j} - PE(p, j)|"
        r" \le \varepsilon + \delta + (r_\omega + u)\,p\,\omega_{\lfloor j/2 \rfloor} \\"
        r" \delta = 4.9 \times 10^{-16} \text{ (pe's table)},\ r_\omega = \varepsilon"
        r" \text{ for } d = 2^m,\ u = \varepsilon/2 \end{gathered}"
    ),
)

claim(
    "encoding-added-to-embedding",
    "The paper adds the encoding to the token embedding",
    statement=r"x_p = e_{\text{token}} + PE(p), \quad \text{both of width } d",
    source="vaswani2017",
)

claim(
    "transformer-model-widths",
    "The paper's two models are 512 and 1024 wide",
    statement=(
        r"\begin{gathered}d_{\text{model}} = 512,\ d_{ff} = 2048 \text{ (base model)}, \quad"
        r" d_{\text{model}} = 1024,\ d_{ff} = 4096 \text{ (big model)} \\ \text{(Section 3.3"
        r" and Table 3 of the paper)}\end{gathered}"
    ),
    source="vaswani2017",
)

claim(
    "d2l-binary-analogy",
    "Dive into Deep Learning compares the encoding with binary positions",
    statement=(
        r"\text{Zhang et al. (Dive into Deep Learning) print the positions 0 to 7 in binary"
        r" and compare the bits' periods with the encoding's decreasing frequencies}"
    ),
    source="zhang2023",
)

claim(
    "phuong-one-indexed",
    "Phuong and Hutter write the encoding 1-indexed, with the base called the maximum length",
    statement=(
        r"\begin{gathered} W_p[2i-1, t] = \sin(t / \ell_{\max}^{2i/d_e}),\quad"
        r" W_p[2i, t] = \cos(t / \ell_{\max}^{2i/d_e}),\quad 0 < i \le d_e/2 \\"
        r" \text{(Phuong and Hutter 2022, the text after Algorithm 2,} \\ \text{Positional"
        r" embedding; } \ell_{\max} \text{ the maximum sequence length)} \end{gathered}"
    ),
    source="phuong2022",
)

claim(
    "lecun-zero-mean-inputs",
    "LeCun et al.: inputs that average near zero speed up training",
    statement=(
        r"\text{LeCun et al. (1998), Efficient BackProp, Section 4.3: convergence is usually"
        r" faster if each input variable averages close to zero over the training set}"
    ),
    source="lecun1998",
)

claim(
    "vaswani-wavelength-sentence",
    "The paper's sentence on the wavelengths",
    statement=(
        r"\text{Vaswani et al. (2017), Section 3.5: the wavelengths form a geometric"
        r" progression from } 2\pi \text{ to } 10000 \cdot 2\pi"
    ),
    source="vaswani2017",
)

claim(
    "vaswani-encoding-formula",
    "The paper's formula, added to the token embeddings",
    statement=(
        r"\begin{gathered} x_{pos} = e_{\text{token}} + PE_{pos} \\"
        r" PE_{(pos, 2i)} = \sin(pos / 10000^{2i/d_{\text{model}}}),\quad"
        r" PE_{(pos, 2i+1)} = \cos(pos / 10000^{2i/d_{\text{model}}}) \\"
        r" \text{(Vaswani et al. 2017, Section 3.5)} \end{gathered}"
    ),
    source="vaswani2017",
)

claim(
    "write-ups-pair-index",
    "Two write-ups let the pair index run past d/2 - 1",
    statement=(
        r"\begin{gathered} \text{Applied Generative AI for Beginners (Apress), chapter 3:"
        r" the index ``ranging from 0 to } d_{\text{model}} - 1\text{''}; \\"
        r" \text{Khapra's course notes: } i = 0, \dots, 256 \text{ for } d_{\text{model}} = 512"
        r" \end{gathered}"
    ),
    source="apress-genai",
)

claim(
    "pwc-wavelength-sentence",
    "Papers with Code repeats the paper's wavelength sentence",
    statement=(
        r"\text{Papers with Code, Absolute Position Encodings: the wavelengths form a geometric"
        r" progression from } 2\pi \text{ to } 10000 \cdot 2\pi"
    ),
    source="pwc-absolute",
)
