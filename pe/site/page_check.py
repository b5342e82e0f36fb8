r"""The page check (``make check-pages``): every number and formula in prose is backed.

A page's prose may state a number or a formula only in one of two ways:

- **rendered**: the value comes from ``pe`` through a placeholder, ``{{ name }}``
  (:mod:`pe.site.prose`); a formula holding a placeholder counts as rendered;
- **attached** to a registered claim: its block of prose holds a link
  ``[checked](claims.py#claim-ID)``, or it is the last block of a Markdown cell directly
  followed by a code cell calling ``report.claim("ID", ...)`` (the claim card below it).

A *block* is a paragraph, a list item, a table row, or a display formula together with the
paragraph it belongs to (the one before it and a continuation after it that starts in
lower case or with punctuation). What needs backing:

- an inline formula (``$...$`` or ``\(...\)``) holding a digit or a relation (``=``, ``<``,
  ``>``, ``\le``, ``\ge``, ``\approx``, ``\neq``, ``\to``, ``\in``, ``\sim``, ``\propto``,
  ``\equiv``, ``\mid``, ...); one with neither is notation (``$\omega_i p$``);
- a display formula (``$$...$$`` or ``\[...\]``) holding a digit or a relation;
- a number in the text, unless it is part of a name (``float32``, ``T5``, ``GPT-2``) or
  an exception of :data:`ALLOWED`, the one reviewed list, each entry with its reason.

Words are statements too. A sentence of a block that is neither rendered nor attached
fails when it holds

- a **quantifier or comparative** (:data:`QUANTIFIER`: *always*, *never*, *every*, *all*,
  *only*, *unique*, *most*, *none*, *cannot*, *impossible*, *faster*, *slower*, *fewer*,
  *guarantees*): a statement about a whole domain or a comparison, which a claim must back;
- an **attribution** (:data:`ATTRIBUTION`: "X uses", "X reports", "reported to", "as Y
  says", "a common statement", "most code"): a fact about another work or system, which a
  claim with its source must back;

unless the word sits inside a match of :data:`ALLOWED_WORDS`, the reviewed list of phrases
that state nothing about the mathematics or another work (each with its reason and an
example the tests run both ways).

Nothing is needed in code spans and fenced code, link targets, link texts that are
citation keys (``[vaswani2017](bibliography.md#vaswani2017)``), headings and HTML comments,
nor in ``docs/bibliography.md`` (the list of sources). Placeholders must name a value of
the page and ``claim-ID`` links and ``report.claim`` calls a registered claim.

Pages are ``docs/*.py`` (jupytext percent files: their Markdown cells) and ``docs/*.md``.
:func:`main` prints ``page:line: text`` for each finding and returns 1 if there is any.

Examples
--------
>>> page = "# %% [markdown]\n# The table has 24 rows, $T_k$ rotates and $x = y$.\n"
>>> [str(f) for f in scan_text(page, "docs/x.py", claim_ids=set())]
['docs/x.py:2: 24 (in "The table has 24 rows, $T_k$ rotates and $x = y$.")', 'docs/x.py:2: $x = y$']
>>> page = "# %% [markdown]\n# $x = y$ for all $x$ [checked](claims.py#claim-c).\n"
>>> scan_text(page, "docs/x.py", claim_ids={"c"})
[]
>>> page = "# %% [markdown]\n# RoPE always extrapolates to any length.\n"
>>> [str(f) for f in scan_text(page, "docs/x.py", claim_ids=set())]
['docs/x.py:2: "always" (in "RoPE always extrapolates to any length.")']
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pe.site import prose

__all__ = [
    "ALLOWED",
    "ALLOWED_WORDS",
    "ATTRIBUTION",
    "QUANTIFIER",
    "Allowed",
    "Block",
    "Finding",
    "blocks",
    "cells",
    "main",
    "pages",
    "scan",
    "scan_text",
]


@dataclass(frozen=True)
class Allowed:
    """An exception: numbers inside a match of ``pattern`` need nothing, for ``reason``.

    ``example`` is a sentence the exception lets pass (the tests check it does, and that
    the sentence fails without the exception).
    """

    pattern: re.Pattern[str]
    reason: str
    example: str


#: The reviewed exceptions; the pattern is matched against a block's text with code spans
#: blanked. Numbers inside a match need nothing.
ALLOWED: tuple[Allowed, ...] = (
    Allowed(
        re.compile(r"\[[^\]]*\b(?:19|20)\d\d[a-z]?\)?\]\(bibliography\.md#[^)]+\)"),
        "the year in the text of a citation link: part of the reference, not a claim",
        "As [Vaswani et al. (2017)](bibliography.md#vaswani2017) write, order matters.",
    ),
    Allowed(
        re.compile(r"\b(?:[Cc]hapter|Table|Section|Figure|Appendix)\s+\d+(?:\.\d+)*"),
        "the number of a chapter of this site or of a table, section or figure of a source",
        "The paper compares the layers in Table 1, as chapter 3 does.",
    ),
    Allowed(
        re.compile(r"\[\d+\.\s[^\]]*\]\([a-z-]+\.py\)"),
        "a chapter's number in a link to its page (the site's navigation)",
        "Start with [1. Why order must be injected](why-order.py).",
    ),
    Allowed(
        re.compile(r"#\d+\b"),
        "the number of an issue or pull request of a public repository",
        "The report GPT-NeoX #1003 shows it.",
    ),
)

#: Quantifiers and comparatives: a sentence holding one states something about a whole
#: domain (every position, all widths) or compares, and needs a claim.
QUANTIFIER = re.compile(
    r"\b(?:always|never|every(?:thing|where|one)?|all|only|unique(?:ly)?|most|none|cannot"
    r"|can't|impossible|faster|slower|fewer|guarantee[sd]?)\b",
    re.IGNORECASE,
)
#: Attributions: what another work, system or the public says or does.
ATTRIBUTION = re.compile(
    r"\b(?:(?!(?:The|A|An|This|That|These|Those|Each|Its|Their|Our|One)\b)[A-Z][\w.'’-]*"
    r"|code|models?|libraries|tutorials|write-ups|implementations|papers?"
    r"|authors)\s+(?:uses?|reports?|reported|says?|writes?|wrote|recommends?)\b(?![-’'])"
    r"|\breported\s+to\b"
    r"|\b(?i:as)\s+[A-Z][^\s,.;]*(?:\s+et\s+al\.)?\s+(?:says?|writes?|puts?\s+it|notes?|reports?)\b"
    r"|\b(?i:(?:a\s+)?common\s+(?:statement|claim|belief|variant|practice)s?)\b"
    r"|\b(?i:(?:most|many)\s+(?:code|models?|libraries|implementations|tutorials|write-ups))\b"
)

#: The reviewed phrases whose quantifier or attribution states nothing that needs a claim;
#: the pattern is matched against a block's words (code spans and formulas blanked).
ALLOWED_WORDS: tuple[Allowed, ...] = (
    Allowed(
        re.compile(
            r"\b(?:Everything|Every\s+(?:error|number|value))\b[^.]*?\bcomputed\b",
            re.IGNORECASE,
        ),
        "how the site is made (every value computed by pe while the page is built): the"
        " build enforces it, it is not a statement about the mathematics",
        "Everything on this page is computed by the package `pe` while the page is built.",
    ),
    Allowed(
        re.compile(
            r"\bevery\s+(?:(?:checked\s+)?claim|page|other\s+number)\b|\bon\s+every\s+page\b",
            re.IGNORECASE,
        ),
        "the site's own claims and pages (every claim registered, every checked one fed a wrong"
        " candidate, every page with the same letters): `pe verify`, the build and this check"
        " enforce it",
        "Every claim named here is verified at build.",
    ),
    Allowed(
        re.compile(r"\bnot\s+\w+\s+at\s+all\b|\bat\s+all\b"),
        '"at all" as emphasis of a negation ("not an encoding at all"): no quantifier',
        "A table that is not a sinusoidal encoding at all gets a reason.",
    ),
    Allowed(
        re.compile(
            r"\b(?:of|over|in|for)\s+all\s+(?:\d+\s+)?(?:columns|rows|pairs|entries)\s+of\b"
        ),
        "a range stated in full where a number is measured over it (all columns of a"
        " table): it names what was measured, the number beside it carries the claim",
        "The largest error over all columns of the table is shown below.",
    ),
)

#: Relation symbols that make an inline formula a statement.
RELATION = re.compile(
    r"[=<>≤≥≈≠→∈∼]|&[lg]t;|\\(?:le|ge|leq|geq|lt|gt|approx|neq|ne|to|in|sim|simeq|propto|equiv"
    r"|mid|rightarrow|mapsto|implies|iff|subset|subseteq|ll|gg|cong)(?![A-Za-z])"
)
DIGIT = re.compile(r"\d")
#: Formulas: display ``$$...$$`` and ``\[...\]``, inline ``\(...\)`` and ``$...$``.
MATH = re.compile(
    r"\$\$(?P<d1>.+?)\$\$|\\\[(?P<d2>.+?)\\\]|\\\((?P<i1>.+?)\\\)|\$(?P<i2>[^\s$][^$]*?)\$",
    re.DOTALL,
)
CODE_SPAN = re.compile(r"(`+)(?:.+?)\1", re.DOTALL)
CHECKED = re.compile(r"\[checked\]\(claims\.py#claim-(?P<id>[A-Za-z0-9_-]+)\)")
LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]*)(?:\s+\"[^\"]*\")?\)")
URL = re.compile(r"<?https?://[^\s>)]+>?")
TAG = re.compile(r"<[^>\n]+>|&#?[A-Za-z0-9]+;")
#: A number in text; one glued to a letter before it is part of a name (float32, GPT-2).
NUMBER = re.compile(r"(?<![\w.$])(?<![A-Za-z]-)\d+(?:[.,]\d+)*")
REPORT_CLAIM = re.compile(r"report\.claim\(\s*[\"'](?P<id>[^\"']+)[\"']")
LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
FENCE = re.compile(r"^\s*(```|~~~)")
CELL = re.compile(r"^# %%(?P<rest>.*)$")


@dataclass(frozen=True)
class Finding:
    """Prose that is neither rendered nor attached, or a name that does not resolve."""

    page: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


@dataclass(frozen=True)
class Cell:
    """A cell of a page: ``markdown`` or ``code``, its lines and their line numbers."""

    kind: str
    lines: tuple[str, ...]
    numbers: tuple[int, ...]


@dataclass
class Block:
    """A block of prose: its lines, their line numbers, and whether it needs checking."""

    lines: list[str] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    kind: str = "prose"  # "prose", "item" (a list item or table row), "display", "heading"

    @property
    def text(self) -> str:
        """The block's lines joined by newlines."""
        return "\n".join(self.lines)

    def line_at(self, offset: int) -> int:
        """The page line of the character at ``offset`` of :attr:`text`."""
        return self.numbers[self.text.count("\n", 0, offset)]


