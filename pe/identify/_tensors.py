"""What a file's header declares about a tensor, and what was read: shared by the readers.

:class:`Stored` is a tensor as declared (name, shape, dtype) before any data is read;
:func:`cap` refuses one above :data:`pe.MAX_BYTES`; :func:`choose` picks the named tensor
or lists those that could be a table; :func:`widen_bfloat16` turns bfloat16 bits into
float32 numbers of the same value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pe import _validate

__all__ = [
    "FLOATS",
    "LOOKS_SINUSOIDAL",
    "MIN_ROWS",
    "SAFETENSORS_FLOATS",
    "UNSAVED_HINT",
    "Candidate",
    "Loaded",
    "Sampler",
    "Stored",
    "cap",
    "choose",
    "could_be_table",
    "decode_sample",
    "listing",
    "one_line",
    "rank",
    "sample_bytes",
    "sinusoid_score",
    "table_dims",
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


def table_dims(shape: tuple[int, ...]) -> tuple[int, int] | None:
    """The ``(n, d)`` of the table a tensor of this shape holds: ``(n, d)``, ``(1, n, d)``,
    ``(n, 1, d)`` or ``(b, n, d)`` (a batch of equal tables), else None.

    In each case the first ``k`` rows of the table are the tensor's first ``k d`` elements.

    Examples
    --------
    >>> table_dims((1, 512, 768)), table_dims((5000, 1, 512)), table_dims((768,))
    ((512, 768), (5000, 512), None)
    """
    if len(shape) == 2:
        return shape[0], shape[1]
    if len(shape) == 3:
        return (shape[0], shape[2]) if shape[1] == 1 and shape[0] != 1 else (shape[1], shape[2])
    return None


def could_be_table(shape: tuple[int, ...], dtype: str) -> bool:
    """Whether a tensor of this shape and dtype could be an ``(n, d)`` encoding table.

    Examples
    --------
    >>> could_be_table((1, 512, 768), "float32"), could_be_table((768,), "float32")
    (True, False)
    """
    dims = table_dims(shape)
    floats = dtype in FLOATS or dtype in SAFETENSORS_FLOATS
    return floats and dims is not None and dims[0] >= MIN_ROWS and dims[1] >= 2


#: Rows and bytes read from a candidate to score it (:func:`sinusoid_score`).
SAMPLE_ROWS = 64
SAMPLE_BYTES = 4 * 2**20
#: Words in a tensor's name that say "positions".
_POSITIONAL = re.compile(r"pos|sinusoid|timing|(^|[._])pe($|[._])", re.IGNORECASE)


def sinusoid_score(rows: npt.NDArray[Any]) -> float:
    r"""The share of columns of the first rows of a table that are sinusoids of the row.

    A sinusoid of frequency :math:`\omega` satisfies :math:`x_{r+1} + x_{r-1} = 2\cos\omega\,
    x_r`: a column passes when the best such :math:`\cos\omega` leaves a residual below
    5 % of its size (bfloat16 values pass; a learned or random column does not) and its
    values stay in :math:`[-1, 1]`. Zero columns, and the triples of rows that touch a zero
    row (a padding row), are left out; a table whose rows are all equal scores 0.

    Examples
    --------
    >>> sinusoid_score(np.sin(np.outer(np.arange(64), [1.0, 0.1, 0.01])))
    1.0
    >>> sinusoid_score(np.random.default_rng(0).uniform(-1, 1, (64, 8)))
    0.0
    """
    x = np.asarray(rows, dtype=np.float64)
    if x.shape[0] < 3 or not np.all(np.isfinite(x)) or not np.any(x != x[:1]):
        return 0.0
    live = np.any(x != 0, axis=0)
    padded = ~np.any(x != 0, axis=1)  # zero rows (fairseq's padding row) break no triple
    triples = ~(padded[1:-1] | padded[2:] | padded[:-2])
    x = x[:, live]
    if not x.size or not triples.any():
        return 0.0
    middle, around = x[1:-1][triples], (x[2:] + x[:-2])[triples]
    power = np.einsum("ij,ij->j", middle, middle)
    c = np.einsum("ij,ij->j", around, middle) / np.maximum(2 * power, 1e-300)
    miss = around - 2 * c * middle
    residual = np.sqrt(np.einsum("ij,ij->j", miss, miss) / np.maximum(4 * power, 1e-300))
    bounded = np.max(np.abs(x), axis=0) <= 1.01
    return float(np.mean((residual <= 0.05) & bounded))


@dataclass(frozen=True)
class Candidate:
    """A tensor that could be a table, and how much it looks like one."""

    stored: Stored
    named: bool  # the name speaks of positions
    score: float | None  # sinusoid_score of its first rows (None: not sampled)

    def describe(self) -> str:
        look = "not read" if self.score is None else f"{self.score:.0%} sinusoid columns"
        return f"{self.stored.describe()} [{look}]"


#: A sampler: the first rows of a tensor's table (at most SAMPLE_ROWS), or None.
Sampler = Callable[[Stored], "npt.NDArray[Any] | None"]


def sample_bytes(stored: Stored, itemsize: int) -> int:
    """How many bytes to read for a sample of ``stored`` (0: too wide to sample)."""
    dims = table_dims(stored.shape)
    if dims is None:
        return 0
    rows = min(dims[0], SAMPLE_ROWS, SAMPLE_BYTES // max(dims[1] * itemsize, 1))
    return rows * dims[1] * itemsize if rows >= MIN_ROWS else 0


def decode_sample(stored: Stored, data: bytes, dtype: str, big_endian: bool = False) -> Any:
    """The sampled bytes as rows of the table, float64 (``dtype``: a NumPy name or bfloat16)."""
    dims = table_dims(stored.shape)
    assert dims is not None
    order: Literal["<", ">"] = ">" if big_endian else "<"
    if dtype == "bfloat16":
        values = widen_bfloat16(np.frombuffer(data, dtype=f"{order}u2").astype(np.uint16))
    else:
        values = np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder(order))
    return values.astype(np.float64).reshape(-1, dims[1])


def rank(tensors: list[Stored], sample: Sampler | None) -> list[Candidate]:
    """The tensors that could be a table, likeliest first: most sinusoid columns, then a
    name that speaks of positions, then the file's order."""
    found = []
    for stored in tensors:
        if not could_be_table(stored.shape, stored.dtype):
            continue
        rows = sample(stored) if sample is not None else None
        score = None if rows is None else sinusoid_score(rows)
        found.append(Candidate(stored, bool(_POSITIONAL.search(stored.name)), score))
    order = {id(c): i for i, c in enumerate(found)}
    return sorted(
        found,
        key=lambda c: (-round(c.score or 0.0, 2), not c.named, order[id(c)]),
    )


