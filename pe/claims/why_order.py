"""Claims of the page "Why order must be injected" (docs/why-order.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import why_order as attention

PAGE = "why-order"

EPS = float(np.finfo(np.float64).eps)


def _numeric_equivariance(candidate: attention.Candidate) -> Callable[[], Evidence]:
    def run() -> Evidence:
        result = attention.check_equivariance(32, 64, candidate=candidate)
        return checked(result.passed, f"random X, W_q, W_k, W_v, P, float64: {result.summary()}")

    return run


def _sentences(positions: bool, constant: bool = False) -> Evidence:
    pair = attention.sentence_pair(64, positions=positions, constant_encoding=constant)
    label = (
        "with the sinusoidal encoding added"
        if positions
        else "with the same vector PE(0) added to every word"
        if constant
        else "embeddings alone"
    )
    return checked(
        pair.word_gap <= pair.tolerance,
        f"d=64, {label}: largest difference between a word's outputs in the two sentences "
        f"{pair.word_gap:.3g} (tolerance {pair.tolerance:.3g})",
    )


def _symmetry_broken(positions: bool, constant: bool = False) -> Evidence:
    pair = attention.sentence_pair(64, positions=positions, constant_encoding=constant)
    label = "sinusoidal encoding" if positions else "constant vector PE(0) on every row"
    ratio = pair.word_gap / pair.scale
    return checked(
        ratio > 0.05,
        f"d=64, {label}: a word's outputs in the two sentences differ by {pair.word_gap:.3g}, "
        f"{ratio:.3g} of the output scale {pair.scale:.3g} (needs > 0.05)",
    )


def _rnn(recurrent: bool) -> Evidence:
    gap = attention.rnn_final_gap(64, recurrent=recurrent)
    label = "final state h_3" if recurrent else "W_h = 0, sum of the states"
    return checked(gap > 1e-3, f"Elman cell, 16 units, d=64, {label}: difference {gap:.3g}")


def _rows_alone(positions: bool) -> Evidence:
    gap = attention.row_independence_gap(32, 64, positions=positions)
    label = "with" if positions else "without"
    return checked(
        gap <= 1e-12,
        f"n=32, d=64, {label} the encoding: each row computed alone vs all at once, "
        f"max difference {gap:.3g} (tolerance 1e-12)",
    )


def _rnn_alone() -> Evidence:
    gap = attention.rnn_step_without_history_gap(32, 64)
    return checked(
        gap <= 1e-12,
        f"Elman cell: h_t computed without h_(t-1) vs the true h_t, max difference {gap:.3g}",
    )


CLAIMS = (
    Claim(
        id="attention-permutation-equivariant",
        title="Self-attention without positions is permutation-equivariant",
        statement=(
            r"\begin{gathered} \operatorname{Attn}(PX) = P\,\operatorname{Attn}(X) \\"
            r" \text{for every permutation matrix } P \end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(attention.equivariance_proof(3, 2)),
            _numeric_equivariance("equivariant"),
        ),
        controls=(
            lambda: proved(
                attention.equivariance_proof(3, 2, candidate="invariant"),
                "invariance Attn(PX) = Attn(X)",
            ),
            lambda: proved(attention.equivariance_proof(3, 2, candidate="causal"), "causal mask"),
            lambda: proved(
                attention.equivariance_proof(3, 1, candidate="positions"),
                "position vectors added",
            ),
            _numeric_equivariance("invariant"),
            _numeric_equivariance("causal"),
            _numeric_equivariance("positions"),
        ),
    ),
    Claim(
        id="dog-bites-man-same-outputs",
        title="Without positions, the two sentences give the same outputs",
        statement=(
            r"\begin{gathered} \{\!\{\operatorname{Attn}(X_{\text{dog bites man}})_r\}\!\} \\"
            r" = \{\!\{\operatorname{Attn}(X_{\text{man bites dog}})_r\}\!\} \\"
            r" \text{(the same multiset of output rows)} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _sentences(False), lambda: _sentences(False, constant=True)),
        controls=(lambda: _sentences(True),),
    ),
    Claim(
        id="encoding-breaks-symmetry",
        title="Adding the sinusoidal encoding breaks the symmetry",
        statement=(
            r"\begin{gathered} \operatorname{Attn}(PX + PE) \neq P\,\operatorname{Attn}(X + PE)"
            r" \\ \text{a word's output depends on where it stands} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _symmetry_broken(True),),
        controls=(lambda: _symmetry_broken(False, constant=True),),
    ),
    Claim(
        id="rnn-reads-order",
        title="A recurrent network's final state depends on the order",
        statement=(
            r"\begin{gathered} h_t = \tanh(W_x x_t + W_h h_{t-1} + b) \\"
            r" h_3(\text{dog bites man}) \neq h_3(\text{man bites dog}) \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _rnn(True),),
        controls=(lambda: _rnn(False),),
    ),
    Claim(
        id="attention-rows-parallel",
        title="Attention is what runs in parallel, with or without the encoding",
        statement=(
            r"\begin{gathered} \operatorname{Attn}(X)_i = \operatorname{softmax}\!\Bigl("
            r"\tfrac{x_i W_q (XW_k)^{\mathsf T}}{\sqrt d}\Bigr) XW_v \\"
            r" \text{needs no other output; } h_t \text{ needs } h_{t-1} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _rows_alone(False), lambda: _rows_alone(True)),
        controls=(_rnn_alone,),
    ),
)
