"""``pe.identify``'s pairing and precision thresholds, each crossed from both sides.

:data:`~pe.identify._layout.AGREE_REL` and the uncertainties (with the systematic bound)
decide whether the two frequencies of a pair agree; :data:`~pe.identify._layout.QUARTER_TURN`
whether the phases of a pair are a quarter turn apart; :data:`~pe.identify._explain.TARGET`
when a slow cosine column is pinned only loosely. Each is fed a value a hair inside and a
hair outside, computed from the constant.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from pe.identify import _explain, _layout
from pe.identify._fit import wrap

HAIR = 1e-6


def _fit(**columns: Any) -> Any:
    """A column fit with only the fields the layout reads."""
    width = len(columns["w"])
    defaults = {
        "sigma_w": np.zeros(width),
        "bias_w": np.zeros(width),
        "psi": np.zeros(width),
        "sigma_psi": np.zeros(width),
    }
    return SimpleNamespace(**{**defaults, **{k: np.asarray(v, float) for k, v in columns.items()}})


PAIR = (np.array([0]), np.array([1]))


@pytest.mark.parametrize("start", [0, 7, 1000, 9000])
def test_row_0s_position_is_read_through_whole_turns_of_every_column(start: int) -> None:
    """Exact phases of a table whose row 0 is position ``start`` (within half the slowest
    wavelength, pi 10000^(7/8) ~ 9934, beyond which it is known only modulo that): the fast
    columns have turned many times, and each is unwrapped by whole turns (2 pi) onto the slow
    column's estimate; none is called inconsistent and the estimate is ``start``."""
    w = 10000.0 ** (-np.arange(8) / 8)
    small = np.full(8, 1e-13)
    found = _layout._offset(w, wrap(start * w), small, small)
    assert found.inconsistent == 0
    assert abs(found.estimate - start) <= 1e-6 * max(1, start)


@pytest.mark.parametrize(
    ("fast", "refines"), [(math.pi / 10 * 0.99, True), (math.pi / 10 * 1.01, False)]
)
def test_a_fast_column_refines_the_estimate_only_when_its_turn_is_known(
    fast: float, refines: bool
) -> None:
    """The slow column places row 0 at 105 +- 10 (truth 100). A sharper column whose
    frequency times that spread stays below pi picks its whole turn and takes over; at or
    above pi its turn is ambiguous and it is left out, the estimate staying at 105."""
    w = np.array([1e-3, fast])
    phi = wrap(np.array([105.0, 100.0]) * w)
    sigma_phi = np.array([1e-2, 1e-6])
    found = _layout._offset(w, phi, np.zeros(2), sigma_phi)
    if refines:
        assert abs(found.estimate - 100.0) < abs(found.estimate - 105.0)
        assert found.sigma < 1.0
    else:
        assert found.estimate == pytest.approx(105.0, abs=1e-9)
        assert found.sigma == pytest.approx(10.0, rel=1e-6, abs=0)


@pytest.mark.parametrize(("scale", "refines"), [(1.0, False), (1 - 2.0**-40, True)])
def test_an_ambiguous_column_takes_over_only_when_sharper(scale: float, refines: bool) -> None:
    """Row 0 placed at 105 +- 10 by the slow column (truth 100); a column of frequency 1/8
    (spread times it below pi, so its turn is known) replaces the estimate only if its
    uncertainty is smaller than the spread: equal to it, to the last bit, it is left out."""
    w = np.array([1e-3, 0.125])
    spread = float(1e-2 / 1e-3) + 1e-9  # as _offset computes it from the slow column
    sigma_phi = np.array([1e-2, spread * 0.125 * scale])
    found = _layout._offset(w, wrap(np.array([105.0, 100.0]) * w), np.zeros(2), sigma_phi)
    assert (abs(found.estimate - 100.0) < 1e-6) is refines
    assert (found.estimate == pytest.approx(105.0, abs=1e-9)) is not refines


