"""The registry of every mathematical claim the site makes.

A :class:`Claim` pairs a LaTeX statement with the evidence behind it: SymPy proofs and/or
NumPy checks, each a zero-argument callable returning :class:`Evidence`. Every claim also
carries *negative controls*: the same proof or check fed a wrong candidate (a transposed
matrix, a flipped sign, a wrong frequency), which must come out false. A claim is verified
when all its evidence holds and all its controls are rejected.

Claims live in the submodules listed in :data:`MODULES` (one per chapter); the registry is
their concatenation, in that order. The test suite, ``pe verify`` and the site's claims
page all read this one list.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pe.symbolic import Proof

__all__ = [
    "MODULES",
    "Claim",
    "ClaimFailedError",
    "ClaimResult",
    "Evidence",
    "all_claims",
    "checked",
    "get",
    "proved",
    "verify",
    "verify_all",
]

Method = Literal["sympy", "numpy"]

#: Submodules of :mod:`pe.claims` that define a ``CLAIMS`` tuple, in site order.
MODULES: tuple[str, ...] = (
    "why_order",
    "failed_designs",
    "encoding",
    "rotation",
    "implications",
    "fixed_or_learned",
    "conventions",
    "precision",
    "rope",
    "relative_family",
)


@dataclass(frozen=True)
class Evidence:
    """The outcome of one proof or check.

    Attributes
    ----------
    method
        ``"sympy"`` for an exact proof, ``"numpy"`` for a numeric check.
    holds
        Whether the proof reduced to zero or the check stayed within its tolerance.
    detail
        One line saying what was computed and what came out.
    """

    method: Method
    holds: bool
    detail: str


@dataclass(frozen=True)
class Claim:
    """One mathematical statement of the site and what stands behind it.

    Attributes
    ----------
    id
        Stable identifier, shown on the page (kebab-case).
    title
        A short name.
    statement
        The statement in LaTeX (without delimiters).
    page
        The docs page that shows the claim, as a path under ``docs/`` without extension.
    evidence
        Callables producing :class:`Evidence` (proofs and checks); all must hold.
    controls
        Callables producing :class:`Evidence` for wrong candidates; none may hold.
    """

    id: str
    title: str
    statement: str
    page: str
    evidence: tuple[Callable[[], Evidence], ...]
    controls: tuple[Callable[[], Evidence], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.evidence:
            raise ValueError(f"claim {self.id!r} has no evidence")
        if not self.controls:
            raise ValueError(f"claim {self.id!r} has no negative control")


@dataclass(frozen=True)
class ClaimResult:
    """A verified claim: its evidence, its controls and the verdict.

    ``holds`` is true when every piece of evidence holds; ``controls_rejected`` when every
    wrong candidate was rejected. ``ok`` requires both.
    """

    id: str
    title: str
    statement: str
    page: str
    method: str
    holds: bool
    controls_rejected: bool
    evidence: tuple[Evidence, ...]
    controls: tuple[Evidence, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        """Evidence holds and every control was rejected."""
        return self.holds and self.controls_rejected

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict with ``id``, ``statement``, ``method``, ``holds`` and details."""
        return {
            "id": self.id,
            "title": self.title,
            "statement": self.statement,
            "page": self.page,
            "method": self.method,
            "holds": self.holds,
            "controls_rejected": self.controls_rejected,
            "evidence": [e.__dict__ for e in self.evidence],
            "controls": [e.__dict__ for e in self.controls],
            "seconds": round(self.seconds, 3),
        }


class ClaimFailedError(AssertionError):
    """Raised where a page shows a claim that does not verify (fails the docs build)."""


@cache
def all_claims() -> tuple[Claim, ...]:
    """Every registered claim, in site order; ids are unique."""
    claims: list[Claim] = []
    for name in MODULES:
        module = importlib.import_module(f"pe.claims.{name}")
        claims.extend(module.CLAIMS)
    ids = [c.id for c in claims]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RuntimeError(f"duplicate claim ids: {', '.join(duplicates)}")
    return tuple(claims)


def get(claim_id: str) -> Claim:
    """The claim with this id.

    Raises
    ------
    KeyError
        If no claim has this id.
    """
    for claim in all_claims():
        if claim.id == claim_id:
            return claim
    raise KeyError(f"no claim with id {claim_id!r}")


@cache
def verify(claim_id: str) -> ClaimResult:
    """Run the evidence and the controls of one claim (cached per process)."""
    claim = get(claim_id)
    start = time.perf_counter()
    evidence = tuple(run() for run in claim.evidence)
    controls = tuple(run() for run in claim.controls)
    methods = sorted({e.method for e in evidence}, key=["sympy", "numpy"].index)
    return ClaimResult(
        id=claim.id,
        title=claim.title,
        statement=claim.statement,
        page=claim.page,
        method="+".join(methods),
        holds=all(e.holds for e in evidence),
        controls_rejected=not any(c.holds for c in controls),
        evidence=evidence,
        controls=controls,
        seconds=time.perf_counter() - start,
    )


def verify_all() -> tuple[ClaimResult, ...]:
    """Verify every registered claim, in site order."""
    return tuple(verify(claim.id) for claim in all_claims())


def proved(proof: Proof, candidate: str = "") -> Evidence:
    """Evidence from a SymPy :class:`~pe.symbolic.Proof`; ``candidate`` names a wrong one."""
    prefix = f"{candidate}: " if candidate else ""
    return Evidence("sympy", proof.holds, prefix + proof.summary())


def checked(holds: bool, detail: str) -> Evidence:
    """Evidence from a NumPy check: whether it passed and a one-line account."""
    return Evidence("numpy", bool(holds), detail)
