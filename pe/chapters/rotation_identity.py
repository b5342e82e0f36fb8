r"""The rotation identity (``docs/rotation-identity.py``): :math:`T_k\,PE(p) = PE(p+k)`, and the nature of :math:`T_k`.

Pair ``i`` of the encoding is :math:`v(p) = (\sin\omega_i p, \cos\omega_i p)^T` with
:math:`\omega_i = \mathrm{base}^{-2i/d}` symbolic (see :mod:`pe.symbolic`). For one
frequency the block of the shift matrix :math:`T_k` is

.. math::

    B(k\omega) = \begin{pmatrix} \cos k\omega & \sin k\omega \\
                           -\sin k\omega & \cos k\omega \end{pmatrix}
         = R(-k\omega), \qquad
    R(\theta) = \begin{pmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{pmatrix},

with :math:`R(\theta)` the textbook (counter-clockwise) rotation
(:func:`pe.symbolic.rotation`). The proofs:

* the rotation identity :math:`B(k\omega)\,v(p) = v(p+k)` (:func:`rotation_identity`), and for
  the whole vector at a concrete width, :math:`T_k\,PE(p) = PE(p+k)`
  (:func:`block_diagonal_identity`);
* :math:`T_k` does not depend on the position (:func:`shift_is_position_free`) and is a
  rotation, :math:`B^{\mathsf T} B = I`, :math:`\det B = 1` (:func:`shift_is_orthogonal`);
* the group laws, which hold for :math:`T_k` at every width because it is block-diagonal:
  :math:`T_0 = I`, :math:`T_a T_b = T_{a+b}`, :math:`T_{-k} = T_k^{-1} = T_k^{\mathsf T}`,
  and one map takes 10 to 15 and 15 to 20;
* in (sin, cos) order the block is :math:`R(-k\omega)` (clockwise), and in (cos, sin) order
  the textbook :math:`R(k\omega)` is the right block.

Each proof reduces a residual to exactly zero with the strategies of
:class:`pe.symbolic.Derivation` (angle addition, Pythagoras) or, where multiple angles
appear, :func:`pe.symbolic.pythagorean_reduce` (polynomial division by :math:`s^2 + c^2 - 1`),
and leaves a non-zero residual for a wrong candidate. The measurements take a candidate too:
a shift matrix ``(k, d, base) -> (d, d) array`` (:func:`shift_matrix` is the truth), a SymPy
block, a law on offsets, an offset.

The group laws are held to the error model of a product of shift matrices,
:data:`pe.error_models.SHIFT_PRODUCT`, :math:`\tau(x) = 12\varepsilon_{64} +
4\varepsilon_{64}\,|x|` at the reach :math:`|x|` of the angles; orthogonality and the
fitted map to theirs (:data:`pe.error_models.SHIFT_ORTHOGONALITY`,
:data:`pe.error_models.FITTED_SHIFT`).

Examples
--------
>>> rotation_identity().holds, rotation_identity(TRANSPOSED_BLOCK.value).holds
(True, False)
>>> law = composition_error(lambda a, b: a + b)
>>> law.holds, law.error < 1e-10
(True, True)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric, symbolic
from pe._machine_dependent import judged_within, measured, measured_within, worst_case_text
from pe.claims import Candidate, Chapter, Check, Evidence, by_proof, checked, within
from pe.error_models import (
    FITTED_SHIFT,
    SHIFT,
    SHIFT_INVERSE,
    SHIFT_ORTHOGONALITY,
    SHIFT_PRODUCT,
    ErrorModel,
)
from pe.symbolic import OMEGA, A, B, Block, Derivation, K, P, Proof, Q, Verdict, pair, to_latex

chapter = Chapter(__name__, follows="sinusoidal_encoding")
claim = chapter.claim

Float64Array = npt.NDArray[np.float64]
#: A candidate shift matrix ``(k, d, base) -> (d, d) ndarray``.
ShiftMatrix = Callable[[int, int, float], Float64Array]
#: Order of the two entries of a pair.
Order = Literal["sin-cos", "cos-sin"]

#: Width and offsets of the numeric group-law checks.
LAW_WIDTH = 512
LAW_OFFSETS = (0, 1, 3, 7, 100, 1000, 12_345, -5, -250)


def shift_matrix(k: int, d_model: int, base: float) -> Float64Array:
    """:func:`pe.numeric.shift_matrix` with the signature of a candidate, ``(k, d, base)``.

    Examples
    --------
    >>> shift_matrix(0, 4, 10000.0).tolist() == np.eye(4).tolist()
    True
    """
    return numeric.shift_matrix(k, d_model, base=base)


def _block(block: Block | None, k: Any, w: Any) -> Any:
    candidate = (block or symbolic.shift_block)(k, w)
    if not isinstance(candidate, sp.MatrixBase):
        raise TypeError(f"block must return a sympy Matrix, got {type(candidate).__name__}")
    if candidate.shape != (2, 2):
        raise ValueError(f"block must return a 2 x 2 Matrix, got shape {candidate.shape}")
    return sp.Matrix(candidate)


def _t(k: int) -> Float64Array:
    return numeric.shift_matrix(k, LAW_WIDTH)


def _law(
    text: str,
    shown: str,
    worst: float,
    reach: float,
    model: ErrorModel[[float], float] = SHIFT_PRODUCT,
) -> Evidence:
    """A group law's largest error against ``model`` at the largest reach of its angles."""
    tolerance = model.tolerance(reach)
    return within(
        worst,
        tolerance,
        f"{text}, d={LAW_WIDTH}, {shown}: max error {measured_within(worst, tolerance.value)}",
    )


