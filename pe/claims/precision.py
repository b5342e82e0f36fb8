"""Claims of the page "Precision and speed" (docs/precision.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from pe import _rotation_table as rotation_table
from pe import numeric
from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import precision

PAGE = "precision"

#: The accuracy claims cover positions below 2**20 and these widths.
WIDTHS = (64, 4096)
LIMIT = 2**20
FLOAT64_TARGET = 5e-16
FLOAT32_TARGET = 6e-8


def _conjugate_factor(q: Any, w: Any) -> Any:
    return sp.cos(w * q) + sp.I * sp.sin(w * q)


def _swapped_factor(q: Any, w: Any) -> Any:
    return sp.sin(w * q) - sp.I * sp.cos(w * q)


def _within(
    label: str, table: precision.Table, bound: float, widths: tuple[int, ...] = WIDTHS
) -> Callable[[], Evidence]:
    def run() -> Evidence:
        parts, worst = [], 0.0
        for d in widths:
            error, p, column = precision.max_sampled_error(table, LIMIT, d, seed=d)
            worst = max(worst, error)
            parts.append(f"d={d}: max error {error:.3g} at p={p}, column {column}")
        return checked(
            worst <= bound,
            f"{label}, 600 sampled entries per width below 2^20 (the 32 largest positions "
            f"included): {'; '.join(parts)}; bound {bound:.3g}",
        )

    return run


def _far_positions() -> Evidence:
    positions = np.array([2**53, 2**53 - 1, 2**45 + 12_345, 10**15 + 7, 3 * 2**30])
    d = 512
    table = numeric.sinusoidal(positions, d)
    rows = np.repeat(np.arange(positions.size), d)
    columns = np.tile(np.arange(d), positions.size)
    error = float(precision.exact_error(table[rows, columns], positions[rows], columns, d).max())
    bound = rotation_table.ENTRY_ERROR_BOUND
    return checked(
        error <= bound,
        f"every entry of 5 rows at positions up to 2^53, d={d}: max error {error:.3g} <= {bound:.3g}",
    )


def _float64(p: Any, d: int) -> Any:
    return numeric.sinusoidal(p, d)


def _float32(p: Any, d: int) -> Any:
    return numeric.sinusoidal(p, d, dtype=np.float32)


def _direct64(p: Any, d: int) -> Any:
    return numeric.sinusoidal_direct(p, d)


def _recipe(p: Any, d: int) -> Any:
    return precision.float32_recipe(p, d)


def _chained_control() -> Evidence:
    n, d = 4096, 16
    table = precision.chained_rotation(n, d, dtype=np.complex64)
    rows = np.full(d, n - 1)
    columns = np.arange(d)
    error = float(precision.exact_error(table[rows, columns], rows, columns, d).max())
    return checked(
        error <= FLOAT32_TARGET,
        f"rows chained z(p+1) = z(p) u in complex64 without re-anchoring: at p={n - 1}, "
        f"d={d}, max error {error:.3g} against the bound {FLOAT32_TARGET:g}",
    )


def _recipe_drift(table: precision.Table, label: str) -> Callable[[], Evidence]:
    """The recipe's error at p = 10^4: at least 1e-4, at most the float32 angle model."""

    def run() -> Evidence:
        p, d = 10_000, 64
        positions = np.array([p])
        values = np.asarray(table(positions, d))[0]
        columns = np.arange(d)
        errors = precision.exact_error(values, np.full(d, p), columns, d)
        omega = np.repeat(numeric.frequencies(d), 2)
        model = (3 + np.abs(np.log(omega))) * 2.0**-24 * omega * p + 2.0**-24
        ok = bool(errors.max() >= 1e-4 and np.all(errors <= model))
        return checked(
            ok,
            f"{label}, p={p}, d={d}: max error {errors.max():.3g} (column "
            f"{int(np.argmax(errors))}); the float32-angle model (3 + |ln ω|)·2^-24·ω p + 2^-24 gives "
            f"{model.max():.3g} at column 0",
        )

    return run


def _collisions(table: Callable[[], Any], label: str) -> Callable[[], Evidence]:
    def run() -> Evidence:
        found = precision.row_separation(table(), label)
        return checked(
            found.duplicates > 0,
            f"{label}, positions 0..{found.n_positions - 1}, d={found.d_model}: "
            f"{found.duplicates} rows repeat an earlier row; smallest distance "
            f"{found.smallest:.3g} (positions {found.pair[0]} and {found.pair[1]})",
        )

    return run


def _no_collisions() -> Evidence:
    found = precision.row_separation(numeric.sinusoidal(4096, 16, dtype=np.float16), "pe float16")
    return checked(
        found.duplicates == 0 and found.smallest > 0.01,
        f"pe's float16 table, positions 0..4095, d=16: no repeated row; smallest distance "
        f"{found.smallest:.3g} (positions {found.pair[0]} and {found.pair[1]})",
    )


