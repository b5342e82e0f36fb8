r"""The relative-position family (``docs/relative-family.py``): what each scheme of :mod:`pe.relative` makes of position.

The proofs, in SymPy, each reducing its residual to exactly zero with named rewrites
(expand, cancel, power rules); a wrong candidate leaves a non-zero residual:

- :func:`repeated_token_relative`: on a repeated token, the score of RoPE, Shaw,
  Transformer-XL, T5 and ALiBi is unchanged when both positions move by ``t`` (every
  weight and learned part symbolic); an added sinusoidal encoding has an exact
  counter-example;
- :func:`absolute_score_four_terms`: the additive score splits into the four terms that
  Transformer-XL (Dai et al. 2019) re-parametrises;
- :func:`causal_mean_counts_position`: with a causal mask and equal scores (NoPE), the output
  at position ``m`` is :math:`(v_0 + m\,v)/(m+1)`, which changes with ``m`` whenever the first
  value differs;
- :func:`ntk_frequencies`: NTK-aware base scaling keeps the highest frequency and divides the
  lowest by the scale factor.

The measurements run each scheme of :mod:`pe.relative` (the repeated-token test of
relativity, T5's buckets against the properties they are designed to have, the slopes,
the context extensions); the claims about other code read what transformers' T5 and BLOOM
compute, recorded by ``tests/real_code/record.py`` (:func:`t5_recorded`,
:func:`alibi_recorded`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric, relative, symbolic
from pe._machine_dependent import measured
from pe._tolerance import (
    EPS64,
    FREQUENCY_ROUNDING,
    Tolerance,
    exponential_rounding,
    gamma,
)
from pe.chapters import recorded
from pe.claims import (
    Candidate,
    Chapter,
    Check,
    Evidence,
    at_most,
    by_proof,
    checked,
    within,
)
from pe.relative import (
    EXTENSION,
    BucketFunction,
    alibi_slope_exponents,
    extension_reach,
    identical_token_rounding,
    identical_token_scores,
    interpolated_end,
    ntk_scaled_base,
    t5_bucket_properties,
    toeplitz_deviation,
)
from pe.symbolic import Derivation, Proof, symbolic_vector, to_latex

chapter = Chapter(__name__, follows="rope")
claim = chapter.claim


def _pair_span(pairs: npt.NDArray[np.int64]) -> str:
    return f"{pairs[0]}..{pairs[-1]}" if pairs.size else "none"


#: Absolute schemes, for the claim that relative ones give scores depending on n - m only.
LEARNED_ABSOLUTE = Candidate("learned absolute", ("learned absolute",))
SINUSOIDAL_ADDED = Candidate("sinusoidal (added)", ("sinusoidal (added)",))

#: Schemes whose scores on a repeated token depend only on n - m.
RELATIVE_SCHEMES = ("rope", "shaw", "transformer-xl", "t5", "alibi")


def _toeplitz(schemes: Sequence[str]) -> Evidence:
    devs = {s: toeplitz_deviation(identical_token_scores(s)) for s in schemes}
    # every scheme's deviation over its own rounding bound (the relative schemes' model)
    ratios = {s: v / identical_token_rounding(s) for s, v in devs.items()}
    return within(
        max(ratios.values()),
        Tolerance(
            1.0, r"2\gamma_{3d}\sum \lVert a\rVert \lVert b\rVert / \max|s| \text{ per scheme}"
        ),
        "one token repeated 12 times, d=16: largest spread along a diagonal / max|score|: "
        + ", ".join(
            f"{s} {measured(v, identical_token_rounding(s), '.2g')}" for s, v in devs.items()
        )
        + f"; worst spread / its rounding bound {measured(max(ratios.values()), 1.0, '.2g')}",
    )


#: Query and key positions and a shift of both (integers), one pair's frequency, Shaw's clip
#: and ALiBi's slope.
_M, _N, _T = sp.symbols("m n t", integer=True)
_OMEGA = sp.Symbol("omega", positive=True)
_CLIP = sp.Symbol("K", integer=True, positive=True)
_SLOPE = sp.Symbol("mu", positive=True)


def repeated_token_score(scheme: str, m: Any, n: Any) -> Any:
    r"""A head's score of query position ``m`` and key position ``n`` when every token is the
    same ``x``, by ``scheme``'s formula, for one pair of dimensions (a wider head sums pairs).

    With one token, :math:`q = W_q x` and :math:`\kappa = W_k x` are the same at every
    position and stay symbolic; so do the learned parts, as unspecified functions (Shaw's
    vectors :math:`a(\cdot)`, T5's bucketing and its bias per bucket). Transformer-XL's
    :math:`x^{\mathsf T} W_q^{\mathsf T} W_{k,R}` and :math:`v^{\mathsf T} W_{k,R}` are the
    symbolic rows ``g`` and ``h``, its :math:`u^{\mathsf T} W_{k,E} x` the symbol ``c``. For
    "sinusoidal (added)" the encoding is added to ``x`` before :math:`A = W_q^{\mathsf T} W_k`.
    """
    q, kappa = symbolic_vector("q", 2), symbolic_vector("kappa", 2)
    content = (q.T * kappa)[0]
    if scheme == "rope":
        return sp.expand(
            (q.T * symbolic.rotation(_OMEGA * m).T * symbolic.rotation(_OMEGA * n) * kappa)[0]
        )
    if scheme == "shaw":
        clipped = sp.Max(-_CLIP, sp.Min(_CLIP, n - m))
        return content + sum(q[j] * sp.Function(f"a_{j}")(clipped) for j in range(2))
    if scheme == "transformer-xl":
        g, h = symbolic_vector("g", 2), symbolic_vector("h", 2)
        return content + sp.Symbol("c") + ((g + h).T * symbolic.pair(m - n, _OMEGA))[0]
    if scheme == "t5":
        return content + sp.Function("b")(sp.Function("bucket")(n - m))
    if scheme == "alibi":
        return content - _SLOPE * sp.Abs(m - n)
    if scheme == "sinusoidal (added)":
        x, a = symbolic_vector("x", 2), sp.Matrix(2, 2, sp.symbols("A_:2:2", real=True))
        return ((x + symbolic.pair(m, _OMEGA)).T * a * (x + symbolic.pair(n, _OMEGA)))[0]
    raise ValueError(f"no symbolic score for the scheme {scheme!r:.40}")


def repeated_token_relative(schemes: Sequence[str]) -> Proof:
    r"""Prove that on a repeated token each scheme's score is unchanged when both positions
    move by ``t``: :math:`s(m + t, n + t) - s(m, n) = 0`, every other term symbolic
    (:func:`repeated_token_score`).

    The residual is expanded with the angle-addition formulas; the offset
    :math:`(n + t) - (m + t)` is ``n - m`` as SymPy writes it, so the learned parts cancel
    as they are. An absolute encoding leaves a residual with an exact counter-example.

    Examples
    --------
    >>> repeated_token_relative(("alibi", "t5")).holds
    True
    >>> repeated_token_relative(("sinusoidal (added)",)).holds
    False
    """
    derivation = Derivation()
    shifted = sp.Matrix(
        [
            repeated_token_score(s, _M + _T, _N + _T) - repeated_token_score(s, _M, _N)
            for s in schemes
        ]
    )
    derivation.note(
        "Residual, one entry per scheme (" + ", ".join(schemes) + "): the score with both "
        "positions moved by t, minus the score",
        to_latex(shifted),
    )
    residual = derivation.angle_addition(shifted, first="Expand the arguments, ω(m + t) → ωm + ωt")
    statement = (
        r"x_m = x\ \forall m \implies s(m + t, n + t) = s(m, n) \text{ for "
        + ", ".join(schemes)
        + "}"
    )
    return derivation.proof(
        "a repeated token's score moves with the offset only", statement, residual
    )


claim(
    "identical-tokens-relative",
    "On a repeated token, relative schemes give scores that depend only on $n - m$",
    Check(by_proof(repeated_token_relative), true=RELATIVE_SCHEMES, wrong=(SINUSOIDAL_ADDED,)),
    Check(_toeplitz, true=RELATIVE_SCHEMES, wrong=(LEARNED_ABSOLUTE, SINUSOIDAL_ADDED)),
    statement=(
        r"\begin{gathered}x_m = x\ \forall m \implies s(m + t, n + t) = s(m, n),"
        r" \text{ so } s_{mn} = f(n - m), \\"
        r" \text{for RoPE, Shaw, Transformer-XL, T5, ALiBi (SymPy, one pair of dimensions,"
        r" every weight} \\ \text{and learned part symbolic); not for added sinusoidal"
        r" encodings (an exact counter-example)} \\ \text{nor, with seeded random weights"
        r" (measured), for learned absolute ones}\end{gathered}"
    ),
)

#: The sequence length of the clipping check.
SHAW_LENGTH = 20

#: Shaw et al.'s clip as far as the check's sequence reaches: no clipping.
NO_CLIPPING = Candidate("no clipping", SHAW_LENGTH - 1)


def _shaw(clip: int) -> Evidence:
    n, k = SHAW_LENGTH, 3
    offsets = relative.shaw_offsets(n, clip)
    used = np.unique(offsets).size
    m_minus_n = np.subtract.outer(np.arange(n), np.arange(n))
    # both sides: keys K or more after the query use offset K, keys K or more before it -K
    far = bool(np.all(offsets[m_minus_n <= -k] == k) and np.all(offsets[m_minus_n >= k] == -k))
    toeplitz = toeplitz_deviation(offsets) == 0
    return checked(
        used == 2 * k + 1 and far and toeplitz,
        f"offsets clipped at {clip}, N={n} positions, against the page's K = {k}: {used} "
        f"distinct relative vectors used (2K+1 = {2 * k + 1}: "
        f"{'yes' if used == 2 * k + 1 else 'no'}); every |n - m| >= K uses the vector of offset "
        f"+-K on its side: {'yes' if far else 'no'}; depends only on n - m: "
        f"{'yes' if toeplitz else 'no'}",
    )


claim(
    "shaw-clipped-offsets",
    "Shaw et al. use $2K + 1$ relative vectors, the same beyond distance $K$",
    Check(_shaw, true=3, wrong=(NO_CLIPPING,)),
    statement=(
        r"a_{mn} = a^K_{\mathrm{clip}(n - m, K)},\quad 2K + 1 \text{ distinct vectors per table}"
    ),
)

#: The four terms (a), (b), (c), (d) of the additive score.
FOUR_TERMS = ("a", "b", "c", "d")


def absolute_score_four_terms(candidate: Sequence[str] = FOUR_TERMS) -> Proof:
    r"""Prove :math:`(W_q(x_m + U_m))^{\mathsf T} W_k(x_n + U_n) = (a) + (b) + (c) + (d)`.

    With every entry symbolic (``d = 2``):
    (a) :math:`x_m^{\mathsf T} W_q^{\mathsf T} W_k x_n`, (b) :math:`x_m^{\mathsf T} W_q^{\mathsf T} W_k U_n`,
    (c) :math:`U_m^{\mathsf T} W_q^{\mathsf T} W_k x_n`, (d) :math:`U_m^{\mathsf T} W_q^{\mathsf T} W_k U_n`.
    Transformer-XL replaces :math:`U_n` by a sinusoid :math:`R_{m-n}` (with its own
    :math:`W_{k,R}`) and the query-side :math:`U_m^{\mathsf T} W_q^{\mathsf T}` by learned ``u``, ``v``.
    ``candidate`` names the terms summed on the right (:data:`FOUR_TERMS`; a wrong candidate
    leaves one out).
    """
    wq = sp.Matrix(2, 2, sp.symbols("a_0:4", real=True))
    wk = sp.Matrix(2, 2, sp.symbols("b_0:4", real=True))
    e_m, e_n, u_m, u_n = (symbolic_vector(name, 2) for name in ("x_m", "x_n", "U_m", "U_n"))
    terms = {
        "a": e_m.T * wq.T * wk * e_n,
        "b": e_m.T * wq.T * wk * u_n,
        "c": u_m.T * wq.T * wk * e_n,
        "d": u_m.T * wq.T * wk * u_n,
    }
    if not set(candidate) <= set(terms):
        raise ValueError(f"terms must be among a, b, c, d, got {candidate!r:.20}")
    kept = [terms[name] for name in candidate]
    total = sum(kept[1:], start=kept[0])
    left = (wq * (e_m + u_m)).T * (wk * (e_n + u_n))
    derivation = Derivation()
    derivation.note(
        "Residual: the score minus the sum of the terms " + ", ".join(f"({n})" for n in candidate),
        r"(W_q(x_m + U_m))^{\mathsf T} W_k (x_n + U_n) - \sum \text{terms}",
    )
    residual = derivation.apply("Multiply out", left - total, sp.expand, calls=("expand",))
    statement = (
        r"\begin{gathered}(W_q(x_m + U_m))^{\mathsf T} W_k(x_n + U_n) = \\"
        r"\underbrace{x_m^{\mathsf T} W_q^{\mathsf T} W_k x_n}_{(a)}"
        r" + \underbrace{x_m^{\mathsf T} W_q^{\mathsf T} W_k U_n}_{(b)}"
        r" + \underbrace{U_m^{\mathsf T} W_q^{\mathsf T} W_k x_n}_{(c)}"
        r" + \underbrace{U_m^{\mathsf T} W_q^{\mathsf T} W_k U_n}_{(d)}\end{gathered}"
    )
    return derivation.proof("the additive score has four terms", statement, residual)


#: Transformer-XL's sum with term (c) missing.
TERM_C_LEFT_OUT = Candidate("term (c) left out", ("a", "b", "d"))


def _transformer_xl(terms: Sequence[str]) -> Evidence:
    """Transformer-XL's scores against the chosen terms of its formula, summed in a loop."""
    n, d = 9, 16
    rng = np.random.default_rng(5)
    x = rng.standard_normal((n, d))
    w_q, w_ke, w_kr = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    scores = relative.transformer_xl_scores(x, w_q, w_ke, w_kr, u=u, v=v)
    loop = relative.transformer_xl_terms(x, w_q, w_ke, w_kr, u=u, v=v, terms=tuple(terms))
    gap = float(np.abs(scores - loop).max())
    # both sum the same four dot products of length d (Cauchy-Schwarz bounds each term by the
    # norms of its vectors), in another order
    r = float(np.linalg.norm(w_kr)) * np.sqrt(d / 2)
    norms = np.linalg.norm(x, axis=1).max()
    q, k = norms * np.linalg.norm(w_q), norms * np.linalg.norm(w_ke)
    size = q * k + q * r + k * float(np.linalg.norm(u)) + r * float(np.linalg.norm(v))
    rounding = 2 * (gamma(3 * d) + 2 * EPS64) * float(size)
    return within(
        gap,
        Tolerance(rounding, r"2(\gamma_{3d} + 4u)\sum_{\text{terms}} \lVert a\rVert\lVert b\rVert"),
        f"n={n}, d={d}, random weights: pe.relative.transformer_xl_scores "
        f"against the terms ({', '.join(terms)}) summed entry by entry: max difference "
        f"{measured(gap, rounding, '.2g')} (tolerance {rounding:.2g})",
    )


claim(
    "transformer-xl-four-terms",
    "The additive score splits into four terms",
    Check(by_proof(absolute_score_four_terms), true=FOUR_TERMS, wrong=(TERM_C_LEFT_OUT,)),
    Check(_transformer_xl, true=FOUR_TERMS, wrong=(TERM_C_LEFT_OUT,)),
    statement=(
        r"\begin{gathered}(W_q(x_m + U_m))^{\mathsf T} W_k(x_n + U_n) = (a) + (b) + (c) + (d);"
        r" \\ \text{Transformer-XL: } A_{mn} = x_m^{\mathsf T} W_q^{\mathsf T} W_{k,E} x_n"
        r" + x_m^{\mathsf T} W_q^{\mathsf T} W_{k,R} R_{m-n} + u^{\mathsf T} W_{k,E} x_n"
        r" + v^{\mathsf T} W_{k,R} R_{m-n}\end{gathered}"
    ),
)

#: T5 bucketings ``(rel, *, bidirectional, num_buckets, max_distance) -> buckets``.
UNCAPPED_BUCKETS = Candidate(
    "no cap at the last bucket",
    lambda rel, *, num_buckets, max_distance, **kw: relative.t5_bucket(
        rel, num_buckets=4 * num_buckets, max_distance=16 * max_distance, **kw
    ),
)
DIRECTION_FORGOTTEN = Candidate(
    "direction forgotten", lambda rel, **kw: relative.t5_bucket(-np.abs(np.asarray(rel)), **kw)
)


def _t5(bucket: BucketFunction) -> Evidence:
    results = [
        t5_bucket_properties(bucket, bidirectional=b, num_buckets=nb, max_distance=md)
        for b in (True, False)
        for nb, md in ((32, 128), (16, 64))
    ]
    return checked(all(ok for ok, _ in results), "; ".join(t for _, t in results))


#: T5's buckets as transformers computes them (``T5Attention._relative_position_bucket``),
#: recorded by ``tests/real_code/record.py`` with the versions it names.
T5_RECORDING = "t5_buckets.json"


def t5_recorded() -> dict[str, Any]:
    """The recording: ``versions`` and, per setting, ``bidirectional``, ``num_buckets``,
    ``max_distance``, the ``first`` relative position and the ``buckets`` from there on."""
    return recorded(T5_RECORDING)


def _t5_recorded(bucket: BucketFunction) -> Evidence:
    """The bucketing against transformers' own, recorded, at every position of each setting."""
    recording = t5_recorded()
    mismatches, total = 0, 0
    for setting in recording["settings"]:
        expected = np.array(setting["buckets"])
        rel = setting["first"] + np.arange(expected.size)
        got = bucket(
            rel,
            bidirectional=setting["bidirectional"],
            num_buckets=setting["num_buckets"],
            max_distance=setting["max_distance"],
        )
        mismatches += int(np.count_nonzero(np.asarray(got) != expected))
        total += expected.size
    versions = ", ".join(f"{k} {v}" for k, v in recording["versions"].items())
    return checked(
        mismatches == 0,
        f"against transformers' T5Attention._relative_position_bucket ({versions}), "
        f"{len(recording['settings'])} settings (B, D) = (32, 128), (16, 64), (64, 1000) both "
        f"ways, every r in [-3D, 3D]: {mismatches} of {total} buckets differ",
    )


_BUCKETINGS = (UNCAPPED_BUCKETS, DIRECTION_FORGOTTEN)

claim(
    "t5-buckets",
    "T5's buckets: exact near 0, logarithmic, capped, one side per direction",
    Check(_t5, true=relative.t5_bucket, wrong=_BUCKETINGS),
    Check(_t5_recorded, true=relative.t5_bucket, wrong=_BUCKETINGS),
    statement=(
        r"\begin{gathered}\text{on each side of the query, } r = n - m \le 0 \text{ and"
        r" (bidirectional) } r > 0: \\ \mathrm{bucket}(r) = |r| \text{ (+ } B/2 \text{ for"
        r" } r > 0\text{) for } |r| < \text{max\_exact};\quad \mathrm{bucket}"
        r" \text{ non-decreasing in } |r|; \\ \mathrm{bucket}(r) = \text{the side's last bucket"
        r" for } |r| \ge \text{max\_distance};\quad \text{the two sides' buckets disjoint} \\"
        r" \text{(max\_exact: half a side's buckets; checked at } (B, \text{max\_distance}) ="
        r" (32, 128), (16, 64) \text{, and T5's recorded buckets)}\end{gathered}"
    ),
)

#: ALiBi slopes ``H -> mu_h`` halving per head.
HALVING_SLOPES = Candidate("2^(-h)", lambda h: 2.0 ** -np.arange(1, h + 1, dtype=np.float64))
#: ALiBi slopes read as :math:`2^{-8h/H}` for every head count (the page's old statement;
#: the paper's rule only for ``H`` a power of two).
GEOMETRIC_SLOPES = Candidate(
    "2^(-8h/H) for every H", lambda h: np.exp2(-8.0 * np.arange(1, h + 1) / h)
)

#: The head counts the ALiBi check runs: every ``H`` from 1 to 64 (powers of two and the
#: rest: the counts of common models, 12, 20, 40, ..., among them).
ALIBI_HEADS = range(1, 65)


def _alibi(slopes: Callable[[int], npt.NDArray[np.float64]]) -> Evidence:
    r"""Slopes for every ``H`` of :data:`ALIBI_HEADS` against the paper's rule, and the bias.

    Error model: every exponent :math:`8h/P` or :math:`4(2j-1)/P` (``P`` a power of two) is
    exact in float64, and ``exp2`` is within :data:`pe._tolerance.ELEMENTARY_ULPS`; the
    exact value :math:`2^{-e}` is rounded once more to float64 to compare: relative
    :math:`\varepsilon + u`. The paper's published sequences for 8 and 16 heads
    (:math:`2^{-1}, \dots, 2^{-8}`; :math:`2^{-1/2}, \dots, 2^{-8}`) are checked the same way.
    """
    worst, where = 0.0, ALIBI_HEADS[0]
    for heads in ALIBI_HEADS:
        got = np.asarray(slopes(heads), dtype=np.float64)
        want = np.array([2.0 ** -float(e) for e in alibi_slope_exponents(heads)])
        if got.shape != want.shape:
            return checked(False, f"H={heads}: {got.size} slopes for {heads} heads")
        gap = float(np.abs(got / want - 1.0).max())
        if gap > worst:
            worst, where = gap, heads
    published = {8: np.exp2(-np.arange(1, 9.0)), 16: np.exp2(-np.arange(1, 17.0) / 2)}
    paper_gap = max(float(np.abs(slopes(h) / m - 1.0).max()) for h, m in published.items())
    bias = relative.alibi_bias(10, float(slopes(16)[0]))
    decreasing = bool(np.all(np.diff(bias[-1, :][::-1]) < 0))
    # geometric: equal steps between the candidate's log2 slopes, to far above their
    # rounding (the steps of a geometric H-head sequence are 8/H >= 1/8 apart from those of
    # an interleaved one); a single head counts as geometric
    geometric = []
    for h in ALIBI_HEADS:
        steps = np.diff(np.log2(np.asarray(slopes(h), dtype=np.float64)))
        if steps.size == 0 or float(np.abs(steps - steps[0]).max()) <= 1e-9:
            geometric.append(h)
    powers = [h for h in ALIBI_HEADS if h & (h - 1) == 0]
    rounding = exponential_rounding(0.0, 0) + EPS64 / 2
    return checked(
        toeplitz_deviation(bias) == 0 and decreasing and geometric == powers,
        f"H = 1..{ALIBI_HEADS[-1]}: max |mu_h / 2^(-e_h) - 1| = {worst:.2g} (at H={where}); "
        f"the paper's sequences for H = 8 and 16: {paper_gap:.2g}; H=12: "
        f"{np.round(slopes(12), 4).tolist()}; bias -mu_h (m - n) depends only on m - n and falls "
        f"with distance: {'yes' if decreasing else 'no'}; these slopes are geometric for "
        + (
            f"every H = 1..{ALIBI_HEADS[-1]}"
            if len(geometric) == len(ALIBI_HEADS)
            else f"H = {geometric} only"
        )
        + f" (the powers of two only: {'yes' if geometric == powers else 'no'})",
        error=max(worst, paper_gap),
        tolerance=Tolerance(rounding, r"\varepsilon + u \text{ (relative)}"),
    )


#: ALiBi's slopes as transformers' BLOOM computes them (``build_alibi_tensor``, its port of
#: the authors' ``get_slopes``) for every head count 1..64, recorded by
#: ``tests/real_code/record.py`` with the versions it names.
ALIBI_RECORDING = "alibi_slopes.json"

#: Relative ulps allowed for a float32 power (``torch.pow``) beyond the rounding of its base.
_POW_ULPS = 4


def alibi_recorded() -> dict[str, Any]:
    """The recording: ``versions``, ``what`` was run and ``slopes`` per head count (``"12"``)."""
    return recorded(ALIBI_RECORDING)


def _alibi_recorded(slopes: Callable[[int], npt.NDArray[np.float64]]) -> Evidence:
    r"""The slopes for every recorded ``H`` against BLOOM's own, in head order.

    Error model: BLOOM rounds its base :math:`2^{-8/P}` (or :math:`2^{-4/P}`) to float32,
    relative :math:`u_{32}`, and raises it to an integer power :math:`n < 2H` in float32, which
    multiplies that error by :math:`n` and adds the power's own rounding (allowed
    :data:`_POW_ULPS` ulps): relative :math:`2H u_{32} + 4\varepsilon_{32}` per ``H``, plus
    the float64 rounding of ``slopes`` (:math:`\varepsilon + u`, negligible). The check
    reports the worst ratio of error to that bound over every head of every ``H``.
    """
    recording = alibi_recorded()
    eps32 = float(np.finfo(np.float32).eps)
    worst, where = 0.0, 0
    for heads, bloom in recording["slopes"].items():
        want = np.array(bloom, dtype=np.float64)
        got = np.asarray(slopes(int(heads)), dtype=np.float64)
        if got.shape != want.shape:
            return checked(False, f"H={heads}: {got.size} slopes, BLOOM has {want.size}")
        bound = 2 * int(heads) * eps32 / 2 + _POW_ULPS * eps32 + 2 * EPS64
        ratio = float(np.abs(got / want - 1.0).max()) / bound
        if ratio > worst:
            worst, where = ratio, int(heads)
    versions = ", ".join(f"{k} {v}" for k, v in recording["versions"].items())
    return checked(
        True,
        f"against transformers' BLOOM build_alibi_tensor ({versions}), every H = 1.."
        f"{len(recording['slopes'])}, each head: worst |mu_h / BLOOM - 1| is {worst:.2g} of "
        f"the float32 bound 2H u32 + {_POW_ULPS} eps32 (at H={where})",
        error=worst,
        tolerance=Tolerance(1.0, r"2H u_{32} + 4\varepsilon_{32} \text{ (relative, per } H)"),
    )


claim(
    "alibi-slopes",
    "ALiBi's slopes: geometric for a power-of-two head count, interleaved otherwise",
    Check(_alibi, true=relative.alibi_slopes, wrong=(GEOMETRIC_SLOPES, HALVING_SLOPES)),
    Check(_alibi_recorded, true=relative.alibi_slopes, wrong=(GEOMETRIC_SLOPES, HALVING_SLOPES)),
    statement=(
        r"\begin{gathered}P = 2^{\lfloor \log_2 H \rfloor}:\quad \mu_h = 2^{-8h/P}\ (h \le P),"
        r"\quad \mu_{P+j} = 2^{-4(2j-1)/P}\ (1 \le j \le H - P); \\ \text{geometric exactly"
        r" when } H = P;\quad b_{mn} = -\mu_h\,(m - n),\ n \le m\end{gathered}"
    ),
)


@dataclass(frozen=True)
class Mask:
    """Which keys a query sees when every score is equal: ``visible(i, L)`` of ``L`` keys.

    Examples
    --------
    >>> CAUSAL.visible(4, 10)
    5
    """

    description: str
    visible: Callable[[Any, Any], Any]


#: The causal mask: the query at ``i`` sees the keys ``0 .. i``.
CAUSAL = Mask("causal mask: mean of the first m + 1 values", lambda m, _length: m + 1)


def causal_mean_counts_position(candidate: Mask = CAUSAL) -> Proof:
    r"""Prove that equal-score causal attention tells position ``m`` from ``m + 1``.

    A first token with value :math:`v_0` followed by copies of ``v``: with a causal mask the
    output at ``m`` is :math:`o_m = (v_0 + m v)/(m + 1)` and

    .. math::

        o_m - o_{m+1} = \frac{v_0 - v}{(m + 1)(m + 2)} \ne 0 \quad (v_0 \ne v).

    ``candidate`` says how many of the ``L`` keys position ``m`` sees (:data:`CAUSAL`).
    Without the mask (the wrong candidate) every output is the mean of the whole sequence
    and the same difference is 0, not the formula.
    """
    i = sp.Symbol("m", integer=True, nonnegative=True)
    length = sp.Symbol("L", integer=True, positive=True)
    v0, v = sp.symbols("v_0 v", real=True)

    def output(position: Any) -> Any:
        seen = candidate.visible(position, length)
        return (v0 + (seen - 1) * v) / seen

    claimed = (v0 - v) / ((i + 1) * (i + 2))
    derivation = Derivation()
    derivation.note(
        f"Outputs at m and m + 1 ({candidate.description})",
        rf"o_m = {sp.latex(output(i))},\quad o_{{m+1}} = {sp.latex(output(i + 1))}",
    )
    residual = sp.Matrix([output(i) - output(i + 1) - claimed])
    derivation.note("Residual o_m − o_(m+1) − (v_0 − v)/((m+1)(m+2))", sp.latex(residual[0]))
    residual = derivation.apply(
        "Put over one denominator and cancel", residual, sp.cancel, calls=("cancel",)
    )
    statement = r"o_m - o_{m+1} = \frac{v_0 - v}{(m+1)(m+2)},\quad o_m = \frac{v_0 + m\,v}{m+1}"
    return derivation.proof("causal attention counts positions", statement, residual)


#: Equal-score attention without the causal mask: as a proof's mask and as a measurement.
NO_CAUSAL_MASK = Candidate("no causal mask", Mask("no mask: mean of all L values", lambda _i, n: n))
UNMASKED_MEAN = Candidate("no causal mask", partial(relative.causal_mean_attention, causal=False))


def _nope(attention: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]) -> Evidence:
    v0, v, n = 1.0, 0.0, 4096
    values = np.full(n, v)
    values[0] = v0
    out = attention(values)
    i = np.arange(n)
    gap = float(np.abs(out - (v0 + i * v) / (i + 1)).max())
    distinct = np.unique(out).size
    # a mean of i + 1 values in [0, 1] and the quotient it is compared with
    rounding = gamma(n) + EPS64
    return checked(
        distinct == n,
        f"first value 1 then 0, n={n}: max|o_m - (v0 + m v)/(m+1)| = {gap:.2g}; "
        f"{distinct} distinct outputs for {n} positions",
        error=gap,
        tolerance=Tolerance(rounding, r"\gamma_n + \varepsilon"),
    )


