"""The chapter "The sinusoidal encoding": its proofs, its measurements and its wrong candidates."""

from __future__ import annotations

import math
import re

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from pe import (
    concatenation,
    embeddings,
    frequency_ladder,
    geometry,
    numeric,
    reference,
)
from pe.chapters import sinusoidal_encoding as chapter_claims
from pe.chapters import sinusoidal_encoding as proofs
from pe.claims import Candidate
from tests.helpers import wrong


def test_wavelength_proof_and_wrong_candidates() -> None:
    proof = proofs.wavelength_progression()
    assert proof.holds
    assert list(proof.residual) == [0, 0, 0, 0]
    last = proofs.wavelength_progression(wrong.LAST_WAVELENGTH_2PI_BASE.value)
    assert not last.holds
    assert list(last.residual)[:2] == [0, 0]  # only the stated last wavelength is wrong
    assert not proofs.wavelength_progression(wrong.DOUBLED_EXPONENT_WAVELENGTHS.value).holds


def test_width_refinement() -> None:
    assert proofs.width_refinement().holds
    assert not proofs.width_refinement(wrong.SAME_INDEX_WIDER.value).holds
    assert not proofs.width_refinement(3).holds
    np.testing.assert_array_equal(numeric.frequencies(64), numeric.frequencies(128)[::2])


def test_worked_example_against_the_reference_and_math() -> None:
    table = numeric.sinusoidal(4, 512)
    exact = reference.table(range(4), 512)
    assert np.array_equal(table[0], np.tile([0.0, 1.0], 256))
    assert exact[1, 0] == pytest.approx(math.sin(1.0), abs=1e-16)
    assert exact[1, 1] == pytest.approx(math.cos(1.0), abs=1e-16)
    assert exact[1, 256] == pytest.approx(math.sin(0.01), abs=1e-17)
    assert exact[1, 511] == pytest.approx(math.cos(10000 ** (-510 / 512)), abs=1e-16)
    assert 1 - exact[1, 511] < 1e-8
    np.testing.assert_allclose(table, exact, atol=4.5e-16)


@pytest.mark.parametrize(
    ("candidate", "error"),
    [(wrong.DOUBLED_EXPONENT_TABLE, 0.7), (wrong.ONE_INDEXED_TABLE, 0.1)],
    ids=["doubled-exponent", "one-indexed"],
)
def test_wrong_tables_miss_the_worked_example(
    candidate: Candidate[chapter_claims.Table], error: float
) -> None:
    exact = reference.table(range(4), 512)
    assert np.abs(candidate.value(4, 512) - exact).max() == pytest.approx(error, abs=0.01)


def test_step_distance_proof() -> None:
    assert proofs.step_distance().holds
    assert not proofs.step_distance(wrong.STEP_IS_OMEGA.value).holds
    table = numeric.sinusoidal(50, 16)
    omega = numeric.frequencies(16)
    steps = np.linalg.norm(np.diff(table.reshape(50, 8, 2), axis=0), axis=2)
    expected = np.broadcast_to(2 * np.sin(omega / 2), steps.shape)
    np.testing.assert_allclose(steps, expected, atol=1e-14)


def test_period_mean_proof() -> None:
    assert proofs.period_mean().holds
    squares = proofs.period_mean(wrong.SQUARED_MEAN.value)
    assert not squares.holds
    assert list(squares.residual) == [sp.Rational(1, 2), sp.Rational(1, 2)]


@pytest.mark.parametrize("width", [1, 2, 3])
def test_concat_projection_proof(width: int) -> None:
    assert proofs.concat_projection(width=width).holds
    assert not proofs.concat_projection(wrong.TIED_PROJECTION.value, width=width).holds


