"""The built site in a real browser (Debian's Chromium driven by Playwright), fully offline.

Every page of the built site (found by walking the build, not listed here) is opened in the
light and in the dark palette, with every request to a host other than the local test
server aborted and recorded. On each page: every formula (typeset by MathJax at build) is
put in place as the reader comes to it (no error node, no raw TeX left in the text), every image has loaded and has alt text, each figure
shows the image drawn for the palette and its ink contrasts with the page, the console
stays clean and no request fails. A full-page screenshot of each page in each palette is
saved under ``test-artifacts/browser/`` (ignored by git).

The server and the browser are fixtures of ``tests/site/conftest.py``. Without Chromium
these tests skip, except when the environment variable ``CI`` is set:
then a missing browser is a failure (``.ci/run`` installs it).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

from pe.site import figures

from ..conftest import ROOT

ARTIFACTS = ROOT / "test-artifacts" / "browser"
BUDGET = 2_500_000  # bytes a page may download with everything it loads (fonts included)
PALETTES = {"light": "default", "dark": "slate"}  # ours -> Material's data-md-color-scheme

# TeX that MathJax should have consumed: delimiters and environments left in the text.
RAW_TEX = re.compile(
    r"\\\(|\\\)|\\\[|\\\]|\\begin\{|\$\$|\$[^\s$][^$\n]*?\$"  # \( \) \[ \] \begin{ $$ $..$
)
# Math sources in the static HTML (outside code): delimiters MathJax is configured for.
MATH_SOURCE = re.compile(r"\\\(|\\\[|\\begin\{|\$[^\s$][^$\n]*?\$|\$\$")
SKIP_TAGS = {"code", "pre", "script", "style", "textarea"}


@dataclass
class Traffic:
    """What the browser did besides rendering: console errors, failures, blocked hosts."""

    origin: str
    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"failed request: {m}" for m in self.failed]
            + [f"request to another host (blocked): {m}" for m in self.external]
        )

    def clear(self) -> None:
        self.console_errors.clear()
        self.failed.clear()
        self.external.clear()


def _is_local(url: str, origin: str) -> bool:
    return url.startswith((origin, "data:", "blob:"))


def open_context(
    browser: Browser, origin: str, palette: str, width: int = 1280
) -> tuple[BrowserContext, Traffic]:
    """A fresh context (no stored palette) preferring ``palette``, ``width`` CSS pixels wide
    (900 tall), with traffic recorded.

    Every request that does not go to ``origin`` is aborted and recorded.
    """
    context = browser.new_context(
        color_scheme="dark" if palette == "dark" else "light",
        viewport={"width": width, "height": 900},
        service_workers="block",
    )
    traffic = Traffic(origin)

    def block(route: Route) -> None:
        if route.request.url not in traffic.external:
            traffic.external.append(route.request.url)
        route.abort("blockedbyclient")

    context.route(re.compile(rf"^(?!{re.escape(origin)}|data:|blob:)"), block)

    def on_request(request: Any) -> None:  # catches anything routing did not see
        if not _is_local(request.url, origin) and request.url not in traffic.external:
            traffic.external.append(request.url)

    def on_failed(request: Any) -> None:
        # net::ERR_ABORTED is the browser cancelling a request because its page went away
        # (a lazy figure still loading when the test navigates on): not a fault of the site.
        # A missing file answers HTTP 404 (on_response); a blocked host is routed above.
        if _is_local(request.url, origin) and request.failure != "net::ERR_ABORTED":
            traffic.failed.append(f"{request.url} ({request.failure})")

    def on_response(response: Any) -> None:
        if response.status >= 400:
            traffic.failed.append(f"{response.url} (HTTP {response.status})")

    def on_page(page: Page) -> None:
        page.on(
            "console",
            lambda msg: traffic.console_errors.append(msg.text) if msg.type == "error" else None,
        )
        page.on("pageerror", lambda error: traffic.console_errors.append(str(error)))

    context.on("request", on_request)
    context.on("requestfailed", on_failed)
    context.on("response", on_response)
    context.on("page", on_page)
    return context, traffic


# --------------------------------------------------------------------------------------------
# The pages, from the build itself.


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the built site, relative to it (``index.html``, ``404.html``, ...)."""
    return sorted(
        html.relative_to(site).as_posix()
        for html in site.rglob("*.html")
        if not html.relative_to(site).as_posix().startswith("assets/")
    )


def page_url(relative: str) -> str:
    """The URL path of a page file: ``rotation-identity/index.html`` -> ``rotation-identity/``."""
    return relative.removesuffix("index.html")


