r"""Why order must be injected (``docs/why-order.py``): attention ignores the order, a recurrent reader does not.

Single-head self-attention of a sequence :math:`X \in \mathbb{R}^{n \times d}` (one token
per row) is

.. math::

    \mathrm{Attn}(X) = \mathrm{softmax}\!\left(\frac{X W_q (X W_k)^{\mathsf T}}{\sqrt{d}}\right)
    X W_v,

with the softmax taken along each row. For every ``n x n`` permutation matrix ``P``,

.. math::

    \mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)

(permutation equivariance): reordering the tokens only reorders the outputs, so the
outputs, taken as a multiset, do not depend on the order. Adding a position-dependent
vector to each row (:math:`X + E`) breaks this, because :math:`PX + E \ne P(X + E)`.
:func:`equivariance` proves it in SymPy with independent symbols for every entry of ``X``
and the weights, over all ``n!`` permutations, by multiplying out polynomials;
:func:`pe.attention.check_equivariance` measures it in NumPy. The statement is a value
(:data:`pe.attention.Sides`): the wrong candidates go through the same proof and check,
and fail. The toy sentences, weights and measurements are in :mod:`pe.attention`.

An Elman recurrent network reads the tokens one by one,
:math:`h_t = \tanh(W_x x_t + W_h h_{t-1} + b)`, :math:`h_0 = 0`, so its final state
depends on the order. The chapter also counts what attention costs and how far apart it
puts two tokens, exactly, on the symbolic expressions of :mod:`pe.symbolic_attention`:
:func:`layer_cost` counts the multiplications of its two matrix products (``2 n^2 d``,
against ``2 n d^2`` for a recurrent layer), and :func:`path_lengths` counts the nonlinear
steps between each input token and each output.

The numeric checks are held to the forward error bound of attention,
:func:`pe.attention.attention_error_bound`.

Examples
--------
>>> equivariance(n=2, d_model=1).holds
True
"""

from __future__ import annotations

import itertools
from functools import partial
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate
from pe._machine_dependent import measured, measured_within, worst_case_text
from pe._tolerance import ELEMENTARY_ULPS, EPS64, Tolerance
from pe.accuracy import ulps_error
from pe.attention import (
    CONSTANT_PE0,
    NO_ENCODING,
    SINUSOIDAL,
    AttentionWeights,
    Encoding,
    Layer,
    RnnWeights,
    Sides,
    Summary,
    attention,
    attention_error_bound,
    attention_layer,
    check_equivariance,
    elman_layer,
    equivariant,
    final_state,
    reference_attention,
    rnn_final_gap,
    rnn_states,
    row_independence_gap,
    row_independence_tolerance,
    sentence_pair,
)
from pe.claims import Candidate, Chapter, Check, Evidence, by_proof, checked, within
from pe.symbolic import Derivation, Proof
from pe.symbolic_attention import (
    CostLaw,
    StepLaw,
    SymbolicLayer,
    attention_cost_law,
    attention_multiplications,
    causal_attention_layer,
    elman_multiplications,
    expand_products,
    one_step,
    recurrent_steps,
    rnn_cost_law,
    step_counts,
    symbolic_attention,
    symbolic_attention_layer,
    symbolic_elman_layer,
    symbolic_matrix,
    symbolic_softmax,
)

chapter = Chapter(__name__)
claim = chapter.claim


def _nonzero(matrix: Any) -> int:
    return sum(1 for entry in matrix if entry != 0)


