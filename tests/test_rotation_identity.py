"""The chapter "The rotation identity": its proofs, its measurements and its claims.

Every proof must reduce to exactly 0 and reject the wrong candidates of
the chapter; every measurement must hold for :math:`T_k` and fail for them.
"""

from __future__ import annotations

import inspect
import operator
from typing import Any

import numpy as np
import pytest
import sympy as sp

from pe import error_models, numeric, reference, symbolic
from pe.chapters import rotation_identity as chapter
from pe.chapters import rotation_identity as experiments
from pe.chapters import rotation_identity as proofs
from pe.claims import Candidate, run
from pe.symbolic import Block
from tests.helpers import wrong

TRANSPOSED = wrong.TRANSPOSED_BLOCK.value
TEXTBOOK = wrong.TEXTBOOK_ROTATION.value
SCALED = wrong.SCALED_BLOCK.value
NOT_A_ROTATION = wrong.NOT_A_ROTATION.value
SWAPPED = wrong.SWAPPED_BLOCK.value
DOUBLED = wrong.DOUBLED_FREQUENCY_BLOCK.value
#: Blocks that are not the shift by k: every theorem about the shift must reject them.
WRONG = [
    wrong.TRANSPOSED_BLOCK,
    wrong.TEXTBOOK_ROTATION,
    wrong.SCALED_BLOCK,
    wrong.DOUBLED_FREQUENCY_BLOCK,
]


def _ids(candidates: list[Candidate[Block]]) -> list[str]:
    return [c.name for c in candidates]


# --- the identity ----------------------------------------------------------------------------


def test_rotation_identity_holds() -> None:
    proof = proofs.rotation_identity()
    assert proof.holds
    assert list(proof.residual) == [0, 0]
    assert len(proof.steps) >= 4
    titles = " ".join(s.title for s in proof.steps)
    for strategy in ("expand", "expand_trig"):
        assert strategy in titles
    assert r"\omega_{i}" in proof.statement


@pytest.mark.parametrize("candidate", WRONG, ids=_ids(WRONG))
def test_rotation_identity_rejects_wrong_blocks(candidate: Candidate[Block]) -> None:
    proof = proofs.rotation_identity(candidate.value)
    assert not proof.holds
    assert any(entry != 0 for entry in proof.residual)


def test_transposed_block_leaves_the_expected_residual() -> None:
    residual = proofs.rotation_identity(TRANSPOSED).residual
    w, k, p = symbolic.OMEGA, symbolic.K, symbolic.P
    expected = sp.Matrix([-2 * sp.sin(k * w) * sp.cos(p * w), 2 * sp.sin(k * w) * sp.sin(p * w)])
    assert (residual - expected).applyfunc(sp.expand) == sp.zeros(2, 1)


@pytest.mark.parametrize("d", [2, 8, 64])
def test_block_diagonal_identity_for_concrete_widths(d: int) -> None:
    assert proofs.block_diagonal_identity(d).holds


@pytest.mark.parametrize("candidate", [TRANSPOSED, TEXTBOOK, SCALED])
def test_block_diagonal_identity_rejects_wrong_blocks(candidate: Block) -> None:
    assert not proofs.block_diagonal_identity(8, block=candidate).holds


def test_block_diagonal_identity_with_another_base() -> None:
    assert proofs.block_diagonal_identity(6, base=sp.Rational(7, 2)).holds


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
        proofs.block_diagonal_identity(**kwargs)


@pytest.mark.parametrize(
    ("block", "error"),
    [
        (lambda k, w: [[1, 0], [0, 1]], TypeError),
        (lambda k, w: sp.eye(3), ValueError),
        (lambda k, w: sp.Matrix([1, 2]), ValueError),
    ],
)
def test_malformed_candidates_get_a_clear_error(block: Block, error: type) -> None:
    with pytest.raises(error, match="block must return"):
        proofs.rotation_identity(block)


# --- the nature of T_k -------------------------------------------------------------------------


def test_position_free() -> None:
    proof = proofs.shift_is_position_free()
    assert proof.holds
    assert "neither p nor q" in proof.steps[0].title


@pytest.mark.parametrize("candidate", WRONG, ids=_ids(WRONG))
def test_position_free_rejects_wrong_blocks(candidate: Candidate[Block]) -> None:
    assert not proofs.shift_is_position_free(candidate.value).holds


def test_position_free_rejects_blocks_that_mention_the_position() -> None:
    def depends_on_p(k: Any, w: Any) -> Any:
        return symbolic.shift_block(k + symbolic.P, w)

    assert not proofs.shift_is_position_free(depends_on_p).holds


