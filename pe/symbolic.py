r"""The SymPy engine of the proofs: symbols, the shift block, and proofs as recorded rewrites.

Symbols: ``p`` (position) and ``k`` (offset) are real; the frequency of pair ``i`` is

.. math::

    \omega_i = \mathrm{base}^{-2i/d}

with ``i`` a non-negative integer, ``d`` a positive integer and ``base > 0`` all symbolic.
Pair ``i`` of the encoding is :math:`v(p) = (\sin \omega_i p, \cos \omega_i p)^T`
(:func:`pair`); the paper's shift block is :func:`shift_block` (:func:`shift_factor` in
complex form) and the textbook rotation :math:`R(\theta)` is :func:`rotation`, the one
definition of both.

A proof reduces a residual (left side minus right side) to exactly zero by a deliberate
chain of rewrites, each kept as a :class:`Step`; :class:`Derivation` records them and
closes with a :class:`Proof`. Its standard strategies are

1. angle addition: expand the arguments, :math:`\omega_i(p+k) \to \omega_i p + \omega_i k`
   (``expand``), apply the angle-addition formulas (``expand_trig``), collect terms
   (``expand``);
2. Pythagoras: multiply out, substitute :math:`\sin^2 x = 1 - \cos^2 x` as a named step,
   collect terms.

A proof closes with a :class:`Verdict` (:func:`decide`): **proved** when the residual is
exactly 0, after the chain of rewrites or after the complete step for trigonometric
polynomials (:func:`exponential_form`: rewrite :math:`\sin`, :math:`\cos` as exponentials,
put :math:`z_j = e^{i\theta_j}` per independent argument and expand); **disproved** when an
exact point makes an entry exactly non-zero (a :class:`Counterexample`, shown); **not
decided** otherwise, never "false".

No proof calls ``simplify`` and no proof compares floating-point numbers. The theorems
themselves live in the chapters, :mod:`pe.chapters` (one module per page).

Examples
--------
>>> residual = shift_block(K, OMEGA) * pair(P, OMEGA) - pair(P + K, OMEGA)
>>> derivation = Derivation()
>>> proof = derivation.proof("B v(p) = v(p+k)", "", derivation.angle_addition(residual))
>>> proof.summary()
'B v(p) = v(p+k): 3 steps, residual is exactly 0'
>>> wrong = shift_block(K, OMEGA).T * pair(P, OMEGA) - pair(P + K, OMEGA)
>>> Derivation().proof("B^T v(p) = v(p+k)", "", wrong).verdict
<Verdict.DISPROVED: 'disproved'>
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from pe import _validate

__all__ = [
    "BASE",
    "DOMAIN",
    "OMEGA",
    "A",
    "B",
    "Block",
    "Counterexample",
    "D",
    "Decision",
    "Derivation",
    "I",
    "K",
    "P",
    "Proof",
    "Q",
    "Step",
    "Verdict",
    "decide",
    "encoding",
    "exact_frequencies",
    "exact_width",
    "exponential_form",
    "find_counterexample",
    "in_linear_class",
    "pair",
    "pythagorean_reduce",
    "rotation",
    "shift_block",
    "shift_factor",
    "symbolic_vector",
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
#: Where the parameters live: an even width, a pair :math:`0 \le i < d/2`, a base above 1,
#: so a frequency (``omega``, ``omega_i``, ``omega_j``) of at most 1. A counterexample's
#: parameters are drawn from here only (:func:`find_counterexample`).
DOMAIN = (
    sp.Eq(sp.Mod(D, 2), 0),
    sp.Lt(I, D / 2),
    sp.Gt(BASE, 1),
    *(sp.Le(sp.Symbol(name, positive=True), 1) for name in ("omega", "omega_i", "omega_j")),
)

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


class Verdict(enum.Enum):
    """The outcome of a proof: proved, disproved (with an exact point), or not decided.

    Examples
    --------
    >>> Verdict.NOT_DECIDED.value
    'not decided'
    """

    PROVED = "proved"
    DISPROVED = "disproved"
    NOT_DECIDED = "not decided"


@dataclass(frozen=True)
class Counterexample:
    r"""An exact point where one entry of a residual is exactly non-zero.

    Attributes
    ----------
    point
        ``(symbol, value)`` pairs, each value exact (integers, rationals, multiples of
        :math:`\pi`, symbolic expressions such as :math:`\pi / (2\omega_i)`); symbols of
        the residual not named here may take any value.
    entry
        Index of the entry (in the flattened residual) that is non-zero there.
    value
        That entry's exact value at the point: a non-zero rational or Gaussian rational.

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> found = Counterexample(((x, sp.pi / 2),), 0, sp.Integer(1))
    >>> found.text()
    'at x = pi/2, entry [0] = 1'
    >>> sp.sin(x).subs(found.substitution()) == found.value
    True
    """

    point: tuple[tuple[Any, Any], ...]
    entry: int
    value: Any

    def substitution(self) -> dict[Any, Any]:
        """The point as a substitution ``{symbol: value}`` for ``subs``."""
        return dict(self.point)

    def text(self) -> str:
        r"""The point and the value in one line, with :math:`\mathrm{base}^{-2i/d}` as ω_i."""
        shown = ", ".join(f"{symbol} = {_plain(value)}" for symbol, value in self.point)
        value = _plain(self.value)
        if len(value) > 60:
            value = f"{value[:40]}… (exact, non-zero)"
        return f"at {shown or 'every point'}, entry [{self.entry}] = {value}"

    def latex(self) -> str:
        """The point and the value in LaTeX."""
        shown = r",\ ".join(
            f"{to_latex(symbol)} = {to_latex(value)}" for symbol, value in self.point
        )
        return rf"{shown}:\ \text{{entry {self.entry}}} = {to_latex(self.value)}"


@dataclass(frozen=True)
class Decision:
    """What :func:`decide` concluded about a residual, and why.

    Attributes
    ----------
    verdict
        :class:`Verdict`.
    residual
        The residual after the last rewrite (the exponential form when the complete step
        ran, else the residual given).
    counterexample
        The exact point when ``verdict`` is :attr:`Verdict.DISPROVED`, else None.
    reason
        One line saying what decided it, or why nothing did.
    steps
        The rewrites :func:`decide` applied (the complete step, when it ran).
    """

    verdict: Verdict
    residual: Any
    counterexample: Counterexample | None
    reason: str
    steps: tuple[Step, ...] = ()


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
    verdict
        :attr:`Verdict.PROVED` exactly when every entry of the final residual is the
        integer 0; :attr:`Verdict.DISPROVED` when ``counterexample`` gives an exact point
        where an entry is non-zero; :attr:`Verdict.NOT_DECIDED` otherwise.
    residual
        The final residual (a ``sympy.Matrix``): all zeros when proved.
    counterexample
        The exact point of a disproof, else None.
    reason
        Why the verdict is what it is, when it is not "proved".
    """

    name: str
    statement: str
    steps: tuple[Step, ...]
    verdict: Verdict
    residual: Any
    counterexample: Counterexample | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if (self.verdict is Verdict.DISPROVED) != (self.counterexample is not None):
            raise ValueError("a proof is disproved exactly when it carries a counterexample")

    @property
    def holds(self) -> bool:
        """True exactly when the verdict is :attr:`Verdict.PROVED`."""
        return self.verdict is Verdict.PROVED

    def residual_latex(self) -> str:
        """The final residual in LaTeX."""
        return to_latex(self.residual)

    def summary(self) -> str:
        """One line: the name, the number of rewrites and the verdict (with its point)."""
        if self.verdict is Verdict.PROVED:
            verdict = "residual is exactly 0"
        elif self.counterexample is not None:
            verdict = f"disproved {self.counterexample.text()}: residual is not zero"
        else:
            verdict = f"not decided ({self.reason or 'residual not reduced to 0'})"
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
    r"""The true block :math:`B(k\omega) = [[\cos k\omega, \sin k\omega], [-\sin k\omega, \cos k\omega]]`.

    It maps :math:`(\sin \omega p, \cos \omega p)` to :math:`(\sin \omega(p+k), \cos \omega(p+k))`:
    a clockwise rotation by :math:`k\omega` in (sin, cos) coordinates.

    Examples
    --------
    >>> shift_block(K, OMEGA) == rotation(-K * OMEGA)
    True
    """
    c, s = sp.cos(k * w), sp.sin(k * w)
    return sp.Matrix([[c, s], [-s, c]])


