r"""One sinusoid per column: frequencies, phases and their uncertainties.

Column ``j`` is fitted as :math:`x_j(r) = \sin(\omega_j r + \psi_j)` by Gauss-Newton with a
Levenberg-Marquardt safeguard, from Prony's estimate, on growing windows (see
:mod:`pe.identify` for the method and the error model).
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pe.identify._inputs import FIT_ROWS
from pe.identify._result import Float64Array

__all__ = [
    "BIAS_SAFETY",
    "SAFETY",
    "ColumnFit",
    "check_rest",
    "fit_columns",
    "refit_strided",
    "wrap",
]

#: Windows of the coarse-to-fine fit.
_WINDOWS = (32, 256)
#: Uncertainties are this many standard errors (the tails of the fit are not Gaussian).
SAFETY = 3.0
#: The systematic bound is this many times the linearised response to the residual's size.
BIAS_SAFETY = 2.0
#: Columns per chunk of the fit (chunks run in parallel threads; NumPy releases the GIL).
_CHUNK = 256


@dataclass(frozen=True)
class ColumnFit:
    """The fitted sinusoid of every column.

    Attributes
    ----------
    w
        Frequency, in :math:`[0, \\pi]`.
    psi
        Phase at row 0, in :math:`(-\\pi, \\pi]`.
    sigma_w, sigma_psi
        Their uncertainties (:data:`SAFETY` standard errors).
    bias_w
        How far a systematic error of the values could move ``w``: the fit's response to
        any error bounded by the residual (:func:`systematic_bound`).
    residual
        Largest :math:`|x - \\text{model}|` over the rows.
    """

    w: Float64Array
    psi: Float64Array
    sigma_w: Float64Array
    sigma_psi: Float64Array
    bias_w: Float64Array
    residual: Float64Array


class _Refined(NamedTuple):
    """Where Levenberg-Marquardt stopped, for every column at once."""

    w: Float64Array
    psi: Float64Array
    error: Float64Array  # x - model, zero on masked rows
    slope: Float64Array  # cos(w r + psi), the model's slope, zero on masked rows
    step: Float64Array  # size of the last step tried in w (small once converged)


class _Spread(NamedTuple):
    """Uncertainties of the frequency and the phase, and the frequency's systematic bound."""

    sigma_w: Float64Array
    sigma_psi: Float64Array
    bias_w: Float64Array


def wrap(angle: npt.ArrayLike) -> Float64Array:
    """Angles wrapped to :math:`(-\\pi, \\pi]`.

    Examples
    --------
    >>> wrap([3 * np.pi / 2, -np.pi]).round(6).tolist()
    [-1.570796, 3.141593]
    """
    a = np.asarray(angle, dtype=np.float64)
    return np.asarray(np.pi - np.mod(np.pi - a, 2 * np.pi), dtype=np.float64)