@pytest.mark.parametrize("w", [1.0, 1e-3, 1e-8])
def test_agree_rel_edge(w: float) -> None:
    """With no uncertainty the frequencies agree within AGREE_REL of the larger only."""
    for rel, agree in ((_layout.AGREE_REL * (1 - 1e-3), True), (_layout.AGREE_REL * 1.5, False)):
        fit = _fit(w=[w, w * (1 + rel)])
        assert bool(_layout._agree(fit, *PAIR)[0]) is agree, rel


def test_agreement_counts_two_uncertainties_and_each_systematic_bound() -> None:
    sa, sb, ba, bb = 3e-6, 4e-6, 2e-6, 1e-6
    w = 0.5
    edge = 2 * math.hypot(sa, sb) + ba + bb + _layout.AGREE_REL * w
    for gap, agree in ((edge * (1 - HAIR), True), (edge * (1 + HAIR), False)):
        fit = _fit(w=[w, w - gap], sigma_w=[sa, sb], bias_w=[ba, bb])
        assert bool(_layout._agree(fit, *PAIR)[0]) is agree, gap
    # without the systematic bound, the same gap inside the edge would not agree
    inside = edge * (1 - HAIR)
    fit = _fit(w=[w, w - inside], sigma_w=[sa, sb], bias_w=[0.0, 0.0])
    assert not bool(_layout._agree(fit, *PAIR)[0])
    # one uncertainty alone is not enough: both enter, in quadrature
    fit = _fit(w=[w, w - inside], sigma_w=[sa, 0.0], bias_w=[ba, bb])
    assert not bool(_layout._agree(fit, *PAIR)[0])


def _phases(gap: float, width: int = 8) -> Any:
    """Interleaved pairs of equal frequency whose second column leads by ``gap`` radians."""
    w = np.repeat(10000.0 ** (-np.arange(width // 2) / (width // 2)), 2)
    psi = np.zeros(width)
    psi[1::2] = gap
    return _fit(w=w, psi=psi)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_quarter_turn_edge(sign: float) -> None:
    """Phases a quarter turn apart within QUARTER_TURN: sine first (or cosine first)."""
    quarter = sign * math.pi / 2
    inside = _layout._choose_pairing(_phases(quarter + _layout.QUARTER_TURN * 0.9), 8)
    assert inside.pairing.layout == "interleaved"
    assert inside.sine_first is (sign > 0)
    # beyond the tolerance no pair has its quarter turn: the phase share drops to 0
    for gap in (quarter + _layout.QUARTER_TURN * 1.1, quarter - _layout.QUARTER_TURN * 1.1):
        fit = _phases(gap)
        a, b = np.arange(0, 8, 2), np.arange(1, 8, 2)
        wrapped = wrap(fit.psi[b] - fit.psi[a])
        tol = _layout.QUARTER_TURN + fit.sigma_psi[a] + fit.sigma_psi[b]
        assert not np.any(np.abs(wrapped - quarter) <= tol)


def _cosines(cos_share: float, sin_share: float, dtype: str) -> list[str]:
    target = _explain.TARGET.get(dtype, 1e-2)
    w = np.array([1e-3, 1e-3, 1e-4, 1e-4])
    sigma = np.array([sin_share, cos_share, sin_share, cos_share]) * target * w
    fit = _fit(w=w, sigma_w=sigma)
    roles = SimpleNamespace(sine_cols=np.array([0, 2]), cos_cols=np.array([1, 3]))
    return _explain.precision_note(fit, roles, dtype, 1000)  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", [*_explain.TARGET, "bfloat16"])
def test_loose_cosine_note_edge(dtype: str) -> None:
    """Noted when a cosine's uncertainty is above TARGET of its frequency and its sine's
    is not; a hair either side of each."""
    assert _cosines(1 + HAIR, 1.0, dtype)
    assert _cosines(1 - HAIR, 1.0, dtype) == []
    assert _cosines(1 + HAIR, 1 + HAIR, dtype) == []
    assert "2 slow cosine columns" in _cosines(1 + HAIR, 1.0, dtype)[0]
