"""What a file's header declares about a tensor, and what was read: shared by the readers.

:class:`Stored` is a tensor as declared (name, shape, dtype) before any data is read;
:func:`cap` refuses one above :data:`pe.MAX_BYTES`; :func:`choose` picks the named tensor
or lists those that could be a table; :func:`widen_bfloat16` turns bfloat16 bits into
float32 numbers of the same value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate

__all__ = [
    "FLOATS",
    "MIN_ROWS",
    "SAFETENSORS_FLOATS",
    "Loaded",
    "Stored",
    "cap",
    "choose",
    "could_be_table",
    "one_line",
    "widen_bfloat16",
]

#: Fewest rows :func:`pe.identify.identify` accepts (fewer cannot pin the frequencies).
MIN_ROWS = 16
#: The float dtypes of ``.safetensors`` and their names here.
SAFETENSORS_FLOATS = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16"}
#: Float dtypes a table may be stored in.
FLOATS = ("float16", "float32", "float64", "bfloat16")


@dataclass(frozen=True)
class Stored:
    """A tensor as a file's header declares it: its name, shape and dtype (e.g. ``BF16``)."""

    name: str
    shape: tuple[int, ...]
    dtype: str

    def describe(self) -> str:
        return f"{self.name} {self.shape} {self.dtype}"


@dataclass(frozen=True)
class Loaded:
    """A table read from a file: the array, the dtype it was stored in, and which tensor."""

    array: npt.NDArray[Any]
    stored_dtype: str
    tensor: str | None


def could_be_table(shape: tuple[int, ...], dtype: str) -> bool:
    """Whether a tensor of this shape and dtype could be an ``(n, d)`` encoding table.

    Examples
    --------
    >>> could_be_table((1, 512, 768), "float32"), could_be_table((768,), "float32")
    (True, False)
    """
    dims = shape[1:] if len(shape) == 3 and shape[0] == 1 else shape
    floats = dtype in FLOATS or dtype in SAFETENSORS_FLOATS
    return floats and len(dims) == 2 and dims[0] >= MIN_ROWS and dims[1] >= 2


def widen_bfloat16(bits: npt.NDArray[np.uint16]) -> npt.NDArray[np.float32]:
    """bfloat16 numbers, given as their 16 bits, as the float32 numbers of the same value.

    Examples
    --------
    >>> widen_bfloat16(np.array([0x3F80, 0xC020, 0x0001], dtype=np.uint16)).tolist()
    [1.0, -2.5, 9.183549615799121e-41]
    """
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def cap(where: str, stored: Stored, bytes_per_element: int) -> None:
    """Refuse a tensor whose data would pass :data:`pe.MAX_BYTES`, before reading it."""
    elements = math.prod(stored.shape)
    label = f"{where}: the tensor {stored.shape} {stored.dtype}"
    _validate.capped_elements(label, elements, bytes_per_element)


def choose(
    source: str, tensors: list[Stored], tensor: str | None, broken: dict[str, str]
) -> Stored:
    """The tensor named ``tensor`` (or the only one), else an error listing the candidates."""
    if tensor in broken or (tensor is None and not tensors and broken):
        raise ValueError(broken[tensor if tensor is not None else next(iter(broken))])
    by_name = {t.name: t for t in tensors}
    if tensor is not None and tensor in by_name:
        return by_name[tensor]
    if tensor is None and len(tensors) == 1:
        return tensors[0]
    tables = [t.describe() for t in tensors if could_be_table(t.shape, t.dtype)]
    shown = "; ".join(tables[:12]) + (f"; and {len(tables) - 12} more" if len(tables) > 12 else "")
    listing = f"tensors that could be a table: {shown}" if tables else "none could be a table"
    what = "--tensor NAME is needed" if tensor is None else f"no tensor named {tensor!r:.60}"
    raise ValueError(f"{source}: {what} ({len(tensors)} tensors; {listing})")


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