@pytest.mark.parametrize("width", [2, 3])
def test_concat_projection_is_proved_for_independent_entries(width: int) -> None:
    """A candidate right only when the entries of e (or of q) are equal is rejected: the
    proof's vectors have independent entries (symbols that coincide would prove less)."""

    def flipped(w_e: sp.Matrix, w_q: sp.Matrix, e: sp.Matrix, q: sp.Matrix) -> sp.Matrix:
        return w_e * sp.Matrix(list(reversed(list(e)))) + w_q * q

    def flipped_q(w_e: sp.Matrix, w_q: sp.Matrix, e: sp.Matrix, q: sp.Matrix) -> sp.Matrix:
        return w_e * e + w_q * sp.Matrix(list(reversed(list(q))))

    assert not proofs.concat_projection(flipped, width=width).holds
    assert not proofs.concat_projection(flipped_q, width=width).holds


def test_projection_text() -> None:
    assert concatenation.projection_text(concatenation.separate_projections) == "W_e e + W_u u"
    assert concatenation.projection_text(wrong.TIED_PROJECTION.value) == "W_e (e + u)"


@pytest.mark.parametrize("d", [64, 1024])
def test_cosines_spread_like_one_over_sqrt_d(d: int) -> None:
    cosines = embeddings.cosine_embedding_encoding(embeddings.random_embeddings(500, d), 50)
    assert cosines.std() * math.sqrt(d) == pytest.approx(1.0, abs=0.08)
    aligned = embeddings.cosine_embedding_encoding(embeddings.embeddings_plus_pe0(500, d), 50)
    assert aligned.mean() > 2 * cosines.std()


def test_encoding_subspace_share() -> None:
    rank, share = embeddings.encoding_subspace_share(100, 128)
    table = numeric.sinusoidal(100, 128)
    singular = np.linalg.svd(table, compute_uv=False)
    assert rank == int((singular > 1e-3 * singular[0]).sum())
    assert 1 <= rank < 128
    assert share == pytest.approx(rank / 128, rel=0.15, abs=0)
    inside = embeddings.encoding_row_embeddings(50, 128, n_positions=100)
    _, share = embeddings.encoding_subspace_share(100, 128, embeddings=inside)
    assert share == pytest.approx(1.0, abs=1e-3)


def test_wrapped_rows_distance() -> None:
    assert geometry.rows_distance_past(64, horizon=2000) > 1.0
    whole = 2 * np.pi * np.round(numeric.frequencies(64) * 2000 / (2 * np.pi)) / 2000
    assert geometry.rows_distance_past(64, horizon=2000, frequencies=whole) < 1e-6
    # independent: the distance at offset 2000 of the paper's law, by mpmath
    exact = mpmath.sqrt(
        mpmath.fsum(
            2 - 2 * mpmath.cos(mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / 64) * 2000)
            for i in range(32)
        )
    )
    assert geometry.rows_distance_past(64, horizon=2000) <= float(exact) + 1e-9
    with pytest.raises(ValueError, match="frequencies must have shape"):
        geometry.rows_distance_past(64, horizon=2000, frequencies=np.ones(3))


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="d_model must be even"):
        frequency_ladder.pair_columns(7)
    with pytest.raises(ValueError, match="horizon must be an integer >= 1000"):
        geometry.rows_distance_past(8, horizon=10)
    with pytest.raises(TypeError, match="base must be an integer"):
        frequency_ladder.ratio_equals_two_width(1.5)  # type: ignore[arg-type]


def test_checks_that_were_tautologies_now_read_the_table() -> None:
    """pair-index-range compares pe's table with the pairs; base-is-not-a-length asks for the
    neighbours' distance; width-refines-frequencies counts where the new frequencies go."""
    from pe.chapters import sinusoidal_encoding as claims
    from tests.helpers import wrong

    assert claims._columns(range(256)).holds
    for misread in (wrong.ONE_INDEXED_PAIRS, wrong.PAIRS_AS_COLUMNS, wrong.INCLUSIVE_PAIRS):
        assert not claims._columns(misread.value).holds, misread.name
    # the one-indexed range misses by one pair and two columns, nothing more
    census = frequency_ladder.pair_column_census(wrong.ONE_INDEXED_PAIRS.value, 512)
    assert (census.matched, census.missing, census.each_column_once) == (255, 1, False)
    assert claims._past_base(numeric.frequencies(512)).holds
    assert not claims._past_base(wrong.WHOLE_TURNS_PER_BASE.value).holds
    assert claims._inserted((255, 1)).holds
    assert not claims._inserted(wrong.ONLY_BETWEEN.value).holds
    assert geometry.neighbour_distance(512) == pytest.approx(
        math.sqrt(sum(2 - 2 * math.cos(10000 ** (-2 * i / 512)) for i in range(256))),
        rel=1e-13,
        abs=0,
    )


