"""Argument checks shared by the public API.

Every public function of :mod:`pe` validates its arguments here, so that bad input
gets one clear, one-line :class:`ValueError` or :class:`TypeError` naming the argument,
never a traceback from deep inside NumPy, a silent wrong answer, or a huge allocation.
"""

from __future__ import annotations

import math
import numbers
import operator
import sys
from typing import Any, cast

import numpy as np
import numpy.typing as npt

#: Largest array, in bytes, that any function of :mod:`pe` will allocate (1 GiB).
#: Requests above it raise :class:`ValueError` before anything is allocated.
MAX_BYTES: int = 2**30

#: Largest magnitude of an integer position or offset: sums of two and absolute values
#: then cannot overflow int64 (``abs(-2**63)`` wraps around to a negative number).
MAX_INTEGER: int = 2**62

#: Floating-point dtypes the numeric functions accept.
FLOAT_DTYPES: tuple[type[np.floating[Any]], ...] = (np.float16, np.float32, np.float64)


def _is_integer(value: object) -> bool:
    if type(value) is int:  # the common case, without the slower abstract-class check
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_count(value: object) -> bool:
    """Whether ``value`` is an integer (a count of positions), not a bool.

    Examples
    --------
    >>> is_count(4), is_count(True), is_count(4.0)
    (True, False, False)
    """
    return _is_integer(value)


def positive_int(name: str, value: object, *, minimum: int = 1) -> int:
    """Return ``value`` as an ``int`` if it is an integer ``>= minimum``.

    Raises
    ------
    TypeError
        If ``value`` is not an integer (floats such as ``4.0`` and booleans are refused).
    ValueError
        If ``value < minimum``.
    """
    if not _is_integer(value):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}")
    number = operator.index(cast(int, value))
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {_describe(number)}")
    return number


def even_width(name: str, value: object) -> int:
    """Return ``value`` as an ``int`` if it is an even integer ``>= 2`` (a model width).

    The paper pairs a sine column with a cosine column, so the width must be even;
    odd widths are handled in five incompatible ways by public code, so :mod:`pe`
    refuses them instead of guessing.
    """
    width = positive_int(name, value, minimum=2)
    if width % 2:
        raise ValueError(
            f"{name} must be even (sine and cosine columns come in pairs), got {_describe(width)}"
        )
    return width


