"""pe.symbolic: each proof reduces to exactly 0 and rejects wrong candidates."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import sympy as sp

from pe import symbolic


def transposed(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, w).T


def sign_flipped(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, -s], [s, c]])  # the textbook rotation: right for (cos, sin) order only


def scaled(k: Any, w: Any) -> Any:
    return 2 * symbolic.shift_block(k, w)


def wrong_frequency(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, 2 * w)


def not_a_rotation(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [s, c]])


WRONG = [transposed, sign_flipped, scaled, wrong_frequency]


def test_rotation_identity_holds() -> None:
    proof = symbolic.rotation_identity()
    assert proof.holds
    assert list(proof.residual) == [0, 0]
    assert len(proof.steps) >= 4
    titles = " ".join(s.title for s in proof.steps)
    for strategy in ("expand", "expand_trig"):
        assert strategy in titles
    assert r"\omega_{i}" in proof.statement


@pytest.mark.parametrize("candidate", WRONG)
def test_rotation_identity_rejects_wrong_blocks(candidate: symbolic.Block) -> None:
    proof = symbolic.rotation_identity(candidate)
    assert not proof.holds
    assert any(entry != 0 for entry in proof.residual)


def test_transposed_block_leaves_the_expected_residual() -> None:
    residual = symbolic.rotation_identity(transposed).residual
    w = symbolic.OMEGA
    k, p = symbolic.K, symbolic.P
    expected = sp.Matrix([-2 * sp.sin(k * w) * sp.cos(p * w), 2 * sp.sin(k * w) * sp.sin(p * w)])
    assert (residual - expected).applyfunc(sp.expand) == sp.zeros(2, 1)


@pytest.mark.parametrize("d", [2, 8, 64])
def test_block_diagonal_identity_for_concrete_widths(d: int) -> None:
    assert symbolic.block_diagonal_identity(d).holds


@pytest.mark.parametrize("candidate", [transposed, sign_flipped, scaled])
def test_block_diagonal_identity_rejects_wrong_blocks(candidate: symbolic.Block) -> None:
    assert not symbolic.block_diagonal_identity(8, block=candidate).holds


def test_block_diagonal_identity_with_another_base() -> None:
    assert symbolic.block_diagonal_identity(6, base=sp.Rational(7, 2)).holds


def test_position_free() -> None:
    proof = symbolic.shift_is_position_free()
    assert proof.holds
    assert "neither p nor q" in proof.steps[0].title


@pytest.mark.parametrize("candidate", WRONG)
def test_position_free_rejects_wrong_blocks(candidate: symbolic.Block) -> None:
    assert not symbolic.shift_is_position_free(candidate).holds


def test_position_free_rejects_blocks_that_mention_the_position() -> None:
    def depends_on_p(k: Any, w: Any) -> Any:
        return symbolic.shift_block(k + symbolic.P, w)

    proof = symbolic.shift_is_position_free(depends_on_p)
    assert not proof.holds


def test_orthogonal() -> None:
    proof = symbolic.shift_is_orthogonal()
    assert proof.holds
    assert any("sin²x = 1 − cos²x" in s.title for s in proof.steps)


@pytest.mark.parametrize("candidate", [scaled, not_a_rotation])
def test_orthogonal_rejects_non_rotations(candidate: symbolic.Block) -> None:
    assert not symbolic.shift_is_orthogonal(candidate).holds


def test_transposed_block_is_still_orthogonal() -> None:
    """A rotation the wrong way is still a rotation: orthogonality alone cannot catch it."""
    assert symbolic.shift_is_orthogonal(transposed).holds
    assert not symbolic.rotation_identity(transposed).holds


def test_proofs_never_call_simplify_or_use_floats() -> None:
    source = inspect.getsource(symbolic)
    assert "simplify(" not in source
    assert "nsimplify" not in source
    for proof in (symbolic.rotation_identity(), symbolic.block_diagonal_identity(8)):
        for entry in proof.residual:
            assert not entry.has(sp.Float)


@pytest.mark.parametrize(
    ("block", "error"),
    [
        (lambda k, w: [[1, 0], [0, 1]], TypeError),
        (lambda k, w: sp.eye(3), ValueError),
        (lambda k, w: sp.Matrix([1, 2]), ValueError),
    ],
)
def test_malformed_candidates_get_a_clear_error(block: symbolic.Block, error: type) -> None:
    with pytest.raises(error, match="block must return"):
        symbolic.rotation_identity(block)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"d_model": 7}, ValueError),
        ({"d_model": 1024}, ValueError),
        ({"d_model": 8, "base": 10000.0}, TypeError),
        ({"d_model": 8, "base": 1}, ValueError),
        ({"d_model": "8"}, TypeError),
    ],
)
def test_block_diagonal_bad_arguments(kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        symbolic.block_diagonal_identity(**kwargs)
