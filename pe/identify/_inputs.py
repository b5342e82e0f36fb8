"""Where ``pe identify`` gets a table, and what it accepts as one.

A table comes from a file (``.npy``, ``.npz`` or ``.safetensors``: :mod:`._files`, headers
checked before any data is read) or a user's function (:func:`call_function`);
:func:`read_table` checks that it is a 2-D float array (``(1, n, d)``, ``(n, 1, d)`` and a
batch of equal tables ``(b, n, d)`` are read as ``(n, d)``; arrays of other libraries,
bfloat16 ones included, are copied to NumPy), :func:`screen` refuses what cannot be an encoding at all and :func:`padding` finds the
zero rows and columns that implementations add. Every failure of a source becomes a
one-line :class:`ValueError` (or :class:`TypeError`) naming the source, so the command
line can print it with a usage line and exit 2, never a traceback.

Accepted functions
------------------
``MODULE:FUNCTION`` names a callable. ``MODULE`` is a dotted module name importable from
the current directory (``mypkg.encodings``) or a path to a ``.py`` file
(``path/to/encodings.py``); ``FUNCTION`` may be a dotted attribute (``Model.table``). It is
called as ``FUNCTION(n, d)``, with two positional integers (the number of positions and
the width), so any of these signatures work::

    def table(n, d): ...
    def table(n_positions, d_model, base=10000.0): ...   # extra parameters need defaults
    def table(*args): ...

It must return an ``(n, d)`` (or ``(1, n, d)``, ``(n, 1, d)``) array of floats: a NumPy
array, a list of lists, or an array of another library (a PyTorch tensor, with gradients
or on a GPU too; a JAX array; bfloat16 included).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate
from pe._arrays import host_copy
from pe.identify._files import load_table
from pe.identify._tensors import MIN_ROWS  # fewest rows pe.identify accepts

__all__ = [
    "FIT_ROWS",
    "MIN_ROWS",
    "PEAK_EPS",
    "Padding",
    "as_table",
    "call_function",
    "load_npy",
    "padding",
    "read_table",
    "screen",
]

#: Rows used for the fits (the rest are checked against the fitted sinusoids).
FIT_ROWS = 1024
#: Values may leave [-1, 1] by this many machine epsilons (rounding), no more.
PEAK_EPS = 8


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load_npy(path: str) -> Any:
    """Load a ``.npy`` file as an array: header checked first, no pickles (:mod:`._files`)."""
    if not path.endswith(".npy"):
        raise ValueError(f"{path}: expected a .npy file")
    return load_table(path).array


def _import(module_name: str) -> Any:
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        file = Path(module_name)
        if not file.is_file():
            raise ValueError(f"{module_name}: no such file")
        spec = importlib.util.spec_from_file_location(file.stem, file)
        if spec is None or spec.loader is None:
            raise ValueError(f"{module_name}: cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    return importlib.import_module(module_name)


def _resolve(spec: str) -> Any:
    """The callable named by ``MODULE:FUNCTION``."""
    module_name, _, attribute = spec.rpartition(":")
    if not module_name or not attribute:
        raise ValueError(f"expected MODULE:FUNCTION, got {spec!r}")
    try:
        target: Any = _import(module_name)
    except ValueError:
        raise
    except BaseException as error:  # the user's module may raise anything on import
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ValueError(f"cannot import {module_name}: {_one_line(error)}") from None
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ValueError(f"{module_name} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{spec} is not callable")
    return target


def call_function(spec: str, n: int, d: int) -> Any:
    """Import ``MODULE:FUNCTION``, call ``FUNCTION(n, d)`` and return what it returned, once
    checked to be an array of shape ``(n, d)`` (or ``(1, n, d)``, ``(n, 1, d)``) in any
    library (:func:`read_table` reads it)."""
    target = _resolve(spec)
    try:
        inspect.signature(target).bind(n, d)
    except TypeError:
        raise TypeError(
            f"{spec} must accept two positional arguments (n, d), "
            f"its signature is {inspect.signature(target)}"
        ) from None
    except ValueError:  # builtins without a signature: just try
        pass
    try:
        result = target(n, d)
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ValueError(f"{spec}({n}, {d}) raised {_one_line(error)}") from None
    try:
        array, _ = host_copy(result)
    except TypeError as error:
        raise TypeError(f"{spec} returned no array: {_one_line(error)}") from None
    if array.shape not in ((n, d), (1, n, d), (n, 1, d)):
        raise ValueError(f"{spec}({n}, {d}) returned shape {array.shape}, expected ({n}, {d})")
    return result


def _two_dimensional(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The ``(n, d)`` table held by an array of shape ``(n, d)``, ``(1, n, d)`` (a batch of
    one, as models store buffers), ``(n, 1, d)`` (PyTorch's tutorial keeps its buffer so,
    to broadcast over a batch in the middle) or ``(b, n, d)`` with ``b`` equal tables (an
    encoding broadcast over a batch)."""
    if array.ndim == 3:
        if array.shape[0] == 0:
            raise ValueError(
                f"table of shape {array.shape} holds no (n, d) table: its batch is empty"
            )
        if array.shape[0] == 1:
            return np.asarray(array[0])
        if array.shape[1] == 1:
            return np.asarray(array[:, 0])
        if not np.array_equal(array, np.broadcast_to(array[:1], array.shape), equal_nan=True):
            raise ValueError(
                f"table of shape {array.shape} holds {array.shape[0]} different (n, d) tables: "
                "pass one of them, e.g. table[0]"
            )
        return np.asarray(array[0])
    if array.ndim != 2:
        raise ValueError(
            f"table must be 2-D (n positions, d columns), or (1, n, d), (n, 1, d) or "
            f"(b, n, d), got shape {array.shape}"
        )
    return array


