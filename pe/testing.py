r"""Assertions for your own test suite, as :mod:`numpy.testing` is for arrays.

Three assertions check code that makes or uses a sinusoidal encoding; each raises
:class:`AssertionError` with a message that says *how* the code differs, so that a failing
test names the bug:

- :func:`assert_matches_paper`: a table is the paper's encoding (Vaswani et al. 2017):
  interleaved, sine first, :math:`\omega_i = 10000^{-2i/d}`, row 0 at position 0, and every
  entry within ``atol`` of the exact value;
- :func:`assert_convention`: a table follows the convention you state (layout, order,
  frequency law, base, position of row 0, padding row), such as one of
  :mod:`pe.conventions`;
- :func:`assert_rope_relative`: a rotary (RoPE) function rotates pairs of coordinates as
  you expect, gives attention scores that depend only on the offset between query and
  key, and has the base you state (its frequencies read from it: scaled variants pass).

The tables (NumPy, PyTorch or JAX arrays) are read by :func:`pe.identify.identify`, which
recovers every parameter from the table alone; the RoPE checks use :mod:`pe.rotary`'s error
model with what :mod:`pe._rope_probe` reads from the function. Bad arguments (not a
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

from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe._rope_probe import Probe, RopeFunction, base_of, call, probe
from pe._rope_probe import base_agrees as rope_base_agrees
from pe.identify import Identification, base_agrees, identify, read_table
from pe.identify._result import significant_digits
from pe.numeric import sinusoidal

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


#: The two geometric laws, by the exponent's divisor: w_i = base^(-2i / divisor(d)).
_DIVISOR = {"paper": lambda d: d, "tensor2tensor": lambda d: d - 2}


def _as_law(found: Identification, law: str) -> tuple[float, float] | None:
    r"""The identified frequencies read in ``law``: its base and that base's uncertainty.

    Both laws are geometric ladders from 1, :math:`w_i = b^{-2i/m}` with :math:`m = d`
    (paper) or :math:`m = d - 2` (tensor2tensor), so one ladder is either law, with bases
    related by :math:`b_t = b_p^{(d-2)/d}` and relative uncertainties scaled by the same
    exponent. None when there is no base to convert (no geometric law, or ``d = 2``, where
    tensor2tensor's law is undefined).
    """
    d = found.shape[1] - (found.unpaired_column is not None)
    if found.law not in _DIVISOR or law not in _DIVISOR or found.base is None or d <= 2:
        return None
    exponent = _DIVISOR[law](d) / _DIVISOR[found.law](d)
    converted = found.base**exponent
    sigma = (found.base_uncertainty or 0.0) * exponent * converted / found.base
    return converted, sigma


def _as_round(converted: tuple[float, float], found: Identification) -> bool:
    """Whether the base of the stated law (``converted``, from :func:`_as_law`) is written
    with as few significant digits as the base identify found: the two laws tie, and
    identify's choice between them is a convention (it names the paper's)."""
    if found.base is None:
        return False
    relative = max((found.base_uncertainty or 0.0) / found.base, 1e-12)
    scaled = max(converted[1] / converted[0], 1e-12)
    return significant_digits(converted[0], scaled) <= significant_digits(found.base, relative)


def _differences(found: Identification, expected: dict[str, Any]) -> list[str]:
    """One line per parameter whose identified value is not the expected one.

    A law stated with its base passes when the frequencies found are that law with that
    base: identify names the law whose base is rounder, and at small widths both bases can
    be round (the tensor2tensor law of base 10000 at ``d = 6`` is the paper's of base 10^6).
    A law stated without a base passes when its base is as round as the one identify found
    (such a tie). Otherwise the law and the base are reported as identify read them.
    """
    lines = []
    law, base = expected.get("law"), expected.get("base")
    converted = None if law is None or law == found.law else _as_law(found, law)
    if converted is not None and base is not None and base_agrees(*converted, base):
        expected = {**expected, "law": None, "base": None}  # the stated law, read as found
    elif converted is not None and base is None and _as_round(converted, found):
        expected = {**expected, "law": None}  # a tie: the stated law's base is as round
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


def _relative_tolerance(
    found: Probe, q: npt.NDArray[np.float64], k: npt.NDArray[np.float64], eps_angle: float
) -> npt.NDArray[np.float64]:
    r"""The error model's bound on ``|s(m, m + r) - s(0, r)|`` for every ``m`` and ``r``.

    :math:`g^2 \sum_i \rho_i (2\varepsilon_a |\omega_i| (|m| + |m + r| + |r|) + (r + 8)
    \varepsilon_o)` plus the columns left in place, :math:`4\varepsilon_o \sum_j |q_j k_j|`
    (:mod:`pe.rotary`'s error model with the frequencies and the gain read from ``fn``).
    """
    rho = np.hypot(q[found.first], q[found.second]) * np.hypot(k[found.first], k[found.second])
    rotated = np.zeros(q.size, dtype=bool)
    rotated[found.first], rotated[found.second] = True, True
    ms = ROPE_POSITIONS.astype(np.float64)[:, None]
    rs = ROPE_OFFSETS.astype(np.float64)[None, :]
    reach = np.abs(ms) + np.abs(ms + rs) + np.abs(rs)
    weighted = float(np.sum(rho * np.abs(found.frequencies)))
    rotation = 2 * eps_angle * weighted * reach + (2 * rho.size + 8) * found.eps * float(rho.sum())
    kept = 4 * found.eps * float(np.sum(np.abs(q[~rotated] * k[~rotated])))
    tau = found.gain**2 * rotation + kept
    return np.asarray(tau + tau[:1], dtype=np.float64)  # both s(m, m + r) and s(0, r) err


def _scores(fn: RopeFunction, q: Any, k: Any) -> tuple[Any, Any]:
    ms, rs = np.meshgrid(ROPE_POSITIONS, ROPE_OFFSETS, indexing="ij")
    count = ms.size
    rq, _ = call(fn, np.tile(q, (count, 1)), ms.ravel())
    rk, _ = call(fn, np.tile(k, (count, 1)), (ms + rs).ravel())
    scores = np.einsum("jd,jd->j", rq, rk).reshape(ms.shape)
    return scores, np.abs(scores - scores[0][None, :])


def assert_rope_relative(
    fn: RopeFunction,
    d: int,
    *,
    pairing: str | None = None,
    base: float | None = 10000.0,
    rotary_dim: int | None = None,
    angle_dtype: npt.DTypeLike | None = None,
    seed: int = 0,
) -> str:
    r"""Assert that a RoPE function's scores depend only on the offset; return its pairing.

    ``fn(x, positions)`` takes ``x`` of shape ``(n, d)`` (float64) and one integer position
    per row and returns the rotated rows, as a NumPy array or an array of another library
    (a PyTorch tensor; wrap a function of another signature in a ``lambda``). Positions
    stay below 2048 (RoPE caches of public code often end there). Four checks:

    1. **Pairing**: the basis vectors rotated at positions 1 to 2024
       (:data:`pe._rope_probe.PROBE_POSITIONS`) show which columns turn together:
       ``"adjacent"`` (``2i, 2i+1``; RoFormer, GPT-J, Meta's Llama) or ``"halves"``
       (``i, i + r/2``; GPT-NeoX, Hugging Face's Llama), ``r`` the rotated width. A
       function that leaves a column in place, mixes it with more than one other, or pairs
       some columns one way and others another is not a rotation of pairs. A function
       that leaves a trailing block of columns in place is told about ``rotary_dim``.
    2. **Relative scores**: for random ``q``, ``k`` (``numpy.random.default_rng(seed)``),
       :math:`s(m, m + r) = \langle fn(q, m), fn(k, m + r)\rangle` must equal
       :math:`s(0, r)` within the error model of :mod:`pe.rotary` with the frequencies and
       the gain read from ``fn`` (scaled variants change both), for ``m`` in
       :data:`ROPE_POSITIONS` and ``r`` in :data:`ROPE_OFFSETS`.
    3. **Base**: the ratio of neighbouring frequencies, :math:`b^{-2/r}`, read where the
       pairs keep it (position interpolation, NTK, YaRN and Llama 3.1 scaling keep it for
       most pairs), must give ``base``.

    Parameters
    ----------
    fn
        The RoPE function under test.
    d
        Even width ``>= 2`` (the head dimension).
    pairing
        ``"adjacent"`` or ``"halves"`` to require one; ``None`` accepts either.
    base
        The base (theta) of ``fn``'s frequencies, checked; ``None`` leaves it free (e.g. for
        per-pair factors, LongRoPE). NTK scaling changes the base itself: give the scaled one.
    rotary_dim
        How many leading columns ``fn`` rotates (GPT-NeoX: a quarter of the head); the
        others must stay in place. Default: all ``d``.
    angle_dtype
        The dtype ``fn`` forms its angles in, whose epsilon the tolerance uses. Default:
        the dtype ``fn`` returns. A function that returns float64 but forms its angles in
        float32 (Hugging Face's Llama) fails at float64's tolerance, with a message saying
        that it passes at float32's: give ``angle_dtype=numpy.float32``.
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
        other than ``pairing``, the largest score difference with ``m``, ``r`` and the
        tolerance, or the base found.
    TypeError, ValueError
        For bad arguments.

    Examples
    --------
    >>> import pe
    >>> assert_rope_relative(lambda x, p: pe.rope(x, p, pairing="halves"), 16)
    'halves'
    """
    width = _validate.even_width("d", d)
    if pairing is not None and pairing not in ("adjacent", "halves"):
        raise ValueError(f"pairing must be 'adjacent', 'halves' or None, got {pairing!r:.40}")
    b = None if base is None else _validate.base_value("base", base)
    rotary = None if rotary_dim is None else _validate.even_width("rotary_dim", rotary_dim)
    if rotary is not None and rotary > width:
        raise ValueError(f"rotary_dim must be at most d = {width}, got {rotary}")
    angle = None if angle_dtype is None else _validate.float_dtype("angle_dtype", angle_dtype)
    seed_value = _validate.positive_int("seed", seed, minimum=0)
    angle_eps = None if angle is None else float(np.finfo(angle).eps)
    found = probe(fn, width, rotary, angle_eps)
    if pairing is not None and found.pairing != pairing and found.first.size > 1:
        raise AssertionError(f"fn uses the {_PAIRS[found.pairing]}, expected the {_PAIRS[pairing]}")
    rng = np.random.default_rng(seed_value)
    q, k = rng.standard_normal(width), rng.standard_normal(width)
    _, error = _scores(fn, q, k)
    eps_angle = found.eps if angle_eps is None else angle_eps
    allowed = _relative_tolerance(found, q, k, eps_angle)
    ratio = error / allowed
    i, j = (int(v) for v in np.unravel_index(int(np.argmax(ratio)), ratio.shape))
    if ratio[i, j] > 1.0:
        named = str(angle) if angle is not None else f"{_eps_name(found.eps)} (fn's output)"
        hint = ""
        for wider in (np.float32, np.float16):
            eps_wider = float(np.finfo(wider).eps)
            if eps_wider > eps_angle and np.all(
                error <= _relative_tolerance(found, q, k, eps_wider)
            ):
                hint = (
                    f"; within the tolerance for {np.dtype(wider)} angles: fn forms its "
                    f"angles in {np.dtype(wider)}? pass angle_dtype=numpy.{np.dtype(wider)}"
                )
                break
        raise AssertionError(
            f"scores depend on the position, not only on the offset: |s(m, m+r) - s(0, r)| = "
            f"{error[i, j]:.3g} at m={ROPE_POSITIONS[i]}, r={ROPE_OFFSETS[j]}, beyond the "
            f"tolerance {allowed[i, j]:.3g} for {named} angles (pe.rotary's error model){hint}"
        )
    if b is not None:
        measured = base_of(found)
        if measured is not None and not rope_base_agrees(found, measured[0], b):
            value, agreeing, ratios = measured
            raise AssertionError(
                f"fn's frequencies follow base {value:.6g} (their neighbours' ratio, in "
                f"{agreeing} of {ratios} pairs), expected base {b:g}: give base={value:.6g} if "
                "that is intended (NTK scaling changes the base), or base=None"
            )
    return found.pairing


def _eps_name(eps: float) -> str:
    names = {2.0**-52: "float64", 2.0**-23: "float32", 2.0**-10: "float16", 2.0**-7: "bfloat16"}
    return names.get(eps, f"eps {eps:.3g}")


_PAIRS = {
    "adjacent": "adjacent pairing (columns 2i, 2i+1)",
    "halves": "halves pairing (columns i, i + d/2)",
}
