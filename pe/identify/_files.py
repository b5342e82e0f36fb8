"""Tables from files: ``.npy``, ``.npz`` archives and ``.safetensors`` checkpoints.

Every file is treated as hostile until its header has been read and checked: the
declared shape and dtype of a tensor are read **before** any of its data, so that a
tensor larger than :data:`pe.MAX_BYTES`, a truncated file, a header that does not parse,
or Python objects (a pickle; :mod:`pe` never unpickles) get a one-line
:class:`ValueError` naming the file, and nothing past the cap is allocated.

- ``.npy``: NumPy's format, versions 1 and 2 (the header is parsed by
  :mod:`numpy.lib.format`, the data read with ``allow_pickle=False``);
- ``.npz``: a zip of ``.npy`` members; ``tensor`` names the member (``arr_0`` for
  ``numpy.savez(file, table)``), each member's header checked as above;
- ``.safetensors``: an 8-byte little-endian header length, a JSON header giving each
  tensor's dtype, shape and byte range, then the data. Tensors are read by the
  ``safetensors`` package's NumPy interface, except ``BF16``: NumPy has no bfloat16, so
  its 16 bits are widened to float32 here, exactly (a bfloat16 number is the top half of
  the float32 with the same value).

A model's positional buffer is one named tensor among many: when the file holds more
than one tensor and none is named (or the name is wrong), the error lists the tensors
whose shape could be a table (2-D, or ``(1, n, d)``, of floats, ``n >= 16`` and ``d >= 2``).
"""

from collections.abc import Callable
from pathlib import Path

from pe.identify._npy import load_npy_file, load_npz_file, npy_tensors, npz_tensors
from pe.identify._safetensors import load_safetensors_file, safetensors_tensors
from pe.identify._tensors import Loaded, Sampler, Stored, listing
from pe.identify._torch import load_torch_file, torch_checkpoint, torch_stored

__all__ = ["SUFFIXES", "list_tensors", "load_table"]

_READERS: dict[str, Callable[[Path, str, str | None], Loaded]] = {
    ".npy": load_npy_file,
    ".npz": load_npz_file,
    ".safetensors": load_safetensors_file,
    ".bin": load_torch_file,
    ".pt": load_torch_file,
    ".pth": load_torch_file,
}
#: File kinds :func:`load_table` reads.
SUFFIXES = tuple(_READERS)


def _torch_listing(path: Path, source: str) -> tuple[list[Stored], Sampler]:
    checkpoint = torch_checkpoint(path, source)
    return torch_stored(checkpoint), checkpoint.sample


def _npz_listing(path: Path, source: str) -> tuple[list[Stored], Sampler]:
    tensors, broken, sample = npz_tensors(path, source)
    return tensors + [Stored(name, (), "unreadable") for name in broken], sample


_LISTERS: dict[str, Callable[[Path, str], tuple[list[Stored], Sampler]]] = {
    ".npy": npy_tensors,
    ".npz": _npz_listing,
    ".safetensors": safetensors_tensors,
    ".bin": _torch_listing,
    ".pt": _torch_listing,
    ".pth": _torch_listing,
}


def _path(source: str) -> Path:
    path = Path(source)
    if path.suffix.lower() not in _READERS:
        raise ValueError(f"{source}: expected a {', '.join(SUFFIXES)} file")
    if not path.is_file():
        raise ValueError(f"{source}: no such file")
    return path


def list_tensors(source: str) -> list[str]:
    """Every tensor of a file, one line each: those that could be a table first, likeliest
    first (how many of their first rows' columns are sinusoids, then a name that speaks of
    positions), then the others; with the hint on unsaved buffers when none looks like a
    sinusoidal table. Headers checked first, as :func:`load_table` does."""
    path = _path(source)
    tensors, sample = _LISTERS[path.suffix.lower()](path, source)
    return listing(tensors, sample)


def load_table(source: str, tensor: str | None = None) -> Loaded:
    """Read one tensor of a ``.npy``, ``.npz`` or ``.safetensors`` file, headers checked first.

    Parameters
    ----------
    source
        The file's path; its suffix says the format.
    tensor
        The tensor's name in an ``.npz`` or ``.safetensors`` file; may be left out when
        the file holds one tensor.

    Returns
    -------
    Loaded
        The array (bfloat16 widened to float32), its stored dtype and the tensor's name.

    Raises
    ------
    ValueError
        One line naming the file: missing, unknown suffix, truncated, malformed header,
        Python objects, a tensor above :data:`pe.MAX_BYTES`, or a missing or unknown
        tensor name (with the list of tensors that could be a table).
    """
    path = _path(source)
    return _READERS[path.suffix.lower()](path, source, tensor)
