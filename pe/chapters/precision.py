r"""Precision and speed (``docs/precision.py``): how accurate a computed table is, against 50-digit mpmath.

The rotation algorithm of :func:`pe.numeric.sinusoidal` stores each (sine, cosine) pair
as one complex number, :math:`z(p) = \sin \omega p + \mathrm{i}\cos \omega p`, and moves it
by ``q`` positions with one multiplication (:func:`complex_shift` proves it for a candidate
factor, the true one :func:`pe.symbolic.shift_factor`):

.. math::

    z(p + q) = z(p)\,(\cos \omega q - \mathrm{i}\sin \omega q).

The measurements hold pe's tables and the recipes of :mod:`pe.recipes` to their error
models (:data:`~pe.error_models.ENTRY`, :data:`~pe.error_models.ENTRY_FLOAT32`,
:func:`pe.recipes.drift_bound`) with :mod:`pe.accuracy`: absolute errors of table entries
(every entry lies in ``[-1, 1]``) against :func:`pe.reference.errors` at 50 digits, so that
the reference's own rounding does not enter the measurement.

Examples
--------
>>> complex_shift(shift_factor).holds
True
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _extended_precision, _rotation_table, numeric, recipes
from pe._machine_dependent import below, measured, measured_within, on_site, worst_case_text
from pe._tolerance import Tolerance
from pe.accuracy import (
    RoundingCensus,
    Table,
    angle_reduction_error,
    max_sampled_error,
    rounding_census,
    row_errors,
    row_separation,
    turn_bits,
    ulps_error,
)
from pe.chapters.rotation_identity import TRANSPOSED_SHIFT_MATRIX, shift_matrix
from pe.claims import Candidate, Chapter, Check, Evidence, by_proof, checked, within
from pe.error_models import ENTRY, ENTRY_FLOAT32, SHIFT, ErrorModel
from pe.symbolic import Derivation, Proof, shift_factor

chapter = Chapter(__name__, follows="conventions")
claim = chapter.claim


#: The accuracy claims cover positions below 2**20 and these widths.
WIDTHS = (64, 4096)
LIMIT = 2**20

#: Far positions of the row checks and of the angle-reduction check (its bound:
#: :data:`pe._extended_precision.ANGLE_BOUND`).
FAR_POSITIONS = (2**53, 2**53 - 1, 2**45 + 12_345, 10**15 + 7, 3 * 2**30, 12_345)
#: The angle check adds a rare position where the low word carries the reduced sum past half
#: a turn (at pair 4 of d = 512), so that one last whole turn must come off.
ANGLE_POSITIONS = (*FAR_POSITIONS, 6_117_317_237_380_742)
_float32 = partial(numeric.sinusoidal, dtype=np.float32)
_float16 = partial(numeric.sinusoidal, dtype=np.float16)
_recipe16 = partial(recipes.float32_recipe, dtype=np.float16)


def _within(model: ErrorModel[[], float]) -> Callable[[Table], Evidence]:
    """The table method's largest error on 600 sampled entries per width, within ``model``."""

    def run(table: Table) -> Evidence:
        parts, worst = [], 0.0
        for d in WIDTHS:
            error, p, column = max_sampled_error(table, LIMIT, d, seed=d)
            worst = max(worst, error)
            where = on_site(f" at p={p}, column {column}", "")
            # a wrong method's error is its sine's, which the processor chooses as well
            shown = measured_within(error, model(), ".3g", stable=False)
            parts.append(f"d={d}: max error {shown}{where}")
        return within(
            worst,
            model.tolerance(),
            f"600 sampled entries per width below 2^20 (the 32 largest positions "
            f"included): {'; '.join(parts)}",
        )

    return run


def _rows_within(
    positions: tuple[int, ...], d: int, model: ErrorModel[[], float]
) -> Callable[[Table], Evidence]:
    """Every entry of the rows at ``positions`` (width ``d``) is within ``model``."""

    def run(table: Table) -> Evidence:
        error = float(row_errors(table, np.array(positions), d).max())
        return within(
            error,
            model.tolerance(),
            f"every entry of the rows at p = {', '.join(map(str, positions))}, d={d}: max "
            f"error {measured_within(error, model(), '.3g', stable=False)}",
        )

    return run


def _census_detail(census: RoundingCensus, dtype: str, bound: float) -> str:
    """The census in words; how many entries a correct table misrounds, and by how many ulp,
    is the processor's choice (its sine), so the site says only whether any do."""
    count = on_site(
        f"{census.misrounded} differ",
        "some differ" if census.misrounded else "none differs",
    )
    ulps = on_site(f", by up to {census.worst_ulps:.4g} ulp of the entry", "")
    return (
        f"{census.entries} entries (rows 0..63 and 2^20-64..2^20-1 whole, 2000 sampled below "
        f"2^20), d=64: {count} from the exact value rounded to nearest {dtype}{ulps}; largest "
        f"error {measured_within(census.worst_error, bound, '.3g', stable=False)}"
    )


#: Rows of the drift checks: 32 from each start, d = 64.
DRIFT_STARTS = np.array([10**3, 10**4, 10**5, 10**6])


def _drift_errors(table: Table) -> list[npt.NDArray[np.float64]]:
    return [row_errors(table, start + np.arange(32), 64) for start in DRIFT_STARTS]


#: Widths of the drift bound's check: the page's, one where the exponent's roundings reach
#: far enough (pairs with :math:`|\ln\omega_i|` near 8) to tell one from two, and one where
#: NumPy's float32 ``exp`` errs by more than one ulp (pair 7 at p = 705578 needs its 2.52).
DRIFT_WIDTHS = (64, 440, 560)


#: The direct float64 evaluation's frequencies come correctly rounded from extended
#: precision (half an ulp, no exponent rounded), and its sine and cosine are NumPy's float64
#: ones (claim ``library-sine-accurate``).
FLOAT64_DIRECT_ULPS = {"exp": 0.5, "sin": _extended_precision.LIBRARY_SINE_ULPS}


