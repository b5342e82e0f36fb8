"""Claims of the page "The sinusoidal encoding" (docs/sinusoidal-encoding.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "sinusoidal-encoding"

CLAIMS: tuple[Claim, ...] = ()
