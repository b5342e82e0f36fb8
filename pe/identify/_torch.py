"""PyTorch checkpoints (``.bin``, ``.pt``, ``.pth``) read without torch and without running them.

``torch.save`` writes a zip archive: ``ARCHIVE/data.pkl``, a pickle of the saved object (a
state dict: names to tensors), and one member ``ARCHIVE/data/KEY`` of raw bytes per storage.
A pickle is a program: loading one with :mod:`pickle` runs whatever functions it names
(``os.system`` included). This reader never does. Its unpickler knows a short allow-list
of names, the ones ``torch.save`` writes for a state dict, and maps each to a stand-in of
its own that only records what the file declares:

- ``torch._utils._rebuild_tensor_v2`` and ``_rebuild_parameter``: a :class:`TensorRef`
  (storage key, dtype, offset, shape, strides), no data read;
- ``torch.FloatStorage`` and the other storage types: the dtype of a storage;
- ``collections.OrderedDict``: a dict (state dicts are ordered dicts).

A pickle that names anything else is refused with a one-line :class:`ValueError` naming
what it asked for, before anything it names could run. The tensor chosen is then read
from its storage member: the member must be stored uncompressed (as ``torch.save``
writes), hold exactly the bytes its storage declares, and the tensor's offset, shape and
strides must stay inside it; larger than :data:`pe.MAX_BYTES`, it is refused before
reading. Files in the legacy format (before PyTorch 1.6, not a zip) are refused.
"""

from __future__ import annotations

import math
import pickle
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pe.identify._tensors import (
    Loaded,
    Stored,
    cap,
    choose,
    decode_sample,
    one_line,
    sample_bytes,
    widen_bfloat16,
)

__all__ = [
    "MAX_PICKLE_BYTES",
    "STORAGES",
    "TensorRef",
    "load_torch_file",
    "torch_checkpoint",
    "torch_stored",
    "torch_tensors",
]

#: Largest ``data.pkl`` read: a state dict's pickle holds names and shapes, not values
#: (a thousand tensors take about 100 kB).
MAX_PICKLE_BYTES = 64 * 2**20
#: Nested dicts are flattened to dotted names down to this depth.
MAX_DEPTH = 16

#: torch's storage types and the dtype (NumPy's name, or ``bfloat16``) of their elements.
STORAGES = {
    "DoubleStorage": "float64",
    "FloatStorage": "float32",
    "HalfStorage": "float16",
    "BFloat16Storage": "bfloat16",
    "LongStorage": "int64",
    "IntStorage": "int32",
    "ShortStorage": "int16",
    "CharStorage": "int8",
    "ByteStorage": "uint8",
    "BoolStorage": "bool",
    "ComplexDoubleStorage": "complex128",
    "ComplexFloatStorage": "complex64",
}


@dataclass(frozen=True, slots=True)
class _StorageType:
    dtype: str


@dataclass(frozen=True, slots=True)
class _StorageRef:
    key: str
    dtype: str
    numel: int


@dataclass(frozen=True, slots=True)
class TensorRef:
    """A tensor as the pickle declares it: which storage, where in it, what shape."""

    storage: _StorageRef
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]

    @property
    def dtype(self) -> str:
        return self.storage.dtype


class _StateDict(dict[Any, Any]):
    """An ordered dict that accepts the attributes a state dict pickles (``_metadata``)."""


def _int(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise pickle.UnpicklingError(f"{what} is not a non-negative integer")
    return value


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, tuple) or len(value) > 8:
        raise pickle.UnpicklingError(f"{what} is not a tuple of at most 8 integers")
    return tuple(_int(v, what) for v in value)


def _rebuild_tensor(
    storage: object, offset: object, shape: object, strides: object, *_: object
) -> TensorRef:
    if not isinstance(storage, _StorageRef):
        raise pickle.UnpicklingError("a tensor without a storage")
    dims, steps = _ints(shape, "a shape"), _ints(strides, "strides")
    if len(dims) != len(steps):
        raise pickle.UnpicklingError("a shape and strides of different lengths")
    return TensorRef(storage, _int(offset, "an offset"), dims, steps)


def _rebuild_parameter(data: object, *_: object) -> object:
    if not isinstance(data, TensorRef):
        raise pickle.UnpicklingError("a parameter without a tensor")
    return data


def _ordered_dict(*args: object) -> _StateDict:
    if args:
        raise pickle.UnpicklingError("an OrderedDict built from arguments")
    return _StateDict()


_ALLOWED: dict[tuple[str, str], object] = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("collections", "OrderedDict"): _ordered_dict,
    **{("torch", name): _StorageType(dtype) for name, dtype in STORAGES.items()},
}


class _Refused(pickle.UnpicklingError):
    """The pickle named something outside the allow-list."""


