r"""What a RoPE function does, read from its outputs: pairing, frequencies, gain, base.

:func:`pe.testing.assert_rope_relative` tests a user's function ``fn(x, positions)`` it
knows nothing about. :func:`probe` rotates the basis vectors :math:`e_j` at the positions
:data:`PROBE_POSITIONS` and reads, from where each one goes:

- which columns turn together (the **pairing**): column ``j``'s partner is the column it
  moves into most over all probe positions; a column that moves into none is left in place
  (a partial rotary, or no rotation), one that moves into two is not a rotation of pairs;
- each pair's **angle** :math:`\theta_p = \operatorname{atan2}(y_b, y_a)` for
  :math:`y = fn(e_a, p)`, and from it the **frequency**, coarse to fine: the angle at
  position 1 fixes it within :math:`\pi`, each larger position refines it, its :math:`2\pi`
  turns counted from the estimate so far;
- the **gain** :math:`|y|`: 1 for a rotation; YaRN multiplies by a constant;
- the **base**: scaled variants (position interpolation, NTK, YaRN, Llama 3.1) change some
  or all frequencies, but keep the ratio of neighbouring pairs
  :math:`\omega_{i+1}/\omega_i = b^{-2/r}` (``r`` the rotated width) wherever they leave
  the law alone (Llama 3.1 and YaRN leave the fast and the slow pairs geometric, position
  interpolation divides all by one factor, NTK changes the base itself). The base found is
  that of the largest group of ratios that agree, within their measurement errors.

Error model
-----------
With :math:`\varepsilon_o` the epsilon of the dtype ``fn`` returns and
:math:`\varepsilon_a` that of the dtype it forms angles in, an angle read at position ``p``
is off by at most about :math:`2\varepsilon_o + \varepsilon_a\,|\omega| p` radians
(rounding of the output, of the angle); a frequency read at ``p`` is off by that over
``p``, relatively :math:`\sigma_i = (2\varepsilon_o / |\omega_i| p + \varepsilon_a)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "PROBE_POSITIONS",
    "Probe",
    "RopeFunction",
    "base_agrees",
    "base_of",
    "call",
    "probe",
]

#: A RoPE function under test: ``fn(x, positions)`` with ``x`` of shape ``(n, d)`` and one
#: integer position per row, returning the rotated ``(n, d)`` array.
RopeFunction = Callable[[npt.NDArray[np.float64], npt.NDArray[np.int64]], npt.ArrayLike]

#: Positions at which the basis vectors are rotated: from 1 (every frequency below π is
#: read without ambiguity) by factors of 4 to 2024 (where the relative check ends).
PROBE_POSITIONS = np.array([1, 4, 16, 64, 256, 1024, 2024], dtype=np.int64)
#: A move larger than this many output epsilons (times the gain) is a move.
MOVE_EPS = 16


def call(
    fn: RopeFunction, x: npt.NDArray[np.float64], positions: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], float]:
    """``fn(x, positions)`` as float64, and the epsilon of the dtype ``fn`` returned (arrays
    of other libraries, a PyTorch tensor that requires grad included, are read to NumPy)."""
    from pe._arrays import host_copy

    try:
        out, stored = host_copy(fn(x.copy(), positions.copy()))
    except TypeError as error:
        raise AssertionError(f"fn(x, positions) returned no array: {error}") from None
    if out.shape != x.shape:
        raise AssertionError(
            f"fn(x, positions) returned shape {out.shape} for x of shape {x.shape}"
        )
    if out.dtype.kind != "f":
        raise AssertionError(f"fn(x, positions) returned {out.dtype} values, not floats")
    eps = 2.0**-7 if stored == "bfloat16" else float(np.finfo(out.dtype).eps)
    return out.astype(np.float64), eps


@dataclass(frozen=True)
class Probe:
    """What :func:`probe` read from a RoPE function.

    Attributes
    ----------
    pairing
        ``"adjacent"`` or ``"halves"``.
    first, second
        The columns of each pair, pair ``i`` turning at ``frequencies[i]``.
    frequencies
        Radians per position of each pair (negative: the other sign).
    uncertainty
        Relative uncertainty of each frequency.
    gain
        The length of a rotated basis vector (1 for a rotation).
    eps
        Epsilon of the dtype ``fn`` returns, or of the dtype it computes its rotations in
        when that is coarser (``angle_dtype``).
    """

    pairing: str
    first: npt.NDArray[np.int64]
    second: npt.NDArray[np.int64]
    frequencies: npt.NDArray[np.float64]
    uncertainty: npt.NDArray[np.float64]
    gain: float
    eps: float


def _moves(fn: RopeFunction, width: int) -> tuple[npt.NDArray[np.float64], float]:
    """``fn(e_j, p)`` for every basis vector and probe position: shape (positions, d, d)."""
    count = PROBE_POSITIONS.size
    x = np.tile(np.eye(width), (count, 1))
    positions = np.repeat(PROBE_POSITIONS, width)
    out, eps = call(fn, x, positions)
    return out.reshape(count, width, width), eps


def _partners(moved: npt.NDArray[np.float64], rotary: int, eps: float) -> npt.NDArray[np.int64]:
    """The column each of the first ``rotary`` columns moves into, checked to be one."""
    width = moved.shape[1]
    off = np.abs(moved).max(axis=0)  # (d, d): the largest move of column j into column k
    off[np.arange(width), np.arange(width)] = 0.0
    gain = float(np.median(np.abs(moved).max(axis=(0, 2))))
    noise = MOVE_EPS * eps * max(gain, 1.0)
    rows = np.arange(rotary)
    partner = np.argmax(off[:rotary, :rotary], axis=1)
    still = np.flatnonzero(off[rows, partner] <= noise)
    if still.size:
        where = ", ".join(str(p) for p in PROBE_POSITIONS)
        raise AssertionError(
            f"fn does not rotate: column {still[0]} moves into no other column at positions {where}"
        )
    stray = off[:rotary, :rotary].copy()
    stray[rows, partner] = 0.0
    j, k = (int(v) for v in np.unravel_index(int(np.argmax(stray)), stray.shape))
    if stray[j, k] > noise:
        raise AssertionError(
            f"fn is not a rotation of pairs: column {j} moves into columns {int(partner[j])} "
            f"and {k}"
        )
    outside = off[:rotary, rotary:] if rotary < width else np.zeros(0)
    if outside.size and outside.max() > noise:
        raise AssertionError("fn mixes the rotated columns with the columns beyond rotary_dim")
    return np.asarray(partner, dtype=np.int64)


def _pairing(partner: npt.NDArray[np.int64], rotary: int) -> str:
    """Adjacent when every column pairs with its neighbour, halves when every one pairs with
    the column half the rotated width away; else the first column that pairs neither way."""
    rows = np.arange(rotary)
    if np.all(partner == rows ^ 1):
        return "adjacent"
    if np.all(partner == (rows + rotary // 2) % rotary):
        return "halves"
    j = int(np.flatnonzero((partner != rows ^ 1) & (partner != (rows + rotary // 2) % rotary))[0])
    raise AssertionError(
        f"fn pairs column {j} with column {int(partner[j])}: neither the adjacent pairing "
        f"(column {j ^ 1}) nor the halves pairing (column {(j + rotary // 2) % rotary})"
    )


def _frequencies(
    moved: npt.NDArray[np.float64], first: npt.NDArray[np.int64], second: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """Each pair's frequency from its angles at the probe positions, coarse to fine."""
    angles = np.arctan2(moved[:, first, second], moved[:, first, first])  # (positions, pairs)
    w = angles[0] / PROBE_POSITIONS[0]
    for p, theta in zip(PROBE_POSITIONS[1:], angles[1:], strict=True):
        turns = np.round((w * p - theta) / (2 * np.pi))
        w = (theta + 2 * np.pi * turns) / p
    return np.asarray(w, dtype=np.float64)


