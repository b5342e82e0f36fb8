"""The page check against the built site: the pages' placeholders hold values there.

The page check's unit tests are in the fast suite, ``tests/test_check_pages.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pe.site import prose


@pytest.mark.slow
def test_the_built_site_holds_values_not_placeholders(built_site: Path) -> None:
    """The page, its search text and its notebook hold the value, never ``{{ ... }}``."""
    stem = "precision"
    table = prose.values(stem)
    assert table, "the worked example's page has values"
    angle = format(table["neox_angle32"](), ".4f")
    page = (built_site / stem / "index.html").read_text(encoding="utf-8")
    assert angle in page
    assert "{{" not in page.split('<div class="md-content"')[-1]
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = [d["text"] for d in index["docs"] if d["location"].startswith(f"{stem}/")]
    assert any(angle in t for t in texts)
    assert not any("{{" in t for t in texts)
    notebook = (built_site / stem / f"{stem}.ipynb").read_text(encoding="utf-8")
    assert angle in notebook
    assert "{{ neox" not in notebook
    assert 'class="pe-mark pe-checked"' in (built_site / "index.html").read_text(encoding="utf-8")