class _Unpickler(pickle.Unpickler):
    """Resolves only the allow-listed names, to pe's own stand-ins."""

    def find_class(self, module: str, name: str) -> Any:
        found = _ALLOWED.get((module, name))
        if found is None:
            raise _Refused(f"{module}.{name}"[:120])
        return found

    def persistent_load(self, pid: Any) -> Any:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise pickle.UnpicklingError("a persistent id that is not a storage")
        _, kind, key, _location, numel = pid
        if not isinstance(kind, _StorageType) or not isinstance(key, str) or len(key) > 64:
            raise pickle.UnpicklingError("a storage without a known type or key")
        return _StorageRef(key, kind.dtype, _int(numel, "a storage size"))


def _flatten(value: object, prefix: str, depth: int, out: dict[str, TensorRef]) -> None:
    """Every tensor of nested dicts, by dotted name (``model.encoder.weight``)."""
    if isinstance(value, TensorRef):
        out[prefix or "tensor"] = value
    elif isinstance(value, dict) and depth < MAX_DEPTH:
        for key, item in value.items():
            if isinstance(key, str | int):
                _flatten(item, f"{prefix}.{key}" if prefix else str(key), depth + 1, out)


def _archive_root(archive: zipfile.ZipFile, source: str) -> str:
    roots = [
        name[: -len("/data.pkl")]
        for name in archive.namelist()
        if name.endswith("/data.pkl") and name.count("/") == 1
    ]
    if len(roots) != 1:
        raise ValueError(
            f"{source}: not a PyTorch checkpoint ({len(roots) or 'no'} ARCHIVE/data.pkl in "
            "the zip, where torch.save writes one)"
        )
    return roots[0]


def _stored_member(archive: zipfile.ZipFile, name: str, source: str) -> zipfile.ZipInfo:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ValueError(f"{source}: the archive lacks {name}") from None
    if info.compress_type != zipfile.ZIP_STORED:
        raise ValueError(f"{source}: {name} is compressed, which torch.save never does")
    return info


def torch_tensors(archive: zipfile.ZipFile, source: str) -> tuple[str, dict[str, TensorRef]]:
    """The archive's root folder and its tensors by name, from ``data.pkl`` (no data read)."""
    root = _archive_root(archive, source)
    info = _stored_member(archive, f"{root}/data.pkl", source)
    if info.file_size > MAX_PICKLE_BYTES:
        raise ValueError(
            f"{source}: data.pkl holds {info.file_size} bytes, above pe's limit of "
            f"{MAX_PICKLE_BYTES // 2**20} MiB for a state dict's pickle"
        )
    with archive.open(info) as handle:
        try:
            saved = _Unpickler(handle).load()
        except _Refused as refused:
            raise ValueError(
                f"{source}: its pickle asks for {refused}, which is not part of a state dict "
                "of tensors; pe never runs a pickle, so it reads nothing from this file"
            ) from None
        except Exception as error:  # noqa: BLE001 (hostile bytes may fail in any way)
            raise ValueError(
                f"{source}: not a readable PyTorch pickle ({one_line(error)})"
            ) from None
    tensors: dict[str, TensorRef] = {}
    _flatten(saved, "", 0, tensors)
    return root, tensors


def _dtype(name: str, big_endian: bool) -> np.dtype[Any]:
    if name == "bfloat16":
        return np.dtype(">u2" if big_endian else "<u2")
    dtype = np.dtype(name)
    return dtype.newbyteorder(">" if big_endian else "<") if dtype.itemsize > 1 else dtype


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The strides, in elements, of a C-contiguous array of ``shape``."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _data_start(path: Path, info: zipfile.ZipInfo, where: str) -> int:
    """Where a stored member's bytes begin in the file (after its local header)."""
    with path.open("rb") as handle:
        handle.seek(info.header_offset)
        header = handle.read(30)
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise ValueError(f"{where}: a zip member without its local header")
    names, extra = int.from_bytes(header[26:28], "little"), int.from_bytes(header[28:30], "little")
    return info.header_offset + 30 + names + extra


