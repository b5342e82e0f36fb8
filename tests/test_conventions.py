"""The chapter "Conventions and pitfalls": pe.conventions, its proofs, measurements and claims."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

from pe import bug_zoo, conventions, numeric
from pe.chapters import conventions as claims
from pe.chapters import conventions as experiments
from pe.chapters import conventions as proofs
from pe.chapters.conventions import ShiftInLayout, conjugated
from pe.claims import Candidate, Claim, run
from pe.conventions import LAYOUTS, Layout, Order
from pe.identify import identify
from tests.helpers import wrong


def reference_table(
    n: int,
    d: int,
    *,
    layout: str,
    order: str,
    law: str,
    base: float,
    offset: int,
    padding_row: int | None = None,
) -> np.ndarray:
    """Independent re-implementation: explicit loops over positions and pairs."""
    h = d // 2
    table = np.zeros((n, d))
    for row in range(n):
        if row == padding_row:
            continue  # left at zero
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
        50,
        d,
        layout=c.layout,
        order=c.order,
        law=c.law,
        base=c.base,
        offset=c.offset,
        padding_row=c.padding_row,
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


def test_fairseq_as_stored_and_as_its_tokens_read_it() -> None:
    """fairseq's stored table: positions from 0, row 1 (padding_idx) zeroed, tokens from
    row 2; the rows its tokens read are the same table from position 2."""
    stored, tokens = conventions.get("fairseq"), conventions.get("fairseq-tokens")
    assert (stored.offset, stored.padding_row, stored.first_token_row) == (0, 1, 2)
    assert (tokens.offset, tokens.padding_row, tokens.first_token_row) == (2, None, 0)
    table = stored.table(40, 16)
    assert not table[1].any()
    assert table[0].any()
    assert table[2].any()
    assert np.array_equal(table[2:], tokens.table(38, 16))
    assert stored.table(1, 16)[0].any()  # a one-row table has no row 1 to zero


def test_paper_convention_is_pe_numeric() -> None:
    assert np.array_equal(conventions.get("paper").table(40, 32), numeric.sinusoidal(40, 32))


def test_dtype_is_kept() -> None:
    assert conventions.get("halves").table(20, 8, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("source", LAYOUTS)
@pytest.mark.parametrize("target", LAYOUTS)
def test_permutations_convert_between_layouts(
    source: tuple[Layout, Order], target: tuple[Layout, Order]
) -> None:
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
def test_layout_proofs_and_their_controls(layout: Layout, order: Order) -> None:
    assert proofs.layout_identity(layout, order, d_model=4).holds
    transposed = proofs.layout_identity(
        layout, order, wrong.TRANSPOSED_CONJUGATION.value.build, d_model=4
    )
    unconjugated = proofs.layout_identity(
        layout, order, wrong.UNCONJUGATED_SHIFT.value.build, d_model=4
    )
    if (layout, order) == ("interleaved", "sin-first"):
        assert transposed.holds
        assert unconjugated.holds
    else:
        assert not unconjugated.holds
        # P^T T P equals P T P^T only when P is its own inverse (a swap inside pairs)
        perm = conventions.permutation(4, LAYOUTS[0], (layout, order))
        assert transposed.holds == bool(np.array_equal(perm[perm], np.arange(4)))


@pytest.mark.parametrize(
    "candidate",
    [wrong.UNCONJUGATED_SHIFT, wrong.TRANSPOSED_CONJUGATION, wrong.COS_FIRST_UNCONJUGATED],
    ids=lambda c: c.name,
)
def test_wrong_shift_rules_fail_where_they_are_claimed(
    candidate: Candidate[ShiftInLayout],
) -> None:
    rule = candidate.value
    for layout, order in rule.layouts:
        assert not proofs.layout_identity(layout, order, rule.build).holds
    assert experiments.layout_shift_errors(rule, d=16).ratio > 1e6


def test_true_shift_rule_in_numbers() -> None:
    worst, ratio = experiments.layout_shift_errors(ShiftInLayout(conjugated), d=64)
    assert ratio <= 1.0
    assert worst < 1e-12


def test_order_and_law_proofs() -> None:
    assert proofs.cos_first_block().holds
    assert not proofs.cos_first_block(wrong.PAPER_BLOCK.value).holds
    assert proofs.t2t_equals_paper().holds
    assert not proofs.t2t_equals_paper(wrong.T2T_EXPONENT_D_MINUS_1.value).holds
    assert not proofs.t2t_equals_paper(wrong.SAME_BASE.value).holds
    assert proofs.doubled_exponent().holds
    assert not proofs.doubled_exponent(wrong.BASE_CUBED.value).holds


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


def test_t2t_formula_error() -> None:
    assert experiments.t2t_formula_error(conventions.get("tensor2tensor"), d=64, n=200) < 1e-12
    assert experiments.t2t_formula_error(conventions.get("halves"), d=64, n=200) > 1e-3


def test_column_index_bug_leaves_no_shift_matrix() -> None:
    assert conventions.linear_shift_error(bug_zoo.column_index_exponent(4000, 16), 3) > 0.1
    assert conventions.linear_shift_error(wrong.PAPER_TABLE.value(4000, 16), 3) < 1e-9


@pytest.mark.parametrize(
    "candidate",
    [wrong.UNIFORM_NOISE_TABLE, wrong.NOISY_PAPER_TABLE, wrong.ZERO_TABLE],
    ids=lambda c: c.name,
)
def test_non_encodings_are_refused(
    candidate: Candidate[npt.NDArray[np.float64]],
) -> None:
    assert not identify(candidate.value).is_encoding


@pytest.mark.parametrize("claim", claims.chapter.claims, ids=lambda c: c.id)
def test_claims_verify(claim: Claim) -> None:
    result = run(claim)
    assert result.ok, [e.detail for e in result.evidence + result.controls]


def test_one_indexed_law_needs_the_changed_base() -> None:
    """The page used to say "the paper's table of width d + 2 without its first pair"."""
    from pe.chapters import conventions as claims
    from pe.chapters import conventions as experiments
    from pe.chapters import conventions as proofs
    from tests.helpers import wrong

    d, n = 16, 300
    k = np.arange(d // 2)
    angle = np.outer(np.arange(n), 10000.0 ** (-2.0 * (k + 1) / d))
    expected = np.empty((n, d))
    expected[:, 0::2], expected[:, 1::2] = np.sin(angle), np.cos(angle)
    assert np.abs(conventions.get("one-indexed").table(n, d) - expected).max() < 1e-12
    assert experiments.one_indexed_error(1.0, d, n) > 0.1  # the base left unchanged
    assert proofs.one_indexed_is_wider_paper().holds
    assert not proofs.one_indexed_is_wider_paper(wrong.SAME_BASE.value).holds
    assert not claims._one_indexed_numeric(wrong.SAME_BASE.value).holds


def test_column_index_claim_is_not_broader_than_true() -> None:
    """A frequency mismatch within every pair still admits a shift matrix when each sine has
    its cosine in another column; only the column-index bug, where none has, admits none."""
    from pe.chapters import conventions as claims
    from tests.helpers import wrong

    table = wrong.SWAPPED_PARTNERS.value(50, 8)
    paper = numeric.sinusoidal(50, 8)
    assert not np.allclose(table[:, 1], paper[:, 1])  # pair 0's cosine is pair 1's
    assert np.allclose(table[:, 1], paper[:, 3])
    assert claims._no_shift_matrix(bug_zoo.column_index_exponent).holds
    assert not claims._no_shift_matrix(wrong.SWAPPED_PARTNERS.value).holds


def test_described_table_entry_by_entry_in_plain_math() -> None:
    """The description's table, one entry at a time with ``math`` (the rows fairseq's tokens
    read: halves, t2t, from 2; its stored table: from 0, row 1 zeroed)."""
    fairseq = conventions.get("fairseq-tokens")
    table, tolerance = conventions.described_table(fairseq, 20, 8)
    for p in range(20):
        for k in range(4):
            w = math.exp(-k * math.log(10000.0) / 3)
            assert table[p, k] == pytest.approx(math.sin((p + 2) * w), abs=1e-14)
            assert table[p, k + 4] == pytest.approx(math.cos((p + 2) * w), abs=1e-14)
    assert np.all(tolerance > 0)
    stored, _ = conventions.described_table(conventions.get("fairseq"), 20, 8)
    assert not stored[1].any()
    assert stored[2, 0] == pytest.approx(math.sin(2.0), abs=1e-14)
    one = conventions.get("one-indexed")
    table, _ = conventions.described_table(one, 5, 8)
    assert table[3, 2] == pytest.approx(math.sin(3 * 10000.0 ** (-2 * 2 / 8)), abs=1e-15)
    assert claims._described(conventions.DESCRIPTION).holds
    for candidate in (wrong.T2T_DESCRIBED_WITH_HALF_WIDTH, wrong.FAIRSEQ_FROM_ONE):
        assert not claims._described(candidate.value).holds


def test_phase_and_alias_identities_numerically() -> None:
    """The two SymPy identities again in complex floats, and their wrong candidates."""
    theta = np.linspace(-7, 7, 101)
    pair = np.sin(theta) + 1j * np.cos(theta)
    assert np.allclose(pair, 1j * np.exp(-1j * theta), atol=1e-15)
    assert not np.allclose(pair, 1j * np.exp(1j * theta), atol=1e-3)
    assert proofs.pair_as_phase().holds
    assert not proofs.pair_as_phase(wrong.COUNTER_CLOCKWISE_PHASE.value).holds
    p, omega = np.arange(50), 4.0  # above pi per position
    assert np.allclose(np.sin((2 * np.pi - omega) * p), -np.sin(omega * p), atol=1e-12)
    assert np.allclose(np.cos((2 * np.pi - omega) * p), np.cos(omega * p), atol=1e-12)
    assert not np.allclose(np.sin((np.pi - omega) * p), -np.sin(omega * p), atol=1e-3)
    assert proofs.alias_at_integers().holds
    assert not proofs.alias_at_integers(wrong.HALF_TURN_ALIAS.value).holds


def test_slow_cosine_claim_rejects_eps_over_theta() -> None:
    assert claims._uncertainty(2.0).holds
    assert not claims._uncertainty(1.0).holds


def test_page_values_compute() -> None:
    from pe.identify import MIN_ROWS
    from pe.site import conventions as page

    values = {name: thunk() for name, thunk in page.VALUES.items()}
    assert (values["status_encoding"], values["status_not_encoding"]) == (0, 1)
    assert values["status_bad_input"] == 2
    assert values["identify_min_rows"] == MIN_ROWS
    with pytest.raises(ValueError, match=f"at least {MIN_ROWS} rows"):
        identify(numeric.sinusoidal(MIN_ROWS - 1, 8))
    assert values["heatmap_pairs"] == values["heatmap_width"] // 2  # type: ignore[operator]
    assert values["bug_identify_width"] == 64


def test_identify_does_not_recover_frequencies_above_pi() -> None:
    """The testing page said identify "recovers every parameter": aliases cannot be."""
    from pe.chapters import conventions as chapter

    assert chapter._reported_is_alias(chapter.integer_alias_of).holds
    assert not chapter._reported_is_alias(chapter.RECOVERS_TRUE_FREQUENCY.value).holds


@pytest.mark.parametrize(("d", "k"), [(8, 3), (16, 1)])
def test_linear_shift_error_needs_4d_plus_k_rows(d: int, k: int) -> None:
    """The fitted shift is solved on half the n - k pairs of rows and tested on the other
    half, each at least 2 d rows: 4 d + k rows are enough (the paper's table is then read as
    shifted by a linear map, if less sharply than with more rows: the slow columns barely
    move over 2 d rows), one row fewer is refused with the count it needs."""
    table = numeric.sinusoidal(4 * d + k, d)
    assert conventions.linear_shift_error(table, k) < 1e-6
    with pytest.raises(
        ValueError, match=f"at least 4 d \\+ k = {4 * d + k} rows, got {4 * d + k - 1}"
    ):
        conventions.linear_shift_error(table[:-1], k)


def test_the_description_check_names_its_worst_convention() -> None:
    """The evidence reports the largest ratio found and the convention it was found in, not
    a starting value: every ratio is below 1, and the name is one of the conventions."""
    evidence = claims._described(conventions.DESCRIPTION)
    assert evidence.error is not None
    assert 0 < evidence.error < 1
    assert any(evidence.detail.endswith(f"({name})") for name in conventions.CONVENTIONS)
