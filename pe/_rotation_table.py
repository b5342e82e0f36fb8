r"""The sinusoidal table computed by the rotation identity: fast and correctly rounded.

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
A float64 angle :math:`\omega_i p` is not accurate enough: rounding :math:`\omega_i`
alone moves the angle by up to :math:`2^{-53}\omega_i p` (about ``1e-10`` at
``p = 1e6``). The anchors therefore work in *turns*, :math:`t = p f_i` with
:math:`f_i = \omega_i / 2\pi`, and reduce modulo one turn exactly:

* :math:`f_i` is computed once per ``(d, base)`` with 60-digit decimal arithmetic and
  stored as an unevaluated sum of three doubles ``f_hi + f_mid + f_lo``.
* ``f_hi`` is split (Veltkamp) into two 26-bit halves and the integer ``p`` into
  ``p = P1 + P0`` with ``P1`` a multiple of ``2**26``: each partial product has at most
  53 significant bits, so it is *exact* in float64 (no FMA needed), and its fractional
  part ``x - rint(x)`` is exact too. The fractional parts are summed with error-free
  two-sums into a double-double ``s + e`` in about ``[-1/2, 1/2]`` turns; ``p f_mid``
  and ``p f_lo`` are added the same way.
* The reduced angle :math:`x = 2\pi(s + e)`, ``|x| <= pi``, is formed as a double-double
  ``x_hi + x_lo`` (Dekker's exact product), and
  :math:`\sin x \approx \sin x_{hi} + x_{lo} \cos x_{hi}`,
  :math:`\cos x \approx \cos x_{hi} - x_{lo} \sin x_{hi}` (the neglected term is below
  :math:`x_{lo}^2/2 < 10^{-31}`).

Error model
-----------
Let :math:`u = 2^{-53}` (unit roundoff of float64).

* **Anchors**: the angle error is below :math:`10^{-28}` radians for every ``p <= 2**53``
  (the frequency carries about 150 bits), so an anchor's error is that of the
  library's ``sin``/``cos`` on :math:`[-\pi, \pi]` (measured within 0.52 units in the
  last place against mpmath; see the tests) plus one rounding:
  :math:`\delta \le 1.02 \cdot 2^{-53}` in absolute value.
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
from decimal import Decimal, localcontext
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "BLOCK",
    "ENTRY_ERROR_BOUND",
    "anchors",
    "frequency_turns",
    "table",
]

Float64Array = npt.NDArray[np.float64]
Complex128Array = npt.NDArray[np.complex128]

#: Rows per block: an entry at position ``p`` is ``anchor(p % BLOCK) * anchor(p - p % BLOCK)``.
BLOCK = 128

#: Bound on an anchor's absolute error: 0.52 ulp of the library sine/cosine plus one rounding.
ANCHOR_ERROR_BOUND = 1.02 * 2.0**-53

#: Bound on a float64 table entry's absolute error (module docstring, "Error model").
ENTRY_ERROR_BOUND = 2.0 * math.sqrt(2.0) * ANCHOR_ERROR_BOUND + 3.0 * 2.0**-54

#: 2 pi to 65 significant digits (checked against mpmath by the tests).
TWO_PI_DIGITS = "6.2831853071795864769252867665590057683943387987502116419498891846"

_TWO_PI_HI = float(Decimal(TWO_PI_DIGITS))
_TWO_PI_LO = float(Decimal(TWO_PI_DIGITS) - Decimal(_TWO_PI_HI))
_SPLITTER = 2.0**27 + 1.0  # Veltkamp: splits a double into two halves of <= 26 bits
_TWO_PI_SPLIT = (
    _TWO_PI_HI * _SPLITTER - (_TWO_PI_HI * _SPLITTER - _TWO_PI_HI),
    _TWO_PI_HI - (_TWO_PI_HI * _SPLITTER - (_TWO_PI_HI * _SPLITTER - _TWO_PI_HI)),
)
_HALF_SPLIT = 2.0**26  # integer positions are split as P1 (multiple of 2**26) + P0

#: Complex entries per tile of the fill (a tile and its float64 scratch stay in cache).
_TILE = 65536
#: Anchor entries computed per chunk (temporaries of 64 KiB).
_CHUNK = 8192
#: Tables with fewer entries than this are filled by the calling thread alone.
_THREADED_ENTRIES = 1 << 20


def _split(x: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Veltkamp split ``x = hi + lo`` with ``hi`` and ``lo`` of at most 26 significant bits."""
    c = x * _SPLITTER
    hi = c - (c - x)
    return hi, x - hi