def _fold(w: Float64Array, psi: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Map (w, psi) to the same sampled sinusoid with w in [0, pi]."""
    w = np.mod(w, 2 * np.pi)
    upper = w > np.pi
    w = np.where(upper, 2 * np.pi - w, w)
    psi = np.where(upper, np.pi - psi, psi)
    return w, wrap(psi)


def _prony(x: Float64Array, rows: Float64Array) -> Float64Array:
    """cos w from x[r+1] + x[r-1] = 2 cos(w) x[r], least squares, over valid rows."""
    valid = rows[1:-1] * rows[:-2] * rows[2:]
    mid = x[1:-1] * valid[:, None]
    num = np.sum((x[2:] + x[:-2]) * mid, axis=0)
    den = 2.0 * np.sum(x[1:-1] * mid, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0)
    return np.asarray(np.arccos(np.clip(c, -1.0, 1.0)), dtype=np.float64)


def _phase(x: Float64Array, r: Float64Array, rows: Float64Array, w: Float64Array) -> Float64Array:
    """Phase psi at row 0: least squares a sin(wr) + b cos(wr), psi = atan2(b, a).

    For a slow column (``w`` times the rows below 0.5) the 2 x 2 system is ill-conditioned;
    there ``psi`` comes from the first value (its arcsine, or pi minus it), the branch whose
    sinusoid fits the live rows better: every row votes, so noise of one step cannot turn
    a rising column into a falling one.
    """
    angle = np.multiply.outer(r, w)
    s, c = np.sin(angle) * rows[:, None], np.cos(angle) * rows[:, None]
    ss, sc, cc = (s * s).sum(0), (s * c).sum(0), (c * c).sum(0)
    xs, xc = (x * s).sum(0), (x * c).sum(0)
    det = ss * cc - sc * sc
    det = np.where(np.abs(det) > 1e-300, det, 1e-300)
    a = (cc * xs - sc * xc) / det
    b = (ss * xc - sc * xs) / det
    fitted = np.arctan2(b, a)
    start = np.flatnonzero(rows)[0]
    rising = np.arcsin(np.clip(x[start], -1.0, 1.0)) - w * r[start]
    falling = np.pi - rising - 2 * w * r[start]

    def misfit(psi: Float64Array) -> Float64Array:
        return np.asarray((((x - np.sin(angle + psi)) * rows[:, None]) ** 2).sum(0))

    direct = np.where(misfit(rising) <= misfit(falling), rising, falling)
    slow = w * r.size < 0.5
    return np.asarray(wrap(np.where(slow, direct, fitted)), dtype=np.float64)


#: Frequencies tried by :func:`_grid_start`, per window.
_GRID = 48


def _grid_start(x: Float64Array, rows: Float64Array, first: int) -> Float64Array:
    """For columns flat over the first window: the grid frequency whose best phase fits best.

    The grid is log-spaced from a tenth of a radian over all rows to two radians over the
    first window (a column flat there turns less); each frequency gets its least-squares
    phase (:func:`_phase`) and the lowest squared error over all rows wins.
    """
    m = x.shape[0]
    r = np.arange(m, dtype=np.float64)
    best = np.full(x.shape[1], np.inf)
    found = np.full(x.shape[1], 1e-4 / first)
    for w in np.geomspace(0.1 / m, 2.0 / first, _GRID):
        ws = np.full(x.shape[1], w)
        psi = _phase(x, r, rows, ws)
        error = (x - np.sin(np.multiply.outer(r, ws) + psi)) * rows[:, None]
        cost = np.einsum("ij,ij->j", error, error)
        better = cost < best
        best = np.where(better, cost, best)
        found = np.where(better, w, found)
    return found


def _refine(
    x: Float64Array,
    rows: Float64Array,
    w: Float64Array,
    psi: Float64Array,
    iterations: int,
) -> _Refined:
    """Levenberg-Marquardt on (w, psi) for sin(w r + psi), every column at once."""
    r = np.arange(x.shape[0], dtype=np.float64)
    mask = rows[:, None]
    lam = np.full(w.shape, 1e-3)
    angle = np.multiply.outer(r, w) + psi
    e = (x - np.sin(angle)) * mask
    slope = np.cos(angle)
    cost = np.einsum("ij,ij->j", e, e)
    cap = 1.0 / max(x.shape[0], 1)
    step = np.full(w.shape, np.inf)
    for _ in range(iterations):
        slope *= mask
        jw = r[:, None] * slope
        a11 = np.einsum("ij,ij->j", jw, jw)
        a12 = np.einsum("ij,ij->j", jw, slope)
        a22 = np.einsum("ij,ij->j", slope, slope)
        g1, g2 = np.einsum("ij,ij->j", jw, e), np.einsum("ij,ij->j", slope, e)
        b11, b22 = a11 * (1 + lam) + 1e-300, a22 * (1 + lam) + 1e-300
        det = b11 * b22 - a12 * a12
        det = np.where(np.abs(det) > 1e-300, det, 1e-300)
        dw = np.clip((b22 * g1 - a12 * g2) / det, -cap, cap)
        dp = np.clip((b11 * g2 - a12 * g1) / det, -1.0, 1.0)
        step = np.abs(dw)
        new_w, new_psi = _fold(w + dw, psi + dp)
        new_angle = np.multiply.outer(r, new_w) + new_psi
        new_e = (x - np.sin(new_angle)) * mask
        new_cost = np.einsum("ij,ij->j", new_e, new_e)
        better = new_cost <= cost
        if better.all():
            e, angle = new_e, new_angle
        else:
            e = np.where(better, new_e, e)
            angle = np.where(better, new_angle, angle)
        slope = np.cos(angle)
        w = np.where(better, new_w, w)
        psi = np.where(better, new_psi, psi)
        cost = np.where(better, new_cost, cost)
        lam = np.clip(np.where(better, lam * 0.1, lam * 10.0), 1e-12, 1e12)
    return _Refined(w, psi, e, slope * mask, step)


def _uncertainty(x: Float64Array, rows: Float64Array, fit: _Refined, eps: float) -> _Spread:
    """Uncertainties of (w, psi): SAFETY standard errors (second order, see the package)."""
    w, e, slope = fit.w, fit.error, fit.slope
    m = x.shape[0]
    r = np.arange(m, dtype=np.float64)
    mask = rows[:, None]
    count = max(float(rows.sum()), 3.0)
    rms_e = np.sqrt(np.einsum("ij,ij->j", e, e) / (count - 2.0))
    rms_x = np.sqrt(np.einsum("ij,ij->j", x * mask, x) / count)
    sigma = np.maximum(rms_e, eps * rms_x) + 1e-300
    jw = r[:, None] * slope
    a11 = np.einsum("ij,ij->j", jw, jw)
    a12 = np.einsum("ij,ij->j", jw, slope)
    a22 = np.einsum("ij,ij->j", slope, slope)
    profiled_w = np.maximum(a11 - a12 * a12 / np.maximum(a22, 1e-300), 0.0)
    profiled_p = np.maximum(a22 - a12 * a12 / np.maximum(a11, 1e-300), 0.0)
    a = np.sqrt(profiled_w / count)
    model = (x - e) * mask
    b = 0.5 * np.sqrt(np.einsum("i,ij->j", r**4, model * model) / count)
    c = sigma / math.sqrt(count)
    sigma_w = 2 * c / (a + np.sqrt(a * a + 4 * b * c))
    sigma_psi = np.minimum(sigma / np.sqrt(np.maximum(profiled_p, 1e-300)), np.pi)
    sigma_psi = np.maximum(sigma_psi, np.sqrt(sigma) * (profiled_p < count * 1e-6))
    # three standard errors, and never below float64's own resolution of w
    floor = 4 * float(np.finfo(np.float64).eps) * w
    # the phase profiled out of the frequency's sensitivity: its part orthogonal to the slope
    jperp = jw - (a12 / np.maximum(a22, 1e-300)) * slope
    bias = systematic_bound(np.max(np.abs(e), axis=0), jperp, profiled_w)
    return _Spread(np.maximum(SAFETY * sigma_w, floor), SAFETY * sigma_psi, bias)


def systematic_bound(
    worst: Float64Array, sensitivity: Float64Array, information: Float64Array
) -> Float64Array:
    r"""How far an error of at most ``worst`` per value can move a fitted frequency.

    The standard error assumes independent errors; a table's are not: angles formed in
    float32 are off by :math:`\mathrm{fl}(p\,\omega) - p\,\omega`, a sawtooth in ``p``
    that grows with it. Whatever its pattern, to first order the fit moves ``w`` by
    :math:`\sum_r J_r \delta_r / \sum_r J_r^2` (``J`` the sensitivity with the phase
    profiled out), at most :math:`\max|\delta| \sum_r |J_r| / \sum_r J_r^2`. The bound
    uses the largest residual for :math:`\max|\delta|`, times :data:`BIAS_SAFETY`, capped
    at π.

    Examples
    --------
    >>> r = np.arange(4.0)[:, None]
    >>> systematic_bound(np.array([1e-6]), r, (r * r).sum(0)).tolist()  # 2e-6 * 6 / 14
    [8.571428571428571e-07]
    """
    spread = np.einsum("ij->j", np.abs(sensitivity))
    bound = BIAS_SAFETY * worst * spread / np.maximum(information, 1e-300)
    return np.asarray(np.minimum(bound, np.pi), dtype=np.float64)


def _unsettled(fit: _Refined, sigma_w: Float64Array, eps: float, m: int) -> Any:
    """Columns with a residual above the rounding level, or a last step not small against
    the frequency's own uncertainty."""
    w = fit.w
    return (np.max(np.abs(fit.error), axis=0) > 4 * eps * (1 + w * m)) | (
        fit.step > sigma_w + 1e-13 * w
    )


def _fit_chunk(x: Float64Array, rows: Float64Array, eps: float) -> ColumnFit:
    """Fit sin(w r + psi) to every column of x (float64, at most FIT_ROWS rows)."""
    m = x.shape[0]
    windows = [s for s in _WINDOWS if s < m] + [m]
    first = windows[0]
    # w = 0 is a stationary point of a cosine column (the model is even in w there):
    # start slightly above it, from where Gauss-Newton climbs like Newton's square root.
    w = np.maximum(_prony(x[:first], rows[:first]), 1e-4 / first)
    # A column that rounding leaves flat over the first window (a slow cosine in float16
    # or bfloat16) tells Prony nothing: start it from the best frequency of a grid instead.
    live = rows[:first] > 0
    flat = np.flatnonzero(np.ptp(x[:first][live], axis=0) <= 4 * eps)
    if flat.size:
        w[flat] = _grid_start(x[:, flat], rows, first)
    psi = _phase(x[:first], np.arange(first, dtype=np.float64), rows[:first], w)
    for window in windows:
        fit = _refine(x[:window], rows[:window], w, psi, 2 if window == m else 4)
        w, psi = fit.w, fit.psi
    e, slope = fit.error, fit.slope
    # polish the columns that have not settled
    sigma_w, sigma_psi, bias_w = _uncertainty(x, rows, fit, eps)
    rough = np.flatnonzero(_unsettled(fit, sigma_w, eps, m))
    for _ in range(6):
        if not rough.size:
            break
        polished = _refine(x[:, rough], rows, w[rough], psi[rough], 10)
        w[rough], psi[rough] = polished.w, polished.psi
        e[:, rough], slope[:, rough] = polished.error, polished.slope
        spread = _uncertainty(x[:, rough], rows, polished, eps)
        sigma_w[rough], sigma_psi[rough] = spread.sigma_w, spread.sigma_psi
        bias_w[rough] = spread.bias_w
        rough = rough[_unsettled(polished, spread.sigma_w, eps, m)]
    residual = np.max(np.abs(e), axis=0)
    return ColumnFit(w, wrap(psi), sigma_w, sigma_psi, bias_w, residual)


def fit_columns(x: Float64Array, rows: Float64Array, eps: float) -> ColumnFit:
    """Fit one sinusoid to every column, over chunks of columns in threads; deterministic.

    Parameters
    ----------
    x
        ``(m, d)`` float64 values, ``m <=`` :data:`~pe.identify._inputs.FIT_ROWS`.
    rows
        1 for the rows to fit, 0 for padding rows.
    eps
        Machine epsilon of the table's dtype.

    Examples
    --------
    >>> x = np.sin(0.25 * np.arange(64.0) + 0.5)[:, None]
    >>> fit = fit_columns(x, np.ones(64), 2.0**-52)
    >>> round(float(fit.w[0]), 12), round(float(fit.psi[0]), 12)
    (0.25, 0.5)
    """
    starts = range(0, x.shape[1], _CHUNK)
    chunks = [np.ascontiguousarray(x[:, lo : lo + _CHUNK]) for lo in starts]
    workers = min(len(chunks), os.cpu_count() or 1, 8)
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            fits = list(pool.map(lambda chunk: _fit_chunk(chunk, rows, eps), chunks))
    else:
        fits = [_fit_chunk(chunk, rows, eps) for chunk in chunks]
    return ColumnFit(
        *(np.concatenate([getattr(f, column.name) for f in fits]) for column in fields(ColumnFit))
    )


def _check_chunk(
    array: npt.NDArray[Any], start: int, w: Float64Array, psi: Float64Array, columns: Any
) -> Float64Array:
    """:func:`check_rest` for one chunk of columns (``columns`` a slice or an index array)."""
    step = np.multiply.outer(np.arange(FIT_ROWS, dtype=np.float64), w)
    sin_step, cos_step = np.sin(step), np.cos(step)
    worst = np.zeros(w.size)
    for lo in range(start, array.shape[0], FIT_ROWS):
        block = array[lo : lo + FIT_ROWS][:, columns]
        m = block.shape[0]
        phase = w * lo + psi  # sin(phase + w j) = sin(phase) cos(w j) + cos(phase) sin(w j)
        miss = cos_step[:m] * np.sin(phase)
        miss += sin_step[:m] * np.cos(phase)
        miss -= block
        np.abs(miss, out=miss)
        dead = ~np.any(block != 0, axis=1)  # zero (padding) rows are not checked
        if dead.any():
            miss[dead] = 0.0
        np.maximum(worst, miss.max(axis=0), out=worst)
    return worst


def check_rest(
    array: npt.NDArray[Any], start: int, fit: ColumnFit, columns: npt.NDArray[np.int64]
) -> Float64Array:
    """Largest ``|x - model|`` on rows ``start ..`` (checked in blocks, never fitted), for
    the ``columns`` of ``array`` that ``fit`` describes (one fitted column each).

    The model's rows come from the angle-addition formula, exact to float64 rounding: the
    sines and cosines of ``w j`` for one block of rows, and of each block's first angle.
    Chunks of columns run in threads, as the fit does.
    """
    contiguous = columns.size and np.array_equal(columns, np.arange(columns[0], columns[-1] + 1))
    chunks = range(0, columns.size, _CHUNK * 4)

    def run(lo: int) -> Float64Array:
        part = columns[lo : lo + _CHUNK * 4]
        index: Any = slice(int(part[0]), int(part[-1]) + 1) if contiguous else part
        return _check_chunk(
            array, start, fit.w[lo : lo + part.size], fit.psi[lo : lo + part.size], index
        )

    workers = min(len(chunks), os.cpu_count() or 1, 8)
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(run, chunks))
    else:
        parts = [run(lo) for lo in chunks]
    return np.concatenate(parts) if parts else np.zeros(0)


