"""The chapter "Precision and speed": the rotation algorithm against 50-digit mpmath, each
method against its own error model, the chapter's proof, measurements, claims and page data."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pe import _extended_precision, _rotation_table, accuracy, numeric, recipes, reference
from pe.chapters import precision
from pe.chapters import precision as claims
from pe.chapters import precision as proofs
from pe.claims import Candidate, run
from pe.error_models import ENTRY_FLOAT32
from pe.symbolic import shift_factor
from tests.helpers import wrong

EPS64 = float(np.finfo(np.float64).eps)
BOUND = _rotation_table.ENTRY_ERROR_BOUND
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def errors(
    table: npt.NDArray[Any],
    rows: IntArray,
    positions: IntArray,
    columns: IntArray,
    d: int,
    *,
    base: float = 10000.0,
) -> FloatArray:
    """|table[row, column] - PE(position, column)| at 60 digits, by pe.reference."""
    return reference.errors(table[rows, columns], positions, columns, d, base, dps=60)


def sampled(n: int, d: int, count: int, seed: int) -> tuple[IntArray, IntArray]:
    rng = np.random.default_rng(seed)
    positions = np.concatenate([n - 1 - np.arange(64), rng.integers(0, n, count - 64)])
    return positions.astype(np.int64), rng.integers(0, d, count)


def test_two_pi_constant_matches_mpmath() -> None:
    digits = _extended_precision.TWO_PI_DIGITS
    with mpmath.workdps(70):
        assert abs(mpmath.mpf(digits) - 2 * mpmath.pi) < mpmath.mpf(10) ** -63
    assert Decimal(digits) != Decimal("6.283185307179586")


@pytest.mark.parametrize(
    ("d", "base"), [(512, 10000.0), (4096, 10000.0), (64, 500000.0), (10, 1.5)]
)
def test_frequency_turns_carry_about_150_bits(d: int, base: float) -> None:
    hi, mid, lo = _extended_precision.frequency_turns(d, base)
    with mpmath.workdps(60):
        for i in range(0, d // 2, max(1, d // 64)):
            f = reference.frequency(i, d, base, dps=60) / (2 * mpmath.pi)
            total = mpmath.mpf(hi[i]) + mpmath.mpf(mid[i]) + mpmath.mpf(lo[i])
            assert abs(total - f) <= f * mpmath.mpf(2) ** -145
            pair = mpmath.mpf(hi[i]) + mpmath.mpf(mid[i])
            if i:  # the third term matters: hi + mid alone is off by more than 2**-120
                assert abs(pair - f) > f * mpmath.mpf(2) ** -120


def test_wide_tables_keep_three_doubles_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the decimal tables, the product of two short tables keeps about 150 bits."""
    monkeypatch.setattr(_extended_precision, "_DECIMAL_PAIRS", 8)
    _extended_precision.frequency_turns.cache_clear()
    _extended_precision.frequencies.cache_clear()
    try:
        hi, mid, lo = _extended_precision.frequency_turns(1024, 10000.0)
        omega = _extended_precision.frequencies(1024, 10000.0)
    finally:
        _extended_precision.frequency_turns.cache_clear()
        _extended_precision.frequencies.cache_clear()
    with mpmath.workdps(60):
        for i in [*range(0, 512, 37), 255, 256, 257, 511]:
            exact = reference.frequency(i, 1024, dps=60)
            f = exact / (2 * mpmath.pi)
            assert abs(mpmath.mpf(hi[i]) + mpmath.mpf(mid[i]) + mpmath.mpf(lo[i]) - f) <= (
                f * mpmath.mpf(2) ** -145
            )
            if i:  # two doubles, as the product was once carried, are 2**25 times coarser
                assert abs(mpmath.mpf(hi[i]) + mpmath.mpf(mid[i]) - f) > f * mpmath.mpf(2) ** -120
            assert omega[i] == float(exact)


