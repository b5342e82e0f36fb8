r"""The SymPy engine of the proofs: symbols, the shift block, and proofs as recorded rewrites.

Symbols: ``p`` (position) and ``k`` (offset) are real; the frequency of pair ``i`` is

.. math::

    \omega_i = \mathrm{base}^{-2i/d}

with ``i`` a non-negative integer, ``d`` a positive integer and ``base > 0`` all symbolic.
Pair ``i`` of the encoding is :math:`v(p) = (\sin \omega_i p, \cos \omega_i p)^T`
(:func:`pair`); the paper's shift block is :func:`shift_block` and the textbook rotation
:math:`R(\theta)` is :func:`rotation`, the one definition of both.

A proof reduces a residual (left side minus right side) to exactly zero by a deliberate
chain of rewrites, each kept as a :class:`Step`; :class:`Derivation` records them and
closes with a :class:`Proof`. Its standard strategies are

1. angle addition: expand the arguments, :math:`\omega_i(p+k) \to \omega_i p + \omega_i k`
   (``expand``), apply the angle-addition formulas (``expand_trig``), collect terms
   (``expand``);
2. Pythagoras: multiply out, substitute :math:`\sin^2 x = 1 - \cos^2 x` as a named step,
   collect terms.

No proof calls ``simplify`` and no proof compares floating-point numbers. The theorems
themselves live in the chapters, :mod:`pe.chapters` (one module per page).

Examples
--------
>>> residual = shift_block(K, OMEGA) * pair(P, OMEGA) - pair(P + K, OMEGA)
>>> derivation = Derivation()
>>> proof = derivation.proof("B v(p) = v(p+k)", "", derivation.angle_addition(residual))
>>> proof.summary()
'B v(p) = v(p+k): 3 steps, residual is exactly 0'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

__all__ = [
    "BASE",
    "OMEGA",
    "A",
    "B",
    "Block",
    "D",
    "Derivation",
    "I",
    "K",
    "P",
    "Proof",
    "Q",
    "Step",
    "pair",
    "rotation",
    "shift_block",
    "to_latex",
]

#: Position, offset and a second position (real).
P = sp.Symbol("p", real=True)
K = sp.Symbol("k", real=True)
Q = sp.Symbol("q", real=True)
#: Two offsets (real), for the group laws.
A = sp.Symbol("a", real=True)
B = sp.Symbol("b", real=True)
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
    """One rewrite of a proof: what was done, in words, the SymPy functions that did it, and
    the result.

    ``words`` says what the step does in a reader's words and ``calls`` names the SymPy
    functions it applied, in order (data, never parsed out of the words); ``latex`` renders
    the result on the site; ``expr`` is the SymPy expression itself (for the terminal), or
    None where the step shows several expressions side by side.

    Examples
    --------
    >>> step = Step("Collect terms", "0", calls=("expand",))
    >>> step.title
    'Collect terms (expand)'
    """

    words: str
    latex: str
    expr: Any = None
    calls: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """The step in one line: its words, then each SymPy call in parentheses."""
        return self.words + "".join(f" ({call})" for call in self.calls)


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
        verdict = "residual is exactly 0" if self.holds else "residual is not zero"
        steps = f"{len(self.steps)} step" + ("" if len(self.steps) == 1 else "s")
        return f"{self.name}: {steps}, {verdict}"


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

    Examples
    --------
    >>> shift_block(K, OMEGA) == rotation(-K * OMEGA)
    True
    """
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [-s, c]])


def pair(position: Any, w: Any) -> Any:
    r"""One sine/cosine pair of the encoding, :math:`(\sin \omega p, \cos \omega p)^T`.

    Examples
    --------
    >>> pair(0, OMEGA).T
    Matrix([[0, 1]])
    """
    return sp.Matrix([sp.sin(w * position), sp.cos(w * position)])