#: :math:`B^{\mathsf T}`: the shift by :math:`-k` (the most common slip).
TRANSPOSED_BLOCK = Candidate("transposed block", lambda k, w: symbolic.shift_block(k, w).T)
#: :math:`2B`: right direction, wrong length.
SCALED_BLOCK = Candidate("block scaled by 2", lambda k, w: 2 * symbolic.shift_block(k, w))


def _block_of(entries: Callable[[Any, Any], list[list[Any]]]) -> Block:
    """The block whose entries are ``entries(cos kω, sin kω)``."""
    return lambda k, w: sp.Matrix(entries(sp.cos(k * w), sp.sin(k * w)))


#: :math:`[[c, s], [s, c]]`: not a rotation at all.
NOT_A_ROTATION = Candidate("[[c, s], [s, c]]", _block_of(lambda c, s: [[c, s], [s, c]]))
#: The textbook :math:`R(k\omega)`: right for (cos, sin) order only.
TEXTBOOK_ROTATION = Candidate("textbook R(kω)", lambda k, w: symbolic.rotation(k * w))
#: :math:`B(2k\omega)`: a rotation by the wrong angle.
DOUBLED_FREQUENCY_BLOCK = Candidate(
    "block at twice the frequency", lambda k, w: symbolic.shift_block(k, 2 * w)
)
#: The wrong blocks ``pe prove`` disproves, each at an exact point.
WRONG_BLOCKS = (
    TRANSPOSED_BLOCK,
    SCALED_BLOCK,
    NOT_A_ROTATION,
    TEXTBOOK_ROTATION,
    DOUBLED_FREQUENCY_BLOCK,
)
#: :math:`T_k^{\mathsf T}`, which is :math:`T_{-k}`.
TRANSPOSED_SHIFT_MATRIX = Candidate(
    "transposed T_k", lambda k, d, base: numeric.shift_matrix(k, d, base=base).T
)


def _proved(theorem: Callable[[Block], Proof], *wrong_blocks: Candidate[Block]) -> Check[Block]:
    return Check(by_proof(theorem), true=symbolic.shift_block, wrong=wrong_blocks)


def _measured(
    run: Callable[[ShiftMatrix], Evidence], *wrong_matrices: Candidate[ShiftMatrix]
) -> Check[ShiftMatrix]:
    return Check(run, true=shift_matrix, wrong=wrong_matrices)


