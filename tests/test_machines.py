"""The machine matrix: every claim holds, and every page prints the same numbers, whatever
kernels NumPy and OpenBLAS run (:mod:`tests.machines`)."""

from __future__ import annotations

import os

import pytest

from . import machines

X86 = frozenset({"sse4_2", "avx", "avx2", "fma"})
AVX512 = X86 | {"avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"}


def test_the_matrix_runs_only_kernels_the_processor_has() -> None:
    """A kernel the processor cannot run would crash: none is chosen without its flags."""
    every = machines.machines(AVX512, frozenset({"X86_V3", "X86_V4"}), {}, "x86_64")
    assert len(every) == 4 * 3
    avx2 = machines.machines(X86, frozenset({"X86_V3"}), {}, "x86_64")
    assert {m.env["OPENBLAS_CORETYPE"] for m in avx2} == {"Nehalem", "Sandybridge", "Haswell"}
    assert {m.env["NPY_DISABLE_CPU_FEATURES"] for m in avx2} == {
        "X86_V3,X86_V4,AVX512_ICL,AVX512_SPR",
        "X86_V4,AVX512_ICL,AVX512_SPR",
    }
    old = machines.machines(frozenset({"sse4_2"}), frozenset(), {}, "x86_64")
    assert [m.env["OPENBLAS_CORETYPE"] for m in old] == ["Nehalem"]
    assert machines.machines(AVX512, frozenset(), {}, "aarch64") == [machines.Machine("as is")]


def test_a_preset_openblas_kernel_is_kept() -> None:
    """Where the environment sets OPENBLAS_CORETYPE, only NumPy's dispatch varies."""
    matrix = machines.machines(
        AVX512, frozenset({"X86_V3"}), {"OPENBLAS_CORETYPE": "Zen"}, "x86_64"
    )
    assert {m.env["OPENBLAS_CORETYPE"] for m in matrix} == {"Zen"}
    assert len(matrix) == 2


def test_cpu_flags_are_read_from_cpuinfo() -> None:
    text = "processor : 0\nflags\t\t: fpu sse4_2 avx avx2 fma\nbugs : x\n"
    assert machines.cpu_flags(text) == {"fpu", "sse4_2", "avx", "avx2", "fma"}
    assert machines.cpu_flags("") == frozenset()


def _report(claims: dict[str, list[str]], values: dict[str, str]) -> dict[str, object]:
    return {"claims": claims, "values": values, "openblas": "x"}


def test_differences_names_a_failed_claim_a_missing_one_and_a_number_printed_otherwise() -> None:
    same = _report({"a": [], "b": []}, {"p: {{ x:.3f }}": "0.125"})
    assert machines.differences({"one": same, "two": same}) == []
    failed = _report({"a": [], "b": ["loose: x"]}, {"p: {{ x:.3f }}": "0.125"})
    missing = _report({"a": []}, {"p: {{ x:.3f }}": "0.125"})
    printed = _report({"a": [], "b": []}, {"p: {{ x:.3f }}": "0.126"})
    assert machines.differences({"one": same, "two": failed}) == ["two: b fails: loose: x"]
    assert machines.differences({"one": same, "two": missing}) == [
        "two: claim ids differ from one's"
    ]
    assert machines.differences({"one": same, "two": printed}) == [
        "two: p: {{ x:.3f }} renders '0.126', one '0.125'"
    ]


def _needs_a_matrix(matrix: list[machines.Machine]) -> None:
    if len(matrix) < 2:
        message = "this processor offers a single machine: nothing to compare"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.mark.slow
def test_every_machine_gives_the_same_verdicts_and_page_values() -> None:
    """pe verify under every emulated machine: the same claim ids, every claim ok, and every
    number the pages render (placeholders and claim cards) printed the same."""
    matrix = machines.machines()
    _needs_a_matrix(matrix)
    reports = machines.run_matrix(matrix)
    assert machines.differences(reports) == []
    assert all(len(r["values"]) > 20 for r in reports.values())
    # the claim cards' lines are compared too, each as the site prints it
    assert all(any(key.startswith("card ") for key in r["values"]) for r in reports.values())


@pytest.mark.slow
def test_the_matrix_catches_a_check_whose_verdict_depends_on_the_kernel() -> None:
    """A check held to a threshold between two kernels' roundings passes on some machines and
    fails on others: the matrix reports it."""
    matrix = machines.machines()
    _needs_a_matrix(matrix)
    gaps = {name: r["gap"] for name, r in machines.run_matrix(matrix, ["--gap"]).items()}
    if len(set(gaps.values())) < 2:
        message = f"every kernel here rounds the probe alike ({gaps}): nothing to catch"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    low, high = min(gaps.values()), max(gaps.values())
    threshold = (low + high) / 2
    reports = machines.run_matrix(matrix, ["--threshold", repr(threshold)])
    found = machines.differences(reports)
    failing = {line.split(":")[0] for line in found}
    assert failing == {name for name, gap in gaps.items() if gap > threshold}, found
    assert failing
    assert failing != set(gaps)
