"""Claims of the page "The rotation identity": the identity and the nature of T_k."""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import numpy as np
import sympy as sp

from pe import numeric, symbolic
from pe._tolerance import Tolerance
from pe.claims import Chapter, Check, Evidence, by_proof, checked, within
from pe.experiments import rotation_identity as experiments
from pe.experiments.rotation_identity import LAW_OFFSETS, LAW_WIDTH, shift_matrix
from pe.proofs import rotation_identity as proofs
from pe.proofs import wrong
from pe.proofs.wrong import Candidate, ShiftMatrix
from pe.symbolic import Block, Proof

claim = Chapter("rotation-identity").claim

#: The shift model of :func:`pe._tolerance.shift_tolerance`, held to entry by entry.
_SHIFT_MODEL = r"4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega_i(|p| + |k|)"


def _identity(dtype: type[np.floating[Any]]) -> Callable[[ShiftMatrix], Evidence]:
    def run(shift: ShiftMatrix) -> Evidence:
        result = numeric.check_rotation_identity(
            512,
            experiments.POSITIONS,
            experiments.OFFSETS,
            dtype=dtype,
            candidate=lambda k, d, base: shift(int(k), d, base),
        )
        return within(
            result.worst_ratio,
            Tolerance(1.0, _SHIFT_MODEL + r" \text{ per entry}"),
            f"d=512, {np.dtype(dtype)}: {result.summary()}",
        )

    return run


def _orientation(order: Literal["sin-cos", "cos-sin"]) -> Callable[[symbolic.Block], Evidence]:
    expected = "clockwise" if order == "sin-cos" else "counter-clockwise"

    def run(block: symbolic.Block) -> Evidence:
        worst, direction = experiments.orientation(block, order)
        x = sp.Symbol("x")
        entries = str(block(1, x).tolist()).replace("cos(x)", "c").replace("sin(x)", "s")
        return checked(
            direction == expected,
            f"{entries} block on ({order}) pairs, d={LAW_WIDTH}, p < 200, k in "
            f"{experiments.TURN_OFFSETS}: max error {worst:.2g}; "
            f"pair 0 turns {direction} from p to p+1",
            error=worst,
            tolerance=Tolerance(experiments.law_tolerance(300.0), _LAW_MODEL),
        )

    return run


#: The shift model at the fastest frequency, for products of shift matrices.
_LAW_MODEL = r"12\varepsilon + 4\varepsilon\,|x| \text{ (reach } |x|)"


def _law(text: str, shown: str, law: experiments.LawError) -> Evidence:
    return within(
        law.worst,
        Tolerance(law.tolerance, _LAW_MODEL),
        f"{text}, d={LAW_WIDTH}, {shown}: max error {law.worst:.2g} "
        f"(tolerance {law.tolerance:.2g})",
    )


def _identity_at_zero(offset: int) -> Evidence:
    return _law(f"T_{offset} = I", f"k = {offset}", experiments.identity_error(offset))


def _composition(law: Callable[[Any, Any], Any]) -> Evidence:
    total = str(law(sp.Symbol("a"), sp.Symbol("b"))).replace(" ", "")
    shown = f"a in {LAW_OFFSETS[1::2]}, b in {LAW_OFFSETS[::2]}"
    return _law(f"T_a T_b = T_({total})", shown, experiments.composition_error(law))


def _inverse(inverse: Callable[[int], int]) -> Evidence:
    text = "T_(-k) T_k = I, T_k^T = T_(-k), inv(T_k) = T_(-k)"
    return _law(text, f"k in {LAW_OFFSETS[::2]}", experiments.inverse_error(inverse))


def _ten_fifteen_twenty(shift: ShiftMatrix) -> Evidence:
    first, second, tol = experiments.ten_fifteen_twenty(shift)
    return within(
        max(first, second),
        Tolerance(tol, _LAW_MODEL),
        f"d={LAW_WIDTH}: T_5 PE(10) - PE(15) max {first:.2g}, "
        f"T_5 PE(15) - PE(20) max {second:.2g} (tolerance {tol:.2g})",
    )


