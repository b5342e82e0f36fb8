"""The files a user reads first stay true: the README's quick start, CITATION.cff, CHANGELOG.md.

The quick start shows what ``pe prove``, ``pe check`` and ``pe identify`` print: every
output line it shows (outside the ``...`` that trim it) must be a line the command prints
now, so the README cannot drift from the code.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from safetensors.numpy import save_file

import pe
from pe import claims, conventions

from .conftest import ROOT

README = (ROOT / "README.md").read_text()


def quick_start() -> dict[str, list[str]]:
    """The quick start's console block: each ``$ command`` with the lines shown after it."""
    block = README.split("## Quick start", 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    shown: dict[str, list[str]] = {}
    command = ""
    for line in block.splitlines():
        if line.startswith("$ "):
            command = line[2:].split("  #")[0].strip()
            shown[command] = []
        elif line.strip() != "...":
            shown[command].append(line)
    return shown


def run_pe(args: list[str], cwd: Path) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pe", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def write_quick_start_checkpoint(path: Path) -> None:
    """The checkpoint of the quick start: a fairseq-style buffer among other weights."""
    table = conventions.get("fairseq").table(1026, 768, dtype=np.float32)
    rng = np.random.default_rng(0)
    save_file(
        {
            "decoder.embed_positions.weight": np.ascontiguousarray(table[None]),
            "decoder.layers.0.fc1.weight": rng.standard_normal((3072, 768)).astype(np.float32),
            "decoder.layers.0.fc1.bias": np.zeros(3072, dtype=np.float32),
        },
        str(path),
    )


@pytest.mark.parametrize("command", [c for c in quick_start() if c.startswith(".venv/bin/pe ")])
def test_the_quick_start_shows_real_output(command: str, tmp_path: Path) -> None:
    args = command.removeprefix(".venv/bin/pe ").split()
    if args[0] == "verify":  # 30 s; its last line is checked by tests/test_wheel.py
        # the README names no count (a new claim needs no edit here): only the table's
        # header and rows of registered claims
        ids = {claim.id for claim in claims.all_claims()}
        shown = [line.split()[0] for line in quick_start()[command]]
        assert shown[0] == "claim"
        assert shown[1:]
        assert set(shown[1:]) <= ids
        return
    if args[0] == "identify":
        write_quick_start_checkpoint(tmp_path / args[1])
    printed = run_pe(args, tmp_path)
    for line in quick_start()[command]:
        assert line in printed, f"README shows {line!r}, `pe {' '.join(args)}` does not print it"


def test_the_quick_start_names_real_make_targets() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for command in quick_start():
        if command.startswith("make "):
            assert re.search(rf"^{command.split()[1]}:", makefile, flags=re.MULTILINE), command


def test_citation_file_is_valid_and_current() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "type", "license"):
        assert citation[key], key
    assert citation["version"] == pe.__version__


def test_changelog_starts_with_the_current_version() -> None:
    headings = re.findall(r"^## \[([^\]]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings
    assert headings[0] == pe.__version__
