"""MkDocs hook: every image a page embeds as ``data:`` becomes a file the browser can skip.

:func:`pe.site.figures.render` returns each figure as two inline PNGs, one per palette, so
that a figure function's HTML stands alone (in a notebook, in a test). Inline, a page
would carry both palettes' pictures in its HTML, all of them downloaded before the first
paint, whichever palette shows and however far down the page they sit. This hook writes
each such PNG to ``assets/figures/<hash>.png`` (named after its content: the same figure
on two pages is one file) and points the image there. The figure's ``<img>`` elements are
lazy (``loading="lazy"``) with their width and height set, and the stylesheet hides the
palette not shown: the browser fetches one picture per figure, when it nears the screen,
and reserves its room before it arrives.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

FOLDER = "assets/figures"
DATA_IMAGE = re.compile(r'(<img\b[^>]*?\bsrc=")data:image/png;base64,([A-Za-z0-9+/=]+)(")')

_files: dict[str, bytes] = {}  # file name -> PNG bytes, filled while pages are rendered


def on_pre_build(**_: Any) -> None:
    """Start each build (and each rebuild of ``mkdocs serve``) empty."""
    _files.clear()


def externalise(html: str, prefix: str) -> str:
    """``html`` with each inline PNG image pointing to its file under :data:`FOLDER`.

    ``prefix`` leads from the page to the site's root (``../`` on ``rotation-identity/``).

    Examples
    --------
    >>> png = base64.b64encode(b"\\x89PNG-bytes").decode()
    >>> externalise(f'<img alt="a" src="data:image/png;base64,{png}" width="2">', "../")
    '<img alt="a" src="../assets/figures/7c5ee53a6e644843.png" width="2">'
    """

    def to_file(match: re.Match[str]) -> str:
        data = base64.b64decode(match.group(2))
        name = f"{hashlib.sha256(data).hexdigest()[:16]}.png"
        _files[name] = data
        return f"{match.group(1)}{prefix}{FOLDER}/{name}{match.group(3)}"

    return DATA_IMAGE.sub(to_file, html)


def on_page_content(html: str, page: Any, **_: Any) -> str:
    """Move the page's inline PNG images to files."""
    return externalise(html, "../" * page.url.count("/"))


def on_post_build(config: Any, **_: Any) -> None:
    """Write the figures' files."""
    folder = Path(config["site_dir"]) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in sorted(_files.items()):
        (folder / name).write_bytes(data)