class _MathSourceFinder(HTMLParser):
    """Does the static page hold TeX outside code? (then the browser must typeset it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.has_math = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP_TAGS:
            self.skipping += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_TAGS and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and MATH_SOURCE.search(data):
            self.has_math = True


def has_math_source(html_file: Path) -> bool:
    finder = _MathSourceFinder()
    finder.feed(html_file.read_text(encoding="utf-8"))
    return finder.has_math


# Everything the checks need from a rendered page, in one round trip. Text inside a closed
# fold (its summary aside) is not read: MathJax typesets a fold when it opens. For each
# closed fold holding TeX: was it left untypeset, as it should be until it opens?
PAGE_STATE_JS = """
async () => {
  const settle = async () => {
    for (let last = null; window.peMath && last !== window.peMath;) {
      last = window.peMath;
      await last;
      await new Promise((done) => setTimeout(done, 50));  // a fold's toggle event, if any
    }
  };
  await settle();
  const closed = (el) => {
    for (let up = el; up; up = up.parentElement) {
      if (up.tagName === "DETAILS" && !up.open && !(el.closest("summary")
          && el.closest("summary").parentElement === up)) return true;
    }
    return false;
  };
  const skip = new Set(["CODE", "PRE", "SCRIPT", "STYLE", "TEXTAREA", "MJX-CONTAINER"]);
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let skipped = false;
    for (let el = node.parentElement; el; el = el.parentElement) {
      if (skip.has(el.tagName.toUpperCase())) { skipped = true; break; }
    }
    if (!skipped && !closed(node.parentElement) && node.textContent.trim()) {
      texts.push(node.textContent);
    }
  }
  const folds = { deferred: 0, typesetClosed: [] };
  for (const fold of document.querySelectorAll("details:not([open])")) {
    const inside = Array.from(fold.children).filter((c) => c.tagName !== "SUMMARY");
    if (inside.some((c) => c.querySelector("mjx-container"))) {
      folds.typesetClosed.push(fold.querySelector("summary")?.textContent.slice(0, 60) ?? "?");
    } else if (inside.some((c) => ["\\\\(", "\\\\[", "$"].some((d) => c.textContent.includes(d)))) {
      folds.deferred++;
    }
  }
  const fetched = new Set(performance.getEntriesByType("resource").map((e) => e.name));
  const figures = Array.from(document.querySelectorAll("figure.pe-figure img")).map((img) => ({
    src: img.getAttribute("src").slice(0, 60),
    url: img.src,
    attributes: ["width", "height", "loading", "decoding"].map((a) => img.getAttribute(a)),
    natural: [img.naturalWidth, img.naturalHeight],
    below: img.closest("details:not([open])") ? null
      : img.getBoundingClientRect().top - innerHeight,
    fetched: fetched.has(img.src),
  }));
  const entries = [...performance.getEntriesByType("navigation"),
                   ...performance.getEntriesByType("resource")];
  return {
    bytes: entries.reduce((sum, e) => sum + (e.decodedBodySize || 0), 0),
    heaviest: entries.map((e) => [e.decodedBodySize || 0, e.name])
      .sort((a, b) => b[0] - a[0]).slice(0, 5),
    requested: entries.map((e) => e.name),
    scheme: document.body.getAttribute("data-md-color-scheme"),
    math: document.querySelectorAll("mjx-container").length,
    errors: Array.from(document.querySelectorAll("mjx-merror")).map((e) => e.textContent),
    text: texts.join("\\n"),
    folds: folds,
    figures: figures,
    background: getComputedStyle(document.body).backgroundColor,
  };
}
"""

# The page scrolled through a screen at a time, as a reader would, waiting at each screen
# for what the page's script typesets there; then back to the top.
SCROLL_THROUGH_JS = """
async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const settle = async () => {
    for (let last = null; window.peMath && last !== window.peMath;) {
      last = window.peMath;
      await last;
      await frame();
    }
  };
  for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
    scrollTo(0, y);
    await frame();
    await frame();
    await settle();
  }
  scrollTo(0, 0);
  await frame();
}
"""

# Every fold of the article opened (the page's script typesets each as it opens), then
# every displayed image loaded (lazy ones too) and, per image, whether it loaded.
OPEN_ALL_JS = """
async () => {
  for (let round = 0; round < 5; round++) {  // folds inside folds
    const closed = document.querySelectorAll("article details:not([open])");
    if (!closed.length) break;
    for (const fold of closed) fold.open = true;
    await new Promise((done) => setTimeout(done, 50));
  }
  for (let last = null; window.peMath && last !== window.peMath;) {
    last = window.peMath;
    await last;
    await new Promise((done) => setTimeout(done, 50));
  }
  const shown = Array.from(document.images).filter((img) => img.getClientRects().length > 0);
  for (const img of shown) img.loading = "eager";
  await Promise.all(shown.map((img) => img.decode().catch(() => null)));
  await document.fonts.ready;
  return Array.from(document.images).map((img) => ({
    src: img.getAttribute("src").slice(0, 60),
    alt: img.getAttribute("alt"),
    shown: img.getClientRects().length > 0,
    width: img.naturalWidth,
  }));
}
"""

# For each figure: which of its images is displayed, and its pixels' colours against the ink.
FIGURES_JS = """
async (inks) => {
  const out = [];
  // A static figure standing in for an interactive one is hidden while the script runs.
  for (const figure of document.querySelectorAll("figure.pe-figure")) {
    if (figure.closest(".pe-interactive.pe-js")) continue;
    const shown = Array.from(figure.querySelectorAll("img")).filter(
      (img) => getComputedStyle(img).display !== "none" && img.getClientRects().length > 0
    );
    const info = { shown: shown.map((img) => img.className), inkPixels: 0, cornerAlpha: -1 };
    if (shown.length === 1) {
      const img = shown[0];
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext("2d");
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const ink = inks[img.classList.contains("pe-fig-dark") ? "dark" : "light"];
      info.cornerAlpha = data[3];
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 200 && Math.abs(data[i] - ink[0]) + Math.abs(data[i + 1] - ink[1])
            + Math.abs(data[i + 2] - ink[2]) < 24) info.inkPixels++;
      }
    }
    out.push(info);
  }
  return out;
}
"""


def _rgb(colour: str) -> tuple[int, int, int]:
    if colour.startswith("#"):
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
    return r, g, b


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    a, b = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


INKS = {p.name: _rgb(p.ink) for p in (figures.LIGHT, figures.DARK)}


def wait_for_typesetting(page: Page) -> None:
    """Wait until Material has mounted and the page's formulas in view are in place."""
    page.wait_for_function("() => document.body.hasAttribute('data-md-color-scheme')")
    page.wait_for_function("() => !document.querySelector('span.pe-tex') || window.peMath")
    page.evaluate("async () => { if (window.peMath) await window.peMath; }")


