"""Edges of the checks and measurements in five chapters.

Covers :mod:`pe.chapters.why_order`, :mod:`pe.chapters.failed_designs`,
:mod:`pe.chapters.sinusoidal_encoding`, :mod:`pe.chapters.relative_family` and
:mod:`pe.chapters.rotation_identity`: each check's threshold fed a value exactly at it and
just past it, the documented samples a measurement runs on, the size guards of the exact
proofs on both sides, and the numbers a card prints recomputed independently (mpmath,
NumPy, or counted from the definition).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Callable
from typing import Any, cast

import mpmath
import numpy as np
import numpy.typing as npt
import pytest
import sympy as sp

from pe import numeric, position_designs, relative, symbolic
from pe._machine_dependent import site_text
from pe._tolerance import EPS64, FREQUENCY_ROUNDING, exponential_rounding
from pe.accuracy import ulps_error
from pe.attention import (
    NO_ENCODING,
    SINUSOIDAL,
    AttentionWeights,
    Encoding,
    RnnWeights,
    attention,
    equivariant,
    final_state,
    reference_attention,
    row_independence_tolerance,
)
from pe.binary import binary_bits
from pe.chapters import (
    failed_designs,
    relative_family,
    rotation_identity,
    sinusoidal_encoding,
    why_order,
)
from pe.column_means import column_means
from pe.concatenation import separate_projections
from pe.embeddings import random_embeddings
from pe.frequency_ladder import one_indexed_frequencies, slowest_frequency
from pe.geometry import row_distance_by_offset, rows_distance_past
from pe.symbolic_attention import attention_cost_law, rnn_cost_law

Float64Array = npt.NDArray[np.float64]


# --- why_order --------------------------------------------------------------------------


def test_exp_check_holds_exactly_at_the_measured_worst_error() -> None:
    """Fault caught: the exp check's ``worst <= ulps`` made strict or reversed, or the
    documented sample (20000 seeded points of [-40, 0]) changed."""
    x = np.random.default_rng(2017).uniform(-40.0, 0.0, 20_000)
    with mpmath.workdps(50):
        worst = float(ulps_error(np.exp(x), [mpmath.exp(arg) for arg in x.tolist()]))
    assert worst > 0.0
    at = why_order._exp_accurate(worst)
    assert at.holds, at.detail
    assert "at 20000 seeded points of [-40, 0]" in at.detail
    below = why_order._exp_accurate(float(np.nextafter(worst, 0.0)))
    assert not below.holds, below.detail


def _exact_error(x: Float64Array, weights: AttentionWeights) -> Float64Array:
    return np.asarray(np.abs(attention(x, weights) - reference_attention(x, weights)))


def test_bound_check_holds_when_the_bound_is_the_error_itself() -> None:
    """Fault caught: the bound check's ``worst <= 1`` made strict, the ratio inverted, an
    exactly computed entry (error 0) held against its bound, or the seeded cases it
    documents ((5, 3), (8, 16), (16, 8)) changed."""
    assert why_order.BOUND_CASES == ((5, 3), (8, 16), (16, 8))
    exact = why_order._bound_holds(_exact_error)
    assert exact.holds, exact.detail
    assert "(n, d) in ((5, 3), (8, 16), (16, 8))" in exact.detail

    def just_under(x: Float64Array, weights: AttentionWeights) -> Float64Array:
        return _exact_error(x, weights) * (1.0 - 2.0**-20)

    assert not why_order._bound_holds(just_under).holds

    def undefined_where_exact(x: Float64Array, weights: AttentionWeights) -> Float64Array:
        error = _exact_error(x, weights)
        assert np.any(error == 0)
        return np.where(error == 0, np.nan, error)

    # an entry computed exactly is never held against its bound, whatever the bound says
    assert why_order._bound_holds(undefined_where_exact).holds


def _two_calls(first: float, second: float) -> Callable[[Float64Array, RnnWeights], Float64Array]:
    """A summary that returns ``[first]`` for the first sentence, ``[second]`` after."""
    values = iter((first, second))

    def summary(_x: Float64Array, _weights: RnnWeights) -> Float64Array:
        return np.array([next(values)])

    return summary


@pytest.mark.parametrize(
    ("second", "holds"), [(1e-3, False), (float(np.nextafter(1e-3, 1.0)), True), (0.0, False)]
)
def test_rnn_check_needs_a_gap_strictly_above_one_thousandth(second: float, holds: bool) -> None:
    """Fault caught: the recurrent check's ``gap > 1e-3`` made ``>=`` or its threshold
    moved."""
    evidence = why_order._rnn(_two_calls(0.0, second))
    assert evidence.holds is holds, evidence.detail
    assert "16 units, d=64" in evidence.detail


def test_equivariance_proof_counts_every_permutation_and_entry() -> None:
    """Fault caught: the number of permutations or of residual entries the proof prints
    computed wrongly (the size of S_n, n! * n * d entries, n! * n * n score entries)."""
    for n, d in ((2, 3), (3, 1), (4, 1)):
        proof = why_order.equivariance(n=n, d_model=d)
        assert proof.holds
        words = [step.words for step in proof.steps]
        perms = math.factorial(n)
        assert f"X is {n}×{d}, W_q, W_k, W_v are {d}×{d}" in words[0]
        assert f"all {perms} permutation matrices P of S_{n} are tried" in words[0]
        assert words[1].endswith(f"0 of {perms * n * n} entries non-zero")
        assert words[2].endswith(f"0 of {perms * n * n} entries non-zero")
        assert words[3].endswith(f"0 of {perms * n * d} entries non-zero")
        assert proof.steps[3].latex.endswith("= 0")


def test_invariance_candidate_leaves_the_moved_rows_non_zero() -> None:
    """Fault caught: the count of non-zero entries in a wrong candidate's residual.
    Attn(PX) - Attn(X) = (P - I) Attn(X): for d = 1 the non-zero entries are the rows P
    moves, summed over S_3 (0 + 3 * 2 + 2 * 3 = 12 of 18)."""
    moved = sum(
        sum(1 for i, j in enumerate(order) if i != j) for order in itertools.permutations(range(3))
    )
    proof = why_order.equivariance(why_order.INVARIANCE.value, n=3, d_model=1)
    assert not proof.holds
    assert proof.steps[3].words.endswith(f"{moved} of 18 entries non-zero")
    assert proof.steps[3].latex.endswith(r"\text{non-zero}")


@pytest.mark.parametrize(("n", "d"), [(1, 1), (5, 1), (2, 4), (0, 2)])
def test_equivariance_refuses_sizes_past_its_guards(n: int, d: int) -> None:
    """Fault caught: the exact proof's guards (2 <= n <= 4, 1 <= d <= 3) moved by one."""
    with pytest.raises(ValueError, match=r"n|d_model"):
        why_order.equivariance(n=n, d_model=d)


@pytest.mark.parametrize(("n", "d"), [(2, 1), (6, 2), (6, 1), (2, 2)])
def test_path_lengths_accepts_the_edges_of_its_sizes(n: int, d: int) -> None:
    """Fault caught: path_lengths' guards (2 <= n <= 6, d <= 2) tightened by one."""
    proof = why_order.path_lengths(n=n, d_model=d)
    assert proof.holds
    assert proof.name == f"attention path lengths, n = {n}"


@pytest.mark.parametrize(("n", "d"), [(1, 1), (7, 1), (2, 3)])
def test_path_lengths_refuses_sizes_past_its_guards(n: int, d: int) -> None:
    """Fault caught: path_lengths' guards loosened by one."""
    with pytest.raises(ValueError, match=r"n|d_model"):
        why_order.path_lengths(n=n, d_model=d)


def test_layer_cost_prints_the_counts_of_the_definition() -> None:
    """Fault caught: the sizes counted, or the counts printed, differ from 2 n^2 d (attention)
    and 2 n d^2 (an Elman layer) at the documented sizes."""
    sizes = ((2, 1), (3, 2), (4, 3), (6, 2), (2, 5))
    assert sizes == why_order.COST_SIZES

    def attention_law(n: int, d: int) -> int:
        return 2 * n * n * d

    def elman_law(n: int, d: int) -> int:
        return 2 * n * d * d

    for recurrent, law, stated in (
        (False, attention_law, attention_cost_law),
        (True, elman_law, rnn_cost_law),
    ):
        proof = why_order.layer_cost(stated, recurrent=recurrent)
        assert proof.holds
        expected = ", ".join(f"(n, d) = ({n}, {d}): {law(n, d)}" for n, d in sizes)
        assert proof.steps[0].words.endswith(expected)


# --- failed_designs ---------------------------------------------------------------------


