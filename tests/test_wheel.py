"""The distribution as a user gets it: built, installed outside the checkout, and run there.

``python -m build`` makes the sdist and, from it, the wheel (so the sdist is complete);
the wheel is installed into a fresh virtual environment in a temporary directory, and the
``pe`` command of that environment runs ``prove``, ``check``, ``verify`` and ``identify``
from there. Everything works offline: the new environment gets the dependencies (NumPy,
SymPy, safetensors) from this environment's site-packages through a ``.pth`` line, which
adds that folder to ``sys.path`` *after* the new environment's own site-packages and does
not run the ``.pth`` files in it (so the checkout's editable-install hook is not loaded).
Each command proves where ``pe`` came from.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

import pe

from .conftest import ROOT

pytestmark = pytest.mark.slow

DISTRIBUTION = "pe-sinusoidal"


def run(argv: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, f"{argv}: exit {result.returncode}\n{result.stderr[-2000:]}"
    return result.stdout


class Installed:
    """A virtual environment outside the checkout with the built wheel installed."""

    def __init__(self, work: Path) -> None:
        self.work = work
        dist = work / "dist"
        run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ROOT], cwd=work)
        (self.wheel,) = dist.glob("*.whl")
        (self.sdist,) = dist.glob("*.tar.gz")
        self.prefix = work / "venv"
        venv.create(self.prefix, with_pip=False, symlinks=True)
        self.bin = self.prefix / "bin"
        self.env = {
            "PATH": f"{self.bin}{os.pathsep}/usr/bin{os.pathsep}/bin",
            "HOME": str(work),
            "PYTHONNOUSERSITE": "1",
            "MPLBACKEND": "Agg",
        }
        purelib = self.python("import sysconfig; print(sysconfig.get_paths()['purelib'])")
        self.site = Path(purelib.strip())
        deps = sysconfig.get_paths()["purelib"]  # this environment's: NumPy, SymPy, ...
        (self.site / "_pe_test_dependencies.pth").write_text(deps + "\n")
        run(
            [sys.executable, "-m", "pip", "--python", self.bin / "python", "install",
             "--no-deps", "--no-index", "--disable-pip-version-check", "--quiet", self.wheel],
            cwd=work,
        )  # fmt: skip

    def python(self, code: str) -> str:
        return run([self.bin / "python", "-c", code], cwd=self.work, env=self.env)

    def pe(self, *args: str | Path) -> str:
        return run([self.bin / "pe", *args], cwd=self.work, env=self.env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    return Installed(tmp_path_factory.mktemp("wheel"))


def test_the_build_names_the_distribution(installed: Installed) -> None:
    assert installed.wheel.name == f"pe_sinusoidal-{pe.__version__}-py3-none-any.whl"
    assert installed.sdist.name == f"pe_sinusoidal-{pe.__version__}.tar.gz"
    assert not installed.work.is_relative_to(ROOT)


def test_pe_is_imported_from_the_installed_wheel(installed: Installed) -> None:
    found = json.loads(
        installed.python(
            "import importlib.metadata as m, importlib.resources as r, json, pe;"
            "print(json.dumps({'file': pe.__file__, 'version': m.version('pe-sinusoidal'),"
            "'data': r.files('pe.site').joinpath('data/benchmarks.json').is_file(),"
            "'pe_version': pe.__version__}))"
        )
    )
    assert Path(found["file"]).is_relative_to(installed.site)
    assert not Path(found["file"]).is_relative_to(ROOT)
    assert found["version"] == found["pe_version"] == pe.__version__
    assert found["data"]  # the benchmark table the precision page shows ships inside


def test_pe_prove(installed: Installed) -> None:
    out = installed.pe("prove")
    assert "4 of 4 proofs reduce to exactly 0" in out


def test_pe_check(installed: Installed) -> None:
    out = installed.pe("check", "--d-model", "64", "--positions", "256", "--offsets", "16")
    assert "all entries within tolerance" in out


def test_pe_verify(installed: Installed) -> None:
    out = installed.pe("verify")
    assert "claims hold with every wrong candidate rejected" in out.splitlines()[-1]
    ok, total = (int(w) for w in out.splitlines()[-1].split()[:3:2])
    assert ok == total > 0


def test_pe_identify(installed: Installed) -> None:
    np.save(installed.work / "table.npy", pe.sinusoidal(256, 64, dtype=np.float32))
    assert "the paper's encoding" in installed.pe("identify", "table.npy")
    tensors = {"pos": pe.sinusoidal(128, 32), "w": np.ones((4, 4))}
    save_file(tensors, str(installed.work / "model.safetensors"))
    out = installed.pe("identify", "model.safetensors", "--tensor", "pos", "--json")
    assert json.loads(out)["matches_paper"] is True


def test_the_checkout_is_not_on_the_path(installed: Installed) -> None:
    """This environment's editable install is a .pth line naming the checkout: not run there."""
    paths = json.loads(installed.python("import json, sys; print(json.dumps(sys.path))"))
    resolved = [Path(p).resolve() for p in paths if p]
    assert ROOT.resolve() not in resolved
    assert resolved.index(installed.site.resolve()) < resolved.index(
        Path(sysconfig.get_paths()["purelib"]).resolve()
    )
