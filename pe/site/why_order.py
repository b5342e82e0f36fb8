"""The page "Why order must be injected": its figure, tables and exercises.

Each function computes its data from :mod:`pe` and returns :class:`~pe.site.html.Html`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from pe import attention as experiments
from pe.attention import Sides
from pe.chapters import why_order as proofs
from pe.chapters import why_order as wrong
from pe.site import report
from pe.site.figures import Palette, render
from pe.site.html import Html, escape, table

__all__ = ["equivariance_table", "exact_proof", "exercises", "sentence_outputs", "wrong_proofs"]

#: The statements of the numeric table, each with its row label.
COMPARISONS: tuple[tuple[str, Sides], ...] = (
    ("Attn(PX) against P Attn(X)", experiments.equivariant),
    ("Attn(PX) against Attn(X) (wrong)", wrong.INVARIANCE.value),
    ("causal mask (wrong)", wrong.CAUSAL_MASK.value),
    ("encoding added before attention (wrong)", wrong.POSITIONS_ADDED.value),
)


def exact_proof() -> Html:
    """The SymPy proof of permutation equivariance for three tokens of width 2, step by step.

    Examples
    --------
    >>> "all 6 permutation matrices" in exact_proof()
    True
    """
    return report.proof(proofs.equivariance(n=3, d_model=2))


def wrong_proofs() -> Html:
    """The verdicts of the exact proof fed invariance and a causal mask (both must fail),
    each worded as what it is: a wrong candidate, rejected as expected.

    Examples
    --------
    >>> wrong_proofs().count("residual is not zero: rejected, as expected")
    2
    """
    results = [
        (c.name, proofs.equivariance(c.value)) for c in (wrong.INVARIANCE, wrong.CAUSAL_MASK)
    ]
    if any(proof.holds for _, proof in results):
        raise AssertionError("a wrong candidate passed the equivariance proof")
    items = "".join(
        f"<li>{escape(f'{name}: {proof.summary()}')}: {report.REJECTED}</li>"
        for name, proof in results
    )
    return Html(f"<ul>{items}</ul>")


def equivariance_table(n: int = 32, d_model: int = 64) -> Html:
    """The numeric check of equivariance and of the three wrong statements, as a table.

    Examples
    --------
    >>> equivariance_table(n=4, d_model=8).count("rejected, as expected")
    3
    """
    checks = [
        (label, experiments.check_equivariance(sides, n, d_model)) for label, sides in COMPARISONS
    ]
    if not checks[0][1].passed or any(check.passed for _, check in checks[1:]):
        raise AssertionError("the numeric equivariance check gave a wrong verdict")
    return table(
        [f"comparison (n = {n}, d = {d_model})", "max |difference|", "tolerance", "verdict"],
        (
            [
                label,
                f"{check.max_abs_error:.3g}",
                f"{check.tolerance:.3g}",
                "holds" if check.passed else report.REJECTED,
            ]
            for label, check in checks
        ),
    )


def sentence_outputs(d_model: int = 64, components: int = 24) -> Html:
    """The output for "dog" in both sentences: attention without and with the encoding, and an RNN."""
    plain = experiments.sentence_pair(d_model=d_model)
    placed = experiments.sentence_pair(experiments.SINUSOIDAL, d_model)
    vocabulary = experiments.toy_vocabulary(d_model)
    rnn = experiments.toy_rnn(d_model)
    states = [
        experiments.final_state(experiments.sentence_matrix(s, vocabulary), rnn)
        for s in (experiments.SENTENCE, experiments.SWAPPED)
    ]
    dog1, dog2 = experiments.SENTENCE.index("dog"), experiments.SWAPPED.index("dog")
    panels = (
        ("attention, no positions", plain.first[dog1], plain.second[dog2], "output for 'dog'"),
        ("attention + sinusoidal PE", placed.first[dog1], placed.second[dog2], "output for 'dog'"),
        ("RNN, final state h_3", states[0], states[1], "final state"),
    )

    def draw(fig: Figure, palette: Palette) -> None:
        axes = fig.subplots(3, 1, sharex=True)
        for ax, (title, first, second, ylabel) in zip(axes, panels, strict=True):
            index = np.arange(min(components, first.size))
            ax.plot(index, first[index], "o", ms=6, color=palette.lines[0], label="dog bites man")
            ax.plot(index, second[index], "x", ms=6, color=palette.lines[1], label="man bites dog")
            ax.set_title(title)
            ax.set_ylabel(ylabel)
            ax.grid(True, lw=0.4)
        axes[-1].set_xlabel("component")
        axes[0].legend(loc="lower center", bbox_to_anchor=(0.5, 1.25), ncol=2)
        fig.tight_layout()

    return render(
        draw,
        alt=(
            "Three stacked panels comparing 'dog bites man' (circles) with 'man bites dog' "
            "(crosses). Top: without positions the attention output for 'dog' is the same in both "
            "sentences, the crosses sit inside the circles. Middle: with the sinusoidal "
            "encoding added the two outputs for 'dog' differ. Bottom: an RNN's final states "
            "differ between the two orders."
        ),
        caption=(
            f"Toy head with d = {d_model} (seeded embeddings and weights); first {components} "
            f"components. Largest difference between the two outputs for 'dog': "
            f"{np.abs(plain.first[dog1] - plain.second[dog2]).max():.1g} without positions, "
            f"{np.abs(placed.first[dog1] - placed.second[dog2]).max():.2f} with the encoding."
        ),
        size=(4.2, 7.0),
    )


def exercises() -> Html:
    """The chapter's three exercises, answers computed now.

    Examples
    --------
    >>> exercises().count('class="pe-exercise"')
    3
    """
    proof_4 = proofs.equivariance(n=4, d_model=1)
    if not proof_4.holds:
        raise AssertionError("the proof for four tokens failed")
    pair = experiments.sentence_pair(d_model=64)
    mean_gap = float(np.abs(pair.first.mean(axis=0) - pair.second.mean(axis=0)).max())
    constant = experiments.sentence_pair(experiments.CONSTANT_PE0, 64)
    return Html(
        report.exercise(
            "The proof above covers 3 tokens. How many permutation matrices must a proof of the "
            "same kind try for \\(n = 4\\) tokens, and does the statement still hold?",
            f"\\(4! = 24\\) permutations. SymPy runs them with \\(d = 1\\): "
            f"{escape(proof_4.summary())}. The argument itself (scores, softmax, "
            "\\(P^{\\mathsf T}P = I\\)) never used the value of \\(n\\).",
            claim_id="attention-permutation-equivariant",
        )
        + report.exercise(
            "A sentence classifier averages the attention outputs of its words. Without "
            "positional information, how far apart are its inputs for <em>dog bites man</em> "
            "and <em>man bites dog</em>?",
            f"Equal up to rounding: the averages differ by at most {mean_gap:.1g} here, because "
            "the two sentences give the same multiset of outputs and an average does not depend "
            "on the order of its terms.",
            claim_id="dog-bites-man-same-outputs",
        )
        + report.exercise(
            "Someone proposes to mark every token with the same learned vector \\(c\\) before "
            "attention. Does that let the head tell the two sentences apart?",
            f"No. \\(PX + \\mathbf{{1}}c^{{\\mathsf T}} = P(X + \\mathbf{{1}}c^{{\\mathsf T}})\\), "
            "so equivariance still holds; with \\(c = PE(0)\\) a word's outputs in the two "
            f"sentences differ by only {constant.word_gap:.1g}. The added vectors must differ "
            "from position to position.",
            claim_id="encoding-breaks-symmetry",
        )
    )
