"""MkDocs hook: a formula holds, until it is put in place, the room it will take.

Formulas are typeset at build, and each is put in place of its source by the page's script
when it comes near the screen (``docs/_hooks/typeset_math.py``, ``docs/javascripts/math.js``):
until then a display formula shows its TeX source, usually a few lines of text, and the
formula that replaces it is shorter or taller, so that everything below it jumped (the
largest layout shift of the chapters, measured by Lighthouse). Each display formula that
stands alone in its paragraph (``<p>$$...$$</p>`` in the notebooks, ``<div
class="arithmatex">`` in Markdown pages) gets the class ``pe-tex-display`` and the height it
will take as ``--pe-tex-h``, estimated from its TeX: a line of text, a row more per ``\\\\``
of its tallest array, a fraction, a large operator with limits, a labelled brace. The stylesheet holds that
height (and hides the source) until the formula is in place, where scripts run.

An inline formula's source (``$\\omega_i p$``) is wider than the formula, often by half: a
paragraph of the first screen was a line longer until MathJax came, then the text below it
moved up (Lighthouse's layout shift, 0.1 on a phone). Each inline formula of the article
is wrapped in ``<span class="pe-tex-inline">`` with the width it will take as
``--pe-math-w``, estimated from its TeX with the widths of MathJax's TeX fonts and TeX's
spacing rules (within a tenth of an em for nine formulas in ten); a tall one (a matrix, a
fraction) gets its height as ``--pe-math-h``. Both are in ems of MathJax's font, which
MathJax scales to the x-height of the text around it: the stylesheet converts them with
the ``ex`` unit, so that the room is right whatever font the reader's system has. It holds
that box (and hides the source) until the formula is in place.
"""

from __future__ import annotations

import html
import itertools
import re
from typing import Any

from typeset_math import formulas, text_runs

#: Height in ems: one line, each further row of an array, a fraction, an operator with
#: limits, a brace with a label under or over it; at most :data:`TALLEST` (measured at
#: 390-1280 px in Chromium: within a line of MathJax's own height for every display
#: formula of the chapters that fits its column, ``tests/site/test_browser.py``; most
#: within a third of a line).
LINE, ROW, FRACTION, LIMITS, BRACE, TALLEST = 1.15, 1.55, 1.2, 2.0, 1.2, 8.0

DISPLAY = re.compile(
    r'<p>(?P<tex>\$\$.*?\$\$|\\\[.*?\\\])</p>|<div class="arithmatex">(?P<md>\\\[.*?\\\])</div>',
    re.DOTALL,
)
ENVIRONMENT = re.compile(r"\\begin\{([a-z]+\*?)\}(.*?)\\end\{\1\}", re.DOTALL)


def height(tex: str) -> float:
    r"""The height, in ems, that the display formula ``tex`` will take once typeset.

    Examples
    --------
    >>> height(r"PE(p + k) = T_k\, PE(p)")
    1.15
    >>> round(height(r"\begin{pmatrix} a \\ b \end{pmatrix} = \begin{pmatrix} c \\ d \end{pmatrix}"), 2)
    2.7
    >>> round(height(r"\lambda = \frac{2\pi}{\omega}"), 2), round(height(r"\sum_{j=1}^{n} x_j"), 2)
    (2.35, 3.15)
    """
    arrays = [body.count("\\\\") for _, body in ENVIRONMENT.findall(tex)]
    rows = max(arrays) if arrays else tex.count("\\\\")
    tall = [
        size
        for pattern, size in ((r"d?frac|binom", FRACTION), (r"sum|prod|int", LIMITS))
        if re.search(rf"\\({pattern})(?![a-zA-Z])", tex)
    ]
    total = LINE + ROW * rows + max(tall, default=0.0)  # side by side: the taller counts
    if re.search(r"\\(under|over)brace(?![a-zA-Z])", tex):
        total += BRACE
    return round(min(total, TALLEST), 2)


def reserve(html: str) -> str:
    """``html`` with each lone display formula marked with the height it will take.

    Examples
    --------
    >>> reserve("<p>$$a \\\\frac{1}{2}$$</p>")
    '<p class="pe-tex-display" style="--pe-tex-h: 2.35em">$$a \\\\frac{1}{2}$$</p>'
    >>> reserve('<div class="arithmatex">\\\\[x\\\\]</div>')
    '<div class="arithmatex pe-tex-display" style="--pe-tex-h: 1.15em">\\\\[x\\\\]</div>'
    """

    def mark(match: re.Match[str]) -> str:
        if match.group("tex") is not None:
            tex = match.group("tex")
            return f'<p class="pe-tex-display" style="--pe-tex-h: {height(tex)}em">{tex}</p>'
        tex = match.group("md")
        return (
            f'<div class="arithmatex pe-tex-display" style="--pe-tex-h: {height(tex)}em">'
            f"{tex}</div>"
        )

    return DISPLAY.sub(mark, html)


