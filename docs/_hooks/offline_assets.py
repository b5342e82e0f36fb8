"""MkDocs hook: serve MathJax's fonts from the pinned PyPI package, never from a CDN.

The wheel ``django-static-mathjax`` (pinned in the lock file) holds MathJax 3.2.2, which
typesets every formula when the site is built (``docs/_hooks/typeset_math.py``). The pages
then need only its woff-v2 fonts: this hook adds them to the build under
``assets/mathjax/``. Nothing is placed in ``docs/`` and nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mathjax  # the django-static-mathjax package
from mkdocs.structure.files import File, Files

ROOT = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
WANTED = ("output/chtml/fonts/woff-v2",)  # typeset_math.FONTS


def on_files(files: Files, config: Any) -> Files:
    """Add MathJax's fonts to the build."""
    for wanted in WANTED:
        source = ROOT / wanted
        paths = (
            [source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())
        )
        for path in paths:
            uri = "assets/mathjax/" + path.relative_to(ROOT).as_posix()
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
