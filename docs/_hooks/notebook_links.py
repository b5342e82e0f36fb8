"""MkDocs hook: resolve links between pages written in notebook pages, as MkDocs does for Markdown.

In a Markdown page MkDocs turns ``[text](rotation-identity.py)`` into the page's URL and
warns about a missing target. Notebook pages are rendered by mkdocs-jupyter (nbconvert),
which leaves such links as they are: ``href="rotation-identity.py"``, a file that is not in
the built site. This hook rewrites, in the HTML of every page, each relative link whose
path names a source file of the site (``.py``, ``.ipynb``, ``.md``) to that page's URL,
keeping the ``#fragment``, and warns (which fails a strict build) when the file does not
exist.
"""

from __future__ import annotations

import logging
import posixpath
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from mkdocs.utils import get_relative_url

log = logging.getLogger("mkdocs.hooks.notebook_links")

HREF = re.compile(r'(\bhref=")([^"#?:]+\.(?:py|ipynb|md))((?:#[^"]*)?)"')


def on_page_content(html: str, page: Any, files: Any, **_: Any) -> str:
    """Rewrite the links to source files of the page's HTML into page URLs."""
    source_dir = posixpath.dirname(page.file.src_uri)

    def rewrite(match: re.Match[str]) -> str:
        prefix, path, fragment = match.groups()
        if urlsplit(path).scheme or path.startswith("/"):
            return match.group(0)
        target_uri = posixpath.normpath(posixpath.join(source_dir, unquote(path)))
        target = files.get_file_from_path(target_uri)
        if target is None or not target.is_documentation_page():
            log.warning("%s links to %r, which is not a page of the site", page.file.src_uri, path)
            return match.group(0)
        return f'{prefix}{get_relative_url(target.url, page.url)}{fragment}"'

    return HREF.sub(rewrite, html)