# Inline formulas: their width, estimated from the TeX, in ems of the text around them.

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _table(keys: str, widths: str) -> dict[str, float]:
    return dict(zip(keys.split() if " " in keys else keys, map(float, widths.split()), strict=True))


#: Widths of MathJax's TeX fonts (ems): math italic letters, and the italic correction of
#: some (the overhang a superscript clears and a subscript tucks under); upright letters of
#: names such as ``\sin`` and ``\mathrm{LN}``; symbols.
ITALIC = _table(
    LETTERS,
    ".529 .429 .433 .52 .466 .49 .477 .576 .345 .412 .521 .298 .878 .6 .485 .503 .446 .451 "
    ".469 .361 .572 .485 .716 .572 .49 .465 .75 .759 .715 .828 .738 .643 .786 .831 .44 .555 "
    ".849 .681 .97 .803 .763 .642 .791 .759 .613 .584 .683 .583 .944 .828 .581 .683",
)
ITALIC_CORRECTION = _table(
    "B C D E F H I J K M N O P S T U V W X Y Z f",
    ".05 .045 .028 .026 .139 .081 .078 .096 .04 .109 .109 .027 .109 .032 .12 .109 .222 .139 "
    ".024 .222 .04 .107",
)
ROMAN = _table(
    LETTERS,
    ".5 .556 .444 .556 .444 .306 .5 .556 .278 .306 .528 .278 .833 .556 .5 .556 .528 .392 .394 "
    ".389 .556 .528 .722 .528 .528 .444 .75 .708 .722 .764 .681 .653 .785 .75 .361 .514 .778 "
    ".625 .917 .75 .778 .681 .778 .736 .556 .722 .75 .75 1.028 .75 .75 .611",
)
SYMBOL = _table(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi varpi rho varrho sigma tau upsilon phi varphi chi psi omega ell Gamma Delta "
    "Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega partial infty nabla top bot prime "
    "emptyset hbar forall exists neg Re Im",
    ".64 .566 .543 .444 .406 .466 .471 .497 .469 .591 .356 .576 .583 .603 .53 .438 .57 .828 "
    ".517 .517 .571 .437 .54 .596 .654 .626 .651 .622 .417 .625 .833 .778 .694 .667 .75 .722 "
    ".778 .722 .778 .722 .566 1 .833 .778 .778 .275 .5 .54 .556 .556 .667 .722 .722",
)
#: TeX's classes of atoms (which set the space between them), with their widths.
CLASSES = {
    "bin": _table(
        "+ - * cdot times pm mp div circ ast star cup cap wedge vee oplus otimes setminus bullet",
        ".778 .778 .5 .278 .778 .778 .778 .778 .5 .5 .5 .667 .667 .667 .667 .778 .778 .5 .5",
    ),
    "rel": _table(
        "= < > le leq ge geq ne neq lt gt approx equiv sim simeq cong propto to rightarrow "
        "leftarrow mapsto in notin subset subseteq supset mid Rightarrow Leftrightarrow iff "
        "implies ll gg perp parallel :",
        " ".join(["0.778"] * 35 + ["0.278"]),
    ),
    "open": _table(
        "( [ langle lfloor lceil lVert lvert lbrace", ".389 .278 .389 .444 .444 .5 .278 .5"
    ),
    "close": _table(
        ") ] rangle rfloor rceil rVert rvert rbrace }", ".389 .278 .389 .444 .444 .5 .278 .5 .5"
    ),
    "op": _table("sum prod int oint", "1.056 .944 .417 .472"),
    "inner": _table("dots ldots cdots vdots ddots", "1.172 1.172 1.172 .278 1"),
    "punct": _table(", ;", ".278 .278"),
    "space": _table(
        ", : > ; quad qquad ! enspace thinspace ~", ".167 .222 .222 .278 1 2 -.167 .5 .167 .333"
    ),
}
#: Commands set as upright words (their argument's letters in roman widths).
WORDS = {
    "mathrm",
    "text",
    "textrm",
    "mathsf",
    "mathtt",
    "textbf",
    "textit",
    "mbox",
    "operatorname",
    "mathop",
}
STYLED = {"mathbf", "mathit", "mathbb", "mathcal", "boldsymbol", "bm", "tilde", "hat", "bar",
          "overline", "vec", "dot", "ddot", "widetilde", "widehat", "underline", "check", "breve"}  # fmt: skip
