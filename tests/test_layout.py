"""The layout's conventions, each checked from the source (CONTRIBUTING.md describes them).

- imports point one way: private helpers -> numeric/symbolic/reference -> library ->
  the claim registry -> the chapters -> cli; ``pe.site`` may import anything and nothing
  imports it; no import cycle;
- matplotlib is imported only in ``pe.site``, and importing the library does not load it;
- one stem per chapter across ``chapters/``, ``site/``, ``tests/`` and ``docs/``, and the
  chapters in the order of the site's navigation;
- a page's code cells hold calls into ``pe`` only: no ``def``, ``class``, ``assert``, loop
  or HTML markup, and at most 250 lines of code in all the pages together.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import jupytext
import pytest

from .conftest import ROOT

PACKAGE = ROOT / "pe"
PAGES = sorted(p for p in (ROOT / "docs").glob("*.py"))
#: Chapter stems: every executed page but the claims index.
CHAPTERS = [p.stem.replace("-", "_") for p in PAGES if p.stem != "claims"]
#: Modules of the chapter folders that serve every chapter (not named by a stem).
SHARED = {
    "chapters": {"__init__"},
    "claims": {"__init__", "evidence"},
    "site": {
        "__init__",
        "html",
        "report",
        "latex_fit",
        "figures",
        "claims",
        "home",
        "prose",
        "page_check",
        "examples",
    },
}
MAX_PAGE_CODE_LINES = 250


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


#: Ranks of the top-level names of ``pe``; a private helper (``pe._x``) is 0, the
#: library (``pe`` itself, ``rotary``, ``conventions``, ``identify``, ...) is 2.
RANKS = {
    "numeric": 1,
    "symbolic": 1,
    "reference": 1,
    "testing": 2,  # the library's assertions for users' test suites (on identify and rotary)
    "claims": 3,  # the registry: claims, checks, evidence
    "chapters": 4,  # each chapter's proofs, measurements, wrong candidates and claims
    "cli": 5,
    "__main__": 5,
    "site": 6,
}


def layer(module: str) -> int:
    """The rank of a module: it may import modules of its own rank or lower."""
    top = module.split(".")[1] if module.count(".") else ""
    if top.startswith("_") and top != "__main__":
        return 0
    return RANKS.get(top, 2)


@cache
def pe_imports(module: str) -> frozenset[str]:
    """The modules of ``pe`` that ``module`` imports, anywhere in its source."""
    tree = ast.parse(MODULES[module].read_text())
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "pe")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "pe":
                continue
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in MODULES else base)
    found.discard(module)
    return frozenset(m for m in found if m in MODULES)


def imports_matplotlib(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        names = (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        if any(name.split(".")[0] == "matplotlib" for name in names):
            return True
    return False


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_one_way(module: str) -> None:
    upward = sorted(m for m in pe_imports(module) if layer(m) > layer(module))
    assert upward == [], f"{module} (layer {layer(module)}) imports {upward}"


def test_nothing_outside_the_site_imports_it() -> None:
    users = sorted(
        m
        for m in MODULES
        if not m.startswith("pe.site") and any(i.startswith("pe.site") for i in pe_imports(m))
    )
    assert users == []


def find_cycle(graph: dict[str, frozenset[str]]) -> list[str]:
    """A cycle of ``graph`` (as a path that returns to its start), or ``[]``."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        for child in sorted(graph.get(node, frozenset())):
            if child in path:
                return [*path[path.index(child) :], child]
            if child not in done:
                found = visit(child, [*path, child])
                if found:
                    return found
        done.add(node)
        return []

    for node in sorted(graph):
        if node not in done:
            found = visit(node, [node])
            if found:
                return found
    return []


def test_no_import_cycle() -> None:
    graph = {module: pe_imports(module) for module in MODULES}
    assert find_cycle(graph) == []


def test_a_cycle_is_found() -> None:
    """The cycle finder sees a cycle of three (a control), and none in a chain."""
    ring = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"})}
    assert find_cycle(ring) == ["a", "b", "c", "a"]
    assert find_cycle({"a": frozenset({"b"}), "b": frozenset({"c"})}) == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith("pe.site")))
def test_matplotlib_only_in_the_site(module: str) -> None:
    assert not imports_matplotlib(MODULES[module])


