"""``make mutants`` (``tests/mutants/run.py``): its parts, on small sources.

The run itself is too slow for ``make test``. What is tested here is what its score rests
on: a mutant is a change of behaviour (an edit of text only, a docstring, a comment or an
annotation never evaluated, is not a fault, so it can never be counted as caught), the
sample is fixed by its seed, each mutant lands on the line it names, the reviewed
equivalents still name real mutants, and every module is given tests that exist.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

RUN = ROOT / "tests" / "mutants" / "run.py"


def _campaign() -> Any:
    spec = importlib.util.spec_from_file_location("pe_mutants_run", RUN)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


run = _campaign()

SOURCE = '''"""A module."""

from __future__ import annotations


def larger(a: int, b: int) -> int | None:
    """The larger of two, or None when they are equal."""
    if a > b:
        return a
    if b > a:
        return b + 0
    return None
'''


def _tree(tmp_path: Path, source: str = SOURCE) -> Path:
    (tmp_path / "pe").mkdir()
    (tmp_path / "pe" / "small.py").write_text(source, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "edit",
    [
        ('"""A module."""', '"""Another text."""'),
        ("    return None\n", "    return None  # nothing\n"),
        ("-> int | None:", "-> int & None:"),  # an annotation, never evaluated here
        ("(a: int, b: int)", "(a: float, b: int)"),
    ],
)
def test_a_text_only_edit_is_not_a_mutant(edit: tuple[str, str]) -> None:
    edited = SOURCE.replace(*edit)
    assert edited != SOURCE
    assert not run.changes_behaviour(SOURCE, edited)


@pytest.mark.parametrize(
    "edit",
    [("if a > b:", "if a >= b:"), ("b + 0", "b - 0"), ("return a\n", "return b\n")],
)
def test_a_change_of_behaviour_is_a_mutant(edit: tuple[str, str]) -> None:
    assert run.changes_behaviour(SOURCE, SOURCE.replace(*edit))


def test_an_annotation_counts_where_the_module_evaluates_it() -> None:
    eager = SOURCE.replace("from __future__ import annotations\n", "")
    assert run.changes_behaviour(eager, eager.replace("-> int | None:", "-> int & None:"))


def test_a_mutant_that_does_not_compile_is_not_counted() -> None:
    assert not run.changes_behaviour(SOURCE, SOURCE.replace("if a > b:", "if a > b"))
    assert not run.changes_behaviour(SOURCE, None)


def test_each_mutant_lands_on_its_line_and_text_only_ones_are_never_drawn(
    tmp_path: Path,
) -> None:
    root = _tree(tmp_path)
    found = run.mutants_of("pe/small.py", root)
    assert {m.line for m in found} >= {6, 8, 10, 11}
    lines = SOURCE.splitlines()
    drawn = list(run.draw(found, len(found), seed=1, root=root))
    assert drawn
    assert all(run.changes_behaviour(SOURCE, mutated) for _, mutated in drawn)
    for mutant, mutated in drawn:
        changed = [
            n
            for n, (a, b) in enumerate(zip(lines, mutated.splitlines(), strict=False), 1)
            if a != b
        ]
        assert mutant.line in changed, (mutant, changed)
    # the "|" of the annotation on line 6 is a mutant of text only: listed, never drawn
    assert any(m.line == 6 for m in found)
    assert not any(m.line == 6 for m, _ in drawn)


def test_the_sample_is_fixed_by_its_seed(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    found = run.mutants_of("pe/small.py", root)
    first = [m for m, _ in run.draw(found, 5, seed=7, root=root)]
    assert first == [m for m, _ in run.draw(found, 5, seed=7, root=root)]
    assert len(first) == 5
    others = {tuple(m for m, _ in run.draw(found, 5, seed=s, root=root)) for s in range(8)}
    assert len(others) > 1


def test_timeouts_count_as_killed_and_equivalents_not_at_all() -> None:
    mutant = run.Mutant("pe/small.py", 8, "core/NumberReplacer", 0)
    outcomes = [
        run.Outcome(mutant, verdict, 0.0)
        for verdict in ("killed", "timeout", "survived", "equivalent", "no baseline")
    ]
    assert run.score(outcomes) == (2, 3)


def test_every_module_gets_tests_that_exist() -> None:
    for path in run.modules():
        chosen = run.selection_for(path, ROOT)
        assert chosen[0] == path
        assert len(chosen) > 1, path
        missing = [t for t in chosen if not (ROOT / t.partition("::")[0]).exists()]
        assert missing == [], path
    law = run.selection_for("pe/identify/_law.py", ROOT)
    assert "tests/test_identify_edges.py" in law
    rope = run.selection_for("pe/chapters/rope.py", ROOT)
    assert "tests/test_rope.py" in rope
    from pe import claims

    ids = {c.id for c in claims.all_claims() if c.page == "rope"}
    assert {t for t in rope if t.startswith("tests/test_claims.py::test_claim_holds[")} == {
        f"tests/test_claims.py::test_claim_holds[{i}]" for i in ids
    }
    assert "tests/test_check_pages.py" in run.selection_for("pe/site/page_check.py", ROOT)
    # imported by name in a parenthesised list, over many lines, and used as its attribute
    assert "tests/test_hostile_inputs.py" in run.selection_for("pe/position_designs.py", ROOT)


def test_the_scope_covers_the_library_the_registry_and_the_page_check() -> None:
    scope = run.modules()
    for path in (
        "pe/numeric.py",
        "pe/testing.py",
        "pe/_tolerance.py",
        "pe/error_models.py",
        "pe/identify/_law.py",
        "pe/claims/__init__.py",
        "pe/chapters/rope.py",
        "pe/site/page_check.py",
    ):
        assert path in scope
    assert "pe/site/figures.py" not in scope


def test_each_reviewed_equivalent_gives_a_reason_and_names_a_mutant() -> None:
    """Each entry still names a mutant the tool makes: that line, mutated into that one."""
    for entry in run.equivalents():
        assert len(entry.reason.split()) >= 4
        source = (ROOT / entry.path).read_text(encoding="utf-8")
        places = [
            m
            for m in run.mutants_of(entry.path)
            if m.operator == entry.operator and run._line(source, m.line) == entry.line.strip()
        ]
        mutated = [run.mutate(source, m) for m in places]
        assert any(
            text is not None and entry.matches(m, source, text)
            for m, text in zip(places, mutated, strict=True)
        ), f"stale: {entry}"


def test_an_equivalent_matches_its_own_mutation_only() -> None:
    entry = run.Equivalent(
        "pe/small.py", "core/NumberReplacer", "x = 2.0**-53", "x = 3.0**-53", "r"
    )
    mutant = run.Mutant("pe/small.py", 1, "core/NumberReplacer", 0)
    assert entry.matches(mutant, "x = 2.0**-53\n", "x = 3.0**-53\n")
    assert not entry.matches(mutant, "x = 2.0**-53\n", "x = 2.0**-54\n")
    other = run.Mutant("pe/small.py", 1, "core/AddNot", 0)
    assert not entry.matches(other, "x = 2.0**-53\n", "x = 3.0**-53\n")


def test_an_equivalent_without_a_reason_is_refused(tmp_path: Path) -> None:
    listed = tmp_path / "equivalent.toml"
    listed.write_text(
        '[[equivalent]]\npath = "pe/x.py"\noperator = "core/AddNot"\nline = "x"\n'
        'becomes = "not x"\nreason = "ok"\n'
    )
    with pytest.raises(ValueError, match="give the reason"):
        run.equivalents(listed)


def test_changed_lines_are_read_from_git(tmp_path: Path) -> None:
    root = _tree(tmp_path)

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    small = root / "pe" / "small.py"
    small.write_text(SOURCE.replace("if b > a:", "if b >= a:"), encoding="utf-8")
    assert run.changed_lines("HEAD", root) == {"pe/small.py": {10}}


CANDIDATES = '''"""A chapter."""

from pe.claims import Candidate


def truth(x: int) -> int:
    return x + 1


def _off_by_two(x: int) -> int:
    return x + 2


OFF_BY_TWO = Candidate("off by two", _off_by_two)
DOUBLED = Candidate(
    "doubled",
    lambda x: 2 * x,
)
USED = Candidate("the truth, shifted", truth)
ONE = truth(0)
'''


def test_wrong_candidates_are_never_drawn_and_the_rest_is(tmp_path: Path) -> None:
    """Lines that only build a wrong candidate (the ``Candidate`` call, a function used only
    there) are left out; a function also used elsewhere (``truth``) is still mutated."""
    lines = CANDIDATES.splitlines()
    left_out = run.wrong_candidate_lines(CANDIDATES)
    assert {lines[n - 1].strip() for n in left_out} >= {
        "def _off_by_two(x: int) -> int:",
        "return x + 2",
        'OFF_BY_TWO = Candidate("off by two", _off_by_two)',
        "lambda x: 2 * x,",
        'USED = Candidate("the truth, shifted", truth)',
    }
    assert "return x + 1" not in {lines[n - 1].strip() for n in left_out}
    (tmp_path / "pe").mkdir()
    (tmp_path / "pe" / "chapter.py").write_text(CANDIDATES, encoding="utf-8")
    drawn = {lines[m.line - 1].strip() for m in run.mutants_of("pe/chapter.py", tmp_path)}
    assert "return x + 1" in drawn
    assert drawn.isdisjoint({"return x + 2", "lambda x: 2 * x,"})
