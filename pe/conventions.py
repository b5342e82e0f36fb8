r"""Named conventions of the sinusoidal encoding, as data, and converters between layouts.

Public code does not agree on the encoding. A convention here is four choices:

- the **layout**: ``"interleaved"`` puts pair ``k`` in columns ``2k, 2k+1`` (the paper);
  ``"halves"`` puts all the first members in columns ``0 .. h-1`` and the second members
  in ``h .. d-1`` (``h = d/2``; tensor2tensor, fairseq, many others);
- the **order** inside a pair: ``"sin-first"`` (the paper) or ``"cos-first"``;
- the **law** of the frequencies, ``k = 0 .. h-1``:

  .. math::

      \text{paper: } \omega_k = b^{-2k/d}, \qquad
      \text{tensor2tensor: } \omega_k = \exp\!\Bigl(-\frac{k \ln b}{h - 1}\Bigr), \qquad
      \text{one-indexed: } \omega_k = b^{-2(k+1)/d};

- the **offset**: the position of the first row (0 in stored tables; the rows fairseq's
  tokens read start at position 2).

A stored table may also hold a **padding row** of zeros: fairseq (and its ports in Hugging
Face's FSMT, M2M100, XGLM and Speech2Text) keeps rows for positions ``0 .. n-1``, zeroes the
row of ``padding_idx = 1``, and gives the first token row 2.

Every table is produced by :func:`pe.numeric.sinusoidal`: the tensor2tensor law is the
paper's law with the base :math:`b^{d/(d-2)}`, and the one-indexed law is columns
``2 .. d+1`` of the paper's table of width ``d + 2`` with the base :math:`b^{(d+2)/d}`;
then the columns are permuted into the layout.

Public code also differs where the encoding is undefined, at an odd width ``d``: it pads a
zero column, adds a sine, refuses, or returns one column more (:class:`OddWidth`, read off a
table by :func:`odd_width_outcome`).

Each convention's table is written out directly from these definitions, column by column
in plain float64, by :func:`described_table` (the rules in :data:`DESCRIPTION`), with the
bound on its difference from :meth:`Convention.table`.

Converting layouts is a column permutation. With ``perm = permutation(d, source, target)``,
``target_table = source_table[:, perm]``; as matrices, ``x_target = P x_source`` with
``P[j, perm[j]] = 1``, and the shift matrix in the target layout is
:math:`P\,T_k\,P^{\mathsf T}` (see :func:`shift_matrix`).
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric

__all__ = [
    "CONVENTIONS",
    "DESCRIPTION",
    "LAYOUTS",
    "Convention",
    "Description",
    "Law",
    "Layout",
    "OddWidth",
    "Order",
    "column_roles",
    "convert",
    "described_table",
    "get",
    "linear_shift_error",
    "odd_width_outcome",
    "permutation",
    "permutation_matrix",
    "shift_matrix",
]

Layout = Literal["interleaved", "halves"]
Order = Literal["sin-first", "cos-first"]
Law = Literal["paper", "tensor2tensor", "one-indexed"]

#: The four layouts as (layout, order) pairs; the paper's is the first.
LAYOUTS: tuple[tuple[Layout, Order], ...] = (
    ("interleaved", "sin-first"),
    ("interleaved", "cos-first"),
    ("halves", "sin-first"),
    ("halves", "cos-first"),
)


def _layout_args(layout: object, order: object) -> tuple[Layout, Order]:
    if layout not in ("interleaved", "halves"):
        raise ValueError(f"layout must be 'interleaved' or 'halves', got {layout!r}")
    if order not in ("sin-first", "cos-first"):
        raise ValueError(f"order must be 'sin-first' or 'cos-first', got {order!r}")
    return layout, order


def column_roles(
    d_model: int, layout: Layout = "interleaved", order: Order = "sin-first"
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """What each column holds: its pair index ``k`` and whether it is the sine.

    Parameters
    ----------
    d_model
        Even width ``d``.
    layout, order
        The layout (``"interleaved"`` or ``"halves"``) and the order inside a pair.

    Returns
    -------
    (pair, is_sine)
        Two arrays of length ``d``: column ``j`` holds the sine (``is_sine[j]``) or the
        cosine of pair ``pair[j]``.

    Examples
    --------
    >>> pair, is_sine = column_roles(4, "halves")
    >>> pair.tolist(), is_sine.tolist()
    ([0, 1, 0, 1], [True, True, False, False])
    """
    width = _validate.even_width("d_model", d_model)
    lay, ordr = _layout_args(layout, order)
    h = width // 2
    columns = np.arange(width)
    if lay == "interleaved":
        pair, first = columns // 2, columns % 2 == 0
    else:
        pair, first = columns % h, columns < h
    is_sine = first if ordr == "sin-first" else ~first
    return pair.astype(np.int64), np.asarray(is_sine, dtype=np.bool_)


def permutation(
    d_model: int,
    source: tuple[Layout, Order] = ("interleaved", "sin-first"),
    target: tuple[Layout, Order] = ("halves", "sin-first"),
) -> npt.NDArray[np.int64]:
    """Column permutation from one layout to another: ``target = source[:, perm]``.

    Parameters
    ----------
    d_model
        Even width.
    source, target
        ``(layout, order)`` pairs, e.g. ``("interleaved", "sin-first")`` (the paper).

    Returns
    -------
    numpy.ndarray
        Integer array ``perm`` of length ``d``: column ``j`` of the target layout is
        column ``perm[j]`` of the source layout.

    Examples
    --------
    >>> permutation(4).tolist()  # interleaved (s0, c0, s1, c1) -> halves (s0, s1, c0, c1)
    [0, 2, 1, 3]
    """
    src_pair, src_sine = column_roles(d_model, *source)
    dst_pair, dst_sine = column_roles(d_model, *target)
    where = {(int(k), bool(s)): j for j, (k, s) in enumerate(zip(src_pair, src_sine, strict=True))}
    return np.array(
        [where[(int(k), bool(s))] for k, s in zip(dst_pair, dst_sine, strict=True)],
        dtype=np.int64,
    )


def permutation_matrix(
    d_model: int,
    source: tuple[Layout, Order] = ("interleaved", "sin-first"),
    target: tuple[Layout, Order] = ("halves", "sin-first"),
) -> npt.NDArray[np.float64]:
    """The matrix ``P`` with ``x_target = P x_source`` (``P[j, perm[j]] = 1``).

    Examples
    --------
    >>> permutation_matrix(4).astype(int).tolist()
    [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
    """
    perm = permutation(d_model, source, target)
    matrix = np.zeros((perm.size, perm.size))
    matrix[np.arange(perm.size), perm] = 1.0
    return matrix


def convert(
    table: npt.ArrayLike,
    source: tuple[Layout, Order],
    target: tuple[Layout, Order],
) -> npt.NDArray[Any]:
    """Reorder the columns of an ``(n, d)`` table from the ``source`` layout to ``target``.

    Examples
    --------
    >>> paper = get("paper").table(5, 8)
    >>> halves = convert(paper, LAYOUTS[0], ("halves", "sin-first"))
    >>> bool(np.array_equal(halves, get("halves").table(5, 8)))
    True
    """
    array = np.asarray(table)
    if array.ndim != 2:
        raise ValueError(f"table must be a 2-D array (n, d), got shape {array.shape}")
    return array[:, permutation(array.shape[1], source, target)]


def shift_matrix(
    k: float,
    d_model: int,
    layout: Layout = "interleaved",
    order: Order = "sin-first",
    *,
    base: float = 10000.0,
) -> npt.NDArray[np.float64]:
    r"""The shift matrix in a layout: :math:`P\,T_k\,P^{\mathsf T}`.

    :math:`T_k` is :func:`pe.numeric.shift_matrix` (paper layout) and ``P`` the permutation
    matrix from the paper's layout to ``(layout, order)``. In cos-first order each block
    becomes :math:`[[\cos k\omega, -\sin k\omega], [\sin k\omega, \cos k\omega]]`: the
    textbook counter-clockwise rotation.

    Examples
    --------
    >>> c, s = math.cos(1.0), math.sin(1.0)
    >>> bool(np.allclose(shift_matrix(1, 2, "interleaved", "cos-first"), [[c, -s], [s, c]]))
    True
    """
    p = permutation_matrix(d_model, ("interleaved", "sin-first"), _layout_args(layout, order))
    return p @ numeric.shift_matrix(k, d_model, base=base) @ p.T


@dataclass(frozen=True)
class Convention:
    """One way of writing the sinusoidal encoding, able to produce its table.

    Attributes
    ----------
    name
        Short identifier (``"paper"``, ``"tensor2tensor"``, ...).
    title
        What it is, in words.
    layout, order
        Column layout and order inside a pair.
    law
        ``"paper"``, ``"tensor2tensor"`` or ``"one-indexed"`` (see the module).
    base
        Base of the law, ``> 1``.
    offset
        Position of the first row (an integer ``>= 0``).
    padding_row
        The row set to zeros (fairseq's ``padding_idx``), or None.
    """

    name: str
    title: str
    layout: Layout = "interleaved"
    order: Order = "sin-first"
    law: Law = "paper"
    base: float = 10000.0
    offset: int = 0
    padding_row: int | None = None

    @property
    def first_token_row(self) -> int:
        """The row the first token reads: the row after the padding row, else 0.

        Examples
        --------
        >>> get("fairseq").first_token_row, get("paper").first_token_row
        (2, 0)
        """
        return 0 if self.padding_row is None else self.padding_row + 1

    def with_base(self, base: float) -> Convention:
        """The same convention with another base."""
        return dataclasses.replace(self, base=_validate.base_value("base", base))

    def with_offset(self, offset: int) -> Convention:
        """The same convention with rows starting at position ``offset``."""
        return dataclasses.replace(self, offset=_validate.positive_int("offset", offset, minimum=0))

    def frequencies(self, d_model: int) -> npt.NDArray[np.float64]:
        r"""The ``d/2`` frequencies :math:`\omega_k` of this law, pair by pair."""
        width = _validate.even_width("d_model", d_model)
        h = width // 2
        if self.law == "paper":
            return numeric.frequencies(width, self.base)
        if self.law == "tensor2tensor":
            if h == 1:
                return np.ones(1)
            return np.asarray(
                np.exp(-np.arange(h) * math.log(self.base) / (h - 1)), dtype=np.float64
            )
        shifted = numeric.frequencies(width, self.base) * self.base ** (-2.0 / width)
        return np.asarray(shifted, dtype=np.float64)

    def table(
        self, n_positions: int, d_model: int, *, dtype: npt.DTypeLike = np.float64
    ) -> npt.NDArray[Any]:
        """The ``(n, d)`` table for positions ``offset .. offset + n - 1``, via ``pe.numeric``,
        with its padding row (if any, and within the table) set to zeros."""
        count = _validate.positive_int("n_positions", n_positions)
        width = _validate.even_width("d_model", d_model)
        positions = np.arange(self.offset, self.offset + count, dtype=np.int64)
        if self.law == "paper":
            paper = numeric.sinusoidal(positions, width, base=self.base, dtype=dtype)
        elif self.law == "tensor2tensor":
            # exp(-k ln b / (h - 1)) = (b ** (d / (d - 2))) ** (-2k / d); h = 1 has w_0 = 1 only.
            equivalent = self.base ** (width / (width - 2)) if width > 2 else self.base
            paper = numeric.sinusoidal(positions, width, base=equivalent, dtype=dtype)
        else:
            # b ** (-2(k+1)/d) = (b ** ((d+2)/d)) ** (-2(k+1)/(d+2)): drop the first pair.
            wider = numeric.sinusoidal(
                positions, width + 2, base=self.base ** ((width + 2) / width), dtype=dtype
            )
            paper = wider[:, 2:]
        table = paper[
            :, permutation(width, ("interleaved", "sin-first"), (self.layout, self.order))
        ]
        if self.padding_row is not None and self.padding_row < count:
            table[self.padding_row] = 0.0
        return table


#: The named conventions (see the chapter "Conventions and pitfalls" for who uses which).
CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        Convention("paper", "the paper: interleaved (sin, cos), base^(-2i/d), from position 0"),
        Convention(
            "halves",
            "sine half | cosine half, the paper's law (TensorFlow tutorial, HF Marian)",
            layout="halves",
        ),
        Convention(
            "halves-cos-first",
            "cosine half | sine half, the paper's law",
            layout="halves",
            order="cos-first",
        ),
        Convention(
            "interleaved-cos-first",
            "interleaved (cos, sin), the paper's law",
            order="cos-first",
        ),
        Convention(
            "tensor2tensor",
            "sine half | cosine half, exp(-i ln(base)/(d/2 - 1)) (tensor2tensor)",
            layout="halves",
            law="tensor2tensor",
        ),
        Convention(
            "fairseq",
            "fairseq's stored table (HF FSMT, M2M100, XGLM, Speech2Text): tensor2tensor's "
            "table from position 0, padding row 1 zeroed, the first token at row 2",
            layout="halves",
            law="tensor2tensor",
            padding_row=1,
        ),
        Convention(
            "fairseq-tokens",
            "the rows fairseq's tokens read (its forward): tensor2tensor's table from position 2",
            layout="halves",
            law="tensor2tensor",
            offset=2,
        ),
        Convention(
            "one-indexed",
            "interleaved, exponents counted from 1: base^(-2(k+1)/d)",
            law="one-indexed",
        ),
    )
}


def get(name: str) -> Convention:
    """The named convention; ``KeyError`` listing the names if unknown.

    Examples
    --------
    >>> fairseq = get("fairseq")
    >>> fairseq.layout, fairseq.law, fairseq.offset, fairseq.padding_row
    ('halves', 'tensor2tensor', 0, 1)
    """
    try:
        return CONVENTIONS[name]
    except KeyError:
        raise KeyError(f"no convention {name!r}; known: {', '.join(CONVENTIONS)}") from None


class Description(NamedTuple):
    """The conventions as their definitions state them, one rule per choice.

    Attributes
    ----------
    columns
        Per layout: pair ``k`` of width ``d`` -> its (first, second) columns.
    laws
        Per law: pairs ``k`` (an array), width ``d``, base ``b`` -> their frequencies.
    first_position
        The first position, per convention name (0 when not listed).
    padding_row
        The row of zeros (fairseq's padding row), per convention name (none when not
        listed).
    """

    columns: Mapping[str, Callable[[int, int], tuple[int, int]]]
    laws: Mapping[str, Callable[[npt.NDArray[np.int64], int, float], npt.NDArray[np.float64]]]
    first_position: Mapping[str, int]
    padding_row: Mapping[str, int] = {}


#: The definitions: pair k in columns 2k, 2k+1 (interleaved) or k, k + d/2 (halves);
#: b^(-2k/d), exp(-k ln b / (d/2 - 1)), b^(-2(k+1)/d); fairseq's stored table from position
#: 0 with its padding row 1 zeroed, the rows its tokens read from position 2.
DESCRIPTION = Description(
    columns={
        "interleaved": lambda k, _d: (2 * k, 2 * k + 1),
        "halves": lambda k, d: (k, k + d // 2),
    },
    laws={
        "paper": lambda k, d, b: b ** (-2.0 * k / d),
        "tensor2tensor": lambda k, d, b: np.exp(-k * np.log(b) / (d / 2 - 1)),
        "one-indexed": lambda k, d, b: b ** (-2.0 * (k + 1) / d),
    },
    first_position={"fairseq-tokens": 2},
    padding_row={"fairseq": 1},
)


def described_table(
    convention: Convention, n: int, d: int, description: Description = DESCRIPTION
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    r"""The table of ``convention`` written out from ``description``, and a per-entry bound.

    Plain float64, column by column: the sine and cosine of :math:`p\,\omega_k`, with
    :math:`\omega_k` from the described law and ``p`` from the described first position,
    placed in the described columns, the padding row zeroed. Unlike
    :meth:`Convention.table`, no law is rewritten as the paper's with another base.

    Parameters
    ----------
    convention
        The convention (its name, layout, order, law and base are read).
    n, d
        Rows and even width.
    description
        The rules the table is written from.

    Returns
    -------
    (table, bound)
        The ``(n, d)`` table, and for each entry the bound
        :math:`6\varepsilon(1 + p\,\omega_k)(1 + |\ln \omega_k|)` on its difference from
        :meth:`Convention.table`: in each of the two tables, a sine or cosine within one
        ulp, a frequency formed by an exponential whose exponent (of size
        :math:`|\ln \omega_k|`) is rounded twice (:func:`pe._tolerance.exponential_rounding`:
        :math:`\varepsilon + \varepsilon|\ln \omega_k|` relative) and the angle rounded
        once: twice :math:`\varepsilon + (1.5\varepsilon + \varepsilon|\ln \omega_k|)\,p\,\omega_k`
        is within it.

    Examples
    --------
    >>> t2t = get("tensor2tensor")
    >>> table, bound = described_table(t2t, 100, 16)
    >>> bool(np.all(np.abs(table - t2t.table(100, 16)) <= bound))
    True
    """
    _validate.instance("convention", convention, Convention)
    count = _validate.positive_int("n", n)
    width = _validate.even_width("d", d)
    _validate.instance("description", description, Description)
    if convention.law not in description.laws or convention.layout not in description.columns:
        raise ValueError(
            f"description must describe the law {convention.law!r} and the layout {convention.layout!r}"
        )
    _validate.capped_elements("described_table", 6 * count * width, 8)
    k = np.arange(width // 2)
    omega = np.asarray(
        description.laws[convention.law](k, width, convention.base), dtype=np.float64
    )
    if omega.shape != k.shape or not np.all(np.isfinite(omega)):
        raise ValueError(f"description.laws[{convention.law!r}] must give d / 2 finite frequencies")
    first = description.first_position.get(convention.name, 0)
    angles = np.outer(np.arange(first, first + count), omega)
    roles = (np.sin(angles), np.cos(angles))
    if convention.order == "cos-first":
        roles = roles[::-1]
    out = np.empty((n, d))
    tolerance = np.empty((n, d))
    bound = 6 * np.finfo(np.float64).eps * (1 + angles) * (1 + np.abs(np.log(omega)))
    for index in k:
        for column, values in zip(
            description.columns[convention.layout](int(index), d), roles, strict=True
        ):
            out[:, column] = values[:, index]
            tolerance[:, column] = bound[:, index]
    padding = description.padding_row.get(convention.name)
    if padding is not None:
        out[padding] = 0.0
    return out, tolerance


def linear_shift_error(
    table: npt.ArrayLike, k: int, *, matrix: npt.ArrayLike | None = None
) -> float:
    r"""How well one fixed matrix maps row ``p`` to row ``p + k`` of a table.

    With ``matrix`` given, the largest :math:`|M x(p) - x(p+k)|` over the table. Without,
    ``M`` is fitted by least squares on the first half of the row pairs and the error is
    measured on the second half (held out): small when a rotation identity holds for the
    table, large when no position-independent linear map exists (e.g. a sine whose cosine
    is missing).

    Parameters
    ----------
    table
        ``(n, d)`` array of rows at consecutive positions.
    k
        Offset, an integer ``>= 1``.
    matrix
        Optional ``(d, d)`` candidate.

    Examples
    --------
    >>> paper = numeric.sinusoidal(64, 4)
    >>> linear_shift_error(paper, 2) < 1e-9
    True
    >>> linear_shift_error(paper, 2, matrix=numeric.shift_matrix(2, 4).T) > 0.1
    True
    """
    array = np.asarray(table, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"table must be a 2-D array (n, d), got shape {array.shape}")
    offset = _validate.positive_int("k", k)
    n, d = array.shape
    sources, targets = array[:-offset], array[offset:]
    if matrix is not None:
        m = np.asarray(matrix, dtype=np.float64)
        if m.shape != (d, d):
            raise ValueError(f"matrix must have shape ({d}, {d}), got {m.shape}")
        return float(np.max(np.abs(sources @ m.T - targets)))
    half = sources.shape[0] // 2
    if half < 2 * d:
        raise ValueError(f"table needs at least 4 d + k = {4 * d + offset} rows, got {n}")
    solution, *_ = np.linalg.lstsq(sources[:half], targets[:half], rcond=None)
    return float(np.max(np.abs(sources[half:] @ solution - targets[half:])))


class OddWidth(enum.Enum):
    """What an implementation does when asked for a table of odd width ``d``."""

    #: ``d - 1`` columns of sines and cosines, then a column of zeros.
    ZERO_COLUMN = "a zero column"
    #: ``(d + 1) / 2`` sines (each of its own frequency) and ``(d - 1) / 2`` cosines.
    EXTRA_SINE = "an extra sine"
    #: An exception: no table.
    ERROR = "an error"
    #: A table of ``d + 1`` columns.
    ONE_WIDER = "a table one column wider"
    #: None of the four.
    OTHER = "something else"


def odd_width_outcome(outcome: npt.NDArray[Any], d: int) -> OddWidth:
    """Read what an implementation did when asked for odd width ``d`` off what it returned.

    A column is a sine if it is 0 at position 0 and not zero everywhere, a cosine if it is
    1 there. Extra sine: no zero column, one sine more than cosines, no two sines equal.
    Zero column: the last column zero everywhere, as many sines as cosines before it.

    Parameters
    ----------
    outcome
        The table it returned, of shape ``(n, d)`` (or ``(n, 1, d)``, ``(b, n, d)``), whose
        row 0 is position 0; or a 0-d string array naming the exception it raised.
    d
        The odd width asked for.

    Returns
    -------
    OddWidth
        Which of the known behaviours it is (:attr:`OddWidth.OTHER` for none).

    Examples
    --------
    >>> p = np.arange(8.0)[:, None]
    >>> odd_width_outcome(np.hstack([np.sin(p), np.cos(p), 0 * p]), 3)
    <OddWidth.ZERO_COLUMN: 'a zero column'>
    >>> odd_width_outcome(np.hstack([np.sin(p), np.cos(p), np.sin(p / 100)]), 3)
    <OddWidth.EXTRA_SINE: 'an extra sine'>
    >>> odd_width_outcome(np.hstack([np.sin(p), np.cos(p), np.sin(p)]), 3)
    <OddWidth.OTHER: 'something else'>
    >>> odd_width_outcome(np.hstack([np.sin(p), np.cos(p), np.sin(p / 9), np.cos(p / 9)]), 3)
    <OddWidth.ONE_WIDER: 'a table one column wider'>
    >>> odd_width_outcome(np.array("ValueError: odd width"), 3)
    <OddWidth.ERROR: 'an error'>
    """
    width = _validate.positive_int("d", d)
    if width % 2 == 0:
        raise ValueError(f"d must be the odd width asked for, got {width}")
    if not isinstance(outcome, np.ndarray):
        raise TypeError(
            f"outcome must be a NumPy array (a table or an error's name), got {outcome!r:.40}"
        )
    if outcome.dtype.kind == "U":
        return OddWidth.ERROR
    if outcome.dtype.kind not in "fiu":
        raise TypeError(
            f"outcome must hold real numbers or an error's name, got dtype {outcome.dtype}"
        )
    if outcome.ndim == 3:
        outcome = outcome[:, 0] if outcome.shape[1] == 1 else outcome[0]
    if outcome.ndim != 2 or outcome.shape[1] not in (d, d + 1):
        return OddWidth.OTHER
    if outcome.shape[1] == d + 1:
        return OddWidth.ONE_WIDER
    zero: npt.NDArray[np.bool_] = ~np.any(outcome, axis=0)
    sines = ~zero & (outcome[0] == 0)
    cosines = outcome[0] == 1
    if zero.sum() == 1 and zero[-1] and sines.sum() == cosines.sum() == d // 2:
        return OddWidth.ZERO_COLUMN
    distinct = len(np.unique(outcome[:, sines], axis=1).T) == sines.sum()
    if not zero.any() and sines.sum() == cosines.sum() + 1 and distinct:
        return OddWidth.EXTRA_SINE
    return OddWidth.OTHER
