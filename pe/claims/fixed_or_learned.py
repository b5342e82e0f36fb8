"""Claims of the page "Fixed or learned" (docs/fixed-or-learned.py)."""

from __future__ import annotations

import operator
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pe import numeric
from pe._tolerance import EPS64, Tolerance
from pe.claims import Chapter, Check, Evidence, checked, within
from pe.experiments import fixed_or_learned as learned
from pe.experiments import implications as measured
from pe.proofs import wrong

claim = Chapter("fixed-or-learned").claim

#: The base model's trained length and width used on the page.
N_MAX = 512
WIDTH = 512
#: Residual-stack settings: width, positions, sublayers.
STACK = (64, 128, 6)
#: Positions beyond training where the sinusoidal table is checked.
FAR = np.array([N_MAX, 10**6, 2**40])


def _parameters(count: Callable[[int, int], int]) -> Evidence:
    """The table's trainable numbers against ``count``: every entry is reached by one lookup.

    Looking up every trained position ``0 .. n_max - 1`` once returns each stored number
    exactly once (distinct rows), so the size of that lookup is the number of parameters a
    gradient step can change; the table itself must hold no more.
    """
    table = learned.LearnedPositions(N_MAX, WIDTH)
    reached = table.lookup(np.arange(N_MAX)).size
    expected = count(N_MAX, WIDTH)
    return checked(
        table.parameters == reached == expected,
        f"learned table for n_max={N_MAX}, d={WIDTH}: {table.parameters} parameters, "
        f"{reached} reached by looking up positions 0..{N_MAX - 1}, candidate count {expected}",
    )


def _no_row_at(position: int) -> Evidence:
    try:
        learned.LearnedPositions(N_MAX, WIDTH).lookup([position])
    except ValueError as error:
        return checked(True, f"learned table has no row for position {position}: {error}")
    return checked(False, f"learned table has a row for position {position}")


def _rows_everywhere(
    encoding: Callable[[npt.NDArray[np.int64], int], npt.NDArray[np.float64]],
) -> Evidence:
    try:
        rows = encoding(FAR, WIDTH)
    except ValueError as error:
        return checked(False, f"no rows at p in (512, 10^6, 2^40): {error}")
    norm_gap = float(np.abs(np.linalg.norm(rows, axis=1) - np.sqrt(WIDTH / 2)).max())
    identity = numeric.check_rotation_identity(WIDTH, FAR, np.array([1, 5, 100]))
    return within(
        max(norm_gap / measured.dot_tolerance(WIDTH, 0.0), identity.worst_ratio),
        Tolerance(
            1.0,
            r"\text{dot-product model; shift model } 4\varepsilon + 8\varepsilon_{64} + 4\varepsilon_{64}\omega_i(|p| + |k|)",
        ),
        f"sinusoidal rows at p in (512, 10^6, 2^40), d={WIDTH}, 0 parameters: norm within "
        f"{norm_gap:.2g} of sqrt(d/2); {identity.summary()}",
    )


def _unseen_at(position: int) -> Evidence:
    unseen = learned.unseen_pairs(WIDTH, N_MAX, position)
    slow = numeric.frequencies(WIDTH) * (N_MAX - 1) < 2 * np.pi
    return checked(
        bool(unseen.any()),
        f"d={WIDTH}, trained on 0..{N_MAX - 1}: at position {position}, {int(unseen.sum())} "
        f"of {WIDTH // 2} pairs lie outside every trained value (pairs that do not complete "
        f"a turn in training: {int(slow.sum())})",
    )


def _stack_sum(connection: learned.Connection) -> Evidence:
    d, n, layers = STACK
    rng = np.random.default_rng(7)
    inputs = rng.standard_normal((n, d)) + numeric.sinusoidal(n, d)
    run = learned.run_stack(inputs, layers, connection=connection)
    gap = float(np.abs(run.top - inputs - run.sublayer_sum).max())
    # h and the running sum each add the same L outputs, one rounding per addition at most
    # u times the largest magnitude along the way; the final two subtractions, 2u of 3 times it
    rounding = (2 * layers + 6) * EPS64 / 2 * run.largest
    return within(
        gap,
        Tolerance(rounding, r"(2L + 6)\,u \max_l(|h_l|, |\textstyle\sum_{j<l} f_j|)"),
        f"{connection.name} stack, d={d}, {layers} sublayers: "
        f"max |h_L - (x + PE) - Σ f_l(h_l)| = {gap:.2g} (tolerance {rounding:.2g})",
    )


