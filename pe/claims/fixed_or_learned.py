"""Claims of the page "Fixed or learned" (docs/fixed-or-learned.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "fixed-or-learned"

CLAIMS: tuple[Claim, ...] = ()
