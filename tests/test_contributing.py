"""CONTRIBUTING.md and the README's layout table name only paths and modules that exist."""

from __future__ import annotations

import importlib
import re

import pytest

from .conftest import ROOT

DOCS = ("CONTRIBUTING.md", "README.md")
#: Placeholders in the recipes (``<stem>``, the example chapter ``long_context``).
PLACEHOLDER = re.compile(r"<\w+>|long[-_]context|\.\.\.")


def named_paths(text: str) -> set[str]:
    """Backquoted paths under the repository's folders, placeholders left out."""
    found = re.findall(r"`((?:pe|docs|tests|benchmarks)/[\w./<>-]*)`", text)
    return {p for p in found if not PLACEHOLDER.search(p)}


def named_modules(text: str) -> set[str]:
    """Backquoted dotted names ``pe.x.y`` (modules or attributes), placeholders left out."""
    found = re.findall(r"`(pe(?:\.\w+)+)`", text)
    return {m for m in found if not PLACEHOLDER.search(m)}


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is an importable module or an attribute of one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS)
def test_named_paths_exist(doc: str) -> None:
    text = (ROOT / doc).read_text()
    missing = sorted(p for p in named_paths(text) if not (ROOT / p.rstrip("/")).exists())
    assert missing == []


@pytest.mark.parametrize("doc", DOCS)
def test_named_modules_resolve(doc: str) -> None:
    text = (ROOT / doc).read_text()
    missing = sorted(m for m in named_modules(text) if not resolves(m))
    assert missing == []


def test_a_missing_path_or_module_is_found() -> None:
    """The checks above can fail: a made-up path and module are reported."""
    text = "`pe/no_such_module.py` and `pe.numeric.no_such_function`"
    assert not (ROOT / next(iter(named_paths(text)))).exists()
    assert not resolves(next(iter(named_modules(text))))