def equivariance(sides: Sides = equivariant, n: int = 3, d_model: int = 2) -> Proof:
    r"""Prove :math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)` exactly for every ``P`` in :math:`S_n`.

    ``X`` (``n x d``), :math:`W_q, W_k, W_v` (``d x d``) have independent symbolic entries;
    the softmax is written with ``exp``. The proof runs over all ``n!`` permutation
    matrices and reduces three residuals to exactly zero by expanding polynomials
    (``expand``): the scores (:math:`S(PX) = P S(X) P^T`), the softmax
    (:math:`\mathrm{softmax}(PSP^T) = P\,\mathrm{softmax}(S)P^T`, a row's denominator is a
    sum whose terms are only reordered, with the causal mask where the statement uses it)
    and the output (using :math:`P^T P = I`).

    Parameters
    ----------
    sides
        The statement, ``(attend, X, P, E) -> (left, right)``: the true
        :func:`equivariant`, or a wrong candidate (comparing with
        the unpermuted output, a causal mask, symbolic position vectors ``E`` added to the
        rows) whose residual does not vanish.
    n, d_model
        Sequence length (``2 <= n <= 4``) and width (``1 <= d_model <= 3``).

    Examples
    --------
    >>> proof = equivariance(n=3, d_model=1)
    >>> proof.holds, len(proof.residual)
    (True, 18)
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.positive_int("d_model", d_model)
    if length > 4 or width > 3:
        raise ValueError("the exact proof takes n <= 4 and d_model <= 3")
    x = symbolic_matrix("x", length, width)
    w = tuple(symbolic_matrix(f"w^{name}", width, width) for name in "qkv")
    extra = symbolic_matrix("e", length, width)
    perms = [
        sp.Matrix(length, length, lambda r, c, order=order: int(order[r] == c))
        for order in itertools.permutations(range(length))
    ]
    masks: set[bool] = set()

    def attend(rows: Any, causal: bool) -> Any:
        masks.add(causal)
        return symbolic_attention(rows, w, causal)

    residual = sp.Matrix.vstack(
        *(sp.Matrix(left - right) for left, right in (sides(attend, x, p, extra) for p in perms))
    ).applyfunc(expand_products)
    causal = True in masks
    uses_positions = bool(residual.free_symbols & extra.free_symbols)

    derivation = Derivation()
    derivation.note(
        f"Symbols: X is {length}×{width}, W_q, W_k, W_v are {width}×{width}; "
        f"all {len(perms)} permutation matrices P of S_{length} are tried",
        rf"X = {sp.latex(x)}",
    )
    if uses_positions:
        derivation.note("Wrong candidate: position vectors E added, X → X + E", sp.latex(extra))
    scores = ((x * w[0]) * (x * w[1]).T).applyfunc(expand_products)
    score_residual = sp.Matrix.vstack(
        *(
            ((p * x * w[0]) * (p * x * w[1]).T - p * scores * p.T).applyfunc(expand_products)
            for p in perms
        )
    )
    derivation.note(
        "Scores: (PX W_q)(PX W_k)ᵀ − P (X W_q)(X W_k)ᵀ Pᵀ, multiplied out: "
        f"{_nonzero(score_residual)} of {len(score_residual)} entries non-zero",
        r"S(PX) = P\,S(X)\,P^{\mathsf T}",
        calls=("expand",),
    )
    soft = symbolic_softmax(scores, causal)
    soft_residual = sp.Matrix.vstack(
        *(symbolic_softmax(p * scores * p.T, causal) - p * soft * p.T for p in perms)
    ).applyfunc(expand_products)
    derivation.note(
        "Softmax: each row's denominator is a sum whose terms P only reorders: "
        f"{_nonzero(soft_residual)} of {len(soft_residual)} entries non-zero",
        r"\operatorname{softmax}(P S P^{\mathsf T}) = P \operatorname{softmax}(S) P^{\mathsf T}",
        calls=("expand",),
    )
    derivation.note(
        "Output: Attn(PX) − P Attn(X) for every P, with PᵀP = I, multiplied out: "
        f"{_nonzero(residual)} of {len(residual)} entries non-zero",
        r"\operatorname{Attn}(PX) - P\,\operatorname{Attn}(X) = "
        + (r"0" if _nonzero(residual) == 0 else r"\text{non-zero}"),
        calls=("expand",),
    )
    statement = (
        r"\begin{gathered} \operatorname{Attn}(PX) = P\,\operatorname{Attn}(X)\ \text{for every }"
        rf" P \in S_{length} \\ \operatorname{{Attn}}(X) = \operatorname{{softmax}}\!\Bigl("
        r"\tfrac{XW_q(XW_k)^{\mathsf T}}{\sqrt{d}}\Bigr) XW_v \end{gathered}"
    )
    return derivation.proof(
        f"permutation equivariance, n = {length}, d = {width}", statement, residual
    )


def _invariant(attend: Any, x: Any, perm: Any, _positions: Any) -> tuple[Any, Any]:
    return attend(perm @ x, False), attend(x, False)


def _causal(attend: Any, x: Any, perm: Any, _positions: Any) -> tuple[Any, Any]:
    return attend(perm @ x, True), perm @ attend(x, True)


def _positions_added(attend: Any, x: Any, perm: Any, positions: Any) -> tuple[Any, Any]:
    return attend(perm @ x + positions, False), perm @ attend(x + positions, False)


#: :math:`\mathrm{Attn}(PX) = \mathrm{Attn}(X)`: forgets to reorder the outputs.
INVARIANCE = Candidate("invariance Attn(PX) = Attn(X)", _invariant)

#: Attention with a causal mask (token ``i`` sees tokens ``j <= i``): depends on the order.
CAUSAL_MASK = Candidate("causal mask", _causal)

#: Position vectors ``E`` added to the rows before attention: :math:`PX + E \ne P(X + E)`.
POSITIONS_ADDED = Candidate("position vectors added", _positions_added)


def _numeric_equivariance(sides: Sides) -> Evidence:
    result = check_equivariance(sides, 32, 64)
    return checked(
        True,
        f"random X, W_q, W_k, W_v, P, float64, tolerance B(PX) + P B(X) at each entry: "
        f"{worst_case_text(result, result.summary())}",
        error=result.worst_ratio,
        tolerance=Tolerance(1.0, r"B(PX) + P\,B(X) \text{ entry by entry}"),
    )


claim(
    "attention-permutation-equivariant",
    "Self-attention without positions is permutation-equivariant",
    Check(
        by_proof(partial(equivariance, n=3, d_model=2)),
        true=equivariant,
        wrong=(INVARIANCE, CAUSAL_MASK),
    ),
    Check(
        by_proof(partial(equivariance, n=3, d_model=1)),
        true=equivariant,
        wrong=(POSITIONS_ADDED,),
    ),
    Check(
        _numeric_equivariance,
        true=equivariant,
        wrong=(INVARIANCE, CAUSAL_MASK, POSITIONS_ADDED),
    ),
    statement=(
        r"\begin{gathered} \operatorname{Attn}(PX) = P\,\operatorname{Attn}(X)"
        r" \text{ for every permutation matrix } P \\"
        r" \text{proved exactly for all } 3! \text{ orders of } n = 3 \text{ tokens"
        r" } (d \le 2)\text{; measured at } n = 32 \\ \text{(the test suite: random"
        r" orders at random } n \le 48,\ d \le 64) \end{gathered}"
    ),
)

#: The seeded sequences (tokens, width) the rounding bound is measured on against mpmath.
BOUND_CASES = ((5, 3), (8, 16), (16, 8))
#: Seeded points of [-40, 0] (the shifted scores' range) where NumPy's exp is measured.
EXP_POINTS = 20_000


def _one_rounding(x: npt.NDArray[np.float64], weights: AttentionWeights) -> Any:
    return EPS64 / 2 * np.abs(reference_attention(x, weights))


#: "Float64 attention is correctly rounded": half an ulp of each exact output.
CORRECTLY_ROUNDED = Candidate("half an ulp of each output (correctly rounded)", _one_rounding)


def _bound_holds(bound: Any) -> Evidence:
    """Float64 attention of seeded X and weights against mpmath's, entry by entry, over
    ``bound(X, weights)``."""
    ratios = []
    for n, d in BOUND_CASES:
        rng = np.random.default_rng(n * 100 + d)
        x, weights = rng.standard_normal((n, d)), AttentionWeights.gaussian(rng, d)
        error = np.abs(attention(x, weights) - reference_attention(x, weights))
        limit = bound(x, weights)
        ratios.append(float(np.max(np.where(error == 0, 0.0, error / np.maximum(limit, 1e-300)))))
    worst = max(ratios)
    return checked(
        worst <= 1.0,
        f"random X, W_q, W_k, W_v, (n, d) in {BOUND_CASES}, float64 against mpmath (40 digits):"
        f" worst error / bound {measured(worst, 1.0, stable=False)}",
    )


def _exp_accurate(ulps: float) -> Evidence:
    """NumPy's float64 exp at EXP_POINTS seeded points of [-40, 0] against mpmath."""
    x = np.random.default_rng(2017).uniform(-40.0, 0.0, EXP_POINTS)
    with mpmath.workdps(50):
        worst = ulps_error(np.exp(x), [mpmath.exp(arg) for arg in x.tolist()])
    return checked(
        worst <= ulps,
        f"float64 exp at {EXP_POINTS} seeded points of [-40, 0] against mpmath (50 digits): "
        f"largest error {measured(worst, ulps, stable=False)} ulp (the bound takes {ulps:g})",
    )


