"""The executed site: strict build, computed content, nothing from the internet, false claims fail."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..conftest import ROOT, build_site

# Anything the browser would fetch by itself: src attributes, <link href>, CSS url().
# Plain <a href> links to other sites are navigation, not loads, and are allowed.
EXTERNAL = re.compile(
    r"""(?:\bsrc\s*=\s*["']|<link\b[^>]*\bhref\s*=\s*["']|url\(\s*["']?)"""
    r"""(?:https?:)?//(?!127\.0\.0\.1|localhost)"""
)


def test_strict_build_has_the_pages(built_site: Path) -> None:
    for page in ("index.html", "rotation-identity/index.html", "claims/index.html"):
        assert (built_site / page).is_file(), page
    # Formulas are typeset at build: MathJax's fonts are served, none of its scripts.
    assert not list((built_site / "assets/mathjax").rglob("*.js"))
    assert any((built_site / "assets/mathjax/output/chtml/fonts/woff-v2").glob("*.woff"))


def test_every_formula_is_typeset_at_build(built_site: Path) -> None:
    """Each formula's source in a page has its typeset form beside it (docs/_hooks/
    typeset_math.py), none is a MathJax error, and no page loads MathJax's code."""
    pages = sorted(built_site.rglob("*.html"))
    sources = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.count('<span class="pe-tex">') == html.count("<template><mjx-container"), page
        assert "<mjx-merror" not in html, page
        assert "mathjax/startup.js" not in html, page
        sources += html.count('<span class="pe-tex">')
    assert sources >= 1000  # the chapters hold over a thousand formulas


def test_rotation_page_shows_what_was_computed(built_site: Path) -> None:
    html = (built_site / "rotation-identity/index.html").read_text()
    for claim_id in (
        "rotation-identity",
        "rotation-identity-block-diagonal",
        "shift-independent-of-position",
        "shift-orthogonal",
    ):
        assert f'id="claim-{claim_id}"' in html
    assert 'Apply the angle-addition formulas <span class="pe-sympy">' in html
    assert "The residual is exactly 0" in html
    assert "Disproved: at an exact point the residual is not zero" in html  # textbook matrix
    assert html.count('class="pe-fig pe-fig-light"') >= 1  # the explorer's fallback figure
    assert 'alt=""' not in html
    assert "Traceback" not in html


def test_claims_page_lists_every_claim(built_site: Path) -> None:
    from pe import claims

    html = (built_site / "claims/index.html").read_text()
    for claim in claims.all_claims():
        assert f"#claim-{claim.id}" in html
    assert "FAILS" not in html


def test_wrong_candidates_never_read_as_failures(built_site: Path) -> None:
    """No page words an expected rejection as an alarm: the old "FAILS" and "NOT zero" are
    gone, and the pages that show wrong candidates say they were rejected, as expected."""
    alarms = [
        f"{page.relative_to(built_site)}: {word}"
        for page in built_site.rglob("*.html")
        for word in ("FAILS", "residual is NOT zero")
        if word in page.read_text(encoding="utf-8")
    ]
    assert alarms == []
    for stem in ("why-order", "rotation-identity"):
        html = (built_site / stem / "index.html").read_text(encoding="utf-8")
        assert "residual is not zero" in html
        assert "rejected, as expected" in html


def test_nothing_is_loaded_from_the_internet(built_site: Path) -> None:
    offenders = []
    for page in [*built_site.rglob("*.html"), *built_site.rglob("*.css")]:
        for match in EXTERNAL.finditer(page.read_text()):
            offenders.append(f"{page.relative_to(built_site)}: {match.group(0)}")
    assert offenders == []
    for config in ("mkdocs.yml",):
        text = (ROOT / config).read_text()
        assert "cdn" not in text.lower()
        assert "fonts.googleapis" not in text


def test_a_false_claim_fails_the_docs_build(tmp_path: Path) -> None:
    """A page showing a claim that does not verify must fail the build."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    (tmp_path / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text())
    (tmp_path / "docs" / "rotation-identity.py").write_text(
        "# %%\n"
        "from pe import claims\n"
        "from pe.claims import Candidate\n"
        "from pe.site import report\n"
        "check = claims.Check(lambda x: claims.checked(x == 2, f'{x} = 2'), true=1,\n"
        "    wrong=(Candidate('three', 3),))\n"
        "false = claims.Claim(id='false-claim', title='false', statement='1 = 2',\n"
        "    page='rotation-identity', checks=(check,))\n"
        "everything = claims.all_claims()\n"
        "claims.all_claims = lambda: (*everything, false)\n"
        "report.claim('false-claim')\n"
    )
    result = build_site(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    assert "false-claim" in result.stdout + result.stderr
