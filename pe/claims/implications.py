"""Claims of the page "What the identity implies" (docs/implications.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "implications"

CLAIMS: tuple[Claim, ...] = ()