def check_page(
    page: Page, url: str, html_file: Path, palette: str, shot: Path | None = None
) -> list[str]:
    """Problems on one rendered page (empty when it is fine), read as a reader would: as
    it loads (figures fetched near the screen only, the search index not at all), scrolled
    through to the end (every formula typeset, a closed fold's not), then with every fold
    open. ``shot``: where to save a full-page screenshot, scrolled through, folds closed.

    The page weight is the sum of the decoded bodies of the page and of everything it
    fetched (Resource Timing): stylesheets, scripts, the MathJax fonts its formulas use, and every figure shown once all folds are open.
    """
    page.goto(url, wait_until="load")
    wait_for_typesetting(page)
    loaded = page.evaluate(PAGE_STATE_JS)
    problems = figure_file_problems(loaded["figures"])
    problems += [
        f"the search index loaded before search was used: {u}"
        for u in loaded["requested"]
        if u.endswith(SEARCH_INDEX)
    ]
    page.evaluate(SCROLL_THROUGH_JS)
    state = page.evaluate(PAGE_STATE_JS)
    if shot is not None:
        page.screenshot(path=shot, full_page=True)
    if state["scheme"] != PALETTES[palette]:
        problems.append(f"palette is {state['scheme']!r}, expected {PALETTES[palette]!r}")
    problems += [f"MathJax error: {e}" for e in state["errors"]]
    problems += [f"raw TeX left in the text: {m!r}" for m in _raw_tex(state["text"])]
    problems += [
        f"closed fold typeset before it opened: {s!r}" for s in state["folds"]["typesetClosed"]
    ]
    # Every fold opened: everything typeset, every image shown loaded, and still one
    # picture a figure (the other palette's never fetched).
    images = page.evaluate(OPEN_ALL_JS)
    after = page.evaluate(PAGE_STATE_JS)
    # (Counted with the folds open: the Claims page's formulas are all in folds.)
    if has_math_source(html_file) and after["math"] == 0:
        problems.append("the page has TeX but no formula was put in place")
    problems += [f"MathJax error in an opened fold: {e}" for e in after["errors"]]
    problems += [f"raw TeX left in an opened fold: {m!r}" for m in _raw_tex(after["text"])]
    if after["folds"]["deferred"] or after["folds"]["typesetClosed"]:
        problems.append("a fold stayed closed or untypeset after opening them all")
    for image in images:
        if image["shown"] and image["width"] <= 0:
            problems.append(f"image did not load: {image['src']}")
        if not (image["alt"] or "").strip():
            problems.append(f"image without alt text: {image['src']}")
    weight = after["bytes"]
    WEIGHTS[url] = weight
    if weight > BUDGET:
        heaviest = ", ".join(
            f"{name.split('/', 3)[-1]} {size // 1024} KiB" for size, name in after["heaviest"]
        )
        problems.append(
            f"weighs {weight / 1e6:.2f} MB > {BUDGET / 1e6:.1f} MB; heaviest: {heaviest}"
        )
    return problems + figure_ink_problems(page, palette, after["background"])


