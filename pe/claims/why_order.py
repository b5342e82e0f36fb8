"""Claims of the page "Why order must be injected" (docs/why-order.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "why-order"

CLAIMS: tuple[Claim, ...] = ()
