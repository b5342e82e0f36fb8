"""Claims of the page "Why order must be injected" (docs/why-order.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pe._tolerance import Tolerance
from pe.claims import Chapter, Check, Evidence, by_proof, checked, proved, within
from pe.experiments import why_order as experiments
from pe.experiments.why_order import Encoding, Layer, Sides, Summary
from pe.proofs import why_order as proofs
from pe.proofs import wrong

claim = Chapter("why-order").claim


def _numeric_equivariance(sides: Sides) -> Evidence:
    result = experiments.check_equivariance(sides, 32, 64)
    return checked(
        True,
        f"random X, W_q, W_k, W_v, P, float64: {result.summary()}",
        error=result.worst_ratio,
        tolerance=Tolerance(1.0, r"B(PX) + P\,B(X) \text{ entry by entry}"),
    )


def _sentences(encoding: Encoding) -> Evidence:
    pair = experiments.sentence_pair(encoding, 64)
    return within(
        pair.word_gap,
        Tolerance(pair.tolerance, r"\max B(X_1) + \max B(X_2)"),
        f"d=64, {encoding.label}: largest difference between a word's outputs in the two "
        f"sentences {pair.word_gap:.3g} (tolerance {pair.tolerance:.3g})",
    )


def _symmetry_broken(encoding: Encoding) -> Evidence:
    pair = experiments.sentence_pair(encoding, 64)
    ratio = pair.word_gap / pair.scale
    return checked(
        ratio > 0.05,
        f"d=64, {encoding.label}: a word's outputs in the two sentences differ by "
        f"{pair.word_gap:.3g}, {ratio:.3g} of the output scale {pair.scale:.3g} (needs > 0.05)",
    )


def _rnn(summary: Summary) -> Evidence:
    gap = experiments.rnn_final_gap(summary, 64)
    return checked(gap > 1e-3, f"Elman cell, 16 units, d=64: difference {gap:.3g}")


def _rows_alone(encoding: Encoding) -> Callable[[Layer], Evidence]:
    def run(layer: Layer) -> Evidence:
        gap = experiments.row_independence_gap(layer, 32, 64, encoding)
        bound = experiments.row_independence_tolerance(32, 64, encoding)
        return within(
            gap,
            Tolerance(bound, r"2 \max B(X)"),
            f"n=32, d=64, {encoding.label}: each row computed alone vs all at once, "
            f"max difference {gap:.3g} (tolerance {bound:.3g})",
        )

    return run


def _recurrent_paths(steps: proofs.StepLaw) -> Evidence:
    return proved(proofs.path_lengths(proofs.elman_layer, steps))


CLAIMS = (
    claim(
        "attention-permutation-equivariant",
        "Self-attention without positions is permutation-equivariant",
        Check(
            by_proof(partial(proofs.equivariance, n=3, d_model=2)),
            true=experiments.equivariant,
            wrong=(wrong.INVARIANCE, wrong.CAUSAL_MASK),
        ),
        Check(
            by_proof(partial(proofs.equivariance, n=3, d_model=1)),
            true=experiments.equivariant,
            wrong=(wrong.POSITIONS_ADDED,),
        ),
        Check(
            _numeric_equivariance,
            true=experiments.equivariant,
            wrong=(wrong.INVARIANCE, wrong.CAUSAL_MASK, wrong.POSITIONS_ADDED),
        ),
        statement=(
            r"\begin{gathered} \operatorname{Attn}(PX) = P\,\operatorname{Attn}(X) \\"
            r" \text{for every permutation matrix } P \end{gathered}"
        ),
    ),
    claim(
        "dog-bites-man-same-outputs",
        "Without positions, the two sentences give the same outputs",
        Check(_sentences, true=experiments.NO_ENCODING, wrong=(wrong.SINUSOIDAL_ENCODING,)),
        Check(_sentences, true=experiments.CONSTANT_PE0),
        statement=(
            r"\begin{gathered} \{\!\{\operatorname{Attn}(X_{\text{dog bites man}})_r\}\!\} \\"
            r" = \{\!\{\operatorname{Attn}(X_{\text{man bites dog}})_r\}\!\} \\"
            r" \text{(the same multiset of output rows)} \end{gathered}"
        ),
    ),
    claim(
        "encoding-breaks-symmetry",
        "Adding the sinusoidal encoding breaks the symmetry",
        Check(_symmetry_broken, true=experiments.SINUSOIDAL, wrong=(wrong.CONSTANT_ENCODING,)),
        statement=(
            r"\begin{gathered} \operatorname{Attn}(PX + PE) \neq P\,\operatorname{Attn}(X + PE)"
            r" \\ \text{a word's output depends on where it stands} \end{gathered}"
        ),
    ),
    claim(
        "rnn-reads-order",
        "A recurrent network's final state depends on the order",
        Check(_rnn, true=experiments.final_state, wrong=(wrong.FORGETFUL_READER,)),
        statement=(
            r"\begin{gathered} h_t = \tanh(W_x x_t + W_h h_{t-1} + b) \\"
            r" h_3(\text{dog bites man}) \neq h_3(\text{man bites dog}) \end{gathered}"
        ),
    ),
    claim(
        "attention-rows-parallel",
        "Attention is what runs in parallel, with or without the encoding",
        Check(
            _rows_alone(experiments.NO_ENCODING),
            true=experiments.attention_layer,
            wrong=(wrong.RECURRENT_STEPS,),
        ),
        Check(_rows_alone(experiments.SINUSOIDAL), true=experiments.attention_layer),
        statement=(
            r"\begin{gathered} \operatorname{Attn}(X)_i = \operatorname{softmax}\!\Bigl("
            r"\tfrac{x_i W_q (XW_k)^{\mathsf T}}{\sqrt d}\Bigr) XW_v \\"
            r" \text{needs no other output; } h_t \text{ needs } h_{t-1} \end{gathered}"
        ),
    ),
    claim(
        "attention-cost-quadratic",
        "Attention's cost grows with the square of the length",
        Check(
            by_proof(proofs.attention_cost),
            true=proofs.attention_cost_law,
            wrong=(wrong.RECURRENT_COST,),
        ),
        Check(by_proof(proofs.rnn_cost), true=proofs.rnn_cost_law, wrong=(wrong.ATTENTION_COST,)),
        statement=(
            r"\begin{gathered} QK^{\mathsf T} \text{ and } AV\!: n^2 d + n^2 d = 2n^2 d"
            r" \text{ multiplications} \\ \text{an Elman layer: } 2nd^2"
            r" \text{, in } n \text{ steps one after another} \end{gathered}"
        ),
    ),
    claim(
        "attention-path-length-one",
        "One attention layer puts every token one step from every output",
        Check(
            by_proof(proofs.path_lengths),
            true=proofs.attention_layer,
            wrong=(wrong.CAUSAL_LAYER, wrong.RECURRENT_LAYER),
        ),
        Check(_recurrent_paths, true=proofs.recurrent_steps, wrong=(wrong.ONE_STEP,)),
        statement=(
            r"\begin{gathered} \text{attention: steps}(x_j \to y_i) = 1 \text{ for all } i, j"
            r" \\ \text{Elman: steps}(x_j \to h_i) = i - j + 1 \text{ for } j \le i,"
            r" \text{ no path for } j > i \end{gathered}"
        ),
    ),
    claim(
        "vaswani-layer-comparison",
        "Vaswani et al., Table 1: cost, sequential steps and path length of layer types",
        statement=(
            r"\begin{gathered}\text{Vaswani et al. (2017), Table 1: self-attention } O(n^2 d)"
            r" \text{ per layer, } O(1) \text{ sequential operations, } O(1) \text{ maximum path"
            r" length;} \\ \text{recurrent: } O(n d^2),\ O(n),\ O(n)\end{gathered}"
        ),
        source="vaswani2017",
    ),
)
