"""Values in prose: ``{{ name }}`` and ``{{ name:FORMAT }}`` in a page's Markdown, filled at build.

A number that ``pe`` computes is never typed into a sentence: the Markdown holds a
placeholder, and the build writes the computed value in its place (in the page, in its
search text and in the notebook offered for download). ``name`` is a key of ``VALUES`` in
the page's module ``pe.site.<stem>`` (the page's stem with ``-`` written ``_``)::

    VALUES: dict[str, Callable[[], object]] = {"angle32": lambda: _neox().angle32, ...}

one thunk per name, so that the names can be listed without computing anything (cache an
expensive computation with :func:`functools.cache`). ``FORMAT`` is a Python format
specification (``{{ worst_ulps:,d }}``, ``{{ angle32:.4f }}``); without it the value is
written with :func:`format` and no specification. A placeholder may stand inside a formula
(``$d = {{ d }}$``). An unknown name or a format the value refuses raises
:class:`PlaceholderError` naming the page and the placeholder, which fails the build.

Examples
--------
>>> fill("the float32 angle is {{ angle:.2f }}", "x", {"angle": lambda: 1044.2749})
'the float32 angle is 1044.27'
>>> fill("{{ nothing }}", "x", {})
Traceback (most recent call last):
    ...
pe.site.prose.PlaceholderError: x: unknown placeholder {{ nothing }} (known: none)
>>> [m["name"] for m in PLACEHOLDER.finditer("$d = {{ d }}$, {{ n_rows:,d }} rows")]
['d', 'n_rows']
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import re
from collections.abc import Callable, Mapping

__all__ = ["PLACEHOLDER", "PlaceholderError", "Values", "fill", "module_name", "values"]

#: A placeholder: ``{{ name }}`` or ``{{ name:FORMAT }}`` (spaces inside the braces optional).
PLACEHOLDER = re.compile(
    r"\{\{\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?::(?P<format>[^{}]*?))?\s*\}\}"
)

#: The values a page may name: one thunk per name.
Values = Mapping[str, Callable[[], object]]


class PlaceholderError(ValueError):
    """A placeholder names no value of its page, or its format does not fit the value."""


def module_name(stem: str) -> str:
    """The module of ``pe.site`` that holds the page ``stem``'s values.

    Examples
    --------
    >>> module_name("rotation-identity")
    'pe.site.rotation_identity'
    """
    return f"pe.site.{stem.replace('-', '_')}"


def values(stem: str) -> Values:
    """``VALUES`` of the page ``stem``'s module; empty when the page has no module or none.

    Only imports the module: no value is computed.

    Examples
    --------
    >>> sorted(values("rotation-identity")), dict(values("pe.cli")), dict(values("index"))
    (['law_width'], {}, {})
    """
    if not re.fullmatch(r"[a-z][a-z0-9-]*", stem):  # not a chapter (reference/api/pe.cli)
        return {}
    name = module_name(stem)
    if importlib.util.find_spec(name) is None:
        return {}
    table: Values = getattr(importlib.import_module(name), "VALUES", {})
    return table


def _format(stem: str, table: Values, name: str, spec: str) -> str:
    if name not in table:
        known = ", ".join(sorted(table)) or "none"
        raise PlaceholderError(f"{stem}: unknown placeholder {{{{ {name} }}}} (known: {known})")
    value = table[name]()
    try:
        return format(value, spec)
    except (TypeError, ValueError) as error:
        raise PlaceholderError(
            f"{stem}: placeholder {{{{ {name}:{spec} }}}}: format {spec!r} does not fit "
            f"{type(value).__name__} {value!r} ({error})"
        ) from error


def fill(text: str, stem: str, table: Values | None = None, *, as_html: bool = False) -> str:
    """``text`` with every placeholder replaced by its value, formatted.

    Parameters
    ----------
    text
        Markdown, or (``as_html``) the HTML rendered from it: the format specification is
        then read unescaped (``&gt;`` as ``>``) and the value is written escaped.
    stem
        The page, for the values (unless ``table`` is given) and the error message.
    table
        The values to use instead of the page's ``VALUES``.

    Raises
    ------
    PlaceholderError
        If a name is not in the table, or the format specification does not fit the value.
    """
    if not PLACEHOLDER.search(text):
        return text
    known = values(stem) if table is None else table

    def one(match: re.Match[str]) -> str:
        spec = (match["format"] or "").strip()
        if as_html:
            spec = html.unescape(spec)
        text = _format(stem, known, match["name"], spec)
        return html.escape(text, quote=False) if as_html else text

    return PLACEHOLDER.sub(one, text)