def figure_ink_problems(page: Page, palette: str, page_background: str) -> list[str]:
    """Each figure shows the picture of ``palette`` only (the other never fetched), on a
    transparent background, drawn in the palette's ink, which contrasts with the page."""
    problems = []
    background = _rgb(page_background)
    ink_contrast = contrast(INKS[palette], background)
    for number, figure in enumerate(page.evaluate(FIGURES_JS, INKS), start=1):
        if figure["shown"] != [f"pe-fig pe-fig-{palette}"]:
            problems.append(f"figure {number}: displayed {figure['shown']}, expected the {palette}")
            continue
        if figure["cornerAlpha"] != 0:
            problems.append(f"figure {number}: opaque background (it would be a box in the page)")
        if figure["inkPixels"] < 50:
            problems.append(f"figure {number}: no axes or text drawn in the {palette} ink")
    hidden = {f["url"] for f in page.evaluate(PAGE_STATE_JS)["figures"] if f["natural"][0] == 0}
    problems += [
        f"fetched the other palette's picture: {u}"
        for u in hidden & set(page.evaluate(RESOURCES_JS))
    ]
    if ink_contrast < 4.5:
        problems.append(
            f"{palette} figure ink has contrast {ink_contrast:.1f} < 4.5 on {background}"
        )
    return problems


SEARCH_INDEX = "search/search_index.json"
RESOURCES_JS = "() => performance.getEntriesByType('resource').map((e) => e.name)"
#: How far below the screen a figure must stand for the browser not to fetch it with the
#: page (Chromium fetches lazy images 1,250 to 2,500 px ahead).
FAR_BELOW = 3000


def figure_file_problems(figures: list[dict[str, Any]]) -> list[str]:
    """Figures that are not files with their size set, loaded lazily, fetched only near
    the screen (from ``PAGE_STATE_JS``'s ``figures``, as the page loaded)."""
    problems = []
    for figure in figures:
        width, height, loading, decoding = figure["attributes"]
        if figure["src"].startswith("data:"):
            problems.append(f"figure inline, not a file: {figure['src']}")
        if not (width and height and int(width) > 0 and int(height) > 0):
            problems.append(f"figure without its width and height: {figure['src']}")
        if (loading, decoding) != ("lazy", "async"):
            problems.append(f"figure loads {loading}/{decoding}, not lazy/async: {figure['src']}")
        if figure["fetched"] and (figure["below"] is None or figure["below"] > FAR_BELOW):
            problems.append(f"figure fetched though far from the screen: {figure['src']}")
    return problems


WEIGHTS: dict[str, int] = {}  # url -> bytes downloaded by the last check_page of that url


def _raw_tex(text: str) -> list[str]:
    found = []
    for match in RAW_TEX.finditer(text):
        start = max(match.start() - 30, 0)
        found.append(text[start : match.end() + 30].replace("\n", " "))
    return found[:5]


def _slug(path: str) -> str:
    return path.strip("/").removesuffix(".html").replace("/", "--")


# --------------------------------------------------------------------------------------------
# The tests.


def test_the_pages_are_found(built_site: Path) -> None:
    """The walk finds the home page, the notebook pages, the plain pages and the references."""
    pages = site_pages(built_site)
    for expected in ("index.html", "404.html", "rotation-identity/index.html"):
        assert expected in pages
    for expected in ("bibliography/", "reference/api/", "reference/api/numeric/", "reference/cli/"):
        assert f"{expected}index.html" in pages
    sources = [
        p
        for p in (ROOT / "docs").rglob("*")
        if p.suffix in {".py", ".md"} and "_hooks" not in p.parts
    ]
    assert len(pages) >= len(sources)


#: The two readings every page gets: a desktop in the light palette, a phone in the dark.
READINGS = {"light-1280": ("light", 1280), "dark-390": ("dark", 390)}


@dataclass
class Visit:
    """What one reading of every page found: render problems and axe-core's violations."""

    problems: dict[str, list[str]] = field(default_factory=dict)
    violations: dict[str, list[str]] | None = None  # None: axe-core was not run


VISITS: dict[str, Visit] = {}

AXE_JS = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.flatMap((v) => v.nodes.map((n) =>
    `${v.id}: ${n.target.join(" ")}: ${(n.any[0] || n.all[0] || n.none[0] || {}).message || v.help}`));
}
"""


def axe_violations(page: Page, axe_source: str) -> list[str]:
    """axe-core's violations on the page as it stands, one line per element."""
    page.add_script_tag(content=axe_source)
    found: list[str] = page.evaluate(AXE_JS)
    return found


def visit_every_page(
    browser: Browser, server: str, site: Path, reading: str, axe_source: str | None
) -> Visit:
    """Open every page of the build in ``reading``: check it (:func:`check_page`: with its
    folds closed, then all opened), save a screenshot, and run axe-core on it (all folds
    open: everything a reader may see) when ``axe_source`` is given. Done once per reading
    and test session."""
    if reading in VISITS and (axe_source is None or VISITS[reading].violations is not None):
        return VISITS[reading]
    palette, width = READINGS[reading]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context, traffic = open_context(browser, server, palette, width)
    visit = Visit(violations=None if axe_source is None else {})
    try:
        page = context.new_page()
        for relative in site_pages(site):
            traffic.clear()
            url = server + page_url(relative)
            shot = ARTIFACTS / f"{_slug(page_url(relative) or 'index')}-{reading}.png"
            problems = check_page(page, url, site / relative, palette, shot)
            problems += traffic.problems()
            if problems:
                visit.problems[relative] = problems
            if axe_source is not None and visit.violations is not None:
                found = axe_violations(page, axe_source)
                if found:
                    visit.violations[relative] = found
    finally:
        context.close()
    VISITS[reading] = visit
    return visit


