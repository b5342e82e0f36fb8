r"""The frequency law: weighted least squares of :math:`\ln\omega_k` on ``k``.

Intercept 0 and slope :math:`-2\ln b/d` is the paper's law, :math:`-\ln b/(d/2-1)` the
tensor2tensor law. Both are geometric from :math:`\omega_0 = 1`, so the same table fits
both, with different bases: the law whose base has fewer significant digits is reported
(the paper's on a tie). The notes name the known bugs a law betrays (a doubled exponent,
a multiplied angle, an integer division, a column index for a pair index).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from pe.identify._result import Float64Array, LawName, precision_weights, significant_digits

__all__ = ["BASE_MATCH", "LAW_FLOOR_EPS", "LINE_FIT", "PINNED", "LawFit", "LawInput", "fit_law"]

#: A line fits when no point lies more than this many uncertainties from it.
LINE_FIT = 2.5
#: Relative floor on every ln(omega), in machine epsilons of the table (or of float32).
LAW_FLOOR_EPS = 128
#: Frequencies enter the line only when pinned: uncertainty below this fraction of w.
PINNED = 0.6
#: A base within this relative distance of 10000 (or within 2 sigma) is the paper's.
BASE_MATCH = 1e-9


@dataclass(frozen=True)
class LawInput:
    """The fitted frequencies of the sine and cosine columns, pair by pair.

    Attributes
    ----------
    sin_w, cos_w
        The frequencies of the sine and the cosine of each pair.
    sin_s, cos_s
        Their uncertainties.
    good
        Pairs whose frequencies agree and turn the right way.
    disagree
        Pairs whose sine and cosine frequencies differ.
    width
        Columns analysed.
    """

    sin_w: Float64Array
    cos_w: Float64Array
    sin_s: Float64Array
    cos_s: Float64Array
    good: npt.NDArray[np.bool_]
    disagree: npt.NDArray[np.bool_]
    width: int

    @property
    def pairs(self) -> tuple[Float64Array, Float64Array]:
        """One frequency per pair (precision-weighted) and its uncertainty."""
        ws, wc = precision_weights(self.sin_s), precision_weights(self.cos_s)
        return (ws * self.sin_w + wc * self.cos_w) / (ws + wc), 1.0 / np.sqrt(ws + wc)


class LawFit(NamedTuple):
    """The law found, its base and the base's uncertainty (when a base fits), and notes."""

    law: LawName
    base: float | None
    base_sigma: float | None
    notes: list[str]


def _unknown(notes: list[str]) -> LawFit:
    return LawFit("other", None, None, notes)


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
    return line is not None and line.worst <= LINE_FIT


def _log_line(k: Float64Array, w: Float64Array, sigma: Float64Array, floor: float) -> _Line | None:
    """The line through (k, ln w) for the pinned frequencies; ``floor`` is the law's floor."""
    keep = (w > 0) & (sigma < PINNED * w)
    y = np.log(w[keep])
    s = np.sqrt((sigma[keep] / w[keep]) ** 2 + floor**2)
    return _line(k[keep], y, s)


def fit_law(data: LawInput, eps: float) -> LawFit:
    """The law at the table's precision, else at float32's (frequencies made in float32).

    Examples
    --------
    >>> w = 10000.0 ** (-np.arange(4) / 4)
    >>> s = np.full(4, 1e-12)
    >>> no = np.zeros(4, dtype=bool)
    >>> found = fit_law(LawInput(w, w, s, s, ~no, no, 8), 2.0**-52)
    >>> found.law, round(found.base or 0.0, 6)
    ('paper', 10000.0)
    """
    result = _law(data, LAW_FLOOR_EPS * eps)
    eps32 = float(np.finfo(np.float32).eps)
    if result.law == "other" and result.base is None and eps < eps32:
        retry = _law(data, LAW_FLOOR_EPS * eps32)
        if retry.base is not None or retry.law != "other":
            retry.notes.append(
                "the frequencies follow the law only to float32 precision (about 1e-7 "
                "relative): they were probably computed in float32"
            )
            return retry
    return result


def _law(data: LawInput, floor: float) -> LawFit:
    """Fit the frequency law."""
    h = data.sin_w.size
    if data.disagree.sum() > h // 2:
        return _column_law(data, floor)
    k = np.arange(h, dtype=np.float64)
    w, s = data.pairs
    notes: list[str] = []
    line = _log_line(k[data.good], w[data.good], s[data.good], floor)
    if not _fits(line):
        line = _aliased_prefix(k, w, s, data.good, floor=floor, notes=notes)
    if line is None:
        return _unknown(notes + _no_law(w, s, data))
    return _classify(line, h, data.width, notes)


