r"""Extended-precision angles: accurate sines and cosines of :math:`\omega_i p` for huge ``p``.

The anchors of the rotation algorithm (:mod:`pe._rotation_table`) are the unit complex
numbers :math:`z_i(p) = \sin \omega_i p + \mathrm{i}\cos \omega_i p`, computed here
(:func:`anchors`) from angles known far beyond float64.

A float64 angle :math:`\omega_i p` is not accurate enough: rounding :math:`\omega_i`
alone moves the angle by up to :math:`2^{-53}\omega_i p` (about ``1e-10`` at
``p = 1e6``). The anchors therefore work in *turns*, :math:`t = p f_i` with
:math:`f_i = \omega_i / 2\pi`, and reduce modulo one turn exactly:

* :math:`f_i` is computed once per ``(d, base)`` with 60-digit decimal arithmetic and
  stored as an unevaluated sum of three doubles ``f_hi + f_mid + f_lo``
  (:func:`frequency_turns`).
* ``f_hi`` is split (Veltkamp) into two 26-bit halves and the integer ``p`` into
  ``p = P1 + P0`` with ``P1`` a multiple of ``2**26``: each partial product has at most
  53 significant bits, so it is *exact* in float64 (no FMA needed), and its fractional
  part ``x - rint(x)`` is exact too. The fractional parts are summed with error-free
  two-sums into a double-double ``s + e`` with ``|s| <= 1/2`` turns (a last whole turn is
  taken off where the low word carries the sum past a half); ``p f_mid`` and ``p f_lo`` are
  added the same way.
* The reduced angle :math:`x = 2\pi(s + e)`, ``|x| <= pi``, is formed as a double-double
  ``x_hi + x_lo`` (Dekker's exact product), and
  :math:`\sin x \approx \sin x_{hi} + x_{lo} \cos x_{hi}`,
  :math:`\cos x \approx \cos x_{hi} - x_{lo} \sin x_{hi}` (the neglected term is below
  :math:`x_{lo}^2/2 < 10^{-31}`).

The angle error is below :math:`2^{-80}` turns (:math:`5.4 \times 10^{-24}` radians) for
every ``p <= 2**53`` and every width: the low word ``e`` stays below :math:`2^{-29}` turns
and takes six additions (``P0 f_mid``, the four two-sums' errors, ``p f_lo``), each within
:math:`2^{-83}` turns, and two products (``P0 f_mid``, ``p f_lo``) within :math:`2^{-84}`;
the frequency itself, within :math:`2^{-150}` (:func:`frequency_turns`), adds below
:math:`2^{-99}` turns (the claim ``anchor-angle-accurate`` measures both against mpmath),
so an anchor's error is that of the library's
``sin``/``cos`` on :math:`[-\pi, \pi]` (:data:`LIBRARY_SINE_ULPS` units in the last place,
measured against mpmath by the claim ``library-sine-accurate``) plus one rounding:
:data:`ANCHOR_ERROR_BOUND`.

Examples
--------
>>> import numpy as np
>>> z = anchors(np.array([0.0, 2.0**40]), frequency_turns(4, 10000.0))
>>> z.shape, z[0, 0]
((2, 2), np.complex128(1j))
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = [
    "ANCHOR_ERROR_BOUND",
    "LIBRARY_SINE_ULPS",
    "TWO_PI_DIGITS",
    "Turns",
    "anchors",
    "frequencies",
    "frequency_turns",
]

Float64Array = npt.NDArray[np.float64]
Complex128Array = npt.NDArray[np.complex128]
#: Frequencies in turns per position as three float64 arrays ``hi, mid, lo``.
Turns = tuple[Float64Array, Float64Array, Float64Array]

#: The accuracy the error model assumes of NumPy's float64 ``sin`` and ``cos`` on
#: :math:`[-\pi, \pi]`, in units in the last place of the result.
LIBRARY_SINE_ULPS = 0.52
#: Bound on an anchor's absolute error: the library's sine or cosine plus one rounding
#: (half a unit in the last place), for values of magnitude below 1: :math:`1.02 \cdot 2^{-53}`.
ANCHOR_ERROR_BOUND = (LIBRARY_SINE_ULPS + 0.5) * 2.0**-53

#: Bound on a reduced angle's error in radians, 2^-80 turns (the module's error model): six
#: additions to the low word (below 2^-29 turns), each within 2^-83 turns, two products
#: within 2^-84 and the frequency's own error, below 2^-99 turns.
ANGLE_BOUND = 2 * math.pi * 2.0**-80

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

#: Anchor entries computed per chunk (temporaries of 64 KiB).
_CHUNK = 8192


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


#: Widths up to this many pairs get one decimal product per pair; wider tables multiply two
#: short decimal tables of three doubles each (:func:`_product_table`), within 2^-150.
_DECIMAL_PAIRS = 1 << 13
#: Pairs per row of the short tables of wide widths: ``i = j + _STEP * k``.
_STEP = 256


def _triple_product(a: Float64Array, b: Float64Array) -> Float64Array:
    r"""Product of two arrays of three-double numbers, as three doubles (rows of ``a``, ``b``).

    The three leading partial products are exact (Dekker), the rest is of relative size
    :math:`2^{-104}` and is summed in float64 (about eight roundings of :math:`2^{-157}`);
    the terms dropped (:math:`a_1 b_2`, :math:`a_2 b_1`, :math:`a_2 b_2`) are below
    :math:`2^{-158}`. So the result is within :math:`2^{-150}` of the exact product,
    relatively, and is renormalised like :func:`_to_doubles`: each double at most half a
    unit in the last place of the one before.

    Examples
    --------
    >>> third = np.array([_to_doubles(Decimal(1) / Decimal(3), 3)])  # 28 digits
    >>> one = _triple_product(np.array([[3.0, 0.0, 0.0]]), third)[0]
    >>> float(one[0]), -1.1e-28 < float(one[1] + one[2]) < -0.9e-28
    (1.0, True)
    """
    p00, e00 = _two_product(a[:, 0], b[:, 0])
    p01, e01 = _two_product(a[:, 0], b[:, 1])
    p10, e10 = _two_product(a[:, 1], b[:, 0])
    s1, t1 = _two_sum(p01, p10)
    s2, t2 = _two_sum(e00, s1)
    rest = ((t1 + t2) + (e01 + e10)) + ((a[:, 0] * b[:, 2] + a[:, 1] * b[:, 1]) + a[:, 2] * b[:, 0])
    hi, m = _two_sum(p00, s2)
    mid, lo = _two_sum(m, rest)
    return np.stack([hi, mid, lo], axis=1)


def _product_table(ratio: Decimal, half: int, scale: Decimal) -> Float64Array:
    r""":math:`\mathrm{scale} \cdot r^i` for ``i < half`` as rows of three doubles (~150 bits).

    Up to :data:`_DECIMAL_PAIRS` pairs, one 60-digit decimal product per pair. Wider, the
    exact :math:`r^{j} \cdot r^{256 k}` (``i = j + 256 k``) of two short decimal tables is
    formed by :func:`_triple_product`: a few thousand decimal products instead of one per
    pair, and a relative error below :math:`2^{-150}` all the same.
    """
    if half <= _DECIMAL_PAIRS:
        out = np.empty((half, 3), dtype=np.float64)
        value = scale
        for i in range(half):
            out[i] = _to_doubles(value, 3)
            value *= ratio
        return out
    low = np.array([_to_doubles(scale * ratio**j, 3) for j in range(_STEP)], dtype=np.float64)
    high_ratio = ratio**_STEP
    high = np.array(
        [_to_doubles(high_ratio**k, 3) for k in range(-(-half // _STEP))], dtype=np.float64
    )
    index = np.arange(half)
    return _triple_product(low[index % _STEP], high[index // _STEP])


@lru_cache(maxsize=32)
def frequency_turns(d_model: int, base: float) -> Turns:
    r"""Frequencies in turns per position, :math:`f_i = \mathrm{base}^{-2i/d} / 2\pi`, to ~150 bits.

    Computed with 60-digit decimal arithmetic (:math:`r = \mathrm{base}^{-2/d}` once, then
    :math:`\omega_i = r^i` by repeated multiplication, relative error below
    :math:`i \cdot 10^{-58}`; more than 8192 pairs by an exact product of two short tables,
    :func:`_product_table`, within :math:`2^{-150}`) and returned as three float64 arrays
    ``hi, mid, lo`` with :math:`f_i \approx hi_i + mid_i + lo_i`, each term the rounded
    remainder of the previous ones. At :math:`p \le 2^{53}` the angle :math:`p f_i` gains
    an error below :math:`2^{-99}` turns from it. The arrays are read-only and cached per
    ``(d_model, base)``.

    Parameters
    ----------
    d_model
        Even width ``>= 2`` (not validated here: callers validate).
    base
        Base of the frequency law, ``> 1``.
    """
    with localcontext() as ctx:
        ctx.prec = 60
        ratio = (Decimal(-2) * Decimal(base).ln() / Decimal(d_model)).exp()
        out = _product_table(ratio, d_model // 2, 1 / Decimal(TWO_PI_DIGITS))
    hi, mid, lo = (np.ascontiguousarray(column) for column in out.T)
    for column in (hi, mid, lo):
        column.setflags(write=False)
    return hi, mid, lo


@lru_cache(maxsize=64)
def frequencies(d_model: int, base: float) -> Float64Array:
    r"""The frequencies :math:`\omega_i = \mathrm{base}^{-2i/d}` correctly rounded to float64.

    The same 60-digit decimal arithmetic as :func:`frequency_turns` (:math:`r =
    \mathrm{base}^{-2/d}` once, then :math:`r^i`, three doubles per pair), rounded once:
    the result is the nearest double to the exact value (but within :math:`2^{-100}` of a
    tie), on every IEEE 754 machine alike, whatever its ``pow``. Read-only and cached per
    ``(d_model, base)``.
    """
    with localcontext() as ctx:
        ctx.prec = 60
        ratio = (Decimal(-2) * Decimal(base).ln() / Decimal(d_model)).exp()
        table = _product_table(ratio, d_model // 2, Decimal(1))
    out = table[:, 0] + (table[:, 1] + table[:, 2])
    out.setflags(write=False)
    return out


def _reduced_turns(positions: Float64Array, turns: Turns) -> tuple[Float64Array, Float64Array]:
    """``p * f_i`` modulo 1 as a double-double ``s + e``, ``s`` in ``[-1/2, 1/2]``.

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
    low = e - (total - s)
    # |e| < 2**-29 can carry s + e past half a turn (p = 6117317237380742, pair 4 of d = 512
    # does): one more whole turn off. Exact (Sterbenz): only where |total| >= 1/2.
    return total - np.rint(total), low


def anchors(positions: Float64Array, turns: Turns) -> Complex128Array:
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
    turns: Turns,
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