@pytest.mark.parametrize("d", [64, 1024, 4096])
def test_float64_tables_are_within_5e_16_below_2_pow_20(d: int) -> None:
    positions, columns = sampled(2**20, d, 1200, seed=d)
    table = numeric.sinusoidal(positions, d)
    found = errors(table, np.arange(positions.size), positions, columns, d)
    assert found.max() <= BOUND <= 5e-16
    # the bound is not loose by orders of magnitude: typical worst errors reach half of it
    assert found.max() > BOUND / 4


@pytest.mark.parametrize("d", [64, 4096])
def test_float32_tables_are_within_2_pow_minus_25_below_2_pow_20(d: int) -> None:
    positions, columns = sampled(2**20, d, 1200, seed=d + 1)
    table = numeric.sinusoidal(positions, d, dtype=np.float32)
    found = errors(table, np.arange(positions.size), positions, columns, d)
    assert found.max() <= ENTRY_FLOAT32()


def test_float16_tables_are_rounded_once() -> None:
    positions, columns = sampled(2**20, 256, 600, seed=5)
    table = numeric.sinusoidal(positions, 256, dtype=np.float16)
    assert (
        errors(table, np.arange(positions.size), positions, columns, 256).max()
        <= 2.0**-12 + 4 * BOUND
    )


def test_consecutive_rows_match_mpmath_across_block_boundaries() -> None:
    n, d = 3 * _rotation_table.BLOCK + 17, 96
    table = numeric.sinusoidal(n, d)
    rows = np.repeat(np.arange(n), 4)
    columns = np.random.default_rng(1).integers(0, d, rows.size)
    assert errors(table, rows, rows, columns, d).max() <= BOUND


@pytest.mark.parametrize("base", [1.5, 500000.0, 1e8])
def test_other_bases(base: float) -> None:
    positions, columns = sampled(2**20, 128, 300, seed=int(base) % 97)
    table = numeric.sinusoidal(positions, 128, base=base)
    assert (
        errors(table, np.arange(positions.size), positions, columns, 128, base=base).max() <= BOUND
    )


def test_positions_up_to_2_pow_53_stay_accurate() -> None:
    positions = np.array(
        [2**53, 2**53 - 1, 2**45 + 12_345, 10**15 + 7, 2**26, 2**26 - 1, 3 * 2**30]
    )
    d = 512
    table = numeric.sinusoidal(positions, d)
    rows = np.repeat(np.arange(positions.size), 64)
    columns = np.random.default_rng(2).integers(0, d, rows.size)
    assert errors(table, rows, positions[rows], columns, d).max() <= BOUND


