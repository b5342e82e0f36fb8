"""Claims of the page "From sinusoids to rotary embeddings" (docs/rope.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from pe import from_scratch, numeric, rotary
from pe._tolerance import Tolerance, gamma, rotation_rounding
from pe.claims import Chapter, Check, Evidence, at_most, by_proof, checked, within
from pe.experiments import rope as experiments
from pe.proofs import rope as proofs
from pe.proofs import wrong

claim = Chapter("rope").claim


#: Two rotations of the same pairs, each within the rotation's rounding bound, entry by entry.
_TWO_ROTATIONS = Tolerance(
    1.0,
    r"2(|a| + |b|)\bigl(\varepsilon + \gamma_2 + (r_\omega + u)|p|\omega_i\bigr)"
    r" \text{ per entry}",
)


def _complex(candidate: experiments.Rope) -> Evidence:
    adjacent, halves = experiments.complex_gaps(candidate)
    ratio = experiments.complex_gap_ratio(candidate)
    return within(
        ratio,
        _TWO_ROTATIONS,
        f"rope vs complex product (a + ib) e^(i p w), d=64, p < 5000: "
        f"max gap {adjacent:.2g} (adjacent), {halves:.2g} (halves); worst gap / tolerance "
        f"{ratio:.2g}",
    )


def _permuted(candidate: proofs.Permutation) -> Evidence:
    gap = experiments.permutation_gap(candidate)
    ratio = experiments.permutation_gap_ratio(candidate)
    return within(
        ratio,
        _TWO_ROTATIONS,
        f"d=64: max|rope_halves(x) - P rope_adjacent(P^T x)| = {gap:.2g}; worst gap / "
        f"tolerance {ratio:.2g}",
    )


def _converted(candidate: proofs.Conversion) -> Evidence:
    gap = experiments.converted_weights_gap(candidate)
    bound = experiments.converted_weights_tolerance()
    return within(
        gap,
        Tolerance(
            bound,
            r"2\max(\gamma_d |q'||k'|^{\mathsf T} + B_{q'}|k'|^{\mathsf T} + |q'|B_{k'}^{\mathsf T}) / \max|s|",
        ),
        f"d=64, 32 tokens: relative score gap {gap:.2g} (tolerance {bound:.2g})",
    )


def _offsets(
    angle_dtype: str, model_dtype: str, pairings: Sequence[str] = ("adjacent",)
) -> Evidence:
    results = experiments.offset_checks(angle_dtype, model_dtype, pairings)
    return within(
        max(r.worst_ratio for r in results),
        Tolerance(1.0, r"\text{pe.rotary.offset\_tolerance, entry by entry}"),
        "; ".join(r.summary() for r in results),
    )


def _decay(candidate: experiments.Bound) -> Evidence:
    worst = experiments.decay_ratio(candidate)
    offsets, excess, rounding = np.arange(0, 5001), 0.0, 0.0
    for q, k in experiments.decay_pairs():
        bound, scores = candidate(q, k, offsets)
        excess = max(excess, float((np.abs(scores) - bound).max()))
        # |s(r)| and the bound are sums of d/2 terms of size |h_i| (and of a few roundings
        # each): near the bound both are within gamma_(d+4) sum|h_i|
        h = np.abs((q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2]))
        rounding = max(rounding, 2 * gamma(q.size + 4) * float(h.sum()))
    return at_most(
        excess,
        0.0,
        Tolerance(rounding, r"2\gamma_{d+4} \sum_i |h_i|"),
        f"d=128, q=k=1 and random q, k, r = 0..5000: max |s(r)|/bound = {worst:.3g}",
    )


def _not_monotone(candidate: Callable[[Any], dict[str, Any]]) -> Evidence:
    offsets = np.arange(0, 2001)
    rises = {
        label: experiments.largest_rise(s) / float(np.abs(s).max())
        for label, s in candidate(offsets).items()
    }
    windows = experiments.bound_windows(offsets)
    return checked(
        min(rises.values()) > 0.1 and windows[0] > windows[1] > windows[2],
        "d=128, r = 0..2000: largest rise of s(r) after a lower value, relative to max|s|: "
        + ", ".join(f"{v:.3g} ({label})" for label, v in rises.items())
        + "; the bound's mean over r in [0,10), [10,100), [100,1000): "
        + ", ".join(f"{w:.4g}" for w in windows),
    )


_COMPLEX = by_proof(proofs.complex_form)
_RELATIVE = by_proof(proofs.relative_property)
_ADJACENT = by_proof(partial(proofs.relative_property_block_diagonal, pairing="adjacent"))
_HALVES = by_proof(partial(proofs.relative_property_block_diagonal, pairing="halves"))
_PAIRINGS = by_proof(proofs.pairings_differ_by_permutation)
_PERMUTATIONS = (wrong.TRANSPOSED_PERMUTATION, wrong.NO_PERMUTATION)
_CONVERTED = by_proof(proofs.permuted_scores_agree)
_PROJECTED = by_proof(proofs.offset_only_after_projection)
_PROJECTED_4 = by_proof(partial(proofs.offset_only_after_projection, d_model=4))
_NOT_RELATIVE = (wrong.SCALED_ROTATION, wrong.SQUARED_ANGLE)
_AFTER = proofs.rotate_after_projecting
_ABEL = by_proof(proofs.summation_by_parts)

_ABEL_WRONG = (wrong.PARTIAL_SUM_SHIFTED, wrong.ABEL_SIGN_FLIPPED)


def _from_scratch(candidate: Callable[[Any], Any]) -> Evidence:
    """``candidate(x)`` against :func:`pe.rotary.rope` at positions ``0 .. n-1``, within twice
    the rotation's rounding bound per entry (both rotate the same pairs by float64 angles)."""
    worst = 0.0
    for n, d in ((2048, 128), (300, 8)):
        x = np.random.default_rng(d).standard_normal((n, d))
        angle = np.arange(n)[:, None] * np.repeat(numeric.frequencies(d), 2)[None, :]
        size = np.repeat(np.abs(x[:, 0::2]) + np.abs(x[:, 1::2]), 2, axis=1)
        bound = 2 * rotation_rounding(size, angle, d)
        worst = max(worst, float((np.abs(candidate(x) - rotary.rope(x, n)) / bound).max()))
    return within(
        worst,
        _TWO_ROTATIONS,
        f"(n, d) in (2048, 128), (300, 8), random x: largest |gap| / tolerance = {worst:.3g} "
        "(needs <= 1)",
    )


