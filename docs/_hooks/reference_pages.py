"""MkDocs hook: generate the reference pages from the code at every build, so they cannot drift.

- ``<!-- pe-cli-reference -->`` is replaced by the help of ``pe`` and of every subcommand
  the parser has, found by walking ``pe.cli.build_parser()`` (never listed here). The help
  is formatted at a fixed width, so the page does not depend on the build's terminal.
- every public module of the package, at any depth, found with :mod:`pkgutil` (a name
  with a part starting with ``_`` is private; ``pe.site``, page rendering, is left out), gets its own page ``reference/api/<module>.md`` holding one
  mkdocstrings block (``::: pe.module``), added to the build without a file in ``docs/``;
  ``<!-- pe-api-reference -->`` is replaced by a table linking them with the first line of
  each module's docstring. A new module appears without editing anything. (One page per
  module keeps each page light: a single page for the whole package would exceed the 2.5 MB
  page-weight budget.)
"""

from __future__ import annotations

import argparse
import ast
import functools
import pkgutil
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

CLI_MARKER = "<!-- pe-cli-reference -->"
API_MARKER = "<!-- pe-api-reference -->"
WIDTH = 76


def _help(parser: argparse.ArgumentParser) -> str:
    parser.formatter_class = functools.partial(argparse.HelpFormatter, width=WIDTH)
    return parser.format_help().rstrip()


def _subcommands(
    parser: argparse.ArgumentParser,
) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand, in the parser's order."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((name, summaries.get(name, ""), sub))
    return found


def cli_reference() -> str:
    """Markdown: an index of the subcommands, then the full help of ``pe`` and of each."""
    from pe.cli import build_parser

    parser = build_parser()
    commands = _subcommands(parser)
    if not commands:
        raise PluginError("pe.cli.build_parser() has no subcommands: nothing to document")
    parts = ["| command | what it does |", "| --- | --- |"]
    parts += [f"| [`pe {name}`](#pe-{name}) | {summary} |" for name, summary, _ in commands]
    parts += ["", "## pe", "", "```text", _help(parser), "```"]
    for name, _, sub in commands:
        parts += ["", f"## pe {name}", "", "```text", _help(sub), "```"]
    return "\n".join(parts) + "\n"


#: Left out of the API reference: page rendering, and the chapters' claim declarations
#: (listed, with their verdicts, on the site's Claims page).
UNDOCUMENTED = {"pe.site", "pe.claims.", "pe.chapters"}


def public_modules() -> list[tuple[str, Path]]:
    """(dotted name, source file) of pe's public modules and packages, at any depth, sorted.

    A name with a part starting with ``_`` is private; ``pe.site`` (page rendering) is left
    out with everything below it.
    """
    import pe

    found = []
    for module in pkgutil.walk_packages(pe.__path__, prefix="pe."):
        name = module.name
        if any(part.startswith("_") for part in name.split(".")):
            continue
        if any(name == skip or name.startswith(skip.rstrip(".") + ".") for skip in UNDOCUMENTED):
            continue
        folder = Path(pe.__path__[0]).joinpath(*name.split(".")[1:])
        source = folder / "__init__.py" if module.ispkg else folder.with_suffix(".py")
        found.append((name, source))
    return sorted(found)


def _summary(source: Path) -> str:
    """First line of a module's docstring, read without importing the module."""
    docstring = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
    line = docstring.strip().split("\n")[0].replace("|", "\\|")
    line = re.sub(r":math:`([^`]+)`", r"$\1$", line)  # reST roles, as in griffe_rst_math
    return re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", line)


def _page_uri(name: str) -> str:
    return f"reference/api/{name.removeprefix('pe.')}.md"


def api_reference() -> str:
    """Markdown: a table linking the page of every public module, with its summary."""
    rows = ["| module | what it holds |", "| --- | --- |"]
    for name, source in public_modules():
        link = _page_uri(name).removeprefix("reference/")
        rows.append(f"| [`{name}`]({link}) | {_summary(source)} |")
    return "\n".join(rows) + "\n"


def on_files(files: Files, config: Any) -> Files:
    """Add one generated page per public module, rendered by mkdocstrings."""
    for name, _ in public_modules():
        # Left out of the search index, which every page downloads: the API text would add
        # about 140 KB to each page's weight (the pages are linked from reference/api.md).
        content = (
            f"---\nsearch:\n  exclude: true\n---\n\n# {name}\n\n::: {name}\n"
            "    options:\n      show_root_heading: false\n      show_submodules: false\n"
        )
        files.append(File.generated(config, _page_uri(name), content=content))
    return files


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace the markers with the generated references."""
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    if API_MARKER in markdown:
        markdown = markdown.replace(API_MARKER, api_reference())
    return markdown
