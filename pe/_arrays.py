"""Arrays of other libraries (PyTorch, JAX, CuPy, ...): reading them, and computing in them.

:mod:`pe` computes in NumPy. Two things need arrays of other libraries:

- **reading** a table a user holds in another library (:func:`host_copy`): a PyTorch
  tensor that requires grad, one on a GPU, a bfloat16 tensor or JAX array (NumPy has no
  bfloat16: its values are widened to float32 exactly, and the stored dtype is kept so
  that the precision expected of the table is bfloat16's);
- **returning** the type given (:func:`namespace_of`, :func:`to_namespace`):
  :func:`pe.rope`, :func:`pe.sinusoidal` and :func:`pe.shift` given an array of any
  `Array API <https://data-apis.org/array-api/>`_ library compute in that library (through
  ``array-api-compat``), so that the result has its type and device and gradients flow.

NumPy arrays, lists and scalars never come here: they keep :mod:`pe`'s NumPy path.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "WIDENED",
    "available",
    "concrete",
    "dtype_in",
    "host_copy",
    "is_float",
    "is_foreign",
    "library_array",
    "library_dtype",
    "loaded",
    "namespace_of",
    "numpy_dtype",
    "to_namespace",
]

#: Dtypes NumPy lacks whose values :func:`host_copy` widens exactly to float32.
WIDENED = ("bfloat16",)

#: Top-level modules whose arrays :func:`is_foreign` recognises without asking NumPy.
_LIBRARIES = ("torch", "jax", "jaxlib", "cupy", "dask", "ndonnx", "sparse", "array_api_strict")


def _library(value: object) -> str:
    return type(value).__module__.split(".", 1)[0]


def is_foreign(value: object) -> bool:
    """Whether ``value`` is an array of a library other than NumPy (it has a namespace).

    Examples
    --------
    >>> is_foreign(np.zeros(3)), is_foreign([1.0]), is_foreign(3)
    (False, False, False)
    """
    if isinstance(value, np.ndarray | np.generic | list | tuple | int | float | complex):
        return False
    return _library(value) in _LIBRARIES or hasattr(value, "__array_namespace__")


def _widen_bfloat16(array: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """A bfloat16 array (ml_dtypes, as JAX returns it) as float32 of the same values."""
    bits = np.ascontiguousarray(array).view(np.uint16)
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def host_copy(value: object) -> tuple[npt.NDArray[Any], str | None]:
    """``value`` as a NumPy array in host memory, and the dtype it was stored in when
    NumPy has no such dtype (``"bfloat16"``, widened to float32 exactly), else None.

    A PyTorch tensor is detached (no gradient is needed to read it) and moved to the CPU;
    a CuPy array is copied to the host. Anything else goes through :func:`numpy.asarray`.

    Raises
    ------
    TypeError
        When the value cannot be read as an array of numbers.

    Examples
    --------
    >>> array, stored = host_copy([[0.5, 1.0]])
    >>> array.dtype.name, stored
    ('float64', None)
    """
    stored = None
    library = _library(value)
    if library == "torch":
        tensor: Any = value
        tensor = tensor.detach()
        if str(tensor.device) != "cpu":
            tensor = tensor.cpu()
        if str(tensor.dtype) == "torch.bfloat16":
            tensor, stored = tensor.float(), "bfloat16"
        value = tensor.numpy()
    elif library == "cupy" and hasattr(value, "get"):
        value = value.get()
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, RuntimeError) as error:
        text = " ".join(str(error).split())
        raise TypeError(f"not readable as an array of numbers: {text[:120]}") from None
    if array.dtype.name == "bfloat16":
        array, stored = _widen_bfloat16(array), "bfloat16"
    return array, stored


def namespace_of(*values: object) -> ModuleType:
    """The Array API namespace of ``values`` (``array_api_compat.array_namespace``).

    Raises
    ------
    TypeError
        When ``array-api-compat`` does not know the arrays, or they mix libraries.
    """
    from array_api_compat import array_namespace

    try:
        return array_namespace(*values)
    except TypeError as error:
        text = " ".join(str(error).split())
        raise TypeError(f"no Array API namespace for these arrays: {text[:160]}") from None


def concrete(value: object) -> npt.NDArray[Any] | None:
    """``value`` as a NumPy array when its values can be read now, without losing anything:
    None for a traced JAX value (inside ``jax.jit`` or ``jax.grad``) and for a PyTorch
    tensor that requires grad (its gradient must flow through the computation)."""
    if not is_foreign(value):
        return np.asarray(value)
    if _library(value) == "torch" and bool(getattr(value, "requires_grad", False)):
        return None
    try:
        return host_copy(value)[0]
    except TypeError:  # a tracer: its values exist only inside the traced computation
        return None


def to_namespace(xp: ModuleType, array: npt.NDArray[Any], like: Any) -> Any:
    """A NumPy ``array`` as an array of ``xp``, its dtype kept, on the device of ``like``."""
    from array_api_compat import device

    try:
        where = device(like)
    except (TypeError, AttributeError, ValueError):  # a traced value has no device yet
        return xp.asarray(array)
    return xp.asarray(array, device=where)


def dtype_in(xp: ModuleType, dtype: object) -> Any:
    """``dtype`` as a dtype of ``xp``: one of ``xp`` already (``torch.float32``), or a NumPy
    float dtype or its name (``numpy.float32``, ``"float64"``)."""
    if _library(dtype) not in ("numpy", "builtins") and not isinstance(dtype, str | type):
        if numpy_dtype(dtype).name not in ("float16", "float32", "float64"):
            raise TypeError(f"dtype must be float16, float32 or float64, got {dtype}")
        return available(xp, dtype)
    name = np.dtype(dtype).name  # type: ignore[call-overload]
    if name not in ("float16", "float32", "float64"):
        raise TypeError(f"dtype must be float16, float32 or float64, got {name}")
    return available(xp, getattr(xp, name))


def available(xp: ModuleType, dtype: Any) -> Any:
    """``dtype`` if ``xp`` has it now, else float32 (JAX has float64 only with
    ``jax_enable_x64``; without it, asking for float64 warns and gives float32)."""
    floats = xp.__array_namespace_info__().dtypes(kind="real floating")
    return dtype if any(dtype == kind for kind in floats.values()) else xp.float32


def numpy_dtype(dtype: object) -> np.dtype[Any]:
    """The NumPy dtype of the same name as a library's dtype (``torch.float32``, ``jnp.float32``).

    Examples
    --------
    >>> numpy_dtype(np.float32).name
    'float32'
    """
    try:
        return np.dtype(dtype)  # type: ignore[call-overload, no-any-return]
    except TypeError:
        return np.dtype(str(dtype).rsplit(".", 1)[-1])


def library_dtype(dtype: object) -> bool:
    """Whether ``dtype`` is a dtype of another library that NumPy does not take
    (``torch.float32``; JAX's dtypes are NumPy's).

    Examples
    --------
    >>> library_dtype(np.float32), library_dtype("float64")
    (False, False)
    """
    return _library(dtype) in _LIBRARIES and not isinstance(dtype, type | np.dtype)


def library_array(dtype: object) -> Any:
    """An empty array of the library ``dtype`` belongs to, in that dtype (for its namespace)."""
    library = sys.modules[_library(dtype)]
    return library.empty(0, dtype=dtype)


def is_float(xp: ModuleType, array: Any) -> bool:
    """Whether an array of ``xp`` holds real floating-point values."""
    return bool(xp.isdtype(array.dtype, "real floating"))


def loaded(name: str) -> bool:
    """Whether the module ``name`` is imported already (pe never imports a framework)."""
    return name in sys.modules