OFFSETS = np.array([1, 3, 100, -7])
POSITIONS = np.concatenate([np.arange(256), [4096, 65_536]])


def _identity_in(
    dtype: type[np.floating[Any]],
    candidate: numeric.MatrixCandidate | None = None,
    label: str = "T_k",
) -> Callable[[], Evidence]:
    def run() -> Evidence:
        result = numeric.check_rotation_identity(
            64, POSITIONS, OFFSETS, dtype=dtype, candidate=candidate
        )
        return checked(result.passed, f"{label}, d=64, {np.dtype(dtype)}: {result.summary()}")

    return run


CLAIMS = (
    Claim(
        id="complex-shift-step",
        title="One complex multiplication shifts a pair",
        statement=(
            r"z(p+q) = z(p)\,\bigl(\cos\omega q - \mathrm{i}\sin\omega q\bigr),"
            r"\quad z = \sin\omega p + \mathrm{i}\cos\omega p"
        ),
        page=PAGE,
        evidence=(lambda: proved(precision.complex_shift_proof()),),
        controls=(
            lambda: proved(precision.complex_shift_proof(_conjugate_factor), "factor cos + i sin"),
            lambda: proved(precision.complex_shift_proof(_swapped_factor), "factor sin - i cos"),
        ),
    ),
    Claim(
        id="table-accurate-float64",
        title="Float64 tables within 5e-16 of the exact values",
        statement=(
            r"|\widehat{PE}_{64} - PE| \le 4.9\times 10^{-16} \text{ for } 0 \le p \le 2^{53}"
        ),
        page=PAGE,
        evidence=(
            _within("pe.numeric.sinusoidal, float64", _float64, rotation_table.ENTRY_ERROR_BOUND),
            _far_positions,
        ),
        controls=(
            _within("direct float64 evaluation", _direct64, FLOAT64_TARGET, (64,)),
            _within(
                "rotation with anchors from float64 angles",
                precision.rotation_with_float64_angles,
                FLOAT64_TARGET,
                (64,),
            ),
        ),
    ),
    Claim(
        id="table-accurate-float32",
        title="Float32 tables as good as rounding the exact values",
        statement=(r"|\widehat{PE}_{32} - PE| \le 2^{-25} + 4.9\times 10^{-16} < 6\times 10^{-8}"),
        page=PAGE,
        evidence=(_within("pe.numeric.sinusoidal, float32", _float32, FLOAT32_TARGET),),
        controls=(
            _within("the float32 recipe", _recipe, FLOAT32_TARGET, (64,)),
            _chained_control,
        ),
    ),
    Claim(
        id="float32-recipe-drifts",
        title="Angles formed in float32 drift linearly with position",
        statement=(
            r"|\widehat{PE}_{\text{recipe}} - PE| \le (3 + |\ln\omega_i|)"
            r"\,2^{-24}\,\omega_i p + 2^{-24}"
        ),
        page=PAGE,
        evidence=(_recipe_drift(_recipe, "float32 recipe"),),
        controls=(_recipe_drift(_float32, "pe float32 (no drift)"),),
    ),
    Claim(
        id="float16-positions-collide",
        title="Positions formed in float16 collide above 2048",
        statement=(
            r"\mathrm{fl}_{16}(2049) = \mathrm{fl}_{16}(2048) \implies "
            r"PE(\mathrm{fl}_{16}(2049)) = PE(\mathrm{fl}_{16}(2048))"
        ),
        page=PAGE,
        evidence=(
            _collisions(
                lambda: precision.float32_recipe(np.arange(4096), 16, dtype=np.float16),
                "recipe in float16",
            ),
            _no_collisions,
        ),
        controls=(
            _collisions(lambda: numeric.sinusoidal(4096, 16, dtype=np.float16), "pe float16 table"),
        ),
    ),
    Claim(
        id="identity-low-precision",
        title="The rotation identity in float16, float32 and float64",
        statement=(
            r"|(T_k PE(p))_j - PE(p+k)_j| \le 4\varepsilon + "
            r"4\varepsilon_{64}\,\omega_i(|p| + |k|)"
        ),
        page=PAGE,
        evidence=(
            _identity_in(np.float16),
            _identity_in(np.float32),
            _identity_in(np.float64),
        ),
        controls=(
            _identity_in(
                np.float16,
                lambda k, d, b: numeric.shift_matrix(k, d, base=b).T,
                "transposed T_k",
            ),
            _identity_in(
                np.float32,
                lambda k, d, b: numeric.shift_matrix(k, d, base=b * 1.001),
                "T_k with base 10010",
            ),
        ),
    ),
)
