"""Mutation run: faults made by a tool (Cosmic Ray's operators), a random sample at a time.

``make mutants`` (or ``.venv/bin/python tests/mutants/run.py``) lists every mutant that
Cosmic Ray's core operators make in :data:`SCOPE` (an arithmetic, comparison, boolean or
unary operator swapped, a number moved by one, ``break`` for ``continue``, an exception
type replaced, a decorator removed, a loop made to run zero times) outside the wrong
candidates (test inputs: :func:`wrong_candidate_lines`), draws a fresh random
sample of them (:data:`SAMPLE` by default; the seed is printed and can be set with
``--seed`` or ``PE_MUTANTS_SEED``), and runs each one in a copy of the tree: the tests that
import the mutated module (:func:`selection_for`) and its own doctests, stopping at the first
failure. The working tree is never modified. The tests run as in CI (``CI`` set): one that
needs PyTorch or JAX fails without it rather than passing as skipped, so ``make mutants``
installs them first (``make frameworks``).

A mutant is

- ``killed`` when a test fails (or the run exceeds its timeout: marked ``timeout``);
- ``survived`` when every test passes: listed with file, line and operator;
- ``equivalent`` when it is in the reviewed list ``tests/mutants/equivalent.toml`` (each
  entry with the reason no test can tell it from the original);
- ``same code`` when the mutated module compiles to the same program (a change of text
  only, or of an annotation in a module whose annotations are never evaluated): not a
  fault at all, never drawn into the sample and never counted as caught.

The score is killed / (killed + survived); the run exits 1 below :data:`TARGET`.
``--since COMMIT`` draws from the mutants of the lines changed since ``COMMIT`` only
(what CI runs on a submission). Timeouts scale with a baseline: each set of tests is first
run on the unmutated copy, in the same run, and a mutant may take :data:`SLOWER` times as
long plus :data:`GRACE` seconds, so that a loaded machine slows both alike.

Not collected by pytest (the file is not named ``test_*.py``) and not part of ``make test``;
``tests/test_mutants.py`` tests its parts.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: Share of the non-equivalent mutants that must be killed.
TARGET = 0.90
#: Mutants drawn per run (``--sample`` or ``PE_MUTANTS_SAMPLE``).
SAMPLE = 150
#: A mutant's tests may take this many times their baseline run...
SLOWER = 4.0
#: ...plus this many seconds.
GRACE = 30.0
#: The reviewed list of equivalent mutants.
EQUIVALENT = Path(__file__).with_name("equivalent.toml")
#: The modules mutated: the library, identify, testing, the registry, the page check, the
#: tolerances and error models, and the chapters (the rest of ``pe/site`` renders pages).
SCOPE = ("pe/*.py", "pe/identify/*.py", "pe/claims/*.py", "pe/chapters/*.py")
EXTRA = ("pe/site/page_check.py",)
LEFT_OUT = ("pe/__main__.py",)
#: The tests run for a module no test file imports by name: quick, and wide.
FALLBACK = (
    "tests/test_numeric.py",
    "tests/test_hostile_inputs.py",
    "tests/test_error_models.py",
    "tests/test_identify_edges.py",
    "tests/test_testing.py",
)
#: Test files too slow to run per mutant (their faults are other files' to catch).
SLOW_FILES = ("tests/test_wheel.py", "tests/test_release.py", "tests/test_real_code.py")
#: Modules whose callers are tested through another name, and the tests that reach them.
REACHED_BY = {
    "pe/_validate.py": (
        "tests/test_hostile_inputs.py",
        "tests/test_numeric.py",
        "tests/test_positions.py",
    ),
    "pe/_arrays.py": ("tests/test_array_api.py", "tests/test_numeric.py"),
    "pe/_extended_precision.py": ("tests/test_numeric.py", "tests/test_precision.py"),
    "pe/_rope_probe.py": ("tests/test_testing.py",),
    "pe/_rotation_table.py": (
        "tests/test_rope.py",
        "tests/test_numeric.py",
        "tests/test_survivors.py",
    ),
    "pe/claims/evidence.py": ("tests/test_claims.py",),
    "pe/__init__.py": ("tests/test_layout.py", "tests/test_numeric.py"),
    "pe/numeric.py": (
        "tests/test_numeric.py",
        "tests/test_positions.py",
        "tests/test_table_paths.py",
        "tests/test_hostile_inputs.py",
        "tests/test_symbolic_numeric.py",
    ),
}


@dataclass(frozen=True)
class Mutant:
    """The ``occurrence``-th place where ``operator`` applies in ``path``, on ``line``."""

    path: str
    line: int
    operator: str
    occurrence: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.operator} #{self.occurrence}"


def modules(root: Path = ROOT) -> list[str]:
    """The files mutated, relative to ``root``, sorted."""
    found = {str(p.relative_to(root)) for pattern in SCOPE for p in root.glob(pattern)}
    found |= {e for e in EXTRA if (root / e).exists()}
    return sorted(found - set(LEFT_OUT))


@cache
def operators() -> dict[str, Any]:
    """Cosmic Ray's operators that take no arguments, by name, each instantiated once."""
    from cosmic_ray import plugins

    found: dict[str, Any] = {}
    for name in plugins.operator_names():
        try:
            found[name] = plugins.get_operator(name)()
        except TypeError:  # an operator that needs arguments (a variable's name)
            continue
    return found


