"""Edges of the guards, thresholds and memory caps of the relative, rotary and geometry modules.

Covers :mod:`pe.relative`, :mod:`pe.rotary`, :mod:`pe.rope_scaling`, :mod:`pe.attention`,
:mod:`pe.position_scores`, :mod:`pe.geometry` and :mod:`pe.column_means`:

- every memory estimate passed to :func:`pe._validate.capped_elements`, tested at its cap:
  with ``pe._validate.MAX_BYTES`` set to the estimate computed from the documented
  formula the call is accepted, one byte less and it is refused with the estimate's own name;
- each size or value guard on both sides of its threshold (the smallest accepted input and
  the largest refused one), tall and wide shapes, the first and last accepted positions.

Expected values come from the formulas in the docstrings, from NumPy directly or from the
definitions, never from the function under test.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pe import (
    _validate,
    attention,
    column_means,
    geometry,
    position_scores,
    relative,
    rope_scaling,
    rotary,
)

Float64Array = npt.NDArray[np.float64]


# ---------------------------------------------------------------------------------------------
# memory estimates at their cap


def _zeros_candidate(
    w_q: Float64Array, w_k: Float64Array, ms: Any, ns: Any, rng: np.random.Generator
) -> Float64Array:
    """A projected-scores candidate that allocates nothing of note: one zero per pair."""
    return np.zeros(np.shape(ms))


#: (label, call, bytes the documented estimate asks for, the estimate's name in the message)
CAPS: list[tuple[str, Callable[[], object], int, str]] = [
    # attention: 3 n^2 + 3 n d; its error bound: 6 n^2 + 8 n d (n = 7 tokens, d = 4)
    (
        "attention",
        lambda: attention.attention(np.ones((7, 4)), attention.toy_attention(4)),
        (3 * 7 * 7 + 3 * 7 * 4) * 8,
        "attention",
    ),
    (
        "attention_error_bound",
        lambda: attention.attention_error_bound(np.ones((7, 4)), attention.toy_attention(4)),
        (6 * 7 * 7 + 8 * 7 * 4) * 8,
        "attention_error_bound",
    ),
    # RoPE's tolerances: four (m, r) arrays
    (
        "offset_tolerance",
        lambda: rotary.offset_tolerance(np.ones(4), np.ones(4), np.arange(5), np.arange(3)),
        4 * 5 * 3 * 8,
        "the tolerances",
    ),
    # the n x n scores and an (n, d) product; the bounds: three n x n and one (n, d)
    ("scores", lambda: position_scores.scores(9, 4), (9 * 9 + 9 * 4) * 8, "the scores"),
    (
        "score_rounding",
        lambda: position_scores.score_rounding(9, 4),
        (3 * 9 * 9 + 9 * 4) * 8,
        "the score bounds",
    ),
    # a 1000 x 1000 block with two temporaries, and two (2 horizon, d / 2) arrays
    (
        "rows_distance_past",
        lambda: geometry.rows_distance_past(8, horizon=1000),
        (3 * 1000 * 1000 + 2 * 2000 * 4) * 8,
        "rows_distance_past",
    ),
    # relative: n x n int64 offsets
    ("shaw_offsets", lambda: relative.shaw_offsets(5, 2), 5 * 5 * 8, "the offsets"),
    # Transformer-XL: 3 n^2 d float64 (the (n, n, d) sinusoid and its products)
    (
        "transformer_xl_scores",
        lambda: relative.transformer_xl_scores(
            np.ones((3, 4)), np.eye(4), np.eye(4), np.eye(4), u=np.ones(4), v=np.ones(4)
        ),
        3 * 3 * 3 * 4 * 8,
        "the scores",
    ),
    (
        "transformer_xl_terms",
        lambda: relative.transformer_xl_terms(
            np.ones((5, 6)), np.eye(6), np.eye(6), np.eye(6), u=np.ones(6), v=np.ones(6)
        ),
        3 * 5 * 5 * 6 * 8,
        "the scores",
    ),
    # T5 properties: 16 arrays over the 2 * 4D + 1 relative positions
    (
        "t5_bucket_properties",
        lambda: relative.t5_bucket_properties(num_buckets=8, max_distance=5),
        16 * (2 * 4 * 5 + 1) * 8,
        "t5_bucket_properties",
    ),
    # T5 bias: n x n, 16 bytes an entry (bucket and value)
    ("t5_bias", lambda: relative.t5_bias(6, np.arange(32.0)), 6 * 6 * 16, "the bias"),
    # ALiBi exponents: 2 H Fractions of 128 bytes (H a power of two: no recursion)
    (
        "alibi_slope_exponents",
        lambda: relative.alibi_slope_exponents(8),
        2 * 8 * 128,
        "alibi_slope_exponents",
    ),
    ("alibi_bias", lambda: relative.alibi_bias(7, 0.5), 7 * 7 * 8, "the bias"),
    # rotary
    ("pairing_permutation", lambda: rotary.pairing_permutation(10), 10 * 8, "pairing_permutation"),
    (
        "pair_columns",
        lambda: rotary.pair_columns(10, "halves"),
        (10 // 2) * 128,
        "pair_columns",
    ),
    ("rope_angles", lambda: rotary.rope_angles(7, 6), 7 * 6 * 16, "the angles"),
    (
        "rope_angles of an array",
        lambda: rotary.rope_angles(np.array([0.5, 3.0, -2.0]), 10),
        3 * 10 * 16,
        "the angles",
    ),
    # rope: input, cosines and sines of x.size entries in x's dtype (float64: 8 bytes)
    ("rope", lambda: rotary.rope(np.ones((2, 5, 6)), 5), 3 * 2 * 5 * 6 * 8, "rope"),
    (
        "rope_complex",
        lambda: rotary.rope_complex(np.ones((5, 6)), 5),
        3 * 5 * 6 * 16,
        "rope_complex",
    ),
    # offset_error: 4 m r d float64 (m positions, r offsets, width d)
    (
        "offset_error",
        lambda: rotary.offset_error(
            np.ones(6), np.ones(6), np.arange(5), np.arange(3), base=10000.0
        ),
        4 * 5 * 3 * 6 * 8,
        "the errors",
    ),
    # abel_bound: 4 r d complex (16 bytes) entries
    (
        "abel_bound",
        lambda: rotary.abel_bound(np.ones(6), np.ones(6), np.arange(7)),
        4 * 7 * 6 * 16,
        "the bound",
    ),
    # conversion_gap: 6 d^2 float64 (the weights, their conversion and the bounds)
    (
        "conversion_gap",
        lambda: rotary.conversion_gap(rotary.permute_both, 34),
        6 * 34 * 34 * 8,
        "conversion_gap",
    ),
    # attention
    (
        "toy_vocabulary",
        lambda: attention.toy_vocabulary(6, ("a", "b", "a", "c", "d")),
        4 * 6 * 8,
        "toy_vocabulary",
    ),
    (
        "sentence_matrix",
        lambda: attention.sentence_matrix(
            ("a", "b", "a", "c", "a"), {w: np.ones(6) for w in "abc"}
        ),
        5 * 6 * 8,
        "sentence_matrix",
    ),
    ("toy_attention", lambda: attention.toy_attention(6), 3 * 6 * 6 * 8, "toy_attention"),
    ("toy_rnn", lambda: attention.toy_rnn(6, hidden=5), 5 * (6 + 5 + 1) * 8, "toy_rnn"),
    # the weights, then attention_error_bound's 6 n^2 + 8 n d on the 3 words
    (
        "sentence_pair",
        lambda: attention.sentence_pair(d_model=6),
        (3 * 6 * 6 + 6 * 3 * 3 + 8 * 3 * 6) * 8,
        "sentence_pair",
    ),
    (
        "check_equivariance",
        lambda: attention.check_equivariance(n=5, d_model=6),
        4 * (5 + 6) ** 2 * 8,
        "check_equivariance",
    ),
    (
        "attention_layer",
        lambda: attention.attention_layer(np.ones((7, 4))),
        (7 * 4 + 3 * 7 * 7 + 3 * 7 * 4) * 8,  # the rows alone, then attention's 3 n^2 + 3 n d
        "attention_layer",
    ),
    (
        "row_independence_gap",
        lambda: attention.row_independence_gap(n=7, d_model=4),
        4 * 7 * (7 + 4) * 8,
        "row_independence_gap",
    ),
    (
        "row_independence_tolerance",
        lambda: attention.row_independence_tolerance(n=7, d_model=4),
        (4 * 7 * (7 + 4) + 6 * 7 * 7 + 8 * 7 * 4) * 8,  # the input, then the bound's
        "row_independence_tolerance",
    ),
    # position scores: 4 m d float64 for m pairs of width d
    (
        "additive_scores",
        lambda: position_scores.additive_scores(
            np.eye(6), np.eye(6), np.arange(5), np.arange(5) + 2, np.random.default_rng(0)
        ),
        4 * 5 * 6 * 8,
        "additive_scores",
    ),
    (
        "rope_after_projection",
        lambda: position_scores.rope_after_projection(
            np.eye(6), np.eye(6), np.arange(5), np.arange(5) + 2, np.random.default_rng(0)
        ),
        4 * 5 * 6 * 8,
        "rope_after_projection",
    ),
    (
        "offset_spreads",
        lambda: position_scores.offset_spreads(_zeros_candidate, 6),
        3 * 6 * 6 * 8,
        "offset_spreads",
    ),
    # geometry
    (
        "dot_by_offset",
        lambda: geometry.dot_by_offset(6, np.arange(7)),
        7 * 3 * 16,
        "dot_by_offset",
    ),
    (
        "dot_product_error",
        lambda: geometry.dot_product_error(6, 5),
        3 * 5 * (5 + 6) * 8,
        "dot_product_error",
    ),
    (
        "symmetry_gap",
        lambda: geometry.symmetry_gap(6, 10, 3),
        (2 * 3 * (6 + 2) + 6 * 6) * 8,
        "symmetry_gap",
    ),
    (
        "chord_lengths",
        lambda: geometry.chord_lengths([0.5, 1.0, 2.0], np.arange(7)),
        7 * 3 * 16,
        "row_distance_by_offset",
    ),
    (
        "row_distance_by_offset",
        lambda: geometry.row_distance_by_offset(np.arange(7), 6),
        7 * 6 * 16,
        "row_distance_by_offset",
    ),
    (
        "row_distance_by_offset, chord",
        lambda: geometry.row_distance_by_offset(np.arange(7), 6, chord=True),
        7 * 3 * 16,
        "row_distance_by_offset",
    ),
    (
        "smallest_row_distance",
        lambda: geometry.smallest_row_distance(7, 6),
        3 * 7 * 7 * 8,
        "the Gram matrix",
    ),
    (
        "pair_distances",
        lambda: geometry.pair_distances([0.5, 1.0, 2.0], 7),
        7 * 3 * 16,
        "pair_distances",
    ),
    (
        "pair_shift_ratio",
        lambda: geometry.pair_shift_ratio(6, 7, (1, 3), rotary_frequencies),
        3 * 7 * 6 * 8,
        "pair_shift_ratio",
    ),
    (
        "closest_rows",
        lambda: geometry.closest_rows(np.arange(21.0).reshape(7, 3)),
        7 * 7 * 3 * 8,
        "the distances",
    ),
]


def rotary_frequencies(d: int) -> Float64Array:
    """The paper's frequencies :math:`10000^{-2i/d}`, written out (a FrequencyLaw)."""
    return np.asarray(10000.0 ** (-np.arange(0, d, 2) / d), dtype=np.float64)