claim(
    "nope-causal-position",
    "With a causal mask, equal scores still reveal the position",
    Check(by_proof(causal_mean_counts_position), true=CAUSAL, wrong=(NO_CAUSAL_MASK,)),
    Check(_nope, true=relative.causal_mean_attention, wrong=(UNMASKED_MEAN,)),
    statement=(
        r"o_m = \frac{v_0 + m\,v}{m + 1},\quad o_m - o_{m+1} = \frac{v_0 - v}{(m+1)(m+2)}"
        r" \ne 0 \text{ when } v_0 \ne v"
    ),
)

#: Context extensions ``(n, d, s) -> angles``: none at all, and NTK-aware base scaling read
#: as keeping every angle inside the trained window (it does not).
NO_INTERPOLATION = Candidate(
    "no interpolation", lambda n, d, _s: relative.position_interpolation(n, d, 1.0)
)
NTK_IN_RANGE = Candidate("NTK-aware base scaling", relative.base_scaling)


def _interpolation(method: relative.Extension) -> Evidence:
    r"""Every pair's largest angle against :math:`(L - 1/s)\,\omega_i`, the interpolated end.

    Error model: :func:`extension_reach` divides the largest angle :math:`(p/s)\,\omega_i`
    (a quotient and a product, :math:`2u`) by :math:`(L-1)\,\omega_i` (a product and the
    quotient, :math:`2u`): the excess is within :math:`\gamma_4` of its exact value.
    """
    d, trained, s = EXTENSION
    reach = extension_reach(method, d, trained, s)
    allowed = (1.0 - 1.0 / s) / (trained - 1)
    return at_most(
        float(reach.excess.max()),
        allowed,
        Tolerance(gamma(4), r"\gamma_4"),
        f"positions 0..{round(s * trained) - 1}, d={d}, trained on 0..{trained - 1}: largest "
        f"max_p angle / ((L-1) w_i) - 1 over the pairs {reach.excess.max():.3g}, allowed "
        f"(1 - 1/s)/(L - 1) = {allowed:.3g}; pairs past (L-1) w_i: "
        f"{_pair_span(np.flatnonzero(reach.excess > 0))}",
    )