def _position_free(shift: ShiftMatrix) -> Evidence:
    k, texts, worst = 5, [], 0.0
    for d_model in (16, 64):
        fit = experiments.fitted_map(shift, k, d_model)
        tolerance = experiments.fitted_map_tolerance(k, d_model)
        worst = max(worst, max(fit.gap, fit.first, fit.second) / tolerance)
        texts.append(
            f"d={d_model}: M fitted by least squares from 1031 positions; "
            f"max|M - T_{k}| = {fit.gap:.2g}; M maps {2 * k} to {3 * k} within {fit.first:.2g} "
            f"and {3 * k} to {4 * k} within {fit.second:.2g} (tolerance {tolerance:.2g})"
        )
    return within(
        worst,
        Tolerance(
            1.0,
            r"\frac{\lVert E_A \rVert_F + \lVert E_B \rVert_F}{\sigma_{\min}(A)} + \kappa(A)\gamma_{mn}\sqrt d \text{ per width}",
        ),
        "; ".join(texts),
    )


def _orthogonal(shift: ShiftMatrix) -> Evidence:
    gram, det = experiments.orthogonality(shift)
    gram_tol, det_tol = experiments.orthogonality_tolerance(64)
    return within(
        max(gram / gram_tol, det / det_tol),
        Tolerance(
            1.0, r"4\sqrt2\varepsilon + \gamma_2;\ \tfrac d2(4\sqrt2 + 4)\varepsilon + \gamma_d"
        ),
        f"T_k, d=64, k in (1, 7, 100, 12345): max|T^T T - I| = {gram:.2g} (tolerance "
        f"{gram_tol:.2g}), max|det T - 1| = {det:.2g} (tolerance {det_tol:.2g})",
    )


def _block_diagonal(d_model: int) -> Callable[[Block], Proof]:
    return lambda block: proofs.block_diagonal_identity(d_model, block=block)


def _proved(theorem: Callable[[Block], Proof], *wrong_blocks: Candidate[Block]) -> Check[Block]:
    """The proof ``theorem`` for the paper's block, rejecting ``wrong_blocks``."""
    return Check(by_proof(theorem), true=symbolic.shift_block, wrong=wrong_blocks)


def _measured(
    run: Callable[[ShiftMatrix], Evidence], *wrong_matrices: Candidate[ShiftMatrix]
) -> Check[ShiftMatrix]:
    """The measurement ``run`` of :math:`T_k`, rejecting ``wrong_matrices``."""
    return Check(run, true=shift_matrix, wrong=wrong_matrices)


#: The composition proof for the paper's block, as a function of the law of the offsets.
_composition_law = by_proof(partial(proofs.composition, None))
_SIN_COS = partial(proofs.block_in_order, order="sin-cos")
_COS_SIN = by_proof(partial(proofs.block_in_order, order="cos-sin"))
_TEXTBOOK = wrong.TEXTBOOK_ROTATION

