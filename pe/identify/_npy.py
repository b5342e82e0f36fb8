"""``.npy`` files and ``.npz`` archives, each header checked before its data is read.

NumPy's format, versions 1 and 2: the header is parsed by :mod:`numpy.lib.format`; an
object dtype (a pickle) is refused there, and the data is read as raw bytes of the
declared dtype, never unpickled. An ``.npz`` is a zip of ``.npy`` members.
"""

from __future__ import annotations

import math
import zipfile
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from pe.identify._tensors import (
    Loaded,
    Sampler,
    Stored,
    cap,
    choose,
    decode_sample,
    one_line,
    sample_bytes,
)

__all__ = ["load_npy_file", "load_npz_file", "npy_tensors", "npz_tensors"]


def _npy_header(handle: IO[bytes], where: str) -> tuple[tuple[int, ...], bool, np.dtype[Any]]:
    """(shape, Fortran order, dtype) from an open ``.npy`` stream, checked; no data read."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(handle)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"format version {version} (pe reads 1.0 and 2.0)")
        read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        shape, fortran, dtype = read(handle)
    except (OSError, ValueError, EOFError, SyntaxError, TypeError) as error:
        raise ValueError(f"{where}: not a readable .npy header ({one_line(error)})") from None
    if dtype.hasobject:
        raise ValueError(f"{where}: holds Python objects (a pickle), which pe never loads")
    if dtype.itemsize == 0:
        raise ValueError(f"{where}: the dtype {dtype} has no size, so no values")
    return tuple(shape), bool(fortran), dtype


def _npy_array(handle: IO[bytes], where: str, size: int) -> npt.NDArray[Any]:
    """The array of a ``.npy`` stream of ``size`` bytes: header checked, then its data read.

    The data is read only when the header's shape is under the cap and the stream holds
    that many bytes (``size``: the file's, or the archive member's declared size; a member
    that holds fewer than it declares is caught after reading at most ``size`` bytes).
    """
    shape, fortran, dtype = _npy_header(handle, where)
    cap(where, Stored(where, shape, dtype.name), dtype.itemsize)
    needed = math.prod(shape) * dtype.itemsize
    if needed > size - handle.tell():
        raise ValueError(
            f"{where}: truncated: the header declares {shape} {dtype.name} "
            f"({needed} bytes of data), the file holds {max(size - handle.tell(), 0)}"
        )
    try:
        data = handle.read(needed)
    except (OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{where}: not readable ({one_line(error)})") from None
    if len(data) < needed:
        raise ValueError(
            f"{where}: truncated: the header declares {shape} {dtype.name} "
            f"({needed} bytes of data), the file holds {len(data)}"
        )
    array = np.frombuffer(data, dtype=dtype)
    return array.reshape(shape, order="F" if fortran else "C")


def npy_tensors(path: Path, source: str) -> tuple[list[Stored], Sampler]:
    """The one array of a ``.npy`` file as its header declares it, and a sampler."""
    with path.open("rb") as handle:
        shape, fortran, dtype = _npy_header(handle, source)
        start = handle.tell()
    stored = Stored(path.stem, shape, dtype.name)

    def sample(_: Stored) -> npt.NDArray[Any] | None:
        size = sample_bytes(stored, dtype.itemsize)
        if fortran or not size or dtype.kind != "f":
            return None
        with path.open("rb") as handle:
            handle.seek(start)
            data = handle.read(size)
        return (
            None
            if len(data) < size
            else decode_sample(stored, data, dtype.name, dtype.byteorder == ">")
        )

    return [stored], sample


def load_npy_file(path: Path, source: str, tensor: str | None) -> Loaded:
    if tensor is not None:
        raise ValueError(f"--tensor applies to .npz and .safetensors files, not to {source}")
    with path.open("rb") as handle:
        array = _npy_array(handle, source, path.stat().st_size)
    return Loaded(array, array.dtype.name, None)


def _npz_sampler(path: Path, source: str) -> Sampler:
    """The first rows of a member's table (C order only), read from its start."""

    def sample(stored: Stored) -> npt.NDArray[Any] | None:
        try:
            with zipfile.ZipFile(path) as archive, archive.open(f"{stored.name}.npy") as handle:
                _, fortran, dtype = _npy_header(handle, source)
                size = sample_bytes(stored, dtype.itemsize)
                if fortran or not size or dtype.kind != "f":
                    return None
                data = handle.read(size)
        except (ValueError, KeyError, zipfile.BadZipFile, EOFError, OSError):
            return None
        if len(data) < size:
            return None
        return decode_sample(stored, data, dtype.name, dtype.byteorder == ">")  # type: ignore[no-any-return]

    return sample


def npz_tensors(path: Path, source: str) -> tuple[list[Stored], dict[str, str], Sampler]:
    """The members of an ``.npz`` archive as declared by their headers, those whose header
    is broken (with the error), and a sampler of their first rows."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = {
                info.filename.removesuffix(".npy"): info
                for info in archive.infolist()
                if info.filename.endswith(".npy")
            }
            if not members:
                raise ValueError(f"{source}: the archive holds no .npy member")
            tensors, broken = [], {}
            for name, info in members.items():
                with archive.open(info) as handle:
                    try:
                        shape, _, dtype = _npy_header(handle, f"{source}:{name}")
                    except ValueError as error:
                        broken[name] = str(error)  # not offered, refused if named
                        continue
                tensors.append(Stored(name, shape, dtype.name))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as error:
        raise ValueError(f"{source}: not a readable .npz archive ({one_line(error)})") from None
    return tensors, broken, _npz_sampler(path, source)


def load_npz_file(path: Path, source: str, tensor: str | None) -> Loaded:
    tensors, broken, sample = npz_tensors(path, source)
    chosen = choose(source, tensors, tensor, broken, sample)
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo(f"{chosen.name}.npy")
            with archive.open(info) as handle:
                array = _npy_array(handle, f"{source}:{chosen.name}", info.file_size)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, KeyError) as error:
        raise ValueError(f"{source}: not a readable .npz archive ({one_line(error)})") from None
    return Loaded(array, array.dtype.name, chosen.name)
