"""Fixtures of the browser tests: a local static server for the built site and Chromium.

Without Chromium the browser tests skip, except when the environment variable ``CI`` is
set: then a missing browser is a failure (``.ci/run`` installs it).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

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


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server(built_site: Path) -> Iterator[str]:
    """``http://127.0.0.1:PORT/`` serving the session's strict build, on a free port."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer((HOST, 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    executable = chromium_executable()
    if executable is None:
        message = "Chromium is not installed (Debian: apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI is set, so the browser tests must run")
        pytest.skip(f"{message}; with CI set this fails instead of skipping")
    browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
    try:
        yield browser
    finally:
        browser.close()
