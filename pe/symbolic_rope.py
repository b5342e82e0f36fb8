r"""RoPE in exact arithmetic (SymPy): the rotation of a whole vector, in either pairing.

:mod:`pe.rotary` rotates float arrays; this module builds the same maps as SymPy
expressions, for proofs that hold exactly (no floats). Pair ``i`` turns by
:math:`p\,\omega_i` with the exact frequencies :math:`\omega_i = b^{-2i/d}`
(:func:`pe.symbolic.exact_frequencies`):

- :func:`rope_rotation`: the :math:`2 \times 2` block :math:`R(p\,\omega)` of one pair, and
  :func:`rotation_block`, the block of any candidate rotation, checked to be one;
- :func:`rotation_matrix`: the :math:`d \times d` matrix :math:`R_p`, block-diagonal for the
  adjacent pairing, :math:`P\,\mathrm{diag}(\text{blocks})\,P^{\mathsf T}` for the halves
  pairing (``P`` from :func:`pe.rotary.pairing_permutation`);
- :func:`rope_adjacent` and :func:`rope_halves`: the rotated vector written as public code
  writes it, pair by pair (RoFormer, GPT-J) or with ``rotate_half`` (GPT-NeoX, Hugging
  Face's Llama), independently of :func:`rotation_matrix`;
- :func:`permutation_matrix`: the matrix ``P`` with :math:`(Py)_j = y_{\pi(j)}`.

Examples
--------
>>> import sympy as sp
>>> from pe.symbolic import exact_frequencies
>>> p = sp.Symbol("p", real=True)
>>> rotation_matrix(p, exact_frequencies(4, 100), "adjacent")[0:2, 0:2]
Matrix([
[cos(p), -sin(p)],
[sin(p),  cos(p)]])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from pe.rotary import PAIRINGS, pairing_permutation
from pe.symbolic import rotation

__all__ = [
    "Rotation",
    "permutation_matrix",
    "rope_adjacent",
    "rope_halves",
    "rope_rotation",
    "rotation_block",
    "rotation_matrix",
]

#: A rotation of one pair: ``(position, w) -> 2 x 2 sympy.Matrix`` (RoPE: ``R(position * w)``).
Rotation = Callable[[Any, Any], Any]


def rope_rotation(position: Any, w: Any) -> Any:
    r"""RoPE's rotation of one pair at ``position``: :math:`R(p\,\omega)` (:func:`pe.symbolic.rotation`).

    Examples
    --------
    >>> import sympy as sp
    >>> rope_rotation(2, sp.pi / 4)
    Matrix([
    [0, -1],
    [1,  0]])
    """
    return rotation(position * w)


def rotation_block(candidate: Rotation, position: Any, w: Any) -> Any:
    """The block ``candidate(position, w)``, checked to be a 2 x 2 SymPy matrix.

    Raises
    ------
    TypeError
        When ``candidate`` returns anything else.

    Examples
    --------
    >>> rotation_block(rope_rotation, 0, 1)
    Matrix([
    [1, 0],
    [0, 1]])
    """
    matrix = candidate(position, w)
    if not isinstance(matrix, sp.MatrixBase) or matrix.shape != (2, 2):
        raise TypeError("rotation must return a 2 x 2 sympy Matrix")
    return sp.Matrix(matrix)


def rotation_matrix(
    position: Any, omegas: Sequence[Any], pairing: str, rotation: Rotation = rope_rotation
) -> Any:
    r"""The :math:`d \times d` RoPE matrix at ``position`` for the pairing, from the pair blocks.

    Adjacent: :math:`\mathrm{diag}(B_0, \dots, B_{d/2-1})`; halves: the same blocks on the
    pairs ``(i, i + d/2)``, :math:`P\,\mathrm{diag}(B_i)\,P^{\mathsf T}`.

    Examples
    --------
    >>> import sympy as sp
    >>> rotation_matrix(1, [sp.pi / 2, 0], "halves")
    Matrix([
    [0, 0, -1, 0],
    [0, 1,  0, 0],
    [1, 0,  0, 0],
    [0, 0,  0, 1]])
    """
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be 'adjacent' or 'halves', got {pairing!r:.40}")
    blocks = [rotation_block(rotation, position, w) for w in omegas]
    if pairing == "adjacent":
        return sp.diag(*blocks)
    perm = [int(i) for i in pairing_permutation(2 * len(omegas))]
    return sp.diag(*blocks).extract(perm, perm)  # pairs (i, i + d/2): P diag(blocks) P^T


def rope_halves(x: Any, angles: Sequence[Any]) -> Any:
    """rotate_half form: x * cos + rotate_half(x) * sin, rotate_half(x) = (-x2, x1).

    Examples
    --------
    >>> import sympy as sp
    >>> rope_halves(sp.Matrix([1, 0, 0, 0]), [sp.pi / 2, 0]).T
    Matrix([[0, 0, 1, 0]])
    """
    half = len(angles)
    cos = [sp.cos(t) for t in angles] * 2
    sin = [sp.sin(t) for t in angles] * 2
    rotated = [-x[half + i] for i in range(half)] + [x[i] for i in range(half)]
    return sp.Matrix([x[j] * cos[j] + rotated[j] * sin[j] for j in range(2 * half)])


def rope_adjacent(x: Any, angles: Sequence[Any]) -> Any:
    r"""Pair by pair: :math:`(a, b) \mapsto (a\cos t - b\sin t,\ b\cos t + a\sin t)`.

    Examples
    --------
    >>> import sympy as sp
    >>> rope_adjacent(sp.Matrix([1, 0, 0, 0]), [sp.pi / 2, 0]).T
    Matrix([[0, 1, 0, 0]])
    """
    out: list[Any] = []
    for i, t in enumerate(angles):
        a, b = x[2 * i], x[2 * i + 1]
        out.extend([a * sp.cos(t) - b * sp.sin(t), b * sp.cos(t) + a * sp.sin(t)])
    return sp.Matrix(out)


def permutation_matrix(perm: Sequence[int]) -> Any:
    r"""The matrix ``P`` with :math:`(Py)_j = y_{\pi(j)}`, ``perm`` holding each index once.

    Examples
    --------
    >>> permutation_matrix([1, 0])
    Matrix([
    [0, 1],
    [1, 0]])
    """
    if sorted(perm) != list(range(len(perm))):
        raise ValueError("permutation must hold each index 0 .. d-1 once")
    return sp.eye(len(perm)).extract(list(perm), list(range(len(perm))))
