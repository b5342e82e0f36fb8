r"""Facts about the sinusoidal encoding itself: indices, wavelengths, conventions, examples.

Notation (the paper's): width ``d`` (even), pair index ``i = 0, ..., d/2 - 1``, position
``p``, :math:`\omega_i = 10000^{-2i/d}`, :math:`PE(p, 2i) = \sin \omega_i p`,
:math:`PE(p, 2i+1) = \cos \omega_i p`.

- Wavelengths :math:`\lambda_i = 2\pi/\omega_i = 2\pi \cdot 10000^{2i/d}` form a geometric
  progression of ratio :math:`10000^{2/d}` from :math:`2\pi` to
  :math:`2\pi \cdot 10000^{(d-2)/d}`, a factor :math:`10000^{-2/d}` short of
  :math:`2\pi \cdot 10000`.
- A 1-indexed convention with :math:`\sin(t / 10000^{2i/d})`, :math:`0 < i \le d/2`
  (source note 001) uses the frequencies :math:`10000^{-2i/d}` for ``i = 1 .. d/2``: the
  paper's shifted by one step; its highest is :math:`10000^{-2/d}`, not 1.
- Doubling the width keeps every frequency: :math:`\omega_i^{(d)} = \omega_{2i}^{(2d)}`.
- :func:`reference_table` evaluates the formula in 50-digit arithmetic (mpmath) for
  comparison with :func:`pe.numeric.sinusoidal`.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate, numeric
from pe.symbolic import Derivation, Proof

__all__ = [
    "WORKED_SENTENCE",
    "binary_bits",
    "column_means",
    "column_means_closed_form",
    "concat_projection_proof",
    "cosine_embedding_encoding",
    "encoding_subspace_share",
    "frequency_sets",
    "pair_columns",
    "period_mean_proof",
    "projection_cost",
    "ratio_equals_two_width",
    "reference_table",
    "step_distance_proof",
    "wavelength_proof",
    "wavelengths",
    "width_refinement_proof",
    "wrapped_rows_distance",
]

Float64Array = npt.NDArray[np.float64]

#: The worked example of source note 004.
WORKED_SENTENCE: tuple[str, ...] = ("My", "name", "is", "RK")

#: Digits of the mpmath reference.
DIGITS = 50


def pair_columns(d_model: int, *, inclusive: bool = False) -> list[int]:
    """Columns ``2i`` and ``2i + 1`` written by the pairs ``i = 0 .. d/2 - 1``, in order.

    With ``inclusive`` the pair index runs from 0 to ``d/2`` *inclusive* (the reading of
    "i ranges from 0 to d_model/2"): one pair too many, columns ``d`` and ``d + 1``.
    """
    width = _validate.even_width("d_model", d_model)
    last = width // 2 + (1 if inclusive else 0)
    return [c for i in range(last) for c in (2 * i, 2 * i + 1)]


def wavelengths(d_model: int, *, base: float = 10000.0) -> Float64Array:
    r"""Wavelengths :math:`\lambda_i = 2\pi / \omega_i`, in positions, ``i = 0 .. d/2 - 1``."""
    return np.asarray(2.0 * np.pi / numeric.frequencies(d_model, base), dtype=np.float64)


def wavelength_proof(*, exponent_factor: int = 2, last: Any = None) -> Proof:
    r"""Prove the wavelength law: ratio :math:`10000^{2/d}`, first :math:`2\pi`, last short of :math:`2\pi \cdot 10000`.

    Residuals (symbolic ``i`` and ``d``, exact base 10000):

    1. :math:`\lambda_{i+1}/\lambda_i - 10000^{2/d}`;
    2. :math:`\lambda_0 - 2\pi`;
    3. :math:`\lambda_{d/2-1} - L` with the candidate last wavelength ``L``
       (default :math:`2\pi \cdot 10000^{(d-2)/d}`);
    4. :math:`\lambda_{d/2-1} / (2\pi\cdot 10000) - 10000^{-2/d}`.

    ``exponent_factor=4`` gives the doubled exponent of a known tutorial bug, and
    ``last=2*pi*10000`` the common statement; both leave a non-zero residual.
    """
    i = sp.Symbol("i", integer=True, nonnegative=True)
    d = sp.Symbol("d", integer=True, positive=True)
    base = sp.Integer(10000)

    def lam(index: Any) -> Any:
        return 2 * sp.pi * base ** (exponent_factor * index / d)

    candidate = 2 * sp.pi * base ** ((d - 2) / d) if last is None else last
    derivation = Derivation()
    derivation.note(
        "Wavelength of pair i", rf"\lambda_i = \frac{{2\pi}}{{\omega_i}} = {sp.latex(lam(i))}"
    )
    residual = sp.Matrix(
        [
            lam(i + 1) / lam(i) - base ** (sp.Integer(2) / d),
            lam(0) - 2 * sp.pi,
            lam(d / 2 - 1) - candidate,
            lam(d / 2 - 1) / (2 * sp.pi * base) - base ** (-sp.Integer(2) / d),
        ]
    )
    derivation.note(
        "Residuals: ratio, first, last, last against 2π·10000", sp.latex(residual), residual
    )
    residual = derivation.apply(
        "Combine the powers of 10000 (powsimp), then expand the exponents (expand)",
        residual,
        lambda e: sp.expand(sp.powsimp(sp.expand(e), force=True)),
    )
    return derivation.proof(
        "wavelengths form a geometric progression",
        r"\begin{gathered} \lambda_{i+1} / \lambda_i = 10000^{2/d},\quad \lambda_0 = 2\pi \\"
        r" \lambda_{d/2-1} = 2\pi\cdot 10000^{(d-2)/d} = 2\pi \cdot 10000 \cdot 10000^{-2/d}"
        r" \end{gathered}",
        residual,
    )


def frequency_sets(d_model: int) -> tuple[Float64Array, Float64Array]:
    r"""The paper's frequencies and those of source note 001's 1-indexed convention.

    Note 001 writes :math:`W_p[2i-1, t] = \sin(t / \ell^{2i/d})` with :math:`0 < i \le d/2`,
    so its pair ``i`` turns at :math:`10000^{-2i/d}` for ``i = 1 .. d/2``.
    """
    width = _validate.even_width("d_model", d_model)
    paper = numeric.frequencies(width)
    one_indexed = np.power(10000.0, -2.0 * np.arange(1, width // 2 + 1) / width)
    return paper, np.asarray(one_indexed, dtype=np.float64)


def width_refinement_proof(*, index_factor: int = 2) -> Proof:
    r"""Prove :math:`\omega_i^{(d)} = \omega_{2i}^{(2d)}`: doubling the width keeps every frequency.

    ``index_factor=1`` is the wrong candidate :math:`\omega_i^{(d)} = \omega_i^{(2d)}`.
    """
    i = sp.Symbol("i", integer=True, nonnegative=True)
    d = sp.Symbol("d", integer=True, positive=True)
    b = sp.Symbol("base", positive=True)

    def omega(index: Any, width: Any) -> Any:
        return b ** (-2 * index / width)

    derivation = Derivation()
    residual = sp.Matrix([omega(i, d) - omega(index_factor * i, 2 * d)])
    derivation.note(
        "Residual: frequency i at width d minus frequency 2i at width 2d",
        sp.latex(residual[0]),
        residual,
    )
    residual = derivation.apply(
        "Cancel the exponents (powsimp, expand)", residual, lambda e: sp.expand(sp.powsimp(e))
    )
    return derivation.proof(
        "doubling the width keeps every frequency",
        r"\omega_i^{(d)} = \mathrm{base}^{-2i/d} = \mathrm{base}^{-2(2i)/(2d)} = \omega_{2i}^{(2d)}",
        residual,
    )


def reference_table(positions: npt.ArrayLike, d_model: int, *, base: int = 10000) -> Float64Array:
    r"""The encoding evaluated in :data:`DIGITS`-digit arithmetic (mpmath), rounded to float64.

    Independent of :func:`pe.numeric.sinusoidal`: it uses
    :math:`\sin(p \cdot \mathrm{base}^{-2i/d})` with every operation at 50 digits.
    """
    ps = _validate.integer_positions("positions", positions)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("reference_table", ps.size * width, 8 * 64)
    out = np.empty((ps.size, width))
    with mpmath.workdps(DIGITS):
        omegas = [mpmath.power(base, -mpmath.mpf(2 * i) / width) for i in range(width // 2)]
        for row, p in enumerate(ps.tolist()):
            for i, w in enumerate(omegas):
                angle = mpmath.mpf(p) * w
                out[row, 2 * i] = float(mpmath.sin(angle))
                out[row, 2 * i + 1] = float(mpmath.cos(angle))
    return out


def binary_bits(n_positions: int, n_bits: int = 4) -> npt.NDArray[np.int64]:
    """Bit ``b`` (columns, lowest first) of the integers ``0 .. n-1`` (rows)."""
    count = _validate.positive_int("n_positions", n_positions)
    bits = _validate.positive_int("n_bits", n_bits)
    return (np.arange(count)[:, None] >> np.arange(bits)[None, :]) & 1


def ratio_equals_two_width(base: int = 10000) -> tuple[Any, bool]:
    r"""The width ``d`` at which consecutive wavelengths would double, and whether it is even.

    :math:`\mathrm{base}^{2/d} = 2 \iff \tfrac{2}{d}\ln \mathrm{base} = \ln 2 \iff
    d = 2\log_2 \mathrm{base}`. That is an even integer exactly when
    :math:`\log_2 \mathrm{base}` is an integer, that is when ``base`` is a power of two
    (10000 = 2^4 · 625 is not: :math:`d = 8\ln 10/\ln 2 \approx 26.58`).

    Returns
    -------
    tuple
        The exact width (a SymPy expression) and whether it is an even integer.
    """
    value = _validate.positive_int("base", base, minimum=2)
    width = sp.expand_log(2 * sp.log(sp.Integer(value)) / sp.log(2), force=True)
    power_of_two = value & (value - 1) == 0
    return width, power_of_two


def step_distance_proof(*, half_angle: bool = True) -> Proof:
    r"""Prove :math:`\lVert v(p+1) - v(p) \rVert = 2\sin(\omega/2)` for one pair (a smooth step).

    The residual is :math:`\lVert v(p+1) - v(p)\rVert^2 - 4\sin^2(\omega/2)`, reduced with
    :math:`4\sin^2(\omega/2) = 2 - 2\cos\omega`. ``half_angle=False`` tests the wrong
    candidate :math:`\lVert \cdot \rVert = \omega` (true only to first order).
    """
    p = sp.Symbol("p", real=True)
    w = sp.Symbol("omega", positive=True)
    step = sp.Matrix([sp.sin(w * (p + 1)) - sp.sin(w * p), sp.cos(w * (p + 1)) - sp.cos(w * p)])
    target = 2 - 2 * sp.cos(w) if half_angle else w**2
    derivation = Derivation()
    derivation.note(
        "Residual: squared step of the pair minus 4 sin²(ω/2) = 2 − 2 cos ω"
        if half_angle
        else "Residual: squared step of the pair minus ω²",
        rf"\lVert {sp.latex(step)} \rVert^2 - {sp.latex(target)}",
    )
    residual = sp.Matrix([(step.T * step)[0] - target])
    residual = derivation.angle_addition(residual)
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "one step moves a pair by 2 sin(ω/2)",
        r"\lVert v_i(p+1) - v_i(p) \rVert = 2 \sin(\omega_i / 2) \le \omega_i",
        residual,
    )


def period_mean_proof(*, squared: bool = False) -> Proof:
    r"""Prove that sine and cosine average to 0 over a full period :math:`2\pi/\omega`.

    Residuals: :math:`\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin(\omega t)\,dt` and the same
    for cosine. ``squared=True`` is the wrong candidate "sin² averages to 0" (it averages
    to 1/2).
    """
    t = sp.Symbol("t", real=True)
    w = sp.Symbol("omega", positive=True)
    power = 2 if squared else 1
    derivation = Derivation()
    integrals = sp.Matrix(
        [
            w / (2 * sp.pi) * sp.integrate(sp.sin(w * t) ** power, (t, 0, 2 * sp.pi / w)),
            w / (2 * sp.pi) * sp.integrate(sp.cos(w * t) ** power, (t, 0, 2 * sp.pi / w)),
        ]
    )
    derivation.note(
        "Mean of the sine and of the cosine over one period (sympy.integrate)",
        rf"\frac{{\omega}}{{2\pi}}\int_0^{{2\pi/\omega}} \sin^{{{power}}}(\omega t)\,dt,\ "
        rf"\frac{{\omega}}{{2\pi}}\int_0^{{2\pi/\omega}} \cos^{{{power}}}(\omega t)\,dt",
    )
    residual = derivation.apply("Evaluate and expand", integrals, sp.expand)
    return derivation.proof(
        "zero mean over a full period",
        r"\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin \omega t\,dt ="
        r" \frac{\omega}{2\pi}\int_0^{2\pi/\omega} \cos \omega t\,dt = 0",
        residual,
    )


def column_means(n_positions: int, d_model: int) -> Float64Array:
    """Mean of each column of the table over the positions ``0 .. n-1`` (measured)."""
    return np.asarray(numeric.sinusoidal(n_positions, d_model).mean(axis=0), dtype=np.float64)


def column_means_closed_form(n_positions: int, d_model: int, *, shift: float = 1.0) -> Float64Array:
    r"""Column means from the closed forms of the finite sums (Lagrange's identities).

    For :math:`\theta = \omega_i`, :math:`\frac1n\sum_{p=0}^{n-1} \sin p\theta =
    \frac{\sin(n\theta/2)\,\sin((n-1)\theta/2)}{n \sin(\theta/2)}` and the same with
    :math:`\cos((n-1)\theta/2)` for the cosine. ``shift`` replaces the ``n - 1`` by
    ``n - shift`` (``shift=0`` is a wrong candidate).
    """
    count = _validate.positive_int("n_positions", n_positions)
    theta = numeric.frequencies(d_model)
    common = np.sin(count * theta / 2) / (count * np.sin(theta / 2))
    middle = (count - shift) * theta / 2
    out = np.empty(2 * theta.size)
    out[0::2] = common * np.sin(middle)
    out[1::2] = common * np.cos(middle)
    return out


def concat_projection_proof(*, tied: bool = False, width: int = 2) -> Proof:
    r"""Prove :math:`W [e; q] = W_e e + W_q q` with ``W = [W_e | W_q]``: concatenating then projecting.

    A layer reading the concatenation ``[e; q]`` (width ``2d``) equals two separate
    projections added; adding ``e + q`` first is the special case :math:`W_e = W_q`.
    ``tied=True`` tests the wrong candidate :math:`W[e; q] = W_e (e + q)`.
    """
    size = _validate.positive_int("width", width)
    e = sp.Matrix(size, 1, lambda r, _: sp.Symbol(f"e_{r + 1}", real=True))
    q = sp.Matrix(size, 1, lambda r, _: sp.Symbol(f"q_{r + 1}", real=True))
    w_e = sp.Matrix(size, size, lambda r, c: sp.Symbol(f"a_{{{r + 1}{c + 1}}}", real=True))
    w_q = sp.Matrix(size, size, lambda r, c: sp.Symbol(f"b_{{{r + 1}{c + 1}}}", real=True))
    whole = sp.Matrix.hstack(w_e, w_q)
    stacked = sp.Matrix.vstack(e, q)
    right = w_e * (e + q) if tied else w_e * e + w_q * q
    derivation = Derivation()
    derivation.note(
        "Residual: the layer on the concatenation minus the candidate",
        rf"{sp.latex(whole)} {sp.latex(stacked)} - "
        + (r"W_e (e + q)" if tied else r"(W_e e + W_q q)"),
    )
    residual = derivation.apply("Multiply out (expand)", whole * stacked - right, sp.expand)
    return derivation.proof(
        "concatenate-then-project is add-after-separate-projections",
        r"\begin{pmatrix} W_e & W_q \end{pmatrix} \begin{pmatrix} e \\ q \end{pmatrix}"
        r" = W_e e + W_q q",
        residual,
    )


def projection_cost(d_model: int, d_out: int | None = None) -> dict[str, int]:
    """Weights and multiply-adds per token of one projection reading the input, add vs concatenate.

    Adding keeps the input width ``d``; concatenating makes it ``2d``. One ``(d_in x d_out)``
    projection has ``d_in * d_out`` weights and as many multiply-adds per token.
    """
    width = _validate.positive_int("d_model", d_model)
    out = width if d_out is None else _validate.positive_int("d_out", d_out)
    return {
        "width_add": width,
        "width_concat": 2 * width,
        "weights_add": width * out,
        "weights_concat": 2 * width * out,
        "madds_add": width * out,
        "madds_concat": 2 * width * out,
    }


def cosine_embedding_encoding(
    d_model: int, *, n_tokens: int = 1000, n_positions: int = 200, aligned: bool = False
) -> Float64Array:
    r"""Cosines between random token embeddings and encoding rows, all pairs (measured).

    Embeddings have i.i.d. :math:`N(0,1)` entries (seeded). For an isotropic embedding the
    cosine with a fixed unit vector has mean 0 and variance exactly :math:`1/d`.
    ``aligned=True`` is a wrong candidate: embeddings that share a direction with the
    encoding (each embedding plus :math:`PE(0)`).
    """
    width = _validate.even_width("d_model", d_model)
    tokens = _validate.positive_int("n_tokens", n_tokens)
    count = _validate.positive_int("n_positions", n_positions)
    _validate.capped_elements("cosines", tokens * (width + count), 8)
    embeddings = np.random.default_rng(7).standard_normal((tokens, width))
    if aligned:
        embeddings = embeddings + numeric.sinusoidal(1, width)
    table = numeric.sinusoidal(count, width)
    e_unit = embeddings / np.linalg.norm(embeddings, axis=1, keepdims=True)
    t_unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    return np.asarray(e_unit @ t_unit.T, dtype=np.float64)


def wrapped_rows_distance(
    d_model: int = 512, *, horizon: int = 10_000, wrap: int | None = None
) -> float:
    r"""Smallest distance between a row of ``0 .. horizon-1`` and a row of ``horizon .. 2 horizon-1``.

    Computed by brute force on blocks of 1000 positions (every pair of the first 1000 rows
    before and after ``horizon``) and over all offsets up to ``2 horizon`` through
    :math:`\lVert PE(p+k) - PE(p)\rVert^2 = \sum_i (2 - 2\cos\omega_i k)`. ``wrap`` is a wrong
    candidate that treats ``horizon`` as a maximum length and encodes ``p mod wrap``.
    """
    from pe.experiments import failed_designs as naive_encodings

    width = _validate.even_width("d_model", d_model)
    span = _validate.positive_int("horizon", horizon, minimum=1000)
    before = np.arange(1000)
    after = np.arange(span, span + 1000)
    if wrap is not None:
        after = after % _validate.positive_int("wrap", wrap)
    a, b = numeric.sinusoidal(before, width), numeric.sinusoidal(after, width)
    squared = (a**2).sum(1)[:, None] + (b**2).sum(1)[None, :] - 2 * a @ b.T
    brute = float(np.sqrt(max(float(squared.min()), 0.0)))
    if wrap is not None:
        return brute
    by_offset = naive_encodings.row_distance_by_offset(np.arange(1, 2 * span), width)
    return min(brute, float(by_offset.min()))


def encoding_subspace_share(
    n_positions: int = 200, d_model: int = 512, *, relative: float = 1e-3
) -> tuple[int, float]:
    r"""Effective dimension of the encoding rows and the share of a random embedding inside it.

    The rows :math:`PE(0), \dots, PE(n-1)` span (numerically) the directions whose singular
    value exceeds ``relative`` times the largest; ``r`` is their number. For 1000 random
    embeddings with i.i.d. :math:`N(0,1)` entries, the measured mean share of the squared
    norm that falls in that ``r``-dimensional subspace is returned (about ``r / d``).
    """
    count = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    table = numeric.sinusoidal(count, width)
    _, singular, vt = np.linalg.svd(table, full_matrices=False)
    rank = int((singular > relative * singular[0]).sum())
    basis = vt[:rank]
    embeddings = np.random.default_rng(11).standard_normal((1000, width))
    inside = ((embeddings @ basis.T) ** 2).sum(axis=1)
    share = float((inside / (embeddings**2).sum(axis=1)).mean())
    return rank, share
