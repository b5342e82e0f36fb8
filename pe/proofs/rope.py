r"""Exact proofs about rotary position embeddings (RoPE), in SymPy.

RoPE rotates pair ``i`` of a query or key at position ``p`` by the angle :math:`p\,\omega_i`:

.. math::

    R(\theta) = \begin{pmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{pmatrix},
    \qquad (a, b) \mapsto (a\cos\theta - b\sin\theta,\ b\cos\theta + a\sin\theta).

The proofs here, each recorded step by step with :class:`pe.symbolic.Derivation`:

- :func:`complex_form`: the pair rotation is multiplication by :math:`e^{\mathrm{i}\theta}`;
- :func:`relative_property`: :math:`\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle`
  for one pair with symbolic ``q``, ``k``, ``m``, ``n`` and frequency;
- :func:`relative_property_block_diagonal`: the same for a concrete width, either pairing;
- :func:`pairings_differ_by_permutation` and :func:`permuted_scores_agree`: the two pairings
  differ by a fixed permutation, and scores agree when ``q`` and ``k`` are permuted alike;
- :func:`offset_only_after_projection`: RoPE applied after :math:`W_q, W_k` keeps the
  property for every :math:`W_q, W_k`; rotating before projecting loses it;
- :func:`additive_counterexample`: the additive encoding loses it after the projections;
- :func:`summation_by_parts`: the identity behind RoFormer's decay bound.

Residuals are reduced with expand, expand_trig and expand (no ``simplify``, no floats).
A wrong candidate gives ``holds=False`` and shows its non-zero residual.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from pe import _validate
from pe.rotary import pairing_permutation
from pe.symbolic import OMEGA, Derivation, Proof, rotation, to_latex

__all__ = [
    "Conversion",
    "M",
    "N",
    "Permutation",
    "Projection",
    "Rotation",
    "abel_right_side",
    "additive_counterexample",
    "complex_form",
    "offset_only_after_projection",
    "pairings_differ_by_permutation",
    "permute_both",
    "permuted_scores_agree",
    "relative_property",
    "relative_property_block_diagonal",
    "rope_rotation",
    "rotate_after_projecting",
    "summation_by_parts",
]

#: Query and key positions (real symbols).
M, N = sp.symbols("m n", real=True)
_THETA = sp.Symbol("theta", real=True)

#: A candidate rotation: ``(position, w) -> 2 x 2 sympy.Matrix`` (RoPE: ``R(position * w)``).
Rotation = Callable[[Any, Any], Any]
#: A candidate pairing permutation: ``d -> the d indices perm`` with ``(P y)[j] = y[perm[j]]``.
Permutation = Callable[[int], Any]
#: A candidate conversion between pairings: ``(permute, q, k) -> (q', k')``.
Conversion = Callable[[Callable[[Any], Any], Any, Any], tuple[Any, Any]]
#: A candidate place for the rotation: ``(W, R, v) -> the projected, rotated vector``.
Projection = Callable[[Any, Any, Any], Any]


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


def permute_both(permute: Callable[[Any], Any], q: Any, k: Any) -> tuple[Any, Any]:
    """Converting weights between pairings: permute the query and the key alike.

    Examples
    --------
    >>> permute_both(lambda v: v[::-1], [1, 2], [3, 4])
    ([2, 1], [4, 3])
    """
    return permute(q), permute(k)


def rotate_after_projecting(w: Any, r: Any, v: Any) -> Any:
    """RoPE's order: project ``v`` by ``w``, then rotate by ``r``: ``r w v``.

    Examples
    --------
    >>> import sympy as sp
    >>> w, r, v = sp.symbols("W R x", commutative=False)
    >>> rotate_after_projecting(w, r, v)
    R*W*x
    """
    return r * w * v


def abel_right_side(h: Sequence[Any], partial: Sequence[Any], count: int) -> Any:
    r"""The right side of summation by parts, :math:`-\sum_{j<N} S_{j+1}(h_{j+1} - h_j)`."""
    return -sp.Add(*[partial[j + 1] * (h[j + 1] - h[j]) for j in range(count)])


def _shown(expr: Any, joiner: str = "") -> str:
    """A product of non-commuting symbols as written: ``R_m*W_q*x`` -> ``R_m W_q x``."""
    return str(expr).replace("*", joiner)


def _rotation(candidate: Rotation, position: Any, w: Any) -> Any:
    matrix = candidate(position, w)
    if not isinstance(matrix, sp.MatrixBase) or matrix.shape != (2, 2):
        raise TypeError("rotation must return a 2 x 2 sympy Matrix")
    return sp.Matrix(matrix)


def _vector(name: str, size: int) -> Any:
    return sp.Matrix(sp.symbols(f"{name}_0:{size}", real=True))


def _reduce(derivation: Derivation, residual: Any) -> Any:
    residual = derivation.apply("Multiply out (expand)", residual, sp.expand)
    residual = derivation.apply(
        "Apply the angle-addition formulas (expand_trig)", residual, sp.expand_trig
    )
    return derivation.apply("Collect terms (expand)", residual, sp.expand)


def complex_form(candidate: Rotation = rope_rotation) -> Proof:
    r"""Prove that rotating ``(a, b)`` by :math:`\theta` is :math:`(a + \mathrm{i}b)\,e^{\mathrm{i}\theta}`.

    The residual is ``R(θ)(a, b)`` minus the real and imaginary parts of the product, after
    Euler's formula :math:`e^{\mathrm{i}\theta} = \cos\theta + \mathrm{i}\sin\theta`.
    """
    a, b = sp.symbols("a b", real=True)
    matrix = _rotation(candidate, _THETA, 1)
    product = sp.expand((a + sp.I * b) * sp.exp(sp.I * _THETA).rewrite(sp.cos))
    real, imag = product.as_real_imag()
    derivation = Derivation()
    derivation.note(
        "Euler's formula, then multiply out",
        rf"(a + i b)\,e^{{i\theta}} = {sp.latex(product)}",
    )
    left = matrix * sp.Matrix([a, b])
    derivation.note(
        "Residual: the rotated pair minus (real part, imaginary part)",
        f"{to_latex(left)} - {to_latex(sp.Matrix([real, imag]))}",
    )
    residual = derivation.apply("Collect terms (expand)", left - sp.Matrix([real, imag]), sp.expand)
    statement = (
        rf"{to_latex(matrix)} \begin{{pmatrix}} a \\ b \end{{pmatrix}}"
        r" \leftrightarrow (a + ib)\,e^{i\theta}"
    )
    return derivation.proof("RoPE pair rotation is complex multiplication", statement, residual)


def relative_property(candidate: Rotation = rope_rotation) -> Proof:
    r"""Prove :math:`\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle` for one pair.

    ``q = (q_0, q_1)``, ``k = (k_0, k_1)``, ``m``, ``n`` and
    :math:`\omega_i = \mathrm{base}^{-2i/d}` are all symbolic; :math:`R_p` is
    ``candidate(p, omega_i)``, RoPE's :math:`R(p\,\omega_i)` by default.
    """
    q, k = _vector("q", 2), _vector("k", 2)
    rm, rn = _rotation(candidate, M, OMEGA), _rotation(candidate, N, OMEGA)
    rd = _rotation(candidate, N - M, OMEGA)
    left = (rm * q).T * (rn * k)
    right = q.T * (rd * k)
    derivation = Derivation()
    derivation.note(
        "The rotations at m, at n and at n − m",
        f"{to_latex(rm)},\\ {to_latex(rn)},\\ {to_latex(rd)}",
    )
    derivation.note(
        "Residual ⟨R_m q, R_n k⟩ − ⟨q, R_{n−m} k⟩, written out",
        to_latex(left - right),
        left - right,
    )
    residual = _reduce(derivation, left - right)
    statement = (
        r"\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle, \quad "
        rf"R_p = {to_latex(rotation(sp.Symbol('p') * OMEGA))}"
    )
    return derivation.proof("RoPE relative property (one pair)", statement, residual)


def _exact_frequencies(width: int, base: object) -> list[Any]:
    if isinstance(base, bool) or not isinstance(base, int | sp.Integer | sp.Rational):
        raise TypeError(f"base must be an integer or a sympy Rational (no floats), got {base!r}")
    b = sp.Rational(base)
    if b <= 1:
        raise ValueError(f"base must be > 1, got {b}")
    return [b ** sp.Rational(-2 * i, width) for i in range(width // 2)]


def _exact_width(d_model: int, limit: int) -> int:
    width = _validate.even_width("d_model", d_model)
    if width > limit:
        raise ValueError(f"d_model must be <= {limit} for an exact proof, got {width}")
    return width


def _rotation_matrix(position: Any, omegas: Sequence[Any], pairing: str, rotation: Rotation) -> Any:
    """The d x d RoPE matrix at ``position`` for the pairing, built from the pair blocks."""
    blocks = [_rotation(rotation, position, w) for w in omegas]
    if pairing == "adjacent":
        return sp.diag(*blocks)
    perm = [int(i) for i in pairing_permutation(2 * len(omegas))]
    return sp.diag(*blocks).extract(perm, perm)  # pairs (i, i + d/2): P diag(blocks) P^T


def relative_property_block_diagonal(
    candidate: Rotation = rope_rotation,
    d_model: int = 8,
    *,
    pairing: str = "adjacent",
    base: int | Any = 10000,
) -> Proof:
    r"""Prove :math:`\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle` for a concrete width.

    ``q``, ``k`` (``d`` symbols each), ``m`` and ``n`` are symbolic; the frequencies are the
    exact numbers :math:`\mathrm{base}^{-2i/d}`. ``R_p`` is block-diagonal for the adjacent
    pairing, and pairs ``(i, i + d/2)`` for the halves pairing.
    """
    width = _exact_width(d_model, 32)
    if pairing not in ("adjacent", "halves"):
        raise ValueError(f"pairing must be 'adjacent' or 'halves', got {pairing!r:.40}")
    mode = pairing
    omegas = _exact_frequencies(width, base)
    q, k = _vector("q", width), _vector("k", width)
    rm = _rotation_matrix(M, omegas, mode, candidate)
    rn = _rotation_matrix(N, omegas, mode, candidate)
    rd = _rotation_matrix(N - M, omegas, mode, candidate)
    derivation = Derivation()
    pairs = (
        [(2 * i, 2 * i + 1) for i in range(width // 2)]
        if mode == "adjacent"
        else [(i, i + width // 2) for i in range(width // 2)]
    )
    blocks = r", \\ ".join(
        rf"\text{{coordinates }} ({a}, {b}):\ R\left({to_latex(M * w)}\right)"
        for (a, b), w in zip(pairs, omegas, strict=True)
    )
    derivation.note(
        f"R_m for d = {width}, {mode} pairing: each pair of coordinates turns by R(m ω_i)",
        rf"\begin{{gathered}}{blocks}\end{{gathered}}",
    )
    residual = (rm * q).T * (rn * k) - q.T * (rd * k)
    derivation.note(
        f"Residual ⟨R_m q, R_n k⟩ − ⟨q, R_(n−m) k⟩: {len(sp.Add.make_args(sp.expand(residual[0])))} terms"
        " once multiplied out",
        r"\langle R_m q, R_n k\rangle - \langle q, R_{n-m} k\rangle",
    )
    residual = residual.applyfunc(sp.expand).applyfunc(sp.expand_trig).applyfunc(sp.expand)
    derivation.note(
        "Multiply out, apply expand_trig, collect terms (expand)", to_latex(residual), residual
    )
    statement = (
        rf"\langle R_m q, R_n k\rangle = \langle q, R_{{n-m}} k\rangle \text{{ for }} d = {width},"
        rf" \text{{ {mode} pairing}},\ \omega_i = {sp.latex(sp.Rational(base))}^{{-2i/{width}}}"
    )
    return derivation.proof(f"RoPE relative property, d = {width}, {mode}", statement, residual)


def _rope_halves_direct(x: Any, angles: Sequence[Any]) -> Any:
    """rotate_half form: x * cos + rotate_half(x) * sin, rotate_half(x) = (-x2, x1)."""
    half = len(angles)
    cos = [sp.cos(t) for t in angles] * 2
    sin = [sp.sin(t) for t in angles] * 2
    rotated = [-x[half + i] for i in range(half)] + [x[i] for i in range(half)]
    return sp.Matrix([x[j] * cos[j] + rotated[j] * sin[j] for j in range(2 * half)])


def _rope_adjacent_direct(x: Any, angles: Sequence[Any]) -> Any:
    out: list[Any] = []
    for i, t in enumerate(angles):
        a, b = x[2 * i], x[2 * i + 1]
        out.extend([a * sp.cos(t) - b * sp.sin(t), b * sp.cos(t) + a * sp.sin(t)])
    return sp.Matrix(out)


def _permutation_matrix(perm: Sequence[int]) -> Any:
    if sorted(perm) != list(range(len(perm))):
        raise ValueError("permutation must hold each index 0 .. d-1 once")
    return sp.eye(len(perm)).extract(list(perm), list(range(len(perm))))


def pairings_differ_by_permutation(
    candidate: Permutation = pairing_permutation,
    d_model: int = 8,
    *,
    base: int | Any = 10000,
) -> Proof:
    r"""Prove :math:`\mathrm{rope}_{\text{halves}}(x) = P\,\mathrm{rope}_{\text{adjacent}}(P^{\mathsf T} x)`.

    Both sides are built independently: the halves side as ``x cos + rotate_half(x) sin``
    with ``rotate_half(x) = (-x[d/2:], x[:d/2])``, the adjacent side pair by pair. ``x`` and
    the position ``m`` are symbolic. ``P y = y[perm]`` with ``perm = candidate(d)``, for RoPE
    :func:`pe.rotary.pairing_permutation`: ``[0, 2, ..., 1, 3, ...]``.
    """
    width = _exact_width(d_model, 64)
    perm = [int(i) for i in candidate(width)]
    matrix = _permutation_matrix(perm)
    if matrix.shape != (width, width):
        raise ValueError(f"permutation must have {width} entries, got {len(perm)}")
    angles = [M * w for w in _exact_frequencies(width, base)]
    x = _vector("x", width)
    halves = _rope_halves_direct(x, angles)
    adjacent = matrix * _rope_adjacent_direct(matrix.T * x, angles)
    derivation = Derivation()
    derivation.note("The permutation P (P y = y[perm])", f"\\mathrm{{perm}} = {perm}")
    derivation.note(
        "Entries 0 and d/2 of each side: rotate_half on the left, P, rotate, Pᵀ on the right",
        rf"\begin{{gathered}}{to_latex(halves[0])} \;\big|\; {to_latex(adjacent[0])} \\"
        rf"{to_latex(halves[width // 2])} \;\big|\; {to_latex(adjacent[width // 2])}\end{{gathered}}",
    )
    residual = derivation.apply(
        "Residual rope_halves(x) − P rope_adjacent(Pᵀx), all entries, collected (expand)",
        (halves - adjacent).T,
        sp.expand,
    )
    statement = (
        r"\mathrm{rope}_{\text{halves}}(x, m) = P\,\mathrm{rope}_{\text{adjacent}}"
        rf"(P^{{\mathsf T}} x, m),\quad d = {width}"
    )
    return derivation.proof(f"pairings differ by P, d = {width}", statement, residual)


def permuted_scores_agree(
    candidate: Conversion = permute_both, d_model: int = 8, *, base: int | Any = 10000
) -> Proof:
    r"""Prove :math:`\langle \mathrm{h}(Pq, m), \mathrm{h}(Pk, n)\rangle = \langle \mathrm{a}(q, m), \mathrm{a}(k, n)\rangle`.

    ``h`` is the halves pairing, ``a`` the adjacent one; ``q``, ``k``, ``m``, ``n`` symbolic.
    Weights trained with the adjacent pairing give the same scores under the halves pairing
    once the rows of :math:`W_q` and :math:`W_k` are permuted by ``P``: ``candidate`` turns
    ``(P, q, k)`` into the halves side's query and key (:func:`permute_both` for RoPE).
    """
    width = _exact_width(d_model, 64)
    matrix = _permutation_matrix([int(i) for i in pairing_permutation(width)])
    omegas = _exact_frequencies(width, base)
    q, k = _vector("q", width), _vector("k", width)
    query, key = candidate(lambda v: matrix * v, q, k)
    left = _rope_halves_direct(query, [M * w for w in omegas]).T * _rope_halves_direct(
        key, [N * w for w in omegas]
    )
    p, q_, k_ = sp.symbols("P q k", commutative=False)
    shown = ", ".join(_shown(v) for v in candidate(lambda v: p * v, q_, k_))
    right = _rope_adjacent_direct(q, [M * w for w in omegas]).T * _rope_adjacent_direct(
        k, [N * w for w in omegas]
    )
    derivation = Derivation()
    derivation.note(
        f"Residual: halves scores of ({shown}) minus adjacent scores of (q, k)",
        r"\langle h(Pq, m), h(Pk, n)\rangle - \langle a(q, m), a(k, n)\rangle",
    )
    residual = derivation.apply("Collect terms (expand)", left - right, sp.expand)
    statement = (
        r"\begin{gathered}\langle \mathrm{rope}_{\text{halves}}(Pq, m),"
        r" \mathrm{rope}_{\text{halves}}(Pk, n)\rangle \\ = \langle \mathrm{rope}_{\text{adjacent}}"
        r"(q, m), \mathrm{rope}_{\text{adjacent}}(k, n)\rangle,"
        rf"\quad d = {width}\end{{gathered}}"
    )
    return derivation.proof(f"permuted scores agree, d = {width}", statement, residual)


def offset_only_after_projection(
    candidate: Projection = rotate_after_projecting, d_model: int = 2
) -> Proof:
    r"""Prove :math:`s(m, n) = s(0, n - m)` for RoPE after generic projections :math:`W_q, W_k`.

    :math:`s(m, n) = \langle R_m W_q x, R_n W_k y\rangle` with every entry of :math:`W_q`,
    :math:`W_k`, ``x``, ``y`` symbolic and :math:`\omega` symbolic (``d = 2``) or exact
    (``d = 4``). ``candidate(W, R, v)`` places the rotation: :func:`rotate_after_projecting`
    for RoPE; rotating the input before the projection, :math:`W_q R_m x`, is not a function
    of ``n - m`` for generic weights.
    """
    width = _exact_width(d_model, 4)
    omegas = [OMEGA] if width == 2 else _exact_frequencies(width, 10000)
    wq = sp.Matrix(width, width, sp.symbols(f"a_0:{width * width}", real=True))
    wk = sp.Matrix(width, width, sp.symbols(f"b_0:{width * width}", real=True))
    x, y = _vector("x", width), _vector("y", width)

    def score(m: Any, n: Any) -> Any:
        rm = _rotation_matrix(m, omegas, "adjacent", rope_rotation)
        rn = _rotation_matrix(n, omegas, "adjacent", rope_rotation)
        return candidate(wq, rm, x).T * candidate(wk, rn, y)

    names = sp.symbols("W_q R_m x W_k R_n y", commutative=False)
    order = ", ".join(_shown(candidate(*names[i : i + 3]), " ") for i in (0, 3))
    derivation = Derivation()
    derivation.note(
        "Score with generic projections; residual s(m, n) − s(0, n − m)",
        rf"s(m, n) = \langle {order}\rangle,\quad W_q = {to_latex(wq)},\ W_k = {to_latex(wk)}",
    )
    residual = _reduce(derivation, score(M, N) - score(0, N - M))
    statement = (
        rf"\langle {order}\rangle = s(0, n - m) \text{{ for all }} W_q, W_k, x, y,\ d = {width}"
    )
    return derivation.proof("RoPE after any projection", statement, residual)


def additive_counterexample(
    w_q: Sequence[Sequence[int]] = ((1, 2), (0, 1)),
    w_k: Sequence[Sequence[int]] = ((2, 0), (1, 1)),
) -> tuple[Proof, Any]:
    r"""The additive encoding after projections: the score is not a function of ``n - m``.

    The position-position term of the additive encoding,
    :math:`s(m, n) = \langle W_q PE(m), W_k PE(n)\rangle = PE(m)^{\mathsf T} A\, PE(n)` with
    :math:`A = W_q^{\mathsf T} W_k`, one pair :math:`PE(p) = (\sin\omega p, \cos\omega p)`,
    symbolic ``m``, ``n``, ω and the given rational projections. (The content-position terms
    :math:`x^{\mathsf T} A\,PE(n)` depend on the absolute ``n`` even for :math:`A = I`.)
    The reduction of :math:`s(m, n) - s(0, n - m)` leaves a residual; evaluated exactly at
    :math:`m = n = \pi / (2\omega)` (offset 0, like :math:`m = n = 0`) it equals
    :math:`A_{00} - A_{11}`.

    Returns
    -------
    tuple
        The :class:`Proof` (``holds`` is False when the term is not relative) and the exact
        value of the residual at :math:`m = n = \pi/(2\omega)`: a counter-example when not 0.
        With :math:`W_q = W_k = I` the proof holds (:math:`PE(m) \cdot PE(n) = \cos\omega(n-m)`).
    """
    wq, wk = sp.Matrix(w_q), sp.Matrix(w_k)
    if wq.shape != (2, 2) or wk.shape != (2, 2):
        raise ValueError("w_q and w_k must be 2 x 2")
    if any(not isinstance(e, sp.Integer | sp.Rational) for e in [*wq, *wk]):
        raise TypeError("w_q and w_k must hold integers or sympy Rationals (no floats)")

    def encoding(p: Any) -> Any:
        return sp.Matrix([sp.sin(OMEGA * p), sp.cos(OMEGA * p)])

    def score(m: Any, n: Any) -> Any:
        return (wq * encoding(m)).T * (wk * encoding(n))

    derivation = Derivation()
    derivation.note(
        "Additive encoding, then projections; residual s(m, n) − s(0, n − m)",
        rf"\begin{{gathered}}s(m, n) = \langle W_q PE(m), W_k PE(n)\rangle, \\"
        rf" W_q = {to_latex(wq)},\ W_k = {to_latex(wk)},\ W_q^{{\mathsf T}} W_k = {to_latex(wq.T * wk)}"
        r"\end{gathered}",
    )
    residual = _reduce(derivation, score(M, N) - score(0, N - M))
    quarter = sp.pi / (2 * OMEGA)
    value = sp.expand(residual[0].subs({M: quarter, N: quarter}))
    derivation.note(
        "At m = n = π/(2ω) (offset 0) the residual is exactly",
        rf"s\!\left(\tfrac{{\pi}}{{2\omega}}, \tfrac{{\pi}}{{2\omega}}\right) - s(0, 0)"
        rf" = {to_latex(value)}",
        value,
    )
    statement = (
        r"\langle W_q PE(m), W_k PE(n)\rangle = s(0, n - m)"
        r" \text{ for the } W_q, W_k \text{ below?}"
    )
    return derivation.proof("additive encoding after projections", statement, residual), value


def summation_by_parts(
    candidate: Callable[[Sequence[Any], Sequence[Any], int], Any] = abel_right_side,
    terms: int = 4,
) -> Proof:
    r"""Prove :math:`\sum_{i<N} h_i e_i = -\sum_{j<N} S_{j+1}(h_{j+1} - h_j)` with :math:`h_N = 0`.

    :math:`S_j = \sum_{i<j} e_i` (so :math:`S_0 = 0`); ``h`` and ``e`` are symbolic. This is
    the step behind RoFormer's bound on :math:`\sum_i h_i e^{\mathrm{i} r\omega_i}`.
    ``candidate(h, S, N)`` is the right side (:func:`abel_right_side`); a wrong one (``S_j``
    for ``S_{j+1}``, a flipped sign) leaves a residual.
    """
    count = _validate.positive_int("terms", terms, minimum=2)
    h = [*sp.symbols(f"h_0:{count}"), sp.Integer(0)]
    e = list(sp.symbols(f"e_0:{count}"))
    partial = [sp.Add(*e[:j]) for j in range(count + 1)]
    left = sp.Add(*[h[i] * e[i] for i in range(count)])
    right = candidate(h, partial, count)
    derivation = Derivation()
    derivation.note(
        f"N = {count}, h_N = 0, S_j = e_0 + ... + e_(j−1)",
        rf"\begin{{gathered}}{sp.latex(left)} \\ \overset{{?}}{{=}} {sp.latex(right)}"
        r"\end{gathered}",
    )
    residual = derivation.apply("Collect terms (expand)", sp.Matrix([left - right]), sp.expand)
    statement = (
        r"\sum_{i=0}^{N-1} h_i e_i = -\sum_{j=0}^{N-1} S_{j+1}\,(h_{j+1} - h_j),"
        rf"\quad h_N = 0,\ S_j = \sum_{{i<j}} e_i,\ N = {count}"
    )
    return derivation.proof(f"summation by parts, N = {count}", statement, residual)