#: The largest interpolated position ``(L, s) -> max p/s`` a statement names: the old
#: wording "inside the trained range" (``L - 1``), and the old check's boundary ``L``.
INSIDE_TRAINED_RANGE = Candidate("inside the trained range: (L-1) w_i", lambda n, _s: n - 1)
TRAINED_LENGTH_BOUNDARY = Candidate("up to L w_i", lambda n, _s: n)


def interpolation_reach(end: Callable[[Any, Any], Any]) -> Proof:
    r"""Prove, for every :math:`L`, :math:`s` and pair, where interpolation's largest angle lies.

    Positions :math:`0 \le p \le sL - 1` divided by :math:`s` end at :math:`(sL - 1)/s`,
    which ``end(L, s)`` must equal, and the angle there passes the largest trained one,
    :math:`(L-1)\,\omega_i`, by :math:`(1 - 1/s)\,\omega_i`, less than one step.

    Examples
    --------
    >>> interpolation_reach(interpolated_end).holds
    True
    >>> interpolation_reach(lambda n, _s: n - 1).holds
    False
    """
    trained, scale, omega = sp.symbols("L s omega_i", positive=True)
    stated = end(trained, scale)
    derivation = Derivation()
    residual = sp.Matrix(
        [
            (scale * trained - 1) / scale * omega - stated * omega,
            stated * omega - (trained - 1) * omega - (1 - 1 / scale) * omega,
        ]
    )
    derivation.note(
        "Residuals: the largest angle against the stated end, and its excess over (L-1) w_i",
        sp.latex(residual),
        residual,
    )
    residual = derivation.apply("Put over one denominator", residual, sp.together)
    residual = derivation.apply("Cancel common factors", residual, sp.cancel)
    return derivation.proof(
        "interpolation's largest angle",
        r"\tfrac{sL-1}{s}\,\omega_i = \bigl(L - \tfrac1s\bigr)\,\omega_i"
        r" = (L-1)\,\omega_i + \bigl(1 - \tfrac1s\bigr)\,\omega_i",
        residual,
    )


