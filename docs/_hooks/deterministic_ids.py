"""MkDocs hook: give notebook cells stable HTML ids, so two builds give identical pages.

jupytext reads a ``.py`` page into a notebook whose cells get random ids (nbformat's
``random_cell_id``), and nbconvert writes them out as ``id="cell-id=<8 random hex>"``: the
only difference between two builds of the same sources. Nothing links to these ids. This
hook numbers them in page order instead (``cell-1``, ``cell-2``, ...), after the page is
rendered, without touching the notebook machinery.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

CELL_ID = re.compile(r'\bid="cell-id=[0-9A-Za-z_-]+"')


def stable_cell_ids(html: str) -> str:
    """``html`` with every random notebook cell id replaced by its position on the page."""
    counter = itertools.count(1)
    return CELL_ID.sub(lambda _: f'id="cell-{next(counter)}"', html)


def on_page_content(html: str, **_: Any) -> str:
    """Renumber the notebook cell ids of each page."""
    return stable_cell_ids(html)