def _drift_bound(
    unit: float, roundings: int, ulps: dict[str, float]
) -> Callable[[Table], Evidence]:
    """Every entry of 32 rows from each of p = 10^3 .. 10^6, at each of :data:`DRIFT_WIDTHS`,
    within :func:`pe.recipes.drift_bound` with the exponent rounded ``roundings`` times and
    the frequency and the sine within ``ulps``."""
    first, last = 1 + 2 * ulps["exp"], 2 * ulps["sin"]
    exponent = round(np.log2(unit))
    factor = {0: "", 1: " + |ln ω|"}.get(roundings, f" + {roundings}|ln ω|")
    law = {0: "", 1: r" + |\ln\omega_i|"}.get(roundings, rf" + {roundings}|\ln\omega_i|")

    def run(table: Table) -> Evidence:
        ratio = 0.0
        for d, start in [(d, s) for d in DRIFT_WIDTHS for s in DRIFT_STARTS] + [EXP_WITNESS]:
            rows = start + np.arange(32)
            bound = recipes.drift_bound(rows, d, unit, roundings, ulps)
            ratio = max(ratio, float((row_errors(table, rows, d) / bound).max()))
        return within(
            ratio,
            Tolerance(
                1.0,
                rf"({first:g}{law})\,2^{{{exponent}}}\,\omega_i p + {last:g} \cdot 2^{{{exponent}}}"
                r" \text{ per entry}",
            ),
            f"d in {DRIFT_WIDTHS}, 32 rows from each of p = 10^3..10^6, and from p = "
            f"{EXP_WITNESS[1]} at d = {EXP_WITNESS[0]}: worst entry / (({first:g}"
            f"{factor})·2^{exponent}·ω p + {last:g}·2^{exponent}) "
            f"{on_site(f'= {ratio:.3g}', below(ratio, 1.0, '.3g', stable=False))}",
        )

    return run


#: Where NumPy's float32 ``exp`` (its AVX2 and AVX-512 kernels) errs by more than one ulp
#: in the recipe: d = 440, pair 7, p = 705578 (found by an independent audit of the site).
EXP_WITNESS = (440, 705_578)


#: The float32 recipe's bound read with the exponent rounded once, as for float64 (true: twice).
EXPONENT_ROUNDED_ONCE = Candidate("(3 + |ln ω_i|): the exponent rounded once", 1)


def _recipe_roundings(roundings: int) -> Evidence:
    r"""The float32 recipe's exponent :math:`x_i = \mathrm{fl}_{32}(2i\cdot\mathrm{fl}_{32}(-\ln b/d))`
    within ``roundings`` roundings, :math:`|\hat x_i - x_i| \le r\,u\,|x_i|`, against
    mpmath (40 digits), over every pair of each of :data:`DRIFT_WIDTHS`.

    IEEE 754 rounds the float32 conversion and product alike on every machine; only the
    float64 logarithm and quotient before them may differ, by :math:`2^{-51}|x_i|` at most.
    """
    worst = 0.0
    with mpmath.workdps(40):
        for d in DRIFT_WIDTHS:
            scale = np.float32(-np.log(10000.0) / d)
            steps = np.arange(2, d, 2).astype(np.float32)
            for step, rounded in zip(steps.tolist(), (steps * scale).tolist(), strict=True):
                x = -mpmath.mpf(step) / d * mpmath.log(10000)
                worst = max(worst, float(abs(rounded - x) / (2.0**-24 * abs(x))))
    return within(
        worst,
        Tolerance(
            2.0**-27,
            r"2^{-51}|x_i| / (u\,|x_i|) \text{ (the float64 logarithm and quotient)}",
            stated=float(roundings),
        ),
        f"d in {DRIFT_WIDTHS}, every pair: largest |x̂ - x| / (2^-24 |x|) = {worst:.3g} "
        f"(x the exponent ln ω_i; allowed: {roundings} rounding{'s' if roundings > 1 else ''})",
    )


def _slope_in_words(slope: float) -> str:
    """A log-log slope as the site prints it: against 1 (linear drift) and 0 (none)."""
    if abs(slope - 1.0) <= 0.1:
        return "within 0.1 of 1"
    return "within 0.1 of 0" if abs(slope) <= 0.1 else "neither near 0 nor near 1"


def _drift_slope(table: Table) -> Evidence:
    """The largest error of 32 rows from each of p = 10^3 .. 10^6 grows like p."""
    worst = [float(errors.max()) for errors in _drift_errors(table)]
    slope = float(np.polyfit(np.log10(DRIFT_STARTS), np.log10(worst), 1)[0])
    return within(
        abs(slope - 1.0),
        Tolerance(0.0, r"0 \text{ (a slope of measured errors)}", stated=0.1),
        "d=64, 32 rows from each of p = 10^3..10^6: largest errors "
        + on_site(", ".join(f"{w:.3g}" for w in worst), "measured")
        + f"; log-log slope {on_site(f'{slope:.3f}', _slope_in_words(slope))} (linear: within "
        "0.1 of 1)",
    )


def complex_shift(factor: Callable[[Any, Any], Any]) -> Proof:
    r"""Proof that multiplying by ``factor(q, w)`` shifts a complex pair by ``q`` positions.

    Parameters
    ----------
    factor
        The candidate ``(q, w) -> expression``; :func:`shift_factor` holds, a wrong
        factor leaves a non-zero residual.

    Returns
    -------
    pe.symbolic.Proof
        Statement :math:`z(p + q) = z(p)\,\mathrm{factor}(q, \omega)` with :math:`z` written
        out, and the steps that reduce left minus right.

    Examples
    --------
    >>> complex_shift(lambda q, w: sp.cos(w * q) + sp.I * sp.sin(w * q)).holds
    False
    """
    p, q = sp.symbols("p q", integer=True, nonnegative=True)
    w = sp.Symbol("omega_i", positive=True)

    def z(x: Any) -> Any:
        return sp.sin(w * x) + sp.I * sp.cos(w * x)

    shift = factor(q, w)
    left, right = z(p + q), z(p) * shift
    statement = (
        f"{sp.latex(left)} = \\left({sp.latex(z(p))}\\right) \\left({sp.latex(shift)}\\right)"
    )
    derivation = Derivation()
    residual = sp.Matrix([left - right])
    derivation.note("Residual: left side minus right side", sp.latex(residual[0]), residual)
    residual = derivation.angle_addition(residual)
    return derivation.proof("one complex multiplication shifts a pair by q", statement, residual)


