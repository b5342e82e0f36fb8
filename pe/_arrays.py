r"""Arrays of other libraries (PyTorch, JAX, CuPy, ...): reading them, and computing in them.

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

Error model of the other libraries' path
----------------------------------------
- **Known positions** (a count, NumPy, or a library's array neither traced by JAX nor
  requiring grad): pe computes the angles, cosines and sines in NumPy exactly as for NumPy
  input (:func:`pe.rope`'s angles in ``angle_dtype``; :func:`pe.sinusoidal`'s table,
  correctly rounded in float32), rounds them once to the array's dtype and the library
  only multiplies and adds (:func:`pe.rope`, :func:`pe.shift`: two products and a sum
  per entry): the NumPy path's error model, plus those roundings.
- **Traced positions** (``jax.jit``, ``jax.grad``) or positions that **require grad**:
  the library forms the angles :math:`p\,\omega_i` in float64 when the array or the
  positions are float64 and the library has float64 (JAX only with ``jax_enable_x64``),
  else in float32, and takes its own ``sin`` and ``cos``: each angle is within
  :math:`\varepsilon_a\,\omega_i |p|` radians (:math:`\omega_i` rounded once to that
  dtype, the product rounded once), and an entry within that plus the library's sine error
  and the roundings of the rotation (``tests/test_array_api.py`` holds PyTorch and JAX to
  a few :math:`\varepsilon_a`). Such positions cannot be checked for NaN or size: they are
  the caller's.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

__all__ = [
    "WIDENED",
    "available",
    "concrete",
    "dtype_in",
    "host_copy",
    "in_libraries",
    "is_float",
    "is_foreign",
    "library_array",
    "library_dtype",
    "loaded",
    "namespace_of",
    "numpy_dtype",
    "rope_in_library",
    "rotate_pairs",
    "shift_in_library",
    "sinusoidal_in_library",
    "sinusoidal_wanted",
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
        When the value cannot be read as an array of numbers (the message quotes the first
        120 characters of the reason NumPy gives).

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
        When ``array-api-compat`` does not know the arrays, or they mix libraries (the
        message quotes the first 160 characters of the reason it gives).
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


# --------------------------------------------------------------------------------------------
# pe's functions computed in another library (each called by the function it serves, which
# passes its NumPy helpers in: the library's modules import this one, not the other way)


def rotate_pairs(xp: ModuleType, x: Any, c: Any, s: Any, mode: str) -> Any:
    """Every pair ``(a, b)`` of the last axis of ``x`` turned to ``(a c - b s, b c + a s)``,
    pairs adjacent or in halves, in namespace ``xp`` (no assignment into arrays, which
    JAX's are not)."""
    width = x.shape[-1]
    if mode == "adjacent":
        a, b = x[..., 0::2], x[..., 1::2]
        rotated = xp.stack([a * c - b * s, b * c + a * s], axis=-1)
        return xp.reshape(rotated, tuple(x.shape))
    a, b = x[..., : width // 2], x[..., width // 2 :]
    return xp.concat([a * c - b * s, b * c + a * s], axis=-1)


def _angle_dtype(xp: ModuleType, *dtypes: Any) -> Any:
    """float64 when any of ``dtypes`` is float64 in ``xp`` (and ``xp`` has it), else float32."""
    return available(xp, xp.float64) if any(d == xp.float64 for d in dtypes) else xp.float32


def _angles(xp: ModuleType, values: Any, omega: npt.NDArray[Any], like: Any, *dtypes: Any) -> Any:
    """``values`` (an array of ``xp``, traced or requiring grad) times ``omega``, by the library,
    in float64 when any of ``dtypes`` or ``values`` is float64, else float32."""
    wide = _angle_dtype(xp, values.dtype, *dtypes)
    frequencies = to_namespace(xp, omega.astype(numpy_dtype(wide)), like)
    return xp.astype(values, wide)[..., None] * frequencies


def _check_float(xp: ModuleType, x: Any, name: str, shape: str) -> int:
    """The even width of a float array of ``xp`` with at least ``len(shape)`` axes."""
    from pe import _validate

    if not is_float(xp, x):
        raise TypeError(
            f"{name} must be a real floating-point array of shape {shape}, got {x.dtype}"
        )
    if len(x.shape) < shape.count(","):  # the axes after "..."
        raise ValueError(f"{name} must have shape {shape}, got shape {tuple(x.shape)}")
    return _validate.even_width(f"{name}.shape[-1]", x.shape[-1])


F = TypeVar("F", bound=Callable[..., Any])


def in_libraries(
    handler: Callable[..., Any],
    *helpers: Callable[..., Any],
    when: Callable[[object, dict[str, Any]], bool] | None = None,
) -> Callable[[F], F]:
    """Decorate a NumPy function of pe so that another library's input goes to ``handler``.

    The decorated function is called as before for NumPy input; when its first argument is
    an array of another library (or ``when(first, keyword_arguments)`` holds),
    ``handler(arguments, *helpers)`` computes the result instead, ``arguments`` being the
    call's arguments bound to the function's signature with its defaults (one definition
    of each default).
    """

    def wrap(fn: F) -> F:
        signature = inspect.signature(fn)
        name = next(iter(signature.parameters))

        @functools.wraps(fn)
        def dispatch(*args: Any, **kwargs: Any) -> Any:
            if args and type(args[0]) is np.ndarray and (when is None or not kwargs):
                return fn(*args, **kwargs)  # the common case, answered first
            # the first argument, passed by position or by its name
            first, rest = (args[0], kwargs) if args else (kwargs.get(name), _without(kwargs, name))
            if when(first, rest) if when is not None else is_foreign(first):
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                return handler(bound.arguments, fn, *helpers)
            return fn(*args, **kwargs)

        return cast(F, dispatch)

    return wrap


def _without(kwargs: dict[str, Any], name: str) -> dict[str, Any]:
    return {key: value for key, value in kwargs.items() if key != name}


def rope_in_library(
    arguments: dict[str, Any],
    _: Callable[..., Any],
    angles_of: Callable[..., npt.NDArray[np.float64]],
    frequencies_of: Callable[..., npt.NDArray[np.float64]],
) -> Any:
    """:func:`pe.rope` of an array of another library. Known positions: ``angles_of``
    (:func:`pe.rotary.rope_angles`) gives pe's angles, as for NumPy arrays; traced ones, or
    ones that require grad: the library multiplies them by ``frequencies_of(d, base) / s``."""
    from pe import _validate

    x, positions, mode = arguments["x"], arguments["positions"], arguments["pairing"]
    if mode not in ("adjacent", "halves"):
        raise ValueError(f"pairing must be 'adjacent' or 'halves', got {mode!r:.40}")
    factor = _validate.real_scalar("scale", arguments["scale"])
    if factor <= 0:
        raise ValueError(f"scale must be > 0, got {factor}")
    xp = namespace_of(x)
    width = _check_float(xp, x, "x", "(..., n, d)")
    rows = x.shape[-2]
    known = positions if _validate.is_count(positions) else concrete(positions)
    if known is not None:
        angles = angles_of(
            known,
            width,
            base=arguments["base"],
            scale=factor,
            angle_dtype=arguments["angle_dtype"],
        )
        if angles.shape[0] != rows:
            raise ValueError(
                f"positions must give one position per row of x: {angles.shape[0]} "
                f"positions, {rows} rows"
            )
        kind = numpy_dtype(x.dtype)
        c, s = (to_namespace(xp, f(angles).astype(kind), x) for f in (np.cos, np.sin))
        return rotate_pairs(xp, x, c, s, mode)
    if tuple(positions.shape) != (rows,):
        raise ValueError(
            f"positions must be a 1-D array of one position per row of x ({rows}), "
            f"got shape {tuple(positions.shape)}"
        )
    omega = frequencies_of(width, arguments["base"]) / factor
    theta = _angles(xp, positions, omega, x, x.dtype)
    c, s = xp.astype(xp.cos(theta), x.dtype), xp.astype(xp.sin(theta), x.dtype)
    return rotate_pairs(xp, x, c, s, mode)


def sinusoidal_in_library(
    arguments: dict[str, Any],
    table: Callable[..., npt.NDArray[Any]],
    frequencies: Callable[..., npt.NDArray[np.float64]],
) -> Any:
    """:func:`pe.sinusoidal` in another library; ``table`` is its NumPy version."""
    from pe import _validate

    n_positions, dtype = arguments["n_positions"], arguments["dtype"]
    width = _validate.even_width("d_model", arguments["d_model"])
    b = _validate.base_value("base", arguments["base"])
    like = n_positions if is_foreign(n_positions) else library_array(dtype)
    xp = namespace_of(like)
    target = dtype_in(xp, dtype)
    known = n_positions if _validate.is_count(n_positions) else concrete(n_positions)
    if known is not None:
        values = table(known, width, base=b, dtype=numpy_dtype(target))
        return xp.astype(to_namespace(xp, values, like), target)
    if len(n_positions.shape) != 1:
        raise ValueError(f"positions must be a 1-D array, got shape {tuple(n_positions.shape)}")
    theta = _angles(xp, n_positions, frequencies(width, b), like, target)
    pairs = xp.stack([xp.sin(theta), xp.cos(theta)], axis=-1)
    return xp.astype(xp.reshape(pairs, (n_positions.shape[0], width)), target)


def shift_in_library(
    arguments: dict[str, Any],
    _: Callable[..., Any],
    frequencies: Callable[..., npt.NDArray[np.float64]],
) -> Any:
    """:func:`pe.shift` of rows of another library."""
    from pe import _validate

    rows, k = arguments["rows"], arguments["k"]
    xp = namespace_of(rows)
    width = _check_float(xp, rows, "rows", "(..., d)")
    omega = frequencies(width, _validate.base_value("base", arguments["base"]))
    known = concrete(k)
    if known is not None:
        offset = _validate.real_scalar("k", known.item() if known.ndim == 0 else k)
        kind = numpy_dtype(rows.dtype)
        c, s = (to_namespace(xp, f(offset * omega).astype(kind), rows) for f in (np.cos, np.sin))
    else:
        theta = _angles(xp, k, omega, rows, rows.dtype)
        c, s = xp.astype(xp.cos(theta), rows.dtype), xp.astype(xp.sin(theta), rows.dtype)
    return rotate_pairs(xp, rows, c, -s, "adjacent")  # T_k turns the other way


def sinusoidal_wanted(positions: object, arguments: dict[str, Any]) -> bool:
    """Whether :func:`pe.sinusoidal` is asked for another library's table: positions of
    another library, or a dtype of one (a count with a NumPy dtype is answered first)."""
    dtype = arguments.get("dtype")
    numpy_like = dtype is None or type(dtype) is type or isinstance(dtype, str | np.dtype)
    if type(positions) is int and numpy_like:
        return False
    return is_foreign(positions) or (not numpy_like and library_dtype(dtype))
