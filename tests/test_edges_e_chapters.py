"""Edges of the chapter modules precision, conventions, implications, fixed_or_learned,
testing and rope: what their checks print and where their conditions turn.

Covers the behaviour a tool-made fault in ``pe.chapters.precision``,
``pe.chapters.conventions``, ``pe.chapters.implications``, ``pe.chapters.fixed_or_learned``,
``pe.chapters.testing`` or ``pe.chapters.rope`` would change without the claim runs noticing:
the tolerances of the formula checks rebuilt from their documented error models, numbers a
claim card prints (a gap, a minimum, a count, a model) recomputed with mpmath or NumPy, the
samples the pages state (positions as far as 2^40, offsets up to 20 000, 10^4 positions),
and each condition of a check fed a value just inside and just outside.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import pytest
import sympy as sp

from pe import (
    _extended_precision,
    bug_zoo,
    conventions,
    from_scratch,
    numeric,
    recipes,
    rotary,
    testing,
)
from pe._machine_dependent import _round_up, site_text
from pe._rotation_table import ENTRY_ERROR_BOUND
from pe._tolerance import EPS64
from pe.chapters import conventions as conventions_chapter
from pe.chapters import fixed_or_learned, implications, precision, recorded, rope
from pe.chapters import testing as testing_chapter
from pe.claims import get
from pe.error_models import ENTRY
from pe.geometry import nearest_rows
from pe.identify_accuracy import uncertainty_slopes
from pe.position_scores import Projection
from pe.residual_stream import CANCELLING, PLAIN, POST_LN, RESIDUAL

U = EPS64 / 2


def _numbers(pattern: str, text: str) -> tuple[float, ...]:
    """The numbers ``pattern``'s groups capture in ``text`` (which must match)."""
    found = re.search(pattern, text)
    assert found is not None, f"{pattern!r} not in {text!r}"
    return tuple(float(g) for g in found.groups())


def _sig(value: float, digits: int) -> float:
    """``value`` rounded to ``digits`` significant digits, as ``f"{value:.{digits}g}"``."""
    return float(f"{value:.{digits}g}")


