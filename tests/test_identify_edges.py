"""``pe.identify`` just inside and just outside each of its thresholds and refusals.

Each threshold is a named constant of ``pe.identify``'s modules; the tests place a table a
factor :data:`MARGIN` inside and outside it, in float16, float32 and float64, for a fast
(base 100), the paper's (10000) and a slow (1e8) frequency law. Tests of the margins of
real tables (how far inside its threshold a correct table sits) keep a threshold from
being moved far from where the tables it must accept lie.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pe import numeric
from pe.identify import _explain, _fit, _inputs, _law, _layout, _tensors, identify
from pe.identify._fit import check_rest, fit_columns

DTYPES = [np.float16, np.float32, np.float64]
BASES = [100.0, 10000.0, 1e8]
#: How far inside (1 / MARGIN) and outside (MARGIN) of a threshold the tables are placed.
MARGIN = 2.5
N, D = 1100, 16
#: Rows: one fitted, one held out (checked against the fit only), the last.
ROWS = [500, 1090, N - 1]


def _eps(dtype: Any) -> float:
    return float(np.finfo(dtype).eps)


def _tolerance(base: float, dtype: Any) -> Any:
    """The residual tolerance of every column of the (N, D) table of ``base``."""
    w = np.repeat(numeric.frequencies(D, base), 2)
    return _explain.residual_tolerance(w, 0, N, _eps(dtype))


def _perturbed(base: float, dtype: Any, row: int, column: int, factor: float) -> Any:
    """The table with one entry moved towards 0 by ``factor`` times its column's tolerance."""
    table = numeric.sinusoidal(N, D, base=base).astype(np.float64)
    delta = factor * float(_tolerance(base, dtype)[column])
    value = table[row, column]
    table[row, column] = value - delta if value > 0 else value + delta
    return table.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("row", ROWS)
@pytest.mark.parametrize("column", [0, 1, D - 2, D - 1])
def test_one_entry_off_by_the_residual_tolerance(
    dtype: Any, base: float, row: int, column: int
) -> None:
    inside = identify(_perturbed(base, dtype, row, column, 1 / MARGIN))
    assert inside.is_encoding, inside.reason
    outside = identify(_perturbed(base, dtype, row, column, MARGIN))
    assert not outside.is_encoding
    assert f"identify's sinusoid fit misses column {column}" in outside.reason


def _law_change(base: float, dtype: Any, relative: float, start: int = 1050) -> Any:
    """Rows from ``start`` on turn ``1 + relative`` times faster (a law changed part-way)."""
    table = numeric.sinusoidal(N, D, base=base)
    omega = np.repeat(numeric.frequencies(D, base), 2) * (1 + relative)
    p = np.arange(start, N, dtype=np.float64)[:, None]
    phase = np.where(np.arange(D) % 2 == 0, 0.0, np.pi / 2)
    table[start:] = np.sin(p * omega + phase)
    return table.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("base", BASES)
def test_held_out_rows_catch_a_law_that_changes_part_way(dtype: Any, base: float) -> None:
    exact = numeric.sinusoidal(N, D, base=base)
    probe = 1e-9
    worst = float(
        np.max(np.abs(_law_change(base, np.float64, probe) - exact) / _tolerance(base, dtype))
    )
    scale = probe / worst  # the change whose largest error equals the tolerance
    inside = identify(_law_change(base, dtype, scale / MARGIN))
    assert inside.is_encoding, inside.reason
    outside = identify(_law_change(base, dtype, scale * MARGIN))
    assert not outside.is_encoding
    assert "not sinusoids of the position" in outside.reason


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_values_just_outside_one(dtype: Any, sign: float) -> None:
    table = numeric.sinusoidal(64, D).astype(np.float64)
    row, column = np.unravel_index(np.argmax(sign * table), table.shape)
    for steps, refused in ((_inputs.PEAK_EPS / 2, False), (_inputs.PEAK_EPS * 2, True)):
        moved = table.copy()
        moved[row, column] = sign * (1.0 + steps * _eps(dtype))
        found = identify(moved.astype(dtype))
        assert ("outside [-1, 1]" in found.reason) is refused, found.reason
        if sign > 0:  # cos(0) = 1 exactly: moved within the slack, the table still fits
            assert found.is_encoding is not refused


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_base_just_off_10000_is_noted(dtype: Any) -> None:
    paper = identify(numeric.sinusoidal(N, D).astype(dtype))
    sigma = paper.base_uncertainty
    assert sigma is not None
    edge = max(2 * sigma, _law.BASE_MATCH * 1e4)
    for offset, noted in ((edge / MARGIN / 2, False), (edge * MARGIN * 2, True)):
        found = identify(numeric.sinusoidal(N, D, base=10000.0 + offset).astype(dtype))
        assert found.law == "paper"
        assert any("not the paper's 10000" in n for n in found.notes) is noted, found.notes


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_pair_whose_frequencies_differ_slightly(dtype: Any) -> None:
    """Pair 0's sine turns 1 + rho times faster: agree within 2 sigma, plus the systematic
    bound of each column, plus AGREE_REL."""
    base_table = numeric.sinusoidal(N, D).astype(np.float64)
    paper = identify(base_table.astype(dtype))
    assert paper.sin_uncertainty is not None
    assert paper.cos_uncertainty is not None
    sigma = float(np.hypot(paper.sin_uncertainty[0], paper.cos_uncertainty[0]))
    fitted = base_table.astype(dtype)[:1024, :2].astype(np.float64)
    bias = float(fit_columns(fitted, np.ones(1024), _eps(dtype)).bias_w.sum())
    edge = 2 * sigma + bias + _layout.AGREE_REL
    p = np.arange(N, dtype=np.float64)
    noted = []
    for rho in (edge / MARGIN, edge * MARGIN):
        table = base_table.copy()
        table[:, 0] = np.sin(p * (1 + rho))
        found = identify(table.astype(dtype))
        noted.append(any("different frequencies" in n for n in found.notes))
    assert noted == [False, True]