def test_importing_the_library_does_not_load_matplotlib() -> None:
    code = (
        "import sys\n"
        "import pe, pe.numeric, pe.symbolic, pe.identify, pe.claims, pe.cli\n"
        "pe.claims.all_claims()\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib')\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == ""


@pytest.mark.parametrize("folder", sorted(SHARED))
def test_chapter_folders_use_chapter_stems(folder: str) -> None:
    names = {p.stem for p in (PACKAGE / folder).glob("*.py")}
    strays = sorted(names - set(nav_pages()) - SHARED[folder])
    assert strays == [], f"pe/{folder}/ holds modules not named after a chapter: {strays}"


@pytest.mark.parametrize("stem", CHAPTERS)
def test_every_chapter_has_its_module_and_tests(stem: str) -> None:
    assert (PACKAGE / "chapters" / f"{stem}.py").exists()
    assert (ROOT / "tests" / f"test_{stem}.py").exists()


def nav_pages() -> list[str]:
    """The stems of the pages (``.py`` and ``.md``) in the order of ``nav`` in ``mkdocs.yml``."""
    nav = (ROOT / "mkdocs.yml").read_text().split("\nnav:\n", 1)[1]
    found = re.findall(r":\s*([\w-]+)\.(?:py|md)\s*$", nav, re.MULTILINE)
    return [stem.replace("-", "_") for stem in found]


def test_the_registry_finds_every_chapter_in_the_order_of_the_site() -> None:
    """Each chapter names the one it follows; together they follow the site's navigation,
    and every executed page but the Claims page is one (a Markdown page may be one too)."""
    from pe import claims

    found = [chapter.stem for chapter in claims.chapters()]
    modules = {p.stem for p in (PACKAGE / "chapters").glob("*.py")} - SHARED["chapters"]
    assert found == [stem for stem in nav_pages() if stem in modules]
    assert set(CHAPTERS) <= set(found) == modules


HTML_TAG = re.compile(r"<\s*/?\s*[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?>")
FORBIDDEN = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.Assert,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def page_code(page: Path) -> list[str]:
    notebook = jupytext.read(page)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def page_faults(source: str) -> list[str]:
    """What a page's code cell holds that a page may not: definitions, loops, HTML."""
    faults = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, FORBIDDEN):
            faults.append(f"line {getattr(node, 'lineno', '?')}: {type(node).__name__}")
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and HTML_TAG.search(node.value)
        ):
            faults.append(f"line {node.lineno}: HTML markup {node.value[:40]!r}")
    return faults


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_page_holds_calls_only(page: Path) -> None:
    faults = [f for cell in page_code(page) for f in page_faults(cell)]
    assert faults == []


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    pass",
        "class A:\n    pass",
        "assert 1",
        "for i in x:\n    f(i)",
        "while x:\n    f()",
        "[f(i) for i in x]",
        "table('<td>1</td>')",
        "f = lambda: 1",
    ],
)
def test_page_faults_are_found(source: str) -> None:
    """The page checker rejects each forbidden construct (so it can fail)."""
    assert page_faults(source) != []


def test_pages_hold_little_code() -> None:
    lines = sum(
        1
        for page in PAGES
        for cell in page_code(page)
        for line in cell.splitlines()
        if line.strip() and not line.lstrip().startswith(("#", "%"))
    )
    assert lines <= MAX_PAGE_CODE_LINES


def _approx_without_abs(source: str) -> list[int]:
    """Lines of ``pytest.approx(...)`` calls that do not state their absolute tolerance."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "approx"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "pytest"
        and not any(k.arg == "abs" for k in node.keywords)
    ]


def test_every_approximate_comparison_states_its_absolute_tolerance() -> None:
    """pytest.approx adds an absolute 1e-12 to any relative tolerance unless told otherwise:
    on an error bound near 1e-15 it accepts anything. Every call says ``abs=`` (0 for a
    purely relative comparison)."""
    found = {
        str(p.relative_to(ROOT)): lines
        for p in sorted((ROOT / "tests").rglob("*.py"))
        if (lines := _approx_without_abs(p.read_text(encoding="utf-8")))
    }
    assert found == {}
    assert _approx_without_abs("x == pytest.approx(1e-15, rel=1e-3)\n") == [1]
    assert _approx_without_abs("x == pytest.approx(1e-15, rel=1e-3, abs=0)\n") == []
