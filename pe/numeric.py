r"""The sinusoidal positional encoding and its rotation identity, in NumPy.

Notation (the paper's, Vaswani et al. 2017, section 3.5): ``d`` is the model width
(even), ``i = 0, ..., d/2 - 1`` indexes the sine/cosine pairs, ``p`` is a position.

.. math::

    \omega_i = \mathrm{base}^{-2i/d}, \qquad
    PE(p, 2i) = \sin(\omega_i p), \qquad PE(p, 2i+1) = \cos(\omega_i p).

For every offset ``k`` the block-diagonal shift matrix :math:`T_k` (:func:`shift_matrix`)
moves every row: :math:`T_k\,PE(p) = PE(p + k)` for every position ``p`` (the rotation
identity).

Computing the table
-------------------
:func:`sinusoidal` computes the table by the rotation identity itself
(:mod:`pe._rotation_table`), within about ``4.9e-16`` of the exact values at every
position up to ``2**53``; :func:`sinusoidal_direct` is the plain formula, the readable
reference.

Error model
-----------
In the direct evaluation (and in :func:`check_rotation_identity`, which uses it) every
angle :math:`\theta = \omega_i p` is formed in float64 from the same rounded
:math:`\omega_i`, so the relative error of :math:`\omega_i` cancels between
:math:`T_k PE(p)` and :math:`PE(p+k)`; what remains is the rounding of each product
:math:`\omega_i p`, which grows with the reach, the float64 sines and cosines (within one
unit in the last place each) and the roundings to the output dtype and of the two-term
product. The identity check accepts the entry of pair ``i`` of :math:`T_k PE(p)` against
:math:`PE(p+k)` within (:func:`rotation_tolerance`, the shift model of
:mod:`pe._tolerance`, a bound on every IEEE 754 machine)

.. math::

    \tau_i(p, k) = 4\,\varepsilon + 8\,\varepsilon_{64} + 4\,\varepsilon_{64}\,\omega_i (|p| + |k|),

:math:`\varepsilon` of the dtype the check computes in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _extended_precision, _validate
from pe import _rotation_table as rotation_table
from pe._arrays import in_libraries, shift_in_library, sinusoidal_in_library, sinusoidal_wanted
from pe._tolerance import ToleranceCheck, WorstCase, real_array, shift_tolerance, worst_case

__all__ = [
    "RotationCheck",
    "check_rotation_identity",
    "fitted_shift_matrix",
    "frequencies",
    "rotation_tolerance",
    "shift",
    "shift_matrix",
    "sinusoidal",
    "sinusoidal_direct",
]

FloatArray = npt.NDArray[np.floating[Any]]
Float64Array = npt.NDArray[np.float64]

#: Candidate shift matrices for :func:`check_rotation_identity`: ``(k, d_model, base) -> (d, d)``.
MatrixCandidate = Callable[[float, int, float], npt.ArrayLike]

#: Largest position accepted: integers above 2**53 are not all representable in float64.
MAX_POSITION = 2**53


def frequencies(d_model: int, base: float = 10000.0) -> Float64Array:
    r"""Angular frequencies :math:`\omega_i = \mathrm{base}^{-2i/d}`, ``i = 0 .. d/2 - 1``.

    Parameters
    ----------
    d_model
        Model width ``d``: an even integer ``>= 2``.
    base
        Base of the geometric progression (the paper's 10000); finite and ``> 1``.

    Returns
    -------
    numpy.ndarray
        Float64 array of length ``d/2``, from :math:`\omega_0 = 1` down to
        :math:`\omega_{d/2-1} = \mathrm{base}^{-(d-2)/d}` (strictly decreasing), each the
        float64 nearest to the exact value: the same bits on every machine (computed in
        decimal arithmetic, not by the platform's ``pow``). The wavelengths :math:`2\pi/\omega_i` run from :math:`2\pi` to
        :math:`2\pi\,\mathrm{base}^{(d-2)/d}`, just short of :math:`2\pi\,\mathrm{base}`.

    Raises
    ------
    TypeError, ValueError
        If ``d_model`` is not an even integer ``>= 2`` or ``base`` is not finite and ``> 1``.

    Examples
    --------
    >>> frequencies(8)
    array([1.   , 0.1  , 0.01 , 0.001])
    """
    width = _validate.even_width("d_model", d_model)
    b = _validate.base_value("base", base)
    _validate.capped_elements("frequencies", width // 2, 8)
    return np.array(_extended_precision.frequencies(width, b))


def _positions(value: object) -> npt.NDArray[np.int64]:
    """Positions for :func:`sinusoidal`: a count ``n`` or a 1-D array of integers in [0, 2**53]."""
    positions = _validate.integer_positions("positions", value)
    if positions.min() < 0:
        raise ValueError("positions must be >= 0")
    if positions.max() > MAX_POSITION:
        raise ValueError(f"positions must be <= 2**53, got {int(positions.max())}")
    return positions


def _table(
    positions: npt.NDArray[np.int64], omega: Float64Array, dtype: np.dtype[Any]
) -> FloatArray:
    """Direct interleaved table of ``positions`` (any integers), angles formed in float64."""
    angles = np.multiply.outer(positions.astype(np.float64), omega)
    table = np.empty((positions.size, 2 * omega.size), dtype=dtype)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


@in_libraries(sinusoidal_in_library, frequencies, when=sinusoidal_wanted)
def sinusoidal(
    n_positions: int | npt.ArrayLike,
    d_model: int,
    *,
    base: float = 10000.0,
    dtype: npt.DTypeLike = np.float64,
) -> FloatArray:
    r"""The sinusoidal encoding table in the paper's interleaved layout, fast and accurate.

    .. math::

        PE[p, 2i] = \sin(\omega_i p), \qquad PE[p, 2i+1] = \cos(\omega_i p),
        \qquad \omega_i = \mathrm{base}^{-2i/d}.

    Computed by the rotation identity (:func:`pe._rotation_table.table`): accurate
    sines and cosines for one block of positions and for each block start, then one
    complex multiplication per entry in float64, rounded once to ``dtype``. A row depends
    only on its position, not on the other rows requested.

    Parameters
    ----------
    n_positions
        Either a count ``n`` (rows for positions ``0 .. n - 1``) or a 1-D array of
        non-negative integer positions (any order, at most ``2**53``), one row each.
    d_model
        Model width ``d``: an even integer ``>= 2``. Odd widths are refused.
    base
        Base of the frequency law, finite and ``> 1`` (the paper: 10000).
    dtype
        float16, float32 or float64.

    Returns
    -------
    numpy.ndarray
        Array of shape ``(n, d)`` (another library's for its positions or dtype, see
        :mod:`pe._arrays`). Error model (:mod:`pe._rotation_table`): float64 entries are
        within :data:`pe._rotation_table.ENTRY_ERROR_BOUND` (about ``4.9e-16``) of the exact
        value at every position up to ``2**53``; float32 entries within
        :math:`2^{-25} + 1.6 \times 10^{-15}` (under ``6e-8``); float16 entries within
        :math:`2^{-12} + 1.6 \times 10^{-15}`. The error does not grow with the position.

    Raises
    ------
    TypeError, ValueError
        For non-integer or non-positive sizes, odd ``d_model``, ``base <= 1``, an unknown
        dtype, or a table larger than :data:`pe.MAX_BYTES` (checked before allocating).

    Examples
    --------
    >>> sinusoidal(np.array([0, 5, 1_000_000]), 64).shape
    (3, 64)
    """
    count = _validate.position_count("positions", n_positions, limit=MAX_POSITION)
    positions = None if count is not None else _positions(n_positions)
    width = _validate.even_width("d_model", d_model)
    out_dtype = _validate.float_dtype("dtype", dtype)
    b = _validate.base_value("base", base)
    # The direct method's cap (table plus half-width float64 angles): it also covers the
    # anchors and scratch of the rotation algorithm, so both methods refuse the same sizes,
    # and the width // 2 float64 frequencies (at least one row, so 4 + itemsize >= 6 bytes
    # a column here against their 4).
    rows = positions.size if positions is not None else count or 0
    _validate.capped_elements("the table", rows * width, 4 + out_dtype.itemsize)
    if positions is None:  # rows 0 .. n-1: no positions array, and cached anchors
        return rotation_table.table_range(0, rows, width, b, out_dtype)
    return rotation_table.table(positions, width, b, out_dtype)


def sinusoidal_direct(
    n_positions: int | npt.ArrayLike,
    d_model: int,
    *,
    base: float = 10000.0,
    dtype: npt.DTypeLike = np.float64,
) -> FloatArray:
    r"""The same table by the plain formula: the readable reference.

    Forms every angle :math:`\omega_i p` in float64 (``frequencies(d) * p``), takes
    ``np.sin`` and ``np.cos`` and rounds once to ``dtype``.

    Error model: rounding :math:`\omega_i` to float64 and the product move the angle by
    up to about :math:`\varepsilon_{64}\,\omega_i p` (:math:`\varepsilon_{64} = 2^{-52}`),
    so an entry is within

    .. math::

        \varepsilon_{64}\,(1 + \omega_i p) + \varepsilon / 2

    of the exact value (:math:`\varepsilon` of ``dtype``; the first term is the float64
    sine's own error plus the angle error). Unlike :func:`sinusoidal`, the error grows
    linearly with the position: about ``2e-10`` at ``p = 1e6`` for :math:`\omega_0 = 1`.
    Parameters, return value and errors as :func:`sinusoidal`.
    """
    positions = _positions(n_positions)
    width = _validate.even_width("d_model", d_model)
    out_dtype = _validate.float_dtype("dtype", dtype)
    omega = frequencies(width, base)
    # The angles (float64, half width) and the table are alive together.
    _validate.capped_elements("the table", positions.size * width, 4 + out_dtype.itemsize)
    return _table(positions, omega, out_dtype)


def shift_matrix(k: float, d_model: int, *, base: float = 10000.0) -> Float64Array:
    r"""The ``d x d`` matrix :math:`T_k` with :math:`T_k\,PE(p) = PE(p + k)` for every ``p``.

    :math:`T_k` is block-diagonal; block ``i`` (rows and columns ``2i, 2i+1``) is

    .. math::

        \begin{pmatrix} \cos k\omega_i & \sin k\omega_i \\
                        -\sin k\omega_i & \cos k\omega_i \end{pmatrix}.

    In the paper's (sin, cos) order this block turns clockwise; the textbook
    counter-clockwise matrix ``[[c, -s], [s, c]]`` is right only for (cos, sin) order.

    Parameters
    ----------
    k
        The offset, any finite real number (negative offsets shift backwards).
    d_model
        Even width ``>= 2``.
    base
        Base of the frequency law, ``> 1``.
    """
    offset = _validate.real_scalar("k", k)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("shift_matrix", width * width, 8)
    angles = offset * frequencies(width, base)
    c, s = np.cos(angles), np.sin(angles)
    matrix = np.zeros((width, width), dtype=np.float64)
    pairs = np.arange(0, width, 2)
    matrix[pairs, pairs] = c
    matrix[pairs, pairs + 1] = s
    matrix[pairs + 1, pairs] = -s
    matrix[pairs + 1, pairs + 1] = c
    return matrix


@in_libraries(shift_in_library, frequencies)
def shift(rows: npt.ArrayLike, k: float, *, base: float = 10000.0) -> FloatArray:
    r"""Apply :math:`T_k` to the last axis of ``rows`` in :math:`O(d)` per row, without the matrix.

    For each pair ``(a, b) = (x[2i], x[2i+1])``: :math:`a' = a \cos k\omega_i + b \sin k\omega_i`,
    :math:`b' = -a \sin k\omega_i + b \cos k\omega_i`.

    Parameters
    ----------
    rows
        Array of shape ``(..., d)`` with ``d`` even, real. Floating inputs keep their dtype
        (float16, float32, float64); integer inputs are computed in float64.
    k
        The offset, a finite real number.
    base
        Base of the frequency law, ``> 1``.

    Returns
    -------
    numpy.ndarray
        Same shape as ``rows`` (another library's rows: its rows, :mod:`pe._arrays`); ``shift
        (sinusoidal(n, d), k)[p]`` is row ``p + k`` within the error model of this module.
    """
    array = _validate.float_array("rows", rows, "(..., d)")
    dtype = array.dtype
    if array.ndim == 0:
        raise ValueError("rows must have at least one axis (the width d)")
    width = _validate.even_width("rows.shape[-1]", array.shape[-1])
    offset = _validate.real_scalar("k", k)
    # The angles k * w_i and their sines and cosines in float64, rounded once to the rows'
    # dtype: a float16 angle would overflow beyond 65504 and lose the offset long before.
    angles = offset * frequencies(width, base)
    c, s = np.cos(angles).astype(dtype), np.sin(angles).astype(dtype)
    a, b = array[..., 0::2], array[..., 1::2]
    out = np.empty_like(array)
    out[..., 0::2] = c * a + s * b
    out[..., 1::2] = c * b - s * a
    return out


def rotation_tolerance(
    omega: npt.ArrayLike, position: npt.ArrayLike, offset: float, dtype: npt.DTypeLike
) -> FloatArray:
    r"""Accepted error :math:`\tau_i(p, k) = 4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\,\omega_i(|p| + |k|)`.

    The shift model :func:`pe._tolerance.shift_tolerance`, reach :math:`|p| + |k|`: a bound
    that holds on every IEEE 754 machine (its derivation is there).

    Parameters
    ----------
    omega
        Frequencies :math:`\omega_i` (broadcast against ``position``).
    position
        Positions ``p``.
    offset
        The offset ``k``.
    dtype
        The dtype the check computes in; :math:`\varepsilon` is its machine epsilon.

    Returns
    -------
    numpy.ndarray
        The broadcast tolerance, float64.

    Examples
    --------
    >>> float(rotation_tolerance(1.0, 0, 0, np.float32)) == 4 * 2.0**-23 + 8 * 2.0**-52
    True
    """
    eps = float(np.finfo(_validate.float_dtype("dtype", dtype)).eps)
    k = _validate.real_scalar("offset", offset)
    return shift_tolerance(eps, omega, np.abs(real_array("position", position)) + abs(k))


@dataclass(frozen=True, kw_only=True)
class RotationCheck(ToleranceCheck):
    """Outcome of :func:`check_rotation_identity`, a :class:`pe._tolerance.ToleranceCheck`.

    ``max_abs_error`` is the largest :math:`|(T_k PE(p))_j - PE(p+k)_j|` over all ``p``,
    ``k``, ``j``, ``tolerance`` the model's :math:`\\tau` there, ``worst_ratio`` the largest
    error over its own tolerance, ``passed`` whether every entry is within its tolerance.

    Attributes
    ----------
    d_model, base, dtype
        What was checked.
    n_positions, n_offsets
        How many positions ``p`` and offsets ``k`` (every pair was compared).
    position, offset, column
        Where ``max_abs_error`` occurs.
    """

    d_model: int
    base: float
    dtype: str
    n_positions: int
    n_offsets: int
    position: int
    offset: int
    column: int

    def summary(self) -> str:
        """One line: the largest error, where, against which tolerance, and the verdict."""
        return (
            f"max |T_k PE(p) - PE(p+k)| = {self.max_abs_error:.3g} at p={self.position}, "
            f"k={self.offset}, column {self.column} (tolerance {self.tolerance:.3g}); "
            f"worst error/tolerance {self.worst_ratio:.3g}: {self.verdict}"
        )


def _candidate_matrix(
    candidate: MatrixCandidate, k: int, width: int, base: float, dtype: np.dtype[Any]
) -> FloatArray:
    matrix = np.asarray(candidate(float(k), width, base))
    if matrix.shape != (width, width):
        raise ValueError(f"candidate must return a ({width}, {width}) matrix, got {matrix.shape}")
    if matrix.dtype.kind not in "fiu":
        raise TypeError(f"candidate must return a real matrix, got dtype {matrix.dtype}")
    return matrix.astype(dtype)


def check_rotation_identity(
    d_model: int,
    positions: int | npt.ArrayLike,
    offsets: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
    dtype: npt.DTypeLike = np.float64,
    candidate: MatrixCandidate | None = None,
) -> RotationCheck:
    r"""Check :math:`T_k\,PE(p) = PE(p+k)` numerically for every position and offset given.

    The table rows, the matrix and the product are computed in ``dtype``; the rows
    :math:`PE(p)` and :math:`PE(p+k)` come from :func:`sinusoidal_direct` in the same dtype
    (angles formed in float64, the error model of this module). Each entry is
    accepted within :func:`rotation_tolerance` (see the module's error model).

    Parameters
    ----------
    d_model
        Even width ``>= 2``.
    positions
        A count ``n`` (positions ``0 .. n-1``) or a 1-D array of non-negative integers.
    offsets
        A count ``m`` (offsets ``0 .. m-1``) or a 1-D array of integers; negative offsets
        are allowed (the formula defines :math:`PE` at negative positions too).
    base
        Base of the frequency law, ``> 1``.
    dtype
        float16, float32 or float64.
    candidate
        Optional ``(k, d_model, base) -> (d, d)`` matrix to test instead of
        :func:`shift_matrix` (a wrong candidate makes ``passed`` false).

    Returns
    -------
    RotationCheck
    """
    build = candidate or (lambda k, d, b: shift_matrix(k, d, base=b))
    return _check_rotation_identity(
        d_model, positions, offsets, base=base, dtype=dtype, build=build
    )


def _check_rotation_identity(
    d_model: int,
    positions: int | npt.ArrayLike,
    offsets: int | npt.ArrayLike,
    *,
    base: float,
    dtype: npt.DTypeLike,
    build: MatrixCandidate,
) -> RotationCheck:
    """:func:`check_rotation_identity` of the matrices ``build(k, d, base)`` (the claims
    feed it their candidates)."""
    width = _validate.even_width("d_model", d_model)
    b = _validate.base_value("base", base)
    work_dtype = _validate.float_dtype("dtype", dtype)
    ps = _positions(positions)
    ks = _validate.integer_positions("offsets", offsets)
    if np.abs(ks).max() > MAX_POSITION or ps.max() + np.abs(ks).max() > MAX_POSITION:
        raise ValueError("positions + offsets must stay within 2**53 in absolute value")
    _validate.capped_elements("the check", 4 * ps.size * width + width * width, 8)
    omega = frequencies(width, b)
    column_omega = np.repeat(omega, 2)
    rows = _table(ps, omega, work_dtype)
    found: list[tuple[WorstCase, int]] = []
    for k in ks.tolist():
        matrix = _candidate_matrix(build, k, width, b, work_dtype)
        error = np.abs((rows @ matrix.T).astype(np.float64) - _table(ps + k, omega, work_dtype))
        tolerance = rotation_tolerance(column_omega[None, :], ps[:, None], k, work_dtype)
        found.append((worst_case(np.where(np.isnan(error), np.inf, error), tolerance), k))
    worst, k = max(found, key=lambda item: item[0].max_abs_error)  # the first largest
    row, column = worst.index
    return RotationCheck(
        d_model=width,
        base=b,
        dtype=str(work_dtype),
        n_positions=int(ps.size),
        n_offsets=int(ks.size),
        max_abs_error=worst.max_abs_error,
        tolerance=worst.tolerance,
        worst_ratio=max(item[0].worst_ratio for item in found),
        position=int(ps[row]),
        offset=k,
        column=column,
    )


def fitted_shift_matrix(
    k: int, d_model: int, positions: int | npt.ArrayLike, *, base: float = 10000.0
) -> Float64Array:
    r"""The matrix ``M`` that best maps row ``p`` to row ``p + k``, fitted from the table alone.

    Solves :math:`\min_M \sum_p \lVert M\,PE(p) - PE(p+k) \rVert^2` over the given
    positions by least squares, without using the formula for :math:`T_k`. When the rows
    span the space (every pair sampled over a good part of its wavelength) the solution is
    unique and equals :func:`shift_matrix`: one linear map, learned from any positions,
    serves every position.

    Parameters
    ----------
    k
        Integer offset (``p + k`` must stay ``>= 0``).
    d_model
        Even width.
    positions
        A count ``n`` (positions ``0 .. n - 1``) or a 1-D array of non-negative integers.
    base
        Base of the frequency law, ``> 1``.
    """
    whole = _validate.positive_int("k", k, minimum=-_validate.MAX_INTEGER)  # no floats
    offset = int(_validate.integer_positions("k", [whole])[0])
    width = _validate.even_width("d_model", d_model)
    ps = _positions(positions)
    if ps.min() + offset < 0:
        raise ValueError("positions + k must be >= 0")
    _validate.capped_elements("the fit", 3 * ps.size * width, 8)
    if np.unique(ps).size < width:
        raise ValueError(
            f"positions must hold at least d_model = {width} distinct positions to determine "
            f"a {width} x {width} map, got {np.unique(ps).size}"
        )
    omega = frequencies(width, base)
    sources = _table(ps, omega, np.dtype(np.float64))
    targets = _table(ps + offset, omega, np.dtype(np.float64))
    solution, *_ = np.linalg.lstsq(sources, targets, rcond=None)
    return np.asarray(solution.T, dtype=np.float64)
