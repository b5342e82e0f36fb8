"""Claims of the page "Designs that fail" (docs/failed-designs.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "failed-designs"

CLAIMS: tuple[Claim, ...] = ()