CLAIMS = (
    claim(
        "rotation-identity",
        "The rotation identity",
        _proved(proofs.rotation_identity, wrong.TRANSPOSED_BLOCK, wrong.SCALED_BLOCK),
        _measured(_identity(np.float64), wrong.TRANSPOSED_SHIFT_MATRIX),
        Check(_identity(np.float32), true=shift_matrix),
    ),
    claim(
        "rotation-identity-block-diagonal",
        "The identity for the whole vector",
        _proved(_block_diagonal(8), wrong.TRANSPOSED_BLOCK),
        _proved(_block_diagonal(64)),
        statement=(
            r"\begin{gathered}T_k\,PE(p) = PE(p+k),\quad T_k = \operatorname{diag}\bigl("
            r"B(k\omega_0), \dots, B(k\omega_{d/2-1})\bigr) \\"
            r" \text{exactly, for } d = 8 \text{ and } d = 64\end{gathered}"
        ),
    ),
    claim(
        "shift-independent-of-position",
        "$T_k$ does not depend on the position",
        _proved(proofs.shift_is_position_free, wrong.TRANSPOSED_BLOCK),
        _measured(_position_free, wrong.TRANSPOSED_SHIFT_MATRIX),
    ),
    claim(
        "shift-orthogonal",
        "$T_k$ is a rotation",
        _proved(proofs.shift_is_orthogonal, wrong.SCALED_BLOCK, wrong.NOT_A_ROTATION),
        _measured(_orthogonal, wrong.FLIPPED_SINE_SHIFT_MATRIX),
        statement=r"T_k^{\mathsf T} T_k = I, \qquad \det T_k = 1",
    ),
    claim(
        "block-sign-sin-cos-order",
        r"In $(\sin, \cos)$ order the block is $\left[\begin{smallmatrix} c & s \\ -s & c \end{smallmatrix}\right]$: a clockwise rotation",
        _proved(_SIN_COS, _TEXTBOOK),
        _proved(proofs.sin_cos_block_is_clockwise, _TEXTBOOK),
        Check(_orientation("sin-cos"), true=symbolic.shift_block, wrong=(_TEXTBOOK,)),
        statement=(
            r"\begin{gathered}"
            r"\begin{pmatrix} \sin\omega(p+k) \\ \cos\omega(p+k) \end{pmatrix} ="
            r"\begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega"
            r"\end{pmatrix}\begin{pmatrix} \sin\omega p \\ \cos\omega p \end{pmatrix},"
            r"\\ \begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega"
            r"\end{pmatrix} = R(-k\omega) \text{ (clockwise)}"
            r"\end{gathered}"
        ),
    ),
    claim(
        "textbook-block-cos-sin-order",
        r"The textbook rotation $\left[\begin{smallmatrix} c & -s \\ s & c \end{smallmatrix}\right]$ is right for $(\cos, \sin)$ order",
        Check(_COS_SIN, true=_TEXTBOOK.value, wrong=(wrong.PAPER_BLOCK,)),
        Check(_orientation("cos-sin"), true=_TEXTBOOK.value, wrong=(wrong.PAPER_BLOCK,)),
    ),
    claim(
        "shift-identity-at-zero",
        "Shifting by zero changes nothing",
        _proved(proofs.identity_at_zero, wrong.SWAPPED_BLOCK, wrong.SCALED_BLOCK),
        Check(_identity_at_zero, true=0, wrong=(wrong.OFFSET_ONE,)),
    ),
    claim(
        "shift-composition",
        "Two shifts make one: offsets add",
        _proved(proofs.composition, wrong.NOT_A_ROTATION, wrong.SCALED_BLOCK),
        Check(_composition_law, true=operator.add, wrong=(wrong.OFFSETS_SUBTRACT,)),
        Check(_composition, true=operator.add, wrong=(wrong.OFFSETS_SUBTRACT,)),
        statement=r"T_a\,T_b = T_{a+b} \quad \text{for all real } a, b",
    ),
    claim(
        "shift-inverse-is-transpose",
        "Shifting back is the inverse, and the inverse is the transpose",
        _proved(proofs.inverse_is_transpose, wrong.NOT_A_ROTATION, wrong.SCALED_BLOCK),
        Check(_inverse, true=operator.neg, wrong=(wrong.INVERSE_IS_SELF,)),
        statement=r"T_{-k} = T_k^{-1} = T_k^{\mathsf T}",
    ),
    claim(
        "same-map-10-15-20",
        "The same map takes position 10 to 15 and 15 to 20",
        _proved(proofs.ten_to_fifteen_to_twenty, wrong.TRANSPOSED_BLOCK),
        _measured(_ten_fifteen_twenty, wrong.TRANSPOSED_SHIFT_MATRIX),
        statement=r"T_5\,PE(10) = PE(15) \quad\text{and}\quad T_5\,PE(15) = PE(20)",
    ),
)