def _missing_partial(fn_moved: npt.NDArray[np.float64], eps: float, width: int) -> int | None:
    """The first column of a trailing block that never moves (a partial rotary), or None."""
    off = np.abs(fn_moved - np.eye(width)[None]).max(axis=(0, 2))
    still = off <= MOVE_EPS * eps
    if not still[-1]:
        return None
    start = width
    while start > 0 and still[start - 1]:
        start -= 1
    return start if start > 0 and start % 2 == 0 else None


def probe(
    fn: RopeFunction, width: int, rotary: int | None, angle_eps: float | None = None
) -> Probe:
    """Read the pairing, frequencies and gain of ``fn`` on ``width`` columns, of which the
    first ``rotary`` (default: all) are rotated and the others must stay in place.

    ``angle_eps``: the epsilon of the dtype ``fn`` computes its angles, sines and cosines
    in, when coarser than the dtype it returns (a rotation is then exact only to that).
    """
    moved, out_eps = _moves(fn, width)
    eps = max(out_eps, angle_eps or 0.0)
    if rotary is None:
        start = _missing_partial(moved, eps, width)
        if start is not None:
            raise AssertionError(
                f"fn leaves columns {start} to {width - 1} in place at every position: a "
                f"partial rotary (GPT-NeoX rotates a quarter of each head)? pass "
                f"rotary_dim={start}"
            )
        rotary = width
    else:
        rest = moved[:, rotary:, :] - np.eye(width)[None, rotary:, :]
        if rest.size and np.abs(rest).max() > MOVE_EPS * eps:
            j = rotary + int(np.argmax(np.abs(rest).max(axis=(0, 2))))
            raise AssertionError(f"fn moves column {j}, beyond rotary_dim={rotary}")
    partner = _partners(moved, rotary, eps)
    pairing = _pairing(partner, rotary)
    h = rotary // 2
    k = np.arange(h, dtype=np.int64)
    first, second = (2 * k, 2 * k + 1) if pairing == "adjacent" else (k, k + h)
    gains = np.hypot(moved[:, first, first], moved[:, first, second])
    gain = float(np.median(gains))
    spread = float(np.max(np.abs(gains - gain)))
    if spread > GAIN_EPS * eps * max(gain, 1.0):
        _not_a_rotation(gains, gain, eps)
    w = _frequencies(moved, first, second)
    reach = np.maximum(np.abs(w) * PROBE_POSITIONS[-1], 1e-300)
    uncertainty = 2 * eps / reach + 4 * eps
    return Probe(pairing, first, second, w, uncertainty, gain, eps)


