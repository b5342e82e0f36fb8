r"""Tell which sinusoidal convention an encoding table follows, from the table alone.

:func:`identify` takes an ``(n, d)`` array whose rows are consecutive positions and
recovers the layout, the order inside a pair, one frequency per column, the position of
row 0, the frequency law and its base, and says in words how the table differs from the
paper's (Vaswani et al. 2017). A table that is not a sinusoidal encoding is refused with
the reason.

Method
------
1. **One sinusoid per column.** Column ``j`` is fitted as :math:`x_j(r) = \sin(\omega_j r + \psi_j)`
   (unit amplitude, ``r`` the row index) by Gauss-Newton with a Levenberg-Marquardt
   safeguard, started from Prony's estimate :math:`\cos\omega_j \approx
   \sum_r (x_{r+1} + x_{r-1}) x_r / (2 \sum_r x_r^2)` on the first 32 rows and refined on
   growing windows (32, 256, then all rows up to 1024; later rows are only checked).
   Frequencies are principal values in :math:`[0, \pi]`: at integer positions a frequency
   above :math:`\pi` is indistinguishable from its alias. Columns are fitted in chunks, in
   threads; the result does not depend on the number of threads.
2. **Uncertainty.** With :math:`\sigma` the residual's RMS (at least the dtype's rounding,
   :math:`\varepsilon\,\mathrm{rms}(x_j)`), the frequency's uncertainty is the half-width
   of the interval where the model moves by :math:`\sigma` per row, to second order:
   :math:`\delta = 2c / (a + \sqrt{a^2 + 4bc})` with :math:`c = \sigma/\sqrt{n}`, ``a`` the
   RMS sensitivity :math:`\partial x / \partial\omega` (phase profiled out) and ``b`` half the
   RMS second derivative. For a cosine column of a slow pair ``a`` vanishes and the
   frequency is pinned only to about :math:`\varepsilon/\theta^2` relative,
   :math:`\theta` the largest angle in the table; a sine column pins it to :math:`\varepsilon`.
   Reported uncertainties are :data:`SAFETY` = 3 such half-widths (never below
   :math:`4\varepsilon_{64}\,\omega`), and a column whose residual exceeds the table's
   precision (rounding plus an angle error of :math:`2\varepsilon\theta`, at least
   :math:`10^{-8}`) means the table is not a sinusoidal encoding.
3. **Layout and order.** Each candidate pairing (interleaved, halves, and for odd widths
   the variants with one unpaired column) is scored by the share of pairs whose two
   frequencies agree within their uncertainties, then by the share whose phases differ by
   :math:`\pm\pi/2`: :math:`+\pi/2` (second member leads) means sine first.
4. **Offset.** Each column's phase gives :math:`\omega_j p_0 \bmod 2\pi`; the estimate of
   :math:`p_0` is refined from the slowest column to the fastest, each resolving the
   :math:`2\pi` ambiguity of the next.
5. **Law.** Weighted least squares of :math:`\ln\omega_k` on ``k``:
   intercept 0 and slope :math:`-2\ln b/d` (paper) or :math:`-\ln b/(d/2-1)` (tensor2tensor).
   Both laws are geometric from :math:`\omega_0 = 1`, so the same table fits both, with
   different bases; the law whose base has fewer significant digits is reported (the
   paper's on a tie) and the other is mentioned when it is as round.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pe import _validate

__all__ = ["MIN_ROWS", "Identification", "identify"]

Float64Array = npt.NDArray[np.float64]

#: Fewest rows :func:`identify` accepts.
MIN_ROWS = 16
#: Rows used for the fits (the rest are checked against the fitted sinusoids).
FIT_ROWS = 1024
#: Windows of the coarse-to-fine fit.
_WINDOWS = (32, 256)
#: Uncertainties are this many standard errors (the tails of the fit are not Gaussian).
SAFETY = 3.0
#: Relative accuracy promised per dtype (float16 is best effort).
TARGET = {"float64": 1e-6, "float32": 1e-3, "float16": 1e-2}

LawName = Literal["paper", "tensor2tensor", "other"]


@dataclass(frozen=True)
class Identification:
    """What :func:`identify` found.

    Attributes
    ----------
    is_encoding
        False when the table is not a sinusoidal encoding (then ``reason`` says why and
        the other fields are empty or None).
    reason
        One sentence: the verdict.
    shape, dtype
        The table's shape and dtype.
    layout
        ``"interleaved"`` (pair ``k`` in columns ``2k, 2k+1``) or ``"halves"``.
    order
        ``"sin-first"`` or ``"cos-first"``.
    sin_frequencies, cos_frequencies
        Length ``d // 2``, pair by pair in column order, each column fitted on its own
        (principal values in :math:`[0, \\pi]`).
    sin_uncertainty, cos_uncertainty
        Their one-sigma uncertainties.
    position_offset
        The position of row 0 (an integer).
    law
        ``"paper"``, ``"tensor2tensor"`` or ``"other"``.
    base
        The fitted base where a geometric law fits, else None.
    base_uncertainty
        One-sigma uncertainty of ``base``.
    matches_paper
        Paper layout and order, paper law, base 10000 and offset 0, within the precision.
    notes
        Plain-language deviations from the paper and caveats.
    unpaired_column
        For odd widths, the column without a partner (None otherwise).
    """

    is_encoding: bool
    reason: str
    shape: tuple[int, int]
    dtype: str
    layout: str | None = None
    order: str | None = None
    sin_frequencies: Float64Array = field(default_factory=lambda: np.zeros(0))
    cos_frequencies: Float64Array = field(default_factory=lambda: np.zeros(0))
    sin_uncertainty: Float64Array = field(default_factory=lambda: np.zeros(0))
    cos_uncertainty: Float64Array = field(default_factory=lambda: np.zeros(0))
    position_offset: int | None = None
    law: LawName | None = None
    base: float | None = None
    base_uncertainty: float | None = None
    matches_paper: bool = False
    notes: tuple[str, ...] = ()
    unpaired_column: int | None = None

    @property
    def frequencies(self) -> Float64Array:
        """One frequency per pair: the sine's and cosine's, weighted by their precision."""
        ws = 1.0 / np.maximum(self.sin_uncertainty, 1e-300) ** 2
        wc = 1.0 / np.maximum(self.cos_uncertainty, 1e-300) ** 2
        return np.asarray(
            (ws * self.sin_frequencies + wc * self.cos_frequencies) / (ws + wc), dtype=np.float64
        )

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict of every field (arrays as lists)."""

        def floats(a: Float64Array) -> list[float]:
            return [float(v) for v in a]

        return {
            "is_encoding": self.is_encoding,
            "reason": self.reason,
            "shape": list(self.shape),
            "dtype": self.dtype,
            "layout": self.layout,
            "order": self.order,
            "position_offset": self.position_offset,
            "law": self.law,
            "base": self.base,
            "base_uncertainty": self.base_uncertainty,
            "matches_paper": self.matches_paper,
            "notes": list(self.notes),
            "unpaired_column": self.unpaired_column,
            "sin_frequencies": floats(self.sin_frequencies),
            "cos_frequencies": floats(self.cos_frequencies),
            "sin_uncertainty": floats(self.sin_uncertainty),
            "cos_uncertainty": floats(self.cos_uncertainty),
        }

    def summary(self) -> str:
        """The verdict in words, several lines."""
        n, d = self.shape
        lines = [f"table: {n} rows x {d} columns, {self.dtype}", f"verdict: {self.reason}"]
        if self.is_encoding:
            lines.append(f"layout: {self.layout}, {self.order}")
            if self.base is not None:
                lines.append(f"law: {self.law}, base {_show_base(self)}")
            else:
                lines.append(f"law: {self.law}")
            lines.append(f"row 0 is position {self.position_offset}")
            freq = self.frequencies
            lines.append(
                f"frequencies: {freq.size} pairs, from {freq[0]:.6g} to {freq[-1]:.6g}"
                if freq.size
                else "frequencies: none"
            )
        if self.notes:
            lines.append("notes:")
            lines.extend(f"  - {note}" for note in self.notes)
        return "\n".join(lines)


