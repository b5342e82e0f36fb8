"""Claims of the page "The rotation identity": the identity and the nature of T_k."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from pe import numeric, symbolic
from pe.claims import Claim, Evidence, checked, proved
from pe.proofs import rotation_identity as group_laws

PAGE = "rotation-identity"

#: Offsets used by the numeric checks: small, large and negative.
OFFSETS = np.array([0, 1, 2, 5, 10, 100, 1000, -3])
#: Positions: the first 1024 and a few far ones.
POSITIONS = np.concatenate([np.arange(1024), [10_000, 100_000, 1_000_000]])


def _transposed(k: Any, w: Any) -> Any:
    return symbolic.shift_block(k, w).T


def _scaled(k: Any, w: Any) -> Any:
    return 2 * symbolic.shift_block(k, w)


def _not_a_rotation(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [s, c]])


def _textbook(k: Any, w: Any) -> Any:
    return group_laws.textbook_rotation(k * w)


def _swapped(k: Any, w: Any) -> Any:
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[s, c], [-c, s]])


#: Width and offsets of the numeric group-law checks.
LAW_WIDTH = 512
LAW_OFFSETS = (0, 1, 3, 7, 100, 1000, 12_345, -5, -250)


def _law_tolerance(reach: float) -> float:
    """Error model for products of shift matrices: 4 eps64 + 4 eps64 max(w) reach."""
    eps = float(np.finfo(np.float64).eps)
    return 4.0 * eps + 4.0 * eps * reach


def _numeric_orientation(order: str, block: str) -> Callable[[], Evidence]:
    """Shift numeric pairs in ``order`` with ``block`` (``"paper"`` or ``"textbook"``)."""

    def run() -> Evidence:
        omega = numeric.frequencies(LAW_WIDTH)
        positions = np.arange(200, dtype=np.float64)
        worst, turns = 0.0, []
        for k in (1, 5, -3):
            angle = k * omega
            c, s = np.cos(angle), np.sin(angle)
            first, second = (np.sin, np.cos) if order == "sin-cos" else (np.cos, np.sin)
            u0 = first(np.multiply.outer(positions, omega))
            u1 = second(np.multiply.outer(positions, omega))
            t0 = first(np.multiply.outer(positions + k, omega))
            t1 = second(np.multiply.outer(positions + k, omega))
            sign = 1.0 if block == "paper" else -1.0
            a0 = c * u0 + sign * s * u1
            a1 = -sign * s * u0 + c * u1
            worst = max(worst, float(np.abs(a0 - t0).max()), float(np.abs(a1 - t1).max()))
            if k == 1:
                turns.append(float(np.sign(u0 * t1 - u1 * t0)[:, 0].mean()))
        direction = "clockwise" if turns[0] < 0 else "counter-clockwise"
        expected = "clockwise" if order == "sin-cos" else "counter-clockwise"
        ok = worst <= _law_tolerance(300.0) and direction == expected
        return checked(
            ok,
            f"{block} block on ({order}) pairs, d={LAW_WIDTH}, p < 200, k in (1, 5, -3): "
            f"max error {worst:.2g}; pair 0 turns {direction} from p to p+1",
        )

    return run


def _numeric_law(name: str, wrong: bool = False) -> Callable[[], Evidence]:
    """Group laws of ``numeric.shift_matrix`` at d=512; ``wrong`` feeds a wrong law."""

    def run() -> Evidence:
        t = {k: numeric.shift_matrix(k, LAW_WIDTH) for k in LAW_OFFSETS}
        eye = np.eye(LAW_WIDTH)
        worst, tol, shown = 0.0, 0.0, "k = 0"
        if name == "identity":
            candidate = numeric.shift_matrix(0, LAW_WIDTH) if not wrong else t[1]
            worst, tol = float(np.abs(candidate - eye).max()), _law_tolerance(0.0)
            text = "T_1 = I" if wrong else "T_0 = I"
        elif name == "composition":
            for a in LAW_OFFSETS[1::2]:
                for b in LAW_OFFSETS[::2]:
                    target = a - b if wrong else a + b
                    error = float(
                        np.abs(t[a] @ t[b] - numeric.shift_matrix(target, LAW_WIDTH)).max()
                    )
                    worst, tol = max(worst, error), max(tol, _law_tolerance(abs(a) + abs(b)))
            text = "T_a T_b = T_(a-b)" if wrong else "T_a T_b = T_(a+b)"
            shown = f"a in {LAW_OFFSETS[1::2]}, b in {LAW_OFFSETS[::2]}"
        else:
            for k in LAW_OFFSETS[::2]:
                back = t[k] if wrong else numeric.shift_matrix(-k, LAW_WIDTH)
                errors = (
                    np.abs(back @ t[k] - eye).max(),
                    np.abs(t[k].T - back).max(),
                    np.abs(np.linalg.inv(t[k]) - back).max(),
                )
                worst = max(worst, *(float(e) for e in errors))
                tol = max(tol, _law_tolerance(2 * abs(k)) + 16 * float(np.finfo(float).eps))
            shown = f"k in {LAW_OFFSETS[::2]}"
            text = "T_(-k) = T_k" if wrong else "T_(-k) T_k = I, T_k^T = T_(-k), inv(T_k) = T_(-k)"
        return checked(
            worst <= tol,
            f"{text}, d={LAW_WIDTH}, {shown}: max error {worst:.2g} (tolerance {tol:.2g})",
        )

    return run


def _numeric_ten_fifteen_twenty(wrong: bool = False) -> Evidence:
    table = numeric.sinusoidal(21, LAW_WIDTH)
    matrix = numeric.shift_matrix(5, LAW_WIDTH)
    if wrong:
        matrix = matrix.T
    first = float(np.abs(matrix @ table[10] - table[15]).max())
    second = float(np.abs(matrix @ table[15] - table[20]).max())
    tol = _law_tolerance(25.0)
    label = "transposed T_5" if wrong else "T_5"
    return checked(
        max(first, second) <= tol,
        f"d={LAW_WIDTH}: {label} PE(10) - PE(15) max {first:.2g}, "
        f"{label} PE(15) - PE(20) max {second:.2g} (tolerance {tol:.2g})",
    )


def _numeric_identity(dtype: type[np.floating[Any]]) -> Callable[[], Evidence]:
    def run() -> Evidence:
        result = numeric.check_rotation_identity(512, POSITIONS, OFFSETS, dtype=dtype)
        return checked(result.passed, f"d=512, {np.dtype(dtype)}: {result.summary()}")

    return run


def _numeric_identity_transposed() -> Evidence:
    result = numeric.check_rotation_identity(
        512,
        256,
        OFFSETS[OFFSETS >= 0],
        candidate=lambda k, d, b: numeric.shift_matrix(k, d, base=b).T,
    )
    return checked(result.passed, f"transposed T_k: {result.summary()}")


def _fit_detail(k: int, d_model: int) -> tuple[bool, str]:
    fitted = numeric.fitted_shift_matrix(k, d_model, np.arange(0, 100_000, 97))
    table = numeric.sinusoidal(4 * k + 1, d_model)
    gap = float(np.abs(fitted - numeric.shift_matrix(k, d_model)).max())
    first = float(np.abs(fitted @ table[2 * k] - table[3 * k]).max())
    second = float(np.abs(fitted @ table[3 * k] - table[4 * k]).max())
    ok = max(gap, first, second) < 1e-10
    return ok, (
        f"d={d_model}: M fitted by least squares from 1031 positions; "
        f"max|M - T_{k}| = {gap:.2g}; M maps {2 * k} to {3 * k} within {first:.2g} "
        f"and {3 * k} to {4 * k} within {second:.2g}"
    )


def _numeric_position_free() -> Evidence:
    results = [_fit_detail(5, d) for d in (16, 64)]
    return checked(all(ok for ok, _ in results), "; ".join(text for _, text in results))


def _numeric_position_free_control() -> Evidence:
    table = numeric.sinusoidal(21, 64)
    wrong = numeric.shift_matrix(5, 64).T
    error = float(np.abs(wrong @ table[10] - table[15]).max())
    return checked(error < 1e-10, f"transposed T_5 maps 10 to 15 with error {error:.2g}")


def _numeric_orthogonal(flip: bool = False) -> Callable[[], Evidence]:
    def run() -> Evidence:
        worst_gram, worst_det = 0.0, 0.0
        for k in (1, 7, 100, 12_345):
            matrix = numeric.shift_matrix(k, 64)
            if flip:
                matrix[1::2, 0::2] *= -1.0
            worst_gram = max(worst_gram, float(np.abs(matrix.T @ matrix - np.eye(64)).max()))
            worst_det = max(worst_det, abs(float(np.linalg.det(matrix)) - 1.0))
        label = "T_k with the lower sine's sign flipped" if flip else "T_k"
        ok = worst_gram < 1e-13 and worst_det < 1e-12
        return checked(
            ok,
            f"{label}, d=64, k in (1, 7, 100, 12345): max|T^T T - I| = {worst_gram:.2g}, "
            f"max|det T - 1| = {worst_det:.2g}",
        )

    return run


CLAIMS = (
    Claim(
        id="rotation-identity",
        title="The rotation identity",
        statement=(
            r"\begin{pmatrix} \sin\omega_i(p+k) \\ \cos\omega_i(p+k) \end{pmatrix} ="
            r"\begin{pmatrix} \cos k\omega_i & \sin k\omega_i \\ -\sin k\omega_i & \cos k\omega_i"
            r"\end{pmatrix} \begin{pmatrix} \sin\omega_i p \\ \cos\omega_i p \end{pmatrix},"
            r"\quad \omega_i = \mathrm{base}^{-2i/d}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(symbolic.rotation_identity()),
            _numeric_identity(np.float64),
            _numeric_identity(np.float32),
        ),
        controls=(
            lambda: proved(symbolic.rotation_identity(_transposed), "transposed block"),
            lambda: proved(symbolic.rotation_identity(_scaled), "block scaled by 2"),
            _numeric_identity_transposed,
        ),
    ),
    Claim(
        id="rotation-identity-block-diagonal",
        title="The identity for the whole vector",
        statement=(
            r"\begin{gathered}T_k\,PE(p) = PE(p+k),\quad T_k = \operatorname{diag}\bigl("
            r"B(k\omega_0), \dots, B(k\omega_{d/2-1})\bigr) \\"
            r" \text{exactly, for } d = 8 \text{ and } d = 64\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(symbolic.block_diagonal_identity(8)),
            lambda: proved(symbolic.block_diagonal_identity(64)),
        ),
        controls=(
            lambda: proved(
                symbolic.block_diagonal_identity(8, block=_transposed), "transposed blocks"
            ),
        ),
    ),
    Claim(
        id="shift-independent-of-position",
        title="T_k does not depend on the position",
        statement=(
            r"M\,v_i(p) = v_i(p+k) \text{ and } M\,v_i(q) = v_i(q+k),\ \sin\omega_i(p-q) \ne 0"
            r"\implies M = B(k\omega_i), \text{ free of } p \text{ and } q"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(symbolic.shift_is_position_free()),
            _numeric_position_free,
        ),
        controls=(
            lambda: proved(symbolic.shift_is_position_free(_transposed), "transposed block"),
            _numeric_position_free_control,
        ),
    ),
    Claim(
        id="shift-orthogonal",
        title="T_k is a rotation",
        statement=r"T_k^{\mathsf T} T_k = I, \qquad \det T_k = 1",
        page=PAGE,
        evidence=(
            lambda: proved(symbolic.shift_is_orthogonal()),
            _numeric_orthogonal(),
        ),
        controls=(
            lambda: proved(symbolic.shift_is_orthogonal(_scaled), "block scaled by 2"),
            lambda: proved(symbolic.shift_is_orthogonal(_not_a_rotation), "[[c, s], [s, c]]"),
            _numeric_orthogonal(flip=True),
        ),
    ),
    Claim(
        id="block-sign-sin-cos-order",
        title="In (sin, cos) order the block is [[c, s], [-s, c]]: a clockwise rotation",
        statement=(
            r"\begin{gathered}"
            r"\begin{pmatrix} \sin\omega(p+k) \\ \cos\omega(p+k) \end{pmatrix} ="
            r"\begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega"
            r"\end{pmatrix}\begin{pmatrix} \sin\omega p \\ \cos\omega p \end{pmatrix},"
            r"\\ \begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega"
            r"\end{pmatrix} = R(-k\omega) \text{ (clockwise)}"
            r"\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(group_laws.block_in_order(symbolic.shift_block, "sin-cos")),
            lambda: proved(group_laws.sin_cos_block_is_clockwise()),
            _numeric_orientation("sin-cos", "paper"),
        ),
        controls=(
            lambda: proved(group_laws.block_in_order(_textbook, "sin-cos"), "textbook R(kω)"),
            lambda: proved(group_laws.sin_cos_block_is_clockwise(_textbook), "textbook R(kω)"),
            _numeric_orientation("sin-cos", "textbook"),
        ),
    ),
    Claim(
        id="textbook-block-cos-sin-order",
        title="The textbook rotation [[c, -s], [s, c]] is right for (cos, sin) order",
        statement=(
            r"\begin{pmatrix} \cos\omega(p+k) \\ \sin\omega(p+k) \end{pmatrix} ="
            r"\begin{pmatrix} \cos k\omega & -\sin k\omega \\ \sin k\omega & \cos k\omega"
            r"\end{pmatrix}\begin{pmatrix} \cos\omega p \\ \sin\omega p \end{pmatrix}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(group_laws.block_in_order(_textbook, "cos-sin")),
            _numeric_orientation("cos-sin", "textbook"),
        ),
        controls=(
            lambda: proved(
                group_laws.block_in_order(symbolic.shift_block, "cos-sin"), "the paper's block"
            ),
            _numeric_orientation("cos-sin", "paper"),
        ),
    ),
    Claim(
        id="shift-identity-at-zero",
        title="Shifting by zero changes nothing",
        statement=r"T_0 = I",
        page=PAGE,
        evidence=(lambda: proved(group_laws.identity_at_zero()), _numeric_law("identity")),
        controls=(
            lambda: proved(group_laws.identity_at_zero(_swapped), "sin and cos swapped"),
            lambda: proved(group_laws.identity_at_zero(_scaled), "block scaled by 2"),
            _numeric_law("identity", wrong=True),
        ),
    ),
    Claim(
        id="shift-composition",
        title="Two shifts make one: offsets add",
        statement=r"T_a\,T_b = T_{a+b} \quad \text{for all real } a, b",
        page=PAGE,
        evidence=(lambda: proved(group_laws.composition()), _numeric_law("composition")),
        controls=(
            lambda: proved(group_laws.composition(combine=lambda a, b: a - b), "T_(a-b)"),
            lambda: proved(group_laws.composition(_not_a_rotation), "[[c, s], [s, c]]"),
            lambda: proved(group_laws.composition(_scaled), "block scaled by 2"),
            _numeric_law("composition", wrong=True),
        ),
    ),
    Claim(
        id="shift-inverse-is-transpose",
        title="Shifting back is the inverse, and the inverse is the transpose",
        statement=r"T_{-k} = T_k^{-1} = T_k^{\mathsf T}",
        page=PAGE,
        evidence=(lambda: proved(group_laws.inverse_is_transpose()), _numeric_law("inverse")),
        controls=(
            lambda: proved(group_laws.inverse_is_transpose(_not_a_rotation), "[[c, s], [s, c]]"),
            lambda: proved(group_laws.inverse_is_transpose(_scaled), "block scaled by 2"),
            _numeric_law("inverse", wrong=True),
        ),
    ),
    Claim(
        id="same-map-10-15-20",
        title="The same map takes position 10 to 15 and 15 to 20",
        statement=r"T_5\,PE(10) = PE(15) \quad\text{and}\quad T_5\,PE(15) = PE(20)",
        page=PAGE,
        evidence=(
            lambda: proved(group_laws.ten_to_fifteen_to_twenty()),
            _numeric_ten_fifteen_twenty,
        ),
        controls=(
            lambda: proved(group_laws.ten_to_fifteen_to_twenty(_transposed), "transposed block"),
            lambda: _numeric_ten_fifteen_twenty(wrong=True),
        ),
    ),
)
