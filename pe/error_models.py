r"""Error models: a bound on the rounding of a computation, as code and as LaTeX, defined once.

Every numeric claim of the site is held to a :class:`~pe._tolerance.Tolerance` built from an
error model: a bound on the rounding error of the computation that checks it, which holds on
every IEEE 754 machine (from the unit roundoff :math:`u = \varepsilon/2`, the sizes and the
magnitudes involved, never from the error one machine made). An :class:`ErrorModel` is one
such model: the function that computes the bound (its derivation in the function's
docstring), its formula in LaTeX and, where a command prints it, in plain text. Code, pages
and captions state the model from this one object: ``MODEL(...)`` is the bound,
``MODEL.tolerance(...)`` the tolerance a check is held to, ``MODEL.latex`` and
``MODEL.text`` its formula.

The models shared by the library and the chapters are here: the shift of a pair
(:data:`SHIFT`, the model of :func:`pe.numeric.check_rotation_identity`), the rotation of a
pair by a float64 angle (:data:`ROTATION`), pe's bound on an entry of its table
(:data:`ENTRY`; :data:`ENTRY_FLOAT32` and :data:`ENTRY_FLOAT16` in float32 and float16), a dot product of two rows
(:data:`DOT_PRODUCT`), a distance between two rows from their Gram matrix
(:data:`GRAM_DISTANCE`) and from the rows ``k`` apart against
:math:`\sqrt{\sum_i (2 - 2\cos\omega_i k)}` (:data:`OFFSET_DISTANCE`). So are the models
of what one computes with the shift matrices :math:`T_k` of :func:`pe.numeric.shift_matrix`:
a product of them (:data:`SHIFT_PRODUCT`), an inverse (:data:`SHIFT_INVERSE`),
:math:`T^{\mathsf T} T - I` and :math:`\det T - 1` (:data:`SHIFT_ORTHOGONALITY`), and
:math:`T_k` fitted by least squares (:data:`FITTED_SHIFT`,
:func:`pe.numeric.fitted_shift_matrix`). A chapter defines the models only its own
computations use next to the checks that use them.

Examples
--------
>>> SHIFT.text
'4 eps + 8 eps64 + 4 eps64 w_i (|p| + |k|)'
>>> SHIFT.tolerance(2.0**-52, 1.0, 0.0).value == 12 * 2.0**-52
True
>>> DOT_PRODUCT.tolerance(512, 0.0).model == DOT_PRODUCT.latex
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from pe import _tolerance, _validate
from pe._rotation_table import ENTRY_ERROR_BOUND
from pe._tolerance import ELEMENTARY_ULPS, EPS64, Tolerance, gamma
from pe.numeric import frequencies, sinusoidal_direct

__all__ = [
    "DOT_PRODUCT",
    "ENTRY",
    "ENTRY_FLOAT16",
    "ENTRY_FLOAT32",
    "FITTED_SHIFT",
    "GRAM_DISTANCE",
    "OFFSET_DISTANCE",
    "ROTATION",
    "SHIFT",
    "SHIFT_INVERSE",
    "SHIFT_ORTHOGONALITY",
    "SHIFT_PRODUCT",
    "ErrorModel",
    "dot_product_bound",
    "fitted_shift_bound",
    "gram_distance_bound",
    "offset_distance_bound",
    "shift_orthogonality_bounds",
    "shift_product_bound",
]

P = ParamSpec("P")
R = TypeVar("R", bound=float | tuple[float, ...] | npt.NDArray[np.float64])


@dataclass(frozen=True)
class ErrorModel(Generic[P, R]):
    """A rounding-error bound: the function that computes it and its formula.

    Attributes
    ----------
    bound
        The bound as a function of the sizes and magnitudes of the computation (a number,
        or an array broadcast entry by entry).
    latex
        Its formula in LaTeX, as ``pe verify --json`` and the pages show it.
    text
        Its formula in plain text, for the command line (empty where none prints it).

    Examples
    --------
    >>> half_ulp = ErrorModel(lambda: 2.0**-53, "u")
    >>> half_ulp(), half_ulp.tolerance().value, half_ulp.per_entry().model
    (1.1102230246251565e-16, 1.1102230246251565e-16, 'u \\\\text{ per entry}')
    """

    bound: Callable[P, R]
    latex: str
    text: str = ""

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """The bound for these sizes and magnitudes."""
        return self.bound(*args, **kwargs)

    def tolerance(self, *args: P.args, **kwargs: P.kwargs) -> Tolerance:
        """The tolerance a check is held to: the largest bound, with this model's formula."""
        return Tolerance(float(np.max(self.bound(*args, **kwargs))), self.latex)

    def per_entry(self, where: str = "per entry") -> Tolerance:
        """The tolerance of a check that reports its worst error/bound ratio (``where`` says
        over what the ratio was taken): 1, with this model's formula."""
        return Tolerance(1.0, rf"{self.latex} \text{{ {where}}}")