#: :math:`\cos \omega q + \mathrm{i}\sin \omega q` for the complex shift factor: a shift by -q.
CONJUGATE_FACTOR = Candidate(
    "factor cos + i sin", lambda q, w: sp.cos(w * q) + sp.I * sp.sin(w * q)
)

#: :math:`\sin \omega q - \mathrm{i}\cos \omega q`: sine and cosine swapped in the factor.
SWAPPED_FACTOR = Candidate("factor sin - i cos", lambda q, w: sp.sin(w * q) - sp.I * sp.cos(w * q))

claim(
    "complex-shift-step",
    "One complex multiplication shifts a pair",
    Check(
        by_proof(complex_shift),
        true=shift_factor,
        wrong=(CONJUGATE_FACTOR, SWAPPED_FACTOR),
    ),
)


#: Table methods ``(positions, d) -> table`` that miss the float64 or float32 bounds.
DIRECT_FLOAT64_TABLE = Candidate("direct float64 evaluation", numeric.sinusoidal_direct)
FLOAT64_ANGLE_ANCHORS = Candidate(
    "rotation with anchors from float64 angles", recipes.rotation_with_float64_angles
)

#: The statement "float64 tables are correctly rounded" (true: they are not).
CORRECTLY_ROUNDED_64 = Candidate("correctly rounded in float64", True)


def _rounding_64(correctly_rounded: bool) -> Evidence:
    """pe's float64 table against the statement "it is (or is not) correctly rounded"."""
    census = rounding_census(numeric.sinusoidal, np.float64)
    return checked(
        (census.misrounded == 0) == correctly_rounded, _census_detail(census, "float64", ENTRY())
    )


claim(
    "table-accurate-float64",
    r"Float64 tables within $4.9 \times 10^{-16}$ of the exact values, but not correctly rounded",
    Check(
        _within(ENTRY),
        true=numeric.sinusoidal,
        wrong=(DIRECT_FLOAT64_TABLE, FLOAT64_ANGLE_ANCHORS),
    ),
    Check(
        _rows_within(FAR_POSITIONS[:5], 512, ENTRY),
        true=numeric.sinusoidal,
        wrong=(DIRECT_FLOAT64_TABLE, FLOAT64_ANGLE_ANCHORS),
    ),
    Check(_rounding_64, true=False, wrong=(CORRECTLY_ROUNDED_64,)),
    statement=(
        r"\begin{gathered}|\widehat{PE}_{64} - PE| \le 4.9\times 10^{-16} \text{ for }"
        r" 0 \le p \le 2^{53} \\ \text{(derived, with NumPy's sine and cosine within }"
        rf" {_extended_precision.LIBRARY_SINE_ULPS:g} \text{{ ulp;}} \\ \text{{measured on 600"
        r" entries per width below } 2^{20} \text{ and five rows up to } 2^{53}); \\"
        r" \widehat{PE}_{64} \ne \mathrm{fl}_{64}(PE) \text{ for some entries (not correctly"
        r" rounded)}\end{gathered}"
    ),
)


FLOAT32_RECIPE = Candidate("the float32 recipe", recipes.float32_recipe)


#: The direct float64 evaluation rounded to float32: close, but not correctly rounded.
DIRECT_FLOAT32_TABLE = Candidate(
    "direct float64 evaluation rounded to float32",
    lambda positions, d: numeric.sinusoidal_direct(positions, d).astype(np.float32),
)

#: Rows chained by one complex multiplication each, z(p + 1) = z(p) u, in complex64 and
#: never re-anchored: the rounding errors add up along the rows.
CHAINED_COMPLEX64 = Candidate(
    "rows chained z(p+1) = z(p) u in complex64 without re-anchoring",
    lambda positions, d: recipes.chained_rotation(int(np.max(positions)) + 1, d)[positions],
)


def _correctly_rounded_32(table: Table) -> Evidence:
    census = rounding_census(table, np.float32)
    return checked(census.misrounded == 0, _census_detail(census, "float32", ENTRY_FLOAT32()))


claim(
    "table-accurate-float32",
    "Float32 tables correctly rounded on every sampled entry",
    Check(
        _correctly_rounded_32,
        true=_float32,
        wrong=(FLOAT32_RECIPE, DIRECT_FLOAT32_TABLE),
    ),
    Check(_within(ENTRY_FLOAT32), true=_float32, wrong=(FLOAT32_RECIPE,)),
    Check(
        _rows_within((4095,), 16, ENTRY_FLOAT32),
        true=_float32,
        wrong=(CHAINED_COMPLEX64,),
    ),
    statement=(
        r"\begin{gathered}|\widehat{PE}_{32} - PE| \le 2^{-25} + 1.6\times 10^{-15};"
        r" \\ \widehat{PE}_{32} = \mathrm{fl}_{32}(PE) \text{ on every sampled entry,"
        r" consecutive positions included}\end{gathered}"
    ),
)

claim(
    "float32-recipe-drifts",
    "Angles formed in float32 drift linearly with position",
    Check(
        _drift_slope,
        true=recipes.float32_recipe,
        wrong=(Candidate("pe float32 (no drift)", _float32),),
    ),
    Check(
        _drift_bound(2.0**-24, 2, dict(recipes.NUMPY_FLOAT32_ULPS)),
        true=recipes.float32_recipe,
        wrong=(Candidate("the float16 recipe", _recipe16),),
    ),
    Check(_recipe_roundings, true=2, wrong=(EXPONENT_ROUNDED_ONCE,)),
    statement=(
        r"\begin{gathered}|\widehat{PE}_{\text{recipe}} - PE| \le (6.04 + 2|\ln\omega_i|)"
        r"\,2^{-24}\,\omega_i p + 2.98 \cdot 2^{-24} \\ \text{(its exponent rounded twice,"
        r" NumPy's float32 exp within 2.52 ulp, sin and cos within 1.49;} \\ \text{derived,"
        r" measured at } d = 64, 440, 560), \\"
        r" \text{and its largest error grows like } p \text{ from } 10^3 \text{ to } 10^6"
        r"\end{gathered}"
    ),
)