FRACTIONS = {"frac", "dfrac", "tfrac", "binom"}
CONSTRUCTS = {"begin", "sqrt", *FRACTIONS, *WORDS, *STYLED}
SIZING = {"left", "right", "middle", "big", "bigl", "bigr", "Big", "Bigl", "Bigr", "\\"}
#: Scale of a sub- or superscript (first level, then deeper).
SCRIPT = (1.0, 0.707, 0.5)
TEX_TOKEN = re.compile(r"\\([A-Za-z]+)|\\(.)|\s+|(.)", re.DOTALL)

Atom = tuple[str, float]  # TeX's class of the atom, its width in ems


def _tokens(tex: str) -> list[str]:
    r"""The TeX tokens of ``tex``: ``\name``, ``\x`` or one character; spaces dropped.

    >>> _tokens(r"\omega_i p + \,1")
    ['\\omega', '_', 'i', 'p', '+', '\\,', '1']
    """
    found = []
    for match in TEX_TOKEN.finditer(tex):
        name, symbol, char = match.groups()
        if name or symbol:
            found.append("\\" + (name or symbol))
        elif char:
            found.append(char)
    return found


def _argument(tokens: list[str], at: int) -> tuple[list[str], int]:
    """The argument that starts at ``tokens[at]`` (a braced group or one token) and where
    what follows it starts."""
    if at >= len(tokens):
        return [], at
    if tokens[at] != "{":
        return [tokens[at]], at + 1
    depth = 0
    for end in range(at, len(tokens)):
        depth += {"{": 1, "}": -1}.get(tokens[end], 0)
        if depth == 0:
            return tokens[at + 1 : end], end + 1
    return tokens[at + 1 :], len(tokens)


def _word_width(tokens: list[str]) -> float:
    r"""Width of an upright word (``\mathrm{LN}``, ``\sin``)."""
    text = "".join(t[1:] if t.startswith("\\") and len(t) == 2 else t for t in tokens)
    return sum(ROMAN.get(c, 0.25 if c == " " else 0.278 if c in ".,:;'!|" else 0.5) for c in text)


def _split(tokens: list[str], separator: str) -> list[list[str]]:
    """``tokens`` cut at each ``separator`` outside groups and nested environments."""
    parts: list[list[str]] = [[]]
    depth = 0
    for token in tokens:
        depth += {"{": 1, "}": -1, "\\begin": 1, "\\end": -1}.get(token, 0)
        if token == separator and depth == 0:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _environment(tokens: list[str], at: int, level: int) -> tuple[Atom, int]:
    r"""An array (``\begin{pmatrix}...``) that starts at ``tokens[at]``, after ``\begin``:
    its cells column by column, the space between columns, its fences."""
    name, at = _argument(tokens, at)
    end, depth = at, 1
    while end < len(tokens) and depth:
        depth += {"\\begin": 1, "\\end": -1}.get(tokens[end], 0)
        end += 1
    body, after = tokens[at : end - 1], _argument(tokens, end)[1]
    small = "".join(name) == "smallmatrix"
    widths: list[float] = []
    for row in _split(body, "\\\\"):
        for column, cell in enumerate(_split(row, "&")):
            width = _width(cell, level) * (0.707 if small else 1.0)
            widths[column : column + 1] = [max([*widths[column : column + 1], width])]
    scale = SCRIPT[min(level, 2)]
    fences = 1.6 * scale if "".join(name)[:1] in ("p", "b", "v", "B", "V") else 0.0
    gaps = (0.333 if small else 1.0) * max(len(widths) - 1, 0)
    return ("inner", (sum(widths) + gaps) * scale + fences), after


def _scripts(tokens: list[str], at: int, level: int, base: Atom) -> tuple[Atom, int]:
    """``base`` with the sub- or superscript (or both) that starts at ``tokens[at]``."""
    first, letter = tokens[at], tokens[at - 1] if at else ""
    script, at = _argument(tokens, at + 1)
    width = _width(script, level + 1)
    if at < len(tokens) and tokens[at] in ("^", "_") and tokens[at] != first:
        other, at = _argument(tokens, at + 1)  # both, one above the other: the wider counts
        width = max(width, _width(other, level + 1))
    elif first == "_":  # a subscript alone tucks under the letter's italic overhang
        width -= ITALIC_CORRECTION.get(letter, 0.0) * SCRIPT[min(level, 2)]
    kind, base_width = base
    return (kind, base_width + width + 0.05 * SCRIPT[min(level, 2)]), at


