"""MkDocs hook: computed values and "checked" marks in the prose of every page.

- Each ``{{ name }}`` / ``{{ name:FORMAT }}`` of a page's Markdown becomes the value that
  ``pe.site.<stem>.VALUES[name]`` computes, formatted (:mod:`pe.site.prose`). The hook
  fills the rendered HTML, so the search index (built from it) holds the values too; the
  downloaded notebook is filled by ``notebook_download.py``. An unknown name or a format
  that does not fit fails the build, naming the page and the placeholder.
- Each link ``[checked](claims.py#claim-ID)`` becomes a small mark in the style of a claim
  card's "verified at build", linking to the claim's entry on the Claims page; a claim of
  kind source with nothing to recompute reads "cited", as its card does. An ``ID`` that is
  not a registered claim fails the build.

``make check-pages`` (:mod:`pe.site.page_check`) checks the same names and ids without
building.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from pe import claims
from pe.site import prose

#: A "checked" link as it stands in the HTML, before or after its target is resolved to a URL.
CHECKED = re.compile(r'<a href="(?P<href>[^"#]*#claim-(?P<id>[A-Za-z0-9_-]+))">checked</a>')


def checked_marks(text: str, page: str) -> str:
    """``text`` with every ``checked`` link to a claim styled as a mark.

    The first mark of a claim that has no card on the page (no ``id="claim-ID"``) carries
    that id, so that the Claims page's link to the claim on its page lands on it.

    Examples
    --------
    >>> checked_marks('x <a href="../claims/#claim-shift-composition">checked</a>', "p")
    'x <a class="pe-mark pe-checked" id="claim-shift-composition" href="../claims/#claim-shift-composition" title="Checked by claim shift-composition (Claims page)">checked</a>'

    Raises
    ------
    mkdocs.exceptions.PluginError
        If a link names a claim that is not registered.
    """

    anchored = set(re.findall(r'id="claim-([A-Za-z0-9_-]+)"', text))

    def mark(match: re.Match[str]) -> str:
        claim_id = match["id"]
        try:
            claim = claims.get(claim_id)
        except KeyError:
            raise PluginError(
                f"{page}: [checked] links to claim-{claim_id}, not a registered claim"
            ) from None
        if claim.checks:
            word, title = "checked", f"Checked by claim {claim_id} (Claims page)"
        else:
            word, title = "cited", f"Cited from {claim.source}: claim {claim_id} (Claims page)"
        # the first mark of a claim without a card on the page is its anchor there
        anchor = "" if claim_id in anchored else f' id="claim-{claim_id}"'
        anchored.add(claim_id)
        return (
            f'<a class="pe-mark pe-checked"{anchor} href="{match["href"]}" '
            f'title="{html.escape(title)}">{word}</a>'
        )

    return CHECKED.sub(mark, text)


def on_page_content(html_text: str, page: Any, **_: Any) -> str:
    """Fill the page's placeholders and style its "checked" marks."""
    source = str(page.file.src_uri)
    stem = "" if "/" in source else Path(source).stem  # chapters live at the top of docs/
    try:
        filled = prose.fill(html_text, stem or source, as_html=True)
    except prose.PlaceholderError as error:
        raise PluginError(f"{source}: {error}") from None
    return checked_marks(filled, source)
