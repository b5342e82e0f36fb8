"""The built site read in Chromium as a learner would, at 1280 px and at 390 px, both palettes.

On every page, with every fold opened:

- matrices are drawn with their rows at the top of their brackets (within 2 px: the
  notebook stylesheet must not undo MathJax's box sizing);
- at 1280 px no display formula is wider than the content column; at 390 px a wider one
  scrolls inside its own box (within the screen), marked as scrolling (the stylesheet
  draws the cue) and reachable with the keyboard;
- every table of the Claims page fits its column;
- every image has at least 1.5 pixels per displayed pixel, or is SVG (sharp on a phone).

At 390 px, both palettes, every page: no page scrolls sideways (inline formulas included),
and the smallest text of every figure (stated by the figure, ``data-min-text-px``, in the
image's pixels) is at least 11 px once the image is scaled to its displayed width.

And, read first with every fold closed, at 1280 x 800: every chapter is at most 10 screens
tall; the rotation identity shows at least 4 display formulas; a paragraph carries at most
one claim mark, a claim's card stands once on a page, in a section's closed "How we know"
fold; the encoding and RoPE are offered as code to copy (PyTorch first), shown from the
files the suite tests; a mark links to its entry on the Claims page; downloaded notebooks
hold the build's outputs; search results show no TeX source and no pilcrow. No request
leaves the local server.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from pe import numeric
from pe.site.figures import MIN_TEXT_PX

from .test_browser import (
    PALETTES,
    SCROLL_THROUGH_JS,
    open_context,
    page_url,
    site_pages,
    wait_for_typesetting,
)

WIDTHS = (1280, 390)
SCREEN = 900
SLACK = 1  # px: sub-pixel rounding
MIN_PIXELS_PER_PIXEL = 1.5  # a figure image has this many pixels per displayed pixel, or is SVG

# Every fold opened, the formulas re-measured (the page's own script does it on toggle).
OPEN_FOLDS_JS = """
async () => {
  if (window.peMath) await window.peMath;
  for (const fold of document.querySelectorAll("article details")) fold.open = true;
  await new Promise((done) => setTimeout(done, 100));
  // The page typesets as the reader scrolls and loads its figures lazily: all of it, now.
  if (window.peTypesetAll) await window.peTypesetAll();
  // (Every image, the other palette's and interactive figures' stand-ins too: the checks
  // below switch palette and show those stand-ins without reloading.)
  const images = Array.from(document.images);
  for (const img of images) img.loading = "eager";
  await Promise.all(images.map((img) => img.decode().catch(() => null)));
  await document.fonts.ready;
  window.dispatchEvent(new Event("resize"));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}