def _two_sum(a: Float64Array, b: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Knuth's error-free sum: ``a + b = s + e`` exactly, ``s = fl(a + b)``."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fraction(x: Float64Array) -> Float64Array:
    """``x - rint(x)`` in ``[-1/2, 1/2]``: exact for every double."""
    return x - np.rint(x)


def _to_doubles(value: Decimal, parts: int) -> list[float]:
    """``value`` as ``parts`` doubles whose sum approximates it (each the rounded remainder)."""
    doubles = []
    for _ in range(parts):
        double = float(value)
        doubles.append(double)
        value -= Decimal(double)
    return doubles


def _two_product(a: Float64Array, b: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Dekker's error-free product without FMA: ``a * b = p + e`` exactly."""
    p = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


#: Widths up to this many pairs get 150-bit frequencies (one decimal product per pair);
#: wider tables combine two decimal tables in double-double arithmetic (104 bits).
_DECIMAL_PAIRS = 1 << 13


@lru_cache(maxsize=32)
def frequency_turns(d_model: int, base: float) -> tuple[Float64Array, Float64Array, Float64Array]:
    r"""Frequencies in turns per position, :math:`f_i = \mathrm{base}^{-2i/d} / 2\pi`, to ~150 bits.

    Computed with 60-digit decimal arithmetic (:math:`r = \mathrm{base}^{-2/d}` once, then
    :math:`\omega_i = r^i` by repeated multiplication, relative error below
    :math:`i \cdot 10^{-58}`) and returned as three float64 arrays ``hi, mid, lo`` with
    :math:`f_i \approx hi_i + mid_i + lo_i`, each term the rounded remainder of the
    previous ones. For more than 8192 pairs, :math:`f_i = (r^j / 2\pi) \cdot r^{256 k}`
    (``i = j + 256 k``) is formed from two short decimal tables by an exact double-double
    product instead: 104 bits, so the angle gains an error below
    :math:`2^{-103}\,\omega_i p` (under ``1e-19`` radians for ``p < 2**40``).
    The arrays are read-only and cached per ``(d_model, base)``.

    Parameters
    ----------
    d_model
        Even width ``>= 2`` (not validated here: callers validate).
    base
        Base of the frequency law, ``> 1``.
    """
    half = d_model // 2
    with localcontext() as ctx:
        ctx.prec = 60
        ratio = (Decimal(-2) * Decimal(base).ln() / Decimal(d_model)).exp()
        inverse_two_pi = 1 / Decimal(TWO_PI_DIGITS)
        if half <= _DECIMAL_PAIRS:
            out = np.empty((half, 3), dtype=np.float64)
            turns = inverse_two_pi
            for i in range(half):
                out[i] = _to_doubles(turns, 3)
                turns *= ratio
        else:
            step = 256
            low = np.array(
                [_to_doubles(inverse_two_pi * ratio**j, 2) for j in range(step)], dtype=np.float64
            )
            high_ratio = ratio**step
            high = np.array(
                [_to_doubles(high_ratio**k, 2) for k in range(-(-half // step))], dtype=np.float64
            )
            index = np.arange(half)
            a, b = low[index % step], high[index // step]
            product, error = _two_product(a[:, 0], b[:, 0])
            error = error + (a[:, 0] * b[:, 1] + a[:, 1] * b[:, 0])
            total = product + error
            out = np.stack([total, error - (total - product), np.zeros(half)], axis=1)
    hi, mid, lo = (np.ascontiguousarray(column) for column in out.T)
    for column in (hi, mid, lo):
        column.setflags(write=False)
    return hi, mid, lo


def _reduced_turns(
    positions: Float64Array, turns: tuple[Float64Array, Float64Array, Float64Array]
) -> tuple[Float64Array, Float64Array]:
    """``p * f_i`` modulo 1 as a double-double ``s + e``, ``s`` in about ``[-1/2, 1/2]``.

    ``positions`` holds non-negative integers ``<= 2**53`` (exact in float64); the result
    has shape ``(positions.size, d/2)``.
    """
    f_hi, f_mid, f_lo = turns
    a1, a0 = _split(f_hi)
    b1, b0 = _split(f_mid)
    p = positions[:, None]
    p0 = np.fmod(p, _HALF_SPLIT)  # < 2**26: at most 26 significant bits
    p1 = p - p0  # a multiple of 2**26 below 2**53: at most 27 significant bits
    # Every partial product has at most 53 significant bits: exact, and so is its
    # fractional part. A position's result does not depend on the other positions.
    s, e = _two_sum(_fraction(p0 * a1), _fraction(p0 * a0))
    # p0 * f_mid < 2**-30 turns: its rounding error is below 2**-83 turns.
    e = e + p0 * f_mid
    if bool(np.any(p1)):
        # Positions >= 2**26: p1 * f_mid reaches 1/8 turn, so it is split exactly too.
        # Where p1 == 0 these terms are exact zeros and change no bit of (s, e): skipping
        # them for a chunk of small positions gives the same result.
        for term in (p1 * a1, p1 * a0, p1 * b1, p1 * b0):
            s, err = _two_sum(_fraction(s), _fraction(term))
            e = e + err
    e = e + p * f_lo
    s = _fraction(s)
    total = s + e
    return total, e - (total - s)


def anchors(
    positions: Float64Array, turns: tuple[Float64Array, Float64Array, Float64Array]
) -> Complex128Array:
    r"""Accurate :math:`\sin \omega_i p + \mathrm{i}\cos \omega_i p` for the given positions.

    Parameters
    ----------
    positions
        1-D float64 array of non-negative integers ``<= 2**53``.
    turns
        The frequencies from :func:`frequency_turns`.

    Returns
    -------
    numpy.ndarray
        Complex128 array of shape ``(positions.size, d/2)``; each real and imaginary part
        within :data:`ANCHOR_ERROR_BOUND` of the exact value.
    """
    points = np.asarray(positions, dtype=np.float64)
    half = turns[0].size
    out = np.empty((points.size, half), dtype=np.complex128)
    # Row chunks keep every temporary small and in cache (large temporaries cost a page
    # fault per 4 KiB, which dominates this arithmetic).
    step = max(1, _CHUNK // half)
    for start in range(0, points.size, step):
        _anchor_rows(points[start : start + step], turns, out[start : start + step])
    return out


def _anchor_rows(
    points: Float64Array,
    turns: tuple[Float64Array, Float64Array, Float64Array],
    out: Complex128Array,
) -> None:
    s, e = _reduced_turns(points, turns)
    # x = 2 pi (s + e) as a double-double: Dekker's exact product of 2 pi's high part and s.
    x_hi = _TWO_PI_HI * s
    s_hi, s_lo = _split(s)
    x_lo = ((_TWO_PI_SPLIT[0] * s_hi - x_hi) + _TWO_PI_SPLIT[0] * s_lo) + _TWO_PI_SPLIT[1] * s_hi
    x_lo = x_lo + _TWO_PI_SPLIT[1] * s_lo + (_TWO_PI_HI * e + _TWO_PI_LO * s)
    sin_hi = np.sin(x_hi)
    cos_hi = np.cos(x_hi)
    out.real = sin_hi + x_lo * cos_hi
    out.imag = cos_hi - x_lo * sin_hi


def _anchors_in_parallel(
    positions: Float64Array,
    turns: tuple[Float64Array, Float64Array, Float64Array],
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
    complex_view: dict[Any, Any] = {np.float64: np.complex128, np.float32: np.complex64}
    pairs = complex_view.get(out.dtype.type)
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
    turns: tuple[Float64Array, Float64Array, Float64Array],
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
    turns = frequency_turns(d_model, float(base))
    n = positions.size
    out = np.empty((n, d_model), dtype=dtype)
    workers = _workers(n * d_model)
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        first = int(positions[0])
        consecutive = first % BLOCK == 0 and (
            n == 1
            or (int(positions[-1]) - first == n - 1 and bool(np.all(np.diff(positions) == 1)))
        )
        composed = out.dtype != np.float64
        if consecutive:
            _consecutive(out, first, turns, pool, composed)
        else:
            _scattered(out, positions, turns, pool, composed)
    finally:
        if pool is not None:
            pool.shutdown()
    return out


def _composed_ranges(
    rows: int, count: int, first: int, turns: tuple[Float64Array, Float64Array, Float64Array]
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
        product = high[:, None, :] * low[None, :, :]
        results.append(product.reshape(-1, low.shape[1])[:total])
    return results[0], results[1]


def _consecutive(
    out: npt.NDArray[Any],
    first: int,
    turns: tuple[Float64Array, Float64Array, Float64Array],
    pool: ThreadPoolExecutor | None,
    composed: bool,
) -> None:
    """Rows ``first, first + 1, ...`` with ``first`` a multiple of :data:`BLOCK`."""
    n = out.shape[0]
    rows = min(BLOCK, n)
    m, rest = divmod(n, BLOCK)
    count = m + (1 if rest else 0)
    if composed and first % (RADIX * BLOCK) == 0:
        base_rows, start_anchors = _composed_ranges(rows, count, first, turns)
    else:
        base_rows = _anchor_set(np.arange(rows, dtype=np.float64), 1, turns, pool, composed)
        starts = first + BLOCK * np.arange(count, dtype=np.float64)
        start_anchors = _anchor_set(starts, BLOCK, turns, pool, composed)
    factors = _shift_factors(start_anchors)
    if m:
        _fill_blocks(out[: m * BLOCK], base_rows, factors[:m], pool)
    if rest:
        _fill_blocks(out[m * BLOCK :], base_rows[:rest], factors[m:], None)


def _scattered(
    out: npt.NDArray[Any],
    positions: npt.NDArray[np.int64],
    turns: tuple[Float64Array, Float64Array, Float64Array],
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