def _axe_if_installed() -> str | None:
    path = ROOT / "node_modules" / "axe-core" / "axe.min.js"
    return path.read_text(encoding="utf-8") if path.is_file() else None


@pytest.mark.parametrize("reading", READINGS)
def test_every_page_renders_offline(
    browser: Browser, server: str, built_site: Path, reading: str
) -> None:
    """Every page, light at 1280 px and dark at 390 px: formulas typeset (a closed fold's
    when it opens, not before), figures as lazy files of the palette shown, nothing from
    another host, no console error, the search index not loaded, under the weight budget."""
    visit = visit_every_page(browser, server, built_site, reading, _axe_if_installed())
    heaviest = max(WEIGHTS, key=WEIGHTS.__getitem__)
    print(f"heaviest page: {heaviest}, {WEIGHTS[heaviest] / 1e6:.2f} MB")  # shown with -s
    assert visit.problems == {}, "\n".join(
        f"{p}: {'; '.join(v)}" for p, v in visit.problems.items()
    )


@pytest.mark.parametrize("reading", READINGS)
def test_every_page_passes_axe(
    browser: Browser, server: str, built_site: Path, axe_source: str, reading: str
) -> None:
    """axe-core (WCAG 2.2 AA and its best practices) finds nothing on any page, light at
    1280 px and dark at 390 px, with every fold open."""
    visit = visit_every_page(browser, server, built_site, reading, axe_source)
    assert visit.violations == {}, "\n".join(
        f"{p}: {len(v)} violations: " + "; ".join(v[:8])
        for p, v in (visit.violations or {}).items()
    )


def test_axe_finds_what_it_should(browser: Browser, server: str, axe_source: str) -> None:
    """The axe check can fail: grey on grey, a link told apart by colour only, an unnamed
    dialog and a scrolling box the keyboard cannot reach are each reported. The box is a
    ``div``, which pe-a11y.js leaves alone (it makes a scrolling ``pre`` focusable when the
    browser is idle, which may come after the box is inserted)."""
    context, _ = open_context(browser, server, "light")
    try:
        page = context.new_page()
        page.goto(server + "rotation-identity/", wait_until="load")
        wait_for_typesetting(page)
        page.evaluate(
            """() => document.querySelector("article").insertAdjacentHTML("afterbegin",
              '<p style="color:#777;background:#888">faint</p>'
              + '<p style="color:#222">text <a href="#" style="color:#333;text-decoration:none">a link</a> text</p>'
              + '<div role="dialog"><p>unnamed</p></div>'
              + '<div style="overflow-x:auto;width:60px;white-space:nowrap">'
              + 'a line of text far wider than its box</div>')"""
        )
        found = "\n".join(axe_violations(page, axe_source))
    finally:
        context.close()
    for rule in (
        "color-contrast",
        "link-in-text-block",
        "aria-dialog-name",
        "scrollable-region-focusable",
    ):
        assert rule in found


def test_search_finds_the_rotation_identity_page(browser: Browser, server: str) -> None:
    context, traffic = open_context(browser, server, "light")
    try:
        page = context.new_page()
        index: list[str] = []
        page.on("request", lambda r: index.append(r.url) if r.url.endswith(SEARCH_INDEX) else None)
        page.goto(server, wait_until="load")
        wait_for_typesetting(page)
        page.wait_for_timeout(500)
        assert index == []  # the index waits for the first use of search
        search = page.locator("input.md-search__input")
        search.click()
        search.press_sequentially("rotation", delay=20)  # Material searches on key events
        hit = page.locator('.md-search-result__item a[href*="rotation-identity"]').first
        hit.wait_for(state="visible", timeout=20_000)
        assert "rotation" in hit.inner_text().lower()
        assert index == [server + SEARCH_INDEX]
        page.screenshot(path=ARTIFACTS / "search-rotation.png")
        assert traffic.problems() == []
    finally:
        context.close()


IN_VIEW_JS = """
(id) => {
  const row = document.getElementById(id);
  const box = row.getBoundingClientRect();
  return { open: row.closest("details").open, shown: row.checkVisibility(), top: box.top,
           height: box.height, screen: window.innerHeight };
}
"""