def test_stream_and_embedding_scale_statements() -> None:
    """ "Four such projections (queries, keys, values, output)" and "multiplied by sqrt(d)"
    were imprecise: the claims now name what reads the stream and the initialisation."""
    from pe.chapters import sinusoidal_encoding as claims
    from tests.helpers import wrong

    uses = concatenation.layer_matrices(512)
    assert sum(a * b for a, b in (u.shape for u in uses.values())) == 4 * 512 * 512 + 2 * 512 * 2048
    assert [n for n, u in uses.items() if u.writes_stream] == ["W_O", "W_2"]
    wide = concatenation.layer_matrices(1024)
    assert wide["W_O"].shape == (512, 1024)
    assert wide["W_Q"].shape == (1024, 512)
    with pytest.raises(ValueError, match="stream"):
        concatenation.layer_matrices(0)
    assert claims._stream_matrices(("W_Q", "W_K", "W_V", "W_1")).holds
    assert not claims._stream_matrices(wrong.QKV_AND_OUTPUT_READ.value).holds
    assert claims._embedding_scale(1 / math.sqrt(512)).holds
    assert not claims._embedding_scale(wrong.UNIT_EMBEDDING_INIT.value).holds


def test_the_old_wordings_on_widths_and_wavelengths_are_rejected() -> None:
    """ "Always from 1 down to just above 10000^-1", "just under 2π·10000", "a few dozen"."""
    chapter = chapter_claims
    assert chapter._slowest(frequency_ladder.slowest_frequency).holds
    assert not chapter._slowest(chapter.SLOWEST_IS_BASE_INVERSE.value).holds
    assert numeric.frequencies(8)[-1] == pytest.approx(1e-3, rel=1e-15, abs=0)
    assert chapter._shortfall(chapter.SHORTFALL_PERCENT).holds
    assert not chapter._shortfall(chapter.JUST_UNDER_EVERYWHERE.value).holds
    assert chapter._subspace_rank(chapter.SUBSPACE_RANKS).holds
    assert not chapter._subspace_rank(chapter.RANK_WITHOUT_CUTOFF.value).holds


@given(st.integers(min_value=1, max_value=4096))
def test_slowest_frequency_of_every_width_by_mpmath(half: int) -> None:
    """Every even width: the last frequency is 10000^(-(d-2)/d), the float64 nearest to it
    (40-digit mpmath, rounded once), above 10000^-1 by 10000^(2/d)."""
    d = 2 * half
    with mpmath.workdps(40):
        exact = mpmath.power(10000, mpmath.mpf(-(d - 2)) / d)
        assert float(numeric.frequencies(d)[-1]) == float(exact)
        above = mpmath.power(10000, mpmath.mpf(2) / d)
        assert float(exact * 10000) == pytest.approx(float(above), rel=1e-15, abs=0)


@pytest.mark.parametrize("factor", [1, 2])
def test_the_refinement_evidence_names_both_widths(factor: int) -> None:
    """The card names the width and its double, the ones the check compared."""
    import re

    for d in (64, 512):
        found = re.match(r"d=(\d+) vs d=(\d+):", chapter_claims._refinement(d, factor).text)
        assert found is not None
        assert (int(found.group(1)), int(found.group(2))) == (d, 2 * d)


