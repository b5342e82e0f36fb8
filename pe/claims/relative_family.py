"""Claims of the page "The relative-position family" (docs/relative-family.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from pe import numeric
from pe._tolerance import EPS64, FREQUENCY_ROUNDING, Tolerance, exponential_rounding, gamma
from pe.claims import Chapter, Check, Evidence, by_proof, checked, within
from pe.experiments import relative_family as experiments
from pe.experiments import rope as extension
from pe.proofs import relative_family as proofs
from pe.proofs import wrong

claim = Chapter("relative-family").claim

#: Schemes whose scores on a repeated token depend only on i - j.
RELATIVE_SCHEMES = ("rope", "shaw", "transformer-xl", "t5", "alibi")


def _toeplitz(schemes: Sequence[str]) -> Evidence:
    devs = {
        s: experiments.toeplitz_deviation(experiments.identical_token_scores(s)) for s in schemes
    }
    # every scheme's deviation over its own rounding bound (the relative schemes' model)
    ratios = {s: v / experiments.identical_token_rounding(s) for s, v in devs.items()}
    return within(
        max(ratios.values()),
        Tolerance(
            1.0, r"2\gamma_{3d}\sum \lVert a\rVert \lVert b\rVert / \max|s| \text{ per scheme}"
        ),
        "one token repeated 12 times, d=16: largest spread along a diagonal / max|score|: "
        + ", ".join(f"{s} {v:.2g}" for s, v in devs.items())
        + f"; worst spread / its rounding bound {max(ratios.values()):.2g}",
    )


def _shaw(clip: int) -> Evidence:
    n, k = 20, 3
    offsets = experiments.shaw_offsets(n, clip)
    used = np.unique(offsets).size
    far = bool(np.all(offsets[np.subtract.outer(np.arange(n), np.arange(n)) <= -k] == k))
    toeplitz = experiments.toeplitz_deviation(offsets) == 0
    return checked(
        used == 2 * k + 1 and far and toeplitz,
        f"clip K={clip}, n={n}: {used} distinct relative vectors used (2K+1 = {2 * k + 1}); "
        f"every j - i >= K uses a_K: {'yes' if far else 'no'}; depends only on j - i: "
        f"{'yes' if toeplitz else 'no'}",
    )


def _transformer_xl(terms: Sequence[str]) -> Evidence:
    """Transformer-XL's scores against the chosen terms of its formula, summed in a loop."""
    n, d = 9, 16
    rng = np.random.default_rng(5)
    x = rng.standard_normal((n, d))
    w_q, w_ke, w_kr = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    scores = experiments.transformer_xl_scores(x, w_q, w_ke, w_kr, u=u, v=v)
    loop = experiments.transformer_xl_terms(x, w_q, w_ke, w_kr, u=u, v=v, terms=tuple(terms))
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
        f"n={n}, d={d}, random weights: pe.experiments.relative_family.transformer_xl_scores "
        f"against the terms ({', '.join(terms)}) summed entry by entry: max difference "
        f"{gap:.2g} (tolerance {rounding:.2g})",
    )


def _t5(bucket: experiments.BucketFunction) -> Evidence:
    results = [
        experiments.t5_bucket_properties(bucket, bidirectional=b, num_buckets=nb, max_distance=md)
        for b in (True, False)
        for nb, md in ((32, 128), (16, 64))
    ]
    return checked(all(ok for ok, _ in results), "; ".join(t for _, t in results))


def _t5_reference(bucket: experiments.BucketFunction) -> Evidence:
    """The bucketing against the scalar re-implementation, one value at a time."""
    rel = np.arange(-600, 601)
    mismatches = 0
    for b in (True, False):
        got = bucket(rel, bidirectional=b, num_buckets=32, max_distance=128)
        mismatches += sum(
            int(g != experiments.t5_bucket_reference(int(r), bidirectional=b))
            for g, r in zip(got, rel, strict=True)
        )
    return checked(
        mismatches == 0,
        f"vectorised vs scalar bucketing, r in [-600, 600]: {mismatches} mismatches",
    )