def _construct(command: str, tokens: list[str], at: int, level: int) -> tuple[Atom, int]:
    """A command with arguments (a fraction, a root, an array, a word, a styled group)."""
    scale = SCRIPT[min(level, 2)]
    if command == "begin":
        return _environment(tokens, at, level)
    first, at = _argument(tokens, at)
    if command in FRACTIONS:
        second, at = _argument(tokens, at)
        wider = max(_width(first, level + 1), _width(second, level + 1))
        return ("inner", wider + 0.24 * scale), at
    if command == "sqrt":
        return ("ord", _width(first, level) + 0.853 * scale), at
    if command in WORDS:
        kind = "op" if command in ("operatorname", "mathop") else "ord"
        return (kind, _word_width(first) * scale), at
    return ("ord", _width(first, level) * (1.1 if "b" in command else 1.0)), at  # STYLED


def _atom(tokens: list[str], at: int, level: int) -> tuple[Atom | None, int]:
    """The atom that starts at ``tokens[at]`` (None for a token that takes no room) and
    where the next one starts."""
    token = tokens[at]
    command = token[1:] if token.startswith("\\") and len(token) > 1 else ""
    if token == "{":
        group, at = _argument(tokens, at)
        return ("ord", _width(group, level)), at
    if token in ("}", "&") or command in SIZING:
        return None, at + 1  # a delimiter after \left is counted as itself
    if command in CONSTRUCTS:
        return _construct(command, tokens, at + 1, level)
    return _symbol(command or token, bool(command), SCRIPT[min(level, 2)]), at + 1


def _symbol(name: str, is_command: bool, scale: float) -> Atom:
    """A symbol's atom: a letter, a digit, an operator, a delimiter, a space, a named one."""
    if (is_command or name == "~") and name in CLASSES["space"]:
        return "space", CLASSES["space"][name] * scale
    for kind, widths in CLASSES.items():
        if kind != "space" and name in widths:
            return kind, widths[name] * scale
    if name in SYMBOL:
        return "ord", SYMBOL[name] * scale
    if is_command:  # \sin, \max and the like: an upright name
        return ("op", _word_width(list(name)) * scale) if len(name) > 1 else ("ord", 0.5 * scale)
    if name in ITALIC:
        return "ord", (ITALIC[name] + ITALIC_CORRECTION.get(name, 0.0)) * scale
    return "ord", {".": 0.278, "'": 0.275, "|": 0.278}.get(name, 0.5) * scale  # digits, ...


def _atoms(tokens: list[str], level: int) -> list[Atom]:
    """The atoms of ``tokens`` (a formula or a group) at script level ``level``."""
    atoms: list[Atom] = []
    at = 0
    while at < len(tokens):
        if tokens[at] in ("^", "_"):
            base = atoms.pop() if atoms else ("ord", 0.0)
            atom, at = _scripts(tokens, at, level, base)
            atoms.append(atom)
            continue
        found, at = _atom(tokens, at, level)
        if found is not None:
            atoms.append(found)
    return atoms


#: TeX's thin space between these neighbours (in a formula's own size).
THIN = {("op", "ord"), ("op", "op"), ("op", "inner"), ("ord", "op"), ("close", "op"),
        ("inner", "op"), ("inner", "ord"), ("inner", "open"), ("inner", "inner"),
        ("ord", "inner"), ("close", "inner"), ("punct", "inner")}  # fmt: skip


def _space(left: str, right: str) -> float:
    """TeX's space between two atoms in a formula's own size: thin, medium or thick."""
    if "space" in (left, right):
        return 0.0
    if "bin" in (left, right):
        return 0.222
    if "rel" in (left, right):
        return 0.0 if left == right else 0.278
    return 0.167 if left == "punct" or (left, right) in THIN else 0.0


def _width(tokens: list[str], level: int) -> float:
    atoms: list[Atom] = []
    for kind, width in _atoms(tokens, level):
        # A binary operator with nothing to combine on its left (a sign) is ordinary.
        before = atoms[-1][0] if atoms else "open"
        atoms.append(
            (
                "ord"
                if kind == "bin" and before in ("bin", "op", "rel", "open", "punct")
                else kind,
                width,
            )
        )
    if atoms and atoms[-1][0] == "bin":
        atoms[-1] = ("ord", atoms[-1][1])
    total = sum(width for _, width in atoms)
    if level == 0:  # scripts are set without these spaces
        total += sum(_space(a, b) for (a, _), (b, _) in itertools.pairwise(atoms))
    return total


