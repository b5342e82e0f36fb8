"""MkDocs hook: serve MathJax from the pinned PyPI package, never from a CDN.

The wheel ``django-static-mathjax`` (pinned in the lock file) holds MathJax 3.2.2. This hook
adds the files the site needs to the build under ``assets/mathjax/``: the startup component
and the TeX-input, CHTML-output and assistive-MathML components it loads, the TeX
extensions they may autoload, and the woff-v2 fonts. Nothing is placed in
``docs/`` and nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mathjax  # the django-static-mathjax package
from mkdocs.structure.files import File, Files

ROOT = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
WANTED = (
    # The components the site loads (startup.js loads the others, see mathjax-config.js).
    "startup.js",
    "core.js",
    "input/tex.js",
    "output/chtml.js",
    "output/chtml/fonts/tex.js",
    "a11y/assistive-mml.js",
    # TeX extensions that input/tex autoloads, and the fonts.
    "input/tex/extensions",
    "output/chtml/fonts/woff-v2",
)


def on_files(files: Files, config: Any) -> Files:
    """Add the MathJax files to the build."""
    for wanted in WANTED:
        source = ROOT / wanted
        paths = (
            [source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())
        )
        for path in paths:
            uri = "assets/mathjax/" + path.relative_to(ROOT).as_posix()
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