claim(
    "attention-rounding-bound",
    "Float64 attention stays within its rounding bound $B$",
    Check(_bound_holds, true=attention_error_bound, wrong=(CORRECTLY_ROUNDED,)),
    Check(
        _exp_accurate,
        true=ELEMENTARY_ULPS,
        wrong=(Candidate("correctly rounded: half an ulp", 0.5),),
    ),
    statement=(
        r"\begin{gathered} |\widehat{\operatorname{Attn}}(X) - \operatorname{Attn}(X)| \le B(X)"
        r" \text{ entry by entry,} \\ \text{to first order in } u\text{; } B\text{: the products }"
        r" XW,\ QK^{\mathsf T}\text{, the row maximum,} \\ \text{the exponentials, the sums over"
        r" the keys} \\ \text{and the weighted rows of } XW_v \\ \text{(measured against mpmath at } (n, d)"
        r" \in \{"
        + ", ".join(f"({n}, {d})" for n, d in BOUND_CASES)
        + r"\}\text{);} \\ \text{NumPy's float64 exp within }"
        + f"{ELEMENTARY_ULPS}"
        + r" \text{ ulp} \\ \text{(measured at }"
        + f"{EXP_POINTS}"
        + r" \text{ points of } [-40, 0])\end{gathered}"
    ),
)

