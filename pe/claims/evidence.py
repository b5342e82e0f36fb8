"""Evidence: the outcome of one proof or check, and the functions that make it.

:func:`checked` turns a NumPy measurement into evidence (with its error and tolerance),
:func:`proved` a SymPy proof, and :func:`by_proof` a theorem into a check's ``run``. They are
re-exported by :mod:`pe.claims`, where they are documented with the registry.

Examples
--------
>>> from pe.claims.evidence import checked
>>> checked(True, "1 + 1 = 2", error=0.0, tolerance=1e-16).holds
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeVar

if TYPE_CHECKING:
    from pe.symbolic import Proof

__all__ = ["Evidence", "Method", "by_proof", "checked", "proved", "within"]

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
        in the worst ratio) and the tolerance it was held to; ``None`` otherwise.
    """

    method: Method
    holds: bool
    detail: str
    proof: Proof | None = field(default=None, compare=False, repr=False)
    error: float | None = field(default=None, kw_only=True)
    tolerance: float | None = field(default=None, kw_only=True)

    @property
    def ratio(self) -> float | None:
        """``error / tolerance``, or ``None`` where the check states no tolerance."""
        if self.error is None or self.tolerance is None:
            return None
        return self.error / self.tolerance

    def to_json(self) -> dict[str, object]:
        """``method``, ``holds``, ``detail``, ``error``, ``tolerance`` and ``ratio``."""
        return {
            "method": self.method,
            "holds": self.holds,
            "detail": self.detail,
            "error": self.error,
            "tolerance": self.tolerance,
            "ratio": self.ratio,
        }


def proved(proof: Proof) -> Evidence:
    """Evidence from a SymPy :class:`~pe.symbolic.Proof`: holds iff its residual is 0."""
    return Evidence("sympy", proof.holds, proof.summary(), proof)


def checked(
    holds: bool, detail: str, *, error: float | None = None, tolerance: float | None = None
) -> Evidence:
    """Evidence from a NumPy check: whether it passed and a one-line account.

    Where the check holds a measured ``error`` to a ``tolerance``, pass both: the evidence
    then holds only if ``holds`` is true *and* ``error <= tolerance`` (the tolerance shown
    is the one enforced, so loosening the condition alone changes nothing), and the
    registry reports their ratio and flags evidence far inside its tolerance as loose.
    For a tolerance that varies entry by entry, pass the worst error/tolerance ratio as
    ``error`` and ``1.0`` as ``tolerance``.

    Raises
    ------
    ValueError
        If only one of ``error`` and ``tolerance`` is given, or the tolerance is not > 0.
    """
    if (error is None) != (tolerance is None):
        raise ValueError("checked() needs both error and tolerance, or neither")
    if tolerance is not None and not tolerance > 0:
        raise ValueError(f"tolerance must be > 0, got {tolerance}")
    if error is None or tolerance is None:
        return Evidence("numpy", bool(holds), detail)
    within = bool(float(error) <= float(tolerance))
    return Evidence(
        "numpy", bool(holds) and within, detail, error=float(error), tolerance=float(tolerance)
    )


def within(error: float, tolerance: float, detail: str) -> Evidence:
    """Evidence that a measured ``error`` is at most ``tolerance``, with a one-line account.

    The tolerance is written once: it is both the condition and the figure reported (the
    registry shows ``error / tolerance`` and flags evidence far inside its tolerance).

    Examples
    --------
    >>> within(2e-16, 4.4e-16, "max |x - y| = 2e-16").holds
    True
    >>> within(1e-3, 4.4e-16, "max |x - y| = 1e-3").holds
    False
    """
    return checked(True, detail, error=error, tolerance=tolerance)


def by_proof(theorem: Callable[[T], Proof]) -> Callable[[T], Evidence]:
    """The check "``theorem(candidate)`` reduces to zero", for a :class:`Check`'s ``run``.

    The evidence carries the proof, so that the page shows its steps under the claim.
    """

    def run_proof(candidate: T) -> Evidence:
        return proved(theorem(candidate))

    return run_proof
