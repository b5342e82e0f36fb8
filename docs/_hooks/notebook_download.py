"""MkDocs hook: each chapter offers its notebook for download, made from its jupytext source.

For every notebook page (``docs/<stem>.py``, a jupytext percent file) the build writes
``<stem>/<stem>.ipynb`` next to the page: the same cells, unexecuted, with every input
shown (the site hides the inputs; the notebook is where the code is to read and run), its
Markdown's placeholders filled with their values (:mod:`pe.site.prose`), and cell ids
numbered in order so that two builds give the same bytes. Links between pages
(``[...](rotation-identity.py#...)``, which the site resolves) would name files a downloaded
notebook does not have: they point to the pages of the built site instead (``site_url``). The page gets a link to
it under its title. Nothing is fetched: the file is served by the site itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jupytext

from pe.site import prose

HIDDEN = "hide_input"
LINK = (
    '<p class="pe-download"><a href="{name}" download>Download this chapter as a notebook'
    " (.ipynb)</a>, to run with the <code>pe</code> package installed (<code>make install</code>"
    " in a clone of the repository)</p>"
)


#: A relative Markdown link to another page of the site: ``](stem.py#fragment)`` or ``.md``.
PAGE_LINK = re.compile(r"\]\((?P<stem>[A-Za-z0-9_-]+)\.(?:py|md)(?P<fragment>#[^)\s]*)?\)")


def site_links(markdown: str, site_url: str) -> str:
    """``markdown`` with its links to pages of the site made absolute, under ``site_url``.

    Examples
    --------
    >>> site_links("See [the identity](rotation-identity.py#proof) and [home](index.md).",
    ...            "https://example.org/pe/")
    'See [the identity](https://example.org/pe/rotation-identity/#proof) and [home](https://example.org/pe/).'
    """
    root = site_url if site_url.endswith("/") else site_url + "/"

    def absolute(match: re.Match[str]) -> str:
        stem = match["stem"]
        path = "" if stem == "index" else f"{stem}/"
        return f"]({root}{path}{match['fragment'] or ''})"

    return PAGE_LINK.sub(absolute, markdown)


def notebook_json(source: Path, site_url: str | None = None) -> str:
    """The notebook of the jupytext page ``source``, as deterministic JSON.

    With ``site_url``, links to other pages point to the built site (:func:`site_links`).

    Examples
    --------
    >>> import json, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     page = Path(folder) / "x.py"
    ...     _ = page.write_text('# %% [markdown]\\n# # Title\\n\\n# %% tags=["hide_input"]\\n1 + 1\\n')
    ...     cells = json.loads(notebook_json(page))["cells"]
    >>> [(c["id"], c["cell_type"], c["metadata"]) for c in cells]
    [('cell-1', 'markdown', {}), ('cell-2', 'code', {})]
    """
    notebook = jupytext.read(source, fmt="py:percent")
    table = prose.values(source.stem)
    for number, cell in enumerate(notebook.cells, start=1):
        cell["id"] = f"cell-{number}"
        if cell["cell_type"] == "markdown":
            cell["source"] = prose.fill(cell["source"], source.stem, table)
            if site_url:
                cell["source"] = site_links(cell["source"], site_url)
        tags = [t for t in cell.get("metadata", {}).get("tags", []) if t != HIDDEN]
        cell["metadata"] = {"tags": tags} if tags else {}
    return str(jupytext.writes(notebook, fmt="ipynb")) + "\n"


def _is_notebook(page: Any) -> bool:
    return str(page.file.src_uri).endswith(".py")


def on_page_content(html: str, page: Any, **_: Any) -> str:
    """Put the download link under the title of each notebook page."""
    if not _is_notebook(page):
        return html
    stem = Path(page.file.src_uri).stem
    link = LINK.format(name=f"{stem}.ipynb")
    heading_end = html.find("</h1>")
    if heading_end < 0:
        return link + html
    cut = heading_end + len("</h1>")
    return html[:cut] + link + html[cut:]


def on_post_page(output: str, page: Any, config: Any, **_: Any) -> str:
    """Write the page's notebook next to its HTML."""
    if _is_notebook(page):
        source = Path(page.file.abs_src_path)
        target = Path(config["site_dir"]) / Path(page.file.dest_uri).parent / f"{source.stem}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(notebook_json(source, config.get("site_url")), encoding="utf-8")
    return output