#: The shift of a pair compared with the pair evaluated at the shifted angle
#: (:func:`pe._tolerance.shift_tolerance`, reach :math:`|p| + |k|`): the model of
#: :func:`pe.numeric.check_rotation_identity`.
SHIFT = ErrorModel(
    _tolerance.shift_tolerance,
    r"4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega_i(|p| + |k|)",
    "4 eps + 8 eps64 + 4 eps64 w_i (|p| + |k|)",
)

#: A pair :math:`(a, b)` rotated by a float64 angle :math:`p\,\omega_i`
#: (:func:`pe._tolerance.rotation_rounding`).
ROTATION = ErrorModel(
    _tolerance.rotation_rounding,
    r"(|a| + |b|)\bigl(\varepsilon + \gamma_2 + (r_\omega + u)|p|\omega_i\bigr)",
)

#: pe's bound :math:`\delta` on every entry of its float64 table (:mod:`pe._rotation_table`).
ENTRY = ErrorModel(
    lambda: ENTRY_ERROR_BOUND, r"\delta = 2\sqrt2\,\delta_{\text{anchor}} + 3 \cdot 2^{-54}"
)

#: pe's bound on every entry of its float32 table: half a unit in the last place below 1,
#: plus the float64 value's error before its rounding (:mod:`pe._rotation_table`).
ENTRY_FLOAT32 = ErrorModel(
    lambda: 2.0**-25 + 1.6e-15, r"2^{-25} + 2\sqrt2 \cdot 4.9 \times 10^{-16} + 3 \cdot 2^{-54}"
)

#: The same for its float16 table: half a unit in the last place below 1 is :math:`2^{-12}`.
ENTRY_FLOAT16 = ErrorModel(
    lambda: 2.0**-12 + 1.6e-15, r"2^{-12} + 2\sqrt2 \cdot 4.9 \times 10^{-16} + 3 \cdot 2^{-54}"
)