#: How far apart the rows of a float16 table (positions 0 .. 4095, d = 16) stay, at least:
#: neighbours differ by about 2 sin(1/2) in pair 0 alone.
FLOAT16_APART = 1.0


def _rows(repeat: bool) -> Callable[[Table], Evidence]:
    """Rows of positions 0 .. 4095 (d = 16): some repeat an earlier row (``repeat``), or
    none does and no two are closer than :data:`FLOAT16_APART`."""

    def run(table: Table) -> Evidence:
        found = row_separation(table(np.arange(4096), 16), "")
        apart = found.duplicates == 0 and found.smallest > FLOAT16_APART
        return checked(
            found.duplicates > 0 if repeat else apart,
            f"positions 0..{found.n_positions - 1}, d={found.d_model}: {found.duplicates} rows "
            f"repeat an earlier row; smallest distance {found.smallest:.3g} "
            f"(positions {found.pair[0]} and {found.pair[1]})",
        )

    return run


claim(
    "float16-positions-collide",
    "Positions formed in float16 collide above 2048; values rounded to float16 stay apart",
    Check(_rows(repeat=True), true=_recipe16, wrong=(Candidate("pe float16 table", _float16),)),
    Check(_rows(repeat=False), true=_float16, wrong=(Candidate("the float16 recipe", _recipe16),)),
    statement=(
        r"\begin{gathered}\mathrm{fl}_{16}(2049) = \mathrm{fl}_{16}(2048) \implies "
        r"PE(\mathrm{fl}_{16}(2049)) = PE(\mathrm{fl}_{16}(2048)); \\ "
        r"\mathrm{fl}_{16}(PE(p)),\ 0 \le p < 4096,\ d = 16: \text{ no two rows closer"
        rf" than }} {FLOAT16_APART:g}\end{{gathered}}"
    ),
)

#: What the reporter printed: the float32 angle, the float16 angle, the largest change of
#: the cosine over the table (``tensor(1044.2678)``, ``tensor(1045.)``, ``tensor(0.7819)``).
NEOX_1003_REPORTED = (1044.2678, 1045.0, 0.7819)

#: The float32 angle rounded once to float16, read as the cause of GPT-NeoX #1003's 1045.
ROUNDED_ANGLES = Candidate("the float32 angle rounded to float16", recipes.rounded_angles)


def _neox(half_angles: recipes.HalfAngles) -> Evidence:
    """The reproducer of GPT-NeoX #1003 recomputed: the reporter's numbers and the page's."""
    found = recipes.neox_reproducer(half_angles)
    angle32, angle16, largest = NEOX_1003_REPORTED
    reported = (
        round(found.angle32, 4) == angle32
        and found.angle16 == angle16
        and round(found.largest_change, 4) == largest
    )
    stated = found.rounded == 1044 and round(found.entry_change, 3) == 0.715
    return checked(
        reported and stated,
        f"d=32, 2048 positions, entry (1857, 1): float32 angle {found.angle32:.8g}, rounded "
        f"to float16 {found.rounded:g}; float16 angle of this path {found.angle16:g} "
        f"(reported {angle16:g}); cosine changed there by {found.entry_change:.4f}, at most "
        f"{found.largest_change:.4f} at {found.where} (reported {largest})",
    )


claim(
    "gptneox-1003-half-frequencies",
    "GPT-NeoX #1003: the 1045 comes from float16 frequencies, not from rounding the angle",
    Check(
        _neox,
        true=recipes.half_frequency_angles,
        wrong=(ROUNDED_ANGLES,),
    ),
    statement=(
        r"\begin{gathered}d = 32,\ p = 1857,\ i = 1:\ \mathrm{fl}_{16}\bigl(\mathrm{fl}_{16}"
        r"(\omega_1)\cdot p\bigr) = 1045 \ne \mathrm{fl}_{16}(p\,\omega_1) = 1044; \\"
        r" |\Delta\cos| = 0.715 \text{ there},\ \max_{p, i} |\Delta\cos| = 0.7819"
        r" \text{ over 2048 positions} \\ \text{(issue 1003 reports the cached tables formed in"
        r" half precision; its reproducer, } d = 32 \text{ and 2048 positions, prints the 1045"
        r" and the 0.7819)}\end{gathered}"
    ),
    source="gptneox1003",
)

#: "Roughly 2^29 times more slowly": the float32 recipe's drift over the direct float64
#: one, divided by the ratio of the two epsilons, lies within this factor of 1 either way.
ROUGHLY = 2.0

#: pe's float64 table taken for one that drifts.
PE_FLOAT64 = Candidate("pe float64 (no drift)", numeric.sinusoidal)


def drift_ratios(table: Table = numeric.sinusoidal_direct) -> list[float]:
    """The float32 recipe's largest error over 32 rows from each of p = 10^3 .. 10^6 (d = 64),
    over ``table``'s there, in units of :math:`2^{29} = \varepsilon_{32}/\varepsilon_{64}`."""
    ours = [float(errors.max()) for errors in _drift_errors(table)]
    recipe = [float(errors.max()) for errors in _drift_errors(recipes.float32_recipe)]
    return [r / o / 2.0**29 if o > 0 else np.inf for r, o in zip(recipe, ours, strict=True)]


def _drift_ratio(table: Table) -> Evidence:
    """The float32 recipe's largest errors over ``table``'s, at each start, in units of 2^29."""
    ratios = drift_ratios(table)
    return checked(
        all(1 / ROUGHLY <= x <= ROUGHLY for x in ratios),
        "d=64, 32 rows from each of p = 10^3..10^6: the float32 recipe's largest error over "
        "this table's, in units of 2^29 = ε32/ε64: "
        + on_site(", ".join(f"{x:.2g}" for x in ratios), "measured")
        + f" (roughly: within a factor {ROUGHLY:g} of 1)",
    )


