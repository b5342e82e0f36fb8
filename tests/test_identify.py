"""pe.identify: recovery of every convention at the stated accuracy, refusals, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pe import conventions, numeric
from pe.identify import Identification, identify

from .conftest import run_pe

Dtype = type[np.floating[Any]]

TARGET: dict[Dtype, float] = {np.float64: 1e-6, np.float32: 1e-3}


def direct_frequencies(law: str, d: int, base: float) -> np.ndarray:
    """The frequencies written straight from the formulas (independent of pe)."""
    h = d // 2
    k = np.arange(h, dtype=np.float64)
    if law == "paper":
        return np.asarray([base ** (-2.0 * i / d) for i in k])
    return np.asarray([math.exp(-i * math.log(base) / (h - 1)) for i in k])


def check_accuracy(result: Identification, true: np.ndarray, n: int, dtype: Dtype) -> None:
    target = TARGET[dtype]
    eps = float(np.finfo(dtype).eps)
    sin_err = np.abs(result.sin_frequencies - true) / true
    cos_err = np.abs(result.cos_frequencies - true) / true
    cos_unc = result.cos_uncertainty / true
    # every sine column is pinned to the target
    assert sin_err.max() <= target, sin_err.max()
    # a cosine column is within the target, or reported with an uncertainty above it ...
    flagged = cos_unc > target
    assert np.all(cos_err[~flagged] <= target)
    # ... which is honest (the error is inside it) ...
    assert np.all(cos_err[flagged] <= 2 * cos_unc[flagged])
    # ... and only where the table's precision forces it: eps / theta^2 is not small
    theta = true * (n - 1)
    assert np.all(eps / theta[flagged] ** 2 > target / 1000)
    assert np.all(result.sin_uncertainty / true <= target)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("d", [8, 64, 512, 4096])
@pytest.mark.parametrize("base", [100.0, 1e4, 1e6])
@pytest.mark.parametrize("law", ["paper", "tensor2tensor"])
def test_accuracy_across_widths_and_bases(dtype: Dtype, d: int, base: float, law: str) -> None:
    n = 256 if d < 4096 else 128
    convention = conventions.Convention("x", "x", law=law, base=base)  # type: ignore[arg-type]
    result = identify(convention.table(n, d, dtype=dtype))
    true = direct_frequencies(law, d, base)
    assert result.is_encoding
    assert (result.layout, result.order, result.position_offset) == ("interleaved", "sin-first", 0)
    check_accuracy(result, true, n, dtype)
    assert result.base is not None
    if law == "paper" or d > 8:  # at d = 8 both laws can be round: the paper's wins ties
        assert result.law == law
        assert abs(result.base / base - 1) <= TARGET[dtype]


@pytest.mark.parametrize("n", [16, 1000, 3000])
def test_short_and_long_tables(n: int) -> None:
    result = identify(numeric.sinusoidal(n, 64))
    assert result.matches_paper
    check_accuracy(result, direct_frequencies("paper", 64, 1e4), min(n, 1024), np.float64)


@pytest.mark.parametrize("name", list(conventions.CONVENTIONS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_every_named_convention_is_recovered(name: str, dtype: Dtype) -> None:
    c = conventions.get(name)
    result = identify(c.table(128, 64, dtype=dtype))
    assert (result.layout, result.order, result.position_offset) == (c.layout, c.order, c.offset)
    assert result.law == {"one-indexed": "other"}.get(c.law, c.law)
    tolerances: dict[Dtype, float] = {np.float64: 1e-9, np.float32: 1e-4, np.float16: 2e-2}
    tolerance = tolerances[dtype]
    assert result.base is not None
    assert abs(result.base / 1e4 - 1) < tolerance
    assert result.matches_paper == (name == "paper")
    if name == "one-indexed":
        assert any("counted from 1" in note for note in result.notes)


@pytest.mark.parametrize("offset", [1, 2, 17, 999, 5000])
@pytest.mark.parametrize("name", ["paper", "halves-cos-first"])
def test_offsets(offset: int, name: str) -> None:
    result = identify(conventions.get(name).with_offset(offset).table(64, 32))
    assert result.position_offset == offset
    assert not result.matches_paper
    assert any(f"position {offset}" in note for note in result.notes)


def test_paper_match_is_strict_within_precision() -> None:
    assert identify(numeric.sinusoidal(200, 64)).matches_paper
    assert not identify(numeric.sinusoidal(200, 64, base=10001.0)).matches_paper
    # float16 cannot tell 10000 from 10001: still the paper within that precision
    assert identify(numeric.sinusoidal(200, 64, base=10001.0, dtype=np.float16)).matches_paper


def test_frequencies_disagreeing_in_a_pair_are_visible() -> None:
    table = numeric.sinusoidal(300, 16)
    table[:, 7] = np.cos(np.arange(300) * 0.5 * numeric.frequencies(16)[3])
    result = identify(table)
    assert result.is_encoding
    assert abs(result.cos_frequencies[3] / result.sin_frequencies[3] - 0.5) < 1e-9
    assert any("different frequencies" in note for note in result.notes)


def test_growing_frequencies_alias_and_are_noted_not_guessed() -> None:
    k = np.arange(8)
    omega = 1.5**k  # 1 .. 17: pairs 3.. exceed pi
    angle = np.multiply.outer(np.arange(300.0), omega)
    table = np.empty((300, 16))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    result = identify(table)
    assert result.is_encoding
    assert np.all(result.sin_frequencies <= math.pi)
    aliases = np.abs(np.mod(omega + math.pi, 2 * math.pi) - math.pi)
    assert np.allclose(result.sin_frequencies, aliases, rtol=1e-9)
    assert any("above π" in note for note in result.notes)


def test_odd_widths() -> None:
    # tensor2tensor pads an odd width with a zero column
    t2t = conventions.get("tensor2tensor").table(100, 64)
    padded = np.concatenate([t2t, np.zeros((100, 1))], axis=1)
    result = identify(padded)
    assert (result.layout, result.law) == ("halves", "tensor2tensor")
    assert any("zeros: padding" in note for note in result.notes)
    # Marian: halves with a sine block ceil(d/2) wide, the paper's law with the odd d
    d = 33
    omega = 10000.0 ** (-2 * np.arange(17) / d)
    angle = np.multiply.outer(np.arange(100.0), omega)
    marian = np.concatenate([np.sin(angle), np.cos(angle[:, :16])], axis=1)
    result = identify(marian)
    assert (result.layout, result.unpaired_column, result.law) == ("halves", 16, "paper")
    assert result.base is not None
    assert abs(result.base / 1e4 - 1) < 1e-9
    # interleaved with the last cosine trimmed: 16 pairs, then a lone sine in column 32
    table = np.empty((100, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle[:, :16])
    result = identify(table)
    assert (result.layout, result.unpaired_column, result.law) == ("interleaved", 32, "paper")
    assert np.allclose(result.cos_frequencies, omega[:16], rtol=1e-9)


def test_odd_width_halves_with_a_wrong_cosine_column() -> None:
    """Marian's layout (17 sines, 16 cosines) with the cosine of pair 5 at twice its sine's
    frequency: the sine of a pair is read against its cosine (columns k and k + 17), so the
    mismatch is found and the cosine's own frequency reported."""
    d = 33
    omega = 10000.0 ** (-2 * np.arange(17) / d)
    cos_omega = omega[:16].copy()
    cos_omega[5] *= 2
    n = np.arange(100.0)
    table = np.concatenate(
        [np.sin(np.multiply.outer(n, omega)), np.cos(np.multiply.outer(n, cos_omega))], axis=1
    )
    result = identify(table)
    assert (result.layout, result.unpaired_column) == ("halves", 16)
    assert result.cos_frequencies is not None
    assert result.sin_frequencies is not None
    np.testing.assert_allclose(result.cos_frequencies, cos_omega, rtol=1e-9)
    np.testing.assert_allclose(result.sin_frequencies, omega[:16], rtol=1e-9)
    assert any("different frequencies (1 of 16 pairs; pair 5" in note for note in result.notes)


