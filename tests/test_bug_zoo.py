"""The bug zoo: each reported bug, re-implemented here with loops, is named by identify.

The functions below are written the way the tutorials that carried the bugs write them
(loops over positions and columns); pe.bug_zoo holds vectorised versions for the site, and
the two must agree. Then identify must name each bug, and each bug must do to the rotation
identity what the chapter says.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from pe import bug_zoo, conventions, numeric
from pe.identify import identify

Table = np.ndarray


def doubled_exponent(n: int, d: int) -> Table:
    """The doubled exponent's loop: i steps by 2 and the exponent is 2 * i / d again."""
    table = np.zeros((n, d))
    for pos in range(n):
        for i in range(0, d, 2):
            table[pos, i] = math.sin(pos / (10000 ** (2 * i / d)))
            if i + 1 < d:
                table[pos, i + 1] = math.cos(pos / (10000 ** (2 * i / d)))
    return table


def multiplied(n: int, d: int) -> Table:
    table = np.zeros((n, d))
    for pos in range(n):
        for i in range(d // 2):
            table[pos, 2 * i] = math.sin(pos * 10000 ** (2 * i / d))
            table[pos, 2 * i + 1] = math.cos(pos * 10000 ** (2 * i / d))
    return table


def integer_division(n: int, d: int) -> Table:
    table = np.zeros((n, d))
    for pos in range(n):
        for i in range(0, d, 2):
            table[pos, i] = math.sin(pos / 10000 ** (2 * i // d))
            table[pos, i + 1] = math.cos(pos / 10000 ** (2 * i // d))
    return table


def column_index(n: int, d: int) -> Table:
    table = np.zeros((n, d))
    for pos in range(n):
        for i in range(d):
            angle = pos / 10000 ** (2 * i / d)  # should be 2 * (i // 2) / d
            table[pos, i] = math.sin(angle) if i % 2 == 0 else math.cos(angle)
    return table


def halves(n: int, d: int) -> Table:
    table = np.zeros((n, d))
    for pos in range(n):
        for i in range(d // 2):
            table[pos, i] = math.sin(pos / 10000 ** (2 * i / d))
            table[pos, d // 2 + i] = math.cos(pos / 10000 ** (2 * i / d))
    return table


def odd(n: int, d: int) -> Table:
    table = np.zeros((n, d))
    for pos in range(n):
        for j in range(d):
            angle = pos * math.exp(2 * (j // 2) * -math.log(10000.0) / d)
            table[pos, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return table


def fairseq(n: int, d: int) -> Table:
    h = d // 2
    table = np.zeros((n, d))
    for row in range(n):
        pos = row + 2
        for i in range(h):
            w = math.exp(-i * math.log(10000.0) / (h - 1))
            table[row, i], table[row, h + i] = math.sin(pos * w), math.cos(pos * w)
    return table


LOOPS: dict[str, Callable[[int, int], Table]] = {
    "doubled-exponent": doubled_exponent,
    "multiplied": multiplied,
    "integer-division": integer_division,
    "column-index": column_index,
    "halves-for-interleaved": halves,
    "odd-width": odd,
    "fairseq-offset": fairseq,
}

#: What identify must say about each bug (a phrase of its notes).
NAMED = {
    "doubled-exponent": "the doubled-exponent bug",
    "multiplied": "multiplied by base^(2i/d) instead of divided",
    "integer-division": "integer division in the exponent",
    "column-index": "`i` was used where `i // 2` was meant",
    "halves-for-interleaved": "layout halves, sin-first",
    "odd-width": "is a sine without a partner",
    "fairseq-offset": "row 0 is position 2",
}

BUGS = {bug.name: bug for bug in bug_zoo.BUGS}


def width(name: str) -> int:
    return 33 if name == "odd-width" else 32


def test_the_zoo_is_complete() -> None:
    assert set(BUGS) == set(LOOPS) == set(NAMED)


@pytest.mark.parametrize("name", list(LOOPS))
def test_zoo_functions_match_the_loops(name: str) -> None:
    got = BUGS[name].make(60, width(name))
    want = LOOPS[name](60, width(name))
    assert got.shape == want.shape
    assert np.abs(got - want).max() < 1e-9


@pytest.mark.parametrize("name", list(LOOPS))
@pytest.mark.parametrize("d", [16, 64, 256])
def test_identify_names_each_bug(name: str, d: int) -> None:
    width_ = d + 1 if name == "odd-width" else d
    result = identify(LOOPS[name](200, width_))
    assert result.is_encoding, result.reason
    assert not result.matches_paper
    assert any(NAMED[name] in note for note in result.notes), result.notes
    # and the paper's own table carries none of these notes
    paper = identify(numeric.sinusoidal(200, d))
    assert not any(NAMED[name] in note for note in paper.notes)


def test_what_identify_measures_for_each_bug() -> None:
    d = 64
    doubled = identify(doubled_exponent(200, d))
    assert doubled.law == "paper"
    assert doubled.base is not None
    assert abs(doubled.base / 1e8 - 1) < 1e-9
    column = identify(column_index(200, d))
    ratio = column.cos_frequencies[:8] / column.sin_frequencies[:8]
    assert np.allclose(ratio, 10000 ** (-2 / d), rtol=1e-9)
    integer = identify(integer_division(200, d))
    assert np.allclose(integer.frequencies, np.repeat([1.0, 1e-4], d // 4), rtol=1e-6)
    fair = identify(fairseq(200, d))
    assert (fair.layout, fair.law, fair.position_offset) == ("halves", "tensor2tensor", 2)
    odd_result = identify(odd(200, d + 1))
    assert odd_result.unpaired_column == d
    grown = identify(multiplied(200, d))
    assert grown.base is not None
    assert abs(grown.base / 1e4 - 1) < 1e-6
    assert any("above π" in note for note in grown.notes)


def blocks(omega: np.ndarray, k: int) -> np.ndarray:
    """Block-diagonal shift matrix with the given pair frequencies (paper layout)."""
    d = 2 * omega.size
    matrix = np.zeros((d, d))
    for i, w in enumerate(omega):
        c, s = math.cos(k * w), math.sin(k * w)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    return matrix


def test_what_each_bug_does_to_the_rotation_identity() -> None:
    d, k, n = 16, 3, 400
    paper_t = numeric.shift_matrix(k, d)
    i = np.arange(d // 2)
    error = conventions.linear_shift_error
    # doubled exponent: the paper's T_k fails, the blocks of base 1e8 hold
    table = doubled_exponent(n, d)
    assert error(table, k, matrix=paper_t) > 0.1
    assert error(table, k, matrix=numeric.shift_matrix(k, d, base=1e8)) < 1e-9
    # multiplied: holds with the grown frequencies (aliasing does not matter at integer k)
    table = multiplied(n, d)
    assert error(table, k, matrix=paper_t) > 0.1
    assert error(table, k, matrix=blocks(10000.0 ** (2 * i / d), k)) < 1e-8
    # integer division: two distinct blocks
    table = integer_division(n, d)
    assert error(table, k, matrix=blocks(np.where(i < d // 4, 1.0, 1e-4), k)) < 1e-12
    # ... the zoo's picture: each half of pe's table is one pair (sine, cosine) repeated
    zoo = bug_zoo.integer_division(n, d)
    for half in (zoo[:, : d // 2], zoo[:, d // 2 :]):
        assert np.array_equal(half, np.tile(half[:, :2], d // 4))
        assert not np.array_equal(half[:, 0], half[:, 1])  # not one column repeated
    # column index: no matrix at all
    assert error(column_index(4000, d), k) > 0.1
    # halves: P T_k P^T, not T_k
    table = halves(n, d)
    assert error(table, k, matrix=paper_t) > 0.1
    assert error(table, k, matrix=conventions.shift_matrix(k, d, "halves")) < 1e-12
    # fairseq: the offset changes nothing, the halves permutation and t2t's law do
    table = fairseq(n, d)
    t2t_base = 10000.0 ** (d / (d - 2))
    assert error(table, k, matrix=conventions.shift_matrix(k, d, "halves", base=t2t_base)) < 1e-9
    # odd width: the pairs shift, the lone sine needs a cosine that is not there
    table = odd(n, d + 1)
    pairs = table[:, :d]
    omega = 10000.0 ** (-2 * i / (d + 1))
    assert error(pairs, k, matrix=blocks(omega, k)) < 1e-12
    lone = np.sin(np.arange(n) * 10000.0 ** (-d / (d + 1)))
    assert np.allclose(table[:, d], lone)