claim(
    "direct-float64-drifts",
    "The direct float64 evaluation drifts like the float32 recipe, roughly $2^{29}$ times more slowly",
    Check(_drift_slope, true=numeric.sinusoidal_direct, wrong=(PE_FLOAT64,)),
    Check(_drift_ratio, true=numeric.sinusoidal_direct, wrong=(PE_FLOAT64, FLOAT32_RECIPE)),
    Check(
        _drift_bound(2.0**-53, 0, FLOAT64_DIRECT_ULPS),
        true=numeric.sinusoidal_direct,
        wrong=(FLOAT32_RECIPE,),
    ),
    statement=(
        r"\begin{gathered}|\widehat{PE}_{\text{direct}} - PE| \le"
        rf" {1 + 2 * FLOAT64_DIRECT_ULPS['exp']:g}\cdot 2^{{-53}}\,\omega_i p"
        rf" + {2 * FLOAT64_DIRECT_ULPS['sin']:g}\cdot 2^{{-53}} \\ \text{{(frequencies"
        rf" correctly rounded, sine and cosine within {FLOAT64_DIRECT_ULPS['sin']:g} ulp), and its"
        r" largest error grows like } p \text{ from } 10^3 \text{ to } 10^6 \\ \text{the float32"
        rf" recipe's, over it, within a factor {ROUGHLY:g} of }} 2^{{29}} = \varepsilon_{{32}}"
        r" / \varepsilon_{64} \text{ there}\end{gathered}"
    ),
)

ANGLE = 1e4  #: the angle size of the page's float32 argument (a fast pair near p = 10^4)

#: The dtype facts of the page, as stated there.
FORMAT_FACTS: dict[str, float] = {
    "float32 significant bits": 24,
    "float16: every integer up to": 2048,
    "largest finite float16": 65504.0,
    "first integer overflowing float16": 65520,
    "eps32 / eps64": 2.0**29,
    "half ulp below 1, float64": 2.0**-54,
    "half ulp below 1, float32": 2.0**-25,
    "bits for 1e-8 at 1e4": 40,
}


def _rounding_near_angle(half_spacing: float) -> Evidence:
    """Largest rounding error of float32 on 10^5 random angles within 10 % of 10^4."""
    angles = np.random.default_rng(0).uniform(0.9 * ANGLE, 1.1 * ANGLE, 100_000)
    worst = float(np.abs(angles.astype(np.float32).astype(np.float64) - angles).max())
    spacing = float(np.spacing(np.float32(ANGLE)))
    # Rounding to float32 is correctly rounded and the difference is exact (IEEE 754), so
    # the largest error is at most the half spacing on every machine; 10^5 angles reach it
    # within 0.1 % (the sample's own allowance). Measured against the stated half spacing.
    shortfall = abs(worst - half_spacing) / half_spacing
    return checked(
        spacing == 2 * half_spacing,
        f"float32 spacing at 10^4: {spacing:.6g}; largest |fl32(x) - x| over 10^5 angles "
        f"within 10 % of 10^4: {worst:.6g} (stated half spacing {half_spacing:.6g}, reached "
        f"within {shortfall:.2g})",
        error=shortfall,
        tolerance=Tolerance(
            0.0, r"0 \text{ (IEEE 754 rounding, an exact difference)}", stated=1e-3
        ),
    )


def _format_facts(stated: dict[str, float]) -> Evidence:
    """The dtype facts the page states, read from NumPy (every key of :data:`FORMAT_FACTS`)."""
    integers = np.arange(1 << 17)
    with np.errstate(over="ignore"):
        half = integers.astype(np.float16)
        below_one = [np.nextafter(t(1), t(0)) for t in (np.float64, np.float32)]
        found = {
            "float32 significant bits": np.finfo(np.float32).nmant + 1,
            "float16: every integer up to": int(np.flatnonzero(half != integers)[0]) - 1,
            "largest finite float16": float(np.finfo(np.float16).max),
            "first integer overflowing float16": int(integers[np.isinf(half)][0]),
            "eps32 / eps64": float(np.finfo(np.float32).eps / np.finfo(np.float64).eps),
            "half ulp below 1, float64": float(np.spacing(below_one[0])) / 2,
            "half ulp below 1, float32": float(np.spacing(below_one[1])) / 2,
            # significant bits b for a half spacing 2^(13 - b) <= 1e-8 at an angle near 10^4
            "bits for 1e-8 at 1e4": next(b for b in range(1, 113) if 2.0 ** (13 - b) <= 1e-8),
        }
    wrong = [f"{k} {found[k]:g}, stated {v:g}" for k, v in stated.items() if found[k] != v]
    return checked(
        not wrong and stated.keys() == found.keys(),
        "; ".join(wrong) or ", ".join(f"{k} {v:g}" for k, v in found.items()),
    )


claim(
    "float-format-facts",
    "The floating-point facts the page uses, read from NumPy",
    Check(
        _format_facts,
        true=FORMAT_FACTS,
        wrong=tuple(
            Candidate(name, {**FORMAT_FACTS, key: value})
            for name, key, value in (
                ("23 bits, the stored ones", "float32 significant bits", 23),
                ("integers up to 2^10", "float16: every integer up to", 1024),
                ("overflow right above 65504", "first integer overflowing float16", 65505),
                ("eps ratio 2^32", "eps32 / eps64", 2.0**32),
                ("half ulp at 1: 2^-53", "half ulp below 1, float64", 2.0**-53),
                ("float32's 24 bits suffice", "bits for 1e-8 at 1e4", 24),
            )
        ),
    ),
    Check(
        _rounding_near_angle,
        true=2.0**-11,
        wrong=(Candidate("the whole spacing 2^-10", 2.0**-10),),
    ),
    statement=(
        r"\begin{gathered}\text{float32: 24 significant bits, spacing } 2^{-10}"
        r" \text{ near } 10^4, \text{ so } |\mathrm{fl}_{32}(\theta) - \theta| \le 2^{-11}"
        r" \approx 4.9\times 10^{-4}; \ 10^{-8} \text{ at } 10^4 \text{ needs 40 bits;}"
        r" \\ \text{float16: every integer up to 2048, largest finite 65504, integers from"
        r" 65520 overflow;} \ \varepsilon_{32} / \varepsilon_{64} = 2^{29}; \\ \text{half"
        r" an ulp just below 1: } 2^{-54} \text{ (float64)},\ 2^{-25}"
        r" \text{ (float32)}\end{gathered}"
    ),
)


