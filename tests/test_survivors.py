"""Behaviour that the tool-made mutants of ``make mutants`` showed untested.

Each test names the kind of fault it catches; none restates a value pe computed.
"""

from __future__ import annotations

import json
import math
import re
import struct
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import pytest

from pe import _extended_precision, _validate, bug_zoo, claims, error_models, numeric, recipes
from pe._machine_dependent import _round_up
from pe._rotation_table import ENTRY_ERROR_BOUND
from pe._tolerance import EPS64, gamma, phase_tolerance
from pe.accuracy import angle_reduction_error, rounding_census
from pe.chapters import precision
from pe.chapters.rotation_identity import block_diagonal_identity
from pe.chapters.why_order import equivariance
from pe.geometry import symmetry_gap
from pe.identify import _law, identify, load_table
from pe.identify._result import significant_digits
from pe.position_designs import LearnedPositions


@pytest.mark.parametrize("d", [8, 64, 512])
def test_offset_distance_bound_is_its_documented_formula(d: int) -> None:
    """Fault caught: a term of the bound changed (2 d gamma_(d/2) made 2^d gamma_(d/2), the
    cosine's factor 2 made 1). D_k comes from mpmath; the rest from the docstring."""
    offsets = np.array([1, 7, 50, 1000])
    with mpmath.workdps(40):
        omegas = [mpmath.power(10000, mpmath.mpf(-2 * i) / d) for i in range(d // 2)]
        distance = np.array(
            [
                float(mpmath.sqrt(sum(2 - 2 * mpmath.cos(w * int(k)) for w in omegas)))
                for k in offsets
            ]
        )
    u, e = EPS64 / 2, 2 * ENTRY_ERROR_BOUND + EPS64
    table_side = d * (4 * e + e**2 + 4 * u) + 4 * d * gamma(d)
    w = np.array([float(x) for x in omegas])
    cosines = 2 * phase_tolerance(EPS64, w[None, :], offsets[:, None].astype(float)).sum(axis=1)
    formula_side = cosines + d / 2 * 4 * u + 2 * d * gamma(d // 2)
    stated = (table_side + formula_side) / (2 * distance) + 2 * u * distance
    found = error_models.offset_distance_bound(offsets, d)
    np.testing.assert_allclose(found, stated, rtol=1e-9)


def test_sinusoidal_direct_refuses_before_it_allocates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: the cap's bytes per element made 0 (``4 >> itemsize``): a table above
    pe.MAX_BYTES counted as the angles (4 bytes) plus the entries must be refused first."""

    def allocates(*_: Any) -> Any:
        raise AssertionError("the table was allocated before the cap was checked")

    monkeypatch.setattr(numeric, "_table", allocates)
    width = 64
    for itemsize, dtype in ((8, np.float64), (4, np.float32)):
        rows = _validate.MAX_BYTES // (width * (4 + itemsize)) + 1
        with pytest.raises(ValueError, match="above pe's cap"):
            numeric.sinusoidal_direct(rows, width, dtype=dtype)
    # a table within the cap counted this way is not refused (it reaches the allocation)
    rows = _validate.MAX_BYTES // (width * (4 + 8))
    with pytest.raises(AssertionError, match="allocated"):
        numeric.sinusoidal_direct(rows, width)


def test_a_learned_table_names_its_last_row_when_it_refuses() -> None:
    """Fault caught: the message's range off by one ([0, n_max] for [0, n_max - 1])."""
    learned = LearnedPositions(n_max=10, d_model=4)
    assert learned.lookup(np.array([0, 9])).shape == (2, 4)
    with pytest.raises(ValueError, match=r"^positions must be in \[0, 9\]: .* position 10$"):
        learned.lookup(np.array([3, 10]))
    with pytest.raises(ValueError, match=r"^positions must be in \[0, 9\]"):
        learned.lookup(np.array([-1]))


def test_the_aliased_pairs_are_named_from_the_first_to_the_last() -> None:
    """Fault caught: the note's last pair off (``h ^ 1`` for ``h - 1``)."""
    h = 8
    k = np.arange(h, dtype=np.float64)
    w = np.exp(0.3 * k)  # grows: pairs 4 .. 7 would turn faster than pi
    w[4:] = 2 * math.pi - w[4:]  # what the table shows of them: aliases below pi
    w[4:] = np.abs(w[4:])
    s = np.full(h, 1e-9)
    notes: list[str] = []
    good = np.ones(h, dtype=bool)
    line = _law._aliased_prefix(k, w, s, good, floor=1e-12, notes=notes)
    assert line is not None
    assert line.slope == pytest.approx(0.3, rel=1e-6, abs=0)
    assert len(notes) == 1
    assert notes[0].startswith(f"pairs 4 to {h - 1} would have frequencies above π")
    assert "pairs 0 to 3" in notes[0]


def _nested(levels: int) -> tuple[object, str]:
    """A tensor reference inside ``levels`` nested dicts, and its dotted name."""
    from pe.identify import _torch

    leaf: object = _torch.TensorRef(_torch._StorageRef("0", "float32", 8), 0, (2, 4), (4, 1))
    names = [f"m{i}" for i in range(levels)]
    for name in reversed(names):
        leaf = {name: leaf}
    return leaf, ".".join(names)


def test_a_checkpoint_is_read_to_max_depth_dicts_and_no_deeper() -> None:
    """Fault caught: the depth limit off by one (MAX_DEPTH 15): the documented limit is 16
    nested dicts (a state dict of a model within a checkpoint within a dict is 3 or 4)."""
    from pe.identify import _torch

    for levels, read in ((16, True), (17, False)):
        value, name = _nested(levels)
        found: dict[str, Any] = {}
        _torch._flatten(value, "", 0, found)
        assert (name in found) is read, levels
        assert len(found) == int(read)


def test_a_storage_key_of_64_characters_is_read_and_65_is_refused() -> None:
    """Fault caught: the key-length guard made ``== 64`` (a longer key let through)."""
    import io
    import pickle

    from pe.identify import _torch

    kind = _torch._StorageType(next(iter(_torch.STORAGES.values())))
    for length, read in ((64, True), (65, False), (1, True)):
        unpickler = _torch._Unpickler(io.BytesIO(b""))
        pid = ("storage", kind, "k" * length, "cpu", 8)
        if read:
            assert unpickler.persistent_load(pid).key == "k" * length
        else:
            with pytest.raises(pickle.UnpicklingError, match="without a known type or key"):
                unpickler.persistent_load(pid)


def test_row_independence_is_held_to_twice_the_attention_bound() -> None:
    """Fault caught: the tolerance's factor 2 changed (``2 % bound``, a tighter or looser
    tolerance than the error model's): it is twice the largest bound, for any width."""
    from pe import attention

    for n, d in ((8, 16), (32, 64)):
        x = attention._layer_input(n, d, attention.NO_ENCODING)
        bound = float(attention.attention_error_bound(x, attention.toy_attention(d)).max())
        assert attention.row_independence_tolerance(n, d) == 2 * bound


def test_identify_accuracy_measures_even_widths_from_8_to_4096() -> None:
    """Fault caught: a default width moved to an odd one (9): the paper's law has pairs,
    so every measured width is even, and the page's range runs from 8 to 4096."""
    from pe.identify_accuracy import identify_accuracy

    rows = identify_accuracy(32)
    widths = sorted({row.d for row in rows})
    assert all(d % 2 == 0 for d in widths), widths
    assert (widths[0], widths[-1]) == (8, 4096)
    assert all(row.fitted_base is not None for row in rows)


class _NoOuterProducts:
    """NumPy, except that forming the (offsets, frequencies) product fails the test."""

    def __getattr__(self, name: str) -> Any:
        if name == "multiply":
            raise AssertionError("the products were allocated before the cap was checked")
        return getattr(np, name)


def test_dot_by_offset_refuses_before_it_allocates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault caught: the cap counted ``offsets & frequencies`` for their product."""
    from pe import geometry

    monkeypatch.setattr(geometry, "np", _NoOuterProducts())
    width = 2**12  # 2048 frequencies
    offsets = _validate.MAX_BYTES // (16 * width // 2) + 1
    with pytest.raises(ValueError, match="above pe's cap"):
        geometry.dot_by_offset(width, np.arange(offsets))
    with pytest.raises(AssertionError, match="allocated"):
        geometry.dot_by_offset(width, np.arange(offsets - 1))


def _archive_with_pickle_of(path: Any, size: int) -> None:
    """A torch.save-like zip whose data.pkl is ``size`` zero bytes, stored, written in chunks."""
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        info = zipfile.ZipInfo("archive/data.pkl")
        with archive.open(info, "w", force_zip64=True) as handle:
            chunk = bytes(2**20)
            for start in range(0, size, len(chunk)):
                handle.write(chunk[: min(len(chunk), size - start)])


def test_a_pickle_above_the_limit_is_refused_naming_the_limit_in_mib(tmp_path: Any) -> None:
    """Fault caught: the limit shown in MiB miscomputed (``// 2*20`` for ``// 2**20``); the
    limit itself: one byte above is refused for its size, the limit itself is read on."""
    import zipfile

    from pe.identify import _torch

    limit = _torch.MAX_PICKLE_BYTES
    mib = limit / 2**20
    assert mib == int(mib)
    above, at = tmp_path / "above.pt", tmp_path / "at.pt"
    _archive_with_pickle_of(above, limit + 1)
    shown = f"holds {limit + 1} bytes, above pe's limit of {int(mib)} MiB"
    with zipfile.ZipFile(above) as archive, pytest.raises(ValueError, match=shown):
        _torch.torch_tensors(archive, "above.pt")
    _archive_with_pickle_of(at, limit)
    with zipfile.ZipFile(at) as archive, pytest.raises(ValueError, match="not a readable"):
        _torch.torch_tensors(archive, "at.pt")
    above.unlink()  # 64 MiB each: not left behind in pytest's kept temporary folders
    at.unlink()


def test_a_table_filled_by_threads_has_every_row() -> None:
    """Fault caught: the row chunks handed to the threads cut short (``k - step`` for
    ``k + step``), leaving rows unfilled: a table large enough to be filled by threads
    (2**20 entries) agrees, on rows spread over every chunk, with the same rows computed
    alone, within twice the entry bound."""
    from pe._rotation_table import _THREADED_ENTRIES

    d = 32
    n = _THREADED_ENTRIES // d
    big = numeric.sinusoidal(n, d)
    rows = np.unique(np.concatenate([np.arange(0, n, 997), np.arange(n - 8, n)]))
    alone = numeric.sinusoidal(rows, d)
    assert np.abs(big[rows] - alone).max() <= 2 * ENTRY_ERROR_BOUND


@pytest.mark.parametrize("d", [8, 64, 512])
def test_shift_orthogonality_bounds_are_their_documented_formulas(d: int) -> None:
    """Fault caught: a term of the determinant's bound dropped or turned into another
    operation. 4 sqrt2 eps + gamma_2, and d/2 (4 sqrt2 + 4) eps + gamma_d, eps = 2^-53."""
    eps = 2.0**-53
    gram, det = error_models.shift_orthogonality_bounds(d)
    assert gram == pytest.approx(4 * math.sqrt(2) * eps + gamma(2), rel=1e-14, abs=0)
    assert det == pytest.approx(d / 2 * (4 * math.sqrt(2) + 4) * eps + gamma(d), rel=1e-14, abs=0)


def test_a_table_s_dimensions_are_read_from_any_batch_of_one_row() -> None:
    """Fault caught: a batch of tables one row long read as one table of a single row.
    (b, 1, d) holds b positions of width d for every b > 1; (1, 1, d) one position."""
    from pe.identify._tensors import table_dims

    for b in (2, 3, 5000):
        assert table_dims((b, 1, 64)) == (b, 64)
    assert table_dims((1, 1, 64)) == (1, 64)
    assert table_dims((1, 7, 64)) == (7, 64)


@pytest.mark.parametrize("first", [0, 128, 2048, 2176])
def test_composed_anchors_of_a_range_are_the_gathered_ones_bit_for_bit(first: int) -> None:
    """Faults caught: the broadcast shortcut for float32/float16 anchors taken for a range
    whose first row is not a multiple of RADIX * BLOCK (``>>`` for ``%``), which splits the
    positions another way; and the shortcut multiplying its operands in the other order
    (NumPy's complex product is not commutative to the last bit: 990 of 4096 anchors
    differed by 1.1e-16). Either makes a row's bits depend on where its range began. The
    shortcut (at 0 and 2048) and the general path (at 128 and 2176) give the same bits."""
    from pe._extended_precision import frequency_turns
    from pe._rotation_table import BLOCK, _anchor_set, _range_anchors

    turns = frequency_turns(64, 10000.0)
    rows, factors = _range_anchors(first, 40 * BLOCK, turns, None, True)
    alone = _anchor_set(np.arange(BLOCK, dtype=np.float64), 1, turns, None, True)
    from_zero = _range_anchors(0, first + 40 * BLOCK, turns, None, True)[1]
    assert np.array_equal(rows, alone)
    assert np.array_equal(factors, from_zero[first // BLOCK :])


def test_a_bound_of_two_digits_is_printed_as_it_is() -> None:
    """Fault caught: the guard against a quotient landing just above a whole number dropped
    from the rounding up of a printed bound (5.6e-19 read as 5.7e-19)."""
    for exponent in range(-20, 5):
        for mantissa in range(10, 100):
            bound = mantissa * 10.0**exponent
            assert _round_up(bound) == f"{bound:.2g}", bound
            assert _round_up(bound * (1 + 1e-9)) == f"{(mantissa + 1) * 10.0**exponent:.2g}"


def test_the_summary_names_the_base_it_found() -> None:
    """Fault caught: the base left out of the law line (a test on None turned round)."""
    lines = identify(numeric.sinusoidal(64, 16)).summary().splitlines()
    assert any(re.fullmatch(r"law: paper, base 10000 \(± [0-9.e-]+\)", line) for line in lines)
    noise = np.random.default_rng(0).uniform(-1, 1, (64, 16))
    assert "base" not in identify(noise).summary()


def test_the_column_index_bug_reports_a_relative_uncertainty() -> None:
    """Fault caught: the base's uncertainty added to the base instead of scaled by it."""
    found = identify(bug_zoo.column_index_exponent(200, 64))
    assert found.law == "other"
    assert found.base is not None
    assert found.base_uncertainty is not None
    assert found.base_uncertainty < 1e-6 * found.base


@pytest.mark.parametrize("factor", [1.5, 2.5])
def test_two_laws_are_called_indistinguishable_only_beyond_twice_their_sigma(
    factor: float,
) -> None:
    """Fault caught: the threshold (twice the larger uncertainty) at which the paper's and
    tensor2tensor's bases are said to be different numbers for the same frequencies moved.
    A fitted line whose two bases lie ``factor`` of those uncertainties apart."""
    width, slope = 64, 0.01  # both bases written with as many digits
    steps = width // 2 - 1
    paper, t2t = math.exp(-slope * width / 2), math.exp(-slope * steps)
    sigma = abs(t2t - paper) / factor / max(paper * width / 2, t2t * steps)
    digits = significant_digits
    assert digits(paper, sigma * width / 2) == digits(t2t, sigma * steps)  # neither is rounder
    line = _law._Line(0.0, slope, 1e-3, sigma, 0.0)
    notes: list[str] = []
    _law._paper_or_t2t(line, width // 2, width, notes)
    both = any("cannot be told apart" in note for note in notes)
    assert both == (factor > 2)


def test_the_census_measures_errors_in_ulps() -> None:
    """Fault caught: the error in ulps computed as error + ulp. pe's float32 table is
    correctly rounded, so its worst entry is within half an ulp, and over ten thousand
    entries some come close to it."""
    census = rounding_census(
        lambda rows, d: numeric.sinusoidal(rows, d, dtype="float32"), np.float32
    )
    assert census.misrounded == 0
    assert 0.45 < census.worst_ulps <= 0.5


def test_the_largest_reduced_angle_is_returned() -> None:
    """Fault caught: the largest reduced angle computed from the product of its two parts.
    Over a thousand positions some angle comes within 0.01 of pi, none beyond it."""
    turns = _extended_precision.frequency_turns(8, 10000.0)
    _, largest = angle_reduction_error(turns, np.arange(1000), 8)
    assert math.pi - 0.01 < largest <= math.pi


@pytest.mark.parametrize("reach", [6, 7])
def test_the_symmetry_gap_reaches_back_to_row_zero(reach: int) -> None:
    """Fault caught: ``max_offset = position + 1`` refused (rows p - k down to row 0 exist)."""
    if reach == 6:
        assert symmetry_gap(16, 5, reach) < 1e-12
    else:
        with pytest.raises(ValueError, match="max_offset must be <= position"):
            symmetry_gap(16, 5, reach)


@pytest.mark.parametrize("d", [2, 8, 20])
def test_the_block_diagonal_proof_counts_its_blocks(d: int) -> None:
    """Fault caught: the count of blocks shown in the proof's first step."""
    assert block_diagonal_identity(d).steps[0].title.startswith(f"T_k has {d // 2} blocks;")


def test_the_direct_drift_statement_states_the_bound_it_is_checked_against() -> None:
    """Fault caught: a coefficient of the statement computed otherwise than the bound the
    check applies (``1 + 2 e_exp`` written ``1 + 2 + e_exp``). Both are read back: the
    statement's numbers from its text, the bound's from pe.recipes.drift_bound at p = 0 and
    p = 1000."""
    claim = next(c for c in claims.all_claims() if c.id == "direct-float64-drifts")
    found = re.search(
        r"\\le ([0-9.]+)\\cdot 2\^\{-53\}\\,\\omega_i p \+ ([0-9.]+)\\cdot 2\^\{-53\}",
        claim.statement or "",
    )
    assert found is not None, claim.statement
    u = 2.0**-53
    bound = recipes.drift_bound(np.array([0, 1000]), 4, u, 0, precision.FLOAT64_DIRECT_ULPS)
    assert float(found.group(2)) == pytest.approx(bound[0, 0] / u, rel=1e-12, abs=0.0)
    assert float(found.group(1)) == pytest.approx(
        (bound[1, 0] - bound[0, 0]) / (1000 * u), rel=1e-9, abs=0.0
    )


@pytest.mark.parametrize(
    ("slope", "words"),
    [
        (0.95, "within 0.1 of 1"),
        (0.05, "within 0.1 of 0"),
        (-0.09, "within 0.1 of 0"),
        (0.5, "neither near 0 nor near 1"),
    ],
)
def test_a_drift_slope_in_words(slope: float, words: str) -> None:
    """Fault caught: the comparison that calls a slope near 0 turned round."""
    assert precision._slope_in_words(slope) == words


def test_the_summary_gives_the_first_token_its_position() -> None:
    """Fault caught: the first token's position computed from the offset and its row by
    another operation than a sum (5 and 1 give 4 by exclusive or)."""
    table = numeric.sinusoidal(np.arange(5, 105), 16)
    table[0] = 0.0
    assert "tokens start at row 1 (position 6)" in identify(table).summary()


def test_the_attention_proof_takes_three_columns() -> None:
    """Fault caught: the proof's size limit tightened below its documented 3 columns."""
    assert equivariance(n=2, d_model=3).holds


def test_a_safetensors_tensor_of_a_dtype_pe_does_not_know_is_refused_by_name(
    tmp_path: Path,
) -> None:
    """Fault caught: the size of a tensor of unknown dtype computed from its offsets by
    another operation than their difference (at byte 0 a remainder divides by zero)."""
    header = json.dumps({"x": {"dtype": "C64", "shape": [4, 8], "data_offsets": [0, 256]}})
    raw = header.encode() + b" " * (-len(header) % 8)
    path = tmp_path / "complex.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + bytes(256))
    with pytest.raises(ValueError, match=r"tensor x \(4, 8\) C64 does not hold float16"):
        load_table(str(path))


@pytest.mark.parametrize("record", [b"middle", b"", b"BIG"])
def test_a_torch_file_whose_byteorder_is_neither_little_nor_big_is_refused(
    tmp_path: Path, record: bytes
) -> None:
    """A byteorder record other than little or big is refused by name (it was read as
    little-endian without a word, and a mutant ``order <= "big"`` read "" and "BIG" as
    big-endian); "little" reads the table as when the record is absent."""
    import zipfile

    source = Path(__file__).parent / "real_code" / "fairseq_model.bin"

    def rewritten(name: str, byteorder: bytes) -> Path:
        path = tmp_path / name
        with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w") as new:
            for info in old.infolist():
                data = old.read(info)
                if info.filename.endswith("/byteorder"):
                    data = byteorder
                new.writestr(info, data)
        return path

    name = "model.encoder.embed_positions.weight"
    with pytest.raises(ValueError, match=rf"byteorder record is {record.decode()!r}, neither"):
        load_table(str(rewritten("odd.bin", record)), name)
    little = load_table(str(rewritten("little.bin", b"little")), name)
    assert np.array_equal(little.array, load_table(str(source), name).array)


def test_offset_distances_reads_a_sentence_of_four_tokens_by_default() -> None:
    """Fault caught: the default sentence length changed (4 to 5): the normalised design
    scales by the length, so the default is seen."""
    from pe.position_designs import normalised, offset_distances

    default = offset_distances(normalised, [1, 3], [0, 1], 2)
    assert np.array_equal(default, offset_distances(normalised, [1, 3], [0, 1], 2, n=4))
    assert not np.allclose(default, offset_distances(normalised, [1, 3], [0, 1], 2, n=5))


def test_the_decay_bound_is_refused_just_past_its_memory_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: the decay bound's allocation estimate (4 complex values per offset
    and column) changed: with the cap lowered to 2^20 bytes, 2048 offsets at width 8 reach
    it exactly and pass, one more offset is refused."""
    from pe import rotary

    monkeypatch.setattr(_validate, "MAX_BYTES", 2**20)
    q = np.random.default_rng(0).standard_normal(8)
    offsets = 2**20 // (4 * 16 * q.size)
    bound, _ = rotary.abel_bound(q, q, np.arange(offsets))
    assert bound.shape == (offsets,)
    with pytest.raises(ValueError, match="the bound asks for"):
        rotary.abel_bound(q, q, np.arange(offsets + 1))


def test_an_exact_table_settles_in_the_first_pass_of_the_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: the rounding level that says a column's fit has settled (4 eps (1 + w m))
    lowered to 0 (``4 % eps``): every column of an exact table was polished six times more.
    At the level, none of a float64 paper table's columns is left unsettled; below it
    (a quarter of the level), some are."""
    from pe.identify import _fit

    def first_pass(level: float) -> int:
        seen: list[int] = []
        original = _fit._unsettled

        def spy(fit: Any, sigma_w: Any, eps: float, m: int) -> Any:
            flagged = original(fit, sigma_w, eps * level, m)
            seen.append(int(np.count_nonzero(flagged)))
            return flagged

        monkeypatch.setattr(_fit, "_unsettled", spy)
        x = np.asarray(numeric.sinusoidal(1000, 64), dtype=np.float64)
        _fit.fit_columns(x, np.ones(1000), 2.0**-52)
        monkeypatch.setattr(_fit, "_unsettled", original)
        return seen[0]

    assert first_pass(1.0) == 0
    assert first_pass(0.25) > 0


def _column_index_table(scale: float, n: int = 256, d: int = 16) -> npt.NDArray[np.float64]:
    """The column-index bug's table (column j at scale * 100^(-2j/d)), sine and cosine
    alternating: every frequency ``scale`` times the law's."""
    j = np.arange(d)
    w = scale * 100.0 ** (-2 * j / d)
    angles = np.arange(n)[:, None] * w
    return np.asarray(np.where(j % 2 == 0, np.sin(angles), np.cos(angles)), dtype=np.float64)


def test_the_column_law_takes_an_intercept_within_twice_its_uncertainty_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: the column law's intercept test ``|b| > 2 sigma_b + 1e-9`` loosened to
    ``2 sigma_b ** 1e-9`` (about 2): frequencies all e^(3 sigma_b) times the law's were
    named the column-index bug. The edge from the fit's own sigma_b: e^(sigma_b) is read as
    the bug, e^(3 sigma_b) as no single law."""
    sigmas: list[float] = []
    original = _law._log_line

    def spy(j: Any, *args: Any) -> Any:
        line = original(j, *args)
        if line is not None and np.any(np.asarray(j) % 2 == 1):  # the column law's fit
            sigmas.append(float(line.sigma_intercept))
        return line

    monkeypatch.setattr(_law, "_log_line", spy)
    bug = "`i` was used where `i // 2` was meant"
    assert any(bug in note for note in identify(_column_index_table(1.0)).notes)
    # a table a little off the law is fitted twice: at the rounding floor, then at the
    # floor its own residuals set; the second fit's sigma_b is the edge
    identify(_column_index_table(1.0 + 1e-6))
    sigma = max(sigmas)
    assert 1e-12 < sigma < 1e-3
    inside = identify(_column_index_table(math.exp(sigma))).notes
    outside = identify(_column_index_table(math.exp(3 * sigma))).notes
    assert any(bug in note for note in inside)
    assert not any(bug in note for note in outside)
    assert any("follow no single law" in note for note in outside)


def test_the_concatenation_evidence_names_the_stream_it_measured() -> None:
    """Fault caught: the width printed for the concatenated stream computed by another
    operation than 2d (``2 - d``): the evidence must name the width of the stream whose
    weights it counted, read here from the first matrix that reads that stream."""
    from pe.chapters import sinusoidal_encoding
    from pe.concatenation import layer_matrices

    wide = layer_matrices(2 * sinusoidal_encoding.D)["W_Q"].shape[0]
    detail = claims.verify("concat-doubles-layer-weights").evidence[0].detail
    assert f"a {wide}-wide stream adds" in detail


def test_the_worked_example_prints_the_entry_it_names() -> None:
    """Fault caught: the evidence printed row 2's entry under the name PE(1,256). The entry
    is recomputed here at 50 digits, so the printed value must name position 1, column 256."""
    from pe import reference
    from pe.chapters import sinusoidal_encoding

    detail = claims.verify("worked-example-my-name-is-rk").evidence[0].detail
    exact = float(reference.table([1], sinusoidal_encoding.D)[0, 256])
    assert f"PE(1,256) = {exact:.6f}" in detail


def test_the_fitted_map_names_the_positions_it_maps() -> None:
    """Fault caught: the fitted map's evidence named 3 & k (1 at k = 5) for 3k: it must say
    it maps 2k to 3k and 3k to 4k, the positions it measured."""
    from pe.chapters.rotation_identity import fitted_map, shift_matrix

    detail = fitted_map(shift_matrix, 5, (16,)).detail
    assert "M maps 10 to 15 within" in detail
    assert "and 15 to 20 within" in detail


@pytest.mark.parametrize(
    ("base", "doubles_at_even_width"), [(4096, True), (5, False), (10, False), (10000, False)]
)
def test_the_wavelength_ratio_doubles_at_an_even_width_only_for_powers_of_two(
    base: int, doubles_at_even_width: bool
) -> None:
    """Fault caught: the power-of-two test written ``value & (value >> 1) == 0``, true for
    5 (0b101) and 10 (0b1010), whose 2 log2(base) is not an integer."""
    from pe.frequency_ladder import ratio_equals_two_width

    width, even = ratio_equals_two_width(base)
    assert even is doubles_at_even_width
    assert bool(width.is_integer) is doubles_at_even_width


def test_the_symmetry_gap_is_refused_just_past_its_memory_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: the symmetry gap's allocation estimate, 2 K (d + 2) + d^2 float64 values
    for K offsets, changed (``d << 2`` for ``d + 2``): with the cap set to that estimate at
    d = 2, K = 50 (the table itself takes less), the call passes and K = 51 is refused."""
    from pe import geometry

    width, reach = 2, 50
    monkeypatch.setattr(_validate, "MAX_BYTES", 8 * (2 * reach * (width + 2) + width * width))
    assert geometry.symmetry_gap(width, 100, reach) < 1e-12
    with pytest.raises(ValueError, match="symmetry_gap asks for"):
        geometry.symmetry_gap(width, 100, reach + 1)


def test_a_flagged_word_is_shown_in_its_own_sentence_not_from_the_block_start() -> None:
    """Fault caught: only a sentence break at index 0 counted (``i == 0`` for ``i >= 0``), so
    the context shown for a word ran from the start of the block."""
    from pe.site import page_check

    text = "The table has rows. Every row is distinct here."
    start = text.index("Every")
    assert page_check._sentence(text, start, start + 5) == "Every row is distinct here."


def test_the_angle_of_an_exponential_is_theta_not_minus_theta() -> None:
    """Fault caught: the angle of e^(i theta) read as i * (i theta) = -theta: the counterexample
    search then aims its eighth turns at the wrong side (documented: theta)."""
    import sympy as sp

    from pe.symbolic import _trig_arguments

    x = sp.Symbol("x", real=True)
    assert sorted(map(str, _trig_arguments(sp.exp(3 * sp.I * x) + sp.sin(x)))) == ["3*x", "x"]


def test_the_offset_errors_are_refused_just_past_their_memory_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault caught: the estimate of ``rotary.offset_error`` (4 float64 values per position,
    offset and entry of q) changed: with the cap lowered to 2^16 bytes, 16 positions by 16
    offsets at width 8 reach it exactly and pass, one more offset is refused."""
    from pe import rotary

    monkeypatch.setattr(_validate, "MAX_BYTES", 2**16)
    q = np.random.default_rng(1).standard_normal(8)
    positions = 16
    offsets = 2**16 // (4 * 8 * q.size * positions)
    errors = rotary.offset_error(q, q, np.arange(positions), np.arange(offsets))
    assert errors.shape == (positions, offsets)
    with pytest.raises(ValueError, match="the errors asks for"):
        rotary.offset_error(q, q, np.arange(positions), np.arange(offsets + 1))


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (4,)])
def test_a_toeplitz_deviation_needs_a_square_matrix(shape: tuple[int, ...]) -> None:
    """Fault caught: the shape test let a tall (or a wide) matrix through, whose diagonals
    have different lengths and no single offset each."""
    from pe.relative import toeplitz_deviation

    with pytest.raises(ValueError, match="must be square"):
        toeplitz_deviation(np.ones(shape))


def test_the_alibi_evidence_names_the_head_counts_it_checked() -> None:
    """Fault caught: the account printed a head range other than the one checked (``H =
    1..2`` for ``ALIBI_HEADS[1]`` in place of ``ALIBI_HEADS[-1]``)."""
    from pe.chapters import relative_family

    result = claims.verify("alibi-slopes")
    heads = relative_family.ALIBI_HEADS
    assert f"H = {heads[0]}..{heads[-1]}:" in result.evidence[0].detail


def test_a_padding_row_inside_the_first_rows_is_ignored_by_the_first_estimate() -> None:
    """Fault caught: the first estimate's mask of rows whose neighbours are both real was
    formed with a division (``a * b // c``), which divides by the zero weight of a padding
    row past row 1 (pytest turns NumPy's warning into an error)."""
    table = numeric.sinusoidal(200, 64)
    table[5] = 0.0
    found = identify(table)
    assert found.base is not None
    assert abs(found.base - 10000.0) < 1e-6 * 10000.0
    assert any("row 5 is all zeros" in note for note in found.notes)


def test_the_largest_rise_of_two_values_is_their_difference() -> None:
    """Fault caught: the shortest sequence accepted grew from two values to three."""
    from pe.position_scores import largest_rise

    assert largest_rise([1.0, 2.5]) == 1.5
    assert largest_rise([2.5, 1.0]) == -1.5
    with pytest.raises(ValueError, match="at least two values"):
        largest_rise([1.0])


def test_a_result_without_candidate_names_lists_its_controls_unnamed() -> None:
    """Fault caught: the fallback for a result that carries no candidate names (one built by
    hand) raised instead of naming each control "" (a tuple power for a tuple repeat)."""
    import dataclasses

    result = dataclasses.replace(claims.verify("shift-composition"), candidate_names=())
    listed = result.to_json()["evidence"]
    assert isinstance(listed, list)
    for evidence, wrong in zip(listed, result.controls_by_check, strict=True):
        assert [c["name"] for c in evidence["controls"]] == [""] * len(wrong)


def test_the_subspace_share_default_is_the_documented_sample() -> None:
    """Fault caught: the default sample drifted from the documented 1000 random embeddings
    with seed 11 (1001 gives a different mean)."""
    from pe.embeddings import encoding_subspace_share, random_embeddings

    documented = random_embeddings(1000, 64, 11)
    assert encoding_subspace_share(200, 64) == encoding_subspace_share(
        200, 64, embeddings=documented
    )


@pytest.mark.parametrize("claim_id", ["float32-recipe-drifts", "direct-float64-drifts"])
def test_the_drift_model_shown_has_the_bounds_last_term(claim_id: str) -> None:
    """Fault caught: the tolerance's formula printed a last term other than the one the bound
    adds (2 e_sin u): at position 0 the bound is that term alone."""
    from pe import recipes

    result = claims.verify(claim_id)
    models = [e.tolerance.model for e in result.evidence if e.tolerance is not None]
    shown = [m for m in models if "per entry" in m and r"\omega_i p + " in m]
    assert shown, f"{claim_id}: no drift model among {models}"
    for model in shown:
        last, unit = re.search(r"\\omega_i p \+ ([0-9.]+) \\cdot 2\^\{(-\d+)\}", model).groups()  # type: ignore[union-attr]
        ulps = (
            dict(recipes.NUMPY_FLOAT32_ULPS)
            if claim_id == "float32-recipe-drifts"
            else precision.FLOAT64_DIRECT_ULPS
        )
        at_zero = recipes.drift_bound(np.array([0]), 8, 2.0 ** int(unit), 0, ulps)[0, 0]
        assert float(last) * 2.0 ** int(unit) == pytest.approx(at_zero, rel=1e-3, abs=0.0)


def test_the_stack_draws_its_weights_as_documented() -> None:
    """Fault caught: the random sublayers drew other weights than the docstring says (two
    attention matrices instead of three; the second feed-forward matrix scaled by
    1/sqrt(4 + d) instead of 1/sqrt(4d)). A plain two-sublayer stack, rebuilt here."""
    from pe import residual_stream

    n, d = 5, 8
    x = np.random.default_rng(4).standard_normal((n, d))

    def norm(h: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        c = h - h.mean(axis=-1, keepdims=True)
        return np.asarray(c / np.sqrt((c**2).mean(axis=-1, keepdims=True) + 1e-6))

    rng = np.random.default_rng(9)
    wq, wk, wv = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    w1 = rng.standard_normal((d, 4 * d)) / np.sqrt(d)
    w2 = rng.standard_normal((4 * d, d)) / np.sqrt(4 * d)
    z = norm(x)
    logits = (z @ wq) @ (z @ wk).T / np.sqrt(d)
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    h = 0.5 * (weights / weights.sum(axis=1, keepdims=True)) @ (z @ wv)
    top = 0.5 * np.maximum(norm(h) @ w1, 0.0) @ w2
    run = residual_stream.run_stack(x, 2, connection=residual_stream.PLAIN, seed=9)
    assert np.allclose(run.top, top, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("dtype", "name"), [(np.float16, "float16"), (np.float32, "float32")])
def test_a_rope_failure_names_the_precision_of_fns_output(dtype: Any, name: str) -> None:
    """Fault caught: the precision named in the failure did not follow the output's epsilon
    (the float16 entry keyed by 2^10 instead of 2^-10)."""
    from pe import rotary
    from pe.testing import assert_rope_relative

    def squared(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> Any:
        return rotary.rope(x, (np.asarray(p) ** 2) % 1000).astype(dtype)

    with pytest.raises(AssertionError, match=rf"for {name} \(fn's output\) angles"):
        assert_rope_relative(squared, 16)


def test_the_added_sinusoid_scheme_adds_the_sinusoidal_table() -> None:
    """Fault caught: the table added for "sinusoidal (added)" was the learned scheme's random
    one (a string comparison ``>=`` in place of ``==`` sent both schemes down one branch).
    With the same seed, the two schemes share the token and weights and differ only in
    the table, so their scores must differ."""
    from pe.relative import identical_token_scores

    learned = identical_token_scores("learned absolute")
    added = identical_token_scores("sinusoidal (added)")
    assert not np.allclose(learned, added)


def test_a_safetensors_entry_with_three_offsets_is_refused(tmp_path: Path) -> None:
    """Fault caught: an entry whose data_offsets are not exactly two integers was read (an
    ``or`` in place of ``and`` let a well-typed three-offset entry through)."""
    header = {"table": {"dtype": "F64", "shape": [1, 2], "data_offsets": [0, 8, 16]}}
    raw = json.dumps(header).encode()
    path = tmp_path / "three.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + bytes(16))
    with pytest.raises(ValueError, match="malformed header entry"):
        load_table(str(path))


def test_the_tensor2tensor_law_at_width_two_has_one_frequency() -> None:
    """Fault caught: the law's one-pair case returned two frequencies for one pair."""
    from pe import conventions

    law = next(c for c in conventions.CONVENTIONS.values() if c.law == "tensor2tensor")
    assert law.frequencies(2).tolist() == [1.0]


def test_the_linear_shift_error_takes_its_arguments_by_name() -> None:
    """Fault caught: ``table`` and ``k`` became positional-only (``/`` for ``*``)."""
    from pe.conventions import linear_shift_error

    table = numeric.sinusoidal(64, 8)
    assert linear_shift_error(table=table, k=3) == linear_shift_error(table, 3)


def test_not_positive_decides_signed_symbolic_numbers() -> None:
    """Fault caught: a SymPy number known positive was read as not positive (``is not
    False`` for ``is False``)."""
    import sympy as sp

    assert not _validate.not_positive(sp.Integer(3))
    assert _validate.not_positive(sp.Integer(-2))
    assert not _validate.not_positive(sp.Symbol("x"))


def test_the_layout_shift_ratio_is_a_quotient() -> None:
    """Fault caught: the worst error / tolerance ratio was floored (``//``), reading 0 for
    any error inside its tolerance instead of the fraction used."""
    from pe.chapters import conventions as chapter

    found = chapter.layout_shift_errors(chapter.CONJUGATED, d=16)
    assert 0.0 < found.ratio <= 1.0


def test_the_unseen_values_account_names_the_training_range() -> None:
    """Fault caught: the account printed a training range other than 0 .. n_max - 1."""
    from pe.chapters import fixed_or_learned

    result = claims.verify("unseen-values-beyond-training")
    trained = f"d=512, trained on 0..{fixed_or_learned.N_MAX - 1}: at position "
    # every check but the counts' states the range this way, then the position it measures
    assert [e.detail.startswith(trained) for e in result.evidence] == [True, False, True]


def test_formula_agreement_tolerance_is_its_documented_sum_at_the_last_angle() -> None:
    """Fault caught: the formula's angles taken up to 1000 instead of 999 (the last row of a
    1000-row table): the tolerance delta + epsilon + (r + u) 999 omega, omega = 1, is held
    exactly; one part in 10^9 above it fails, exactly at it holds."""
    from pe._rotation_table import ENTRY_ERROR_BOUND
    from pe._tolerance import ELEMENTARY_ULPS
    from pe.chapters.conventions import _formula_agrees

    frequency_error = 3e-16
    stated = ENTRY_ERROR_BOUND + ELEMENTARY_ULPS * EPS64 + (frequency_error + EPS64 / 2) * 999
    assert _formula_agrees(stated, frequency_error, "r", "formula").holds
    assert not _formula_agrees(stated * (1 + 1e-9), frequency_error, "r", "formula").holds