def _f_exact(d: int, offsets: list[int]) -> list[mpmath.mpf]:
    """``f(k) = sum_i cos(10000^(-2i/d) k)`` at 50 digits (mpmath)."""
    with mpmath.workdps(50):
        omegas = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / d) for i in range(d // 2)]
        return [mpmath.fsum(mpmath.cos(w * k) for w in omegas) for k in offsets]


def _f_numpy(d: int, k_max: int) -> npt.NDArray[np.float64]:
    """``f(k)`` for ``k = 0 .. k_max`` in float64, written out with NumPy."""
    omegas = 10000.0 ** (-np.arange(0, d, 2) / d)
    k = np.arange(k_max + 1, dtype=np.float64)
    return np.asarray(np.cos(np.outer(k, omegas)).sum(axis=1), dtype=np.float64)


# --- conventions: the formula checks' tolerances --------------------------------------------


def _formula_tolerance(frequency_error: float) -> float:
    """pe's entry bound, one ulp for the formula's sine, and ``(frequency_error + u) * 999``
    for its angles up to 999 (the model the ``_formula_agrees`` docstring states)."""
    return ENTRY_ERROR_BOUND + EPS64 + (frequency_error + U) * 999.0


def _t2t_by_hand(n: int, d: int) -> npt.NDArray[np.float64]:
    """tensor2tensor's table written out: sines of ``p exp(-k ln 10000 / (d/2 - 1))``, then
    the cosines (halves)."""
    half = d // 2
    inv = np.exp(np.arange(half) * -(math.log(10000.0) / (half - 1)))
    angles = np.arange(n, dtype=np.float64)[:, None] * inv[None, :]
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


def test_t2t_check_tolerance_is_its_error_model() -> None:
    """The tensor2tensor formula check is held to its stated model: the base's exponent
    rounded once and tensor2tensor's exponent three times, each ``eps + m u ln(10000)``.

    Fault caught: a wrong logarithm, rounding count or angle term in the tolerance."""
    ln_b = math.log(10000.0)
    frequency = (EPS64 + 1 * U * ln_b) + (EPS64 + 3 * U * ln_b)
    evidence = conventions_chapter._t2t_numeric(conventions.get("tensor2tensor"))
    assert evidence.tolerance is not None
    assert evidence.error is not None
    assert evidence.tolerance.value == pytest.approx(
        _formula_tolerance(frequency), rel=1e-12, abs=0.0
    )
    assert evidence.holds
    # the measured error is what the table and the formula written out here differ by
    table = conventions.get("tensor2tensor").table(1000, 512)
    mine = float(np.abs(table - _t2t_by_hand(1000, 512)).max())
    assert mine <= evidence.tolerance.value
    assert evidence.error <= evidence.tolerance.value
    assert "1000 rows" in evidence.text
    assert "d=512" in evidence.text


def test_one_indexed_check_tolerance_is_its_error_model() -> None:
    """The one-indexed check: two powers, each within ``eps`` (dyadic exponents).

    Fault caught: a wrong rounding count in the one-indexed tolerance or width."""
    evidence = conventions_chapter._one_indexed_numeric(conventions_chapter.one_indexed_exponent)
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == pytest.approx(
        _formula_tolerance(2 * EPS64), rel=1e-12, abs=0.0
    )
    assert evidence.holds
    assert "columns 2..65 of the paper's table of width 66" in evidence.text
    assert "base 10000^1.03125" in evidence.text  # (d + 2) / d at d = 64
    same_base = conventions_chapter._one_indexed_numeric(conventions_chapter.SAME_BASE.value)
    assert not same_base.holds


# --- implications: the dot product's decay ----------------------------------------------------


@pytest.mark.parametrize("k_max", [implications.NEAR_RANGE, implications.DECAY_RANGE])
def test_minimum_detail_recomputed(k_max: int) -> None:
    """The minimum check's printed place, values and mpmath gap, recomputed.

    Fault caught: a wrong gap (``exact[1] - exact[0]``), minimum or range in the card."""
    f = _f_numpy(512, k_max)
    low, next_low = (int(k) for k in np.argsort(f, kind="stable")[:2])
    evidence = implications._minimum(k_max)(low)
    assert evidence.holds
    text = evidence.text
    assert f"k = 0..{k_max}:" in text
    printed_low, value, printed_next, next_value, gap = _numbers(
        r"minimum f\((\d+)\) = (\S+), next lowest f\((\d+)\) = (\S+); mpmath's gap (\S+) ", text
    )
    assert (printed_low, printed_next) == (low, next_low)
    exact = _f_exact(512, [low, next_low])
    assert value == _sig(float(exact[0]), 4)
    assert next_value == _sig(float(exact[1]), 4)
    assert gap == _sig(float(exact[1] - exact[0]), 2)
    assert f"(stated: {low})" in text


def test_minimum_refuses_its_neighbours() -> None:
    """A stated minimum one off on either side fails.

    Fault caught: ``low == stated`` loosened."""
    low = int(np.argmin(_f_numpy(512, implications.NEAR_RANGE)))
    check = implications._minimum(implications.NEAR_RANGE)
    assert check(low).holds
    assert not check(low - 1).holds
    assert not check(low + 1).holds


def test_decay_ranges_are_the_pages() -> None:
    """The decay is measured over 0 .. 20 000 and the near offsets 0 .. 200 (the statement).

    Fault caught: a range of the decay sample moved."""
    assert (implications.DECAY_RANGE, implications.NEAR_RANGE) == (20_000, 200)
    f = _f_numpy(512, 20_000)
    assert implications.decay_minimum()[0] == int(np.argmin(f))
    assert implications.near_minimum()[0] == int(np.argmin(f[:201]))
    assert implications.decay_minimum()[1] == pytest.approx(float(f.min()), abs=1e-9)


def test_not_monotone_detail_recomputed() -> None:
    """Where f first rises and first turns negative, with mpmath; the printed f there.

    Fault caught: a wrong index, value or confirmation in the non-monotone card."""
    exact = [float(v) for v in _f_exact(512, list(range(46)))]
    rise = next(k for k in range(45) if exact[k + 1] > exact[k])
    assert rise == 43
    near = [float(v) for v in _f_exact(512, [3283, 3284])]
    assert near[0] >= 0 > near[1]
    evidence = implications._not_monotone((rise, 3284))
    assert evidence.holds
    text = evidence.text
    assert "k = 0..20000" in text
    assert f"f falls until k = {rise} and rises at k = {rise + 1}" in text
    (value,) = _numbers(r"first negative at k = 3284 \(f = (\S+)\)", text)
    assert value == _sig(near[1], 3)
    f = _f_numpy(512, 20_000)
    (minimum,) = _numbers(r"minimum (\S+) at k = " + str(int(np.argmin(f))) + ";", text)
    assert minimum == _sig(float(f.min()), 4)
    assert "confirmed with mpmath: yes" in text
    for stated in ((rise, 3285), (rise - 1, 3284), (rise + 1, 3284), (rise, 3283)):
        assert not implications._not_monotone(stated).holds


def test_norm_sample_reaches_two_to_the_forty() -> None:
    """The norm is measured at every p < 10^4 and three far positions, up to 2^40 (the
    page: "measured there at positions as far as 2^40"), and the card lists them.

    Fault caught: a far position of the norm sample moved."""
    positions = implications.NORM_POSITIONS
    assert np.array_equal(positions[:10_000], np.arange(10_000))
    far = [int(p) for p in positions[10_000:]]
    assert far == [10**6, 10**9, 2**40]
    evidence = implications._norm(implications.HALF)
    assert evidence.holds
    assert f"p in ({', '.join(map(str, far))})" in evidence.text
    assert "d in (64, 512)" in evidence.text


@functools.cache
def _closest_offsets() -> tuple[tuple[tuple[float, int], ...], ...]:
    """For pair 0 and pair 255 of d = 512, the two smallest 2|sin(k w / 2)| over offsets
    1 .. 9999 with their offsets (mpmath, 30 digits)."""
    with mpmath.workdps(30):
        omegas = [mpmath.mpf(1), mpmath.mpf(10000) ** (-mpmath.mpf(510) / 512)]
        rows = []
        for w in omegas:
            dist = sorted((float(abs(2 * mpmath.sin(k * w / 2))), k) for k in range(1, 10_000))
            rows.append(tuple(dist[:2]))
    return tuple(rows)


def test_margins_detail_recomputed() -> None:
    """Pair 0 and pair 255 (d = 512) over 10^4 positions: the closest offsets and the
    distances 2|sin(k w / 2)| printed, with mpmath.

    Fault caught: a wrong pair, range or distance in the margins card."""
    rows = _closest_offsets()
    evidence = implications._margins((rows[0][0][1], rows[1][0][1]))
    assert evidence.holds
    assert (rows[0][0][1], rows[1][0][1]) == implications.CONFUSED_OFFSETS
    text = evidence.text
    assert "positions 0..9999" in text
    values = _numbers(
        r"offset 710 \(distance (\S+), next (\S+)\); pair 255 at offset 1 \(distance (\S+), "
        r"next (\S+)\)",
        text,
    )
    expected = [rows[0][0][0], rows[0][1][0], rows[1][0][0], rows[1][1][0]]
    assert values == tuple(_sig(v, 2) for v in expected)


def test_every_pair_separates_positions_recomputed() -> None:
    """Every pair alone separates p < 10^4: pair 0's and pair 255's closest positions and
    distances as printed, recomputed with mpmath; a pair of period 8 is refused.

    Fault caught: the sample or the pairs named by the every-pair card changed."""
    rows = _closest_offsets()
    evidence = implications._every_pair(numeric.frequencies)
    assert evidence.holds
    text = evidence.text
    assert text.startswith("d=512, p < 10000: ")
    (k0, d0, k1, d1) = _numbers(
        r"pair 0's closest two positions are (\d+) apart at distance (\S+), pair 255's closest "
        r"two positions are (\d+) apart at distance (\S+)$",
        text,
    )
    assert (k0, k1) == (rows[0][0][1], rows[1][0][1])
    assert (d0, d1) == (_sig(rows[0][0][0], 3), _sig(rows[1][0][0], 3))
    period = implications._every_pair(implications.RATIONAL_PERIOD.value)
    assert not period.holds
    # the first repeat (8), not whichever multiple of 8 rounding makes closest (audit v22)
    assert "pair 0's positions 8 apart coincide (distance within rounding, below " in period.text


# --- fixed_or_learned -----------------------------------------------------------------------


def test_learned_table_rows_stop_at_n_max() -> None:
    """The learned table has rows for 0 .. 511 and none from 512 on.

    Fault caught: the row check's position or its verdict turned round."""
    assert (fixed_or_learned.N_MAX, fixed_or_learned.WIDTH) == (512, 512)
    assert not fixed_or_learned._no_row_at(511).holds
    assert not fixed_or_learned._no_row_at(0).holds
    for position in (512, 513, 10**6):
        evidence = fixed_or_learned._no_row_at(position)
        assert evidence.holds
        assert f"no row for position {position}" in evidence.text


def test_learned_parameters_are_n_max_times_d() -> None:
    """512 x 512 parameters, each reached once by looking up 0 .. 511; one row more or
    less is refused.

    Fault caught: a wrong lookup range or parameter count in the trade check."""
    evidence = fixed_or_learned._parameters(lambda n, d: n * d)
    assert evidence.holds
    assert f"{512 * 512} parameters, {512 * 512} reached by looking up positions 0..511" in (
        evidence.text
    )
    assert not fixed_or_learned._parameters(lambda n, d: (n - 1) * d).holds
    assert not fixed_or_learned._parameters(lambda n, d: (n + 1) * d).holds


def _turnless(d: int, n_max: int) -> int:
    """Pairs whose angle stays below a turn over 0 .. n_max - 1 (mpmath)."""
    with mpmath.workdps(30):
        return sum(
            (n_max - 1) * mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / d) < 2 * mpmath.pi
            for i in range(d // 2)
        )


def test_unseen_counts_and_their_neighbours() -> None:
    """133 of 256 pairs complete no turn in 0 .. 511 (mpmath here); the stated counts
    hold and each count one off fails.

    Fault caught: a count, the training range or the far position of the unseen check."""
    slow = _turnless(512, 512)
    assert slow == fixed_or_learned.UNSEEN_COUNTS[0] == 133
    unseen = fixed_or_learned.UNSEEN_COUNTS[1]
    evidence = fixed_or_learned._counts((slow, unseen))
    assert evidence.holds
    assert f"position 1024: pe counts {slow} pairs without a turn and {unseen} unseen" in (
        evidence.text
    )
    for stated in ((slow + 1, unseen), (slow - 1, unseen), (slow, unseen + 1), (slow, unseen - 1)):
        assert not fixed_or_learned._counts(stated).holds
    at = fixed_or_learned._unseen_at(1024)
    assert at.holds
    assert f"{unseen} of 256 pairs" in at.text
    assert f"(pairs that do not complete a turn in training: {slow})" in at.text
    assert not fixed_or_learned._unseen_at(511).holds


def _sinusoidal_rows(positions: npt.NDArray[np.int64], d: int) -> npt.NDArray[np.float64]:
    return np.asarray(numeric.sinusoidal(positions, d), dtype=np.float64)


def _longer_rows(positions: npt.NDArray[np.int64], d: int) -> npt.NDArray[np.float64]:
    return 1.001 * _sinusoidal_rows(positions, d)


def test_rows_everywhere_sample_and_norm() -> None:
    """The sinusoidal rows are checked at 512, 10^6 and 2^40 (beyond training, the page's
    farthest position 2^40), and rows 0.1 % too long are refused.

    Fault caught: a far position of the sample moved, or the norm compared with another
    value."""
    assert fixed_or_learned.FAR.tolist() == [512, 10**6, 2**40]
    evidence = fixed_or_learned._rows_everywhere(_sinusoidal_rows)
    assert evidence.holds
    assert "p in [512, 1000000, 1099511627776], d=512, 0 parameters" in evidence.text
    assert not fixed_or_learned._rows_everywhere(_longer_rows).holds


def _reversed_rows(positions: npt.NDArray[np.int64], d: int) -> npt.NDArray[np.float64]:
    return _sinusoidal_rows(positions, d)[:, ::-1].copy()


def test_rows_everywhere_runs_the_identity_on_the_candidates_rows() -> None:
    """The identity clause runs on the candidate's own rows: columns in reverse order keep
    every norm, but T_k no longer maps row p to row p + k, and the check fails on that
    clause alone; the norm's bound is printed as the tolerance beside it.

    Fault caught: the identity run on pe's table whatever the candidate (audit v22)."""
    reversed_rows = fixed_or_learned._rows_everywhere(_reversed_rows)
    assert not reversed_rows.holds
    assert ": within; rotation identity" in reversed_rows.text
    assert "holds" not in site_text(reversed_rows.detail).rsplit(";", 1)[-1]
    site = site_text(fixed_or_learned._rows_everywhere(_sinusoidal_rows).detail)
    (bound, tolerance) = re.search(r"below (\S+) \(tolerance (\S+)\): within", site).groups()  # type: ignore[union-attr]
    assert bound == tolerance


def test_stream_sum_names_its_symbols() -> None:
    """The induction step prints h_{L+1} as h_0 + S + F, the docstring's symbols.

    Fault caught: a SymPy symbol renamed in the printed proof."""
    proof = fixed_or_learned.stream_sum(RESIDUAL)
    assert proof.holds
    left, right = proof.steps[0].latex.split(" = ")
    assert left == "h_{L+1}"
    assert set(right.split(" + ")) == {"h_{0}", "S", "F"}
    assert "h_L = h_0 + S" in proof.steps[0].words
    assert not fixed_or_learned.stream_sum(PLAIN).holds


def test_stack_sum_tolerance_is_its_model() -> None:
    """The stack's sum is held to (2L + 6) u max|h|, L = 6 sublayers of width 64.

    Fault caught: a wrong rounding count or magnitude in the residual stack's tolerance."""
    d, n, layers = fixed_or_learned.STACK
    assert (d, n, layers) == (64, 128, 6)
    _, run, tolerance = fixed_or_learned._stack_run(RESIDUAL)
    assert tolerance.value == pytest.approx((2 * 6 + 6) * U * run.largest, rel=1e-15, abs=0.0)
    evidence = fixed_or_learned._stack_sum(RESIDUAL)
    assert evidence.holds
    assert "d=64, 6 sublayers" in evidence.text
    assert not fixed_or_learned._stack_sum(POST_LN).holds


def test_cancelled_stream_is_unchanged_exactly() -> None:
    """A first sublayer cancelling its input leaves the top unchanged to the bit; the
    pre-LN stack changes.

    Fault caught: the exact comparison loosened or turned round."""
    evidence = fixed_or_learned._top_unchanged(CANCELLING)
    assert evidence.holds
    assert evidence.text.endswith("when PE is added to the input: 0")
    assert not fixed_or_learned._top_unchanged(RESIDUAL).holds


def test_depths_are_one_to_twelve() -> None:
    """The depth check covers L = 1 .. 12 (the statement).

    Fault caught: a depth range moved."""
    assert list(fixed_or_learned.DEPTHS) == list(range(1, 13))


# --- testing chapter ------------------------------------------------------------------------


def _raises(message: str) -> Callable[[], object]:
    def thunk() -> object:
        raise AssertionError(message)

    return thunk


def test_outcome_branches() -> None:
    """``_outcome``: a pass with or without its return value, a failure naming every word
    or the first one missing.

    Fault caught: a branch of the outcome text turned round or a name left unchecked."""
    outcome = testing_chapter._outcome
    assert outcome(lambda: "halves") == "pass"
    assert outcome(lambda: "halves", returns=True) == "pass, returns 'halves'"
    assert outcome(lambda: None, returns=True) == "pass"
    assert outcome(_raises("layout: halves")) == "fail"
    assert outcome(_raises("layout: halves"), "layout") == "fail"
    assert outcome(_raises("layout: halves"), "order") == "fail without 'order'"
    assert outcome(_raises("a b"), ("a", "b")) == "fail"
    assert outcome(_raises("a b"), ("a", "c", "d")) == "fail without 'c'"
    assert outcome(_raises("a b"), ("c", "a")) == "fail without 'c'"
    with pytest.raises(ValueError, match="other"):
        outcome(_raises_value)


def _raises_value() -> object:
    raise ValueError("other")


def test_computed_in_models_recomputed() -> None:
    """The model (theta + 2) eps of each precision, theta the largest recorded position.

    Fault caught: a wrong position or epsilon in the Llama precision card."""
    recording = recorded("rope_code.json")
    largest = max(recording["positions"])
    evidence = testing_chapter._computed_in(np.float32)
    assert evidence.holds
    for kind in (np.float64, np.float32, np.float16):
        model = (largest + 2) * float(np.finfo(kind).eps)
        models = evidence.text.split("(θ + 2)ε: ")[1]
        (printed,) = _numbers(np.dtype(kind).name + r" (\S+?)[,;]", models)
        assert printed == _sig(model, 2)
    assert f"positions {recording['positions']}" in evidence.text
    assert not testing_chapter._computed_in(np.float64).holds
    assert not testing_chapter._computed_in(np.float16).holds


def _doubled_by_hand(n: int, d: int) -> npt.NDArray[np.float64]:
    """The doubled exponent written out: angles p / 10000^(2i/d) for i = 0, 2, 4, ..."""
    i = np.arange(0, d, 2)
    angle = np.arange(n)[:, None] / 10000.0 ** (2 * i / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table


def _paper_by_hand(n: int, d: int) -> npt.NDArray[np.float64]:
    angle = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table


def test_recipe_within_typo_and_its_edge() -> None:
    """The doubled exponent's worst difference, n = 2048, d = 256, as printed; rejected
    only by a tolerance strictly below it.

    Fault caught: the typo's size or the strict comparison with the tolerance."""
    typo = float(np.abs(_doubled_by_hand(2048, 256) - _paper_by_hand(2048, 256)).max())
    evidence = testing_chapter._recipe_within(testing.paper_tolerance)
    assert evidence.holds
    (printed,) = _numbers(r"doubled exponent, n=2048: worst \|difference\| (\S+) ", evidence.text)
    assert printed == _sig(typo, 3)
    assert "n=64: " in evidence.text
    assert "n=512: " in evidence.text

    def at(edge: float) -> Callable[[int, Any], float]:
        return lambda n, dtype: edge if n == 2048 else testing.paper_tolerance(n, dtype)

    assert testing_chapter._recipe_within(at(typo * (1 - 1e-9))).holds
    assert not testing_chapter._recipe_within(at(typo)).holds


# --- conventions: the printed proofs --------------------------------------------------------


def test_exponents_apart_shows_the_unreduced_residual() -> None:
    """The column-index proof first shows (4i - (4i' + 2)) mod 4 - 2 in i and i', and only its
    next step reduces it to 0.

    Fault caught: the residual reduced before it is shown (a proof with nothing to read)."""
    proof = conventions_chapter.sine_cosine_exponents_apart()
    assert proof.holds
    first, last = proof.steps[0], proof.steps[-1]
    assert first.expr is not None
    assert last.expr is not None
    assert {s.name for s in first.expr.free_symbols} == {"i", "i'"}
    assert r"\bmod 4" in first.latex
    assert last.expr.is_zero_matrix
    assert not conventions_chapter.sine_cosine_exponents_apart(0).holds


# --- implications: exact evidence is a plain verdict ----------------------------------------


def test_coupling_block_verdicts_are_booleans() -> None:
    """A block coupling two pairs is relative only when zero (True); a pair with itself has
    the scaled rotations as well (False, a bool, not SymPy's undecided None).

    Fault caught: the set comparison loosened to a subset test (None for the wrong block)."""
    coupled = implications._coupling_block_breaks_offset((0, 1))
    assert coupled.holds is True
    assert "block between pairs 0 and 1" in coupled.text
    assert "{(0, 0, 0, 0)}" in coupled.text
    same = implications._coupling_block_breaks_offset((0, 0))
    assert same.holds is False
    assert "block between pairs 0 and 0" in same.text


def test_content_gap_verdicts() -> None:
    """x = y = (1, 0), W = I, omega = 1: s(1, 1) - s(0, 0) = 2 sin 1 (the statement), non-zero;
    no content gives 0 and no counter-example.

    Fault caught: the exact non-zero test turned round or the gap printed wrongly."""
    moved = implications._content_breaks_the_offset((1, 0))
    assert moved.holds is True
    (value,) = _numbers(r"s\(1, 1\) - s\(0, 0\) = 2\*sin\((\d+)\)", moved.text)
    assert value == 1
    assert "(exact, non-zero)" in moved.text
    still = implications._content_breaks_the_offset((0, 0))
    assert still.holds is False
    assert still.text.endswith(": no counter-example")


def test_alias_proof_shows_both_residuals() -> None:
    """The alias proof starts from the residuals sin(a p) + sin(w p) and cos(a p) - cos(w p),
    a = 2 pi - w, p an integer (its docstring's two identities), and reduces each to 0.

    Fault caught: a residual's sign or operator changed in the printed proof."""
    p = sp.Symbol("p", integer=True)
    w = sp.Symbol("omega", positive=True)
    a = 2 * sp.pi - w
    # one residual per equality, not their sum (audit v23)
    expected = [sp.sin(a * p) + sp.sin(w * p), sp.cos(a * p) - sp.cos(w * p)]
    proof = conventions_chapter.alias_at_integers()
    assert proof.holds
    first = proof.steps[0].expr
    assert first is not None
    assert list(first) == expected
    half_turn = conventions_chapter.alias_at_integers(lambda omega: sp.pi - omega)
    assert not half_turn.holds
    assert half_turn.counterexample is not None
    assert half_turn.counterexample.text() == "at omega = 1, p = 1, entry [0] = 2*sin(1)"


# --- precision --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slope", "words"),
    [
        (1.0, "within 0.1 of 1"),
        (1.0 + 0.0999, "within 0.1 of 1"),
        (1.0 - 0.0999, "within 0.1 of 1"),
        (1.0 + 0.1001, "neither near 0 nor near 1"),
        (1.0 - 0.1001, "neither near 0 nor near 1"),
        (0.0, "within 0.1 of 0"),
        (0.1, "within 0.1 of 0"),
        (-0.1, "within 0.1 of 0"),
        (0.1001, "neither near 0 nor near 1"),
        (-0.1001, "neither near 0 nor near 1"),
        (0.5, "neither near 0 nor near 1"),
    ],
)
def test_slope_in_words_edges(slope: float, words: str) -> None:
    """The slope's words on each side of 0.1 from 1 and from 0.

    Fault caught: a bound of the slope's words moved or made strict."""
    assert precision._slope_in_words(slope) == words


def _entry_bound() -> float:
    """2 sqrt2 delta + 3 2^-54 with delta = (0.52 + 0.5) 2^-53 (the page's arithmetic)."""
    delta = (0.52 + 0.5) * 2.0**-53
    return 2 * math.sqrt(2) * delta + 3 * 2.0**-54


def _composed(entry: float) -> float:
    return 2 * math.sqrt(2) * entry + 3 * 2.0**-54


def test_entry_bounds_detail_recomputed() -> None:
    """The card's sqrt2, entry bound and composed bound, from the statement's arithmetic.

    Fault caught: a wrong figure in the entry-bound card."""
    evidence = precision._entry_bounds((math.sqrt(2), 4.9e-16, 1.6e-15))
    assert evidence.holds
    weight, entry, composed = _numbers(
        r"max \|a\| \+ \|b\| = (\S+); 2√2δ \+ 3·2\^-54 = (\S+) \(pe's bound\); composed "
        r"2√2·4.9e-16 \+ 3·2\^-54 = (\S+);",
        evidence.text,
    )
    assert weight == _sig(math.sqrt(2), 12)
    assert entry == _sig(_entry_bound(), 4)
    assert composed == _sig(_composed(4.9e-16), 4)


@pytest.mark.parametrize(
    ("stated", "holds"),
    [
        # sqrt 2 within a relative 1e-15
        ((math.sqrt(2) * (1 + 4e-16), 4.9e-16, 1.6e-15), True),
        ((math.sqrt(2) * (1 + 3e-15), 4.9e-16, 1.6e-15), False),
        ((math.sqrt(2) * (1 - 3e-15), 4.9e-16, 1.6e-15), False),
        # the stated entry bound between the derived one and 1 % above it
        ((math.sqrt(2), _entry_bound(), _composed(_entry_bound())), True),
        ((math.sqrt(2), _entry_bound() * (1 - 1e-9), _composed(_entry_bound())), False),
        ((math.sqrt(2), _entry_bound() * 1.0099, _composed(_entry_bound() * 1.0099)), True),
        ((math.sqrt(2), _entry_bound() * 1.0101, _composed(_entry_bound() * 1.0101)), False),
        # the composed bound between its derived value and 5 % above it
        ((math.sqrt(2), 4.9e-16, _composed(4.9e-16)), True),
        ((math.sqrt(2), 4.9e-16, _composed(4.9e-16) * (1 - 1e-9)), False),
        ((math.sqrt(2), 4.9e-16, _composed(4.9e-16) * 1.0499), True),
        ((math.sqrt(2), 4.9e-16, _composed(4.9e-16) * 1.0501), False),
    ],
)
def test_entry_bounds_edges(stated: tuple[float, float, float], holds: bool) -> None:
    """Each condition of the entry-bound check just inside and just outside.

    Fault caught: a bound of the entry-bound check moved or made strict."""
    assert precision._entry_bounds(stated).holds is holds


def test_format_facts_name_the_wrong_one() -> None:
    """A wrong fact is named with what NumPy gives; a fact left out fails too.

    Fault caught: the facts compared loosely, or the wrong one not named."""
    facts = precision.FORMAT_FACTS
    assert precision._format_facts(facts).holds
    wrong = precision._format_facts({**facts, "largest finite float16": 65505.0})
    assert not wrong.holds
    assert wrong.text == "largest finite float16 65504, stated 65505"
    fewer = {k: v for k, v in facts.items() if k != "eps32 / eps64"}
    assert not precision._format_facts(fewer).holds
    assert facts["bits for 1e-8 at 1e4"] == next(
        b for b in range(1, 113) if 2.0 ** (13 - b) <= 1e-8
    )
    assert 2.0 ** (13 - 40) <= 1e-8 < 2.0 ** (13 - 39)
    assert facts["half ulp below 1, float64"] == 2.0**-54
    with np.errstate(over="ignore"):
        assert float(np.float16(65519)) == 65504.0
        assert np.isinf(np.float16(65520))


def test_rounding_near_angle_detail() -> None:
    """Float32 spacing 2^-10 near 10^4; the largest rounding of the 10^5 angles, computed
    here, reaches the half spacing within 10^-3; the whole spacing fails.

    Fault caught: the sample, the spacing or the shortfall of the float32 rounding card."""
    angles = np.random.default_rng(0).uniform(9e3, 1.1e4, 100_000)
    worst = float(np.abs(angles.astype(np.float32).astype(np.float64) - angles).max())
    evidence = precision._rounding_near_angle(2.0**-11)
    assert evidence.holds
    assert evidence.error == pytest.approx(abs(worst - 2.0**-11) / 2.0**-11, rel=1e-12, abs=0.0)
    assert evidence.error is not None
    assert evidence.error <= 1e-3
    (spacing,) = _numbers(r"float32 spacing at 10\^4: (\S+);", evidence.text)
    assert spacing == _sig(2.0**-10, 6)
    assert not precision._rounding_near_angle(2.0**-10).holds


@pytest.mark.parametrize(("roundings", "words"), [(1, "1 rounding)"), (2, "2 roundings)")])
def test_recipe_roundings_words_and_allowance(roundings: int, words: str) -> None:
    """The allowance is the stated number of roundings, written in the singular for one.

    Fault caught: the plural's condition or the stated allowance changed."""
    evidence = precision._recipe_roundings(roundings)
    assert evidence.text.endswith(f"allowed: {words}")
    assert evidence.tolerance is not None
    assert evidence.tolerance.stated == roundings
    assert evidence.tolerance.rounding == 2.0**-27
    assert evidence.holds is (roundings == 2)


def test_megatron_distinct_rows_are_the_float16_positions() -> None:
    """Positions 0 .. 32767 cast to float16 take 6145 values (NumPy here); pair 0's
    frequency is 1, so the rows of angles are as many.

    Fault caught: the position range or the distinct count of the Megatron card."""
    distinct = np.unique(np.arange(32_768).astype(np.float16)).size
    evidence = precision._positions_in(np.float16)
    assert evidence.holds
    assert f"positions 0..32767 cast to the float16 of the frequencies: {distinct} distinct" in (
        evidence.text
    )
    assert not precision._positions_in(np.float32).holds


def test_census_counts_its_sample() -> None:
    """The census covers rows 0..63 and the last 64 below 2^20 whole at d = 64, plus 2000
    sampled entries: 2 * 64 * 64 + 2000 entries.

    Fault caught: the census's sample or its description changed."""
    evidence = precision._rounding_64(False)
    assert evidence.holds
    assert evidence.text.startswith(f"{2 * 64 * 64 + 2000} entries (rows 0..63 and 2^20-64..")
    assert not precision._rounding_64(True).holds


def test_drift_sample_is_the_pages() -> None:
    """32 rows from each of p = 10^3 .. 10^6 (the docstrings), at d = 64, 440 and 560.

    Fault caught: a start or width of the drift sample moved."""
    assert precision.DRIFT_STARTS.tolist() == [10**3, 10**4, 10**5, 10**6]
    assert precision.DRIFT_WIDTHS == (64, 440, 560)
    assert precision.EXP_WITNESS == (440, 705_578)


def test_alias_check_allowance_and_rounding() -> None:
    """The alias check allows half the smallest gap between a true frequency above pi and
    its alias (mpmath here), plus the true frequencies' rounding, (eps + u ln 10000) max w.

    Fault caught: a wrong gap, halving or rounding term in the alias check's tolerance."""
    with mpmath.workdps(30):
        omegas = [mpmath.mpf(10000) ** (mpmath.mpf(2 * i) / 64) for i in range(32)]
        above = [w for w in omegas if w > mpmath.pi]
        gap = min(abs(w - mpmath.acos(mpmath.cos(w))) for w in above)
        largest = float(max(omegas))
    evidence = conventions_chapter._reported_is_alias(conventions_chapter.integer_alias_of)
    assert evidence.holds
    assert evidence.tolerance is not None
    assert evidence.tolerance.stated == pytest.approx(float(gap) / 2, rel=1e-12, abs=0.0)
    rounding = (EPS64 + U * math.log(10000.0)) * largest
    assert evidence.tolerance.rounding == pytest.approx(rounding, rel=1e-12, abs=0.0)
    assert f"{len(above)} pairs turn faster than π" in evidence.text
    assert not conventions_chapter._reported_is_alias(lambda omega: omega).holds


# --- rope -------------------------------------------------------------------------------------


def test_projection_proof_quantifies_over_real_weights() -> None:
    """Rotating before projecting is disproved for real weights: every symbol of its
    residual (W_q's and W_k's entries included) is real, as in the statement.

    Fault caught: one projection's entries declared non-real."""
    assert rope.offset_only_after_projection().holds
    proof = rope.offset_only_after_projection(rope.ROTATE_BEFORE_PROJECTING.value)
    assert not proof.holds
    residual = proof.residual
    assert residual is not None
    names = {s.name for s in residual.free_symbols}
    assert {"a_0", "a_3", "b_0", "b_3"} <= names
    assert all(s.is_real for s in residual.free_symbols)


_FIXED_W = np.random.default_rng(5).standard_normal((64, 64))
FIXED_PROJECTION = Projection("a fixed W", lambda _rng, _d: _FIXED_W)


def _spread_ratio(n: int, d: int, content: float) -> float:
    """max over diagonals of (max - min) of S = (PE + x) W (PE + x)^T, over the std of S,
    with x the content vector (seed 0, scale content / sqrt(d))."""
    x = content * np.random.default_rng(0).standard_normal(d) / math.sqrt(d)
    rows = _paper_by_hand(n, d) + x
    s = rows @ _FIXED_W @ rows.T
    spread = max(float(np.ptp(np.diagonal(s, offset=k))) for k in range(-(n - 2), n - 1))
    return spread / float(s.std())


def test_relative_only_measures_three_hundred_positions() -> None:
    """The relative-condition check measures n = 300 positions at d = 64 (as it prints):
    its ratio, recomputed here for a fixed W, and its refusal of a W that is not relative.

    Fault caught: the sample size of the position-term measurement changed."""
    evidence = implications._relative_only(FIXED_PROJECTION)
    assert evidence.error == pytest.approx(_spread_ratio(300, 64, 0.0), rel=1e-9, abs=0.0)
    assert "d=64, n=300, W = a fixed W" in evidence.text
    assert not evidence.holds


@pytest.mark.parametrize("content", [0.0, 1.0])
def test_not_relative_measures_three_hundred_positions(content: float) -> None:
    """The not-relative check (n = 300, d = 64, with or without content): its printed ratio,
    recomputed here, and the 0.1 threshold.

    Fault caught: the sample or the content of the not-relative measurement changed."""
    evidence = implications._not_relative(FIXED_PROJECTION, content=content)
    (ratio,) = _numbers(r"const is (\S+) times", evidence.text)
    assert ratio == _sig(_spread_ratio(300, 64, content), 3)
    assert f"content scale {content}" in evidence.text
    assert evidence.holds


def _abel_by_hand(
    q: npt.NDArray[np.float64], k: npt.NDArray[np.float64], offsets: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """RoFormer's bound max|h_(i+1) - h_i| sum_j |S_j(r)| and the score Re sum_i h_i e^(i r w_i),
    h_i = conj(q_2i + i q_2i+1)(k_2i + i k_2i+1), h_(d/2) = 0, written out with NumPy."""
    h = np.conj(q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2])
    omegas = 10000.0 ** (-np.arange(0, q.size, 2) / q.size)
    phases = np.exp(1j * np.outer(offsets.astype(np.float64), omegas))
    partial_sums = np.cumsum(phases, axis=1)  # S_1 .. S_(d/2)
    step = float(np.abs(np.diff(np.append(h, 0.0))).max())
    bound = step * np.abs(partial_sums).sum(axis=1)
    return np.asarray(bound, dtype=np.float64), np.asarray((phases @ h).real, dtype=np.float64)


def _rise(values: npt.NDArray[np.float64]) -> float:
    best = -math.inf
    for j in range(1, values.size):
        best = max(best, float(values[j] - values[:j].min()))
    return best / float(np.abs(values).max())


def test_rope_trend_card_recomputed() -> None:
    """The trend card: offsets 0 .. 2000, each sequence's largest relative rise and the
    window means of the bound and of s for q = kappa = 1, recomputed with NumPy.

    Fault caught: a window, the offsets or a printed mean of the trend card."""
    assert rope.TREND_OFFSETS.tolist() == list(range(2001))
    assert rope.DECAY_WINDOWS == ((0, 10), (10, 100), (100, 1000))
    ones = np.ones(128)
    (_, _), (q, k) = rope.decay_pairs()
    bound, scores = _abel_by_hand(ones, ones, rope.TREND_OFFSETS)
    random_scores = _abel_by_hand(q, k, rope.TREND_OFFSETS)[1]
    evidence = rope._not_monotone(rope.rope_score_sequences)
    assert evidence.holds
    text = evidence.text
    assert text.startswith("d=128, k = 0..2000: ")
    rises = _numbers(
        r"magnitude: (\S+) \(bound \(q=κ=1\)\), (\S+) \(s \(q=κ=1\)\), (\S+) \(s \(random", text
    )
    expected = [_rise(bound), _rise(scores), _rise(random_scores)]
    assert rises == pytest.approx([_sig(v, 3) for v in expected], rel=2e-3, abs=0.0)
    means = _numbers(r"bound (\S+), (\S+), (\S+); s \(q=κ=1\) (\S+), (\S+), (\S+)$", text)
    windows = [(0, 10), (10, 100), (100, 1000)]
    mine = [float(bound[a:b].mean()) for a, b in windows]
    mine += [float(scores[a:b].mean()) for a, b in windows]
    assert means == pytest.approx([_sig(v, 4) for v in mine], rel=2e-4, abs=0.0)


@pytest.mark.parametrize(("last", "holds"), [(0.1, False), (0.1001, True), (0.2, True)])
def test_rope_trend_rise_threshold(last: float, holds: bool) -> None:
    """A sequence 1, 0, ``last`` rises by ``last`` of its largest magnitude: the card wants
    more than 0.1 (the bound and the true scores keep their decreasing means).

    Fault caught: the rise threshold moved or made inclusive."""

    def candidate(_offsets: Any) -> dict[str, Any]:
        return {"a sequence": np.array([1.0, 0.0, last])}

    assert rope._not_monotone(candidate).holds is holds


@pytest.mark.parametrize(
    ("bound", "scores", "holds"),
    [
        ((3.0, 2.0, 1.0), (3.0, 2.0, 1.0), True),
        ((3.0, 2.0, 1.0), (1.0, 2.0, 0.5), False),  # the scores' means rise, then fall
        ((3.0, 2.0, 1.0), (3.0, 1.0, 2.0), False),
        ((1.0, 2.0, 0.5), (3.0, 2.0, 1.0), False),
        ((3.0, 1.0, 2.0), (3.0, 2.0, 1.0), False),
    ],
)
def test_rope_trend_needs_both_means_falling(
    monkeypatch: pytest.MonkeyPatch,
    bound: tuple[float, float, float],
    scores: tuple[float, float, float],
    holds: bool,
) -> None:
    """The trend card needs the bound's and the scores' window means to fall strictly,
    each from the first window to the second and from the second to the third.

    Fault caught: one of the four comparisons of the means loosened."""
    means = iter([list(bound), list(scores)])
    monkeypatch.setattr(rope, "window_means", lambda _values: next(means))

    def candidate(_offsets: Any) -> dict[str, Any]:
        return {"a sequence": np.array([1.0, 0.0, 0.5])}

    assert rope._not_monotone(candidate).holds is holds


def test_rope_decay_card_recomputed() -> None:
    """The decay card: offsets 0 .. 5000, and the worst |s(k)| / bound over q = kappa = 1
    and the random pair, recomputed with NumPy.

    Fault caught: the decay offsets or the ratio printed."""
    assert rope.DECAY_OFFSETS.tolist() == list(range(5001))
    worst = 0.0
    for q, k in rope.decay_pairs():
        bound, scores = _abel_by_hand(q, k, rope.DECAY_OFFSETS)
        worst = max(worst, float((np.abs(scores) / bound).max()))
    evidence = rope._decay(rotary.abel_bound)
    assert evidence.holds
    (printed,) = _numbers(r"k = 0\.\.5000: max \|s\(k\)\|/bound = (\S+)$", evidence.text)
    assert printed == pytest.approx(_sig(worst, 3), rel=2e-3, abs=0.0)
    assert "d=128, q=κ=1 and random q, κ" in evidence.text


def test_summation_by_parts_terms_and_display() -> None:
    """N = 64 terms by default (d = 128); N >= 2 is required; up to 4 terms the sums are
    written out, beyond they are abbreviated.

    Fault caught: the default width, the guard or the display's threshold changed."""
    proof = rope.summation_by_parts()
    assert proof.holds
    assert "N = 64" in proof.name
    with pytest.raises(ValueError, match="terms"):
        rope.summation_by_parts(terms=1)
    two = rope.summation_by_parts(terms=2)
    assert two.holds
    assert "N = 2" in two.name
    four = rope.summation_by_parts(terms=4).steps[0].latex
    assert r"\dots" not in four
    assert "e_{3} h_{3}" in four
    five = rope.summation_by_parts(terms=5).steps[0].latex
    assert r"h_0 e_0 + \dots + h_{4} e_{4}" in five
    assert r"S_{5} (h_{5} - h_{4})" in five


def test_offsets_grid_written() -> None:
    """The offset card writes a leading run 0..63 as a range, then the far positions, and
    every offset; positions not starting at 0 are listed one by one.

    Fault caught: the run's length or the grid's text changed."""
    evidence = rope._offsets("float64", "float64")
    assert evidence.holds
    assert (
        "m in {0..63, 1000, 2047, 2049, 4097, 10000, 60001}, k in {0, 1, 5, 37, -3, 500}"
        in evidence.text
    )
    listed = rope._offsets("float64", "float64", positions=np.array([5, 6, 7, 1000]))
    assert "m in {5, 6, 7, 1000}," in listed.text


def test_float16_positions_stay_below_the_ceiling() -> None:
    """Float16's positions are those of POSITIONS where its tolerance stays under
    2 sum_i rho_i (the largest score difference), rho_i the pairs' norm products.

    Fault caught: the ceiling's factor or the comparison moved."""
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(128), rng.standard_normal(128)
    rho = np.hypot(q[0::2], q[1::2]) * np.hypot(k[0::2], k[1::2])
    ceiling = 2 * float(rho.sum())
    tau = rotary.offset_tolerance(q, k, rope.POSITIONS, rope.OFFSETS, model_dtype=np.float16).max(
        axis=1
    )
    expected = rope.POSITIONS[tau < ceiling]
    assert rope.FLOAT16_POSITIONS.tolist() == expected.tolist()
    assert 0 < rope.FLOAT16_POSITIONS.size < rope.POSITIONS.size
    last = int(np.flatnonzero(rope.FLOAT16_POSITIONS.max() == rope.POSITIONS)[0])
    assert float(tau[last]) < ceiling
    # a dense grid of positions: the ones kept are exactly those below 2 sum rho, and the
    # grid has positions just above it
    grid = np.arange(0, 20_000, 7)
    tau_grid = rotary.offset_tolerance(q, k, grid, rope.OFFSETS, model_dtype=np.float16).max(axis=1)
    assert rope._below_ceiling(grid).tolist() == grid[tau_grid < ceiling].tolist()
    assert np.any((tau_grid >= ceiling) & (tau_grid < 1.01 * ceiling))


# --- conventions: identify's readings -------------------------------------------------------


def test_uncertainty_slope_allowance_edges() -> None:
    """The cosine's slope is held to -exponent within 0.25, on both sides.

    Fault caught: the allowance of the slope check moved or made strict."""
    cosine, sine, slow = uncertainty_slopes()
    assert abs(sine) <= 0.25
    assert conventions_chapter._uncertainty(2.0).holds
    assert not conventions_chapter._uncertainty(1.0).holds
    for offset, holds in ((0.2499, True), (-0.2499, True), (0.2501, False), (-0.2501, False)):
        assert conventions_chapter._uncertainty(-cosine + offset).holds is holds
    evidence = conventions_chapter._uncertainty(2.0)
    assert f"{slow} slow pairs (θ < 1/2)" in evidence.text
    assert f"cosines {cosine:.3f}, sines {sine:.3f}" in evidence.text


def test_zoo_shift_settings_are_the_statements() -> None:
    """The bug zoo's shifts: d = 16 (17 for the odd width), 400 rows, k = 3, as stated.

    Fault caught: a setting of the zoo's shift check moved."""
    settings = (
        conventions_chapter.ZOO_WIDTH,
        conventions_chapter.ZOO_ROWS,
        conventions_chapter.ZOO_SHIFT,
    )
    assert settings == (16, 400, 3)
    evidence = conventions_chapter._zoo_shifts(conventions_chapter._named_pairs)
    assert evidence.holds
    assert evidence.text.startswith("d = 16 (17 for the odd width), 400 rows, k = 3, ")
    wrong = conventions_chapter._zoo_shifts(conventions_chapter._paper_frequencies)
    assert not wrong.holds


def test_described_and_rounder_base_cards() -> None:
    """Every convention of the atlas against its description (d = 64, 1000 rows); the
    rounder-base readings, one changed refused.

    Fault caught: the atlas, the sample or a reading of these cards changed."""
    described = conventions_chapter._described(conventions.DESCRIPTION)
    assert described.holds
    count = len(conventions.CONVENTIONS)
    assert described.text.startswith(f"{count} conventions, d=64, 1000 rows, ")
    stated = conventions_chapter.ROUNDER_BASE
    evidence = conventions_chapter._rounder_base(stated)
    assert evidence.holds
    assert "paper table, d=8: paper law, the tie noted; " in evidence.text
    assert evidence.text.count("noted") == 2  # d = 6 and d = 8
    changed = {**stated, ("tensor2tensor", 512): ("paper", False)}
    refused = conventions_chapter._rounder_base(changed)
    assert not refused.holds
    # the case that differs says so, and only that one (audit v22)
    assert refused.text.endswith(
        "tensor2tensor table, d=512: tensor2tensor law (stated: paper law: differs)"
    )
    assert refused.text.count("differs") == 1


def test_no_shift_matrix_card() -> None:
    """The column-index bug: a fitted shift matrix (rows 0..1997, applied to 1998..3996,
    d = 16) misses by more than 0.1; the paper's table is shifted.

    Fault caught: the fit's sample or the verdict of the no-shift check changed."""
    evidence = conventions_chapter._no_shift_matrix(bug_zoo.column_index_exponent)
    assert evidence.holds
    assert "fitted on rows 0..1997 and applied to rows 1998..3996 (d=16)" in evidence.text
    assert not conventions_chapter._no_shift_matrix(numeric.sinusoidal).holds


# --- implications: tolerances from the dot-product model ------------------------------------


def _gamma(n: int) -> float:
    return n * U / (1 - n * U)


def _dot_tau(d: int, reach: float) -> float:
    """The dot-product model as its docstring writes it: sqrt2 d delta + gamma_d d/2
    + d/2 (eps + (r_w + u) reach) + gamma_(d/2) d/2, with r_w = u."""
    half = d / 2
    return (
        math.sqrt(2) * d * ENTRY_ERROR_BOUND
        + _gamma(d) * half
        + half * (EPS64 + (U + U) * reach)
        + _gamma(d // 2) * half
    )


def test_symmetric_tolerance_reaches_p_plus_k() -> None:
    """Ahead against behind at p = 2000, k < 1500: two dot products, each within the
    model at reach 3500.

    Fault caught: the position, the reach or the factor 2 of the symmetry check moved."""
    evidence = implications._symmetric(0)
    assert evidence.holds
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == pytest.approx(2 * _dot_tau(512, 3500), rel=1e-12, abs=0.0)
    assert "d=512, p=2000, k=1..1499: max |PE(p) · PE(p±k) ahead - behind|" in evidence.text
    shifted = implications._symmetric(1)
    assert not shifted.holds
    assert "PE(p)^T T_1 PE(p±k)" in shifted.text


def test_dot_products_tolerance_and_sample() -> None:
    """All 1500 x 1500 dot products at d = 512: offsets up to 1499, held to the model at
    reach 3000 (the positions' sum).

    Fault caught: the sample or the reach of the dot-product check moved."""
    evidence = implications._dot_products(1)
    assert evidence.holds
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == pytest.approx(_dot_tau(512, 3000), rel=1e-12, abs=0.0)
    assert "d=512, all 1500x1500 dot products of rows against sum_i cos(w_i (q - p))" in (
        evidence.text
    )
    doubled = implications._dot_products(2)
    assert not doubled.holds
    assert "cos(w_i^2 (q - p))" in doubled.text


def test_norm_and_minimum_bounds_printed() -> None:
    """The norm check's tolerance is the model at reach 0 for the wider width (512), and the
    minimum card compares its gap with twice the bound tau(512, k_max), which it prints.

    Fault caught: the width, reach or factor of these bounds changed."""
    norm = implications._norm(implications.HALF)
    assert norm.tolerance is not None
    assert norm.tolerance.value == pytest.approx(_dot_tau(512, 0.0), rel=1e-12, abs=0.0)
    for k_max in (implications.NEAR_RANGE, implications.DECAY_RANGE):
        low = int(np.argmin(_f_numpy(512, k_max)))
        text = implications._minimum(k_max)(low).text
        (twice,) = _numbers(r"against twice the error bound, (\S+) \(stated", text)
        assert twice == _sig(2 * _dot_tau(512, k_max), 2)


def _gram_tau(d: int, distance: float) -> float:
    """The Gram-distance model as its docstring writes it:
    (4 delta sqrt(d) D + 4 delta^2 d + 2 d gamma_d + u (d + D^2)) / D + u D."""
    delta = ENTRY_ERROR_BOUND
    squared = (
        4 * delta * math.sqrt(d) * distance
        + 4 * delta**2 * d
        + 2 * d * _gamma(d)
        + U * (d + distance**2)
    )
    return squared / distance + U * distance


def test_rows_distinct_tolerance_is_gram_plus_chord() -> None:
    """The brute force (n = 2000, d = 64) and the shortcut agree within the Gram distance's
    model plus 8 eps D, D the neighbours' distance sqrt(sum_i (2 - 2 cos w_i)) (mpmath).

    Fault caught: a term of the distance check's tolerance dropped or its sign turned."""
    with mpmath.workdps(30):
        omegas = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / 64) for i in range(32)]
        distance = float(mpmath.sqrt(mpmath.fsum(2 - 2 * mpmath.cos(w) for w in omegas)))
    evidence = implications._scan_is_brute_force(lambda n, d: nearest_rows(n, d)[1])
    assert evidence.holds
    assert evidence.tolerance is not None
    expected = _gram_tau(64, distance) + 8 * EPS64 * distance
    assert evidence.tolerance.rounding == pytest.approx(expected, rel=1e-9, abs=0.0)
    (brute,) = _numbers(r"brute force over all pairs (\S+),", evidence.text)
    assert brute == _sig(distance, 6)
    assert site_text(evidence.detail).endswith(": within")
    # a scan that misses the neighbours differs from the brute force, and says so
    skipped = implications._scan_is_brute_force(implications.SCAN_FROM_TWO.value)
    assert not skipped.holds
    assert site_text(skipped.detail).endswith(": exceeds")