def cells(text: str, suffix: str) -> list[Cell]:
    """The cells of a page: a jupytext percent file (``.py``) or one Markdown cell (``.md``)."""
    rows = text.splitlines()
    if suffix != ".py":
        return [Cell("markdown", tuple(rows), tuple(range(1, len(rows) + 1)))]
    found: list[Cell] = []
    kind, lines, numbers = "", list[str](), list[int]()
    for number, row in enumerate(rows, start=1):
        header = CELL.match(row)
        if header:
            if kind:
                found.append(Cell(kind, tuple(lines), tuple(numbers)))
            kind, lines, numbers = (
                ("markdown" if "[markdown]" in header["rest"] else "code"),
                [],
                [],
            )
            continue
        if kind == "markdown":
            lines.append(row[2:] if row.startswith("# ") else row.removeprefix("#"))
            numbers.append(number)
        elif kind:
            lines.append(row)
            numbers.append(number)
    if kind:
        found.append(Cell(kind, tuple(lines), tuple(numbers)))
    return found


def _is_continuation(block: Block) -> bool:
    first = block.text.lstrip()
    return bool(first) and not first[0].isupper() and not first[0].isdigit()


def _kind(line: str) -> str:
    """What a line of Markdown starts: a fence, a display formula, a heading, a new block
    (a list item or a table row), a blank line, or more of the current block."""
    stripped = line.strip()
    if FENCE.match(line):
        return "fence"
    if stripped.startswith(("$$", r"\[")):
        return "display"
    if HEADING.match(line):
        return "heading"
    if stripped.startswith("|") or LIST_ITEM.match(line):
        return "item"
    return "text" if stripped else "blank"


