"""The chapters of the site, one module per page, each holding what its page claims.

A chapter's module is named by its page (``docs/rotation-identity.py`` is
:mod:`pe.chapters.rotation_identity`) and holds that chapter's SymPy proofs, NumPy
measurements, named wrong candidates and claims, each claim declared next to the checks it
rests on (``chapter.claim(...)``). The registry, :mod:`pe.claims`, finds the chapters here
and their claims in them; the page's figures and tables are drawn by :mod:`pe.site`.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["recorded"]


def recorded(name: str) -> dict[str, Any]:
    """What real code computed, as ``tests/real_code/record.py`` recorded it (with the
    versions and the command): ``data/NAME``, a JSON object, the oracle of the claims a
    chapter makes about other people's code.

    Examples
    --------
    >>> sorted(recorded("t5_buckets.json"))[:3]
    ['command', 'layout', 'settings']
    """
    text = resources.files(__name__).joinpath("data", name).read_text(encoding="utf-8")
    recording: dict[str, Any] = json.loads(text)
    return recording
