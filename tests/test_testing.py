"""pe.testing: the assertions pass on correct tables and functions, and fail on each bug of
the bug zoo (and on wrong RoPE functions) with the difference named in the message."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import pe
from pe import bug_zoo, conventions, recipes, rotary
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
    with pytest.raises(AssertionError, match="column 7 misses its best sinusoid"):
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
    table = conventions.get("fairseq").table(N, D)
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
    (lambda x, p: x * (1.0 + p[:, None]), {}, "fn does not rotate: at position 1 column 0"),
    (lambda x, p: x, {}, "fn does not rotate"),
    (squared_angle, {}, r"scores depend on the position, not only on the offset: .* at m=\d+"),
    (mirrored_pairs, {}, "neither the adjacent pairing .* nor the halves pairing"),
    (pe.rope, {"pairing": "halves"}, "uses the adjacent pairing .* expected the halves"),
    (neox_rotary, {"pairing": "adjacent"}, "uses the halves pairing .* expected the adjacent"),
    (
        lambda x, p: pe.rope(x, p, angle_dtype=np.float32),  # float32 angles, float64 output
        {},
        "beyond the tolerance .* for float64 angles",
    ),
    (lambda x, p: pe.rope(x, p, angle_dtype=np.float16), {"angle_dtype": np.float32}, "scores"),
    (lambda x, p: pe.rope(x, p)[:-1], {}, "returned shape"),
    (lambda x, p: (pe.rope(x, p) * 4).astype(np.int64), {}, "not floats"),
]


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