"""

# What the checks need: matrices against their brackets, display formulas against the
# column (and, when wider, their scroll box), tables against the column.
LAYOUT_JS = """
() => {
  const column = document.querySelector("article.md-content__inner");
  const col = column.getBoundingClientRect();
  const out = { column: [col.left, col.right], viewport: innerWidth, matrices: [],
                displays: [], tables: [] };
  for (const table of column.querySelectorAll("mjx-mtable")) {
    const row = table.querySelector("mjx-mtr");
    let node = table, bracket = null;
    for (let up = 0; up < 3 && node && !bracket; up++, node = node.parentElement) {
      const before = node.previousElementSibling;
      if (before && before.tagName === "MJX-MO" && before.querySelector("mjx-stretchy-v")) {
        bracket = before;
      }
    }
    if (!row || !bracket || !table.getClientRects().length) continue;
    out.matrices.push(row.getBoundingClientRect().top - bracket.getBoundingClientRect().top);
  }
  for (const box of column.querySelectorAll('mjx-container[display="true"]')) {
    const math = box.querySelector("mjx-math");
    if (!math || !box.getClientRects().length) continue;
    const m = math.getBoundingClientRect(), b = box.getBoundingClientRect();
    const style = getComputedStyle(box);
    out.displays.push({
      left: m.left, right: m.right, boxLeft: b.left, boxRight: b.right,
      scrolls: box.scrollWidth > box.clientWidth + 1,
      overflow: style.overflowX, marked: box.classList.contains("pe-scrolls"),
      focusable: box.tabIndex >= 0,
      tex: (box.getAttribute("aria-label") || box.textContent || "").slice(0, 60),
    });
  }
  out.images = [];
  for (const img of column.querySelectorAll("img")) {
    if (!img.getClientRects().length || !img.clientWidth) continue;
    const src = img.getAttribute("src") || "";
    out.images.push({
      src: src.slice(0, 40), ratio: img.naturalWidth / img.clientWidth,
      svg: /^data:image\\/svg|\\.svg([?#]|$)/.test(src),
    });
  }
  out.code = [];
  for (const pre of column.querySelectorAll("pre")) {
    const scroller = pre.querySelector(":scope > code") || pre;
    if (!pre.getClientRects().length || scroller.scrollWidth <= scroller.clientWidth + 1) continue;
    const cue = getComputedStyle(scroller).backgroundImage.split("linear-gradient").length - 1;
    out.code.push({ cue, text: pre.textContent.trim().slice(0, 40) });
  }
  for (const table of column.querySelectorAll("table.pe-claims")) {
    const r = table.getBoundingClientRect();
    out.tables.push([r.left, r.right]);
  }
  return out;
}
"""


def layout_problems(state: dict[str, Any], width: int) -> list[str]:
    """What does not fit, from ``LAYOUT_JS`` (empty when everything does)."""
    left, right = state["column"]
    problems = [
        f"matrix rows {offset:.0f} px below the top of their bracket"
        for offset in state["matrices"]
        if abs(offset) > 2
    ]
    for display in state["displays"]:
        inside = display["left"] >= left - SLACK and display["right"] <= right + SLACK
        if inside:
            continue
        wide = f"formula {display['right'] - display['left']:.0f} px wide in a {right - left:.0f} px column"
        if width >= 1280:
            problems.append(f"{wide}: {display['tex']!r}")
        elif not (
            display["scrolls"]
            and display["overflow"] in {"auto", "scroll"}
            and display["boxLeft"] >= -SLACK
            and display["boxRight"] <= state["viewport"] + SLACK
            and display["marked"]
            and display["focusable"]
        ):
            problems.append(f"{wide}, not in a marked scroll box: {display['tex']!r}")
    problems += [
        f"image {image['src']!r} has {image['ratio']:.2f} pixels per displayed pixel (< 1.5)"
        for image in state.get("images", [])
        if not image["svg"] and image["ratio"] < MIN_PIXELS_PER_PIXEL
    ]
    problems += [
        f"code block scrolls sideways with no cue at its edge: {block['text']!r}"
        for block in state.get("code", [])
        if block["cue"] < 2
    ]
    problems += [
        f"Claims table spans {t_left:.0f}-{t_right:.0f}, the column {left:.0f}-{right:.0f}"
        for t_left, t_right in state["tables"]
        if t_left < left - SLACK or t_right > right + SLACK
    ]
    return problems


def test_layout_problems_are_found() -> None:
    """The checks can fail: an offset matrix, a formula running out, an unmarked scroll box."""
    column = [300.0, 900.0]
    running = {
        "left": 300.0, "right": 1500.0, "boxLeft": 300.0, "boxRight": 900.0, "scrolls": True,
        "overflow": "auto", "marked": False, "focusable": True, "tex": "x",
    }  # fmt: skip
    state = {
        "column": column, "viewport": 1000, "matrices": [58.0, 0.5], "displays": [running],
        "tables": [],
    }  # fmt: skip
    found = layout_problems(state, 1280)
    assert any("58 px below" in p for p in found)
    assert any("1200 px wide" in p for p in found)
    assert any("not in a marked scroll box" in p for p in layout_problems(state, 390))
    marked = {**running, "marked": True}
    assert layout_problems({**state, "matrices": [], "displays": [marked]}, 390) == []
    wide_table = {**state, "matrices": [], "displays": [], "tables": [[300.0, 1492.0]]}
    assert layout_problems(wide_table, 1280) != []
    blurry = {"src": "data:image/png", "ratio": 1.1, "svg": False}
    sharp = [{**blurry, "ratio": 2.0}, {**blurry, "svg": True}]
    assert layout_problems({**wide_table, "tables": [], "images": [blurry]}, 390) != []
    assert layout_problems({**wide_table, "tables": [], "images": sharp}, 390) == []
    bare = {"cue": 0, "text": "table = numeric.sinusoidal(16384, 1024)"}
    assert layout_problems({**wide_table, "tables": [], "code": [bare]}, 390) != []
    cued = {**bare, "cue": 2}
    assert layout_problems({**wide_table, "tables": [], "code": [cued]}, 390) == []


def _scheme(page: Page, palette: str) -> None:
    """Show the page in ``palette`` as the theme's toggle does (its colour-scheme attribute),
    without reloading it: the folds stay open and the formulas typeset."""
    page.evaluate(
        "scheme => { document.body.setAttribute('data-md-color-scheme', scheme);"
        " window.dispatchEvent(new Event('resize')); }",
        PALETTES[palette],
    )
    page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")


def each_page(page: Page, server: str, built_site: Path) -> Iterator[str]:
    """Open every page of the site in ``page`` in turn, typeset, every fold open; yield
    its path in the build."""
    for relative in site_pages(built_site):
        page.goto(server + page_url(relative), wait_until="load")
        wait_for_typesetting(page)
        page.evaluate(OPEN_FOLDS_JS)
        yield relative


@pytest.mark.parametrize("width", WIDTHS)
def test_math_and_tables_fit_the_column(
    browser: Browser, server: str, built_site: Path, width: int
) -> None:
    """Every page at ``width``, in the light palette and then, without reloading, the dark."""
    context, traffic = open_context(browser, server, "light")
    report: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": SCREEN})
        for relative in each_page(page, server, built_site):
            for palette in ("light", "dark"):
                _scheme(page, palette)
                found = layout_problems(page.evaluate(LAYOUT_JS), width)
                report.update({f"{relative} ({palette})": found[:5]} if found else {})
            _scheme(page, "light")
        assert traffic.problems() == []
    finally:
        context.close()
    assert report == {}, "\n".join(f"{p}: {'; '.join(v)}" for p, v in report.items())


PHONE = 390  # px: the narrow width of the reading tests

# At phone width: how wide the document is, and each figure image as displayed (the static
# stand-ins of interactive figures shown too: print and readers without JavaScript see them).
PHONE_JS = """
() => {
  const live = [];
  for (const text of document.querySelectorAll(".pe-interactive.pe-js svg.pe-plot text")) {
    const scale = text.ownerSVGElement.getScreenCTM().a;
    live.push({ text: text.textContent.slice(0, 30),
                shown: parseFloat(getComputedStyle(text).fontSize) * scale });
  }
  for (const box of document.querySelectorAll(".pe-interactive.pe-js")) {
    box.classList.remove("pe-js");
  }
  const figures = [];
  for (const img of document.querySelectorAll("figure.pe-figure img")) {
    if (!img.getClientRects().length || !img.clientWidth) continue;
    figures.push({
      alt: (img.getAttribute("alt") || "").slice(0, 50), stated: img.dataset.minTextPx ?? null,
      shown: img.clientWidth, natural: img.naturalWidth,
    });
  }
  let widest = null;
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.right > innerWidth + 1 && (!widest || r.right > widest.right)) {
      widest = { right: r.right, what: el.tagName.toLowerCase() + " " +
                 (el.textContent || "").trim().slice(0, 40) };
    }
  }
  return { scroll: document.documentElement.scrollWidth, viewport: innerWidth, figures, live,
           widest };
}
"""


def phone_problems(state: dict[str, Any]) -> list[str]:
    """What a phone reader cannot read, from ``PHONE_JS``: a page that scrolls sideways,
    a figure whose smallest text shows below :data:`MIN_TEXT_PX` or does not state it."""
    problems = []
    if state["scroll"] > state["viewport"] + SLACK:
        widest = state["widest"] or {"what": "?"}
        problems.append(
            f"the page is {state['scroll']} px wide on a {state['viewport']} px screen "
            f"(widest: {widest['what']!r})"
        )
    for figure in state["figures"]:
        if figure["stated"] is None:
            problems.append(f"figure {figure['alt']!r} does not state its smallest text")
            continue
        shown = float(figure["stated"]) * figure["shown"] / figure["natural"]
        if shown < MIN_TEXT_PX:
            problems.append(f"figure {figure['alt']!r}: smallest text {shown:.1f} px")
    for label in state.get("live", []):
        if label["shown"] < MIN_TEXT_PX:
            problems.append(f"interactive label {label['text']!r}: {label['shown']:.1f} px")
    return problems


def test_phone_problems_are_found() -> None:
    """The checks can fail: a page wider than the screen, small figure text, none stated,
    small text in an interactive figure."""
    figure = {"alt": "a plot", "stated": "33.6", "shown": 318, "natural": 900}
    fine = {"scroll": 390, "viewport": 390, "figures": [figure], "widest": None}
    assert phone_problems(fine) == []
    wide = {**fine, "scroll": 468, "widest": {"right": 468, "what": "pre x"}}
    assert any("468 px wide" in p for p in phone_problems(wide))
    small = {**fine, "figures": [{**figure, "natural": 1600}]}
    assert any("smallest text 6.7 px" in p for p in phone_problems(small))
    unstated = {**fine, "figures": [{**figure, "stated": None}]}
    assert any("does not state" in p for p in phone_problems(unstated))
    label = {"text": "pair 0: 1.000 rad", "shown": 12.5}
    assert phone_problems({**fine, "live": [label]}) == []
    tiny = {**fine, "live": [{**label, "shown": 7.6}]}
    assert any("'pair 0: 1.000 rad': 7.6 px" in p for p in phone_problems(tiny))


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_every_page_reads_on_a_phone(
    browser: Browser, server: str, built_site: Path, palette: str
) -> None:
    """At 390 px, every fold open: no page scrolls sideways and every figure's smallest
    text shows at 11 px or more (the image drawn for ``palette``, and the labels the
    interactive figures draw)."""
    context, traffic = open_context(browser, server, palette)
    report: dict[str, list[str]] = {}
    figures = labels = 0
    try:
        page = context.new_page()
        page.set_viewport_size({"width": PHONE, "height": SCREEN})
        for relative in each_page(page, server, built_site):
            state = page.evaluate(PHONE_JS)
            figures += len(state["figures"])
            labels += len(state["live"])
            found = phone_problems(state)
            report.update({relative: found[:5]} if found else {})
        assert traffic.problems() == []
    finally:
        context.close()
    assert figures >= 20  # the chapters' figures were found and measured
    assert labels >= 7  # and the labels of the interactive ones (4 circles, 3 axis labels)
    assert report == {}, "\n".join(f"{p}: {'; '.join(v)}" for p, v in report.items())


@contextlib.contextmanager
def opened(browser: Browser, server: str, path: str) -> Iterator[Page]:
    """``path`` of the site in a fresh light-palette context, typeset; on leaving, the
    context closes and no request may have failed or left the local server."""
    context, traffic = open_context(browser, server, "light")
    try:
        page = context.new_page()
        page.goto(server + path, wait_until="load")
        wait_for_typesetting(page)
        page.evaluate("async () => { if (window.peMath) await window.peMath; }")
        yield page
        assert traffic.problems() == []
    finally:
        context.close()


#: Read first: the viewport of the screen count, and the most screens a chapter may take.
FIRST_READ: ViewportSize = {"width": 1280, "height": 800}
MAX_FIRST_READ_SCREENS = 10
#: The display formulas the rotation identity shows with every fold closed, at least.
MIN_ROTATION_DISPLAYS = 4

# Every image loaded at its size (the lazy ones too), the fonts in.
LOAD_IMAGES_JS = """
async () => {
  const images = Array.from(document.images);
  for (const img of images) img.loading = "eager";
  await Promise.all(images.map((img) => img.decode().catch(() => null)));
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}
"""

# Folds closed: the page's height, and the display formulas outside every closed fold.
FIRST_READ_JS = """
() => {
  const shown = (el) => {
    for (let d = el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      const summary = d.querySelector(":scope > summary");
      if (!d.open && !(summary && summary.contains(el))) return false;
    }
    return el.getClientRects().length > 0;
  };
  const displays = [...document.querySelectorAll('article mjx-container[display="true"]')];
  return { height: document.documentElement.scrollHeight,
           open: [...document.querySelectorAll("article details")].filter(d => d.open).length,
           displays: displays.filter(shown).length };
}
"""


def chapter_paths(root: Path) -> list[str]:
    """The site paths of the chapters: every notebook page but the Claims index, and the
    Markdown pages a reader reads through (home, testing, corrections)."""
    notebooks = [p.stem for p in (root / "docs").glob("*.py") if p.stem != "claims"]
    return ["", *sorted(f"{stem}/" for stem in [*notebooks, "testing", "corrections"])]


def test_every_chapter_reads_in_ten_screens_folds_closed(
    browser: Browser, server: str, root: Path
) -> None:
    """At 1280 x 800 with every fold closed, each chapter is at most 10 screens tall, and the
    rotation identity shows its mathematics: at least 4 display formulas outside the folds."""
    context, traffic = open_context(browser, server, "light")
    heights: dict[str, float] = {}
    try:
        page = context.new_page()
        page.set_viewport_size(FIRST_READ)
        for path in chapter_paths(root):
            # networkidle: the next page must not abort a request of this one (the favicon)
            page.goto(server + path, wait_until="networkidle")
            wait_for_typesetting(page)
            page.evaluate(SCROLL_THROUGH_JS)  # read through: typeset as it scrolls
            page.evaluate(LOAD_IMAGES_JS)  # and every figure in place, as a reader sees it
            state = page.evaluate(FIRST_READ_JS)
            assert state["open"] == 0, path
            heights[path or "home"] = state["height"] / FIRST_READ["height"]
            if path == "rotation-identity/":
                assert state["displays"] >= MIN_ROTATION_DISPLAYS, state
            page.wait_for_load_state("networkidle")  # what typesetting fetched, before leaving
        assert traffic.problems() == []
    finally:
        context.close()
    assert len(heights) >= 12
    too_long = {p: f"{h:.1f} screens" for p, h in heights.items() if h > MAX_FIRST_READ_SCREENS}
    assert too_long == {}


class _Reading(HTMLParser):
    """The claim marks of each block of prose (paragraph, list item, table cell, caption),
    the ids of the claim cards and whether each card stands in a "How we know" fold."""

    BLOCKS = frozenset({"p", "li", "td", "th", "dt", "dd", "figcaption"})
    VOID = frozenset({"br", "img", "input", "hr", "meta", "link", "col", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []
        self.marks: list[int] = []  # per open block: its marks so far
        self.crowded: list[str] = []
        self.cards: list[tuple[str, bool]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        css = found.get("class") or ""
        if tag in self.BLOCKS:
            self.marks.append(0)
            self.text.append("")
        if tag == "a" and "pe-mark" in css.split() and self.marks:
            self.marks[-1] += 1
        if tag == "div" and "pe-claim" in css.split():
            folded = any(t == "details" and "pe-how" in c.split() for t, c in self.stack)
            self.cards.append((found.get("id") or "", folded))
        if tag not in self.VOID:
            self.stack.append((tag, css))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag in self.BLOCKS and self.marks:
                count, text = self.marks.pop(), self.text.pop()
                if count > 1:
                    self.crowded.append(f"{count} marks in {text.strip()[:70]!r}")
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.text:
            self.text[-1] += data


def reading_problems(page_html: str) -> list[str]:
    """Paragraphs with more than one claim mark; claim cards repeated on the page or
    standing outside a "How we know" fold."""
    reader = _Reading()
    reader.feed(page_html)
    reader.close()
    ids = [card_id for card_id, _ in reader.cards]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    return [
        *reader.crowded,
        *(f"card {i} repeated" for i in repeated),
        *(f"card {i} outside a How-we-know fold" for i, folded in reader.cards if not folded),
    ]


def test_reading_problems_are_found() -> None:
    """The checker can fail: two marks in a paragraph, a card twice, a card left bare."""
    mark = '<a class="pe-mark pe-checked" href="../claims/#claim-x">checked</a>'
    card = f'<div class="pe-claim" id="claim-x"><p class="pe-claim-head">{mark}</p></div>'
    fold = f'<details class="pe-fold pe-how"><summary>How we know</summary>{card}</details>'
    assert reading_problems(f"<p>One {mark}.</p><ul><li>two {mark}</li></ul>{fold}") == []
    assert reading_problems(f"<p>Two {mark} and {mark}.</p>") == [
        "2 marks in 'Two checked and checked.'"
    ]
    assert reading_problems(fold + fold) == ["card claim-x repeated"]
    assert reading_problems(card) == ["card claim-x outside a How-we-know fold"]


def test_pages_read_with_one_mark_per_paragraph_and_cards_once(
    built_site: Path, root: Path
) -> None:
    """In every chapter a block of prose carries at most one mark, and each claim's card
    stands once, in the closed "How we know" fold of its section (an exercise's answer
    names its claim with a mark instead of repeating the card)."""
    report = {}
    for path in chapter_paths(root):
        page_html = (built_site / path / "index.html").read_text(encoding="utf-8")
        found = reading_problems(page_html)
        report.update({path or "home": found[:4]} if found else {})
    assert report == {}


#: Where the code to copy is offered: the page, its tabs, the files shown in them (the PyTorch
#: and JAX files are tested by tests/test_examples.py), the NumPy function and its claim.
CODE_TO_COPY = (
    (
        "sinusoidal-encoding",
        "encoding",
        ("pytorch_sinusoidal.py", "jax_sinusoidal.py"),
        "def sinusoidal_table(",
        "from-scratch-table",
    ),
    ("rope", "rope", ("pytorch_rope.py", "jax_rope.py"), "def rope(", "from-scratch-rope"),
)
CODE_BLOCK = re.compile(
    r'<pre class="pe-source"><code class="language-python">(.*?)</code></pre>', re.DOTALL
)


def test_code_to_copy_is_shown_from_the_tested_files(built_site: Path, root: Path) -> None:
    """The encoding and RoPE pages offer tabs, PyTorch first, then NumPy, then JAX, each the
    very text of its file (not retyped), with the NumPy version's claim on the page and the
    tests of the PyTorch and JAX files named in their tabs."""
    for page, name, files, numpy_def, claim_id in CODE_TO_COPY:
        page_html = (built_site / page / "index.html").read_text(encoding="utf-8")
        tabs = page_html.split(f'id="pe-tabs-{name}-1"', 1)[1].split("</div></div>", 1)[0]
        labels = re.findall(r'<label for="pe-tabs-[a-z]+-\d">([^<]+)</label>', tabs)
        assert labels == ["PyTorch", "NumPy", "JAX"], page
        blocks = [
            html.unescape(b) for b in CODE_BLOCK.findall(page_html.split(f"pe-tabs-{name}-1", 1)[1])
        ]
        pytorch, numpy_block, jax = blocks[:3]
        assert pytorch == (root / "docs" / "examples" / files[0]).read_text(encoding="utf-8")
        assert jax == (root / "docs" / "examples" / files[1]).read_text(encoding="utf-8")
        assert "(nn.Module)" in pytorch
        assert numpy_block.startswith("import numpy as np\n"), page
        assert numpy_def in numpy_block, page
        assert f'id="claim-{claim_id}"' in page_html
        # in each framework's tab, the tests of its file, read from the test module
        tested = re.findall(r'<p class="pe-tested">(.*?)</p>', page_html)
        assert len(tested) == len(files), page
        for line, framework in zip(tested, ("pytorch", "jax"), strict=True):
            assert f"<code>test_{framework}_" in line, (page, line)


def test_wrong_candidates_read_as_expected_rejections(built_site: Path) -> None:
    html = (built_site / "rotation-identity" / "index.html").read_text(encoding="utf-8")
    assert "rejected, as expected" in html
    assert "pe-fail" not in html  # the red badge of the old cards
    assert "Show the SymPy proof, " in html


def _snippet_problems(text: str) -> list[str]:
    return [f"{mark!r} in {text[:80]!r}" for mark in ("$", "\\", "¶") if mark in text]


def test_the_search_index_holds_no_tex_and_no_pilcrow(built_site: Path) -> None:
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    problems = [
        f"{doc['location']}: {problem}"
        for doc in index["docs"]
        for problem in _snippet_problems(doc["title"] + " " + doc["text"])
    ]
    assert problems == [], "\n".join(problems[:10])
    assert _snippet_problems(r"wavelength $\lambda_i$ ¶") != []
    texts = " ".join(doc["text"] for doc in index["docs"])
    assert "ω_i" in texts  # the formulas are still there, in plain text


def test_search_results_show_no_tex(
    browser: Browser,
    server: str,
) -> None:
    with opened(browser, server, "") as page:
        search = page.locator("input.md-search__input")
        search.click()
        search.press_sequentially("wavelength", delay=20)
        results = page.locator(".md-search-result__item")
        results.first.wait_for(state="visible", timeout=20_000)
        shown = page.locator(".md-search-result").inner_text()
    assert "wavelength" in shown.lower()
    assert _snippet_problems(shown) == []


def notebook_download() -> Any:
    """``docs/_hooks/notebook_download.py``, loaded by path as MkDocs loads it."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "docs" / "_hooks" / "notebook_download.py"
    spec = importlib.util.spec_from_file_location("notebook_download", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_notebook_links_point_to_the_site() -> None:
    """A downloaded notebook's links to other pages name the built site's pages."""
    links = notebook_download().site_links
    text = "[T](rotation-identity.py#proof), [checked](claims.py#claim-x), [home](index.md), [w](https://a.b/c.py)"
    assert links(text, "https://x.org/pe") == (
        "[T](https://x.org/pe/rotation-identity/#proof), "
        "[checked](https://x.org/pe/claims/#claim-x), [home](https://x.org/pe/), [w](https://a.b/c.py)"
    )


def last_line(source: str) -> str:
    """The last line of a cell's code that is not blank or a comment (what it displays)."""
    lines = [line for line in source.splitlines() if line.strip() and not line.startswith("#")]
    return lines[-1].strip() if lines else ""


def test_each_chapter_offers_its_notebook(built_site: Path, root: Path) -> None:
    """Every notebook page links to its ``.ipynb``: valid, every input shown, the same cells
    as its jupytext source (the Markdown with its placeholders filled and its links to other
    pages pointing to the site, never to a ``.py`` file), and the outputs of the build's run
    (the figures, tables and cards the page shows, as HTML, their links absolute)."""
    import jupytext
    import nbformat

    from pe.site import prose

    downloads = notebook_download()
    site_links, page_link = downloads.site_links, downloads.PAGE_LINK

    site = "http://127.0.0.1:8000/"

    pages = sorted(p for p in (root / "docs").glob("*.py"))
    assert len(pages) >= 6
    for source in pages:
        folder = built_site / source.stem
        notebook = jupytext.read(folder / f"{source.stem}.ipynb")
        nbformat.validate(notebook)
        expected = jupytext.read(source, fmt="py:percent")
        assert [c.source for c in notebook.cells] == [
            site_links(prose.fill(c.source, source.stem), site)
            if c.cell_type == "markdown"
            else c.source
            for c in expected.cells
        ]
        markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
        assert page_link.search(markdown) is None, source.stem
        code = [c for c in notebook.cells if c.cell_type == "code"]
        shown = [c for c in code if not last_line(c.source).startswith(("from ", "import "))]
        assert shown, source.stem
        for cell in shown:  # every call shows what it computed, in HTML
            htmls = [
                o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})
            ]
            assert htmls, f"{source.stem}: no output for {cell.source[:50]!r}"
            assert not any('href="../' in h or 'href="bibliography.md' in h for h in htmls)
        assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
        assert all("hide_input" not in c.metadata.get("tags", []) for c in notebook.cells)
        html_text = (folder / "index.html").read_text(encoding="utf-8")
        assert f'href="{source.stem}.ipynb" download' in html_text, source.stem