def _show_base(result: Identification) -> str:
    base, unc = result.base or 0.0, result.base_uncertainty or 0.0
    digits = _significant_digits(base, max(unc / base, 1e-12)) if base > 0 else 6
    text = f"{base:.{max(digits, 1) - 1}e}"
    mantissa, exponent = text.split("e")
    shown = f"{float(text):.10g}" if abs(int(exponent)) < 7 else f"{mantissa}e{int(exponent)}"
    return f"{shown} (± {unc:.2g})"


def _significant_digits(value: float, rel_tol: float) -> int:
    """Fewest significant digits that write ``value`` within ``rel_tol`` (relative)."""
    for digits in range(1, 17):
        rounded = float(f"{value:.{digits - 1}e}")
        if abs(rounded - value) <= rel_tol * abs(value):
            return digits
    return 17


# --------------------------------------------------------------------------- input


def _as_table(table: object) -> npt.NDArray[Any]:
    if isinstance(table, str | bytes) or table is None:
        raise TypeError("table must be a 2-D array of floats (n positions, d columns)")
    try:
        array = np.asarray(table)
    except (TypeError, ValueError) as error:
        raise TypeError(f"table must be a 2-D array of floats: {error}") from None
    if array.dtype.kind != "f":
        raise TypeError(f"table must hold float16, float32 or float64 values, got {array.dtype}")
    _validate.float_dtype("table.dtype", array.dtype)
    if array.ndim != 2:
        raise ValueError(f"table must be 2-D (n positions, d columns), got shape {array.shape}")
    n, d = array.shape
    if n < MIN_ROWS:
        raise ValueError(f"table must have at least {MIN_ROWS} rows (positions), got {n}")
    if d < 2:
        raise ValueError(f"table must have at least 2 columns, got {d}")
    _validate.capped_elements("identify's work arrays", min(n, FIT_ROWS) * d, 16)
    return array


# --------------------------------------------------------------------------- column fits


@dataclass
class _Fit:
    w: Float64Array  # frequency in [0, pi]
    psi: Float64Array  # phase at row 0, in (-pi, pi]
    sigma_w: Float64Array
    sigma_psi: Float64Array
    residual: Float64Array  # max |x - model| over all rows
    angle_reach: Float64Array  # w * rows


def _wrap(angle: npt.ArrayLike) -> Float64Array:
    """Angles wrapped to (-pi, pi]."""
    a = np.asarray(angle, dtype=np.float64)
    return np.asarray(np.pi - np.mod(np.pi - a, 2 * np.pi), dtype=np.float64)


