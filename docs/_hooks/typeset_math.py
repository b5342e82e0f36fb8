"""MkDocs hook: every formula is typeset when the site is built; the page only puts it in place.

MathJax 3 (the components of the pinned ``django-static-mathjax`` wheel) runs in an embedded
V8 (``mini-racer``) with its own DOM-less adaptor (``docs/_hooks/mathjax_engine.js``). Each
page's formulas are found where MathJax would find them in a browser, with the same
delimiters and escapes (``$...$``, ``\\(...\\)``, ``$$...$$``, ``\\[...\\]``, environments;
``\\$`` is a dollar): in the text of the page's body outside code, scripts, styles, SVG and
MathML. Each formula's source is wrapped in ``<span class="pe-tex">`` with MathJax's
CommonHTML output (and its MathML copy for screen readers) in a ``<template>`` beside it;
the page's ``<head>`` gets the stylesheet those formulas need, its fonts served from
``assets/mathjax/`` (``docs/_hooks/offline_assets.py``).

In the browser, ``docs/javascripts/math.js`` puts each formula in place of its source when
it comes near the screen, or when the fold holding it opens: only what the reader sees is
laid out, and no MathJax code is fetched, compiled or run (on a phone, that was about a
second of work per chapter, Lighthouse's total blocking time). Until then the source keeps
the room the formula will take (``docs/_hooks/math_space.py``), hidden. A formula MathJax
cannot read (an unknown macro, a missing argument) fails the build, naming it.
"""

from __future__ import annotations

import functools
import html
import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mathjax  # the django-static-mathjax package
from mkdocs.exceptions import PluginError
from py_mini_racer import JSPromise, MiniRacer

ES5 = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
ENGINE = Path(__file__).with_name("mathjax_engine.js")
#: The components MathJax's loader may ask for (it loads these, and autoloads TeX extensions).
COMPONENTS = ("core", "adaptors/liteDOM", "input/tex", "output/chtml", "a11y/assistive-mml")
#: Where the fonts are served, from the site's root (``docs/_hooks/offline_assets.py``).
FONTS = "assets/mathjax/output/chtml/fonts/woff-v2"
#: The size of a formula against its text: MathJax in a browser matches its x-height (0.442
#: em in its fonts) with the text's, which is 119.5 % in Chromium with the theme's fonts.
SCALE = 1.195


@functools.cache
def _engine() -> MiniRacer:
    """A V8 context with MathJax started in it (once per build)."""
    sources = {
        name: (ES5 / f"{name}.js").read_text(encoding="utf-8")
        for path in sorted(ES5.rglob("*.js"))
        if (name := path.relative_to(ES5).as_posix()[: -len(".js")]).startswith(COMPONENTS)
    }
    context = MiniRacer()
    context.eval(f"var PE_SOURCES = {json.dumps(sources)}; var PE_SCALE = {SCALE};")
    context.eval(ENGINE.read_text(encoding="utf-8"))
    context.eval((ES5 / "startup.js").read_text(encoding="utf-8"))
    _settled(context.eval("MathJax.startup.promise.then(() => { PE_STARTED = true; })"))
    if context.eval("PE_STARTED") is not True:
        raise PluginError("MathJax did not start in the embedded V8")
    return context


def _settled(promise: object) -> object:
    """What a JavaScript promise resolves to."""
    if not isinstance(promise, JSPromise):
        raise PluginError(f"MathJax answered {promise!r}, not a promise")
    return promise.get(timeout=120)


def typeset(formulas: list[tuple[str, bool]], fonts: str) -> tuple[list[str], str]:
    """Each ``(tex, display)`` of ``formulas`` as CommonHTML, and the stylesheet they need
    (its fonts at the URL ``fonts``). A formula TeX cannot read is a :class:`PluginError`
    naming it.

    Examples
    --------
    >>> [inline], css = typeset([(r"\\omega_i", False)], "fonts")
    >>> inline.startswith('<mjx-container class="MathJax" jax="CHTML"'), "<math" in inline
    (True, True)
    >>> 'url("fonts/MathJax_Math-Italic.woff")' in css
    True
    >>> typeset([(r"\\frac{1}", False)], "fonts")
    Traceback (most recent call last):
    mkdocs.exceptions.PluginError: MathJax cannot read \\frac{1} (Missing argument for \\frac)
    """
    request = json.dumps({"formulas": formulas, "fontURL": fonts})
    answer = json.loads(str(_settled(_engine().eval(f"peTypeset({json.dumps(request)})"))))
    if answer["errors"]:
        raise PluginError("MathJax cannot read " + "; ".join(answer["errors"]))
    return answer["html"], answer["css"]


# Where MathJax looks for formulas (its defaults, and processEscapes/processEnvironments).
BODY = re.compile(r"(<body\b[^>]*>)(.*)(</body>)", re.DOTALL)
TAG = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][\w-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.DOTALL)
SKIPPED = {"script", "noscript", "style", "textarea", "pre", "code", "annotation",
           "annotation-xml", "svg", "math"}  # fmt: skip
START = re.compile(r"\$\$|\$|\\\(|\\\[|\\begin\s*\{([^}]*)\}|\\\$")
CLOSE = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}
INSIDE = re.compile(r"\\[a-zA-Z@]+|\\.|[{}]|\$\$|\$|\\\)|\\\]", re.DOTALL)


