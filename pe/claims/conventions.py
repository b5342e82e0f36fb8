"""Claims of the page "Conventions and pitfalls" (docs/conventions.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "conventions"

CLAIMS: tuple[Claim, ...] = ()
