r"""Assertions for your own test suite, as :mod:`numpy.testing` is for arrays.

Three assertions check code that makes or uses a sinusoidal encoding; each raises
:class:`AssertionError` with a message that says *how* the code differs, so that a failing
test names the bug:

- :func:`assert_matches_paper`: a table is the paper's encoding (Vaswani et al. 2017):
  interleaved, sine first, :math:`\omega_i = 10000^{-2i/d}`, row 0 at position 0, and every
  entry within ``atol`` of the exact value;
- :func:`assert_convention`: a table follows the convention you state (layout, order,
  frequency law, base, position of row 0), such as one of :mod:`pe.conventions`;
- :func:`assert_rope_relative`: a rotary (RoPE) function gives attention scores that
  depend only on the offset between query and key, and pairs the coordinates as you expect.

The tables are read by :func:`pe.identify.identify` (which recovers every parameter from
the table alone), the RoPE checks use :mod:`pe.rotary`'s error model. Bad arguments (not a
table, an unknown layout name) raise :class:`TypeError` or :class:`ValueError` as
everywhere in :mod:`pe`; only a difference of the code under test is an AssertionError.

Examples
--------
>>> import pe
>>> from pe import conventions
>>> from pe.testing import assert_convention, assert_matches_paper, assert_rope_relative
>>> assert_matches_paper(pe.sinusoidal(64, 32))
>>> assert_convention(conventions.get("fairseq").table(64, 16), layout="halves", padding_row=1)
>>> assert_rope_relative(pe.rope, 16)
'adjacent'
>>> assert_matches_paper(pe.sinusoidal(64, 32, base=500.0))
Traceback (most recent call last):
...
AssertionError: table (64, 32) float64 is not the paper's encoding (Vaswani et al. 2017):
  base: 500 (± 1.2e-11), expected 10000
  worst entry: row 49, column 12: -0.99860512979446969 where the paper has 0.99977358352846069 (|difference| 2, atol 2.89e-14)
  identify: base 500, not the paper's 10000
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe.identify import Identification, base_agrees, identify, read_table
from pe.numeric import sinusoidal
from pe.rotary import Pairing, offset_tolerance

__all__ = [
    "PAPER",
    "assert_convention",
    "assert_matches_paper",
    "assert_rope_relative",
    "paper_tolerance",
]

#: The paper's convention, in the terms of :class:`pe.identify.Identification`.
PAPER: dict[str, Any] = {
    "layout": "interleaved",
    "order": "sin-first",
    "law": "paper",
    "base": 10000.0,
    "offset": 0,
}

_CHOICES = {
    "layout": ("interleaved", "halves"),
    "order": ("sin-first", "cos-first"),
    "law": ("paper", "tensor2tensor", "other"),
}
_WORDS = {
    "interleaved": "interleaved (pair i in columns 2i, 2i+1)",
    "halves": "halves (pair i in columns i, i + d/2)",
    "sin-first": "sine first in each pair",
    "cos-first": "cosine first in each pair",
    "paper": "the paper's law w_i = base^(-2i/d)",
    "tensor2tensor": "tensor2tensor's law w_i = base^(-i/(d/2 - 1))",
    "other": "no geometric law",
    None: "none",
}

#: A RoPE function under test: ``fn(x, positions)`` with ``x`` of shape ``(n, d)`` and one
#: integer position per row, returning the rotated ``(n, d)`` array.
RopeFunction = Callable[[npt.NDArray[np.float64], npt.NDArray[np.int64]], npt.ArrayLike]

#: Query positions ``m`` and offsets ``r`` of :func:`assert_rope_relative` (keys at
#: ``m + r``; all below 2048, where RoPE caches of public code usually end).
ROPE_POSITIONS = np.array([0, 1, 2, 3, 5, 8, 13, 100, 511, 1024], dtype=np.int64)
ROPE_OFFSETS = np.array([0, 1, 2, 3, 7, 16, 64, 255, 1000], dtype=np.int64)


#: Machine epsilon of each dtype a table may be stored in (bfloat16 has 8 bits).
_STORED_EPS = {"bfloat16": 2.0**-7, "float16": 2.0**-10, "float32": 2.0**-23, "float64": 2.0**-52}


def _stored_eps(dtype: npt.DTypeLike | str) -> float:
    if isinstance(dtype, str) and dtype in _STORED_EPS:
        return _STORED_EPS[dtype]
    return float(np.finfo(_validate.float_dtype("dtype", dtype)).eps)


def paper_tolerance(n: int, dtype: npt.DTypeLike | str) -> float:
    r"""Default ``atol`` of :func:`assert_matches_paper` for an ``n``-row table stored in ``dtype``.

    .. math::

        \mathrm{atol}(n) = 4\varepsilon_a + 2\varepsilon_a(n-1)
            \;\bigl(+\ \varepsilon_s / 2 \text{ for a 16-bit table}\bigr).

    A table computed by the plain formula forms the angle :math:`\omega_i p` with a
    relative error of about :math:`2\varepsilon_a` (rounding :math:`\omega_i`, then the
    product), at most :math:`2\varepsilon_a(n-1)` radians since :math:`\omega_i \le 1`, and
    rounds the sine or cosine (a few :math:`\varepsilon_a`). :math:`\varepsilon_a` is the
    epsilon of the dtype the angles are formed in: the table's own for float32 and
    float64 tables (the float32 recipe of PyTorch's tutorial, or float64 then cast); float32's
    for a float16 or bfloat16 table, which code computes in float32 and stores in 16 bits,
    rounding each value once more (:math:`\varepsilon_s / 2`, :math:`\varepsilon_s` the
    16-bit dtype's epsilon). Angles formed in 16 bits lose whole radians past position
    256 (bfloat16) or 2048 (float16): a known bug, which this tolerance rejects.

    Parameters
    ----------
    n
        Rows of the table (positions ``0 .. n-1``).
    dtype
        float16, float32, float64, or ``"bfloat16"``.

    Examples
    --------
    >>> paper_tolerance(1, np.float32) == 4 * 2.0**-23
    True
    >>> paper_tolerance(1, "bfloat16") == 4 * 2.0**-23 + 2.0**-8
    True
    """
    count = _validate.positive_int("n", n)
    stored = _stored_eps(dtype)
    angle = min(stored, _STORED_EPS["float32"])  # 16-bit tables: angles formed in float32
    rounding = stored / 2 if stored > angle else 0.0
    return 4 * angle + 2 * angle * (count - 1) + rounding


def _header(found: Identification, what: str) -> str:
    n, d = found.shape
    return f"table ({n}, {d}) {found.dtype} {what}:"


def _identified(table: npt.NDArray[Any], stored: str | None, what: str) -> Identification:
    found = identify(table, stored_dtype=stored)
    if not found.is_encoding:
        raise AssertionError(f"{_header(found, what)}\n  {found.reason}")
    return found


def _differences(found: Identification, expected: dict[str, Any]) -> list[str]:
    """One line per parameter whose identified value is not the expected one."""
    lines = []
    for key, want in expected.items():
        if want is None:
            continue
        if key == "base":
            if not base_agrees(found.base, found.base_uncertainty, want):
                got = (
                    "none"
                    if found.base is None
                    else f"{found.base:.6g} (± {found.base_uncertainty:.2g})"
                )
                lines.append(f"base: {got}, expected {want:g}")
        elif key == "offset":
            if found.position_offset != want:
                lines.append(f"offset: row 0 is position {found.position_offset}, expected {want}")
        elif key == "padding_row":
            if found.padding_rows != (want,):
                rows = ", ".join(map(str, found.padding_rows)) or "none"
                lines.append(f"padding row: rows of zeros {rows}, expected row {want} only")
        elif getattr(found, key) != want:
            lines.append(f"{key}: {_WORDS[getattr(found, key)]}, expected {_WORDS[want]}")
    return lines


def _odd_width(found: Identification) -> list[str]:
    """A lone column (an odd width whose last column is not zero padding), as a difference."""
    if found.unpaired_column is None:
        return []
    return [f"width: d = {found.shape[1]} is odd (column {found.unpaired_column} has no partner)"]


def _fail(found: Identification, what: str, lines: list[str]) -> None:
    notes = [f"  identify: {note}" for note in found.notes]
    raise AssertionError("\n".join([_header(found, what), *(f"  {x}" for x in lines), *notes]))


#: Rows compared with the paper's table at a time (a multiple of the rotation's block).
_ROWS_AT_ONCE = 4096


def _worst_entry(array: npt.NDArray[Any]) -> tuple[int, int, float, float]:
    """(row, column, |difference|, the paper's value) of the entry farthest from the paper's
    table, compared a block of rows at a time (no full-size float64 copy)."""
    n, d = array.shape
    found = (0, 0, -1.0, 0.0)
    for lo in range(0, n, _ROWS_AT_ONCE):
        block = array[lo : lo + _ROWS_AT_ONCE].astype(np.float64)
        reference = sinusoidal(np.arange(lo, lo + block.shape[0]), d)
        error = np.abs(block - reference)
        r, c = (int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        if error[r, c] > found[2]:
            found = (lo + r, c, float(error[r, c]), float(reference[r, c]))
    return found


def assert_matches_paper(table: npt.ArrayLike, *, atol: float | None = None) -> None:
    r"""Assert that ``table`` is the paper's sinusoidal encoding, entry by entry.

    Passes when :func:`pe.identify.identify` finds the paper's convention (interleaved,
    sine first, :math:`\omega_i = 10000^{-2i/d}`, row 0 at position 0, even width) and every
    entry is within ``atol`` of :math:`\sin`/:math:`\cos(\omega_i p)` (computed by
    :func:`pe.sinusoidal`, itself within ``4.9e-16``).

    Parameters
    ----------
    table
        Array of shape ``(n, d)`` (or ``(1, n, d)``), float16, float32 or float64, ``n >= 16``.
    atol
        Largest accepted absolute error of an entry. Default :func:`paper_tolerance`: what
        the plain formula computed in the table's own dtype can be off by.

    Raises
    ------
    AssertionError
        With one line per difference: layout, order, law, base, offset, an odd width, and
        the worst entry (row, column, value, the paper's value), then identify's notes
        (which name known bugs, such as the doubled exponent).
    TypeError, ValueError
        When ``table`` is not a 2-D float array of at least 16 rows, or ``atol`` is negative.
    """
    array, stored = read_table(table)
    n, d = array.shape
    tolerance = (
        paper_tolerance(n, stored or array.dtype)
        if atol is None
        else _validate.real_scalar("atol", atol)
    )
    if tolerance < 0:
        raise ValueError(f"atol must be >= 0, got {tolerance}")
    what = "is not the paper's encoding (Vaswani et al. 2017)"
    found = _identified(array, stored, what)
    lines = _differences(found, PAPER) + _odd_width(found)
    if d % 2:
        lines += [] if lines else [f"width: d = {d} is odd (the paper's widths are even)"]
    else:
        row, col, worst, exact = _worst_entry(array)
        if lines or worst > tolerance:
            lines.append(
                f"worst entry: row {row}, column {col}: {float(array[row, col]):.17g} where the "
                f"paper has {exact:.17g} (|difference| {worst:.3g}, atol {tolerance:.3g})"
            )
    if lines or not found.matches_paper:
        _fail(found, what, lines or [f"identify: {found.reason}"])


def assert_convention(
    table: npt.ArrayLike,
    *,
    layout: str | None = None,
    order: str | None = None,
    law: str | None = None,
    base: float | None = None,
    offset: int | None = None,
    padding_row: int | None = None,
) -> None:
    """Assert that ``table`` follows the stated convention; ``None`` leaves a parameter free.

    Parameters
    ----------
    table
        Array of shape ``(n, d)`` (or ``(1, n, d)``), float, ``n >= 16``.
    layout
        ``"interleaved"`` (pair ``i`` in columns ``2i, 2i+1``) or ``"halves"`` (columns
        ``i, i + d/2``).
    order
        ``"sin-first"`` or ``"cos-first"``.
    law
        ``"paper"`` (:math:`\\omega_i = b^{-2i/d}`), ``"tensor2tensor"``
        (:math:`\\omega_i = b^{-i/(d/2-1)}`) or ``"other"``.
    base
        The base ``b``, accepted within two of identify's uncertainties (or ``1e-9``
        relative).
    offset
        The position of row 0 (0 in stored tables, fairseq's included; 2 for the rows
        fairseq's tokens read).
    padding_row
        The row that must be the only row of zeros (fairseq's ``padding_idx``, 1), the
        first token reading the row after it.

    Raises
    ------
    AssertionError
        One line per parameter that differs (what was found, what was expected), then
        identify's notes; or identify's reason when the table is not an encoding at all.
    TypeError, ValueError
        For a table that is not one, or an unknown value of a parameter.

    Examples
    --------
    >>> from pe import conventions
    >>> table = conventions.get("tensor2tensor").table(64, 16)
    >>> assert_convention(table, layout="halves", law="tensor2tensor", base=10000, offset=0)
    >>> fairseq = conventions.get("fairseq").table(64, 16)  # as stored: row 1 zeroed
    >>> assert_convention(fairseq, layout="halves", law="tensor2tensor", offset=0, padding_row=1)
    """
    expected: dict[str, Any] = {"layout": layout, "order": order, "law": law}
    for key, value in expected.items():
        if value is not None and value not in _CHOICES[key]:
            raise ValueError(f"{key} must be one of {', '.join(_CHOICES[key])}, got {value!r:.40}")
    expected["base"] = None if base is None else _validate.base_value("base", base)
    expected["offset"] = (
        None if offset is None else _validate.positive_int("offset", offset, minimum=0)
    )
    expected["padding_row"] = (
        None
        if padding_row is None
        else _validate.positive_int("padding_row", padding_row, minimum=0)
    )
    array, stored = read_table(table)
    what = "does not follow the expected convention"
    found = _identified(array, stored, what)
    lines = _differences(found, expected) + _odd_width(found)
    if lines:
        _fail(found, what, lines)


def _rotated(
    fn: RopeFunction, x: npt.NDArray[np.float64], positions: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], float]:
    """``fn(x, positions)`` as float64, and the epsilon of the dtype ``fn`` returned."""
    out = np.asarray(fn(x.copy(), positions.copy()))
    if out.shape != x.shape:
        raise AssertionError(
            f"fn(x, positions) returned shape {out.shape} for x of shape {x.shape}"
        )
    if out.dtype.kind != "f":
        raise AssertionError(f"fn(x, positions) returned {out.dtype} values, not floats")
    eps = float(np.finfo(out.dtype).eps)
    return out.astype(np.float64), max(eps, float(np.finfo(np.float64).eps))


def _pairing_of(fn: RopeFunction, width: int) -> Pairing:
    """Which coordinates ``fn`` rotates together, from where it moves each basis vector."""
    moved, eps = _rotated(fn, np.eye(width), np.ones(width, dtype=np.int64))
    rows = np.arange(width)
    off = moved.copy()
    off[rows, rows] = 0.0
    partner = np.argmax(np.abs(off), axis=1)
    still = np.flatnonzero(np.abs(off[rows, partner]) <= 8 * eps)
    if still.size:
        raise AssertionError(
            f"fn does not rotate: at position 1 column {still[0]} moves into no other column"
        )
    off[rows, partner] = 0.0
    stray = np.argwhere(np.abs(off) > 8 * eps)
    if stray.size:
        j, c = (int(v) for v in stray[0])
        raise AssertionError(
            f"fn is not a rotation of pairs: at position 1 column {j} moves into columns "
            f"{int(partner[j])} and {c}"
        )
    if np.all(partner == rows ^ 1):
        return "adjacent"
    if np.all(partner == (rows + width // 2) % width):
        return "halves"
    j = int(np.flatnonzero((partner != rows ^ 1) & (partner != (rows + width // 2) % width))[0])
    raise AssertionError(
        f"fn pairs column {j} with column {int(partner[j])}: neither the adjacent pairing "
        f"(column {j ^ 1}) nor the halves pairing (column {(j + width // 2) % width})"
    )


def assert_rope_relative(
    fn: RopeFunction,
    d: int,
    *,
    pairing: str | None = None,
    base: float = 10000.0,
    angle_dtype: npt.DTypeLike = np.float64,
    seed: int = 0,
) -> str:
    r"""Assert that a RoPE function's scores depend only on the offset; return its pairing.

    ``fn(x, positions)`` takes ``x`` of shape ``(n, d)`` (float64) and one integer position
    per row and returns the rotated rows (wrap a function of another signature in a
    ``lambda``). Two checks:

    1. **Pairing**: the basis vectors rotated at position 1 show which columns turn
       together: ``"adjacent"`` (``2i, 2i+1``; RoFormer, GPT-J, Meta's Llama) or
       ``"halves"`` (``i, i + d/2``; GPT-NeoX, Hugging Face's Llama). A function that
       leaves a column in place, or mixes it with more than one other, is not a rotation
       of pairs.
    2. **Relative scores**: for random ``q``, ``k`` (``numpy.random.default_rng(seed)``),
       :math:`s(m, m + r) = \langle fn(q, m), fn(k, m + r)\rangle` must equal
       :math:`s(0, r)` within :math:`\tau(m, r) + \tau(0, r)`, :math:`\tau` the bound of
       :func:`pe.rotary.offset_tolerance` for angles formed in ``angle_dtype`` (plus the
       rounding of the rotation in the dtype ``fn`` returns), for ``m`` in
       :data:`ROPE_POSITIONS` and ``r`` in :data:`ROPE_OFFSETS`.

    Parameters
    ----------
    fn
        The RoPE function under test.
    d
        Even width ``>= 2`` (the head dimension).
    pairing
        ``"adjacent"`` or ``"halves"`` to require one; ``None`` accepts either.
    base
        The base of ``fn``'s frequencies (for the tolerance's weights; 10000 by default).
    angle_dtype
        The dtype ``fn`` forms its angles in (float32 for most GPU code), whose epsilon
        the tolerance uses.
    seed
        Seed of the random ``q`` and ``k``.

    Returns
    -------
    str
        The pairing found (``"adjacent"`` for ``d = 2``, where the two coincide).

    Raises
    ------
    AssertionError
        Naming the difference: the shape returned, no rotation, stray columns, a pairing
        other than ``pairing``, or the largest score difference with ``m``, ``r`` and the
        tolerance.
    """
    width = _validate.even_width("d", d)
    if pairing is not None and pairing not in ("adjacent", "halves"):
        raise ValueError(f"pairing must be 'adjacent', 'halves' or None, got {pairing!r:.40}")
    b = _validate.base_value("base", base)
    angle = _validate.float_dtype("angle_dtype", angle_dtype)
    seed_value = _validate.positive_int("seed", seed, minimum=0)
    found = _pairing_of(fn, width)
    if pairing is not None and found != pairing and width > 2:
        raise AssertionError(f"fn uses the {_PAIRS[found]}, expected the {_PAIRS[pairing]}")
    rng = np.random.default_rng(seed_value)
    q, k = rng.standard_normal(width), rng.standard_normal(width)
    ms, rs = np.meshgrid(ROPE_POSITIONS, ROPE_OFFSETS, indexing="ij")
    count = ms.size
    rq, eps = _rotated(fn, np.tile(q, (count, 1)), ms.ravel())
    rk, _ = _rotated(fn, np.tile(k, (count, 1)), (ms + rs).ravel())
    scores = np.einsum("jd,jd->j", rq, rk).reshape(ms.shape)
    tau = offset_tolerance(
        q, k, ROPE_POSITIONS, ROPE_OFFSETS, base=b, pairing=found, model_dtype=angle
    )
    half = width // 2
    pairs = (slice(0, width, 2), slice(1, width, 2))
    first, second = pairs if found == "adjacent" else (slice(0, half), slice(half, width))
    rho = np.hypot(q[first], q[second]) * np.hypot(k[first], k[second])
    tau = tau + (width + 8) * eps * float(rho.sum())
    error = np.abs(scores - scores[0][None, :])
    allowed = tau + tau[0][None, :]
    ratio = error / allowed
    i, j = (int(v) for v in np.unravel_index(int(np.argmax(ratio)), ratio.shape))
    if ratio[i, j] > 1.0:
        raise AssertionError(
            f"scores depend on the position, not only on the offset: |s(m, m+r) - s(0, r)| = "
            f"{error[i, j]:.3g} at m={ROPE_POSITIONS[i]}, r={ROPE_OFFSETS[j]}, beyond the "
            f"tolerance {allowed[i, j]:.3g} for {angle} angles (pe.rotary's error model)"
        )
    return found


_PAIRS = {
    "adjacent": "adjacent pairing (columns 2i, 2i+1)",
    "halves": "halves pairing (columns i, i + d/2)",
}
