r"""Rotary position embeddings (RoPE) in NumPy: the rotation, its two pairings, its checks.

RoPE (Su et al., RoFormer) does not add a position vector to the input. It rotates each
pair of coordinates of a query or key at position ``p`` by the angle :math:`p\,\omega_i`,
with the frequencies of the sinusoidal encoding,
:math:`\omega_i = \mathrm{base}^{-2i/d}`, ``i = 0 .. d/2 - 1``. For a pair ``(a, b)``

.. math::

    a' = a \cos p\omega_i - b \sin p\omega_i, \qquad
    b' = b \cos p\omega_i + a \sin p\omega_i,

which is the complex product :math:`(a + \mathrm{i} b)\, e^{\mathrm{i} p \omega_i}` (the sign
used by public code). Two pairings are in use:

- ``"adjacent"``: pair ``i`` is ``(x[2i], x[2i+1])`` (RoFormer, GPT-J, Meta's Llama);
- ``"halves"``: pair ``i`` is ``(x[i], x[i + d/2])`` (GPT-NeoX, Hugging Face's Llama).

They differ by the fixed permutation of :func:`pairing_permutation`:
``rope_halves(x) = P rope_adjacent(P^T x)`` with ``(P y)[j] = y[perm[j]]``; weights
trained with one pairing serve the other once the rows of :math:`W_q, W_k` are permuted
alike (:func:`permute_both`, checked by :func:`conversion_gap`). :func:`read_rope_code` reads
which pairing, rotated width, sign and first position an implementation uses from its maps.

Because rotations compose, :math:`\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle`:
the score depends on the positions only through ``n - m``.

Error model
-----------
Angles are formed in ``angle_dtype`` (float64 by default): the position and the frequency are
rounded to it and so is their product, an absolute angle error of at most about
:math:`2\,\varepsilon_a\,\omega_i |p|` (:math:`\varepsilon_a` the machine epsilon of
``angle_dtype``). Cosine and sine are then taken in float64 and the rotation is done in float64 for
float64 input. A score :math:`s = \langle R_m q, R_n k\rangle` moves by at most :math:`\rho_i` per
radian of error in pair ``i``, :math:`\rho_i = |q^{(i)}|\,|k^{(i)}|` (the norms of pair ``i`` of
``q`` and ``k``). So

.. math::

    |s_{\text{computed}}(m, n) - \langle q, R_{n-m} k\rangle| \le
    \tau = \sum_i \rho_i \bigl(2\,\varepsilon_a\,\omega_i (|m| + |n|)
           + 2\,\varepsilon_a\,\omega_i |n - m| + (d + 8)\,\varepsilon_{64}\bigr),

the reference :math:`\langle q, R_{n-m} k\rangle` being computed from float64 angles. The
error grows linearly with the position; with float16 angles it reaches order one around
position 2048, where float16 stops holding every integer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import _arrays, _validate
from pe._tolerance import ToleranceCheck, gamma, rotation_rounding, worst_case
from pe.numeric import frequencies

__all__ = [
    "PAIRINGS",
    "Conversion",
    "ConversionGap",
    "OffsetCheck",
    "RopeCode",
    "abel_bound",
    "abel_rounding",
    "check_offset_dependence",
    "conversion_gap",
    "offset_error",
    "offset_tolerance",
    "pair_columns",
    "pairing_permutation",
    "permute_both",
    "read_rope_code",
    "rope",
    "rope_angles",
    "rope_complex",
    "rope_error_bound",
    "rope_scores",
]

Pairing = Literal["adjacent", "halves"]
#: The two pairings of public code.
PAIRINGS: tuple[str, ...] = ("adjacent", "halves")

#: Largest position accepted: integers above 2**53 are not all representable in float64.
MAX_POSITION = 2**53
#: Largest float16 number: float16 positions beyond it become infinite.
MAX_FLOAT16 = 65504

FloatArray = npt.NDArray[np.floating[Any]]
Float64Array = npt.NDArray[np.float64]


def _pairing(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"pairing must be 'adjacent' or 'halves', got {value!r:.40}")
    if value not in PAIRINGS:
        raise ValueError(f"pairing must be 'adjacent' or 'halves', got {value!r:.40}")
    return value


# Positions within +-2**53: integers (whole floats too), or real (the rotation allows any).
_signed_positions = partial(_validate.integer_positions, limit=MAX_POSITION)
_real_positions = partial(_validate.real_positions, limit=MAX_POSITION)
_as_float_array = partial(_validate.float_array, shape="(..., n, d)")


def pairing_permutation(d_model: int) -> npt.NDArray[np.int64]:
    r"""The permutation ``perm`` with ``rope_halves(x) = P rope_adjacent(P^T x)``.

    ``P`` is the permutation matrix with :math:`(P y)_j = y_{\mathrm{perm}[j]}`, that is
    ``P = numpy.eye(d)[perm]`` and ``P @ y == y[perm]``:
    ``perm = [0, 2, 4, ..., d-2, 1, 3, ..., d-1]``. It moves the adjacent pair
    ``(2i, 2i+1)`` to the halves pair ``(i, i + d/2)``. Converting weights trained with one
    pairing to code using the other permutes the rows of :math:`W_q` and :math:`W_k` by
    ``P`` within each head (``W_halves = P W_adjacent``).

    Parameters
    ----------
    d_model
        Even width ``>= 2`` (the head dimension).

    Returns
    -------
    numpy.ndarray
        Int64 array of length ``d``; ``P^T y`` is ``y[numpy.argsort(perm)]``.
    """
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("pairing_permutation", width, 8)
    return np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)]).astype(np.int64)


def pair_columns(d_model: int, pairing: str) -> list[tuple[int, int]]:
    """The columns ``(a, b)`` of each pair: ``(2i, 2i+1)`` adjacent, ``(i, i + d/2)`` halves.

    Examples
    --------
    >>> pair_columns(4, "adjacent"), pair_columns(4, "halves")
    ([(0, 1), (2, 3)], [(0, 2), (1, 3)])
    """
    width = _validate.even_width("d_model", d_model)
    mode = _pairing(pairing)
    _validate.capped_elements("pair_columns", width // 2, 128)  # a list of tuples
    if mode == "adjacent":
        return [(a, a + 1) for a in range(0, width, 2)]
    return [(a, a + width // 2) for a in range(width // 2)]


def rope_angles(
    positions: int | npt.ArrayLike,
    d_model: int,
    *,
    base: float = 10000.0,
    scale: float = 1.0,
    angle_dtype: npt.DTypeLike = np.float64,
) -> Float64Array:
    r"""The rotation angles :math:`\theta_{p,i} = (p / s)\,\omega_i` as computed in ``angle_dtype``.

    Parameters
    ----------
    positions
        A count ``n`` (positions ``0 .. n-1``) or a 1-D array of real positions (negative
        and fractional allowed, see :func:`rope`), at most ``2**53`` in absolute value
        (65504 for float16 angles).
    d_model
        Even width ``>= 2``.
    base
        Base of the frequency law, finite and ``> 1``.
    scale
        Position interpolation factor ``s > 0`` (Chen et al. 2023): positions are divided
        by ``s``; ``1`` is plain RoPE.
    angle_dtype
        The dtype in which positions, frequencies and their products are rounded, to
        reproduce code that forms angles in float32 or float16.

    Returns
    -------
    numpy.ndarray
        Float64 array of shape ``(n, d/2)`` holding the angles after rounding.
    """
    ps = _real_positions("positions", positions)
    width = _validate.even_width("d_model", d_model)
    s = _validate.real_scalar("scale", scale)
    if s <= 0:
        raise ValueError(f"scale must be > 0, got {s}")
    dtype = _validate.float_dtype("angle_dtype", angle_dtype)
    if dtype == np.float16 and float(np.abs(ps).max()) > MAX_FLOAT16:
        raise ValueError("positions must lie within +-65504 for float16 angles (else inf)")
    _validate.capped_elements("the angles", ps.size * width, 16)
    omega = frequencies(width, base)
    if dtype == np.float64:
        return np.multiply.outer(ps / s, omega)
    p = ps.astype(dtype)
    if s != 1.0:
        p = (p / dtype.type(s)).astype(dtype)
    angles = np.multiply.outer(p, omega.astype(dtype)).astype(dtype)
    return angles.astype(np.float64)


@_arrays.in_libraries(_arrays.rope_in_library, rope_angles, frequencies)
def rope(
    x: npt.ArrayLike,
    positions: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
    pairing: Pairing = "adjacent",
    scale: float = 1.0,
    angle_dtype: npt.DTypeLike = np.float64,
) -> FloatArray:
    r"""Rotate each pair of the last axis of ``x`` by the angle :math:`p_j\,\omega_i`.

    For row ``j`` (position ``p_j``) and pair ``i`` with coordinates ``(a, b)``:

    .. math::

        a' = a \cos p_j\omega_i - b \sin p_j\omega_i, \qquad
        b' = b \cos p_j\omega_i + a \sin p_j\omega_i, \qquad
        \omega_i = \mathrm{base}^{-2i/d}.

    Parameters
    ----------
    x
        Real array of shape ``(..., n, d)``, ``d`` even. Float inputs keep their dtype; integer
        inputs are computed in float64.
    positions
        A count ``n`` (positions ``0 .. n-1``) or a 1-D array of ``n`` real positions, one per row:
        integers, whole-valued floats (``numpy.arange(n, dtype=float)``) or fractional positions,
        such as the interpolated positions :math:`p/s` of position interpolation (Chen et al. 2023):
        ``rope(x, p / s)`` and ``rope(x, p, scale=s)`` rotate by the same angles up to the error
        model below.
    base
        Base of the frequency law (10000 in RoFormer and Llama), ``> 1``.
    pairing
        ``"adjacent"``: pairs ``(x[2i], x[2i+1])``; ``"halves"``: pairs ``(x[i], x[i+d/2])``.
    scale
        Position interpolation factor ``s``: angles :math:`(p/s)\,\omega_i`.
    angle_dtype
        Dtype in which the angles are formed (see :func:`rope_angles`).

    Returns
    -------
    numpy.ndarray
        Same shape and dtype as ``x`` (float64 for integer input; another library's array for its
        ``x``: :mod:`pe._arrays`). Error model: a position ``p`` is taken as the float64 number
        given (float16/float32 positions widen exactly), and the angle :math:`(p/s)\,\omega_i`,
        formed in ``angle_dtype``, is within :math:`2\,\varepsilon_a\,\omega_i |p/s|` radians of the
        exact angle of that number, whole or fractional (the module's error model), so each rotated
        pair is within that angle error times its norm, plus a few roundings of ``x.dtype``.

    Raises
    ------
    TypeError, ValueError
        For non-real ``x``, odd ``d``, a row count different from the number of positions,
        NaN, infinite or too large positions, an unknown pairing, or an output above
        :data:`pe.MAX_BYTES`.

    Examples
    --------
    >>> x = np.ones((4, 2))
    >>> bool(np.allclose(rope(x, np.arange(4.0), scale=2.0), rope(x, [0, 0.5, 1, 1.5])))
    True
    """
    array = _as_float_array("x", x)
    if array.ndim < 2:
        raise ValueError(f"x must have shape (..., n, d), got shape {array.shape}")
    width = _validate.even_width("x.shape[-1]", array.shape[-1])
    mode = _pairing(pairing)
    ps = _real_positions("positions", positions)
    if ps.size != array.shape[-2]:
        raise ValueError(
            f"positions must give one position per row of x: {ps.size} positions, "
            f"{array.shape[-2]} rows"
        )
    _validate.capped_elements("rope", 3 * array.size, array.dtype.itemsize)
    angles = rope_angles(ps, width, base=base, scale=scale, angle_dtype=angle_dtype)
    c = np.cos(angles).astype(array.dtype)
    s = np.sin(angles).astype(array.dtype)
    if mode == "adjacent":
        first, second = slice(0, width, 2), slice(1, width, 2)
    else:
        first, second = slice(0, width // 2), slice(width // 2, width)
    a, b = array[..., first], array[..., second]
    out = np.empty_like(array)
    out[..., first] = a * c - b * s
    out[..., second] = b * c + a * s
    return out


def rope_scores(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    query_positions: int | npt.ArrayLike,
    key_positions: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
    pairing: Pairing = "adjacent",
    angle_dtype: npt.DTypeLike = np.float64,
) -> Float64Array:
    r"""Scores :math:`s(m_j, n_j) = \langle R_{m_j} q, R_{n_j} k\rangle` for one query and one key.

    Parameters
    ----------
    q, k
        Vectors of the same even length ``d``.
    query_positions, key_positions
        1-D arrays of real positions of the same length (or counts): the pairs ``(m_j, n_j)``.
    base, pairing, angle_dtype
        As in :func:`rope`.

    Returns
    -------
    numpy.ndarray
        Float64 array, one score per pair of positions.
    """
    qv = _as_float_array("q", q).astype(np.float64)
    kv = _as_float_array("k", k).astype(np.float64)
    if qv.ndim != 1 or qv.shape != kv.shape:
        raise ValueError(f"q and k must be vectors of one length, got {qv.shape}, {kv.shape}")
    ms = _real_positions("query_positions", query_positions)
    ns = _real_positions("key_positions", key_positions)
    if ms.shape != ns.shape:
        raise ValueError("query_positions and key_positions must have the same length")
    _validate.capped_elements("the scores", 2 * ms.size * qv.size, 8)
    rotate = partial(rope, base=base, pairing=pairing, angle_dtype=angle_dtype)
    rq = rotate(np.broadcast_to(qv, (ms.size, qv.size)), ms)
    rk = rotate(np.broadcast_to(kv, (ns.size, kv.size)), ns)
    return np.asarray(np.einsum("jd,jd->j", rq, rk), dtype=np.float64)


def rope_error_bound(
    x: npt.ArrayLike, positions: int | npt.ArrayLike, *, pairing: Pairing = "adjacent"
) -> Float64Array:
    r"""A bound on each entry's rounding error in :func:`rope` with float64 angles, same shape.

    Both entries of a pair :math:`(a, b)` of row ``j``, turned by :math:`p_j\,\omega_i`, are
    within :data:`pe.error_models.ROTATION` of the exact rotation:

    .. math::

        (|a| + |b|)\,\bigl(\varepsilon + \gamma_2 + (r_\omega + u)\,|p_j|\,\omega_i\bigr).

    ``x`` has shape ``(n, d)``, one row per position (``positions`` a count ``n`` or
    ``n`` positions); two computations of the same rotation differ by at most twice this.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0, 0.0, 2.0]])
    >>> bound = rope_error_bound(x, [0])
    >>> bool(bound[0, 0] == bound[0, 1]), bool(bound[0, 2] == 2 * bound[0, 0])
    (True, True)
    """
    v = _as_float_array("x", x).astype(np.float64)
    mode = _pairing(pairing)
    width = _validate.even_width("x.shape[-1]", v.shape[-1])
    reach = np.abs(rope_angles(positions, width))
    half = width // 2
    if mode == "adjacent":
        size = np.abs(v[..., 0::2]) + np.abs(v[..., 1::2])
        return np.repeat(rotation_rounding(size, reach, width), 2, axis=-1)
    size = np.abs(v[..., :half]) + np.abs(v[..., half:])
    bound = rotation_rounding(size, reach, width)
    return np.concatenate([bound, bound], axis=-1)


def rope_complex(
    x: npt.ArrayLike, positions: int | npt.ArrayLike, *, pairing: Pairing = "adjacent"
) -> Float64Array:
    r"""RoPE as complex arithmetic: pair :math:`(a, b)` becomes :math:`(a + \mathrm{i}b)\,e^{\mathrm{i}p\omega_i}`.

    A second computation of :func:`rope`, by NumPy's complex exponential and product: the
    real and imaginary parts of the product are the rotated pair. Error model: both rotate
    the same pairs by the same float64 angles, each within :data:`pe.error_models.ROTATION`
    of the exact rotation, so the two differ entry by entry by at most twice
    :func:`rope_error_bound`.

    Parameters
    ----------
    x
        Real array of shape ``(n, d)``, ``d`` even, one row per position.
    positions
        A count ``n`` or ``n`` real positions.
    pairing
        ``"adjacent"`` or ``"halves"``, as in :func:`rope`.

    Returns
    -------
    numpy.ndarray
        Float64 array of the shape of ``x``.

    Examples
    --------
    >>> rope_complex(np.array([[1.0, 0.0]]), [0])
    array([[1., 0.]])
    >>> x = np.ones((3, 4))
    >>> bool(np.all(np.abs(rope_complex(x, 3) - rope(x, 3)) <= 2 * rope_error_bound(x, 3)))
    True
    """
    v = _as_float_array("x", x).astype(np.float64)
    mode = _pairing(pairing)
    width = _validate.even_width("x.shape[-1]", v.shape[-1])
    ps = _real_positions("positions", positions)
    if v.ndim < 2 or ps.size != v.shape[-2]:
        raise ValueError(
            f"positions must give one position per row of x: {ps.size} positions, x of shape {v.shape}"
        )
    _validate.capped_elements("rope_complex", 3 * v.size, 16)
    angles = np.multiply.outer(ps, frequencies(width))
    if mode == "adjacent":
        z = (v[..., 0::2] + 1j * v[..., 1::2]) * np.exp(1j * angles)
        out = np.empty_like(v)
        out[..., 0::2], out[..., 1::2] = z.real, z.imag
        return out
    z = (v[..., : width // 2] + 1j * v[..., width // 2 :]) * np.exp(1j * angles)
    return np.concatenate([z.real, z.imag], axis=-1)


def _pair_norms(v: Float64Array, pairing: str) -> Float64Array:
    half = v.size // 2
    if pairing == "adjacent":
        return np.asarray(np.hypot(v[0::2], v[1::2]), dtype=np.float64)
    return np.asarray(np.hypot(v[:half], v[half:]), dtype=np.float64)


def offset_error(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: int | npt.ArrayLike,
    offsets: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
    pairing: Pairing = "adjacent",
    angle_dtype: npt.DTypeLike = np.float64,
) -> Float64Array:
    r"""``|s(m, m + r) - <q, R_r k>|`` for every position ``m`` and offset ``r``.

    The scores use angles formed in ``angle_dtype``; the reference
    :math:`\langle q, R_r k\rangle` uses float64 angles of the offset alone. If the score
    depended only on the offset, every entry would be zero up to rounding.

    Returns
    -------
    numpy.ndarray
        Float64 array of shape ``(len(positions), len(offsets))``.
    """
    ms = _signed_positions("positions", positions)
    rs = _signed_positions("offsets", offsets)
    qv = _as_float_array("q", q).astype(np.float64)
    _validate.capped_elements("the errors", 4 * ms.size * rs.size * qv.size, 8)
    errors = np.empty((ms.size, rs.size), dtype=np.float64)
    zeros = np.zeros(1, dtype=np.int64)
    for col, r in enumerate(rs.tolist()):
        reference = rope_scores(q, k, zeros, np.array([r]), base=base, pairing=pairing)[0]
        scores = rope_scores(q, k, ms, ms + r, base=base, pairing=pairing, angle_dtype=angle_dtype)
        errors[:, col] = np.abs(scores - reference)
    return errors


def offset_tolerance(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: int | npt.ArrayLike,
    offsets: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
    pairing: Pairing = "adjacent",
    model_dtype: npt.DTypeLike = np.float64,
) -> Float64Array:
    r"""The error model's bound :math:`\tau` for :func:`offset_error`, same shape.

    .. math::

        \tau(m, r) = \sum_i \rho_i \bigl(2\varepsilon_a\omega_i(|m| + |m + r|)
                     + 2\varepsilon_a\omega_i |r| + (d + 8)\,\varepsilon_{64}\bigr),

    with :math:`\varepsilon_a` the machine epsilon of ``model_dtype`` (the angle dtype the
    bound is stated for) and :math:`\rho_i` the product of the norms of pair ``i`` of ``q``
    and ``k``.
    """
    ms = _signed_positions("positions", positions).astype(np.float64)
    rs = _signed_positions("offsets", offsets).astype(np.float64)
    # the grid of |m|, |m + r| and |r|, their sum and the tolerances: 4 (m, r) arrays
    _validate.capped_elements("the tolerances", 4 * ms.size * rs.size, 8)
    qv = _as_float_array("q", q).astype(np.float64)
    kv = _as_float_array("k", k).astype(np.float64)
    mode = _pairing(pairing)
    width = _validate.even_width("q.shape[-1]", qv.size)
    omega = frequencies(width, base)
    rho = _pair_norms(qv, mode) * _pair_norms(kv, mode)
    eps_a = float(np.finfo(_validate.float_dtype("model_dtype", model_dtype)).eps)
    eps64 = float(np.finfo(np.float64).eps)
    reach = np.abs(ms)[:, None] + np.abs(ms[:, None] + rs[None, :]) + np.abs(rs)[None, :]
    weighted = float(np.sum(rho * omega))
    return np.asarray(
        2.0 * eps_a * weighted * reach + (width + 8) * eps64 * float(rho.sum()), dtype=np.float64
    )


@dataclass(frozen=True, kw_only=True)
class OffsetCheck(ToleranceCheck):
    """Outcome of :func:`check_offset_dependence`: a :class:`~pe._tolerance.ToleranceCheck`.

    Attributes
    ----------
    d_model, angle_dtype, model_dtype, pairing
        What was checked, and the angle dtype whose epsilon the tolerance uses.
    n_positions, n_offsets
        How many positions ``m`` and offsets ``r``.
    position, offset
        Where the largest ``|s(m, m + r) - <q, R_r k>|`` (``max_abs_error``) occurs.
    """

    d_model: int
    angle_dtype: str
    model_dtype: str
    pairing: str
    n_positions: int
    n_offsets: int
    position: int
    offset: int

    def summary(self) -> str:
        """One line: the largest error, where, the tolerance, the verdict."""
        return (
            f"d={self.d_model}, {self.pairing}, angles in {self.angle_dtype}: "
            f"max |s(m, m+r) - <q, R_r k>| = {self.max_abs_error:.3g} at m={self.position}, "
            f"r={self.offset} (tolerance for {self.model_dtype} angles {self.tolerance:.3g}); "
            f"worst error/tolerance {self.worst_ratio:.3g}: {self.verdict}"
        )


def check_offset_dependence(
    d_model: int,
    positions: int | npt.ArrayLike,
    offsets: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
    pairing: Pairing = "adjacent",
    angle_dtype: npt.DTypeLike = np.float64,
    model_dtype: npt.DTypeLike | None = None,
    seed: int = 0,
) -> OffsetCheck:
    """Check that RoPE scores of random ``q``, ``k`` depend only on the offset.

    Draws ``q`` and ``k`` from a standard normal distribution (``numpy.random.default_rng(seed)``),
    computes :func:`offset_error` and compares it with :func:`offset_tolerance` for
    ``model_dtype`` (default: ``angle_dtype``). Stating the float64 tolerance for angles
    formed in float32 or float16 shows where those dtypes break the relative property.
    """
    width = _validate.even_width("d_model", d_model)
    seed_value = _validate.positive_int("seed", seed, minimum=0)
    angle = _validate.float_dtype("angle_dtype", angle_dtype)
    model = _validate.float_dtype("model_dtype", angle if model_dtype is None else model_dtype)
    ms = _signed_positions("positions", positions)
    rs = _signed_positions("offsets", offsets)
    rng = np.random.default_rng(seed_value)
    q, k = rng.standard_normal(width), rng.standard_normal(width)
    errors = offset_error(q, k, ms, rs, base=base, pairing=pairing, angle_dtype=angle)
    tolerance = offset_tolerance(q, k, ms, rs, base=base, pairing=pairing, model_dtype=model)
    worst = worst_case(errors, tolerance)
    row, col = worst.index
    return OffsetCheck(
        d_model=width,
        angle_dtype=str(angle),
        model_dtype=str(model),
        pairing=str(pairing),
        n_positions=int(ms.size),
        n_offsets=int(rs.size),
        position=int(ms[row]),
        offset=int(rs[col]),
        max_abs_error=worst.max_abs_error,
        tolerance=worst.tolerance,
        worst_ratio=worst.worst_ratio,
    )


def abel_bound(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    offsets: int | npt.ArrayLike,
    *,
    base: float = 10000.0,
) -> tuple[Float64Array, Float64Array]:
    r"""RoFormer's upper bound on :math:`|s(r)|` by summation by parts, and the scores.

    With the adjacent pairing, pair ``i`` of ``q`` and ``k`` as complex numbers
    :math:`\tilde q_i = q_{2i} + \mathrm{i} q_{2i+1}`, :math:`h_i = \overline{\tilde q_i}\,\tilde k_i`,
    the score at offset ``r`` is :math:`s(r) = \operatorname{Re} \sum_i h_i e^{\mathrm{i} r\omega_i}`.
    With :math:`S_j(r) = \sum_{i<j} e^{\mathrm{i} r\omega_i}` and :math:`h_{d/2} = 0`,
    summation by parts gives

    .. math::

        |s(r)| \le \Bigl(\max_i |h_{i+1} - h_i|\Bigr) \sum_{j=1}^{d/2} |S_j(r)|.

    Returns
    -------
    tuple of numpy.ndarray
        ``(bound, scores)``, one value per offset each, float64.
    """
    qv = _as_float_array("q", q).astype(np.float64)
    kv = _as_float_array("k", k).astype(np.float64)
    if qv.ndim != 1 or qv.shape != kv.shape:
        raise ValueError(f"q and k must be vectors of one length, got {qv.shape}, {kv.shape}")
    width = _validate.even_width("q.shape[-1]", qv.size)
    rs = _signed_positions("offsets", offsets).astype(np.float64)
    _validate.capped_elements("the bound", 4 * rs.size * width, 16)
    omega = frequencies(width, base)
    h = np.conj(qv[0::2] + 1j * qv[1::2]) * (kv[0::2] + 1j * kv[1::2])
    steps = np.abs(np.diff(np.append(h, 0.0)))
    phases = np.exp(1j * np.multiply.outer(rs, omega))
    partial = np.cumsum(phases, axis=1)
    bound = float(steps.max()) * np.abs(partial).sum(axis=1)
    scores = np.real(phases @ h)
    return np.asarray(bound, dtype=np.float64), np.asarray(scores, dtype=np.float64)


def abel_rounding(q: npt.ArrayLike, k: npt.ArrayLike) -> float:
    r"""A bound on the rounding of :func:`abel_bound` near the bound: :math:`2\gamma_{d+4} \sum_i |h_i|`.

    :math:`|s(r)|` and the bound are sums of :math:`d/2` terms of size :math:`|h_i|` (and of
    a few roundings each): near the bound both are within :math:`\gamma_{d+4} \sum_i |h_i|`
    of their exact values, so ``|s(r)| - bound`` is at most twice that above 0.

    Examples
    --------
    >>> ones = np.ones(4)
    >>> bound, scores = abel_bound(ones, ones, np.arange(100))
    >>> bool(np.max(np.abs(scores) - bound) <= abel_rounding(ones, ones))
    True
    """
    qv = _as_float_array("q", q).astype(np.float64)
    kv = _as_float_array("k", k).astype(np.float64)
    if qv.ndim != 1 or qv.shape != kv.shape:
        raise ValueError(f"q and k must be vectors of one length, got {qv.shape}, {kv.shape}")
    _validate.even_width("q.shape[-1]", qv.size)
    if not (np.all(np.isfinite(qv)) and np.all(np.isfinite(kv))):
        raise ValueError("q and k must be finite")
    h = np.abs((qv[0::2] + 1j * qv[1::2]) * (kv[0::2] + 1j * kv[1::2]))
    return 2 * gamma(qv.size + 4) * float(h.sum())


class RopeCode(NamedTuple):
    r"""What a RoPE implementation does, read off its maps by :func:`read_rope_code`.

    ``pairing`` is ``"adjacent"`` or ``"halves"`` (``"neither"`` when the maps pair the
    columns otherwise), over the first ``rotated`` columns; ``sign`` is ``+1`` where a pair
    :math:`(a, b)` turns to :math:`(a\cos\theta - b\sin\theta, a\sin\theta + b\cos\theta)`,
    ``-1`` the other way (0: unread); ``first`` is the position whose map is the identity.
    """

    pairing: str
    rotated: int
    sign: int
    first: int

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The columns ``(a, b)`` of each rotated pair (:func:`pair_columns`)."""
        return pair_columns(self.rotated, self.pairing)