def read_table(table: object) -> tuple[npt.NDArray[Any], str | None]:
    """``table`` as a 2-D float array of at least :data:`MIN_ROWS` rows and 2 columns, and the
    dtype its values were stored in when NumPy lacks it (``"bfloat16"``), else None.

    Accepts NumPy arrays, nested lists and arrays of other libraries (a PyTorch tensor,
    also one that requires grad or lives on a GPU, a JAX array; bfloat16 ones are widened
    to float32 exactly: :func:`pe._arrays.host_copy`), of shape ``(n, d)``, ``(1, n, d)``,
    ``(n, 1, d)`` or ``(b, n, d)`` with ``b`` equal tables.

    Raises
    ------
    TypeError, ValueError
        For anything else, with the reason.
    """
    if isinstance(table, str | bytes) or table is None:
        raise TypeError("table must be a 2-D array of floats (n positions, d columns)")
    try:
        array, stored = host_copy(table)
    except TypeError as error:
        raise TypeError(f"table must be a 2-D array of floats: {error}") from None
    if array.dtype.kind != "f":
        raise TypeError(
            f"table must hold float16, bfloat16, float32 or float64 values, got {array.dtype}"
        )
    _validate.float_dtype("table.dtype", array.dtype)
    array = _two_dimensional(array)
    n, d = array.shape
    if n < MIN_ROWS:
        raise ValueError(f"table must have at least {MIN_ROWS} rows (positions), got {n}")
    if d < 2:
        raise ValueError(f"table must have at least 2 columns, got {d}")
    _validate.capped_elements("identify's work arrays", min(n, FIT_ROWS) * d, 16)
    return array, stored


def as_table(table: object) -> npt.NDArray[Any]:
    """``table`` as a 2-D float array of at least :data:`MIN_ROWS` rows and 2 columns
    (:func:`read_table` without the stored dtype).

    Raises
    ------
    TypeError, ValueError
        For anything else, with the reason.

    Examples
    --------
    >>> as_table(np.zeros((16, 2))).shape
    (16, 2)
    >>> as_table(np.zeros((1, 16, 2))).shape, as_table(np.zeros((16, 1, 2))).shape
    ((16, 2), (16, 2))
    >>> as_table(np.zeros((15, 2)))
    Traceback (most recent call last):
    ...
    ValueError: table must have at least 16 rows (positions), got 15
    """
    return read_table(table)[0]