#: The sinusoidal encoding added to the words: the two sentences no longer agree.
SINUSOIDAL_ENCODING = Candidate("sinusoidal encoding", SINUSOIDAL)


def _sentences(encoding: Encoding) -> Evidence:
    pair = sentence_pair(encoding, 64)
    return within(
        pair.word_gap,
        Tolerance(pair.tolerance, r"\max B(X_1) + \max B(X_2)"),
        f"d=64, {encoding.label}: largest difference between a word's outputs in the two "
        f"sentences {measured_within(pair.word_gap, pair.tolerance, '.3g')}",
    )


claim(
    "dog-bites-man-same-outputs",
    "Without positions, the two sentences give the same outputs",
    Check(_sentences, true=NO_ENCODING, wrong=(SINUSOIDAL_ENCODING,)),
    Check(_sentences, true=CONSTANT_PE0, wrong=(SINUSOIDAL_ENCODING,)),
    statement=(
        r"\begin{gathered} \{\!\{\operatorname{Attn}(X_{\text{dog bites man}})_r\}\!\} \\"
        r" = \{\!\{\operatorname{Attn}(X_{\text{man bites dog}})_r\}\!\} \\"
        r" \text{(the same multiset of output rows)} \end{gathered}"
    ),
)

#: The same vector :math:`PE(0)` on every row: carries no order.
CONSTANT_ENCODING = Candidate("constant vector PE(0) on every row", CONSTANT_PE0)


