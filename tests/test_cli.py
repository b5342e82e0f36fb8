"""The ``pe`` command: exit codes, output, and clean errors for bad arguments."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pe import cli, numeric

from .conftest import run_pe
from .helpers import false_claim


def test_prove_prints_steps_and_exits_zero() -> None:
    result = run_pe("prove")
    assert result.returncode == 0, result.stderr
    assert "expand_trig" in result.stdout
    assert "4 of 4 proofs reduce to exactly 0" in result.stdout
    assert result.stdout.count("-> PROVED") == 4
    assert "NOT DECIDED" not in result.stdout
    assert (
        "transposed block: DISPROVED at k = 1, p = 0, base = 2, d = 4, i = 0, entry [0] = -2*sin(1)"
        in (result.stdout)
    )
    assert "5 of 5 wrong candidates disproved with an exact counterexample" in result.stdout


def test_check_prints_the_table_and_exits_zero() -> None:
    result = run_pe(
        "check", "--d-model", "64", "--positions", "300", "--offsets", "9", "--dtype", "float32"
    )
    assert result.returncode == 0, result.stderr
    assert "all entries within tolerance" in result.stdout
    assert result.stdout.count(" ok") == 5  # offset groups 0, 1, 2..3, 4..7, 8
    first = result.stdout.splitlines()[0]
    assert first == "T_k PE(p) = PE(p+k): d_model=64, positions 0..299, base=10000, float32"


def test_verify_prints_the_table() -> None:
    result = run_pe("verify")
    assert result.returncode == 0, result.stderr
    assert "rotation-identity" in result.stdout
    assert "claims hold with every wrong candidate rejected" in result.stdout


def test_module_and_help() -> None:
    for args in (["--help"], ["prove", "--help"], ["check", "--help"], ["verify", "--help"]):
        result = run_pe(*args)
        assert result.returncode == 0
        assert result.stdout.startswith("usage: pe")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["nonsense"],
        ["check", "--d-model", "7"],
        ["check", "--d-model", "0"],
        ["check", "--d-model", "abc"],
        ["check", "--positions", "-5"],
        ["check", "--positions", "1e9"],
        ["check", "--positions", "nan"],
        ["check", "--offsets", "0"],
        ["check", "--dtype", "float8"],
        ["check", "--base", "1"],
        ["check", "--base", "inf"],
        ["check", "--base", "nan"],
        ["check", "--unknown"],
        ["prove", "--d-model", "9"],
        ["prove", "--d-model", "100000"],
        ["verify", "--json", "extra"],
        ["verify", "--json", "\n", "unexpected"],  # found by hypothesis: a newline in argv
        ["check", "--d-model", "8\r\n9"],
    ],
)
def test_bad_arguments_exit_2_with_a_usage_line(args: list[str]) -> None:
    result = run_pe(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("usage: pe")
    assert lines[-1].startswith("pe")
    assert "error:" in lines[-1]
    assert "Traceback" not in result.stderr


def test_check_exits_one_when_the_identity_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    true_matrix = numeric.shift_matrix
    monkeypatch.setattr(
        numeric, "shift_matrix", lambda k, d, base=10000.0: true_matrix(k, d, base=base).T
    )
    assert cli.main(["check", "--d-model", "8", "--positions", "10", "--offsets", "3"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_verify_exits_one_when_a_claim_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pe import claims

    false = false_claim()
    monkeypatch.setattr(claims, "all_claims", lambda: (false,))
    claims.verify.cache_clear()
    try:
        assert cli.main(["verify"]) == 1
    finally:
        claims.verify.cache_clear()
    assert "NO" in capsys.readouterr().out


def test_prove_exits_one_when_a_proof_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pe import symbolic

    true_block = symbolic.shift_block
    monkeypatch.setattr(symbolic, "shift_block", lambda k, w: true_block(k, w).T)
    assert cli.main(["prove"]) == 1
    out = capsys.readouterr().out
    assert "-> DISPROVED at " in out
    assert "transposed block: PROVED" in out  # the wrong candidate is now the true block


def test_prove_says_not_decided_and_exits_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A residual the strategy cannot decide is reported as such, never as false: the true
    block times cosh(k^3)^2 - sinh(k^3)^2, which is 1 but outside the decided class."""
    import sympy as sp

    from pe import symbolic

    true_block = symbolic.shift_block
    one = (
        sp.cosh(sp.Symbol("k", real=True) ** 3) ** 2 - sp.sinh(sp.Symbol("k", real=True) ** 3) ** 2
    )

    def block(k: Any, w: Any) -> Any:
        return true_block(k, w) * one.subs(sp.Symbol("k", real=True), k)

    monkeypatch.setattr(symbolic, "shift_block", block)
    assert cli.main(["prove"]) == 1
    out = capsys.readouterr().out
    assert "-> NOT DECIDED (outside trigonometric polynomials in linear arguments)" in out


def test_offset_groups_cover_every_offset_once() -> None:
    for count in (1, 2, 3, 64, 100):
        groups = cli._offset_groups(count)
        np.testing.assert_array_equal(np.concatenate(groups), np.arange(count))