@pytest.mark.parametrize("omega", [1.0, 2.0, 1e-5, math.pi / 4])
def test_one_pair_card_prints_the_closest_offset_and_distance(omega: float) -> None:
    """Fault caught: the sample of positions (0..999), the offsets searched (from 1: a slow
    pair's closest points are neighbours), the offset found or the distance printed by the
    one-pair card. Two points k apart lie 2|sin(omega k / 2)| apart: minimised here in
    mpmath over k = 1..999."""
    with mpmath.workdps(30):
        dist = {k: 2 * abs(mpmath.sin(mpmath.mpf(omega) * k / 2)) for k in range(1, 1000)}
    k = min(dist, key=lambda key: dist[key])
    evidence = failed_designs._one_pair(omega)
    assert evidence.holds is (1e-12 < dist[k] < 1e-4), evidence.detail
    assert f"ω = {omega:.4g}, p = 0..999: " in evidence.detail
    assert f"the smallest offset that close is k = {k} " in evidence.detail
    shown = float(re.findall(r"lie at distance ([0-9.e+-]+);", evidence.detail)[0])
    assert shown == pytest.approx(float(dist[k]), rel=0.05, abs=1e-12)
    # each condition carries its own verdict (audit v23)
    distinct = "yes" if dist[k] > 1e-9 else "no"
    close = "yes" if dist[k] < 1e-4 else "no"
    assert re.search(rf"distinct \(above the rounding floor \S+\): {distinct}; ", evidence.detail)
    assert evidence.detail.endswith(f"close (below 1e-4): {close}")


def test_bits_check_refuses_a_law_wrong_at_one_size_only() -> None:
    """Fault caught: the bits check's ``all`` made ``any``, or a documented size (2, 3, 8,
    9, 1000, 1024, 1025) left out."""
    sizes = (2, 3, 8, 9, 1000, 1024, 1025)

    def exact(n: int) -> int:
        return (n - 1).bit_length()

    good = failed_designs._bits(exact)
    assert good.holds, good.detail
    assert ", ".join(f"n={n}: {exact(n)} ({exact(n)})" for n in sizes) in good.detail
    for n in (sizes[0], sizes[-1]):

        def off_at(m: int, n: int = n) -> int:
            return exact(m) + (m == n)

        assert not failed_designs._bits(off_at).holds, n
    assert good.detail.endswith(": the same; closest codes of 0..999 at distance 1")
    assert ": differs; closest codes" in failed_designs._bits(lambda n: exact(n) + 1).detail


# --- sinusoidal_encoding ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "matched", "missing", "once"),
    [
        (range(256), 256, 0, "yes"),
        (range(1, 257), 255, 1, "no"),
        (range(257), 256, 1, "yes"),
        (range(512), 256, 256, "yes"),
        (range(255), 255, 0, "no"),
    ],
)
def test_column_census_counts_match_the_definition(
    pairs: range, matched: int, missing: int, once: str
) -> None:
    """Fault caught: the census card's counts (pairs with columns 2i, 2i+1 inside d = 512,
    pairs without, every column once) or its verdict; one pair short is refused too."""
    evidence = sinusoidal_encoding._columns(pairs)
    assert evidence.holds is (pairs == range(256)), evidence.detail
    assert evidence.detail.startswith("pe's table, d=512, has 512 columns; ")
    assert f"pairs i = {pairs.start}..{pairs.stop - 1}: {matched} are sin" in evidence.detail
    has = "yes" if missing == 0 and matched == len(pairs) else "no"
    assert (
        f", {missing} have no columns; every pair has its columns: {has}; every column written "
        f"once: {once}"
    ) in evidence.detail


