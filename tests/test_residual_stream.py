"""pe.residual_stream: the stack telescopes with residual connections, and the encoding's signal."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pe import residual_stream as stream
from tests.helpers import wrong


def test_residual_stack_telescopes() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 32))
    run = stream.run_stack(x, 4)
    assert np.abs(run.top - x - run.sublayer_sum).max() < 1e-12
    plain = stream.run_stack(x, 4, connection=wrong.PLAIN_STACK.value)
    assert np.abs(plain.top - x - plain.sublayer_sum).max() > 0.1


def test_position_signal_residual_plain_cancel() -> None:
    with_residual = stream.position_signal(32, 64, 4)
    plain = stream.position_signal(32, 64, 4, connection=wrong.PLAIN_STACK.value)
    cancelled = stream.position_signal(32, 64, 4, connection=wrong.CANCELLING_SUBLAYER.value)
    assert with_residual > 0.5 > plain
    assert math.isnan(cancelled)  # nothing changed: no cosine, not 0


def test_position_signal_is_one_with_silent_sublayers() -> None:
    assert abs(stream.position_signal(32, 64, 4, gain=0.0) - 1.0) < 1e-12


def test_run_stack_bad_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        stream.run_stack(np.zeros(5), 2)
    with pytest.raises((TypeError, ValueError)):
        stream.run_stack(np.zeros((3, 4)), 0)