def rotation_identity(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(k\omega_i)\,v(p) = v(p+k)` for symbolic ``p``, ``k``, ``i``, ``d``, ``base``.

    Parameters
    ----------
    block
        Optional candidate ``(k, w) -> 2 x 2 sympy.Matrix``; default :func:`pe.symbolic.shift_block`.

    Returns
    -------
    Proof
        ``holds`` is true iff the residual :math:`B v(p) - v(p+k)` reduces to exactly 0.
    """
    matrix = _block(block, K, OMEGA)
    before, after = pair(P, OMEGA), pair(P + K, OMEGA)
    statement = (
        f"{to_latex(matrix)} {to_latex(before)} = {to_latex(after)}, "
        r"\qquad \omega_i = \mathrm{base}^{-2i/d}"
    )
    derivation = Derivation()
    residual = derivation.product_residual(matrix, before, after)
    derivation.note(
        "What the angle-addition formulas make of the shifted pair",
        f"{to_latex(after)} = {to_latex(after.applyfunc(sp.expand).applyfunc(sp.expand_trig))}",
        calls=("expand_trig",),
    )
    residual = derivation.angle_addition(residual)
    return derivation.proof("rotation identity (one pair)", statement, residual)


#: Offsets of the numeric identity checks: small, large and negative.
OFFSETS = np.array([0, 1, 2, 5, 10, 100, 1000, -3])
#: Positions: the first 1024 and a few far ones.
_FIRST = 1024
POSITIONS = np.concatenate([np.arange(_FIRST), [10_000, 100_000, 1_000_000]])


def _identity(dtype: type[np.floating[Any]]) -> Callable[[ShiftMatrix], Evidence]:
    """:math:`T_k\\,PE(p) = PE(p+k)` in ``dtype`` for a candidate :math:`T_k`, d = 512."""

    def run(shift: ShiftMatrix) -> Evidence:
        result = numeric._check_rotation_identity(
            512,
            POSITIONS,
            OFFSETS,
            base=10000.0,
            dtype=dtype,
            build=lambda k, d, base: shift(int(k), d, base),
        )
        return within(
            result.worst_ratio,
            SHIFT.per_entry(),
            f"d=512, {np.dtype(dtype)}, positions 0..{_FIRST - 1} and "
            f"{', '.join(map(str, POSITIONS[_FIRST:].tolist()))}, offsets "
            f"{', '.join(map(str, OFFSETS.tolist()))}: {worst_case_text(result, result.summary())}",
        )

    return run


def error_by_position(
    d_model: int, positions: npt.NDArray[np.int64], k: int, dtype: Any
) -> tuple[Float64Array, Float64Array]:
    """Largest error of :math:`T_k PE(p) - PE(p+k)` at each position, and its tolerance.

    Examples
    --------
    >>> errors, tolerances = error_by_position(8, np.array([1, 1000]), 3, "float64")
    >>> bool(np.all(errors <= tolerances))
    True
    """
    omega = numeric.frequencies(d_model)
    errors, tolerances = [], []
    for p in positions:
        result = numeric.check_rotation_identity(d_model, np.array([p]), np.array([k]), dtype=dtype)
        errors.append(result.max_abs_error)
        tolerances.append(float(numeric.rotation_tolerance(omega, p, k, dtype).max()))
    return np.asarray(errors), np.asarray(tolerances)


claim(
    "rotation-identity",
    "The rotation identity",
    _proved(rotation_identity, TRANSPOSED_BLOCK, SCALED_BLOCK),
    _measured(_identity(np.float64), TRANSPOSED_SHIFT_MATRIX),
    _measured(_identity(np.float32), TRANSPOSED_SHIFT_MATRIX),
)


def block_diagonal_identity(
    d_model: int, *, base: int | Any = 10000, block: Block | None = None
) -> Proof:
    r"""Prove :math:`T_k\,PE(p) = PE(p+k)` exactly for a concrete even width ``d_model``.

    :math:`T_k` is the ``d x d`` block-diagonal matrix of the blocks
    :math:`B(k\omega_i)`, :math:`\omega_i = \mathrm{base}^{-2i/d}` with exact rational
    exponents; ``p`` and ``k`` stay symbolic.

    Parameters
    ----------
    d_model
        Even width, ``2 <= d_model <= 512``.
    base
        An integer or sympy Rational ``> 1`` (floats are refused: no floats in proofs).
    block
        Optional candidate block, as in :func:`rotation_identity`.

    Examples
    --------
    >>> block_diagonal_identity(4).holds
    True
    """
    width = symbolic.exact_width(d_model, 512)
    omegas = symbolic.exact_frequencies(width, base)
    blocks = [_block(block, K, w) for w in omegas]
    matrix = sp.diag(*blocks)
    before, after = symbolic.encoding(P, omegas), symbolic.encoding(P + K, omegas)
    statement = (
        rf"T_k\,PE(p) = PE(p+k) \text{{ for }} d = {width},\ \mathrm{{base}} = {sp.latex(sp.Rational(base))}:"
        rf" T_k = \operatorname{{diag}}\left(B(k\omega_0), \dots, B(k\omega_{{{width // 2 - 1}}})\right)"
    )
    derivation = Derivation()
    derivation.note(
        f"T_k has {width // 2} blocks; the first and the last are",
        f"{to_latex(blocks[0])}, \\quad {to_latex(blocks[-1])}",
    )
    residual = matrix * before - after
    first = residual[:2, :]
    derivation.note(
        f"Residual T_k PE(p) − PE(p+k): {width} entries; the first {first.rows} are",
        to_latex(first),
        first,
    )
    residual = derivation.angle_addition_in_one_step(residual, shown=2)
    return derivation.proof(f"rotation identity, d = {width}", statement, residual)


claim(
    "rotation-identity-block-diagonal",
    "The identity for the whole vector",
    _proved(lambda block: block_diagonal_identity(8, block=block), TRANSPOSED_BLOCK),
    _proved(lambda block: block_diagonal_identity(64, block=block), TRANSPOSED_BLOCK),
    # every width: T_k acts block by block, and each block is the one-pair identity
    _proved(rotation_identity, TRANSPOSED_BLOCK),
    statement=(
        r"\begin{gathered}T_k\,PE(p) = PE(p+k),\quad T_k = \operatorname{diag}\bigl("
        r"B(k\omega_0), \dots, B(k\omega_{d/2-1})\bigr) \\"
        r" \text{at every width: block } i \text{ is the one-pair identity, } i, d, \text{base"
        r" symbolic;} \\ \text{written out whole, exactly, for } d = 8 \text{ and } d = 64"
        r"\end{gathered}"
    ),
)


def shift_is_position_free(block: Block | None = None) -> Proof:
    r"""Prove that the linear map taking :math:`v(p) \to v(p+k)` is the block itself, whatever ``p``.

    Take two positions ``p`` and ``q`` and :math:`V = [v(p)\ v(q)]`,
    :math:`V' = [v(p+k)\ v(q+k)]`. Whenever :math:`\det V = \sin \omega(p - q) \ne 0`, the only
    matrix ``M`` with :math:`M V = V'` is :math:`V' V^{-1} = V' \operatorname{adj}(V) / \det V`.
    The proof reduces :math:`V' \operatorname{adj}(V) - B(k\omega) \det V` to zero: so
    :math:`M = B(k\omega)`, which contains neither ``p`` nor ``q``.
    """
    matrix = _block(block, K, OMEGA)
    stack = sp.Matrix.hstack(pair(P, OMEGA), pair(Q, OMEGA))
    shifted = sp.Matrix.hstack(pair(P + K, OMEGA), pair(Q + K, OMEGA))
    free = sorted(str(s) for s in matrix.free_symbols)
    statement = (
        r"M\,[v(p)\ v(q)] = [v(p+k)\ v(q+k)],\ \sin\omega_i(p-q) \neq 0"
        rf" \implies M = {to_latex(matrix)}"
    )
    derivation = Derivation()
    derivation.note(
        "The candidate contains the symbols " + ", ".join(free) + " (neither p nor q)",
        to_latex(matrix),
    )
    derivation.note(
        "Residual: V′ adj(V) − B det(V)",
        f"{to_latex(shifted)} {to_latex(stack.adjugate())} - {to_latex(matrix)} \\cdot ({to_latex(stack.det())})",
    )
    residual = derivation.apply(
        "Multiply out the products", shifted * stack.adjugate() - matrix * stack.det(), sp.expand
    )
    residual = derivation.angle_addition(residual)
    proof = derivation.proof("T_k does not depend on the position", statement, residual)
    if (P in matrix.free_symbols or Q in matrix.free_symbols) and not proof.counterexample:
        # The candidate moves with the position: a point where it differs from itself at 0.
        found = symbolic.find_counterexample(matrix - matrix.subs({P: 0, Q: 0}), [P, Q, K])
        verdict = Verdict.DISPROVED if found else Verdict.NOT_DECIDED
        reason = "the candidate contains the position"
        return Proof(proof.name, proof.statement, proof.steps, verdict, matrix, found, reason)
    return proof


def _two_steps(matrix: Float64Array, k: int, d_model: int) -> tuple[float, float]:
    """How far ``matrix`` takes :math:`PE(2k)` from :math:`PE(3k)`, and :math:`PE(3k)` from
    :math:`PE(4k)` (largest entry)."""
    table = numeric.sinusoidal(4 * k + 1, d_model)
    first = float(np.abs(matrix @ table[2 * k] - table[3 * k]).max())
    return first, float(np.abs(matrix @ table[3 * k] - table[4 * k]).max())


#: Positions the map of :func:`fitted_map` is fitted from.
FIT_POSITIONS = np.arange(0, 100_000, 97)


def fitted_map(shift: ShiftMatrix, k: int = 5, widths: tuple[int, ...] = (16, 64)) -> Evidence:
    """Fit ``M`` by least squares from :data:`FIT_POSITIONS` and compare it with ``shift``.

    At each width: :math:`\\max|M - T_k|`, and how well ``M`` maps :math:`PE(2k)` to
    :math:`PE(3k)` and :math:`PE(3k)` to :math:`PE(4k)`, each against :data:`~pe.error_models.FITTED_SHIFT`.

    Examples
    --------
    >>> fitted_map(shift_matrix, 5, (16,)).holds
    True
    """
    texts, worst = [], 0.0
    for d_model in widths:
        fitted = numeric.fitted_shift_matrix(k, d_model, FIT_POSITIONS)
        gap = float(np.abs(fitted - shift(k, d_model, 10000.0)).max())
        first, second = _two_steps(fitted, k, d_model)
        tolerance = FITTED_SHIFT(k, d_model, FIT_POSITIONS)
        worst = max(worst, max(gap, first, second) / tolerance)
        texts.append(
            f"d={d_model}: M fitted by least squares from 1031 positions; "
            f"max|M - T_{k}| = {judged_within(gap, tolerance)}; the fitted M maps {2 * k} to {3 * k} "
            f"within {measured(first, tolerance, '.2g')} and {3 * k} to {4 * k} within "
            f"{measured_within(second, tolerance)}"
        )
    return within(worst, FITTED_SHIFT.per_entry("per width"), "; ".join(texts))


claim(
    "shift-independent-of-position",
    "$T_k$ does not depend on the position",
    _proved(shift_is_position_free, TRANSPOSED_BLOCK),
    _measured(fitted_map, TRANSPOSED_SHIFT_MATRIX),
)


def shift_is_orthogonal(block: Block | None = None) -> Proof:
    r"""Prove :math:`B^T B = I` and :math:`\det B = 1`, so every :math:`T_k` is a rotation.

    :math:`T_k^T T_k` is block-diagonal with blocks :math:`B_i^T B_i`, so the block result
    gives :math:`T_k^T T_k = I` for every width. The residual stacks
    :math:`B^T B - I` (four entries) and :math:`\det B - 1`.

    Examples
    --------
    >>> shift_is_orthogonal().holds, shift_is_orthogonal(SCALED_BLOCK.value).holds
    (True, False)
    """
    matrix = _block(block, K, OMEGA)
    statement = rf"B^T B = I,\ \det B = 1 \quad\text{{for}}\quad B = {to_latex(matrix)}"
    derivation = Derivation()
    gram = matrix.T * matrix - sp.eye(2)
    residual = sp.Matrix([*list(gram), matrix.det() - 1])
    derivation.note(
        "Residual: the entries of BᵀB − I, then det B − 1", to_latex(residual), residual
    )
    residual = derivation.pythagoras(residual)
    return derivation.proof("T_k is orthogonal with determinant 1", statement, residual)


def orthogonality(shift: ShiftMatrix) -> Evidence:
    """:math:`\\max|T^{\\mathsf T} T - I|` and :math:`\\max|\\det T - 1|` of ``shift`` at ``d =`` :data:`LAW_WIDTH` (512, the width the page names).

    Over the offsets 1, 7, 100 and 12345, each against its bound of :data:`~pe.error_models.SHIFT_ORTHOGONALITY`.

    Examples
    --------
    >>> orthogonality(shift_matrix).holds
    True
    """
    gram, det = 0.0, 0.0
    for k in (1, 7, 100, 12_345):
        matrix = shift(k, LAW_WIDTH, 10000.0)
        gram = max(gram, float(np.abs(matrix.T @ matrix - np.eye(LAW_WIDTH)).max()))
        det = max(det, abs(float(np.linalg.det(matrix)) - 1.0))
    gram_tol, det_tol = SHIFT_ORTHOGONALITY(LAW_WIDTH)
    return within(
        max(gram / gram_tol, det / det_tol),
        SHIFT_ORTHOGONALITY.per_entry("per number"),
        f"T_k, d={LAW_WIDTH}, k in (1, 7, 100, 12345): max|T^T T - I| = {gram:.2g} (tolerance "
        f"{gram_tol:.2g}), max|det T - 1| = {det:.2g} (tolerance {det_tol:.2g})",
    )


def _flipped_sine_shift_matrix(k: int, d: int, base: float) -> Float64Array:
    matrix = numeric.shift_matrix(k, d, base=base)
    matrix[1::2, 0::2] *= -1.0
    return matrix


#: :math:`T_k` with the sign of every lower sine flipped: not orthogonal.
FLIPPED_SINE_SHIFT_MATRIX = Candidate(
    "T_k with the lower sine's sign flipped", _flipped_sine_shift_matrix
)

claim(
    "shift-orthogonal",
    "$T_k$ is a rotation",
    _proved(shift_is_orthogonal, SCALED_BLOCK, NOT_A_ROTATION),
    _measured(orthogonality, FLIPPED_SINE_SHIFT_MATRIX),
    statement=r"T_k^{\mathsf T} T_k = I, \qquad \det T_k = 1",
)


def _ordered_pair(position: Any, w: Any, order: Order) -> Any:
    if order not in ("sin-cos", "cos-sin"):
        raise ValueError(f"order must be 'sin-cos' or 'cos-sin', got {order!r}")
    return pair(position, w) if order == "sin-cos" else pair(position, w)[::-1, :]


def block_in_order(block: Block, order: Order) -> Proof:
    r"""Prove that ``block`` maps the pair at ``p`` to the pair at ``p + k`` in the given order.

    For ``order="sin-cos"`` the pair is :math:`(\sin\omega p, \cos\omega p)` (the paper's);
    for ``"cos-sin"`` it is :math:`(\cos\omega p, \sin\omega p)`. The residual
    :math:`B\,u(p) - u(p+k)` is reduced by the angle-addition strategy.

    Parameters
    ----------
    block
        ``(k, w) -> 2 x 2 sympy.Matrix``, e.g. :func:`pe.symbolic.shift_block` or
        ``TEXTBOOK_ROTATION.value``.
    order
        ``"sin-cos"`` or ``"cos-sin"``.
    """
    matrix = _block(block, K, OMEGA)
    before, after = _ordered_pair(P, OMEGA, order), _ordered_pair(P + K, OMEGA, order)
    statement = f"{to_latex(matrix)} {to_latex(before)} = {to_latex(after)}"
    derivation = Derivation()
    residual = matrix * before - after
    derivation.note(f"Residual in ({order}) order: left side minus right side", to_latex(residual))
    residual = derivation.angle_addition(residual)
    return derivation.proof(f"shift block in ({order}) order", statement, residual)


def sin_cos_block_is_clockwise(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(k\omega) = R(-k\omega)`: in (sin, cos) coordinates the shift turns clockwise.

    The residual :math:`B(k\omega) - R(-k\omega)` is reduced with ``expand`` (SymPy writes
    :math:`\sin(-x) = -\sin x` and :math:`\cos(-x) = \cos x` on construction).
    """
    matrix = _block(block, K, OMEGA)
    clockwise = symbolic.rotation(-K * OMEGA)
    statement = f"{to_latex(matrix)} = R(-k\\omega_i) = {to_latex(clockwise)}"
    derivation = Derivation()
    derivation.note(
        "R(θ) is the textbook counter-clockwise rotation; R(−kω) turns clockwise",
        rf"R(\theta) = {to_latex(symbolic.rotation(sp.Symbol('theta')))}",
    )
    residual = derivation.apply("Residual B(kω) − R(−kω), expanded", matrix - clockwise, sp.expand)
    return derivation.proof("the (sin, cos) block turns clockwise", statement, residual)


#: Offsets at which :func:`orientation` shifts the pairs.
TURN_OFFSETS = (1, 5, -3)


def orientation(block: Block, order: Order) -> tuple[float, str]:
    """Shift pairs stored in ``order`` with the SymPy ``block``, evaluated by NumPy.

    At ``d = 512``, positions ``0 .. 199`` and the offsets :data:`TURN_OFFSETS`, the block
    is applied to :math:`u(p)` and compared with :math:`u(p+k)`. Returns the largest error
    and the direction the block turns pair 0 at ``k = 1`` (the sign of the 2-D cross
    product of :math:`u(p)` and :math:`B u(p)`): ``"neither"`` unless it turns every
    position the same way. The true block turns each pair the way the positions advance.

    Examples
    --------
    >>> worst, turn = orientation(symbolic.shift_block, "sin-cos")
    >>> worst < 1e-12, turn
    (True, 'clockwise')
    """
    w = sp.Symbol("w", positive=True)
    entries = sp.lambdify((symbolic.K, w), block(symbolic.K, w), "numpy")
    omega = numeric.frequencies(LAW_WIDTH)
    positions = np.arange(200, dtype=np.float64)
    first, second = (np.sin, np.cos) if order == "sin-cos" else (np.cos, np.sin)
    worst = 0.0
    angles = np.multiply.outer(positions, omega)
    u0, u1 = first(angles), second(angles)
    for k in TURN_OFFSETS:
        m = entries(k, omega)
        shifted = np.multiply.outer(positions + k, omega)
        t0, t1 = first(shifted), second(shifted)
        a0 = m[0][0] * u0 + m[0][1] * u1
        a1 = m[1][0] * u0 + m[1][1] * u1
        worst = max(worst, float(np.abs(a0 - t0).max()), float(np.abs(a1 - t1).max()))
    # where the block itself sends pair 0 for k = 1: the cross product of u(p) and B u(p)
    (b00, b01), (b10, b11) = (
        (float(np.broadcast_to(np.asarray(e, dtype=np.float64), omega.shape)[0]) for e in row)
        for row in entries(1, omega)
    )
    image0 = b00 * u0[:, 0] + b01 * u1[:, 0]
    image1 = b10 * u0[:, 0] + b11 * u1[:, 0]
    turns = np.sign(u0[:, 0] * image1 - u1[:, 0] * image0)
    if np.all(turns < 0):
        return worst, "clockwise"
    return worst, "counter-clockwise" if np.all(turns > 0) else "neither"


def _orientation(order: Order) -> Callable[[Block], Evidence]:
    """The block measured in ``order``: within :data:`~pe.error_models.SHIFT_PRODUCT`, turning the expected way."""
    expected = "clockwise" if order == "sin-cos" else "counter-clockwise"

    def run(block: Block) -> Evidence:
        worst, direction = orientation(block, order)
        x = sp.Symbol("x")
        entries = str(block(1, x).tolist()).replace("cos(x)", "c").replace("sin(x)", "s")
        tolerance = SHIFT_PRODUCT.tolerance(300.0)
        return checked(
            direction == expected,
            f"{entries} block on ({order}) pairs, d={LAW_WIDTH}, p < 200, k in "
            f"{TURN_OFFSETS}: max error {judged_within(worst, tolerance.value)}; at k = 1 the block "
            f"turns pair 0 {direction} (expected {expected})",
            error=worst,
            tolerance=tolerance,
        )

    return run


claim(
    "block-sign-sin-cos-order",
    r"In $(\sin, \cos)$ order the block is $\left[\begin{smallmatrix} c & s \\ -s & c \end{smallmatrix}\right]$: a clockwise rotation",
    _proved(partial(block_in_order, order="sin-cos"), TEXTBOOK_ROTATION),
    _proved(sin_cos_block_is_clockwise, TEXTBOOK_ROTATION),
    Check(_orientation("sin-cos"), true=symbolic.shift_block, wrong=(TEXTBOOK_ROTATION,)),
    statement=(
        r"\begin{gathered}"
        r"\begin{pmatrix} \sin\omega(p+k) \\ \cos\omega(p+k) \end{pmatrix} ="
        r"\begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega"
        r"\end{pmatrix}\begin{pmatrix} \sin\omega p \\ \cos\omega p \end{pmatrix},"
        r"\\ \begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega & \cos k\omega"
        r"\end{pmatrix} = R(-k\omega) \text{ (clockwise)}"
        r"\end{gathered}"
    ),
)

#: The paper's block where the pairs are stored (cos, sin): wrong in that order.
PAPER_BLOCK = Candidate("the paper's block", symbolic.shift_block)

claim(
    "textbook-block-cos-sin-order",
    r"The textbook rotation $\left[\begin{smallmatrix} c & -s \\ s & c \end{smallmatrix}\right]$ is right for $(\cos, \sin)$ order",
    Check(
        by_proof(partial(block_in_order, order="cos-sin")),
        true=TEXTBOOK_ROTATION.value,
        wrong=(PAPER_BLOCK,),
    ),
    Check(_orientation("cos-sin"), true=TEXTBOOK_ROTATION.value, wrong=(PAPER_BLOCK,)),
)


def identity_at_zero(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(0) = I`, hence :math:`T_0 = I`.

    Examples
    --------
    >>> identity_at_zero().residual.tolist()
    [[0, 0], [0, 0]]
    """
    matrix = _block(block, sp.Integer(0), OMEGA)
    statement = rf"T_0 = \operatorname{{diag}}(B(0), \dots) = I, \quad B(0) = {to_latex(matrix)}"
    derivation = Derivation()
    derivation.note("Set k = 0 in the block", to_latex(_block(block, K, OMEGA)) + r"\Big|_{k=0}")
    residual = derivation.apply(
        "Residual B(0) − I (cos 0 = 1, sin 0 = 0)", matrix - sp.eye(2), sp.expand
    )
    return derivation.proof("T_0 is the identity", statement, residual)


def identity_error(offset: int) -> Evidence:
    """:math:`\\max|T_{offset} - I|` at ``d = 512`` (the identity is ``offset = 0``).

    Examples
    --------
    >>> identity_error(0).error, identity_error(1).holds
    (0.0, False)
    """
    worst = float(np.abs(_t(offset) - np.eye(LAW_WIDTH)).max())
    return _law(f"T_{offset} = I", f"k = {offset}", worst, 0.0)


#: Sine and cosine swapped in the block.
SWAPPED_BLOCK = Candidate("sin and cos swapped", _block_of(lambda c, s: [[s, c], [-c, s]]))
#: :math:`T_1` offered as the identity (the true offset is 0).
OFFSET_ONE = Candidate("T_1", 1)

claim(
    "shift-identity-at-zero",
    "Shifting by zero changes nothing",
    _proved(identity_at_zero, SWAPPED_BLOCK, SCALED_BLOCK),
    Check(identity_error, true=0, wrong=(OFFSET_ONE,)),
)


def composition(
    block: Block | None = None, combine: Callable[[Any, Any], Any] | None = None
) -> Proof:
    r"""Prove :math:`B(a\omega)\,B(b\omega) = B((a + b)\omega)`, hence :math:`T_a T_b = T_{a+b}`.

    Parameters
    ----------
    block
        Optional candidate block.
    combine
        Optional law for the right-hand offset, e.g. the wrong ``operator.sub``;
        default ``operator.add``.

    Examples
    --------
    >>> composition().holds, composition(combine=operator.sub).holds
    (True, False)
    """
    left = _block(block, A, OMEGA) * _block(block, B, OMEGA)
    total = (combine or operator.add)(A, B)
    right = _block(block, total, OMEGA)
    statement = rf"B(a\omega_i)\,B(b\omega_i) = B(({sp.latex(total)})\,\omega_i)"
    derivation = Derivation()
    derivation.note("Residual B(aω) B(bω) − B((a + b)ω)", f"{to_latex(left)} - {to_latex(right)}")
    residual = derivation.apply("Multiply out the product", left - right, sp.expand)
    residual = derivation.angle_addition(residual)
    return derivation.proof("T_a T_b = T_(a+b)", statement, residual)


def composition_error(law: Callable[[Any, Any], Any]) -> Evidence:
    """:math:`\\max|T_a T_b - T_{law(a, b)}|` over ``a`` and ``b`` from :data:`LAW_OFFSETS`."""
    firsts, seconds = LAW_OFFSETS[1::2], LAW_OFFSETS[::2]
    worst = max(float(np.abs(_t(a) @ _t(b) - _t(law(a, b))).max()) for a in firsts for b in seconds)
    total = str(law(sp.Symbol("a"), sp.Symbol("b"))).replace(" ", "")
    reach = max(map(abs, firsts)) + max(map(abs, seconds))
    return _law(f"T_a T_b = T_({total})", f"a in {firsts}, b in {seconds}", worst, reach)


#: The law :math:`T_a T_b = T_{a-b}` (offsets subtract).
OFFSETS_SUBTRACT = Candidate("T_(a-b)", operator.sub)

claim(
    "shift-composition",
    "Two shifts make one: offsets add",
    _proved(composition, NOT_A_ROTATION, SCALED_BLOCK),
    Check(by_proof(partial(composition, None)), true=operator.add, wrong=(OFFSETS_SUBTRACT,)),
    Check(composition_error, true=operator.add, wrong=(OFFSETS_SUBTRACT,)),
    statement=r"T_a\,T_b = T_{a+b} \quad \text{for all real } a, b",
)


def inverse_is_transpose(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(-k\omega)\,B(k\omega) = I` and :math:`B(k\omega)^{\mathsf T} = B(-k\omega)`.

    So :math:`T_{-k} = T_k^{-1} = T_k^{\mathsf T}`: shifting back undoes the shift, and the
    inverse costs nothing (a transpose). The residual stacks the four entries of
    :math:`B(-k\omega)B(k\omega) - I` and the four of :math:`B(k\omega)^{\mathsf T} - B(-k\omega)`; it is reduced
    by multiplying out and substituting :math:`\sin^2 x = 1 - \cos^2 x`.
    """
    forward, backward = _block(block, K, OMEGA), _block(block, -K, OMEGA)
    statement = rf"B(-k\omega_i)\,B(k\omega_i) = I, \quad B(k\omega_i)^{{\mathsf T}} = B(-k\omega_i) = {to_latex(backward)}"
    derivation = Derivation()
    residual = sp.Matrix([*list(backward * forward - sp.eye(2)), *list(forward.T - backward)])
    derivation.note(
        "Residual: the entries of B(−kω)B(kω) − I, then of B(kω)ᵀ − B(−kω)", to_latex(residual.T)
    )
    residual = derivation.pythagoras(residual)
    return derivation.proof("T_(-k) = T_k^(-1) = T_k^T", statement, residual)


def inverse_error(inverse: Callable[[int], int]) -> Evidence:
    """How far :math:`T_{inverse(k)}` is from :math:`T_k^{-1}` and from :math:`T_k^{\\mathsf T}`.

    The largest of :math:`|T_{k'} T_k - I|`, :math:`|T_k^{\\mathsf T} - T_{k'}|` and
    :math:`|T_k^{-1} - T_{k'}|` with :math:`k' = inverse(k)`, over every other offset of
    :data:`LAW_OFFSETS`, against :data:`~pe.error_models.SHIFT_INVERSE`; the true inverse is ``operator.neg``.

    Examples
    --------
    >>> inverse_error(operator.neg).holds, inverse_error(operator.pos).holds
    (True, False)
    """
    eye, offsets = np.eye(LAW_WIDTH), LAW_OFFSETS[::2]
    worst = 0.0
    for k in offsets:
        t, back = _t(k), _t(inverse(k))
        for error in (back @ t - eye, t.T - back, np.linalg.inv(t) - back):
            worst = max(worst, float(np.abs(error).max()))
    laws = "T_(-k) T_k = I, T_k^T = T_(-k), inv(T_k) = T_(-k)"
    return _law(laws, f"k in {offsets}", worst, 2 * max(map(abs, offsets)), SHIFT_INVERSE)


#: The inverse offset :math:`+k`: :math:`T_{-k} = T_k`.
INVERSE_IS_SELF = Candidate("T_(-k) = T_k", operator.pos)

claim(
    "shift-inverse-is-transpose",
    "Shifting back is the inverse, and the inverse is the transpose",
    _proved(inverse_is_transpose, NOT_A_ROTATION, SCALED_BLOCK),
    Check(inverse_error, true=operator.neg, wrong=(INVERSE_IS_SELF,)),
    statement=r"T_{-k} = T_k^{-1} = T_k^{\mathsf T}",
)


def ten_to_fifteen_to_twenty(block: Block | None = None) -> Proof:
    r"""Prove that one matrix takes position 10 to 15 and position 15 to 20, for every pair.

    With :math:`x = 5\omega` the pairs at 10, 15 and 20 are :math:`(\sin 2x, \cos 2x)`,
    :math:`(\sin 3x, \cos 3x)` and :math:`(\sin 4x, \cos 4x)`. The residuals
    :math:`B(x)\,v(10) - v(15)` and :math:`B(x)\,v(15) - v(20)` are expanded into
    polynomials in :math:`\sin x, \cos x` (``expand_trig``) and reduced modulo
    :math:`\sin^2 x + \cos^2 x = 1` (:func:`pe.symbolic.pythagorean_reduce`).
    """
    x = sp.Symbol("x", real=True)  # x = 5 ω
    matrix = _block(block, sp.Integer(1), x)  # the block of angle x = 5ω
    v10, v15, v20 = pair(2, x), pair(3, x), pair(4, x)
    statement = (
        rf"B(x)\,v(10) = v(15) \text{{ and }} B(x)\,v(15) = v(20), \quad"
        rf" B(x) = {sp.latex(matrix)},\ x = 5\omega_i"
    )
    derivation = Derivation()
    residual = sp.Matrix([*list(matrix * v10 - v15), *list(matrix * v15 - v20)])
    derivation.note(
        "Residual: B(x) v(10) − v(15), then B(x) v(15) − v(20), with x = 5ω",
        sp.latex(residual.T),
        residual,
    )
    residual = derivation.apply(
        "Multiple angles as polynomials in sin x, cos x (expand_trig, expand)",
        residual,
        lambda e: sp.expand(sp.expand_trig(e)),
    )
    residual = derivation.apply(
        "Divide by sin²x + cos²x − 1 and keep the remainder (Pythagoras)",
        residual,
        lambda e: symbolic.pythagorean_reduce(e, x),
    )
    return derivation.proof("the same map takes 10 to 15 and 15 to 20", statement, residual)


def ten_fifteen_twenty(shift: ShiftMatrix) -> Evidence:
    """Errors of ``shift(5)`` taking ``PE(10)`` to ``PE(15)`` and ``PE(15)`` to ``PE(20)``.

    At ``d = 512``, against :data:`~pe.error_models.SHIFT_PRODUCT` at reach 25.
    """
    first, second = _two_steps(shift(5, LAW_WIDTH, 10000.0), 5, LAW_WIDTH)
    tolerance = SHIFT_PRODUCT.tolerance(25.0)
    return within(
        max(first, second),
        tolerance,
        f"d={LAW_WIDTH}: T_5 PE(10) - PE(15) max {first:.2g}, "
        f"T_5 PE(15) - PE(20) max {second:.2g} (tolerance {tolerance.value:.2g})",
    )


claim(
    "same-map-10-15-20",
    "The same map takes position 10 to 15 and 15 to 20",
    _proved(ten_to_fifteen_to_twenty, TRANSPOSED_BLOCK),
    _measured(ten_fifteen_twenty, TRANSPOSED_SHIFT_MATRIX),
    statement=r"T_5\,PE(10) = PE(15) \quad\text{and}\quad T_5\,PE(15) = PE(20)",
)

claim(
    "vaswani-linear-function",
    "Vaswani et al.: PE(pos + k) is a linear function of PE(pos)",
    statement=(
        r"\begin{gathered}\text{Vaswani et al. (2017), Section 3.5: the sinusoids were chosen}"
        r" \\ \text{in the hope that the model could easily learn to attend by relative} \\"
        r" \text{positions, since for any fixed offset } k,\ PE_{pos+k} \\ \text{can be"
        r" represented as a linear function of } PE_{pos}\end{gathered}"
    ),
    source="vaswani2017",
)
