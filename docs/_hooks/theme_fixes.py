"""MkDocs hook: where the theme's HTML falls short of the site's rules, fix it in each page.

- The search dialog gets a name (``aria-label="Search"``): axe-core requires one of every
  ``role="dialog"``, and a screen reader announces it.
- ``docs/javascripts/search-on-demand.js`` is inlined just before the theme's script, so
  that the search index is fetched on the first use of search, not by every page (an
  inline script: one request less before the page can paint).
- The theme's script is deferred, as the site's own are (``mkdocs.yml``): fetched with the
  page but run once it is parsed, in order, so that neither its download nor its work holds
  back the first paint of the text.
- Without ``PE_SITE_URL`` the site does not know its address (``site_url`` is then the
  address ``make serve`` serves, for the downloadable notebooks' links): no page gets a
  canonical link and the sitemap lists no page, rather than naming 127.0.0.1.
"""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).parent.parent / "javascripts" / "search-on-demand.js"
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
BUNDLE = re.compile(r'(<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js")></script>')


def fix(html: str, script: str) -> str:
    """``html`` with its search dialog named, ``script`` inlined before the theme's script
    and that script deferred.

    Examples
    --------
    >>> page = SEARCH_DIALOG + '<script src="../assets/javascripts/bundle.ab12.min.js"></script>'
    >>> fix(page, "let x;")  # doctest: +NORMALIZE_WHITESPACE
    '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">\
<script>let x;</script><script src="../assets/javascripts/bundle.ab12.min.js" defer></script>'
    """
    named = html.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + ' aria-label="Search">')
    return BUNDLE.sub(
        lambda m: f"<script>{script}</script>{m.group(1)} defer></script>", named, count=1
    )


CANONICAL = re.compile(r'<link rel="canonical" href="[^"]*">')
EMPTY_SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n'
)


def deployed() -> bool:
    """Is the site's address known (``PE_SITE_URL``)?"""
    return bool(os.environ.get("PE_SITE_URL"))


def fix_page(html: str) -> str:
    """All of the above on one page."""
    fixed = fix(html, SCRIPT.read_text(encoding="utf-8").strip())
    return fixed if deployed() else CANONICAL.sub("", fixed)


def on_post_page(output: str, **_: Any) -> str:
    """Name the search dialog, defer the search index and the theme's script."""
    return fix_page(output)


def on_post_template(output_content: str, template_name: str, **_: Any) -> str:
    """The same on the theme's own pages (``404.html``); an empty sitemap when the site's
    address is not known."""
    if template_name.endswith(".html"):
        return fix_page(output_content)
    if template_name == "sitemap.xml" and not deployed():
        return EMPTY_SITEMAP
    return output_content


def on_post_build(config: Any, **_: Any) -> None:
    """The compressed sitemap matches the sitemap (MkDocs compresses it before this hook)."""
    site = Path(config["site_dir"])
    if (site / "sitemap.xml").is_file():
        data = (site / "sitemap.xml").read_bytes()
        (site / "sitemap.xml.gz").write_bytes(gzip.compress(data, mtime=0))