def test_rows_that_repeat_are_named_by_their_first_repeat() -> None:
    """A law whose rows repeat (period 256 at d = 16) is reported by the first offset at
    which rows coincide, and offsets that tie to rounding are counted, not one named.

    Fault caught: a closest offset picked by float rounding among exact ties (audit v24)."""
    repeat = implications._rows_repeat_never(implications.BINARY_COUNTER.value)
    assert not repeat.holds
    assert "n=1000, d=16: rows 256 apart coincide (below 1e-06); no two rows coincide: no" in (
        repeat.text
    )
    ties = implications._rows_distinct(implications.BINARY_COUNTER.value)
    assert not ties.holds
    assert "offsets tie, from 1)" in ties.text
    assert ties.text.endswith("the closest rows are distinct neighbours: no")


def test_not_monotone_range_includes_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decay is measured over k = 0 .. DECAY_RANGE, the end included (as printed): cut
    at k = 3284, the first negative value is still found there.

    Fault caught: the measured range made to stop one offset short."""
    monkeypatch.setattr(implications, "DECAY_RANGE", 3284)
    evidence = implications._not_monotone((43, 3284))
    assert evidence.holds
    assert "k = 0..3284:" in evidence.text
    assert "first negative at k = 3284" in evidence.text


# --- precision: float16 rows, the split, the sampled check ----------------------------------


def test_float16_rows_stay_apart_recomputed() -> None:
    """The float16 table of positions 0 .. 4095 (d = 16): no row repeats, and the closest
    two rows (all pairs, NumPy here) are the ones printed, farther apart than 1.

    Fault caught: the sample or the closest pair of the float16 card changed."""
    rows = _paper_by_hand(4096, 16).astype(np.float16).astype(np.float64)
    squares = (rows**2).sum(axis=1)
    gram = squares[:, None] + squares[None, :] - 2 * rows @ rows.T
    np.fill_diagonal(gram, np.inf)
    closest = int(np.argmin(gram))
    p, q = sorted(divmod(closest, 4096))
    smallest = math.sqrt(float(((rows[p] - rows[q]) ** 2).sum()))
    evidence = precision._rows(repeat=False)(precision._float16)
    assert evidence.holds
    assert evidence.text.startswith("positions 0..4095, d=16: 0 rows repeat an earlier row; ")
    (printed,) = _numbers(rf"smallest distance (\S+) \(positions {p} and {q}\)", evidence.text)
    assert printed == _sig(smallest, 3)
    assert smallest > precision.FLOAT16_APART == 1.0
    assert not precision._rows(repeat=True)(precision._float16).holds


def _zero_split(
    x: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    return np.zeros_like(x), np.zeros_like(x)


def test_split_must_add_up_and_multiply_exactly() -> None:
    """Veltkamp's split passes; halves that do not add up to x fail even when every product
    of halves is exact (zeros), and a 28-bit low half fails on inexact products.

    Fault caught: one of the split check's two conditions dropped."""
    good = precision._products_exact(_extended_precision._split)
    assert good.holds
    assert good.text.startswith("2 x 5000 doubles: hi + lo = x for each: True; of 20000 ")
    zeros = precision._products_exact(_zero_split)
    assert not zeros.holds
    assert "hi + lo = x for each: False; of 20000 products of halves, 0 not exact" in zeros.text
    assert not precision._products_exact(precision.SPLIT_24_BITS.value).holds
    # halves that overshoot x by one unit of the low half's 26th bit: products still exact
    over = precision._products_exact(_overshooting_split)
    assert not over.holds
    assert "hi + lo = x for each: False; of 20000 products of halves, 0 not exact" in over.text