def _column_law(data: LawInput, floor: float) -> LawFit:
    """`i` where `i // 2` was meant: column j has its own base^(-2j/d)."""
    k = np.arange(data.sin_w.size, dtype=np.float64)
    j = np.concatenate([2 * k, 2 * k + 1])
    w = np.concatenate([data.sin_w, data.cos_w])
    s = np.concatenate([data.sin_s, data.cos_s])
    line = _log_line(j, w, s, floor)
    if line is None or not _fits(line) or abs(line.intercept) > 2 * line.sigma_intercept + 1e-9:
        return _unknown(["the sine and cosine frequencies follow no single law"])
    base = math.exp(-line.slope * data.width / 2)
    note = (
        f"the frequencies fall with the column index j, not the pair index: "
        f"ω_j = {base:.6g}^(-2j/d), so the sine and the cosine of a pair differ by "
        f"a factor {math.exp(line.slope):.6g}: `i` was used where `i // 2` was meant"
    )
    return LawFit("other", base, base * line.sigma_slope * data.width / 2, [note])


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
        trial = _log_line(k[:end], w[:end], s[:end], floor)
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


def _no_law(w: Float64Array, s: Float64Array, data: LawInput) -> list[str]:
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
    return ["the frequencies follow no geometric law ω_i = ω_0 r^i"]


def _classify(line: _Line, h: int, width: int, notes: list[str]) -> LawFit:
    """Name a geometric law ln ω_k = a + s k."""
    a, slope = line.intercept, line.slope
    sa = line.sigma_intercept + 1e-9
    if abs(slope) <= 2 * line.sigma_slope + 1e-12:
        notes.append(
            f"every pair has the same frequency {math.exp(a):.6g}: the exponent is always 0 "
            "(an integer division in the exponent, 2 * i // d, is the usual cause); rows "
            "repeat with period 2π/ω and far positions look alike"
        )
        return _unknown(notes)
    half = width / 2
    if abs(a) <= 2 * sa and abs(a) <= abs(a - slope):
        if slope > 0:
            base = math.exp(slope * half)
            notes.append(
                f"the frequencies grow with the pair index, ω_i = {base:.6g}^(+2i/d): the "
                "angle is multiplied by base^(2i/d) instead of divided"
            )
            return LawFit("other", base, base * line.sigma_slope * half, notes)
        return _paper_or_t2t(line, h, width, notes)
    if abs(a - slope) <= 2 * sa:
        base = math.exp(-slope * half)
        notes.append(
            f"exponents counted from 1: ω_i = {base:.6g}^(-2(i+1)/d) (the 1-indexed "
            "formula), so the fastest pair turns at ω_0 = base^(-2/d), not 1"
        )
        return LawFit("other", base, base * line.sigma_slope * half, notes)
    notes.append(
        f"a geometric law ω_i = {math.exp(a):.6g} · {math.exp(slope):.6g}^i that starts "
        "neither at 1 (paper, tensor2tensor) nor at one step below 1 (1-indexed)"
    )
    return _unknown(notes)


def _paper_or_t2t(line: _Line, h: int, width: int, notes: list[str]) -> LawFit:
    """Both laws are geometric from 1: report the one whose base is rounder."""
    slope, sigma = line.slope, line.sigma_slope
    paper = math.exp(-slope * width / 2)
    paper_sigma = paper * sigma * width / 2
    steps = max(h - 1, 1)
    t2t = math.exp(-slope * steps)
    t2t_sigma = t2t * sigma * steps
    digits_p = significant_digits(paper, max(sigma * width / 2, 1e-12))
    digits_t = significant_digits(t2t, max(sigma * steps, 1e-12))
    if digits_t < digits_p:
        notes.append(
            f"the tensor2tensor law exp(-i ln(base)/(d/2 - 1)), base {t2t:.6g} "
            f"(the paper's law would need base {paper:.6g})"
        )
        return LawFit("tensor2tensor", t2t, t2t_sigma, notes)
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
    elif abs(paper - 100.0) <= max(2 * paper_sigma, 1e-6 * 100.0):
        notes.append(
            "base 100, not the paper's 10000: the frequencies fall half as fast, as when "
            "the exponent is i/d with i the pair index (the paper's 2i/d; base 100 = √10000)"
        )
    elif abs(paper - 10000.0) > max(2 * paper_sigma, BASE_MATCH * 1e4):
        notes.append(f"base {paper:.6g}, not the paper's 10000")
    return LawFit("paper", paper, paper_sigma, notes)


def _distinct(w: Float64Array, s: Float64Array) -> int:
    order = np.argsort(w)
    values, sigmas = w[order], s[order]
    count, last, last_s = 1, values[0], sigmas[0]
    for v, sv in zip(values[1:], sigmas[1:], strict=True):
        if abs(v - last) > 2 * math.hypot(sv, last_s) + 1e-9 * abs(v):
            count += 1
            last, last_s = v, sv
    return count
