"""pe.testing: the assertions pass on correct tables and functions, and fail on each bug of
the bug zoo (and on wrong RoPE functions) with the difference named in the message."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import pe
from pe import bug_zoo, conventions, recipes, rotary
from pe.rope_scaling import llama3_frequencies, rotate_halves, yarn_frequencies, yarn_gain
from pe.testing import (
    PAPER,
    assert_convention,
    assert_matches_paper,
    assert_rope_relative,
    paper_tolerance,
)

from .conftest import ROOT
from .helpers import wrong

N, D = 128, 32

# --------------------------------------------------------------------------------------------
# Tables


@pytest.mark.parametrize(
    "table",
    [
        pe.sinusoidal(N, D),
        pe.sinusoidal(N, D, dtype=np.float32),
        pe.sinusoidal(N, D, dtype=np.float16),
        pe.sinusoidal(N, D)[None],  # (1, n, d)
        conventions.get("paper").table(N, D),
        recipes.float32_recipe(np.arange(2048), 64),  # angles in float32: within atol
    ],
    ids=["float64", "float32", "float16", "batch-of-one", "atlas", "float32-recipe"],
)
def test_the_papers_table_passes(table: np.ndarray) -> None:
    assert_matches_paper(table)
    assert_convention(table, **PAPER)


def float64_then_cast(n: int, d: int, dtype: Any) -> np.ndarray:
    """The table in float64 by the plain formula, then cast (HF DistilBERT, Marian do so)."""
    angle = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table.astype(dtype)


RECIPE_SHAPES = [(n, d) for n in (64, 100, 512, 1000, 2048) for d in (16, 64, 128, 512, 768)]


@pytest.mark.parametrize(("n", "d"), RECIPE_SHAPES)
def test_tables_computed_the_usual_ways_pass(n: int, d: int) -> None:
    """The float32 recipe (angles in float32: at 512 rows a pair's sine and cosine columns
    came out 1.8e-9 apart, beyond their standard errors, and a false "different
    frequencies" failed the table), and float64 then cast to float32 or float16."""
    for table in (
        recipes.float32_recipe(np.arange(n), d),
        float64_then_cast(n, d, np.float32),
        float64_then_cast(n, d, np.float16),
    ):
        assert_matches_paper(table)
        found = pe.identify(table)
        assert not any("different frequencies" in note for note in found.notes), found.notes


def test_a_difference_reported_is_one_printed() -> None:
    """The column-index bug's sine and cosine frequencies differ: the note prints two
    different numbers and how far apart they are against what the precision allows."""
    found = pe.identify(bug_table("column-index"))
    note = next(note for note in found.notes if "different frequencies" in note)
    sine, cosine, apart, allowed = re.findall(
        r"sine (\S+), cosine (\S+), apart by (\S+) where the table's precision allows ([^)]+)\)",
        note,
    )[0]
    assert sine != cosine
    assert abs(float(sine) - float(cosine)) == pytest.approx(float(apart), rel=0.05, abs=0)
    assert float(apart) > float(allowed)
    assert found.reason.startswith(
        "a sinusoidal encoding, not the paper's: law other; sine and cosine frequencies differ"
    )


def test_angles_formed_in_16_bits_fail() -> None:
    """A float16 table whose angles were formed in float16 (GPT-NeoX's issue 1003): its
    atol is float32 angles stored in float16, and the entry or the fit fails."""
    table = recipes.float32_recipe(np.arange(512), 64, dtype=np.float16)
    with pytest.raises(AssertionError, match=r"not sinusoids of the position|worst entry"):
        assert_matches_paper(table)
    assert paper_tolerance(512, np.float16) == 4 * 2.0**-23 + 2 * 2.0**-23 * 511 + 2.0**-11


def i_over_d(n: int, d: int) -> np.ndarray:
    """``10000 ** (i / d)`` with ``i`` the pair index: the paper's exponent 2i/d halved."""
    angle = np.arange(n)[:, None] / 10000.0 ** (np.arange(d // 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table


def test_the_i_over_d_exponent_and_a_transposed_table_are_named() -> None:
    with pytest.raises(AssertionError, match=r"base: 100 .*\n(.*\n)*.*exponent is i/d"):
        assert_matches_paper(i_over_d(N, D))
    with pytest.raises(AssertionError, match=r"the table is transposed.*pass table\.T"):
        assert_matches_paper(pe.sinusoidal(N, D).T)
    with pytest.raises(AssertionError, match=r"transposed"):
        assert_convention(conventions.get("tensor2tensor").table(N, D).T, layout="halves")


# Each bug of the zoo: the words its failure message must hold (the difference named).
BUG_WORDS: dict[str, list[str]] = {
    "doubled-exponent": ["base: 1e+08", "expected 10000", "doubled"],
    "multiplied": ["law: no geometric law, expected the paper's law"],
    "integer-division": ["law: no geometric law", "integer division"],
    "column-index": ["law: no geometric law", "different frequencies"],
    "halves-for-interleaved": [
        "layout: halves (pair i in columns i, i + d/2), expected interleaved"
    ],
    "odd-width": ["width: d = 33 is odd (column 32 has no partner)"],
    "fairseq-offset": [
        "layout: halves",
        "law: tensor2tensor's law",
        "offset: row 0 is position 2, expected 0",
    ],
}


def test_every_bug_of_the_zoo_has_its_words() -> None:
    assert set(BUG_WORDS) == {bug.name for bug in bug_zoo.BUGS}


def bug_table(name: str) -> np.ndarray:
    bug = next(b for b in bug_zoo.BUGS if b.name == name)
    return bug.make(N, D + 1 if name == "odd-width" else D)


@pytest.mark.parametrize("name", BUG_WORDS)
def test_each_bug_fails_with_the_difference_named(name: str) -> None:
    table = bug_table(name)
    with pytest.raises(AssertionError) as failed:
        assert_matches_paper(table)
    message = str(failed.value)
    assert message.startswith(f"table ({N}, {table.shape[1]}) float64 is not the paper's")
    for words in BUG_WORDS[name]:
        assert words in message, message
    if name != "odd-width":  # an odd table has no paper's counterpart to compare with
        assert re.search(r"worst entry: row \d+, column \d+: .* where the paper has", message)


@pytest.mark.parametrize("name", BUG_WORDS)
def test_each_bug_fails_the_papers_convention(name: str) -> None:
    with pytest.raises(AssertionError, match="does not follow the expected convention"):
        assert_convention(bug_table(name), **PAPER | {"law": "paper", "base": 10000})


def test_bug_words_are_absent_from_correct_tables() -> None:
    """The words are the difference, not boilerplate: a passing table's checks hold none."""
    table = pe.sinusoidal(N, D)
    found = pe.identify(table)
    assert found.matches_paper
    assert not any("doubled" in note or "integer division" in note for note in found.notes)


def test_entries_are_checked_beyond_the_identified_convention() -> None:
    """A table with the paper's convention but one wrong entry fails on the entry."""
    table = pe.sinusoidal(N, D)
    table[100, 7] += 1e-12  # far below what identify can see, far above the atol
    with pytest.raises(AssertionError, match=r"worst entry: row 100, column 7: .* atol 5\.73e-14"):
        assert_matches_paper(table)
    assert_matches_paper(table, atol=2e-12)  # a looser atol, given by the caller
    table[100, 7] += 1e-6  # beyond identify's precision: not a sinusoid, column named
    with pytest.raises(AssertionError, match="identify's sinusoid fit misses column 7"):
        assert_matches_paper(table)


def test_entries_are_compared_block_by_block_over_long_tables() -> None:
    table = pe.sinusoidal(9000, 8)
    table[8500, 3] += 1e-11
    with pytest.raises(AssertionError, match=r"worst entry: row 8500, column 3: "):
        assert_matches_paper(table)


def test_atol_default_is_the_formula_in_the_tables_dtype() -> None:
    assert paper_tolerance(N, np.float64) == 4 * 2.0**-52 + 2 * 2.0**-52 * (N - 1)
    # angles formed in float16 and stored as float32: far beyond the float32 model
    table = recipes.float32_recipe(np.arange(2048), 64, dtype=np.float16).astype(np.float32)
    with pytest.raises(AssertionError, match="columns are not sinusoids of the position"):
        assert_matches_paper(table)


@pytest.mark.parametrize("name", list(conventions.CONVENTIONS))
def test_each_convention_of_the_atlas_passes_its_own_description(name: str) -> None:
    convention = conventions.get(name)
    table = convention.table(N, D)
    assert_convention(
        table,
        layout=convention.layout,
        order=convention.order,
        law="other" if convention.law == "one-indexed" else convention.law,  # no geometric law
        # from w_0 = 1: identify's "other"
        base=convention.base,
        offset=convention.offset,
    )


def test_convention_names_each_differing_parameter() -> None:
    table = conventions.get("fairseq-tokens").table(N, D)
    with pytest.raises(AssertionError) as failed:
        assert_convention(table, layout="interleaved", order="cos-first", base=500, offset=0)
    lines = str(failed.value).splitlines()
    assert lines[1] == (
        "  layout: halves (pair i in columns i, i + d/2), expected interleaved (pair i in "
        "columns 2i, 2i+1)"
    )
    assert lines[2] == "  order: sine first in each pair, expected cosine first in each pair"
    assert re.fullmatch(r"  base: 10000 \(± [0-9.e+-]+\), expected 500", lines[3])
    assert lines[4] == "  offset: row 0 is position 2, expected 0"


def test_fairseqs_stored_table_and_its_padding_row() -> None:
    """The stored table passes as fairseq stores it; the documented-before "offset 2" and a
    missing or misplaced padding row fail, each named."""
    stored = conventions.get("fairseq").table(N, D)
    fairseq: dict[str, Any] = {"layout": "halves", "law": "tensor2tensor", "base": 10000}
    assert_convention(stored, **fairseq, offset=0, padding_row=1)
    with pytest.raises(AssertionError, match="offset: row 0 is position 0, expected 2"):
        assert_convention(stored, **fairseq, offset=2)
    with pytest.raises(AssertionError, match="padding row: rows of zeros none, expected row 1"):
        assert_convention(conventions.get("tensor2tensor").table(N, D), padding_row=1)
    with pytest.raises(AssertionError, match="padding row: rows of zeros 1, expected row 0"):
        assert_convention(stored, padding_row=0)
    found = pe.identify(stored)
    assert (found.position_offset, found.padding_rows, found.first_token_row) == (0, (1,), 2)
    assert "tokens start at row 2 (position 2)" in found.summary()


def test_a_non_encoding_fails_with_identifys_reason() -> None:
    noise = np.random.default_rng(0).uniform(-1, 1, (N, D))
    with pytest.raises(AssertionError, match="not a sinusoidal encoding"):
        assert_matches_paper(noise)
    with pytest.raises(AssertionError, match="not a sinusoidal encoding"):
        assert_convention(noise, layout="halves")


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: assert_matches_paper("table"), TypeError, "table must be"),
        (lambda: assert_matches_paper(np.zeros((4, 8))), ValueError, "at least 16 rows"),
        (lambda: assert_matches_paper(pe.sinusoidal(N, D), atol=-1.0), ValueError, "atol"),
        (lambda: assert_convention(pe.sinusoidal(N, D), layout="rows"), ValueError, "layout"),
        (lambda: assert_convention(pe.sinusoidal(N, D), base=1.0), ValueError, "base"),
        (lambda: assert_convention(pe.sinusoidal(N, D), offset=-1), ValueError, "offset"),
        (
            lambda: assert_convention(pe.sinusoidal(N, D), padding_row=1.0),  # type: ignore[arg-type]
            TypeError,
            "padding",
        ),
        (lambda: assert_rope_relative(pe.rope, 7), ValueError, "d must be even"),
        (lambda: assert_rope_relative(pe.rope, 8, pairing="pairs"), ValueError, "pairing"),
    ],
)
def test_bad_arguments_are_not_assertion_errors(call: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=words) as raised:
        call()
    assert "\n" not in str(raised.value)


