"""A static host for the built site, as any real one serves it: text compressed, cacheable.

Python's ``http.server`` sends every file as it is, with no ``Content-Encoding`` and no
cache header; a page measured behind it pays for bytes that no static host (GitHub Pages,
Netlify, nginx) would send, and Lighthouse scores that, not the page. This handler gzips
the text files (HTML, CSS, JavaScript, JSON, SVG, XML) for clients that accept it, as
those hosts do, and lets the browser keep every file ten minutes. Fonts and images go as
they are (already compressed).

Run it by hand on a build: ``python -m tests.site.static_host site 8000``.
"""

from __future__ import annotations

import gzip
import http.server
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

#: Files a static host compresses (by suffix).
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".map"}
#: Seconds the browser may keep a file (GitHub Pages' choice).
MAX_AGE = 600


class StaticHostHandler(http.server.SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` with gzip for text and a ``Cache-Control`` header."""

    _cache: ClassVar[dict[tuple[Path, int], bytes]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", f"max-age={MAX_AGE}")
        super().end_headers()

    def _compressed_file(self) -> Path | None:
        """The file this GET names, when it is sent compressed; else None."""
        if "gzip" not in self.headers.get("Accept-Encoding", ""):
            return None
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url_path.endswith("/"):
                return None  # the base class redirects to the folder's URL
            path = path / "index.html"
        return path if path.suffix in COMPRESSED and path.is_file() else None

    def _gzipped(self, path: Path) -> bytes:
        key = (path, path.stat().st_mtime_ns)
        with self._lock:
            if key not in self._cache:
                self._cache[key] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            return self._cache[key]

    def do_GET(self) -> None:
        path = self._compressed_file()
        if path is None:
            super().do_GET()
            return
        body = self._gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serving(directory: Path, port: int = 0, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``directory`` on ``host`` (a free port by default); yields the root URL."""
    handler = partial(StaticHostHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer((host, port), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


if __name__ == "__main__":  # pragma: no cover - a tool for measuring by hand
    folder, port = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    with serving(folder, port) as url:
        print(f"serving {folder} compressed on {url} (Ctrl-C to stop)")
        threading.Event().wait()
