r"""Exact proofs of the rotation identity and its consequences, in SymPy.

Symbols: ``p`` (position) and ``k`` (offset) are real; the frequency of pair ``i`` is

.. math::

    \omega_i = \mathrm{base}^{-2i/d}

with ``i`` a non-negative integer, ``d`` a positive integer and ``base > 0`` all symbolic.
Pair ``i`` of the encoding is :math:`v(p) = (\sin \omega_i p, \cos \omega_i p)^T`.

Every proof here reduces a residual (left side minus right side) to exactly zero by a
deliberate chain of rewrites, each kept as a :class:`Step`:

1. multiply out the matrices;
2. expand the arguments, :math:`\omega_i(p+k) \to \omega_i p + \omega_i k` (``expand``);
3. apply the angle-addition formulas (``expand_trig``);
4. collect terms (``expand``).

Identities that need :math:`\sin^2 x + \cos^2 x = 1` substitute it explicitly as a named
step. No proof calls ``simplify`` and no proof compares floating-point numbers.
A wrong candidate (a transposed, sign-flipped or scaled block) gives ``holds=False`` and
the non-zero residual.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

__all__ = [
    "BASE",
    "OMEGA",
    "D",
    "I",
    "K",
    "P",
    "Proof",
    "Q",
    "Step",
    "block_diagonal_identity",
    "pair",
    "rotation",
    "rotation_identity",
    "shift_block",
    "shift_is_orthogonal",
    "shift_is_position_free",
    "to_latex",
]

#: Position, offset and a second position (real).
P = sp.Symbol("p", real=True)
K = sp.Symbol("k", real=True)
Q = sp.Symbol("q", real=True)
#: Pair index, width and base of the frequency law.
I = sp.Symbol("i", integer=True, nonnegative=True)
D = sp.Symbol("d", integer=True, positive=True)
BASE = sp.Symbol("base", positive=True)
#: The frequency :math:`\omega_i = \mathrm{base}^{-2i/d}` as an expression.
OMEGA = BASE ** (-2 * I / D)

_OMEGA_DISPLAY = sp.Symbol("omega_i", positive=True)
_LATEX_NAMES = {BASE: r"\mathrm{base}"}

#: A candidate block: ``(k, w) -> 2 x 2 sympy.Matrix``.
Block = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Step:
    """One rewrite of a proof: what was done, in words, and the result.

    ``latex`` renders the result on the site; ``expr`` is the SymPy expression itself
    (for the terminal), or None where the step shows several expressions side by side.
    """

    title: str
    latex: str
    expr: Any = None


@dataclass(frozen=True)
class Proof:
    """A statement, the rewrites that reduce its residual, and the verdict.

    Attributes
    ----------
    name
        Short name of the identity.
    statement
        The identity in LaTeX, generated from the same expressions the proof reduces.
    steps
        The rewrites in order; the last one shows the final residual.
    holds
        True exactly when every entry of the final residual is the integer 0.
    residual
        The final residual (a ``sympy.Matrix``): all zeros when ``holds``.
    """

    name: str
    statement: str
    steps: tuple[Step, ...]
    holds: bool
    residual: Any

    def residual_latex(self) -> str:
        """The final residual in LaTeX."""
        return to_latex(self.residual)

    def summary(self) -> str:
        """One line: the name, the number of rewrites and the verdict."""
        verdict = "residual is exactly 0" if self.holds else "residual is NOT zero"
        return f"{self.name}: {len(self.steps)} steps, {verdict}"


def to_latex(expr: Any) -> str:
    """LaTeX of ``expr`` with :math:`\\mathrm{base}^{-2i/d}` shown as :math:`\\omega_i`."""
    shown = expr.subs(OMEGA, _OMEGA_DISPLAY) if hasattr(expr, "subs") else expr
    return str(sp.latex(shown, symbol_names=_LATEX_NAMES))


def rotation(theta: Any) -> Any:
    r"""The counter-clockwise rotation :math:`R(\theta) = [[\cos\theta, -\sin\theta], [\sin\theta, \cos\theta]]`.

    The textbook rotation, and the block of RoPE. The paper's shift block is
    :math:`R(-k\omega)` (see :func:`shift_block`).

    Examples
    --------
    >>> import sympy as sp
    >>> rotation(sp.pi / 2)
    Matrix([
    [0, -1],
    [1,  0]])
    """
    c, s = sp.cos(theta), sp.sin(theta)
    return sp.Matrix([[c, -s], [s, c]])


def shift_block(k: Any, w: Any) -> Any:
    r"""The true block :math:`B(k, \omega) = [[\cos k\omega, \sin k\omega], [-\sin k\omega, \cos k\omega]]`.

    It maps :math:`(\sin \omega p, \cos \omega p)` to :math:`(\sin \omega(p+k), \cos \omega(p+k))`:
    a clockwise rotation by :math:`k\omega` in (sin, cos) coordinates.
    """
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [-s, c]])


def pair(position: Any, w: Any) -> Any:
    r"""One sine/cosine pair of the encoding, :math:`(\sin \omega p, \cos \omega p)^T`."""
    return sp.Matrix([sp.sin(w * position), sp.cos(w * position)])


def _checked_block(block: Block | None, k: Any, w: Any) -> Any:
    candidate = (block or shift_block)(k, w)
    if not isinstance(candidate, sp.MatrixBase):
        raise TypeError(f"block must return a sympy Matrix, got {type(candidate).__name__}")
    if candidate.shape != (2, 2):
        raise ValueError(f"block must return a 2 x 2 Matrix, got shape {candidate.shape}")
    return sp.Matrix(candidate)


class Derivation:
    """Applies rewrites to a residual matrix and records each as a :class:`Step`.

    Build a proof with it: ``note`` records a form without changing it, ``apply`` rewrites
    every entry and records the result, ``angle_addition`` and ``pythagoras`` are the two
    standard strategies, and ``proof`` closes with the verdict (holds iff every entry of the
    final residual is the integer 0).
    """

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def note(self, title: str, latex: str, expr: Any = None) -> None:
        self.steps.append(Step(title, latex, expr))

    def apply(self, title: str, matrix: Any, rewrite: Callable[[Any], Any]) -> Any:
        result = matrix.applyfunc(rewrite)
        self.steps.append(Step(title, to_latex(result), result))
        return result

    def angle_addition(self, residual: Any) -> Any:
        """The standard strategy: expand arguments, expand_trig, expand."""
        residual = self.apply(
            "Expand the arguments, ω(p + k) → ωp + ωk (expand)",
            residual,
            sp.expand,
        )
        residual = self.apply(
            "Apply the angle-addition formulas (expand_trig)", residual, sp.expand_trig
        )
        return self.apply("Collect terms (expand)", residual, sp.expand)

    def pythagoras(self, residual: Any) -> Any:
        """Expand, substitute sin²x = 1 − cos²x, expand."""
        residual = self.apply("Multiply out (expand)", residual, sp.expand)
        residual = self.apply("Substitute sin²x = 1 − cos²x (Pythagoras)", residual, _pythagorean)
        return self.apply("Collect terms (expand)", residual, sp.expand)

    def proof(self, name: str, statement: str, residual: Any) -> Proof:
        holds = all(entry == 0 for entry in residual)
        return Proof(name, statement, tuple(self.steps), holds, residual)


def _pythagorean(expr: Any) -> Any:
    return expr.replace(
        lambda e: e.is_Pow and e.exp == 2 and isinstance(e.base, sp.sin),
        lambda e: 1 - sp.cos(e.base.args[0]) ** 2,
    )


def rotation_identity(block: Block | None = None) -> Proof:
    r"""Prove :math:`B(k, \omega_i)\,v(p) = v(p+k)` for symbolic ``p``, ``k``, ``i``, ``d``, ``base``.

    Parameters
    ----------
    block
        Optional candidate ``(k, w) -> 2 x 2 sympy.Matrix``; default :func:`shift_block`.

    Returns
    -------
    Proof
        ``holds`` is true iff the residual :math:`B v(p) - v(p+k)` reduces to exactly 0.
    """
    matrix = _checked_block(block, K, OMEGA)
    before, after = pair(P, OMEGA), pair(P + K, OMEGA)
    statement = (
        f"{to_latex(matrix)} {to_latex(before)} = {to_latex(after)}, "
        r"\qquad \omega_i = \mathrm{base}^{-2i/d}"
    )
    derivation = Derivation()
    derivation.note(
        "Residual: left side minus right side",
        f"{to_latex(matrix)} {to_latex(before)} - {to_latex(after)}",
    )
    residual = matrix * before - after
    derivation.note("Multiply out the product", to_latex(residual), residual)
    derivation.note(
        "What the angle-addition formulas (expand_trig) make of the shifted pair",
        f"{to_latex(after)} = {to_latex(after.applyfunc(sp.expand).applyfunc(sp.expand_trig))}",
    )
    residual = derivation.angle_addition(residual)
    return derivation.proof("rotation identity (one pair)", statement, residual)


def _pe_vector(position: Any, omegas: list[Any]) -> Any:
    entries: list[Any] = []
    for w in omegas:
        entries.extend([sp.sin(w * position), sp.cos(w * position)])
    return sp.Matrix(entries)


def _exact_base(base: object) -> Any:
    if isinstance(base, bool) or not isinstance(base, int | sp.Integer | sp.Rational):
        raise TypeError(f"base must be an integer or a sympy Rational (no floats), got {base!r}")
    value = sp.Rational(base)
    if value <= 1:
        raise ValueError(f"base must be > 1, got {value}")
    return value


def block_diagonal_identity(
    d_model: int, *, base: int | Any = 10000, block: Block | None = None
) -> Proof:
    r"""Prove :math:`T_k\,PE(p) = PE(p+k)` exactly for a concrete even width ``d_model``.

    :math:`T_k` is the ``d x d`` block-diagonal matrix of the blocks
    :math:`B(k, \omega_i)`, :math:`\omega_i = \mathrm{base}^{-2i/d}` with exact rational
    exponents; ``p`` and ``k`` stay symbolic.

    Parameters
    ----------
    d_model
        Even width, ``2 <= d_model <= 512``.
    base
        An integer or sympy Rational ``> 1`` (floats are refused: no floats in proofs).
    block
        Optional candidate block, as in :func:`rotation_identity`.
    """
    from pe import _validate  # local: keeps the symbolic module free of NumPy at import

    width = _validate.even_width("d_model", d_model)
    if width > 512:
        raise ValueError(f"d_model must be <= 512 for an exact proof, got {width}")
    b = _exact_base(base)
    omegas = [b ** sp.Rational(-2 * i, width) for i in range(width // 2)]
    blocks = [_checked_block(block, K, w) for w in omegas]
    matrix = sp.diag(*blocks)
    before, after = _pe_vector(P, omegas), _pe_vector(P + K, omegas)
    statement = (
        rf"T_k\,PE(p) = PE(p+k) \text{{ for }} d = {width},\ \mathrm{{base}} = {sp.latex(b)}:"
        rf" T_k = \operatorname{{diag}}\left(B(k,\omega_0), \dots, B(k,\omega_{{{width // 2 - 1}}})\right)"
    )
    derivation = Derivation()
    derivation.note(
        f"T_k has {width // 2} blocks; the first and the last are",
        f"{to_latex(blocks[0])}, \\quad {to_latex(blocks[-1])}",
    )
    residual = matrix * before - after
    derivation.note(
        f"Residual T_k PE(p) − PE(p+k): {width} entries; the first two are",
        to_latex(residual[:2, :]),
        residual[:2, :],
    )
    residual = residual.applyfunc(sp.expand)
    residual = residual.applyfunc(sp.expand_trig)
    residual = residual.applyfunc(sp.expand)
    nonzero = sum(1 for entry in residual if entry != 0)
    derivation.note(
        "Expand the arguments, apply expand_trig, collect terms (expand), entry by entry: "
        f"{nonzero} of {width} entries are non-zero",
        to_latex(residual[:2, :]),
        residual[:2, :],
    )
    return derivation.proof(f"rotation identity, d = {width}", statement, residual)


def shift_is_position_free(block: Block | None = None) -> Proof:
    r"""Prove that the linear map taking :math:`v(p) \to v(p+k)` is the block itself, whatever ``p``.

    Take two positions ``p`` and ``q`` and :math:`V = [v(p)\ v(q)]`,
    :math:`V' = [v(p+k)\ v(q+k)]`. Whenever :math:`\det V = \sin \omega(p - q) \ne 0`, the only
    matrix ``M`` with :math:`M V = V'` is :math:`V' V^{-1} = V' \operatorname{adj}(V) / \det V`.
    The proof reduces :math:`V' \operatorname{adj}(V) - B(k, \omega) \det V` to zero: so
    :math:`M = B(k, \omega)`, which contains neither ``p`` nor ``q``.
    """
    matrix = _checked_block(block, K, OMEGA)
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
    if P in matrix.free_symbols or Q in matrix.free_symbols:
        return Proof(proof.name, proof.statement, proof.steps, False, proof.residual)
    return proof


def shift_is_orthogonal(block: Block | None = None) -> Proof:
    r"""Prove :math:`B^T B = I` and :math:`\det B = 1`, so every :math:`T_k` is a rotation.

    :math:`T_k^T T_k` is block-diagonal with blocks :math:`B_i^T B_i`, so the block result
    gives :math:`T_k^T T_k = I` for every width. The residual stacks
    :math:`B^T B - I` (four entries) and :math:`\det B - 1`.
    """
    matrix = _checked_block(block, K, OMEGA)
    statement = rf"B^T B = I,\ \det B = 1 \quad\text{{for}}\quad B = {to_latex(matrix)}"
    derivation = Derivation()
    gram = matrix.T * matrix - sp.eye(2)
    residual = sp.Matrix([*list(gram), matrix.det() - 1])
    derivation.note(
        "Residual: the entries of BᵀB − I, then det B − 1",
        to_latex(residual),
        residual,
    )
    residual = derivation.pythagoras(residual)
    return derivation.proof("T_k is orthogonal with determinant 1", statement, residual)
