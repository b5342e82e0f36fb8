"""MkDocs hook: figures drawn by ``pe`` in Markdown pages (the home page's picture).

Notebook pages call their figure functions in code cells; a Markdown page cannot run code.
In a Markdown page, a line holding only

    <!-- pe-figure: sinusoidal_encoding.table_heatmap -->

is replaced, while the site is built, by the figure that function of ``pe.site`` draws (the
same function, the same figure as on its chapter's page). A name that does not exist fails
the build.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

PLACEHOLDER = re.compile(r"^<!--\s*pe-figure:\s*([a-z_]+)\.([a-z_]+)\s*-->$", re.MULTILINE)


def figure_html(module: str, function: str) -> str:
    """The HTML of ``pe.site.<module>.<function>()``."""
    try:
        draw = getattr(importlib.import_module(f"pe.site.{module}"), function)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"pe-figure: no figure pe.site.{module}.{function}") from error
    return str(draw())


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace each ``pe-figure`` placeholder of a Markdown page with its figure."""
    return PLACEHOLDER.sub(lambda m: figure_html(m.group(1), m.group(2)), markdown)
