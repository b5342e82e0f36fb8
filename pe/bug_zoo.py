"""Bugs reported in public sinusoidal-encoding code, each as a small table-making function.

Each function is written the way the buggy tutorials write it (plain NumPy, short), takes
``(n, d)`` and returns an ``(n, d)`` float64 table (``d`` odd for :func:`odd_width`). The
chapter "Conventions and pitfalls" shows their source, their heat maps, what
:func:`pe.identify.identify` says about them and what they do to the rotation identity;
``tests/test_bug_zoo.py`` re-implements each with explicit loops and checks that
``identify`` names it.

Examples
--------
>>> from pe import bug_zoo
>>> [bug.name for bug in bug_zoo.BUGS][:3]
['doubled-exponent', 'multiplied', 'integer-division']
>>> bug_zoo.odd_width(10, 5).shape
(10, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "BUGS",
    "Bug",
    "column_index_exponent",
    "doubled_exponent",
    "fairseq_offset",
    "halves_for_interleaved",
    "integer_division",
    "multiplied",
    "odd_width",
    "pair_shift",
]

Table = npt.NDArray[np.float64]
Columns = npt.NDArray[np.int64]
#: A table's pairs: the sine columns, their cosine columns and each pair's frequency.
Pairs = tuple[Columns, Columns, npt.NDArray[np.float64]]


def doubled_exponent(n: int, d: int) -> Table:
    """A bug found in print: ``10000 ** (2 * i / d)`` while ``i`` already steps by 2 (i = 0, 2, 4, ...)."""
    pos = np.arange(n)[:, None]
    i = np.arange(0, d, 2)
    angle = pos / 10000 ** (2 * i / d)
    table = np.zeros((n, d))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def multiplied(n: int, d: int) -> Table:
    """Multiplying the position by ``10000 ** (2i/d)`` instead of dividing."""
    pos = np.arange(n)[:, None]
    i = np.arange(d // 2)
    angle = pos * 10000 ** (2 * i / d)
    table = np.zeros((n, d))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def integer_division(n: int, d: int) -> Table:
    """Integer division in the exponent: ``2 * i // d`` is 0, or 1 for the second half."""
    pos = np.arange(n)[:, None]
    i = np.arange(0, d, 2)
    angle = pos / 10000 ** (2 * i // d)
    table = np.zeros((n, d))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def column_index_exponent(n: int, d: int) -> Table:
    """Column ``j`` uses ``10000 ** (2 * j / d)``: ``j`` where ``j // 2`` was meant."""
    pos = np.arange(n)[:, None]
    j = np.arange(d)
    angle = pos / 10000 ** (2 * j / d)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))