def _interpolated_end(end: Callable[[int, float], float]) -> Evidence:
    r"""The largest angle of every pair divided by its frequency, against ``end(L, s)``.

    Error model: :math:`((p/s)\,\omega_i)/\omega_i` carries three roundings (the quotient
    ``p/s``, the product, the quotient), and ``L - 1/s`` one: relative :math:`\gamma_4`.
    """
    d, trained, s = EXTENSION
    angles = relative.position_interpolation(round(s * trained), d, s)
    reached = angles.max(axis=0) / numeric.frequencies(d)
    claimed = end(trained, s)
    gap = float(np.abs(reached / claimed - 1.0).max())
    return within(
        gap,
        Tolerance(gamma(4), r"\gamma_4 \text{ (relative)}"),
        f"d={d}, L={trained}, s={s:g}: max_p (p/s) w_i / w_i = {reached.min():.6g} to "
        f"{reached.max():.6g} over the {d // 2} pairs; stated {claimed:.6g} (the largest "
        f"trained position is {trained - 1}): relative gap {gap:.2g}",
    )


claim(
    "position-interpolation-range",
    "Position interpolation stays within one step of the trained angles",
    Check(
        _interpolation,
        true=relative.position_interpolation,
        wrong=(NO_INTERPOLATION, NTK_IN_RANGE),
    ),
    Check(
        by_proof(interpolation_reach),
        true=interpolated_end,
        wrong=(INSIDE_TRAINED_RANGE, TRAINED_LENGTH_BOUNDARY),
    ),
    Check(
        _interpolated_end,
        true=interpolated_end,
        wrong=(INSIDE_TRAINED_RANGE, TRAINED_LENGTH_BOUNDARY),
    ),
    statement=(
        r"\begin{gathered}0 \le p \le sL - 1 \implies \tfrac{p}{s}\,\omega_i \le"
        r" \bigl(L - \tfrac1s\bigr)\,\omega_i = (L-1)\,\omega_i + \bigl(1 - \tfrac1s\bigr)\,"
        r"\omega_i \\ \text{for every pair } i: \text{ past the largest trained angle by"
        r" less than one step } \omega_i\end{gathered}"
    ),
)


