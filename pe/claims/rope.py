"""Claims of the page "From sinusoids to rotary embeddings" (docs/rope.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import rotary
from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import relative_family as relative
from pe.proofs import rope as proofs

PAGE = "rope"

#: Positions of the numeric offset checks: the first 64 and far ones (below float16's max).
POSITIONS = np.concatenate([np.arange(64), [1000, 2047, 2049, 4097, 10_000, 60_001]])
#: Offsets of the numeric checks, negative ones included.
OFFSETS = np.array([0, 1, 5, 37, -3, 500])


def _scaled(position: Any, w: Any) -> Any:
    return 2 * proofs.rope_block(position * w)


def _squared_angle(position: Any, w: Any) -> Any:
    return proofs.rope_block(position**2 * w)


def _transposed(position: Any, w: Any) -> Any:
    return proofs.rope_block(position * w).T


def _complex_reference(
    x: npt.NDArray[np.float64], positions: npt.NDArray[np.int64], pairing: str
) -> npt.NDArray[np.float64]:
    """Rotate by multiplying complex pairs by e^{i p w} (NumPy complex arithmetic)."""
    d = x.shape[-1]
    angles = np.multiply.outer(
        positions.astype(np.float64), rotary.rope_angles(np.array([1]), d)[0]
    )
    if pairing == "adjacent":
        z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * angles)
        out = np.empty_like(x)
        out[..., 0::2], out[..., 1::2] = z.real, z.imag
        return out
    z = (x[..., : d // 2] + 1j * x[..., d // 2 :]) * np.exp(1j * angles)
    return np.concatenate([z.real, z.imag], axis=-1)


def _numeric_complex(sign: int = 1) -> Callable[[], Evidence]:
    def run() -> Evidence:
        rng = np.random.default_rng(3)
        x = rng.standard_normal((50, 64))
        ps = np.arange(0, 5000, 100)
        gaps = [
            float(np.abs(rotary.rope(x, sign * ps, pairing=p) - _complex_reference(x, ps, p)).max())
            for p in ("adjacent", "halves")
        ]
        label = "pe.rotary.rope" if sign == 1 else "rope with the sign of the angle flipped"
        return checked(
            max(gaps) < 1e-12,
            f"{label} vs complex product (a + ib) e^(i p w), d=64, p < 5000: "
            f"max gap {gaps[0]:.2g} (adjacent), {gaps[1]:.2g} (halves)",
        )

    return run


def _permuted(d: int, perm: npt.NDArray[np.int64], label: str) -> Callable[[], Evidence]:
    def run() -> Evidence:
        rng = np.random.default_rng(4)
        x = rng.standard_normal((40, d))
        ps = np.arange(0, 4000, 100)
        halves = rotary.rope(x, ps, pairing="halves")
        # P^T x = x[argsort(perm)]; P y = y[perm] (rows are vectors on the last axis)
        adjacent = rotary.rope(x[:, np.argsort(perm)], ps, pairing="adjacent")[:, perm]
        gap = float(np.abs(halves - adjacent).max())
        return checked(
            gap < 1e-12, f"{label}, d={d}: max|rope_halves(x) - P rope_adjacent(P^T x)| = {gap:.2g}"
        )

    return run


def _converted_weights(permute_key: bool = True) -> Callable[[], Evidence]:
    def run() -> Evidence:
        rng = np.random.default_rng(5)
        d = 64
        w_q, w_k = rng.standard_normal((d, d)), rng.standard_normal((d, d))
        x = rng.standard_normal((32, d))
        perm = rotary.pairing_permutation(d)
        ps = np.arange(32) * 37
        q, k = x @ w_q.T, x @ w_k.T
        adjacent = rotary.rope(q, ps) @ rotary.rope(k, ps).T
        wk_conv = w_k[perm] if permute_key else w_k
        q2, k2 = x @ w_q[perm].T, x @ wk_conv.T
        halves = rotary.rope(q2, ps, pairing="halves") @ rotary.rope(k2, ps, pairing="halves").T
        gap = float(np.abs(adjacent - halves).max() / np.abs(adjacent).max())
        label = "rows of W_q and W_k permuted" if permute_key else "only W_q's rows permuted"
        return checked(gap < 1e-12, f"{label}, d=64, 32 tokens: relative score gap {gap:.2g}")

    return run


def _counterexample(w_q: Any, w_k: Any, label: str) -> Callable[[], Evidence]:
    def run() -> Evidence:
        proof, value = proofs.additive_counterexample(w_q, w_k)
        found = (not proof.holds) and value != 0
        return Evidence(
            "sympy",
            bool(found),
            f"{label}: s(π/2ω, π/2ω) − s(0, 0) = {value} exactly (offset 0 both times); "
            f"{'a counter-example' if found else 'no counter-example'}",
        )

    return run


def _additive_spread(use_rope: bool = False) -> Callable[[], Evidence]:
    def run() -> Evidence:
        rng = np.random.default_rng(6)
        d = 64
        w_q = rng.standard_normal((d, d)) / 8
        w_k = rng.standard_normal((d, d)) / 8
        ms = np.arange(0, 2000, 7)
        spreads = []
        for r in (0, 1, 10):
            if use_rope:
                x = rng.standard_normal(d)
                q = np.tile(w_q @ x, (ms.size, 1))
                k = np.tile(w_k @ x, (ms.size, 1))
                s = np.einsum("jd,jd->j", rotary.rope(q, ms), rotary.rope(k, ms + r))
            else:
                table = relative.signed_sinusoid(np.concatenate([ms, ms + r]), d)
                pm, pn = table[: ms.size], table[ms.size :]
                s = np.einsum("jd,jd->j", pm @ w_q.T, pn @ w_k.T)
            spreads.append(float(s.max() - s.min()))
        label = "RoPE after W_q, W_k" if use_rope else "additive PE after W_q, W_k"
        return checked(
            min(spreads) > 1e-3,
            f"{label}, d=64, integer m < 2000: spread of s(m, m+r) over m for r = 0, 1, 10: "
            + ", ".join(f"{v:.3g}" for v in spreads)
            + " (> 1e-3 means not a function of the offset)",
        )

    return run


def _offset_check(
    angle_dtype: str, model_dtype: str, pairings: tuple[str, ...] = ("adjacent", "halves")
) -> Callable[[], Evidence]:
    def run() -> Evidence:
        results = [
            rotary.check_offset_dependence(
                128,
                POSITIONS,
                OFFSETS,
                angle_dtype=angle_dtype,
                model_dtype=model_dtype,
                pairing=p,  # type: ignore[arg-type]
            )
            for p in pairings
        ]
        return checked(all(r.passed for r in results), "; ".join(r.summary() for r in results))

    return run


def _decay_bound(wrong: bool = False) -> Callable[[], Evidence]:
    def run() -> Evidence:
        rng = np.random.default_rng(1)
        offsets = np.arange(0, 5001)
        worst = 0.0
        for q, k in (
            (np.ones(128), np.ones(128)),
            (rng.standard_normal(128), rng.standard_normal(128)),
        ):
            bound, scores = rotary.abel_bound(q, k, offsets)
            if wrong:
                h = np.conj(q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2])
                step = float(np.abs(np.diff(np.append(h, 0.0))).max())
                phases = np.exp(
                    1j * np.multiply.outer(offsets, rotary.rope_angles(np.array([1]), 128)[0])
                )
                bound = step * np.abs(phases.sum(axis=1))
            worst = max(worst, float(np.max(np.abs(scores) / bound)))
        label = "max|h_{i+1} − h_i| · |S_N(r)| (last partial sum only)" if wrong else "the bound"
        return checked(
            worst <= 1.0 + 1e-12,
            f"{label}, d=128, q=k=1 and random q, k, r = 0..5000: max |s(r)|/bound = {worst:.3g}",
        )

    return run


def largest_rise(values: npt.ArrayLike) -> float:
    """Largest ``values[j] - values[i]`` over ``i < j``: 0 for a non-increasing sequence."""
    v = np.asarray(values, dtype=np.float64)
    return float(np.max(v[1:] - np.minimum.accumulate(v)[:-1]))


def _not_monotone(candidate: str = "rope") -> Callable[[], Evidence]:
    def run() -> Evidence:
        offsets = np.arange(0, 2001)
        if candidate == "rope":
            rng = np.random.default_rng(1)
            pairs = (
                (np.ones(128), np.ones(128)),
                (rng.standard_normal(128), rng.standard_normal(128)),
            )
            rises = []
            for q, k in pairs:
                _, scores = rotary.abel_bound(q, k, offsets)
                rises.append(largest_rise(scores) / float(np.abs(scores).max()))
            bound, _ = rotary.abel_bound(np.ones(128), np.ones(128), offsets)
            windows = [float(bound[a:b].mean()) for a, b in ((0, 10), (10, 100), (100, 1000))]
            ok = min(rises) > 0.1 and windows[0] > windows[1] > windows[2]
            return checked(
                ok,
                f"d=128, r = 0..2000: largest rise of s(r) after a lower value, relative to "
                f"max|s|: {rises[0]:.3g} (q=k=1), {rises[1]:.3g} (random q, k); the bound's "
                f"mean over r in [0,10), [10,100), [100,1000): "
                + ", ".join(f"{w:.4g}" for w in windows),
            )
        bias = relative.alibi_bias(offsets.size, 0.5)[-1, ::-1]  # -m r for r = 0, 1, ...
        rise = largest_rise(bias) / float(np.abs(bias).max())
        return checked(rise > 0.1, f"ALiBi's bias -r/2 as a candidate: largest rise {rise:.3g}")

    return run


_WQ = ((1, 2), (0, 1))
_WK = ((2, 0), (1, 1))
_ID = ((1, 0), (0, 1))

CLAIMS = (
    Claim(
        id="rope-complex-rotation",
        title="RoPE multiplies each pair by a unit complex phase",
        statement=(
            r"\begin{pmatrix} a' \\ b' \end{pmatrix} = \begin{pmatrix} \cos p\omega_i & -\sin p\omega_i"
            r" \\ \sin p\omega_i & \cos p\omega_i \end{pmatrix} \begin{pmatrix} a \\ b \end{pmatrix}"
            r"\iff a' + ib' = (a + ib)\,e^{ip\omega_i}"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.complex_form()), _numeric_complex()),
        controls=(
            lambda: proved(proofs.complex_form(_transposed), "transposed rotation"),
            _numeric_complex(sign=-1),
        ),
    ),
    Claim(
        id="rope-relative-property",
        title="RoPE scores depend only on the offset (one pair)",
        statement=(
            r"\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle,\quad"
            r" R_p = \begin{pmatrix} \cos p\omega_i & -\sin p\omega_i \\ \sin p\omega_i &"
            r" \cos p\omega_i \end{pmatrix}"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.relative_property()),),
        controls=(
            lambda: proved(proofs.relative_property(_scaled), "rotation scaled by 2"),
            lambda: proved(proofs.relative_property(_squared_angle), "angle p² ω"),
        ),
    ),
    Claim(
        id="rope-relative-block-diagonal",
        title="The relative property for the whole vector, both pairings",
        statement=(
            r"\begin{gathered}\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle \\"
            r" \text{exactly for } d = 8, \text{ adjacent and halves pairings}\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(proofs.relative_property_block_diagonal(8, pairing="adjacent")),
            lambda: proved(proofs.relative_property_block_diagonal(8, pairing="halves")),
        ),
        controls=(
            lambda: proved(
                proofs.relative_property_block_diagonal(8, rotation=_squared_angle), "angle p² ω"
            ),
        ),
    ),
    Claim(
        id="rope-pairing-permutation",
        title="The two pairings differ by one fixed permutation",
        statement=(
            r"\begin{gathered}\mathrm{rope}_{\text{halves}}(x, m) = P\,\mathrm{rope}_{\text{adjacent}}"
            r"(P^{\mathsf T} x, m), \\ (Py)_j = y_{\pi(j)},\quad \pi = (0, 2, \dots, d-2, 1, 3,"
            r" \dots, d-1)\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(proofs.pairings_differ_by_permutation(8)),
            _permuted(64, rotary.pairing_permutation(64), "P"),
        ),
        controls=(
            lambda: proved(
                proofs.pairings_differ_by_permutation(8, permutation=[0, 4, 1, 5, 2, 6, 3, 7]),
                "P^T in place of P",
            ),
            lambda: proved(
                proofs.pairings_differ_by_permutation(8, permutation=list(range(8))),
                "no permutation",
            ),
            _permuted(64, np.arange(64), "no permutation"),
        ),
    ),
    Claim(
        id="rope-converted-weights",
        title="Permuting the rows of W_q and W_k alike converts between pairings",
        statement=(
            r"\begin{gathered}\langle \mathrm{rope}_{\text{halves}}(P W_q x, m),"
            r" \mathrm{rope}_{\text{halves}}(P W_k y, n)\rangle \\"
            r" = \langle \mathrm{rope}_{\text{adjacent}}(W_q x, m),"
            r" \mathrm{rope}_{\text{adjacent}}(W_k y, n)\rangle\end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.permuted_scores_agree(8)), _converted_weights()),
        controls=(
            lambda: proved(proofs.permuted_scores_agree(8, permute_key=False), "only q permuted"),
            _converted_weights(permute_key=False),
        ),
    ),
    Claim(
        id="additive-not-relative-after-projection",
        title="After W_q and W_k, the additive encoding is not relative",
        statement=(
            r"\begin{gathered}\exists\, W_q, W_k:\ \langle W_q PE(m), W_k PE(n)\rangle"
            r" \text{ is not a function of } n - m \\ \text{(it is for } W_q = W_k = I:"
            r"\ PE(m)\cdot PE(n) = \textstyle\sum_i \cos\omega_i(n-m))\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            _counterexample(_WQ, _WK, "W_q = [[1,2],[0,1]], W_k = [[2,0],[1,1]]"),
            _additive_spread(),
        ),
        controls=(
            _counterexample(_ID, _ID, "W_q = W_k = I"),
            _additive_spread(use_rope=True),
        ),
    ),
    Claim(
        id="rope-relative-after-any-projection",
        title="RoPE after the projections is relative for every W_q, W_k",
        statement=(
            r"\langle R_m W_q x, R_n W_k y\rangle = \langle W_q x, R_{n-m} W_k y\rangle"
            r" \text{ for all } W_q, W_k, x, y"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(proofs.offset_only_after_projection(2)),
            lambda: proved(proofs.offset_only_after_projection(4)),
        ),
        controls=(
            lambda: proved(
                proofs.offset_only_after_projection(2, rotate_first=True),
                "rotate before projecting",
            ),
        ),
    ),
    Claim(
        id="rope-offset-only-float64",
        title="In float64 the computed scores depend only on the offset",
        statement=(
            r"\begin{gathered}|s(m, m + r) - \langle q, R_r k\rangle| \le \tau(m, r)"
            r" \text{ with float64 angles;} \\ \text{float32 and float16 angles exceed it}"
            r"\end{gathered}"
        ),
        page=PAGE,
        evidence=(_offset_check("float64", "float64"),),
        controls=(
            _offset_check("float32", "float64", ("adjacent",)),
            _offset_check("float16", "float64", ("adjacent",)),
        ),
    ),
    Claim(
        id="rope-angle-error-model",
        title="Low-precision angles: error grows with the position as the model says",
        statement=(
            r"\begin{gathered}|s(m, m + r) - \langle q, R_r k\rangle| \le \tau(m, r) = \\"
            r" \sum_i \rho_i\bigl(2\varepsilon_a\omega_i(|m| + |m+r| + |r|)"
            r" + (d+8)\varepsilon_{64}\bigr)\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            _offset_check("float32", "float32", ("adjacent",)),
            _offset_check("float16", "float16", ("adjacent",)),
        ),
        controls=(_offset_check("float16", "float32", ("adjacent",)),),
    ),
    Claim(
        id="rope-decay-bound",
        title="RoFormer's long-term decay is a bound, by summation by parts",
        statement=(
            r"\begin{gathered}|s(r)| = \Bigl|\operatorname{Re}\sum_{i} h_i e^{ir\omega_i}\Bigr|"
            r" \le \max_i |h_{i+1} - h_i| \sum_{j=1}^{d/2} |S_j(r)|, \\"
            r" S_j(r) = \sum_{i<j} e^{ir\omega_i},\quad h_{d/2} = 0\end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(proofs.summation_by_parts(4)), _decay_bound()),
        controls=(
            lambda: proved(proofs.summation_by_parts(4, shift=0), "S_j in place of S_{j+1}"),
            lambda: proved(proofs.summation_by_parts(4, sign=-1), "sign flipped"),
            _decay_bound(wrong=True),
        ),
    ),
    Claim(
        id="rope-scores-not-monotone",
        title="The scores themselves do not decay monotonically",
        statement=(
            r"\begin{gathered}\exists\, r_1 < r_2:\ s(r_2) > s(r_1) + 0.1 \max_r |s(r)|, \\"
            r" \text{while the bound's averages decrease}\end{gathered}"
        ),
        page=PAGE,
        evidence=(_not_monotone(),),
        controls=(_not_monotone("alibi"),),
    ),
)