def _partners(moved: Float64Array) -> list[int]:
    """The partner of each moved column: the row, other than its own, where it lands."""
    off = np.abs(moved - np.diag(np.diag(moved)))
    return [int(np.argmax(off[:, j])) for j in range(moved.shape[1])]


def read_rope_code(maps: Sequence[Float64Array], positions: Sequence[int]) -> RopeCode:
    """A RoPE implementation's pairing, rotated width, sign and first position, from its maps.

    Parameters
    ----------
    maps
        At each position, the ``d x d`` matrix whose column ``j`` is the image of the unit
        vector ``j`` (the map of a linear RoPE function, read exactly).
    positions
        The positions of ``maps``, in the same order.

    Returns
    -------
    RopeCode
        ``first`` is the first position whose map is exactly the identity (-1 if none); the
        rotated columns are those whose diagonal entry differs from 1 at some position; the
        pairing and the sign are read from the map one position after ``first`` (else the
        second map): a column's partner is the row it moves into most.

    Examples
    --------
    >>> maps = [rope(np.eye(4), np.full(4, p)).T for p in (0, 1, 2)]
    >>> read_rope_code(maps, [0, 1, 2])
    RopeCode(pairing='adjacent', rotated=4, sign=1, first=0)
    """
    _validate.sequence("maps", maps, "d x d matrices", kinds=(Sequence, np.ndarray))
    if len(maps) < 2:
        raise ValueError(f"maps must hold the maps of at least two positions, got {len(maps)}")
    matrices = [
        _validate.float_array(f"maps[{i}]", m, "(d, d)").astype(np.float64)
        for i, m in enumerate(maps)
    ]
    width = matrices[0].shape[0] if matrices[0].ndim == 2 else 0
    for i, m in enumerate(matrices):
        if m.shape != (width, width) or width == 0:
            raise ValueError(
                f"maps[{i}] must be a square matrix of the width of maps[0], got {m.shape}"
            )
        if not np.all(np.isfinite(m)):
            raise ValueError(f"maps[{i}] must be finite")
    _validate.sequence("positions", positions, "integers", kinds=(Sequence, np.ndarray))
    ps: list[int] = _signed_positions("positions", positions).tolist()
    if len(ps) != len(matrices):
        raise ValueError(f"positions must give one position per map: {len(ps)} for {len(matrices)}")
    identity = np.eye(width)
    first = next((p for p, m in zip(ps, matrices, strict=True) if np.array_equal(m, identity)), -1)
    one = matrices[ps.index(first + 1)] if first + 1 in ps else matrices[1]
    moved = [j for j in range(width) if any(m[j, j] != 1.0 for m in matrices)]
    rotated = len(moved)
    partner = _partners(one[:rotated, :rotated])
    if all(partner[j] == j ^ 1 for j in range(rotated)):
        code = RopeCode("adjacent", rotated, 0, first)
    elif all(partner[j] == (j + rotated // 2) % rotated for j in range(rotated)):
        code = RopeCode("halves", rotated, 0, first)
    else:
        return RopeCode("neither", rotated, 0, first)
    # no pair to read a sign from when no column turns (or an odd count of them does)
    signs = (
        {int(np.sign(one[b, a])) for a, b in code.pairs} if rotated % 2 == 0 < rotated else set()
    )
    return code._replace(sign=signs.pop() if len(signs) == 1 else 0)


#: A conversion of weights between the pairings: ``(permute, W_q, W_k) -> (W_q', W_k')``,
#: ``permute(W)`` permuting the rows of ``W`` by ``P`` (:func:`pairing_permutation`).
Conversion = Callable[[Callable[[Any], Any], Any, Any], tuple[Any, Any]]


def permute_both(permute: Callable[[Any], Any], q: Any, k: Any) -> tuple[Any, Any]:
    """Converting weights between pairings: permute the query and the key alike.

    Examples
    --------
    >>> permute_both(lambda v: v[::-1], [1, 2], [3, 4])
    ([2, 1], [4, 3])
    """
    _validate.function("permute", permute)
    return permute(q), permute(k)


class ConversionGap(NamedTuple):
    """The relative gap between the two pairings' scores, and its bound for a correct conversion."""

    gap: float
    tolerance: float


def conversion_gap(convert: Conversion, d_model: int = 64, *, seed: int = 5) -> ConversionGap:
    r"""Scores of weights trained with the adjacent pairing against the halves pairing's of converted ones.

    Draws :math:`W_q, W_k` (``d x d``) and 32 tokens ``x`` from a standard normal
    distribution (``numpy.random.default_rng(seed)``), converts the weights by
    ``convert(permute, W_q, W_k)`` (:func:`permute_both` converts them correctly) and compares
    the scores :math:`\langle R_m W_q x, R_n W_k x\rangle` at positions ``37 j`` under the
    adjacent pairing with those of the converted weights under the halves pairing.

    Error model: for weights converted correctly both score matrices compute the same
    :math:`\langle R_m W_q x, R_n W_k x\rangle` with sums in another order: projections
    within :math:`B_q = \gamma_d |x||W_q|^{\mathsf T}`, rotations adding
    :func:`rope_error_bound` (and carrying :math:`B_q` of both coordinates of a pair),
    scores within :math:`\gamma_d |q'||k'|^{\mathsf T} + B_{q'}|k'|^{\mathsf T} +
    |q'| B_{k'}^{\mathsf T}`; the tolerance is twice the largest, over the largest score.

    Returns
    -------
    ConversionGap
        The largest score difference over the largest score, and that tolerance.

    Examples
    --------
    >>> found = conversion_gap(permute_both, 8)
    >>> bool(found.gap <= found.tolerance)
    True
    """
    _validate.function("convert", convert)
    width = _validate.even_width("d_model", d_model)
    rng = np.random.default_rng(_validate.positive_int("seed", seed, minimum=0))
    _validate.capped_elements("conversion_gap", 6 * width * width, 8)
    w_q, w_k = rng.standard_normal((width, width)), rng.standard_normal((width, width))
    x = rng.standard_normal((32, width))
    perm = pairing_permutation(width)
    ps = np.arange(32) * 37
    adjacent = rope(x @ w_q.T, ps) @ rope(x @ w_k.T, ps).T
    converted = convert(lambda w: w[perm], w_q, w_k)
    if not isinstance(converted, tuple) or len(converted) != 2:
        raise TypeError(f"convert must return the two converted matrices, got {converted!r:.40}")
    wq2, wk2 = (np.asarray(w) for w in converted)
    if (
        wq2.shape != w_q.shape
        or wk2.shape != w_k.shape
        or wq2.dtype.kind != "f"
        or wk2.dtype.kind != "f"
    ):
        raise ValueError(
            f"convert must return two real ({width}, {width}) matrices, got {wq2.shape}, {wk2.shape}"
        )
    q2, k2 = x @ wq2.T, x @ wk2.T
    halves = rope(q2, ps, pairing="halves") @ rope(k2, ps, pairing="halves").T
    g = gamma(width)
    rotated, bounds = [], []
    for w in (w_q, w_k):
        projected = x @ w.T
        carried = g * (np.abs(x) @ np.abs(w).T)
        carried = np.repeat(carried[:, 0::2] + carried[:, 1::2], 2, axis=-1)
        rotated.append(np.abs(rope(projected, ps)))
        bounds.append(carried + rope_error_bound(projected, ps))
    (q, k), (b_q, b_k) = rotated, bounds
    score_bound = g * q @ k.T + b_q @ k.T + q @ b_k.T
    largest = np.abs(adjacent).max()
    return ConversionGap(
        float(np.abs(adjacent - halves).max() / largest), float(2 * score_bound.max() / largest)
    )