def _overshooting_split(
    x: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Veltkamp's halves with the low one raised by the unit of its 26th bit: still at
    most 26 bits each, but hi + lo > x wherever lo != 0."""
    hi, lo = _extended_precision._split(x)
    _, exponent = np.frexp(np.abs(lo))
    return hi, lo + np.where(lo != 0, np.ldexp(1.0, exponent - 26), 0.0)


def test_sampled_check_covers_both_widths_below_two_to_the_twenty() -> None:
    """The sampled accuracy check covers d = 64 and 4096 below 2^20 (the statement), with
    the bound printed.

    Fault caught: a width or the limit of the sampled check moved."""
    assert precision.WIDTHS == (64, 4096)
    assert precision.LIMIT == 2**20
    evidence = precision._within(ENTRY)(numeric.sinusoidal)
    assert evidence.holds
    assert "600 sampled entries per width below 2^20" in evidence.text
    assert "d=64: max error" in evidence.text
    assert "d=4096: max error" in evidence.text
    # each width's error with the bound as the site rounds it (audit v23: never a "below"
    # figure above the bound printed beside it)
    shown = site_text(precision._within(ENTRY)(numeric.sinusoidal).detail)
    assert shown.count(f"(tolerance {_round_up(ENTRY_ERROR_BOUND)})") == 2
    assert f"below {_round_up(ENTRY_ERROR_BOUND)} (tolerance" in shown


# --- testing chapter: what a table read does ------------------------------------------------


def test_reads_names_refused_and_failed_tables() -> None:
    """A table assert_matches_paper cannot read is "refused", one it fails "fail"; either
    fails the check, and the paper's own table passes.

    Fault caught: the refused branch or the all-pass condition of the reading check."""
    paper = numeric.sinusoidal(64, 16)
    assert testing_chapter._reads({"paper": paper}).holds
    refused = testing_chapter._reads({"paper": paper, "a word": "not a table"})
    assert not refused.holds
    assert refused.text == "paper: pass; a word: refused"
    failed = testing_chapter._reads({"shifted": numeric.sinusoidal(65, 16)[1:]})
    assert not failed.holds
    assert failed.text == "shifted: fail"


def test_signal_card_both_branches() -> None:
    """A stack whose top never changes has no mean cosine ("undefined"), and fails; the
    pre-LN stack's value is printed with three decimals and passes 0.5, a plain stack's not.

    Fault caught: the undefined branch or the threshold of the signal check."""
    cancelled = fixed_or_learned._signal(CANCELLING)
    assert cancelled.holds is False
    assert "PE(p) = undefined (nothing changed at the top) (threshold 0.5)" in cancelled.text
    kept = fixed_or_learned._signal(RESIDUAL)
    assert kept.holds
    (value,) = _numbers(r"PE\(p\) = (\d\.\d{3}) \(threshold 0\.5\)", kept.text)
    assert value > 0.5
    assert "d=64, n=128, 6 sublayers" in kept.text
    plain = fixed_or_learned._signal(PLAIN)
    (low,) = _numbers(r"PE\(p\) = (\d\.\d{3}) \(threshold", plain.text)
    assert plain.holds is (low > 0.5)


def test_depth_check_is_strict() -> None:
    """ "Above at every depth" is strict: a stack compared with itself (every gap exactly 0)
    fails, pre-LN over plain passes with the smallest gap printed, and the reverse fails.

    Fault caught: the depth check's comparison loosened (``gap > -1``, ``gap >= 0``)."""
    assert not fixed_or_learned._above_at_every_depth((RESIDUAL, RESIDUAL)).holds
    kept = fixed_or_learned._above_at_every_depth((RESIDUAL, PLAIN))
    assert kept.holds
    first = fixed_or_learned.signals_by_depth(RESIDUAL)
    second = fixed_or_learned.signals_by_depth(PLAIN)
    gap = min(a - b for a, b in zip(first, second, strict=True))
    assert f"smallest gap {gap:.2f}" in kept.text
    assert not fixed_or_learned._above_at_every_depth((PLAIN, RESIDUAL)).holds


def test_paper_layouts_have_the_shapes_they_name() -> None:
    """Each layout read by the testing card has the shape its name says, n = 64, d = 16,
    and holds the paper's table.

    Fault caught: a layout's shape, batch size or default size changed."""
    n, d = 64, 16
    layouts = testing_chapter._paper_layouts()
    shapes = {
        "(n, d) float64": (n, d),
        "(n, d) float32": (n, d),
        "(n, d) float16": (n, d),
        "(1, n, d)": (1, n, d),
        "(n, 1, d)": (n, 1, d),
        "(3, n, d), equal tables": (3, n, d),
        "nested lists": (n, d),
    }
    assert set(layouts) == set(shapes)
    paper = _paper_by_hand(n, d)
    for name, table in layouts.items():
        array = np.asarray(table, dtype=np.float64)
        assert array.shape == shapes[name], name
        flat = array.reshape(-1, n, d) if name != "(n, 1, d)" else array[:, 0][None]
        tol = 1e-3 if "16" in name else 1e-7 if "32" in name else 1e-12
        assert np.abs(flat - paper).max() <= tol, name
    assert str(np.asarray(layouts["(n, d) float16"]).dtype) == "float16"
    assert str(np.asarray(layouts["(n, d) float32"]).dtype) == "float32"


def test_verdicts_failures_name_what_to_ask() -> None:
    """The failing cases fail naming what to do (pass angle_dtype, follow base 500000); a
    stated verdict turned round is refused.

    Fault caught: a case's expected words or verdict changed."""
    for case, words in testing_chapter.ASKS.items():
        with pytest.raises(AssertionError, match=re.escape(words)):
            testing_chapter.CASES[case]()
    evidence = testing_chapter._verdicts(testing_chapter.STATED)
    assert evidence.holds
    assert "float32 angles, float64 output (Hugging Face's Llama): fail;" in evidence.text
    turned = {**testing_chapter.STATED, "NTK-aware base (s = 4)": "fail"}
    refused = testing_chapter._verdicts(turned)
    assert not refused.holds
    assert "NTK-aware base (s = 4): pass (stated: fail: differs);" in refused.text
    assert refused.text.count("differs") == 1


def test_survey_card_reads_the_recordings() -> None:
    """The survey card: each library's odd-width outcome as recorded, an exception by its
    type and a table by its shape (66 x 33), and padding rows only where there are some.

    Fault caught: a branch of the survey's text, or the odd width, changed."""
    assert conventions_chapter.ODD_WIDTH == 33
    evidence = conventions_chapter._survey(conventions_chapter.SURVEY)
    assert evidence.holds
    text = evidence.text
    odd = conventions_chapter.surveyed_odd_widths()
    assert set(odd) == set(conventions_chapter.SURVEY)
    for name, outcome in odd.items():
        if outcome.dtype.kind == "U":
            kind = str(outcome).split(":")[0]
            assert f"{name} raises {kind}" in text
        else:
            assert outcome.shape == (66, 33)
            assert re.search(re.escape(name) + r" [a-z ]+ \(66 x 33\)", text), name
    for name, row in conventions_chapter.SURVEY.items():
        padding = f"{name}: {row.layout}, {row.order}, {row.law} law, first token at row "
        padding += f"{row.first_token_row}"
        if row.padding_rows:
            padding += f", padding rows {list(row.padding_rows)}"
        assert padding + ";" in text, name
    assert text.count("padding rows") == 2


def test_layout_shift_errors_start_from_zero() -> None:
    """With no layout claimed there is no error (0, 0, never negative); with every layout at
    d = 16 the largest error is a rounding error within the model.

    Fault caught: the running maxima started below 0."""
    empty = conventions_chapter.ShiftInLayout(conventions_chapter.conjugated, layouts=())
    assert conventions_chapter.layout_shift_errors(empty, d=16) == (0.0, 0.0)
    errors = conventions_chapter.layout_shift_errors(conventions_chapter.CONJUGATED, d=16)
    assert 0.0 < errors.worst < 1e-12
    assert 0.0 < errors.ratio <= 1.0


def test_rope_decay_rounding_is_its_model() -> None:
    """The decay check allows the scores' rounding 2 gamma_(d+4) sum_i |h_i|, the larger of
    the two pairs (q = kappa = 1 and the random one), and it holds with no excess.

    Fault caught: the rounding of the decay check taken from one pair or another model."""
    roundings = []
    for q, k in rope.decay_pairs():
        h = np.conj(q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2])
        roundings.append(2 * _gamma(128 + 4) * float(np.abs(h).sum()))
    evidence = rope._decay(rotary.abel_bound)
    assert evidence.tolerance is not None
    assert evidence.tolerance.rounding == pytest.approx(max(roundings), rel=1e-12, abs=0.0)
    assert evidence.error == 0.0
    assert not rope._decay(rope.LAST_PARTIAL_SUM.value).holds


