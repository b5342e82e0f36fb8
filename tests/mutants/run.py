"""Mutation run: inject realistic faults into a copy of ``pe``, one at a time; count the caught.

``make mutants`` (or ``.venv/bin/python tests/mutants/run.py [NAME ...]``) copies ``pe/``,
``tests/`` and ``pyproject.toml`` to a temporary directory, and for each mutant of
:data:`MUTANTS` replaces one exact snippet of one file of the copy, runs the fast tests
(:data:`FAST_TESTS`, stopping at the first failure) and, if they all pass, ``pe verify``;
then restores the file. The working tree is never modified. A baseline run of the
unmutated copy must pass first. A mutant is *caught* when the
tests or ``pe verify`` fail (a run over :data:`TIMEOUT` seconds counts as caught and is
marked so). Mutants run one after another (2 cores shared): expect 20-40 minutes.

Not collected by pytest (the file is not named ``test_*.py``) and not part of ``make test``.
Exit status 0 when at least :data:`TARGET` of the mutants are caught.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Fraction of mutants that must be caught.
TARGET = 0.95
#: Seconds allowed for each of the two runs of one mutant.
TIMEOUT = 900
#: The fast tests run for every mutant, the quickest and most targeted first (``-x``).
#: Slow suites (the docs build, the browser tests, the hostile-input property tests, the
#: per-chapter claim tests that ``pe verify`` repeats) are left out.
FAST_TESTS = (
    "tests/test_symbolic_numeric.py",
    "tests/test_one_place.py",
    "tests/test_table_paths.py",
    "tests/test_error_models.py",
    "tests/test_identify_edges.py",
    "tests/test_claims.py::test_one_control_accepted_is_enough_to_fail",
    "tests/test_claims.py::test_a_control_that_cannot_pass_is_broken",
    "tests/test_claims.py::test_a_check_failing_its_own_true_candidate_is_broken",
    "tests/test_claims.py::test_a_tolerance_loosened_1000x_is_loose",
    "tests/test_claims.py::test_loose_threshold_is_1000x",
    "tests/test_claims.py::test_an_exception_fails_the_claim_with_its_message",
    "tests/test_claims.py::test_a_true_claim_verifies_and_a_false_one_does_not",
    "tests/test_symbolic.py",
    "tests/test_numeric.py",
    "tests/test_rope.py",
    "tests/test_cli.py",
    "tests/test_identify.py",
    "tests/test_precision.py",
    "tests/test_conventions.py",
    "tests/test_testing.py",
)


@dataclass(frozen=True)
class Mutant:
    """Replace ``old`` (found exactly once) by ``new`` in ``path``."""

    name: str
    path: str
    old: str
    new: str


MUTANTS = (
    # the frequency law and the shift, numeric
    Mutant(
        "numeric: frequency exponent -i/d instead of -2i/d",
        "pe/_extended_precision.py",
        "ratio = (Decimal(-2) * Decimal(base).ln() / Decimal(d_model)).exp()\n        if half <= _DECIMAL_PAIRS:\n            out = np.empty(half, dtype=np.float64)",
        "ratio = (Decimal(-1) * Decimal(base).ln() / Decimal(d_model)).exp()\n        if half <= _DECIMAL_PAIRS:\n            out = np.empty(half, dtype=np.float64)",
    ),
    Mutant(
        "numeric: transposed shift block",
        "pe/numeric.py",
        "    matrix[pairs, pairs + 1] = s\n    matrix[pairs + 1, pairs] = -s",
        "    matrix[pairs, pairs + 1] = -s\n    matrix[pairs + 1, pairs] = s",
    ),
    Mutant(
        "numeric: direct table with sine and cosine swapped",
        "pe/numeric.py",
        "    table[:, 0::2] = np.sin(angles)\n    table[:, 1::2] = np.cos(angles)",
        "    table[:, 0::2] = np.cos(angles)\n    table[:, 1::2] = np.sin(angles)",
    ),
    Mutant(
        "numeric: rotation check keeps the worst ratio of the last offset only",
        "pe/numeric.py",
        "worst_ratio=max(item[0].worst_ratio for item in found),",
        "worst_ratio=found[-1][0].worst_ratio,",
    ),
    Mutant(
        "numeric: rotation check compares with PE(p + k - 1) at negative offsets",
        "pe/numeric.py",
        "_table(ps + k, omega, work_dtype))",
        "_table(ps + k - (k < 0), omega, work_dtype))",
    ),
    Mutant(
        "tolerance: phase tolerance loosened 1000x",
        "pe/_tolerance.py",
        "return np.asarray(4.0 * eps + 4.0 * EPS64 * w * x, dtype=np.float64)",
        "return np.asarray(4000.0 * eps + 4.0 * EPS64 * w * x, dtype=np.float64)",
    ),
    Mutant(
        "tolerance: worst_case takes the ratio at the largest error only",
        "pe/_tolerance.py",
        "worst_ratio=float(ratio.max()),",
        "worst_ratio=float(ratio[index]),",
    ),
    Mutant(
        "tolerance: phase tolerance's angle term loosened 10x",
        "pe/_tolerance.py",
        "return np.asarray(4.0 * eps + 4.0 * EPS64 * w * x, dtype=np.float64)",
        "return np.asarray(4.0 * eps + 40.0 * EPS64 * w * x, dtype=np.float64)",
    ),
    Mutant(
        "numeric: rotation tolerance's reach forgets the offset",
        "pe/numeric.py",
        'np.abs(real_array("position", position)) + abs(k))',
        'np.abs(real_array("position", position)) + 0 * abs(k))',
    ),
    # the table algorithm
    Mutant(
        "table: float64 clip to [-1, 1] removed (consecutive fill)",
        "pe/_rotation_table.py",
        "                np.clip(region, -1.0, 1.0, out=region)\n",
        "",
    ),
    Mutant(
        "table: float64 clip to [-1, 1] removed (scattered fill)",
        "pe/_rotation_table.py",
        "            np.clip(values, -1.0, 1.0, out=values)\n",
        "            pass\n",
    ),
    Mutant(
        "table: shift factor with the wrong sign of sine",
        "pe/_rotation_table.py",
        "    factors.imag = -start_anchors.real",
        "    factors.imag = start_anchors.real",
    ),
    Mutant(
        "table: consecutive fill taken for a first row off the block grid",
        "pe/_rotation_table.py",
        "consecutive = first % BLOCK == 0 and (",
        "consecutive = first % 2 == 0 and (",
    ),
    Mutant(
        "table: the last partial block reuses the previous block start",
        "pe/_rotation_table.py",
        "_fill_blocks(out[m * BLOCK :], base_rows[:rest], factors[m:], None)",
        "_fill_blocks(out[m * BLOCK :], base_rows[:rest], factors[m - 1 : m] if m else factors[m:], None)",
    ),
    Mutant(
        "table: float64 entry bound loosened 1000x",
        "pe/_rotation_table.py",
        "ENTRY_ERROR_BOUND = 2.0 * math.sqrt(2.0) * ANCHOR_ERROR_BOUND + 3.0 * 2.0**-54",
        "ENTRY_ERROR_BOUND = 1000 * (2.0 * math.sqrt(2.0) * ANCHOR_ERROR_BOUND + 3.0 * 2.0**-54)",
    ),
    Mutant(
        "extended precision: low term of the frequency dropped",
        "pe/_extended_precision.py",
        "    e = e + p * f_lo\n",
        "",
    ),
    Mutant(
        "extended precision: first-order correction of the anchor dropped",
        "pe/_extended_precision.py",
        "    out.real = sin_hi + x_lo * cos_hi",
        "    out.real = sin_hi",
    ),
    # RoPE
    Mutant(
        "rotary: halves pairing swapped for adjacent",
        "pe/rotary.py",
        "        first, second = slice(0, width // 2), slice(width // 2, width)",
        "        first, second = slice(0, width, 2), slice(1, width, 2)",
    ),
    Mutant(
        "rotary: RoPE rotates clockwise",
        "pe/rotary.py",
        "    out[..., first] = a * c - b * s\n    out[..., second] = b * c + a * s",
        "    out[..., first] = a * c + b * s\n    out[..., second] = b * c - a * s",
    ),
    Mutant(
        "rotary: pairing permutation lists odd columns first",
        "pe/rotary.py",
        "return np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)]).astype(np.int64)",
        "return np.concatenate([np.arange(1, width, 2), np.arange(0, width, 2)]).astype(np.int64)",
    ),
    Mutant(
        "rotary: offset error against the reference of the first offset only",
        "pe/rotary.py",
        "reference = rope_scores(q, k, zeros, np.array([r]), base=base, pairing=pairing)[0]",
        "reference = rope_scores(q, k, zeros, rs[:1], base=base, pairing=pairing)[0]",
    ),
    Mutant(
        "rotary: offset tolerance loosened 1000x",
        "pe/rotary.py",
        "2.0 * eps_a * weighted * reach + (width + 8) * eps64 * float(rho.sum())",
        "2000.0 * eps_a * weighted * reach + (width + 8) * eps64 * float(rho.sum())",
    ),
    # symbolic
    Mutant(
        "symbolic: OMEGA exponent -i/d",
        "pe/symbolic.py",
        "OMEGA = BASE ** (-2 * I / D)",
        "OMEGA = BASE ** (-I / D)",
    ),
    Mutant(
        "symbolic: transposed shift block",
        "pe/symbolic.py",
        "    c, s = sp.cos(k * w), sp.sin(k * w)\n    return sp.Matrix([[c, s], [-s, c]])",
        "    c, s = sp.cos(k * w), sp.sin(k * w)\n    return sp.Matrix([[c, -s], [s, c]])",
    ),
    Mutant(
        "reference: mpmath frequency with exponent -i/d",
        "pe/reference.py",
        "return mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d)",
        "return mpmath.power(mpmath.mpf(base), -mpmath.mpf(i) / d)",
    ),
    # the claims registry
    Mutant(
        "registry: controls hard-wired false",
        "pe/claims/__init__.py",
        'return replace(evidence, detail=f"{name}: {evidence.detail}")',
        'return replace(evidence, holds=False, detail=f"{name}: {evidence.detail}")',
    ),
    Mutant(
        "registry: verified when any control is rejected instead of all",
        "pe/claims/__init__.py",
        "controls_rejected=not any(c.holds for c in controls),",
        "controls_rejected=not all(c.holds for c in controls),",
    ),
    Mutant(
        "registry: an exception escapes the claim",
        "pe/claims/__init__.py",
        "    except Exception as error:  # noqa: BLE001",
        "    except ArithmeticError as error:  # noqa: BLE001",
    ),
    Mutant(
        "registry: a wrong candidate within rounding of its tolerance never flagged",
        "pe/claims/__init__.py",
        "    if error > reach:",
        "    if error > reach or True:",
    ),
    Mutant(
        "registry: the loose margin ignores the rounding bound",
        "pe/claims/__init__.py",
        "MARGIN = 2.0",
        "MARGIN = 0.0",
    ),
    Mutant(
        "claims: float32 accuracy target loosened 1000x",
        "pe/claims/precision.py",
        "FLOAT32_BOUND = 2.0**-25 + 1.6e-15",
        "FLOAT32_BOUND = 1000 * (2.0**-25 + 1.6e-15)",
    ),
    Mutant(
        "claims: 10-15-20 tolerance loosened 1000x (at its source)",
        "pe/experiments/rotation_identity.py",
        "    return first, second, law_tolerance(25.0)",
        "    return first, second, 1000 * law_tolerance(25.0)",
    ),
    Mutant(
        "claims: far-position accuracy tolerance loosened 1000x",
        "pe/claims/failed_designs.py",
        "DELTA = _rotation_table.ENTRY_ERROR_BOUND",
        "DELTA = 1000 * _rotation_table.ENTRY_ERROR_BOUND",
    ),
    # the command line
    Mutant(
        "cli: pe check verdict from the last offset group only",
        "pe/cli.py",
        "        all_passed &= result.passed",
        "        all_passed = result.passed",
    ),
    Mutant(
        "cli: offset groups drop the last offset",
        "pe/cli.py",
        "groups.append(np.arange(start, min(2 * start, count)))",
        "groups.append(np.arange(start, min(2 * start, count - 1)))",
    ),
    # identify
    Mutant(
        "identify: held-out rows never checked",
        "pe/identify/__init__.py",
        "fit = dataclasses.replace(fit, residual=np.maximum(fit.residual, rest))",
        "fit = dataclasses.replace(fit, residual=fit.residual)",
    ),
    Mutant(
        "identify: residual floor moved 1e-8 -> 1e-6",
        "pe/identify/_explain.py",
        "RESIDUAL_FLOOR = 1e-8",
        "RESIDUAL_FLOOR = 1e-6",
    ),
    Mutant(
        "identify: residual cap moved 0.02 -> 0.2",
        "pe/identify/_explain.py",
        "RESIDUAL_CAP = 0.02",
        "RESIDUAL_CAP = 0.2",
    ),
    Mutant(
        "identify: angle error term dropped from the residual tolerance",
        "pe/identify/_explain.py",
        "RESIDUAL_EPS * eps + ANGLE_EPS * eps * reach + RESIDUAL_FLOOR",
        "RESIDUAL_EPS * eps + RESIDUAL_FLOOR",
    ),
    Mutant(
        "identify: values allowed 64 eps outside [-1, 1]",
        "pe/identify/_inputs.py",
        "PEAK_EPS = 8",
        "PEAK_EPS = 64",
    ),
    Mutant(
        "identify: pair frequencies agree within 1e-6 relative",
        "pe/identify/_layout.py",
        "AGREE_REL = 1e-9",
        "AGREE_REL = 1e-6",
    ),
    Mutant(
        "identify: base 10000 matched within 1e-6 relative",
        "pe/identify/_law.py",
        "BASE_MATCH = 1e-9",
        "BASE_MATCH = 1e-6",
    ),
    Mutant(
        "identify: law line fits within 25 sigma",
        "pe/identify/_law.py",
        "LINE_FIT = 2.5",
        "LINE_FIT = 25.0",
    ),
    Mutant(
        "identify: phases of a pair differ by a quarter turn within 1 rad",
        "pe/identify/_layout.py",
        "QUARTER_TURN = 0.25",
        "QUARTER_TURN = 1.0",
    ),
    Mutant(
        "identify: the systematic bound left out of the agreement of a pair",
        "pe/identify/_layout.py",
        "systematic = fit.bias_w[a] + fit.bias_w[b]",
        "systematic = 0.0 * fit.bias_w[a]",
    ),
    Mutant(
        "testing: RoPE called adjacent when any column pairs with its neighbour",
        "pe/_rope_probe.py",
        "    if np.all(partner == rows ^ 1):",
        "    if np.any(partner == rows ^ 1):",
    ),
    Mutant(
        "testing: RoPE base not checked",
        "pe/testing.py",
        "if measured is not None and not rope_base_agrees(found, measured[0], b):",
        "if measured is None and not rope_base_agrees(found, measured[0], b):",
    ),
    Mutant(
        "conventions: permutation matrix transposed",
        "pe/conventions.py",
        "    matrix[np.arange(perm.size), perm] = 1.0",
        "    matrix[perm, np.arange(perm.size)] = 1.0",
    ),
)


def _run(args: list[str], cwd: Path) -> tuple[bool, str]:
    """Run ``args`` in ``cwd`` (importing the copy of pe); (passed, last line of output)."""
    env = {**os.environ, "PYTHONPATH": str(cwd), "MPLBACKEND": "Agg"}
    try:
        result = subprocess.run(
            args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return False, f"timeout after {TIMEOUT} s"
    lines = (result.stdout + result.stderr).strip().splitlines()
    return result.returncode == 0, lines[-1] if lines else ""


def _verdict(copy: Path) -> str:
    """``tests``, ``pe verify`` (what caught it) or ``MISSED``."""
    tests = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *FAST_TESTS]
    passed, _ = _run(tests, copy)
    if not passed:
        return "tests"
    passed, _ = _run([sys.executable, "-m", "pe", "verify"], copy)
    return "MISSED" if passed else "pe verify"


def main(argv: list[str] | None = None) -> int:
    """Run the chosen mutants (all by default); print one line each and the score."""
    parser = argparse.ArgumentParser(description="Mutation run of pe (see the module).")
    parser.add_argument("names", nargs="*", help="substrings of mutant names to run")
    names = parser.parse_args(argv).names
    chosen = [m for m in MUTANTS if not names or any(n in m.name for n in names)]
    for mutant in MUTANTS:
        count = (ROOT / mutant.path).read_text().count(mutant.old)
        if count != 1:
            raise SystemExit(f"{mutant.name}: the snippet occurs {count} times in {mutant.path}")
    start = time.perf_counter()
    caught = 0
    with tempfile.TemporaryDirectory(prefix="pe-mutants-") as tmp:
        copy = Path(tmp)
        for part in ("pe", "tests"):
            shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
        baseline = _verdict(copy)
        if baseline != "MISSED":
            raise SystemExit(f"the unmutated copy fails ({baseline}): fix the tree first")
        print(
            f"baseline: the unmutated copy passes ({time.perf_counter() - start:.0f} s)", flush=True
        )
        for number, mutant in enumerate(chosen, start=1):
            target = copy / mutant.path
            original = target.read_text()
            target.write_text(original.replace(mutant.old, mutant.new))
            began = time.perf_counter()
            try:
                verdict = _verdict(copy)
            finally:
                target.write_text(original)
            caught += verdict != "MISSED"
            print(
                f"{number:3d}/{len(chosen)} {verdict:<9} {time.perf_counter() - began:6.0f} s  "
                f"{mutant.name}",
                flush=True,
            )
    score = caught / len(chosen)
    print(
        f"\n{caught} of {len(chosen)} mutants caught ({score:.0%}; target {TARGET:.0%}) in "
        f"{(time.perf_counter() - start) / 60:.1f} min"
    )
    return 0 if score >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