def test_line_fit_threshold() -> None:
    line = _law._Line(0.0, -0.1, 1e-3, 1e-3, _law.LINE_FIT)
    assert _law._fits(line)
    assert not _law._fits(_law._Line(0.0, -0.1, 1e-3, 1e-3, _law.LINE_FIT * (1 + 1e-9)))
    assert not _law._fits(None)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("base", BASES)
def test_real_tables_sit_near_the_residual_threshold(dtype: Any, base: float) -> None:
    """The paper's float16/float32 tables use 1 % to 50 % of the residual tolerance."""
    table = numeric.sinusoidal(N, D, base=base).astype(dtype)
    fit = fit_columns(table[:1024].astype(np.float64), np.ones(1024), _eps(dtype))
    residual = np.maximum(fit.residual, check_rest(table, 1024, fit, np.arange(D)))
    ratio = float(np.max(residual / _explain.residual_tolerance(fit.w, 0, N, _eps(dtype))))
    assert 0.004 <= ratio <= 0.5


#: ``pe.identify``'s docstring, one line.
_IDENTIFY_DOC = " ".join((importlib.import_module("pe.identify").__doc__ or "").split())
#: A constant stated in it: ``NAME`` = value, the value in MiB where it says so.
_STATED = re.compile(r"``([A-Z][A-Z0-9_]+)`` = ([0-9][0-9.e+-]*)( MiB)?")


def _stated_constants() -> list[tuple[str, float]]:
    return [
        (m[1], float(m[2].rstrip(".;,")) * (2**20 if m[3] else 1))
        for m in _STATED.finditer(_IDENTIFY_DOC)
    ]


