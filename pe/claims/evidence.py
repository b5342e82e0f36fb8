"""Evidence: the outcome of one proof or check, and the functions that make it.

:func:`checked` turns a NumPy measurement into evidence (with its error and tolerance),
:func:`proved` a SymPy proof, and :func:`by_proof` a theorem into a check's ``run``. They are
re-exported by :mod:`pe.claims`, where they are documented with the registry.

Examples
--------
>>> from pe._tolerance import exact
>>> from pe.claims.evidence import checked
>>> checked(True, "1 + 1 = 2", error=0.0, tolerance=exact("integers")).holds
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeVar

from pe._tolerance import Tolerance

if TYPE_CHECKING:
    from pe.symbolic import Proof

__all__ = ["Evidence", "Method", "at_most", "by_proof", "checked", "proved", "within"]

#: How a claim's evidence was obtained; a claim with no checks has method ``"source"``.
Method = Literal["sympy", "numpy", "error"]
T = TypeVar("T")


@dataclass(frozen=True)
class Evidence:
    """The outcome of one proof or check.

    Attributes
    ----------
    method
        ``"sympy"`` for an exact proof, ``"numpy"`` for a numeric check, ``"error"`` for a
        check that raised an exception (it never holds).
    holds
        Whether the proof reduced to zero or the check stayed within its tolerance.
    detail
        One line saying what was computed and what came out.
    proof
        The SymPy proof itself, step by step, for ``"sympy"`` evidence (shown on the page).
    error, tolerance
        For a numeric check held to a tolerance: the measured error (the largest, or the one
        in the worst ratio) and the :class:`~pe._tolerance.Tolerance` it was held to (what
        the statement allows plus the rounding bound of the computation, with its model);
        ``None`` otherwise.
    """

    method: Method
    holds: bool
    detail: str
    proof: Proof | None = field(default=None, compare=False, repr=False)
    error: float | None = field(default=None, kw_only=True)
    tolerance: Tolerance | None = field(default=None, kw_only=True)

    @property
    def ratio(self) -> float | None:
        """``error / tolerance``, or ``None`` where the check states no tolerance.

        An exact check (tolerance 0) has ratio 0 when its error is 0 and infinity otherwise.
        """
        if self.error is None or self.tolerance is None:
            return None
        if self.tolerance.value == 0:
            return 0.0 if self.error == 0 else math.inf
        return self.error / self.tolerance.value

    def to_json(self) -> dict[str, object]:
        """``method``, ``holds``, ``detail``, ``error``, ``tolerance`` (its value, what the
        statement allows, the rounding bound and its model) and ``ratio``."""
        tolerance = self.tolerance
        return {
            "method": self.method,
            "holds": self.holds,
            "detail": self.detail,
            "error": self.error,
            "tolerance": None if tolerance is None else tolerance.value,
            "stated": None if tolerance is None else tolerance.stated,
            "rounding": None if tolerance is None else tolerance.rounding,
            "model": None if tolerance is None else tolerance.model,
            "ratio": self.ratio,
        }


def proved(proof: Proof) -> Evidence:
    """Evidence from a SymPy :class:`~pe.symbolic.Proof`: holds iff its residual is 0."""
    return Evidence("sympy", proof.holds, proof.summary(), proof)


def checked(
    holds: bool, detail: str, *, error: float | None = None, tolerance: Tolerance | None = None
) -> Evidence:
    """Evidence from a NumPy check: whether it passed and a one-line account.

    Where the check holds a measured ``error`` to a :class:`~pe._tolerance.Tolerance`, pass
    both: the evidence then holds only if ``holds`` is true *and* ``error <=
    tolerance.value`` (the tolerance shown is the one enforced, so loosening the condition
    alone changes nothing), and the registry checks that every wrong candidate errs by more
    than the tolerance plus twice its rounding bound. For a tolerance that varies entry by
    entry, pass the worst error/tolerance ratio as ``error`` and a tolerance of rounding
    ``1.0`` whose model is the per-entry formula.

    Raises
    ------
    ValueError
        If only one of ``error`` and ``tolerance`` is given.
    TypeError
        If ``tolerance`` is not a :class:`~pe._tolerance.Tolerance` (a bare number states
        no model).
    """
    if (error is None) != (tolerance is None):
        raise ValueError("checked() needs both error and tolerance, or neither")
    if error is None or tolerance is None:
        return Evidence("numpy", bool(holds), detail)
    if not isinstance(tolerance, Tolerance):
        raise TypeError(
            f"tolerance must be a pe._tolerance.Tolerance with its model, got {tolerance!r}"
        )
    measured = float(error)
    inside = bool(measured <= tolerance.value)
    return Evidence("numpy", bool(holds) and inside, detail, error=measured, tolerance=tolerance)


def within(error: float, tolerance: Tolerance, detail: str) -> Evidence:
    """Evidence that a measured ``error`` is at most ``tolerance``, with a one-line account.

    The tolerance is written once: it is both the condition and the figure reported.

    Examples
    --------
    >>> from pe._tolerance import Tolerance, exact, gamma
    >>> within(2e-16, Tolerance(gamma(4), r"\\gamma_4"), "max |x - y| = 2e-16").holds
    True
    >>> within(1e-3, Tolerance(gamma(4), r"\\gamma_4"), "max |x - y| = 1e-3").holds
    False
    >>> within(0.0, exact("a copy"), "max |x - y| = 0").ratio
    0.0
    """
    return checked(True, detail, error=error, tolerance=tolerance)


def at_most(value: float, bound: float, rounding: Tolerance, detail: str) -> Evidence:
    r"""Evidence for the inequality ``value <= bound``, up to the rounding of ``value``.

    The error is how far the statement is broken, :math:`\max(\text{value} - \text{bound},
    0)`: 0 wherever it holds, however far inside, so a machine that computes more
    exactly never fails it; ``rounding`` bounds the rounding error of ``value``.

    Examples
    --------
    >>> from pe._tolerance import Tolerance
    >>> at_most(0.9, 1.0, Tolerance(1e-15, "1e-15"), "0.9 <= 1").error
    0.0
    >>> at_most(1.5, 1.0, Tolerance(1e-15, "1e-15"), "1.5 <= 1").holds
    False
    """
    return checked(True, detail, error=max(float(value) - float(bound), 0.0), tolerance=rounding)


def by_proof(theorem: Callable[[T], Proof]) -> Callable[[T], Evidence]:
    """The check "``theorem(candidate)`` reduces to zero", for a :class:`Check`'s ``run``.

    The evidence carries the proof, so that the page shows its steps under the claim.
    """

    def run_proof(candidate: T) -> Evidence:
        return proved(theorem(candidate))

    return run_proof