def _nodes(node: Any) -> Iterator[Any]:
    """The parso tree in the order Cosmic Ray's visitor walks it (node, then children)."""
    yield node
    for child in getattr(node, "children", ()):
        yield from _nodes(child)


def wrong_candidate_lines(source: str) -> set[int]:
    """The lines of ``source`` that only build wrong candidates: each ``Candidate(...)`` call,
    and each module-level function used nowhere else.

    A wrong candidate is a test's input, not pe's behaviour: a mutant of one either leaves it
    wrong (nothing to catch) or makes it right, and then its claim fails whatever the tests
    do. Such lines are never drawn.
    """
    tree = ast.parse(source)
    spans = [
        (node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Candidate"
    ]

    def inside(line: int) -> bool:
        return any(first <= line <= last for first, last in spans)

    uses: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            uses.setdefault(node.id, []).append(node.lineno)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            used = uses.get(node.name, [])
            if used and all(inside(line) for line in used):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                spans.append((first, node.end_lineno or node.lineno))
    return {line for first, last in spans for line in range(first, last + 1)}


def mutants_of(path: str, root: Path = ROOT) -> list[Mutant]:
    """Every mutant of ``path`` outside its wrong candidates (:func:`wrong_candidate_lines`):
    each operator's places, numbered as Cosmic Ray numbers them."""
    from cosmic_ray.ast import get_ast

    source = (root / path).read_text(encoding="utf-8")
    tree = get_ast(source)
    left_out = wrong_candidate_lines(source)
    counts = dict.fromkeys(operators(), 0)
    found: list[Mutant] = []
    for node in _nodes(tree):
        for name, operator in operators().items():
            for _ in operator.mutation_positions(node):
                if node.start_pos[0] not in left_out:
                    found.append(Mutant(path, node.start_pos[0], name, counts[name]))
                counts[name] += 1
    return found


def mutate(source: str, mutant: Mutant) -> str | None:
    """``source`` with ``mutant`` applied by Cosmic Ray, or ``None`` where it does not apply."""
    from cosmic_ray.mutating import mutate_code

    result: str | None = mutate_code(source, operators()[mutant.operator], mutant.occurrence)
    return result


class _Program(ast.NodeTransformer):
    """What a module does: its AST without docstrings, and without annotations where the
    module never evaluates them (``from __future__ import annotations``)."""

    def __init__(self, lazy_annotations: bool) -> None:
        self.lazy = lazy_annotations

    def generic_visit(self, node: ast.AST) -> ast.AST:
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
        if self.lazy:
            if isinstance(node, ast.arg):
                node.annotation = None
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                node.returns = None
            elif isinstance(node, ast.AnnAssign):
                node.annotation = ast.Constant(None)
        return super().generic_visit(node)


def program(source: str) -> str | None:
    """The behaviour-bearing part of ``source`` as text, or ``None`` if it does not compile."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    lazy = any(
        isinstance(s, ast.ImportFrom)
        and s.module == "__future__"
        and any(a.name == "annotations" for a in s.names)
        for s in tree.body
    )
    return ast.dump(_Program(lazy).visit(tree))


def changes_behaviour(original: str, mutated: str | None) -> bool:
    """Whether ``mutated`` is another program than ``original`` (text-only edits are not)."""
    after = None if mutated is None else program(mutated)
    return after is not None and after != program(original)


@dataclass(frozen=True)
class Equivalent:
    """A reviewed equivalent mutant: ``operator`` turns the source line ``line`` of ``path``
    into ``becomes`` (both stripped), which no test can tell apart, for ``reason``."""

    path: str
    operator: str
    line: str
    becomes: str
    reason: str

    def matches(self, mutant: Mutant, source: str, mutated: str) -> bool:
        """Whether ``mutant`` (``source`` mutated into ``mutated``) is this one."""
        if (mutant.path, mutant.operator) != (self.path, self.operator):
            return False
        return (_line(source, mutant.line), _line(mutated, mutant.line)) == (
            self.line.strip(),
            self.becomes.strip(),
        )


def _line(source: str, number: int) -> str:
    lines = source.splitlines()
    return lines[number - 1].strip() if number <= len(lines) else ""


def equivalents(path: Path = EQUIVALENT) -> list[Equivalent]:
    """The reviewed list; each entry must give a reason."""
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])
    found = [
        Equivalent(e["path"], e["operator"], e["line"], e["becomes"], e["reason"]) for e in entries
    ]
    for entry in found:
        if len(entry.reason.split()) < 4:
            raise ValueError(f"{entry.path}: {entry.line!r}: give the reason it is equivalent")
    return found


def changed_lines(since: str, root: Path = ROOT) -> dict[str, set[int]]:
    """The lines of each file of ``pe/`` added or changed since the commit ``since``."""
    diff = subprocess.run(
        ["git", "diff", "-U0", since, "--", "pe"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: dict[str, set[int]] = {}
    current = ""
    for text in diff.splitlines():
        if text.startswith("+++ "):
            current = text[6:] if text.startswith("+++ b/") else ""
        elif (hunk := re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", text)) and current:
            start, count = int(hunk[1]), int(hunk[2] or "1")
            found.setdefault(current, set()).update(range(start, start + count))
    return found


def _imports(test: str, root: Path) -> str:
    return (root / test).read_text(encoding="utf-8")


def selection_for(path: str, root: Path = ROOT) -> tuple[str, ...]:
    """The test files that reach the module ``path`` by name, its own doctests first.

    A test file counts when it names the module (``pe.identify._law``, ``from pe.identify
    import _law``) or its package below ``pe`` (``pe.identify``); :data:`REACHED_BY` adds
    the tests of modules used through another's name; :data:`FALLBACK` where none does.
    """
    parts = Path(path).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if len(parts) < 2:
        return (path, *FALLBACK)
    # a private module (``_law``) is reached through its package (``pe.identify``)
    first = len(parts) - 1
    while first > 1 and parts[first].startswith("_"):
        first -= 1
    names = {".".join(parts[: n + 1]) for n in range(first, len(parts))}
    found = re.compile("|".join(rf"\b{re.escape(n)}\b(?!\.\w)" for n in sorted(names)))

    def reaches(text: str) -> bool:
        return bool(found.search(text)) or not names.isdisjoint(imported(text))

    tests = sorted(
        str(p.relative_to(root))
        for p in (root / "tests").glob("test_*.py")
        if str(p.relative_to(root)) not in SLOW_FILES and reaches(p.read_text(encoding="utf-8"))
    )
    if path.startswith("pe/chapters/") and (ids := chapter_claims().get(path)):
        tests += [f"tests/test_claims.py::test_claim_{kind}[{i}]" for i in ids for kind in KINDS]
    elif path.startswith(("pe/chapters/", "pe/claims/")):
        tests.append("tests/test_claims.py")
    own = f"test_{parts[-1].lstrip('_')}"
    tests.sort(key=lambda t: not Path(t).stem.startswith(own))  # its own tests first
    chosen = list(dict.fromkeys([*REACHED_BY.get(path, ()), *tests])) or list(FALLBACK)
    return (path, *chosen)


def imported(text: str) -> set[str]:
    """The modules a test module's text imports, by their full names, wherever the import
    statement stands and however many lines it takes (``from pe import (a, b)`` gives
    ``pe.a`` and ``pe.b``: a name imported from a package may be a module).

    Examples
    --------
    >>> sorted(imported("from pe import (\\n    numeric,\\n    rotary,\\n)\\nimport pe.claims"))
    ['pe', 'pe.claims', 'pe.numeric', 'pe.rotary']
    """
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


#: The per-claim tests of ``tests/test_claims.py`` run for a mutant of the claim's chapter.
KINDS = ("holds", "rejects_every_wrong_candidate")


@cache
def chapter_claims() -> dict[str, tuple[str, ...]]:
    """The ids of the claims each chapter declares, by the chapter's file (the registry's
    own list, read once from the unmutated tree)."""
    from pe import claims

    return {
        f"{chapter.module.replace('.', '/')}.py": tuple(c.id for c in chapter.claims)
        for chapter in claims.chapters()
    }


@dataclass
class Outcome:
    """A mutant's verdict, its seconds and what it was (for survivors: the changed line)."""

    mutant: Mutant
    verdict: str
    seconds: float
    shown: str = ""