def test_every_width_check_reaches_both_ends_of_its_range() -> None:
    """Fault caught: the every-width check's widths (every even d = 2..8192) cut at either
    end, its count of passing widths, or the first failing width it names."""

    def wrong_at_the_ends(d: int) -> range:
        return range(d // 2 + 1) if d in (2, 8192) else range(d // 2)

    evidence = sinusoidal_encoding._every_width(wrong_at_the_ends)
    assert not evidence.holds
    assert evidence.detail.startswith("every even d = 2..8192: ")
    assert "once in 4094 of 4096 widths (not at d = 2, ...)" in evidence.detail


def test_wavelength_card_prints_the_first_and_last_wavelength() -> None:
    """Fault caught: the wavelengths card's lambda_0 = 2 pi and lambda_255 =
    2 pi 10000^(510/512), computed here in mpmath."""
    evidence = sinusoidal_encoding._wavelengths(sinusoidal_encoding.PAPER_WAVELENGTHS)
    assert evidence.holds
    with mpmath.workdps(30):
        first = 2 * mpmath.pi
        last = 2 * mpmath.pi * mpmath.mpf(10000) ** (mpmath.mpf(510) / 512)
    assert f"λ_0 = {float(first):.6f}, λ_255 = {float(last):.1f} against" in evidence.detail
    assert f"= {float(last):.1f} (relative error" in evidence.detail


def test_shortfall_card_prints_each_percentage_and_refuses_one_bad_value() -> None:
    """Fault caught: the shortfall percentages printed (100 (1 - 10000^(-2/d)) at d = 8,
    128, 512, from mpmath), the widths measured, or one wrong stated value let through."""
    stated = sinusoidal_encoding.SHORTFALL_PERCENT
    evidence = sinusoidal_encoding._shortfall(stated)
    assert evidence.holds
    for d in (8, 128, 512):
        with mpmath.workdps(30):
            percent = 100 * (1 - mpmath.mpf(10000) ** (mpmath.mpf(-2) / d))
            last = 2 * mpmath.pi * mpmath.mpf(10000) ** (mpmath.mpf(d - 2) / d)
        assert f"d={d}: λ_last = {float(last):.6g}, {float(percent):.3f}% under" in evidence.detail
    for i in range(3):
        bad = list(stated)
        bad[i] = float(f"{bad[i] * 1.1:.2g}")
        assert not sinusoidal_encoding._shortfall(tuple(bad)).holds, bad


def test_one_indexed_card_prints_its_highest_and_lowest_frequency() -> None:
    """Fault caught: the one-indexed card's highest frequency 10000^(-2/512), its exponent
    -2, or its lowest 10^-4 printed wrongly."""
    evidence = sinusoidal_encoding._shifted_one_step(one_indexed_frequencies(512))
    assert evidence.holds
    with mpmath.workdps(30):
        highest = mpmath.mpf(10000) ** (mpmath.mpf(-2) / 512)
    assert f"its highest frequency is {float(highest):.6f} = 10000^(-2/d)" in evidence.detail
    assert "its lowest 0.0001 (10000^-1: " in evidence.detail
    assert site_text(evidence.detail).endswith("): within)")
    # the pair is named by its columns, so "pair j + 1" does not read as a shift of i
    assert "pair in columns 2j, 2j+1 turns at the paper's frequency of pair j + 1" in (
        evidence.detail
    )
    paper = sinusoidal_encoding._shifted_one_step(numeric.frequencies(512))
    assert site_text(paper.detail).count(": exceeds") == 2


@pytest.mark.parametrize(
    ("counts", "holds"), [((255, 1), True), ((255, 0), False), ((254, 1), False), ((256, 1), False)]
)
def test_inserted_card_counts_the_new_frequencies(counts: tuple[int, int], holds: bool) -> None:
    """Fault caught: the count of new frequencies of d = 1024 between neighbouring old ones
    (255) or below the old slowest (1), the spans printed (10000^(-510/512) and
    10000^(-1022/1024) from mpmath), or a stated count off by one let through."""
    evidence = sinusoidal_encoding._inserted(counts)
    assert evidence.holds is holds, evidence.detail
    with mpmath.workdps(30):
        small = mpmath.mpf(10000) ** (mpmath.mpf(-510) / 512)
        large = mpmath.mpf(10000) ** (mpmath.mpf(-1022) / 1024)
    assert "of the 256 new frequencies, 255 lie strictly between" in evidence.detail
    assert "neighbouring old ones and 1 below the old slowest" in evidence.detail
    same = "the same" if holds else "differs"
    assert f"(stated: {counts[0]} and {counts[1]}: {same})" in evidence.detail
    assert f"span 1 down to {float(small):.4g} and {float(large):.4g}," in evidence.detail
    assert evidence.detail.endswith("> 10000^-1: yes")


def test_worked_example_prints_pe_1_256() -> None:
    """Fault caught: the worked example's PE(1, 256) = sin(1/100) printed wrongly."""
    evidence = sinusoidal_encoding._worked_example(
        cast(Callable[[int, int], Float64Array], numeric.sinusoidal)
    )
    assert evidence.holds
    assert sinusoidal_encoding.WORKED_SENTENCE == ("My", "name", "is", "RK")
    assert "all 4 x 512 entries" in evidence.detail
    assert evidence.detail.endswith(f"PE(1,256) = {float(mpmath.sin(mpmath.mpf(1) / 100)):.6f}")


@pytest.mark.parametrize(("base", "holds"), [(10000, True), (2**13, False), (2**12, False)])
def test_ratio_two_card_prints_the_width_where_wavelengths_double(base: int, holds: bool) -> None:
    """Fault caught: the width d = 2 log2(base) where 10000^(2/d) = 2 printed wrongly, or the
    even-integer verdict reversed (2^13 gives d = 26, 2^12 gives 24)."""
    evidence = sinusoidal_encoding._ratio_two(base)
    assert evidence.holds is holds, evidence.detail
    width = 2 * mpmath.log(base, 2)
    assert f"= {float(width):.4f}, " in evidence.detail
    assert evidence.detail.endswith("not an even integer" if holds else "an even width")


# --- relative_family --------------------------------------------------------------------


@pytest.mark.parametrize("clip", [2, 3, 4, 19])
def test_shaw_card_counts_the_relative_vectors_a_clip_uses(clip: int) -> None:
    """Fault caught: the number of distinct clipped offsets printed (2 min(K, n - 1) + 1 for
    n = 20), the stated 2K + 1 = 7, or a clip one either side of 3 accepted."""
    evidence = relative_family._shaw(clip)
    assert evidence.holds is (clip == 3), evidence.detail
    used = 2 * min(clip, 19) + 1
    assert evidence.detail.startswith(
        f"offsets clipped at {clip}, N=20 positions, against the page's K = 3: {used} distinct "
        f"relative vectors used (2K+1 = 7: {'yes' if used == 7 else 'no'}); "
    )
    assert evidence.detail.endswith("depends only on n - m: yes")


def test_shaw_card_reads_both_sides_of_the_query(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys K or more before the query must use offset -K, as keys after it use +K: a map
    that sends keys more than K before the query to 0 keeps 7 values and constant
    diagonals, and is refused.

    Fault caught: the clip checked on one side of the query only (audit v23)."""
    true_offsets = relative.shaw_offsets

    def one_sided(n: int, clip: int) -> Any:
        offsets = true_offsets(n, clip)
        m_minus_n = np.subtract.outer(np.arange(n), np.arange(n))
        return np.where(m_minus_n > clip, 0, offsets)

    monkeypatch.setattr(relative, "shaw_offsets", one_sided)
    evidence = relative_family._shaw(3)
    assert not evidence.holds
    assert "7 distinct relative vectors used (2K+1 = 7: yes)" in evidence.detail
    assert "uses the vector of offset +-K on its side: no" in evidence.detail
    assert evidence.detail.endswith("depends only on n - m: yes")


def _paper_slopes(heads: int) -> list[float]:
    """ALiBi's slopes by the paper's rule, P the largest power of two <= H."""
    power = 1 << (heads.bit_length() - 1)
    first = [2.0 ** (-8 * h / power) for h in range(1, power + 1)]
    extra = [2.0 ** (-4 * (2 * j - 1) / power) for j in range(1, heads - power + 1)]
    return first + extra


@pytest.mark.parametrize("edge", [1, 12, 64])
def test_alibi_check_refuses_slopes_wrong_at_one_head_count(edge: int) -> None:
    """Fault caught: a head count of 1..64 left out of the ALiBi check, or a slope off by a
    relative 1e-6 at one H let through."""

    def slopes(heads: int) -> Float64Array:
        got = relative.alibi_slopes(heads)
        return np.asarray(got * (1.0 + 1e-6 * (heads == edge)), dtype=np.float64)

    assert not relative_family._alibi(slopes).holds


def test_alibi_check_names_a_head_count_with_the_wrong_number_of_slopes() -> None:
    """Fault caught: the shape guard of the ALiBi check, or the head count it names."""

    def slopes(heads: int) -> Float64Array:
        got = np.asarray(relative.alibi_slopes(heads), dtype=np.float64)
        return got[:-1] if heads == 37 else got

    evidence = relative_family._alibi(slopes)
    assert not evidence.holds
    assert evidence.detail == "H=37: 36 slopes for 37 heads"


def test_alibi_card_prints_twelve_heads_and_the_geometric_counts() -> None:
    """Fault caught: the slopes printed for H = 12 or the head counts found geometric
    (exactly the powers of two up to 64)."""
    evidence = relative_family._alibi(relative.alibi_slopes)
    assert evidence.holds, evidence.detail
    twelve = [round(m, 4) for m in _paper_slopes(12)]
    assert f"H=12: {twelve};" in evidence.detail
    assert evidence.detail.startswith("H = 1..64: ")
    assert "geometric for H = [1, 2, 4, 8, 16, 32, 64] only (the powers of two only: yes)" in (
        evidence.detail
    )
    # the clause reads the candidate's own slopes (audit v23): 2^(-h) is geometric at every H
    halving = relative_family._alibi(lambda h: np.exp2(-np.arange(1.0, h + 1)))
    assert "geometric for every H = 1..64 (the powers of two only: no)" in halving.detail


def test_alibi_recording_card_prints_the_worst_ratio_to_its_bound() -> None:
    """Fault caught: the float32 bound 2H u32 + 4 eps32 (+ 2 eps64) of the BLOOM comparison,
    the worst ratio printed or reported, or the head count it names, recomputed here from
    the recording and the true slopes."""
    recording = relative_family.alibi_recorded()
    eps32 = float(np.finfo(np.float32).eps)
    eps64 = float(np.finfo(np.float64).eps)
    ratios = {}
    for heads, bloom in recording["slopes"].items():
        h = int(heads)
        got = np.asarray(relative.alibi_slopes(h), dtype=np.float64)
        gap = float(np.abs(got / np.array(bloom, dtype=np.float64) - 1.0).max())
        ratios[h] = gap / (h * eps32 + 4 * eps32 + 2 * eps64)
    where = max(ratios, key=lambda h: ratios[h])
    evidence = relative_family._alibi_recorded(relative.alibi_slopes)
    assert evidence.holds
    assert f"every H = 1..{len(recording['slopes'])}, each head" in evidence.detail
    shown = float(re.findall(r"worst \|mu_h / BLOOM - 1\| is ([0-9.e+-]+) of", evidence.detail)[0])
    assert shown == pytest.approx(ratios[where], rel=0.05, abs=0)
    assert evidence.error == pytest.approx(ratios[where], rel=1e-12, abs=0)
    assert evidence.detail.endswith(f"(at H={where})")


def test_ntk_card_states_its_tolerance_and_the_rise_of_the_factors() -> None:
    """Fault caught: a term of the NTK check's tolerance 2 r_w + r_b' + r_s + 2 eps
    combined wrongly, the pair count printed, or the factors' ends (1 and s = 8)."""
    evidence = relative_family._ntk(relative.ntk_base)
    assert evidence.holds
    log_s = math.log(8.0)
    expected = (
        2 * FREQUENCY_ROUNDING
        + exponential_rounding(log_s * 128 / 126, 2)
        + exponential_rounding(log_s, 2)
        + 2 * EPS64
    )
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == pytest.approx(expected, rel=1e-12, abs=0)
    assert f"(tolerance {expected:.2g})" in evidence.detail
    assert evidence.detail.startswith("d=128, s=8, all 64 pairs: ")
    assert evidence.detail.endswith("factors rise from 1 to 8: yes")


# --- rotation_identity ------------------------------------------------------------------


def _off_at(offset: int, scale: float = 1.0 + 1e-6) -> Callable[[int, int, float], Float64Array]:
    """T_k, scaled by ``scale`` at the one offset ``offset`` only."""

    def shift(k: int, d: int, base: float) -> Float64Array:
        matrix = rotation_identity.shift_matrix(k, d, base)
        return matrix * scale if k == offset else matrix

    return shift


@pytest.mark.parametrize("offset", [1, 7, 100, 12_345])
def test_orthogonality_check_looks_at_every_offset_it_names(offset: int) -> None:
    """Fault caught: an offset of (1, 7, 100, 12345) dropped from the orthogonality check."""
    evidence = rotation_identity.orthogonality(_off_at(offset))
    assert not evidence.holds
    assert "d=512, k in (1, 7, 100, 12345): " in evidence.detail


def test_orthogonality_check_holds_for_the_true_shift() -> None:
    """Fault caught: the orthogonality check refusing the true T_k (a control for the
    offsets above)."""
    assert rotation_identity.orthogonality(rotation_identity.shift_matrix).holds


@pytest.mark.parametrize("offset", [0, 1000, -3])
def test_identity_check_uses_every_documented_offset(offset: int) -> None:
    """Fault caught: an offset of the identity check (0, 1, 2, 5, 10, 100, 1000, -3) or its
    documented positions (0..1023 and 10^4, 10^5, 10^6) changed."""
    check = rotation_identity._identity(np.float64)
    good = check(rotation_identity.shift_matrix)
    assert good.holds
    assert (
        "positions 0..1023 and 10000, 100000, 1000000, offsets 0, 1, 2, 5, 10, 100, 1000, -3:"
        in good.detail
    )
    assert not check(_off_at(offset)).holds


def test_fitted_map_is_fitted_from_the_positions_it_states() -> None:
    """Fault caught: the fitting sample (every 97th position below 100000: 1031 of them) or
    one of the widths compared let through a wrong T_5."""
    positions = rotation_identity.FIT_POSITIONS
    assert positions.tolist() == list(range(0, 100_000, 97))
    assert len(positions) == -(-100_000 // 97) == 1031
    good = rotation_identity.fitted_map(rotation_identity.shift_matrix)
    assert good.holds
    assert good.detail.count("fitted by least squares from 1031 positions") == 2
    assert good.detail.startswith("d=16: M fitted")
    assert "; d=64: M fitted" in good.detail
    assert good.detail.count("max|M - T_5| = ") == 2
    assert good.detail.count("; the fitted M maps 10 to 15 within ") == 2
    assert good.detail.count(" and 15 to 20 within ") == 2

    def wrong_at_64(k: int, d: int, base: float) -> Float64Array:
        matrix = rotation_identity.shift_matrix(k, d, base)
        return matrix.T if d == 64 else matrix

    assert not rotation_identity.fitted_map(wrong_at_64).holds


def _last_inside(width: int, tolerance: float) -> float:
    """The largest float64 above the slowest frequency of ``width`` whose relative distance
    to it, computed as the check computes it, is at most ``tolerance``."""
    slowest = float(slowest_frequency(width))
    value = slowest
    while abs(float(np.nextafter(value, 1.0)) / slowest - 1) <= tolerance:
        value = float(np.nextafter(value, 1.0))
    return value


@pytest.mark.parametrize("width", [512, 1024])
@pytest.mark.parametrize("inside", [True, False])
def test_inserted_span_check_allows_exactly_its_rounding(
    monkeypatch: pytest.MonkeyPatch, width: int, inside: bool
) -> None:
    """Fault caught: a term of the span check's tolerance r_w + r_pow + eps (at d = 512 and
    1024) dropped or combined wrongly: a slowest frequency as far from 10000^(-(d-2)/d) as
    the tolerance allows passes, the next float64 does not."""
    tolerance = FREQUENCY_ROUNDING + 2.0**-52 + EPS64
    last = _last_inside(width, tolerance)
    if not inside:
        last = float(np.nextafter(last, 1.0))
    real = numeric.frequencies

    def frequencies(d: int, *args: Any, **kwargs: Any) -> Float64Array:
        values = np.array(real(d, *args, **kwargs), dtype=np.float64)
        if d == width:
            values[-1] = last
        return values

    monkeypatch.setattr(numeric, "frequencies", frequencies)
    evidence = sinusoidal_encoding._inserted((255, 1))
    assert evidence.holds is inside, evidence.detail
    assert evidence.detail.endswith("yes" if inside else "no")


_FAR_ROWS = (1000, 123_457, 10**6, 2**40 + 3)


def _flip(rows: Float64Array, index: int) -> Float64Array:
    out = np.array(rows, dtype=np.float64)
    out[index, 0] = np.nextafter(out[index, 0], 2.0)
    return out


def _spoiled(kind: str, calls: list[int]) -> Callable[[Any, int, int], Float64Array]:
    """The sinusoidal design with one entry moved by one ulp in one kind of call only."""
    sorted_positions = np.array([*range(64), *_FAR_ROWS])

    def spoil(p: npt.NDArray[Any], n: int) -> int | None:
        """The row to spoil in this call, if any."""
        in_order = p.size == 68 and bool(np.array_equal(p, sorted_positions))
        table = n == 2048
        chosen = {
            "again": in_order and calls.count(68) == 2,
            "shuffled": p.size == 68 and not in_order,
            "shorter": n == 40,
            "alone": n == 1 and int(p[0]) == 2**40 + 3,
            "mixed": table and not bool(np.array_equal(p, np.arange(2048))),
        }
        if table and kind in ("large", "far"):
            return int(np.flatnonzero(p == (5 if kind == "large" else 1000))[0])
        return 0 if chosen.get(kind, False) else None

    def design(positions: Any, n: int, d: int) -> Float64Array:
        p = np.asarray(positions)
        rows = np.asarray(position_designs.sinusoidal(p, n, d), dtype=np.float64)
        calls.append(n)
        index = spoil(p, n)
        return rows if index is None else _flip(rows, index)

    return design


@pytest.mark.parametrize(
    "kind", ["none", "again", "shuffled", "shorter", "alone", "large", "far", "mixed"]
)
def test_determinism_check_needs_every_comparison_it_lists(kind: str) -> None:
    """Fault caught: one comparison of the determinism check (second call, shuffled order,
    shorter call, one row per call, the 2^20-entry table's first rows, its row 1000, the
    table asked shuffled) dropped or joined with ``or``; or its documented sample (0..63,
    1000, 123457, 10^6, 2^40 + 3, a 2048-row table of d = 512) changed."""
    calls: list[int] = []
    evidence = failed_designs._deterministic(_spoiled(kind, calls))
    assert evidence.holds is (kind == "none"), evidence.detail
    assert 2048 in calls
    assert 2048 * 512 == 2**20
    assert evidence.detail.startswith(
        "d=512, positions 0..63 and " + ", ".join(map(str, _FAR_ROWS)) + ": "
    )
    assert "a 2048-row table" in evidence.detail


def test_stream_and_projection_cards_count_the_weights() -> None:
    """Fault caught: the weights a 1024-wide stream adds to one encoder layer (W_Q, W_K,
    W_V, W_O: d^2 each, W_1, W_2: d d_ff each, all doubled) or a projection's weights
    (d^2 after adding, 2 d^2 after concatenating) printed wrongly."""
    d, d_ff = 512, 2048
    stream = sinusoidal_encoding._stream_matrices(("W_Q", "W_K", "W_V", "W_1"))
    assert stream.holds
    assert f"a 1024-wide stream adds {4 * d * d + 2 * d * d_ff:,} weights per layer" in (
        stream.detail
    )
    assert not sinusoidal_encoding._stream_matrices(("W_Q", "W_K", "W_V")).holds
    costs = sinusoidal_encoding._costs(separate_projections)
    assert costs.holds
    assert f"has {d * d} weights after adding and {2 * d * d} after concatenating (ratio 2)" in (
        costs.detail
    )


def _table(n: int, d: int) -> Float64Array:
    """PE(0..n-1) straight from the formula, in float64."""
    angle = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)[None, :]
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table


def test_subspace_rank_counts_singular_values_at_each_cutoff() -> None:
    """Fault caught: the counts of singular values of PE(0..199), d = 512, above 1e-3 and
    1e-10 of the largest (from NumPy's SVD of the formula's table), a count off by one let
    through, or the rounding margin gamma_(200 * 512) printed wrongly."""
    ratio = np.linalg.svd(_table(200, 512), compute_uv=False)
    ratio = ratio / ratio[0]
    counts = [int((ratio > cutoff).sum()) for cutoff in (1e-3, 1e-10)]
    stated = ((1e-3, counts[0]), (1e-10, counts[1]))
    evidence = sinusoidal_encoding._subspace_rank(stated)
    assert evidence.holds, evidence.detail
    assert f"{counts[0]} singular values above 0.001 of the largest" in evidence.detail
    assert f"{counts[1]} singular values above 1e-10 of the largest" in evidence.detail
    m = 200 * 512 * EPS64 / 2
    assert evidence.detail.endswith(f"rounding margin γ_mn = {m / (1 - m):.2g}")
    for i in range(2):
        off = list(stated)
        off[i] = (stated[i][0], stated[i][1] + 1)
        assert not sinusoidal_encoding._subspace_rank(tuple(off)).holds, off


def _unit_rms() -> float:
    """Root mean square of sqrt(512) times the seeded N(0, 1) table of 2000 x 512."""
    scaled = np.sqrt(512) * random_embeddings(2000, 512)
    return float(np.sqrt((scaled**2).mean()))


@pytest.mark.parametrize(
    ("target", "holds"),
    [(1.05 - 1e-9, True), (1.05 + 1e-9, False), (0.95 + 1e-9, True), (0.95 - 1e-9, False)],
)
def test_embedding_scale_allows_five_percent_either_side(target: float, holds: bool) -> None:
    """Fault caught: the embedding-scale check's 5 % band moved, made one-sided, or its
    sample (2000 x 512 seeded entries) changed: a std giving a root mean square just inside
    1 +- 0.05 passes, just outside fails."""
    std = target / _unit_rms()
    evidence = sinusoidal_encoding._embedding_scale(std)
    assert evidence.holds is holds, evidence.detail
    assert f"2000 x 512 entries drawn with std {std:.4g}" in evidence.detail
    assert f"root mean square {target:.4g} " in evidence.detail


_FIRSTS = (1, 7, 1000, -5)
_SECONDS = (0, 3, 100, 12_345, -250)


@pytest.mark.parametrize("pair", [None, (1, 0), (-5, -250), (1000, 12_345), (7, 3)])
def test_composition_check_covers_every_pair_of_offsets(pair: tuple[int, int] | None) -> None:
    """Fault caught: an offset left out of the group-law check (a in 1, 7, 1000, -5; b in 0,
    3, 100, 12345, -250), or its tolerance 12 eps + 4 eps |x| taken at another reach than
    |x| = 1000 + 12345."""

    def law(a: Any, b: Any) -> Any:
        return a + b + 1 if pair is not None and (a, b) == pair else a + b

    evidence = rotation_identity.composition_error(law)
    assert evidence.holds is (pair is None), evidence.detail
    assert f"d=512, a in {_FIRSTS}, b in {_SECONDS}: " in evidence.detail
    assert evidence.tolerance is not None
    expected = 12 * EPS64 + 4 * EPS64 * (1000 + 12_345)
    assert evidence.tolerance.value == pytest.approx(expected, rel=1e-12, abs=0)


@pytest.mark.parametrize("offset", [None, -250])
def test_inverse_check_covers_every_offset(offset: int | None) -> None:
    """Fault caught: an offset left out of the inverse check (k in 0, 3, 100, 12345, -250),
    or its tolerance 12 eps + 4 eps |x| + 16 eps taken at another reach than 2 * 12345."""

    def inverse(k: int) -> int:
        return -k + 1 if k == offset else -k

    evidence = rotation_identity.inverse_error(inverse)
    assert evidence.holds is (offset is None), evidence.detail
    assert f"d=512, k in {_SECONDS}: " in evidence.detail
    assert evidence.tolerance is not None
    expected = 12 * EPS64 + 4 * EPS64 * (2 * 12_345) + 16 * EPS64
    assert evidence.tolerance.value == pytest.approx(expected, rel=1e-12, abs=0)


@pytest.mark.parametrize("offset", [0, 1, -1])
def test_identity_error_holds_only_at_offset_zero(offset: int) -> None:
    """Fault caught: T_0 = I measured at another offset, or its tolerance (12 eps at reach
    0) changed."""
    evidence = rotation_identity.identity_error(offset)
    assert evidence.holds is (offset == 0), evidence.detail
    assert evidence.detail.startswith(f"T_{offset} = I, d=512, k = {offset}: ")
    assert evidence.tolerance is not None
    assert evidence.tolerance.value == pytest.approx(12 * EPS64, rel=1e-12, abs=0)


def _span(indices: list[int]) -> str:
    return f"{indices[0]}..{indices[-1]}" if indices else "none"


def test_ntk_unseen_card_matches_the_excess_computed_in_mpmath() -> None:
    """Fault caught: the pairs NTK scaling (d = 128, L = 2048, s = 4) takes past (L - 1) w_i,
    the pairs among them that never turn in training, or the percentages printed. In exact
    terms the excess of pair i is (sL - 1)/(L - 1) s^(-2i/(d-2)) - 1 and pair i turns in
    training when (L - 1) w_i >= 2 pi."""
    d, trained, s = 128, 2048, 4
    with mpmath.workdps(30):
        excess = [
            mpmath.mpf(s * trained - 1)
            / (trained - 1)
            * mpmath.mpf(s) ** (-mpmath.mpf(2 * i) / (d - 2))
            - 1
            for i in range(d // 2)
        ]
        turns = [
            (trained - 1) * mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / d) >= 2 * mpmath.pi
            for i in range(d // 2)
        ]
    past = [i for i in range(d // 2) if excess[i] > 0]
    unseen = [i for i in past if not turns[i]]
    percent = [float(f"{100 * float(excess[i]):.2g}") for i in unseen]
    stated = (range(unseen[0], unseen[-1] + 1), (min(percent), max(percent)))
    evidence = relative_family._ntk_unseen(stated)
    assert evidence.holds, evidence.detail
    assert f"pairs past (L-1) w_i: {_span(past)}; " in evidence.detail
    assert (
        f"never turn in training: {_span(unseen)}, by {min(percent):g}% to {max(percent):g}%"
        in (evidence.detail)
    )
    for bad in (
        (range(unseen[0] + 1, unseen[-1] + 1), stated[1]),
        (stated[0], (min(percent), max(percent) + 1)),
        (stated[0], (min(percent) * 2, max(percent))),
    ):
        assert not relative_family._ntk_unseen(bad).holds, bad


def _first_in_last_bucket(exact: int, buckets: int) -> int:
    """The smallest distance n with exact + log(n / exact) / log(128 / exact) (buckets -
    exact) >= buckets - 1: where T5's last bucket begins (max_distance 128)."""
    n = exact
    while (
        exact
        + mpmath.log(mpmath.mpf(n) / exact)
        / mpmath.log(mpmath.mpf(128) / exact)
        * (buckets - exact)
        < buckets - 1
    ):
        n += 1
    return n


def test_last_bucket_starts_where_t5s_formula_puts_it() -> None:
    """Fault caught: where T5's last bucket begins (32 buckets, max distance 128: 16 per
    direction with 8 exact in the encoder, 32 with 16 exact in the decoder) read wrongly
    from the recording, or a stated start off by one let through."""
    encoder, decoder = _first_in_last_bucket(8, 16), _first_in_last_bucket(16, 32)
    # the encoder is read on both sides of the query (audit v22), the decoder before it
    assert relative_family.last_bucket_starts() == (encoder, encoder, decoder)
    assert relative_family._last_bucket((encoder, decoder)).holds
    for bad in ((encoder - 1, decoder), (encoder, decoder + 1)):
        evidence = relative_family._last_bucket(bad)
        assert not evidence.holds
        assert (
            f"begins at distance {encoder} after the query and {encoder} before it (encoder) "
            f"and {decoder} before it (decoder); stated {bad}"
        ) in evidence.detail


@pytest.mark.parametrize("wrong_at", [None, 4, 40])
def test_gap_check_reads_both_sentence_lengths(wrong_at: int | None) -> None:
    """Fault caught: one of the two sentence lengths (4 and 40) of the normalised-index gap
    check not compared, or the gaps it prints (1/4 and 1/40) wrong."""

    def gap(n: Any) -> Any:
        return 1 / (n - 1) if n == wrong_at else 1 / n

    evidence = failed_designs._gaps(gap)
    assert evidence.holds is (wrong_at is None), evidence.detail
    assert evidence.detail.startswith("p/n: neighbour gaps 0.25 (n = 4) and 0.025 (n = 40) ")


def test_neighbour_gap_proof_substitutes_the_documented_lengths() -> None:
    """Fault caught: the sentence lengths the gap proof substitutes by default (4 and 40):
    the note names them and the residual has one entry for the symbol and one per length."""
    proof = failed_designs.neighbour_gap()
    assert proof.holds
    assert any(step.words == "The gap in sentences of 4 and 40 tokens" for step in proof.steps)
    assert len(proof.residual) == 3


@pytest.mark.parametrize(
    ("periods", "holds"), [((2, 4, 8, 16), True), ((2, 4, 8, 32), False), ((1, 2, 4, 8), False)]
)
def test_least_periods_check_compares_every_bit(periods: tuple[int, ...], holds: bool) -> None:
    """Fault caught: the least periods 2^(b+1) of bits 0..3 of 0..1023 compared wrongly, or
    the bits or positions the card names."""
    evidence = sinusoidal_encoding._least_periods(periods)
    assert evidence.holds is holds
    stated = ", ".join(map(str, periods))
    assert evidence.detail == f"bits 0-3 of 0..1023 have least periods {stated}: {holds}"


@pytest.mark.parametrize(
    ("width", "factor", "holds", "picked"),
    [(256, 2, True, "every second"), (512, 1, False, "the first half")],
)
def test_refinement_card_names_the_frequencies_it_picks(
    width: int, factor: int, holds: bool, picked: str
) -> None:
    """Fault caught: the refinement check comparing d with another width than 2d, or naming
    the frequencies it picks wrongly."""
    evidence = sinusoidal_encoding._refinement(width, factor)
    assert evidence.holds is holds
    assert evidence.detail.startswith(
        f"d={width} vs d={2 * width}: {picked} frequency of the wider table, max relative "
        "difference "
    )
    verdict = "within" if holds else "exceeds"
    assert site_text(evidence.detail).endswith(f": {verdict}")


@pytest.mark.parametrize("width", [2, 6, 8])
def test_block_diagonal_proof_counts_its_blocks_and_entries(width: int) -> None:
    """Fault caught: the number of blocks (d/2), of residual entries (d) or of entries shown
    (2) the block-diagonal proof prints, or the last block's index (d/2 - 1)."""
    proof = rotation_identity.block_diagonal_identity(width)
    assert proof.holds
    assert proof.name == f"rotation identity, d = {width}"
    assert rf"B(k\omega_{{{width // 2 - 1}}})\right)" in proof.statement
    assert f"for }} d = {width},\\ \\mathrm{{base}} = 10000:" in proof.statement
    words = [step.words for step in proof.steps]
    assert words[0] == f"T_k has {width // 2} blocks; the first and the last are"
    assert words[1] == f"Residual T_k PE(p) − PE(p+k): {width} entries; the first 2 are"
    assert words[-1].endswith(f"0 of {width} entries are non-zero")


def test_position_free_proof_names_the_symbols_of_the_block() -> None:
    """Fault caught: the symbols the position-free proof says the block contains (those of
    k omega_i = k base^(-2i/d): base, d, i, k; neither p nor q)."""
    proof = rotation_identity.shift_is_position_free()
    assert proof.holds
    assert (
        proof.steps[0].words == "The candidate contains the symbols base, d, i, k (neither p nor q)"
    )


@pytest.mark.parametrize("offset", [None, 1, 5, -3])
def test_orientation_check_shifts_by_every_turn_offset(offset: int | None) -> None:
    """Fault caught: an offset of the orientation check (1, 5, -3) left out: a block off by
    a polynomial in k that vanishes at the other two offsets is refused."""
    others = [k for k in (1, 5, -3) if k != offset]

    def block(k: Any, w: Any) -> Any:
        exact = symbolic.shift_block(k, w)
        if offset is None:
            return exact
        return exact + sp.eye(2) * sp.Mul(*(k - o for o in others)) / 1000

    evidence = rotation_identity._orientation("sin-cos")(block)
    assert evidence.holds is (offset is None), evidence.detail
    assert "d=512, p < 200, k in (1, 5, -3): " in evidence.detail
    assert evidence.detail.endswith(
        "at k = 1 the block turns pair 0 clockwise (expected clockwise)"
    )
    # the failing part carries its own verdict (audit v22)
    verdict = "within" if offset is None else "exceeds"
    assert re.search(
        rf"\(tolerance \S+\): {verdict}; at k = 1 the block", site_text(evidence.detail)
    )


@pytest.mark.parametrize(
    ("check", "width"),
    [("_distinct", 16), ("_single_pair_repeats", 2), ("_some_closer", 8)],
)
def test_uniqueness_checks_compare_every_offset_up_to_20000(
    monkeypatch: pytest.MonkeyPatch, check: str, width: int
) -> None:
    """Fault caught: the offsets the uniqueness checks measure (1..20000, the span the claim
    states: 2 <= |p - q| <= 20000 against the neighbours at 1) cut short or shifted."""
    seen: list[list[int]] = []
    real = row_distance_by_offset

    def spy(offsets: Any, d_model: int) -> Float64Array:
        seen.append(np.asarray(offsets).tolist())
        return np.asarray(real(offsets, d_model), dtype=np.float64)

    monkeypatch.setattr(failed_designs, "row_distance_by_offset", spy)
    evidence = getattr(failed_designs, check)(width)
    assert evidence.holds, evidence.detail
    assert seen == [list(range(1, 20_001))]


def test_any_position_check_asks_for_the_positions_it_states() -> None:
    """Fault caught: a position of the any-position and boundedness checks changed from the
    stated {0, 1, 10, 10^3, 10^4, 10^6, 10^9, 2^53}."""
    asked: list[list[int]] = []

    def design(positions: Any, n: int, d: int) -> Float64Array:
        asked.append(np.asarray(positions).tolist())
        return np.asarray(position_designs.sinusoidal(positions, n, d), dtype=np.float64)

    evidence = failed_designs._any_position(design)
    assert evidence.holds, evidence.detail
    far = [0, 1, 10, 10**3, 10**4, 10**6, 10**9, 2**53]
    assert asked == [far]
    assert evidence.detail.startswith("d=64, p in {0, 1, 10, 1e3, 1e4, 1e6, 1e9, 2^53}: ")
    assert failed_designs._bounded(design).holds
    assert asked == [far, far]


def test_from_scratch_gap_runs_the_sizes_it_prints() -> None:
    """Fault caught: a size of the from-scratch comparison ((2048, 512), (1000, 64), (50, 8),
    as its card prints) changed."""
    asked: list[tuple[int, int]] = []

    def make(n: int, d: int) -> Float64Array:
        asked.append((n, d))
        return np.asarray(numeric.sinusoidal(n, d), dtype=np.float64)

    evidence = sinusoidal_encoding.from_scratch_gap(make)
    assert evidence.holds, evidence.detail
    assert asked == [(2048, 512), (1000, 64), (50, 8)]
    assert evidence.detail.startswith("(n, d) in (2048, 512), (1000, 64), (50, 8): ")


def test_finite_means_measure_the_sizes_they_print(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: a length of the finite-means check (n = 4, 100, 1000, as its card
    prints) changed, or the shift label of the closed form."""
    asked: list[int] = []
    real = column_means

    def spy(n: int, d: int) -> Float64Array:
        asked.append(n)
        return np.asarray(real(n, d), dtype=np.float64)

    monkeypatch.setattr(sinusoidal_encoding, "column_means", spy)
    evidence = sinusoidal_encoding._finite_means(1.0)
    assert evidence.holds, evidence.detail
    assert asked == [4, 100, 1000]
    assert "n in (4, 100, 1000): " in evidence.detail
    assert "closed form with n − 1 (40-digit mpmath)" in evidence.detail


def test_proofs_print_their_symbols_by_their_names() -> None:
    """Fault caught: a SymPy symbol of a printed proof renamed or given other assumptions
    that change what is printed (i, d in the wavelengths; omega, p in the step; c, p in the
    raw index's share; the entries a, b of the two projections)."""
    i, d = (
        sp.Symbol("i", integer=True, nonnegative=True),
        sp.Symbol("d", integer=True, positive=True),
    )
    wavelength = sinusoidal_encoding.wavelength_progression()
    assert wavelength.holds
    assert wavelength.steps[0].latex == (
        r"\lambda_i = \frac{2\pi}{\omega_i} = "
        + sp.latex(2 * sp.pi * sp.Integer(10000) ** (2 * i / d))
    )
    omega, p = sp.Symbol("omega", positive=True), sp.Symbol("p")
    step = sinusoidal_encoding.step_distance()
    assert step.holds
    assert sp.latex(sp.sin(omega * (p + 1))) in step.steps[0].latex
    c = sp.Symbol("c", positive=True)
    share = failed_designs.share_limit()
    assert share.holds
    assert share.steps[0].latex == sp.latex(p**2 / (c + p**2))
    projection = sinusoidal_encoding.concat_projection()
    assert projection.holds
    for name in ("a_{11}", "a_{22}", "b_{11}", "b_{22}"):
        assert name in projection.steps[0].latex


@pytest.mark.parametrize("encoding", [NO_ENCODING, SINUSOIDAL])
@pytest.mark.parametrize("past", [False, True])
def test_rows_alone_check_allows_a_gap_up_to_its_bound(encoding: Encoding, past: bool) -> None:
    """Fault caught: the row-independence check run on another sequence than the stated
    n = 32 tokens of width 64, or its tolerance (twice the largest bound B(X)) compared
    wrongly: a layer whose two ways differ by exactly the bound passes, by the next float64
    fails."""
    bound = row_independence_tolerance(32, 64, encoding)
    gap = float(np.nextafter(bound, 1.0)) if past else bound
    shapes: list[tuple[int, ...]] = []

    def layer(x: Float64Array) -> tuple[Float64Array, Float64Array]:
        shapes.append(x.shape)
        return np.zeros_like(x), np.full_like(x, gap)

    evidence = why_order._rows_alone(layer, encoding)
    assert evidence.holds is not past, evidence.detail
    assert shapes == [(32, 64)]
    assert evidence.detail.startswith(f"n=32, d=64, {encoding.label}: each row computed alone")


def _spy_encoding(label: str, sizes: list[tuple[int, int]], *, sinusoidal: bool) -> Encoding:
    """An encoding that records the sizes it is asked for: the sinusoidal one, or nothing."""

    def rows(n: int, d: int) -> Float64Array:
        sizes.append((n, d))
        if sinusoidal:
            return np.asarray(numeric.sinusoidal(n, d), dtype=np.float64)
        return np.zeros((n, d))

    return Encoding(label, rows)


def test_sentence_checks_run_the_stated_three_words_of_width_64() -> None:
    """Fault caught: the width of the two sentence checks (d = 64, as their cards print)
    changed, or the encoding's label left out of the card."""
    sizes: list[tuple[int, int]] = []
    broken = why_order._symmetry_broken(_spy_encoding("spy sinusoidal", sizes, sinusoidal=True))
    assert broken.holds, broken.detail
    assert broken.detail.startswith("d=64, spy sinusoidal: ")
    assert set(sizes) == {(3, 64)}
    sizes.clear()
    same = why_order._sentences(_spy_encoding("spy nothing", sizes, sinusoidal=False))
    assert same.holds, same.detail
    assert same.detail.startswith("d=64, spy nothing: ")
    assert set(sizes) == {(3, 64)}


def test_rnn_check_reads_the_sentences_at_width_64() -> None:
    """Fault caught: the width of the recurrent check (d = 64, as its card prints)."""
    shapes: list[tuple[int, ...]] = []

    def summary(x: Float64Array, weights: RnnWeights) -> Float64Array:
        shapes.append(x.shape)
        return np.asarray(final_state(x, weights), dtype=np.float64)

    evidence = why_order._rnn(summary)
    assert evidence.holds, evidence.detail
    assert shapes == [(3, 64), (3, 64)]


@pytest.mark.parametrize(
    "setting", [None, (True, 32, 128), (True, 16, 64), (False, 32, 128), (False, 16, 64)]
)
def test_t5_check_runs_every_setting(setting: tuple[bool, int, int] | None) -> None:
    """Fault caught: a setting of the T5 bucket check ((32, 128) and (16, 64), each both
    ways) left out, or ``all`` made ``any``: a bucketing off by one at one setting only is
    refused."""

    def bucket(rel: Any, *, bidirectional: bool, num_buckets: int, max_distance: int) -> Any:
        got = relative.t5_bucket(
            rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
        )
        shift = int((bidirectional, num_buckets, max_distance) == setting)
        return np.asarray(got) + shift

    evidence = relative_family._t5(bucket)
    assert evidence.holds is (setting is None), evidence.detail
    for b, nb, md in ((True, 32, 128), (True, 16, 64), (False, 32, 128), (False, 16, 64)):
        assert f"B={nb}, D={md}, bidirectional={b}: " in evidence.detail


def test_t5_recording_card_counts_every_bucket() -> None:
    """Fault caught: the count of buckets compared against the recording (every r in
    [-3D, 3D] of each recorded setting) or of those that differ, or a single wrong bucket
    let through."""
    settings = relative_family.t5_recorded()["settings"]
    total = sum(6 * s["max_distance"] + 1 for s in settings)
    good = relative_family._t5_recorded(relative.t5_bucket)
    assert good.holds
    assert good.detail.endswith(f"every r in [-3D, 3D]: 0 of {total} buckets differ")
    assert f"), {len(settings)} settings (B, D) = " in good.detail

    def one_off(rel: Any, **kwargs: Any) -> Any:
        got = np.array(relative.t5_bucket(rel, **kwargs))
        got[np.asarray(rel) == 5] += 1
        return got

    bad = relative_family._t5_recorded(one_off)
    assert not bad.holds
    assert bad.detail.endswith(f": {len(settings)} of {total} buckets differ")


def test_toeplitz_check_refuses_one_absolute_scheme_among_relative_ones() -> None:
    """Fault caught: the spread of one scheme among several not counted (the worst over the
    schemes taken wrongly), or the card's fixed sample (12 repeats, d = 16)."""
    good = relative_family._toeplitz(("rope", "shaw"))
    assert good.holds
    assert good.detail.startswith("one token repeated 12 times, d=16: ")
    assert not relative_family._toeplitz(("rope", "shaw", "learned absolute")).holds
    assert not relative_family._toeplitz(("sinusoidal (added)", "rope")).holds


def test_worked_example_and_steps_ask_for_the_stated_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: the rows the worked example reads (the 4 tokens of "My name is RK" at
    d = 512) or the steps check measures (p < 10001, d = 512) changed."""
    asked: list[tuple[int, int]] = []
    real = numeric.sinusoidal

    def table(n: int, d: int) -> Float64Array:
        asked.append((n, d))
        return np.asarray(real(n, d), dtype=np.float64)

    assert sinusoidal_encoding._worked_example(table).holds
    assert asked == [(4, 512)]
    monkeypatch.setattr(numeric, "sinusoidal", table)
    asked.clear()
    steps = sinusoidal_encoding._steps(1.0)
    assert steps.holds, steps.detail
    assert asked == [(10_001, 512)]
    assert steps.detail.startswith("d=512, p < 10001: max |PE(p+1, j) − PE(p, j)| / ω_i = ")
    half = sinusoidal_encoding._steps(0.5)
    assert not half.holds
    assert "/ 0.5 ω_i = " in half.detail


def test_share_check_asks_for_the_positions_it_prints() -> None:
    """Fault caught: the positions of the raw-index share check (10, 100, 1000, the last the
    one its verdict reads) or the width 512 changed."""
    asked: list[tuple[list[int], int, int]] = []

    def design(positions: Any, n: int, d: int) -> Float64Array:
        asked.append((np.asarray(positions).tolist(), n, d))
        return np.asarray(position_designs.raw_index(positions, n, d), dtype=np.float64)

    evidence = failed_designs._share(design)
    assert evidence.holds, evidence.detail
    assert asked == [([10, 100, 1000], 3, 512)]
    assert "at p = 10, 100, 1000 (needs > 0.99 at p = 1000)" in evidence.detail

    def small_at_the_end(positions: Any, n: int, d: int) -> Float64Array:
        rows = np.asarray(position_designs.raw_index(positions, n, d), dtype=np.float64)
        rows[-1] = rows[0]
        return rows

    assert not failed_designs._share(small_at_the_end).holds


def test_nope_check_reads_4096_positions() -> None:
    """Fault caught: the NoPE check's sequence (a 1 then 4095 zeros) or its count of distinct
    outputs changed."""
    seen: list[Float64Array] = []

    def attend(values: Float64Array) -> Float64Array:
        seen.append(np.array(values))
        return np.asarray(relative.causal_mean_attention(values), dtype=np.float64)

    evidence = relative_family._nope(attend)
    assert evidence.holds, evidence.detail
    assert len(seen) == 1
    assert seen[0].tolist() == [1.0] + [0.0] * 4095
    assert evidence.detail.endswith("4096 distinct outputs for 4096 positions")
    assert evidence.detail.startswith("first value 1 then 0, n=4096: ")


@pytest.mark.parametrize("left_out", [None, "a", "b", "c", "d"])
def test_transformer_xl_check_needs_each_of_the_four_terms(left_out: str | None) -> None:
    """Fault caught: a term of Transformer-XL's score not compared, or the card's sample
    (n = 9 tokens of width 16) changed."""
    terms = tuple(t for t in ("a", "b", "c", "d") if t != left_out)
    evidence = relative_family._transformer_xl(terms)
    assert evidence.holds is (left_out is None), evidence.detail
    assert evidence.detail.startswith("n=9, d=16, random weights: ")
    assert f"against the terms ({', '.join(terms)}) summed entry by entry" in evidence.detail


@pytest.mark.parametrize(("shift", "verdict"), [(1, "yes"), (0, "no"), (3, "no"), (-1, "no")])
def test_inserted_at_every_width_prints_each_log_ratio(shift: int, verdict: str) -> None:
    """Fault caught: a log ratio of the every-width insertion check (log(w_new / w_i) =
    -k log(b) / d + 2i log(b) / d for k = 2i + shift, against w_i, w_(i+1) and the last old
    frequency) computed or printed wrongly, or one of its three conditions dropped."""
    c, d = sp.Symbol("c", positive=True), sp.Symbol("d", integer=True, positive=True)
    evidence = sinusoidal_encoding._inserted_at_every_width(lambda i: 2 * i + shift)
    assert evidence.holds is (verdict == "yes"), evidence.detail
    below = sp.expand(-shift * sp.log(c + 1) / d)
    above = sp.expand((2 - shift) * sp.log(c + 1) / d)
    assert evidence.detail == (
        f"any d, any base 1 + c: log(ω_new / ω_i) = {below}, log(ω_new / ω_(i+1)) = {above}, "
        f"last: log(ω_new / ω_(d/2-1)) = {below}; strictly between and below: {verdict}"
    )


def test_inserted_at_every_width_says_when_it_cannot_decide() -> None:
    """Fault caught: an undecided sign reported as a refusal: an index with a free symbol of
    unknown sign is "not decided"."""
    z = sp.Symbol("z")
    evidence = sinusoidal_encoding._inserted_at_every_width(lambda i: 2 * i + z)
    assert not evidence.holds
    assert evidence.detail.endswith("strictly between and below: not decided")


def test_single_pair_card_prints_where_the_pair_comes_back() -> None:
    """Fault caught: the offset (1..20000) at which one pair (omega = 1) comes back closest
    to itself, the distance printed (2|sin(k/2)|, from mpmath), the 1e-4 threshold, or the
    label of a wider table."""
    with mpmath.workdps(30):
        dist = {k: 2 * abs(mpmath.sin(mpmath.mpf(k) / 2)) for k in range(1, 20_001)}
    k = min(dist, key=lambda key: dist[key])
    evidence = failed_designs._single_pair_repeats(2)
    assert evidence.holds is (dist[k] < 1e-4)
    assert evidence.detail == (
        f"d=2 (pair 0 alone): within 20000 positions it comes back within {float(dist[k]):.2g} "
        f"of itself at offset {k} (needs < 1e-4)"
    )
    wide = failed_designs._single_pair_repeats(512)
    assert not wide.holds
    assert wide.detail.startswith("d=512 (256 pairs): within 20000 positions")


def test_past_base_check_splits_the_rows_at_10000(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: the horizon of the base-is-not-a-length check (rows before 10000
    against rows from 10000 on) or its width changed."""
    calls: list[tuple[int, int]] = []
    real = rows_distance_past

    def spy(d_model: int, horizon: int, frequencies: Float64Array) -> float:
        calls.append((d_model, horizon))
        return float(real(d_model, horizon=horizon, frequencies=frequencies))

    monkeypatch.setattr(sinusoidal_encoding, "rows_distance_past", spy)
    evidence = sinusoidal_encoding._past_base(numeric.frequencies(512))
    assert evidence.holds, evidence.detail
    assert calls == [(512, 10_000)]


def test_interpolation_cards_print_the_example_and_its_allowance() -> None:
    """Fault caught: the interpolation example (d = 128, L = 2048, s = 4: positions
    0..8191), its allowance (1 - 1/s)/(L - 1) or the interpolated end L - 1/s printed
    wrongly, or a stated end one step short let through."""
    allowed = (1 - 1 / 4) / 2047
    reach = relative_family._interpolation(relative.position_interpolation)
    assert reach.holds
    assert reach.detail.startswith("positions 0..8191, d=128, trained on 0..2047: ")
    assert f"allowed (1 - 1/s)/(L - 1) = {allowed:.3g}; pairs past (L-1) w_i: 0..63" in (
        reach.detail
    )
    end = relative_family._interpolated_end(relative.interpolated_end)
    assert end.holds
    assert end.detail.startswith(
        "d=128, L=2048, s=4: max_p (p/s) w_i / w_i = 2047.75 to 2047.75 over the 64 pairs; "
        "stated 2047.75 (the largest trained position is 2047)"
    )
    assert not relative_family._interpolated_end(lambda n, s: n - 1 / s - 1).holds


def test_offsets_card_names_its_offsets_and_starts() -> None:
    """Fault caught: the offsets (1, 5, 50) or the starts (every 7th position below 1000:
    143 of them) of the offset-distance check changed."""
    evidence = failed_designs._offsets(position_designs.sinusoidal)
    assert evidence.holds, evidence.detail
    starts = len(range(0, 1000, 7))
    assert evidence.detail.startswith(
        f"d=512: ||PE(p+k) − PE(p)|| for k in (1, 5, 50), {starts} starts p, sentences of "
    )
    assert (
        len(re.findall(r"tolerances ([0-9.e+-]+), ([0-9.e+-]+), ([0-9.e+-]+)\)", evidence.detail))
        == 1
    )


def test_numeric_equivariance_runs_32_tokens_of_width_64() -> None:
    """Fault caught: the size of the numeric equivariance check (n = 32, d = 64, as the
    claim states) changed."""
    shapes: list[tuple[int, ...]] = []

    def sides(attend: Any, x: Any, perm: Any, positions: Any) -> tuple[Any, Any]:
        shapes.append(np.shape(x))
        return equivariant(attend, x, perm, positions)

    evidence = why_order._numeric_equivariance(sides)
    assert evidence.holds, evidence.detail
    assert shapes == [(32, 64)]


def test_embedding_checks_draw_the_stated_embeddings() -> None:
    """Fault caught: the embeddings the orthogonality and subspace checks draw (1000 of width
    512, seeds 7 and 11) changed, or the label the cards take from the function's name."""
    drawn: list[tuple[int, int, int]] = []

    def random_rows(n: int, d: int, seed: int) -> Float64Array:
        drawn.append((n, d, seed))
        return np.asarray(random_embeddings(n, d, seed), dtype=np.float64)

    orthogonal = sinusoidal_encoding._orthogonal(random_rows)
    assert orthogonal.holds, orthogonal.detail
    assert orthogonal.detail.startswith("d=512, 1000 random rows x 200 positions: cosine mean ")
    subspace = sinusoidal_encoding._subspace(random_rows)
    assert subspace.holds, subspace.detail
    assert "; 1000 random rows put " in subspace.detail
    assert drawn == [(1000, 512, 7), (1000, 512, 11)]


@pytest.mark.parametrize(
    "changed",
    [None, "num_buckets", "max_distance", "shared_across_layers", "per_head"],
)
def test_t5_layout_check_compares_every_field(changed: str | None) -> None:
    """Fault caught: a field of T5's layout (32 buckets, offset 128, one table shared by the
    layers, one scalar per head) not compared with the recording, or the card's account of
    the recorded stack."""
    layout = relative_family.t5_recorded()["layout"]
    stated = relative_family.T5_STATED
    if changed in ("num_buckets", "max_distance"):
        stated = dataclasses.replace(stated, **{changed: getattr(stated, changed) + 1})
    elif changed is not None:
        stated = dataclasses.replace(stated, **{changed: not getattr(stated, changed)})
    evidence = relative_family._t5_layout(stated)
    assert evidence.holds is (changed is None), evidence.detail
    assert evidence.detail == (
        f"transformers' T5 (recorded): {layout['num_buckets']} buckets up to offset "
        f"{layout['max_distance']}; in a {layout['blocks']}-block stack of {layout['heads']} "
        f"heads, blocks {layout['blocks_with_bias']} hold a bias table of shape "
        f"{tuple(layout['bias_shape'])} (the others use block 0's)"
    )


def test_bits_check_needs_the_codes_one_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: the bits check's "codes at least 1 apart" condition (closest >= 1)
    loosened: codes of 0..999 with two equal (closest 0) are refused, though every count is
    right."""
    real = binary_bits

    def clashing(n: int, bits: int) -> Any:
        codes = np.array(real(n, bits))
        codes[-1] = codes[0]
        return codes

    monkeypatch.setattr(failed_designs, "binary_bits", clashing)
    evidence = failed_designs._bits(lambda n: (n - 1).bit_length())
    assert not evidence.holds
    assert evidence.detail.endswith("closest codes of 0..999 at distance 0")


def test_subspace_share_allows_six_standard_errors_of_its_beta_law() -> None:
    """The subspace check's allowance is 6 standard errors of the mean of 1000 shares, each
    Beta(r/2, (d - r)/2) with variance p(1 - p)/(d/2 + 1), p = r/d: recomputed here from the
    rank it prints (mpmath).

    Fault caught: the Beta variance's denominator or the sample count changed."""
    evidence = sinusoidal_encoding._subspace(random_embeddings)
    assert evidence.holds
    (rank,) = (int(x) for x in re.findall(r"have r = (\d+) singular values", evidence.detail))
    with mpmath.workdps(30):
        p = mpmath.mpf(rank) / 512
        sigma = mpmath.sqrt(p * (1 - p) / (mpmath.mpf(512) / 2 + 1) / 1000)
    assert evidence.detail.endswith(f"(needs within 6 standard errors, {float(6 * sigma):.2g})")