def inline_width(tex: str) -> float:
    r"""The width, in ems, that the inline formula ``tex`` will take once typeset.

    Examples
    --------
    >>> inline_width(r"p"), inline_width(r"\omega_i"), inline_width(r"PE(p+k)")  # MathJax:
    (0.5, 0.92, 4.54)
    >>> inline_width(r"T_k\,PE(p) = PE(p+k)")  # 0.5, 0.95, 4.54 and 9.78
    9.84
    """
    return round(max(_width(_tokens(tex), 0), 0.3), 2)


def inline_height(tex: str) -> float | None:
    r"""The height, in ems, of a tall inline formula (an array, a fraction); None for one
    no taller than a line of text.

    >>> inline_height(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}"), inline_height("x^2")
    (2.5, None)
    """
    arrays: list[int] = [body.count("\\\\") + 1 for _, body in ENVIRONMENT.findall(tex)]
    if arrays and "smallmatrix" not in tex:
        return round(min(1.25 * max(arrays), TALLEST), 2)
    if re.search(r"\\(d?frac|binom)(?![a-zA-Z])", tex):
        return 1.75
    return None


# Where MathJax looks for inline formulas: the text of the article, outside the elements it
# skips; its delimiters and escapes (one definition, in docs/_hooks/typeset_math.py).
ARTICLE = re.compile(r"(<article\b.*?>)(.*)(</article>)", re.DOTALL)


#: Punctuation written against a formula (``"$x$".``, ``($x$)``): kept on its line.
BEFORE = re.compile(r"[\"'(\[]+$")
AFTER = re.compile(r"[\"'.,;:!?)\]]+")


def _wrap(text: str) -> str:
    """The inline formulas of ``text`` (a text node's HTML) in spans holding their size.

    A formula with punctuation against it goes, with that punctuation, into a span that
    does not break (``pe-nowrap``): a browser may break a line on either side of a typeset
    formula, and a closing quote or full stop would start the next line alone.

    Examples
    --------
    >>> print(_wrap('by "$x$". Then $y$ is'))
    by <span class="pe-nowrap">"<span class="pe-tex-inline" style="--pe-math-w: 0.57">$x$</span>".</span> Then <span class="pe-tex-inline" style="--pe-math-w: 0.49">$y$</span> is
    >>> _wrap(r"\\(0 \\le i &lt; d\\)").startswith('<span class="pe-tex-inline"')  # "<" escaped
    True
    """
    spans = formulas(text)
    if not spans:
        return text
    if "&" in text:  # an entity that is a delimiter (&#36;) would change what MathJax finds
        unescaped = formulas(html.unescape(text))
        if unescaped is None or [s[2] for s in unescaped] != [s[2] for s in spans]:
            return text
    out, at = [], 0
    for start, end, inline in spans:
        if not inline:
            continue
        source = text[start:end]
        tex = html.unescape(source[1:-1] if source.startswith("$") else source[2:-2])
        style = f"--pe-math-w: {inline_width(tex)}"
        tall = inline_height(tex)
        if tall is not None:
            style += f"; --pe-math-h: {tall}"
        formula = f'<span class="pe-tex-inline" style="{style}">{source}</span>'
        before = BEFORE.search(text, at, start)
        after = AFTER.match(text, end)
        lead = before.group(0) if before else ""
        trail = after.group(0) if after else ""
        if lead or trail:
            formula = f'<span class="pe-nowrap">{lead}{formula}{trail}</span>'
        out += [text[at : start - len(lead)], formula]
        at = end + len(trail)
    return "".join([*out, text[at:]])


def reserve_inline(page: str) -> str:
    r"""``page`` with each inline formula of its article wrapped in a span holding its size.

    Examples
    --------
    >>> page = reserve_inline(r"<article><p>Pair $i$ is <code>$x$</code> \(p\).</p></article>")
    >>> print(page.replace(" <span", "\n<span"))
    <article><p>Pair
    <span class="pe-tex-inline" style="--pe-math-w: 0.34">$i$</span> is <code>$x$</code>
    <span class="pe-nowrap"><span class="pe-tex-inline" style="--pe-math-w: 0.5">\(p\)</span>.</span></p></article>
    >>> reserve_inline("<article><p>$$x$$ and $y</p></article>")  # display; unclosed
    '<article><p>$$x$$ and $y</p></article>'
    """
    found = ARTICLE.search(page)
    if found is None:
        return page
    body = found.group(2)
    out = [_wrap(chunk) if read else chunk for chunk, read in text_runs(body)]
    return page[: found.start(2)] + "".join(out) + page[found.end(2) :]


def on_post_page(output: str, **_: Any) -> str:
    """Mark the display formulas of every page, and wrap its inline formulas."""
    return reserve_inline(reserve(output))