def _rows_all_equal(array: npt.NDArray[Any]) -> bool:
    """Whether every row equals row 0, comparing a block of rows at a time (an encoding's
    row 1 differs already: no pass over the whole table)."""
    for lo in range(1, array.shape[0], FIT_ROWS):
        if np.any(array[lo : lo + FIT_ROWS] != array[0]):
            return False
    return True


def screen(array: npt.NDArray[Any], eps: float) -> str | None:
    """Why the table cannot be an encoding at all (None if it may be one).

    Examples
    --------
    >>> screen(np.zeros((16, 2)), 1e-16)
    'not an encoding: every value is 0'
    """
    # two passes without temporaries (a NaN or an infinity shows in the minimum or maximum)
    low, high = float(array.min()), float(array.max())
    if not (math.isfinite(low) and math.isfinite(high)):
        bad = ~np.isfinite(array)
        r, c = np.argwhere(bad)[0]
        what = "NaN" if np.isnan(array[r, c]) else "infinite"
        return (
            f"not an encoding: the table holds {int(bad.sum())} NaN or infinite values "
            f"(first: {what} at row {r}, column {c})"
        )
    if low == 0.0 == high:
        return "not an encoding: every value is 0"
    if _rows_all_equal(array):
        return "not an encoding: every row is the same, so no column depends on the position"
    peak = max(-low, high)
    if peak > 1.0 + PEAK_EPS * eps:
        return (
            f"not a sinusoidal encoding: values reach {peak:.4g}, outside [-1, 1] "
            "(sines and cosines never leave it; a scaled table must be divided by its scale)"
        )
    return None


@dataclass(frozen=True)
class Padding:
    """The rows and columns an implementation padded with zeros.

    Attributes
    ----------
    rows
        1 for the rows used by the fit, 0 for zero (padding) rows.
    width
        Columns analysed (an odd width's trailing zero column dropped).
    zero_rows
        The rows that are all zeros (a padding row, such as fairseq's row ``padding_idx``).
    notes
        What was found, in words.
    """

    rows: npt.NDArray[np.float64]
    width: int
    zero_rows: tuple[int, ...]
    notes: list[str]

    @property
    def has_zero_rows(self) -> bool:
        """Whether some row is all zeros."""
        return bool(self.zero_rows)


def padding(array: npt.NDArray[Any], m: int) -> Padding | str:
    """Zero rows (fairseq's padding row) and zero columns (tensor2tensor's odd-width pad).

    Returns the refusal instead when the zeros leave no encoding to read.

    Examples
    --------
    >>> table = np.ones((16, 3))
    >>> table[:, 2] = 0.0
    >>> padding(table, 16).width
    2
    """
    d = array.shape[1]
    notes: list[str] = []
    zero_rows = np.count_nonzero(array, axis=1) == 0
    if zero_rows.any():
        listed = np.flatnonzero(zero_rows)
        if listed.size > 2:
            more = ", ..." if listed.size > 5 else ""
            return (
                f"not a sinusoidal encoding: {listed.size} rows are all zeros "
                f"(rows {', '.join(map(str, listed[:5]))}{more})"
            )
        notes.append(
            f"row {', '.join(map(str, listed))} is all zeros: a padding row (fairseq and its "
            "ports zero the row of padding_idx and start the tokens after it); it is ignored"
        )
    zero_cols = np.count_nonzero(array, axis=0) == 0
    width = d
    if zero_cols[-1] and d % 2 == 1:
        width = d - 1
        notes.append(
            f"the width d = {d} is odd and the last column is all zeros: padding, as "
            "tensor2tensor does for odd widths"
        )
    elif zero_cols.any():
        listed = np.flatnonzero(zero_cols)[:8]
        notes.append(
            f"columns {', '.join(map(str, listed))} are all zeros (read as sines of frequency 0)"
        )
    if width < 2:
        return "not an encoding: fewer than two non-zero columns"
    rows = (~zero_rows[:m]).astype(np.float64)
    return Padding(rows, width, tuple(int(r) for r in np.flatnonzero(zero_rows)), notes)