def test_the_inserted_frequencies_evidence_counts_what_it_names() -> None:
    """The card names the old width, the doubled one and how many frequencies are new
    (half of the doubled width's, d/2: every second one)."""
    import re

    text = chapter_claims._inserted((255, 1)).text
    found = re.match(r"d=(\d+) -> (\d+): of the (\d+) new frequencies", text)
    assert found is not None, text
    old, new, count = (int(g) for g in found.groups())
    assert (new, count) == (2 * old, old // 2)
    assert old == chapter_claims.D


def test_the_doubled_exponent_card_shows_its_own_ratio_residual() -> None:
    """The wavelength-progression card rejects the doubled exponent lambda_i = 2 pi
    10000^(4i/d) by the first residual, lambda_(i+1)/lambda_i - 10000^(2/d) = 10000^(4/d) -
    10000^(2/d): the same for every i, and at the d it names, the number it prints."""
    from pe import claims

    (claim,) = [c for c in claims.all_claims() if c.id == "wavelength-progression"]
    candidate = wrong.DOUBLED_EXPONENT_WAVELENGTHS
    (check,) = [c for c in claim.checks if candidate in c.wrong and c.run(c.true).proof]
    shown = check.run(candidate.value).shown
    found = re.search(r"disproved at d = (\d+), entry \[0\] = (\S+): residual is not zero", shown)
    assert found is not None, shown
    d = int(found.group(1))
    exact = sp.Integer(10000) ** sp.Rational(4, d) - sp.Integer(10000) ** sp.Rational(2, d)
    assert sp.nsimplify(found.group(2)) == exact


@pytest.mark.parametrize("width", [2, 3])
def test_concat_projection_is_proved_for_independent_matrix_entries(width: int) -> None:
    """A candidate right only when the rows of W_e (or of W_q) are equal is rejected: the
    proof's matrices have width * width independent entries each."""

    def reversed_rows(w: sp.Matrix) -> sp.Matrix:
        n = w.shape[0]
        return sp.Matrix(n, n, lambda r, c: int(r + c == n - 1)) * w

    def flipped_w_e(w_e: sp.Matrix, w_q: sp.Matrix, e: sp.Matrix, q: sp.Matrix) -> sp.Matrix:
        return reversed_rows(w_e) * e + w_q * q

    def flipped_w_q(w_e: sp.Matrix, w_q: sp.Matrix, e: sp.Matrix, q: sp.Matrix) -> sp.Matrix:
        return w_e * e + reversed_rows(w_q) * q

    assert not proofs.concat_projection(flipped_w_e, width=width).holds
    assert not proofs.concat_projection(flipped_w_q, width=width).holds


def test_the_stream_card_counts_the_weights_a_doubled_stream_adds() -> None:
    """A 2d-wide stream doubles one side of every matrix that reads or writes it: W_Q, W_K,
    W_V and W_O (d x d each) and W_1, W_2 (d x d_ff), so it adds 4 d^2 + 2 d d_ff weights
    per layer; the card prints that count (a b ^ a for b - a printed another number)."""
    d, d_ff = proofs.D, 2048
    evidence = proofs._stream_matrices(("W_Q", "W_K", "W_V", "W_1"))
    found = re.search(r"stream adds ([\d,]+) weights per layer", evidence.detail)
    assert found is not None, evidence.detail
    assert int(found.group(1).replace(",", "")) == 4 * d * d + 2 * d * d_ff


def test_the_projection_cost_check_allows_its_stated_rounding() -> None:
    """W[e; q] against W_e e + W_q q is held to (gamma_2d + gamma_(d+1)) max |W||x|, its
    model, worked out here for the check's own seeded W, e, q (a gamma of another length
    is not the model the card states)."""
    d = proofs.D
    evidence = proofs._costs(lambda w_e, w_q, e, q: w_e @ e + w_q @ q)
    rng = np.random.default_rng(0)
    e, q = rng.standard_normal(d), rng.standard_normal(d)
    w = rng.standard_normal((d, 2 * d))
    magnitude = float((np.abs(w) @ np.abs(np.concatenate([e, q]))).max())
    u = 2.0**-53

    def gamma(m: int) -> float:
        return m * u / (1 - m * u)

    assert evidence.tolerance is not None
    expected = (gamma(2 * d) + gamma(d + 1)) * magnitude
    assert abs(evidence.tolerance.value - expected) <= 1e-12 * expected