#: Held while a baseline is measured, so that each set of tests is measured once by one
#: copy; the others wait (a baseline measured beside a running mutant is slower, which only
#: makes its timeout more generous).
_BASELINE = threading.Lock()


class Copy:
    """A copy of the tree in which one file at a time is mutated, and its tests are run."""

    def __init__(
        self,
        where: Path,
        root: Path = ROOT,
        baselines: dict[tuple[str, ...], float | None] | None = None,
    ) -> None:
        self.path = where
        for part in ("pe", "tests", "docs"):
            shutil.copytree(root / part, where / part, ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("pyproject.toml", "mkdocs.yml", "README.md", "CONTRIBUTING.md"):
            if (root / name).exists():
                shutil.copy(root / name, where / name)
        #: Timeouts by set of tests, shared by the copies of one run.
        self.baselines = {} if baselines is None else baselines

    def run(self, tests: Sequence[str], timeout: float | None) -> tuple[str, float]:
        """Run ``tests`` in the copy: ``passed``, ``failed`` or ``timeout``, and the seconds."""
        env = {
            **os.environ,
            "PYTHONPATH": str(self.path),
            "PYTHONDONTWRITEBYTECODE": "1",  # a mutant's bytecode must never outlive it
            "MPLBACKEND": "Agg",
            # a test that needs a framework fails without it instead of passing as skipped
            # (``make mutants`` installs them: ``make frameworks``)
            "CI": "1",
        }
        args = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
        args += ["-m", "not slow", *tests]
        began = time.perf_counter()
        try:
            result = subprocess.run(
                args, cwd=self.path, env=env, capture_output=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - began
        seconds = time.perf_counter() - began
        return ("passed" if result.returncode == 0 else "failed"), seconds

    def timeout(self, tests: tuple[str, ...]) -> float | None:
        """The timeout for ``tests``, from their baseline run (``None``: the baseline fails)."""
        with _BASELINE:  # one baseline per set of tests, measured by one copy
            if tests in self.baselines:
                return self.baselines[tests]
            verdict, seconds = self.run(tests, None)
            self.baselines[tests] = SLOWER * seconds + GRACE if verdict == "passed" else None
            if verdict != "passed":
                print(f"  baseline FAILS for {' '.join(tests)}", flush=True)
            return self.baselines[tests]

    def try_mutant(self, mutant: Mutant, mutated: str) -> Outcome:
        target = self.path / mutant.path
        original = target.read_text(encoding="utf-8")
        tests = selection_for(mutant.path, self.path)
        timeout = self.timeout(tests)
        if timeout is None:
            return Outcome(mutant, "no baseline", 0.0)
        target.write_text(mutated, encoding="utf-8")
        try:
            verdict, seconds = self.run(tests, timeout)
        finally:
            target.write_text(original, encoding="utf-8")
        name = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[verdict]
        return Outcome(mutant, name, seconds, _shown(original, mutated, mutant.line))


def _shown(original: str, mutated: str, line: int) -> str:
    """The mutated line next to the original one."""
    before = original.splitlines()
    after = mutated.splitlines()
    index = line - 1
    if index < len(before) and index < len(after) and before[index] != after[index]:
        return f"{before[index].strip()}  ->  {after[index].strip()}"
    changed = [a.strip() for a, b in zip(after, before, strict=False) if a != b]
    return " / ".join(changed[:2])


def draw(
    candidates: Sequence[Mutant], size: int, seed: int, root: Path = ROOT
) -> Iterator[tuple[Mutant, str]]:
    """Mutants of ``candidates`` in a random order fixed by ``seed``, with their mutated
    source, skipping those that leave the program the same; at most ``size`` of them."""
    order = list(candidates)
    random.Random(seed).shuffle(order)
    sources: dict[str, str] = {}
    drawn = 0
    for mutant in order:
        if drawn == size:
            return
        source = sources.setdefault(mutant.path, (root / mutant.path).read_text(encoding="utf-8"))
        mutated = mutate(source, mutant)
        if mutated is None or not changes_behaviour(source, mutated):
            continue
        drawn += 1
        yield mutant, mutated


def score(outcomes: Sequence[Outcome]) -> tuple[int, int]:
    """(killed, counted): timeouts count as killed; equivalents and the rest are not counted."""
    killed = sum(o.verdict in {"killed", "timeout"} for o in outcomes)
    counted = killed + sum(o.verdict == "survived" for o in outcomes)
    return killed, counted


def main(argv: list[str] | None = None) -> int:
    """Draw the sample, run it, list the survivors, print the score; 1 below the target."""
    parser = argparse.ArgumentParser(description="Mutation run of pe (see the module).")
    parser.add_argument("--seed", type=int, default=os.environ.get("PE_MUTANTS_SEED"))
    parser.add_argument(
        "--sample", type=int, default=int(os.environ.get("PE_MUTANTS_SAMPLE", SAMPLE))
    )
    parser.add_argument("--since", help="only the mutants of lines changed since this commit")
    parser.add_argument("--only", nargs="*", default=(), help="only files whose path holds one")
    parser.add_argument("--list", action="store_true", help="count the mutants and stop")
    parser.add_argument(
        "--jobs",
        type=int,
        default=int(os.environ.get("PE_MUTANTS_JOBS", os.cpu_count() or 1)),
        help="mutants run side by side, each in its own copy (default: one per core)",
    )
    options = parser.parse_args(argv)
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(10**6)
    files = [f for f in modules() if not options.only or any(o in f for o in options.only)]
    candidates = [m for f in files for m in mutants_of(f)]
    if options.since:
        lines = changed_lines(options.since)
        candidates = [m for m in candidates if m.line in lines.get(m.path, set())]
    print(
        f"{len(candidates)} mutants in {len(files)} files; seed {seed} "
        f"(PE_MUTANTS_SEED={seed} make mutants draws the same sample); sample {options.sample}",
        flush=True,
    )
    if options.list:
        return 0
    reviewed = equivalents()
    sources = {f: (ROOT / f).read_text(encoding="utf-8") for f in files}
    start = time.perf_counter()
    drawn = list(enumerate(draw(candidates, options.sample, seed), 1))
    with tempfile.TemporaryDirectory(prefix="pe-mutants-") as tmp:
        baselines: dict[tuple[str, ...], float | None] = {}
        jobs = max(1, options.jobs)
        copies = [Copy(Path(tmp) / str(n), baselines=baselines) for n in range(jobs)]
        idle = list(copies)
        lock = threading.Lock()

        def one(number: int, mutant: Mutant, mutated: str) -> Outcome:
            if any(e.matches(mutant, sources[mutant.path], mutated) for e in reviewed):
                outcome = Outcome(mutant, "equivalent", 0.0)
            else:
                with lock:
                    copy = idle.pop()
                try:
                    outcome = copy.try_mutant(mutant, mutated)
                finally:
                    with lock:
                        idle.append(copy)
            print(
                f"{number:3d} {outcome.verdict:<10} {outcome.seconds:5.0f} s  {mutant}  "
                f"{outcome.shown}",
                flush=True,
            )
            return outcome

        with ThreadPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(lambda item: one(item[0], *item[1]), drawn))
    survivors = [o for o in outcomes if o.verdict == "survived"]
    if survivors:
        print("\nsurvivors (file:line operator #occurrence  original -> mutated):")
        for o in survivors:
            print(f"  {o.mutant}  {o.shown}")
    killed, counted = score(outcomes)
    equivalent = sum(o.verdict == "equivalent" for o in outcomes)
    share = killed / counted if counted else 1.0
    print(
        f"\n{killed} of {counted} non-equivalent mutants killed ({share:.1%}; target "
        f"{TARGET:.0%}); {equivalent} equivalent (tests/mutants/equivalent.toml); "
        f"{len(outcomes)} drawn, seed {seed}; {(time.perf_counter() - start) / 60:.1f} min"
    )
    return 0 if share >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
