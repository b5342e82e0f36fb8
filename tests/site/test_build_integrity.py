"""The built site as files: warning-free, every link resolves, light pages, reproducible.

- the strict build printed no warning;
- every internal link (``href``, ``src``) of every page points to a file of the build, and
  every ``#fragment`` to an element id of the target page;
- (page weight is measured in the browser, in ``test_browser.py``: the bytes a real visit
  downloads, fonts included);
- determinism: a second clean build gives byte-identical files (HTML with its figures,
  search index, assets), and the figures carry no date, software stamp or random id.
"""

from __future__ import annotations

import difflib
import gzip
import re
import struct
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from ..conftest import ROOT, build_site

# <link rel=...> that the browser fetches with the page (not prev/next/canonical).
LOADED_RELS = {"stylesheet", "icon", "preload", "modulepreload", "manifest"}


class _PageParser(HTMLParser):
    """Ids, links and loaded resources of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []  # navigation: <a href>
        self.loads: list[str] = []  # fetched with the page: src, stylesheets, icons

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name in ("id", "name" if tag == "a" else ""):
            if values.get(name):
                self.ids.add(values[name])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        elif (
            tag == "link"
            and values.get("href")
            and LOADED_RELS & set(values.get("rel", "").split())
        ):
            self.loads.append(values["href"])
        if values.get("src"):
            self.loads.append(values["src"])


def parse(html_file: Path) -> _PageParser:
    parser = _PageParser()
    parser.feed(html_file.read_text(encoding="utf-8"))
    return parser


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts)


def _is_internal(url: str) -> bool:
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc and not url.startswith("//")


def resolve(site: Path, page: Path, url: str) -> tuple[Path | None, str]:
    """The file an internal ``url`` on ``page`` points to (None if missing), and its fragment."""
    parts = urlsplit(url)
    if not parts.path:
        return page, unquote(parts.fragment)
    path = unquote(parts.path)
    base = site if path.startswith("/") else page.parent  # root-relative, as on 404.html
    target = (base / path.lstrip("/")).resolve()
    if target.is_dir():
        target = target / "index.html"
    inside = target.is_relative_to(site.resolve())
    return (target if inside and target.is_file() else None), unquote(parts.fragment)


def broken_links(site: Path) -> list[str]:
    """Every internal link or load that does not resolve, as ``page: url (why)``."""
    parsed = {page.resolve(): parse(page) for page in pages(site)}
    problems = []
    for page, parser in parsed.items():
        name = page.relative_to(site.resolve()).as_posix()
        for url in parser.links + parser.loads:
            if not url or not _is_internal(url):
                continue
            target, fragment = resolve(site, page, url)
            if target is None:
                problems.append(f"{name}: {url} (no such file)")
            elif fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else parse(target).ids
                if fragment not in ids:
                    problems.append(f"{name}: {url} (no element with id {fragment!r})")
    return problems


# PNG chunks that would carry a date, a software version or free text.
STAMP_CHUNKS = {b"tIME", b"tEXt", b"iTXt", b"zTXt"}
DATA_PNG = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=]+)")


def png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        chunks.append(data[offset + 4 : offset + 8])
        offset += 12 + length
    return chunks


# --------------------------------------------------------------------------------------------


def test_the_strict_build_printed_no_warning(built_site: Path) -> None:
    log = (built_site.parent / f"{built_site.name}-build.log").read_text(encoding="utf-8")
    assert "Documentation built" in log
    assert [line for line in log.splitlines() if line.startswith("WARNING")] == []


def test_every_internal_link_and_anchor_resolves(built_site: Path) -> None:
    assert len(pages(built_site)) > 10
    assert broken_links(built_site) == []


def test_the_link_checker_catches_broken_links(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(
        '<h1 id="top">t</h1><a href="a/">ok</a><a href="#top">ok</a>'
        '<a href="a/#there">ok</a><a href="https://example.org/x">external</a>'
        '<a href="missing/">bad</a><a href="a/#nowhere">bad</a><img src="pic.png">'
        '<a href="/a/">ok</a><a href="/../outside/">bad</a>'
    )
    (tmp_path / "a" / "index.html").write_text('<p id="there"></p><a href="../#top">ok</a>')
    assert broken_links(tmp_path) == [
        "index.html: missing/ (no such file)",
        "index.html: a/#nowhere (no element with id 'nowhere')",
        "index.html: /../outside/ (no such file)",
        "index.html: pic.png (no such file)",
    ]


def test_figures_are_files_without_date_or_software_stamp(built_site: Path) -> None:
    """Figures are PNG files (no page embeds one inline), each used by a page, and none
    carries a date, a software stamp or free text."""
    files = sorted((built_site / "assets" / "figures").glob("*.png"))
    assert len(files) > 10
    used = set()
    for page in pages(built_site):
        html = page.read_text(encoding="utf-8")
        assert not DATA_PNG.search(html), f"{page}: an inline PNG"
        used.update(re.findall(r'src="[^"]*assets/figures/([0-9a-f]+\.png)"', html))
        assert "<dc:date>" not in html
        assert "CreationDate" not in html
    assert {f.name for f in files} == used
    for file in files:
        chunks = set(png_chunks(file.read_bytes()))
        assert not chunks & STAMP_CHUNKS, f"{file.name}: PNG with {chunks & STAMP_CHUNKS}"


LOCAL = re.compile(r"https?://(?:127\.0\.0\.1|localhost|0\.0\.0\.0)\b")


def local_addresses(text: str) -> list[str]:
    """The canonical links and sitemap entries of ``text`` that name a local address."""
    links = re.findall(r'<link rel="canonical" href="([^"]*)"', text)
    entries = re.findall(r"<loc>([^<]*)</loc>", text)
    return [url for url in links + entries if LOCAL.match(url)]


def test_no_page_names_a_local_address(built_site: Path) -> None:
    """Built without ``PE_SITE_URL``: no canonical link and no sitemap entry says
    127.0.0.1 (the checker itself is shown to catch one)."""
    assert local_addresses('<link rel="canonical" href="http://127.0.0.1:8000/a/">') != []
    assert local_addresses("<loc>http://localhost:8000/</loc>") != []
    assert local_addresses("<loc>https://example.org/pe/</loc>") == []
    for page in pages(built_site):
        assert local_addresses(page.read_text(encoding="utf-8")) == [], page
    assert local_addresses((built_site / "sitemap.xml").read_text(encoding="utf-8")) == []
    packed = gzip.decompress((built_site / "sitemap.xml.gz").read_bytes())
    assert packed == (built_site / "sitemap.xml").read_bytes()


def test_the_site_url_comes_from_pe_site_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """``site_url`` is ``$PE_SITE_URL`` (read as MkDocs reads its configuration); without
    it, the address ``make serve`` serves, which the pages do not name (the test above)."""
    from mkdocs.utils.yaml import yaml_load

    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    monkeypatch.delenv("PE_SITE_URL", raising=False)
    assert yaml_load(text)["site_url"] == "http://127.0.0.1:8000/"
    monkeypatch.setenv("PE_SITE_URL", "https://example.org/pe/")
    assert yaml_load(text)["site_url"] == "https://example.org/pe/"


def test_the_stamp_check_can_fail() -> None:
    """Matplotlib's default PNG carries a Software stamp; pe.site.figures removes it."""
    import io

    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(1, 1))
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    chunks = png_chunks(buffer.getvalue())
    assert chunks[0] == b"IHDR"
    assert chunks[-1] == b"IEND"
    assert b"tEXt" in chunks


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


@pytest.mark.timeout(1800)
def test_two_clean_builds_are_identical(built_site: Path, tmp_path: Path) -> None:
    """Build again from scratch and compare every file with the session's build."""
    second = tmp_path / "site"
    result = build_site(ROOT / "mkdocs.yml", second)
    assert result.returncode == 0, result.stderr[-3000:]
    first_files, second_files = _files(built_site), _files(second)
    assert sorted(first_files) == sorted(second_files)
    differing = [name for name in first_files if first_files[name] != second_files[name]]
    details = []
    for name in differing[:3]:
        a = first_files[name].decode("utf-8", "replace").replace("><", ">\n<").splitlines()
        b = second_files[name].decode("utf-8", "replace").replace("><", ">\n<").splitlines()
        diff = difflib.unified_diff(a, b, lineterm="", n=0)
        details.append(name + "\n" + "\n".join(line[:200] for line in list(diff)[:12]))
    assert differing == [], "\n\n".join(details)