def halves_for_interleaved(n: int, d: int) -> Table:
    """Meant interleaved, built halves: ``concatenate([sin, cos])`` instead of interleaving."""
    pos = np.arange(n)[:, None]
    i = np.arange(d // 2)
    angle = pos / 10000 ** (2 * i / d)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def odd_width(n: int, d: int) -> Table:
    """An odd width "fixed" by trimming the cosines: the last column is a lone sine."""
    pos = np.arange(n)[:, None]
    div = np.exp(np.arange(0, d, 2) * -np.log(10000.0) / d)
    table = np.zeros((n, d))
    table[:, 0::2] = np.sin(pos * div)
    table[:, 1::2] = np.cos(pos * div[: d // 2])
    return table


def fairseq_offset(n: int, d: int) -> Table:
    """fairseq-style: halves, tensor2tensor's law, the first token at position 2."""
    pos = np.arange(n)[:, None] + 2  # padding_idx + 1 with padding_idx = 1
    h = d // 2
    freq = np.exp(np.arange(h) * -(np.log(10000.0) / (h - 1)))
    angle = pos * freq
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def _interleaved(omegas: npt.NDArray[np.float64]) -> Pairs:
    """Pair ``i`` in columns ``2i`` (sine) and ``2i + 1`` (cosine)."""
    i = np.arange(omegas.size)
    return 2 * i, 2 * i + 1, omegas


def _halves(omegas: npt.NDArray[np.float64]) -> Pairs:
    """Pair ``i`` in columns ``i`` (sine) and ``h + i`` (cosine), ``h`` pairs."""
    i = np.arange(omegas.size)
    return i, omegas.size + i, omegas


def pair_shift(d: int, k: int, pairs: Pairs) -> Table:
    r"""The ``(d, d)`` matrix turning each (sine, cosine) pair of columns by :math:`k\omega`.

    :math:`\sin\omega(p+k) = \sin\omega p\cos k\omega + \cos\omega p\sin k\omega` and
    :math:`\cos\omega(p+k) = \cos\omega p\cos k\omega - \sin\omega p\sin k\omega`; a column
    in no pair gets a zero row (no fixed matrix turns a lone sine).

    Examples
    --------
    >>> from pe import numeric
    >>> m = pair_shift(4, 3, _interleaved(numeric.frequencies(4)))
    >>> bool(np.allclose(m, numeric.shift_matrix(3, 4)))
    True
    """
    sines, cosines, omegas = pairs
    m = np.zeros((d, d))
    c, s = np.cos(k * omegas), np.sin(k * omegas)
    m[sines, sines], m[sines, cosines] = c, s
    m[cosines, cosines], m[cosines, sines] = c, -s
    return m


@dataclass(frozen=True)
class Bug:
    """One entry of the zoo.

    Attributes
    ----------
    name
        Short identifier.
    title
        The bug in a few words.
    make
        ``make(n, d) -> table``.
    heat_map
        What the bug does to the heat map, in words.
    identity
        What it does to the rotation identity, in words.
    pairs
        ``pairs(d)``: the (sine, cosine) column pairs and frequencies that ``identity``
        names, written from the bug's description rather than its code (the claim
        ``bug-zoo-shift-matrices`` turns them with :func:`pair_shift`); None where no fixed
        matrix shifts the table.
    """

    name: str
    title: str
    make: Callable[[int, int], Table]
    heat_map: str
    identity: str
    pairs: Callable[[int], Pairs] | None


BUGS: tuple[Bug, ...] = (
    Bug(
        "doubled-exponent",
        "doubled exponent",
        doubled_exponent,
        "the columns slow down twice as fast: the right half of the map is flat",
        "holds, but with the blocks of base 1e8: the paper's T_k no longer fits",
        lambda d: _interleaved(1e8 ** (-2 * np.arange(d // 2) / d)),
    ),
    Bug(
        "multiplied",
        "multiplying instead of dividing",
        multiplied,
        "every column but pair 0's two (at exactly one radian) turns faster than one radian "
        "per position: noise-like stripes everywhere",
        "holds with blocks at the grown frequencies, but most of them alias above π",
        lambda d: _interleaved(10000.0 ** (2 * np.arange(d // 2) / d)),
    ),
    Bug(
        "integer-division",
        "integer division in the exponent",
        integer_division,
        "the left half repeats one fast pair (its sine and cosine), the right half one slow pair",
        "holds with only two distinct blocks, one per half",
        lambda d: _interleaved(np.where(np.arange(d // 2) < d // 4, 1.0, 1e-4)),
    ),
    Bug(
        "column-index",
        "`i` where `i // 2` was meant",
        column_index_exponent,
        "like the paper's table squeezed to the left; sine and cosine of a pair drift apart",
        "fails: no matrix maps row p to row p + k, since each sine lacks its cosine",
        None,
    ),
    Bug(
        "halves-for-interleaved",
        "halves built where interleaved was meant",
        halves_for_interleaved,
        "two copies of the fan of frequencies side by side, sines left, cosines right",
        "holds only after conjugating T_k by the permutation, P T_k P^T",
        lambda d: _halves(10000.0 ** (-2 * np.arange(d // 2) / d)),
    ),
    Bug(
        "odd-width",
        "odd width, cosines trimmed",
        odd_width,
        "one lone sine column at the right edge",
        "holds for the pairs; the lone sine has no cosine to turn with",
        lambda d: _interleaved(10000.0 ** (-2 * np.arange(d // 2) / d)),
    ),
    Bug(
        "fairseq-offset",
        "fairseq-style offset (first token at position 2)",
        fairseq_offset,
        "the map starts two rows late: row 0 is not sin 0 = 0, cos 0 = 1",
        "holds with blocks at its own (t2t) frequencies, conjugated by the halves permutation: "
        "an offset never changes T_k",
        lambda d: _halves(10000.0 ** (-np.arange(d // 2) / (d // 2 - 1))),
    ),
)
