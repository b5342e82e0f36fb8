"""Every path of the table algorithm (``pe._rotation_table``) against 50-digit mpmath.

``numeric.sinusoidal`` takes the consecutive fill for ``sinusoidal(n, d)`` (block starts
composed at multiples of ``RADIX * BLOCK`` for float32 and float16) and the scattered fill
for other positions; float64 goes through complex products clipped to [-1, 1], float32
through a complex64 view, float16 through float64 tiles; large tables are split between
threads. Each path is checked entry by entry at its block boundaries against
:mod:`pe.reference`, and bit for bit against the other paths.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pe import _rotation_table, accuracy, numeric, reference
from pe.chapters import precision as precision_claims
from pe.error_models import ENTRY

from .one_place import table_wrong_at

BLOCK, RADIX = _rotation_table.BLOCK, _rotation_table.RADIX
#: The error model of each dtype (pe._rotation_table, "Error model").
BOUND = {
    np.float64: _rotation_table.ENTRY_ERROR_BOUND,
    np.float32: 2.0**-25 + 1.6e-15,
    np.float16: 2.0**-12 + 1.6e-15,
}
DTYPES = list(BOUND)
D = 64
#: Columns checked: the fastest and the slowest pairs and two in between.
COLUMNS = np.array([0, 1, 2, 21, 40, D - 2, D - 1])
#: Position 534483448 has sin(p) within 1.1e-16 of -1; unclipped, the float64 product
#: rounds to -1.0000000000000002 (found by a search over every p < 2^31).
NEAR_MINUS_ONE = 534_483_448


def _rows_at_boundaries(first: int, n: int) -> np.ndarray:
    """Row indices at block boundaries of ``first .. first + n - 1`` (and the last row)."""
    p = first + np.arange(n)
    edges = (p % BLOCK == 0) | (p % BLOCK == BLOCK - 1) | (p % (RADIX * BLOCK) == 0)
    return np.unique(np.concatenate([np.flatnonzero(edges), [0, min(1, n - 1), n - 1]]))


def _worst(values: np.ndarray, positions: np.ndarray) -> float:
    grid_p = np.repeat(positions, COLUMNS.size)
    grid_c = np.tile(COLUMNS, positions.size)
    return float(reference.errors(values[:, COLUMNS].ravel(), grid_p, grid_c, D).max())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    ("first", "n"),
    [
        (0, 1),
        (0, BLOCK - 1),
        (0, BLOCK + 1),
        (0, RADIX * BLOCK + 3),
        (BLOCK, 3 * BLOCK + 7),  # consecutive, block starts not composed in one call
        (RADIX * BLOCK, 2 * BLOCK),
        (2**53 - 2 * BLOCK, 2 * BLOCK + 1),
    ],
)
def test_consecutive_fill_within_the_error_model(dtype: Any, first: int, n: int) -> None:
    positions = np.arange(first, first + n)
    table = numeric.sinusoidal(n if first == 0 else positions, D, dtype=dtype)
    rows = _rows_at_boundaries(first, n)
    assert _worst(table[rows], positions[rows]) <= BOUND[dtype]
    scattered = numeric.sinusoidal(positions[rows][::-1], D, dtype=dtype)[::-1]
    np.testing.assert_array_equal(table[rows], scattered)


@pytest.mark.parametrize("dtype", DTYPES)
def test_scattered_fill_within_the_error_model(dtype: Any) -> None:
    rng = np.random.default_rng(11)
    positions = np.concatenate(
        [rng.integers(0, 2**53, 20), [0, BLOCK - 1, BLOCK, 2**53, 2**53 - 1, 10**15 + 7]]
    )
    table = numeric.sinusoidal(positions, D, dtype=dtype)
    assert _worst(table, positions) <= BOUND[dtype]
    one_by_one = np.concatenate([numeric.sinusoidal([p], D, dtype=dtype) for p in positions])
    np.testing.assert_array_equal(table, one_by_one)


@pytest.mark.parametrize("dtype", DTYPES)
def test_threaded_fill_matches_the_single_thread(dtype: Any) -> None:
    n, d = 4 * BLOCK * RADIX + 77, 256  # above 2^20 entries: filled in threads
    assert n * d >= _rotation_table._THREADED_ENTRIES
    table = numeric.sinusoidal(n, d, dtype=dtype)
    rows = np.array([0, BLOCK - 1, BLOCK, RADIX * BLOCK, 2 * RADIX * BLOCK + 5, n - 1])
    np.testing.assert_array_equal(table[rows], numeric.sinusoidal(rows, d, dtype=dtype))
    errors = reference.errors(
        table[rows][:, [0, d - 1]].ravel(), np.repeat(rows, 2), np.tile([0, d - 1], rows.size), d
    )
    assert errors.max() <= BOUND[dtype]


@pytest.mark.parametrize("d", [2048, 3072])  # tiles of 64 rows; of 42, not a divisor of 128
def test_float16_tiles_narrower_than_a_block(d: int) -> None:
    """At widths where one block of rows no longer fits a tile (d/2 * BLOCK > _TILE), the
    float16 fill splits a block into tiles of rows: the same table as float64 rounded to
    float16 once, entry for entry.

    Fault caught: the tile's row count computed as a float, or tiles that skip rows."""
    n = 2 * BLOCK + 5
    assert d // 2 * BLOCK > _rotation_table._TILE
    table = numeric.sinusoidal(n, d, dtype=np.float16)
    np.testing.assert_array_equal(table, numeric.sinusoidal(n, d).astype(np.float16))