def _defined_in_identify(name: str) -> object:
    """The value of ``name`` in ``pe.identify``'s modules (one value, wherever imported)."""
    package = importlib.import_module("pe.identify")
    modules = [
        importlib.import_module(f"pe.identify.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
    ]
    values = {repr(vars(module)[name]) for module in modules if name in vars(module)}
    assert len(values) == 1, f"{name}: {sorted(values) or 'not defined'} in pe.identify"
    return float(values.pop())


def test_every_constant_named_in_the_docstring_states_its_value() -> None:
    """Each upper-case name in ``pe.identify``'s docstring comes with ``= value``, so that
    the test below checks it (a name stated without a value would escape it)."""
    named = set(re.findall(r"``([A-Z][A-Z0-9_]+)``", _IDENTIFY_DOC))
    assert named == {name for name, _ in _stated_constants()}
    assert {"QUARTER_TURN", "SAMPLE_ROWS", "MAX_PICKLE_BYTES"} <= named


@pytest.mark.parametrize(("name", "stated"), _stated_constants())
def test_thresholds_are_the_documented_ones(name: str, stated: float) -> None:
    """A threshold or limit moved in the code and not in ``pe.identify``'s docstring fails
    here (``SAMPLE_ROWS`` = 63 for 64, ``MAX_PICKLE_BYTES`` halved)."""
    assert _defined_in_identify(name) == stated


def test_residual_tolerance_is_the_documented_formula() -> None:
    """min(8 eps + 2 eps theta + 1e-8, 0.02), restated from the docstring."""
    w = np.array([1.0, 1e-2, 1e-4, 1e-8])
    for eps in (_eps(np.float16), _eps(np.float32), _eps(np.float64)):
        stated = np.minimum(8 * eps + 2 * eps * w * (3 + 1100) + 1e-8, 0.02)
        np.testing.assert_array_equal(_explain.residual_tolerance(w, -3, 1100, eps), stated)


def test_a_table_of_fit_rows_rows_is_not_refitted_and_one_row_more_is() -> None:
    """``refit_strided`` reads every ``ceil(n / FIT_ROWS)``-th row: a table of exactly
    FIT_ROWS rows was fitted on all of them and comes back as it was; one row more takes a
    stride of 2 and refits its slow columns."""
    rows = _inputs.FIT_ROWS
    table = numeric.sinusoidal(rows + 1, 8)
    fit = fit_columns(table[:rows].astype(np.float64), np.ones(rows), _eps(np.float64))
    slow = np.arange(8)[fit.w * 2 < 1.0]
    assert slow.size
    assert _fit.refit_strided(table[:rows], fit, slow, _eps(np.float64)) is fit
    assert _fit.refit_strided(table, fit, slow, _eps(np.float64)) is not fit


def _candidates(sinusoids: int, width: int) -> Any:
    """Two stored tensors whose sampled rows have ``sinusoids`` sinusoid columns of ``width``
    (the rest uniform noise), and the sampler that reads them."""
    rows = _tensors.SAMPLE_ROWS
    waves = np.sin(np.outer(np.arange(rows), 0.9 ** np.arange(sinusoids)))
    noise = np.random.default_rng(3).uniform(-1, 1, (rows, width - sinusoids))
    sample = np.concatenate([waves, noise], axis=1)
    tensors = [_tensors.Stored(f"w{i}", (rows, width), "F32") for i in range(2)]
    return tensors, (lambda _stored: sample)


def test_the_unsaved_buffer_hint_starts_just_below_looks_sinusoidal() -> None:
    """With ceil(LOOKS_SINUSOIDAL * width) sinusoid columns a tensor looks like a table (the
    error lists the likeliest); with one fewer, none does, and the error gives the hint."""
    width = 40
    enough = int(np.ceil(_tensors.LOOKS_SINUSOIDAL * width))
    for sinusoids, looks in ((enough, True), (enough - 1, False)):
        tensors, sample = _candidates(sinusoids, width)
        assert _tensors.sinusoid_score(sample(tensors[0])) == sinusoids / width
        with pytest.raises(ValueError, match="--tensor NAME is needed") as error:
            _tensors.choose("f.safetensors", tensors, None, {}, sample)
        assert ("likeliest tables" in str(error.value)) is looks
        assert (_tensors.UNSAVED_HINT in str(error.value)) is not looks


@pytest.mark.parametrize(
    ("scale", "passes"), [(1.01 * (1 - 1e-6), True), (1.01 * (1 + 1e-6), False)]
)
def test_a_sinusoid_column_must_stay_within_1_01(scale: float, passes: bool) -> None:
    """A column a sin(pi r / 2) is an exact sinusoid; it counts as a table's column while its
    values stay within 1.01 (a stored table's rounding), and not beyond."""
    column = scale * np.sin(np.pi / 2 * np.arange(_tensors.SAMPLE_ROWS))
    assert _tensors.sinusoid_score(column[:, None]) == (1.0 if passes else 0.0)


@pytest.mark.parametrize("seed", range(20))
def test_a_float16_table_with_an_extra_unit_of_noise_is_still_the_papers(seed: int) -> None:
    """Positions 500..599, d = 16, in float16, each entry moved by Gaussian noise of about
    one float16 unit (1e-3) before its rounding (a table rounded twice, or formed in half
    precision): its slow cosines barely move over a window of 32 rows, so the coarse
    windows of the fit must converge before the next one; the table is read as the paper's
    interleaved encoding, whatever the noise drawn."""
    rng = np.random.default_rng(seed)
    table = numeric.sinusoidal(np.arange(500, 600), 16, dtype=np.float16).astype(np.float64)
    noisy = (table + rng.normal(0.0, 1e-3, table.shape)).astype(np.float16)
    result = identify(noisy)
    assert result.is_encoding, result.reason
    assert (result.layout, result.law) == ("interleaved", "paper")


def test_only_a_zero_row_is_left_out_as_padding() -> None:
    """A sinusoidal table with one row zeroed (fairseq's padding row) still scores 1: the
    triples touching it are left out. The same row set to 0.5 everywhere is not padding:
    its triples count, and the fast columns are no sinusoids through it."""
    from pe.identify._tensors import sinusoid_score

    table = np.sin(np.outer(np.arange(64), [1.0, 0.3, 0.1, 0.03]))
    padded, corrupted = table.copy(), table.copy()
    padded[10], corrupted[10] = 0.0, 0.5
    assert sinusoid_score(padded) == 1.0
    assert sinusoid_score(corrupted) < 1.0


@pytest.mark.parametrize("phase", [0.5, 2.0, -2.0, -0.5])
def test_a_slow_columns_phase_comes_from_its_first_value_and_first_step(phase: float) -> None:
    """A column that turns less than half a radian over the rows: its phase is read from the
    first value (arcsin) and the direction of the first step (falling: pi minus arcsin), on
    both sides of the peak and of the trough."""
    r = np.arange(100.0)
    w = np.array([1e-4])
    x = np.sin(np.multiply.outer(r, w) + phase)
    found = _fit._phase(x, r, np.ones(100), w)
    assert found[0] == pytest.approx(phase, abs=1e-9)


def _noisy_phase_errors(m: int, turn: float, noise: float) -> npt.NDArray[np.float64]:
    """How far :func:`_fit._phase` lands from the true phase of 200 columns that turn by
    ``turn`` radians over ``m`` rows, with Gaussian noise, their phases away from a peak."""
    rng = np.random.default_rng(7)
    r = np.arange(float(m))
    w = np.full(200, turn / m)
    psi = rng.choice([-1.0, 1.0], 200) * rng.uniform(0.2, 1.2, 200)
    psi += rng.choice([0.0, np.pi], 200)
    x = np.sin(np.multiply.outer(r, w) + psi) + rng.normal(0.0, noise, (m, 200))
    return np.abs(_fit.wrap(_fit._phase(x, r, np.ones(m), w) - psi))


@pytest.mark.parametrize("turn", [0.55, 3.0, 30.0])
def test_a_turning_columns_phase_averages_its_noise_over_the_rows(turn: float) -> None:
    """Just past half a radian over the rows (the threshold is 0.5) and beyond, the phase
    comes from least squares over every row: closer than one value's noise, where reading it
    from the first value (the slow columns' way, the wrong candidate here) is not."""
    assert _noisy_phase_errors(400, turn, 1e-3).max() <= 1e-3


@pytest.mark.parametrize("turn", [0.05, 0.45])
def test_a_slow_columns_direction_is_voted_by_every_row(turn: float) -> None:
    """Below half a radian, noise larger than one step must not flip a rising column into a
    falling one (pi minus the phase): every row votes for the branch, so the phase stays
    within ten times the noise (a first-step vote missed by up to pi)."""
    assert _noisy_phase_errors(100, turn, 1e-3).max() <= 1e-2


@pytest.mark.parametrize(
    ("base", "note"),
    [
        (1e4, None),
        (1e8, "doubled-exponent bug"),
        (100.0, "base 100, not the paper's 10000:"),
    ],
)
@pytest.mark.parametrize("sigmas", [1.9, 2.1])
def test_a_fitted_base_is_a_round_one_within_two_standard_errors(
    base: float, note: str | None, sigmas: float
) -> None:
    """A base fitted ``sigmas`` standard errors from 10000, 1e8 or 100 is read as that base
    inside two standard errors (the paper's, the doubled-exponent bug, base 100) and as a
    base of its own ("base X, not the paper's 10000") just outside."""
    width, sigma_slope = 64, 1e-5
    fitted = base * (1 + sigmas * sigma_slope * width / 2)  # its standard error, relative
    line = _law._Line(0.0, -math.log(fitted) / (width / 2), 1e-6, sigma_slope, 0.0)
    fit = _law._paper_or_t2t(line, 2, width, [])
    inside = sigmas < 2
    assert fit.law == "paper"
    own_base = re.compile(r"base [0-9.e+]+, not the paper's 10000")
    assert any(own_base.fullmatch(n) for n in fit.notes) is not inside, fit.notes
    if note is not None:
        assert any(note in n for n in fit.notes) is inside, fit.notes


def test_a_column_zero_on_every_middle_row_scores_without_a_division_by_zero() -> None:
    """A live column that is zero wherever it would be the middle of a triple has no power to
    divide by: it scores as no sinusoid, quietly (warnings are errors in the suite)."""
    rows = np.sin(np.outer(np.arange(64), [1.0, 0.1, 0.01]))
    edge = np.zeros((64, 1))
    edge[0, 0] = edge[-1, 0] = 0.5
    assert _tensors.sinusoid_score(np.hstack([rows, edge])) == 0.75


def test_a_zero_row_in_the_first_half_moves_the_first_token_after_it() -> None:
    """Padding rows count as leading anywhere in the first half of the rows (row 5 of 16
    included), not only in its first quarter; one in the second half does not."""
    from pe.identify._explain import first_token_row
    from pe.identify._inputs import Padding

    assert first_token_row(Padding(np.ones(16), 4, (5,), []), 16) == 6
    assert first_token_row(Padding(np.ones(16), 4, (9,), []), 16) == 0


def test_the_padding_note_names_the_row_before_the_first_token() -> None:
    """A zero row 3 of a table whose row 0 is position 5: the first token reads row 4
    (position 9), and the note gives row 3, the padding row, as fairseq's padding_idx."""
    from pe.identify._explain import token_notes
    from pe.identify._inputs import Padding

    (note,) = token_notes(Padding(np.ones(16), 4, (3,), []), 5, 16)
    assert note == (
        "the first token reads row 4 (position 9), after the padding row 3, as in fairseq's "
        "stored tables (padding_idx = 3)"
    )
    assert token_notes(Padding(np.ones(16), 4, (), []), 5, 16) == []


@pytest.mark.parametrize("turned", [(), (3,), (2, 5)])
@pytest.mark.parametrize("order", ["sin-cos", "cos-sin"])
def test_pairs_turning_the_other_way_are_counted(order: str, turned: tuple[int, ...]) -> None:
    """Pairs of frequency 2π − ω_i (above π: integer positions show the alias ω_i turning
    back) are counted in a note, in either column order; the paper's table has none."""
    p = np.arange(200.0)
    w = numeric.frequencies(16)
    w[list(turned)] = 2 * np.pi - w[list(turned)]
    sines, cosines = np.sin(np.outer(p, w)), np.cos(np.outer(p, w))
    table = np.empty((200, 16))
    table[:, 0::2], table[:, 1::2] = (sines, cosines) if order == "sin-cos" else (cosines, sines)
    notes = [n.split(":")[0] for n in identify(table).notes if "turn the wrong way" in n]
    assert notes == ([f"{len(turned)} pairs turn the wrong way"] if turned else [])


@pytest.mark.parametrize(
    ("miss", "turned"),
    [(-_layout.QUARTER_TURN + 0.05, True), (_layout.QUARTER_TURN - 0.05, True),
     (_layout.QUARTER_TURN + 0.05, False), (np.pi - 0.3, False), (np.pi + 0.3, False)],
)  # fmt: skip
@pytest.mark.parametrize("order", ["sin-cos", "cos-sin"])
def test_a_pair_turns_the_other_way_only_within_the_quarter_turn_tolerance(
    order: str, miss: float, turned: bool
) -> None:
    """Pair 3's cosine column moved by π + ``miss`` radians: its phase gap is ``miss`` from
    the other quarter turn. Within ``QUARTER_TURN`` of it the pair turns the other way;
    beyond (a pair nearly in phase, ``miss`` near π, included) it turns neither way and is
    a column that disagrees with the table's offset."""
    p = np.arange(200.0)
    w = numeric.frequencies(16)
    sines, cosines = np.sin(np.outer(p, w)), np.cos(np.outer(p, w))
    cosines[:, 3] = np.cos(w[3] * p + np.pi + miss)
    table = np.empty((200, 16))
    table[:, 0::2], table[:, 1::2] = (sines, cosines) if order == "sin-cos" else (cosines, sines)
    notes = identify(table).notes
    assert any(n.startswith("1 pairs turn the wrong way") for n in notes) is turned, notes
    assert any("disagree with a single offset" in n for n in notes) is not turned, notes


def test_a_wide_tensor_is_sampled_within_the_byte_cap() -> None:
    """A tensor too wide for SAMPLE_ROWS rows in SAMPLE_BYTES is sampled in as many whole rows
    as fit: never more bytes than the cap, and less than one row short of it."""
    for width in (2**15, 3 * 2**13 + 1):
        stored = _tensors.Stored("w", (1000, width), "F32")
        taken = _tensors.sample_bytes(stored, 4)
        assert _tensors.SAMPLE_BYTES - 4 * width < taken <= _tensors.SAMPLE_BYTES