def test_the_download_line_links_the_repository_when_the_site_names_it() -> None:
    """With ``repo_url`` (``PE_REPO_URL``) the line under the title links the repository;
    without it, it names it in words; a page rendered without being executed fails."""
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    downloads = notebook_download()
    page = SimpleNamespace(file=SimpleNamespace(src_uri="rope.py", abs_src_path="/x/rope.py"))
    body = "<h1>RoPE</h1><p>text</p>"
    downloads._LAST_RUN[:] = [object()]
    linked = downloads.on_page_content(body, page=page, config={"repo_url": "https://x.org/pe"})
    assert '<a href="https://x.org/pe">the repository</a>' in linked
    assert linked.startswith('<h1>RoPE</h1><p class="pe-download"><a href="rope.ipynb" download>')
    downloads._LAST_RUN[:] = [object()]
    plain = downloads.on_page_content(body, page=page, config={"repo_url": None})
    assert "a clone of the repository" in plain
    assert "x.org" not in plain
    with pytest.raises(PluginError, match="without being executed"):
        downloads.on_page_content(body, page=page, config={})


def test_output_links_point_to_the_site() -> None:
    links = notebook_download().output_links
    out = links(
        '<a href="../claims/#claim-x">c</a> <img src="../assets/f.png"> <a href="https://a.b/">w</a>',
        "https://x.org/pe/rope/",
    )
    assert out == (
        '<a href="https://x.org/pe/claims/#claim-x">c</a> <img src="https://x.org/pe/assets/f.png"> '
        '<a href="https://a.b/">w</a>'
    )


