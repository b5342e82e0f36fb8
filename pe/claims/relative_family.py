"""Claims of the page "The relative-position family" (docs/relative-family.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "relative-family"

CLAIMS: tuple[Claim, ...] = ()