def _symmetry_broken(encoding: Encoding) -> Evidence:
    pair = sentence_pair(encoding, 64)
    ratio = pair.word_gap / pair.scale
    return checked(
        ratio > 0.05,
        f"d=64, {encoding.label}: a word's outputs in the two sentences differ by "
        f"{measured(pair.word_gap, pair.tolerance)}, {measured(ratio, pair.tolerance / pair.scale)}"
        f" of the output scale {pair.scale:.3g} (needs > 0.05)",
    )


claim(
    "encoding-breaks-symmetry",
    "Adding the sinusoidal encoding breaks the symmetry",
    Check(_symmetry_broken, true=SINUSOIDAL, wrong=(CONSTANT_ENCODING,)),
    statement=(
        r"\begin{gathered} \operatorname{Attn}(PX + PE) \neq P\,\operatorname{Attn}(X + PE)"
        r" \\ \text{a word's output depends on where it stands} \end{gathered}"
    ),
)


def summed_states_without_recurrence(
    x: npt.NDArray[np.float64], weights: RnnWeights
) -> npt.NDArray[np.float64]:
    """The sum of the states with the recurrent matrix set to zero: a reader with no memory."""
    forgetful = RnnWeights(weights.w_x, np.zeros_like(weights.w_h), weights.b)
    return np.asarray(rnn_states(x, forgetful).sum(axis=0), dtype=np.float64)


#: A reader with no memory: :math:`W_h = 0`, the states summed.
FORGETFUL_READER = Candidate("W_h = 0, sum of the states", summed_states_without_recurrence)


def _rnn(summary: Summary) -> Evidence:
    gap = rnn_final_gap(summary, 64)
    return checked(gap > 1e-3, f"Elman cell, 16 units, d=64: difference {measured(gap, 1e-3)}")


claim(
    "rnn-reads-order",
    "A recurrent network's final state depends on the order",
    Check(_rnn, true=final_state, wrong=(FORGETFUL_READER,)),
    statement=(
        r"\begin{gathered} h_t = \tanh(W_x x_t + W_h h_{t-1} + b),\ b = 0 \text{ (the toy"
        r" cell)} \\ h_3(\text{dog bites man}) \neq h_3(\text{man bites dog}) \end{gathered}"
    ),
)


#: An Elman cell, whose step ``t`` computed alone (with :math:`h_{t-1} = 0`) is wrong.
RECURRENT_STEPS = Candidate("Elman cell, h_t computed without h_(t-1)", elman_layer)


def _rows_alone(layer: Layer, encoding: Encoding) -> Evidence:
    gap = row_independence_gap(layer, 32, 64, encoding)
    bound = row_independence_tolerance(32, 64, encoding)
    return within(
        gap,
        Tolerance(bound, r"2 \max B(X)"),
        f"n=32, d=64, {encoding.label}: each row computed alone vs all at once, "
        f"max difference {measured_within(gap, bound, '.3g')}",
    )


claim(
    "attention-rows-parallel",
    "Attention is what runs in parallel, with or without the encoding",
    Check(
        partial(_rows_alone, encoding=NO_ENCODING),
        true=attention_layer,
        wrong=(RECURRENT_STEPS,),
    ),
    Check(
        partial(_rows_alone, encoding=SINUSOIDAL),
        true=attention_layer,
        wrong=(RECURRENT_STEPS,),
    ),
    statement=(
        r"\begin{gathered} \operatorname{Attn}(X)_i = \operatorname{softmax}\!\Bigl("
        r"\tfrac{x_i W_q (XW_k)^{\mathsf T}}{\sqrt d}\Bigr) XW_v \\"
        r" \text{needs no other output; } h_t \text{ needs } h_{t-1} \end{gathered}"
    ),
)

#: The sizes ``(n, d)`` at which :func:`layer_cost` counts.
COST_SIZES: tuple[tuple[int, int], ...] = ((2, 1), (3, 2), (4, 3), (6, 2), (2, 5))


