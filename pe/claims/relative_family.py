"""Claims of the page "The relative-position family" (docs/relative-family.py)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import numeric, rotary
from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import relative_family as relative
from pe.proofs import relative_family as proofs

PAGE = "relative-family"

#: Schemes whose scores on a repeated token depend only on i - j.
RELATIVE_SCHEMES = ("rope", "shaw", "transformer-xl", "t5", "alibi")


def _toeplitz(schemes: tuple[str, ...]) -> Callable[[], Evidence]:
    def run() -> Evidence:
        devs = {s: relative.toeplitz_deviation(relative.identical_token_scores(s)) for s in schemes}
        return checked(
            max(devs.values()) < 1e-12,
            "one token repeated 12 times, d=16: largest spread along a diagonal / max|score|: "
            + ", ".join(f"{s} {v:.2g}" for s, v in devs.items()),
        )

    return run


def _shaw(clip: int | None = 3) -> Callable[[], Evidence]:
    def run() -> Evidence:
        n, k = 20, 3
        offsets = relative.shaw_offsets(n, clip if clip is not None else n)
        used = np.unique(offsets).size
        far = bool(np.all(offsets[np.subtract.outer(np.arange(n), np.arange(n)) <= -k] == k))
        toeplitz = relative.toeplitz_deviation(offsets) == 0
        ok = used == 2 * k + 1 and far and toeplitz
        label = f"clip K={k}" if clip is not None else "no clipping"
        return checked(
            ok,
            f"{label}, n={n}: {used} distinct relative vectors used (2K+1 = {2 * k + 1}); "
            f"every j - i >= K uses a_K: {'yes' if far else 'no'}; depends only on j - i: "
            f"{'yes' if toeplitz else 'no'}",
        )

    return run


def _t5(
    bucket: relative.BucketFunction = relative.t5_bucket, label: str = ""
) -> Callable[[], Evidence]:
    def run() -> Evidence:
        results = [
            relative.t5_bucket_properties(bucket, bidirectional=b, num_buckets=nb, max_distance=md)
            for b in (True, False)
            for nb, md in ((32, 128), (16, 64))
        ]
        prefix = f"{label}: " if label else ""
        return checked(all(ok for ok, _ in results), prefix + "; ".join(t for _, t in results))

    return run


def _t5_reference() -> Evidence:
    """The bucketing against a scalar re-implementation with math.log, one value at a time."""
    import math

    def scalar(r: int, bidirectional: bool, nb: int, md: int) -> int:
        out = 0
        if bidirectional:
            nb //= 2
            out = nb if r > 0 else 0
            n = abs(r)
        else:
            n = max(-r, 0)
        exact = nb // 2
        if n < exact:
            return out + n
        return out + min(
            exact + int(math.log(n / exact) / math.log(md / exact) * (nb - exact)), nb - 1
        )

    rel = np.arange(-600, 601)
    mismatches = 0
    for b in (True, False):
        got = relative.t5_bucket(rel, bidirectional=b)
        mismatches += sum(
            int(g != scalar(int(r), b, 32, 128)) for g, r in zip(got, rel, strict=True)
        )
    return checked(
        mismatches == 0,
        f"vectorised vs scalar bucketing, r in [-600, 600]: {mismatches} mismatches",
    )


def _uncapped(rel: Any, *, bidirectional: bool, num_buckets: int, max_distance: int) -> Any:
    """Wrong candidate: T5 bucketing without the cap at the last bucket."""
    return relative.t5_bucket(
        rel,
        bidirectional=bidirectional,
        num_buckets=4 * num_buckets,
        max_distance=16 * max_distance,
    )


def _no_direction(rel: Any, *, bidirectional: bool, num_buckets: int, max_distance: int) -> Any:
    """Wrong candidate: bidirectional bucketing that forgets the direction."""
    return relative.t5_bucket(
        -np.abs(np.asarray(rel)),
        bidirectional=bidirectional,
        num_buckets=num_buckets,
        max_distance=max_distance,
    )


def _alibi(slopes: Callable[[int], npt.NDArray[np.float64]], label: str) -> Callable[[], Evidence]:
    def run() -> Evidence:
        heads = 16
        got = slopes(heads)
        # m_h = 2^(-8h/H): for H = 16, m_h^2 = 2^(-h) exactly (compare squares as fractions)
        squares_ok = all(
            Fraction(float(g) ** 2).limit_denominator(2**40) == Fraction(1, 2 ** (16 * h // heads))
            for h, g in enumerate(got, start=1)
        )
        bias = relative.alibi_bias(10, float(got[0]))
        lower = np.tril_indices(10)
        decreasing = bool(np.all(np.diff(bias[-1, :][::-1]) < 0))
        ok = squares_ok and relative.toeplitz_deviation(bias) == 0 and decreasing
        return checked(
            ok,
            f"{label}, H={heads}: slopes from {got[0]:.4g} to {got[-1]:.4g} (2^-8 = {2**-8:.4g}); "
            f"m_h^2 = 2^(-16h/H) exactly: {'yes' if squares_ok else 'no'}; bias -m(i-j) "
            f"depends only on i - j and falls with distance: "
            f"{'yes' if decreasing and lower else 'no'}",
        )

    return run


def _nope(causal: bool = True) -> Callable[[], Evidence]:
    def run() -> Evidence:
        v0, v, n = 1.0, 0.0, 4096
        values = np.full(n, v)
        values[0] = v0
        out = relative.causal_mean_attention(values, causal=causal)
        i = np.arange(n)
        formula = (v0 + i * v) / (i + 1)
        gap = float(np.abs(out - formula).max())
        distinct = np.unique(out).size
        ok = gap < 1e-15 and distinct == n
        mode = "causal mask" if causal else "no mask"
        return checked(
            ok,
            f"{mode}, first value 1 then 0, n={n}: max|o_i - (v0 + i v)/(i+1)| = {gap:.2g}; "
            f"{distinct} distinct outputs for {n} positions",
        )

    return run


def _interpolation(scale: float) -> Callable[[], Evidence]:
    def run() -> Evidence:
        trained, s, d = 2048, 4, 128
        limit = trained * numeric.frequencies(d)  # L w_i: the end of the trained window
        long_angles = rotary.rope_angles(s * trained, d, scale=scale)
        within = bool(np.all(long_angles.max(axis=0) < limit))
        label = "positions / 4" if scale != 1 else "no interpolation"
        return checked(
            within,
            f"{label}: positions 0..{s * trained - 1}, d={d}: largest angle of pair 0 is "
            f"{long_angles[:, 0].max():.6g} vs L w_0 = {limit[0]:.6g} (L = {trained}); "
            f"every pair below L w_i: {'yes' if within else 'no'}",
        )

    return run


def _ntk_numeric(exponent: float | None = None) -> Callable[[], Evidence]:
    def run() -> Evidence:
        d, s = 128, 8.0
        base = relative.ntk_base(10000.0, s, d) if exponent is None else 10000.0 * s**exponent
        old, new = numeric.frequencies(d), numeric.frequencies(d, base)
        first = abs(new[0] - old[0])
        last = abs(new[-1] * s / old[-1] - 1.0)
        label = "b' = b s^(d/(d-2))" if exponent is None else "b' = b s"
        return checked(
            first == 0 and last < 1e-13,
            f"{label}, d={d}, s={s:g}: |w'_0 - w_0| = {first:.2g}, "
            f"|w'_last s / w_last - 1| = {last:.2g}",
        )

    return run


CLAIMS = (
    Claim(
        id="identical-tokens-relative",
        title="On a repeated token, relative schemes give scores that depend only on i − j",
        statement=(
            r"\begin{gathered}x_i = x\ \forall i \implies s_{ij} = f(i - j) \\"
            r" \text{for RoPE, Shaw, Transformer-XL, T5, ALiBi;} \\"
            r" \text{not for learned or added sinusoidal absolute encodings}\end{gathered}"
        ),
        page=PAGE,
        evidence=(_toeplitz(RELATIVE_SCHEMES),),
        controls=(_toeplitz(("learned absolute",)), _toeplitz(("sinusoidal (added)",))),
    ),
    Claim(
        id="shaw-clipped-offsets",
        title="Shaw et al. use 2K + 1 relative vectors, the same beyond distance K",
        statement=r"a_{ij} = w_{\mathrm{clip}(j - i, -K, K)},\quad 2K + 1 \text{ distinct vectors}",
        page=PAGE,
        evidence=(_shaw(3),),
        controls=(_shaw(None),),
    ),
    Claim(
        id="transformer-xl-four-terms",
        title="The additive score splits into four terms",
        statement=(
            r"\begin{gathered}(W_q(E_i + U_i))^{\mathsf T} W_k(E_j + U_j) = \\"
            r" E_i^{\mathsf T} W_q^{\mathsf T} W_k E_j + E_i^{\mathsf T} W_q^{\mathsf T} W_k U_j"
            r" + U_i^{\mathsf T} W_q^{\mathsf T} W_k E_j + U_i^{\mathsf T} W_q^{\mathsf T} W_k U_j"
            r"\end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.absolute_score_four_terms()),),
        controls=(lambda: proved(proofs.absolute_score_four_terms(drop="c"), "term (c) left out"),),
    ),
    Claim(
        id="t5-buckets",
        title="T5's buckets: exact near 0, logarithmic, capped, one side per direction",
        statement=(
            r"\begin{gathered}b(r) = |r| \text{ (+ offset) for } |r| < E;\quad b \text{ non-decreasing"
            r" in } |r|; \\ b(r) = \text{last bucket for } |r| \ge D;\quad"
            r" \text{directions disjoint}\end{gathered}"
        ),
        page=PAGE,
        evidence=(_t5(), _t5_reference),
        controls=(
            _t5(_uncapped, "no cap at the last bucket"),
            _t5(_no_direction, "direction forgotten"),
        ),
    ),
    Claim(
        id="alibi-slopes",
        title="ALiBi's slopes are geometric and its bias falls linearly with distance",
        statement=r"m_h = 2^{-8h/H},\ h = 1..H;\quad b_{ij} = -m_h\,(i - j),\ j \le i",
        page=PAGE,
        evidence=(_alibi(relative.alibi_slopes, "pe.experiments.relative_family.alibi_slopes"),),
        controls=(_alibi(lambda h: 2.0 ** -np.arange(1, h + 1, dtype=np.float64), "2^(-h)"),),
    ),
    Claim(
        id="nope-causal-position",
        title="With a causal mask, equal scores still reveal the position",
        statement=(
            r"o_i = \frac{v_0 + i\,v}{i + 1},\quad o_i - o_{i+1} = \frac{v_0 - v}{(i+1)(i+2)}"
            r" \ne 0 \text{ when } v_0 \ne v"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.causal_mean_counts_position()), _nope()),
        controls=(
            lambda: proved(proofs.causal_mean_counts_position(causal=False), "no causal mask"),
            _nope(causal=False),
        ),
    ),
    Claim(
        id="position-interpolation-range",
        title="Position interpolation keeps every angle inside the trained range",
        statement=(
            r"0 \le p < sL \implies \tfrac{p}{s}\,\omega_i < L\,\omega_i \text{ for every pair } i"
        ),
        page=PAGE,
        evidence=(_interpolation(4.0),),
        controls=(_interpolation(1.0),),
    ),
    Claim(
        id="ntk-base-scaling",
        title="NTK-aware scaling keeps the fastest pair and slows the slowest by s",
        statement=(
            r"b' = b\,s^{d/(d-2)} \implies \omega'_0 = \omega_0,\quad"
            r" \omega'_{d/2-1} = \omega_{d/2-1}/s"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.ntk_frequencies()), _ntk_numeric()),
        controls=(
            lambda: proved(proofs.ntk_frequencies(exponent=1), "b' = b s"),
            _ntk_numeric(exponent=1.0),
        ),
    ),
)
