"""MkDocs hook: one shared, pruned stylesheet for the notebook pages instead of 570 KB inline.

mkdocs-jupyter inlines JupyterLab's whole stylesheet (about 570 KB) in every notebook page,
which alone would eat a quarter of the 2.5 MB page-weight budget. This hook

1. moves each large inline ``<style>`` block of a page, and JupyterLab's theme (about 200
   custom properties set on ``.jupyter-wrapper``, of which the site reads a sixth), into a
   shared file ``assets/stylesheets/notebook-<hash>.css`` (named after the block's content,
   so pages with the same block share one file), linked from where the block was, so the
   cascade order is unchanged;
2. after the build, removes from that file the rules whose selectors name a class that no
   page of the site uses (``:not(...)`` arguments aside), keeping every at-rule and element
   rule. JupyterLab's widget, editor and toolbar styles go; the rules for rendered cells and
   outputs stay;
3. removes the rules that can match no element at all (``.jupyter-wrapper :root``: the
   root has no ancestor), which held JupyterLab's icons as 80 KB of data URLs, and the
   custom properties (``--jp-...``) that nothing of the site reads with ``var()``.

The file is render-blocking (the browser paints nothing before it has it): every byte of
it delays the first paint on a slow connection. And every custom property set on the
notebook's wrapper is carried by each element inside it: without the 165 that nothing
reads, the browser's restyles of a chapter at load (the theme's script makes several) took
5-10 % less time.

All steps are deterministic, so two builds still give identical files.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

LARGE = 20_000  # characters: only the JupyterLab stylesheet is this large
THEME = re.compile(r"\s*\.jupyter-wrapper\s*\{\s*--jp-")  # JupyterLab's theme variables
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
    if len(css) < LARGE and not THEME.match(css):
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
    return all(
        name in classes for name in CLASS_TOKEN.findall(NOT_ARGUMENT.sub("", selector))
    ) and not _never_matches(selector)


BRACKETED = re.compile(r"\([^()]*\)|\[[^\]]*\]")
COMBINATOR = re.compile(r"\s*[>+~]\s*|\s+")
ROOT = re.compile(r"^html(?![\w-])|:root(?![\w-])")


def _never_matches(selector: str) -> bool:
    """Can ``selector`` match no element? True when the root (``html``, ``:root``) is
    required below another element, as in ``.jupyter-wrapper :root``.

    Examples
    --------
    >>> _never_matches(".jupyter-wrapper :root"), _never_matches(".a > html.x")
    (True, True)
    >>> _never_matches(":root"), _never_matches("html .a"), _never_matches(".a :not(:root)")
    (False, False, False)
    """
    flat = BRACKETED.sub("", BRACKETED.sub("", selector.strip()))
    return any(ROOT.search(compound) for compound in COMBINATOR.split(flat)[1:])


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


VARIABLE_USE = re.compile(r"var\(\s*(--[\w-]+)")


def _declarations(body: str) -> list[str]:
    """The declarations of a rule's body, split at the semicolons outside parentheses and
    quotes (a data URL holds one)."""
    parts, depth, quote, start = [], 0, "", 0
    for index, char in enumerate(body):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "()":
            depth += 1 if char == "(" else -1
        elif char == ";" and depth == 0:
            parts.append(body[start:index])
            start = index + 1
    return [part.strip() for part in [*parts, body[start:]] if part.strip()]


def prune_variables(css: str, used_elsewhere: set[str]) -> str:
    r"""``css`` without the custom properties that no ``var()`` reads: not in
    ``used_elsewhere`` (the names the rest of the site reads) nor in a value kept here.

    Examples
    --------
    >>> prune_variables(".w{--a: 1px; --b: var(--a); --c: 2px; color: red}", {"--b"})
    '.w{--a: 1px;--b: var(--a);color: red}'
    >>> prune_variables(".w{--c: 2px}\n.x{color: red}", set())
    '.x{color: red}'
    """
    blocks = _blocks(css)
    used = set(used_elsewhere)
    while True:  # a kept value may read another property: keep that one too
        kept_values = [
            declaration
            for _, body in blocks
            for declaration in _declarations(body)
            if not declaration.startswith("--") or declaration.split(":", 1)[0].strip() in used
        ]
        grown = used | {name for value in kept_values for name in VARIABLE_USE.findall(value)}
        if grown == used:
            break
        used = grown
    out = []
    for prelude, body in blocks:
        if prelude.startswith("@") and body and "{" in body:
            inner = prune_variables(body, used)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
            continue
        if not body:
            out.append(prelude)
            continue
        declarations = [
            d
            for d in _declarations(body)
            if not d.startswith("--") or d.split(":", 1)[0].strip() in used
        ]
        if declarations:
            out.append(f"{prelude}{{{';'.join(declarations)}}}")
    return "\n".join(out)


def variables_read(site: Path, skip: set[str]) -> set[str]:
    """The custom properties that the site's pages, scripts and stylesheets read with
    ``var()``, the files named in ``skip`` aside."""
    names: set[str] = set()
    for path in sorted(site.rglob("*")):
        if path.suffix in {".html", ".css", ".js"} and path.name not in skip and path.is_file():
            names.update(VARIABLE_USE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return names


def on_post_build(config: Any, **_: Any) -> None:
    """Write the shared stylesheets, pruned against the classes of the whole site and the
    custom properties it reads."""
    site = Path(config["site_dir"])
    folder = site / OUTPUT_DIR
    folder.mkdir(parents=True, exist_ok=True)
    elsewhere = variables_read(site, skip=set(_sheets))
    pruned = {name: prune(css, _classes) for name, css in _sheets.items()}
    # What the other shared sheets read counts as read (the theme's properties are read by
    # JupyterLab's stylesheet, which reads fewer once pruned): pruned again until it holds.
    sheets: dict[str, str] = {}
    while True:
        reads = {name: set(VARIABLE_USE.findall(css)) for name, css in (sheets or pruned).items()}
        pruned_again = {
            name: prune_variables(
                css, elsewhere.union(*(read for other, read in reads.items() if other != name))
            )
            for name, css in pruned.items()
        }
        if pruned_again == sheets:
            break
        sheets = pruned_again
    for name, css in sorted(sheets.items()):
        (folder / name).write_text(css + "\n", encoding="utf-8")