def test_a_link_to_a_claim_opens_its_fold(browser: Browser, server: str) -> None:
    """The Claims page shows its tables in closed folds; a link to a claim (the marks of the
    chapters) opens the claim's fold and brings its row on screen (Material's script does,
    for a fold of the page's content): when the page is loaded with the claim's fragment,
    and when the fragment changes on the page."""
    from pe import claims

    first, last = claims.all_claims()[0].id, claims.all_claims()[-1].id
    context, traffic = open_context(browser, server, "light", 390)
    try:
        page = context.new_page()
        page.goto(server + "claims/", wait_until="load")
        wait_for_typesetting(page)
        folded = page.evaluate(IN_VIEW_JS, f"claim-{last}")
        assert not folded["open"]  # the wrong candidate: not shown
        assert not folded["shown"]

        def assert_on_screen(claim_id: str) -> None:
            page.wait_for_timeout(300)
            shown = page.evaluate(IN_VIEW_JS, f"claim-{claim_id}")
            assert shown["open"], (claim_id, shown)
            assert shown["shown"], (claim_id, shown)
            assert 0 <= shown["top"] < shown["screen"] - shown["height"], (claim_id, shown)

        page.goto(server + f"claims/#claim-{last}", wait_until="load")
        wait_for_typesetting(page)
        assert_on_screen(last)
        # The fragment changed on the page (no navigation: the browser itself opens nothing).
        page.evaluate(
            """(id) => { history.replaceState(null, "", "#" + id);
               window.dispatchEvent(new HashChangeEvent("hashchange")); }""",
            f"claim-{first}",
        )
        assert_on_screen(first)
        assert traffic.problems() == []
    finally:
        context.close()


def test_the_palette_toggle_switches_and_figures_follow(browser: Browser, server: str) -> None:
    context, traffic = open_context(browser, server, "light")
    try:
        page = context.new_page()
        page.goto(server + "rotation-identity/", wait_until="load")
        wait_for_typesetting(page)
        shown = "el => Array.from(el.querySelectorAll('img')).filter(i => i.offsetWidth > 0)"
        # The first figure shown as drawn by pe (not the stand-in of an interactive one).
        first_figure = page.locator("figure.pe-figure:not(.pe-fallback *)").first
        for scheme, palette in (("slate", "dark"), ("default", "light")):
            page.locator("form[data-md-component=palette] label:visible").first.click()
            page.wait_for_function(
                f"() => document.body.getAttribute('data-md-color-scheme') === '{scheme}'"
            )
            classes = first_figure.evaluate(f"el => ({shown})(el).map(i => i.className)")
            assert classes == [f"pe-fig pe-fig-{palette}"]
            page.screenshot(path=ARTIFACTS / f"toggle-{palette}.png")
        # The choice is remembered on the next page.
        page.locator("form[data-md-component=palette] label:visible").first.click()
        page.goto(server, wait_until="load")
        wait_for_typesetting(page)
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
        assert traffic.problems() == []
    finally:
        context.close()


def test_the_checks_can_fail(browser: Browser, server: str, built_site: Path) -> None:
    """The page checks report raw TeX, a MathJax error, a missing alt, a broken image,
    a request to another host, the wrong figure for the palette and a page over budget."""
    broken = built_site / "broken-fixture" / "index.html"
    html = (built_site / "rotation-identity" / "index.html").read_text(encoding="utf-8")
    injected = (
        '<p class="arithmatex">\\(\\frac{1}\\)</p>'
        '<p><mjx-container class="MathJax"><mjx-merror>Missing argument</mjx-merror>'
        "</mjx-container></p>"
        '<p class="tex2jax_ignore">left raw: $x^2$</p>'
        "<p><code>$kept in code$</code></p>"
        '<img src="data:image/png;base64,AAAA" alt="">'
        '<img src="https://example.org/pixel.png" alt="remote">'
        "<style>.pe-figure img.pe-fig-dark { display: block !important; }</style>"
        f"<!-- {'x' * BUDGET} -->"
    )
    broken.parent.mkdir()
    broken.write_text(html.replace("</article>", f"{injected}</article>", 1), encoding="utf-8")
    context, traffic = open_context(browser, server, "light")
    try:
        page = context.new_page()
        problems = check_page(page, server + "broken-fixture/", broken, "light")
        text = page.evaluate("document.body.innerText")
        problems += traffic.problems()
    finally:
        context.close()
        shutil.rmtree(broken.parent)
    joined = "\n".join(problems)
    assert "MathJax error: Missing argument" in joined
    assert "image without alt text" in joined
    assert "image did not load" in joined
    assert "request to another host (blocked): https://example.org/pixel.png" in joined
    assert "expected the light" in joined
    assert "MB > 2.5 MB" in joined
    assert "raw TeX left in the text" in joined
    assert "left raw: $x^2$" in joined
    assert "kept in code" in text
    assert "kept in code" not in joined
    assert _raw_tex("before $x^2$ after")
    assert _raw_tex(r"\(x\)")
    assert not _raw_tex("costs 5 $")


