"""Shared test helpers: claims that are true or false on purpose, for the registry's tests.

Exact reference values live in :mod:`pe.reference` (the claims use them too) and wrong
candidates in the chapters of :mod:`pe.chapters`; :data:`wrong` is the index the registry
finds there (:func:`pe.claims.candidates`), ``wrong.TRANSPOSED_BLOCK``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _rope_probe, claims
from pe._tolerance import Tolerance
from pe.claims import Candidate

#: Every named wrong candidate of the chapters, by name (``wrong.TRANSPOSED_BLOCK``).
wrong = SimpleNamespace(**claims.candidates())


def equals_two(value: int) -> claims.Evidence:
    """The check "value = 2" (true for 2, false for anything else)."""
    return claims.checked(value == 2, f"{value} = 2")


def claim_that(value: int, *, page: str = "claims") -> claims.Claim:
    """The claim "``value`` = 2", with the wrong candidate 3 rejected: true only for 2."""
    return claims.Claim(
        id="true-claim" if value == 2 else "false-claim",
        title=f"{value} = 2",
        statement=f"{value} = 2",
        page=page,
        checks=(claims.Check(equals_two, true=value, wrong=(Candidate("three", 3),)),),
    )


def false_claim(page: str = "claims") -> claims.Claim:
    """A claim whose evidence fails: "1 = 2"."""
    return claim_that(1, page=page)


def true_claim(page: str = "claims") -> claims.Claim:
    """A claim that verifies: "2 = 2"."""
    return claim_that(2, page=page)


def claim_of(*checks: claims.Check[Any]) -> claims.Claim:
    """The claim "x" resting on ``checks``, for the registry's self-check tests."""
    return claims.Claim(id="x", title="x", statement="x", page="claims", checks=checks)


def within(rounding: float, stated: float = 0.0) -> Any:
    """The check "``|value - 2| <= stated + rounding``", reporting its error and tolerance."""

    def run(value: float) -> claims.Evidence:
        error = abs(value - 2.0)
        tolerance = Tolerance(rounding, "a test's rounding bound", stated=stated)
        return claims.checked(
            error <= tolerance.value,
            f"|{value} - 2| = {error:.3g}",
            error=error,
            tolerance=tolerance,
        )

    return run


def pickle_int(value: int) -> bytes:
    """The pickle opcodes of one integer: BININT (4 bytes) when it fits, else LONG1."""
    if -(2**31) <= value < 2**31:
        return b"J" + value.to_bytes(4, "little", signed=True)  # BININT
    raw = value.to_bytes(9, "little", signed=True)
    return b"\x8a" + bytes([len(raw)]) + raw  # LONG1


def pickle_ints(values: tuple[int, ...]) -> bytes:
    """The pickle opcodes of a tuple of integers (MARK ... TUPLE)."""
    return b"(" + b"".join(pickle_int(v) for v in values) + b"t"


def quarter_turns(scale: float, d: int = 8, *, gain: float = 1.0) -> _rope_probe.RopeFunction:
    """A rotation of adjacent pairs by p quarter turns, computed exactly (cos and sin of
    multiples of pi/2 are 0 and +-1); every pair scaled by ``gain`` and pair 0 also by
    ``scale``."""

    def fn(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        k = np.asarray(p) % 4
        c = np.array([1.0, 0.0, -1.0, 0.0])[k][:, None]
        s = np.array([0.0, 1.0, 0.0, -1.0])[k][:, None]
        a, b = x[:, 0::2], x[:, 1::2]
        out = np.empty_like(x)
        out[:, 0::2], out[:, 1::2] = a * c - b * s, a * s + b * c
        if gain != 1.0:
            out *= gain
        out[:, :2] *= scale
        return out

    return fn
