"""The machine matrix: the same verdicts whatever kernels NumPy and OpenBLAS pick.

NumPy and OpenBLAS choose their kernels from the processor at run time, so sums, matrix
products and ``np.sin`` round differently from one machine to the next. This module emulates
several machines on the one it runs on and runs a probe (:mod:`tests.machine_probe`) under
each, in parallel processes:

- NumPy's dispatch narrowed with ``NPY_DISABLE_CPU_FEATURES``: the baseline only, up to AVX2
  (``X86_V3``), up to AVX-512 (``X86_V4`` and later), each where the processor has it;
- crossed with the OpenBLAS kernel forced with ``OPENBLAS_CORETYPE``: ``Nehalem``,
  ``Sandybridge``, ``Haswell``, ``SkylakeX``, each only where the processor has the
  instructions it needs (a kernel it cannot run would crash). Where the environment already
  sets ``OPENBLAS_CORETYPE``, that one is kept and only NumPy's dispatch varies.

:func:`differences` compares what the probes report: the same claim ids, every claim ok,
and every number the pages render printed the same. ``python -m tests.machines`` prints the
matrix of this machine and runs it.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: NumPy dispatch levels: the targets each one disables (``numpy._core`` names).
NUMPY_LEVELS: dict[str, tuple[str, ...]] = {
    "baseline": ("X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR"),
    "AVX2": ("X86_V4", "AVX512_ICL", "AVX512_SPR"),
    "AVX-512": (),
}
#: The NumPy target a level needs (the highest it keeps), or None for the baseline.
NUMPY_NEEDS: dict[str, str | None] = {"baseline": None, "AVX2": "X86_V3", "AVX-512": "X86_V4"}
#: OpenBLAS kernels and the processor flags (``/proc/cpuinfo``) each one needs.
OPENBLAS_KERNELS: dict[str, frozenset[str]] = {
    "Nehalem": frozenset({"sse4_2"}),
    "Sandybridge": frozenset({"avx"}),
    "Haswell": frozenset({"avx2", "fma"}),
    "SkylakeX": frozenset({"avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"}),
}


@dataclass(frozen=True)
class Machine:
    """One emulated machine: its name and the environment variables that make it."""

    name: str
    env: Mapping[str, str] = field(default_factory=dict)


def cpu_flags(cpuinfo: str | None = None) -> frozenset[str]:
    """The processor's flags, from ``/proc/cpuinfo`` (empty where there is none)."""
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text(encoding="utf-8") if path.exists() else ""
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            return frozenset(line.partition(":")[2].split())
    return frozenset()


def numpy_features() -> frozenset[str]:
    """The dispatch targets NumPy finds on this processor."""
    found: dict[str, bool] = importlib.import_module(
        "numpy._core._multiarray_umath"
    ).__cpu_features__
    return frozenset(name for name, present in found.items() if present)


def machines(
    flags: frozenset[str] | None = None,
    features: frozenset[str] | None = None,
    environ: Mapping[str, str] | None = None,
    arch: str | None = None,
) -> list[Machine]:
    """The matrix of this machine: every NumPy level crossed with every OpenBLAS kernel it can run.

    On a processor other than x86-64 only the machine as it is is returned.
    """
    arch = platform.machine() if arch is None else arch
    if arch not in ("x86_64", "AMD64"):
        return [Machine("as is")]
    flags = cpu_flags() if flags is None else flags
    features = numpy_features() if features is None else features
    environ = os.environ if environ is None else environ
    levels = [name for name, need in NUMPY_NEEDS.items() if need is None or need in features]
    preset = environ.get("OPENBLAS_CORETYPE")
    kernels = [preset] if preset else [k for k, need in OPENBLAS_KERNELS.items() if need <= flags]
    return [
        Machine(
            f"{kernel} x NumPy {level}",
            {
                "OPENBLAS_CORETYPE": kernel,
                "NPY_DISABLE_CPU_FEATURES": ",".join(NUMPY_LEVELS[level]),
                "OPENBLAS_NUM_THREADS": "1",
            },
        )
        for kernel in kernels
        for level in levels
    ]


def run_probe(
    machine: Machine, args: Sequence[str] = (), timeout: float = 1200.0
) -> dict[str, Any]:
    """Run ``python -m tests.machine_probe ARGS`` under ``machine``; its JSON report.

    Raises
    ------
    RuntimeError
        If the probe fails (a crash under a kernel, an exception), with its stderr.
    """
    env = {**os.environ, **machine.env}
    done = subprocess.run(
        [sys.executable, "-m", "tests.machine_probe", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-5:]
        raise RuntimeError(f"{machine.name}: probe exited {done.returncode}: {' | '.join(tail)}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def run_matrix(
    matrix: Sequence[Machine], args: Sequence[str] = (), jobs: int = 2
) -> dict[str, dict[str, Any]]:
    """The probe's report under every machine of ``matrix``, ``jobs`` at a time."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        reports = list(pool.map(lambda m: run_probe(m, args), matrix))
    return {m.name: r for m, r in zip(matrix, reports, strict=True)}


def differences(reports: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What the machines disagree on, one line each; empty when they agree.

    Each report holds ``claims`` (id to a list of problems, empty when the claim is ok)
    and ``values`` (a page's placeholder to the text it renders). A claim that fails on any
    machine is reported, and so is every claim id or rendered text that differs between
    machines.
    """
    found: list[str] = []
    names = list(reports)
    if not names:
        return ["no machine was run"]
    first = reports[names[0]]
    for name in names:
        report = reports[name]
        for claim_id, problems in report["claims"].items():
            if problems:
                found.append(f"{name}: {claim_id} fails: {problems[0]}")
        if list(report["claims"]) != list(first["claims"]):
            found.append(f"{name}: claim ids differ from {names[0]}'s")
        for key, text in report["values"].items():
            if first["values"].get(key) != text:
                found.append(
                    f"{name}: {key} renders {text!r}, {names[0]} {first['values'].get(key)!r}"
                )
        if report["values"].keys() != first["values"].keys():
            found.append(f"{name}: the pages' placeholders differ from {names[0]}'s")
    return found


def main() -> int:
    """Print this machine's matrix, run the probe under each machine, print what differs."""
    matrix = machines()
    for machine in matrix:
        print(f"{machine.name}: {' '.join(f'{k}={v}' for k, v in machine.env.items())}")
    reports = run_matrix(matrix)
    for name, report in reports.items():
        ok = sum(not p for p in report["claims"].values())
        print(
            f"{name}: OpenBLAS {report['openblas']}, {ok} of {len(report['claims'])} claims ok, "
            f"{len(report['values'])} page values"
        )
    found = differences(reports)
    print("\n".join(found) or "every machine: the same claims, all ok, the same page values")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
