"""Claims of the page "From sinusoids to rotary embeddings" (docs/rope.py)."""

from __future__ import annotations

from pe.claims import Claim

PAGE = "rope"

CLAIMS: tuple[Claim, ...] = ()
