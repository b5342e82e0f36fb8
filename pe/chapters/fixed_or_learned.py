r"""Fixed or learned (``docs/fixed-or-learned.py``): a learned position table against the sinusoidal one, and a residual stack.

A learned table is a trainable ``(n_max, d)`` array: :math:`n_{\max} d` parameters, one row
per position seen in training and no row beyond (:class:`pe.position_designs.LearnedPositions`).
The sinusoidal table has no parameters and a value at every position, but being *defined* at
a position is not the same as the model having *seen* it: beyond the training length the
low-frequency pairs reach angles no training position produced
(:func:`pe.position_designs.unseen_pairs`).

Once in, the encoding travels up a tiny residual stack (:mod:`pe.residual_stream`): with
layer normalisation before each sublayer (pre-LN), the top is the input plus the sum of the
sublayers' outputs, :math:`h_L = x + PE + \sum_{l<L} f_l(\mathrm{LN}(h_l))`, so the
encoding stays in it term for term; the original Transformer's post-LN layer and a stack
without residual connections do not keep that sum.

Examples
--------
>>> LearnedPositions(16, 4).parameters
64
>>> int(unseen_pairs(64, 128, 1000).sum()) > 0
True
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from itertools import pairwise

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import numeric
from pe._machine_dependent import judged_within, measured_within, worst_case_text
from pe._tolerance import EPS64, Tolerance, worst_case
from pe.claims import Candidate, Chapter, Check, Evidence, by_proof, checked, within
from pe.error_models import DOT_PRODUCT
from pe.position_designs import LearnedPositions, arc_counts, turnless_pairs, unseen_pairs
from pe.residual_stream import (
    CANCELLING,
    PLAIN,
    POST_LN,
    RESIDUAL,
    Connection,
    StackRun,
    position_signal,
    run_stack,
)
from pe.symbolic import Derivation, Proof

chapter = Chapter(__name__, follows="implications")
claim = chapter.claim

Array = npt.NDArray[np.float64]

#: Position 511, the last one of a training range 0 .. 511.
LAST_TRAINED_POSITION = Candidate("position 511, the last trained", 511)

#: The base model's trained length and width used on the page.
N_MAX = 512
WIDTH = 512

#: Parameters :math:`(n_{\max} + 1) d`: a row for every position 0 to :math:`n_{\max}` inclusive.
ROW_FOR_N_MAX = Candidate("(n_max + 1) d, rows for 0 .. n_max", lambda n_max, d: (n_max + 1) * d)

#: The learned table of 512 rows used as an encoding ``(positions, d) -> rows``.
LEARNED_LOOKUP = Candidate(
    "a learned table of 512 rows",
    lambda positions, d: LearnedPositions(512, d).lookup(positions),
)

#: The sinusoidal rows 0.1 % too long: defined everywhere, but not of norm sqrt(d/2).
LONGER_ROWS = Candidate(
    "sinusoidal rows scaled by 1.001", lambda positions, d: 1.001 * numeric.sinusoidal(positions, d)
)

#: Positions beyond training where the sinusoidal table is checked.
FAR = np.array([N_MAX, 10**6, 2**40])


def _parameters(count: Callable[[int, int], int]) -> Evidence:
    """The table's trainable numbers against ``count``: every entry is reached by one lookup.

    Looking up every trained position ``0 .. n_max - 1`` once returns each stored number
    exactly once (distinct rows), so the size of that lookup is the number of parameters a
    gradient step can change; the table itself must hold no more.
    """
    table = LearnedPositions(N_MAX, WIDTH)
    reached = table.lookup(np.arange(N_MAX)).size
    expected = count(N_MAX, WIDTH)
    return checked(
        table.parameters == reached == expected,
        f"learned table for n_max={N_MAX}, d={WIDTH}: {table.parameters} parameters, "
        f"{reached} reached by looking up positions 0..{N_MAX - 1}, candidate count {expected}",
    )


def _no_row_at(position: int) -> Evidence:
    try:
        LearnedPositions(N_MAX, WIDTH).lookup([position])
    except ValueError as error:
        return checked(True, f"learned table has no row for position {position}: {error}")
    return checked(False, f"learned table has a row for position {position}")


def _rows_everywhere(
    encoding: Callable[[npt.NDArray[np.int64], int], npt.NDArray[np.float64]],
) -> Evidence:
    try:
        rows = encoding(FAR, WIDTH)
    except ValueError as error:
        return checked(False, f"no rows at p in {FAR.tolist()}: {error}")
    norm_gap = float(np.abs(np.linalg.norm(rows, axis=1) - np.sqrt(WIDTH / 2)).max())
    norm_tolerance = DOT_PRODUCT(WIDTH, 0.0)
    # the identity on the candidate's own rows: T_k times its row p against its row p + k
    offsets = (1, 5, 100)
    column_omega = np.repeat(numeric.frequencies(WIDTH), 2)[None, :]
    by_offset = [
        worst_case(
            rows @ numeric.shift_matrix(k, WIDTH).T - encoding(FAR + k, WIDTH),
            numeric.rotation_tolerance(column_omega, FAR[:, None], k, np.float64),
        )
        for k in offsets
    ]
    identity = max(by_offset, key=lambda case: case.worst_ratio)
    k = offsets[by_offset.index(identity)]
    row, column = identity.index
    return within(
        max(norm_gap / norm_tolerance, identity.worst_ratio),
        Tolerance(
            1.0,
            r"\text{dot-product model; shift model } 4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\omega_i(|p| + |k|)",
        ),
        f"rows at p in {FAR.tolist()}, d={WIDTH}, 0 parameters: |norm - sqrt(d/2)| "
        f"{judged_within(norm_gap, norm_tolerance)}; "
        f"rotation identity T_k row(p) = row(p+k) on these rows, k in {list(offsets)}: "
        + worst_case_text(
            identity,
            f"max error {identity.max_abs_error:.3g} at p={FAR[row]}, k={k}, column {column} "
            f"(tolerance {identity.tolerance:.3g}); worst error/tolerance "
            f"{identity.worst_ratio:.3g}: {identity.verdict}",
        ),
    )


claim(
    "learned-table-trade",
    r"A learned table costs $n_{\max} \cdot d$ parameters and stops at $n_{\max}$",
    Check(_parameters, true=operator.mul, wrong=(ROW_FOR_N_MAX,)),
    Check(_no_row_at, true=N_MAX, wrong=(LAST_TRAINED_POSITION,)),
    Check(_rows_everywhere, true=numeric.sinusoidal, wrong=(LEARNED_LOOKUP, LONGER_ROWS)),
    statement=(
        r"\begin{gathered}\text{learned: } n_{\max} d \text{ parameters, rows for }"
        r" 0 \le p < n_{\max} \text{ only;} \\"
        r" \text{sinusoidal: } 0 \text{ parameters, a row for every } p\end{gathered}"
    ),
)

claim(
    "vaswani-learned-nearly-identical",
    "Vaswani et al.: learned and sinusoidal positions gave nearly identical results",
    statement=(
        r"\begin{gathered}\text{Vaswani et al. (2017), Table 3, row (E): learned positional"
        r" embeddings instead of sinusoids} \\ \text{give nearly identical results to the base"
        r" model } (d_{\text{model}} = 512\text{, English-German development set);} \\"
        r" \text{the sinusoids were kept in the hope that they extrapolate}\end{gathered}"
    ),
    source="vaswani2017",
)

claim(
    "press-sinusoidal-degrades",
    "Press et al.: sinusoidal models degrade beyond the training length, ALiBi does not",
    statement=(
        r"\begin{gathered}\text{Press et al. (2022), Figure 1, WikiText-103, training lengths"
        r" 512 and 1024: perplexity of sinusoidal and rotary models} \\ \text{degrades beyond"
        r" the training length, and of the T5-bias model as far as it ran (the caption: T5 ran"
        r" out of memory} \\ \text{on their 32 GB GPU); ALiBi's does not}\end{gathered}"
    ),
    source="press2022",
)


#: Position 256, inside a training range 0 .. 511.
INSIDE_TRAINING = Candidate("position 256, inside training", 256)


def _unseen_at(position: int) -> Evidence:
    unseen = unseen_pairs(WIDTH, N_MAX, position)
    slow = turnless_pairs(WIDTH, N_MAX)
    return checked(
        bool(unseen.any()),
        f"d={WIDTH}, trained on 0..{N_MAX - 1}: at position {position}, {int(unseen.sum())} "
        f"of {WIDTH // 2} pairs lie outside every trained value (pairs that do not complete "
        f"a turn in training: {int(slow.sum())})",
    )


#: The page's counts at d = 512, trained on 0 .. 511: pairs without a turn, unseen at 1024.
UNSEEN_COUNTS = (133, 114)

#: Every pair that completes no turn taken for unseen at position 1024.
EVERY_SLOW_PAIR_UNSEEN = Candidate("every pair without a turn unseen", (133, 133))


def _counts(stated: tuple[int, int]) -> Evidence:
    slow = int(turnless_pairs(WIDTH, N_MAX).sum())
    unseen = int(unseen_pairs(WIDTH, N_MAX, 2 * N_MAX).sum())
    oracle = arc_counts(WIDTH, N_MAX, 2 * N_MAX)
    return checked(
        stated == oracle == (slow, unseen),
        f"d={WIDTH}, trained on 0..{N_MAX - 1}, position {2 * N_MAX}: pe counts {slow} pairs "
        f"without a turn and {unseen} unseen; mpmath's arcs {oracle[0]} and {oracle[1]}",
    )


#: The first position past training, where every pair without a turn is outside its arc.
JUST_PAST = N_MAX + 1

#: Twice the training length taken for a position where every slow pair is still unseen.
TWICE_THE_LENGTH = Candidate("position 1024, twice the training length", 2 * N_MAX)


def _every_slow_pair_unseen(position: int) -> Evidence:
    unseen = unseen_pairs(WIDTH, N_MAX, position)
    slow = turnless_pairs(WIDTH, N_MAX)
    back = np.flatnonzero(slow & ~unseen)
    return checked(
        back.size == 0 and bool(slow.any()),
        f"d={WIDTH}, trained on 0..{N_MAX - 1}: at position {position}, "
        f"{int((slow & unseen).sum())} of the {int(slow.sum())} pairs without a turn lie outside "
        f"every trained value; back inside their trained arc: "
        + (f"pairs {back[0]}..{back[-1]} ({back.size})" if back.size else "none"),
    )


claim(
    "unseen-values-beyond-training",
    "Just past the training length, the slow pairs take values never seen in training",
    Check(_every_slow_pair_unseen, true=JUST_PAST, wrong=(TWICE_THE_LENGTH,)),
    Check(_counts, true=UNSEEN_COUNTS, wrong=(EVERY_SLOW_PAIR_UNSEEN,)),
    Check(
        _unseen_at,
        true=2 * N_MAX,
        wrong=(INSIDE_TRAINING, LAST_TRAINED_POSITION),
    ),
    statement=(
        r"\begin{gathered}d = 512,\ \text{trained on } 0 \le p < 512: \text{ 133 of 256"
        r" pairs complete no turn } (511\,\omega_i < 2\pi); \\ \text{at } p ="
        rf" {JUST_PAST} \text{{ all 133 of them, at }} p = 1024 \text{{ 114 pairs, }} v_i(p)"
        r" \text{ lie farther than one step} \\ \text{from every } v_i(p'),\ p' < 512"
        r" \text{ (the faster slow pairs come back round)}\end{gathered}"
    ),
)


#: A stack without residual connections.
PLAIN_STACK = Candidate("no residual", PLAIN)

#: The paper's post-LN layer, :math:`h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))`.
POST_LN_STACK = Candidate("post-LN (the paper's layer)", POST_LN)

#: A residual stack whose first sublayer outputs :math:`-h_0`.
CANCELLING_SUBLAYER = Candidate("a sublayer that cancels its input", CANCELLING)

#: Residual-stack settings: width, positions, sublayers.
STACK = (64, 128, 6)


def _stack_run(connection: Connection) -> tuple[Array, StackRun, Tolerance]:
    """The stack of :data:`STACK` run on random content plus the encoding: its input
    ``x + PE``, the run, and the tolerance of its sum."""
    d, n, layers = STACK
    rng = np.random.default_rng(7)
    inputs = rng.standard_normal((n, d)) + numeric.sinusoidal(n, d)
    run = run_stack(inputs, layers, connection=connection)
    # h and the running sum each add the same L outputs, one rounding per addition at most
    # u times the largest magnitude along the way; the final two subtractions, 2u of 3 times it
    rounding = (2 * layers + 6) * EPS64 / 2 * run.largest
    return (
        inputs,
        run,
        Tolerance(rounding, r"(2L + 6)\,u \max_l(|h_l|, |\textstyle\sum_{j<l} f_j|)"),
    )


def _stack_sum(connection: Connection) -> Evidence:
    d, _, layers = STACK
    inputs, run, tolerance = _stack_run(connection)
    gap = float(np.abs(run.top - inputs - run.sublayer_sum).max())
    return within(
        gap,
        tolerance,
        f"{connection.name} stack, d={d}, {layers} sublayers: "
        f"max |h_L - (x + PE) - Σ f_l(LN(h_l))| = "
        f"{measured_within(gap, tolerance.value)}",
    )


#: What the sum of the exercise adds, ``run -> sum``: the sublayers' outputs as the stack
#: adds them, :math:`\sum_l f_l(\mathrm{LN}(h_l))`, or (the exercise's old wording)
#: :math:`\sum_l f_l(h_l)`, the sublayers applied to the raw states.
def _added_sum(run: StackRun) -> Array:
    return run.sublayer_sum


RAW_STATES_SUM = Candidate(
    "Σ f_l(h_l) (the sublayers on the raw states)",
    lambda run: run.raw_sublayer_sum,
)


def _exercise_sum(summed: Callable[[StackRun], Array]) -> Evidence:
    """The pre-LN stack's top minus ``summed(run)`` against its input ``x + PE`` (the exercise).

    Error model as :func:`_stack_sum`.
    """
    d, _, layers = STACK
    inputs, run, tolerance = _stack_run(RESIDUAL)
    gap = float(np.abs(run.top - summed(run) - inputs).max())
    return within(
        gap,
        tolerance,
        f"pre-LN stack, d={d}, {layers} sublayers: max |h_L - Σ - (x + PE)| = "
        f"{measured_within(gap, tolerance.value)}",
    )


def _signal(connection: Connection) -> Evidence:
    d, n, layers = STACK
    value = position_signal(d, n, layers, connection=connection)
    shown = "undefined (nothing changed at the top)" if math.isnan(value) else f"{value:.3f}"
    return checked(
        value > 0.5,
        f"{connection.name} stack, d={d}, n={n}, {layers} sublayers: mean cosine between the "
        f"change at the top and PE(p) = {shown} (threshold 0.5)",
    )


def stream_sum(connection: Connection) -> Proof:
    r"""Prove by induction on :math:`L` that the stream's top is its input plus the sublayers'
    outputs, :math:`h_L = x + PE + \sum_{l<L} f_l(\mathrm{LN}(h_l))`, for ``connection``.

    For :math:`L = 0` the sum is empty and :math:`h_0 = x + PE`. Step: if
    :math:`h_L = h_0 + S` with :math:`S` the sum of the first :math:`L` outputs, the layer
    joins :math:`h_L` and :math:`F = f_L(\mathrm{LN}(h_L))` (symbols: any sublayer, any
    width) into :math:`h_{L+1}`, which must be :math:`h_0 + S + F`.

    Examples
    --------
    >>> stream_sum(RESIDUAL).holds, stream_sum(PLAIN).holds
    (True, False)
    """
    start, before, output = sp.symbols("h_0 S F")
    counted, after = connection.join(0, start + before, output)
    derivation = Derivation()
    derivation.note(
        "Induction hypothesis h_L = h_0 + S; the layer joins h_L and F = f_L(LN(h_L))",
        rf"h_{{L+1}} = {sp.latex(after)}",
    )
    residual = sp.Matrix([after - (start + before + counted)])
    residual = derivation.apply("Residual h_{L+1} - (h_0 + S + F), expanded", residual, sp.expand)
    return derivation.proof(
        f"{connection.name}: the top is the input plus the outputs",
        r"h_L = h_0 + S \implies h_{L+1} = h_0 + S + F",
        residual,
    )


claim(
    "residual-stream-carries-position",
    "With LayerNorm before each sublayer, the residual stream keeps the encoding in its sum",
    Check(by_proof(stream_sum), true=RESIDUAL, wrong=(PLAIN_STACK,)),
    Check(_stack_sum, true=RESIDUAL, wrong=(PLAIN_STACK, POST_LN_STACK)),
    Check(_exercise_sum, true=_added_sum, wrong=(RAW_STATES_SUM,)),
    Check(
        _signal,
        true=RESIDUAL,
        wrong=(PLAIN_STACK, CANCELLING_SUBLAYER),
    ),
    statement=(
        r"\begin{gathered}\text{pre-LN: } h_{l+1} = h_l + f_l(\mathrm{LN}(h_l)) \implies"
        r" h_L = x + PE + \sum_{l<L} f_l(\mathrm{LN}(h_l)); \\ \text{not for post-LN, }"
        r" h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))\end{gathered}"
    ),
)


def _top_unchanged(connection: Connection) -> Evidence:
    """Is the top of the stack, run on ``x + PE`` and on ``x``, the same to the last bit?"""
    d, n, layers = STACK
    content = np.random.default_rng(1).standard_normal((n, d))
    with_position = run_stack(content + numeric.sinusoidal(n, d), layers, connection=connection)
    change = float(
        np.abs(with_position.top - run_stack(content, layers, connection=connection).top).max()
    )
    return checked(
        change == 0.0,
        f"{connection.name} stack, d={d}, n={n}, {layers} sublayers: largest change at the top"
        f" when PE is added to the input: {change:.3g}",
    )


claim(
    "cancelled-stream-loses-position",
    "A sublayer that cancels its input leaves nothing of the encoding at the top",
    Check(_top_unchanged, true=CANCELLING, wrong=(Candidate("the pre-LN stack", RESIDUAL),)),
    statement=(
        r"\begin{gathered}f_0(\mathrm{LN}(h_0)) = -h_0 \implies h_1 = 0 \implies"
        r" h_L(x + PE) = h_L(x) \\ \text{(the change at the top is exactly } 0\text{;"
        + f" run: }} d = {STACK[0]},\\ n = {STACK[1]},\\ {STACK[2]}"
        + r" \text{ sublayers)}\end{gathered}"
    ),
)


claim(
    "gehring-learned-positions",
    "Gehring et al.: learned position embeddings, before the Transformer",
    statement=(
        r"\begin{gathered}\text{Gehring et al. (2017), a convolutional sequence-to-sequence"
        r" model, add a learned embedding} \\ \text{of each absolute position to the input"
        r" embedding of its word; arXiv:1705.03122, May 2017,} \\ \text{a month before the"
        r" Transformer (arXiv:1706.03762, June 2017)}\end{gathered}"
    ),
    source="gehring2017",
)

claim(
    "residual-connections-for-depth",
    "He et al.: residual connections were introduced to train deeper networks",
    statement=(
        r"\text{He et al. (2016) introduced residual (shortcut) connections to ease the"
        r" training of much deeper networks, for image recognition}"
    ),
    source="he2016",
)

claim(
    "transformer-post-ln",
    "The original Transformer normalises after each residual addition (post-LN)",
    statement=(
        r"\text{Vaswani et al. (2017), Section 3.1: the output of each sublayer is }"
        r" \mathrm{LayerNorm}(x + \mathrm{Sublayer}(x))"
    ),
    source="vaswani2017",
)


def _signal_order(order: tuple[Connection, ...]) -> Evidence:
    """The stacks of ``order`` by :func:`position_signal`: does it fall strictly along it?"""
    d, n, layers = STACK
    signals = [position_signal(d, n, layers, connection=c) for c in order]
    falls = all(a > b for a, b in pairwise(signals))
    return checked(
        falls,
        f"d={d}, n={n}, {layers} sublayers, mean cosine between the change at the top and "
        "PE(p): " + ", ".join(f"{c.name} {s:.3f}" for c, s in zip(order, signals, strict=True)),
    )


#: The depths of the figure and of the depth check: 1 to 12 sublayers.
DEPTHS = tuple(range(1, 13))


def signals_by_depth(connection: Connection) -> list[float]:
    """:func:`position_signal` of ``connection``'s stack at each of :data:`DEPTHS` (d, n of
    :data:`STACK`)."""
    d, n, _ = STACK
    return [position_signal(d, n, depth, connection=connection) for depth in DEPTHS]


def _above_at_every_depth(order: tuple[Connection, Connection]) -> Evidence:
    """Is the first stack's signal above the second's at every depth of :data:`DEPTHS`?"""
    first, second = (signals_by_depth(c) for c in order)
    gap = min(a - b for a, b in zip(first, second, strict=True))
    return checked(
        gap > 0,
        f"d={STACK[0]}, n={STACK[1]}, depths {DEPTHS[0]}..{DEPTHS[-1]}: {order[0].name} "
        f"{min(first):.2f}..{max(first):.2f}, {order[1].name} {min(second):.2f}.."
        f"{max(second):.2f}; smallest gap {gap:.2f}",
    )


claim(
    "residual-signal-order",
    "The encoding's direction survives best in the pre-LN stack, then post-LN, then none",
    Check(
        _signal_order,
        true=(RESIDUAL, POST_LN, PLAIN),
        wrong=(Candidate("post-LN keeps it best", (POST_LN, RESIDUAL, PLAIN)),),
    ),
    Check(
        _above_at_every_depth,
        true=(RESIDUAL, PLAIN),
        wrong=(Candidate("no residual keeps it better", (PLAIN, RESIDUAL)),),
    ),
    statement=(
        r"\begin{gathered} \overline{\cos}\bigl(h_L(x + PE) - h_L(x),\ PE(p)\bigr):"
        r" \text{ pre-LN} > \text{post-LN} > \text{no residual} \\"
        r" (d = 64,\ n = 128,\ L = 6 \text{ sublayers, random weights}); \\"
        r" \text{pre-LN} > \text{no residual at every } L = 1, \dots, 12 \end{gathered}"
    ),
)

claim(
    "thanh-viz-any-length",
    "A write-up turns the paper's hypothesis into a property",
    statement=(
        r"\text{thanh31596.github.io lists among the encoding's properties that it works for"
        r" any sequence length without retraining and handles positions not seen in training}"
    ),
    source="thanh-viz",
)
