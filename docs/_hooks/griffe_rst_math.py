"""Griffe extension: let the reST markup of pe's NumPy-style docstrings render in MkDocs.

pe's docstrings are NumPy style with reST math, so that they read well in ``help()`` and
in a terminal. mkdocstrings renders docstring text as Markdown, where ``:math:`x```,
``.. math::`` blocks and ``:func:`name``` roles would show up raw. This extension
rewrites, on the loaded docstrings only (the source files are untouched):

- ``:math:`x``` to ``$x$`` and an indented ``.. math::`` block to a ``$$ ... $$`` block,
  which the site's ``pymdownx.arithmatex`` hands to MathJax like any other formula;
- ``:func:``, ``:class:``, ``:mod:``, ``:data:``, ``:attr:``, ``:meth:`` and ``:exc:`` roles
  to code spans (``~a.b.c`` shows ``c``, as in Sphinx).

It is referenced from ``mkdocs.yml`` (mkdocstrings ``extensions``), never imported by pe.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

MATH_ROLE = re.compile(r":math:`([^`]+)`")
CODE_ROLE = re.compile(r":(?:func|class|mod|data|attr|meth|exc|obj):`(~?)([^`]+)`")


def _code_role(match: re.Match[str]) -> str:
    name = match.group(2).rstrip("()")
    if match.group(1):
        name = name.rsplit(".", 1)[-1]
    return f"`{name}`"


def _math_blocks(text: str) -> str:
    """Replace each ``.. math::`` directive and its indented body with a ``$$`` block."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped.startswith(".. math::"):
            out.append(line)
            index += 1
            continue
        indent = len(line) - len(line.lstrip())
        body = [stripped.removeprefix(".. math::").strip()]
        index += 1
        while index < len(lines) and (
            not lines[index].strip() or len(lines[index]) - len(lines[index].lstrip()) > indent
        ):
            body.append(lines[index])
            index += 1
        latex = textwrap.dedent("\n".join(body)).strip()
        pad = " " * indent
        out.extend(["", f"{pad}$$", *(pad + row for row in latex.splitlines()), f"{pad}$$", ""])
    return "\n".join(out)


def rst_to_markdown(text: str) -> str:
    """The docstring ``text`` with its reST math and roles rewritten for Markdown."""
    text = _math_blocks(text)
    text = MATH_ROLE.sub(lambda m: f"${m.group(1).strip()}$", text)
    return CODE_ROLE.sub(_code_role, text)


class RstMath(griffe.Extension):
    """Rewrite reST math and cross-reference roles in every loaded docstring."""

    def on_instance(self, *, obj: griffe.Object, **_: Any) -> None:
        """Called by griffe for every module, class, function and attribute it loads."""
        if obj.docstring is not None:
            obj.docstring.value = rst_to_markdown(obj.docstring.value)
