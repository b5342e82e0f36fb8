"""``.safetensors`` checkpoints: the JSON header checked field by field, then one tensor read.

The format: an 8-byte little-endian header length, a JSON header giving each tensor's
dtype, shape and byte range, then the data. Tensors are read by the ``safetensors``
package's NumPy interface, except ``BF16``, whose 16-bit patterns are read here and widened
to float32 (:func:`pe.identify._tensors.widen_bfloat16`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pe.identify._tensors import (
    SAFETENSORS_FLOATS,
    Loaded,
    Sampler,
    Stored,
    cap,
    choose,
    decode_sample,
    one_line,
    sample_bytes,
    widen_bfloat16,
)

__all__ = [
    "MAX_HEADER_BYTES",
    "SAFETENSORS_ITEMSIZE",
    "load_safetensors_file",
    "safetensors_tensors",
]

#: Largest ``.safetensors`` JSON header read: the format allows 100 MB, but parsed into
#: Python objects that could pass pe.MAX_BYTES; checkpoints' headers stay far below 1 MB.
MAX_HEADER_BYTES = 16_000_000
#: Bytes per element of the dtypes a ``.safetensors`` header may name.
SAFETENSORS_ITEMSIZE = {
    "F64": 8, "F32": 4, "F16": 2, "BF16": 2, "F8_E4M3": 1, "F8_E5M2": 1,
    "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U64": 8, "U32": 4, "U16": 2, "U8": 1, "BOOL": 1,
}  # fmt: skip


def _safetensors_header(path: Path, source: str) -> tuple[int, list[Stored], dict[str, Any]]:
    """(data start, tensors, raw entries) from a ``.safetensors`` header, every field checked."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(8)
        if len(head) < 8:
            raise ValueError(f"{source}: truncated: fewer than 8 bytes (no header length)")
        length = int.from_bytes(head, "little")
        if length > size - 8:
            raise ValueError(
                f"{source}: the header length {length} exceeds the file ({size} bytes)"
            )
        if length > MAX_HEADER_BYTES:
            limit = f"{MAX_HEADER_BYTES // 10**6} MB"
            raise ValueError(f"{source}: a header of {length} bytes, above pe's limit of {limit}")
        try:
            header = json.loads(handle.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            raise ValueError(f"{source}: not a .safetensors header ({one_line(error)})") from None
    if not isinstance(header, dict):  # a wrong file's content: a value error, not a type one
        raise ValueError(f"{source}: not a .safetensors header (no JSON object)")  # noqa: TRY004
    entries = {k: v for k, v in header.items() if k != "__metadata__"}
    data_bytes = size - 8 - length
    tensors = [_safetensors_entry(source, k, v, data_bytes) for k, v in entries.items()]
    return 8 + length, tensors, entries


def _safetensors_entry(source: str, name: str, entry: Any, data_bytes: int) -> Stored:
    bad = f"{source}: tensor {name!r:.60} has a malformed header entry"
    fields = entry if isinstance(entry, dict) else {}
    dtype, shape, offsets = fields.get("dtype"), fields.get("shape"), fields.get("data_offsets")
    if not (
        isinstance(dtype, str)
        and isinstance(shape, list)
        and all(type(n) is int and n >= 0 for n in shape)
        and isinstance(offsets, list)
        and len(offsets) == 2
        and all(type(n) is int for n in offsets)
    ):
        raise ValueError(bad)
    stored = Stored(name, tuple(shape), dtype)
    begin, end = offsets
    itemsize = SAFETENSORS_ITEMSIZE.get(dtype)
    size = end - begin if itemsize is None else math.prod(shape) * itemsize
    if not 0 <= begin <= end == begin + size:
        raise ValueError(f"{source}: tensor {stored.describe()} does not fit its bytes {offsets}")
    if end > data_bytes:
        raise ValueError(
            f"{source}: truncated: tensor {stored.describe()} ends at byte {end} of the data, "
            f"which holds {data_bytes}"
        )
    return stored


def _safetensors_sampler(path: Path, start: int, entries: dict[str, Any]) -> Sampler:
    """The first rows of a float tensor's table, read from its byte range."""

    def sample(stored: Stored) -> npt.NDArray[Any] | None:
        dtype = SAFETENSORS_FLOATS.get(stored.dtype)
        if dtype is None:
            return None
        size = sample_bytes(stored, SAFETENSORS_ITEMSIZE[stored.dtype])
        if not size:
            return None
        with path.open("rb") as handle:
            handle.seek(start + entries[stored.name]["data_offsets"][0])
            data = handle.read(size)
        return None if len(data) < size else decode_sample(stored, data, dtype)

    return sample


def safetensors_tensors(path: Path, source: str) -> tuple[list[Stored], Sampler]:
    """The tensors of a ``.safetensors`` file as its header declares them, and a sampler."""
    start, tensors, entries = _safetensors_header(path, source)
    return tensors, _safetensors_sampler(path, start, entries)


def load_safetensors_file(path: Path, source: str, tensor: str | None) -> Loaded:
    start, tensors, entries = _safetensors_header(path, source)
    chosen = choose(source, tensors, tensor, {}, _safetensors_sampler(path, start, entries))
    if chosen.dtype not in SAFETENSORS_FLOATS:
        raise ValueError(
            f"{source}: tensor {chosen.describe()} does not hold float16, bfloat16, float32 "
            "or float64 values"
        )
    widened = 4 if chosen.dtype == "BF16" else 0
    cap(f"{source}:{chosen.name}", chosen, SAFETENSORS_ITEMSIZE[chosen.dtype] + widened)
    if chosen.dtype == "BF16":
        begin, end = entries[chosen.name]["data_offsets"]
        with path.open("rb") as handle:
            handle.seek(start + begin)
            raw = np.frombuffer(handle.read(end - begin), dtype="<u2")
            bits = raw.astype(np.uint16, copy=False)  # no copy on little-endian machines
        array: npt.NDArray[Any] = widen_bfloat16(bits).reshape(chosen.shape)
    else:
        from safetensors import SafetensorError, safe_open

        try:
            with safe_open(str(path), framework="numpy") as handle:
                array = np.asarray(handle.get_tensor(chosen.name))
        except (SafetensorError, OSError, ValueError, TypeError) as error:
            message = f"{source}: not a readable .safetensors file ({one_line(error)})"
            raise ValueError(message) from None
    return Loaded(array, SAFETENSORS_FLOATS[chosen.dtype], chosen.name)