@pytest.mark.parametrize(("label", "call", "needed", "name"), CAPS, ids=[c[0] for c in CAPS])
def test_each_memory_estimate_is_accepted_at_its_cap_and_refused_one_byte_under(
    monkeypatch: pytest.MonkeyPatch,
    label: str,
    call: Callable[[], object],
    needed: int,
    name: str,
) -> None:
    """With pe's cap at exactly the documented estimate the call runs; one byte lower it is
    refused, naming that estimate (not one of a function it calls).

    Fault caught: a term, factor or item size of an estimate changed (a product made a sum,
    an XOR, a power, a constant moved by one), a comparison of the cap loosened or the
    estimate's name swapped."""
    monkeypatch.setattr(_validate, "MAX_BYTES", needed)
    call()
    monkeypatch.setattr(_validate, "MAX_BYTES", needed - 1)
    with pytest.raises(ValueError, match=rf"^{re.escape(name)} asks for .*pe\.MAX_BYTES"):
        call()


def test_rope_scores_refuses_one_byte_under_its_estimate_and_runs_at_rope_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """rope_scores' own estimate is 2 m d float64; the rotations it calls ask 3 m d of x's
    float64 (24 m d bytes), so it runs once the cap holds those, and one byte under its own
    estimate the refusal names "the scores".

    Fault caught: the estimate made larger than the rotations' need (a product turned into a
    power) or smaller (a factor dropped: then rope, not rope_scores, refuses)."""
    m, d = 5, 6
    q, positions = np.ones(d), np.arange(m)
    monkeypatch.setattr(_validate, "MAX_BYTES", 3 * m * d * 8)
    assert rotary.rope_scores(q, q, positions, positions).shape == (m,)
    monkeypatch.setattr(_validate, "MAX_BYTES", 2 * m * d * 8 - 1)
    with pytest.raises(ValueError, match=r"^the scores asks for"):
        rotary.rope_scores(q, q, positions, positions)
    monkeypatch.setattr(_validate, "MAX_BYTES", 2 * m * d * 8)
    with pytest.raises(ValueError, match=r"^rope asks for"):
        rotary.rope_scores(q, q, positions, positions)


# ---------------------------------------------------------------------------------------------
# pe.relative: shapes, positions and thresholds


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (1, 4), (4, 1), (3,), (2, 2, 2)])
def test_toeplitz_deviation_refuses_every_non_square_shape(shape: tuple[int, ...]) -> None:
    """A tall matrix and a wide one (and 1-D, 3-D) are refused, naming the shape.

    Fault caught: the squareness test made one-sided (``!=`` turned into ``<`` or ``>``)."""
    with pytest.raises(ValueError, match=re.escape(f"must be square, got shape {shape}")):
        relative.toeplitz_deviation(np.ones(shape))


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_toeplitz_deviation_of_a_square_matrix_is_its_worst_diagonal_spread(n: int) -> None:
    """Square matrices of every small size are accepted, and the result is the largest
    max - min along a diagonal over the largest |entry|, computed here diagonal by diagonal.

    Fault caught: a square size refused, a diagonal skipped (the loop's range moved by one)."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n))
    spreads = [float(np.ptp(np.diagonal(a, k))) for k in range(-(n - 1), n)]
    assert relative.toeplitz_deviation(a) == pytest.approx(
        max(spreads) / float(np.abs(a).max()), rel=1e-15, abs=0.0
    )
    # a spread only on the diagonals next to the corners (length 1 has none)
    b = np.zeros((n, n))
    if n >= 3:
        b[0, n - 2], b[1, n - 1] = 1.0, -1.0  # diagonal offset n - 2: spread 2
        b[n - 2, 0], b[n - 1, 1] = 0.5, 0.0  # diagonal offset -(n - 2): spread 0.5
        assert relative.toeplitz_deviation(b) == 2.0


def test_toeplitz_deviation_masks_must_fill_whole_diagonals() -> None:
    """A masked (-inf) diagonal is skipped; one -inf inside a finite diagonal gives inf; an
    all-masked matrix gives 0.

    Fault caught: the partial-mask test inverted or the masked diagonals measured."""
    upper = np.triu(np.full((4, 4), -np.inf), 1) + np.tril(np.ones((4, 4)))
    assert relative.toeplitz_deviation(upper) == 0.0
    upper[3, 1] = 5.0  # diagonal -2 now holds 1 and 5
    assert relative.toeplitz_deviation(upper) == pytest.approx(4.0 / 5.0, rel=1e-15, abs=0.0)
    partial = np.ones((3, 3))
    partial[1, 1] = -np.inf
    assert relative.toeplitz_deviation(partial) == math.inf
    assert relative.toeplitz_deviation(np.full((2, 2), -np.inf)) == 0.0


def test_learned_lookup_accepts_positions_zero_to_n_max_minus_one_only() -> None:
    """Rows 0 and n_max - 1 are looked up; n_max and -1 are refused, each naming its bound.

    Fault caught: ``>=`` made ``>`` (the row past the table read) or ``< 0`` made ``<= 0``."""
    table = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(relative.learned_lookup(table, [0, 3]), table[[0, 3]])
    np.testing.assert_array_equal(relative.learned_lookup(table, 3), table[[0, 1, 2]])
    with pytest.raises(ValueError, match=r"positions must be < n_max = 4 .*position 4\)"):
        relative.learned_lookup(table, [0, 4])
    with pytest.raises(ValueError, match=r"positions must be >= 0"):
        relative.learned_lookup(table, [-1, 0])
    with pytest.raises(ValueError, match=r"table must have shape \(n_max, d\), got \(4,\)"):
        relative.learned_lookup(np.ones(4), [0])


def test_shaw_scores_needs_exactly_2k_plus_1_relative_keys() -> None:
    """``relative_keys`` of shape (2K + 1, d) is accepted and gives q_i . (k_j + a_clip(j-i));
    2K or 2K + 2 rows, or another width, are refused.

    Fault caught: the row count's formula changed, or the offset shift ``+ clip`` moved."""
    rng = np.random.default_rng(3)
    n, d, clip = 5, 4, 2
    q, k = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    rel = rng.standard_normal((2 * clip + 1, d))
    expected = np.array(
        [
            [q[i] @ (k[j] + rel[min(max(j - i, -clip), clip) + clip]) for j in range(n)]
            for i in range(n)
        ]
    )
    np.testing.assert_allclose(relative.shaw_scores(q, k, rel, clip), expected, rtol=1e-13)
    for rows, width in ((2 * clip, d), (2 * clip + 2, d), (2 * clip + 1, d + 1)):
        with pytest.raises(ValueError, match=r"relative_keys must have shape \(5, 4\)"):
            relative.shaw_scores(q, k, np.ones((rows, width)), clip)
    with pytest.raises(ValueError, match=r"queries and keys must have one shape"):
        relative.shaw_scores(q, k[:-1], rel, clip)
    with pytest.raises(ValueError, match=r"queries and keys must have one shape"):
        relative.shaw_scores(q[0], k[0], rel, clip)


def test_shaw_offsets_clip_zero_is_accepted_and_clips_everything() -> None:
    """K = 0 (the smallest clip) gives all zeros; K = -1 is refused; K >= n - 1 clips nothing.

    Fault caught: the clip's minimum moved by one."""
    np.testing.assert_array_equal(relative.shaw_offsets(3, 0), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="clip"):
        relative.shaw_offsets(3, -1)
    expected = np.subtract.outer(np.arange(4), np.arange(4)).T
    np.testing.assert_array_equal(relative.shaw_offsets(4, 3), expected)
    np.testing.assert_array_equal(relative.shaw_offsets(4, 2), np.clip(expected, -2, 2))


def _t5_reference(r: int, bidirectional: bool, buckets: int, distance: int) -> int:
    """T5's bucket of one relative position, from the docstring's formula, in Python floats."""
    out = 0
    if bidirectional:
        buckets //= 2
        out = buckets if r > 0 else 0
        n = abs(r)
    else:
        n = max(-r, 0)
    exact = buckets // 2
    if n < exact:
        return out + n
    large = exact + int(math.log(n / exact) / math.log(distance / exact) * (buckets - exact))
    return out + min(large, buckets - 1)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("buckets", "distance"), [(4, 2), (8, 5), (32, 128), (6, 4)])
