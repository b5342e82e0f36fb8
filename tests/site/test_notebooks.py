"""Every page notebook runs as plain Python (jupytext percent files are scripts)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT

#: The pages: jupytext files of docs/ (not its hooks, nor the code to copy of docs/examples/).
NOTEBOOKS = sorted(
    p for p in (ROOT / "docs").rglob("*.py") if not {"_hooks", "examples"} & set(p.parts)
)


def test_there_are_notebooks() -> None:
    assert len(NOTEBOOKS) >= 2


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_as_plain_python(notebook: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(notebook)],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # pages must not depend on the working directory
        env={**os.environ, "MPLBACKEND": "Agg"},
        check=False,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
