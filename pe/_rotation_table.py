r"""The sinusoidal table computed by the rotation identity: fast, with a position-free error.

The table entry of pair ``i`` at position ``p`` is a unit complex number,

.. math::

    z_i(p) = \sin \omega_i p + \mathrm{i} \cos \omega_i p ,

and moving by ``q`` positions multiplies it by a unit complex number that does not
depend on ``p`` (the rotation identity, written with complex numbers):

.. math::

    z_i(p + q) = z_i(p)\,\bigl(\cos \omega_i q - \mathrm{i} \sin \omega_i q\bigr).

The algorithm writes every position as ``p = q + r`` with ``q`` a multiple of
:data:`BLOCK` and ``0 <= r < BLOCK``. It computes, *accurately*, the anchors
:math:`z_i(r)` for one block of positions and :math:`z_i(q)` for every block start,
then fills each entry with **one** complex multiplication of two anchors, in float64,
rounded once to the output dtype. No entry is made by chaining multiplications, so
rounding errors do not accumulate from block to block, and an entry does not depend
on which other rows were asked for (the same position always gives the same bits).

Accurate anchors
----------------
The anchors are computed from angles reduced modulo :math:`2\pi` in extended precision
(:mod:`pe._extended_precision`): their error is at most
:data:`pe._extended_precision.ANCHOR_ERROR_BOUND`, about one unit in the last place.

Error model
-----------
Let :math:`u = 2^{-53}` (unit roundoff of float64).

* **Anchors**: the angle error is below :math:`2^{-80}` turns (about
  :math:`5 \times 10^{-24}` radians) for every ``p <= 2**53`` (claim
  ``anchor-angle-accurate``), so an anchor's error is that of the library's
  ``sin``/``cos`` on :math:`[-\pi, \pi]` (within 0.52 units in the last place, claim
  ``library-sine-accurate``) plus one rounding: :math:`\delta \le 1.02 \cdot 2^{-53}` in
  absolute value.
* **Entries**: one complex product :math:`(s + \mathrm{i}c)(a - \mathrm{i}b)` with
  :math:`s^2 + c^2 = a^2 + b^2 = 1` adds the anchors' errors with weights
  :math:`|a| + |b| \le \sqrt2` and :math:`|s| + |c| \le \sqrt2`, plus three roundings
  of quantities at most 1: the float64 table is within

  .. math::

      2\sqrt2\,\delta + 3 \cdot 2^{-54} \approx 4.9 \times 10^{-16}

  of the exact value, at **every** position up to ``2**53`` (no growth with position).
* **Lower dtypes**: the float64 product is rounded once to the output dtype. For float32
  and float16 tables the anchors themselves are *composed* (:data:`RADIX`): the anchor of
  ``p`` is the product of the accurate anchors of ``p mod 16u`` and ``p - p mod 16u``
  (``u = 1`` for the block, ``u = BLOCK`` for block starts), which cuts the number of
  sine/cosine evaluations from ``B + n/B`` rows to about ``32 + n/(16B)`` rows at the price
  of one more product: the float64 value is then within
  :math:`2\sqrt2 \cdot 4.9 \times 10^{-16} + 3 \cdot 2^{-54} < 1.6 \times 10^{-15}`, so
  float32 entries are within :math:`2^{-25} + 1.6 \times 10^{-15}` (half a unit in the
  last place of numbers just below 1: under ``6e-8``) and float16 entries within
  :math:`2^{-12} + 1.6 \times 10^{-15}`.

Speed and memory
----------------
The output is viewed as complex numbers (complex128 for float64, complex64 for float32),
so the fill is one broadcast ``numpy.multiply`` per block group: for float32, NumPy's
buffered loop forms each float64 product in a small buffer and rounds it straight into the
output. float16 has no complex view and goes through small float64 tiles. Large tables are
split between up to four threads (NumPy releases the GIL in its loops), which does not
change any bit of the result. Extra memory is the anchors (``B + n/B`` rows of ``d/2``
complex numbers) and at most one tile of scratch per thread.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from pe._extended_precision import ANCHOR_ERROR_BOUND, Turns, anchors, frequency_turns

__all__ = ["BLOCK", "ENTRY_ERROR_BOUND", "RADIX", "table", "table_range"]

Float64Array = npt.NDArray[np.float64]
Complex128Array = npt.NDArray[np.complex128]

#: Rows per block: an entry at position ``p`` is ``anchor(p % BLOCK) * anchor(p - p % BLOCK)``.
BLOCK = 128

#: Bound on a float64 table entry's absolute error (module docstring, "Error model").
ENTRY_ERROR_BOUND = 2.0 * math.sqrt(2.0) * ANCHOR_ERROR_BOUND + 3.0 * 2.0**-54

#: Complex entries per tile of the fill (a tile and its float64 scratch stay in cache).
_TILE = 65536
#: Tables with fewer entries than this are filled by the calling thread alone.
_THREADED_ENTRIES = 1 << 20


def _anchors_in_parallel(
    positions: Float64Array,
    turns: Turns,
    pool: ThreadPoolExecutor | None,
) -> Complex128Array:
    """:func:`anchors`, row chunks spread over ``pool`` (the result does not depend on it)."""
    if pool is None or positions.size < 8:
        return anchors(positions, turns)
    out = np.empty((positions.size, turns[0].size), dtype=np.complex128)
    step = -(-positions.size // _pool_size(pool))

    def run(start: int) -> None:
        out[start : start + step] = anchors(positions[start : start + step], turns)

    list(pool.map(run, range(0, positions.size, step)))
    return out


def _pool_size(pool: ThreadPoolExecutor) -> int:
    return int(getattr(pool, "_max_workers", 1))


def _workers(entries: int) -> int:
    if entries < _THREADED_ENTRIES:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


#: The complex dtype whose pairs are the (sin, cos) columns of a float table.
_COMPLEX_VIEW: dict[Any, Any] = {np.float64: np.complex128, np.float32: np.complex64}


def _fill_blocks(
    out: npt.NDArray[Any],
    base_rows: Complex128Array,
    starts: Complex128Array,
    pool: ThreadPoolExecutor | None,
) -> None:
    """``out[k*B + r] = base_rows[r] * conj-rotation(starts[k])`` for full blocks, tiled.

    ``out`` has shape ``(m * B, d)`` in any float dtype; ``base_rows`` ``(B, d/2)`` are the
    anchors of positions ``0 .. B-1``; ``starts`` ``(m, d/2)`` the shift factors
    :math:`\\cos \\omega_i q - \\mathrm{i} \\sin \\omega_i q` of the block starts.
    """
    m, rows, half = starts.shape[0], base_rows.shape[0], base_rows.shape[1]
    width = 2 * half
    out3 = out.reshape(m, rows, width)
    pairs = _COMPLEX_VIEW.get(out.dtype.type)
    out3c = None if pairs is None else out.view(pairs).reshape(m, rows, half)
    tile_rows = max(1, min(rows, _TILE // half))
    tile_groups = max(1, _TILE // (tile_rows * half))

    def run(k_start: int, k_stop: int) -> None:
        if out3c is not None and out.dtype == np.float32:
            # NumPy's buffered loop forms the complex128 product in a small buffer and
            # rounds it once into the complex64 view of the output.
            factors = starts[k_start:k_stop, None, :]
            np.multiply(base_rows[None], factors, out=out3c[k_start:k_stop], casting="same_kind")
            return
        if out3c is not None:
            # float64: the product is the table, clipped to [-1, 1] while in cache.
            groups = max(1, _TILE // (rows * half))
            for k0 in range(k_start, k_stop, groups):
                k1 = min(k_stop, k0 + groups)
                np.multiply(base_rows[None], starts[k0:k1, None, :], out=out3c[k0:k1])
                region = out3[k0:k1]
                np.clip(region, -1.0, 1.0, out=region)
            return
        # float16 has no complex view: tiles of float64 products, each rounded into place.
        scratch = np.empty((tile_groups, tile_rows, half), np.complex128)
        for r0 in range(0, rows, tile_rows):
            r1 = min(rows, r0 + tile_rows)
            source = base_rows[None, r0:r1, :]
            for k0 in range(k_start, k_stop, tile_groups):
                k1 = min(k_stop, k0 + tile_groups)
                block = scratch[: k1 - k0, : r1 - r0]
                np.multiply(source, starts[k0:k1, None, :], out=block)
                np.copyto(out3[k0:k1, r0:r1], block.view(np.float64), casting="same_kind")

    if pool is None:
        run(0, m)
        return
    step = -(-m // _pool_size(pool))
    futures = [pool.submit(run, k, min(m, k + step)) for k in range(0, m, step)]
    for future in futures:
        future.result()


def _shift_factors(start_anchors: Complex128Array) -> Complex128Array:
    """From :math:`\\sin + \\mathrm{i}\\cos` of ``q`` to :math:`\\cos - \\mathrm{i}\\sin` (exact)."""
    factors = np.empty_like(start_anchors)
    factors.real = start_anchors.imag
    factors.imag = -start_anchors.real
    return factors


#: Composed anchors (float32 and float16 tables) split a position at this many units.
RADIX = 16


def _anchor_set(
    points: Float64Array,
    unit: int,
    turns: Turns,
    pool: ThreadPoolExecutor | None,
    composed: bool,
) -> Complex128Array:
    """Anchors of ``points`` (multiples of ``unit``): accurate, or composed of two accurate ones.

    Composed (for tables rounded to float32 or float16): ``p = low + high`` with
    ``low = p mod (RADIX * unit)``; the anchor is the product of the accurate anchors of
    ``low`` and ``high``, so ``RADIX + points.size / RADIX`` accurate rows serve all points,
    at the price of one more rounded product (error below ``ENTRY_ERROR_BOUND``).
    """
    if not composed:
        return _anchors_in_parallel(points, turns, pool)
    low = np.fmod(points, float(RADIX * unit))
    lows, low_index = np.unique(low, return_inverse=True)
    highs, high_index = np.unique(points - low, return_inverse=True)
    low_anchors = _anchors_in_parallel(lows, turns, pool)
    high_factors = _shift_factors(_anchors_in_parallel(highs, turns, pool))
    return np.asarray(
        low_anchors[low_index.ravel()] * high_factors[high_index.ravel()], dtype=np.complex128
    )


def table(
    positions: npt.NDArray[np.int64], d_model: int, base: float, dtype: np.dtype[Any]
) -> npt.NDArray[Any]:
    r"""The interleaved table ``PE[j] = (sin, cos)(omega_i * positions[j])`` by the rotation algorithm.

    Parameters
    ----------
    positions
        1-D int64 array of integers in ``[0, 2**53]`` (validated by the caller).
    d_model
        Even width ``>= 2``.
    base
        Base of the frequency law, ``> 1``.
    dtype
        float16, float32 or float64.

    Returns
    -------
    numpy.ndarray
        Shape ``(positions.size, d_model)``, entries within :data:`ENTRY_ERROR_BOUND` of the
        exact values before the single rounding to ``dtype`` (module docstring).
    """
    n = positions.size
    first = int(positions[0])
    consecutive = first % BLOCK == 0 and (
        n == 1 or (int(positions[-1]) - first == n - 1 and bool(np.all(np.diff(positions) == 1)))
    )
    if consecutive:
        return table_range(first, n, d_model, base, dtype)
    turns = frequency_turns(d_model, float(base))
    out = np.empty((n, d_model), dtype=dtype)
    with _pool(n * d_model) as pool:
        _scattered(out, positions, turns, pool, out.dtype != np.float64)
    return out


class _pool:
    """Up to four threads for a large table (None for a small one), shut down on exit."""

    def __init__(self, entries: int) -> None:
        workers = _workers(entries)
        self.pool = ThreadPoolExecutor(workers) if workers > 1 else None

    def __enter__(self) -> ThreadPoolExecutor | None:
        return self.pool

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def table_range(
    first: int, n: int, d_model: int, base: float, dtype: np.dtype[Any]
) -> npt.NDArray[Any]:
    """The rows of positions ``first .. first + n - 1``, ``first`` a multiple of :data:`BLOCK`.

    The same bits as :func:`table` of those positions. For ``first = 0`` (a count of
    positions, the common case) the anchors come from :func:`_first_anchors`, cached per
    ``(d, base, dtype kind)`` like an FFT plan, so a small table costs little more than its
    fill.
    """
    out = np.empty((n, d_model), dtype=dtype)
    composed = out.dtype != np.float64
    count = -(-n // BLOCK)
    with _pool(n * d_model) as pool:
        cached, planned = None, 1 << (count - 1).bit_length()  # block starts, rounded up
        if first == 0 and (BLOCK + planned) * d_model * 8 <= _CACHED_ANCHOR_BYTES:
            cached = _first_anchors(d_model, float(base), composed, planned)
        if cached is not None:
            base_rows, factors = cached[0][: min(BLOCK, n)], cached[1][:count]
        else:
            base_rows, factors = _range_anchors(
                first, n, frequency_turns(d_model, float(base)), pool, composed
            )
        m, rest = divmod(n, BLOCK)
        if m:
            _fill_blocks(out[: m * BLOCK], base_rows, factors[:m], pool)
        if rest:
            _fill_blocks(out[m * BLOCK :], base_rows[:rest], factors[m:], None)
    return out


#: Largest anchor set (block rows and block starts) kept by :func:`_first_anchors`.
_CACHED_ANCHOR_BYTES = 1 << 22


@lru_cache(maxsize=8)
def _first_anchors(
    d_model: int, base: float, composed: bool, count: int
) -> tuple[Complex128Array, Complex128Array]:
    """Anchors of rows ``0 .. BLOCK-1`` and shift factors of ``count`` block starts from 0.

    Read-only and cached (at most 8 sets of at most 4 MiB). Each anchor depends on its own
    position only, so a table of fewer rows or blocks uses a slice of the same bits.
    """
    turns = frequency_turns(d_model, base)
    rows, factors = _range_anchors(0, count * BLOCK, turns, None, composed)
    for array in (rows, factors):
        array.setflags(write=False)
    return rows, factors


def _composed_ranges(
    rows: int, count: int, first: int, turns: Turns
) -> tuple[Complex128Array, Complex128Array]:
    """Composed anchors of ``0 .. rows-1`` and of ``first + BLOCK * (0 .. count-1)``.

    The same products as :func:`_anchor_set` with ``composed=True`` (so the same bits), but
    with all accurate anchors evaluated in one call and the products formed by broadcasting
    (the low parts cycle through ``RADIX`` values, the high parts step every ``RADIX``
    points) instead of gathers. ``first`` must be a multiple of ``RADIX * BLOCK``.
    """
    sizes = []
    points = []
    for total, unit, start in ((rows, 1, 0), (count, BLOCK, first)):
        lows = unit * np.arange(min(RADIX, total), dtype=np.float64)
        highs = start + RADIX * unit * np.arange(-(-total // RADIX), dtype=np.float64)
        sizes.append((total, lows.size, highs.size))
        points += [lows, highs]
    accurate = anchors(np.concatenate(points), turns)
    results = []
    offset = 0
    for total, n_low, n_high in sizes:
        low = accurate[offset : offset + n_low]
        high = _shift_factors(accurate[offset + n_low : offset + n_low + n_high])
        offset += n_low + n_high
        product = low[None, :, :] * high[:, None, :]  # the operands in _anchor_set's order
        results.append(product.reshape(-1, low.shape[1])[:total])
    return results[0], results[1]


def _range_anchors(
    first: int, n: int, turns: Turns, pool: ThreadPoolExecutor | None, composed: bool
) -> tuple[Complex128Array, Complex128Array]:
    """Anchors of rows ``0 .. min(BLOCK, n) - 1`` and shift factors of the block starts of
    ``first .. first + n - 1`` (``first`` a multiple of :data:`BLOCK`)."""
    rows = min(BLOCK, n)
    count = -(-n // BLOCK)
    if composed and first % (RADIX * BLOCK) == 0:
        base_rows, start_anchors = _composed_ranges(rows, count, first, turns)
    else:
        base_rows = _anchor_set(np.arange(rows, dtype=np.float64), 1, turns, pool, composed)
        starts = first + BLOCK * np.arange(count, dtype=np.float64)
        start_anchors = _anchor_set(starts, BLOCK, turns, pool, composed)
    return base_rows, _shift_factors(start_anchors)


def _scattered(
    out: npt.NDArray[Any],
    positions: npt.NDArray[np.int64],
    turns: Turns,
    pool: ThreadPoolExecutor | None,
    composed: bool,
) -> None:
    """Rows at arbitrary positions: anchors for the distinct block starts, then one product each."""
    starts, which = np.unique(positions - positions % BLOCK, return_inverse=True)
    residues = positions % BLOCK
    used, where = np.unique(residues, return_inverse=True)
    base_rows = _anchor_set(used.astype(np.float64), 1, turns, pool, composed)
    factors = _shift_factors(_anchor_set(starts.astype(np.float64), BLOCK, turns, pool, composed))
    half = base_rows.shape[1]
    chunk = max(1, _TILE // half)
    direct = out.dtype == np.float64
    for j0 in range(0, out.shape[0], chunk):
        j1 = min(out.shape[0], j0 + chunk)
        product = base_rows[where[j0:j1]] * factors[which[j0:j1]]
        values = product.view(np.float64)
        if direct:
            np.clip(values, -1.0, 1.0, out=values)
        out[j0:j1] = values
