r"""NumPy measurements of the chapter "The rotation identity": :math:`T_k` and its laws.

Each function measures :mod:`pe.numeric` against a *candidate*, the value a claim passes
in: a shift matrix ``(k, d, base) -> (d, d) array`` (:func:`shift_matrix`, or a wrong one
from :mod:`pe.proofs.wrong`), a SymPy block ``(k, w) -> 2 x 2 Matrix``, a law on offsets,
an offset. They return the numbers; :mod:`pe.claims.rotation_identity` turns them into
evidence.

Error model of the group laws. An entry of a product of shift matrices is a sum of
products of sines and cosines of angles :math:`\omega_i k` formed in float64; it is held
to :func:`pe._tolerance.shift_tolerance` at the largest frequency :math:`\omega_0 = 1`,

.. math::

    \tau(x) = 12\varepsilon_{64} + 4\varepsilon_{64}\,|x|,

with :math:`|x|` the reach of the angles (:func:`law_tolerance`).

Examples
--------
>>> law = composition_error(lambda a, b: a + b)
>>> law.passed, law.worst < 1e-10
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric, symbolic
from pe._rotation_table import ENTRY_ERROR_BOUND
from pe._tolerance import ELEMENTARY_ULPS, EPS64, gamma, shift_tolerance
from pe.numeric import RotationCheck
from pe.proofs.wrong import ShiftMatrix

__all__ = [
    "LAW_OFFSETS",
    "LAW_WIDTH",
    "OFFSETS",
    "POSITIONS",
    "Fit",
    "LawError",
    "composition_error",
    "error_by_position",
    "fitted_map",
    "fitted_map_tolerance",
    "identity_checks",
    "identity_error",
    "inverse_error",
    "law_tolerance",
    "orientation",
    "orthogonality",
    "orthogonality_tolerance",
    "shift_matrix",
    "ten_fifteen_twenty",
]

Float64Array = npt.NDArray[np.float64]

#: Offsets of the numeric identity checks: small, large and negative.
OFFSETS = np.array([0, 1, 2, 5, 10, 100, 1000, -3])
#: Positions: the first 1024 and a few far ones.
POSITIONS = np.concatenate([np.arange(1024), [10_000, 100_000, 1_000_000]])
#: Width and offsets of the numeric group-law checks.
LAW_WIDTH = 512
LAW_OFFSETS = (0, 1, 3, 7, 100, 1000, 12_345, -5, -250)
#: Offsets at which :func:`orientation` shifts the pairs.
TURN_OFFSETS = (1, 5, -3)


def shift_matrix(k: int, d_model: int, base: float) -> Float64Array:
    """:func:`pe.numeric.shift_matrix` with the signature of a candidate, ``(k, d, base)``.

    Examples
    --------
    >>> shift_matrix(0, 4, 10000.0).tolist() == np.eye(4).tolist()
    True
    """
    return numeric.shift_matrix(k, d_model, base=base)


def law_tolerance(reach: float) -> float:
    """The error model of products of shift matrices: ``12 eps64 + 4 eps64 reach``.

    Examples
    --------
    >>> law_tolerance(0.0) == 12 * float(np.finfo(np.float64).eps)
    True
    """
    return float(shift_tolerance(EPS64, 1.0, reach))


@dataclass(frozen=True)
class LawError:
    """The largest error of a group law and the largest tolerance it was held to."""

    worst: float
    tolerance: float

    @property
    def passed(self) -> bool:
        """Whether the largest error is within the tolerance."""
        return self.worst <= self.tolerance


def _t(k: int) -> Float64Array:
    return numeric.shift_matrix(k, LAW_WIDTH)


def identity_error(offset: int) -> LawError:
    """:math:`\\max|T_{offset} - I|` at ``d = 512`` (the identity is ``offset = 0``).

    Examples
    --------
    >>> identity_error(0).worst, identity_error(1).passed
    (0.0, False)
    """
    return LawError(float(np.abs(_t(offset) - np.eye(LAW_WIDTH)).max()), law_tolerance(0.0))


def composition_error(law: Callable[[int, int], int]) -> LawError:
    """:math:`\\max|T_a T_b - T_{law(a, b)}|` over ``a`` and ``b`` from :data:`LAW_OFFSETS`."""
    worst, tol = 0.0, 0.0
    for a in LAW_OFFSETS[1::2]:
        for b in LAW_OFFSETS[::2]:
            error = float(np.abs(_t(a) @ _t(b) - _t(law(a, b))).max())
            worst, tol = max(worst, error), max(tol, law_tolerance(abs(a) + abs(b)))
    return LawError(worst, tol)


def inverse_error(inverse: Callable[[int], int]) -> LawError:
    """How far :math:`T_{inverse(k)}` is from :math:`T_k^{-1}` and from :math:`T_k^{\\mathsf T}`.

    The largest of :math:`|T_{k'} T_k - I|`, :math:`|T_k^{\\mathsf T} - T_{k'}|` and
    :math:`|T_k^{-1} - T_{k'}|` with :math:`k' = inverse(k)`, over every other offset of
    :data:`LAW_OFFSETS`; the true inverse is ``operator.neg``.

    Examples
    --------
    >>> import operator
    >>> inverse_error(operator.neg).passed, inverse_error(operator.pos).passed
    (True, False)
    """
    eye = np.eye(LAW_WIDTH)
    worst, tol = 0.0, 0.0
    for k in LAW_OFFSETS[::2]:
        t, back = _t(k), _t(inverse(k))
        errors = (
            np.abs(back @ t - eye).max(),
            np.abs(t.T - back).max(),
            np.abs(np.linalg.inv(t) - back).max(),
        )
        worst = max(worst, *(float(e) for e in errors))
        tol = max(tol, law_tolerance(2 * abs(k)) + 16 * EPS64)
    return LawError(worst, tol)


def ten_fifteen_twenty(shift: ShiftMatrix) -> tuple[float, float, float]:
    """Errors of ``shift(5)`` taking ``PE(10)`` to ``PE(15)`` and ``PE(15)`` to ``PE(20)``.

    Returns the two largest errors at ``d = 512`` and the tolerance of both.
    """
    table = numeric.sinusoidal(21, LAW_WIDTH)
    matrix = shift(5, LAW_WIDTH, 10000.0)
    first = float(np.abs(matrix @ table[10] - table[15]).max())
    second = float(np.abs(matrix @ table[15] - table[20]).max())
    return first, second, law_tolerance(25.0)


def orientation(block: symbolic.Block, order: Literal["sin-cos", "cos-sin"]) -> tuple[float, str]:
    """Shift pairs stored in ``order`` with the SymPy ``block``, evaluated by NumPy.

    At ``d = 512``, positions ``0 .. 199`` and the offsets :data:`TURN_OFFSETS`, the block
    is applied to :math:`u(p)` and compared with :math:`u(p+k)`. Returns the largest error
    and the direction pair 0 turns from ``p`` to ``p + 1`` (the sign of the 2-D cross
    product of :math:`u(p)` and :math:`u(p+1)`).

    Examples
    --------
    >>> worst, turn = orientation(symbolic.shift_block, "sin-cos")
    >>> worst < 1e-12, turn
    (True, 'clockwise')
    """
    w = sp.Symbol("w", positive=True)
    entries = sp.lambdify((symbolic.K, w), block(symbolic.K, w), "numpy")
    omega = numeric.frequencies(LAW_WIDTH)
    positions = np.arange(200, dtype=np.float64)
    first, second = (np.sin, np.cos) if order == "sin-cos" else (np.cos, np.sin)
    worst, turn = 0.0, 0.0
    for k in TURN_OFFSETS:
        m = entries(k, omega)
        u0 = first(np.multiply.outer(positions, omega))
        u1 = second(np.multiply.outer(positions, omega))
        t0 = first(np.multiply.outer(positions + k, omega))
        t1 = second(np.multiply.outer(positions + k, omega))
        a0 = m[0][0] * u0 + m[0][1] * u1
        a1 = m[1][0] * u0 + m[1][1] * u1
        worst = max(worst, float(np.abs(a0 - t0).max()), float(np.abs(a1 - t1).max()))
        if k == 1:
            turn = float(np.sign(u0 * t1 - u1 * t0)[:, 0].mean())
    return worst, "clockwise" if turn < 0 else "counter-clockwise"


@dataclass(frozen=True)
class Fit:
    """A map fitted from the table alone, against a candidate :math:`T_k`.

    Attributes
    ----------
    gap
        :math:`\\max|M - T_k|` for the candidate :math:`T_k`.
    first, second
        How well ``M`` maps :math:`PE(2k)` to :math:`PE(3k)` and :math:`PE(3k)` to
        :math:`PE(4k)` (largest error).
    """

    gap: float
    first: float
    second: float


def fitted_map(shift: ShiftMatrix, k: int, d_model: int) -> Fit:
    """Fit ``M`` by least squares from positions ``0, 97, 194, ...`` and compare it with ``shift``.

    Examples
    --------
    >>> fitted_map(shift_matrix, 5, 16).gap < 1e-10
    True
    """
    fitted = numeric.fitted_shift_matrix(k, d_model, FIT_POSITIONS)
    table = numeric.sinusoidal(4 * k + 1, d_model)
    return Fit(
        gap=float(np.abs(fitted - shift(k, d_model, 10000.0)).max()),
        first=float(np.abs(fitted @ table[2 * k] - table[3 * k]).max()),
        second=float(np.abs(fitted @ table[3 * k] - table[4 * k]).max()),
    )


#: Positions the map of :func:`fitted_map` is fitted from.
FIT_POSITIONS = np.arange(0, 100_000, 97)


def fitted_map_tolerance(k: int, d_model: int) -> float:
    r"""A bound on every number :func:`fitted_map` reports for the true :math:`T_k`.

    The fit solves :math:`A M^{\mathsf T} \approx B` (rows :math:`PE(p)` and
    :math:`PE(p+k)` by the direct formula, entries within :math:`e(x) = \varepsilon +
    u\,\omega_i x` of values that :math:`T_k` maps onto each other exactly, the rounded
    :math:`\omega_i` being shared). Perturbation theory of a consistent least-squares
    problem, and LAPACK's backward error of :math:`\gamma_{mn}\lVert A\rVert_F`, bound

    .. math::

        \lVert \hat M - T_k \rVert_2 \le \frac{\lVert E_A \rVert_F + \lVert E_B \rVert_F}
        {\sigma_{\min}(A)} + \kappa(A)\,\gamma_{mn}\sqrt d = \tau_M,

    and a row mapped by :math:`\hat M` errs by at most :math:`\tau_M \lVert PE \rVert +
    \gamma_d \sqrt{d} + 2\delta` more (:math:`\lVert PE \rVert = \sqrt{d/2}`). The
    larger of the two is returned (first order in :math:`u`).
    """
    omega = np.repeat(numeric.frequencies(d_model), 2)
    reach = np.multiply.outer(FIT_POSITIONS.astype(np.float64), omega)
    fixed = ELEMENTARY_ULPS * EPS64
    e_a = float(np.sqrt(((fixed + EPS64 / 2 * reach) ** 2).sum()))
    e_b = float(np.sqrt(((fixed + EPS64 / 2 * (reach + abs(k) * omega)) ** 2).sum()))
    sources = numeric.sinusoidal_direct(FIT_POSITIONS, d_model)
    sigma = np.linalg.svd(sources, compute_uv=False)
    m, n = sources.shape
    tau_m = (e_a + e_b) / sigma.min() + sigma.max() / sigma.min() * gamma(m * n) * np.sqrt(n)
    mapped = tau_m * np.sqrt(n / 2) + gamma(n) * np.sqrt(n) + 2 * ENTRY_ERROR_BOUND
    return float(max(tau_m, mapped))


def orthogonality_tolerance(d_model: int = 64) -> tuple[float, float]:
    r"""Bounds on :func:`orthogonality`'s two numbers for the true :math:`T_k`.

    :math:`c^2 + s^2 = 1` and :math:`cs - sc = 0` hold exactly for the cosine and sine of
    the rounded angle, so only their own errors (:data:`~pe._tolerance.ELEMENTARY_ULPS`
    each) and the products count: :math:`4\sqrt2\,\varepsilon + \gamma_2` per entry of
    :math:`T^{\mathsf T}T - I` (the other terms of the matrix product are exact zeros). The
    determinant, by LU with partial pivoting, is the product of the :math:`d/2` blocks'
    determinants, each eliminated within :math:`(4\sqrt 2 + 4)\,\varepsilon`:
    :math:`\tfrac d2 (4\sqrt2 + 4)\varepsilon + \gamma_d`.
    """
    eps = ELEMENTARY_ULPS / 2 * EPS64
    gram = 4 * np.sqrt(2) * eps + gamma(2)
    det = d_model / 2 * (4 * np.sqrt(2) + 4) * eps + gamma(d_model)
    return float(gram), float(det)


def orthogonality(shift: ShiftMatrix) -> tuple[float, float]:
    """:math:`\\max|T^{\\mathsf T} T - I|` and :math:`\\max|\\det T - 1|` of ``shift`` at ``d = 64``.

    Over the offsets 1, 7, 100 and 12345.

    Examples
    --------
    >>> gram, det = orthogonality(shift_matrix)
    >>> gram < 1e-13, det < 1e-12
    (True, True)
    """
    worst_gram, worst_det = 0.0, 0.0
    for k in (1, 7, 100, 12_345):
        matrix = shift(k, 64, 10000.0)
        worst_gram = max(worst_gram, float(np.abs(matrix.T @ matrix - np.eye(64)).max()))
        worst_det = max(worst_det, abs(float(np.linalg.det(matrix)) - 1.0))
    return worst_gram, worst_det


def identity_checks() -> list[RotationCheck]:
    """The rotation identity checked at ``d`` = 64 and 512, in float32 and float64.

    Positions :data:`POSITIONS`, the non-zero offsets of :data:`OFFSETS`.
    """
    return [
        numeric.check_rotation_identity(d, POSITIONS, OFFSETS[OFFSETS != 0], dtype=dtype)
        for d in (64, 512)
        for dtype in (np.float32, np.float64)
    ]


def error_by_position(
    d_model: int, positions: npt.NDArray[np.int64], k: int, dtype: Any
) -> tuple[Float64Array, Float64Array]:
    """Largest error of :math:`T_k PE(p) - PE(p+k)` at each position, and its tolerance.

    Examples
    --------
    >>> errors, tolerances = error_by_position(8, np.array([1, 1000]), 3, "float64")
    >>> bool(np.all(errors <= tolerances))
    True
    """
    omega = numeric.frequencies(d_model)
    errors, tolerances = [], []
    for p in positions:
        result = numeric.check_rotation_identity(d_model, np.array([p]), np.array([k]), dtype=dtype)
        errors.append(result.max_abs_error)
        tolerances.append(float(numeric.rotation_tolerance(omega, p, k, dtype).max()))
    return np.asarray(errors), np.asarray(tolerances)