def _alibi(slopes: Callable[[int], npt.NDArray[np.float64]]) -> Evidence:
    heads = 16
    got = slopes(heads)
    # m_h = 2^(-8h/H): for H = 16, m_h^2 = 2^(-h) exactly (compare squares as fractions)
    squares_ok = all(
        Fraction(float(g) ** 2).limit_denominator(2**40) == Fraction(1, 2 ** (16 * h // heads))
        for h, g in enumerate(got, start=1)
    )
    bias = experiments.alibi_bias(10, float(got[0]))
    decreasing = bool(np.all(np.diff(bias[-1, :][::-1]) < 0))
    ok = squares_ok and experiments.toeplitz_deviation(bias) == 0 and decreasing
    return checked(
        ok,
        f"H={heads}: slopes from {got[0]:.4g} to {got[-1]:.4g} (2^-8 = {2**-8:.4g}); "
        f"m_h^2 = 2^(-16h/H) exactly: {'yes' if squares_ok else 'no'}; bias -m(i-j) "
        f"depends only on i - j and falls with distance: {'yes' if decreasing else 'no'}",
    )


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
        f"first value 1 then 0, n={n}: max|o_i - (v0 + i v)/(i+1)| = {gap:.2g}; "
        f"{distinct} distinct outputs for {n} positions",
        error=gap,
        tolerance=Tolerance(rounding, r"\gamma_n + \varepsilon"),
    )


def _interpolation(method: extension.Extension) -> Evidence:
    d, trained, s = extension.EXTENSION
    reach = extension.extension_reach(method, d, trained, s)
    return checked(
        bool(np.all(reach.excess < 0)),
        f"positions 0..{int(s * trained) - 1}, d={d}, trained on L={trained}: largest "
        f"max_p angle / (L w_i) over the pairs {1 + reach.excess.max():.6g}; pairs that never "
        f"turn in training and pass L w_i (unseen angles): {_pair_span(reach.unseen)}",
    )


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


def _ntk_unseen(stated: tuple[range, tuple[int, int]]) -> Evidence:
    """The pairs NTK scaling takes past the window, and their excess, against ``stated``."""
    d, trained, s = extension.EXTENSION
    reach = extension.extension_reach(extension.base_scaling, d, trained, s)
    unseen = reach.unseen
    pairs, (low, high) = stated
    percent = np.round(100 * reach.excess[unseen]).astype(int)
    span = (int(percent.min()), int(percent.max())) if unseen.size else (0, 0)
    return checked(
        unseen.tolist() == list(pairs) and span == (low, high),
        f"d={d}, L={trained}, s={s:g}, b' = b s^(d/(d-2)): pairs that never turn in training "
        f"and pass L w_i: {_pair_span(unseen)}, by {span[0]}% to {span[1]}% (stated: "
        f"{_pair_span(np.array(pairs))}, {low}% to {high}%)",
    )


def _pair_span(pairs: npt.NDArray[np.int64]) -> str:
    return f"{pairs[0]}..{pairs[-1]}" if pairs.size else "none"


_FOUR_TERMS = by_proof(proofs.absolute_score_four_terms)
_COUNTS = by_proof(proofs.causal_mean_counts_position)
_NTK = by_proof(proofs.ntk_frequencies)
_ABSOLUTE = (wrong.LEARNED_ABSOLUTE, wrong.SINUSOIDAL_ADDED)
#: The pairs NTK scaling takes past the trained window in the page's example, with the
#: excess in percent (the statement of ``ntk-unseen-angles``).
NTK_UNSEEN = (range(41, 63), (2, 62))
_BUCKETINGS = (wrong.UNCAPPED_BUCKETS, wrong.DIRECTION_FORGOTTEN)

CLAIMS = (
    claim(
        "identical-tokens-relative",
        "On a repeated token, relative schemes give scores that depend only on $i - j$",
        Check(_toeplitz, true=RELATIVE_SCHEMES, wrong=_ABSOLUTE),
        statement=(
            r"\begin{gathered}x_i = x\ \forall i \implies s_{ij} = f(i - j) \\"
            r" \text{for RoPE, Shaw, Transformer-XL, T5, ALiBi;} \\"
            r" \text{not for learned or added sinusoidal absolute encodings}\end{gathered}"
        ),
    ),
    claim(
        "shaw-clipped-offsets",
        "Shaw et al. use $2K + 1$ relative vectors, the same beyond distance $K$",
        Check(_shaw, true=3, wrong=(wrong.NO_CLIPPING,)),
        statement=r"a_{ij} = w_{\mathrm{clip}(j - i, -K, K)},\quad 2K + 1 \text{ distinct vectors}",
    ),
    claim(
        "transformer-xl-four-terms",
        "The additive score splits into four terms",
        Check(_FOUR_TERMS, true=proofs.FOUR_TERMS, wrong=(wrong.TERM_C_LEFT_OUT,)),
        Check(_transformer_xl, true=proofs.FOUR_TERMS, wrong=(wrong.TERM_C_LEFT_OUT,)),
        statement=(
            r"\begin{gathered}(W_q(E_i + U_i))^{\mathsf T} W_k(E_j + U_j) = (a) + (b) + (c) + (d);"
            r" \\ \text{Transformer-XL: } A_{ij} = x_i^{\mathsf T} W_q^{\mathsf T} W_{k,E} x_j"
            r" + x_i^{\mathsf T} W_q^{\mathsf T} W_{k,R} R_{i-j} + u^{\mathsf T} W_{k,E} x_j"
            r" + v^{\mathsf T} W_{k,R} R_{i-j}\end{gathered}"
        ),
    ),
    claim(
        "t5-buckets",
        "T5's buckets: exact near 0, logarithmic, capped, one side per direction",
        Check(_t5, true=experiments.t5_bucket, wrong=_BUCKETINGS),
        Check(_t5_reference, true=experiments.t5_bucket, wrong=_BUCKETINGS),
        statement=(
            r"\begin{gathered}b(r) = |r| \text{ (+ offset) for } |r| < E;\quad b \text{ non-decreasing"
            r" in } |r|; \\ b(r) = \text{last bucket for } |r| \ge D;\quad"
            r" \text{directions disjoint}\end{gathered}"
        ),
    ),
    claim(
        "alibi-slopes",
        "ALiBi's slopes are geometric and its bias falls linearly with distance",
        Check(_alibi, true=experiments.alibi_slopes, wrong=(wrong.HALVING_SLOPES,)),
        statement=r"m_h = 2^{-8h/H},\ h = 1..H;\quad b_{ij} = -m_h\,(i - j),\ j \le i",
    ),
    claim(
        "nope-causal-position",
        "With a causal mask, equal scores still reveal the position",
        Check(_COUNTS, true=proofs.CAUSAL, wrong=(wrong.NO_CAUSAL_MASK,)),
        Check(
            _nope,
            true=experiments.causal_mean_attention,
            wrong=(wrong.UNMASKED_MEAN,),
        ),
        statement=(
            r"o_i = \frac{v_0 + i\,v}{i + 1},\quad o_i - o_{i+1} = \frac{v_0 - v}{(i+1)(i+2)}"
            r" \ne 0 \text{ when } v_0 \ne v"
        ),
    ),
    claim(
        "position-interpolation-range",
        "Position interpolation keeps every angle inside the trained range",
        Check(
            _interpolation,
            true=extension.position_interpolation,
            wrong=(wrong.NO_INTERPOLATION, wrong.NTK_IN_RANGE),
        ),
        statement=r"0 \le p < sL \implies \tfrac{p}{s}\,\omega_i < L\,\omega_i \text{ for every pair } i",
    ),
    claim(
        "ntk-base-scaling",
        "NTK-aware scaling slows pair $i$ by $s^{2i/(d-2)}$: the fastest not at all, the slowest by $s$",
        Check(_NTK, true=proofs.ntk_scaled_base, wrong=(wrong.PLAIN_BASE_SCALING,)),
        Check(_ntk, true=experiments.ntk_base, wrong=(wrong.PLAIN_BASE_SCALING,)),
    ),
    claim(
        "ntk-unseen-angles",
        "NTK-aware scaling takes the slow pairs past their trained angles",
        Check(_ntk_unseen, true=NTK_UNSEEN, wrong=(wrong.NO_UNSEEN_PAIRS, wrong.SLOWEST_PAIR_TOO)),
        statement=(
            r"\begin{gathered}d = 128,\ L = 2048,\ s = 4,\ b' = b\,s^{d/(d-2)}:\ "
            r"(L-1)\,\omega_i < 2\pi \text{ and } \max_{p < sL} p\,\omega'_i > L\,\omega_i"
            r" \\ \text{exactly for } i = 41, \dots, 62, \text{ by } 2\,\% \text{ to }"
            r" 62\,\% \text{ of } L\,\omega_i\end{gathered}"
        ),
    ),
    claim(
        "shaw-reported",
        "Shaw et al.: the clipped relative score, and 1.3 and 0.3 BLEU over absolute positions",
        statement=(
            r"\begin{gathered}e_{ij} = (W_q x_i)^{\mathsf T}(W_k x_j + a^K_{\mathrm{clip}(j-i,K)})"
            r" / \sqrt d; \\ \text{WMT 2014: +1.3 BLEU (English-German), +0.3 BLEU"
            r" (English-French) over absolute positions; no further gain from both}\end{gathered}"
        ),
        source="shaw2018",
    ),
    claim(
        "nope-reported",
        "Haviv et al.: causal language models without positional encoding learn position",
        statement=(
            r"\text{Causal language models without positional encoding are competitive, and"
            r" probes recover absolute position from their hidden states}"
        ),
        source="haviv2022",
    ),
    claim(
        "nope-length-generalisation-reported",
        "Kazemnejad et al.: no positional encoding generalised to longer inputs on their tasks",
        statement=(
            r"\text{Decoder-only models without positional encoding generalised to longer inputs"
            r" than the encodings compared, on their reasoning and arithmetic tasks}"
        ),
        source="kazemnejad2023",
    ),
    claim(
        "transformer-xl-reported",
        "Dai et al.: dependencies 80% and 450% longer, evaluation up to 1,800 times faster",
        statement=(
            r"\text{Transformer-XL learns dependencies about 80\% longer than RNNs and 450\%"
            r" longer than vanilla Transformers; evaluation up to 1,800+ times faster}"
        ),
        source="dai2019",
    ),
    claim(
        "t5-bias-settings",
        "T5: one scalar per bucket and head, shared across layers; 32 buckets up to offset 128",
        statement=(
            r"\text{T5: a learned scalar per bucket, one table per head, shared across layers;"
            r" 32 buckets, logarithmic up to offset 128, one bucket beyond}"
        ),
        source="raffel2020",
    ),
    claim(
        "alibi-reported",
        "Press et al.: ALiBi trained on 1024 tokens matches sinusoidal trained on 2048",
        statement=(
            r"\text{1.3B parameters, trained on 1024 tokens, evaluated on 2048: the perplexity of a"
            r" sinusoidal model trained on 2048, 11\% faster, 11\% less memory}"
        ),
        source="press2022",
    ),
    claim(
        "position-interpolation-reported",
        "Chen et al.: LLaMA 7B to 65B extended to 32768 positions within 1000 steps",
        statement=(
            r"\text{LLaMA 7B to 65B extended to context windows up to 32768 with at most 1000"
            r" fine-tuning steps; interpolation bound at least about 600 times smaller than"
            r" extrapolation's}"
        ),
        source="chen2023",
    ),
    claim(
        "yarn-reported",
        "Peng et al.: NTK-aware scaling extrapolates some dimensions; YaRN needs fewer tokens",
        statement=(
            r"\text{NTK-aware scaling extrapolates some dimensions to out-of-bound values; YaRN"
            r" reaches long contexts with 10 times fewer tokens and 2.5 times fewer steps}"
        ),
        source="peng2023",
    ),
)