def test_t5_bucket_matches_the_formula_at_its_smallest_settings(
    bidirectional: bool, buckets: int, distance: int
) -> None:
    """Bucket by bucket, over every |r| up to 3 D, against the formula; the smallest
    ``num_buckets`` (4) and ``max_distance`` just above ``E`` are accepted.

    Fault caught: ``n < exact`` made ``<=``, the halving or the cap at B - 1 moved."""
    exact = (buckets // 2 if bidirectional else buckets) // 2
    if distance <= exact:
        distance = exact + 1
    rel = np.arange(-3 * distance, 3 * distance + 1)
    got = relative.t5_bucket(
        rel, bidirectional=bidirectional, num_buckets=buckets, max_distance=distance
    )
    expected = [_t5_reference(int(r), bidirectional, buckets, distance) for r in rel]
    assert got.tolist() == expected


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_bucket_max_distance_must_exceed_the_exact_range(bidirectional: bool) -> None:
    """``max_distance = E`` is refused, ``E + 1`` accepted (E = B // 4 bidirectional, B // 2
    causal); fewer than 4 buckets, or a distance below 2, are refused.

    Fault caught: ``distance <= exact`` made ``<`` (a log of 0 divides by zero)."""
    exact = 32 // 4 if bidirectional else 32 // 2
    rel = np.arange(-40, 41)
    with pytest.raises(ValueError, match=rf"max_distance must exceed .*got {exact}$"):
        relative.t5_bucket(rel, bidirectional=bidirectional, max_distance=exact)
    got = relative.t5_bucket(rel, bidirectional=bidirectional, max_distance=exact + 1)
    assert got.max() == (31 if bidirectional else 15) or not bidirectional
    with pytest.raises(ValueError, match="num_buckets"):
        relative.t5_bucket(rel, num_buckets=3, max_distance=10)
    with pytest.raises(ValueError, match="max_distance"):
        relative.t5_bucket(rel, num_buckets=4, max_distance=1)
    with pytest.raises(TypeError, match="must hold integers"):
        relative.t5_bucket(rel.astype(np.float64))


def test_t5_bucket_default_settings_are_the_documented_ones() -> None:
    """Defaults: bidirectional, 32 buckets, max distance 128, bucket by bucket against the
    formula over |r| <= 300, and the same for the properties' defaults.

    Fault caught: a default moved."""
    rel = np.arange(-300, 301)
    expected = [_t5_reference(int(r), True, 32, 128) for r in rel]
    assert relative.t5_bucket(rel).tolist() == expected
    assert relative.t5_bucket_properties() == relative.t5_bucket_properties(
        relative.t5_bucket, bidirectional=True, num_buckets=32, max_distance=128
    )


def test_t5_bias_is_the_table_at_each_bucket_of_j_minus_i() -> None:
    """Entry (i, j) of the bias is ``table[bucket(j - i)]`` with the table's size as B.

    Fault caught: the offset taken as i - j, or the table size not used as B."""
    table = np.arange(16.0) * 1.5
    n = 9
    got = relative.t5_bias(n, table, bidirectional=True, max_distance=6)
    for i in range(n):
        for j in range(n):
            assert got[i, j] == table[_t5_reference(j - i, True, 16, 6)]
    with pytest.raises(ValueError, match=r"table must be 1-D"):
        relative.t5_bias(3, np.ones((4, 4)))


def test_t5_bucket_properties_refuse_a_wrong_return_and_hold_at_the_smallest_settings() -> None:
    """The properties hold for T5's bucketing at 4 buckets (the smallest) both ways; a bucket
    function returning the wrong shape or floats is refused; a non-bool direction is a
    TypeError.

    Fault caught: the shape/dtype test made one-sided, the minimum of buckets moved."""
    assert relative.t5_bucket_properties(num_buckets=4, max_distance=2)[0]
    assert relative.t5_bucket_properties(bidirectional=False, num_buckets=4, max_distance=3)[0]

    def short(rel: npt.NDArray[np.int64], **kw: object) -> npt.NDArray[np.int64]:
        return relative.t5_bucket(rel, **kw)[:-1]  # type: ignore[arg-type]

    def floats(rel: npt.NDArray[np.int64], **kw: object) -> Float64Array:
        return relative.t5_bucket(rel, **kw).astype(np.float64)  # type: ignore[arg-type]

    bads: list[Callable[..., Any]] = [short, floats]
    for bad in bads:
        with pytest.raises(ValueError, match="one integer bucket per relative position"):
            relative.t5_bucket_properties(bad)
    with pytest.raises(TypeError, match="bidirectional must be a bool"):
        relative.t5_bucket_properties(bidirectional=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="num_buckets"):
        relative.t5_bucket_properties(num_buckets=3)
    with pytest.raises(ValueError, match="max_distance"):
        relative.t5_bucket_properties(max_distance=1)


def test_alibi_slopes_and_exponents_follow_the_rule_for_every_small_head_count() -> None:
    """For H = 1 .. 12: the first P slopes are 2^(-8h/P), the rest 2^(-4(2j-1)/P), from the
    docstring; the exact exponents give the same slopes.

    Fault caught: the power of two below H or the extra heads' formula changed."""
    for heads in range(1, 13):
        power = 2 ** (heads.bit_length() - 1)
        exponents = [8 * h / power for h in range(1, power + 1)]
        exponents += [4 * (2 * j - 1) / power for j in range(1, heads - power + 1)]
        expected = [2.0 ** (-e) for e in exponents]
        assert relative.alibi_slopes(heads).tolist() == pytest.approx(expected, rel=1e-15, abs=0.0)
        exact = relative.alibi_slope_exponents(heads)
        assert [float(e) for e in exact] == pytest.approx(exponents, rel=1e-15, abs=0.0)
    with pytest.raises(ValueError, match="n_heads"):
        relative.alibi_slopes(0)


def test_alibi_bias_is_minus_slope_times_distance_below_and_on_the_diagonal() -> None:
    """``-m (i - j)`` for j <= i (0 on the diagonal), ``-inf`` above; n = 1 accepted.

    Fault caught: ``distance >= 0`` made ``> 0`` (the diagonal masked)."""
    n, m = 4, 0.75
    got = relative.alibi_bias(n, m)
    for i in range(n):
        for j in range(n):
            assert got[i, j] == (-m * (i - j) if j <= i else -np.inf)
    assert relative.alibi_bias(1, m).tolist() == [[0.0]]


def test_causal_mean_attention_takes_one_value_and_refuses_none() -> None:
    """One value is its own mean (both ways); an empty or 2-D array is refused; causal means
    are the running means, non-causal the full mean everywhere.

    Fault caught: ``v.size == 0`` changed to refuse one value, or the running count off by one."""
    assert relative.causal_mean_attention([2.5]).tolist() == [2.5]
    assert relative.causal_mean_attention([2.5], causal=False).tolist() == [2.5]
    values = np.array([1.0, 3.0, 8.0, -4.0])
    running = [1.0, 2.0, 4.0, 2.0]
    assert relative.causal_mean_attention(values).tolist() == running
    assert relative.causal_mean_attention(values, causal=False).tolist() == [2.0] * 4
    for bad in (np.array([]), np.ones((2, 2))):
        with pytest.raises(ValueError, match="non-empty 1-D array"):
            relative.causal_mean_attention(bad)


def test_ntk_base_accepts_scale_one_and_width_four_and_refuses_just_below() -> None:
    """scale 1 keeps the base; scale just under 1 is refused; d = 4 is the smallest width
    (exponent d/(d-2) = 2), d = 2 refused.

    Fault caught: ``s < 1`` made ``<= 1``, ``width < 4`` made ``<= 4`` or ``< 2``."""
    assert relative.ntk_base(10000.0, 1.0, 8) == 10000.0
    assert relative.ntk_base(10000.0, 3.0, 4) == pytest.approx(10000.0 * 3.0**2, rel=1e-15, abs=0.0)
    assert relative.ntk_base(500.0, 2.0, 10) == pytest.approx(
        500.0 * 2.0 ** (10 / 8), rel=1e-15, abs=0.0
    )
    with pytest.raises(ValueError, match=r"scale must be >= 1"):
        relative.ntk_base(10000.0, math.nextafter(1.0, 0.0), 8)
    with pytest.raises(ValueError, match=r"d_model must be >= 4 for NTK scaling, got 2"):
        relative.ntk_base(10000.0, 2.0, 2)


def test_ntk_scaled_base_refuses_d_two_and_non_positive_arguments() -> None:
    """d = 2 (a division by zero) and 0 for b, s or d are refused, each by name; d = 3 and
    tiny positive values are accepted.

    Fault caught: a positivity test made ``< 0``, the d = 2 test dropped or moved."""
    assert relative.ntk_scaled_base(2.0, 4.0, 3) == pytest.approx(2.0 * 4.0**3, rel=1e-15, abs=0.0)
    with pytest.raises(ValueError, match="d must not be 2"):
        relative.ntk_scaled_base(2.0, 4.0, 2)
    for name, args in (("b", (0, 2, 4)), ("s", (2, 0, 4)), ("d", (2, 2, 0))):
        with pytest.raises(ValueError, match=rf"^{name} must be > 0, got 0"):
            relative.ntk_scaled_base(*args)
    assert relative.ntk_scaled_base(1e-3, 1e-3, 4) == pytest.approx(1e-9, rel=1e-12, abs=0.0)


def test_interpolated_end_refuses_scale_zero_and_accepts_a_tiny_one() -> None:
    """L - 1/s for s > 0; s = 0 and s < 0 refused.

    Fault caught: the positivity test loosened or the sign of 1/s flipped."""
    assert relative.interpolated_end(10, 4.0) == 9.75
    assert relative.interpolated_end(10, 0.5) == 8.0
    for bad in (0, -1.0):
        with pytest.raises(ValueError, match="scale must be > 0"):
            relative.interpolated_end(10, bad)


def test_extension_reach_at_its_smallest_settings_matches_the_formula() -> None:
    """scale 1 and trained = 2 are accepted; scale just under 1 and trained = 1 refused; the
    excess of position interpolation is (sL - 1)/(s(L - 1)) - 1 for every pair.

    Fault caught: ``s < 1`` made ``<= 1``, the trained minimum moved, ``>= 2 pi`` made ``>``."""
    for scale, trained in ((1.0, 2), (2.0, 5), (3.0, 4)):
        reach = relative.extension_reach(relative.position_interpolation, 8, trained, scale)
        expected = (round(scale * trained) - 1) / (scale * (trained - 1)) - 1
        np.testing.assert_allclose(reach.excess, expected, rtol=0, atol=1e-15)
        omega = 10000.0 ** (-np.arange(0, 8, 2) / 8)
        assert reach.turns.tolist() == ((trained - 1) * omega >= 2 * math.pi).tolist()
    with pytest.raises(ValueError, match=r"scale must be >= 1"):
        relative.extension_reach(relative.position_interpolation, 8, 4, math.nextafter(1.0, 0))
    with pytest.raises(ValueError, match="trained"):
        relative.extension_reach(relative.position_interpolation, 8, 1, 2.0)


def test_extension_reach_unseen_needs_both_an_excess_and_no_full_turn() -> None:
    """A pair is unseen when its excess is > 0 (not at 0) and it never turns.

    Fault caught: ``excess > 0`` made ``>= 0``, or the turn test ignored."""
    reach = relative.ExtensionReach(
        np.array([0.0, 1e-300, 0.5, 0.5, -1.0]), np.array([False, False, True, False, False])
    )
    assert reach.unseen.tolist() == [1, 3]


# ---------------------------------------------------------------------------------------------
# pe.rotary


def _paper_omega(d: int, base: float = 10000.0) -> Float64Array:
    """The frequencies base^(-2i/d), written out."""
    return np.asarray(base ** (-np.arange(0, d, 2) / d), dtype=np.float64)


def test_rope_angles_scale_must_be_positive_and_divides_the_positions() -> None:
    """A tiny positive scale is accepted, 0 and a negative one refused; angles are (p/s) w_i.

    Fault caught: ``s <= 0`` made ``< 0`` (a division by zero let through)."""
    got = rotary.rope_angles(np.array([0.0, 3.0, -5.0]), 6, scale=2.5)
    np.testing.assert_allclose(
        got, np.outer(np.array([0.0, 3.0, -5.0]) / 2.5, _paper_omega(6)), rtol=1e-15
    )
    assert np.all(np.isfinite(rotary.rope_angles(3, 4, scale=1e-300)))
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match=r"scale must be > 0"):
            rotary.rope_angles(3, 4, scale=bad)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_float16_angles_accept_65504_and_refuse_the_next_integer(sign: float) -> None:
    """|p| = 65504 (the largest float16) is accepted with float16 angles, 65505 refused; the
    limit does not apply to float32 angles.

    Fault caught: ``> MAX_FLOAT16`` made ``>=``, or the absolute value dropped."""
    got = rotary.rope_angles(np.array([sign * 65504.0]), 4, angle_dtype=np.float16)
    expected = (np.float16(sign * 65504.0) * _paper_omega(4).astype(np.float16)).astype(np.float64)
    np.testing.assert_array_equal(got[0], expected)
    with pytest.raises(ValueError, match=r"within \+-65504 for float16"):
        rotary.rope_angles(np.array([0.0, sign * 65505.0]), 4, angle_dtype=np.float16)
    assert rotary.rope_angles(np.array([sign * 65505.0]), 4, angle_dtype=np.float32).shape == (1, 2)


def test_rope_angles_in_float32_round_the_position_the_scale_and_the_product() -> None:
    """With float32 angles and a scale, each step is rounded to float32 as documented:
    p -> float32, p / s in float32, times float32 w_i, rounded.

    Fault caught: the ``s != 1`` branch skipped or taken for s = 1."""
    ps = np.array([1.0, 7.0, 1000.0, 12345.0])
    for s in (1.0, 3.0):
        p = ps.astype(np.float32)
        if s != 1.0:
            p = (p / np.float32(s)).astype(np.float32)
        expected = np.multiply.outer(p, _paper_omega(8).astype(np.float32)).astype(np.float32)
        got = rotary.rope_angles(ps, 8, scale=s, angle_dtype=np.float32)
        np.testing.assert_array_equal(got, expected.astype(np.float64))