def real_scalar(name: str, value: object) -> float:
    """Return ``value`` as a finite ``float``; refuse booleans, strings, NaN and infinities."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {_describe(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond float64's range, e.g. 10**400
        raise ValueError(f"{name} must be finite, got an integer beyond float64's range") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number}")
    return number


def base_value(name: str, value: object) -> float:
    """Return the base of the frequency law as a ``float`` if it is finite and ``> 1``.

    With ``base <= 1`` the frequencies ``base**(-2i/d)`` no longer decrease (``base = 1``
    gives every pair the same frequency, so rows stop being distinguishable).
    """
    number = real_scalar(name, value)
    if number <= 1.0:
        raise ValueError(f"{name} must be > 1, got {number}")
    return number


def float_dtype(name: str, value: object) -> np.dtype[np.floating[Any]]:
    """Return ``value`` as one of the accepted floating dtypes (float16, float32, float64)."""
    try:
        dtype: np.dtype[Any] = np.dtype(cast(Any, value))
    except TypeError:
        raise TypeError(
            f"{name} must be float16, float32 or float64, got {_describe(value)}"
        ) from None
    if dtype.type not in FLOAT_DTYPES:
        raise TypeError(f"{name} must be float16, float32 or float64, got {dtype}")
    return cast("np.dtype[np.floating[Any]]", dtype)


def float_array(name: str, value: object, shape: str) -> npt.NDArray[np.floating[Any]]:
    """``value`` as a float16/32/64 array (integers widened to float64), else a one-line error.

    ``shape`` is the expected shape in words, for the message (``"(..., n, d)"``).

    Examples
    --------
    >>> float_array("x", [[1, 2]], "(n, d)").dtype
    dtype('float64')
    """
    expected = f"{name} must be a real array of shape {shape}"
    if isinstance(value, str | bytes) or value is None:
        raise TypeError(expected)
    array = np.asarray(value)
    if array.dtype.kind == "b":
        raise TypeError(f"{expected}, got booleans")
    if array.dtype.kind in "iu":
        array = array.astype(np.float64)
    if array.dtype.kind != "f":
        raise TypeError(f"{expected}, got dtype {array.dtype}")
    float_dtype(f"{name}.dtype", array.dtype)
    return cast("npt.NDArray[np.floating[Any]]", array)


def _position_array(name: str, value: object, *, what: str) -> npt.NDArray[Any]:
    """``value`` as a non-empty 1-D array of real numbers (booleans and strings refused)."""
    if isinstance(value, str | bytes) or value is None:
        raise TypeError(f"{name} must be an integer count or a 1-D array of {what}")
    array = np.asarray(value)
    if array.ndim == 0:  # a scalar that is not an integer: 2.5, nan, np.float64(4.0), True
        raise TypeError(
            f"{name} must be an integer count or a 1-D array of {what}, got {_describe(value)}"
        )
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of {what}, got shape {array.shape}")
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold {what}, got dtype {array.dtype}")
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array)
        if bad.any():
            at = int(np.argmax(bad))
            raise ValueError(f"{name} must be finite, got {array[at]} at index {at}")
    return array


def _limit_text(limit: int) -> str:
    return f"2**{limit.bit_length() - 1}" if limit & (limit - 1) == 0 else str(limit)


def _within(name: str, array: npt.NDArray[Any], limit: int) -> None:
    """Refuse a value above ``limit`` in absolute value, naming the largest."""
    if array.dtype.kind == "u":
        worst = int(array.max())
    elif array.dtype.kind == "i":
        worst = max(-int(array.min()), int(array.max()))
    else:
        worst_value = float(np.abs(array).max())
        if worst_value <= limit:
            return
        raise ValueError(f"{name} must lie within +-{_limit_text(limit)}, got {worst_value:.17g}")
    if worst > limit:
        raise ValueError(f"{name} must lie within +-{_limit_text(limit)}, got {worst}")


def position_count(name: str, value: object, *, limit: int = MAX_INTEGER) -> int | None:
    """``n`` when ``value`` is an integer count of the positions ``0 .. n-1``, else ``None``.

    A count is checked as :func:`integer_positions` checks it (``>= 1``, its ``int64``
    positions under :data:`MAX_BYTES`, the last one within ``limit``) without making them.
    """
    if not _is_integer(value):
        return None
    count = positive_int(name, value)
    capped_elements(name, count, 8)
    if count - 1 > limit:
        raise ValueError(f"{name} must lie within +-{_limit_text(limit)}, got {count - 1}")
    return count


def integer_positions(
    name: str, value: object, *, limit: int = MAX_INTEGER
) -> npt.NDArray[np.int64]:
    """Return ``value`` as a 1-D ``int64`` array of integers.

    An integer ``n`` stands for the positions ``0, 1, ..., n - 1``; a 1-D array of integers
    (signed, any order, magnitudes at most ``limit``, by default :data:`MAX_INTEGER`) is
    taken as it is. Float arrays are accepted when every value is a whole number
    (``numpy.arange(5.0)``, positions as NumPy users often hold them); a fractional, NaN
    or infinite value raises :class:`ValueError` naming it and its index.

    Examples
    --------
    >>> integer_positions("positions", np.arange(3.0))
    array([0, 1, 2])
    >>> integer_positions("positions", [0.0, 2.5])
    Traceback (most recent call last):
    ...
    ValueError: positions must hold whole numbers, got 2.5 at index 1
    """
    count = position_count(name, value, limit=limit)
    if count is not None:
        return np.arange(count, dtype=np.int64)
    array = _position_array(name, value, what="integers")
    if array.dtype.kind == "f":
        fractional = array != np.floor(array)
        if fractional.any():
            at = int(np.argmax(fractional))
            raise ValueError(f"{name} must hold whole numbers, got {array[at]} at index {at}")
    _within(name, array, limit)
    return array.astype(np.int64)


def real_positions(name: str, value: object, *, limit: int) -> npt.NDArray[np.float64]:
    """Return ``value`` as a 1-D ``float64`` array of finite positions, fractional allowed.

    For functions whose mathematics holds at any real position (a rotation by the angle
    :math:`p \\omega`): an integer ``n`` stands for ``0 .. n - 1``; any value beyond
    ``limit`` in magnitude is refused (callers pass at most ``2**53``, beyond which not
    every integer is a float64 number). Float16 and float32 positions are widened exactly.

    Examples
    --------
    >>> real_positions("positions", [0, 0.25, -1.5], limit=2**53)
    array([ 0.  ,  0.25, -1.5 ])
    """
    if _is_integer(value):
        return integer_positions(name, value, limit=limit).astype(np.float64)
    array = _position_array(name, value, what="real numbers")
    _within(name, array, limit)
    return array.astype(np.float64)


def capped_elements(name: str, elements: int, itemsize: int) -> None:
    """Refuse an allocation of ``elements * itemsize`` bytes above :data:`MAX_BYTES`."""
    if elements * itemsize > MAX_BYTES:
        raise ValueError(
            f"{name} asks for {_gibibytes(elements * itemsize)}, above pe's cap of "
            f"{MAX_BYTES / 2**30:.0f} GiB (pe.MAX_BYTES)"
        )


def _gibibytes(size: int) -> str:
    """``size`` bytes in GiB, readable at any magnitude (no float overflow for huge ints)."""
    whole = size // 2**30
    if whole < 10**6:
        return f"{size / 2**30:.1f} GiB"
    return f"about 1e{len(str(whole)) - 1} GiB"


def function(name: str, value: object) -> Any:
    """Return ``value`` if it can be called (a candidate, a law, a layer), else a ``TypeError``.

    Examples
    --------
    >>> function("law", len) is len
    True
    """
    if not callable(value):
        raise TypeError(f"{name} must be callable, got {_describe(value)}")
    return value


def instance(name: str, value: object, kind: type[Any]) -> Any:
    """Return ``value`` if it is a ``kind`` (an :class:`pe.attention.Encoding`, ...), else a ``TypeError``."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, got {_describe(value)}")
    return value


