"""Claims of the page "Precision and speed" (docs/precision.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "precision"

CLAIMS: tuple[Claim, ...] = ()