def _unconjugated_misses(d: int, p: float, k: float) -> int:
    """Entries of a halves table's row p + k that the paper's T_k, applied as is to row p,
    gets wrong (NumPy, base 10000)."""
    omegas = 10000.0 ** (-np.arange(0, d, 2) / d)

    def halves(x: float) -> npt.NDArray[np.float64]:
        return np.concatenate([np.sin(omegas * x), np.cos(omegas * x)])

    shift = np.zeros((d, d))
    for i, w in enumerate(omegas):
        c, s = math.cos(k * w), math.sin(k * w)
        shift[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    return int(np.sum(np.abs(shift @ halves(p) - halves(p + k)) > 1e-9))


def test_layout_identity_reports_its_residual() -> None:
    """The layout proof names its candidate, shows a 4 x 4 corner at d = 8, and counts the
    residual's non-zero entries: none for P T_k P^T, as many as NumPy finds for the paper's
    T_k used as is on a halves table.

    Fault caught: the count, the corner or the candidate's name in the layout proof."""
    true = conventions_chapter.layout_identity("halves", "sin-first")
    assert true.holds
    words = [step.words for step in true.steps]
    assert "Candidate matrix (conjugated): its top-left 4 x 4 corner" in words
    assert words[-1].endswith(": 0 of 8 entries are non-zero")
    last = true.steps[-1].expr
    assert last is not None
    assert last.shape == (4, 1)
    wrong = conventions_chapter.layout_identity(
        "halves", "sin-first", conventions_chapter._unconjugated
    )
    assert not wrong.holds
    misses = _unconjugated_misses(8, 3.7, 1.3)
    assert wrong.steps[-1].words.endswith(f": {misses} of 8 entries are non-zero")
    assert "Candidate matrix (unconjugated): its top-left 4 x 4 corner" in (
        step.words for step in wrong.steps
    )


def test_neox_card_recomputed() -> None:
    """GPT-NeoX #1003 as its reporter wrote it (d = 32, 2048 positions, float32 frequencies
    1 / 10000^(2i/d), the float16 path multiplying float16 positions by float16
    frequencies): the angles at entry (1857, 1), the cosine's change there and its largest
    change, as printed.

    Fault caught: a figure, the entry or the sample of the GPT-NeoX card."""
    exponents = np.arange(0, 32, 2, dtype=np.float32) / np.float32(32)
    inv_freq = np.float32(1.0) / (np.float32(10000.0) ** exponents)
    positions = np.arange(2048, dtype=np.float32)
    angles32 = np.multiply.outer(positions, inv_freq).astype(np.float32)
    angles16 = np.multiply.outer(positions.astype(np.float16), inv_freq.astype(np.float16))
    change = np.abs(np.cos(angles16).astype(np.float32) - np.cos(angles32))
    where = np.unravel_index(int(np.argmax(change)), change.shape)
    evidence = precision._neox(recipes.half_frequency_angles)
    assert evidence.holds
    text = evidence.text
    assert text.startswith("d=32, 2048 positions, entry (1857, 1): ")
    angle32 = float(angles32[1857, 1])
    assert f"float32 angle {angle32:.8g}, rounded to float16 {float(np.float16(angle32)):g}" in text
    assert f"float16 angle of this path {float(angles16[1857, 1]):g} (reported 1045)" in text
    assert f"cosine changed there by {float(change[1857, 1]):.4f}" in text
    largest = f"at most {float(change.max()):.4f} at ({int(where[0])}, {int(where[1])})"
    assert largest in text
    assert not precision._neox(recipes.rounded_angles).holds


def test_census_site_words_both_branches() -> None:
    """The site says only whether any entry differs from the correctly rounded value: "some
    differ" for float64, "none differs" for float32, whose bound it names.

    Fault caught: a branch of the census's site words turned round."""
    float64 = precision._rounding_64(False)
    assert ": some differ from the exact value rounded to nearest float64;" in float64.shown
    assert "ulp" not in float64.shown
    float32 = precision._correctly_rounded_32(precision._float32)
    assert float32.holds
    assert ": none differs from the exact value rounded to nearest float32;" in float32.shown
    assert ": 0 differ from the exact value rounded to nearest float32" in float32.text


@pytest.mark.parametrize(
    "projections",
    [
        (((1, 2), (0, 1)), ((2, 0), (1, 1))),
        (((1, 0), (0, 1)), ((1, 0), (0, 1))),
        (((0, 1), (1, 0)), ((3, 0), (0, 1))),
    ],
)
def test_counterexample_value_is_the_docstrings(
    projections: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
) -> None:
    """s(1, 1) - s(0, 0) in pair 0 (w = 1) is (A00 - A11) sin^2 1 + (A01 + A10) sin 1 cos 1,
    A = W_q^T W_k (the docstring of rope.additive_counterexample); a counter-example exactly
    when non-zero.

    Fault caught: the value, the matrices or the verdict of the counter-example card."""
    w_q, w_k = (np.array(m, dtype=np.int64) for m in projections)
    a = w_q.T @ w_k
    s, c = sp.sin(1), sp.cos(1)
    value = int(a[0, 0] - a[1, 1]) * s**2 + int(a[0, 1] + a[1, 0]) * s * c
    evidence = implications._counterexample(projections)
    assert evidence.holds is (value != 0)
    shown = [",".join(str(e) for e in row) for row in projections[0]]
    assert evidence.text.startswith(f"W_q = [[{shown[0]}],[{shown[1]}]], W_k = ")
    assert f"s(1, 1) − s(0, 0) = {value} exactly at pair 0, ω₀ = 1" in evidence.text
    verdict = "a counter-example" if value != 0 else "no counter-example"
    assert evidence.text.endswith(f"; {verdict}")


def test_frequency_bits_allowance_is_two_to_the_minus_150() -> None:
    """Three doubles per frequency must match to 2^-150 (the statement); two doubles, about
    106 bits, do not.

    Fault caught: the allowance or the width of the frequency-bits check."""
    assert precision.TURN_BITS == 150
    turns = _extended_precision.frequency_turns(512, 10000.0)
    evidence = precision._frequency_bits(512)(turns)
    assert evidence.holds
    assert evidence.tolerance is not None
    assert evidence.tolerance.stated == 2.0**-150
    (bits,) = _numbers(r"to (\S+) bits, worst pair", evidence.text)
    assert bits >= 150
    assert evidence.text.startswith("d=512, every pair: ")
    assert not precision._frequency_bits(512)(turns[:2]).holds


def test_exercise_sum_and_its_raw_reading() -> None:
    """The pre-LN top minus the sum of the sublayers' outputs on the normalised states is
    the input, to (2L + 6) u max|h|; the sum over the raw states is not.

    Fault caught: the exercise's stack or its tolerance changed."""
    evidence = fixed_or_learned._exercise_sum(fixed_or_learned._added_sum)
    assert evidence.holds
    _, run, _ = fixed_or_learned._stack_run(RESIDUAL)
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == pytest.approx(18 * U * run.largest, rel=1e-15, abs=0.0)
    assert evidence.text.startswith("pre-LN stack, d=64, 6 sublayers: ")
    assert not fixed_or_learned._exercise_sum(fixed_or_learned.RAW_STATES_SUM.value).holds


def _pairs(pairing: str, rotated: int) -> list[tuple[int, int]]:
    half = rotated // 2
    if pairing == "adjacent":
        return [(2 * i, 2 * i + 1) for i in range(half)]
    return [(i, i + half) for i in range(half)]


def test_rope_frequencies_card_recomputed() -> None:
    """Each recorded model's pair turns at p 10000^(-2i/r): the worst angle error over
    8 2^-24 (1 + p w_i), read here from the recorded maps with the pairing the statement
    gives each model.

    Fault caught: the float32 allowance, the base or the frequencies of the card."""
    recording = rope.rope_recorded()
    worst = 0.0
    for name, model in recording["models"].items():
        code = rope.ROPE_IN_PUBLIC_CODE[name]
        omega = 10000.0 ** (-2.0 * np.arange(code.rotated // 2) / code.rotated)
        for p, image in zip(recording["positions"], model["maps"], strict=True):
            m = np.array(image)
            for i, (a, b) in enumerate(_pairs(code.pairing, code.rotated)):
                turned = math.atan2(m[b, a], m[a, a])
                error = abs(math.remainder(turned - p * omega[i], 2 * math.pi))
                worst = max(worst, error / (8 * 2.0**-24 * (1 + p * omega[i])))
    evidence = rope._rope_frequencies(rope.ROPE_BASE)
    assert evidence.holds
    assert f"positions {recording['positions']} against p * 10000^(-2i/r)" in evidence.text
    (printed,) = _numbers(r"worst error / its float32 bound (\S+)$", evidence.text)
    assert printed == _sig(worst, 2)
    assert not rope._rope_frequencies(rope.LLAMA3_BASE.value).holds


def test_from_scratch_card() -> None:
    """The from-scratch rope is compared at (2048, 128) and (300, 8), held to 1 (twice the
    rotation's rounding bound per entry); turning the other way fails.

    Fault caught: the sample or the allowance of the from-scratch card."""
    evidence = rope._from_scratch(from_scratch.rope)
    assert evidence.holds
    assert evidence.text.startswith("(n, d) in (2048, 128), (300, 8), random x: ")
    assert evidence.text.endswith("(needs <= 1)")
    assert not rope._from_scratch(rope.PLAIN_ROPE_BACKWARDS.value).holds


def test_far_rows_are_beyond_the_sampled_range() -> None:
    """The row checks take five far positions, up to 2^53 and all beyond the 2^20 of the
    sampled check, and print them; the angle check adds the near 12 345 and its witness.

    Fault caught: a far position of the row or angle checks moved."""
    rows = precision.FAR_POSITIONS[:5]
    assert max(rows) == 2**53
    assert 2**53 - 1 in rows
    assert min(rows) > precision.LIMIT
    assert len(set(precision.ANGLE_POSITIONS)) == len(precision.ANGLE_POSITIONS) == 7
    assert all(0 <= p <= 2**53 for p in precision.ANGLE_POSITIONS)
    evidence = precision._rows_within(rows, 512, ENTRY)(numeric.sinusoidal)
    assert evidence.holds
    assert f"every entry of the rows at p = {', '.join(map(str, rows))}, d=512: " in (evidence.text)
    turns = _extended_precision.frequency_turns(512, 10000.0)
    angles = precision._angle_reduction(512)(turns)
    assert angles.holds
    listed = ", ".join(str(p) for p in precision.ANGLE_POSITIONS)
    assert f"d=512, every pair, positions {listed}:" in angles.text
    (largest,) = _numbers(r"\|x\| <= (\S+)$", angles.text)
    assert largest <= math.pi


def test_from_scratch_measures_its_printed_sample() -> None:
    """The from-scratch card's ratio is the one of its printed sample, (2048, 128) and
    (300, 8), x seeded by d, recomputed from pe.rotary's rotation and error bound.

    Fault caught: the sample of the from-scratch card changed while its text did not."""
    worst = 0.0
    for n, d in ((2048, 128), (300, 8)):
        x = np.random.default_rng(d).standard_normal((n, d))
        bound = 2 * rotary.rope_error_bound(x, n)
        worst = max(worst, float((np.abs(from_scratch.rope(x) - rotary.rope(x, n)) / bound).max()))
    evidence = rope._from_scratch(from_scratch.rope)
    assert evidence.error == worst


def test_failures_card_returns_and_names() -> None:
    """The failures card: the pairing-free RoPE check returns the pairing it found, and a
    stated outcome turned round is refused.

    Fault caught: the returned value left out of the card, or a stated outcome ignored."""
    stated = testing_chapter.FAILURES_STATED
    evidence = testing_chapter._failures(stated)
    assert evidence.holds
    assert "assert_rope_relative, adjacent RoPE, pairing free: pass, returns 'adjacent'" in (
        evidence.text
    )
    case = "assert_matches_paper, an odd width"
    assert f"{case}: fail" in evidence.text
    assert not testing_chapter._failures({**stated, case: "pass"}).holds
    assert not testing_chapter._failures({**stated, case: "fail without 'd = 17 is odd'"}).holds


def _one_transcendental(d: int) -> list[Any]:
    """The paper's frequencies with pair 3's replaced by pi / 8."""
    omegas: list[Any] = [sp.Integer(10000) ** sp.Rational(-2 * i, d) for i in range(d // 2)]
    omegas[3] = sp.pi / 8
    return omegas


def test_no_whole_turns_counts_every_frequency() -> None:
    """Lindemann's check counts the algebraic frequencies of d = 512: all 256 for the
    paper's law, 255 with one pi / 8 among them (refused), none for pi / 2^b.

    Fault caught: the count or the every-frequency condition of the Lindemann check."""
    paper = implications._no_whole_turns(
        lambda d: [sp.Integer(10000) ** sp.Rational(-2 * i, d) for i in range(d // 2)]
    )
    assert paper.holds is True
    assert "d=512: 256 of 256 of these frequencies are algebraic numbers (SymPy)" in paper.text
    assert paper.text.endswith("would make pi algebraic")
    assert "(every width): algebraic;" in paper.text
    one = implications._no_whole_turns(_one_transcendental)
    assert one.holds is False
    assert "d=512: 255 of 256 of these frequencies" in one.text
    assert one.text.endswith("the argument needs every frequency algebraic and does not apply")
    binary = implications._no_whole_turns(implications.BINARY_TURNS.value)
    assert "d=512: 0 of 256 of these frequencies" in binary.text


def test_float16_recipe_repeats_its_collided_positions() -> None:
    """Positions 0 .. 4095 formed in float16 take as many values as NumPy's float16 gives
    them; every other row repeats an earlier one (pair 0's angle is the position itself).

    Fault caught: the sample or the repeat count of the float16 collision card."""
    distinct = np.unique(np.arange(4096).astype(np.float16)).size
    evidence = precision._rows(repeat=True)(precision._recipe16)
    assert evidence.holds
    assert evidence.text.startswith(
        f"positions 0..4095, d=16: {4096 - distinct} rows repeat an earlier row; "
        "smallest distance 0 "
    )
    assert not precision._rows(repeat=False)(precision._recipe16).holds


def test_permutation_error_measures_its_documented_sample() -> None:
    """Without the permutation the halves and adjacent rotations of the docstring's sample
    (40 vectors seeded 4, positions 0, 100, .., 3900, d = 64) differ by the printed gap;
    with it they agree to the bit.

    Fault caught: the sample of the permutation check changed."""
    x = np.random.default_rng(4).standard_normal((40, 64))
    ps = np.arange(0, 4000, 100)
    gap = float(np.abs(rotary.rope(x, ps, pairing="halves") - rotary.rope(x, ps)).max())
    unpermuted = rope.permutation_error(rope.NO_PERMUTATION.value)
    assert not unpermuted.holds
    (printed,) = _numbers(r"P rope_adjacent\(P\^T x\)\| = (\S+);", unpermuted.text)
    assert printed == _sig(gap, 2)
    evidence = rope.permutation_error(rotary.pairing_permutation)
    assert evidence.holds
    assert evidence.error == 0.0


def test_layout_card_states_its_sample() -> None:
    """The layout check moves the rows of positions 200 .. 1223 at d = 512 by the offsets
    its card prints, 1, 7, 100 and -3 (a negative one included), in all four layouts.

    Fault caught: an offset or the position range of the layout check changed."""
    assert conventions_chapter.OFFSETS == (1, 7, 100, -3)
    evidence = conventions_chapter._layouts_numeric(conventions_chapter.CONJUGATED)
    assert evidence.holds
    assert evidence.text.startswith(
        "d=512, positions 200..1223, k in (1, 7, 100, -3), 4 layout(s), P T_k P^T: "
    )
    unconjugated = conventions_chapter._layouts_numeric(
        conventions_chapter.UNCONJUGATED_SHIFT.value
    )
    assert not unconjugated.holds
    assert "1 layout(s), the paper's T_k on halves: " in unconjugated.text


@pytest.mark.parametrize("d_model", [4, 8])
def test_dot_product_concrete_counts_its_pairs(d_model: int) -> None:
    """The concrete dot-product proof names d/2 pair products in its residual and proves
    the sum of d/2 cosines; with the exponent doubled it fails.

    Fault caught: the pair count printed in the concrete proof."""
    proof = implications.dot_product_concrete(1, d_model)
    assert proof.holds
    assert proof.steps[0].words == (
        f"Residual: {d_model // 2} pair products minus the sum of cosines"
    )
    assert f"(d = {d_model})" in proof.statement
    assert not implications.dot_product_concrete(2, d_model).holds


def test_library_sine_statement_states_delta() -> None:
    """The statement gives delta = (0.52 + 0.5) 2^-53 = 1.02 2^-53: the sine's 0.52 ulp
    plus the anchor's one rounding, as the page's entry bound uses it.

    Fault caught: the statement's delta computed wrongly."""
    statement = get("library-sine-accurate").statement
    assert statement is not None
    assert rf"\delta = {0.52 + 0.5:.3g} \cdot 2^{{-53}}" in statement
    assert r"\le 0.52 \text{ ulp}" in statement
    assert f"at {precision.SINE_ARGUMENTS} seeded points" in statement


def test_precision_statements_name_the_widths_they_measured() -> None:
    """The angle and frequency statements name the wide width itself (32768, not the tuple
    of its sampled pairs), its pair count, and the width up to which one decimal product
    per pair is used (2 x 2^13 pairs).

    Fault caught: an element of the wide setting or the decimal width misprinted."""
    wide, pairs = precision.WIDE_ANGLES
    angle = get("anchor-angle-accurate").statement
    assert angle is not None
    assert f"d = {wide} \\text{{ ({len(pairs)} pairs), at " in angle
    assert (wide, len(pairs)) == (32768, len(range(0, wide // 2, 127)))
    turns = get("frequency-turns-accurate").statement
    assert turns is not None
    assert "one decimal product per pair up to d = 16384;" in turns
    assert 2 * _extended_precision._DECIMAL_PAIRS == 16384
    assert f"d = {wide}\\end{{gathered}}" in turns
