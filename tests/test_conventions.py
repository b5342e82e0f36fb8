"""pe.conventions: named conventions, layout converters and the identity in each layout."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from pe import conventions, numeric
from pe.claims import conventions as claims
from pe.conventions import LAYOUTS


def reference_table(
    n: int, d: int, *, layout: str, order: str, law: str, base: float, offset: int
) -> np.ndarray:
    """Independent re-implementation: explicit loops over positions and pairs."""
    h = d // 2
    table = np.zeros((n, d))
    for row in range(n):
        p = row + offset
        for k in range(h):
            if law == "paper":
                w = base ** (-2.0 * k / d)
            elif law == "tensor2tensor":
                w = math.exp(-k * math.log(base) / (h - 1))
            else:
                w = base ** (-2.0 * (k + 1) / d)
            first, second = (math.sin(w * p), math.cos(w * p))
            if order == "cos-first":
                first, second = second, first
            if layout == "interleaved":
                table[row, 2 * k], table[row, 2 * k + 1] = first, second
            else:
                table[row, k], table[row, h + k] = first, second
    return table


@pytest.mark.parametrize("name", list(conventions.CONVENTIONS))
@pytest.mark.parametrize("d", [4, 16, 64])
def test_named_conventions_match_an_independent_implementation(name: str, d: int) -> None:
    c = conventions.get(name)
    got = c.table(50, d)
    want = reference_table(
        50, d, layout=c.layout, order=c.order, law=c.law, base=c.base, offset=c.offset
    )
    assert np.abs(got - want).max() < 1e-12
    # and a wrong convention differs
    other = reference_table(
        50, d, layout="halves", order=c.order, law=c.law, base=c.base, offset=c.offset + 1
    )
    assert np.abs(got - other).max() > 0.1


@pytest.mark.parametrize("base", [100.0, 1e6])
def test_any_base_and_offset(base: float) -> None:
    c = conventions.get("tensor2tensor").with_base(base).with_offset(7)
    want = reference_table(
        30, 32, layout="halves", order="sin-first", law="tensor2tensor", base=base, offset=7
    )
    assert np.abs(c.table(30, 32) - want).max() < 1e-12
    assert np.allclose(c.frequencies(32), np.exp(-np.arange(16) * math.log(base) / 15))


def test_paper_convention_is_pe_numeric() -> None:
    assert np.array_equal(conventions.get("paper").table(40, 32), numeric.sinusoidal(40, 32))


def test_dtype_is_kept() -> None:
    assert conventions.get("halves").table(20, 8, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("source", LAYOUTS)
@pytest.mark.parametrize("target", LAYOUTS)
def test_permutations_convert_between_layouts(source: tuple, target: tuple) -> None:
    d = 12
    src = reference_table(20, d, layout=source[0], order=source[1], law="paper", base=1e4, offset=0)
    dst = reference_table(20, d, layout=target[0], order=target[1], law="paper", base=1e4, offset=0)
    assert np.array_equal(conventions.convert(src, source, target), dst)
    back = conventions.permutation(d, target, source)
    assert np.array_equal(conventions.convert(dst, target, source), src)
    forward = conventions.permutation(d, source, target)
    assert np.array_equal(forward[back], np.arange(d))
    p = conventions.permutation_matrix(d, source, target)
    assert np.array_equal(p @ src[5], dst[5])


def test_column_roles() -> None:
    pair, sine = conventions.column_roles(6, "halves", "cos-first")
    assert pair.tolist() == [0, 1, 2, 0, 1, 2]
    assert sine.tolist() == [False, False, False, True, True, True]
    pair, sine = conventions.column_roles(6)
    assert pair.tolist() == [0, 0, 1, 1, 2, 2]
    assert sine.tolist() == [True, False, True, False, True, False]


@pytest.mark.parametrize(("layout", "order"), LAYOUTS)
def test_shift_matrix_in_each_layout(layout: str, order: str) -> None:
    d, k = 64, 5
    table = conventions.Convention("x", "x", layout=layout, order=order).table(200, d)  # type: ignore[arg-type]
    moved = table[:-k] @ conventions.shift_matrix(k, d, layout, order).T  # type: ignore[arg-type]
    assert np.abs(moved - table[k:]).max() < 1e-12
    wrong = table[:-k] @ numeric.shift_matrix(k, d).T
    if (layout, order) != ("interleaved", "sin-first"):
        assert np.abs(wrong - table[k:]).max() > 0.1


def test_cos_first_blocks_are_counter_clockwise() -> None:
    matrix = conventions.shift_matrix(1, 2, "interleaved", "cos-first")
    c, s = math.cos(1.0), math.sin(1.0)
    assert np.allclose(matrix, [[c, -s], [s, c]])
    assert np.allclose(numeric.shift_matrix(1, 2), [[c, s], [-s, c]])


@pytest.mark.parametrize(("layout", "order"), LAYOUTS)
def test_layout_proofs_and_their_controls(layout: str, order: str) -> None:
    assert claims.layout_identity(layout, order, d_model=4).holds  # type: ignore[arg-type]
    transposed = claims.layout_identity(layout, order, "transposed", d_model=4)  # type: ignore[arg-type]
    unconjugated = claims.layout_identity(layout, order, "unconjugated", d_model=4)  # type: ignore[arg-type]
    if (layout, order) == ("interleaved", "sin-first"):
        assert transposed.holds
        assert unconjugated.holds
    else:
        assert not unconjugated.holds
        # P^T T P equals P T P^T only when P is its own inverse (a swap inside pairs)
        perm = conventions.permutation(4, LAYOUTS[0], (layout, order))  # type: ignore[arg-type]
        assert transposed.holds == bool(np.array_equal(perm[perm], np.arange(4)))
    big = claims.layout_identity("halves", "sin-first", "transposed", d_model=8)
    assert not big.holds
    with pytest.raises(ValueError, match="unknown candidate"):
        claims.layout_identity(layout, order, "nonsense")  # type: ignore[arg-type]


def test_order_and_law_proofs() -> None:
    assert claims.cos_first_block().holds
    assert not claims.cos_first_block(
        lambda k, w: sp.Matrix([[sp.cos(k * w), sp.sin(k * w)], [-sp.sin(k * w), sp.cos(k * w)]])
    ).holds
    assert claims.t2t_equals_paper().holds
    assert not claims.t2t_equals_paper(claims.D_SYM / (claims.D_SYM - 1)).holds
    assert claims.doubled_exponent().holds
    assert not claims.doubled_exponent(3).holds


def test_t2t_base_equivalence_numerically() -> None:
    d, base = 40, 5000.0
    t2t = conventions.get("tensor2tensor").with_base(base).frequencies(d)
    paper = numeric.frequencies(d, base ** (d / (d - 2)))
    assert np.allclose(t2t, paper, rtol=1e-13)
    assert not np.allclose(t2t, numeric.frequencies(d, base), rtol=1e-3)


def test_linear_shift_error() -> None:
    paper = numeric.sinusoidal(400, 8)
    assert conventions.linear_shift_error(paper, 2) < 1e-9
    assert conventions.linear_shift_error(paper, 2, matrix=numeric.shift_matrix(2, 8)) < 1e-12
    assert conventions.linear_shift_error(paper, 2, matrix=numeric.shift_matrix(2, 8).T) > 0.1
    with pytest.raises(ValueError, match="rows"):
        conventions.linear_shift_error(paper[:20], 2)
    with pytest.raises(ValueError, match="shape"):
        conventions.linear_shift_error(paper, 2, matrix=np.eye(3))
    with pytest.raises(ValueError, match="2-D"):
        conventions.linear_shift_error(paper[0], 2)
    with pytest.raises(ValueError, match="k"):
        conventions.linear_shift_error(paper, 0)


def test_bad_arguments() -> None:
    with pytest.raises(KeyError, match="known"):
        conventions.get("nope")
    with pytest.raises(ValueError, match="base"):
        conventions.get("paper").with_base(1.0)
    with pytest.raises(ValueError, match="offset"):
        conventions.get("paper").with_offset(-1)
    with pytest.raises(ValueError, match="even"):
        conventions.get("paper").table(10, 7)
    with pytest.raises(ValueError, match="layout"):
        conventions.permutation(8, ("diagonal", "sin-first"), ("halves", "sin-first"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="order"):
        conventions.column_roles(8, "halves", "tan-first")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2-D"):
        conventions.convert(np.zeros(8), LAYOUTS[0], LAYOUTS[2])
