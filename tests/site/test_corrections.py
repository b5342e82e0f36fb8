"""The corrections page: every link names a registered claim shown on the linked page."""

from __future__ import annotations

import re

from pe import claims

from ..conftest import ROOT

PAGE = ROOT / "docs" / "corrections.md"
LINK = re.compile(r"\(([a-z0-9-]+)\.py#claim-([a-z0-9-]+)\)")


def test_every_row_links_a_claim() -> None:
    lines = PAGE.read_text().splitlines()
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| ---")][1:]
    assert len(rows) >= 10
    for row in rows:
        assert LINK.search(row), f"row without a claim link: {row[:80]}"


def test_every_linked_claim_exists_on_its_page() -> None:
    registered = {c.id: c.page for c in claims.all_claims()}
    links = LINK.findall(PAGE.read_text())
    assert links
    for page, claim_id in links:
        assert registered.get(claim_id) == page, f"{page}.py#claim-{claim_id}"


def test_a_wrong_link_would_be_caught() -> None:
    registered = {c.id: c.page for c in claims.all_claims()}
    for page, claim_id in LINK.findall("(implications.py#claim-rotation-identity)"):
        assert registered.get(claim_id) != page
