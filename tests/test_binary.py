"""pe.binary: the bits of a binary counter, their periods and how many a code needs."""

from __future__ import annotations

import math

import numpy as np

from pe import binary
from tests.helpers import wrong


def test_binary_bits_against_format() -> None:
    bits = binary.binary_bits(64, 6)
    for p in range(64):
        assert [int(c) for c in reversed(f"{p:06b}")] == bits[p].tolist()
    assert binary.least_periods(bits) == (2, 4, 8, 16, 32, 64)


def test_least_periods() -> None:
    assert binary.least_periods(np.array([[1], [1], [1]])) == (1,)
    assert binary.least_periods(np.array([[0], [0], [1]])) == (3,)


def test_bits_needed_is_the_ceiling_of_log2() -> None:
    sizes = range(2, 300)
    assert all(
        binary.bits_needed(n) == binary.log2_bits(n) == math.ceil(math.log2(n)) for n in sizes
    )
    rounded_down = wrong.LOG2_ROUNDED_DOWN.value
    assert [n for n in sizes if rounded_down(n) == binary.bits_needed(n)] == [
        2**b for b in range(1, 9)
    ]
