"""What exists both in SymPy and in NumPy is the same: frequencies, shift blocks, pairs, RoPE.

Every proof holds for any frequency, so a changed exponent in :mod:`pe.symbolic` or in a
proof's own list of exact frequencies would prove just as well; these tests tie each
symbolic constant and formula to its numeric counterpart in :mod:`pe.numeric` and
:mod:`pe.rotary` (evaluated at 30 digits, compared within a few units in the last place).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import sympy as sp

from pe import _rotation_table, numeric, rotary, symbolic, symbolic_rope
from pe.chapters import conventions as convention_proofs
from pe.chapters import rotation_identity as identity_proofs

WIDTHS = [2, 8, 64]
BASES = [10000, 100, 10**8]
#: Relative agreement of a float64 frequency with the exact one (numeric docstring: 4e-16).
REL = 4e-16


def _floats(values: list[Any]) -> np.ndarray:
    return np.array([float(sp.N(v, 30)) for v in values])


def _omegas(d: int, base: int = 10000) -> list[Any]:
    """The exact frequencies of :data:`pe.symbolic.OMEGA` at width ``d``."""
    return [
        symbolic.OMEGA.subs({symbolic.I: i, symbolic.D: d, symbolic.BASE: base})
        for i in range(d // 2)
    ]


@pytest.mark.parametrize("d", WIDTHS)
@pytest.mark.parametrize("base", BASES)
def test_symbolic_omega_is_numeric_frequencies(d: int, base: int) -> None:
    exact = _omegas(d, base)
    np.testing.assert_allclose(numeric.frequencies(d, float(base)), _floats(exact), rtol=REL)


@pytest.mark.parametrize("d", WIDTHS)
def test_the_proofs_exact_frequencies_are_numeric_frequencies(d: int) -> None:
    expected = numeric.frequencies(d)
    np.testing.assert_allclose(_floats(symbolic.exact_frequencies(d, 10000)), expected, rtol=REL)
    seen: list[Any] = []

    def spy(k: Any, w: Any) -> Any:
        seen.append(w)
        return symbolic.shift_block(k, w)

    assert identity_proofs.block_diagonal_identity(d, block=spy).holds
    np.testing.assert_allclose(_floats(seen), expected, rtol=REL)


@pytest.mark.parametrize("d", [2, 4])
def test_the_layout_proofs_use_the_paper_frequencies(d: int) -> None:
    shifts: list[Any] = []

    def spy(perm: Any, shift: Any) -> Any:
        shifts.append(shift)
        return convention_proofs.conjugated(perm, shift)

    assert convention_proofs.layout_identity("interleaved", "sin-first", spy, d_model=d).holds
    shift = shifts[0].subs({symbolic.K: 1, symbolic.BASE: 10000})
    angles = [sp.acos(shift[2 * i, 2 * i]) for i in range(d // 2)]
    np.testing.assert_allclose(_floats(angles), numeric.frequencies(d), rtol=REL)


@pytest.mark.parametrize("k", [0, 1, -3, 7, 100, 12345])
def test_symbolic_shift_blocks_are_the_numeric_shift_matrix(k: int) -> None:
    d = 8
    matrix = numeric.shift_matrix(k, d)
    tolerance = numeric.rotation_tolerance(numeric.frequencies(d), 0, k, np.float64)
    for i, w in enumerate(_omegas(d)):
        block = symbolic.shift_block(sp.Integer(k), w)
        np.testing.assert_allclose(
            matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2],
            np.array(block.evalf(30), dtype=float),
            rtol=0,
            atol=tolerance[i],
        )
    off_block = matrix.copy()
    for i in range(d // 2):
        off_block[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = 0
    assert not off_block.any()


@pytest.mark.parametrize("p", [0, 1, 5, 1000, 123_456])
def test_symbolic_pairs_are_the_table_columns(p: int) -> None:
    d = 8
    row = numeric.sinusoidal([p], d)[0]
    for i, w in enumerate(_omegas(d)):
        pair = symbolic.pair(sp.Integer(p), w)
        np.testing.assert_allclose(
            row[2 * i : 2 * i + 2],
            np.array(pair.evalf(30), dtype=float).ravel(),
            rtol=0,
            atol=_rotation_table.ENTRY_ERROR_BOUND,
        )


@pytest.mark.parametrize("pairing", ["adjacent", "halves"])
@pytest.mark.parametrize("p", [0, 3, 250])
def test_symbolic_rope_is_numeric_rope(pairing: str, p: int) -> None:
    d = 8
    x = np.arange(1.0, d + 1.0)
    omegas = [sp.Float(w, 30) for w in numeric.frequencies(d)]
    matrix = symbolic_rope.rotation_matrix(
        sp.Integer(p), omegas, pairing, symbolic_rope.rope_rotation
    )
    exact = np.array((matrix * sp.Matrix(x)).evalf(30), dtype=float).ravel()
    direct = symbolic_rope.rope_adjacent if pairing == "adjacent" else symbolic_rope.rope_halves
    angles = [sp.Integer(p) * w for w in omegas]
    np.testing.assert_allclose(
        np.array(direct(sp.Matrix(x), angles).evalf(30), dtype=float).ravel(),
        exact,
        rtol=0,
        atol=1e-13,
    )
    numeric_rope = rotary.rope(x[None, :], [p], pairing=pairing)[0]  # type: ignore[arg-type]
    np.testing.assert_allclose(numeric_rope, exact, rtol=0, atol=1e-13)


def test_symbolic_rotation_is_the_inverse_of_the_shift_block() -> None:
    """symbolic.rotation(theta) = R(theta), the shift block B(k, w) = R(-k w), numerically."""
    k, w = 7, _omegas(8)[1]
    rotation = np.array(symbolic.rotation(-k * w).evalf(30), dtype=float)
    np.testing.assert_allclose(rotation, numeric.shift_matrix(k, 8)[2:4, 2:4], rtol=0, atol=4e-16)
