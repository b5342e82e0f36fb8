"""The corrections page: every link names a registered claim shown on the linked page."""

from __future__ import annotations

import re

from pe import claims

from ..conftest import ROOT

PAGE = ROOT / "docs" / "corrections.md"
#: A link to a claim on its chapter (``[checked](claims.py#claim-ID)`` marks name the
#: Claims page instead, and the page check resolves them).
LINK = re.compile(r"\((?!claims\.py)([a-z0-9-]+)\.py#claim-([a-z0-9-]+)\)")


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


BIBLIOGRAPHY = ROOT / "docs" / "bibliography.md"
SOURCE = re.compile(r"\(bibliography\.md#([a-z0-9-]+)\)")
NOTE = re.compile(r"\bnotes? 00\d", re.IGNORECASE)


def _rows() -> list[list[str]]:
    lines = PAGE.read_text().splitlines()
    table = [line for line in lines if line.startswith("| ") and not line.startswith("| ---")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in table[1:]]


def test_every_row_says_where_the_statement_appears() -> None:
    """Four columns: statement, public source (a bibliography entry or "—"), truth, claims."""
    anchors = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', BIBLIOGRAPHY.read_text()))
    for row in _rows():
        assert len(row) == 4, row[0][:60]
        where = row[1]
        assert where == "—" or SOURCE.search(where), f"no source or dash: {row[0][:60]}"
        for key in SOURCE.findall(where):
            assert key in anchors, f"bibliography has no entry {key!r}"


def test_no_page_or_module_cites_private_notes() -> None:
    """The site names public sources; it never cites "note 000" .. "note 004"."""
    files = [*ROOT.glob("docs/*.py"), *ROOT.glob("docs/*.md"), *ROOT.glob("pe/**/*.py")]
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if NOTE.search(line)
    ]
    assert found == []
    assert NOTE.search("as note 003 says")
    assert NOTE.search("two source notes 001")