def dot_product_bound(d_model: int, reach: float) -> float:
    r"""A bound on a dot product of two rows against :math:`\sum_i \cos \omega_i k`.

    The rows come from :func:`pe.numeric.sinusoidal` (entries within :math:`\delta`, norms
    :math:`\sqrt{d/2}`): their dot product errs by at most :math:`\sqrt2\,d\,\delta` from
    the entries and :math:`\gamma_d\,d/2` from its rounding, in any order. The reference
    sums :math:`d/2` cosines of angles :math:`k\,\omega_i` formed in float64 (each within
    :math:`\varepsilon + (r_\omega + u)\,|k|`, :math:`|k| \le` ``reach``, ``omega <= 1``)
    and rounds the sum (:math:`\gamma_{d/2}\,d/2`):

    .. math::

        \tau = \sqrt2\,d\,\delta + \gamma_d\,\tfrac d2
        + \tfrac d2\bigl(\varepsilon + (r_\omega + u)\,\mathrm{reach}\bigr)
        + \gamma_{d/2}\,\tfrac d2.

    Examples
    --------
    >>> f"{dot_product_bound(512, 0.0):.2g}"
    '2.2e-11'
    """
    width = _validate.even_width("d_model", d_model)
    half = width / 2
    return float(
        np.sqrt(2) * width * ENTRY_ERROR_BOUND
        + gamma(width) * half
        + half
        * (_tolerance.ELEMENTARY_ULPS * EPS64 + (_tolerance.FREQUENCY_ROUNDING + EPS64 / 2) * reach)
        + gamma(width // 2) * half
    )


#: A dot product of two rows of pe's table against the sum of cosines of their offset.
DOT_PRODUCT = ErrorModel(
    dot_product_bound,
    r"\sqrt2\,d\,\delta + \gamma_d \tfrac d2 + \tfrac d2(\varepsilon + (r_\omega + u)"
    r"\,\mathrm{reach}) + \gamma_{d/2} \tfrac d2",
)


def gram_distance_bound(
    d_model: int, distance: float, entry_error: float = ENTRY_ERROR_BOUND
) -> float:
    r"""A bound on the error of a distance between two rows of a table, from the Gram matrix.

    The distance is formed as :math:`\sqrt s`, :math:`s = |a|^2 + |b|^2 - 2\,a \cdot b`, for
    rows of norm :math:`\sqrt{d/2}` whose entries are within :math:`\delta` (``entry_error``:
    pe's entry bound by default) of the exact ones. Table errors move :math:`s` by at most
    :math:`4\delta\sqrt d\,D + 4\delta^2 d` (:math:`D` the distance); the three sums of
    :math:`d` products by at most :math:`\gamma_d (d/2 + d/2 + d)` (Cauchy-Schwarz bounds
    :math:`\sum |a_j b_j|` by :math:`d/2`), in any order; the two additions by
    :math:`u(d + D^2)`. The square root divides that by :math:`\sqrt{\hat s} + \sqrt s \ge D`
    and adds :math:`uD`:

    .. math::

        \tau = \frac{4\delta\sqrt d\,D + 4\delta^2 d + 2d\,\gamma_d + u(d + D^2)}{D} + uD.

    Examples
    --------
    >>> f"{gram_distance_bound(512, 3.714):.2g}"
    '1.6e-11'
    """
    width = _validate.even_width("d_model", d_model)
    delta, u, dist = float(entry_error), EPS64 / 2, float(distance)
    squared = (
        4 * delta * np.sqrt(width) * dist
        + 4 * delta**2 * width
        + 2 * width * gamma(width)
        + u * (width + dist**2)
    )
    return float(squared / dist + u * dist)


#: A distance between two rows computed from their Gram matrix.
GRAM_DISTANCE = ErrorModel(
    gram_distance_bound,
    r"\text{Gram distance: } (4\delta\sqrt d D + 4\delta^2 d + 2d\gamma_d + u(d + D^2))/D + uD",
)


def offset_distance_bound(offsets: npt.ArrayLike, d_model: int) -> npt.NDArray[np.float64]:
    r"""A bound on a distance between rows ``k`` apart against :math:`\sqrt{\sum_i (2 - 2\cos\omega_i k)}`, per offset.

    Both sides compute :math:`D_k^2 = \sum_i (2 - 2\cos\omega_i k)`: one from two rows of
    pe's table (entries within :math:`\delta`), where each difference of two entries errs by
    at most :math:`e = 2\delta + 2u`, its square by :math:`4e + e^2 + 4u`, and the sum of
    :math:`d` squares (each at most 4) by :math:`4d\,\gamma_d` more; the other from the
    formula, where each cosine errs by the phase model :math:`4\varepsilon +
    4\varepsilon\,\omega_i |k|`, each term by twice that plus :math:`4u`, and the sum of
    :math:`d/2` terms by :math:`2d\,\gamma_{d/2}` more. The square roots divide the sum
    :math:`\tau^2` of both by :math:`2 D_k` and add :math:`u D_k` each:

    .. math::

        \tau_k = \frac{\tau^2_k}{2 D_k} + 2u D_k.

    Examples
    --------
    >>> offset_distance_bound([1, 50], 512).shape
    (2,)
    """
    ks = _validate.integer_positions("offsets", offsets).astype(np.float64)
    width = _validate.even_width("d_model", d_model)
    u, e = EPS64 / 2, 2 * ENTRY_ERROR_BOUND + EPS64
    omega = frequencies(width)
    table_side = width * (4 * e + e**2 + 4 * u) + 4 * width * gamma(width)
    cosines = 2 * _tolerance.phase_tolerance(EPS64, omega[None, :], ks[:, None]).sum(axis=1)
    formula_side = cosines + width / 2 * 4 * u + 2 * width * gamma(width // 2)
    squared = (2.0 - 2.0 * np.cos(np.multiply.outer(ks, omega))).sum(axis=1)
    distance = np.sqrt(np.maximum(squared, 0.0))
    return np.asarray(
        (table_side + formula_side) / (2 * distance) + 2 * u * distance, dtype=np.float64
    )


#: A distance between rows ``k`` apart against the formula, per offset.
OFFSET_DISTANCE = ErrorModel(offset_distance_bound, r"\tau_k = \tau^2_k / 2D_k + 2uD_k")


def shift_product_bound(reach: float) -> float:
    r"""A bound on an entry of a product of shift matrices against the shift matrix of the sum.

    An entry of :math:`T_a T_b` (or of :math:`T_k` applied to a row) is a sum of products of
    sines and cosines of angles :math:`\omega_i k` formed in float64; it is held to the
    shift model (:data:`SHIFT`) at the largest frequency :math:`\omega_0 = 1`:

    .. math::

        \tau(x) = 12\varepsilon_{64} + 4\varepsilon_{64}\,|x|,

    with :math:`|x|` the reach of the angles.

    Examples
    --------
    >>> shift_product_bound(0.0) == 12 * 2.0**-52
    True
    """
    return float(_tolerance.shift_tolerance(EPS64, 1.0, reach))


#: Products of shift matrices :math:`T_a T_b` against :math:`T_{a+b}` (reach :math:`|x|`).
SHIFT_PRODUCT = ErrorModel(
    shift_product_bound, r"12\varepsilon + 4\varepsilon\,|x| \text{ (reach } |x|)"
)

#: :data:`SHIFT_PRODUCT` with an inverse's LU factorisation and solve, 16 more :math:`\varepsilon`.
SHIFT_INVERSE = ErrorModel(
    lambda reach: shift_product_bound(reach) + 16 * EPS64,
    r"12\varepsilon + 4\varepsilon\,|x| + 16\varepsilon \text{ (reach } |x|\text{; the inverse by LU)}",
)


def shift_orthogonality_bounds(d_model: int = 64) -> tuple[float, float]:
    r"""Bounds on :math:`\max|T^{\mathsf T} T - I|` and :math:`|\det T - 1|` for a shift matrix.

    :math:`c^2 + s^2 = 1` and :math:`cs - sc = 0` hold exactly for the cosine and sine of
    the rounded angle, so only their own errors (:data:`~pe._tolerance.ELEMENTARY_ULPS`
    each) and the products count: :math:`4\sqrt2\,\varepsilon + \gamma_2` per entry of
    :math:`T^{\mathsf T}T - I` (the other terms of the matrix product are exact zeros). The
    determinant, by LU with partial pivoting, is the product of the :math:`d/2` blocks'
    determinants, each eliminated within :math:`(4\sqrt 2 + 4)\,\varepsilon`:
    :math:`\tfrac d2 (4\sqrt2 + 4)\varepsilon + \gamma_d`.

    Examples
    --------
    >>> gram, det = shift_orthogonality_bounds(512)
    >>> gram < det
    True
    """
    eps = ELEMENTARY_ULPS / 2 * EPS64
    gram = 4 * np.sqrt(2) * eps + gamma(2)
    det = d_model / 2 * (4 * np.sqrt(2) + 4) * eps + gamma(d_model)
    return float(gram), float(det)


#: :math:`T^{\mathsf T} T - I` and :math:`\det T - 1` of a shift matrix.
SHIFT_ORTHOGONALITY = ErrorModel(
    shift_orthogonality_bounds,
    r"4\sqrt2\varepsilon + \gamma_2;\ \tfrac d2(4\sqrt2 + 4)\varepsilon + \gamma_d",
)


def fitted_shift_bound(k: int, d_model: int, positions: npt.ArrayLike) -> float:
    r"""A bound on the error of :math:`T_k` fitted by least squares from ``positions``.

    The fit (:func:`pe.numeric.fitted_shift_matrix`) solves :math:`A M^{\mathsf T} \approx
    B` (rows :math:`PE(p)` and :math:`PE(p+k)` by the direct formula, entries within
    :math:`e(x) = \varepsilon + u\,\omega_i x` of values that :math:`T_k` maps onto each
    other exactly, the rounded :math:`\omega_i` being shared). Perturbation theory of a
    consistent least-squares problem, and LAPACK's backward error of
    :math:`\gamma_{mn}\lVert A\rVert_F`, bound

    .. math::

        \lVert \hat M - T_k \rVert_2 \le \frac{\lVert E_A \rVert_F + \lVert E_B \rVert_F}
        {\sigma_{\min}(A)} + \kappa(A)\,\gamma_{mn}\sqrt d = \tau_M,

    and a row mapped by :math:`\hat M` errs by at most :math:`\tau_M \lVert PE \rVert +
    \gamma_d \sqrt{d} + 2\delta` more (:math:`\lVert PE \rVert = \sqrt{d/2}`). The
    larger of the two is returned (first order in :math:`u`): a bound on
    :math:`\max|\hat M - T_k|` and on how far :math:`\hat M` maps a row from the next.

    Examples
    --------
    >>> fitted_shift_bound(5, 16, np.arange(0, 100_000, 997)) < 1e-9
    True
    """
    fit = np.asarray(positions)
    omega = np.repeat(frequencies(d_model), 2)
    reach = np.multiply.outer(fit.astype(np.float64), omega)
    fixed = ELEMENTARY_ULPS * EPS64
    e_a = float(np.sqrt(((fixed + EPS64 / 2 * reach) ** 2).sum()))
    e_b = float(np.sqrt(((fixed + EPS64 / 2 * (reach + abs(k) * omega)) ** 2).sum()))
    sources = sinusoidal_direct(fit, d_model)
    sigma = np.linalg.svd(sources, compute_uv=False)
    m, n = sources.shape
    tau_m = (e_a + e_b) / sigma.min() + sigma.max() / sigma.min() * gamma(m * n) * np.sqrt(n)
    mapped = tau_m * np.sqrt(n / 2) + gamma(n) * np.sqrt(n) + 2 * ENTRY_ERROR_BOUND
    return float(max(tau_m, mapped))


#: :math:`T_k` fitted by least squares (:func:`pe.numeric.fitted_shift_matrix`).
FITTED_SHIFT = ErrorModel(
    fitted_shift_bound,
    r"\frac{\lVert E_A \rVert_F + \lVert E_B \rVert_F}{\sigma_{\min}(A)}"
    r" + \kappa(A)\gamma_{mn}\sqrt d",
)