def _interrupts(line: str, current: Block) -> bool:
    """Whether a list-like ``line`` starts a new block: an ordered marker other than ``1.``
    does not interrupt a paragraph (CommonMark), so ``256) has`` continues the sentence."""
    marker = LIST_ITEM.match(line)
    if marker is None or not current.lines or current.kind != "prose":
        return True
    number = marker.group(0).strip()[:-1]
    return not number.isdigit() or number == "1"


def _split(cell: Cell) -> list[Block]:
    """The blocks of a Markdown cell, fenced code and HTML comments left out."""
    found: list[Block] = []
    current, fenced = Block(), False
    for line, number in zip(cell.lines, cell.numbers, strict=True):
        kind = "fence" if fenced and FENCE.match(line) else ("code" if fenced else _kind(line))
        if current.kind == "display":  # inside a display formula, until its closing line
            kind = "display-line"
        elif kind == "item" and not _interrupts(line, current):
            kind = "text"
        if kind in ("fence", "blank", "display", "heading", "item") and current.lines:
            found.append(current)
            current = Block()
        fenced ^= kind == "fence"
        if kind in ("fence", "blank", "code") or line.strip().startswith("<!--"):
            continue
        if kind == "item":
            line = LIST_ITEM.sub(lambda m: " " * len(m.group(0)), line)  # noqa: PLW2901
        current.lines.append(line)
        current.numbers.append(number)
        if kind in ("display", "heading", "item"):
            current.kind = kind
        closed = kind == "heading" or (
            current.kind == "display"
            and line.strip().endswith(("$$", r"\]"))
            and (kind == "display-line" or len(line.strip()) > 2)
        )
        if closed:
            found.append(current)
            current = Block()
    if current.lines:
        found.append(current)
    return found