#: The pairs' gains may differ by this many epsilons (times the gain).
GAIN_EPS = 8


def _not_a_rotation(gains: npt.NDArray[np.float64], gain: float, eps: float) -> None:
    """Why pairs scaled unequally fail: coarser sines and cosines, or not a rotation."""
    spread = np.abs(gains - gain)
    for coarser in (np.float32, np.float16):
        wider = float(np.finfo(coarser).eps)
        if wider > eps and spread.max() <= GAIN_EPS * wider * max(gain, 1.0):
            raise AssertionError(
                f"fn's rotations are exact only to {np.dtype(coarser)} precision (a rotated "
                f"vector's length varies by {spread.max():.2g}): fn forms its angles, sines "
                f"and cosines in {np.dtype(coarser)}? pass angle_dtype=numpy.{np.dtype(coarser)}"
            )
    pos, pair = (int(v) for v in np.unravel_index(int(np.argmax(spread)), spread.shape))
    raise AssertionError(
        f"fn is not a rotation: it scales pair {pair} by {gains[pos, pair]:.6g} at "
        f"position {PROBE_POSITIONS[pos]}, and the others by {gain:.6g}"
    )


def base_of(found: Probe) -> tuple[float, int, int] | None:
    r"""The base of the frequency law :math:`\omega_{i+1}/\omega_i = b^{-2/r}`, read from
    the largest group of neighbouring ratios that agree: (base, ratios in the group, all
    ratios); None with fewer than two pairs."""
    w = np.abs(found.frequencies)
    if w.size < 2 or np.any(w <= 0):
        return None
    ratios = np.diff(np.log(w))
    sigma = found.uncertainty[1:] + found.uncertainty[:-1]
    agree = np.abs(ratios[:, None] - ratios[None, :]) <= 3 * (sigma[:, None] + sigma[None, :])
    counts = agree.sum(axis=1)
    best = int(np.argmax(counts))  # the first of the largest groups
    members = agree[best]
    weights = 1.0 / sigma[members] ** 2
    ratio = float(np.sum(ratios[members] * weights) / np.sum(weights))
    rotary = 2 * w.size
    return math.exp(-ratio * rotary / 2), int(members.sum()), int(ratios.size)


def base_agrees(found: Probe, measured: float, base: float) -> bool:
    """Whether the base read from ``found`` is ``base``: ``|ln(measured / base)|`` within
    three times the best ratio's uncertainty times ``r/2``, plus 1e-9."""
    best = float(np.min(found.uncertainty[1:] + found.uncertainty[:-1]))
    return abs(math.log(measured / base)) <= 3 * best * found.frequencies.size + 1e-9