def test_a_page_renders_from_file_urls(browser: Browser, built_site: Path) -> None:
    """What the README says about ``file://``: a page renders fully without a server
    (formulas typeset, figures shown, nothing fetched from anywhere else); links between
    pages end on a folder and search is off, which is why the README recommends a server."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda request: requests.append(request.url))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((built_site / "rotation-identity" / "index.html").as_uri(), wait_until="load")
        wait_for_typesetting(page)
        page.evaluate(SCROLL_THROUGH_JS)
        state = page.evaluate(PAGE_STATE_JS)
        images = page.evaluate(OPEN_ALL_JS)
        page.screenshot(path=ARTIFACTS / "file-url-rotation-identity.png")
        link = page.locator("a.md-nav__link[href='../why-order/']").first.get_attribute("href")
    finally:
        context.close()
    assert state["math"] > 0
    assert state["errors"] == []
    assert _raw_tex(state["text"]) == []
    assert [image for image in images if image["shown"] and image["width"] == 0] == []
    assert any(image["shown"] for image in images)
    assert [url for url in requests if not url.startswith(("file://", "data:"))] == []
    # The only error: the theme's search cannot load its index from file:// (it says so).
    assert [error for error in errors if "search" not in error] == []
    assert link == "../why-order/"  # a folder: from file:// the browser lists it


EXPLORER_JS = """
(kind) => {
  const block = document.querySelector(`.pe-interactive.pe-js[data-pe-widget="${kind}"]`);
  const sliders = Array.from(block.querySelectorAll("input[type=range]")).map((input) => {
    const r = input.getBoundingClientRect();
    return { name: input.name, width: r.width, height: r.height };
  });
  const svg = block.querySelector("svg.pe-plot");
  return {
    sliders,
    texts: Array.from(svg.querySelectorAll("text")).map((t) => t.textContent),
    arcs: svg.querySelectorAll("path.pe-arc").length,
    focusable: svg.tabIndex >= 0,
    values: JSON.parse(block.querySelector(".pe-readout").dataset.values),
  };
}
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_explorers_teach_and_answer_the_keyboard(
    browser: Browser, server: str, width: int
) -> None:
    """The interactive figures say what they draw (a legend for p and p + k, an arc for the
    turn; the table's title, axes and colour key), their sliders are touch targets of
    24 px at least, and the keyboard drives them: a slider's arrow keys, the table's
    arrow keys for its cursor."""
    context, traffic = open_context(browser, server, "light", width)
    try:
        page = context.new_page()
        page.goto(server + "rotation-identity/", wait_until="load")
        wait_for_typesetting(page)
        rotation = page.evaluate(EXPLORER_JS, "rotation")
        assert any(t.startswith("PE(p), p =") for t in rotation["texts"])
        assert any(t.startswith("PE(p + k), k =") for t in rotation["texts"])
        assert any("turn" in t for t in rotation["texts"])
        assert rotation["arcs"] >= 1
        assert not rotation["focusable"]
        k = rotation["values"]["k"]
        page.locator('.pe-interactive[data-pe-widget="rotation"] input[name="k"]').focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate(EXPLORER_JS, "rotation")["values"]["k"] > k
        page.goto(server + "sinusoidal-encoding/", wait_until="load")
        wait_for_typesetting(page)
        table = page.evaluate(EXPLORER_JS, "table")
        for words in (
            "PE(p, j)",
            "position p",
            "sin(p ωᵢ) columns",
            "cos(p ωᵢ) columns",
            "value of PE(p, j)",
        ):
            assert any(words in t for t in table["texts"]), words
        assert table["focusable"]
        page.locator('.pe-interactive[data-pe-widget="table"] svg.pe-plot').focus()
        for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowRight"):
            page.keyboard.press(key)
        moved = page.evaluate(EXPLORER_JS, "table")["values"]
        assert (moved["p"], moved["j"]) == (2, 1)
        page.goto(server + "implications/", wait_until="load")
        wait_for_typesetting(page)
        dot = page.evaluate(EXPLORER_JS, "dot")
        assert any("offset k" in t for t in dot["texts"])
        for explorer in (rotation, table, dot):
            for slider in explorer["sliders"]:
                assert min(slider["width"], slider["height"]) >= 24, slider
        page.screenshot(path=ARTIFACTS / f"explorer-dot-{width}.png")
        assert traffic.problems() == []
    finally:
        context.close()


def test_the_figure_file_checks_can_fail() -> None:
    """An inline figure, one without its height, an eager one and one fetched far below
    the screen are each reported; a lazy file near the screen is not."""
    good = {
        "src": "../assets/figures/ab.png",
        "attributes": ["430", "273", "lazy", "async"],
        "fetched": True,
        "below": 200,
    }
    assert figure_file_problems([good]) == []
    inline = {**good, "src": "data:image/png;base64,iVBOR"}
    flat = {**good, "attributes": ["430", None, "lazy", "async"]}
    eager = {**good, "attributes": ["430", "273", None, None]}
    far = {**good, "below": FAR_BELOW + 1}
    found = figure_file_problems([inline, flat, eager, far])
    assert [problem.split(":")[0] for problem in found] == [
        "figure inline, not a file",
        "figure without its width and height",
        "figure loads None/None, not lazy/async",
        "figure fetched though far from the screen",
    ]