def _signal(connection: learned.Connection) -> Evidence:
    d, n, layers = STACK
    value = learned.position_signal(d, n, layers, connection=connection)
    return checked(
        value > 0.5,
        f"{connection.name} stack, d={d}, n={n}, {layers} sublayers: mean cosine between the "
        f"change at the top and PE(p) = {value:.3f} (threshold 0.5)",
    )


CLAIMS = (
    claim(
        "learned-table-trade",
        r"A learned table costs $n_{\max} \cdot d$ parameters and stops at $n_{\max}$",
        Check(_parameters, true=operator.mul, wrong=(wrong.ROW_FOR_N_MAX,)),
        Check(_no_row_at, true=N_MAX, wrong=(wrong.LAST_TRAINED_POSITION,)),
        Check(_rows_everywhere, true=numeric.sinusoidal, wrong=(wrong.LEARNED_LOOKUP,)),
        statement=(
            r"\begin{gathered}\text{learned: } n_{\max} d \text{ parameters, rows for }"
            r" 0 \le p < n_{\max} \text{ only;} \\"
            r" \text{sinusoidal: } 0 \text{ parameters, a row for every } p\end{gathered}"
        ),
    ),
    claim(
        "vaswani-learned-nearly-identical",
        "Vaswani et al.: learned and sinusoidal positions gave nearly identical results",
        statement=(
            r"\text{Vaswani et al. (2017), Table 3, row (E): learned positional embeddings"
            r" instead of sinusoids give nearly identical results to the base model (English-German"
            r" development set); the sinusoids were kept in the hope that they extrapolate}"
        ),
        source="vaswani2017",
    ),
    claim(
        "press-sinusoidal-degrades",
        "Press et al.: sinusoidal models degrade beyond the training length, ALiBi does not",
        statement=(
            r"\text{Press et al. (2022), Figure 1, WikiText-103, training lengths 512 and 1024:"
            r" perplexity of sinusoidal, rotary and T5-bias models degrades beyond the training"
            r" length; ALiBi's does not}"
        ),
        source="press2022",
    ),
    claim(
        "unseen-values-beyond-training",
        "Beyond the training length, the slow pairs take values never seen in training",
        Check(
            _unseen_at,
            true=2 * N_MAX,
            wrong=(wrong.INSIDE_TRAINING, wrong.LAST_TRAINED_POSITION),
        ),
        statement=(
            r"\begin{gathered}d = 512,\ \text{trained on } 0 \le p < 512: \text{ at } p = 1024"
            r" \text{ some pairs } v_i(p) \\ \text{lie farther than one step from every }"
            r" v_i(p'),\ p' < 512\end{gathered}"
        ),
    ),
    claim(
        "residual-stream-carries-position",
        "With LayerNorm before each sublayer, the residual stream keeps the encoding in its sum",
        Check(_stack_sum, true=learned.RESIDUAL, wrong=(wrong.PLAIN_STACK, wrong.POST_LN_STACK)),
        Check(
            _signal,
            true=learned.RESIDUAL,
            wrong=(wrong.PLAIN_STACK, wrong.CANCELLING_SUBLAYER),
        ),
        statement=(
            r"\begin{gathered}\text{pre-LN: } h_{l+1} = h_l + f_l(\mathrm{LN}(h_l)) \implies"
            r" h_L = x + PE + \sum_{l<L} f_l(\mathrm{LN}(h_l)); \\ \text{not for post-LN, }"
            r" h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))\end{gathered}"
        ),
    ),
    claim(
        "gehring-learned-positions",
        "Gehring et al.: learned position embeddings, before the Transformer",
        statement=(
            r"\text{Gehring et al. (2017), a convolutional sequence-to-sequence model, add a"
            r" learned embedding of each absolute position to the input embedding of its word}"
        ),
        source="gehring2017",
    ),
    claim(
        "residual-connections-for-depth",
        "He et al.: residual connections were introduced to train deeper networks",
        statement=(
            r"\text{He et al. (2016) introduced residual (shortcut) connections to ease the"
            r" training of much deeper networks, for image recognition}"
        ),
        source="he2016",
    ),
    claim(
        "transformer-post-ln",
        "The original Transformer normalises after each residual addition (post-LN)",
        statement=(
            r"\text{Vaswani et al. (2017), Section 3.1: the output of each sublayer is }"
            r" \mathrm{LayerNorm}(x + \mathrm{Sublayer}(x))"
        ),
        source="vaswani2017",
    ),
)