@dataclass(frozen=True)
class _Checkpoint:
    """What a ``torch.save`` archive declares, and where its storages lie in the file."""

    path: Path
    source: str
    refs: dict[str, TensorRef]
    members: dict[str, zipfile.ZipInfo]  # storage key -> member
    big_endian: bool

    def span(self, ref: TensorRef, where: str) -> tuple[int, int]:
        """(first element, elements) of the storage that the tensor's view covers, checked
        against the storage's declared size and the member's bytes."""
        info = self.members.get(ref.storage.key)
        if info is None:
            raise ValueError(f"{where}: the archive lacks its storage {ref.storage.key!r:.40}")
        itemsize = _dtype(ref.dtype, self.big_endian).itemsize
        if info.file_size != ref.storage.numel * itemsize:
            raise ValueError(
                f"{where}: its storage declares {ref.storage.numel} elements, the archive "
                f"holds {info.file_size} bytes"
            )
        if not math.prod(ref.shape):
            return ref.offset, 0
        last = ref.offset + sum((n - 1) * s for n, s in zip(ref.shape, ref.strides, strict=True))
        if last >= ref.storage.numel:
            raise ValueError(f"{where}: its shape and strides reach past its storage")
        return ref.offset, last - ref.offset + 1

    def read(self, ref: TensorRef, where: str, first: int, count: int) -> bytes:
        """``count`` elements of the tensor's storage from element ``first``."""
        info = self.members[ref.storage.key]
        itemsize = _dtype(ref.dtype, self.big_endian).itemsize
        with self.path.open("rb") as handle:
            handle.seek(_data_start(self.path, info, where) + first * itemsize)
            data = handle.read(count * itemsize)
        if len(data) != count * itemsize:
            raise ValueError(
                f"{where}: truncated storage ({len(data)} of {count * itemsize} bytes)"
            )
        return data

    def array(self, ref: TensorRef, where: str) -> npt.NDArray[Any]:
        """The tensor's values (bfloat16 widened to float32), native byte order."""
        first, count = self.span(ref, where)
        dtype = _dtype(ref.dtype, self.big_endian)
        flat = np.frombuffer(self.read(ref, where, first, count), dtype=dtype)
        view = np.lib.stride_tricks.as_strided(
            flat,
            shape=ref.shape,
            strides=tuple(s * dtype.itemsize for s in ref.strides),
            writeable=False,
        )
        values = np.array(view)  # a copy: a strided view may overlap itself
        if ref.dtype == "bfloat16":
            return widen_bfloat16(values.astype(np.uint16))
        return values.astype(values.dtype.newbyteorder("="), copy=False)

    def sample(self, stored: Stored) -> npt.NDArray[Any] | None:
        """The first rows of a float tensor's table, when its rows are contiguous."""
        ref = self.refs[stored.name]
        if ref.dtype not in ("float16", "bfloat16", "float32", "float64"):
            return None
        itemsize = _dtype(ref.dtype, self.big_endian).itemsize
        size = sample_bytes(stored, itemsize)
        if not size or ref.strides != _c_strides(ref.shape):
            return None
        try:
            self.span(ref, stored.name)
            data = self.read(ref, stored.name, ref.offset, size // itemsize)
        except ValueError:
            return None
        return decode_sample(stored, data, ref.dtype, self.big_endian)  # type: ignore[no-any-return]


def torch_checkpoint(path: Path, source: str) -> _Checkpoint:
    """The tensors a ``torch.save`` zip archive declares (its pickle read by the allow-listed
    unpickler), with where their storages lie; no tensor data read."""
    if not zipfile.is_zipfile(path):
        raise ValueError(
            f"{source}: not a zip-format PyTorch file (torch.save's format since PyTorch 1.6; "
            "older files run their pickle to load, and pe reads none)"
        )
    try:
        with zipfile.ZipFile(path) as archive:
            root, refs = torch_tensors(archive, source)
            order = "little"
            if f"{root}/byteorder" in archive.namelist():
                raw = archive.read(_stored_member(archive, f"{root}/byteorder", source))
                order = raw[:8].decode("ascii", "replace").strip()
                if order not in ("little", "big"):
                    raise ValueError(
                        f"{source}: its byteorder record is {order!r}, neither 'little' nor 'big'"
                    )
            prefix = f"{root}/data/"
            members = {
                info.filename[len(prefix) :]: info
                for info in archive.infolist()
                if info.filename.startswith(prefix) and info.compress_type == zipfile.ZIP_STORED
            }
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as error:
        raise ValueError(f"{source}: not a readable zip archive ({one_line(error)})") from None
    return _Checkpoint(path, source, refs, members, order == "big")


def torch_stored(checkpoint: _Checkpoint) -> list[Stored]:
    """The checkpoint's tensors as declared: name, shape, dtype."""
    return [Stored(name, ref.shape, ref.dtype) for name, ref in checkpoint.refs.items()]


def load_torch_file(path: Path, source: str, tensor: str | None) -> Loaded:
    """One tensor of a ``torch.save`` zip archive, read without torch and without its pickle
    running (see the module)."""
    checkpoint = torch_checkpoint(path, source)
    chosen = choose(source, torch_stored(checkpoint), tensor, {}, checkpoint.sample)
    ref = checkpoint.refs[chosen.name]
    where = f"{source}:{chosen.name}"
    if ref.dtype not in ("float16", "bfloat16", "float32", "float64"):
        raise ValueError(
            f"{source}: tensor {chosen.describe()} does not hold float16, bfloat16, float32 "
            "or float64 values"
        )
    itemsize = _dtype(ref.dtype, checkpoint.big_endian).itemsize
    cap(where, chosen, itemsize + (4 if ref.dtype == "bfloat16" else 0))
    try:
        array = checkpoint.array(ref, where)
    except OSError as error:
        raise ValueError(f"{source}: not readable ({one_line(error)})") from None
    return Loaded(array, ref.dtype, chosen.name)