CLAIMS = (
    claim(
        "rope-complex-rotation",
        "RoPE multiplies each pair by a unit complex phase",
        Check(_COMPLEX, true=proofs.rope_rotation, wrong=(wrong.TRANSPOSED_ROTATION,)),
        Check(_complex, true=rotary.rope, wrong=(wrong.FLIPPED_ROPE,)),
        statement=(
            r"\begin{pmatrix} a' \\ b' \end{pmatrix} = \begin{pmatrix} \cos p\omega_i & -\sin p\omega_i"
            r" \\ \sin p\omega_i & \cos p\omega_i \end{pmatrix} \begin{pmatrix} a \\ b \end{pmatrix}"
            r"\iff a' + ib' = (a + ib)\,e^{ip\omega_i}"
        ),
    ),
    claim(
        "rope-relative-property",
        "RoPE scores depend only on the offset (one pair)",
        Check(_RELATIVE, true=proofs.rope_rotation, wrong=_NOT_RELATIVE),
        # the reverse turn R^T is relative too (offset sign reversed): not a wrong candidate
        Check(_RELATIVE, true=wrong.TRANSPOSED_ROTATION.value),
    ),
    claim(
        "rope-relative-block-diagonal",
        "The relative property for the whole vector, both pairings",
        Check(_ADJACENT, true=proofs.rope_rotation, wrong=(wrong.SQUARED_ANGLE,)),
        Check(_HALVES, true=proofs.rope_rotation),
        statement=(
            r"\begin{gathered}\langle R_m q, R_n k\rangle = \langle q, R_{n-m} k\rangle \\"
            r" \text{exactly for } d = 8, \text{ adjacent and halves pairings}\end{gathered}"
        ),
    ),
    claim(
        "rope-pairing-permutation",
        "The two pairings differ by one fixed permutation",
        Check(_PAIRINGS, true=rotary.pairing_permutation, wrong=_PERMUTATIONS),
        Check(_permuted, true=rotary.pairing_permutation, wrong=_PERMUTATIONS),
        statement=(
            r"\begin{gathered}\mathrm{rope}_{\text{halves}}(x, m) = P\,\mathrm{rope}_{\text{adjacent}}"
            r"(P^{\mathsf T} x, m), \\ (Py)_j = y_{\pi(j)},\quad \pi = (0, 2, \dots, d-2, 1, 3,"
            r" \dots, d-1)\end{gathered}"
        ),
    ),
    claim(
        "rope-converted-weights",
        "Permuting the rows of $W_q$ and $W_k$ alike converts between pairings",
        Check(_CONVERTED, true=proofs.permute_both, wrong=(wrong.ONLY_QUERY_PERMUTED,)),
        Check(
            _converted,
            true=proofs.permute_both,
            wrong=(wrong.ONLY_QUERY_PERMUTED,),
        ),
        statement=(
            r"\begin{gathered}\langle \mathrm{rope}_{\text{halves}}(P W_q x, m),"
            r" \mathrm{rope}_{\text{halves}}(P W_k y, n)\rangle \\"
            r" = \langle \mathrm{rope}_{\text{adjacent}}(W_q x, m),"
            r" \mathrm{rope}_{\text{adjacent}}(W_k y, n)\rangle\end{gathered}"
        ),
    ),
    claim(
        "rope-relative-after-any-projection",
        "RoPE after the projections is relative for every $W_q$, $W_k$",
        Check(_PROJECTED, true=_AFTER, wrong=(wrong.ROTATE_BEFORE_PROJECTING,)),
        Check(_PROJECTED_4, true=_AFTER),
        statement=(
            r"\langle R_m W_q x, R_n W_k y\rangle = \langle W_q x, R_{n-m} W_k y\rangle"
            r" \text{ for all } W_q, W_k, x, y"
        ),
    ),
    claim(
        "rope-offset-only-float64",
        "In float64 the computed scores depend only on the offset",
        Check(
            partial(_offsets, model_dtype="float64", pairings=("adjacent", "halves")),
            true="float64",
            wrong=(wrong.FLOAT32_ANGLES, wrong.FLOAT16_ANGLES),
        ),
        statement=(
            r"\begin{gathered}|s(m, m + r) - \langle q, R_r k\rangle| \le \tau(m, r)"
            r" \text{ with float64 angles;} \\ \text{float32 and float16 angles exceed it}"
            r"\end{gathered}"
        ),
    ),
    claim(
        "rope-angle-error-model",
        "Low-precision angles: error grows with the position as the model says",
        Check(partial(_offsets, "float32"), true="float32"),
        Check(partial(_offsets, "float16"), true="float16", wrong=(wrong.FLOAT32_TOLERANCE,)),
        statement=(
            r"\begin{gathered}|s(m, m + r) - \langle q, R_r k\rangle| \le \tau(m, r) = \\"
            r" \sum_i \rho_i\bigl(2\varepsilon_a\omega_i(|m| + |m+r| + |r|)"
            r" + (d+8)\varepsilon_{64}\bigr)\end{gathered}"
        ),
    ),
    claim(
        "rope-decay-bound",
        "RoFormer's long-term decay is a bound, by summation by parts",
        Check(_ABEL, true=proofs.abel_right_side, wrong=_ABEL_WRONG),
        Check(_decay, true=rotary.abel_bound, wrong=(wrong.LAST_PARTIAL_SUM,)),
        statement=(
            r"\begin{gathered}|s(r)| = \Bigl|\operatorname{Re}\sum_{i} h_i e^{ir\omega_i}\Bigr|"
            r" \le \max_i |h_{i+1} - h_i| \sum_{j=1}^{d/2} |S_j(r)|, \\"
            r" S_j(r) = \sum_{i<j} e^{ir\omega_i},\quad h_{d/2} = 0\end{gathered}"
        ),
    ),
    claim(
        "rope-scores-not-monotone",
        "The scores themselves do not decay monotonically",
        Check(
            _not_monotone,
            true=experiments.rope_score_sequences,
            wrong=(wrong.ALIBI_SEQUENCE,),
        ),
        statement=(
            r"\begin{gathered}\exists\, r_1 < r_2:\ s(r_2) > s(r_1) + 0.1 \max_r |s(r)|, \\"
            r" \text{while the bound's averages decrease}\end{gathered}"
        ),
    ),
    claim(
        "from-scratch-rope",
        "A short plain-NumPy rope rotates exactly as pe does",
        Check(_from_scratch, true=from_scratch.rope, wrong=(wrong.PLAIN_ROPE_BACKWARDS,)),
        statement=(
            r"|\texttt{rope}(x)_{p,j} - \mathrm{RoPE}(x)_{p,j}|"
            r" \le 4\varepsilon\,(1 + p\,\omega_i)(|a| + |b|),"
            r"\quad (a, b) = (x_{p,2i}, x_{p,2i+1}),\ i = \lfloor j/2 \rfloor"
        ),
    ),
    claim(
        "rope-pairings-in-public-code",
        "Adjacent pairs in RoFormer, GPT-J and Meta's Llama; halves in GPT-NeoX and HF Llama",
        statement=(
            r"\begin{gathered}\text{adjacent } (x_{2i}, x_{2i+1}): \text{RoFormer, GPT-J, Meta's"
            r" Llama;} \\ \text{halves } (x_i, x_{i+d/2}): \text{GPT-NeoX, Hugging Face's Llama;}"
            r" \\ \text{all: } \omega_i = 10000^{-2i/d}, \text{ positions from 0, the same"
            r" sign}\end{gathered}"
        ),
        source="rope-code",
    ),
)