#: A width wider than the decimal tables (16384 pairs): its frequencies are the exact
#: product of two short tables, and the angle check samples 130 of its pairs, every 127th
#: from the first to the last (16383 = 127 * 129).
WIDE_ANGLES = (32768, tuple(range(0, 16384, 127)))

#: The frequencies of d = 512, base 10000, in turns, kept to two doubles (about 106 bits)
#: instead of three: too coarse to reduce angles near 2^53 to 2^-80 turns.
TWO_DOUBLE_FREQUENCIES = Candidate(
    "frequencies kept in two doubles (about 106 bits)",
    _extended_precision.frequency_turns(512, 10000.0)[:2],
)

#: The wide width's frequencies in two doubles (about 106 bits), as its product of two
#: tables was carried before it kept three.
WIDE_TWO_DOUBLE_FREQUENCIES = Candidate(
    f"d = {WIDE_ANGLES[0]}: frequencies kept in two doubles (about 106 bits)",
    _extended_precision.frequency_turns(WIDE_ANGLES[0], 10000.0)[:2],
)


def _angle_reduction(
    d_model: int, pairs: tuple[int, ...] | None = None
) -> Callable[[tuple[npt.NDArray[np.float64], ...]], Evidence]:
    which = "every pair" if pairs is None else f"{len(pairs)} pairs"

    def check(turns: tuple[npt.NDArray[np.float64], ...]) -> Evidence:
        error, largest = angle_reduction_error(turns, ANGLE_POSITIONS, d_model, pairs)
        return checked(
            largest <= np.pi,
            f"d={d_model}, {which}, positions {', '.join(str(p) for p in ANGLE_POSITIONS)}:"
            f" reduced angle within {error:.3g} rad of ω_i p mod 2π (mpmath, 70 digits),"
            f" |x| <= {largest:.6g}",
            error=error,
            tolerance=Tolerance(
                _extended_precision.ANGLE_BOUND,
                r"2^{-80} \text{ turns: six additions of } 2^{-83} \text{, two products of }"
                r" 2^{-84} \text{ and the frequency's } 2^{-99}",
            ),
        )

    return check


claim(
    "anchor-angle-accurate",
    "The anchors' angles, reduced in extended precision, within $2^{-80}$ turns up to $2^{53}$",
    Check(
        _angle_reduction(512),
        true=_extended_precision.frequency_turns(512, 10000.0),
        wrong=(TWO_DOUBLE_FREQUENCIES,),
    ),
    Check(
        _angle_reduction(*WIDE_ANGLES),
        true=_extended_precision.frequency_turns(WIDE_ANGLES[0], 10000.0),
        wrong=(WIDE_TWO_DOUBLE_FREQUENCIES,),
    ),
    statement=(
        r"\begin{gathered}|\hat x - (\omega_i p \bmod 2\pi)| \le 2\pi \cdot 2^{-80},\ |\hat x|"
        r" \le \pi \quad (0 \le p \le 2^{53}) \\ \text{derived: six additions of } 2^{-83}"
        r" \text{ turns, two products of } 2^{-84}, \\ \text{the frequency's own } 2^{-99};"
        r" \text{ measured at } d = 512 \text{ (every pair)} \\ \text{and }"
        + f"d = {WIDE_ANGLES[0]} \\text{{ ({len(WIDE_ANGLES[1])} pairs), at {len(ANGLE_POSITIONS)} positions,}}"
        + r" \ 2^{53} \text{ included}\end{gathered}"
    ),
)


#: How close the three-double frequencies must be: within 2^-150 of each exact frequency.
TURN_BITS = 150


def _frequency_bits(d_model: int) -> Callable[[tuple[npt.NDArray[np.float64], ...]], Evidence]:
    def check(turns: tuple[npt.NDArray[np.float64], ...]) -> Evidence:
        bits = turn_bits(d_model, turns)
        return within(
            2.0**-bits,
            Tolerance(0.0, r"0 \text{ (mpmath at 70 digits)}", stated=2.0**-TURN_BITS),
            f"d={d_model}, every pair: the sum of the doubles matches the exact frequency"
            f" to {bits:.1f} bits, worst pair (mpmath, 70 digits)",
        )

    return check


claim(
    "frequency-turns-accurate",
    "The frequencies in turns, kept in three doubles, within $2^{-150}$ relative at the widths measured",
    Check(
        _frequency_bits(512),
        true=_extended_precision.frequency_turns(512, 10000.0),
        wrong=(TWO_DOUBLE_FREQUENCIES,),
    ),
    Check(
        _frequency_bits(WIDE_ANGLES[0]),
        true=_extended_precision.frequency_turns(WIDE_ANGLES[0], 10000.0),
        wrong=(WIDE_TWO_DOUBLE_FREQUENCIES,),
    ),
    statement=(
        r"\begin{gathered}\left|\tfrac{f_{hi} + f_{mid} + f_{lo}}{f_i} - 1\right|"
        r" \le 2^{-150},\ f_i = \tfrac{\omega_i}{2\pi} \\ \text{one decimal product per"
        + f" pair up to d = {2 * _extended_precision._DECIMAL_PAIRS};"
        + r" wider: two short tables} \\ \text{measured at every pair of } d = 512"
        + f" \\text{{ and }} d = {WIDE_ANGLES[0]}"
        + r"\end{gathered}"
    ),
)


Split = Callable[[npt.NDArray[np.float64]], tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]