#: The candidates shown in an error (``--list`` shows them all).
SHOWN = 5
#: A candidate whose sampled columns are at least this share of sinusoids looks like one.
LOOKS_SINUSOIDAL = 0.9
UNSAVED_HINT = (
    "many models keep their sinusoidal table as a buffer that is not saved (Hugging Face's "
    "M2M100, XGLM, Speech2Text, MusicGen, Kosmos-2, SpeechT5): build it with the model's "
    "code and pass it as MODULE:FUNCTION, or save it to a .npy file"
)


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
    source: str,
    tensors: list[Stored],
    tensor: str | None,
    broken: dict[str, str],
    sample: Sampler | None = None,
) -> Stored:
    """The tensor named ``tensor`` (or the only one), else an error listing the likeliest
    tables (:func:`rank`), or saying that none looks like one."""
    if tensor in broken or (tensor is None and not tensors and broken):
        raise ValueError(broken[tensor if tensor is not None else next(iter(broken))])
    by_name = {t.name: t for t in tensors}
    if tensor is not None and tensor in by_name:
        return by_name[tensor]
    if tensor is None and len(tensors) == 1:
        return tensors[0]
    ranked = rank(tensors, sample)
    what = "--tensor NAME is needed" if tensor is None else f"no tensor named {tensor!r:.60}"
    shown = "; ".join(c.describe() for c in ranked[:SHOWN])
    more = f"; and {len(ranked) - SHOWN} more (--list shows all)" if len(ranked) > SHOWN else ""
    if not ranked:
        listing = f"none could be a table; {UNSAVED_HINT}"
    elif sample is not None and all((c.score or 0.0) < LOOKS_SINUSOIDAL for c in ranked):
        listing = f"none looks like a sinusoidal table ({shown}{more}); {UNSAVED_HINT}"
    else:
        listing = f"the likeliest tables: {shown}{more}"
    raise ValueError(f"{source}: {what} ({len(tensors)} tensors; {listing})")


def listing(tensors: list[Stored], sample: Sampler | None) -> list[str]:
    """Every tensor, one line each: the candidates ranked first, then the others."""
    ranked = rank(tensors, sample)
    lines = [f"{i + 1:>4}. {c.describe()}" for i, c in enumerate(ranked)]
    chosen = {c.stored.name for c in ranked}
    lines += [f"   -  {t.describe()} [not a table]" for t in tensors if t.name not in chosen]
    if sample is not None and all((c.score or 0.0) < LOOKS_SINUSOIDAL for c in ranked):
        lines.append(f"no tensor looks like a sinusoidal table: {UNSAVED_HINT}")
    return lines


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
