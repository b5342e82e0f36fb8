"""pe.proofs.rotation_identity: the group laws of T_k and the sign convention, with wrong candidates rejected."""

from __future__ import annotations

import inspect
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp

from pe import numeric, symbolic
from pe.proofs import rotation_identity as group_laws


def textbook(k: Any, w: Any) -> Any:
    return group_laws.textbook_rotation(k * w)


def transposed(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, w).T


def scaled(k: Any, w: Any) -> Any:
    return 2 * symbolic.shift_block(k, w)


def swapped(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[s, c], [-c, s]])


def not_a_rotation(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [s, c]])


def wrong_frequency(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, 2 * w)


def test_paper_block_in_sin_cos_order_and_textbook_in_cos_sin_order() -> None:
    assert group_laws.block_in_order(symbolic.shift_block, "sin-cos").holds
    assert group_laws.block_in_order(textbook, "cos-sin").holds


def test_the_blocks_swap_roles_when_the_order_swaps() -> None:
    assert not group_laws.block_in_order(textbook, "sin-cos").holds
    assert not group_laws.block_in_order(symbolic.shift_block, "cos-sin").holds


def test_paper_block_is_the_clockwise_rotation() -> None:
    proof = group_laws.sin_cos_block_is_clockwise()
    assert proof.holds
    assert list(proof.residual) == [0, 0, 0, 0]
    assert not group_laws.sin_cos_block_is_clockwise(textbook).holds


def test_clockwise_turn_measured_independently() -> None:
    """Signed area of (u(p), u(p+1)) for (sin, cos) pairs is -sin(w) < 0: clockwise."""
    for p in range(0, 50, 7):
        u = (mpmath.sin(p), mpmath.cos(p))
        t = (mpmath.sin(p + 1), mpmath.cos(p + 1))
        assert u[0] * t[1] - u[1] * t[0] < 0
        assert mpmath.almosteq(u[0] * t[1] - u[1] * t[0], -mpmath.sin(1), 1e-12)


def test_bad_order_is_refused() -> None:
    with pytest.raises(ValueError, match="order must be"):
        group_laws.block_in_order(symbolic.shift_block, "sin-sin")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("law", "wrong"),
    [
        (group_laws.identity_at_zero, [swapped, scaled]),
        (group_laws.composition, [scaled, not_a_rotation]),
        (group_laws.inverse_is_transpose, [scaled, not_a_rotation, swapped]),
        (group_laws.ten_to_fifteen_to_twenty, [transposed, scaled, not_a_rotation, textbook]),
    ],
)
def test_laws_hold_and_reject_wrong_blocks(law: Any, wrong: list[Any]) -> None:
    proof = law()
    assert proof.holds
    assert all(entry == 0 for entry in proof.residual)
    for candidate in wrong:
        rejected = law(candidate)
        assert not rejected.holds, candidate.__name__
        assert any(entry != 0 for entry in rejected.residual)


def test_composition_rejects_the_wrong_law() -> None:
    assert not group_laws.composition(combine=lambda a, b: a - b).holds
    assert not group_laws.composition(combine=lambda a, b: a * b).holds


def test_transposed_block_is_still_a_group() -> None:
    """The transposed block is a shift by -k: the group laws alone cannot catch it."""
    assert group_laws.composition(transposed).holds
    assert group_laws.inverse_is_transpose(wrong_frequency).holds
    assert group_laws.inverse_is_transpose(transposed).holds
    assert not group_laws.ten_to_fifteen_to_twenty(transposed).holds


def test_pythagorean_reduce() -> None:
    x = sp.Symbol("x", real=True)
    assert group_laws.pythagorean_reduce(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1, x) == 0
    quartic = sp.sin(x) ** 4 - sp.cos(x) ** 4 - sp.sin(x) ** 2 + sp.cos(x) ** 2
    assert group_laws.pythagorean_reduce(quartic, x) == 0
    assert group_laws.pythagorean_reduce(quartic - 1, x) != 0
    assert group_laws.pythagorean_reduce(sp.sin(x) * sp.cos(x), x) != 0


def test_proofs_never_simplify_and_never_use_floats() -> None:
    source = inspect.getsource(group_laws)
    assert "simplify(" not in source
    for proof in (group_laws.composition(), group_laws.ten_to_fifteen_to_twenty()):
        assert not any(entry.has(sp.Float) for entry in proof.residual)


def _mp_block(k: int, w: Any) -> Any:
    return mpmath.matrix(
        [[mpmath.cos(k * w), mpmath.sin(k * w)], [-mpmath.sin(k * w), mpmath.cos(k * w)]]
    )


@pytest.mark.parametrize(("a", "b"), [(1, 2), (7, -3), (100, 250), (-40, 40)])
def test_numeric_composition_against_mpmath(a: int, b: int) -> None:
    d = 16
    product = numeric.shift_matrix(a, d) @ numeric.shift_matrix(b, d)
    with mpmath.workdps(50):
        for i in range(d // 2):
            w = mpmath.power(10000, mpmath.mpf(-2 * i) / d)
            reference = _mp_block(a + b, w)
            block = product[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
            for r in range(2):
                for c in range(2):
                    assert abs(block[r, c] - float(reference[r, c])) < 1e-12 * (1 + abs(a) + abs(b))


def test_numeric_inverse_is_transpose_and_wrong_inverse_fails() -> None:
    t = numeric.shift_matrix(37, 64)
    assert np.abs(t.T @ t - np.eye(64)).max() < 1e-14
    assert np.abs(t.T - numeric.shift_matrix(-37, 64)).max() < 1e-13
    assert np.abs(t @ t - np.eye(64)).max() > 0.1  # T_k is not its own inverse
