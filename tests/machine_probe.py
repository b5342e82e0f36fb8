"""What one emulated machine reports, as JSON on stdout (run by :mod:`tests.machines`).

``python -m tests.machine_probe`` verifies every claim, measures the elementary functions
against the accuracy the error models assume (as the pseudo-claim ``elementary-functions``),
renders every placeholder of the pages and every line of the claim cards (each piece of
evidence as the site prints it): ``{"claims": {id: [problems]}, "values": {"page: {{
name:format }}": text, "card id #i": text}, "openblas": kernel}``. Two small modes exist for the test that the matrix can fail:
``--gap`` reports a number that depends on the kernels (float32 sine's largest error, which
NumPy's dispatch decides, plus the largest difference between attention rows computed alone
and all at once, which OpenBLAS's kernel decides), and ``--threshold X`` verifies one claim
that holds when that number is at most ``X``: a check of the machine, not of a statement.
"""

from __future__ import annotations

import argparse
import ctypes
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from pe.claims import ClaimResult

ROOT = Path(__file__).resolve().parent.parent


def openblas_kernel() -> str:
    """The kernel OpenBLAS chose (the ``scipy-openblas`` library NumPy ships), or ``unknown``."""
    folder = Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for library in sorted(folder.glob("libscipy_openblas*.so*")):
        handle = ctypes.CDLL(str(library))
        for symbol in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename"):
            if hasattr(handle, symbol):
                function = getattr(handle, symbol)
                function.restype = ctypes.c_char_p
                return str(function().decode())
    return "unknown"


def page_values() -> dict[str, str]:
    """Every placeholder of every page, rendered as the build renders it."""
    from pe.site import prose

    rendered: dict[str, str] = {}
    for page in sorted((ROOT / "docs").glob("*")):
        if page.suffix not in (".py", ".md"):
            continue
        for match in prose.PLACEHOLDER.finditer(page.read_text(encoding="utf-8")):
            rendered[f"{page.stem}: {match.group(0)}"] = prose.fill(match.group(0), page.stem)
    return rendered


def card_lines(results: Sequence[ClaimResult]) -> dict[str, str]:
    """Every line of every claim card, as the site prints it (evidence, then controls)."""
    return {
        f"card {result.id} #{i}": evidence.shown
        for result in results
        for i, evidence in enumerate((*result.evidence, *result.controls))
    }


def elementary_functions() -> list[str]:
    """The error models' assumption on this machine: sin, cos, exp and power within
    :data:`pe._tolerance.ELEMENTARY_ULPS` (a problem per function past it)."""
    from pe._tolerance import ELEMENTARY_ULPS

    from .test_error_models import elementary_ulps

    return [
        f"np.{name} errs by {ulps:.3g} ulp, more than the models' {ELEMENTARY_ULPS}"
        for name, ulps in elementary_ulps().items()
        if ulps > ELEMENTARY_ULPS
    ]


def sine_gap() -> float:
    """The largest error of NumPy's float32 sine and cosine on 200000 arguments, against
    float64: NumPy's dispatch decides it (its SIMD kernels round otherwise than the
    baseline's), whatever OpenBLAS kernel is preset."""
    x = (np.arange(200_000, dtype=np.float64) * 0.37).astype(np.float32)
    wide = x.astype(np.float64)
    return float(
        max(
            np.abs(np.sin(x).astype(np.float64) - np.sin(wide)).max(),
            np.abs(np.cos(x).astype(np.float64) - np.cos(wide)).max(),
        )
    )


def kernel_gap(layer: Any = None) -> float:
    """A number the kernels decide: :func:`sine_gap` (NumPy's dispatch) plus the largest
    difference between attention rows computed alone and all at once (OpenBLAS's kernel;
    ``layer``, attention by default)."""
    from pe import attention

    chosen = attention.attention_layer if layer is None else layer
    return sine_gap() + attention.row_independence_gap(chosen, 32, 64)


def kernel_dependent_claim(threshold: float) -> dict[str, list[str]]:
    """The claim "rows alone and all at once differ by at most ``threshold``" (a flaky check)."""
    from pe import attention, claims
    from pe._tolerance import Tolerance
    from pe.claims import Candidate

    def check(layer: attention.Layer) -> claims.Evidence:
        gap = kernel_gap(layer)
        tolerance = Tolerance(threshold, "a threshold between two kernels' roundings")
        return claims.within(gap, tolerance, f"float32 sine and rows alone vs at once: {gap:.3g}")

    flaky = claims.Claim(
        id="kernel-dependent",
        title="A check of the machine",
        statement="x",
        page="why-order",
        checks=(
            claims.Check(
                check,
                true=attention.attention_layer,
                wrong=(Candidate("an Elman cell", attention.elman_layer),),
            ),
        ),
    )
    return {flaky.id: list(claims.run(flaky).problems)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.machine_probe")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--gap", action="store_true", help="report the kernel-dependent number")
    mode.add_argument("--threshold", type=float, help="verify the kernel-dependent claim")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"openblas": openblas_kernel()}
    if args.gap:
        report["gap"] = kernel_gap()
    elif args.threshold is not None:
        report |= {"claims": kernel_dependent_claim(args.threshold), "values": {}}
    else:
        from pe import claims

        results = claims.verify_all()
        report["claims"] = {r.id: list(r.problems) for r in results}
        report["claims"]["elementary-functions"] = elementary_functions()
        report["values"] = page_values() | card_lines(results)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