def blocks(cell: Cell) -> list[list[Block]]:
    """The units of a Markdown cell: each a list of blocks that count as one for attachment.

    A display formula joins the paragraph before it and a continuation after it.
    """
    units: list[list[Block]] = []
    previous: Block | None = None
    for block in _split(cell):
        after_display = previous is not None and previous.kind == "display"
        joins = (
            bool(units)
            and previous is not None
            and previous.kind != "heading"
            and block.kind != "heading"
            and (block.kind == "display" or (after_display and _is_continuation(block)))
        )
        if joins:
            units[-1].append(block)
        else:
            units.append([block])
        previous = block
    return units


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with every match of ``pattern`` replaced by as many spaces (offsets kept)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _context(text: str, start: int, end: int) -> str:
    left = text.rfind("\n", 0, start) + 1
    right = text.find("\n", end)
    line = text[left : right if right >= 0 else len(text)].strip()
    return line if len(line) <= 60 else line[:57] + "..."


def _items(block: Block) -> list[tuple[int, str]]:
    """The (offset, text) of everything in ``block`` that needs backing."""
    text = _blank(block.text, CODE_SPAN)
    text = _blank(text, CHECKED)
    rendered = prose.PLACEHOLDER.sub(lambda m: "\x00" * len(m.group(0)), text)
    found: list[tuple[int, str]] = []
    for match in MATH.finditer(rendered):
        body = next(group for group in match.groups() if group is not None)
        has_value = "\x00" in body
        if DIGIT.search(body) or (RELATION.search(body) and not has_value):
            source = block.text[match.start() : match.end()]
            found.append((match.start(), " ".join(source.split())))
    words = _blank(rendered, MATH)
    allowed = [(m.start(), m.end()) for rule in ALLOWED for m in rule.pattern.finditer(words)]

    def link(match: re.Match[str]) -> str:
        """The link blanked, its text kept unless it is a citation key."""
        blanked = re.sub(r"[^\n]", " ", match.group(0))
        label = match["text"]
        if match["target"] == f"bibliography.md#{label.strip()}":
            return blanked
        offset = match.start("text") - match.start()
        return blanked[:offset] + label + blanked[offset + len(label) :]

    words = LINK.sub(link, words)
    words = _blank(_blank(words, URL), TAG)
    for match in NUMBER.finditer(words):
        if any(start <= match.start() and match.end() <= end for start, end in allowed):
            continue
        context = _context(block.text, match.start(), match.end())
        found.append((match.start(), f'{match.group(0)} (in "{context}")'))
    return sorted(found + _words(words, block.text))


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around ``start:end``, on one line, at most 70 characters."""
    marks = (text.rfind(". ", 0, start), text.rfind("\n\n", 0, start))
    left = max([i + 2 for i in marks if i >= 0], default=0)
    stop = [i for i in (text.find(". ", end), text.find("\n\n", end)) if i >= 0]
    right = min(stop) + 1 if stop else len(text)
    sentence = " ".join(text[left:right].split())
    if len(sentence) <= 70:
        return sentence
    where = len(" ".join(text[left:start].split()))
    first = max(0, min(where - 30, len(sentence) - 67))
    return ("..." if first else "") + sentence[first : first + 67] + "..."


def _words(words: str, text: str) -> list[tuple[int, str]]:
    """The (offset, text) of each quantifier or attribution in ``words`` (a block's words,
    code, formulas, links' targets and tags blanked) outside :data:`ALLOWED_WORDS`; a
    quantifier inside an attribution ("most code") is reported once, as the attribution."""
    allowed = [(m.start(), m.end()) for rule in ALLOWED_WORDS for m in rule.pattern.finditer(words)]
    attributions = list(ATTRIBUTION.finditer(words))
    spans = [(m.start(), m.end()) for m in attributions]
    quantifiers = [
        m
        for m in QUANTIFIER.finditer(words)
        if not any(start <= m.start() and m.end() <= end for start, end in spans)
    ]
    found: list[tuple[int, str]] = []
    for match in sorted([*attributions, *quantifiers], key=lambda m: m.start()):
        if any(start <= match.start() and match.end() <= end for start, end in allowed):
            continue
        word = " ".join(match.group(0).split())
        context = _sentence(text, match.start(), match.end())
        found.append((match.start(), f'"{word}" (in "{context}")'))
    return found


def _unit_claims(unit: Sequence[Block]) -> list[tuple[int, str]]:
    """The (line, id) of every ``[checked]`` link of a unit."""
    return [
        (block.line_at(match.start()), match["id"])
        for block in unit
        for match in CHECKED.finditer(block.text)
    ]


def scan_text(
    text: str,
    page: str,
    *,
    claim_ids: Iterable[str],
    names: Iterable[str] = (),
) -> list[Finding]:
    """The findings of one page's source ``text`` (``page`` is its path, for the messages).

    ``claim_ids`` are the registered claims, ``names`` the page's placeholder names.
    """
    registered, known = set(claim_ids), set(names)
    found: list[Finding] = []
    page_cells = cells(text, Path(page).suffix)
    for index, cell in enumerate(page_cells):
        if cell.kind == "code":
            for number, line in zip(cell.numbers, cell.lines, strict=True):
                found.extend(
                    Finding(page, number, f"report.claim names no registered claim: {m['id']}")
                    for m in REPORT_CLAIM.finditer(line)
                    if m["id"] not in registered
                )
            continue
        following = page_cells[index + 1] if index + 1 < len(page_cells) else None
        card = (
            following is not None
            and following.kind == "code"
            and any(REPORT_CLAIM.search(line) for line in following.lines)
        )
        units = blocks(cell)
        for position, unit in enumerate(units):
            for block in unit:
                for number, line in zip(block.numbers, block.lines, strict=True):
                    found.extend(
                        Finding(page, number, f"unknown placeholder {{{{ {m['name']} }}}}")
                        for m in prose.PLACEHOLDER.finditer(line)
                        if m["name"] not in known
                    )
            marks = _unit_claims(unit)
            found.extend(
                Finding(page, line, f"[checked] names no registered claim: claim-{claim_id}")
                for line, claim_id in marks
                if claim_id not in registered
            )
            if marks or (card and position == len(units) - 1):
                continue
            for block in unit:
                if block.kind == "heading":
                    continue
                found.extend(
                    Finding(page, block.line_at(offset), item) for offset, item in _items(block)
                )
    return sorted(found, key=lambda f: f.line)


def pages(docs: Path) -> list[Path]:
    """The pages the check reads: ``docs/*.py`` and ``docs/*.md`` but the bibliography."""
    found = [*docs.glob("*.py"), *docs.glob("*.md")]
    return sorted(p for p in found if p.name != "bibliography.md")


def scan(paths: Iterable[Path], *, root: Path | None = None) -> list[Finding]:
    """The findings of every page in ``paths``, against the registry and each page's values.

    ``root`` shortens the page names in the messages (``docs/why-order.py``).
    """
    from pe import claims

    registered = {claim.id for claim in claims.all_claims()}
    found: list[Finding] = []
    for path in paths:
        name = str(path.relative_to(root)) if root is not None else str(path)
        found.extend(
            scan_text(
                path.read_text(encoding="utf-8"),
                name,
                claim_ids=registered,
                names=prose.values(path.stem),
            )
        )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pe.site.page_check [DOCS]``: print each finding; 1 if any, else 0."""
    parser = argparse.ArgumentParser(
        prog="python -m pe.site.page_check",
        description="Check that every number, formula and statement word in the pages' prose"
        " is backed.",
    )
    parser.add_argument("docs", nargs="?", default="docs", type=Path, help="the docs folder")
    args = parser.parse_args(argv)
    docs: Path = args.docs
    if not docs.is_dir():
        parser.error(f"{docs} is not a folder")
    checked = pages(docs)
    findings = scan(checked, root=docs.parent)
    for finding in findings:
        print(finding)
    pages_failing = len({f.page for f in findings})
    print(
        f"{len(findings)} unbacked number(s), formula(s), word(s) or name(s) on {pages_failing} of "
        f"{len(checked)} pages"
        if findings
        else f"all {len(checked)} pages: every number and formula in prose, and every "
        "quantifier and attribution, is rendered or attached to a claim"
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