def exact_scalar(name: str, value: Any) -> Any:
    """Return ``value`` unchanged if it is a real number or a SymPy expression (a symbol).

    For the functions of numbers or symbols (a formula written once, evaluated at a point or
    kept symbolic): booleans, strings, ``None``, complex numbers and containers raise
    :class:`TypeError`; NaN, infinities (float or SymPy) raise :class:`ValueError`. Integers
    of any size pass, as exact arithmetic takes them.

    Examples
    --------
    >>> exact_scalar("w", 2**100) == 2**100
    True
    >>> exact_scalar("w", float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: w must be finite, got nan
    """
    sympy = sys.modules.get("sympy")  # a SymPy object exists only once SymPy is imported
    if sympy is not None and isinstance(value, sympy.Basic):
        if not isinstance(value, sympy.Expr) or isinstance(value, sympy.MatrixExpr):
            raise TypeError(
                f"{name} must be a number or a SymPy expression, got {_describe(value)}"
            )
        if value.is_finite is False or value is sympy.nan:
            raise ValueError(f"{name} must be finite, got {value}")
        return value
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a real number or a SymPy expression, got {_describe(value)}"
        )
    if not _is_integer(value):
        try:
            finite = math.isfinite(float(value))
        except OverflowError:  # a fraction beyond float64's range is still finite
            finite = True
        if not finite:
            raise ValueError(f"{name} must be finite, got {value}")
    return value


def not_positive(value: object) -> bool:
    """Whether ``value`` (checked by :func:`exact_scalar`) is a number known to be ``<= 0``.

    A symbol is not known to be (unless declared so): the formula holds for it.

    Examples
    --------
    >>> not_positive(0), not_positive(-0.5), not_positive(3)
    (True, True, False)
    """
    sympy = sys.modules.get("sympy")
    if sympy is not None and isinstance(value, sympy.Basic):
        return bool(value.is_positive is False and value.is_real)
    return bool(cast(float, value) <= 0)


def sequence(
    name: str,
    value: object,
    what: str,
    *,
    kinds: type[Any] | tuple[type[Any], ...] = (tuple, list),
) -> Any:
    """Return ``value`` if it is a non-empty sequence (a tuple or a list, never a string).

    Examples
    --------
    >>> sequence("offsets", (1, 7), "offsets")
    (1, 7)
    >>> sequence("offsets", (), "offsets")
    Traceback (most recent call last):
    ...
    ValueError: offsets must hold at least one of its offsets, got none
    """
    if isinstance(value, str | bytes) or not isinstance(value, kinds):
        raise TypeError(f"{name} must be a sequence of {what}, got {_describe(value)}")
    if len(cast(Any, value)) == 0:
        raise ValueError(f"{name} must hold at least one of its {what}, got none")
    return value