@pytest.mark.parametrize("d", [2, D])
def test_values_next_to_minus_one_stay_in_range(d: int) -> None:
    first = NEAR_MINUS_ONE - NEAR_MINUS_ONE % BLOCK
    consecutive = numeric.sinusoidal(np.arange(first, first + 2 * BLOCK), d)
    scattered = numeric.sinusoidal([NEAR_MINUS_ONE, 5], d)
    for row in (consecutive[NEAR_MINUS_ONE - first], scattered[0]):
        assert row[0] == -1.0
        error = reference.errors([row[0]], [NEAR_MINUS_ONE], [0], d)[0]
        assert error <= BOUND[np.float64]
    assert np.abs(consecutive).max() <= 1.0


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_value_in_range(dtype: Any) -> None:
    table = numeric.sinusoidal(RADIX * BLOCK + 5, D, dtype=dtype)
    assert np.abs(table).max() <= 1.0


@pytest.mark.parametrize("where", ["last", "first sampled"])
def test_accuracy_evidence_rejects_a_table_wrong_at_one_position(where: str) -> None:
    """The float64 accuracy claim's check fails for a table wrong in one row only."""
    positions, _ = accuracy.sample_entries(precision_claims.LIMIT, 64, 600, seed=64, largest=32)
    position = precision_claims.LIMIT - 1 if where == "last" else int(positions[-1])
    check = precision_claims._within(ENTRY)
    assert check(numeric.sinusoidal).holds
    assert not check(table_wrong_at(numeric.sinusoidal, position, 1e-12)).holds


def test_row_errors_see_one_wrong_entry() -> None:
    wrong = table_wrong_at(numeric.sinusoidal, 700, 1e-9, column=D - 1)
    errors = accuracy.row_errors(wrong, np.array([3, 700, 4096]), D)
    where = np.unravel_index(np.argmax(errors), errors.shape)
    assert tuple(int(i) for i in where) == (1, D - 1)
    assert errors.max() == pytest.approx(1e-9, rel=1e-6, abs=0)


@pytest.mark.parametrize("d", [64, 4096])
def test_reduced_angles_within_2_to_the_minus_80_turns(d: int) -> None:
    """The anchors' angles p w_i mod 1 turn, within 2^-80 turns (about 5e-24 radians).

    The double-double reduction rounds ``p0 * f_mid`` once (below 2^-83 turns, as the code
    says) and adds a few smaller terms; dropping the frequency's third term ``f_lo`` costs
    up to 2^-56 turns at p = 2^53. (pe._rotation_table's docstring states 1e-28 radians;
    measured: up to about 1.6e-25 radians near 2^53.)
    """
    import mpmath

    from pe import _extended_precision

    positions = np.array([1, 2**26 - 1, 2**26, 10**15 + 7, 3 * 2**51 + 12345, 2**53 - 1, 2**53])
    turns = _extended_precision.frequency_turns(d, 10000.0)
    s, e = _extended_precision._reduced_turns(positions.astype(np.float64), turns)
    with mpmath.workdps(80):
        for i in range(0, d // 2, max(1, d // 32)):
            f = reference.frequency(i, d, dps=80) / (2 * mpmath.pi)
            for j, p in enumerate(positions.tolist()):
                exact = p * f
                got = mpmath.mpf(s[j, i]) + mpmath.mpf(e[j, i])
                gap = (got - exact) - mpmath.nint(got - exact)
                assert abs(gap) <= mpmath.mpf(2) ** -80, (i, p)