def layer_cost(law: CostLaw = attention_cost_law, *, recurrent: bool = False) -> Proof:
    r"""Count the multiplications of one attention head, or of an Elman layer, against ``law``.

    For ``n`` tokens of width ``d`` with independent symbolic entries, attention's scores
    :math:`QK^{\mathsf T}` are ``n^2`` sums of ``d`` products and the weighted sum
    :math:`AV` (``A`` the ``n x n`` softmax weights) is ``n d`` sums of ``n`` products:
    ``2 n^2 d`` in all, quadratic in the length (:func:`pe.symbolic_attention.attention_multiplications`).
    With ``recurrent``, each of the ``n`` Elman steps forms :math:`W_x x_t + W_h h_{t-1}`
    with ``d x d`` matrices: ``2 d^2`` multiplications, ``2 n d^2`` in all, linear in the
    length (:func:`pe.symbolic_attention.elman_multiplications`). The count is exact
    (SymPy's ``count_ops`` on the written-out products) at each size of
    :data:`COST_SIZES`; the residual is the count minus ``law(n, d)``.

    Examples
    --------
    >>> layer_cost().holds, layer_cost(rnn_cost_law).holds
    (True, False)
    >>> layer_cost(rnn_cost_law, recurrent=True).holds
    True
    """
    count = elman_multiplications if recurrent else attention_multiplications
    what = "W_x x_t and W_h h_(t-1)" if recurrent else "QKᵀ and AV"
    counted = {(n, d): count(n, d) for n, d in COST_SIZES}
    derivation = Derivation()
    derivation.note(
        f"Count the multiplications in {what}, as SymPy writes the products out, at "
        + ", ".join(f"(n, d) = ({n}, {d}): {c}" for (n, d), c in counted.items()),
        r"\text{counted} - \text{law}(n, d)",
    )
    residual = sp.Matrix([c - law(n, d) for (n, d), c in counted.items()])
    formula = sp.latex(law(sp.Symbol("n"), sp.Symbol("d")))
    title = "an Elman layer's multiplications" if recurrent else "attention's multiplications"
    return derivation.proof(title, rf"\text{{multiplications}} = {formula}", residual)


#: A recurrent layer's count, :math:`2nd^2`: linear in the length.
RECURRENT_COST = Candidate("2nd², linear in n", rnn_cost_law)

#: Attention's count, :math:`2n^2d`, for an Elman layer.
ATTENTION_COST = Candidate("2n²d, quadratic in n", attention_cost_law)

claim(
    "attention-cost-quadratic",
    "Attention's cost grows with the square of the length",
    Check(by_proof(layer_cost), true=attention_cost_law, wrong=(RECURRENT_COST,)),
    Check(
        by_proof(partial(layer_cost, recurrent=True)),
        true=rnn_cost_law,
        wrong=(ATTENTION_COST,),
    ),
    statement=(
        r"\begin{gathered} QK^{\mathsf T} \text{ and } AV\!: n^2 d + n^2 d = 2n^2 d"
        r" \text{ multiplications} \\ \text{an Elman layer with a state of width } d"
        r"\text{ (} W_x, W_h \ d \times d\text{): } 2nd^2"
        r" \text{, in } n \text{ steps one after another} \\"
        r" \text{(the written-out products counted at } (n, d) \in \{"
        + ", ".join(f"({n}, {d})" for n, d in COST_SIZES)
        + r"\}\text{)} \end{gathered}"
    ),
)