def shift_factor(q: Any, w: Any) -> Any:
    r"""The complex form of :func:`shift_block`: :math:`\cos \omega q - \mathrm{i}\sin \omega q`.

    With a pair stored as :math:`z(p) = \sin \omega p + \mathrm{i}\cos \omega p` (sine
    real, cosine imaginary), :math:`z(p + q) = z(p)\,(\cos \omega q - \mathrm{i}\sin \omega q)`:
    one complex multiplication shifts it by ``q`` positions.

    Examples
    --------
    >>> q, w = sp.symbols("q w")
    >>> shift_factor(q, w)
    -I*sin(q*w) + cos(q*w)
    """
    _validate.exact_scalar("q", q)
    _validate.exact_scalar("w", w)
    return sp.cos(w * q) - sp.I * sp.sin(w * q)


def pair(position: Any, w: Any) -> Any:
    r"""One sine/cosine pair of the encoding, :math:`(\sin \omega p, \cos \omega p)^T`.

    Examples
    --------
    >>> pair(0, OMEGA).T
    Matrix([[0, 1]])
    """
    return sp.Matrix([sp.sin(w * position), sp.cos(w * position)])


def symbolic_vector(name: str, size: int) -> Any:
    """A column of ``size`` independent real symbols ``name_0 .. name_(size-1)``.

    Examples
    --------
    >>> symbolic_vector("q", 2).T
    Matrix([[q_0, q_1]])
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r:.40}")
    if not name.isidentifier():
        raise ValueError(f"name must be a symbol's name (letters, digits, _), got {name!r:.40}")
    count = _validate.positive_int("size", size)
    _validate.capped_elements("symbolic_vector", count, 1024)  # a SymPy symbol each
    return sp.Matrix(sp.symbols(f"{name}_0:{count}", real=True))


def exact_width(d_model: int, limit: int) -> int:
    """An even width ``d_model``, at most ``limit``: the size of a proof at a concrete width.

    Examples
    --------
    >>> exact_width(8, 512)
    8
    >>> exact_width(1024, 512)
    Traceback (most recent call last):
    ...
    ValueError: d_model must be <= 512 for an exact proof, got 1024
    """
    width = _validate.even_width("d_model", d_model)
    if width > limit:
        raise ValueError(f"d_model must be <= {limit} for an exact proof, got {width}")
    return width


def exact_frequencies(width: int, base: object) -> list[Any]:
    r"""The frequencies :math:`\omega_i = \mathrm{base}^{-2i/d}`, ``i < d/2``, as exact SymPy numbers.

    ``base`` must be an integer or a SymPy Rational greater than 1: no floats in a proof.

    Examples
    --------
    >>> exact_frequencies(4, 100)
    [1, 1/10]
    >>> exact_frequencies(4, 100.0)
    Traceback (most recent call last):
    ...
    TypeError: base must be an integer or a sympy Rational (no floats), got 100.0
    """
    size = _validate.even_width("width", width)
    if isinstance(base, bool) or not isinstance(base, int | sp.Integer | sp.Rational):
        raise TypeError(f"base must be an integer or a sympy Rational (no floats), got {base!r}")
    value = sp.Rational(base)
    if value <= 1:
        raise ValueError(f"base must be > 1, got {value}")
    return [value ** sp.Rational(-2 * i, size) for i in range(size // 2)]


def encoding(position: Any, omegas: Sequence[Any]) -> Any:
    r"""The whole encoding :math:`PE(p) = (v_0(p), \dots, v_{d/2-1}(p))^T` at the frequencies ``omegas``.

    Pair ``i`` is :func:`pair` at :math:`\omega_i`; a concrete width takes its exact
    frequencies from :func:`exact_frequencies`.

    Examples
    --------
    >>> encoding(P, exact_frequencies(4, 100)).T
    Matrix([[sin(p), cos(p), sin(p/10), cos(p/10)]])
    """
    _validate.exact_scalar("position", position)
    for index, omega in enumerate(
        _validate.sequence("omegas", omegas, "frequencies", kinds=Sequence)
    ):
        _validate.exact_scalar(f"omegas[{index}]", omega)
    return sp.Matrix([f(w * position) for w in omegas for f in (sp.sin, sp.cos)])


def pythagorean_reduce(expr: Any, angle: Any) -> Any:
    r"""Remainder of ``expr`` modulo :math:`\sin^2 x + \cos^2 x - 1`, as a polynomial.

    ``sin(angle)`` and ``cos(angle)`` become the symbols ``s`` and ``c``; the polynomial is
    divided by :math:`s^2 + c^2 - 1` (lexicographic order, ``c`` first), which leaves a
    remainder of degree at most one in ``c``. The remainder is zero exactly when ``expr``
    vanishes for every angle: the strategy for residuals of multiple angles, once
    ``expand_trig`` has made them polynomials in :math:`\sin x, \cos x`.

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> pythagorean_reduce(sp.sin(x) ** 2 + sp.cos(x) ** 2, x)
    1
    """
    s, c = sp.symbols("s c")
    poly = sp.expand(expr).subs({sp.sin(angle): s, sp.cos(angle): c})
    _, remainder = sp.reduced(poly, [s**2 + c**2 - 1], c, s, order="lex")
    return sp.expand(remainder.subs({s: sp.sin(angle), c: sp.cos(angle)}))


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

    def angle_addition(
        self, residual: Any, *, first: str = "Expand the arguments, ω(p + k) → ωp + ωk"
    ) -> Any:
        """The standard strategy: expand arguments (the step titled ``first``), expand_trig, expand."""
        residual = self.apply(first, residual, sp.expand, calls=("expand",))
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

    def proof(
        self,
        name: str,
        statement: str,
        residual: Any,
        *,
        variables: Sequence[Any] | None = None,
        where: Sequence[Any] = DOMAIN,
    ) -> Proof:
        """Close the proof with :func:`decide` on ``residual``; its steps are recorded.

        ``variables`` are the symbols over which the statement is universal (default: see
        :func:`decide`); ``where`` the relations its parameters keep (default:
        :data:`DOMAIN`).
        """
        decision = decide(residual, variables, where=where)
        self.steps.extend(decision.steps)
        final = decision.residual if decision.verdict is Verdict.PROVED else residual
        return Proof(
            name,
            statement,
            tuple(self.steps),
            decision.verdict,
            final,
            decision.counterexample,
            decision.reason,
        )


def _pythagorean(expr: Any) -> Any:
    return expr.replace(
        lambda e: e.is_Pow and e.exp == 2 and isinstance(e.base, sp.sin),
        lambda e: 1 - sp.cos(e.base.args[0]) ** 2,
    )


def _plain(expr: Any) -> str:
    """``expr`` as plain text, with :math:`\\mathrm{base}^{-2i/d}` written ``omega_i``."""
    shown = expr.subs(OMEGA, _OMEGA_DISPLAY) if hasattr(expr, "subs") else expr
    return str(sp.sstr(shown))


def _entries(residual: Any) -> list[Any]:
    """The entries of a residual (a matrix, an iterable or one expression), as SymPy objects."""
    if isinstance(residual, sp.MatrixBase):
        return [sp.sympify(entry) for entry in residual]
    if isinstance(residual, sp.Basic):
        return [residual]
    if isinstance(residual, Iterable):
        return [sp.sympify(entry) for entry in residual]
    return [sp.sympify(residual)]


def _default_variables(entries: Sequence[Any]) -> list[Any]:
    """The symbols a statement is universal over: the real symbols that are neither integer
    nor positive (``p``, ``k``, ``q``, ``a``, ``b``, contents); the others (``i``, ``d``,
    ``base``, a positive frequency) are parameters."""
    found: set[Any] = set()
    for entry in entries:
        found |= entry.free_symbols
    return sorted(
        (s for s in found if s.is_real and not s.is_integer and not s.is_positive),
        key=str,
    )


def _trig_arguments(expr: Any) -> list[Any]:
    """The angles in ``expr``: the argument of every sine and cosine, and :math:`\theta`
    for every :math:`e^{i\theta}` (expanded)."""
    angles = [sp.expand(atom.args[0]) for atom in expr.atoms(sp.sin, sp.cos)]
    turns = [sp.expand(atom.args[0] / sp.I) for atom in expr.atoms(sp.exp)]
    return angles + [turn for turn in turns if turn.is_real]


def _linear_in(argument: Any, variables: Sequence[Any]) -> bool:
    """Whether ``argument`` is affine in ``variables`` with coefficients free of them."""
    chosen = set(variables)
    return all(not (sp.diff(argument, v).free_symbols & chosen) for v in variables)


def in_linear_class(expr: Any, variables: Sequence[Any]) -> bool:
    """Whether ``expr`` is a polynomial in sines and cosines of arguments linear in ``variables``.

    Every sine and cosine argument, and every :math:`\theta` of an :math:`e^{i\theta}`,
    must be affine in the variables (real where a variable enters), and the variables may
    appear outside them only polynomially (no other function of them, no division by
    them). In this class :func:`exponential_form` is complete: the residual is identically
    zero iff its exponential form expands to 0.

    Examples
    --------
    >>> in_linear_class(sp.sin(P + 2 * K) * P**2, [P, K]), in_linear_class(sp.sin(K**2), [K])
    (True, False)
    """
    chosen = set(variables)
    trig = list(expr.atoms(sp.sin, sp.cos, sp.exp))
    for t in trig:
        angle = sp.expand(t.args[0] / sp.I) if isinstance(t, sp.exp) else sp.expand(t.args[0])
        if not _linear_in(angle, variables):
            return False
        if isinstance(t, sp.exp) and angle.free_symbols & chosen and not angle.is_real:
            return False
    stand_ins = {t: sp.Dummy() for t in trig}
    rest = expr.xreplace(stand_ins)
    if rest.atoms(sp.Function) and any(f.free_symbols & chosen for f in rest.atoms(sp.Function)):
        return False
    return bool(sp.expand(rest).is_polynomial(*chosen)) if chosen else True


def exponential_form(expr: Any) -> Any:
    r"""The complete step for trigonometric polynomials: exponentials, one :math:`z` per argument, expand.

    Each :math:`\sin\theta`, :math:`\cos\theta` becomes
    :math:`(e^{i\theta} - e^{-i\theta})/2i`, :math:`(e^{i\theta} + e^{-i\theta})/2`
    (``rewrite``); exponentials of sums are split into products (``expand``,
    ``power_exp``); every :math:`e^{r\,g}` with :math:`r` rational and :math:`g` the same
    generator is written :math:`z_g^{rL_g}` with :math:`z_g = e^{g/L_g}`, :math:`L_g` the
    least common denominator of the :math:`r` of :math:`g`; the result is expanded. Each
    rewrite is an identity, so a result of 0 proves that ``expr`` is identically 0. When
    the arguments are linear in independent variables the :math:`z_g` are algebraically
    independent and the result is a Laurent polynomial in them: it is 0 iff ``expr`` is
    identically 0 (the step is complete for that class).

    Examples
    --------
    >>> half = 1 - 2 * sp.sin(K / 2) ** 2
    >>> exponential_form(half - sp.cos(K))
    0
    >>> exponential_form(sp.sin(K)) != 0
    True
    """
    rewritten = sp.sympify(expr).rewrite([sp.sin, sp.cos], sp.exp)
    expanded = sp.expand(rewritten, power_exp=True)
    exponents: dict[Any, list[Any]] = {}
    for atom in expanded.atoms(sp.exp):
        rational, generator = sp.expand(atom.args[0]).as_coeff_Mul()
        exponents.setdefault(generator, []).append(rational)
    replacement: dict[Any, Any] = {}
    for generator, rationals in exponents.items():
        common = math.lcm(*(int(sp.Rational(r).q) for r in rationals))
        z = sp.Dummy("z")
        for r in rationals:
            replacement[sp.exp(r * generator)] = z ** (sp.Rational(r) * common)
    return sp.expand(expanded.xreplace(replacement))


def _unit(variable: Any, arguments: Sequence[Any], variables: Sequence[Any]) -> Any | None:
    """The largest :math:`u` of which every coefficient of ``variable`` in ``arguments`` is an
    integer multiple (None when there is none to find, or the variable is not linear)."""
    coefficients = []
    for argument in arguments:
        slope = sp.diff(argument, variable)
        if slope.free_symbols & set(variables):
            return None
        if slope != 0:
            coefficients.append(slope)
    if not coefficients:
        return None
    first = coefficients[0]
    ratios = [sp.Rational(1)]
    for coefficient in coefficients[1:]:
        ratio = sp.cancel(coefficient / first)
        if not ratio.is_Rational:
            return None
        ratios.append(sp.Rational(ratio))
    numerator = math.gcd(*(int(abs(r.p)) for r in ratios))
    denominator = math.lcm(*(int(r.q) for r in ratios))
    unit = first * sp.Rational(numerator, denominator)
    return unit if unit.is_real and unit.is_nonzero else None


def _variable_values(
    variable: Any,
    arguments: Sequence[Any],
    variables: Sequence[Any],
    appears_in_trig: bool,
    rank: int = 0,
) -> list[Any]:
    """Exact values to try for ``variable``: the integers 0, 1, 2, −1 (positions and offsets
    are integers; sines of algebraic angles are decided by Lindemann-Weierstrass), then
    eighth turns of its finest trigonometric argument (so sines and cosines are 0, ±1 or
    ±√2/2), or ``rank + 1``, 0, −1 where it appears only outside them."""
    if not appears_in_trig:
        # Distinct values first (position ``rank`` among the variables), so that no two
        # contents coincide by accident: a symmetric point hides most differences.
        return [sp.Integer(rank + 1), sp.Integer(0), sp.Integer(-1)]
    unit = _unit(variable, arguments, variables)
    if unit is None:
        # Not linear: small integers, and square roots of quarter turns for squares.
        return [sp.Integer(v) for v in (0, 1, 2, -1)] + [sp.sqrt(sp.pi / 2), sp.sqrt(sp.pi)]
    integers = [sp.Integer(v) for v in (0, 1, 2, -1)]
    return integers + [n * sp.pi / (4 * unit) for n in (2, 1, -2, 4, 3, 6)]


def _parameter_values(symbol: Any) -> list[Any]:
    """Exact values to try for a parameter, respecting its assumptions."""
    if symbol.is_integer and symbol.is_positive:
        return [sp.Integer(v) for v in (4, 8, 2, 1)]
    if symbol.is_integer and symbol.is_nonnegative:
        return [sp.Integer(v) for v in (0, 1, 2)]
    if symbol.is_integer:
        return [sp.Integer(v) for v in (0, 1, -1)]
    if symbol.is_positive:
        return [sp.Integer(2), sp.Integer(1), sp.pi / 2, sp.pi, 2 / sp.pi]
    return [sp.Integer(v) for v in (1, 0, 2)]


def _is_root_or_pi(factor: Any) -> bool:
    r"""``factor`` is the square root of a positive integer or a power of :math:`\pi`."""
    if factor is sp.pi:
        return True
    if not factor.is_Pow:
        return False
    if factor.base is sp.pi:
        return bool(factor.exp.is_Integer)
    return bool(factor.base.is_Integer and factor.base > 0 and factor.exp == sp.Rational(1, 2))


def _radical(term: Any) -> tuple[Any, Any] | None:
    """``term`` as (rational, product of positive integers to rational powers), or None."""
    coefficient, rest = term.as_coeff_Mul()
    if not coefficient.is_Rational:
        return None
    for factor in sp.Mul.make_args(rest):
        if factor == 1:
            continue
        if not (factor.is_Pow and factor.base.is_Integer and factor.base > 0):
            return None
        if not factor.exp.is_Rational:
            return None
    return coefficient, rest


def _nonzero_product(part: Any) -> bool:
    r"""True when ``part`` is one product of non-zero factors: non-zero rationals,
    :math:`\pi`, positive integers to rational powers, logarithms of positive rationals
    other than 1."""
    if part.is_Add:
        return False
    for factor in sp.Mul.make_args(part):
        if factor.is_Rational:
            nonzero = factor != 0
        elif factor is sp.pi:
            nonzero = True
        elif isinstance(factor, sp.log):
            nonzero = bool(
                factor.args[0].is_Rational and factor.args[0] > 0 and factor.args[0] != 1
            )
        elif factor.is_Pow:
            base_ok = (factor.base.is_Integer and factor.base > 0) or factor.base is sp.pi
            nonzero = bool(base_ok and factor.exp.is_Rational)
        else:
            nonzero = False
        if not nonzero:
            return False
    return True


def _two_radicals_differ(part: Any) -> bool:
    """True when ``part`` is :math:`r_1 x_1 + r_2 x_2` (rationals times products of positive
    integer radicals) and is non-zero: it vanishes only if :math:`x_1/x_2 = -r_2/r_1`, and
    raising both sides to the common denominator :math:`L` of the exponents compares two
    rationals exactly."""
    terms = sp.Add.make_args(part)
    if len(terms) != 2:
        return False
    first, second = _radical(terms[0]), _radical(terms[1])
    if first is None or second is None:
        return False
    ratio = sp.powsimp(first[1] / second[1], force=True)
    target = -second[0] / first[0]
    if target <= 0:
        return True
    exponents = [f.exp for f in sp.Mul.make_args(ratio) if f.is_Pow]
    power = math.lcm(1, *(int(e.q) for e in exponents))
    lifted = sp.expand(ratio**power)
    return bool(lifted.is_Rational and lifted != target**power)


def _surely_nonzero_real(part: Any) -> bool:
    r"""True when ``part`` is a non-zero sum of rationals times :math:`\pi^a \sqrt{n}`.

    SymPy keeps each :math:`\sqrt n` with ``n`` square-free (``sqrt(8)`` is
    ``2*sqrt(2)``) and adds like terms, so the terms are distinct monomials; square roots
    of distinct square-free integers are linearly independent over the rationals and
    :math:`\pi` is transcendental, so such a sum with a term left is non-zero (exact, no
    floats)."""
    if part == 0:
        return False
    if _two_radicals_differ(part) or _nonzero_product(part):
        return True
    for term in sp.Add.make_args(part):
        coefficient, rest = term.as_coeff_Mul()
        if not coefficient.is_Rational:
            return False
        if rest != 1 and not all(_is_root_or_pi(f) for f in sp.Mul.make_args(rest)):
            return False
    return True


def _exactly_nonzero(value: Any) -> bool:
    """True when ``value`` is certainly non-zero: its real or imaginary part is a non-zero
    combination of rationals and square roots of square-free integers (SymPy keeps those
    canonical: ``sqrt(8)`` is ``2*sqrt(2)``), or it is a quotient of sums of exponentials
    of distinct algebraic numbers (:func:`_exponentials_nonzero`; sines and cosines are
    rewritten as such)."""
    value = sp.expand(value)
    if value.free_symbols or not value.is_number:
        return False
    if value.has(sp.exp, sp.E, sp.sin, sp.cos):
        # sines and cosines of algebraic angles are sums of exponentials of i times them
        return _exponentials_nonzero(sp.expand(value.rewrite(sp.exp)))
    real, imaginary = (sp.expand(part) for part in value.as_real_imag())
    return _surely_nonzero_real(real) or _surely_nonzero_real(imaginary)


def _root_combination(number: Any) -> bool:
    """``number`` is a sum of rationals times square roots of positive integers, each term
    real or imaginary (an algebraic number in a form SymPy keeps canonical, so equal ones
    are equal as trees)."""
    for term in sp.Add.make_args(sp.expand(number)):
        coefficient, rest = term.as_coeff_Mul()
        if rest.has(sp.I):
            rest = sp.expand(rest / sp.I)
        root = rest == 1 or (
            rest.is_Pow and rest.base.is_Integer and rest.base > 0 and rest.exp == sp.S.Half
        )
        if not (coefficient.is_Rational and root):
            return False
    return True


def _exponential_sum(part: Any) -> dict[Any, Any] | None:
    r"""``part`` as ``{a: c}`` for :math:`\sum c\,e^{a}`, ``c`` a rational or a rational
    times :math:`i`, and ``a`` a :func:`_root_combination`, or None."""
    sums: dict[Any, Any] = {}
    for term in sp.Add.make_args(sp.expand(part)):
        coefficient, rest = term.as_coeff_Mul()
        if not coefficient.is_Rational:
            return None
        exponent = sp.Integer(0)
        for factor in sp.Mul.make_args(rest):
            if factor == 1:
                continue
            if factor is sp.I:
                coefficient *= sp.I
            elif factor is sp.E:
                exponent += 1
            elif isinstance(factor, sp.exp) and _root_combination(factor.args[0]):
                exponent += factor.args[0]
            elif factor.is_Pow and factor.base is sp.E and _root_combination(factor.exp):
                exponent += factor.exp
            else:
                return None
        sums[exponent] = sums.get(exponent, 0) + coefficient
    return sums


def _exponentials_nonzero(value: Any) -> bool:
    r"""True when ``value`` is :math:`N / D`, each a sum :math:`\sum c_j e^{a_j}` (``c_j``
    rational or imaginary rational, ``a_j`` algebraic: :func:`_root_combination`),
    with :math:`N` and :math:`D` non-zero: by the Lindemann-Weierstrass theorem exponentials
    of distinct algebraic numbers are linearly independent over the algebraic numbers, so
    such a sum is non-zero as soon as one coefficient of a distinct exponent is."""
    numerator, denominator = sp.fraction(sp.together(value))
    top, bottom = _exponential_sum(numerator), _exponential_sum(denominator)
    if top is None or bottom is None:
        return False
    return any(c != 0 for c in top.values()) and any(c != 0 for c in bottom.values())


#: How many settings of the parameters a counterexample search tries (the first symbolic).
_SETTINGS = 40
#: The work a counterexample search may do, in operations of the entries it evaluates
#: (a count, never a time: the verdict is the same on every machine).
_WORK = 100_000


def _nearest_first(options: Sequence[Sequence[Any]]) -> Iterable[tuple[Any, ...]]:
    """Every choice of one value per list, fewest values moved from the first ones first
    (so with many variables a change of one or two is tried before the rest)."""
    base = [values[0] for values in options]
    for moved in range(len(options) + 1):
        for where in itertools.combinations(range(len(options)), moved):
            for others in itertools.product(*(options[w][1:] for w in where)):
                point = list(base)
                for w, value in zip(where, others, strict=True):
                    point[w] = value
                yield tuple(point)


def _admissible(setting: tuple[tuple[Any, Any], ...], where: Sequence[Any]) -> bool:
    """Whether the parameter values of ``setting`` break none of the relations ``where``
    (a relation whose symbols are not all set is not broken)."""
    values = dict(setting)
    return all(sp.sympify(relation).subs(values) is not sp.false for relation in where)


def find_counterexample(
    residual: Any,
    variables: Sequence[Any] | None = None,
    *,
    limit: int = 100,
    where: Sequence[Any] = DOMAIN,
) -> Counterexample | None:
    r"""Search an exact point where an entry of ``residual`` is exactly non-zero.

    The variables take small integers first, then multiples of eighth turns,
    :math:`n\pi/(4u)`, with :math:`u` the common unit of their coefficients in the arguments
    (e.g. :math:`u = \omega_i`), so every sine and cosine is :math:`0`, :math:`\pm 1` or
    :math:`\pm\sqrt 2/2`; the other symbols (parameters) are first given small exact
    values allowed by their
    assumptions and breaking none of the relations ``where`` (default :data:`DOMAIN`: an
    even width, a pair :math:`0 \le i < d/2`, a base above 1, a frequency at most 1, so the
    point is one the statement is about), then left symbolic. A point counts only when the entry's exact value is certainly non-zero
    (:func:`_exactly_nonzero`): a non-zero combination of rationals times :math:`\pi^a
    \sqrt n` (square roots of distinct square-free integers are independent over the
    rationals, :math:`\pi` is transcendental), a product of non-zero factors (with logarithms
    of rationals other than 1), two radicals compared by an exact power, or a quotient of
    sums of exponentials of distinct algebraic numbers (Lindemann-Weierstrass); never a
    float. At most ``limit`` points are tried for each of the first 40 settings of the
    parameters (small values, fewest changed first, then symbolic), at most ``13 * limit``
    points and 100 000 operations (``count_ops`` of each entry evaluated) in all: a count,
    never a time.

    Returns
    -------
    Counterexample or None
        The first point found, or None (which proves nothing).

    Examples
    --------
    >>> wrong = shift_block(K, OMEGA).T * pair(P, OMEGA) - pair(P + K, OMEGA)
    >>> find_counterexample(wrong).text()
    'at k = 1, p = 0, base = 2, d = 4, i = 0, entry [0] = -2*sin(1)'
    """
    entries = _entries(residual)
    chosen = list(variables) if variables is not None else _default_variables(entries)
    budget = limit * 13
    work = _WORK
    for index, entry in enumerate(entries):
        if entry == 0:
            continue
        size = max(1, sp.count_ops(entry))
        parameters = sorted(entry.free_symbols - set(chosen), key=str)
        # concrete settings first (their points are integers where the angles allow), the
        # parameters left symbolic last
        concrete = (
            setting
            for values in _nearest_first([_parameter_values(s) for s in parameters])
            if _admissible(setting := tuple(zip(parameters, values, strict=True)), where)
        )
        settings = itertools.chain(concrete, [()]) if parameters else iter([()])
        for setting in itertools.islice(settings, _SETTINGS):
            fixed = entry.subs(dict(setting)) if setting else entry
            for point, value, cost in itertools.islice(_points(fixed, chosen, size), 2 * limit):
                budget -= 1
                work -= cost
                if budget < 0 or work < 0:
                    return None
                if _exactly_nonzero(value):
                    return Counterexample(point + setting, index, value)
    return None


def _points(
    entry: Any, chosen: Sequence[Any], size: int
) -> Iterable[tuple[tuple[tuple[Any, Any], ...], Any, int]]:
    """Exact points for ``entry``, each with the entry's value there and the work it took.

    First up to 100 points of the grid (:func:`_variable_values`, fewest values moved
    first; no more than half the work budget); then, where some variables enter only as polynomial factors (contents such as
    :math:`q_0, k_1`), one point per monomial of the entry in them: its variables 1, the
    others 0, so only the terms made of that monomial's variables remain, and the angles
    are searched on that much smaller expression. The second source finds points where
    one pair's terms differ while the grid's all-non-zero contents mix every pair.
    """
    present = [v for v in chosen if v in entry.free_symbols]
    arguments = _trig_arguments(entry)
    in_trig = {v for a in arguments for v in a.free_symbols}
    options = [
        _variable_values(v, arguments, chosen, v in in_trig, rank) for rank, v in enumerate(present)
    ]
    grid = _nearest_first(options)
    for values in itertools.islice(grid, min(100, _WORK // (2 * size) + 1)):
        point = tuple(zip(present, values, strict=True))
        yield point, sp.expand(entry.subs(dict(point))), size
    contents = [v for v in present if v not in in_trig]
    angles = [v for v in present if v in in_trig]
    if not contents or not sp.expand(entry).is_polynomial(*contents):
        return
    supports = {
        tuple(c for c, power in zip(contents, powers, strict=True) if power)
        for powers in sp.Poly(entry, *contents).monoms()
    }
    for support in sorted(supports, key=lambda s: (len(s), [str(c) for c in s])):
        ones = tuple((c, sp.Integer(1 if c in support else 0)) for c in contents)
        reduced = sp.expand(entry.subs(dict(ones)))
        cost = max(1, sp.count_ops(reduced))
        turns = _trig_arguments(reduced)
        near = [_variable_values(v, turns, chosen, True) for v in angles]
        for values in itertools.islice(_nearest_first(near), 8):
            point = tuple(zip(angles, values, strict=True))
            yield ones + point, sp.expand(reduced.subs(dict(point))), cost


def decide(
    residual: Any, variables: Sequence[Any] | None = None, *, where: Sequence[Any] = DOMAIN
) -> Decision:
    r"""Decide whether ``residual`` is identically zero: proved, disproved or not decided.

    1. Every entry is already the integer 0: proved.
    2. :func:`find_counterexample` finds an exact point where an entry is a non-zero
       rational: disproved, with that point.
    3. Outside trigonometric polynomials in arguments linear in ``variables``
       (:func:`in_linear_class`): not decided, said so.
    4. :func:`exponential_form` reduces every entry to 0: proved (the step is complete for
       that class); otherwise not decided (not identically 0, but no exact point found).
       Never "false" without a point.

    Parameters
    ----------
    residual
        A ``sympy.Matrix``, a list of expressions or one expression.
    variables
        The symbols the statement is universal over; default: the real symbols that are
        neither integer nor positive (``p``, ``k``, ...), the others being parameters.
    where
        Relations the parameters keep in a counterexample (default :data:`DOMAIN`).

    Examples
    --------
    >>> half_angle = sp.Matrix([[1 - 2 * sp.sin(K / 2) ** 2]]) - sp.Matrix([[sp.cos(K)]])
    >>> decide(half_angle).verdict
    <Verdict.PROVED: 'proved'>
    >>> decide(sp.Matrix([sp.sin(K) - sp.cos(K)])).counterexample.text()
    'at k = 0, entry [0] = -1'
    >>> decide(sp.Matrix([sp.sin(K**2) - sp.sin(K) ** 2])).counterexample.text()
    'at k = 1, entry [0] = -sin(1)**2 + sin(1)'
    >>> decide(sp.Matrix([sp.sin(sp.sin(K)) - sp.sin(K)])).verdict
    <Verdict.NOT_DECIDED: 'not decided'>
    """
    entries = _entries(residual)
    if all(entry == 0 for entry in entries):
        return Decision(Verdict.PROVED, residual, None, "the residual is exactly 0")
    chosen = list(variables) if variables is not None else _default_variables(entries)
    found = find_counterexample(entries, chosen, where=where)
    if found is not None:
        # The point is the disproof; it is shown with the verdict, not as a rewrite.
        return Decision(Verdict.DISPROVED, residual, found, "an exact point")
    if not all(in_linear_class(entry, chosen) for entry in entries):
        reason = "outside trigonometric polynomials in linear arguments"
        return Decision(Verdict.NOT_DECIDED, residual, None, reason)
    forms = [exponential_form(entry) for entry in entries]
    nonzero = sum(1 for form in forms if form != 0)
    shown = sp.Matrix(forms)
    step = Step(
        "Rewrite sin, cos as exponentials, z = exp(iθ) per argument, expand: "
        f"{nonzero} of {len(forms)} entries are non-zero",
        to_latex(shown),
        shown,
        calls=("rewrite", "expand"),
    )
    if nonzero == 0:
        zeros = sp.zeros(*residual.shape) if isinstance(residual, sp.MatrixBase) else shown
        return Decision(Verdict.PROVED, zeros, None, "the exponential form is 0", (step,))
    reason = "not identically 0, but no exact point found"
    return Decision(Verdict.NOT_DECIDED, shown, None, reason, (step,))
