"""MkDocs hook: one shared, pruned stylesheet for the notebook pages instead of 570 KB inline.

mkdocs-jupyter inlines JupyterLab's whole stylesheet (about 570 KB) in every notebook page,
which alone would eat a quarter of the 2.5 MB page-weight budget. This hook

1. moves each large inline ``<style>`` block of a page into a shared file
   ``assets/stylesheets/notebook-<hash>.css`` (named after the block's content, so pages
   with the same block share one file), linked from where the block was, so the cascade
   order is unchanged;
2. after the build, removes from that file the rules whose selectors name a class that no
   page of the site uses (``:not(...)`` arguments aside), keeping every at-rule, custom
   property and element rule. JupyterLab's widget, editor and toolbar styles go; the
   rules for rendered cells and outputs stay.

Both steps are deterministic, so two builds still give identical files.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

LARGE = 20_000  # characters: only the JupyterLab stylesheet is this large
STYLE = re.compile(r"<style(?: type=\"text/css\")?>(.*?)</style>", re.DOTALL)
CLASS_ATTR = re.compile(r'\bclass="([^"]*)"')
CLASS_TOKEN = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
NOT_ARGUMENT = re.compile(r":not\([^()]*\)")
COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
OUTPUT_DIR = "assets/stylesheets"

_sheets: dict[str, str] = {}  # file name -> CSS, filled while pages are written
_classes: set[str] = set()


def on_pre_build(**_: Any) -> None:
    """Start each build (and each rebuild of ``mkdocs serve``) empty."""
    _sheets.clear()
    _classes.clear()


def _link(match: re.Match[str], prefix: str) -> str:
    css = match.group(1)
    if len(css) < LARGE:
        return match.group(0)
    name = f"notebook-{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    _sheets[name] = css
    return f'<link rel="stylesheet" href="{prefix}{OUTPUT_DIR}/{name}">'


def on_post_page(output: str, page: Any, **_: Any) -> str:
    """Replace the page's large inline stylesheets with links; record its classes."""
    for names in CLASS_ATTR.findall(output):
        _classes.update(names.split())
    prefix = "../" * page.url.count("/")  # the page's depth below the site root
    return STYLE.sub(lambda m: _link(m, prefix), output)


def _blocks(css: str) -> list[tuple[str, str]]:
    """Top-level ``(prelude, body)`` pairs of a stylesheet (statements have body ``""``)."""
    blocks, index = [], 0
    while index < len(css):
        brace, semicolon = css.find("{", index), css.find(";", index)
        if brace < 0:
            break
        if 0 <= semicolon < brace and css[index:semicolon].strip().startswith("@"):
            blocks.append((css[index : semicolon + 1].strip(), ""))  # @charset, @import
            index = semicolon + 1
            continue
        depth, cursor, quote = 1, brace + 1, ""
        while depth and cursor < len(css):
            char = css[cursor]
            if quote:
                quote = "" if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            cursor += 1
        blocks.append((css[index:brace].strip(), css[brace + 1 : cursor - 1]))
        index = cursor
    return blocks


def _selectors(prelude: str) -> list[str]:
    """Split a selector list at its top-level commas (not those inside ``:is(a, b)``)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(prelude):
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(prelude[start:index])
            start = index + 1
    return [*parts, prelude[start:]]


def _selector_used(selector: str, classes: set[str]) -> bool:
    return all(name in classes for name in CLASS_TOKEN.findall(NOT_ARGUMENT.sub("", selector)))


def prune(css: str, classes: set[str]) -> str:
    """``css`` without the rules that can match nothing, given every class the site uses."""
    kept = []
    for prelude, body in _blocks(COMMENT.sub("", css)):
        if not body and prelude.startswith("@"):
            kept.append(prelude)
        elif prelude.startswith(("@media", "@supports", "@layer")):
            inner = prune(body, classes)
            if inner:
                kept.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            kept.append(f"{prelude}{{{body}}}")  # @font-face, @keyframes, ...
        else:
            selectors = [s for s in _selectors(prelude) if _selector_used(s, classes)]
            if selectors:
                kept.append(f"{','.join(s.strip() for s in selectors)}{{{body}}}")
    return "\n".join(kept)


def on_post_build(config: Any, **_: Any) -> None:
    """Write the shared stylesheets, pruned against the classes of the whole site."""
    folder = Path(config["site_dir"]) / OUTPUT_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for name, css in sorted(_sheets.items()):
        (folder / name).write_text(prune(css, _classes) + "\n", encoding="utf-8")