def test_rope_needs_one_position_per_row_and_a_matrix() -> None:
    """n rows need n positions: n - 1 and n + 1 refused; a vector refused; both pairings
    rotate the documented pairs.

    Fault caught: the row count compared with ``<`` or ``>`` only, ``ndim < 2`` made ``<= 2``."""
    x = np.arange(12.0).reshape(3, 4)
    for count in (2, 4):
        with pytest.raises(ValueError, match=rf"{count} positions, 3 rows"):
            rotary.rope(x, np.arange(count))
    with pytest.raises(ValueError, match=r"x must have shape \(\.\.\., n, d\)"):
        rotary.rope(np.ones(4), 1)
    theta = np.outer(np.arange(3.0), _paper_omega(4))
    c, s = np.cos(theta), np.sin(theta)
    adjacent = np.empty_like(x)
    adjacent[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s
    adjacent[:, 1::2] = x[:, 1::2] * c + x[:, 0::2] * s
    np.testing.assert_allclose(rotary.rope(x, 3), adjacent, rtol=1e-14, atol=1e-14)
    halves = np.concatenate([x[:, :2] * c - x[:, 2:] * s, x[:, 2:] * c + x[:, :2] * s], axis=1)
    np.testing.assert_allclose(rotary.rope(x, 3, pairing="halves"), halves, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(rotary.rope_complex(x, 3), adjacent, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(
        rotary.rope_complex(x, 3, pairing="halves"), halves, rtol=1e-14, atol=1e-14
    )
    # a batch axis: the same rotation on each
    batch = rotary.rope(np.stack([x, 2 * x]), 3)
    np.testing.assert_allclose(batch[1], 2 * adjacent, rtol=1e-14, atol=1e-14)
    with pytest.raises(ValueError, match=r"2 positions, x of shape \(3, 4\)"):
        rotary.rope_complex(x, 2)


def test_pairing_must_be_one_of_two_strings() -> None:
    """'adjacent' and 'halves' are accepted; another string is a ValueError, a non-string a
    TypeError, both naming the pairing.

    Fault caught: the exception types swapped or the membership test inverted."""
    assert rotary.pair_columns(6, "adjacent") == [(0, 1), (2, 3), (4, 5)]
    assert rotary.pair_columns(6, "halves") == [(0, 3), (1, 4), (2, 5)]
    with pytest.raises(ValueError, match="pairing must be 'adjacent' or 'halves'"):
        rotary.pair_columns(6, "interleaved")
    with pytest.raises(TypeError, match="pairing must be 'adjacent' or 'halves'"):
        rotary.pair_columns(6, 1)  # type: ignore[arg-type]
    assert rotary.pairing_permutation(6).tolist() == [0, 2, 4, 1, 3, 5]


def test_rope_scores_need_vectors_of_one_length_and_paired_positions() -> None:
    """q and k of different lengths, or matrices, and position lists of different lengths are
    refused; the scores are <R_m q, R_n k> from the rotation written out.

    Fault caught: a shape test made one-sided."""
    q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.7, 2.0, 1.0])
    ms, ns = np.array([0.0, 3.0, 10.0]), np.array([2.0, 3.0, -4.0])
    omega = _paper_omega(4)

    def turn(v: Float64Array, p: float) -> Float64Array:
        a, b = v[0::2], v[1::2]
        out = np.empty(4)
        out[0::2] = a * np.cos(p * omega) - b * np.sin(p * omega)
        out[1::2] = b * np.cos(p * omega) + a * np.sin(p * omega)
        return out

    expected = [turn(q, m) @ turn(k, n) for m, n in zip(ms, ns, strict=True)]
    np.testing.assert_allclose(rotary.rope_scores(q, k, ms, ns), expected, rtol=1e-13)
    with pytest.raises(ValueError, match="q and k must be vectors of one length"):
        rotary.rope_scores(q, k[:2], ms, ns)
    with pytest.raises(ValueError, match="q and k must be vectors of one length"):
        rotary.rope_scores(np.ones((2, 4)), np.ones((2, 4)), ms, ns)
    with pytest.raises(ValueError, match="must have the same length"):
        rotary.rope_scores(q, k, ms, ns[:2])


def test_abel_bound_and_rounding_check_their_vectors() -> None:
    """The bound holds the scores (up to :func:`rotary.abel_rounding`); vectors of different
    lengths, matrices, odd widths and non-finite ones are refused; the rounding is
    2 gamma_{d+4} sum |h_i|.

    Fault caught: a shape or finiteness test inverted, the rounding's length moved."""
    q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.7, 2.0, 1.0])
    bound, scores = rotary.abel_bound(q, k, np.arange(-20, 21))
    assert np.all(np.abs(scores) - bound <= rotary.abel_rounding(q, k))
    h = np.abs((q[0::2] + 1j * q[1::2]) * (k[0::2] + 1j * k[1::2]))
    u = np.finfo(np.float64).eps / 2
    gamma = 8 * u / (1 - 8 * u)
    assert rotary.abel_rounding(q, k) == pytest.approx(2 * gamma * h.sum(), rel=1e-14, abs=0.0)
    for f in (rotary.abel_rounding, lambda a, b: rotary.abel_bound(a, b, [0])):
        with pytest.raises(ValueError, match="q and k must be vectors of one length"):
            f(q, k[:2])
        with pytest.raises(ValueError, match="q and k must be vectors of one length"):
            f(np.ones((2, 4)), np.ones((2, 4)))
        with pytest.raises(ValueError, match="even"):
            f(np.ones(3), np.ones(3))
    for bad in (np.inf, np.nan):
        with pytest.raises(ValueError, match="q and k must be finite"):
            rotary.abel_rounding(np.array([1.0, bad]), np.ones(2))
        with pytest.raises(ValueError, match="q and k must be finite"):
            rotary.abel_rounding(np.ones(2), np.array([bad, 1.0]))


def test_read_rope_code_needs_two_square_maps_one_per_position() -> None:
    """Two maps are the fewest accepted; one is refused; a non-square or ragged map, a
    non-finite one, or a position count other than the map count is refused.

    Fault caught: ``len(maps) < 2`` made ``<= 2``, a shape test made one-sided."""
    maps: list[Any] = [rotary.rope(np.eye(4), np.full(4, float(p))).T for p in (0, 1)]
    assert rotary.read_rope_code(maps, [0, 1]) == rotary.RopeCode("adjacent", 4, 1, 0)
    with pytest.raises(ValueError, match="at least two positions, got 1"):
        rotary.read_rope_code(maps[:1], [0])
    with pytest.raises(ValueError, match=r"maps\[1\] must be a square matrix"):
        rotary.read_rope_code([maps[0], np.ones((4, 3))], [0, 1])
    with pytest.raises(ValueError, match=r"maps\[1\] must be a square matrix"):
        rotary.read_rope_code([maps[0], np.eye(2)], [0, 1])
    with pytest.raises(ValueError, match=r"maps\[0\] must be a square matrix"):
        rotary.read_rope_code([np.ones((3, 4)), np.ones((3, 4))], [0, 1])
    for empty in ([np.zeros((0, 0))] * 2, [np.ones(4), np.ones(4)]):
        with pytest.raises(ValueError, match=r"maps\[0\] must be a square matrix"):
            rotary.read_rope_code(empty, [0, 1])
    small: list[Any] = [rotary.rope(np.eye(2), np.full(2, float(p))).T for p in (0, 1)]
    assert rotary.read_rope_code(small, [0, 1]) == rotary.RopeCode("adjacent", 2, 1, 0)
    bad = maps[1].copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"maps\[1\] must be finite"):
        rotary.read_rope_code([maps[0], bad], [0, 1])
    with pytest.raises(ValueError, match="one position per map: 3 for 2"):
        rotary.read_rope_code(maps, [0, 1, 2])


def test_read_rope_code_reads_halves_partial_width_negative_sign_and_first_position() -> None:
    """Halves pairing over the first 4 of 6 columns, turning the other way, identity at
    position 2 (read from the map at 3); no identity gives first = -1.

    Fault caught: the first + 1 lookup, the rotated count or the sign read wrongly."""

    def halves_map(p: float, sign: float) -> Float64Array:
        m = np.eye(6)
        for i, w in enumerate(_paper_omega(4)):
            c, s = np.cos(p * w), sign * np.sin(p * w)
            a, b = i, i + 2
            m[a, a], m[b, a], m[a, b], m[b, b] = c, s, -s, c
        return m

    maps = [halves_map(p - 2.0, -1.0) for p in (5, 2, 3)]
    assert rotary.read_rope_code(maps, [5, 2, 3]) == rotary.RopeCode("halves", 4, -1, 2)
    shifted = [halves_map(p + 1.0, 1.0) for p in (0, 1)]
    assert rotary.read_rope_code(shifted, [0, 1]) == rotary.RopeCode("halves", 4, 1, -1)


def test_conversion_gap_refuses_a_wrong_return() -> None:
    """A conversion must return two real (d, d) matrices: one matrix, a triple, wrong shapes
    or integers are refused; the correct conversion's gap is within its tolerance.

    Fault caught: the tuple-length test or a shape/dtype test inverted."""
    found = rotary.conversion_gap(rotary.permute_both, 8)
    assert found.gap <= found.tolerance
    not_pairs: list[Any] = [lambda p, q, k: p(q), lambda p, q, k: (p(q), p(k), q)]
    for convert in not_pairs:
        with pytest.raises(TypeError, match="the two converted matrices"):
            rotary.conversion_gap(convert, 8)
    wrong: list[Any] = [
        lambda p, q, k: (np.ones((8, 7)), p(k)),
        lambda p, q, k: (p(q), np.ones((7, 8))),
        lambda p, q, k: (np.ones((8, 8), dtype=np.int64), p(k)),
        lambda p, q, k: (p(q), np.ones((8, 8), dtype=np.int64)),
    ]
    for convert in wrong:
        with pytest.raises(ValueError, match=r"two real \(8, 8\) matrices"):
            rotary.conversion_gap(convert, 8)


# ---------------------------------------------------------------------------------------------
# pe.rope_scaling


def test_llama3_factors_need_zero_below_low_below_high() -> None:
    """0 < l < h: l = 0, l = h, l > h are refused; a tiny l accepted; factor 1 accepted and
    just under refused.

    Fault caught: the chained comparison loosened, ``s < 1`` made ``<= 1``."""
    for low, high in ((0.0, 4.0), (4.0, 4.0), (5.0, 4.0), (-1.0, 4.0)):
        with pytest.raises(ValueError, match="need 0 < low_freq_factor < high_freq_factor"):
            rope_scaling.llama3_frequencies(
                8, base=10000.0, low_freq_factor=low, high_freq_factor=high
            )
    w = _paper_omega(8)
    got = rope_scaling.llama3_frequencies(8, base=10000.0, factor=1.0)
    np.testing.assert_allclose(got, w, rtol=1e-15)
    with pytest.raises(ValueError, match="factor must be >= 1"):
        rope_scaling.llama3_frequencies(8, base=10000.0, factor=math.nextafter(1.0, 0.0))


def _llama3_reference(
    w: Float64Array, s: float, low: float, high: float, length: int
) -> list[float]:
    """Meta's rule pair by pair, from the docstring's cases."""
    out = []
    for omega in w.tolist():
        lam = 2 * math.pi / omega
        if lam < length / high:
            out.append(omega)
        elif lam > length / low:
            out.append(omega / s)
        else:
            t = (length / lam - low) / (high - low)
            out.append((1 - t) * omega / s + t * omega)
    return out


def test_llama3_frequencies_at_the_wavelength_edges() -> None:
    """Pair by pair against the docstring's three cases, for several L, l, h (pairs on both
    sides of L/h and L/l), and one pair just above L/h blended.

    Fault caught: ``<`` made ``<=`` or ``>`` made ``>=`` at the edges, the blend's t wrong."""
    w = _paper_omega(16, 500000.0)
    for length, low, high in ((8192, 1.0, 4.0), (64, 1.0, 4.0), (4096, 2.0, 8.0)):
        got = rope_scaling.llama3_frequencies(
            16,
            base=500000.0,
            factor=8.0,
            low_freq_factor=low,
            high_freq_factor=high,
            original_positions=length,
        )
        np.testing.assert_allclose(got, _llama3_reference(w, 8.0, low, high, length), rtol=1e-14)
    # pair 0 (wavelength 2 pi) just above L/h = 6.25 with L = 25: blended, t near 1
    got = rope_scaling.llama3_frequencies(2, base=10000.0, factor=4.0, original_positions=25)
    lam = 2 * math.pi
    t = (25 / lam - 1.0) / 3.0
    assert got[0] == pytest.approx((1 - t) / 4.0 + t, rel=1e-15, abs=0.0)