def path_lengths(
    layer: SymbolicLayer = symbolic_attention_layer,
    steps: StepLaw = one_step,
    n: int = 4,
    d_model: int = 1,
) -> Proof:
    r"""The nonlinear steps between input token ``j`` and output ``i``, against ``steps``.

    The layer runs on ``n`` symbolic tokens of width ``d_model``; entry ``(i, j)`` counts
    the ``exp`` (softmax) or ``tanh`` applications nested between a symbol of token ``j``
    and output ``i`` (:math:`\infty` where output ``i`` does not depend on token ``j``).
    The residual is zero where the count equals ``steps(i, j)``. For attention every
    output is one softmax from every token (:func:`one_step`), so the longest path has
    length 1; a causal mask leaves later tokens unreachable, and in an Elman network
    token ``j`` reaches state ``i`` through ``i - j + 1`` updates (:func:`recurrent_steps`).

    Examples
    --------
    >>> path_lengths().holds, path_lengths(symbolic_elman_layer, n=3).holds
    (True, False)
    >>> path_lengths(symbolic_elman_layer, recurrent_steps, n=3).holds
    True
    """
    length = _validate.positive_int("n", n, minimum=2)
    width = _validate.positive_int("d_model", d_model)
    if length > 6 or width > 2:
        raise ValueError("path_lengths takes n <= 6 and d_model <= 2")
    x = symbolic_matrix("x", length, width)
    measured = step_counts(layer(x), x)
    expected = sp.Matrix(length, length, steps)
    derivation = Derivation()
    derivation.note(
        f"Steps (exp or tanh) from token j (column) to output i (row), n = {length}",
        sp.latex(measured),
    )
    residual = sp.Matrix(
        length,
        length,
        lambda i, j: 0 if measured[i, j] == expected[i, j] else measured[i, j] - expected[i, j],
    )
    # an Elman network's outputs are its states h_i, attention's (causal or not) its rows y_i
    kind, output = ("Elman", "h") if layer is symbolic_elman_layer else ("attention", "y")
    statement = rf"\text{{steps}}(x_j \to {output}_i) = {sp.latex(expected)}"
    return derivation.proof(f"{kind} path lengths, n = {length}", statement, residual)


#: Attention with a causal mask: a token's output does not see the tokens after it.
CAUSAL_LAYER = Candidate("causal mask", causal_attention_layer)

#: An Elman network: the first token is ``n`` updates from the last state.
RECURRENT_LAYER = Candidate("Elman network", symbolic_elman_layer)

#: Attention's one step from every token, said of an Elman network.
ONE_STEP = Candidate("one step for every pair", one_step)


claim(
    "attention-path-length-one",
    "One attention layer puts every token one step from every output",
    Check(
        by_proof(path_lengths),
        true=symbolic_attention_layer,
        wrong=(CAUSAL_LAYER, RECURRENT_LAYER),
    ),
    Check(
        by_proof(partial(path_lengths, symbolic_elman_layer)),
        true=recurrent_steps,
        wrong=(ONE_STEP,),
    ),
    statement=(
        r"\begin{gathered} \text{attention: steps}(x_j \to y_i) = 1 \text{ for all } i, j"
        r" \\ \text{Elman: steps}(x_j \to h_i) = i - j + 1 \text{ for } j \le i,"
        r" \text{ no path for } j > i \\ \text{(counted on the written-out layers, } n = 4)"
        r" \end{gathered}"
    ),
)

claim(
    "vaswani-layer-comparison",
    "Vaswani et al., Table 1: cost, sequential steps and path length of layer types",
    statement=(
        r"\begin{gathered}\text{Vaswani et al. (2017), Table 1: self-attention } O(n^2 d)"
        r" \text{ per layer, } O(1) \text{ sequential operations, } O(1) \text{ maximum path"
        r" length;} \\ \text{recurrent: } O(n d^2),\ O(n),\ O(n)\end{gathered}"
    ),
    source="vaswani2017",
)

claim(
    "parallel-processing-reported",
    "A. Mittal: the positional encoding as the key to parallel computation",
    statement=(
        r"\text{A. Mittal (Medium) presents the positional encoding as the key idea that lets"
        r" a model compute over the tokens in parallel}"
    ),
    source="mittal-medium",
)

claim(
    "elman-simple-recurrent-network",
    "Elman's simple recurrent network feeds its hidden state back at the next step",
    statement=(
        r"\begin{gathered}\text{Elman (1990): the hidden units' activations at one step are"
        r" copied to context units,} \\ \text{which feed the hidden layer at the next step;"
        r" the network reads a sequence one element at a time}\end{gathered}"
    ),
    source="elman1990",
)