def _fold(w: Float64Array, psi: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Map (w, psi) to the same sampled sinusoid with w in [0, pi]."""
    w = np.mod(w, 2 * np.pi)
    upper = w > np.pi
    w = np.where(upper, 2 * np.pi - w, w)
    psi = np.where(upper, np.pi - psi, psi)
    return w, _wrap(psi)


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
    there ``psi`` comes from the first value and the direction of the first step instead.
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
    live = np.flatnonzero(rows)
    first, second = x[live[0]], x[live[min(1, live.size - 1)]]
    direct = np.arcsin(np.clip(first, -1.0, 1.0))
    direct = np.where(second >= first, direct, np.pi - direct) - w * r[live[0]]
    slow = w * r.size < 0.5
    return np.asarray(_wrap(np.where(slow, direct, fitted)), dtype=np.float64)


def _refine(
    x: Float64Array,
    rows: Float64Array,
    w: Float64Array,
    psi: Float64Array,
    iterations: int,
) -> tuple[Float64Array, Float64Array, Float64Array, Float64Array, Float64Array]:
    """Levenberg-Marquardt on (w, psi) for sin(w r + psi), every column at once.

    Returns the parameters, the residual ``x - model`` (zero on masked rows), the
    model's slope ``cos(w r + psi)`` at the returned parameters and the size of the last
    step tried in ``w`` (small once converged).
    """
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
    return w, psi, e, slope * mask, step


def _uncertainty(
    x: Float64Array,
    rows: Float64Array,
    *,
    w: Float64Array,
    e: Float64Array,
    slope: Float64Array,
    eps: float,
) -> tuple[Float64Array, Float64Array]:
    """Uncertainties of (w, psi): SAFETY standard errors (second order, see the module)."""
    m = x.shape[0]
    r = np.arange(m, dtype=np.float64)
    mask = rows[:, None]
    count = max(float(rows.sum()), 3.0)
    rms_e = np.sqrt(np.einsum("ij,ij->j", e, e) / max(count - 2.0, 1.0))
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
    return np.maximum(SAFETY * sigma_w, floor), SAFETY * sigma_psi


def _fit_chunk(x: Float64Array, rows: Float64Array, eps: float) -> _Fit:
    """Fit sin(w r + psi) to every column of x (float64, at most FIT_ROWS rows)."""
    m = x.shape[0]
    windows = [s for s in _WINDOWS if s < m] + [m]
    first = windows[0]
    # w = 0 is a stationary point of a cosine column (the model is even in w there):
    # start slightly above it, from where Gauss-Newton climbs like Newton's square root.
    w = np.maximum(_prony(x[:first], rows[:first]), 1e-4 / first)
    psi = _phase(x[:first], np.arange(first, dtype=np.float64), rows[:first], w)
    for window in windows:
        w, psi, e, slope, step = _refine(x[:window], rows[:window], w, psi, 2 if window == m else 4)
    # polish the columns that have not settled: a residual above the rounding level, or a
    # last step that is not small against the frequency's own uncertainty
    sigma_w, sigma_psi = _uncertainty(x, rows, w=w, e=e, slope=slope, eps=eps)
    rough = np.flatnonzero(
        (np.max(np.abs(e), axis=0) > 4 * eps * (1 + w * m)) | (step > sigma_w + 1e-13 * w)
    )
    for _ in range(6):
        if not rough.size:
            break
        pw, pp, pe, ps, pstep = _refine(x[:, rough], rows, w[rough], psi[rough], 10)
        w[rough], psi[rough], e[:, rough], slope[:, rough] = pw, pp, pe, ps
        ssw, ssp = _uncertainty(x[:, rough], rows, w=pw, e=pe, slope=ps, eps=eps)
        sigma_w[rough], sigma_psi[rough] = ssw, ssp
        rough = rough[
            (np.max(np.abs(pe), axis=0) > 4 * eps * (1 + pw * m)) | (pstep > ssw + 1e-13 * pw)
        ]
    residual = np.max(np.abs(e), axis=0)
    return _Fit(w, _wrap(psi), sigma_w, sigma_psi, residual, w * m)


#: Columns per chunk of the fit (chunks run in parallel threads; NumPy releases the GIL).
_CHUNK = 256


def _fit_columns(x: Float64Array, rows: Float64Array, eps: float) -> _Fit:
    """:func:`_fit_chunk` over chunks of columns, in threads; deterministic."""
    starts = range(0, x.shape[1], _CHUNK)
    chunks = [np.ascontiguousarray(x[:, lo : lo + _CHUNK]) for lo in starts]
    workers = min(len(chunks), os.cpu_count() or 1, 8)
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            fits = list(pool.map(lambda chunk: _fit_chunk(chunk, rows, eps), chunks))
    else:
        fits = [_fit_chunk(chunk, rows, eps) for chunk in chunks]
    return _Fit(
        *(np.concatenate([getattr(f, name) for f in fits]) for name in _Fit.__dataclass_fields__)
    )


def _check_rest(
    array: npt.NDArray[Any], start: int, fit: _Fit, columns: npt.NDArray[np.int64]
) -> Float64Array:
    """Largest |x - model| on rows ``start ..`` (checked in chunks, never fitted)."""
    worst = np.zeros(columns.size)
    for lo in range(start, array.shape[0], FIT_ROWS):
        block = array[lo : lo + FIT_ROWS][:, columns].astype(np.float64)
        r = np.arange(lo, lo + block.shape[0], dtype=np.float64)
        model = np.sin(np.multiply.outer(r, fit.w) + fit.psi)
        live = np.any(block != 0, axis=1)[:, None]
        worst = np.maximum(worst, np.max(np.abs(block - model) * live, axis=0))
    return worst


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class _Pairing:
    layout: str
    first: npt.NDArray[np.int64]  # column of each pair's first member
    second: npt.NDArray[np.int64]
    unpaired: int | None


def _pairings(width: int) -> list[_Pairing]:
    h = width // 2
    k = np.arange(h, dtype=np.int64)
    if width % 2 == 0:
        return [
            _Pairing("interleaved", 2 * k, 2 * k + 1, None),
            _Pairing("halves", k, k + h, None),
        ]
    return [
        _Pairing("interleaved", 2 * k, 2 * k + 1, width - 1),
        _Pairing("halves", np.concatenate([k]), k + h + 1, h),
        _Pairing("halves", k, k + h, width - 1),
    ]


def _agree(wa: Float64Array, sa: Float64Array, wb: Float64Array, sb: Float64Array) -> Any:
    tolerance = 2.0 * np.sqrt(sa * sa + sb * sb) + 1e-9 * np.maximum(wa, wb) + 1e-300
    return np.abs(wa - wb) <= tolerance


def _choose_pairing(fit: _Fit, width: int) -> tuple[_Pairing, int, Any, Any]:
    """Best pairing, the order sign (+1 sin-first), frequency agreement and reversed pairs."""
    best: tuple[tuple[float, float, float], _Pairing, int] | None = None
    for pairing in _pairings(width):
        a, b = pairing.first, pairing.second
        agree = _agree(fit.w[a], fit.sigma_w[a], fit.w[b], fit.sigma_w[b])
        gap = _wrap(fit.psi[b] - fit.psi[a])
        tol = 0.25 + fit.sigma_psi[a] + fit.sigma_psi[b]
        plus = np.abs(gap - np.pi / 2) <= tol
        minus = np.abs(gap + np.pi / 2) <= tol
        sign = 1 if plus.sum() >= minus.sum() else -1
        phase_share = max(plus.sum(), minus.sum()) / max(a.size, 1)
        mismatch = np.abs(np.log((fit.w[a] + 1e-12) / (fit.w[b] + 1e-12)))
        key = (float(agree.mean()), float(phase_share), -float(np.median(mismatch)))
        if best is None or key > best[0]:
            best = (key, pairing, sign)
    assert best is not None
    _, pairing, sign = best
    a, b = pairing.first, pairing.second
    agree = _agree(fit.w[a], fit.sigma_w[a], fit.w[b], fit.sigma_w[b])
    gap = _wrap(fit.psi[b] - fit.psi[a])
    reversed_pairs = agree & (np.abs(gap + sign * np.pi / 2) < np.abs(gap - sign * np.pi / 2))
    return pairing, sign, agree, reversed_pairs


# --------------------------------------------------------------------------- offset


def _offset(
    w: Float64Array, phi: Float64Array, sigma_w: Float64Array, sigma_phi: Float64Array
) -> tuple[float, float, int]:
    """Estimate p0 from phi_j = w_j p0 (mod 2 pi): slowest column first."""
    usable = (w > 1e-12) & (sigma_w < 0.3 * w) & (sigma_phi < 1.5)
    order = np.argsort(w[usable], kind="stable")
    ws, ph = w[usable][order], phi[usable][order]
    sw, sp = sigma_w[usable][order], sigma_phi[usable][order]
    if ws.size == 0:
        return 0.0, math.inf, 0
    estimate, spread = float(_wrap(ph[0]) / ws[0]), float(sp[0] / ws[0]) + 1e-9
    inconsistent = 0
    for wj, pj, swj, spj in zip(ws[1:], ph[1:], sw[1:], sp[1:], strict=True):
        if spread * wj > 1.0:
            # this column cannot yet resolve its 2 pi ambiguity; a sharper one may
            candidate_sigma = float(spj / wj)
            if candidate_sigma < spread and spread * wj < np.pi:
                turns = round((estimate * wj - pj) / (2 * np.pi))
                estimate = float((pj + 2 * np.pi * turns) / wj)
                spread = candidate_sigma
            continue
        turns = round((estimate * wj - pj) / (2 * np.pi))
        value = float((pj + 2 * np.pi * turns) / wj)
        sigma = float(math.hypot(spj / wj, abs(value) * swj / wj)) + 1e-12
        if abs(value - estimate) > 2 * math.hypot(spread, sigma) + 1e-6:
            inconsistent += 1
            continue
        weight_a, weight_b = 1 / spread**2, 1 / sigma**2
        estimate = (estimate * weight_a + value * weight_b) / (weight_a + weight_b)
        spread = 1 / math.sqrt(weight_a + weight_b)
    return estimate, spread, inconsistent


# --------------------------------------------------------------------------- law


@dataclass(frozen=True)
class _Line:
    intercept: float
    slope: float
    sigma_intercept: float
    sigma_slope: float
    worst: float  # largest |residual| / sigma


def _line(x: Float64Array, y: Float64Array, sigma: Float64Array) -> _Line | None:
    if x.size < 2 or np.ptp(x) == 0:
        return None
    weight = 1.0 / sigma**2
    design = np.stack([np.ones_like(x), x], axis=1)
    normal = design.T @ (design * weight[:, None])
    try:
        cov = np.linalg.inv(normal)
    except np.linalg.LinAlgError:
        return None
    coef = cov @ (design.T @ (weight * y))
    resid = (y - design @ coef) / sigma
    return _Line(
        float(coef[0]),
        float(coef[1]),
        float(math.sqrt(cov[0, 0])),
        float(math.sqrt(cov[1, 1])),
        float(np.max(np.abs(resid))),
    )


def _fits(line: _Line | None) -> bool:
    return line is not None and line.worst <= 2.5


def _log_points(
    k: Float64Array, w: Float64Array, sigma: Float64Array, eps: float
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """(k, ln w, sigma of ln w) for the pinned frequencies; ``eps`` is the law's floor."""
    keep = (w > 0) & (sigma < 0.6 * w)
    y = np.log(w[keep])
    s = np.sqrt((sigma[keep] / w[keep]) ** 2 + eps**2)
    return k[keep], y, s


def _fmt(value: float) -> str:
    return f"{value:.6g}"


# --------------------------------------------------------------------------- screening

_LawResult = tuple[LawName, float | None, float | None, list[str]]


def _refuse(reason: str, shape: tuple[int, int], dtype: str) -> Identification:
    return Identification(False, reason, shape, dtype)


def _screen(array: npt.NDArray[Any], eps: float) -> str | None:
    """Why the table cannot be an encoding at all (None if it may be one)."""
    bad = ~np.isfinite(array)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        what = "NaN" if np.isnan(array[r, c]) else "infinite"
        return (
            f"not an encoding: the table holds {int(bad.sum())} NaN or infinite values "
            f"(first: {what} at row {r}, column {c})"
        )
    if not array.any():
        return "not an encoding: every value is 0"
    if not np.any(array != array[0]):
        return "not an encoding: every row is the same, so no column depends on the position"
    peak = float(np.max(np.abs(array)))
    if peak > 1.0 + 8 * eps:
        return (
            f"not a sinusoidal encoding: values reach {peak:.4g}, outside [-1, 1] "
            "(sines and cosines never leave it; a scaled table must be divided by its scale)"
        )
    return None


@dataclass(frozen=True)
class _Padding:
    rows: Float64Array  # 1 for the rows used by the fit, 0 for zero (padding) rows
    width: int  # columns analysed (an odd width's trailing zero column dropped)
    has_zero_rows: bool
    notes: list[str]


def _padding(array: npt.NDArray[Any], m: int) -> _Padding | str:
    """Zero rows (fairseq's padding row) and zero columns (tensor2tensor's odd-width pad)."""
    d = array.shape[1]
    notes: list[str] = []
    zero_rows = ~np.any(array != 0, axis=1)
    if zero_rows.any():
        listed = np.flatnonzero(zero_rows)
        if listed.size > 2:
            more = ", ..." if listed.size > 5 else ""
            return (
                f"not a sinusoidal encoding: {listed.size} rows are all zeros "
                f"(rows {', '.join(map(str, listed[:5]))}{more})"
            )
        notes.append(
            f"row {', '.join(map(str, listed))} is all zeros: a padding row (fairseq zeroes "
            "the row of padding_idx and starts the tokens after it); it is ignored"
        )
    zero_cols = ~np.any(array != 0, axis=0)
    width = d
    if zero_cols[-1] and d % 2 == 1:
        width = d - 1
        notes.append(
            f"the width d = {d} is odd and the last column is all zeros: padding, as "
            "tensor2tensor does for odd widths"
        )
    elif zero_cols.any():
        listed = np.flatnonzero(zero_cols)[:8]
        notes.append(
            f"columns {', '.join(map(str, listed))} are all zeros (read as sines of frequency 0)"
        )
    if width < 2:
        return "not an encoding: fewer than two non-zero columns"
    rows = (~zero_rows[:m]).astype(np.float64)
    return _Padding(rows, width, bool(zero_rows.any()), notes)


def _residual_refusal(fit: _Fit, offset: int, n: int, eps: float) -> str | None:
    """Refuse when some column is not a sinusoid of the position within the precision."""
    reach = fit.w * (abs(offset) + n)
    # rounding of the values, the producer's angle error (eps times the angle; aliased
    # columns hide their true angle, hence the absolute floor), capped: beyond 0.02 the
    # table carries no usable position information anyway
    tolerance = np.minimum(8 * eps + 2 * eps * reach + 1e-8, 0.02)
    failing = fit.residual > tolerance
    if not failing.any():
        return None
    worst = int(np.argmax(fit.residual / tolerance))
    return (
        f"not a sinusoidal encoding: {int(failing.sum())} of {fit.w.size} columns are not "
        f"sinusoids of the position (column {worst} misses its best sinusoid by "
        f"{fit.residual[worst]:.2g}, the table's precision allows {tolerance[worst]:.2g}); "
        "a learned or random table? (rows must be consecutive positions, shape (n, d))"
    )


# --------------------------------------------------------------------------- roles


@dataclass(frozen=True)
class _Roles:
    """Which column is which: the pairing, the order, and how the pairs behave."""

    pairing: _Pairing
    order: str
    sine_cols: npt.NDArray[np.int64]
    cos_cols: npt.NDArray[np.int64]
    agree: npt.NDArray[np.bool_]  # sine and cosine frequencies agree
    turned: npt.NDArray[np.bool_]  # the pair turns the wrong way (aliased above pi)

    @property
    def disagree(self) -> npt.NDArray[np.bool_]:
        return np.asarray(~self.agree & ~self.turned)


def _roles(fit: _Fit, width: int) -> _Roles:
    pairing, sign, agree, turned = _choose_pairing(fit, width)
    sine_first = sign > 0
    sine_cols = pairing.first if sine_first else pairing.second
    cos_cols = pairing.second if sine_first else pairing.first
    order = "sin-first" if sine_first else "cos-first"
    return _Roles(pairing, order, sine_cols, cos_cols, agree, turned)


def _locate(fit: _Fit, roles: _Roles, width: int) -> tuple[float, float, int]:
    """Position of row 0 from the phases: (estimate, its sigma, inconsistent columns)."""
    is_sine = np.zeros(width, dtype=bool)
    is_sine[roles.sine_cols] = True
    if roles.pairing.unpaired is not None:
        is_sine[roles.pairing.unpaired] = True
    phi = fit.psi - np.where(is_sine, 0.0, np.pi / 2)
    keep = np.ones(width, dtype=bool)
    keep[roles.sine_cols[roles.turned]] = False
    keep[roles.cos_cols[roles.turned]] = False
    return _offset(fit.w[keep], phi[keep], fit.sigma_w[keep], fit.sigma_psi[keep])


def _shape_notes(
    fit: _Fit, roles: _Roles, d: int, located: tuple[float, float, int], offset: int
) -> list[str]:
    """Notes on the layout, the unpaired column, the offset and the pairs."""
    notes: list[str] = []
    p_hat, p_sigma, inconsistent = located
    unpaired = roles.pairing.unpaired
    if unpaired is not None:
        wj = float(fit.w[unpaired])
        as_sine = abs(_wrap(fit.psi[unpaired] - wj * offset))
        as_cos = abs(_wrap(fit.psi[unpaired] - np.pi / 2 - wj * offset))
        kind = "sine" if as_sine <= as_cos else "cosine"
        notes.append(
            f"the width d = {d} is odd: column {unpaired} is a {kind} without a partner "
            f"(frequency {_fmt(wj)}); the rotation identity cannot move it"
        )
    layout = roles.pairing.layout
    if layout != "interleaved" or roles.order != "sin-first":
        notes.append(
            f"layout {layout}, {roles.order}: not the paper's interleaved (sin, cos) columns; "
            "pe.conventions.convert reorders the columns, and the shift matrix becomes "
            "P T_k P^T"
        )
    if math.isfinite(p_sigma) and p_sigma > 0.5:
        notes.append(f"the offset is uncertain: row 0 is at position {p_hat:.3g} ± {p_sigma:.2g}")
    elif math.isfinite(p_sigma) and abs(p_hat - offset) > max(2 * p_sigma, 0.05):
        notes.append(f"row 0 sits at position {p_hat:.4g}, not an integer; rounded to {offset}")
    if offset != 0:
        extra = " (fairseq-style: the first token at position 2)" if offset == 2 else ""
        notes.append(f"row 0 is position {offset}, not 0{extra}")
    if inconsistent:
        notes.append(f"{inconsistent} columns disagree with a single offset")
    disagree = roles.disagree
    if disagree.any():
        k0 = int(np.flatnonzero(disagree)[0])
        sin_w, cos_w = fit.w[roles.sine_cols], fit.w[roles.cos_cols]
        notes.append(
            f"sine and cosine columns of a pair use different frequencies "
            f"({int(disagree.sum())} of {disagree.size} pairs; pair {k0}: sine "
            f"{_fmt(sin_w[k0])}, cosine {_fmt(cos_w[k0])}): no rotation maps one row to a "
            "later one"
        )
    if roles.turned.any():
        notes.append(
            f"{int(roles.turned.sum())} pairs turn the wrong way: their frequencies lie "
            "between π and 2π, where integer positions show only the alias 2π − ω (or their "
            "sine and cosine are swapped); the values listed are the aliases in [0, π], "
            "the true frequencies cannot be told from this table"
        )
    return notes


def _precision_note(fit: _Fit, roles: _Roles, dtype: str, n: int) -> list[str]:
    target = TARGET.get(dtype, 1e-2)
    sin_w, cos_w = fit.w[roles.sine_cols], fit.w[roles.cos_cols]
    sin_s, cos_s = fit.sigma_w[roles.sine_cols], fit.sigma_w[roles.cos_cols]
    loose = (cos_s > target * np.maximum(cos_w, 1e-300)) & (sin_s <= target * sin_w)
    if not loose.any():
        return []
    worst = float(np.max(cos_s[loose] / np.maximum(cos_w[loose], 1e-300)))
    return [
        (
            f"{int(loose.sum())} slow cosine columns are pinned only to about eps/θ² (θ = the "
            f"largest angle of their pair over {n} rows; worst relative uncertainty {worst:.2g}): "
            "their values come with cos_uncertainty; the sine columns of those pairs pin them"
        )
    ]


# --------------------------------------------------------------------------- law


@dataclass(frozen=True)
class _LawInput:
    sin_w: Float64Array
    cos_w: Float64Array
    sin_s: Float64Array
    cos_s: Float64Array
    good: npt.NDArray[np.bool_]  # pairs whose frequencies agree and turn the right way
    disagree: npt.NDArray[np.bool_]
    width: int

    @property
    def pairs(self) -> tuple[Float64Array, Float64Array]:
        """One frequency per pair (precision-weighted) and its uncertainty."""
        ws = 1.0 / np.maximum(self.sin_s, 1e-300) ** 2
        wc = 1.0 / np.maximum(self.cos_s, 1e-300) ** 2
        return (ws * self.sin_w + wc * self.cos_w) / (ws + wc), 1.0 / np.sqrt(ws + wc)


def _fit_law(data: _LawInput, eps: float) -> _LawResult:
    """The law at the table's precision, else at float32's (frequencies made in float32)."""
    result = _law(data, 128 * eps)
    eps32 = float(np.finfo(np.float32).eps)
    if result[0] == "other" and result[1] is None and eps < eps32:
        retry = _law(data, 128 * eps32)
        if retry[1] is not None or retry[0] != "other":
            retry[3].append(
                "the frequencies follow the law only to float32 precision (about 1e-7 "
                "relative): they were probably computed in float32"
            )
            return retry
    return result


def _law(data: _LawInput, floor: float) -> _LawResult:
    """Fit the frequency law; return (law, base, its uncertainty, notes)."""
    h = data.sin_w.size
    if data.disagree.sum() > h // 2:
        return _column_law(data, floor)
    k = np.arange(h, dtype=np.float64)
    w, s = data.pairs
    notes: list[str] = []
    line = _line(*_log_points(k[data.good], w[data.good], s[data.good], floor))
    if not _fits(line):
        line = _aliased_prefix(k, w, s, data.good, floor=floor, notes=notes)
    if line is None:
        return "other", None, None, notes + _no_law(w, s, data)
    return _classify(line, h, data.width, notes)


def _column_law(data: _LawInput, floor: float) -> _LawResult:
    """`i` where `i // 2` was meant: column j has its own base^(-2j/d)."""
    k = np.arange(data.sin_w.size, dtype=np.float64)
    j = np.concatenate([2 * k, 2 * k + 1])
    w = np.concatenate([data.sin_w, data.cos_w])
    s = np.concatenate([data.sin_s, data.cos_s])
    line = _line(*_log_points(j, w, s, floor))
    if line is None or not _fits(line) or abs(line.intercept) > 2 * line.sigma_intercept + 1e-9:
        return "other", None, None, ["the sine and cosine frequencies follow no single law"]
    base = math.exp(-line.slope * data.width / 2)
    note = (
        f"the frequencies fall with the column index j, not the pair index: "
        f"ω_j = {base:.6g}^(-2j/d), so the sine and the cosine of a pair differ by "
        f"a factor {math.exp(line.slope):.6g}: `i` was used where `i // 2` was meant"
    )
    return "other", base, base * line.sigma_slope * data.width / 2, [note]


def _aliased_prefix(
    k: Float64Array,
    w: Float64Array,
    s: Float64Array,
    good: npt.NDArray[np.bool_],
    *,
    floor: float,
    notes: list[str],
) -> _Line | None:
    """A growing law folds above pi: the law of the longest run from pair 0 that fits."""
    best: tuple[int, _Line] | None = None
    for end in range(3, k.size + 1):
        trial = _line(*_log_points(k[:end], w[:end], s[:end], floor))
        if trial is None or not _fits(trial) or not good[:end].all():
            break
        best = (end, trial)
    if best is None or best[1].slope <= 0:
        return None
    end, line = best
    predicted = np.exp(line.intercept + line.slope * k[end:])
    if predicted.size and predicted[0] > np.pi * 0.9:
        notes.append(
            f"pairs {end} to {k.size - 1} would have frequencies above π under the law of "
            f"pairs 0 to {end - 1}; the table shows only their aliases in [0, π], so "
            "their true frequencies cannot be told from it"
        )
    return line


def _no_law(w: Float64Array, s: Float64Array, data: _LawInput) -> list[str]:
    h = w.size
    turned = ~data.good & ~data.disagree
    if h > 1 and abs(w[0] - 1.0) < 1e-3 and turned[1]:
        return [
            (
                "pair 0 turns at 1 radian per position and pair 1 faster than π: the frequencies "
                "grow with the pair index, as when the angle is multiplied by base^(2i/d) instead "
                "of divided; too few pairs stay below π to fit the base"
            )
        ]
    distinct = _distinct(w, s)
    if distinct <= 3 < h:
        return [
            (
                f"the frequencies take only {distinct} distinct values across {h} pairs: "
                "an integer division in the exponent (2 * i // d is 0 or 1)"
            )
        ]
    return ["the frequencies follow no geometric law ω_k = ω_0 r^k"]


def _classify(line: _Line, h: int, width: int, notes: list[str]) -> _LawResult:
    """Name a geometric law ln ω_k = a + s k."""
    a, slope = line.intercept, line.slope
    sa = line.sigma_intercept + 1e-9
    if abs(slope) <= 2 * line.sigma_slope + 1e-12:
        notes.append(
            f"every pair has the same frequency {math.exp(a):.6g}: the exponent is always 0 "
            "(an integer division in the exponent, 2 * i // d, is the usual cause); rows "
            "repeat with period 2π/ω and far positions look alike"
        )
        return "other", None, None, notes
    half = width / 2
    if abs(a) <= 2 * sa and abs(a) <= abs(a - slope):
        if slope > 0:
            base = math.exp(slope * half)
            notes.append(
                f"the frequencies grow with the pair index, ω_k = {base:.6g}^(+2k/d): the "
                "angle is multiplied by base^(2i/d) instead of divided"
            )
            return "other", base, base * line.sigma_slope * half, notes
        return _paper_or_t2t(line, h, width, notes)
    if abs(a - slope) <= 2 * sa:
        base = math.exp(-slope * half)
        notes.append(
            f"exponents counted from 1: ω_k = {base:.6g}^(-2(k+1)/d) (note 001's 1-indexed "
            "formula), so the fastest pair turns at ω_0 = base^(-2/d), not 1"
        )
        return "other", base, base * line.sigma_slope * half, notes
    notes.append(
        f"a geometric law ω_k = {math.exp(a):.6g} · {math.exp(slope):.6g}^k that starts "
        "neither at 1 (paper, tensor2tensor) nor at one step below 1 (1-indexed)"
    )
    return "other", None, None, notes


def _paper_or_t2t(line: _Line, h: int, width: int, notes: list[str]) -> _LawResult:
    """Both laws are geometric from 1: report the one whose base is rounder."""
    slope, sigma = line.slope, line.sigma_slope
    paper = math.exp(-slope * width / 2)
    paper_sigma = paper * sigma * width / 2
    steps = max(h - 1, 1)
    t2t = math.exp(-slope * steps)
    t2t_sigma = t2t * sigma * steps
    digits_p = _significant_digits(paper, max(sigma * width / 2, 1e-12))
    digits_t = _significant_digits(t2t, max(sigma * steps, 1e-12))
    if digits_t < digits_p:
        notes.append(
            f"the tensor2tensor law exp(-k ln(base)/(d/2 - 1)), base {t2t:.6g} "
            f"(the paper's law would need base {paper:.6g})"
        )
        return "tensor2tensor", t2t, t2t_sigma, notes
    if digits_t == digits_p and abs(t2t - paper) > 2 * max(paper_sigma, t2t_sigma):
        notes.append(
            f"at this width the same frequencies are also the tensor2tensor law with base "
            f"{t2t:.6g}: the two laws cannot be told apart here"
        )
    if abs(paper - 1e8) <= max(2 * paper_sigma, 1e-6 * 1e8):
        notes.append(
            "the frequencies fall twice as fast as the paper's: equivalent to base 1e8 = "
            "10000², the doubled-exponent bug (2 * i in the exponent with i already "
            "stepping by 2)"
        )
    elif abs(paper - 10000.0) > max(2 * paper_sigma, 1e-9 * 1e4):
        notes.append(f"base {paper:.6g}, not the paper's 10000")
    return "paper", paper, paper_sigma, notes


def _distinct(w: Float64Array, s: Float64Array) -> int:
    order = np.argsort(w)
    values, sigmas = w[order], s[order]
    count, last, last_s = 1, values[0], sigmas[0]
    for v, sv in zip(values[1:], sigmas[1:], strict=True):
        if abs(v - last) > 2 * math.hypot(sv, last_s) + 1e-9 * abs(v):
            count += 1
            last, last_s = v, sv
    return count


# --------------------------------------------------------------------------- main


def identify(table: npt.ArrayLike) -> Identification:
    r"""Identify the convention of a sinusoidal encoding table.

    Parameters
    ----------
    table
        Array of shape ``(n, d)``, float16, float32 or float64, ``n >= 16``: row ``r`` is
        the encoding of position ``p_0 + r`` for an unknown integer ``p_0``.

    Returns
    -------
    Identification
        ``is_encoding`` is False (with the reason) for a table that is not a sinusoidal
        encoding: NaN or infinite values, all zeros, identical rows, values outside
        ``[-1, 1]``, or columns that are not sinusoids of the position within the
        table's precision.

    Raises
    ------
    TypeError, ValueError
        For something that is not a 2-D float array with at least 16 rows and 2 columns.

    Notes
    -----
    Accuracy: the frequency of a sine column, or of any column whose angle reaches a good
    part of a turn, comes out within a few :math:`\varepsilon` relative; a cosine column
    of a slow pair only within :math:`\varepsilon/\theta^2`, reported in the uncertainties
    (three standard errors). Cost: a few passes over ``min(n, 1024) * d`` values, in
    threads, plus one check of the other rows. Deterministic.
    """
    array = _as_table(table)
    n, d = array.shape
    shape, dtype = (n, d), str(array.dtype)
    eps = float(np.finfo(array.dtype).eps)
    refusal = _screen(array, eps)
    if refusal is not None:
        return _refuse(refusal, shape, dtype)
    m = min(n, FIT_ROWS)
    padding = _padding(array, m)
    if isinstance(padding, str):
        return _refuse(padding, shape, dtype)
    width = padding.width

    fit = _fit_columns(array[:m, :width].astype(np.float64), padding.rows, eps)
    if n > m:
        columns = np.arange(width, dtype=np.int64)
        fit.residual = np.maximum(fit.residual, _check_rest(array, m, fit, columns))
    roles = _roles(fit, width)
    located = _locate(fit, roles, width)
    offset = round(located[0])
    refusal = _residual_refusal(fit, offset, n, eps)
    if refusal is not None:
        return _refuse(refusal, shape, dtype)

    notes = padding.notes + _shape_notes(fit, roles, d, located, offset)
    notes += _precision_note(fit, roles, dtype, n)
    data = _LawInput(
        fit.w[roles.sine_cols],
        fit.w[roles.cos_cols],
        fit.sigma_w[roles.sine_cols],
        fit.sigma_w[roles.cos_cols],
        np.asarray(roles.agree & ~roles.turned),
        roles.disagree,
        width,
    )
    law, base, base_sigma, law_notes = _fit_law(data, eps)
    notes += law_notes

    layout = roles.pairing.layout
    matches = bool(
        law == "paper"
        and base is not None
        and abs(base - 10000.0) <= max(2 * (base_sigma or 0.0), 1e-9 * 10000.0)
        and (layout, roles.order, offset) == ("interleaved", "sin-first", 0)
        and width == d
        and d % 2 == 0
        and not roles.disagree.any()
        and not roles.turned.any()
        and not padding.has_zero_rows
    )
    if matches:
        reason = "the paper's encoding: interleaved (sin, cos), base 10000, positions from 0"
    else:
        parts = [f"{layout} ({roles.order})", f"law {law}"]
        if base is not None:
            parts.append(f"base {base:.6g}")
        parts.append(f"row 0 at position {offset}")
        reason = "a sinusoidal encoding, not the paper's: " + ", ".join(parts)
    return Identification(
        True,
        reason,
        shape,
        dtype,
        layout=layout,
        order=roles.order,
        sin_frequencies=data.sin_w,
        cos_frequencies=data.cos_w,
        sin_uncertainty=data.sin_s,
        cos_uncertainty=data.cos_s,
        position_offset=offset,
        law=law,
        base=base,
        base_uncertainty=base_sigma,
        matches_paper=matches,
        notes=tuple(notes),
        unpaired_column=roles.pairing.unpaired,
    )