# --------------------------------------------------------------------------------------------
# RoPE functions


def neox_rotary(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """GPT-NeoX / Hugging Face style: x * cos + rotate_half(x) * sin, written independently."""
    d = x.shape[-1]
    inv_freq = 1.0 / 10000.0 ** (np.arange(0, d, 2) / d)
    angles = np.outer(positions, inv_freq)
    cos, sin = (
        np.cos(np.concatenate([angles, angles], 1)),
        np.sin(np.concatenate([angles, angles], 1)),
    )
    rotated = np.concatenate([-x[:, d // 2 :], x[:, : d // 2]], axis=1)
    return np.asarray(x * cos + rotated * sin)


def float32_rotary(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """pe.rope with angles in float32 and the rotation in float32, as GPU code does."""
    return rotary.rope(x.astype(np.float32), positions, angle_dtype=np.float32)


@pytest.mark.parametrize("d", [2, 16, 64])
def test_correct_rope_functions_pass_and_report_their_pairing(d: int) -> None:
    assert assert_rope_relative(pe.rope, d) == "adjacent"
    assert assert_rope_relative(lambda x, p: pe.rope(x, p, pairing="halves"), d) == (
        "adjacent" if d == 2 else "halves"
    )
    assert assert_rope_relative(neox_rotary, d, pairing="halves") in ("halves", "adjacent")
    flipped = assert_rope_relative(lambda x, p: pe.rope(x, -p), d)  # other sign: still relative
    assert flipped == "adjacent"
    assert assert_rope_relative(float32_rotary, d, angle_dtype=np.float32) == "adjacent"
    assert assert_rope_relative(lambda x, p: pe.rope(x, p, base=5e5), d, base=5e5) == "adjacent"


def absolute_added(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The absolute encoding added to the input: not a rotation."""
    return np.asarray(x + pe.sinusoidal(positions, x.shape[1]))


def squared_angle(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """A rotation by p² w: pairs right, angle not linear in the position."""
    return np.asarray(pe.rope(x, positions.astype(np.float64) ** 2 / 8.0))


def mirrored_pairs(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Pairs (i, d - 1 - i): a rotation of pairs, but neither public pairing."""
    d = x.shape[1]
    order = np.ravel(np.column_stack([np.arange(d // 2), d - 1 - np.arange(d // 2)]))
    out = np.empty_like(x)
    out[:, order] = pe.rope(x[:, order], positions)
    return out


WRONG_ROPES: list[tuple[Any, dict[str, Any], str]] = [
    (absolute_added, {}, "is not a rotation of pairs"),
    (
        lambda x, p: x * (1.0 + p[:, None]),
        {},
        "fn does not rotate: column 0 moves into no other column at positions 1, 4",
    ),
    (lambda x, p: x, {}, "fn does not rotate"),
    (squared_angle, {}, r"scores depend on the position, not only on the offset: .* at m=\d+"),
    (mirrored_pairs, {}, "neither the adjacent pairing .* nor the halves pairing"),
    (pe.rope, {"pairing": "halves"}, "uses the adjacent pairing .* expected the halves"),
    (neox_rotary, {"pairing": "adjacent"}, "uses the halves pairing .* expected the adjacent"),
    (
        lambda x, p: pe.rope(x, p, angle_dtype=np.float32),  # float32 angles, float64 output
        {},
        (
            r"beyond the tolerance .* for float64 \(fn's output\) angles .*: fn forms its "
            r"angles in float32\? pass angle_dtype=numpy\.float32"
        ),
    ),
    (lambda x, p: pe.rope(x, p, angle_dtype=np.float16), {"angle_dtype": np.float32}, "scores"),
    (lambda x, p: pe.rope(x, p)[:-1], {}, "returned shape"),
    (lambda x, p: (pe.rope(x, p) * 4).astype(np.int64), {}, "not floats"),
]


def mixed_pairing(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Adjacent pairs in the first half of the columns, halves pairs within the second: some
    columns pair with their neighbour, not all (a reading of "any" for "all" calls it
    adjacent)."""
    d = x.shape[1]
    out = np.empty_like(x)
    out[:, : d // 2] = pe.rope(x[:, : d // 2], positions)
    out[:, d // 2 :] = pe.rope(x[:, d // 2 :], positions, pairing="halves")
    return out


def partial_neox(x: np.ndarray, positions: np.ndarray, rotary: int = 8) -> np.ndarray:
    """GPT-NeoX's partial rotary: the halves pairing over the first ``rotary`` columns."""
    out = x.copy()
    out[:, :rotary] = pe.rope(x[:, :rotary], positions, pairing="halves")
    return out


def test_scaled_and_long_context_rope_pass() -> None:
    d = 64
    llama = rotate_halves(llama3_frequencies(d, base=5e5))
    assert assert_rope_relative(llama, d, base=5e5) == "halves"
    yarn = rotate_halves(yarn_frequencies(d, base=1e4), gain=yarn_gain(4.0))
    assert assert_rope_relative(yarn, d) == "halves"
    assert assert_rope_relative(lambda x, p: pe.rope(x, p, scale=4.0), d) == "adjacent"  # PI
    for theta in (1e6, 1e7):
        assert assert_rope_relative(partial(pe.rope, base=theta), d, base=theta) == "adjacent"
    ntk = 1e4 * 4.0 ** (d / (d - 2))  # NTK-aware scaling changes the base itself
    assert assert_rope_relative(lambda x, p: pe.rope(x, p, base=ntk), d, base=None)


def test_a_wrong_base_fails_naming_the_base_found() -> None:
    with pytest.raises(AssertionError, match=r"follow base 500000 \(.* expected base 10000"):
        assert_rope_relative(lambda x, p: pe.rope(x, p, base=5e5), 64)
    with pytest.raises(AssertionError, match=r"follow base 1e\+07 .* expected base 500000"):
        assert_rope_relative(lambda x, p: pe.rope(x, p, base=1e7), 64, base=5e5)
    llama = rotate_halves(llama3_frequencies(64, base=5e5))
    with pytest.raises(AssertionError, match=r"follow base 500000 \(.* in \d+ of 31 pairs"):
        assert_rope_relative(llama, 64)
    ntk = 1e4 * 4.0 ** (64 / 62)
    with pytest.raises(AssertionError, match=f"follow base {ntk:.6g}"):
        assert_rope_relative(lambda x, p: pe.rope(x, p, base=ntk), 64)


def test_partial_rotary_needs_and_takes_rotary_dim() -> None:
    with pytest.raises(AssertionError, match=r"columns 8 to 31 in place .* rotary_dim=8"):
        assert_rope_relative(partial_neox, 32)
    assert assert_rope_relative(partial_neox, 32, rotary_dim=8, pairing="halves") == "halves"
    with pytest.raises(AssertionError, match="moves column 4, beyond rotary_dim=4"):
        assert_rope_relative(partial_neox, 32, rotary_dim=4)


def leaky_neox(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Partial rotary over 8 columns, whose rotated column 0 also leaks a little of the
    rotation into column 20, beyond the rotated ones."""
    out = partial_neox(x, positions)
    out[:, 20] += 1e-3 * np.sin(np.asarray(positions, dtype=np.float64)) * x[:, 0]
    return out


def test_a_rotation_leaking_beyond_rotary_dim_is_named() -> None:
    with pytest.raises(AssertionError, match="mixes the rotated columns with the columns beyond"):
        assert_rope_relative(leaky_neox, 32, rotary_dim=8, pairing="halves")


def test_a_function_pairing_only_some_columns_adjacently_is_not_adjacent() -> None:
    with pytest.raises(AssertionError, match=r"fn pairs column 16 with column 24: neither"):
        assert_rope_relative(mixed_pairing, 32)


def test_a_scaled_rotation_is_not_a_rotation_unless_every_pair_scales_alike() -> None:
    def uneven(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        out = pe.rope(x, positions)
        out[:, :2] *= 1.5
        return out

    with pytest.raises(AssertionError, match=r"scales pair 0 by 1\.5 .* others by 1"):
        assert_rope_relative(uneven, 16)


@pytest.mark.parametrize(("fn", "options", "words"), WRONG_ROPES)
def test_wrong_rope_functions_fail_with_the_difference_named(
    fn: Any, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(AssertionError, match=words):
        assert_rope_relative(fn, 32, **options)


# --------------------------------------------------------------------------------------------
# The example an engineer would write, and its page


EXAMPLE = ROOT / "docs" / "examples" / "test_my_encoding.py"


def test_the_docs_page_shows_the_example_file_verbatim() -> None:
    page = (ROOT / "docs" / "testing.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.DOTALL)
    assert EXAMPLE.read_text() in blocks


def test_the_example_is_collected_by_the_suite() -> None:
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "docs/examples" in options["testpaths"]
    assert Path(EXAMPLE).name.startswith("test_")


def float32_recipe(n: int) -> npt.NDArray[np.float32]:
    """The float32 recipe's table of ``n`` rows, width 256."""
    return np.asarray(recipes.float32_recipe(np.arange(n), 256), dtype=np.float32)


def test_default_atol_admits_the_recipe_and_not_a_flat_tolerance() -> None:
    from pe.chapters import testing as chapter

    assert chapter._recipe_within(paper_tolerance).holds
    assert not chapter._recipe_within(wrong.FLAT_PAPER_TOLERANCE.value).holds
    # independent: the same bound by hand for n = 2048, float32
    eps = 2.0**-23
    assert paper_tolerance(2048, np.float32) == 4 * eps + 2 * eps * 2047
    pe.testing.assert_matches_paper(float32_recipe(2048))
    with pytest.raises(AssertionError):
        pe.testing.assert_matches_paper(bug_zoo.doubled_exponent(512, 64))


def _pairs_two_apart(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """RoPE that pairs column 4b with 4b + 2 and 4b + 1 with 4b + 3 (neither convention)."""
    order = np.arange(x.shape[-1]).reshape(-1, 4)[:, [0, 2, 1, 3]].ravel()
    return np.asarray(rotary.rope(np.asarray(x)[..., order], positions))[..., order]


def test_a_pairing_of_neither_kind_names_both_partners_it_should_have_had() -> None:
    with pytest.raises(
        AssertionError,
        match=r"pairs column 0 with column 2: neither the adjacent pairing \(column 1\) nor the "
        r"halves pairing \(column 16\)",
    ):
        assert_rope_relative(_pairs_two_apart, 32)


def test_the_reads_check_counts_a_refused_table_of_either_kind_as_refused() -> None:
    """What the testing-reads-tables claim records for a table pe.testing refuses to read:
    a shape it cannot read (ValueError) and a value that is no array of floats (TypeError)
    each show as "refused", and the check fails; the paper's table passes."""
    from pe.chapters import testing as chapter

    table = pe.sinusoidal(64, 16)
    passed = chapter._reads({"paper": table})
    assert passed.holds
    assert passed.detail == "paper: pass"
    refused = chapter._reads({"paper": table, "1-D": np.zeros(5), "text": "abc"})
    assert not refused.holds
    assert refused.detail == "paper: pass; 1-D: refused; text: refused"


def test_a_rope_code_whose_pairs_turn_both_ways_has_no_sign() -> None:
    """read_rope_code reads +1 or -1 only when every pair turns the same way: pair 0 turned
    forwards and pair 1 backwards read as sign 0 (unread), not as either way."""
    forwards = [np.asarray(pe.rope(np.eye(4), np.full(4, p)).T, np.float64) for p in (0, 1, 2)]
    backwards = [np.asarray(pe.rope(np.eye(4), np.full(4, -p)).T, np.float64) for p in (0, 1, 2)]
    assert rotary.read_rope_code(forwards, [0, 1, 2]).sign == 1
    assert rotary.read_rope_code(backwards, [0, 1, 2]).sign == -1
    mixed = [f.copy() for f in forwards]
    for m, b in zip(mixed, backwards, strict=True):
        m[2:, 2:] = b[2:, 2:]
    assert rotary.read_rope_code(mixed, [0, 1, 2]) == rotary.RopeCode("adjacent", 4, 0, 0)