def ntk_frequencies(candidate: Callable[[Any, Any, Any], Any] = ntk_scaled_base) -> Proof:
    r"""Prove that :math:`b' = b\,s^{d/(d-2)}` divides :math:`\omega_i` by :math:`s^{2i/(d-2)}`, every ``i``.

    :math:`\omega'_i = b'^{-2i/d}`; the residual stacks :math:`\omega'_i - \omega_i
    s^{-2i/(d-2)}` for a symbolic pair ``i``, and the two ends :math:`\omega'_0 - 1` and
    :math:`\omega'_{d/2-1} - \omega_{d/2-1}/s`, with ``b``, ``s``, ``d`` symbolic (``d``
    even and above 2, ``b`` and ``s`` above 1; a counterexample is drawn from there).
    The factor :math:`s^{2i/(d-2)}` grows with ``i`` from 1 to ``s``: every pair in between is
    slowed by a factor in between. ``candidate(b, s, d)`` is the scaled base
    (:func:`ntk_scaled_base`; a wrong candidate: plain base scaling :math:`b' = b\,s`).
    """
    b, s = sp.symbols("b s", positive=True)
    d = sp.Symbol("d", integer=True, positive=True)
    i = sp.Symbol("i", integer=True, nonnegative=True)
    # the page's domain: an even width with at least two pairs, a pair of it, a base and
    # a stretch above 1
    domain = (sp.Eq(sp.Mod(d, 2), 0), d > 2, i < d / 2, b > 1, s > 1)
    scaled = candidate(b, s, d)

    def omega(base: Any, index: Any) -> Any:
        return base ** (-2 * index / d)

    last = (d - 2) / 2
    derivation = Derivation()
    derivation.note(
        "Scaled base; every frequency and the two ends",
        rf"b' = {sp.latex(scaled)},\quad \omega'_i = b'^{{-2i/d}},\quad \omega'_0 = b'^{{0}},"
        rf"\quad \omega'_{{d/2-1}} = b'^{{-(d-2)/d}}",
    )
    residual = sp.Matrix(
        [
            omega(scaled, i) - omega(b, i) * s ** (-2 * i / (d - 2)),
            omega(scaled, 0) - 1,
            omega(scaled, last) - omega(b, last) / s,
        ]
    )
    residual = derivation.apply(
        "Split the power of a product and multiply exponents (expand_power_base, powdenest)",
        residual,
        lambda e: sp.powdenest(sp.expand_power_base(e, force=True), force=True),
    )
    residual = derivation.apply(
        "Combine powers of one base and cancel their exponents",
        residual,
        lambda e: sp.powsimp(e).replace(
            lambda x: x.is_Pow, lambda x: sp.Pow(x.base, sp.cancel(x.exp))
        ),
        calls=("powsimp", "cancel"),
    )
    residual = derivation.apply("Collect terms", residual, sp.expand, calls=("expand",))
    statement = (
        r"b' = b\,s^{d/(d-2)} \implies \omega'_i = \omega_i\,s^{-2i/(d-2)} \text{ for every pair } i:"
        r"\quad \omega'_0 = \omega_0,\quad \omega'_{d/2-1} = \omega_{d/2-1} / s"
    )
    return derivation.proof("NTK-aware base scaling", statement, residual, where=domain)