def refit_strided(
    array: npt.NDArray[Any], fit: ColumnFit, columns: npt.NDArray[np.int64], eps: float
) -> ColumnFit:
    """Refit the ``columns`` whose sinusoid misses on the rows after the fit, on all rows.

    A slow column of a coarse dtype (bfloat16: a cosine over 1024 rows may take two values)
    pins its frequency too loosely to extrapolate over a long table. Every ``s``-th row of
    the whole table (``s = ceil(n / FIT_ROWS)``) turns ``s`` times further per row: fitted
    there (:func:`fit_columns`), the frequency is ``w_s / s``. Only columns slow enough not
    to alias (``w s < 1``) are refitted, and a refit is kept only where it lowers the
    largest miss over all rows.
    """
    n = array.shape[0]
    stride = -(-n // FIT_ROWS)
    slow = columns[fit.w[columns] * stride < 1.0]
    if stride == 1 or not slow.size:
        return fit
    sample = array[::stride][:, slow].astype(np.float64)
    live = np.any(array[::stride] != 0, axis=1).astype(np.float64)  # padding rows out
    strided = fit_columns(sample, live, eps)
    trial = ColumnFit(
        strided.w / stride,
        strided.psi,
        strided.sigma_w / stride,
        strided.sigma_psi,
        strided.bias_w / stride,
        strided.residual,
    )
    missed = check_rest(array, 0, trial, slow)
    keep = missed < fit.residual[slow]
    new = {f.name: getattr(fit, f.name).copy() for f in fields(ColumnFit)}
    for name, values in (
        ("w", trial.w),
        ("psi", trial.psi),
        ("sigma_w", trial.sigma_w),
        ("sigma_psi", trial.sigma_psi),
        ("bias_w", trial.bias_w),
        ("residual", missed),
    ):
        new[name][slow[keep]] = values[keep]
    return ColumnFit(**new)