DISPLAY_HEIGHTS_JS = """() => Array.from(document.querySelectorAll('.pe-tex-display'))
    .filter((p) => p.getClientRects().length && !p.closest('details:not([open])'))
    .map((p) => [p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).fontSize),
                 p.textContent.slice(0, 40), !!p.querySelector('.pe-scrolls, .pe-scroll-cue')])"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("chapter", ["rotation-identity", "sinusoidal-encoding", "implications"])
def test_display_formulas_hold_their_height_until_typeset(
    browser: Browser, server: str, chapter: str, width: int
) -> None:
    """Before the formulas are put in place, each display formula holds the height it takes
    (docs/_hooks/math_space.py), within a line: the page does not jump when the
    formulas come (the page's script held back, then let run). A formula wider than a phone's column
    is the exception: once typeset it scrolls, with a cue line below it that the build,
    not knowing the width, cannot reserve."""
    before, after = before_and_after_typesetting(
        browser, server, chapter, width, script=DISPLAY_HEIGHTS_JS
    )
    assert len(before) == len(after) >= 2
    fitting = [
        (held, took, source)
        for (held, source, _), (took, _, scrolls) in zip(before, after, strict=True)
        if not scrolls
    ]
    assert len(fitting) >= 2 if width == 1280 else fitting
    for held, took, source in fitting:
        assert abs(held - took) <= 1.6, (source, held, took)  # a line of text: 1.6 em


PARAGRAPH_LINES_JS = """() => Array.from(document.querySelectorAll('article p, article li'))
    .filter((p) => p.getClientRects().length && !p.closest('details:not([open])'))
    .map((p) => [p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight),
                 p.textContent.slice(0, 40),
                 p.matches('.pe-tex-display') || !!p.querySelector('.pe-tex-display')])"""
#: The inline formulas as they would be without their reserved width (the check's control).
UNRESERVED_CSS = (
    ".md-typeset .pe-tex-inline > .pe-tex { display: inline !important; width: auto !important;"
    " height: auto !important; color: inherit !important; white-space: normal !important }"
)


def before_and_after_typesetting(
    browser: Browser, server: str, chapter: str, width: int, *, script: str, css: str = ""
) -> tuple[list[Any], list[Any]]:
    """What ``script`` measures on ``chapter`` before its formulas are put in place (the
    page's script held back) and after (every formula typeset, folds' included); ``css`` added to both."""
    found = []
    for typeset in (False, True):
        context, _ = open_context(browser, server, "light", width)
        try:
            if not typeset:
                context.route("**/javascripts/math.js", lambda route: route.abort())
            page = context.new_page()
            page.goto(server + chapter + "/", wait_until="load")
            if css:
                page.add_style_tag(content=css)
            if typeset:
                wait_for_typesetting(page)
                page.evaluate("() => window.peTypesetAll()")
                page.evaluate("() => window.peMath")
            found.append(page.evaluate(script))
        finally:
            context.close()
    return found[0], found[1]


def paragraph_lines(
    browser: Browser, server: str, chapter: str, width: int, css: str = ""
) -> tuple[list[Any], list[Any]]:
    """Each visible paragraph's height in lines before and after typesetting, in page order."""
    return before_and_after_typesetting(
        browser, server, chapter, width, script=PARAGRAPH_LINES_JS, css=css
    )


def reflowed(held: list[Any], took: list[Any]) -> list[tuple[str, float, float]]:
    """The paragraphs without a display formula whose height changed by a line or more when
    their inline formulas were typeset: (start of the text, lines before, lines after)."""
    assert len(held) == len(took) >= 2
    return [
        (source, before, after)
        for (before, source, display), (after, _, _) in zip(held, took, strict=True)
        if not display and abs(before - after) >= 1.0
    ]


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("chapter", ["rotation-identity", "sinusoidal-encoding", "implications"])
def test_paragraphs_keep_their_lines_when_inline_formulas_are_typeset(
    browser: Browser, server: str, chapter: str, width: int
) -> None:
    """Before the formulas are put in place, each inline formula holds the width it takes
    (docs/_hooks/math_space.py), so no paragraph gains or loses a line when the formulas
    come: the text below does not move (Lighthouse's layout shift)."""
    assert reflowed(*paragraph_lines(browser, server, chapter, width)) == []


def test_a_paragraph_reflowed_by_its_formulas_is_found(browser: Browser, server: str) -> None:
    """The check's control: with the widths not reserved (the raw TeX shown until the
    formulas come, as before the hook), paragraphs of the encoding chapter change by a line."""
    held, took = paragraph_lines(browser, server, "sinusoidal-encoding", 390, UNRESERVED_CSS)
    assert len(reflowed(held, took)) >= 2
