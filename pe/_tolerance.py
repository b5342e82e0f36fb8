r"""What a check allows and why: tolerances from error models, and the worst case against one.

:class:`Tolerance` is what a numeric claim is held to: what its statement allows plus a bound
on the rounding of the computation that checks it, a bound that holds on every IEEE 754
machine (it is built from the unit roundoff, the sizes and the magnitudes involved, never
from the error one machine happened to make), with its formula in LaTeX. :func:`gamma` is
the constant :math:`\gamma_n` of such bounds and :func:`exact` the tolerance of a
computation that IEEE 754 arithmetic makes exact.

Every numeric check of the library compares many computed values with their exact
counterparts, each against its own tolerance :math:`\tau`, and reports the worst case:
:class:`ToleranceCheck` holds that report (the largest error, where it occurs, the
tolerance there and the largest error-to-tolerance ratio); it passes when every error is
within its tolerance. :func:`worst_case` builds one from arrays of errors and tolerances;
checks that report more (where the worst case was measured) subclass it.

:func:`phase_tolerance` is the error model of a sine or cosine of a phase
:math:`\omega x`: rounding each result costs :math:`\varepsilon` (a few times, for the
products of a rotation), and the phase itself carries a relative error of a few
:math:`\varepsilon_{64}`, which grows with the reach :math:`|x|`:

.. math::

    \tau = 4\varepsilon + 4\varepsilon_{64}\,\omega\,|x|.

Examples
--------
>>> import numpy as np
>>> check = worst_case(np.array([1e-17, 3e-16]), np.array([1e-16, 1e-15]))
>>> check.max_abs_error, check.index, round(check.worst_ratio, 2), check.passed
(3e-16, (1,), 0.3, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "ELEMENTARY_ULPS",
    "EPS64",
    "FREQUENCY_ROUNDING",
    "Tolerance",
    "ToleranceCheck",
    "WorstCase",
    "exact",
    "exponential_rounding",
    "gamma",
    "phase_tolerance",
    "power_rounding",
    "real_array",
    "rotation_rounding",
    "shift_tolerance",
    "worst_case",
]

#: The machine epsilon of float64, :math:`2^{-52}`.
EPS64 = float(np.finfo(np.float64).eps)


#: Accuracy of one float64 elementary function (``np.sin``, ``np.cos``, ``np.exp``,
#: ``np.power``) in units in the last place: at most this many times the machine epsilon
#: times the result. NumPy validates its float64 sine, cosine, exponential and logarithm to
#: 1 ulp on every kernel it dispatches (``numpy/_core/tests/data/umath-validation-set-*.csv``);
#: ``tests/test_error_models.py`` measures all four and ``power`` against mpmath, on every
#: machine of the matrix.
ELEMENTARY_ULPS = 1


def exponential_rounding(log_size: float, roundings: int) -> float:
    r"""A bound on the relative error of :math:`e^x` (or :math:`b^y`, :math:`x = y \ln b`) computed in float64.

    The exponent :math:`x`, of size at most ``log_size``, carries ``roundings`` relative
    roundings of :math:`u` each (a product, a quotient, a rounded logarithm...), which move
    the result by the relative :math:`\text{roundings} \cdot u \cdot |x|`; the exponential
    itself is within :data:`ELEMENTARY_ULPS`:

    .. math::

        \varepsilon + m\,u\,|x|.

    Examples
    --------
    >>> exponential_rounding(0.0, 3) == EPS64
    True
    """
    return ELEMENTARY_ULPS * EPS64 + roundings * EPS64 / 2 * abs(log_size)


#: The relative error of :func:`pe.numeric.frequencies`: correctly rounded, the unit
#: roundoff :math:`u = 2^{-53}` (on every machine: it does not use the platform's ``pow``).
FREQUENCY_ROUNDING = EPS64 / 2


def power_rounding(d_model: int, base: float = 10000.0) -> float:
    r"""A bound on the relative error of the plain formula ``base ** (-2 * i / d)`` in float64.

    The way code usually forms the frequencies (``pe.from_scratch``, the textbooks): the
    exponent :math:`e = -2i/d \in (-1, 0]` rounded once, exactly when ``d`` is a power of
    two (``2i/d`` is then a dyadic fraction), otherwise by :math:`|\Delta e| \le u`, which
    moves the frequency by the relative :math:`\ln(\mathrm{base})\,u`; the power itself
    within :data:`ELEMENTARY_ULPS` (:func:`exponential_rounding`):

    .. math::

        \varepsilon\ \bigl(+ \ln(\mathrm{base})\,u \text{ unless } d = 2^m\bigr).

    Examples
    --------
    >>> power_rounding(512) == 2.0**-52
    True
    >>> f"{power_rounding(768):.2g}"
    '1.2e-15'
    """
    exact = d_model & (d_model - 1) == 0
    return exponential_rounding(math.log(base), 0 if exact else 1)


def rotation_rounding(
    size: npt.ArrayLike, reach: npt.ArrayLike, d_model: int
) -> npt.NDArray[np.float64]:
    r"""A bound on the error of a pair :math:`(a, b)` rotated by a float64 angle :math:`p\,\omega_i`.

    The angle is formed from :func:`pe.numeric.frequencies` (relative error
    :math:`r_\omega =` :data:`FREQUENCY_ROUNDING`) and one product, its cosine and sine are
    within :data:`ELEMENTARY_ULPS`, and :math:`a\cos - b\sin` rounds two products and a
    sum (:math:`\gamma_2`); against the exact rotation of the pair of size
    :math:`|a| + |b|`:

    .. math::

        (|a| + |b|)\,\bigl(\varepsilon + \gamma_2 + (r_\omega + u)\,|p|\,\omega_i\bigr).

    ``size`` is :math:`|a| + |b|` and ``reach`` is :math:`|p|\,\omega_i` (broadcast).

    Examples
    --------
    >>> float(rotation_rounding(1.0, 0.0, 64)) == EPS64 + gamma(2)
    True
    """
    del d_model  # the frequencies are correctly rounded at every width
    fixed = ELEMENTARY_ULPS * EPS64 + gamma(2)
    slope = FREQUENCY_ROUNDING + EPS64 / 2
    return np.asarray(
        np.abs(real_array("size", size)) * (fixed + slope * np.abs(real_array("reach", reach))),
        dtype=np.float64,
    )


def gamma(n: int, eps: float = EPS64) -> float:
    r"""Higham's :math:`\gamma_n = nu / (1 - nu)`, :math:`u = \varepsilon / 2`.

    :math:`n` rounded operations, each with a relative error of at most the unit
    roundoff :math:`u`, err by at most :math:`\gamma_n` relative to the exact result:
    a sum of :math:`n + 1` terms in any order is within :math:`\gamma_n \sum |x_i|`, a dot
    product of length :math:`n` within :math:`\gamma_n \sum |a_i b_i|` (Higham, *Accuracy
    and Stability of Numerical Algorithms*, 2nd ed., Lemma 3.1 and section 3.1). Every
    IEEE 754 machine meets it, whatever order its kernels sum in.

    Raises
    ------
    ValueError
        If ``n`` is negative or :math:`nu \ge 1`.

    Examples
    --------
    >>> gamma(0), gamma(1) == 2.0**-53 / (1 - 2.0**-53)
    (0.0, True)
    """
    u = eps / 2
    if n < 0 or not n * u < 1:
        raise ValueError(f"gamma needs 0 <= n u < 1, got n={n}, u={u}")
    return n * u / (1 - n * u)


@dataclass(frozen=True)
class Tolerance:
    r"""What a numeric check allows: the statement's own allowance plus a rounding bound.

    The check holds when the measured error is at most :attr:`value`
    :math:`= \text{stated} + \text{rounding}`. ``rounding`` bounds the rounding error of the
    computation that measures it on every IEEE 754 machine (from the unit roundoff, the
    sizes and the magnitudes: :func:`gamma`, :func:`phase_tolerance`), so that a machine
    that rounds differently, or more exactly, gets the same verdict; ``model`` is that
    bound's formula in LaTeX. ``stated`` is what the statement itself allows: 0 for an
    identity, the bound of an inequality, a sampling allowance.

    A wrong candidate must err by more than the tolerance plus twice the rounding bound:
    rounded differently elsewhere, it is still rejected (the registry's *loose* check).

    Examples
    --------
    >>> t = Tolerance(gamma(64), r"\gamma_{64}")
    >>> t.value == t.rounding, f"{t.value:.3g}"
    (True, '7.11e-15')
    >>> Tolerance(0.0, "0", stated=0.5).value
    0.5
    """

    rounding: float
    model: str
    stated: float = 0.0

    def __post_init__(self) -> None:
        for name in ("rounding", "stated"):
            value = getattr(self, name)
            if not (isinstance(value, float | int) and math.isfinite(value) and value >= 0):
                raise ValueError(f"Tolerance.{name} must be a finite number >= 0, got {value!r}")
        if not self.model:
            raise ValueError("Tolerance.model must state the rounding bound's formula")

    @property
    def value(self) -> float:
        """The largest error the check accepts: ``stated + rounding``."""
        return float(self.stated + self.rounding)


def exact(why: str) -> Tolerance:
    """The tolerance of a computation that IEEE 754 arithmetic makes exact: no error at all.

    Only for what every machine computes exactly (integers and counts, copies and
    permutations of the same values, a conversion or an operation the standard rounds
    correctly compared with its exact result); ``why`` says which.

    Examples
    --------
    >>> exact("integer counts").value
    0.0
    """
    return Tolerance(0.0, rf"0\ \text{{({why})}}")


@dataclass(frozen=True, kw_only=True)
class ToleranceCheck:
    """The worst case of a check against an error model.

    Attributes
    ----------
    max_abs_error
        The largest absolute error over every compared value.
    tolerance
        The error model's tolerance at that value.
    worst_ratio
        The largest error divided by its own tolerance, over every value (``<= 1`` to pass).
    """

    max_abs_error: float
    tolerance: float
    worst_ratio: float

    @property
    def passed(self) -> bool:
        """Whether every error is within its own tolerance."""
        return self.worst_ratio <= 1.0

    @property
    def verdict(self) -> str:
        """``"holds"`` or ``"does not hold"`` (plain words: on the pages most checks that do
        not hold are wrong candidates, rejected as expected)."""
        return "holds" if self.passed else "does not hold"

    def bound(self) -> str:
        """``max error (tolerance t); worst error/tolerance r: verdict``, for summaries."""
        return (
            f"{self.max_abs_error:.3g} (tolerance {self.tolerance:.3g}); "
            f"worst error/tolerance {self.worst_ratio:.3g}: {self.verdict}"
        )


@dataclass(frozen=True, kw_only=True)
class WorstCase(ToleranceCheck):
    """A :class:`ToleranceCheck` with the index of the largest error in the arrays."""

    index: tuple[int, ...]


def worst_case(errors: npt.ArrayLike, tolerances: npt.ArrayLike) -> WorstCase:
    """The worst case of ``errors`` against ``tolerances`` (broadcast to one shape).

    Every entry counts: the ratio is taken entry by entry, so a single entry over its
    tolerance fails the check wherever it is. A NaN error fails it too. The index is that
    of the first largest error (C order).
    """
    err = np.abs(np.asarray(errors, dtype=np.float64))
    tol = np.broadcast_to(np.asarray(tolerances, dtype=np.float64), err.shape)
    if err.size == 0:
        raise ValueError("worst_case needs at least one error")
    ratio = np.where(np.isnan(err), np.inf, err / tol)
    at = np.unravel_index(int(np.argmax(err if not np.isnan(err).any() else ratio)), err.shape)
    index = tuple(int(i) for i in at)
    return WorstCase(
        max_abs_error=float(err[index]),
        tolerance=float(tol[index]),
        worst_ratio=float(ratio.max()),
        index=index,
    )


def real_array(name: str, value: object) -> npt.NDArray[np.float64]:
    """``value`` as a finite float64 array, or a one-line error naming ``name``.

    Examples
    --------
    >>> real_array("reach", [1, 2.5])
    array([1. , 2.5])
    """
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} must be a real number or array, got a string")
    array = np.asarray(value)
    if array.dtype.kind not in "fiu":
        raise TypeError(f"{name} must be a real number or array, got dtype {array.dtype}")
    result = array.astype(np.float64)
    if not np.all(np.isfinite(result)):
        raise ValueError(f"{name} must be finite")
    return result


def shift_tolerance(
    eps: float, omega: npt.ArrayLike, reach: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    r"""The tolerance :math:`4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega\,|x|` of a shift.

    The error model of a rotation of a pair (or a product of rotations) compared with the
    pair evaluated directly at the shifted angle: three float64 sines or cosines, each
    within :data:`ELEMENTARY_ULPS` and combined with weights whose sum is at most
    :math:`\sqrt 2` (:math:`(2\sqrt2 + 1)\,\varepsilon_{64} \le 8\varepsilon_{64}`);
    the rounding to the computing dtype and the products and sum in it
    (:math:`\varepsilon` of that dtype, at most :math:`4\varepsilon`); and each angle
    :math:`\omega x` rounded once (:math:`u_{64}\,\omega |x|` each, weights at most
    :math:`\sqrt 2 + \sqrt 2 + 1`). The relative error of :math:`\omega` itself cancels:
    every angle is formed from the same rounded :math:`\omega`. It holds on every IEEE 754
    machine whose elementary functions stay within :data:`ELEMENTARY_ULPS`.

    Examples
    --------
    >>> float(shift_tolerance(EPS64, 1.0, 0.0)) == 12 * EPS64
    True
    """
    w = real_array("omega", omega)
    x = np.abs(real_array("reach", reach))
    return np.asarray(4.0 * eps + 8.0 * EPS64 + 4.0 * EPS64 * w * x, dtype=np.float64)


def phase_tolerance(
    eps: float, omega: npt.ArrayLike, reach: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    r"""The tolerance :math:`4\varepsilon + 4\varepsilon_{64}\,\omega\,|x|`, broadcast.

    Parameters
    ----------
    eps
        The machine epsilon of the dtype the result is computed in.
    omega
        The frequencies :math:`\omega` (finite reals).
    reach
        The largest :math:`|x|` the phase :math:`\omega x` was formed from (for a shift by
        ``k`` from position ``p``, :math:`|p| + |k|`), finite.

    Raises
    ------
    TypeError, ValueError
        If ``omega`` or ``reach`` is not a finite real number or array.

    Examples
    --------
    >>> float(phase_tolerance(2.0**-52, 1.0, 0.0)) == 4 * 2.0**-52
    True
    """
    w = real_array("omega", omega)
    x = np.abs(real_array("reach", reach))
    return np.asarray(4.0 * eps + 4.0 * EPS64 * w * x, dtype=np.float64)
