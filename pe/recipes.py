r"""The usual ways code computes the sinusoidal table, which pe's chapters compare against.

Each recipe is written the way deep-learning code writes it, with the precision it uses:

- :func:`float32_recipe`: positions, frequencies and angles all in float32 (or float16),
  ``position[:, None] * exp(arange(0, d, 2) * -(log(base) / d))``, then ``sin`` and
  ``cos`` in that dtype: the angle's error grows like :math:`\varepsilon\,\omega_i p / 2`;
- :func:`chained_rotation`: each row from the previous one by one complex multiplication,
  the tempting use of the rotation identity, whose rounding errors add up along the rows;
- :func:`rotation_with_float64_angles`: pe's rotation algorithm with its anchors' angles
  formed in plain float64, the design pe rejects.

Two code paths of public RoPE code that were reported to lose precision, recomputed in
NumPy (``tests/test_real_code.py`` runs them in PyTorch):

- :func:`megatron_535_angles`: Megatron-LM issue 535, positions cast to float16
  frequencies;
- :func:`neox_reproducer`: the reproducer of GPT-NeoX issue 1003, float16 frequencies
  (:func:`half_frequency_angles`) against the float32 angle rounded once
  (:func:`rounded_angles`).

:func:`pe.numeric.sinusoidal` avoids both; the page "Precision and speed" measures them
against 50-digit mpmath, and :func:`pe.from_scratch.sinusoidal_table` is the plain float64
formula.

Examples
--------
>>> float32_recipe(np.array([0, 1]), 4).dtype
dtype('float32')
>>> chained_rotation(3, 4).shape
(3, 4)
>>> neox_reproducer().angle16
1045.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import _rotation_table
from pe.numeric import frequencies

__all__ = [
    "NEOX_1003",
    "NUMPY_FLOAT32_ULPS",
    "HalfAngles",
    "NeoxReproducer",
    "chained_rotation",
    "drift_bound",
    "float32_recipe",
    "half_frequency_angles",
    "megatron_535_angles",
    "neox_reproducer",
    "rotation_with_float64_angles",
    "rounded_angles",
]


def float32_recipe(
    positions: npt.ArrayLike, d_model: int, *, base: float = 10000.0, dtype: Any = np.float32
) -> npt.NDArray[Any]:
    r"""The common deep-learning recipe: positions, frequencies and angles all in ``dtype``.

    ``position[:, None] * exp(arange(0, d, 2) * -(log(base) / d))``, every step rounded
    to ``dtype`` (float32 in most code), then ``sin`` and ``cos`` in that dtype,
    interleaved. The angle :math:`\omega_i p` is rounded to ``dtype``, so its error grows
    like :math:`\varepsilon\,\omega_i p / 2`: about ``5e-4`` radians at ``p = 1e4`` in float32.
    """
    kind = np.dtype(dtype)
    out = np.empty((np.asarray(positions).size, d_model), dtype=kind)
    # float16 positions from 65520 on overflow to infinity: their rows come out NaN, as
    # they would in half-precision code.
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.asarray(positions).astype(kind)[:, None]
        scale = kind.type(-np.log(base) / d_model)
        inverse = np.exp(np.arange(0, d_model, 2).astype(kind) * scale)
        angles = p * inverse
        out[:, 0::2] = np.sin(angles)
        out[:, 1::2] = np.cos(angles)
    return out


#: The largest errors, in ulps, of NumPy's vectorised float32 ``exp`` and ``sin``/``cos``
#: (NumPy pull requests 13134 and 13368; the claim ``numpy-float32-accuracy``).
NUMPY_FLOAT32_ULPS = {"exp": 2.52, "sin": 1.49}


def drift_bound(
    positions: npt.ArrayLike,
    d_model: int,
    unit: float,
    exponent_roundings: int = 1,
    ulps: Mapping[str, float] | None = None,
) -> npt.NDArray[np.float64]:
    r"""Error bound of a table whose angles are formed in a precision of unit roundoff ``unit``.

    .. math::

        |\widehat{PE}_{p, j} - PE_{p, j}| \le (1 + 2e_{\exp} + r\,|\ln\omega_i|)\,u\,
        \omega_i p + 2e_{\sin}\,u, \qquad j \in \{2i, 2i + 1\},

    with :math:`r` the roundings of the exponent :math:`\ln\omega_i` before the
    exponential amplifies them by :math:`|\ln\omega_i|` (``exponent_roundings``): none for
    the direct float64 evaluation :func:`pe.numeric.sinusoidal_direct` (``u = 2^-53``: its
    frequencies come correctly rounded from extended precision, :math:`e_{\exp} = 1/2`),
    two for :func:`float32_recipe` (``u = 2^-24``: the scale :math:`-\ln b / d` rounded to
    float32, then its product with :math:`2i`). The frequency within :math:`e_{\exp}` ulps
    (each at most :math:`2u` relative) and the
    product :math:`\hat\omega_i p` (:math:`u`) give the first factor; the sine or cosine,
    within :math:`e_{\sin}` ulps of a value at most 1, the last term. ``ulps`` holds
    :math:`e_{\exp}` and :math:`e_{\sin}` (keys ``"exp"``, ``"sin"``); by default one ulp
    and half an ulp (a faithful exponential, a correctly rounded sine), which make
    :math:`(3 + r|\ln\omega_i|)\,u\,\omega_i p + u`. The page "Precision and speed" checks
    the float32 recipe within it with :data:`NUMPY_FLOAT32_ULPS`, and the direct float64
    table with :math:`e_{\exp} = 1/2`, :math:`r = 0` and NumPy's float64 sine (0.52 ulp). Returns one bound per entry, shape ``(positions.size, d_model)``
    (interleaved columns).

    Examples
    --------
    >>> bound = drift_bound(np.array([0, 1000]), 4, 2.0**-24)
    >>> bool(bound[0, 0] == 2.0**-24), bool(1.7e-4 < bound[1, 0] < 1.8e-4)
    (True, True)
    >>> bool(drift_bound(np.array([1000]), 4, 2.0**-24, 2)[0, 2] > bound[1, 2])
    True
    """
    e = {"exp": 1.0, "sin": 0.5, **(ulps or {})}
    omega = np.repeat(frequencies(d_model), 2)
    ps = np.asarray(positions)
    factor = 1 + 2 * e["exp"] + exponent_roundings * np.abs(np.log(omega))
    return np.asarray(factor * unit * np.outer(ps, omega) + 2 * e["sin"] * unit, dtype=np.float64)


def chained_rotation(
    n_positions: int, d_model: int, *, base: float = 10000.0, dtype: Any = np.complex64
) -> npt.NDArray[Any]:
    r"""Rows built by chaining the one-step rotation: :math:`z(p+1) = z(p)\,e^{-\mathrm{i}\omega}`.

    The tempting way to use the rotation identity: multiply row ``p`` by the step factor
    to get row ``p + 1``, in complex ``dtype``. Each product adds a rounding error, so the
    error performs a random walk and drifts in its phase: after ``p`` steps it is about
    :math:`\varepsilon \sqrt{p}` to :math:`\varepsilon\,p`. :func:`pe.numeric.sinusoidal`
    avoids this by re-anchoring every block from accurate angles.
    Returns the interleaved real table (float32 for complex64, float64 for complex128).
    """
    kind = np.dtype(dtype)
    omega = frequencies(d_model, base)
    step = (np.cos(omega) - 1j * np.sin(omega)).astype(kind)
    rows = np.empty((n_positions, d_model // 2), dtype=kind)
    rows[0] = 1j
    for p in range(1, n_positions):
        rows[p] = rows[p - 1] * step
    return rows.view(rows.real.dtype).reshape(n_positions, d_model)


def rotation_with_float64_angles(positions: npt.ArrayLike, d_model: int) -> npt.NDArray[np.float64]:
    r"""The rotation algorithm with its anchors' angles formed in plain float64 (a wrong design).

    Same blocks and the same single complex product per entry as :func:`pe.numeric.sinusoidal`,
    but :math:`\omega_i p` is rounded to float64 before ``sin``/``cos``: the anchors of far
    block starts inherit an angle error near :math:`2^{-53}\,\omega_i q`, so the table is no
    longer within the float64 bound at large positions.

    Examples
    --------
    >>> from pe import numeric
    >>> near = rotation_with_float64_angles(np.array([0, 5]), 8)
    >>> bool(np.allclose(near, numeric.sinusoidal(np.array([0, 5]), 8), atol=1e-15))
    True
    """
    ps = np.asarray(positions, dtype=np.int64)
    block = _rotation_table.BLOCK
    omega = frequencies(d_model)
    low = np.multiply.outer((ps % block).astype(np.float64), omega)
    high = np.multiply.outer((ps - ps % block).astype(np.float64), omega)
    z = (np.sin(low) + 1j * np.cos(low)) * (np.cos(high) - 1j * np.sin(high))
    out: npt.NDArray[np.float64] = z.view(np.float64).reshape(ps.size, d_model)
    return out


def megatron_535_angles(
    n: int, dim: int, dtype: type[np.floating[Any]]
) -> npt.NDArray[np.floating[Any]]:
    r"""RoPE's angles along the code path Megatron-LM issue 535 reports, in NumPy.

    The frequencies :math:`10000^{-2i/\text{dim}}` are computed in float32 and kept in
    ``dtype`` (a model cast to float16 casts them too); the positions ``0 .. n-1`` are
    cast to the frequencies' type and multiplied by them, each product rounded to
    ``dtype`` (an outer product, as the reported ``einsum`` computes it).
    ``tests/test_real_code.py`` runs the same path in PyTorch and finds the same table.

    Examples
    --------
    >>> angles = megatron_535_angles(32_768, 128, np.float16)
    >>> angles.dtype, bool(np.array_equal(angles[32_767], angles[32_766]))
    (dtype('float16'), True)
    """
    exponent = np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)
    frequencies = (np.float32(1.0) / np.float32(10000.0) ** exponent).astype(dtype)
    return np.multiply.outer(np.arange(n).astype(dtype), frequencies)


#: The reproducer of GPT-NeoX issue #1003: head width, positions, base, the entry printed.
NEOX_1003 = (32, 2048, 10000.0, (1857, 1))

#: How float16 angles are formed ``(positions, inv_freq) -> (n, d/2)`` float16, from the
#: float32 positions and frequencies of the reproducer.
HalfAngles = Callable[[npt.NDArray[np.float32], npt.NDArray[np.float32]], npt.NDArray[np.float16]]


def half_frequency_angles(
    positions: npt.NDArray[np.float32], inv_freq: npt.NDArray[np.float32]
) -> npt.NDArray[np.float16]:
    """The reproducer's float16 path: ``inv_freq.half()``, float16 positions, float16 products.

    Examples
    --------
    >>> half_frequency_angles(np.float32([1857.0]), np.float32([0.5623413])).tolist()
    [[1045.0]]
    """
    return np.multiply.outer(positions.astype(np.float16), inv_freq.astype(np.float16))


def rounded_angles(
    positions: npt.NDArray[np.float32], inv_freq: npt.NDArray[np.float32]
) -> npt.NDArray[np.float16]:
    """The float32 angles, each rounded once to float16.

    Examples
    --------
    >>> rounded_angles(np.float32([1857.0]), np.float32([0.5623413])).tolist()
    [[1044.0]]
    """
    return np.multiply.outer(positions, inv_freq).astype(np.float32).astype(np.float16)


class NeoxReproducer(NamedTuple):
    r"""The numbers of GPT-NeoX #1003's reproducer, recomputed in NumPy.

    ``angle32`` is the float32 angle at the printed entry, ``rounded`` that angle rounded to
    float16, ``angle16`` the float16 angle the candidate path forms there; ``entry_change``
    is :math:`|\cos` (float16 path) :math:`- \cos` (float32 path)| at that entry and
    ``largest_change`` the largest such change over the table, at ``where``.
    """

    angle32: float
    rounded: float
    angle16: float
    entry_change: float
    largest_change: float
    where: tuple[int, int]


def neox_reproducer(half_angles: HalfAngles = half_frequency_angles) -> NeoxReproducer:
    """Recompute the reproducer of GPT-NeoX #1003 with float16 angles from ``half_angles``.

    As in the reporter's code: ``inv_freq = 1 / base ** (arange(0, d, 2) / d)`` and the
    positions in float32, the angles as their outer product, the cosines of the float32
    angles in float32 and of the float16 angles in float16 (NumPy computes both through
    float32 and rounds once, as the GPU kernels do up to a unit in the last place).

    Examples
    --------
    >>> found = neox_reproducer()
    >>> round(found.angle32, 4), found.rounded, found.angle16
    (1044.2678, 1044.0, 1045.0)
    """
    d, n, base, (row, column) = NEOX_1003
    exponents = np.arange(0, d, 2, dtype=np.float32) / np.float32(d)
    inv_freq = np.float32(1.0) / (np.float32(base) ** exponents)
    positions = np.arange(n, dtype=np.float32)
    angles32 = np.multiply.outer(positions, inv_freq).astype(np.float32)
    angles16 = np.asarray(half_angles(positions, inv_freq), dtype=np.float16)
    change = np.abs(np.cos(angles16).astype(np.float32) - np.cos(angles32))
    where = np.unravel_index(int(np.argmax(change)), change.shape)
    return NeoxReproducer(
        angle32=float(angles32[row, column]),
        rounded=float(np.float16(angles32[row, column])),
        angle16=float(angles16[row, column]),
        entry_change=float(change[row, column]),
        largest_change=float(change.max()),
        where=(int(where[0]), int(where[1])),
    )
