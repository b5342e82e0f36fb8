"""pe.symbolic_rope: RoPE in SymPy, each form against another built independently."""

from __future__ import annotations

from typing import Any

import pytest
import sympy as sp

from pe import rotary, symbolic, symbolic_rope

P = sp.Symbol("p", real=True)
X = sp.Matrix(sp.symbols("x_0:8", real=True))


def _zero(matrix: Any) -> bool:
    return all(sp.expand(entry) == 0 for entry in matrix)


@pytest.mark.parametrize("pairing", ["adjacent", "halves"])
def test_the_matrix_and_the_forms_of_public_code_rotate_alike(pairing: str) -> None:
    omegas = symbolic.exact_frequencies(8, 10000)
    matrix = symbolic_rope.rotation_matrix(P, omegas, pairing)
    direct = symbolic_rope.rope_adjacent if pairing == "adjacent" else symbolic_rope.rope_halves
    other = symbolic_rope.rope_halves if pairing == "adjacent" else symbolic_rope.rope_adjacent
    angles = [P * w for w in omegas]
    assert _zero(matrix * X - direct(X, angles))
    assert not _zero(matrix * X - other(X, angles))


def test_the_halves_matrix_is_the_adjacent_one_permuted() -> None:
    omegas = symbolic.exact_frequencies(8, 10000)
    perm = [int(i) for i in rotary.pairing_permutation(8)]
    p = symbolic_rope.permutation_matrix(perm)
    adjacent = symbolic_rope.rotation_matrix(P, omegas, "adjacent")
    halves = symbolic_rope.rotation_matrix(P, omegas, "halves")
    assert _zero(halves - p * adjacent * p.T)
    assert not _zero(halves - p.T * adjacent * p)  # the transposed permutation
    assert p * sp.Matrix(range(8)) == sp.Matrix(perm)  # (P y)_j = y_perm[j]


def test_a_candidate_rotation_turns_every_block() -> None:
    def backwards(position: Any, w: Any) -> Any:
        return symbolic_rope.rope_rotation(-position, w)

    omegas = symbolic.exact_frequencies(4, 100)
    turned = symbolic_rope.rotation_matrix(P, omegas, "adjacent", backwards)
    assert turned == symbolic_rope.rotation_matrix(P, omegas, "adjacent").T
    assert turned != symbolic_rope.rotation_matrix(P, omegas, "adjacent")


def test_bad_input_is_refused() -> None:
    with pytest.raises(TypeError, match="2 x 2"):
        symbolic_rope.rotation_block(lambda p, w: sp.Matrix([p * w]), P, 1)
    with pytest.raises(TypeError, match="no floats"):
        symbolic.exact_frequencies(4, 10000.0)
    with pytest.raises(TypeError, match="no floats"):
        symbolic.exact_frequencies(4, True)
    with pytest.raises(ValueError, match="> 1"):
        symbolic.exact_frequencies(4, 1)
    with pytest.raises(ValueError, match="even"):
        symbolic.exact_frequencies(3, 100)
    with pytest.raises(ValueError, match="pairing"):
        symbolic_rope.rotation_matrix(P, [1], "interleaved")
    with pytest.raises(ValueError, match="once"):
        symbolic_rope.permutation_matrix([0, 0, 1])
    assert symbolic.exact_frequencies(4, sp.Rational(1, 1) * 100) == [1, sp.Rational(1, 10)]
