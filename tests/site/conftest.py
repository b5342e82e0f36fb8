"""Fixtures of the browser tests: a local static host for the built site, Chromium, and the
npm tools (axe-core, Lighthouse) that ``make browser-tools`` installs into ``node_modules/``.

The server compresses text and sends cache headers, as any static host does
(:mod:`tests.site.static_host`). Without Chromium or the npm tools the tests that need them
skip, except when the environment variable ``CI`` is set: then a missing tool is a failure
(``.ci/run`` installs Chromium, ``make test`` the npm tools).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from ..conftest import ROOT
from .static_host import serving

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOST = "127.0.0.1"


def chromium_executable() -> str | None:
    """Debian's Chromium, or ``$PE_CHROMIUM``, or ``chromium`` on the PATH."""
    for candidate in (os.environ.get("PE_CHROMIUM"), "/usr/bin/chromium", "chromium"):
        if candidate and (found := shutil.which(candidate)):
            return found
    return None


def missing(message: str) -> None:
    """Skip the test for want of a tool, or fail it when ``CI`` is set."""
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI is set, so the test must run")
    pytest.skip(f"{message}; with CI set this fails instead of skipping")


NODE_MODULES = ROOT / "node_modules"


def npm_tool(relative: str) -> Path:
    """A file of the npm tools (``make browser-tools``), or skip (fail in CI) without it."""
    path = NODE_MODULES / relative
    if not path.is_file() or shutil.which("node") is None:
        missing(f"{relative} is not installed (make browser-tools)")
    return path


@pytest.fixture(scope="session")
def axe_source() -> str:
    """The source of axe-core, to inject into pages."""
    return npm_tool("axe-core/axe.min.js").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def lighthouse() -> Path:
    """Lighthouse's command."""
    return npm_tool(".bin/lighthouse")


@pytest.fixture(scope="module")
def server(built_site: Path) -> Iterator[str]:
    """``http://127.0.0.1:PORT/`` serving the session's strict build on a free port,
    compressed as a static host serves it."""
    with serving(built_site, host=HOST) as url:
        yield url


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    executable = chromium_executable()
    if executable is None:
        missing("Chromium is not installed (Debian: apt-get install chromium)")
    assert executable is not None
    browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
    try:
        yield browser
    finally:
        browser.close()
