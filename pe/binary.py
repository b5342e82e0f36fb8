r"""Binary position codes: the counter the sinusoidal encoding is compared with.

Writing the position ``p`` in binary gives it a code of bits; bit ``b``,
:math:`\lfloor p / 2^b \rfloor \bmod 2`, flips every :math:`2^b` positions and so has least
period :math:`2^{b+1}`, and :math:`\lceil \log_2 n \rceil` bits tell ``n`` positions apart.
The chapters "Designs that fail" and "The sinusoidal encoding" set the encoding's
frequencies beside these periods (the analogy of *Dive into Deep Learning*) and its smooth
steps beside the bits' jumps.

- :func:`binary_bits`: the bits of ``0 .. n-1``, lowest first;
- :func:`least_periods`: the least period of each column of a table, by trying every shift;
- :func:`bits_needed`: the fewest bits that tell ``n`` positions apart, by trying;
- :func:`log2_bits`: the same count from the formula :math:`\lceil \log_2 n \rceil`.

Examples
--------
>>> least_periods(binary_bits(64, 3))
(2, 4, 8)
>>> bits_needed(1000), log2_bits(1000)
(10, 10)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate

__all__ = ["binary_bits", "bits_needed", "least_periods", "log2_bits"]


def binary_bits(n_positions: int, n_bits: int = 4) -> npt.NDArray[np.int64]:
    r"""Bit ``b`` (columns, lowest first) of the integers ``0 .. n-1`` (rows).

    Entry ``(p, b)`` is :math:`\lfloor p / 2^b \rfloor \bmod 2`.

    Parameters
    ----------
    n_positions
        How many positions (rows), a positive integer.
    n_bits
        How many bits (columns), a positive integer.

    Returns
    -------
    numpy.ndarray
        An ``(n_positions, n_bits)`` array of 0 and 1.

    Examples
    --------
    >>> binary_bits(4, 2).tolist()
    [[0, 0], [1, 0], [0, 1], [1, 1]]
    """
    count = _validate.positive_int("n_positions", n_positions)
    bits = _validate.positive_int("n_bits", n_bits)
    return (np.arange(count)[:, None] >> np.arange(bits)[None, :]) & 1


def least_periods(columns: npt.NDArray[Any]) -> tuple[int, ...]:
    """The least period of each column (the smallest shift that maps it onto itself).

    A column with no period shorter than its length gets its length.

    Parameters
    ----------
    columns
        A 2-D array, one sequence per column.

    Returns
    -------
    tuple of int
        One least period per column.

    Examples
    --------
    >>> least_periods(np.array([[0, 1], [1, 1], [0, 0], [1, 0]]))
    (2, 4)
    """
    rows = columns.shape[0]
    return tuple(
        next(
            (s for s in range(1, rows) if np.array_equal(column[s:], column[:-s])),
            rows,
        )
        for column in columns.T
    )


def bits_needed(n_positions: int) -> int:
    """The fewest bits whose codes tell the positions ``0 .. n-1`` apart, found by trying.

    Parameters
    ----------
    n_positions
        How many positions, at least 2.

    Returns
    -------
    int
        The smallest ``b`` for which :func:`binary_bits` ``(n, b)`` has ``n`` distinct rows.

    Examples
    --------
    >>> bits_needed(8), bits_needed(9)
    (3, 4)
    """
    count = _validate.positive_int("n_positions", n_positions, minimum=2)
    bits = 1
    while np.unique(binary_bits(count, bits), axis=0).shape[0] < count:
        bits += 1
    return bits


def log2_bits(n_positions: int) -> int:
    r""":math:`\lceil \log_2 n \rceil`, the bits a binary code of ``n`` positions needs.

    Computed exactly from the integer: :math:`\lceil \log_2 n \rceil` is the bit length of
    :math:`n - 1`.

    Examples
    --------
    >>> log2_bits(8), log2_bits(9)
    (3, 4)
    """
    return (n_positions - 1).bit_length()
