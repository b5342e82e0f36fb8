"""MkDocs hook: each chapter offers its notebook for download, made from its jupytext source.

For every notebook page (``docs/<stem>.py``, a jupytext percent file) the build writes
``<stem>/<stem>.ipynb`` next to the page: the same cells with every input shown (the site
hides the inputs; the notebook is where the code is to read and run) and **the outputs of
the build's own run** (the figures, tables and claim cards the page shows), its Markdown's
placeholders filled with their values (:mod:`pe.site.prose`), and cell ids numbered in
order so that two builds give the same bytes. Links between pages
(``[...](rotation-identity.py#...)``, which the site resolves, and the relative links of the
outputs) would name files a downloaded notebook does not have: they point to the pages of
the built site instead (``site_url``). The page gets a link to it under its title, and to
the repository (``repo_url``) when the site names one. Nothing is fetched: the file is
served by the site itself.

The outputs are not computed twice: mkdocs-jupyter executes each page once (through
nbconvert's ``ExecutePreprocessor``), and this hook keeps a copy of the executed notebook
when the page is rendered (:func:`on_config` wraps the preprocessor). A notebook page
rendered without that run fails the build.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import jupytext
from mkdocs.exceptions import PluginError
from nbconvert.preprocessors import ExecutePreprocessor

from pe.site import prose

HIDDEN = "hide_input"
LINK = (
    '<p class="pe-download"><a href="{name}" download>Download this chapter as a notebook'
    " (.ipynb)</a>, with the outputs of this build; to run it, install <code>pe</code>"
    " (<code>make install</code> in a clone of {repository})</p>"
)
#: The repository, linked when the site names it (``repo_url``, from ``PE_REPO_URL``).
REPOSITORY = '<a href="{url}">the repository</a>'


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


#: A relative link or image address in the HTML of an output.
OUTPUT_LINK = re.compile(r'(?P<attr>\b(?:href|src)=")(?P<url>[^"#:]*[^"]*)"')


def output_links(html: str, page_url: str) -> str:
    """The relative links of an output's HTML made absolute, from the page at ``page_url``
    (links to page sources, ``bibliography.md#x``, first point to their pages).

    Examples
    --------
    >>> output_links('<a href="../claims/#claim-x">c</a> <a href="bibliography.md#v">v</a>',
    ...              "https://example.org/pe/rope/")
    '<a href="https://example.org/pe/claims/#claim-x">c</a> <a href="https://example.org/pe/bibliography/#v">v</a>'
    """
    root = urljoin(page_url, "..")

    def absolute(match: re.Match[str]) -> str:
        url = match["url"]
        page = PAGE_LINK.fullmatch(f"]({url})")
        if page is not None:
            stem = page["stem"]
            url = f"{root}{'' if stem == 'index' else stem + '/'}{page['fragment'] or ''}"
        return f'{match["attr"]}{urljoin(page_url, url)}"'

    return OUTPUT_LINK.sub(absolute, html)


def _outputs(executed: Any, page_url: str | None) -> list[Any]:
    """The outputs of an executed code cell, kept readable: HTML without its plain-text
    twin (the repr of the HTML string), relative links made absolute."""
    kept = []
    for output in executed.get("outputs", []):
        output = copy.deepcopy(output)  # noqa: PLW2901
        data = output.get("data")
        if data is not None:
            if "text/html" in data:
                data.pop("text/plain", None)
                if page_url:
                    html = data["text/html"]
                    text = "".join(html) if isinstance(html, list) else html
                    data["text/html"] = output_links(text, page_url)
            output["metadata"] = {}
        kept.append(output)
    return kept


def notebook_json(
    source: Path,
    site_url: str | None = None,
    executed: Any = None,
) -> str:
    """The notebook of the jupytext page ``source``, as deterministic JSON.

    With ``site_url``, links to other pages point to the built site (:func:`site_links`).
    With ``executed`` (the same notebook as run by the build), each code cell carries that
    run's outputs.

    Raises
    ------
    ValueError
        If ``executed`` does not hold the same code cells as ``source``.

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
    page_url = f"{site_url.rstrip('/')}/{source.stem}/" if site_url else None
    if executed is not None:
        ran = [c for c in executed.cells if c["cell_type"] == "code"]
        mine = [c for c in notebook.cells if c["cell_type"] == "code"]
        if [c["source"] for c in ran] != [c["source"] for c in mine]:
            raise ValueError(f"{source}: the executed notebook is not this page's")
        for count, (cell, run) in enumerate(zip(mine, ran, strict=True), start=1):
            cell["execution_count"] = count
            cell["outputs"] = _outputs(run, page_url)
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


#: The notebook the preprocessor last executed, until the page that rendered it claims it.
_LAST_RUN: list[Any] = []
#: The executed notebook of each page, by its source path, until the page is written.
_EXECUTED: dict[str, Any] = {}


def _keep_runs(preprocess: Any) -> Any:
    """``ExecutePreprocessor.preprocess`` that also keeps a copy of what it executed."""

    def run(self: Any, nb: Any, resources: Any = None, km: Any = None) -> Any:
        result = preprocess(self, nb, resources, km)
        _LAST_RUN[:] = [copy.deepcopy(result[0])]
        return result

    run.pe_keeps_runs = True  # type: ignore[attr-defined]
    return run


def on_config(config: Any, **_: Any) -> Any:
    """Keep a copy of each notebook mkdocs-jupyter executes (once per process)."""
    if not getattr(ExecutePreprocessor.preprocess, "pe_keeps_runs", False):
        ExecutePreprocessor.preprocess = _keep_runs(ExecutePreprocessor.preprocess)  # type: ignore[method-assign]
    _EXECUTED.clear()
    return config


def on_page_content(html: str, page: Any, config: Any, **_: Any) -> str:
    """Keep the page's executed notebook; put the download link under its title."""
    if not _is_notebook(page):
        return html
    if not _LAST_RUN:
        raise PluginError(f"{page.file.src_uri}: rendered without being executed")
    _EXECUTED[page.file.abs_src_path] = _LAST_RUN.pop()
    stem = Path(page.file.src_uri).stem
    repo = config.get("repo_url")
    repository = REPOSITORY.format(url=repo) if repo else "the repository"
    link = LINK.format(name=f"{stem}.ipynb", repository=repository)
    heading_end = html.find("</h1>")
    if heading_end < 0:
        return link + html
    cut = heading_end + len("</h1>")
    return html[:cut] + link + html[cut:]


def on_post_page(output: str, page: Any, config: Any, **_: Any) -> str:
    """Write the page's notebook, with its outputs, next to its HTML."""
    if _is_notebook(page):
        source = Path(page.file.abs_src_path)
        target = Path(config["site_dir"]) / Path(page.file.dest_uri).parent / f"{source.stem}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        executed = _EXECUTED.pop(page.file.abs_src_path, None)
        if executed is None:
            raise PluginError(f"{page.file.src_uri}: no executed notebook to offer")
        try:
            text = notebook_json(source, config.get("site_url"), executed)
        except ValueError as error:
            raise PluginError(str(error)) from error
        target.write_text(text, encoding="utf-8")
    return output
