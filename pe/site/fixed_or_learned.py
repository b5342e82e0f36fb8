"""The page "Fixed or learned": its figures, tables, sentences and exercises.

Each function computes its numbers with :mod:`pe.chapters.fixed_or_learned` and the stacks
of :mod:`pe.residual_stream` when called
and returns :class:`~pe.site.html.Html`; figures go through :func:`pe.site.figures.render`.
A function that states a fact the prose relies on raises if the fact does not hold.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure

from pe import numeric
from pe import position_designs as learned
from pe import residual_stream as stream
from pe.chapters import fixed_or_learned as facts
from pe.site import report
from pe.site.figures import Palette, label_axes, render
from pe.site.html import Html, code, table

__all__ = [
    "exercise_parameters",
    "exercise_residual_sum",
    "exercise_unseen_pairs",
    "learned_table_sentence",
    "position_signal_by_depth",
    "signal_table",
    "unseen_pairs_by_position",
    "unseen_sentence",
]

#: The stacks of :func:`signal_table`: label and connection.
STACKS = (
    ("pre-LN residual, h + f(LN(h))", stream.RESIDUAL),
    ("post-LN residual, LN(h + f(h)) (the paper's)", stream.POST_LN),
    ("plain, f(LN(h))", stream.PLAIN),
    ("residual, first sublayer outputs −h", stream.CANCELLING),
)


def learned_table_sentence() -> Html:
    """The size of the page's learned table, and what it answers for position ``n_max``.

    Examples
    --------
    >>> "262,144 parameters" in learned_table_sentence()
    True
    """
    positions = learned.LearnedPositions(facts.N_MAX, facts.WIDTH)
    try:
        positions.lookup([facts.N_MAX])
        refused = "answered"
    except ValueError as error:
        refused = str(error)
    return Html(
        f"<p>For \\(n_{{\\max}} = {facts.N_MAX}\\) and \\(d = {facts.WIDTH}\\) (the base model's "
        f"width {report.mark('vaswani-learned-nearly-identical')}): {positions.parameters:,} parameters. Asking it for position {facts.N_MAX}: "
        f"{code(refused)}.</p>"
    )


def unseen_sentence() -> Html:
    """How many pairs never complete a turn in training, and how many are unseen at ``2 n_max``."""
    d, n = facts.WIDTH, facts.N_MAX
    unseen = learned.unseen_pairs(d, n, 2 * n)
    slow = numeric.frequencies(d) * (n - 1) < 2 * np.pi
    just_past = learned.unseen_pairs(d, n, n + 1)
    return Html(
        f"<p>With \\(d = {d}\\) and training positions 0 to {n - 1}, "
        f"{int(slow.sum())} of the {d // 2} pairs never complete a turn in training. At "
        f"position {n + 1}, {int((just_past & slow).sum())} of them lie farther from every "
        f"training value than one step of their own rotation; at position {2 * n}, "
        f"{int(unseen.sum())} pairs do: the model is shown combinations it never saw.</p>"
    )


def unseen_pairs_by_position(d_model: int = 512, n_train: int = 512) -> Html:
    """How many pairs take values no training position came near, against the position."""
    positions = np.unique(np.concatenate([np.arange(0, 4 * n_train, 8), [n_train]]))
    counts = np.array([learned.unseen_pairs(d_model, n_train, int(p)).sum() for p in positions])

    def draw(fig: Figure, palette: Palette) -> None:
        ax = fig.add_subplot()
        ax.plot(positions, counts, color=palette.lines[0], lw=1.2)
        ax.axvline(n_train, color=palette.lines[1], lw=1, ls="--", label="training length")
        label_axes(ax, "position p", f"pairs (of {d_model // 2}) with unseen values", grid=0.4)

    beyond = counts[positions > n_train]
    return render(
        draw,
        alt=(
            f"Line plot of the number of frequency pairs, out of {d_model // 2}, whose value at "
            f"position p lies more than one step (the distance between neighbouring positions) "
            f"from every value positions 0 to {n_train - 1} produced. It is "
            f"{counts[positions <= n_train].max()} at every position up to {n_train}, one "
            f"step past the last trained one, then rises to {beyond.max()} and stays between "
            f"{beyond[beyond > 0].min()} and {beyond.max()} once it has risen."
        ),
        caption=(
            f"d = {d_model}, trained on positions 0 .. {n_train - 1}: just past the training "
            "length, the slow pairs move into angles the model never saw; farther out some "
            "come back round."
        ),
    )


def signal_table() -> Html:
    """The position signal at the top of the page's stack: pre-LN, post-LN, plain, cancelling.

    Raises
    ------
    AssertionError
        If the pre-LN stack does not keep PE's direction best, the plain one does, or the
        cancelling one leaves any signal (the prose says so).
    """
    d, n, layers = facts.STACK
    values = [stream.position_signal(d, n, layers, connection=c) for _, c in STACKS]
    if not (values[0] > values[1] and values[0] > 0.5 > values[2] and math.isnan(values[3])):
        raise AssertionError(f"position signals {values} contradict the prose")
    return table(
        [
            f"stack ({layers} sublayers, d = {d}, {n} positions)",
            Html("mean cosine(h<sub>L</sub>(x + PE) − h<sub>L</sub>(x), PE)"),
        ],
        [
            [label, "undefined: the change is 0" if math.isnan(value) else f"{value:.3f}"]
            for (label, _), value in zip(STACKS, values, strict=True)
        ],
    )


def position_signal_by_depth() -> Html:
    """Mean cosine between the top's change and PE, residual against plain stacks (the depths
    of ``residual-signal-order``)."""
    d_model, n, _ = facts.STACK
    layers = np.array(facts.DEPTHS)
    depth = int(layers[-1])
    with_residual = facts.signals_by_depth(stream.RESIDUAL)
    plain = facts.signals_by_depth(stream.PLAIN)

    def draw(fig: Figure, palette: Palette) -> None:
        ax = fig.add_subplot()
        ax.plot(
            layers,
            with_residual,
            "o-",
            color=palette.lines[0],
            ms=4,
            label="with residual",
        )
        ax.plot(layers, plain, "s-", color=palette.lines[1], ms=4, label="plain")
        # Room for every point: a plain stack's cosine can fall below -0.1.
        ax.set_ylim(min(-0.1, min(plain) - 0.05), 1.05)
        ax.set_xticks(layers[1::2])  # whole numbers of sublayers
        label_axes(ax, "number of sublayers L", "mean cosine(h_L(x+PE) − h_L(x), PE)", grid=0.4)

    return render(
        draw,
        alt=(
            f"Line plot against the number of sublayers, 1 to {depth}: with residual "
            f"connections the cosine between the change at the top and PE starts at "
            f"{with_residual[0]:.2f} and is {with_residual[-1]:.2f} at {depth}; without, "
            f"it stays between {min(plain):.2f} and {max(plain):.2f}."
        ),
        caption=(
            f"d = {d_model}, {n} positions, random sublayers (gain 0.5); with residual: "
            "h + f(LN(h)), plain: f(LN(h)). The residual path keeps PE in the sum; the "
            "sublayers' outputs are added to it."
        ),
    )


def exercise_parameters() -> Html:
    """Exercise: the parameters of a learned table for 2048 positions at width 1024."""
    bigger = learned.LearnedPositions(2048, 1024)
    return report.exercise(
        "How many parameters does a learned position table need for sequences of up to 2048 "
        "tokens at width 1024, and how many does the sinusoidal table need?",
        f"\\(2048 \\times 1024 = {bigger.parameters:,}\\) for the learned table; none for the "
        "sinusoidal one.",
        claim_id="learned-table-trade",
    )


def exercise_unseen_pairs() -> Html:
    """Exercise: unseen pairs inside the training range and beyond it."""
    d, n = facts.WIDTH, facts.N_MAX
    at_1024 = int(learned.unseen_pairs(d, n, 1024).sum())
    at_300 = int(learned.unseen_pairs(d, n, 300).sum())
    return report.exercise(
        f"A model with \\(d = {d}\\) was trained on positions 0 to {n - 1}. "
        "How many pairs take values unlike any training position at position 300, and at 1024?",
        f"{at_300} at position 300 (inside the training range); {at_1024} at position 1024.",
        claim_id="unseen-values-beyond-training",
    )


def exercise_residual_sum() -> Html:
    """Exercise: what a residual stack's top minus its sublayer outputs is."""
    return report.exercise(
        "In a pre-LN residual stack, what is \\(h_L - \\sum_{l \\lt L} f_l(\\mathrm{LN}(h_l))\\)?",
        "Exactly the input \\(x + PE\\): the encoding is a term of the sum at every depth.",
        claim_id="residual-stream-carries-position",
    )