def test_direct_method_within_its_own_error_model() -> None:
    d = 256
    positions, columns = sampled(2**20, d, 600, seed=11)
    table = numeric.sinusoidal_direct(positions, d)
    found = errors(table, np.arange(positions.size), positions, columns, d)
    omega = numeric.frequencies(d)[columns // 2]
    model = EPS64 * (1 + omega * positions)
    assert np.all(found <= model)
    # the direct method's error grows with position: it fails the rotation algorithm's bound
    assert found.max() > 100 * BOUND


def test_float32_recipe_fails_the_6e_8_bound() -> None:
    """Negative control: angles formed in float32 drift by ~1e-4 at p ~ 1e4."""
    positions = np.array([10_000, 10_001, 20_000])
    d = 64
    table = wrong.FLOAT32_RECIPE.value(positions, d)
    rows = np.repeat(np.arange(3), d)
    columns = np.tile(np.arange(d), 3)
    found = errors(table, rows, positions[rows], columns, d)
    assert found.max() > 1e-4
    assert found.max() > 1000 * 6e-8


def test_chained_rotation_drifts_and_anchoring_does_not() -> None:
    """Negative control: z(p+1) = z(p) u in complex64 without re-anchoring leaves the bound."""
    n, d = 4000, 16
    chained = recipes.chained_rotation(n, d, dtype=np.complex64)
    rows = np.repeat(np.array([n - 1]), d)
    columns = np.arange(d)
    assert errors(chained, rows, rows, columns, d).max() > 6e-8
    anchored = numeric.sinusoidal(n, d, dtype=np.float32)
    assert errors(anchored, rows, rows, columns, d).max() <= 2.0**-25 + 4 * BOUND


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_a_row_does_not_depend_on_the_other_rows(dtype: type[np.floating[Any]]) -> None:
    n, d = 700, 40
    full = numeric.sinusoidal(n, d, dtype=dtype)
    picked = np.array([699, 0, 128, 129, 5, 383, 384, 641])
    np.testing.assert_array_equal(numeric.sinusoidal(picked, d, dtype=dtype), full[picked])
    for start in (1, 128, 300):  # consecutive runs, aligned or not
        run = np.arange(start, start + 200)
        np.testing.assert_array_equal(numeric.sinusoidal(run, d, dtype=dtype), full[run])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_cached_anchors_give_the_same_bits(
    monkeypatch: pytest.MonkeyPatch, dtype: type[np.floating[Any]]
) -> None:
    """Counts use anchors cached per (d, base): the bits of the uncached computation."""
    sizes = [1, 17, 128, 300, 2048, 5000]
    _rotation_table._first_anchors.cache_clear()
    cached = [numeric.sinusoidal(n, 48, dtype=dtype) for n in sizes]  # the cache grows
    again = [numeric.sinusoidal(n, 48, dtype=dtype) for n in sizes]  # and is reused
    assert _rotation_table._first_anchors.cache_info().hits > 0
    rows, factors = _rotation_table._first_anchors(48, 10000.0, dtype != np.float64, 64)
    assert not rows.flags.writeable
    assert not factors.flags.writeable
    monkeypatch.setattr(_rotation_table, "_CACHED_ANCHOR_BYTES", 0)  # computed afresh
    for n, first, second in zip(sizes, cached, again, strict=True):
        fresh = numeric.sinusoidal(n, 48, dtype=dtype)
        np.testing.assert_array_equal(first, fresh)
        np.testing.assert_array_equal(second, fresh)
        np.testing.assert_array_equal(numeric.sinusoidal(np.arange(n), 48, dtype=dtype), fresh)


def test_threaded_fill_gives_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    serial = numeric.sinusoidal(1000, 64, dtype=np.float32)
    monkeypatch.setattr(_rotation_table, "_THREADED_ENTRIES", 1)
    monkeypatch.setattr("pe._rotation_table.os.cpu_count", lambda: 2)
    np.testing.assert_array_equal(numeric.sinusoidal(1000, 64, dtype=np.float32), serial)


@pytest.mark.parametrize("n", [1, 2, 127, 128, 129, 1000])
def test_every_size_agrees_with_the_direct_method(n: int) -> None:
    d = 32
    fast = numeric.sinusoidal(n, d)
    direct = numeric.sinusoidal_direct(n, d)
    assert fast.shape == direct.shape == (n, d)
    # direct is within eps64 (1 + w p) of exact, fast within BOUND
    assert np.max(np.abs(fast - direct)) <= BOUND + EPS64 * n
    assert np.all(np.abs(fast) <= 1.0)


def test_direct_and_fast_share_validation() -> None:
    for call in (numeric.sinusoidal, numeric.sinusoidal_direct):
        with pytest.raises(ValueError, match="d_model must be even"):
            call(10, 9)
        with pytest.raises(ValueError, match="cap"):
            call(10**9, 10**4)
        with pytest.raises(ValueError, match="2\\*\\*53"):
            call(np.array([2**53 + 1]), 8)


def test_row_separation_finds_duplicates_of_float16_positions() -> None:
    positions = np.arange(2040, 2060)
    table = recipes.float32_recipe(positions, 16, dtype=np.float16)
    found = accuracy.row_separation(table, "float16 recipe")
    assert found.duplicates > 0
    assert found.smallest == 0.0
    assert np.array_equal(table[found.pair[0]], table[found.pair[1]])
    clean = accuracy.row_separation(numeric.sinusoidal(positions, 16), "pe float64")
    assert clean.duplicates == 0
    assert clean.smallest > 0.1


def test_row_separation_names_the_first_position_that_repeats_an_earlier_one() -> None:
    """The pair shown is the earliest repeat by position (row 6 repeats row 4), not the
    repeated row that sorts first by value (row 9 repeats row 0, the smallest values)."""
    rows = np.arange(30.0).reshape(10, 3)
    rows[6] = rows[4]
    rows[9] = rows[0]
    found = accuracy.row_separation(rows, "two repeats")
    assert (found.duplicates, found.pair) == (2, (4, 6))
    table = recipes.float32_recipe(np.arange(4096), 16, dtype=np.float16)
    first = accuracy.row_separation(table, "float16 recipe").pair
    # float16 holds every integer up to 2048 exactly and 2049 rounds to 2048 (ties to even)
    assert first == (2048, 2049)
    assert np.float16(2049) == np.float16(2048)


@pytest.mark.parametrize(
    "candidate", [wrong.DIRECT_FLOAT64_TABLE, wrong.FLOAT64_ANGLE_ANCHORS], ids=lambda c: c.name
)
def test_float64_wrong_methods_miss_the_bound(candidate: Candidate[Any]) -> None:
    error, p, _ = accuracy.max_sampled_error(candidate.value, 2**20, 64, seed=64)
    assert error > 1000 * BOUND
    assert p > 2**19  # the error grows with position


def test_complex_shift_proof_and_its_wrong_factors() -> None:
    assert proofs.complex_shift(shift_factor).holds
    for candidate in (wrong.CONJUGATE_FACTOR, wrong.SWAPPED_FACTOR):
        proof = proofs.complex_shift(candidate.value)
        assert not proof.holds, candidate.name
        assert any(entry != 0 for entry in proof.residual)


def test_row_errors_agree_with_the_reference_entries() -> None:
    positions = np.array([0, 7, 10**6])
    found = accuracy.row_errors(numeric.sinusoidal_direct, positions, 8)
    table = numeric.sinusoidal_direct(positions, 8)
    for row, p in enumerate(positions.tolist()):
        for column in range(8):
            with mpmath.workdps(50):
                exact = abs(mpmath.mpf(float(table[row, column])) - reference.entry(p, column, 8))
            assert found[row, column] == pytest.approx(float(exact), rel=1e-12, abs=1e-300)


def test_drift_marks_overflowed_float16_positions() -> None:
    found = accuracy.drift((1000, 100_000), 16)
    assert np.isnan(found["float16 recipe"][1])
    assert found["pe float64"].max() <= BOUND
    assert found["float32 recipe"][1] > found["float32 recipe"][0]
    # by default the four decades 10^3..10^6: float16 positions overflow past 65504 only
    default = accuracy.drift()
    assert np.isnan(default["float16 recipe"]).tolist() == [False, False, True, True]
    assert np.all(np.diff(np.log10(default["float32 recipe"])) > 0.5)  # a decade apart


def test_separations_cover_both_tables_in_three_dtypes() -> None:
    found = accuracy.separations(2100, 8)
    assert [r.label for r in found][:2] == ["recipe in float16", "pe, rounded to float16"]
    assert found[0].duplicates > 0
    assert all(r.duplicates == 0 for r in found[1:])


@pytest.mark.parametrize("claim", claims.chapter.claims, ids=lambda c: c.id)
def test_claims_verify_and_reject_their_wrong_candidates(claim: Any) -> None:
    result = run(claim)
    assert result.holds, [e.detail for e in result.evidence]
    assert result.controls_rejected, [e.detail for e in result.controls]
    assert result.controls or (claim.source is not None and not claim.checks)


def test_benchmark_data_ships_inside_the_package() -> None:
    from pe.site import precision as page

    data = page.benchmark_results()
    assert {"machine", "rows", "targets"} <= set(data)
    assert "pe / np.full" in page.benchmark_table(data)
    assert page.benchmark_targets(data).count("<li>") == len(data["targets"])


def _nearest_float64_table(positions: Any, d: int) -> FloatArray:
    """Every entry of the rows at ``positions`` rounded to nearest float64 by mpmath (a loop)."""
    rows = np.atleast_1d(np.asarray(positions, dtype=np.int64))
    out = np.empty((rows.size, d))
    with mpmath.workdps(40):
        for r, p in enumerate(rows.tolist()):
            for c in range(d):
                theta = mpmath.mpf(p) * mpmath.power(10000, -mpmath.mpf(2 * (c // 2)) / d)
                out[r, c] = float(mpmath.sin(theta) if c % 2 == 0 else mpmath.cos(theta))
    return out


def test_rounding_census_counts_misrounded_entries() -> None:
    """A correctly rounded table (a loop over mpmath) gives 0; one ulp off in one row, more."""
    d = 4
    exact = accuracy.rounding_census(_nearest_float64_table, np.float64, d)
    assert (exact.misrounded, exact.worst_ulps <= 0.5) == (0, True)

    def nudged(positions: Any, width: int) -> FloatArray:
        table = _nearest_float64_table(positions, width)
        rows = np.atleast_1d(positions) == 5
        table[rows, 1] = np.nextafter(table[rows, 1], 2.0)
        return table

    assert accuracy.rounding_census(nudged, np.float64, d).misrounded == 1  # (5, 1) once
    with pytest.raises(ValueError, match="float32 or float64"):
        accuracy.rounding_census(numeric.sinusoidal, np.float16, d)


def test_float64_is_not_correctly_rounded_the_old_statement_is_rejected() -> None:
    """README and page used to call the float64 table correctly rounded."""
    assert claims._rounding_64(False).holds
    assert not claims._rounding_64(wrong.CORRECTLY_ROUNDED_64.value).holds
    assert claims._correctly_rounded_32(claims._float32).holds
    assert not claims._correctly_rounded_32(wrong.DIRECT_FLOAT32_TABLE.value).holds


def test_gptneox_1003_by_hand() -> None:
    """float16(w_1) = 0.5625 and 0.5625 * 1857 = 1044.5625, which float16 rounds to 1045;
    the float32 angle 1044.27 rounds to 1044 (float16 numbers in [1024, 2048) are whole)."""
    w1 = float(np.float16(10000.0 ** (-2 / 32)))
    assert w1 == 0.5625
    assert w1 * 1857 == 1044.5625
    assert float(np.float16(1044.5625)) == 1045.0
    assert float(np.float16(1857 * 10000.0 ** (-2 / 32))) == 1044.0
    assert float(np.spacing(np.float16(1024))) == 1.0
    exact = float(1857 * mpmath.power(10000, mpmath.mpf(-2) / 32))
    assert abs(abs(np.cos(1045.0) - np.cos(exact)) - 0.7149) < 1e-3
    assert claims._neox(recipes.half_frequency_angles).holds
    assert not claims._neox(wrong.ROUNDED_ANGLES.value).holds


def test_gptneox_1003_largest_change_is_where_the_page_says() -> None:
    """The page names the position and pair of the largest change: recomputed there by hand
    (float16 position times float16 frequency, its cosine in float16, against the float32
    angle), it is the largest change, and a neighbouring entry's change is not."""
    found = recipes.neox_reproducer()
    row, pair = found.where

    def change(p: int, i: int) -> float:
        inv = np.float32(1.0) / np.float32(10000.0) ** (np.float32(2 * i) / np.float32(32))
        angle16 = np.float16(np.float16(p) * np.float16(inv))
        angle32 = np.float32(np.float32(p) * inv)
        return float(abs(np.float32(np.cos(angle16)) - np.cos(angle32)))  # cos in float16

    assert change(row, pair) == found.largest_change
    assert change(pair, pair) != found.largest_change  # the row read as the pair
    assert change(row, pair + 1) != found.largest_change


def test_recipe_drift_is_checked_at_four_decades() -> None:
    """ "Drifts linearly" used to rest on one position; now on the growth over 10^3..10^6."""
    assert claims._drift_slope(recipes.float32_recipe).holds
    assert not claims._drift_slope(claims._float32).holds  # flat: slope 0
    assert claims._drift_bound(2.0**-24, 2, dict(recipes.NUMPY_FLOAT32_ULPS))(
        recipes.float32_recipe
    ).holds


def test_the_float32_recipe_rounds_its_exponent_twice_by_hand() -> None:
    """At d = 560, p = 527275, pair 249 (|ln w| = 8.2), the recipe written out in float32
    errs past (3 + |ln w|) u w p + u (one rounding of the exponent) and within
    (3 + 2 |ln w|) u w p + u: its scale -ln(b)/d is rounded to float32, then 2i times it."""
    d, p, i = 560, 527275, 249
    scale = np.float32(-np.log(10000.0) / d)
    exponent = np.float32(np.float32(2 * i) * scale)
    angle = np.float32(np.float32(p) * np.exp(exponent))
    exact = mpmath.mpf(p) * mpmath.power(10000, mpmath.mpf(-2 * i) / d)
    u, w = 2.0**-24, float(mpmath.power(10000, mpmath.mpf(-2 * i) / d))
    error = max(
        abs(float(np.sin(angle)) - float(mpmath.sin(exact))),
        abs(float(np.cos(angle)) - float(mpmath.cos(exact))),
    )
    once = (3 + abs(math.log(w))) * u * w * p + u
    twice = (3 + 2 * abs(math.log(w))) * u * w * p + u
    assert once < error <= twice
    assert not claims._recipe_roundings(1).holds
    assert claims._recipe_roundings(2).holds


def test_direct_float64_drifts_under_its_model_and_pe_does_not() -> None:
    assert claims._drift_slope(numeric.sinusoidal_direct).holds
    assert not claims._drift_slope(numeric.sinusoidal).holds
    bound = claims._drift_bound(2.0**-53, 0, claims.FLOAT64_DIRECT_ULPS)
    assert bound(numeric.sinusoidal_direct).holds
    assert not bound(recipes.float32_recipe).holds  # above the float64 model


def test_format_facts_agree_with_an_independent_float16() -> None:
    """The float16 facts again through struct's IEEE half format, without NumPy."""
    import struct

    def half(x: float) -> float:
        return float(struct.unpack("<e", struct.pack("<e", x))[0])

    assert half(2048.0) == 2048.0
    assert half(2049.0) == 2048.0  # the first integer float16 cannot hold
    assert all(half(float(n)) == n for n in range(2049))
    assert half(65519.0) == 65504.0
    with pytest.raises(OverflowError):
        struct.pack("<e", 65520.0)
    facts = claims.FORMAT_FACTS
    assert facts["float16: every integer up to"] == 2048
    assert facts["first integer overflowing float16"] == 65520
    assert claims._format_facts(facts).holds
    assert not claims._format_facts({**facts, "largest finite float16": 65536.0}).holds
    # 10^-8 at 10^4 needs 40 bits: 2^(13 - 40) < 1e-8 < 2^(13 - 39)
    assert 2.0 ** (13 - 40) <= 1e-8 < 2.0 ** (13 - 39)


def test_rounding_near_an_angle_of_10_pow_4() -> None:
    assert claims._rounding_near_angle(2.0**-11).holds
    assert not claims._rounding_near_angle(2.0**-10).holds
    assert not claims._rounding_near_angle(2.0**-12).holds  # exceeded


def test_angle_reduction_against_mpmath() -> None:
    turns = _extended_precision.frequency_turns(64, 10000.0)
    error, largest = accuracy.angle_reduction_error(turns, [2**53 - 1, 10**12 + 3, 5], 64)
    assert error <= _extended_precision.ANGLE_BOUND
    assert largest <= np.pi
    # independent: the reduced angle of p = 5, pair 3, straight from mpmath's sine
    s, e = _extended_precision._reduced_turns(np.array([5.0]), turns)
    x = 2 * np.pi * (s[0, 3] + e[0, 3])
    with mpmath.workdps(40):
        exact = 5 * reference.frequency(3, 64, dps=40)
        assert abs(mpmath.sin(x) - mpmath.sin(exact)) < 1e-15
    far, _ = accuracy.angle_reduction_error(turns[:2], [2**53 - 1], 64)
    assert far > 1e-20  # two doubles are not enough at 2^53
    assert accuracy.turn_bits(8) > 150
    # in radians: with no turns at all each reduced angle is 0, so the error is the angle
    # itself, w_0 p = p radians for pair 0 (w_0 = 1) while p < pi
    nothing = (np.zeros(4),)
    for p in (1, 3):
        assert accuracy.angle_reduction_error(nothing, [p], 8) == (float(p), 0.0)


def test_entry_bounds_and_their_wrong_numbers() -> None:
    root2 = float(np.sqrt(2))
    assert claims._entry_bounds((root2, 4.9e-16, 1.6e-15)).holds
    assert not claims._entry_bounds((1.0, 4.9e-16, 1.6e-15)).holds
    assert not claims._entry_bounds((root2, 4.0e-16, 1.6e-15)).holds  # below the bound
    assert not claims._entry_bounds((root2, 4.9e-16, 1.0e-15)).holds


def test_megatron_positions_collide_in_float16_only() -> None:
    assert claims._positions_in(np.float16).holds
    assert not claims._positions_in(np.float32).holds
    # independent count: float16 holds every integer to 2048, then steps of 2, 4, ..., 16
    steps = {2048: 1, 4096: 2, 8192: 4, 16384: 8, 32768: 16}
    below, total = 0, 0
    for top, step in steps.items():
        total += len(range(below, top, step))
        below = top
    assert np.unique(np.arange(32768).astype(np.float16)).size == total + 1  # 32768 itself


def test_page_values_compute_and_match_the_reference() -> None:
    from pe.site import precision as page

    values = {name: thunk() for name, thunk in page.VALUES.items()}
    number = {k: float(v) for k, v in values.items() if isinstance(v, int | float)}
    assert number.keys() == values.keys()
    assert values["reference_digits"] == 50
    assert values["radix"] == _rotation_table.RADIX
    # independent: the recipe's worst entry at p = 10^4, d = 64, against mpmath directly
    row = recipes.float32_recipe(np.array([10**4]), 64)[0].astype(np.float64)
    with mpmath.workdps(30):
        exact = [
            f(10**4 * reference.frequency(j // 2, 64, dps=30))
            for j, f in zip(range(64), [mpmath.sin, mpmath.cos] * 32, strict=True)
        ]
        worst = max(abs(mpmath.mpf(float(v)) - x) for v, x in zip(row, exact, strict=True))
    assert values["recipe32_at_1e4"] == pytest.approx(float(worst), rel=1e-6, abs=0)
    assert 1e-14 < number["direct64_at_1e3"] < number["direct64_at_1e6"] < 2.0**-53 * 10**6 * 4
    assert number["float16_neighbours"] > 1.0
    assert values["separation_positions"] == 4096
    assert number["turn_bits"] > 150


def test_benchmark_caption_names_each_width_once_and_hides_no_time() -> None:
    """The caption used to list d = 1024 twice with two costs, and "0.00" hid small times."""
    import re

    from pe.site import precision as page

    data = page.benchmark_results()
    text = str(page.benchmark_table(data))
    widths = re.findall(r"ms for d = (\d+)", text)
    assert len(widths) == len(set(widths)) == len({r["d"] for r in data["rows"]})
    cells = re.findall(r"<td>([0-9][0-9.e+-]*)</td>", text)
    assert cells
    assert all(float(c) > 0 for c in cells)


#: Every position the statements cover, 0 to 2^53, with its edges.
ANY_POSITION = st.integers(min_value=0, max_value=2**53)


@settings(max_examples=150, deadline=None)
@given(ANY_POSITION, st.sampled_from([2, 8, 64, 512, 768]))
@example(0, 512)
@example(1, 2)
@example(2**53, 512)
@example(2**53 - 1, 768)
@example(2**52 + 1, 64)
def test_anchor_angles_within_their_bound_at_any_position(position: int, d: int) -> None:
    """The reduced angle is within 2^-80 turns of w_i p mod 2 pi for every p <= 2^53 (sampled
    over the whole range, edges included), as derived in pe._extended_precision."""
    turns = _extended_precision.frequency_turns(d, 10000.0)
    error, largest = accuracy.angle_reduction_error(turns, [position], d)
    assert error <= _extended_precision.ANGLE_BOUND
    assert largest <= np.pi


@settings(max_examples=150, deadline=None)
@given(st.lists(ANY_POSITION, min_size=1, max_size=3), st.sampled_from([2, 6, 64, 512]))
@example([0, 2**53], 512)
@example([2**53 - 1, 1], 6)
def test_float64_rows_within_the_entry_bound_at_any_position(positions: list[int], d: int) -> None:
    """pe's float64 rows are within the entry bound of 50-digit mpmath for every p <= 2^53."""
    got = numeric.sinusoidal(positions, d)
    exact = reference.table(positions, d)
    assert float(np.abs(got - exact).max()) <= BOUND


@pytest.mark.parametrize("d", [8, 64])
def test_the_census_sample_is_what_its_docstring_says(d: int) -> None:
    """Every entry of rows 0..63 and 2^20 - 64 .. 2^20 - 1, and 2000 sampled entries: all
    below 2^20 (so that consecutive positions at both ends of [0, 2^20) are covered)."""
    positions, columns = accuracy.census_sample(d)
    assert positions.max() < 2**20
    assert np.all((columns >= 0) & (columns < d))
    entries = set(zip(positions.tolist(), columns.tolist(), strict=True))
    for row in [*range(64), *range(2**20 - 64, 2**20)]:
        assert all((row, c) in entries for c in range(d)), row
    assert positions.size == 128 * d + 2000


def test_the_drift_rows_start_at_every_decade_the_evidence_names() -> None:
    """The drift checks say "32 rows from each of p = 10^3..10^6": their starts are those
    four powers of ten, each once (a start moved onto another decade would drop one)."""
    evidence = precision._drift_bound(2.0**-24, 2, dict(recipes.NUMPY_FLOAT32_ULPS))(
        recipes.float32_recipe
    )
    assert "32 rows from each of p = 10^3..10^6" in evidence.detail
    assert sorted(precision.DRIFT_STARTS.tolist()) == [10**e for e in range(3, 7)]


@pytest.mark.parametrize("direction", [-np.inf, np.inf])
def test_the_census_counts_entries_rounded_either_way(direction: float) -> None:
    """A table one float32 step off the correctly rounded entries, below or above: every
    entry is misrounded."""

    def off(positions: Any, d_model: int) -> npt.NDArray[np.float32]:
        table = numeric.sinusoidal(positions, d_model, dtype=np.float32)
        return np.nextafter(table, np.float32(direction))

    census = accuracy.rounding_census(off, np.float32, 4)
    assert census.misrounded == census.entries