def formulas(text: str) -> list[tuple[int, int, bool]] | None:
    """Where MathJax finds formulas in ``text`` (one text node): (start, end, inline) of
    each; None when a delimiter opens a formula that does not close here (MathJax could
    join it with text beyond, across a ``<br>``).

    Examples
    --------
    >>> formulas(r"pair $i$ turns by \\(k\\omega_i\\); a \\$ sign; $$x$$")
    [(5, 8, True), (18, 31, True), (44, 49, False)]
    >>> formulas("$x") is None
    True
    """
    found = []
    at = 0
    while (start := START.search(text, at)) is not None:
        opening = start.group(0)
        if opening == "\\$":  # an escaped dollar, not a delimiter
            at = start.end()
            continue
        close = f"\\end{{{start.group(1)}}}" if start.group(1) is not None else CLOSE[opening]
        braces, end = 0, None
        for token in INSIDE.finditer(text, start.end()):
            piece = token.group(0)
            if piece == "{":
                braces += 1
            elif piece == "}" and braces:
                braces -= 1
            elif braces == 0 and (
                piece == close or (piece == "\\end" and close.startswith("\\end"))
            ):
                if piece == "\\end" and not text.startswith(close, token.start()):
                    continue
                end = token.start() + len(close)
                break
        if end is None:
            return None
        found.append((start.start(), end, opening in ("$", "\\(")))
        at = end
    return found


def text_runs(body: str) -> Iterator[tuple[str, bool]]:
    """``body`` (HTML) cut in order into its tags and the text between them, each with
    whether MathJax reads it: text outside the elements it skips.

    Examples
    --------
    >>> list(text_runs("a<code>$x$</code>b"))
    [('a', True), ('<code>', False), ('$x$', False), ('</code>', False), ('b', True)]
    """
    skipping: list[str] = []
    at = 0
    for tag in TAG.finditer(body):
        yield body[at : tag.start()], not skipping
        yield tag.group(0), False
        at = tag.end()
        closing, name = tag.group(1), (tag.group(2) or "").lower()
        if name in SKIPPED and not tag.group(0).endswith("/>"):
            if not closing:
                skipping.append(name)
            elif skipping and skipping[-1] == name:
                skipping.pop()
    yield body[at:], not skipping


def _tex(source: str) -> str:
    """The TeX of a formula as written in HTML, without its delimiters."""
    for opening, closing in CLOSE.items():
        if (
            source.startswith(opening)
            and source.endswith(closing)
            and len(source) > 2 * len(opening) - 1
        ):
            source = source[len(opening) : -len(closing)]
            break
    return html.unescape(source)


def _pieces(text: str) -> list[str | tuple[str, str, bool]]:
    """``text`` (a text node's HTML) cut into HTML and formulas ``(source, tex, display)``;
    an escaped dollar (``\\$``) outside them is a dollar.

    Examples
    --------
    >>> _pieces(r"by $x$. Then \\$5, $a &lt; b$")
    ['by ', ('$x$', 'x', False), '. Then $5, ', ('$a &lt; b$', 'a < b', False), '']
    >>> _pieces(r"$x") == [r"$x"]  # left open: as it is
    True
    """
    spans = formulas(text)
    if not spans:
        return [text]
    if "&" in text:  # an entity that is a delimiter (&#36;) would change what is found
        unescaped = formulas(html.unescape(text))
        if unescaped is None or [s[2] for s in unescaped] != [s[2] for s in spans]:
            return [text]
    out: list[str | tuple[str, str, bool]] = []
    at = 0
    for start, end, inline in spans:
        source = text[start:end]
        out += [text[at:start].replace("\\$", "$"), (source, _tex(source), not inline)]
        at = end
    out.append(text[at:].replace("\\$", "$"))
    return out


def typeset_page(page: str, fonts: str) -> str:
    """``page`` with each formula of its body beside its typeset form (in a template), and
    their stylesheet in its head.

    Examples
    --------
    >>> page = typeset_page("<head></head><body><p>$i$ <code>$x$</code></p></body>", "f")
    >>> print(page[page.index("<body>") : page.index("<template>")])
    <body><p><span class="pe-tex">$i$
    >>> page.count("<mjx-container"), "<code>$x$</code>" in page, '<style id="MJX' in page
    (1, True, True)
    """
    found = BODY.search(page)
    if found is None:
        return page
    body = found.group(2)
    pieces: list[str | tuple[str, str, bool]] = []
    for chunk, read in text_runs(body):
        pieces += _pieces(chunk) if read else [chunk]
    asked = [piece[1:] for piece in pieces if isinstance(piece, tuple)]
    if not asked:
        return page
    typeset_html, css = typeset(asked, fonts)
    done = iter(typeset_html)
    body = "".join(
        piece
        if isinstance(piece, str)
        else f'<span class="pe-tex">{piece[0]}<template>{next(done)}</template></span>'
        for piece in pieces
    )
    style = f'<style id="MJX-CHTML-styles">{css}</style>'
    head_end = page.index("</head>") if "</head>" in page else found.start()
    return page[:head_end] + style + page[head_end : found.start(2)] + body + page[found.end(2) :]


def on_post_page(output: str, page: Any, **_: Any) -> str:
    """Typeset the page's formulas, their fonts addressed from the page's own folder."""
    folder = posixpath.dirname("/" + page.url) if not page.url.endswith("/") else "/" + page.url
    fonts = posixpath.relpath("/" + FONTS, folder.rstrip("/") or "/")
    try:
        return typeset_page(output, fonts)
    except PluginError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
