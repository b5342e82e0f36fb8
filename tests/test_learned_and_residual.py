"""pe.experiments.learned_table and pe.experiments.residual_stack: what learned tables trade, what residuals carry."""

from __future__ import annotations

import numpy as np
import pytest

from pe import numeric
from pe.experiments import learned_table, residual_stack


def test_learned_table_parameters_and_range() -> None:
    table = learned_table.LearnedPositions(100, 24)
    assert table.parameters == 100 * 24
    assert table.lookup([0, 99]).shape == (2, 24)
    with pytest.raises(ValueError, match="no row for position 100"):
        table.lookup([100])
    with pytest.raises(ValueError, match="positions must be in"):
        table.lookup(np.array([-1]))


def _unseen_reference(d: int, n_train: int, position: int) -> np.ndarray:
    """Independent: nearest trained point per pair from the table rows themselves."""
    rows = numeric.sinusoidal(np.arange(n_train), d).reshape(n_train, d // 2, 2)
    target = numeric.sinusoidal(np.array([position]), d).reshape(d // 2, 2)
    nearest = np.linalg.norm(rows - target[None], axis=2).min(axis=0)
    omega = numeric.frequencies(d)
    return nearest > 2 * np.sin(omega / 2) * (1 + 1e-9)


@pytest.mark.parametrize("position", [0, 50, 127, 300, 1000])
def test_unseen_pairs_against_reference(position: int) -> None:
    got = learned_table.unseen_pairs(64, 128, position)
    assert np.array_equal(got, _unseen_reference(64, 128, position))
    if position < 128:
        assert not got.any()


def test_unseen_pairs_appear_beyond_training() -> None:
    assert learned_table.unseen_pairs(512, 512, 1024).sum() > 50


def test_residual_stack_telescopes() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 32))
    run = residual_stack.run_stack(x, 4)
    assert np.abs(run.top - x - run.sublayer_sum).max() < 1e-12
    plain = residual_stack.run_stack(x, 4, residual=False)
    assert np.abs(plain.top - x - plain.sublayer_sum).max() > 0.1


def test_position_signal_residual_plain_cancel() -> None:
    with_residual = residual_stack.position_signal(32, 64, 4)
    plain = residual_stack.position_signal(32, 64, 4, residual=False)
    cancelled = residual_stack.position_signal(32, 64, 4, cancel=True)
    assert with_residual > 0.5 > plain
    assert cancelled == 0.0


def test_position_signal_is_one_with_silent_sublayers() -> None:
    assert abs(residual_stack.position_signal(32, 64, 4, gain=0.0) - 1.0) < 1e-12


def test_run_stack_bad_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        residual_stack.run_stack(np.zeros(5), 2)
    with pytest.raises((TypeError, ValueError)):
        residual_stack.run_stack(np.zeros((3, 4)), 0)