def test_fairseq_padding_row_is_ignored() -> None:
    table = conventions.get("tensor2tensor").table(100, 32)
    table[1] = 0.0  # fairseq zeroes the row of padding_idx = 1
    result = identify(table)
    assert result.is_encoding
    assert result.position_offset == 0
    assert any("padding row" in note for note in result.notes)
    assert (result.padding_rows, result.first_token_row) == ((1,), 2)
    assert any("the first token reads row 2 (position 2)" in note for note in result.notes)
    plain = identify(conventions.get("tensor2tensor").table(100, 32))
    assert (plain.padding_rows, plain.first_token_row) == ((), 0)


def random_table() -> np.ndarray:
    return np.random.default_rng(0).uniform(-1, 1, (200, 64))


def learned_like() -> np.ndarray:
    noise = np.random.default_rng(1).normal(0, 1e-3, (200, 64))
    return np.clip(numeric.sinusoidal(200, 64) + noise, -1, 1).astype(np.float32)


def smooth_random() -> np.ndarray:
    walk = np.cumsum(np.random.default_rng(2).normal(0, 0.01, (200, 64)), axis=0)
    return np.tanh(walk)


def with_nan() -> np.ndarray:
    table = numeric.sinusoidal(50, 8)
    table[3, 4] = np.nan
    return table


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (random_table, "not sinusoids"),
        (learned_like, "not sinusoids"),
        (smooth_random, "not sinusoids"),
        (lambda: np.zeros((50, 8)), "every value is 0"),
        (with_nan, "NaN"),
        (lambda: np.full((50, 8), np.inf), "infinite"),
        (lambda: 2.0 * numeric.sinusoidal(50, 8), "outside [-1, 1]"),
        (lambda: np.full((50, 8), 0.3), "every row is the same"),
        (numeric.sinusoidal(20, 64).T.copy, "the table is transposed"),
    ],
)
def test_non_encodings_are_refused(make: object, words: str) -> None:
    result = identify(make())  # type: ignore[operator]
    assert not result.is_encoding
    assert words in result.reason
    assert result.layout is None
    assert result.law is None
    assert result.sin_frequencies.size == 0
    assert not result.matches_paper


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        ("table", TypeError, "2-D array"),
        (None, TypeError, "2-D array"),
        (np.zeros(100), ValueError, "2-D"),
        (np.zeros((2, 20, 4, 2)), ValueError, "2-D"),
        (np.arange(640.0).reshape(2, 80, 4), ValueError, "holds 2 different .* table\\[0\\]"),
        (np.zeros((0, 16, 2)), ValueError, "holds no .* batch is empty"),
        (np.zeros((20, 4), dtype=np.int64), TypeError, "float16, bfloat16, float32 or float64"),
        (np.zeros((20, 4), dtype=complex), TypeError, "float16"),
        (np.zeros((15, 4)), ValueError, "at least 16 rows"),
        (np.zeros((20, 1)), ValueError, "at least 2 columns"),
        ([["a", "b"]], TypeError, "float16"),
    ],
)
def test_bad_input(value: object, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        identify(value)  # type: ignore[arg-type]


def test_deterministic_and_json_ready() -> None:
    table = conventions.get("fairseq").table(100, 64, dtype=np.float32)
    first, second = identify(table), identify(table)
    assert json.dumps(first.to_json()) == json.dumps(second.to_json())
    data = first.to_json()
    for key in (
        "layout",
        "order",
        "sin_frequencies",
        "cos_frequencies",
        "position_offset",
        "law",
        "base",
        "matches_paper",
        "notes",
    ):
        assert key in data
    assert len(data["sin_frequencies"]) == 32  # type: ignore[arg-type]
    assert "halves" in first.summary()


# ----------------------------------------------------------------------------- CLI


def write_module(tmp_path: Path) -> Path:
    source = tmp_path / "user_tables.py"
    source.write_text(
        "import numpy as np\n"
        "def halves(n, d):\n"
        "    w = 10000.0 ** (-2 * np.arange(d // 2) / d)\n"
        "    a = np.arange(n)[:, None] * w\n"
        "    return np.concatenate([np.sin(a), np.cos(a)], axis=1)\n"
        "def fails(n, d):\n"
        "    raise RuntimeError('no table today')\n"
        "def three(a, b, c):\n"
        "    return None\n"
        "def flat(n, d):\n"
        "    return np.zeros(n * d)\n"
    )
    return source


def test_cli_on_a_file(tmp_path: Path) -> None:
    path = tmp_path / "t.npy"
    np.save(path, numeric.sinusoidal(100, 32).astype(np.float32))
    result = run_pe("identify", str(path))
    assert result.returncode == 0, result.stderr
    assert "the paper's encoding" in result.stdout
    result = run_pe("identify", str(path), "--json")
    data = json.loads(result.stdout)
    assert data["matches_paper"] is True
    assert data["layout"] == "interleaved"


def test_cli_on_a_function(tmp_path: Path) -> None:
    source = write_module(tmp_path)
    result = run_pe("identify", f"{source}:halves", "--n", "64", "--d", "16")
    assert result.returncode == 0, result.stderr
    assert "layout: halves, sin-first" in result.stdout


def test_cli_refuses_a_non_encoding_with_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "r.npy"
    np.save(path, random_table())
    result = run_pe("identify", str(path))
    assert result.returncode == 1
    assert "not a sinusoidal encoding" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["missing.npy"], "no such file"),
        (["{tmp}/junk.npy"], "not a readable .npy"),
        (["{tmp}/ints.npy"], "float16, float32 or float64"),
        (["{module}:fails", "--n", "32", "--d", "8"], "raised RuntimeError: no table today"),
        (["{module}:three", "--n", "32", "--d", "8"], "two positional arguments"),
        (["{module}:flat", "--n", "32", "--d", "8"], "returned shape"),
        (["{module}:nothing", "--n", "32", "--d", "8"], "no attribute"),
        (["no_such_module_xyz:f", "--n", "32", "--d", "8"], "cannot import"),
        (["{module}:halves"], "needs --n N and --d D"),
        (["{tmp}/ints.npy", "--n", "4"], "apply to MODULE:FUNCTION"),
        (["{module}:halves", "--n", "8", "--d", "8"], "at least 16 rows"),
        (["{module}:halves", "--n", "0", "--d", "8"], "integer from 1"),
        (["plain"], "FILE.pth) or MODULE:FUNCTION"),
        ([], "SOURCE"),
    ],
)
def test_cli_bad_sources_exit_2_with_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    module = write_module(tmp_path)
    (tmp_path / "junk.npy").write_text("not numpy")
    np.save(tmp_path / "ints.npy", np.arange(40).reshape(20, 2))
    filled = [a.format(tmp=tmp_path, module=module) for a in args]
    result = run_pe("identify", *filled)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("usage: pe identify") or lines[0].startswith("usage: pe")
    assert len(lines) == 2, result.stderr
    assert words in lines[-1]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("source", "noted"),
    [("paper", False), ("tensor2tensor", True), ("fairseq", True)],
)
def test_only_a_layout_other_than_the_papers_gets_the_conversion_note(
    source: str, noted: bool
) -> None:
    """The note on converting columns (P T_k P^T) is for tables whose layout or order is not
    the paper's interleaved (sin, cos); the paper's own table gets none."""
    table = conventions.get(source).table(64, 32)
    notes = identify(table).notes
    assert any("not the paper's interleaved" in note for note in notes) == noted, notes


def test_summary_gives_split_pairs_both_frequencies() -> None:
    # The column-index bug written directly: column j turns at 10000^(-2j/d), so the sine
    # and cosine of pair i turn at 10000^(-4i/d) and 10000^(-(4i+2)/d).
    n, d = 200, 16
    p = np.arange(n, dtype=np.float64)[:, None]
    w = 10000.0 ** (-2.0 * np.arange(d) / d)
    table = np.where(np.arange(d) % 2 == 0, np.sin(p * w), np.cos(p * w))
    split = identify(table)
    assert split.split_pairs == tuple(range(d // 2))
    line = next(x for x in split.summary().splitlines() if x.startswith("frequencies"))
    assert "sines from 1 to" in line
    assert f"cosines from {w[1]:.6g}" in line
    assert split.to_json()["split_pairs"] == list(range(d // 2))
    paper = identify(numeric.sinusoidal(n, d))
    assert paper.split_pairs == ()
    assert "frequencies: 8 pairs, from 1 to" in paper.summary()
