"""Candidates wrong in one place only: at one offset, one entry, one position, one pair.

A check that looks at one place (the first offset, the last group, the entry with the
largest error, the fastest pair) accepts these; every check of the library must reject
them. Test-only: the claims' wrong candidates, wrong everywhere, live in the chapters
(:func:`pe.claims.candidates`).

Each builder captures the true function when called, so that a test may install the
candidate in its place (``monkeypatch.setattr(numeric, "shift_matrix", ...)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pe import numeric

Matrix = npt.NDArray[np.float64]


def shift_wrong_at_offset(wrong_k: int, delta: float) -> Any:
    """``shift_matrix``, except at offset ``wrong_k``: entry (0, 1) is off by ``delta``."""
    true_matrix = numeric.shift_matrix

    def candidate(k: float, d: int, base: float = 10000.0) -> Matrix:
        matrix = true_matrix(k, d, base=base)
        if int(k) == wrong_k:
            matrix[0, 1] += delta
        return matrix

    return candidate


def shift_wrong_at_entry(row: int, column: int, delta: float) -> Any:
    """``shift_matrix`` with entry ``(row, column)`` off by ``delta`` at every offset."""
    true_matrix = numeric.shift_matrix

    def candidate(k: float, d: int, base: float = 10000.0) -> Matrix:
        matrix = true_matrix(k, d, base=base)
        matrix[row % d, column % d] += delta
        return matrix

    return candidate


def shift_slow_pair_off(relative: float) -> Any:
    """``shift_matrix`` whose slowest pair turns by ``k w (1 + relative)`` instead of ``k w``."""
    true_matrix = numeric.shift_matrix

    def candidate(k: float, d: int, base: float = 10000.0) -> Matrix:
        matrix = true_matrix(k, d, base=base)
        angle = k * numeric.frequencies(d, base)[-1] * (1.0 + relative)
        c, s = np.cos(angle), np.sin(angle)
        matrix[d - 2 :, d - 2 :] = [[c, s], [-s, c]]
        return matrix

    return candidate


def table_wrong_at(table: Any, position: int, delta: float, column: int | None = None) -> Any:
    """The table function ``table(positions, d)``, off by ``delta`` in one row only.

    Only at ``column`` when given, else in every column of the row of ``position``.
    """

    def candidate(positions: Any, d: int, **kwargs: Any) -> Any:
        values = np.array(table(positions, d, **kwargs), copy=True)
        ps = np.arange(positions) if np.ndim(positions) == 0 else np.asarray(positions)
        rows = np.flatnonzero(ps == position)
        columns = slice(None) if column is None else column % d
        values[rows, columns] += delta
        return values

    return candidate
