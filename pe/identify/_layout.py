"""Which column is which: the pairing (layout), the order inside a pair and the offset.

Each candidate pairing (interleaved, halves, and for odd widths the variants with one
unpaired column) is scored by the share of pairs whose two frequencies agree within their
uncertainties, then by the share whose phases differ by :math:`\\pm\\pi/2`. The position of
row 0 comes from the phases, slowest column first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from pe.identify._fit import ColumnFit, wrap
from pe.identify._result import Float64Array

__all__ = ["AGREE_REL", "QUARTER_TURN", "Located", "Pairing", "Roles", "locate", "roles"]

#: Two frequencies agree within 2 sigma plus this relative slack.
AGREE_REL = 1e-9
#: A pair's phases differ by pi/2 within this many radians (plus their uncertainties).
QUARTER_TURN = 0.25

Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Pairing:
    """One way to pair the columns.

    Attributes
    ----------
    layout
        ``"interleaved"`` or ``"halves"``.
    first, second
        The column of each pair's first and second member.
    unpaired
        For odd widths, the column left without a partner.
    """

    layout: str
    first: npt.NDArray[np.int64]
    second: npt.NDArray[np.int64]
    unpaired: int | None


class _Choice(NamedTuple):
    """The best pairing and how its pairs behave."""

    pairing: Pairing
    sine_first: bool
    agree: Mask  # the two frequencies of a pair agree
    reversed_pairs: Mask  # the pair turns the other way from the rest


class Located(NamedTuple):
    """The position of row 0 read from the phases."""

    estimate: float
    sigma: float
    inconsistent: int  # columns that disagree with a single offset


@dataclass(frozen=True)
class Roles:
    """Which column is which: the pairing, the order, and how the pairs behave."""

    pairing: Pairing
    order: str
    sine_cols: npt.NDArray[np.int64]
    cos_cols: npt.NDArray[np.int64]
    agree: Mask  # sine and cosine frequencies agree
    turned: Mask  # the pair turns the wrong way (aliased above pi)

    @property
    def disagree(self) -> Mask:
        """Pairs whose sine and cosine frequencies differ (and that are not aliased)."""
        return np.asarray(~self.agree & ~self.turned)


def _pairings(width: int) -> list[Pairing]:
    h = width // 2
    k = np.arange(h, dtype=np.int64)
    if width % 2 == 0:
        return [
            Pairing("interleaved", 2 * k, 2 * k + 1, None),
            Pairing("halves", k, k + h, None),
        ]
    return [
        Pairing("interleaved", 2 * k, 2 * k + 1, width - 1),
        Pairing("halves", np.concatenate([k]), k + h + 1, h),
        Pairing("halves", k, k + h, width - 1),
    ]


def _agree(fit: ColumnFit, a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> Mask:
    """Whether the frequencies of columns ``a`` and ``b`` agree: within 2 uncertainties, plus
    the systematic bound of each (errors that are not independent, such as float32 angles),
    plus :data:`AGREE_REL` relative."""
    wa, wb, sa, sb = fit.w[a], fit.w[b], fit.sigma_w[a], fit.sigma_w[b]
    systematic = fit.bias_w[a] + fit.bias_w[b]
    tolerance = 2.0 * np.sqrt(sa * sa + sb * sb) + systematic + AGREE_REL * np.maximum(wa, wb)
    return np.asarray(np.abs(wa - wb) <= tolerance + 1e-300)


def _quarter_turn_tolerance(
    fit: ColumnFit, a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]
) -> Float64Array:
    """How far from a quarter turn the phase gap of columns ``a`` and ``b`` may lie."""
    return np.asarray(QUARTER_TURN + fit.sigma_psi[a] + fit.sigma_psi[b], dtype=np.float64)


def _choose_pairing(fit: ColumnFit, width: int) -> _Choice:
    """Best pairing, the order (sine first?), frequency agreement and reversed pairs."""
    best: tuple[tuple[float, float, float], Pairing, int] | None = None
    for pairing in _pairings(width):
        a, b = pairing.first, pairing.second
        agree = _agree(fit, a, b)
        gap = wrap(fit.psi[b] - fit.psi[a])
        tol = _quarter_turn_tolerance(fit, a, b)
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
    agree = _agree(fit, a, b)
    gap = wrap(fit.psi[b] - fit.psi[a])
    # turned the other way: nearer the other quarter turn, and within the same tolerance of
    # it (a pair nearly in phase turns neither way: its columns disagree with one offset)
    other = np.abs(gap + sign * np.pi / 2)
    tol = _quarter_turn_tolerance(fit, a, b)
    reversed_pairs = agree & (other < np.abs(gap - sign * np.pi / 2)) & (other <= tol)
    return _Choice(pairing, sign > 0, agree, reversed_pairs)


def roles(fit: ColumnFit, width: int) -> Roles:
    """The pairing, the order and the sine and cosine columns of the fitted table."""
    choice = _choose_pairing(fit, width)
    pairing = choice.pairing
    sine_cols = pairing.first if choice.sine_first else pairing.second
    cos_cols = pairing.second if choice.sine_first else pairing.first
    order = "sin-first" if choice.sine_first else "cos-first"
    return Roles(pairing, order, sine_cols, cos_cols, choice.agree, choice.reversed_pairs)


def _offset(
    w: Float64Array, phi: Float64Array, sigma_w: Float64Array, sigma_phi: Float64Array
) -> Located:
    """Estimate p0 from phi_j = w_j p0 (mod 2 pi): slowest column first."""
    usable = (w > 1e-12) & (sigma_w < 0.3 * w) & (sigma_phi < 1.5)
    order = np.argsort(w[usable], kind="stable")
    ws, ph = w[usable][order], phi[usable][order]
    sw, sp = sigma_w[usable][order], sigma_phi[usable][order]
    if ws.size == 0:
        return Located(0.0, math.inf, 0)
    estimate, spread = float(wrap(ph[0]) / ws[0]), float(sp[0] / ws[0]) + 1e-9
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
    return Located(estimate, spread, inconsistent)


def locate(fit: ColumnFit, found: Roles, width: int) -> Located:
    """Position of row 0 from the phases: the estimate, its sigma, inconsistent columns."""
    is_sine = np.zeros(width, dtype=bool)
    is_sine[found.sine_cols] = True
    if found.pairing.unpaired is not None:
        is_sine[found.pairing.unpaired] = True
    phi = fit.psi - np.where(is_sine, 0.0, np.pi / 2)
    keep = np.ones(width, dtype=bool)
    keep[found.sine_cols[found.turned]] = False
    keep[found.cos_cols[found.turned]] = False
    return _offset(fit.w[keep], phi[keep], fit.sigma_w[keep], fit.sigma_psi[keep])
