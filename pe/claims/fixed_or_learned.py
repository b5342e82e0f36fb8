"""Claims of the page "Fixed or learned" (docs/fixed-or-learned.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pe import numeric
from pe.claims import Claim, Evidence, checked
from pe.experiments import implications as similarity
from pe.experiments import learned_table, residual_stack

PAGE = "fixed-or-learned"

#: The base model's trained length and width used on the page.
N_MAX = 512
WIDTH = 512
#: Residual-stack settings: width, positions, sublayers.
STACK = (64, 128, 6)


def _parameters(count: Callable[[int, int], int]) -> Evidence:
    table = learned_table.LearnedPositions(N_MAX, WIDTH)
    expected = count(N_MAX, WIDTH)
    return checked(
        table.parameters == expected,
        f"learned table for n_max={N_MAX}, d={WIDTH}: {table.parameters} parameters, "
        f"candidate count {expected}",
    )


def _learned_has_no_row_beyond(position: int) -> Callable[[], Evidence]:
    def run() -> Evidence:
        table = learned_table.LearnedPositions(N_MAX, WIDTH)
        try:
            table.lookup([position])
        except ValueError as error:
            return checked(True, f"learned table has no row for position {position}: {error}")
        return checked(False, f"learned table has a row for position {position}")

    return run


def _sinusoidal_everywhere() -> Evidence:
    positions = np.array([N_MAX, 10**6, 2**40])
    table = numeric.sinusoidal(positions, WIDTH)
    norm_gap = float(np.abs(np.linalg.norm(table, axis=1) - np.sqrt(WIDTH / 2)).max())
    identity = numeric.check_rotation_identity(WIDTH, positions, np.array([1, 5, 100]))
    ok = norm_gap <= similarity.dot_tolerance(WIDTH, 0.0) and identity.passed
    return checked(
        ok,
        f"sinusoidal rows at p in (512, 10^6, 2^40), d={WIDTH}, 0 parameters: norm within "
        f"{norm_gap:.2g} of sqrt(d/2); {identity.summary()}",
    )


def _unseen(position: int) -> Callable[[], Evidence]:
    def run() -> Evidence:
        unseen = learned_table.unseen_pairs(WIDTH, N_MAX, position)
        slow = numeric.frequencies(WIDTH) * (N_MAX - 1) < 2 * np.pi
        return checked(
            bool(unseen.any()),
            f"d={WIDTH}, trained on 0..{N_MAX - 1}: at position {position}, {int(unseen.sum())} "
            f"of {WIDTH // 2} pairs lie outside every trained value (pairs that do not complete "
            f"a turn in training: {int(slow.sum())})",
        )

    return run


def _stack_sum(residual: bool) -> Evidence:
    d, n, layers = STACK
    rng = np.random.default_rng(7)
    inputs = rng.standard_normal((n, d)) + numeric.sinusoidal(n, d)
    run = residual_stack.run_stack(inputs, layers, residual=residual)
    gap = float(np.abs(run.top - inputs - run.sublayer_sum).max())
    scale = float(np.abs(run.top).max())
    label = "residual" if residual else "plain (no residual)"
    return checked(
        bool(gap <= 64 * np.finfo(float).eps * scale * layers),
        f"{label} stack, d={d}, {layers} sublayers: max |h_L - (x + PE) - Σ f_l(h_l)| = {gap:.2g}",
    )


def _signal(residual: bool, cancel: bool = False) -> Callable[[], Evidence]:
    def run() -> Evidence:
        d, n, layers = STACK
        value = residual_stack.position_signal(d, n, layers, residual=residual, cancel=cancel)
        label = ("residual" if residual else "plain") + (
            ", first sublayer cancels" if cancel else ""
        )
        return checked(
            value > 0.5,
            f"{label} stack, d={d}, n={n}, {layers} sublayers: mean cosine between the change "
            f"at the top and PE(p) = {value:.3f} (threshold 0.5)",
        )

    return run


CLAIMS = (
    Claim(
        id="learned-table-trade",
        title="A learned table costs n_max·d parameters and stops at n_max",
        statement=(
            r"\begin{gathered}\text{learned: } n_{\max} d \text{ parameters, rows for }"
            r" 0 \le p < n_{\max} \text{ only;} \\"
            r" \text{sinusoidal: } 0 \text{ parameters, a row for every } p\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: _parameters(lambda n, d: n * d),
            _learned_has_no_row_beyond(N_MAX),
            _sinusoidal_everywhere,
        ),
        controls=(
            lambda: _parameters(lambda n, d: n + d),
            _learned_has_no_row_beyond(N_MAX - 1),
        ),
    ),
    Claim(
        id="unseen-values-beyond-training",
        title="Beyond the training length, the slow pairs take values never seen in training",
        statement=(
            r"\begin{gathered}d = 512,\ \text{trained on } 0 \le p < 512: \text{ at } p = 1024"
            r" \text{ some pairs } v_i(p) \\ \text{lie farther than one step from every }"
            r" v_i(p'),\ p' < 512\end{gathered}"
        ),
        page=PAGE,
        evidence=(_unseen(2 * N_MAX),),
        controls=(_unseen(N_MAX // 2), _unseen(N_MAX - 1)),
    ),
    Claim(
        id="residual-stream-carries-position",
        title="The residual stream keeps the encoding in its sum",
        statement=(r"h_{l+1} = h_l + f_l(h_l) \implies h_L = x + PE + \sum_{l<L} f_l(h_l)"),
        page=PAGE,
        evidence=(lambda: _stack_sum(True), _signal(True)),
        controls=(lambda: _stack_sum(False), _signal(False), _signal(True, cancel=True)),
    ),
)