def test_orthogonal() -> None:
    proof = proofs.shift_is_orthogonal()
    assert proof.holds
    assert any("sin²x = 1 − cos²x" in s.title for s in proof.steps)


@pytest.mark.parametrize("candidate", [SCALED, NOT_A_ROTATION])
def test_orthogonal_rejects_non_rotations(candidate: Block) -> None:
    assert not proofs.shift_is_orthogonal(candidate).holds


def test_transposed_block_is_still_orthogonal() -> None:
    """A rotation the wrong way is still a rotation: orthogonality alone cannot catch it."""
    assert proofs.shift_is_orthogonal(TRANSPOSED).holds
    assert not proofs.rotation_identity(TRANSPOSED).holds


# --- the sign convention -----------------------------------------------------------------------


def test_paper_block_in_sin_cos_order_and_textbook_in_cos_sin_order() -> None:
    assert proofs.block_in_order(symbolic.shift_block, "sin-cos").holds
    assert proofs.block_in_order(TEXTBOOK, "cos-sin").holds


def test_the_blocks_swap_roles_when_the_order_swaps() -> None:
    assert not proofs.block_in_order(TEXTBOOK, "sin-cos").holds
    assert not proofs.block_in_order(wrong.PAPER_BLOCK.value, "cos-sin").holds


def test_paper_block_is_the_clockwise_rotation() -> None:
    proof = proofs.sin_cos_block_is_clockwise()
    assert proof.holds
    assert list(proof.residual) == [0, 0, 0, 0]
    assert not proofs.sin_cos_block_is_clockwise(TEXTBOOK).holds


def test_clockwise_turn_measured_independently() -> None:
    """Signed area of (u(p), u(p+1)) for (sin, cos) pairs is -sin(1) < 0: clockwise (pair 0)."""
    for p in range(0, 50, 7):
        u = (reference.entry(p, 0, 2), reference.entry(p, 1, 2))
        t = (reference.entry(p + 1, 0, 2), reference.entry(p + 1, 1, 2))
        area = u[0] * t[1] - u[1] * t[0]
        assert area < 0
        assert abs(area + reference.entry(1, 0, 2)) < 1e-12


def test_bad_order_is_refused() -> None:
    with pytest.raises(ValueError, match="order must be"):
        proofs.block_in_order(symbolic.shift_block, "sin-sin")  # type: ignore[arg-type]


@pytest.mark.parametrize(("order", "expected"), [("sin-cos", "clockwise"), ("cos-sin", "counter")])
def test_numeric_orientation(order: Any, expected: str) -> None:
    right = symbolic.shift_block if order == "sin-cos" else TEXTBOOK
    wrong_block = TEXTBOOK if order == "sin-cos" else symbolic.shift_block
    worst, turn = experiments.orientation(right, order)
    assert worst < 1e-12
    assert turn.startswith(expected)
    worst_wrong, turn_wrong = experiments.orientation(wrong_block, order)
    assert worst_wrong > 1.0
    # the direction is the block's own: the other block turns the other way (audit v23)
    assert turn_wrong == ("counter-clockwise" if expected == "clockwise" else "clockwise")


# --- the group laws ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("law", "wrong_blocks"),
    [
        (proofs.identity_at_zero, [SWAPPED, SCALED]),
        (proofs.composition, [SCALED, NOT_A_ROTATION]),
        (proofs.inverse_is_transpose, [SCALED, NOT_A_ROTATION, SWAPPED]),
        (proofs.ten_to_fifteen_to_twenty, [TRANSPOSED, SCALED, NOT_A_ROTATION, TEXTBOOK]),
    ],
)
def test_laws_hold_and_reject_wrong_blocks(law: Any, wrong_blocks: list[Block]) -> None:
    proof = law()
    assert proof.holds
    assert all(entry == 0 for entry in proof.residual)
    for candidate in wrong_blocks:
        rejected = law(candidate)
        assert not rejected.holds
        assert any(entry != 0 for entry in rejected.residual)


def test_composition_rejects_the_wrong_law() -> None:
    assert not proofs.composition(combine=wrong.OFFSETS_SUBTRACT.value).holds
    assert not proofs.composition(combine=operator.mul).holds


def test_transposed_block_is_still_a_group() -> None:
    """The transposed block is a shift by -k: the group laws alone cannot catch it."""
    assert proofs.composition(TRANSPOSED).holds
    assert proofs.inverse_is_transpose(DOUBLED).holds
    assert proofs.inverse_is_transpose(TRANSPOSED).holds
    assert not proofs.ten_to_fifteen_to_twenty(TRANSPOSED).holds


