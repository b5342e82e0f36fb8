"""``make mutants`` stays runnable: every fault it injects still finds its place in the source.

The campaign itself (``tests/mutants/run.py``) is too slow for ``make test``; this test only
checks that each mutant's snippet stands exactly once in its file, so that a change to the
library that moves a snippet fails here instead of breaking ``make mutants`` later.
"""

from __future__ import annotations

import importlib.util
import sys
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


MUTANTS = _campaign().MUTANTS


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_mutant_finds_its_snippet_once(mutant: Any) -> None:
    source = (ROOT / mutant.path).read_text()
    assert source.count(mutant.old) == 1, f"{mutant.path}: the snippet of {mutant.name!r}"
    assert mutant.old != mutant.new