class Derivation:
    """Applies rewrites to a residual matrix and records each as a :class:`Step`.

    Build a proof with it: ``note`` records a form without changing it, ``apply`` rewrites
    every entry and records the result, ``angle_addition`` and ``pythagoras`` are the two
    standard strategies, and ``proof`` closes with the verdict (holds iff every entry of the
    final residual is the integer 0).
    """

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def note(
        self, words: str, latex: str, expr: Any = None, *, calls: tuple[str, ...] = ()
    ) -> None:
        """Record a form without changing it (``calls``: the SymPy functions that made it)."""
        self.steps.append(Step(words, latex, expr, calls))

    def apply(
        self,
        words: str,
        matrix: Any,
        rewrite: Callable[[Any], Any],
        *,
        calls: tuple[str, ...] = (),
    ) -> Any:
        """Rewrite every entry of ``matrix`` with ``rewrite`` and record the result.

        ``calls`` names the SymPy functions the step shows as applied (``("expand",)``).
        """
        result = matrix.applyfunc(rewrite)
        self.steps.append(Step(words, to_latex(result), result, calls))
        return result

    def product_residual(self, matrix: Any, before: Any, after: Any) -> Any:
        """The residual ``matrix * before - after``, recorded as written and multiplied out.

        Examples
        --------
        >>> derivation = Derivation()
        >>> derivation.product_residual(sp.eye(2), pair(P, OMEGA), pair(P, OMEGA))
        Matrix([
        [0],
        [0]])
        >>> [step.title for step in derivation.steps]
        ['Residual: left side minus right side', 'Multiply out the product']
        """
        self.note(
            "Residual: left side minus right side",
            f"{to_latex(matrix)} {to_latex(before)} - {to_latex(after)}",
        )
        residual = matrix * before - after
        self.note("Multiply out the product", to_latex(residual), residual)
        return residual

    def angle_addition(self, residual: Any) -> Any:
        """The standard strategy: expand arguments, expand_trig, expand."""
        residual = self.apply(
            "Expand the arguments, ω(p + k) → ωp + ωk", residual, sp.expand, calls=("expand",)
        )
        residual = self.apply(
            "Apply the angle-addition formulas", residual, sp.expand_trig, calls=("expand_trig",)
        )
        return self.apply("Collect terms", residual, sp.expand, calls=("expand",))

    def angle_addition_in_one_step(
        self,
        residual: Any,
        *,
        shown: int,
        words: str = "Expand the arguments, apply expand_trig, collect terms, entry by entry",
    ) -> Any:
        """The angle-addition strategy on a tall residual, recorded as one step.

        The step shows the first ``shown`` rows of the result and says how many entries
        are non-zero (``words`` begin its text).

        Examples
        --------
        >>> derivation = Derivation()
        >>> residual = sp.Matrix([sp.sin(P + K) - sp.sin(P) * sp.cos(K) - sp.cos(P) * sp.sin(K)])
        >>> derivation.angle_addition_in_one_step(residual, shown=1)
        Matrix([[0]])
        >>> derivation.steps[0].words[-29:], derivation.steps[0].calls
        (': 0 of 1 entries are non-zero', ('expand',))
        """
        residual = residual.applyfunc(sp.expand)
        residual = residual.applyfunc(sp.expand_trig)
        residual = residual.applyfunc(sp.expand)
        nonzero = sum(1 for entry in residual if entry != 0)
        self.note(
            f"{words}: {nonzero} of {len(residual)} entries are non-zero",
            to_latex(residual[:shown, :]),
            residual[:shown, :],
            calls=("expand",),
        )
        return residual

    def pythagoras(self, residual: Any) -> Any:
        """Expand, substitute sin²x = 1 − cos²x, expand."""
        residual = self.apply("Multiply out", residual, sp.expand, calls=("expand",))
        residual = self.apply("Substitute sin²x = 1 − cos²x (Pythagoras)", residual, _pythagorean)
        return self.apply("Collect terms", residual, sp.expand, calls=("expand",))

    def proof(self, name: str, statement: str, residual: Any) -> Proof:
        holds = all(entry == 0 for entry in residual)
        return Proof(name, statement, tuple(self.steps), holds, residual)


def _pythagorean(expr: Any) -> Any:
    return expr.replace(
        lambda e: e.is_Pow and e.exp == 2 and isinstance(e.base, sp.sin),
        lambda e: 1 - sp.cos(e.base.args[0]) ** 2,
    )