def test_proofs_never_simplify_and_never_use_floats() -> None:
    source = inspect.getsource(proofs)
    assert "simplify(" not in source
    for proof in (
        proofs.rotation_identity(),
        proofs.block_diagonal_identity(8),
        proofs.composition(),
        proofs.ten_to_fifteen_to_twenty(),
    ):
        assert not any(entry.has(sp.Float) for entry in proof.residual)


@pytest.mark.parametrize(("a", "b"), [(1, 2), (7, -3), (100, 250), (-40, 40)])
def test_numeric_composition_against_the_reference(a: int, b: int) -> None:
    d = 16
    product = numeric.shift_matrix(a, d) @ numeric.shift_matrix(b, d)
    for i, w in enumerate(reference.frequencies(d)):
        block = product[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
        exact = reference.shift_block(a + b, w)
        for r in range(2):
            for c in range(2):
                assert abs(block[r, c] - float(exact[r, c])) < 1e-12 * (1 + abs(a) + abs(b))


def test_numeric_laws_hold_and_reject_wrong_laws() -> None:
    assert experiments.identity_error(0).holds
    assert not experiments.identity_error(wrong.OFFSET_ONE.value).holds
    assert experiments.composition_error(operator.add).holds
    assert not experiments.composition_error(wrong.OFFSETS_SUBTRACT.value).holds
    assert experiments.inverse_error(operator.neg).holds
    assert not experiments.inverse_error(wrong.INVERSE_IS_SELF.value).holds


def test_numeric_shift_matrix_candidates() -> None:
    transposed = wrong.TRANSPOSED_SHIFT_MATRIX.value
    assert experiments.ten_fifteen_twenty(experiments.shift_matrix).holds
    assert experiments.ten_fifteen_twenty(transposed).error > 1.0  # type: ignore[operator]
    assert experiments.orthogonality(experiments.shift_matrix).holds
    flipped = experiments.orthogonality(wrong.FLIPPED_SINE_SHIFT_MATRIX.value)
    assert flipped.error is not None
    assert flipped.error > 1e10  # worst error / tolerance
    assert experiments.fitted_map(experiments.shift_matrix, 5, (16,)).holds
    fitted = experiments.fitted_map(transposed, 5, (16,))
    assert fitted.error is not None
    assert fitted.error > 1e6


def test_numeric_inverse_is_transpose_and_t_k_is_not_its_own_inverse() -> None:
    t = numeric.shift_matrix(37, 64)
    assert np.abs(t.T @ t - np.eye(64)).max() < 1e-14
    assert np.abs(t.T - numeric.shift_matrix(-37, 64)).max() < 1e-13
    assert np.abs(t @ t - np.eye(64)).max() > 0.1


def test_law_tolerance_is_the_shift_error_model() -> None:
    eps = float(np.finfo(np.float64).eps)
    assert error_models.shift_product_bound(25.0) == 12 * eps + 4 * eps * 25.0


# --- the claims ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "claim", chapter.chapter.claims, ids=[c.id for c in chapter.chapter.claims]
)
def test_every_claim_verifies_and_rejects_its_wrong_candidates(claim: Any) -> None:
    result = run(claim)
    assert result.holds, [e.detail for e in result.evidence]
    assert result.controls or (claim.source is not None and not claim.checks)
    assert not any(c.holds for c in result.controls), [c.detail for c in result.controls]
    assert result.page == "rotation-identity"


def test_the_numeric_identity_checks_cover_every_kind_of_offset() -> None:
    """The statement is for every integer k: the float checks take k = 0, positive offsets
    small and large, and a negative one (PE(p - 3) = T_(-3) PE(p))."""
    from pe.chapters import rotation_identity

    offsets = rotation_identity.OFFSETS
    assert (offsets == 0).any()
    assert (offsets < 0).any()
    assert offsets.max() >= 1000
    assert (np.abs(offsets) == 1).any()


def test_orthogonality_reports_the_larger_of_its_two_ratios() -> None:
    """The figure held to 1 is max(|T^T T - I| / its bound, |det T - 1| / its bound) over
    the offsets, at the width the page names (recomputed here)."""
    d = chapter.LAW_WIDTH
    gram_tol, det_tol = error_models.shift_orthogonality_bounds(d)
    gram, det = 0.0, 0.0
    for k in (1, 7, 100, 12_345):
        matrix = numeric.shift_matrix(k, d)
        gram = max(gram, float(np.abs(matrix.T @ matrix - np.eye(d)).max()))
        det = max(det, abs(float(np.linalg.det(matrix)) - 1.0))
    evidence = chapter.orthogonality(chapter.shift_matrix)
    assert evidence.error is not None
    expected = max(gram / gram_tol, det / det_tol)
    assert abs(evidence.error - expected) <= 1e-12 * expected
    assert f"d={d}" in evidence.detail
