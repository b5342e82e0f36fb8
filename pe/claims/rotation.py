"""Claims of the page "The rotation identity": the identity and the nature of T_k."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from pe import numeric, symbolic
from pe.claims import Claim, Evidence, checked, proved

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
            r"T_k\,PE(p) = PE(p+k),\quad T_k = \operatorname{diag}\bigl(B(k\omega_0), \dots,"
            r" B(k\omega_{d/2-1})\bigr) \text{ exactly, for } d = 8 \text{ and } d = 64"
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
)