def _hover_cell(page: Page, p: int, j: int) -> None:
    """Put the pointer on the middle of the table's cell (p, j): sine columns (even j) on
    the left half of the map, cosine columns on the right."""
    block = page.locator('[data-pe-widget="table"]')
    box = block.locator("image.pe-map").bounding_box()
    assert box is not None
    n = int(block.get_attribute("data-positions") or 0)
    d = int(_readout(page, "table")["d"])
    column = j // 2 + (d // 2 if j % 2 else 0)
    page.mouse.move(
        box["x"] + (column + 0.5) * box["width"] / d, box["y"] + (p + 0.5) * box["height"] / n
    )


def _readout(page: Page, widget: str) -> dict[str, Any]:
    values = page.locator(f'[data-pe-widget="{widget}"] .pe-readout').get_attribute("data-values")
    assert values, f"{widget}: no read-out"
    result: dict[str, Any] = json.loads(values)
    return result


def _press(page: Page, widget: str, slider: str, key: str, times: int = 1) -> None:
    """Move a slider with the keyboard, as a reader without a mouse would."""
    control = page.locator(f'[data-pe-widget="{widget}"] input[name="{slider}"]')
    control.focus()
    for _ in range(times):
        control.press(key)


def _check_rotation(values: dict[str, Any]) -> None:
    p, k, d, base = values["p"], values["k"], values["d"], values["base"]
    table = numeric.sinusoidal(p + k + 1, d, base=base)
    shown = len(values["start"])
    np.testing.assert_allclose(values["start"], table[p, :shown], atol=1e-9)
    np.testing.assert_allclose(values["end"], table[p + k, :shown], atol=1e-9)
    turns = np.mod(k * numeric.frequencies(d, base=base)[: shown // 2], 2 * np.pi)
    np.testing.assert_allclose(values["turns"], turns, atol=1e-9)


def test_interactive_figures_follow_their_sliders(
    browser: Browser, server: str, built_site: Path
) -> None:
    """Each interactive figure changes when a slider moves (with the keyboard), to the
    values pe computes: the rotation explorer, the table read-out and the dot product."""
    context, traffic = open_context(browser, server, "light")
    try:
        page = context.new_page()
        page.goto(server + "rotation-identity/", wait_until="load")
        wait_for_typesetting(page)
        before = _readout(page, "rotation")
        _check_rotation(before)
        _press(page, "rotation", "p", "ArrowRight", 4)
        after = _readout(page, "rotation")
        assert after["p"] == before["p"] + 4
        assert after["start"] != before["start"]
        np.testing.assert_allclose(after["turns"], before["turns"], atol=1e-9)  # same T_k
        _check_rotation(after)
        _press(page, "rotation", "d", "ArrowRight")
        _press(page, "rotation", "k", "ArrowRight", 3)
        moved = _readout(page, "rotation")
        assert (moved["d"], moved["k"]) == (after["d"] + 8, after["k"] + 3)
        _check_rotation(moved)

        page.goto(server + "sinusoidal-encoding/", wait_until="load")
        wait_for_typesetting(page)
        block = page.locator('[data-pe-widget="table"]')
        for d_steps in (0, 1):
            _press(page, "table", "d", "ArrowRight", d_steps)
            _hover_cell(page, 7, 5)
            cell = _readout(page, "table")
            assert (cell["p"], cell["j"]) == (7, 5)
            expected = numeric.sinusoidal(8, cell["d"], base=cell["base"])[7, 5]
            assert abs(cell["value"] - expected) < 1e-9
        block.locator("svg.pe-plot").press("ArrowDown")
        assert _readout(page, "table")["p"] == 8

        page.goto(server + "implications/", wait_until="load")
        wait_for_typesetting(page)
        for slider, key in (("k", "ArrowRight"), ("d", "ArrowLeft"), ("base", "ArrowRight")):
            before = _readout(page, "dot")
            _press(page, "dot", slider, key, 3)
            after = _readout(page, "dot")
            assert after[slider] != before[slider]
            table = numeric.sinusoidal(after["k"] + 1, after["d"], base=after["base"])
            assert abs(after["value"] - float(table[0] @ table[after["k"]])) < 1e-9
            ks = np.arange(len(after["curve"]))
            omega = numeric.frequencies(after["d"], base=after["base"])
            curve = np.cos(np.outer(ks, omega)).sum(axis=1)
            np.testing.assert_allclose(after["curve"], curve, atol=1e-9)
        assert traffic.problems() == []
    finally:
        context.close()
