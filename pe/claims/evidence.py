"""Evidence: the outcome of one proof or check, and the functions that make it.

:func:`within` holds a measured error to a tolerance, :func:`exactly` to none (a
computation IEEE 754 makes exact), :func:`at_most` a value to a bound, :func:`checked` a
condition (with, optionally, an error and its tolerance); :func:`proved` turns a SymPy proof
into evidence and :func:`by_proof` a theorem into a check's ``run``. How the evidence was
obtained is a :class:`Method`. They are re-exported by :mod:`pe.claims`, where they are
documented with the registry.

Examples
--------
>>> from pe._tolerance import exact
>>> from pe.claims.evidence import checked
>>> checked(True, "1 + 1 = 2", error=0.0, tolerance=exact("integers")).holds
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from pe._machine_dependent import site_text, verify_text
from pe._tolerance import Tolerance, exact

if TYPE_CHECKING:
    from pe.symbolic import Proof

__all__ = [
    "Evidence",
    "Method",
    "at_most",
    "by_proof",
    "checked",
    "exactly",
    "proved",
    "within",
]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class Method(StrEnum):
    """How a piece of evidence was obtained (a claim with no checks is cited from its source).

    Its value is the word ``pe verify`` prints; claims list their methods in the order
    declared here (a proof, then a check).

    Examples
    --------
    >>> list(Method), f"{Method.SYMPY}"
    ([<Method.SYMPY: 'sympy'>, <Method.NUMPY: 'numpy'>, <Method.ERROR: 'error'>], 'sympy')
    """

    SYMPY = "sympy"  #: an exact proof, its residual reduced to 0
    NUMPY = "numpy"  #: a numeric check, held to its tolerance
    ERROR = "error"  #: a check that raised an exception (it never holds)


@dataclass(frozen=True)
class Evidence:
    """The outcome of one proof or check.

    Attributes
    ----------
    method
        :attr:`Method.SYMPY` for an exact proof, :attr:`Method.NUMPY` for a numeric check,
        :attr:`Method.ERROR` for a check that raised an exception (it never holds).
    holds
        Whether the proof reduced to zero or the check stayed within its tolerance.
    detail
        One line saying what was computed and what came out, as written: figures that the
        processor decides are marked (:mod:`pe._machine_dependent`); :attr:`text` is the
        line ``pe verify`` prints, :attr:`shown` the one the site prints.
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
    def text(self) -> str:
        """The detail with every marked figure as this machine measured it."""
        return verify_text(self.detail)

    @property
    def shown(self) -> str:
        """The detail as the site prints it, the same on every machine (every marked figure
        as :func:`pe._machine_dependent.site_text` prints it)."""
        return site_text(self.detail)

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
            "detail": self.text,
            "error": self.error,
            "tolerance": None if tolerance is None else tolerance.value,
            "stated": None if tolerance is None else tolerance.stated,
            "rounding": None if tolerance is None else tolerance.rounding,
            "model": None if tolerance is None else tolerance.model,
            "ratio": self.ratio,
        }


def proved(proof: Proof) -> Evidence:
    """Evidence from a SymPy :class:`~pe.symbolic.Proof`: holds iff its residual is 0."""
    return Evidence(Method.SYMPY, proof.holds, proof.summary(), proof)


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
        return Evidence(Method.NUMPY, bool(holds), detail)
    if not isinstance(tolerance, Tolerance):
        raise TypeError(
            f"tolerance must be a pe._tolerance.Tolerance with its model, got {tolerance!r}"
        )
    measured = float(error)
    inside = bool(measured <= tolerance.value)
    return Evidence(
        Method.NUMPY, bool(holds) and inside, detail, error=measured, tolerance=tolerance
    )


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


def exactly(error: float, why: str, detail: str) -> Evidence:
    """Evidence that a computation IEEE 754 makes exact has no error at all.

    The form of an exact check (counts, copies, permutations of the same values, a
    correctly rounded operation against its exact result): ``error`` must be 0, and ``why``
    says why every machine computes it exactly (:func:`pe._tolerance.exact`). A wrong
    candidate is rejected by any error above 0.

    Examples
    --------
    >>> exactly(0.0, "a copy", "max |x - y| = 0").holds
    True
    >>> exactly(1e-300, "a copy", "max |x - y| = 1e-300").ratio
    inf
    """
    return within(error, exact(why), detail)


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


def case_by_case(
    found: Mapping[K, V],
    stated: Mapping[K, V],
    name: Callable[[K], str],
    value: Callable[[V], str] = str,
) -> Evidence:
    """Evidence that each case's finding is the stated one: every case printed as
    ``name: value``, and a case that differs followed by what was stated, so that a
    rejected candidate's line shows where it fails.

    Examples
    --------
    >>> found = {"a": "pass", "b": "fail"}
    >>> case_by_case(found, found, str).text
    'a: pass; b: fail'
    >>> case_by_case(found, {"a": "pass", "b": "pass"}, str).text
    'a: pass; b: fail (stated: pass: differs)'
    """

    def line(key: K, seen: V) -> str:
        said = f"{name(key)}: {value(seen)}"
        if key in stated and stated[key] == seen:
            return said
        expected = value(stated[key]) if key in stated else "nothing"
        return f"{said} (stated: {expected}: differs)"

    return checked(
        dict(found) == dict(stated), "; ".join(line(key, seen) for key, seen in found.items())
    )


def by_proof(theorem: Callable[[T], Proof]) -> Callable[[T], Evidence]:
    """The check "``theorem(candidate)`` reduces to zero", for a :class:`Check`'s ``run``.

    The evidence carries the proof, so that the page shows its steps under the claim.
    """

    def run_proof(candidate: T) -> Evidence:
        return proved(theorem(candidate))

    return run_proof