#: Plain base scaling ``(b, s, d) -> b s``.
PLAIN_BASE_SCALING = Candidate("b' = b s", lambda b, s, _d: b * s)


def _ntk(scaled_base: Callable[[float, float, int], float]) -> Evidence:
    d, s = 128, 8.0
    old, new = numeric.frequencies(d), numeric.frequencies(d, scaled_base(10000.0, s, d))
    factor = old / new
    law = s ** (2 * np.arange(d // 2) / (d - 2))
    gap = float(np.abs(factor / law - 1.0).max())
    rising = bool(np.all(np.diff(factor) > 0))
    # relative errors: both frequency tables, the scaled base's power (carried through
    # exponents of size <= 1), the law's power, and the two quotients
    log_s = float(np.log(s))
    rounding = (
        2 * FREQUENCY_ROUNDING
        + exponential_rounding(log_s * d / (d - 2), 2)
        + exponential_rounding(log_s, 2)
        + 2 * EPS64
    )
    return checked(
        rising,
        f"d={d}, s={s:g}, all {d // 2} pairs: max |(w_i / w'_i) / s^(2i/(d-2)) - 1| = "
        f"{gap:.2g} (tolerance {rounding:.2g}); factors rise from {factor[0]:.6g} to "
        f"{factor[-1]:.6g}: {'yes' if rising else 'no'}",
        error=gap,
        tolerance=Tolerance(
            rounding, r"2r_\omega + r_{b'} + r_{s} + 2\varepsilon \text{ (relative)}"
        ),
    )


claim(
    "ntk-base-scaling",
    "NTK-aware scaling slows pair $i$ by $s^{2i/(d-2)}$: the fastest not at all, the slowest by $s$",
    Check(by_proof(ntk_frequencies), true=ntk_scaled_base, wrong=(PLAIN_BASE_SCALING,)),
    Check(_ntk, true=relative.ntk_base, wrong=(PLAIN_BASE_SCALING,)),
)

#: The pairs NTK scaling takes past the trained angles, with the excess in percent (two
#: significant digits): none (the statement "without unseen angles"), or 41 to 62 with the
#: slowest pair inside (the page's old statement, measured against :math:`L\,\omega_i`).
NO_UNSEEN_PAIRS = Candidate("no pair beyond the trained angles", (range(0), (0.0, 0.0)))
SLOWEST_PAIR_INSIDE = Candidate("pairs 41 to 62, the slowest inside", (range(41, 63), (2.3, 62.0)))


def _ntk_unseen(stated: tuple[range, tuple[float, float]]) -> Evidence:
    r"""The pairs NTK scaling takes past :math:`(L-1)\,\omega_i`, and their excess, against ``stated``.

    The pairs and the percentages (two significant digits) are compared exactly; the
    excesses are within :math:`\gamma_4` of their exact values (:func:`_interpolation`),
    far from a rounding boundary of the digits shown.
    """
    d, trained, s = EXTENSION
    reach = extension_reach(relative.base_scaling, d, trained, s)
    unseen = reach.unseen
    pairs, (low, high) = stated
    percent = [float(f"{100 * x:.2g}") for x in reach.excess[unseen]]
    span = (min(percent), max(percent)) if percent else (0.0, 0.0)
    past = np.flatnonzero(reach.excess > 0)
    return checked(
        unseen.tolist() == list(pairs) and span == (low, high),
        f"d={d}, L={trained}, s={s:g}, b' = b s^(d/(d-2)): pairs past (L-1) w_i: "
        f"{_pair_span(past)}; of them, pairs that never turn in training: "
        f"{_pair_span(unseen)}, by {span[0]:g}% to {span[1]:g}% (stated: "
        f"{_pair_span(np.array(pairs))}, {low:g}% to {high:g}%)",
    )


#: The pairs NTK scaling takes past the trained angles in the page's example, with the
#: excess in percent (the statement of ``ntk-unseen-angles``).
NTK_UNSEEN = (range(41, 64), (0.037, 62.0))

claim(
    "ntk-unseen-angles",
    "NTK-aware scaling takes every slow pair past its trained angles, the slowest too",
    Check(_ntk_unseen, true=NTK_UNSEEN, wrong=(NO_UNSEEN_PAIRS, SLOWEST_PAIR_INSIDE)),
    statement=(
        r"\begin{gathered}d = 128,\ L = 2048,\ s = 4,\ b' = b\,s^{d/(d-2)}:\ "
        r"(L-1)\,\omega_i < 2\pi \text{ and } \max_{p < sL} p\,\omega'_i > (L-1)\,\omega_i"
        r" \\ \text{exactly for } i = 41, \dots, 63, \text{ by } 0.037\,\% \text{ to }"
        r" 62\,\% \text{ of } (L-1)\,\omega_i\end{gathered}"
    ),
)

claim(
    "shaw-reported",
    "Shaw et al.: the clipped relative score, and 1.3 and 0.3 BLEU over absolute positions",
    statement=(
        r"\begin{gathered}e_{mn} = (W_q x_m)^{\mathsf T}(W_k x_n + a^K_{\mathrm{clip}(n-m,K)})"
        r" / \sqrt d \text{ (the paper's } i, j \text{ written } m, n\text{)}; \\ \text{WMT 2014: +1.3 BLEU (English-German), +0.3 BLEU"
        r" (English-French) over absolute positions; no further gain from both}\end{gathered}"
    ),
    source="shaw2018",
)

claim(
    "nope-reported",
    "Haviv et al.: causal language models without positional encoding learn position",
    statement=(
        r"\text{Causal language models without positional encoding are competitive, and"
        r" probes recover absolute position from their hidden states}"
    ),
    source="haviv2022",
)

claim(
    "nope-length-generalisation-reported",
    "Kazemnejad et al.: no positional encoding generalised to longer inputs on their tasks",
    statement=(
        r"\text{Decoder-only models without positional encoding generalised to longer inputs"
        r" than the encodings compared, on their reasoning and arithmetic tasks}"
    ),
    source="kazemnejad2023",
)

claim(
    "transformer-xl-reported",
    "Dai et al.: dependencies 80% and 450% longer, evaluation up to 1,800 times faster",
    statement=(
        r"\text{Transformer-XL learns dependencies about 80\% longer than RNNs and 450\%"
        r" longer than vanilla Transformers; evaluation up to 1,800+ times faster}"
    ),
    source="dai2019",
)


@dataclass(frozen=True)
class T5Layout:
    """What a statement says T5 keeps: its buckets, their maximum distance, whether one
    table of scalars serves every layer, and whether each head has its own column."""

    num_buckets: int
    max_distance: int
    shared_across_layers: bool
    per_head: bool


#: The statement of the claim below, and its neighbours a reader might believe.
T5_STATED = T5Layout(32, 128, shared_across_layers=True, per_head=True)
T5_TABLE_PER_LAYER = Candidate("a bias table in every layer", T5Layout(32, 128, False, True))
T5_WIDER_BUCKETS = Candidate("64 buckets up to offset 256", T5Layout(64, 256, True, True))
T5_ONE_FOR_ALL_HEADS = Candidate(
    "one scalar per bucket for all heads", T5Layout(32, 128, True, False)
)


def _t5_layout(stated: T5Layout) -> Evidence:
    """A stated layout against what transformers' T5 keeps (recorded)."""
    found = t5_recorded()["layout"]
    kept = T5Layout(
        found["num_buckets"],
        found["max_distance"],
        shared_across_layers=found["blocks_with_bias"] == [0],
        per_head=found["bias_shape"] == [found["num_buckets"], found["heads"]],
    )
    return checked(
        stated == kept,
        f"transformers' T5 (recorded): {kept.num_buckets} buckets up to offset "
        f"{kept.max_distance}; in a {found['blocks']}-block stack of {found['heads']} heads, "
        f"blocks {found['blocks_with_bias']} hold a bias table of shape "
        f"{tuple(found['bias_shape'])} (the others use block 0's)",
    )


def last_bucket_starts() -> tuple[int, int, int]:
    """The smallest distance in T5's last bucket on each side, at 32 buckets and
    max_distance 128, read from transformers' recorded buckets: (encoder, a key after the
    query; encoder, a key before it; decoder, a key before it)."""
    found = []
    for bidirectional, after in ((True, True), (True, False), (False, False)):
        setting = next(
            s
            for s in t5_recorded()["settings"]
            if (s["bidirectional"], s["num_buckets"], s["max_distance"]) == (bidirectional, 32, 128)
        )
        buckets = np.array(setting["buckets"])
        offsets = np.arange(setting["first"], setting["first"] + buckets.size)
        side = offsets > 0 if after else offsets < 0
        last = buckets[side].max()
        found.append(int(np.abs(offsets[side][buckets[side] == last]).min()))
    return found[0], found[1], found[2]


#: Where T5's last bucket begins (encoder, decoder); the tempting reading: at max_distance.
T5_LAST_BUCKET_AT_128 = Candidate("the last bucket begins at offset 128", (128, 128))


def _last_bucket(stated: tuple[int, int]) -> Evidence:
    after, before, decoder = last_bucket_starts()
    return checked(
        (after, before, decoder) == (stated[0], stated[0], stated[1]),
        f"transformers' T5 buckets (recorded), 32 buckets, max_distance 128: the last bucket "
        f"begins at distance {after} after the query and {before} before it (encoder) and "
        f"{decoder} before it (decoder); stated {tuple(stated)}",
    )


claim(
    "t5-bias-settings",
    "T5: one scalar per bucket and head, shared across layers; 32 buckets up to offset 128",
    Check(
        _t5_layout,
        true=T5_STATED,
        wrong=(T5_TABLE_PER_LAYER, T5_WIDER_BUCKETS, T5_ONE_FOR_ALL_HEADS),
    ),
    Check(_last_bucket, true=(91, 113), wrong=(T5_LAST_BUCKET_AT_128,)),
    statement=(
        r"\begin{gathered}\text{T5: a learned scalar per bucket, one table per head, shared"
        r" across layers;} \\ \text{32 buckets, max\_distance 128: every offset from 128 on in"
        r" the last bucket,} \\ \text{which the logarithmic steps reach at distance 91"
        r" (encoder) and 113 (decoder)}\end{gathered}"
    ),
    source="raffel2020",
)

claim(
    "alibi-reported",
    "Press et al.: ALiBi trained on 1024 tokens matches sinusoidal trained on 2048",
    statement=(
        r"\text{1.3B parameters, trained on 1024 tokens, evaluated on 2048: the perplexity of a"
        r" sinusoidal model trained on 2048, 11\% faster, 11\% less memory}"
    ),
    source="press2022",
)

claim(
    "position-interpolation-reported",
    "Chen et al.: LLaMA 7B to 65B extended to 32768 positions within 1000 steps",
    statement=(
        r"\text{LLaMA 7B to 65B extended to context windows up to 32768 with at most 1000"
        r" fine-tuning steps; interpolation bound at least about 600 times smaller than"
        r" extrapolation's}"
    ),
    source="chen2023",
)

claim(
    "yarn-reported",
    "Peng et al.: NTK-aware scaling extrapolates some dimensions; YaRN needs fewer tokens",
    statement=(
        r"\text{NTK-aware scaling extrapolates some dimensions to out-of-bound values; YaRN"
        r" reaches long contexts with 10 times fewer tokens and 2.5 times fewer steps}"
    ),
    source="peng2023",
)

claim(
    "ntk-aware-origin",
    "Peng et al. on NTK-aware scaling: its origin and its base",
    statement=(
        r"\text{Peng et al. (2023), Section 3.1: NTK-aware interpolation, first proposed in an"
        r" online post by bloc97, changes the base to } b' = b\,s^{|D|/(|D|-2)}"
    ),
    source="peng2023",
)

claim(
    "dai-relative-score",
    "Transformer-XL's relative score, as Dai et al. write it",
    statement=(
        r"\begin{gathered} A^{\mathrm{rel}}_{m,n} = E_{x_m}^{\mathsf T} W_q^{\mathsf T} W_{k,E}"
        r" E_{x_n} + E_{x_m}^{\mathsf T} W_q^{\mathsf T} W_{k,R} R_{m-n} \\"
        r" + u^{\mathsf T} W_{k,E} E_{x_n} + v^{\mathsf T} W_{k,R} R_{m-n}"
        r" \quad \text{(Dai et al. 2019, Section 3.3; their } i, j \text{ written } m, n\text{,}"
        r" \\ E_{x_m} \text{ the word embedding of token } m\text{)} \end{gathered}"
    ),
    source="dai2019",
)
