"""pe.position_designs: the raw index, p/n and the sinusoidal design, against direct computations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pe import embeddings, position_designs
from tests.helpers import wrong


def test_position_share_against_a_direct_computation() -> None:
    tokens = embeddings.random_embeddings(1000, 64, position_designs.SEED)
    norms = (tokens**2).sum(axis=1)
    for p in (3, 40, 500):
        direct = np.mean([p * p / (p * p + n) for n in norms])
        share = position_designs.position_share(position_designs.raw_index, [p], 64)[0]
        assert share == pytest.approx(direct, rel=1e-12, abs=0)


def test_raw_share_rises_to_one_and_sinusoidal_share_is_flat() -> None:
    raw = position_designs.position_share(
        position_designs.raw_index, [1, 10, 100, 1000, 10_000], 512
    )
    assert np.all(np.diff(raw) > 0)
    assert raw[-1] > 0.9999
    flat = position_designs.position_share(
        wrong.SINUSOIDAL_DESIGN.value, [1, 10, 100, 1000, 10_000], 512
    )
    assert np.ptp(flat) < 1e-12
    assert flat[0] < 0.5


def test_raw_index_ratio_grows_linearly() -> None:
    ratio = position_designs.raw_index_ratio([10, 100, 1000], 512)
    assert ratio[1] / ratio[0] == pytest.approx(10.0, rel=1e-6, abs=0)
    assert 0.9 * 1000 < ratio[2] < 1.1 * 1000


def test_normalised_index_gaps_are_exact_fractions() -> None:
    for n in (4, 40, 7):
        gaps = np.diff(position_designs.normalised_index(n))
        exact = float(Fraction(1, n))
        np.testing.assert_allclose(gaps, exact, atol=2e-16)


def test_offset_distances_do_not_depend_on_the_start() -> None:
    measured = position_designs.offset_distances(
        position_designs.sinusoidal, [1, 9], np.arange(0, 300, 11), 64
    )
    assert np.ptp(measured, axis=0).max() < 1e-12
    normalised = position_designs.offset_distances(
        wrong.NORMALISED_INDEX.value, [1], [0, 1], 2, n=40
    )
    np.testing.assert_allclose(normalised, 0.025)


def test_a_pair_completes_no_turn_while_its_trained_arc_stays_below_one() -> None:
    """Trained positions are 0 .. n-1, so pair 0 (omega = 1) covers the arc [0, n-1]: at
    n = 7 that is 6 < 2 pi, no turn; at n = 8 it is 7, a whole turn (read as n omega, the
    off-by-one an earlier audit found, n = 7 would already turn)."""
    assert 6 < 2 * np.pi < 7
    assert position_designs.arc_counts(2, 7, 0) == (1, 0)
    assert position_designs.arc_counts(2, 8, 0) == (0, 0)