def test_yarn_frequencies_ramp_and_gain() -> None:
    """The ramp from floor c(beta_f) to ceil c(beta_s) of the docstring, pair by pair; the
    gain is 1 at s = 1 and 0.1 ln s + 1 above.

    Fault caught: floor/ceil or the clipping to 0 .. d - 1 changed; ``s <= 1`` made ``< 1``."""
    # the last case: L = 6 < 2 pi, both ends of the ramp at pair 0 (an empty ramp, 0.001 wide)
    cases = (
        (64, 2048, 10000.0, 4.0),
        (16, 512, 500.0, 2.0),
        (8, 64, 10.0, 3.0),
        (8, 6, 10000.0, 2.0),
    )
    for d, length, base, s in cases:
        w = _paper_omega(d, base)

        def c(beta: float, d: int = d, length: int = length, base: float = base) -> float:
            return d * math.log(length / (2 * math.pi * beta)) / (2 * math.log(base))

        lo, hi = max(math.floor(c(32.0)), 0), min(math.ceil(c(1.0)), d - 1)
        span = hi - lo if hi != lo else 0.001
        assert (hi == lo) == (length == 6)
        rho = np.clip((np.arange(d // 2) - lo) / span, 0.0, 1.0)
        got = rope_scaling.yarn_frequencies(d, base=base, factor=s, original_positions=length)
        np.testing.assert_allclose(got, (1 - rho) * w + rho * w / s, rtol=1e-15)
    assert rope_scaling.yarn_gain(1.0) == 1.0
    assert rope_scaling.yarn_gain(0.5) == 1.0
    assert rope_scaling.yarn_gain(math.e) == pytest.approx(1.1, rel=1e-15, abs=0.0)


def test_rotate_halves_turns_x_i_with_x_i_plus_half_by_p_omega_times_gain() -> None:
    """The rotary function of given frequencies: halves pairing, gain on cos and sin.

    Fault caught: a pair's partner or the gain misplaced."""
    w = np.array([0.5, 2.0])
    fn = rope_scaling.rotate_halves(w, gain=1.5)
    x = np.array([[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0]])
    ps = np.array([3.0, -1.0])
    theta = np.outer(ps, w)
    c, s = 1.5 * np.cos(theta), 1.5 * np.sin(theta)
    expected = np.concatenate([x[:, :2] * c - x[:, 2:] * s, x[:, 2:] * c + x[:, :2] * s], axis=1)
    np.testing.assert_allclose(fn(x, ps), expected, rtol=1e-15)


# ---------------------------------------------------------------------------------------------
# pe.position_scores


def test_largest_rise_takes_two_values_and_refuses_one() -> None:
    """Two values (the fewest) give their difference; one value, 2-D input, or a non-finite
    value is refused.

    Fault caught: ``v.size < 2`` made ``<= 2``, the finiteness test dropped."""
    assert position_scores.largest_rise([1.0, 3.5]) == 2.5
    assert position_scores.largest_rise([3.5, 1.0]) == -2.5
    assert position_scores.largest_rise([5.0, 1.0, 4.0, 0.0, 2.5]) == 3.0
    for bad in ([1.0], [[1.0, 2.0], [3.0, 4.0]]):
        with pytest.raises(ValueError, match="at least two values"):
            position_scores.largest_rise(bad)
    for value in (np.inf, np.nan):
        with pytest.raises(ValueError, match="values must be finite"):
            position_scores.largest_rise([1.0, value, 2.0])


def test_first_rise_is_the_first_strict_increase() -> None:
    """An equal step is not a rise; the first strict increase is reported; none gives None.

    Fault caught: ``> 0`` made ``>= 0``."""
    assert position_scores.first_rise([2.0, 2.0, 1.0, 1.5]) == 2
    assert position_scores.first_rise([2.0, 2.0, 2.0]) is None
    assert position_scores.first_rise([1.0, 2.0]) == 0
    assert position_scores.first_rise([1.0]) is None


def test_offset_spread_skips_only_the_two_corner_diagonals() -> None:
    """The corners (diagonals of one entry) have no range; every diagonal of two or more
    entries, the ones next to the corners included, is measured.

    Fault caught: the diagonal range moved by one (a diagonal of two entries skipped)."""
    for n in (3, 4, 6):
        for k in (n - 2, -(n - 2), 0):
            m = np.zeros((n, n))
            first = (0, k) if k >= 0 else (-k, 0)
            m[first] = 3.0
            spread, scale = position_scores.offset_spread(m)
            assert spread == 3.0
            assert scale == pytest.approx(float(np.std(m)), rel=1e-15, abs=0.0)
        corner = np.zeros((n, n))
        corner[0, n - 1], corner[n - 1, 0] = 5.0, -7.0
        assert position_scores.offset_spread(corner)[0] == 0.0


def test_projected_scores_check_their_arguments() -> None:
    """W_q square of even width, W_k its shape, both finite, positions paired, a generator:
    each departure refused by name; integer positions for the additive scores.

    Fault caught: a check dropped, inverted or made one-sided."""
    rng = np.random.default_rng(0)
    w = np.eye(4)
    ms, ns = np.arange(3), np.arange(3) + 1
    for f in (position_scores.additive_scores, position_scores.rope_after_projection):
        with pytest.raises(ValueError, match=r"w_q must be a square matrix"):
            f(np.ones((4, 2)), w, ms, ns, rng)
        with pytest.raises(ValueError, match=r"w_q must be a square matrix"):
            f(np.ones((2, 4)), w, ms, ns, rng)
        with pytest.raises(ValueError, match=r"even"):
            f(np.eye(3), np.eye(3), ms, ns, rng)
        with pytest.raises(ValueError, match=r"w_k must have the shape of w_q"):
            f(w, np.eye(6), ms, ns, rng)
        with_inf, with_nan = w.copy(), w.copy()
        with_inf[1, 2], with_nan[3, 0] = np.inf, np.nan
        for name, args in (("w_q", (with_inf, w)), ("w_k", (w, with_nan))):
            with pytest.raises(ValueError, match=rf"{name} must be finite"):
                f(*args, ms, ns, rng)
        with pytest.raises(ValueError, match=r"ms and ns must pair up, got 3 and 2"):
            f(w, w, ms, ns[:2], rng)
        with pytest.raises(TypeError, match=r"rng must be a numpy.random.Generator"):
            f(w, w, ms, ns, 0)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="ms"):
        position_scores.additive_scores(w, w, ms + 0.5, ns, rng)
    real = position_scores.rope_after_projection(w, w, ms + 0.5, ns + 0.5, rng)
    assert real.shape == (3,)


def test_additive_scores_are_projected_sinusoid_dot_products() -> None:
    """<W_q PE(m), W_k PE(n)> with the interleaved sinusoid of signed positions.

    Fault caught: the query and key tables swapped or split at the wrong row."""
    rng = np.random.default_rng(4)
    wq, wk = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    ms, ns = np.array([0, -3, 7]), np.array([5, 2, -1])

    def pe(p: int) -> Float64Array:
        out = np.empty(4)
        out[0::2], out[1::2] = np.sin(p * _paper_omega(4)), np.cos(p * _paper_omega(4))
        return out

    expected = [(wq @ pe(m)) @ (wk @ pe(n)) for m, n in zip(ms, ns, strict=True)]
    got = position_scores.additive_scores(wq, wk, ms, ns, np.random.default_rng(0))
    np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_offset_spreads_refuses_a_candidate_of_the_wrong_shape_or_kind() -> None:
    """One real score per pair is required: one too few, a 2-D answer or strings are refused.

    Fault caught: the shape or dtype test inverted."""

    def short(wq: Float64Array, wk: Float64Array, ms: Any, ns: Any, rng: Any) -> Float64Array:
        return np.zeros(np.size(ms) - 1)

    def text(wq: Float64Array, wk: Float64Array, ms: Any, ns: Any, rng: Any) -> Any:
        return np.full(np.shape(ms), "a")

    bads: list[Any] = [short, text]
    for bad in bads:
        with pytest.raises(ValueError, match="one real score per pair"):
            position_scores.offset_spreads(bad, 4)
    assert position_scores.offset_spreads(_zeros_candidate, 4) == [0.0, 0.0, 0.0]


def test_content_gap_needs_a_pair() -> None:
    """Two numbers are accepted; one or three, a string or a number refused.

    Fault caught: ``len != 2`` loosened."""
    assert position_scores.content_gap((0, 0)) == 0
    for bad in ((1,), (1, 2, 3)):
        with pytest.raises(ValueError, match="content must be a pair"):
            position_scores.content_gap(bad)  # type: ignore[arg-type]
    for wrong in ("ab", 3):
        with pytest.raises(TypeError, match="content must be a pair"):
            position_scores.content_gap(wrong)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# pe.geometry


def test_symmetry_gap_accepts_max_offset_two_and_position_plus_one() -> None:
    """max_offset = 2 (k = 1 only) is the smallest accepted, 1 refused; max_offset may be
    p + 1 (row 0 reached) but not p + 2; the gap with nothing between is rounding level.

    Fault caught: the minimum of max_offset moved, ``reach > p + 1`` made ``>=``."""
    assert geometry.symmetry_gap(8, 5, 2) < 1e-15
    with pytest.raises(ValueError, match="max_offset"):
        geometry.symmetry_gap(8, 5, 1)
    assert geometry.symmetry_gap(8, 5, 6) < 1e-14
    with pytest.raises(ValueError, match=r"max_offset must be <= position \+ 1 .*got 7"):
        geometry.symmetry_gap(8, 5, 7)
    # with one step between: PE(p).T_1 PE(p+1) vs PE(p).T_1 PE(p-1), from the definition
    p = 5
    omega = _paper_omega(8)

    def pe(x: int) -> Float64Array:
        out = np.empty(8)
        out[0::2], out[1::2] = np.sin(x * omega), np.cos(x * omega)
        return out

    t1 = np.zeros((8, 8))
    for i, w in enumerate(omega):
        c, s = math.cos(w), math.sin(w)
        t1[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    expected = abs(pe(p) @ t1 @ pe(p + 1) - pe(p) @ t1 @ pe(p - 1))
    assert geometry.symmetry_gap(8, p, 2, between=1) == pytest.approx(expected, rel=1e-12, abs=0.0)


def test_nearest_rows_needs_two_positions() -> None:
    """n = 2 (one offset) is accepted and gives the neighbour distance; n = 1 is refused.

    Fault caught: ``n < 2`` made ``<= 2``."""
    k, distance = geometry.nearest_rows(2, 4)
    assert k == 1
    assert distance == pytest.approx(
        math.sqrt(float(np.sum(2 - 2 * np.cos(_paper_omega(4))))), rel=1e-14, abs=0.0
    )
    with pytest.raises(ValueError, match="n_positions must be >= 2"):
        geometry.nearest_rows(1, 4)
    k2, d2 = geometry.nearest_rows(3, 2, frequencies=[2 * math.pi / 2])
    assert k2 == 2
    assert d2 == pytest.approx(0.0, abs=1e-15)


def test_closest_rows_needs_two_rows_of_a_matrix() -> None:
    """Two rows are accepted; one row or a vector refused; the pair found is the closest.

    Fault caught: ``count < 2`` made ``<= 2`` or the ``ndim`` test dropped."""
    assert geometry.closest_rows([[0.0, 0.0], [3.0, 4.0]]) == (0, 1, 5.0)
    assert geometry.closest_rows([[0.0, 0.0], [3.0, 4.0], [3.0, 5.0]]) == (1, 2, 1.0)
    for bad in ([[1.0, 2.0]], [1.0, 2.0, 3.0]):
        with pytest.raises(ValueError, match="at least two rows"):
            geometry.closest_rows(bad)


def test_pair_shift_ratio_offsets_must_stay_below_the_positions() -> None:
    """k = n - 1 is accepted, k = n refused, k = 0 refused; the true frequencies stay at or
    below 1 and a wrong law's blocks return a wrong length refused.

    Fault caught: ``>= count`` made ``>``, the offsets' minimum moved."""
    assert geometry.pair_shift_ratio(8, 6, (1, 5), rotary_frequencies) <= 1.0
    with pytest.raises(ValueError, match=r"offsets\[1\] must be < n_positions = 6, got 6"):
        geometry.pair_shift_ratio(8, 6, (1, 6), rotary_frequencies)
    with pytest.raises(ValueError, match=r"offsets\[0\]"):
        geometry.pair_shift_ratio(8, 6, (0,), rotary_frequencies)
    with pytest.raises(ValueError, match=r"d_model / 2 frequencies"):
        geometry.pair_shift_ratio(8, 6, (1,), np.ones)
    assert geometry.pair_shift_ratio(8, 6, (1,), lambda d: 1.01 * rotary_frequencies(d)) > 1.0


def test_row_distances_and_pair_distances_follow_their_formulas() -> None:
    """sqrt(sum 2 - 2 cos w_i k) and 2|sin(w k / 2)| per offset, both forms, with the
    paper's frequencies at a non-default base.

    Fault caught: the width or the half angle misused."""
    ks = np.arange(-3, 9)
    w = _paper_omega(6, 100.0)
    expected = np.sqrt(np.sum(2 - 2 * np.cos(np.outer(ks, w)), axis=1))
    got = geometry.row_distance_by_offset(ks, 6, base=100.0)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    chord = geometry.row_distance_by_offset(ks, 6, base=100.0, chord=True)
    np.testing.assert_allclose(chord, expected, rtol=1e-12, atol=1e-15)
    pairs = geometry.pair_distances(w, 5)
    np.testing.assert_allclose(
        pairs, 2 * np.abs(np.sin(np.outer(np.arange(1, 5), w) / 2)), rtol=1e-15
    )
    for bad in ([], [[1.0]], [1.0, np.inf]):
        with pytest.raises(ValueError, match="omega"):
            geometry.pair_distances(bad, 5)


def test_norm_error_per_dimension_zero_is_accepted_and_negative_refused() -> None:
    """c = 0 gives the norms themselves (sqrt(d/2)); c < 0 is refused.

    Fault caught: ``< 0`` made ``<= 0``."""
    assert geometry.norm_error((8,), [0, 5], 0.0) == pytest.approx(2.0, rel=1e-14, abs=0.0)
    with pytest.raises(ValueError, match="per_dimension must be >= 0"):
        geometry.norm_error((8,), [0], -1e-300)


def test_rows_distance_past_needs_a_horizon_of_1000() -> None:
    """horizon = 999 is refused; frequencies of the wrong shape are refused.

    Fault caught: the horizon's minimum moved, the shape test dropped."""
    with pytest.raises(ValueError, match="horizon"):
        geometry.rows_distance_past(8, horizon=999)
    with pytest.raises(ValueError, match=r"frequencies must have shape \(4,\)"):
        geometry.rows_distance_past(8, horizon=1000, frequencies=np.ones(3))


# ---------------------------------------------------------------------------------------------
# pe.attention


def test_reference_attention_is_capped_at_its_operation_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """n^2 d + n d^2 products at exactly REFERENCE_OPERATIONS are accepted, one more refused.

    Fault caught: ``>`` made ``>=``, a term of the count changed."""
    rng = np.random.default_rng(0)
    n, d = 3, 2
    x, w = rng.standard_normal((n, d)), attention.AttentionWeights.gaussian(rng, d)
    monkeypatch.setattr(attention, "REFERENCE_OPERATIONS", n * n * d + n * d * d)
    assert attention.reference_attention(x, w).shape == (n, d)
    monkeypatch.setattr(attention, "REFERENCE_OPERATIONS", n * n * d + n * d * d - 1)
    with pytest.raises(ValueError, match=rf"would take {n * n * d + n * d * d} multiple"):
        attention.reference_attention(x, w)


def test_attention_row_index_runs_from_zero_to_n_minus_one() -> None:
    """Rows 0 and n - 1 equal the rows of the full attention; n and -1 are refused.

    Fault caught: ``index >= n`` made ``>``."""
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((3, 4)), attention.AttentionWeights.gaussian(rng, 4)
    full = attention.attention(x, w)
    for i in (0, 2):
        np.testing.assert_allclose(attention.attention_row(x, w, i), full[i], rtol=1e-13)
    with pytest.raises(ValueError, match="i must be < n = 3, got 3"):
        attention.attention_row(x, w, 3)
    with pytest.raises(ValueError, match="i"):
        attention.attention_row(x, w, -1)


def test_check_equivariance_needs_two_tokens() -> None:
    """n = 2 is the smallest accepted (and passes); n = 1 is refused.

    Fault caught: the minimum of n moved."""
    assert attention.check_equivariance(n=2, d_model=4).passed
    with pytest.raises(ValueError, match="n"):
        attention.check_equivariance(n=1, d_model=4)


def test_attention_inputs_are_checked_by_name() -> None:
    """x must be a non-empty finite real matrix; weights of another width refused, naming
    which; an encoding's rows must broadcast to (n, d) and be finite reals.

    Fault caught: a check inverted or naming the wrong projection."""
    rng = np.random.default_rng(2)
    w = attention.AttentionWeights.gaussian(rng, 4)
    for bad in (np.ones(4), np.ones((0, 4)), np.array([["a"]])):
        with pytest.raises(ValueError, match="x must be a non-empty real 2-D array"):
            attention.attention(bad, w)
    with pytest.raises(ValueError, match="x must be finite"):
        attention.attention(np.full((2, 4), np.nan), w)
    for name in ("w_q", "w_k", "w_v"):
        parts = {"w_q": w.w_q, "w_k": w.w_k, "w_v": w.w_v, name: np.eye(3)}
        with pytest.raises(ValueError, match=rf"weights\.{name} must be \(4, 4\)"):
            attention.attention(np.ones((2, 4)), attention.AttentionWeights(**parts))
    vocabulary = {"a": np.ones(4), "b": np.zeros(4)}
    wide = attention.Encoding("too wide", lambda n, d: np.zeros((n, d + 1)))
    with pytest.raises(ValueError, match=r"encoding.rows must broadcast to \(2, 4\)"):
        attention.sentence_matrix(("a", "b"), vocabulary, wide)
    row = attention.Encoding("one row", lambda n, d: np.ones((1, d)))
    np.testing.assert_array_equal(
        attention.sentence_matrix(("a", "b"), vocabulary, row), [[2.0] * 4, [1.0] * 4]
    )
    inf = attention.Encoding("inf", lambda n, d: np.full((n, d), np.inf))
    with pytest.raises(ValueError, match=r"encoding\.rows must be finite"):
        attention.sentence_matrix(("a", "b"), vocabulary, inf)
    text = attention.Encoding("text", lambda n, d: np.full((n, d), "x"))
    with pytest.raises(TypeError, match=r"encoding\.rows must return real numbers"):
        attention.sentence_matrix(("a", "b"), vocabulary, text)
    with pytest.raises(ValueError, match="words not in the vocabulary: c"):
        attention.sentence_matrix(("a", "c"), vocabulary)
    with pytest.raises(ValueError, match="non-empty vectors of one width"):
        attention.sentence_matrix(("a", "b"), {"a": np.ones(4), "b": np.ones(3)})
    with pytest.raises(ValueError, match="finite vectors, not for 'b'"):
        attention.sentence_matrix(("a", "b"), {"a": np.ones(4), "b": np.full(4, np.nan)})


# ---------------------------------------------------------------------------------------------
# pe.column_means


@pytest.mark.parametrize(("n", "d"), [(1, 2), (2, 4), (7, 8), (100, 6)])
def test_column_means_agree_with_the_direct_mean_and_the_exact_form(n: int, d: int) -> None:
    """The measured means, the float64 closed form and the mpmath closed form against the
    mean of sin/cos p w_i computed here, from n = 1 (the mean is row 0) upward.

    Fault caught: the middle angle (n - s) moved, sin and cos columns swapped, n off by one."""
    p = np.arange(n, dtype=np.float64)
    w = _paper_omega(d)
    expected = np.empty(d)
    expected[0::2] = np.sin(np.outer(p, w)).mean(axis=0)
    expected[1::2] = np.cos(np.outer(p, w)).mean(axis=0)
    np.testing.assert_allclose(column_means.column_means(n, d), expected, rtol=0, atol=1e-14)
    np.testing.assert_allclose(
        column_means.column_means_closed_form(n, d), expected, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(column_means.column_means_exact(n, d), expected, rtol=0, atol=1e-14)
    shifted = column_means.column_means_exact(n, d, shift=0.0)
    assert n == 1 or not np.allclose(shifted, expected, rtol=0, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# pe.concatenation


def test_layer_matrices_shapes_and_stream_use_follow_the_forward_pass() -> None:
    """On a stream of width s: W_Q, W_K, W_V (s, d) read the stream; W_O (d, s) writes it;
    W_1 (s, f) reads it; W_2 (f, s) writes it.

    Fault caught: a shape's rows and columns swapped, a flag inverted."""
    from pe import concatenation

    s, d, f = 6, 4, 10
    uses = concatenation.layer_matrices(s, d, f)
    assert list(uses) == ["W_Q", "W_K", "W_V", "W_O", "W_1", "W_2"]
    expected = {
        "W_Q": ((s, d), True, False),
        "W_K": ((s, d), True, False),
        "W_V": ((s, d), True, False),
        "W_O": ((d, s), False, True),
        "W_1": ((s, f), True, False),
        "W_2": ((f, s), False, True),
    }
    for name, (shape, reads, writes) in expected.items():
        use = uses[name]
        assert (use.shape, use.reads_stream, use.writes_stream) == (shape, reads, writes), name
    assert concatenation.layer_matrices(1, 1, 1)["W_2"].shape == (1, 1)
    with pytest.raises(ValueError, match="stream"):
        concatenation.layer_matrices(0)


def test_projection_cost_doubles_with_concatenation() -> None:
    """d_in d_out weights and multiply-adds; twice with a 2d input; d_out defaults to d.

    Fault caught: the default width or a factor of 2 changed."""
    from pe import concatenation

    assert concatenation.projection_cost(5, 3) == {
        "width_add": 5,
        "width_concat": 10,
        "weights_add": 15,
        "weights_concat": 30,
        "madds_add": 15,
        "madds_concat": 30,
    }
    assert concatenation.projection_cost(4)["weights_concat"] == 2 * 4 * 4
    assert concatenation.projection_cost(1, 1)["madds_add"] == 1


def test_separate_projections_check_every_shape() -> None:
    """Matrices of 2 dimensions and vectors of 1 or 2 are accepted; a vector of the wrong
    length, weights of another output height, or e and u of different widths are refused.

    Fault caught: a shape test made one-sided or comparing the wrong axis."""
    from pe import concatenation

    w_e, w_q = np.arange(6.0).reshape(2, 3), np.ones((2, 4))
    e, q = np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 0.0, 2.0])
    np.testing.assert_array_equal(
        concatenation.separate_projections(w_e, w_q, e, q), w_e @ e + w_q @ q
    )
    two = concatenation.separate_projections(w_e, w_q, np.ones((3, 2)), np.ones((4, 2)))
    assert two.shape == (2, 2)
    with pytest.raises(ValueError, match="e must have as many rows as w_e has columns"):
        concatenation.separate_projections(w_e, w_q, np.ones(4), q)
    with pytest.raises(ValueError, match="q must have as many rows as w_q has columns"):
        concatenation.separate_projections(w_e, w_q, e, np.ones(3))
    with pytest.raises(ValueError, match="w_q q must have the shape of w_e e"):
        concatenation.separate_projections(w_e, np.ones((3, 4)), e, q)
    with pytest.raises(ValueError, match="w_q q must have the shape of w_e e"):
        concatenation.separate_projections(w_e, w_q, np.ones((3, 2)), np.ones((4, 3)))
    with pytest.raises(ValueError, match="w_e must have 2 dimensions"):
        concatenation.separate_projections(np.ones(3), w_q, e, q)
    with pytest.raises(ValueError, match="e must have 1 or 2 dimensions"):
        concatenation.separate_projections(w_e, w_q, np.ones((3, 1, 1)), q)
    with pytest.raises(TypeError, match="q must be a NumPy or SymPy matrix"):
        concatenation.separate_projections(w_e, w_q, e, [1.0, 0.0, 0.0, 2.0])


# ---------------------------------------------------------------------------------------------
# pe.relative: the repeated-token test


def test_identical_token_scores_need_two_positions_and_a_known_scheme() -> None:
    """n = 2 is the fewest accepted, n = 1 refused; an unknown scheme is refused by both the
    scores and their rounding bound, naming the schemes.

    Fault caught: the minimum of n moved, the scheme test dropped from one of them."""
    for scheme in relative.SCHEMES:
        scores = relative.identical_token_scores(scheme, n=2, d_model=4)
        assert scores.shape == (2, 2)
        bound = relative.identical_token_rounding(scheme, n=2, d_model=4)
        assert 0 < bound < 1e-12
    with pytest.raises(ValueError, match="n"):
        relative.identical_token_scores("rope", n=1)
    for f in (relative.identical_token_scores, relative.identical_token_rounding):
        with pytest.raises(ValueError, match=r"scheme must be one of learned absolute, .*'bogus'"):
            f("bogus")


@pytest.mark.parametrize("scheme", ["rope", "shaw", "transformer-xl", "t5", "alibi", "nope"])
def test_relative_schemes_are_toeplitz_within_their_rounding_bound(scheme: str) -> None:
    """Every relative scheme's repeated-token scores depend on i - j only, within the bound.

    Fault caught: an offset computed as i + j, or a bound term left out."""
    for n, d, seed in ((12, 16, 0), (5, 6, 3)):
        scores = relative.identical_token_scores(scheme, n, d, seed=seed)
        assert relative.toeplitz_deviation(scores) <= relative.identical_token_rounding(
            scheme, n, d, seed=seed
        )


def test_transformer_xl_scores_are_the_four_terms_written_out() -> None:
    """The vectorised score against the loop over (i, j), each term alone and all four; x
    must be a matrix of even width.

    Fault caught: the offset's sign (R_{i-j} vs R_{j-i}) or a term dropped."""
    rng = np.random.default_rng(9)
    n, d = 4, 6
    x = rng.standard_normal((n, d))
    wq, wke, wkr = (rng.standard_normal((d, d)) for _ in range(3))
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    omega = _paper_omega(d)

    def r(offset: int) -> Float64Array:
        out = np.empty(d)
        out[0::2], out[1::2] = np.sin(offset * omega), np.cos(offset * omega)
        return out

    terms: dict[str, Callable[[int, int], float]] = {
        "a": lambda i, j: float(x[i] @ wq.T @ wke @ x[j]),
        "b": lambda i, j: float(x[i] @ wq.T @ wkr @ r(i - j)),
        "c": lambda i, j: float(u @ wke @ x[j]),
        "d": lambda i, j: float(v @ wkr @ r(i - j)),
    }
    for name, term in terms.items():
        expected = [[term(i, j) for j in range(n)] for i in range(n)]
        got = relative.transformer_xl_terms(x, wq, wke, wkr, u=u, v=v, terms=(name,))
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    full = [[sum(t(i, j) for t in terms.values()) for j in range(n)] for i in range(n)]
    got_full = relative.transformer_xl_scores(x, wq, wke, wkr, u=u, v=v)
    np.testing.assert_allclose(got_full, full, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match=r"x must have shape \(n, d\)"):
        relative.transformer_xl_scores(np.ones(4), wq, wke, wkr, u=u, v=v)
    with pytest.raises(ValueError, match="even"):
        relative.transformer_xl_scores(np.ones((2, 5)), wq, wke, wkr, u=u, v=v)


# ---------------------------------------------------------------------------------------------
# pe.symbolic_rope


def test_symbolic_rope_matrices_match_the_numeric_rotation() -> None:
    """The exact rotation matrix of both pairings, evaluated, turns a vector as
    :func:`pe.rotary.rope` does (written out here); rope_adjacent and rope_halves agree with
    the matrices; a bad pairing, block or permutation is refused.

    Fault caught: a block placed on the wrong pair, a sine's sign, the halves extraction."""
    import sympy as sp

    from pe import symbolic_rope

    omegas = [sp.Rational(1, 3), sp.Rational(1, 7), sp.Rational(2, 5)]
    position = 4
    x = sp.Matrix([1, -2, 3, sp.Rational(1, 2), 5, -1])
    angles = [position * w for w in omegas]
    for pairing, turned in (
        ("adjacent", symbolic_rope.rope_adjacent(x, angles)),
        ("halves", symbolic_rope.rope_halves(x, angles)),
    ):
        matrix = symbolic_rope.rotation_matrix(position, omegas, pairing)
        assert sp.simplify(matrix * x - turned) == sp.zeros(6, 1)
        pairs = rotary.pair_columns(6, pairing)
        expected = np.zeros(6)
        xs = np.array([float(v) for v in x])
        for (a, b), t in zip(pairs, angles, strict=True):
            c, s = math.cos(float(t)), math.sin(float(t))
            expected[a] = xs[a] * c - xs[b] * s
            expected[b] = xs[b] * c + xs[a] * s
        got = np.array([float(v) for v in turned], dtype=np.float64)
        np.testing.assert_allclose(got, expected, rtol=1e-14, atol=1e-14)
    with pytest.raises(ValueError, match="pairing must be 'adjacent' or 'halves'"):
        symbolic_rope.rotation_matrix(position, omegas, "other")
    with pytest.raises(TypeError, match="2 x 2 sympy Matrix"):
        symbolic_rope.rotation_block(lambda p, w: sp.eye(3), 0, 1)
    with pytest.raises(TypeError, match="2 x 2 sympy Matrix"):
        symbolic_rope.rotation_block(lambda p, w: np.eye(2), 0, 1)
    p = symbolic_rope.permutation_matrix([2, 0, 1])
    assert list(p * sp.Matrix([10, 20, 30])) == [30, 10, 20]
    for bad in ([0, 0, 1], [1, 2, 3]):
        with pytest.raises(ValueError, match=r"each index 0 \.\. d-1 once"):
            symbolic_rope.permutation_matrix(bad)


def test_attention_statements_and_layers_must_return_exactly_a_pair() -> None:
    """check_equivariance's sides and row_independence_gap's layer return two arrays: a
    triple, a single-element tuple or a list is refused; arrays of another shape (either
    side) are refused; rnn_final_gap needs one real vector per sentence.

    Fault caught: ``len(both) != 2`` made ``<`` or ``>``, a shape test made one-sided."""

    def sides_of(make: Callable[[Float64Array], Any]) -> Any:
        return lambda attend, x, perm, e: make(x)

    not_pairs: list[Any] = [lambda x: (x, x, x), lambda x: (x,), lambda x: [x, x]]
    for bad in not_pairs:
        with pytest.raises(TypeError, match="sides must return the two sides, a pair"):
            attention.check_equivariance(sides_of(bad), n=3, d_model=4)
        with pytest.raises(TypeError, match=r"layer must return two arrays \(together, alone\)"):
            attention.row_independence_gap(bad, n=3, d_model=4)
    shapes: list[Any] = [lambda x: (x[:-1], x), lambda x: (x, x[:, :-1])]
    for shaped in shapes:
        with pytest.raises(ValueError, match=r"sides must return two \(3, 4\) arrays"):
            attention.check_equivariance(sides_of(shaped), n=3, d_model=4)
    assert attention.check_equivariance(sides_of(lambda x: (x, x)), n=3, d_model=4).passed
    unequal_pairs: list[Any] = [lambda x: (x[:-1], x), lambda x: (x, x[:-1])]
    for unequal in unequal_pairs:
        with pytest.raises(ValueError, match="two real arrays of one shape"):
            attention.row_independence_gap(unequal, n=3, d_model=4)
    with pytest.raises(ValueError, match="two real arrays of one shape"):
        attention.row_independence_gap(
            lambda x: (np.full(x.shape, "a"), np.full(x.shape, "a")), n=3, d_model=4
        )
    assert attention.row_independence_gap(lambda x: (x, x + 0.5), n=3, d_model=4) == 0.5
    calls: list[int] = []

    def growing(x: Float64Array, w: object) -> Float64Array:
        calls.append(1)
        return np.zeros(len(calls))  # 1 entry for the first sentence, 2 for the second

    summaries: list[Any] = [lambda x, w: np.zeros(0), lambda x, w: np.full(2, "a"), growing]
    for summary in summaries:
        with pytest.raises(ValueError, match="one real vector per sentence"):
            attention.rnn_final_gap(summary, d_model=4)


def _gamma(n: int) -> float:
    """Higham's gamma_n = n u / (1 - n u), u the float64 unit roundoff."""
    u = float(np.finfo(np.float64).eps) / 2
    return n * u / (1 - n * u)


@pytest.mark.parametrize(
    "scheme",
    ["nope", "shaw", "t5", "alibi", "transformer-xl", "learned absolute", "sinusoidal (added)"],
)
@pytest.mark.parametrize(("n", "d", "seed"), [(12, 16, 0), (5, 6, 7)])
def test_identical_token_rounding_is_the_documented_sum_of_dot_product_bounds(
    scheme: str, n: int, d: int, seed: int
) -> None:
    """From the docstring: each dot product a.b errs by gamma_{3d} |a||b| with |W x| <=
    |W|_F |x| (token t, W_q, W_k drawn first from default_rng(seed)); Shaw adds the term of
    the largest of its 2K + 1 = 7 relative vectors; Transformer-XL its four terms and the
    roundings of their sum; a bias (T5, ALiBi) one rounding u of the sum; an absolute
    encoding a dot product of the encoded rows. Twice the bound over the
    largest score.

    Fault caught: a term's factor, a norm or the gamma's length changed."""
    rng = np.random.default_rng(seed)
    token = rng.standard_normal(d)
    w_q = rng.standard_normal((d, d)) / math.sqrt(d)
    w_k = rng.standard_normal((d, d)) / math.sqrt(d)
    fq, fk = float(np.linalg.norm(w_q)), float(np.linalg.norm(w_k))
    t = float(np.linalg.norm(token))
    q, k = t * fq, t * fk
    g, u = _gamma(3 * d), float(np.finfo(np.float64).eps) / 2
    scores = relative.identical_token_scores(scheme, n, d, seed=seed)
    scale = float(np.abs(scores[np.isfinite(scores)]).max())
    bound = g * q * k
    if scheme == "nope":
        assert scale == pytest.approx(abs((w_q @ token) @ (w_k @ token)), rel=1e-13, abs=0.0)
    elif scheme == "shaw":
        largest = float(np.linalg.norm(rng.standard_normal((7, d)), axis=1).max())
        bound += g * q * largest
    elif scheme in ("t5", "alibi"):
        bound += u * (q * k + scale)
    elif scheme == "transformer-xl":
        # W_kR, then u and v; |R_{i-j}| = sqrt(d/2) (d/2 pairs of norm 1); four dot products
        # and the three roundings of their sum
        r = float(np.linalg.norm(rng.standard_normal((d, d)) / math.sqrt(d))) * math.sqrt(d / 2)
        uu, vv = (float(np.linalg.norm(rng.standard_normal(d))) for _ in range(2))
        bound += g * (q * r + k * uu + r * vv) + 3 * u * (q * k + q * r + k * uu + r * vv)
    else:
        if scheme == "learned absolute":
            table = rng.standard_normal((n, d))
        else:
            angles = np.outer(np.arange(n), _paper_omega(d))
            table = np.empty((n, d))
            table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
        rows = float(np.linalg.norm(token + table, axis=1).max())
        bound = g * rows**2 * fq * fk
    got = relative.identical_token_rounding(scheme, n, d, seed=seed)
    assert got == pytest.approx(2 * bound / scale, rel=1e-12, abs=0.0)


def test_rope_error_bound_pairs_share_a_bound_and_the_halves_layout_is_a_permutation() -> None:
    """Both entries of a pair share one bound; the halves bound of x is the adjacent bound of
    x with its columns moved by P^T, moved back by P (perm of pairing_permutation); the bound
    scales with |a| + |b| and grows with the position.

    Fault caught: a pair's columns mixed up, the halves split at the wrong column."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((4, 6))
    ps = np.array([0.0, 1.0, 100.0, -7.5])
    adjacent = rotary.rope_error_bound(x, ps)
    np.testing.assert_array_equal(adjacent[:, 0::2], adjacent[:, 1::2])
    halves = rotary.rope_error_bound(x, ps, pairing="halves")
    np.testing.assert_array_equal(halves[:, :3], halves[:, 3:])
    perm = np.array([0, 2, 4, 1, 3, 5])
    moved = rotary.rope_error_bound(x[:, np.argsort(perm)], ps)[:, perm]
    np.testing.assert_allclose(halves, moved, rtol=1e-15, atol=0)
    doubled = rotary.rope_error_bound(2 * x, ps)
    np.testing.assert_allclose(doubled, 2 * adjacent, rtol=1e-15, atol=0)
    same_size = np.ones((2, 6))
    near_far = rotary.rope_error_bound(same_size, np.array([1.0, 1000.0]))
    assert np.all(near_far[1] > near_far[0])


def test_offset_tolerance_is_the_documented_tau() -> None:
    """tau(m, r) = sum_i rho_i (2 eps_a w_i (|m| + |m + r|) + 2 eps_a w_i |r| + (d + 8) eps64),
    rho_i the product of the pair norms of q and k, for both pairings and float32 angles.

    Fault caught: a term of tau, the pair norms' pairing or the epsilon's dtype changed."""
    q = np.array([1.0, -2.0, 0.5, 3.0, -1.0, 0.25])
    k = np.array([0.5, 1.0, -2.0, 0.0, 4.0, 1.0])
    ms, rs = np.array([0, 5, -3]), np.array([-2, 0, 7, 100])
    w = _paper_omega(6, 500.0)
    eps64 = float(np.finfo(np.float64).eps)
    layouts: list[tuple[Any, list[tuple[int, int]]]] = [
        ("adjacent", [(0, 1), (2, 3), (4, 5)]),
        ("halves", [(0, 3), (1, 4), (2, 5)]),
    ]
    for pairing, cols in layouts:
        rho = np.array([math.hypot(q[a], q[b]) * math.hypot(k[a], k[b]) for a, b in cols])
        for dtype in (np.float64, np.float32):
            eps_a = float(np.finfo(dtype).eps)
            expected = np.array(
                [
                    [
                        float(
                            np.sum(
                                rho
                                * (
                                    2 * eps_a * w * (abs(m) + abs(m + r))
                                    + 2 * eps_a * w * abs(r)
                                    + (6 + 8) * eps64
                                )
                            )
                        )
                        for r in rs
                    ]
                    for m in ms
                ]
            )
            got = rotary.offset_tolerance(
                q,
                k,
                ms,
                rs,
                base=500.0,
                pairing=pairing,
                model_dtype=dtype,
            )
            np.testing.assert_allclose(got, expected, rtol=1e-13, atol=0)


def test_rnn_final_gap_accepts_a_one_entry_summary() -> None:
    """A summary of one entry is the smallest accepted; the middle word ("bites") is the
    same in both sentences, so summarising by its first entry gives a gap of exactly 0, and
    by the first word's first entry the gap between "dog" and "man".

    Fault caught: ``size == 0`` made ``size == 1`` (one-entry summaries refused)."""
    assert attention.rnn_final_gap(lambda x, w: x[1, :1], d_model=4) == 0.0
    vocabulary = attention.toy_vocabulary(4)
    expected = abs(float(vocabulary["dog"][0] - vocabulary["man"][0]))
    assert attention.rnn_final_gap(lambda x, w: x[0, :1], d_model=4) == expected


def test_the_smallest_sentence_and_tokens_are_accepted() -> None:
    """Width-1 embeddings and a one-word sentence are accepted (empty vectors, 2-D vectors
    and scalars refused); attention over a single 1 x 1 token returns its value times W_v.

    Fault caught: ``size == 0`` made ``size == 1``, ``ndim != 1`` made ``< 1`` or ``> 1``."""
    vocabulary = {"a": np.array([2.0]), "b": np.array([-1.0])}
    np.testing.assert_array_equal(
        attention.sentence_matrix(("a", "b"), vocabulary), [[2.0], [-1.0]]
    )
    np.testing.assert_array_equal(attention.sentence_matrix(("b",), vocabulary), [[-1.0]])
    for bad in (np.zeros(0), np.ones((1, 1)), np.array(2.0)):
        with pytest.raises(ValueError, match="non-empty vectors of one width"):
            attention.sentence_matrix(("a",), {"a": bad})
    w = attention.AttentionWeights(np.eye(1), np.eye(1), 3 * np.eye(1))
    assert attention.attention(np.array([[1.5]]), w).tolist() == [[4.5]]
    assert attention.attention_row(np.array([[1.5]]), w, 0).tolist() == [4.5]


def test_attention_helpers_check_permutations_shapes_and_cells() -> None:
    """permutation_matrix needs each of 0 .. n-1 once; equivariant needs x n x d and P n x n
    (tall or wide P refused); an Elman cell must match x's width and have a square W_h with
    a bias of its size; an Encoding's label must be a string.

    Fault caught: a shape comparison made one-sided, the permutation test loosened."""
    p = attention.permutation_matrix([2, 0, 1])
    np.testing.assert_array_equal(p @ np.array([10.0, 20.0, 30.0]), [30.0, 10.0, 20.0])
    for bad in ([0, 0, 1], [1, 2, 3], [0, 2]):
        with pytest.raises(ValueError, match=r"order must be a permutation of 0 \.\. n-1"):
            attention.permutation_matrix(bad)
    x = np.arange(6.0).reshape(3, 2)

    def double(m: Any, causal: bool) -> Any:
        return 2 * m

    for perm in (np.eye(3)[:2], np.eye(4)[:3], np.eye(2)):
        with pytest.raises(ValueError, match=r"x must be n x d and perm n x n"):
            attention.equivariant(double, x, perm, None)
    with pytest.raises(ValueError, match=r"x must be n x d and perm n x n"):
        attention.equivariant(double, np.ones(3), np.eye(3), None)
    cell = attention.RnnWeights.gaussian(np.random.default_rng(0), 2, 3)
    assert attention.rnn_states(x, cell).shape == (3, 3)
    with pytest.raises(ValueError, match="Elman cell of input width 3"):
        attention.rnn_states(np.ones((2, 3)), cell)
    for w_h, b in ((np.ones((3, 2)), np.zeros(3)), (np.eye(3), np.zeros(2))):
        broken = attention.RnnWeights(cell.w_x, w_h, b)
        with pytest.raises(ValueError, match="square W_h and a bias of its size"):
            attention.rnn_states(x, broken)
    with pytest.raises(TypeError, match="label must be a string"):
        attention.Encoding(3, lambda n, d: np.zeros((n, d)))  # type: ignore[arg-type]


def test_one_pair_points_and_their_floor_start_at_two_positions() -> None:
    """Two points are the fewest accepted by one_pair_points and separation_floor (one is
    refused); the points are (sin w p, cos w p); pair_min_distance finds the offset of the
    smallest chord 2|sin(w k / 2)| for 0 < k < n.

    Fault caught: the minimum count moved, sine and cosine swapped, the offset off by one."""
    points = geometry.one_pair_points(2, 0.5)
    np.testing.assert_allclose(
        points, [[0.0, 1.0], [math.sin(0.5), math.cos(0.5)]], rtol=1e-15, atol=0
    )
    assert geometry.separation_floor(2, 1.0) > 0
    for f in (geometry.one_pair_points, geometry.separation_floor):
        with pytest.raises(ValueError, match="n_positions"):
            f(1, 1.0)
    omega = np.array([2 * math.pi / 5 + 1e-3, 1.0])
    distances, offsets = geometry.pair_min_distance(omega, 12)
    chords = 2 * np.abs(np.sin(np.outer(np.arange(1, 12), omega) / 2))
    np.testing.assert_array_equal(offsets, np.argmin(chords, axis=0) + 1)
    np.testing.assert_allclose(distances, chords.min(axis=0), rtol=1e-15, atol=0)
    assert offsets[0] == 5


def test_check_offset_dependence_reports_where_the_worst_ratio_is() -> None:
    """The reported position and offset are those of the largest error/tolerance ratio of
    offset_error over offset_tolerance (q, k drawn from default_rng(seed)); float16 angles
    held to the float64 tolerance fail, float64 angles pass; the counts are reported.

    Fault caught: the row and column of the worst entry swapped, the model dtype default."""
    ms, rs = np.array([0, 3, 1000, 2000]), np.array([1, 5, 50])
    found = rotary.check_offset_dependence(
        8, ms, rs, angle_dtype=np.float16, model_dtype=np.float64, seed=4
    )
    rng = np.random.default_rng(4)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    errors = rotary.offset_error(q, k, ms, rs, angle_dtype=np.float16)
    tolerance = rotary.offset_tolerance(q, k, ms, rs, model_dtype=np.float64)
    row, col = np.unravel_index(int(np.argmax(errors / tolerance)), errors.shape)
    assert (found.position, found.offset) == (int(ms[row]), int(rs[col]))
    assert found.worst_ratio > 1
    assert not found.passed
    assert (found.n_positions, found.n_offsets, found.d_model) == (4, 3, 8)
    same = rotary.check_offset_dependence(8, ms, rs, angle_dtype=np.float16, seed=4)
    assert same.model_dtype == "float16"
    assert same.passed
    assert rotary.check_offset_dependence(8, ms, rs, seed=4).passed


def test_offset_spreads_draws_its_weights_as_documented_and_random_has_16_rows() -> None:
    """offset_spreads hands the candidate W_q, W_k drawn d x d from default_rng(seed) with
    standard deviation 1/8 (first W_q, then W_k), positions m = 0, 7, ... < 2000 and m + r;
    RANDOM builds W = W_q^T W_k from 16-row projections: rank 16 at a width above 16.

    Fault caught: the 1/8 scale (a division made floor division), the row count moved."""
    seen: list[tuple[Float64Array, Float64Array, Any, Any]] = []

    def record(wq: Float64Array, wk: Float64Array, ms: Any, ns: Any, rng: Any) -> Float64Array:
        seen.append((wq, wk, ms, ns))
        return np.zeros(np.shape(ms))

    position_scores.offset_spreads(record, 6, seed=3)
    rng = np.random.default_rng(3)
    w_q, w_k = rng.standard_normal((6, 6)) / 8, rng.standard_normal((6, 6)) / 8
    assert len(seen) == 3
    for (wq, wk, ms, ns), r in zip(seen, (0, 1, 10), strict=True):
        np.testing.assert_array_equal(wq, w_q)
        np.testing.assert_array_equal(wk, w_k)
        np.testing.assert_array_equal(ms, np.arange(0, 2000, 7))
        np.testing.assert_array_equal(ns, np.arange(0, 2000, 7) + r)
    w = position_scores.RANDOM.build(np.random.default_rng(0), 24)
    assert w.shape == (24, 24)
    assert np.linalg.matrix_rank(w) == 16


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_bucket_properties_see_the_bucket_of_offset_zero(bidirectional: bool) -> None:
    """A bucket function wrong only at offset 0 (there the bucket of offset -1, as if the
    key one step behind were the query itself) is refused: offset 0 belongs to the
    backward side in both modes.

    Fault caught: the backward side taken as ``rel < 0`` in the decoder mode, which leaves
    offset 0 out of every property."""

    def merged(rel: Any, **settings: Any) -> Any:
        values = np.asarray(relative.t5_bucket(rel, **settings))
        rel = np.asarray(rel)
        behind = np.asarray(relative.t5_bucket(np.array([-1]), **settings))[0]
        return np.where(rel == 0, behind, values)

    assert relative.t5_bucket_properties(bidirectional=bidirectional)[0]
    assert not relative.t5_bucket_properties(merged, bidirectional=bidirectional)[0]


def test_t5_bucket_properties_see_a_step_taken_back_by_one() -> None:
    """Two neighbouring distances in the logarithmic range with their buckets swapped (a
    fall of exactly one bucket): every other property still holds, and "monotone" fails.

    Fault caught: the monotone test loosened to allow a fall of one bucket."""

    def swapped(rel: npt.NDArray[np.int64], **kw: Any) -> npt.NDArray[np.int64]:
        b = np.array(relative.t5_bucket(rel, **kw))
        distance = -rel  # the causal side: keys before the query, rel <= 0
        # the first distance past the exact range where the bucket steps up
        t = next(int(t) for t in range(9, 100) if b[distance == t][0] > b[distance == t - 1][0])
        b[distance == t], b[distance == t - 1] = b[distance == t - 1][0], b[distance == t][0]
        return b

    ok, detail = relative.t5_bucket_properties(swapped, bidirectional=False)
    assert not ok
    assert "monotone: NO" in detail
    assert detail.count("NO") == 1, detail