def _split_with(splitter: float) -> Split:
    """Veltkamp's split with another splitter than :math:`2^{27} + 1`."""

    def split(
        x: npt.NDArray[np.float64],
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        c = x * splitter
        high = c - (c - x)
        return high, x - high

    return split


#: Splitters one bit off: a high half of 27 bits (2^26 + 1), or a low half of 28 (2^28 + 1).
SPLIT_27_BITS = Candidate("splitter 2^26 + 1 (a 27-bit high half)", _split_with(2.0**26 + 1))
SPLIT_24_BITS = Candidate("splitter 2^28 + 1 (a 28-bit low half)", _split_with(2.0**28 + 1))


def _products_exact(split: Split) -> Evidence:
    """pe's split of 2 x 5000 doubles (exponents -30..29): the halves add up to each double,
    and every product of a half of one with a half of another is exact (Python fractions)."""
    rng = np.random.default_rng(7)
    x, y = (rng.uniform(0.5, 1.0, 5000) * 2.0 ** rng.integers(-30, 30, 5000) for _ in range(2))
    (x_hi, x_lo), (y_hi, y_lo) = split(x), split(y)
    whole = bool(np.all(x_hi + x_lo == x) and np.all(y_hi + y_lo == y))
    inexact = sum(
        Fraction(u * v) != Fraction(u) * Fraction(v)
        for a, b in ((x_hi, y_hi), (x_hi, y_lo), (x_lo, y_hi), (x_lo, y_lo))
        for u, v in zip(a.tolist(), b.tolist(), strict=True)
    )
    return checked(
        whole and inexact == 0,
        f"2 x 5000 doubles: hi + lo = x for each: {whole}; of 20000 products of halves, "
        f"{inexact} not exact in float64 (against Python's exact fractions)",
    )


claim(
    "numpy-float32-accuracy",
    "NumPy's float32 exp, sin and cos: their stated largest errors",
    statement=(
        r"\text{NumPy's vectorised float32 functions: } \exp \text{ within 2.52 ulp; } \sin,"
        r" \cos \text{ within 1.49 ulp (pull requests 13134 and 13368)}"
    ),
    source="numpy-simd-float32",
)

claim(
    "veltkamp-split-exact",
    "Dekker and Veltkamp's split: products of halves are exact in float64",
    Check(_products_exact, true=_extended_precision._split, wrong=(SPLIT_27_BITS, SPLIT_24_BITS)),
    statement=(
        r"\begin{gathered}\text{Dekker (1971), after Veltkamp: } c = (2^{27} + 1)\,x,"
        r" \ x_{hi} = c - (c - x),\ x_{lo} = x - x_{hi}: \\ x = x_{hi} + x_{lo},\ \text{each"
        r" half of at most 26 bits, so } \mathrm{fl}(a\,b) = a\,b \text{ for halves } a, b"
        r"\end{gathered}"
    ),
    source="dekker1971",
)


#: Seeded arguments at which the library's float64 sine and cosine are measured, in each of
#: [-pi, pi] (the anchors') and [0, LARGEST_ANGLE] (the direct table's, p up to 2.2e6).
SINE_ARGUMENTS = 20_000
LARGEST_ANGLE = 2.2e6


def _library_sine(ulps: float) -> Evidence:
    """NumPy's float64 sin and cos at SINE_ARGUMENTS seeded points of each of [-pi, pi] and
    [0, LARGEST_ANGLE] against mpmath (60 digits): the largest error in units in the last
    place of the exact value, and the anchor bound delta it gives (``ulps`` plus one
    rounding of half a unit, values below 1)."""
    rng = np.random.default_rng(2017)
    x = np.concatenate(
        [rng.uniform(-np.pi, np.pi, SINE_ARGUMENTS), rng.uniform(0, LARGEST_ANGLE, SINE_ARGUMENTS)]
    )
    with mpmath.workdps(60):
        worst = max(
            ulps_error(np.sin(x), [mpmath.sin(arg) for arg in x.tolist()]),
            ulps_error(np.cos(x), [mpmath.cos(arg) for arg in x.tolist()]),
        )
    delta = (ulps + 0.5) * 2.0**-53
    return checked(
        worst <= ulps and delta == _extended_precision.ANCHOR_ERROR_BOUND,
        f"float64 sin and cos at {SINE_ARGUMENTS} seeded points of each of [-π, π] and [0, "
        f"{LARGEST_ANGLE:.2g}] against mpmath (60 digits): largest error "
        f"{measured(worst, ulps)} ulp; δ = ({ulps:g} + 0.5)·2^-53 "
        f"= {delta / 2.0**-53:.3g}·2^-53 (pe's anchor bound: "
        f"{_extended_precision.ANCHOR_ERROR_BOUND / 2.0**-53:.3g}·2^-53)",
    )


claim(
    "library-sine-accurate",
    f"NumPy's float64 sine and cosine within {_extended_precision.LIBRARY_SINE_ULPS:g} ulp",
    Check(
        _library_sine,
        true=_extended_precision.LIBRARY_SINE_ULPS,
        wrong=(Candidate("correctly rounded: half an ulp", 0.5),),
    ),
    statement=(
        r"\begin{gathered}|\mathrm{sin}_{64}(x) - \sin x|,\ |\mathrm{cos}_{64}(x) - \cos x|"
        rf" \le {_extended_precision.LIBRARY_SINE_ULPS:g} \text{{ ulp}} \quad (\text{{measured"
        rf" against mpmath at {SINE_ARGUMENTS} seeded points of each of }} [-\pi, \pi]"
        rf" \text{{ and }} [0, 2.2\times 10^6]); \\"
        r" \text{an anchor adds one rounding: } \delta ="
        rf" {_extended_precision.ANCHOR_ERROR_BOUND / 2.0**-53:.3g} \cdot 2^{{-53}}\end{{gathered}}"
    ),
)


def _entry_bounds(stated: tuple[float, float, float]) -> Evidence:
    """The page's bound arithmetic: max |a| + |b| on the unit circle (10^5 + 1 angles, pi/4
    included), 2 sqrt2 delta + 3 2^-54 with pe's delta, and the same for composed anchors."""
    t = np.linspace(0, 2 * np.pi, 100_001)
    weight = float((np.abs(np.cos(t)) + np.abs(np.sin(t))).max())
    entry = 2 * np.sqrt(2) * _extended_precision.ANCHOR_ERROR_BOUND + 3 * 2.0**-54
    composed = 2 * np.sqrt(2) * stated[1] + 3 * 2.0**-54
    return checked(
        stated[0] * (1 - 1e-15) <= weight <= stated[0] * (1 + 1e-15)
        and entry == _rotation_table.ENTRY_ERROR_BOUND
        and entry <= stated[1] <= 1.01 * entry
        and composed <= stated[2] <= 1.05 * composed,
        f"max |a| + |b| = {weight:.12g}; 2√2δ + 3·2^-54 = {entry:.4g} (pe's bound); composed "
        f"2√2·{stated[1]:.3g} + 3·2^-54 = {composed:.4g}; stated {', '.join(f'{x:.3g}' for x in stated)}",
    )


claim(
    "entry-error-bound",
    "The error bound of an entry, and of a composed anchor",
    Check(
        _entry_bounds,
        true=(float(np.sqrt(2)), 4.9e-16, 1.6e-15),
        wrong=(
            Candidate("|a| + |b| <= 1", (1.0, 4.9e-16, 1.6e-15)),
            Candidate("one rounding, 2^-53", (float(np.sqrt(2)), 2.0**-53, 1.6e-15)),
            Candidate("composed as one: 4.9e-16", (float(np.sqrt(2)), 4.9e-16, 4.9e-16)),
        ),
    ),
    statement=(
        r"\begin{gathered}a^2 + b^2 = 1 \implies |a| + |b| \le \sqrt 2; \quad"
        r" 2\sqrt2\,\delta + 3\cdot 2^{-54} \le 4.9\times 10^{-16},\ \delta = 1.02\cdot"
        r" 2^{-53}; \\ \text{composed anchors: } 2\sqrt2 \cdot 4.9\times 10^{-16} + 3\cdot"
        r" 2^{-54} < 1.6\times 10^{-15}\end{gathered}"
    ),
)


def _positions_in(dtype: type[np.floating[Any]]) -> Evidence:
    """Megatron-LM #535 recomputed: the rows of RoPE's angles for 32768 positions, along the
    reported path with frequencies of ``dtype``, collide."""
    angles = recipes.megatron_535_angles(32_768, 128, dtype)
    distinct = np.unique(angles, axis=0).shape[0]
    return checked(
        distinct < angles.shape[0],
        f"the reported path, dim=128, positions 0..32767 cast to the {np.dtype(dtype).name} of "
        f"the frequencies: {distinct} distinct rows of angles",
    )


claim(
    "megatron-535-float16-positions",
    "Megatron-LM #535: 32768 positions cast to float16 collide",
    Check(_positions_in, true=np.float16, wrong=(Candidate("float32 positions", np.float32),)),
    statement=(
        r"\text{Megatron-LM issue 535: RoPE's positions cast to its float16 frequencies under"
        r" mixed precision; of 32768 positions many share one row of angles (recomputed)}"
    ),
    source="megatron535",
)

#: Precision failures reported in public code, cited by the page (nothing in them can be
#: recomputed here): bibliography key, then the title and the statement of claim "KEY-reported".
REPORTED = {
    "hf25681": (
        "Hugging Face #25681: casting Llama to float16 or bfloat16 cast its cached RoPE values",
        "Casting a Llama model to float16 or bfloat16 also cast its cached RoPE sines and cosines",
    ),
    "hf29496": (
        "Hugging Face #29496: bfloat16 frequencies in Mistral, linked to a loss of quality",
        "Mistral's frequencies became bfloat16 in mixed precision; rebuilt RoPE tables were wrong",
    ),
    "hf29285": (
        "Hugging Face #29285: the RoPE angles of Llama and Gemma computed in float32",
        "bfloat16 RoPE angles lost precision at long contexts; Llama and Gemma now use float32",
    ),
    "te1245": (
        "TransformerEngine #1245: a Llama 3.1 loss gap traced to RoPE on bfloat16 queries and keys",
        (
            "Llama 3.1 training (RoPE base 500000, bfloat16 mixed precision) showed a loss gap"
            " between FP8 autocast on and off, traced to the fused RoPE kernel applied to"
            " bfloat16 queries and keys, the frequencies being float32"
        ),
    ),
}


for key, (title, words) in REPORTED.items():
    claim(f"{key}-reported", title, statement=rf"\text{{{words}}}", source=key)


#: :math:`T_k` built with base 10010 instead of 10000: slightly wrong frequencies.
OTHER_BASE_SHIFT_MATRIX = Candidate(
    "T_k with base 10010", lambda k, d, base: numeric.shift_matrix(k, d, base=base * 1.001)
)

#: Positions and offsets of the low-precision identity checks.
OFFSETS = np.array([1, 3, 100, -7])
POSITIONS = np.concatenate([np.arange(256), [4096, 65_536]])


def _identity_in(dtype: type[np.floating[Any]]) -> Callable[[numeric.MatrixCandidate], Evidence]:
    """The numeric identity check in ``dtype`` for a candidate shift matrix."""

    def run(matrix: numeric.MatrixCandidate) -> Evidence:
        result = numeric._check_rotation_identity(
            64, POSITIONS, OFFSETS, base=10000.0, dtype=dtype, build=matrix
        )
        return within(
            result.worst_ratio,
            SHIFT.per_entry(),
            f"d=64, {np.dtype(dtype)}: {worst_case_text(result, result.summary())}",
        )

    return run


claim(
    "identity-low-precision",
    "The rotation identity in float16, float32 and float64",
    Check(_identity_in(np.float16), true=shift_matrix, wrong=(TRANSPOSED_SHIFT_MATRIX,)),
    Check(_identity_in(np.float32), true=shift_matrix, wrong=(OTHER_BASE_SHIFT_MATRIX,)),
    Check(_identity_in(np.float64), true=shift_matrix, wrong=(TRANSPOSED_SHIFT_MATRIX,)),
    statement=r"|(T_k PE(p))_j - PE(p+k)_j| \le " + SHIFT.latex,
)
