"""Shared fixtures: the repository root and a strict, executed docs build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from pe.claims import Candidate

# Property tests explore new examples on every local run; with CI set they replay a fixed
# sequence, so that a CI verdict is reproducible (bugs they find locally become fixed cases).
# Neither profile times an example: a verdict must not depend on how loaded the machine is
# (Hypothesis's default 200 ms deadline failed tests on a busy 2-core machine; speed is for
# make bench).
settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """Name a wrong candidate by its name, not by a repr that holds memory addresses.

    ``make test-fast`` runs the suite in two pytest-xdist workers, and each worker must collect the
    same test ids: ``Candidate(name=..., value=<function <lambda> at 0x7f...>)`` differs between
    processes, ``rotation scaled by 2`` does not.
    """
    del config, argname
    return val.name if isinstance(val, Candidate) else None


def run_pe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m pe ARGS`` and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "pe", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
        timeout=600,
    )


def build_site(config: Path, site_dir: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config`` into ``site_dir``."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(config),
            "-d",
            str(site_dir),
        ],
        capture_output=True,
        text=True,
        cwd=config.parent,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"},
        check=False,
        timeout=1800,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per session with ``mkdocs build --strict``; fails on any warning."""
    site = tmp_path_factory.mktemp("site")
    result = build_site(ROOT / "mkdocs.yml", site)
    (site.parent / f"{site.name}-build.log").write_text(result.stdout + result.stderr)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("WARNING")]
    assert warnings == []
    return site
