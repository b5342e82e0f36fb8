r"""The one result type of a check against an error model, and the phase error model.

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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["ToleranceCheck", "WorstCase", "phase_tolerance", "real_array", "worst_case"]

#: The machine epsilon of float64, :math:`2^{-52}`.
EPS64 = float(np.finfo(np.float64).eps)


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
