"""MkDocs hook: where the theme's HTML falls short of the site's rules, fix it in each page.

- The search dialog gets a name (``aria-label="Search"``): axe-core requires one of every
  ``role="dialog"``, and a screen reader announces it.
- ``docs/javascripts/search-on-demand.js`` is inlined just before the theme's script, so
  that the search index is fetched on the first use of search, not by every page (an
  inline script: one request less before the page can paint).
- The MathJax components that ``startup.js`` would load one after the other are preloaded
  from the page's head: fetched with the stylesheets, not three round trips later (the
  first formulas, often in the largest text of the first screen, are typeset sooner).
- Without ``PE_SITE_URL`` (``site_url`` unset), no canonical link is written: a page
  never names an address it is not served from. (MkDocs then writes the sitemap's
  entries as paths from the site's root.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).parent.parent / "javascripts" / "search-on-demand.js"
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
#: What ``startup.js`` loads (``docs/javascripts/mathjax-config.js``), below ``assets/mathjax/``.
MATHJAX = (
    "core.js",
    "input/tex.js",
    "output/chtml.js",
    "output/chtml/fonts/tex.js",
    "a11y/assistive-mml.js",
)
BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"></script>')


def fix(html: str, script: str) -> str:
    """``html`` with its search dialog named and ``script`` inlined before the theme's.

    Examples
    --------
    >>> page = SEARCH_DIALOG + '<script src="../assets/javascripts/bundle.ab12.min.js"></script>'
    >>> fix(page, "let x;")  # doctest: +NORMALIZE_WHITESPACE
    '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">\
<script>let x;</script><script src="../assets/javascripts/bundle.ab12.min.js"></script>'
    """
    named = html.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + ' aria-label="Search">')
    return BUNDLE.sub(lambda m: f"<script>{script}</script>{m.group(0)}", named, count=1)


def preload_mathjax(html: str, prefix: str) -> str:
    """``html`` with MathJax's components preloaded at the end of its head (``prefix``
    leads from the page to the site's root); a page without MathJax is left as it is.

    Examples
    --------
    >>> page = '<head></head><script src="../assets/mathjax/startup.js"></script>'
    >>> preload_mathjax(page, "../").count('<link rel="preload" as="script"')
    5
    >>> preload_mathjax("<head></head>", "")
    '<head></head>'
    """
    if "assets/mathjax/startup.js" not in html:
        return html
    links = "".join(
        f'<link rel="preload" as="script" href="{prefix}assets/mathjax/{name}">' for name in MATHJAX
    )
    return html.replace("</head>", f"{links}</head>", 1)


def on_post_page(output: str, page: Any, **_: Any) -> str:
    """Name the search dialog, defer the search index, preload MathJax."""
    fixed = fix(output, SCRIPT.read_text(encoding="utf-8").strip())
    return preload_mathjax(fixed, "../" * page.url.count("/"))
