"""Edges of the numeric modules: signatures, degenerate widths, defaults, guards, models.

Covers the behaviour a tool-made fault in ``pe.accuracy``, ``pe.conventions``,
``pe.embeddings``, ``pe.residual_stream``, ``pe._validate``, ``pe.error_models`` and their
neighbours would change without any other test noticing: keyword-only arguments that must be
passed by keyword (and are refused positionally), the one-pair width of the tensor2tensor
law, the documented defaults of the encoding's subspace share (compared with passing them
explicitly, and with another value), the documented weight scaling of the residual stack
(rebuilt here from its docstring), row separations across the 1024-row blocks, SymPy
signs in :func:`pe._validate.not_positive`, and the error models evaluated from their
docstrings' formulas with mpmath.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt
import pytest
import sympy

from pe import (
    _extended_precision,
    _tolerance,
    _validate,
    accuracy,
    bug_zoo,
    conventions,
    embeddings,
    error_models,
    frequency_ladder,
    from_scratch,
    numeric,
    position_designs,
    recipes,
    reference,
    residual_stream,
)

Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], dict[str, Any]]

#: (function, its positional arguments, its keyword-only ones, the positional ones by name).
KEYWORD_CALLS: list[Call] = [
    (
        accuracy.sample_entries,
        (50, 8, 10),
        {"seed": 3, "largest": 2},
        {"n_positions": 50, "d_model": 8, "count": 10},
    ),
    (
        conventions.shift_matrix,
        (3, 4, "halves", "cos-first"),
        {"base": 100.0},
        {"k": 3, "d_model": 4, "layout": "halves", "order": "cos-first"},
    ),
    (
        conventions.linear_shift_error,
        (numeric.sinusoidal(20, 4), 1),
        {"matrix": numeric.shift_matrix(1, 4)},
        {"table": numeric.sinusoidal(20, 4), "k": 1},
    ),
    (
        conventions.get("halves").table,
        (5, 6),
        {"dtype": np.float32},
        {"n_positions": 5, "d_model": 6},
    ),
    (
        numeric.sinusoidal,
        (7, 6),
        {"base": 50.0, "dtype": np.float32},
        {"n_positions": 7, "d_model": 6},
    ),
    (
        numeric.sinusoidal_direct,
        (7, 6),
        {"base": 50.0, "dtype": np.float32},
        {"n_positions": 7, "d_model": 6},
    ),
    (numeric.shift_matrix, (2, 4), {"base": 30.0}, {"k": 2, "d_model": 4}),
    (numeric.shift, (np.ones((2, 4)), 2), {"base": 30.0}, {"rows": np.ones((2, 4)), "k": 2}),
    (
        numeric.fitted_shift_matrix,
        (1, 4, 40),
        {"base": 30.0},
        {"k": 1, "d_model": 4, "positions": 40},
    ),
    (_validate.positive_int, ("n", 3), {"minimum": 0}, {"name": "n", "value": 3}),
    (_validate.position_count, ("n", 3), {"limit": 10}, {"name": "n", "value": 3}),
    (_validate.integer_positions, ("n", [1, 2]), {"limit": 10}, {"name": "n", "value": [1, 2]}),
    (_validate.real_positions, ("n", [1.5]), {"limit": 10}, {"name": "n", "value": [1.5]}),
    (
        _validate.sequence,
        ("s", [1], "items"),
        {"kinds": list},
        {"name": "s", "value": [1], "what": "items"},
    ),
    (
        position_designs.unseen_pairs,
        (8, 10, 50),
        {"base": 100.0},
        {"d_model": 8, "n_train": 10, "position": 50},
    ),
    (
        embeddings.encoding_row_embeddings,
        (2, 4, 1),
        {"n_positions": 3},
        {"n_tokens": 2, "d_model": 4, "seed": 1},
    ),
    (
        embeddings.encoding_subspace_share,
        (3, 8),
        {"embeddings": np.ones((2, 8)), "relative": 0.1},
        {"n_positions": 3, "d_model": 8},
    ),
    (
        residual_stream.run_stack,
        (np.ones((2, 4)) + np.eye(2, 4), 1),
        {"connection": residual_stream.PLAIN, "gain": 0.25, "seed": 2},
        {"inputs": np.ones((2, 4)) + np.eye(2, 4), "n_layers": 1},
    ),
    (
        residual_stream.position_signal,
        (4, 3, 1),
        {"connection": residual_stream.PLAIN, "gain": 0.25, "seed": 2},
        {"d_model": 4, "n_positions": 3, "n_layers": 1},
    ),
    (frequency_ladder.wavelengths, (4,), {"base": 100.0}, {"d_model": 4}),
    (
        recipes.float32_recipe,
        (np.arange(3), 4),
        {"base": 100.0, "dtype": np.float64},
        {"positions": np.arange(3), "d_model": 4},
    ),
    (
        recipes.chained_rotation,
        (3, 4),
        {"base": 100.0, "dtype": np.complex128},
        {"n_positions": 3, "d_model": 4},
    ),
    (reference.frequency, (1, 4, 100.0), {"dps": 20}, {"i": 1, "d": 4, "base": 100.0}),
    (reference.frequencies, (4, 100.0), {"dps": 20}, {"d": 4, "base": 100.0}),
    (reference.angle, (3, 1, 4, 100.0), {"dps": 20}, {"p": 3, "i": 1, "d": 4, "base": 100.0}),
    (reference.entry, (3, 1, 4, 100.0), {"dps": 20}, {"p": 3, "column": 1, "d": 4, "base": 100.0}),
    (
        reference.table,
        ([1, 2], 4, 100.0),
        {"dps": 20},
        {"positions": [1, 2], "d": 4, "base": 100.0},
    ),
    (
        reference.errors,
        ([0.5], [0], [0], 4, 100.0),
        {"dps": 20},
        {"values": [0.5], "positions": [0], "columns": [0], "d": 4, "base": 100.0},
    ),
    (reference.shift_block, (2, mpmath.mpf(0.5)), {"dps": 20}, {"k": 2, "w": mpmath.mpf(0.5)}),
]


def _name(call: Call) -> str:
    """The test id of a call: the function's name."""
    function = call[0]
    inner = function.func if isinstance(function, functools.partial) else function
    return str(inner.__qualname__)


def _same(a: object, b: object) -> bool:
    """Whether two results are equal: arrays entry by entry, tuples item by item."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray | list | mpmath.matrix) or isinstance(b, np.ndarray):
        left, right = (
            np.asarray(a.tolist() if isinstance(a, mpmath.matrix) else a),
            np.asarray(b.tolist() if isinstance(b, mpmath.matrix) else b),
        )
        nan = left.dtype.kind == "f" and right.dtype.kind == "f"
        return left.shape == right.shape and bool(np.array_equal(left, right, equal_nan=nan))
    if hasattr(a, "__dataclass_fields__"):
        return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    return bool(a == b)


@pytest.mark.parametrize("call", KEYWORD_CALLS, ids=_name)
def test_every_argument_can_be_passed_by_keyword(call: Call) -> None:
    """Fault caught: a keyword-only marker ``*`` turned into ``/`` (positional-only), so the
    documented names of the arguments before it are refused as keywords."""
    function, positional, keywords, by_name = call
    assert _same(function(**by_name, **keywords), function(*positional, **keywords))


@pytest.mark.parametrize("call", KEYWORD_CALLS, ids=_name)
def test_keyword_only_arguments_are_refused_positionally(call: Call) -> None:
    """Fault caught: the keyword-only marker ``*`` removed or made ``/``, so an option (a
    base, a dtype, a seed) slips in positionally where a caller's mistake should raise."""
    function, positional, keywords, _ = call
    with pytest.raises(TypeError, match="positional argument"):
        function(*positional, *keywords.values())


# --- pe.conventions: the laws at their smallest width, rebuilt from the module's formulas.


@pytest.mark.parametrize("base", [10.0, 10000.0])
def test_tensor2tensor_law_at_one_pair_is_a_single_unit_frequency(base: float) -> None:
    """Fault caught: the degenerate width d = 2 of exp(-k ln b / (h - 1)) (h = 1, only
    k = 0) returning another shape or value than the one frequency 1."""
    law = conventions.Convention("t2t", "test", law="tensor2tensor", base=base)
    found = law.frequencies(2)
    assert found.shape == (1,)
    assert found.tolist() == [1.0]
    table = law.table(3, 2)
    p = np.arange(3.0)
    np.testing.assert_allclose(table, np.stack([np.sin(p), np.cos(p)], axis=1), rtol=0, atol=1e-15)


@pytest.mark.parametrize("width", [4, 6, 10])
@pytest.mark.parametrize("law", ["paper", "tensor2tensor", "one-indexed"])
def test_each_law_gives_the_module_formula_beyond_one_pair(law: str, width: int) -> None:
    """Fault caught: a law's frequencies (an exponent, a count of pairs, the h - 1 of
    tensor2tensor, the shift of the one-indexed law) changed at small even widths."""
    base = 500.0
    found = conventions.Convention("x", "test", law=law, base=base).frequencies(width)  # type: ignore[arg-type]
    h = width // 2
    with mpmath.workdps(40):
        if law == "paper":
            exact = [mpmath.mpf(base) ** (-mpmath.mpf(2 * k) / width) for k in range(h)]
        elif law == "tensor2tensor":
            exact = [mpmath.exp(-k * mpmath.log(base) / (h - 1)) for k in range(h)]
        else:
            exact = [mpmath.mpf(base) ** (-mpmath.mpf(2 * (k + 1)) / width) for k in range(h)]
        expected = np.array([float(e) for e in exact])
    assert found.shape == (h,)
    np.testing.assert_allclose(found, expected, rtol=1e-14, atol=0)


# --- pe._validate.not_positive: SymPy values of each sign.


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (sympy.Integer(3), False),
        (sympy.Rational(1, 7), False),
        (sympy.Integer(0), True),
        (sympy.Integer(-2), True),
        (sympy.Symbol("w"), False),
        (sympy.Symbol("w", positive=True), False),
        (sympy.Symbol("w", nonpositive=True, real=True), True),
        (sympy.Symbol("w", negative=True), True),
        (sympy.I, False),
        (3, False),
        (0, True),
        (-0.5, True),
        (1e-300, False),
        (-1e-300, True),
    ],
)
def test_not_positive_is_true_only_for_values_known_to_be_at_most_zero(
    value: object, expected: bool
) -> None:
    """Fault caught: the SymPy sign test ``is_positive is False`` inverted or its realness
    dropped, so a positive number or a complex unit counts as not positive (or a known
    negative as positive); numbers at 0 and either side of it."""
    assert _validate.not_positive(value) is expected


# --- pe.embeddings: the documented defaults of the subspace share, pinned by behaviour.


def _share(n: int, d: int, vectors: npt.NDArray[np.float64], relative: float) -> tuple[int, float]:
    """Rank of the rows sin/cos(p w_k) above ``relative`` times the largest singular value,
    and the mean share of ``vectors``' squared norms in their span (from the docstring)."""
    p = np.arange(n, dtype=np.float64)[:, None]
    omega = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    rows = np.empty((n, d))
    rows[:, 0::2], rows[:, 1::2] = np.sin(p * omega), np.cos(p * omega)
    _, singular, vt = np.linalg.svd(rows, full_matrices=False)
    rank = int((singular > relative * singular[0]).sum())
    inside = ((vectors @ vt[:rank].T) ** 2).sum(axis=1)
    return rank, float((inside / (vectors**2).sum(axis=1)).mean())


def test_subspace_share_defaults_are_1000_embeddings_with_seed_11() -> None:
    """Fault caught: the documented default sample (1000 isotropic embeddings, seed 11) or
    the default threshold 1e-3 changed: the default call must equal the explicit one."""
    n, d = 40, 32
    vectors = np.random.default_rng(11).standard_normal((1000, d))
    rank, share = embeddings.encoding_subspace_share(n, d)
    expected_rank, expected_share = _share(n, d, vectors, 1e-3)
    assert rank == expected_rank
    assert share == pytest.approx(expected_share, rel=1e-12, abs=0)
    explicit = embeddings.encoding_subspace_share(n, d, embeddings=vectors, relative=1e-3)
    assert explicit == (rank, share)
    other = np.random.default_rng(11).standard_normal((1001, d))
    assert embeddings.encoding_subspace_share(n, d, embeddings=other)[1] != share
    assert (
        embeddings.encoding_subspace_share(n, d, relative=1e-2)[0] == _share(n, d, vectors, 1e-2)[0]
    )


def test_subspace_share_default_sizes_are_200_positions_and_width_512() -> None:
    """Fault caught: the documented default sizes (200 positions, width 512) changed."""
    narrow = np.random.default_rng(0).standard_normal((5, 8))
    found = embeddings.encoding_subspace_share(d_model=8, embeddings=narrow)
    expected = _share(200, 8, narrow, 1e-3)
    assert found[0] == expected[0]
    assert found[1] == pytest.approx(expected[1], rel=1e-12, abs=0)
    wide = np.random.default_rng(0).standard_normal((5, 512))
    found = embeddings.encoding_subspace_share(3, embeddings=wide)
    expected = _share(3, 512, wide, 1e-3)
    assert found[0] == expected[0] == 3
    assert found[1] == pytest.approx(expected[1], rel=1e-12, abs=0)


def test_random_embedding_default_seed_is_seven() -> None:
    """Fault caught: the documented seeds (7 for random_embeddings and
    embeddings_plus_pe0, 5 for encoding_row_embeddings) or their N(0, 1) draw changed."""
    expected = np.random.default_rng(7).standard_normal((3, 4))
    assert np.array_equal(embeddings.random_embeddings(3, 4), expected)
    pe0 = np.array([0.0, 1.0, 0.0, 1.0])
    assert np.array_equal(embeddings.embeddings_plus_pe0(3, 4), expected + pe0)
    weights = np.random.default_rng(5).standard_normal((2, 200))
    p = np.arange(200.0)[:, None]
    omega = 10000.0 ** (-np.arange(2) / 2.0)
    rows = np.empty((200, 4))
    rows[:, 0::2], rows[:, 1::2] = np.sin(p * omega), np.cos(p * omega)
    np.testing.assert_allclose(embeddings.encoding_row_embeddings(2, 4), weights @ rows, atol=1e-11)


# --- pe.residual_stream: the stack rebuilt from run_stack's docstring.

Stack = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float, npt.NDArray[np.float64]]


def _layer_norm(h: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Layer normalisation over the last axis (epsilon 1e-6 inside the square root)."""
    centred = h - h.mean(axis=-1, keepdims=True)
    return np.asarray(centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + 1e-6))


def _sublayer(
    weights: tuple[npt.NDArray[np.float64], ...], z: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Attention (softmax of q k^T / sqrt d, three matrices) or a ReLU block (two)."""
    if len(weights) == 3:
        wq, wk, wv = weights
        logits = (z @ wq) @ (z @ wk).T / math.sqrt(z.shape[1])
        scores = np.exp(logits - logits.max(axis=1, keepdims=True))
        scores = scores / scores.sum(axis=1, keepdims=True)
        return np.asarray(scores @ (z @ wv))
    w1, w2 = weights
    return np.asarray(np.maximum(z @ w1, 0.0) @ w2)


def _stack(x: npt.NDArray[np.float64], layers: int, kind: str, gain: float, seed: int) -> Stack:
    """The stack as documented: weights of variance one over their input width, drawn in
    order; attention (softmax of q k^T / sqrt d) then a ReLU block, alternating."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    h, total, raw = x.copy(), np.zeros((n, d)), np.zeros((n, d))
    largest = float(np.abs(x).max())
    for layer in range(layers):
        weights: tuple[npt.NDArray[np.float64], ...]
        if layer % 2 == 0:
            weights = tuple(rng.standard_normal((d, d)) * (1 / math.sqrt(d)) for _ in range(3))
        else:
            weights = (
                rng.standard_normal((d, 4 * d)) * (1 / math.sqrt(d)),
                rng.standard_normal((4 * d, d)) * (1 / math.sqrt(4 * d)),
            )
        sub = functools.partial(_sublayer, weights)
        raw = raw + gain * sub(h)
        if kind == "post":
            out = gain * sub(h)
            h = _layer_norm(h + out)
        else:
            out = gain * sub(_layer_norm(h))
            if kind == "cancel" and layer == 0:
                out = -h
            h = out if kind == "plain" else h + out
        total = total + out
        largest = max(largest, float(np.abs(h).max()), float(np.abs(total).max()))
    return h, total, largest, raw


CONNECTIONS = {
    "residual": residual_stream.RESIDUAL,
    "plain": residual_stream.PLAIN,
    "post": residual_stream.POST_LN,
    "cancel": residual_stream.CANCELLING,
}


@pytest.mark.parametrize("kind", list(CONNECTIONS))
@pytest.mark.parametrize("layers", [1, 2, 3])
def test_run_stack_matches_the_documented_stack(kind: str, layers: int) -> None:
    """Fault caught: the weight scaling (1/sqrt d, 1/sqrt 4d), the widths (d, 4d), the
    alternation, the softmax's temperature, the ReLU, the gain, or a connection's join
    changed."""
    x = np.random.default_rng(3).standard_normal((5, 6))
    run = residual_stream.run_stack(x, layers, connection=CONNECTIONS[kind], gain=0.7, seed=4)
    top, total, largest, raw = _stack(x, layers, kind, 0.7, 4)
    np.testing.assert_allclose(run.top, top, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(run.sublayer_sum, total, rtol=1e-10, atol=1e-12)
    assert run.raw_sublayer_sum is not None
    np.testing.assert_allclose(run.raw_sublayer_sum, raw, rtol=1e-10, atol=1e-12)
    assert run.largest == pytest.approx(largest, rel=1e-10, abs=0)


def test_run_stack_defaults_are_residual_gain_half_seed_zero() -> None:
    """Fault caught: the documented defaults (pre-LN residual, gain 0.5, seed 0) changed."""
    x = np.random.default_rng(8).standard_normal((4, 4))
    run = residual_stream.run_stack(x, 2)
    top, total, _, _ = _stack(x, 2, "residual", 0.5, 0)
    np.testing.assert_allclose(run.top, top, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(run.sublayer_sum, total, rtol=1e-10, atol=1e-12)


def test_position_signal_is_the_mean_cosine_of_the_change() -> None:
    """Fault caught: the content's seed (seed + 1), the table, the cosine's norms or the
    mean over positions changed in position_signal."""
    d, n, layers, seed = 6, 4, 2, 3
    content = np.random.default_rng(seed + 1).standard_normal((n, d))
    p = np.arange(n, dtype=np.float64)[:, None]
    omega = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(p * omega), np.cos(p * omega)
    change = _stack(content + table, layers, "residual", 0.3, seed)[0]
    change = change - _stack(content, layers, "residual", 0.3, seed)[0]
    cosines = (change * table).sum(axis=1) / (
        np.linalg.norm(change, axis=1) * np.linalg.norm(table, axis=1)
    )
    found = residual_stream.position_signal(d, n, layers, gain=0.3, seed=seed)
    assert found == pytest.approx(float(cosines.mean()), rel=1e-9, abs=0)


def test_position_signal_is_nan_when_nothing_changed_and_skips_unchanged_rows() -> None:
    """Fault caught: the guard on zero changes (NaN when none, positions left out of the
    mean when some) inverted or dropped."""
    assert math.isnan(
        residual_stream.position_signal(4, 3, 1, connection=residual_stream.CANCELLING, gain=0.0)
    )
    assert residual_stream.position_signal(4, 3, 1, gain=0.0) == pytest.approx(1.0, abs=1e-12)
    # d = 2: |PE(p)| = 1 and the change is PE(p) itself, a product of norms of exactly 1.
    assert residual_stream.position_signal(2, 3, 1, gain=0.0) == pytest.approx(1.0, abs=1e-12)


def test_run_stack_refuses_inputs_that_are_not_a_matrix() -> None:
    """Fault caught: the shape guard of run_stack inverted or its count check dropped."""
    with pytest.raises(ValueError, match=r"inputs must have shape \(n, d\)"):
        residual_stream.run_stack(np.ones(4), 1)
    with pytest.raises(ValueError, match=r"inputs must have shape \(n, d\)"):
        residual_stream.run_stack(np.ones((1, 2, 4)), 1)
    with pytest.raises(ValueError, match="n_layers must be an integer >= 1"):
        residual_stream.run_stack(np.ones((2, 4)), 0)
    assert residual_stream.run_stack(np.ones((1, 4)) + np.eye(1, 4), 1).top.shape == (1, 4)


# --- pe.accuracy: row separation across blocks, sampling, the census's guard.


def _closest(rows: npt.NDArray[np.float64]) -> tuple[float, tuple[int, int]]:
    """Smallest distance between two different rows, by brute force over all pairs."""
    diffs = rows[:, None, :] - rows[None, :, :]
    distances = np.sqrt((diffs**2).sum(axis=2))
    distances[np.tril_indices(rows.shape[0])] = np.inf
    at = np.unravel_index(int(np.argmin(distances)), distances.shape)
    return float(distances[at]), (int(at[0]), int(at[1]))


@pytest.mark.parametrize(
    ("near", "far"), [(3, 1050), (1030, 1090), (1025, 1030), (2, 9), (1023, 1024)]
)
def test_row_separation_finds_the_closest_pair_in_any_block(near: int, far: int) -> None:
    """Fault caught: the diagonal-block mask (only pairs below the diagonal hidden, in
    blocks on the diagonal only) or the block offsets of a pair changed, so a pair across
    or inside the 1024-row blocks is missed or a row is paired with itself."""
    rng = np.random.default_rng(near * far)
    rows = rng.uniform(-1.0, 1.0, (1100, 3)) * 50.0
    rows[far] = rows[near] + np.array([1e-3, 0.0, 0.0])
    found = accuracy.row_separation(rows, "test")
    expected, pair = _closest(rows)
    assert pair == (near, far)
    assert found.pair == pair
    assert found.smallest == pytest.approx(expected, rel=1e-6, abs=0)
    assert (found.duplicates, found.n_positions, found.d_model, found.label) == (0, 1100, 3, "test")


def test_row_separation_counts_duplicates_and_names_the_first_pair() -> None:
    """Fault caught: duplicate rows not counted, their distance not set to exactly 0, or
    the pair not the first two rows equal to each other."""
    rows = np.arange(30.0).reshape(10, 3)
    rows[7] = rows[2]
    rows[9] = rows[2]
    rows[8] = rows[5]
    found = accuracy.row_separation(rows, "dup")
    assert found.duplicates == 3
    assert found.smallest == 0.0
    assert found.pair == (2, 7)
    one = accuracy.row_separation(np.array([[0.0, 1.0], [3.0, 5.0]]), "two")
    assert one.smallest == pytest.approx(5.0, rel=1e-15, abs=0)
    assert (one.pair, one.duplicates) == ((0, 1), 0)


@pytest.mark.parametrize(
    ("n", "count", "largest"), [(50, 10, 8), (5, 10, 8), (50, 3, 8), (50, 1, 8), (9, 20, 0)]
)
def test_sample_entries_always_holds_the_last_positions_and_the_end_columns(
    n: int, count: int, largest: int
) -> None:
    """Fault caught: the tail of largest positions (min of largest, n, count) or the first
    and last columns (at most count of them) not forced into the sample."""
    d = 6
    positions, columns = accuracy.sample_entries(n, d, count, seed=1, largest=largest)
    tail = min(largest, n, count)
    assert positions.shape == columns.shape == (count,)
    assert positions[:tail].tolist() == [n - 1 - i for i in range(tail)]
    assert columns[: min(2, count)].tolist() == [0, d - 1][: min(2, count)]
    assert positions.min() >= 0
    assert positions.max() <= n - 1
    assert columns.min() >= 0
    assert columns.max() <= d - 1
    rng = np.random.default_rng(1)
    drawn = rng.integers(0, n, count)
    assert positions[tail:].tolist() == drawn[tail:].tolist()


def test_sample_entries_defaults_are_seed_0_and_8_largest() -> None:
    """Fault caught: the documented defaults of sample_entries changed."""
    positions, columns = accuracy.sample_entries(100, 4, 20)
    assert positions[:8].tolist() == list(range(99, 91, -1))
    rng = np.random.default_rng(0)
    drawn, cols = rng.integers(0, 100, 20), rng.integers(0, 4, 20)
    assert positions[8:].tolist() == drawn[8:].tolist()
    assert columns[2:].tolist() == cols[2:].tolist()


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.complex128])
def test_rounding_census_refuses_other_dtypes(dtype: type[np.generic]) -> None:
    """Fault caught: the dtype guard of rounding_census inverted or widened."""
    with pytest.raises(ValueError, match="dtype must be float32 or float64"):
        accuracy.rounding_census(numeric.sinusoidal, dtype, 4)


def test_ulps_error_at_zero_uses_the_smallest_subnormal() -> None:
    """Fault caught: the spacing at an exact zero (2^-1074) or elsewhere (np.spacing)
    changed in ulps_error."""
    assert accuracy.ulps_error([2.0**-1074], [mpmath.mpf(0)]) == 1.0
    assert accuracy.ulps_error([0.0], [mpmath.mpf(0)]) == 0.0
    assert accuracy.ulps_error([2.0 + 2.0**-51], [mpmath.mpf(2)]) == 1.0
    with mpmath.workdps(30):
        three = mpmath.mpf(3) + mpmath.mpf(2) ** -52
    assert accuracy.ulps_error([1.0, 3.0], [mpmath.mpf(1), three]) == 0.5


def test_row_separation_keeps_the_first_of_two_equally_close_pairs() -> None:
    """Fault caught: the strict comparison of a block's best with the best so far made
    non-strict, so a later pair at exactly the same distance replaces the first."""
    rows = np.arange(1100.0)[:, None] * np.array([[10.0, 20.0]])
    rows[1] = rows[0] + [3.0, 4.0]
    rows[1031] = rows[1030] + [4.0, 3.0]
    found = accuracy.row_separation(rows, "tie")
    assert found.smallest == 5.0
    assert found.pair == (0, 1)


# --- pe.error_models: each bound against its docstring's formula, evaluated by mpmath.


def _u() -> mpmath.mpf:
    """The unit roundoff of float64, 2^-53, exactly."""
    return mpmath.mpf(2) ** -53


def _gamma(n: int) -> mpmath.mpf:
    """Higham's gamma_n = n u / (1 - n u) at 40 digits."""
    return n * _u() / (1 - n * _u())


ENTRY_DELTA = 2 * math.sqrt(2.0) * _extended_precision.ANCHOR_ERROR_BOUND + 3 * 2.0**-54


@pytest.mark.parametrize("d", [2, 8, 512])
@pytest.mark.parametrize("distance", [1e-3, 0.5, 3.714, 40.0])
def test_gram_distance_bound_is_its_documented_formula(d: int, distance: float) -> None:
    """Fault caught: a term of (4 delta sqrt(d) D + 4 delta^2 d + 2 d gamma_d + u (d + D^2))
    / D + u D changed (a factor, a power, the default delta)."""
    with mpmath.workdps(40):
        u, dist = _u(), mpmath.mpf(distance)
        for delta, found in (
            (mpmath.mpf(ENTRY_DELTA), error_models.gram_distance_bound(d, distance)),
            (mpmath.mpf(1e-9), error_models.gram_distance_bound(d, distance, 1e-9)),
        ):
            squared = (
                4 * delta * mpmath.sqrt(d) * dist
                + 4 * delta**2 * d
                + 2 * d * _gamma(d)
                + u * (d + dist**2)
            )
            expected = squared / dist + u * dist
            assert found == pytest.approx(float(expected), rel=1e-12, abs=0)


@pytest.mark.parametrize("d", [2, 6, 512])
@pytest.mark.parametrize("reach", [0.0, 1.0, 1e6])
def test_dot_product_bound_is_its_documented_formula(d: int, reach: float) -> None:
    """Fault caught: a term of sqrt2 d delta + gamma_d d/2 + d/2 (eps + (r_w + u) reach)
    + gamma_{d/2} d/2 changed."""
    with mpmath.workdps(40):
        u, half = _u(), mpmath.mpf(d) / 2
        expected = (
            mpmath.sqrt(2) * d * mpmath.mpf(ENTRY_DELTA)
            + _gamma(d) * half
            + half * (2 * u + (u + u) * reach)
            + _gamma(d // 2) * half
        )
    assert error_models.dot_product_bound(d, reach) == pytest.approx(
        float(expected), rel=1e-12, abs=0
    )


@pytest.mark.parametrize("reach", [0.0, 3.0, -3.0, 1e9])
def test_shift_product_and_inverse_bounds_are_12_eps_plus_4_eps_reach(reach: float) -> None:
    """Fault caught: the 12 eps, the 4 eps |x| (its absolute value) or the inverse's 16 eps
    changed."""
    eps = mpmath.mpf(2) ** -52
    with mpmath.workdps(40):
        product = 12 * eps + 4 * eps * abs(mpmath.mpf(reach))
        inverse = product + 16 * eps
    assert error_models.shift_product_bound(reach) == pytest.approx(
        float(product), rel=1e-14, abs=0
    )
    assert error_models.SHIFT_PRODUCT(reach) == pytest.approx(float(product), rel=1e-14, abs=0)
    assert error_models.SHIFT_INVERSE(reach) == pytest.approx(float(inverse), rel=1e-14, abs=0)


def test_entry_bounds_are_their_stated_sums() -> None:
    """Fault caught: a constant of the entry bounds (2 sqrt2 delta_anchor + 3 2^-54, the
    half ulps 2^-25 and 2^-12, the 1.6e-15) changed."""
    with mpmath.workdps(40):
        delta = 2 * mpmath.sqrt(2) * mpmath.mpf(_extended_precision.ANCHOR_ERROR_BOUND)
        delta += 3 * mpmath.mpf(2) ** -54
    assert error_models.ENTRY() == pytest.approx(float(delta), rel=1e-15, abs=0)
    assert error_models.ENTRY_FLOAT32() == pytest.approx(2.0**-25 + 1.6e-15, rel=1e-15, abs=0)
    assert error_models.ENTRY_FLOAT16() == pytest.approx(2.0**-12 + 1.6e-15, rel=1e-15, abs=0)


def test_shift_orthogonality_default_width_is_64() -> None:
    """Fault caught: the documented default width 64 of shift_orthogonality_bounds changed
    (or a term of its determinant bound)."""
    eps = mpmath.mpf(2) ** -53
    with mpmath.workdps(40):
        gram = 4 * mpmath.sqrt(2) * eps + _gamma(2)
        det = mpmath.mpf(64) / 2 * (4 * mpmath.sqrt(2) + 4) * eps + _gamma(64)
    found = error_models.shift_orthogonality_bounds()
    assert found[0] == pytest.approx(float(gram), rel=1e-14, abs=0)
    assert found[1] == pytest.approx(float(det), rel=1e-14, abs=0)


def test_error_model_tolerance_takes_the_largest_bound_and_per_entry_names_where() -> None:
    """Fault caught: ErrorModel.tolerance taking another entry than the largest, or
    per_entry dropping its value 1 or the words saying over what the ratio was taken."""
    model = error_models.ErrorModel(lambda scale: np.array([1.0, 3.0, 2.0]) * scale, "m", "t")
    tolerance = model.tolerance(0.5)
    assert (tolerance.value, tolerance.model) == (1.5, "m")
    assert model(2.0).tolist() == [2.0, 6.0, 4.0]
    entry = model.per_entry("per pair")
    assert (entry.value, entry.model) == (1.0, r"m \text{ per pair}")
    assert model.per_entry().model == r"m \text{ per entry}"
    assert model.text == "t"
    assert error_models.ErrorModel(lambda: 1.0, "x").text == ""


# --- pe.frequency_ladder: the guards and the last pair, each side.


def test_pair_column_census_counts_the_last_pair_and_the_first_outside() -> None:
    """Fault caught: the column bound 2 i + 1 >= d moved by one (the last pair d/2 - 1
    counted missing, or the pair d/2 counted as present)."""
    assert frequency_ladder.pair_column_census(range(4), 8) == frequency_ladder.PairColumns(
        8, 4, 0, True
    )
    assert frequency_ladder.pair_column_census(range(5), 8) == frequency_ladder.PairColumns(
        8, 4, 1, True
    )
    assert frequency_ladder.pair_column_census(range(3), 8) == frequency_ladder.PairColumns(
        8, 3, 0, False
    )
    assert frequency_ladder.pair_column_census(range(3, 4), 8).matched == 1


def test_pair_columns_default_count_and_its_guard() -> None:
    """Fault caught: the default count d/2 or the n_pairs guard (>= 1) changed."""
    assert frequency_ladder.pair_columns(6) == [0, 1, 2, 3, 4, 5]
    assert frequency_ladder.pair_columns(6, 1) == [0, 1]
    with pytest.raises(ValueError, match="n_pairs must be an integer >= 1"):
        frequency_ladder.pair_columns(6, 0)


@pytest.mark.parametrize(("base", "width", "even"), [(2, 2, True), (4, 4, True), (8192, 26, True)])
def test_ratio_equals_two_width_for_powers_of_two(base: int, width: int, even: bool) -> None:
    """Fault caught: the power-of-two test or the width 2 log2(base) changed."""
    found, power = frequency_ladder.ratio_equals_two_width(base)
    assert (found, power) == (width, even)


@pytest.mark.parametrize("base", [3, 6, 10000])
def test_ratio_equals_two_width_elsewhere_is_not_an_even_integer(base: int) -> None:
    """Fault caught: a base that is not a power of two reported as one, or its width off."""
    found, power = frequency_ladder.ratio_equals_two_width(base)
    assert power is False
    assert float(found) == pytest.approx(2 * math.log2(base), rel=1e-14, abs=0)
    assert frequency_ladder.ratio_equals_two_width()[1] is False
    assert float(frequency_ladder.ratio_equals_two_width()[0]) == pytest.approx(
        2 * math.log2(10000), rel=1e-14, abs=0
    )


def test_ratio_equals_two_width_refuses_a_base_below_two() -> None:
    """Fault caught: the base guard (an integer >= 2) moved."""
    with pytest.raises(ValueError, match="base must be an integer >= 2"):
        frequency_ladder.ratio_equals_two_width(1)


@pytest.mark.parametrize("d", [0, -4, sympy.Integer(0), sympy.Symbol("d", negative=True)])
def test_paper_wavelength_refuses_a_width_at_most_zero(d: object) -> None:
    """Fault caught: the width guard of paper_wavelength inverted or dropped."""
    with pytest.raises(ValueError, match="d must be > 0"):
        frequency_ladder.paper_wavelength(1, d)


def test_paper_wavelength_holds_for_positive_and_symbolic_widths() -> None:
    """Fault caught: a positive or symbolic width refused, or the formula changed."""
    d, i = sympy.Symbol("d"), sympy.Symbol("i")
    assert (
        sympy.simplify(
            frequency_ladder.paper_wavelength(i, d) - 2 * sympy.pi * 10000 ** (2 * i / d)
        )
        == 0
    )
    assert frequency_ladder.paper_wavelength(sympy.Integer(1), sympy.Integer(2)) == 20000 * sympy.pi
    assert frequency_ladder.paper_wavelength(0, sympy.Rational(1, 10**9)) == 2 * sympy.pi


@pytest.mark.parametrize("d", [2, 4, 10, 512])
def test_slowest_and_one_indexed_frequencies_at_their_ends(d: int) -> None:
    """Fault caught: the slowest frequency's exponent -(d-2)/d, or the one-indexed range
    1 .. d/2, moved by one."""
    with mpmath.workdps(30):
        slowest = float(mpmath.mpf(10000) ** (-mpmath.mpf(d - 2) / d))
        one = [float(mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / d)) for i in range(1, d // 2 + 1)]
    assert frequency_ladder.slowest_frequency(d) == pytest.approx(slowest, rel=1e-14, abs=0)
    np.testing.assert_allclose(frequency_ladder.one_indexed_frequencies(d), one, rtol=1e-14)


# --- pe.position_designs: the learned table's edges, the training arc, the defaults.


def test_learned_lookup_accepts_the_last_row_and_refuses_the_next() -> None:
    """Fault caught: the lookup guard (0 <= p < n_max) moved by one on either side."""
    learned = position_designs.LearnedPositions(5, 3)
    expected = 0.02 * np.random.default_rng(0).standard_normal((5, 3))
    assert np.array_equal(learned.lookup([0, 4]), expected[[0, 4]])
    with pytest.raises(ValueError, match=r"positions must be in \[0, 4\].*position 5"):
        learned.lookup([0, 5])
    with pytest.raises(ValueError, match=r"positions must be in \[0, 4\]"):
        learned.lookup([-1, 2])
    assert learned.parameters == 15
    seeded = position_designs.LearnedPositions(2, 2, seed=9)
    assert np.array_equal(seeded.table, 0.02 * np.random.default_rng(9).standard_normal((2, 2)))


@pytest.mark.parametrize(("n_train", "expected"), [(1, True), (7, True), (8, False)])
def test_turnless_pairs_at_the_edge_of_one_turn(n_train: int, expected: bool) -> None:
    """Fault caught: (n - 1) omega < 2 pi made <= or taken over n positions: pair 0
    (omega = 1) turns 6 radians over 7 positions (no turn), 7 over 8 (a turn)."""
    assert position_designs.turnless_pairs(2, n_train).tolist() == [expected]


def _unseen(d: int, n: int, position: int) -> list[bool]:
    """Pairs whose point at ``position`` lies farther than one step from every training
    point, by angles on the circle in mpmath (40 digits)."""
    found = []
    with mpmath.workdps(40):
        for i in range(d // 2):
            omega = mpmath.power(10000, mpmath.mpf(-2 * i) / d)
            gaps = []
            for p in range(n):
                a = mpmath.fmod((position - p) * omega, 2 * mpmath.pi)
                gaps.append(min(abs(a), 2 * mpmath.pi - abs(a)))
            found.append(bool(min(gaps) > omega * (1 + mpmath.mpf(10) ** -8)))
    return found


@pytest.mark.parametrize("position", [0, 2, 3, 4, 10, 31, 32, 33, 40, 62, 70, 300])
def test_unseen_pairs_and_arc_counts_match_the_circle(position: int) -> None:
    """Fault caught: the nearest training point, the step 2 sin(omega/2), the arc of the
    training points or a count moved in unseen_pairs or arc_counts."""
    d, n = 16, 32
    expected = _unseen(d, n, position)
    assert position_designs.unseen_pairs(d, n, position).tolist() == expected
    slow = sum(1 for i in range(d // 2) if (n - 1) * 10000.0 ** (-2 * i / d) < 2 * math.pi)
    # p = n is a gap of exactly omega: seen (40-digit rounding once called it unseen)
    assert position_designs.arc_counts(d, n, position) == (slow, sum(expected))
    small = _unseen(2, 3, position)
    assert position_designs.unseen_pairs(2, 3, position).tolist() == small


def test_raw_index_ratio_uses_1000_embeddings_of_width_512_with_seed_4() -> None:
    """Fault caught: the documented sample (1000 embeddings, seed SEED = 4) or the default
    width 512 of raw_index_ratio changed."""
    entries = np.random.default_rng(4).standard_normal((1000, 512))
    rms = math.sqrt(float(np.mean(entries**2)))
    found = position_designs.raw_index_ratio([-3, 0, 10])
    np.testing.assert_allclose(found, np.array([3.0, 0.0, 10.0]) / rms, rtol=1e-12)


def test_position_share_against_1000_embeddings_with_seed_4() -> None:
    """Fault caught: the share p^2 / (p^2 + |e|^2) averaged over another sample, or over
    the wrong axis."""
    embedding_sq = (np.random.default_rng(4).standard_normal((1000, 8)) ** 2).sum(axis=1)
    ps = np.array([0, 3, 30])
    expected = [float(np.mean(p**2 / (p**2 + embedding_sq))) for p in ps]
    found = position_designs.position_share(position_designs.raw_index, ps, 8)
    np.testing.assert_allclose(found, expected, rtol=1e-12)


def test_offset_distances_default_sentence_has_4_tokens() -> None:
    """Fault caught: the default sentence length n = 4 of offset_distances changed."""
    found = position_designs.offset_distances(position_designs.normalised, [1, 3], [0, 2], 2)
    np.testing.assert_allclose(found, [[0.25, 0.75], [0.25, 0.75]], rtol=1e-15)


# --- pe.from_scratch and pe._tolerance: the plain formula's model, at and off powers of 2.


@pytest.mark.parametrize("d", [2, 8, 16, 6, 12, 768])
def test_table_tolerance_is_its_documented_formula(d: int) -> None:
    """Fault caught: a term of eps + delta + (r_w + u)|p w| changed, or r_w (eps, plus
    ln(base) u unless d is a power of two) read for the wrong widths."""
    angles = np.array([[-3.0, 0.0], [1.0, 1e6]])
    eps, u = mpmath.mpf(2) ** -52, mpmath.mpf(2) ** -53
    power_of_two = d & (d - 1) == 0
    with mpmath.workdps(40):
        r_omega = eps + (0 if power_of_two else mpmath.log(10000) * u)
        expected = [
            [float(eps + mpmath.mpf(ENTRY_DELTA) + (r_omega + u) * abs(mpmath.mpf(a))) for a in row]
            for row in angles.tolist()
        ]
    found = from_scratch.table_tolerance(d, angles)
    assert found.shape == (2, 2)
    np.testing.assert_allclose(found, expected, rtol=1e-14, atol=0)
    assert _tolerance.power_rounding(d) == pytest.approx(float(r_omega), rel=1e-14, abs=0)


def test_power_rounding_default_base_is_10000() -> None:
    """Fault caught: power_rounding's default base or its logarithm changed."""
    u = mpmath.mpf(2) ** -53
    with mpmath.workdps(40):
        expected = float(2 * u + mpmath.log(10000) * u)
        other = float(2 * u + mpmath.log(50) * u)
    assert _tolerance.power_rounding(6) == pytest.approx(expected, rel=1e-14, abs=0)
    assert _tolerance.power_rounding(6, 50.0) == pytest.approx(other, rel=1e-14, abs=0)


@pytest.mark.parametrize("base", [10000.0, 30.0])
def test_from_scratch_table_and_rope_are_the_formulas(base: float) -> None:
    """Fault caught: the plain table's frequencies, its sine/cosine columns, or the
    rotation's signs changed in pe.from_scratch."""
    n, d = 6, 4
    with mpmath.workdps(30):
        angle = [
            [p * mpmath.mpf(base) ** (-mpmath.mpf(2 * i) / d) for i in range(d // 2)]
            for p in range(n)
        ]
        table = np.array(
            [[float(f(a)) for a in row for f in (mpmath.sin, mpmath.cos)] for row in angle]
        )
    found = (
        from_scratch.sinusoidal_table(n, d, base)
        if base != 10000.0
        else from_scratch.sinusoidal_table(n, d)
    )
    np.testing.assert_allclose(found, table, rtol=0, atol=1e-13)
    x = np.random.default_rng(2).standard_normal((n, d))
    a, b = x[:, 0::2], x[:, 1::2]
    cos, sin = table[:, 1::2], table[:, 0::2]
    expected = np.empty((n, d))
    expected[:, 0::2], expected[:, 1::2] = a * cos - b * sin, b * cos + a * sin
    rotated = from_scratch.rope(x, base) if base != 10000.0 else from_scratch.rope(x)
    np.testing.assert_allclose(rotated, expected, rtol=0, atol=1e-13)


# --- pe.conventions: guards at their edges, the padding row, odd widths.


@pytest.mark.parametrize(("d", "k"), [(2, 1), (4, 3)])
def test_linear_shift_error_needs_exactly_4d_plus_k_rows(d: int, k: int) -> None:
    """Fault caught: the held-out fit's row guard (half of the n - k pairs >= 2 d) moved by
    one, or its message's count wrong."""
    enough = 4 * d + k
    p = np.arange(enough, dtype=np.float64)[:, None]
    omega = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    table = np.empty((enough, d))
    table[:, 0::2], table[:, 1::2] = np.sin(p * omega), np.cos(p * omega)
    assert conventions.linear_shift_error(table, k) < 1e-9
    with pytest.raises(ValueError, match=f"at least 4 d \\+ k = {enough} rows, got {enough - 1}"):
        conventions.linear_shift_error(table[:-1], k)


def test_linear_shift_error_with_a_matrix_is_the_largest_gap() -> None:
    """Fault caught: the given matrix applied transposed, the gap's maximum replaced, or its
    shape guard dropped."""
    table = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 5.0]])
    m = np.array([[0.0, 1.0], [1.0, 0.0]])
    # rows 0 -> 1: m @ (1, 0) = (0, 1), exact; rows 1 -> 2: m @ (0, 1) = (1, 0) vs (2, 5).
    assert conventions.linear_shift_error(table, 1, matrix=m) == 5.0
    with pytest.raises(ValueError, match=r"matrix must have shape \(2, 2\), got \(3, 3\)"):
        conventions.linear_shift_error(table, 1, matrix=np.eye(3))
    with pytest.raises(ValueError, match="table must be a 2-D array"):
        conventions.linear_shift_error(np.ones(5), 1)


@pytest.mark.parametrize(("n", "zeroed"), [(1, False), (2, True), (3, True)])
def test_fairseq_padding_row_is_zeroed_only_when_the_table_reaches_it(n: int, zeroed: bool) -> None:
    """Fault caught: the padding row's bound (row 1 within n rows) moved by one."""
    table = conventions.get("fairseq").table(n, 4)
    assert table.shape == (n, 4)
    assert bool(np.all(table[0] == [0.0, 0.0, 1.0, 1.0]))
    if zeroed:
        assert table[1].tolist() == [0.0, 0.0, 0.0, 0.0]
    assert conventions.get("fairseq").first_token_row == 2
    assert conventions.Convention("x", "t", padding_row=0).first_token_row == 1
    assert conventions.get("paper").first_token_row == 0


def test_with_base_and_with_offset_guard_their_values() -> None:
    """Fault caught: the base (> 1) or offset (>= 0) guard of a convention moved."""
    paper = conventions.get("paper")
    assert paper.with_offset(0).offset == 0
    assert paper.with_base(1.5).base == 1.5
    with pytest.raises(ValueError, match="offset must be an integer >= 0"):
        paper.with_offset(-1)
    with pytest.raises(ValueError, match="base must be > 1"):
        paper.with_base(1.0)


@pytest.mark.parametrize(
    ("layout", "order", "word"),
    [("diagonal", "sin-first", "layout"), ("halves", "sine-first", "order")],
)
def test_layout_arguments_are_named_in_their_errors(layout: str, order: str, word: str) -> None:
    """Fault caught: a layout or order check dropped, or its message naming the other."""
    with pytest.raises(ValueError, match=f"^{word} must be"):
        conventions.column_roles(4, layout, order)  # type: ignore[arg-type]


def test_convert_refuses_a_table_that_is_not_a_matrix() -> None:
    """Fault caught: the 2-D guard of convert inverted or dropped."""
    with pytest.raises(ValueError, match="table must be a 2-D array"):
        conventions.convert(np.ones(4), conventions.LAYOUTS[0], conventions.LAYOUTS[2])
    halves = conventions.convert(
        np.arange(8.0)[None, :], conventions.LAYOUTS[0], conventions.LAYOUTS[2]
    )
    assert halves.tolist() == [[0.0, 2.0, 4.0, 6.0, 1.0, 3.0, 5.0, 7.0]]


def _odd(kind: str, n: int = 8) -> npt.NDArray[np.float64]:
    """A width-3 outcome of the given kind, positions 0 .. n - 1 in row order."""
    p = np.arange(float(n))[:, None]
    columns = {
        "zero": [np.sin(p), np.cos(p), 0 * p],
        "sine": [np.sin(p), np.cos(p), np.sin(p / 100)],
    }[kind]
    return np.hstack(columns)


def test_odd_width_outcome_reads_batched_and_single_tables() -> None:
    """Fault caught: a 3-D outcome read along the wrong axis ((n, 1, d) and (b, n, d)
    shapes), or an integer table refused."""
    zero = _odd("zero")
    assert conventions.odd_width_outcome(zero[:, None, :], 3) is conventions.OddWidth.ZERO_COLUMN
    assert conventions.odd_width_outcome(zero[None, :, :], 3) is conventions.OddWidth.ZERO_COLUMN
    batched = np.stack([_odd("sine"), np.ones((8, 3))])
    assert conventions.odd_width_outcome(batched, 3) is conventions.OddWidth.EXTRA_SINE
    assert (
        conventions.odd_width_outcome(np.ones((4, 3), dtype=np.int64), 3)
        is conventions.OddWidth.OTHER
    )
    assert conventions.odd_width_outcome(np.ones((4, 2)), 3) is conventions.OddWidth.OTHER
    assert conventions.odd_width_outcome(np.ones(3), 3) is conventions.OddWidth.OTHER


def test_odd_width_outcome_zero_column_must_be_the_last_and_the_only_one() -> None:
    """Fault caught: the zero column's position (the last) or count (one) not checked, or
    the sines and cosines before it not counted."""
    p = np.arange(8.0)[:, None]
    first = np.hstack([0 * p, np.sin(p), np.cos(p)])
    assert conventions.odd_width_outcome(first, 3) is conventions.OddWidth.OTHER
    two = np.hstack([np.sin(p), 0 * p, 0 * p])
    assert conventions.odd_width_outcome(two, 3) is conventions.OddWidth.OTHER
    no_cosine = np.hstack([np.sin(p), np.sin(p / 7), 0 * p])
    assert conventions.odd_width_outcome(no_cosine, 3) is conventions.OddWidth.OTHER
    five = np.hstack([np.sin(p), np.cos(p), np.sin(p / 9), np.cos(p / 9), 0 * p])
    assert conventions.odd_width_outcome(five, 5) is conventions.OddWidth.ZERO_COLUMN


def test_odd_width_outcome_extra_sine_needs_one_more_distinct_sine() -> None:
    """Fault caught: the extra sine's rule (no zero column, sines = cosines + 1, all
    distinct) loosened or tightened."""
    p = np.arange(8.0)[:, None]
    assert conventions.odd_width_outcome(np.hstack([np.sin(p), np.cos(p), np.sin(p / 3)]), 3) is (
        conventions.OddWidth.EXTRA_SINE
    )
    two_cos = np.hstack([np.sin(p), np.cos(p), np.cos(p / 3)])
    assert conventions.odd_width_outcome(two_cos, 3) is conventions.OddWidth.OTHER
    five = np.hstack([np.sin(p), np.cos(p), np.sin(p / 9), np.cos(p / 9), np.sin(p / 81)])
    assert conventions.odd_width_outcome(five, 5) is conventions.OddWidth.EXTRA_SINE
    three_sines = np.hstack([np.sin(p), np.sin(p / 2), np.sin(p / 3)])
    assert conventions.odd_width_outcome(three_sines, 3) is conventions.OddWidth.OTHER


def test_odd_width_outcome_guards() -> None:
    """Fault caught: the odd-width, array and dtype guards of odd_width_outcome dropped."""
    with pytest.raises(ValueError, match="d must be the odd width asked for, got 4"):
        conventions.odd_width_outcome(np.ones((2, 4)), 4)
    with pytest.raises(TypeError, match="outcome must be a NumPy array"):
        conventions.odd_width_outcome([[1.0, 2.0, 3.0]], 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="outcome must hold real numbers"):
        conventions.odd_width_outcome(np.ones((2, 3), dtype=bool), 3)
    with pytest.raises(ValueError, match="d must be an integer >= 1"):
        conventions.odd_width_outcome(np.ones((2, 3)), 0)
    assert conventions.odd_width_outcome(np.ones((2, 1)), 1) is conventions.OddWidth.OTHER


# --- pe._validate: each guard just inside and just outside its limit.


def test_capped_elements_allows_the_cap_and_refuses_one_byte_more() -> None:
    """Fault caught: the allocation cap compared with >= instead of >, or its message's
    size and cap wrong."""
    _validate.capped_elements("x", _validate.MAX_BYTES // 8, 8)
    with pytest.raises(ValueError, match=r"x asks for 1\.0 GiB, above pe's cap of 1 GiB"):
        _validate.capped_elements("x", _validate.MAX_BYTES + 1, 1)
    with pytest.raises(ValueError, match=r"asks for 999999\.0 GiB"):
        _validate.capped_elements("x", (10**6 - 1) * 2**30, 1)
    with pytest.raises(ValueError, match=r"asks for about 1e6 GiB"):
        _validate.capped_elements("x", 10**6 * 2**30, 1)
    with pytest.raises(ValueError, match=r"asks for about 1e300 GiB"):
        _validate.capped_elements("x", 10**300 * 2**30, 1)


@pytest.mark.parametrize("limit", [10, 16])
def test_position_limits_hold_at_the_limit_and_fail_one_past(limit: int) -> None:
    """Fault caught: the magnitude guard (|p| <= limit) moved by one for unsigned, signed,
    float or counted positions, or its message naming another value or limit."""
    text = "2\\*\\*4" if limit == 16 else "10"
    for kind in (np.uint8, np.int64, np.float64):
        assert (
            _validate.integer_positions("p", np.array([0, limit], dtype=kind), limit=limit)[-1]
            == limit
        )
        with pytest.raises(ValueError, match=f"p must lie within \\+-{text}, got {limit + 1}"):
            _validate.integer_positions("p", np.array([0, limit + 1], dtype=kind), limit=limit)
    assert _validate.integer_positions("p", [-limit, 3], limit=limit)[0] == -limit
    with pytest.raises(ValueError, match=f"got {limit + 1}"):
        _validate.integer_positions("p", [-limit - 1, 3], limit=limit)
    with pytest.raises(ValueError, match=f"got {limit + 1}"):
        _validate.integer_positions("p", [-limit - 1.0, 3.0], limit=limit)
    assert _validate.position_count("n", limit + 1, limit=limit) == limit + 1
    with pytest.raises(ValueError, match=f"n must lie within \\+-{text}, got {limit + 1}"):
        _validate.position_count("n", limit + 2, limit=limit)
    assert _validate.real_positions("p", [-float(limit), 0.5], limit=limit)[0] == -limit
    with pytest.raises(ValueError, match="p must lie within"):
        _validate.real_positions("p", [math.nextafter(float(limit), math.inf)], limit=limit)


def test_position_arrays_name_the_first_bad_value_and_its_index() -> None:
    """Fault caught: a NaN, infinity or fraction reported at another index, or let through."""
    with pytest.raises(ValueError, match="p must be finite, got nan at index 2"):
        _validate.integer_positions("p", [0.0, 1.0, math.nan, math.inf])
    with pytest.raises(ValueError, match="p must be finite, got -inf at index 1"):
        _validate.real_positions("p", [0.5, -math.inf], limit=2**53)
    with pytest.raises(ValueError, match=r"p must hold whole numbers, got 0\.5 at index 3"):
        _validate.integer_positions("p", [0.0, 1.0, 2.0, 0.5, 1.5])
    assert _validate.integer_positions("p", [-2.0, 0.0]).tolist() == [-2, 0]


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (2.5, TypeError, "an integer count or a 1-D array"),
        (np.float64(4.0), TypeError, "an integer count or a 1-D array"),
        (True, TypeError, "an integer count or a 1-D array"),
        ("12", TypeError, "an integer count or a 1-D array"),
        (None, TypeError, "an integer count or a 1-D array"),
        ([], ValueError, r"non-empty 1-D array of integers, got shape \(0,\)"),
        ([[1, 2]], ValueError, r"non-empty 1-D array of integers, got shape \(1, 2\)"),
        ([1 + 2j], TypeError, "p must hold integers, got dtype complex128"),
        ([True, False], TypeError, "p must hold integers, got dtype bool"),
        (0, ValueError, "p must be an integer >= 1, got 0"),
    ],
)
def test_integer_positions_refuse_each_kind_of_bad_value(
    value: object, error: type[Exception], words: str
) -> None:
    """Fault caught: one branch of the position checks (scalar, shape, dtype, count)
    dropped or raising the other exception type."""
    with pytest.raises(error, match=words):
        _validate.integer_positions("p", value)


def test_counts_and_widths_at_their_minimum() -> None:
    """Fault caught: positive_int's minimum or even_width's 2 moved by one, or bools and
    floats taken for integers."""
    assert _validate.positive_int("n", 1) == 1
    assert _validate.positive_int("n", 0, minimum=0) == 0
    assert _validate.positive_int("n", np.int64(5)) == 5
    with pytest.raises(ValueError, match="n must be an integer >= 1, got 0"):
        _validate.positive_int("n", 0)
    with pytest.raises(ValueError, match="n must be an integer >= 0, got -1"):
        _validate.positive_int("n", -1, minimum=0)
    for bad in (True, np.bool_(True), 2.0, "2"):
        with pytest.raises(TypeError, match="n must be an integer"):
            _validate.positive_int("n", bad)
    assert _validate.even_width("d", 2) == 2
    with pytest.raises(ValueError, match="d must be an integer >= 2, got 0"):
        _validate.even_width("d", 0)
    with pytest.raises(ValueError, match="d must be even"):
        _validate.even_width("d", 3)
    assert _validate.is_count(np.int32(3))
    assert not _validate.is_count(np.bool_(False))


def test_real_scalars_and_bases_at_their_edges() -> None:
    """Fault caught: the base guard (> 1) made >= 1, or a non-finite or huge value let
    through real_scalar."""
    above_one = math.nextafter(1.0, 2.0)
    assert _validate.base_value("b", above_one) == above_one
    with pytest.raises(ValueError, match=r"b must be > 1, got 1\.0"):
        _validate.base_value("b", 1)
    with pytest.raises(ValueError, match="x must be finite, got an integer beyond"):
        _validate.real_scalar("x", 10**400)
    with pytest.raises(ValueError, match="x must be finite, got inf"):
        _validate.real_scalar("x", math.inf)
    for bad in (True, "1", 1j, None):
        with pytest.raises(TypeError, match="x must be a real number"):
            _validate.real_scalar("x", bad)
    assert _validate.real_scalar("x", np.float32(0.5)) == 0.5


def test_exact_scalars_refuse_non_finite_and_non_numbers() -> None:
    """Fault caught: a SymPy infinity, NaN, matrix or a complex number accepted, or a huge
    finite fraction refused."""
    from fractions import Fraction

    huge = Fraction(10**400, 3)
    assert _validate.exact_scalar("w", huge) == huge
    assert _validate.exact_scalar("w", sympy.Symbol("w")) == sympy.Symbol("w")
    for bad in (sympy.oo, -sympy.oo, sympy.nan, sympy.zoo, math.inf, math.nan):
        with pytest.raises(ValueError, match="w must be finite"):
            _validate.exact_scalar("w", bad)
    for wrong in (sympy.Matrix([1]), sympy.Eq(sympy.Symbol("x"), 1), 1j, True, "1", None):
        with pytest.raises(TypeError, match="w must be a"):
            _validate.exact_scalar("w", wrong)


def test_float_arrays_and_dtypes() -> None:
    """Fault caught: booleans, complex numbers, strings or float128 accepted as float
    arrays, or integers not widened to float64."""
    assert _validate.float_array("x", np.arange(3, dtype=np.int16), "(n,)").dtype == np.float64
    assert _validate.float_array("x", np.ones(2, np.float16), "(n,)").dtype == np.float16
    for bad, words in (
        ([True], "got booleans"),
        ([1j], "got dtype complex128"),
        ("ab", "x must be a real array of shape \\(n,\\)"),
        (None, "x must be a real array"),
    ):
        with pytest.raises(TypeError, match=words):
            _validate.float_array("x", bad, "(n,)")
    with pytest.raises(TypeError, match="dt must be float16, float32 or float64, got int64"):
        _validate.float_dtype("dt", np.int64)
    with pytest.raises(TypeError, match="dt must be float16, float32 or float64, got 'nope'"):
        _validate.float_dtype("dt", "nope")
    assert _validate.float_dtype("dt", "float32") == np.dtype(np.float32)


def test_sequences_functions_and_instances() -> None:
    """Fault caught: a string taken for a sequence, an empty one accepted, the kinds
    ignored, or a non-callable or wrong instance let through."""
    assert _validate.sequence("s", [1], "items") == [1]
    with pytest.raises(ValueError, match="s must hold at least one of its items, got none"):
        _validate.sequence("s", [], "items")
    with pytest.raises(TypeError, match="s must be a sequence of items, got 'ab'"):
        _validate.sequence("s", "ab", "items")
    with pytest.raises(TypeError, match="s must be a sequence of items"):
        _validate.sequence("s", (1,), "items", kinds=list)
    with pytest.raises(TypeError, match="f must be callable, got 3"):
        _validate.function("f", 3)
    with pytest.raises(TypeError, match="c must be a Convention, got 'x'"):
        _validate.instance("c", "x", conventions.Convention)
    fits = "x" * 38  # a repr of exactly 40 characters is shown whole
    with pytest.raises(TypeError, match=f"n must be an integer, got '{fits}'$"):
        _validate.positive_int("n", fits)
    long = "x" * 39  # 41: cut to 37 and an ellipsis
    with pytest.raises(TypeError, match=f"n must be an integer, got '{'x' * 36}\\.\\.\\.$"):
        _validate.positive_int("n", long)


def test_cosines_between_embeddings_and_rows_default_to_200_positions() -> None:
    """Fault caught: the cosine's normalisations (per embedding, per row) or the default
    200 rows of cosine_embedding_encoding changed."""
    vectors = np.random.default_rng(1).standard_normal((3, 6))
    p = np.arange(200.0)[:, None]
    omega = 10000.0 ** (-2.0 * np.arange(3) / 6)
    rows = np.empty((200, 6))
    rows[:, 0::2], rows[:, 1::2] = np.sin(p * omega), np.cos(p * omega)
    expected = (vectors @ rows.T) / np.outer(
        np.linalg.norm(vectors, axis=1), np.linalg.norm(rows, axis=1)
    )
    found = embeddings.cosine_embedding_encoding(vectors)
    assert found.shape == (3, 200)
    np.testing.assert_allclose(found, expected, rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="d_model must be even"):
        embeddings.cosine_embedding_encoding(np.ones((2, 5)))
    with pytest.raises(ValueError, match="n_positions must be an integer >= 1"):
        embeddings.cosine_embedding_encoding(vectors, 0)


# --- pe.recipes: the recipes and their drift bound, rebuilt from the docstrings.


def _omega(d: int, base: float = 10000.0) -> npt.NDArray[np.float64]:
    """The frequencies base^(-2i/d), i = 0 .. d/2 - 1, each correctly rounded (mpmath)."""
    with mpmath.workdps(40):
        return np.array(
            [float(mpmath.mpf(base) ** (-mpmath.mpf(2 * i) / d)) for i in range(d // 2)]
        )


@pytest.mark.parametrize(
    ("ulps", "roundings", "exp", "sin"),
    [
        (None, 1, 1.0, 0.5),
        ({"sin": 1.49}, 2, 1.0, 1.49),
        ({"exp": 2.52, "sin": 0.52}, 0, 2.52, 0.52),
    ],
)
def test_drift_bound_is_its_documented_formula(
    ulps: dict[str, float] | None, roundings: int, exp: float, sin: float
) -> None:
    """Fault caught: a term of (1 + 2 e_exp + r |ln w_i|) u w_i p + 2 e_sin u changed, the
    default ulps (1 and 1/2) or exponent roundings (1) moved, or given ulps not merged."""
    d, unit = 6, 2.0**-24
    positions = np.array([0, 3, 1000])
    omega = np.repeat(_omega(d), 2)
    factor = 1 + 2 * exp + roundings * np.abs(np.log(omega))
    expected = factor * unit * np.outer(positions, omega) + 2 * sin * unit
    if roundings == 1 and ulps is None:
        found = recipes.drift_bound(positions, d, unit)
    else:
        found = recipes.drift_bound(positions, d, unit, roundings, ulps)
    assert found.shape == (3, d)
    np.testing.assert_allclose(found, expected, rtol=1e-14)


@pytest.mark.parametrize("base", [10000.0, 77.0])
def test_float32_recipe_in_float64_is_the_written_recipe(base: float) -> None:
    """Fault caught: the recipe's scale -ln(b)/d, its even exponents or its column order
    changed."""
    d = 8
    positions = np.array([0, 5, 123])
    inverse = np.exp(np.arange(0, d, 2) * (-math.log(base) / d))
    angles = positions[:, None] * inverse
    found = recipes.float32_recipe(positions, d, base=base, dtype=np.float64)
    np.testing.assert_allclose(found[:, 0::2], np.sin(angles), rtol=0, atol=1e-14)
    np.testing.assert_allclose(found[:, 1::2], np.cos(angles), rtol=0, atol=1e-14)
    assert recipes.float32_recipe(positions, d).dtype == np.float32


def test_chained_rotation_starts_at_position_0_and_steps_by_one() -> None:
    """Fault caught: the first row (sin 0, cos 0) or the step's sign or frequency changed."""
    n, d = 40, 6
    table = recipes.chained_rotation(n, d, dtype=np.complex128)
    angle = np.arange(n)[:, None] * _omega(d)
    assert table.dtype == np.float64
    assert table[0].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    np.testing.assert_allclose(table[:, 0::2], np.sin(angle), rtol=0, atol=1e-13)
    np.testing.assert_allclose(table[:, 1::2], np.cos(angle), rtol=0, atol=1e-13)
    assert recipes.chained_rotation(3, 4).dtype == np.float32


def test_rotation_with_float64_angles_is_the_table_near_block_edges() -> None:
    """Fault caught: the split of a position into its block start and offset, or the
    product of the two anchors, changed."""
    block = 128  # pe._rotation_table.BLOCK
    positions = np.array([0, 1, block - 1, block, block + 1, 3 * block + 5])
    d = 4
    found = recipes.rotation_with_float64_angles(positions, d)
    angle = positions[:, None] * _omega(d)
    np.testing.assert_allclose(found[:, 0::2], np.sin(angle), rtol=0, atol=1e-13)
    np.testing.assert_allclose(found[:, 1::2], np.cos(angle), rtol=0, atol=1e-13)


# --- pe.bug_zoo: each bug's table against the formula its description states.


def _bug_frequencies(name: str, d: int) -> tuple[npt.NDArray[np.float64], int, str]:
    """Frequencies per pair, the first position and the layout, from each bug's words."""
    k = np.arange(d // 2)
    if name == "doubled-exponent":  # 10000^(2 i / d) with i = 0, 2, 4, ...: base 1e8
        return 1e8 ** (-2.0 * k / d), 0, "interleaved"
    if name == "multiplied":
        return 10000.0 ** (2.0 * k / d), 0, "interleaved"
    if name == "integer-division":  # 2 i // d with i = 0, 2, ...: 0 then 1
        return np.where(2 * (2 * k) // d == 0, 1.0, 1e-4), 0, "interleaved"
    if name == "halves-for-interleaved":
        return 10000.0 ** (-2.0 * k / d), 0, "halves"
    if name == "fairseq-offset":
        return np.exp(-k * math.log(10000.0) / (d // 2 - 1)), 2, "halves"
    return 10000.0 ** (-2.0 * k / d), 0, "interleaved"


@pytest.mark.parametrize(
    "bug", [b for b in bug_zoo.BUGS if b.pairs is not None], ids=lambda b: b.name
)
@pytest.mark.parametrize("d", [4, 8])
def test_each_bug_table_is_its_stated_formula_and_pairs(bug: bug_zoo.Bug, d: int) -> None:
    """Fault caught: a bug's table (its exponent, its layout, its offset) or the pairs its
    description names changed."""
    n = 9
    omega, first, layout = _bug_frequencies(bug.name, d)
    angle = np.arange(first, first + n, dtype=np.float64)[:, None] * omega
    table = bug.make(n, d)
    h = d // 2
    sines, cosines = (
        (table[:, 0::2], table[:, 1::2])
        if layout == "interleaved"
        else (table[:, :h], table[:, h:])
    )
    np.testing.assert_allclose(sines, np.sin(angle), rtol=0, atol=1e-9)
    np.testing.assert_allclose(cosines, np.cos(angle), rtol=0, atol=1e-9)
    assert bug.pairs is not None
    sine_columns, cosine_columns, frequencies = bug.pairs(d)
    expected = np.arange(h) * (2 if layout == "interleaved" else 1)
    assert sine_columns.tolist() == expected.tolist()
    assert cosine_columns.tolist() == (expected + (1 if layout == "interleaved" else h)).tolist()
    np.testing.assert_allclose(frequencies, omega, rtol=1e-12)


def test_column_index_and_odd_width_bugs() -> None:
    """Fault caught: the column-index bug's exponent or the odd-width bug's lone sine
    changed."""
    n, d = 5, 5
    p = np.arange(n, dtype=np.float64)[:, None]
    j = np.arange(6)
    angle = p / 10000.0 ** (2 * j / 6)
    expected = np.where(j % 2 == 0, np.sin(angle), np.cos(angle))
    np.testing.assert_allclose(bug_zoo.column_index_exponent(n, 6), expected, rtol=0, atol=1e-12)
    odd = bug_zoo.odd_width(n, d)
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    np.testing.assert_allclose(odd[:, 0::2], np.sin(p * omega), rtol=0, atol=1e-12)
    np.testing.assert_allclose(odd[:, 1::2], np.cos(p * omega[:2]), rtol=0, atol=1e-12)


def test_pair_shift_turns_each_pair_and_zeroes_lone_columns() -> None:
    """Fault caught: a sign or an entry of pair_shift's blocks, or a column in no pair
    given a nonzero row."""
    omega = np.array([0.3])
    m = bug_zoo.pair_shift(3, 2, (np.array([0]), np.array([2]), omega))
    c, s = math.cos(0.6), math.sin(0.6)
    expected = np.array([[c, 0.0, s], [0.0, 0.0, 0.0], [-s, 0.0, c]])
    np.testing.assert_allclose(m, expected, rtol=0, atol=1e-15)


def test_described_table_guards_and_its_bound() -> None:
    """Fault caught: the description's guards (a law or layout it does not describe, a law
    giving the wrong number of or non-finite frequencies) dropped, or the bound
    6 eps (1 + p w)(1 + |ln w|) or the first position changed."""
    paper = conventions.get("paper")
    short = conventions.Description(
        columns=conventions.DESCRIPTION.columns, laws={}, first_position={}
    )
    with pytest.raises(ValueError, match="description must describe the law 'paper'"):
        conventions.described_table(paper, 3, 4, short)
    no_layout = conventions.Description(
        columns={}, laws=conventions.DESCRIPTION.laws, first_position={}
    )
    with pytest.raises(ValueError, match="and the layout 'interleaved'"):
        conventions.described_table(paper, 3, 4, no_layout)
    for law in (lambda k, d, b: np.ones(1), lambda k, d, b: np.full(k.shape, np.inf)):
        bad = conventions.Description(
            columns=conventions.DESCRIPTION.columns, laws={"paper": law}, first_position={}
        )
        with pytest.raises(ValueError, match="must give d / 2 finite frequencies"):
            conventions.described_table(paper, 3, 4, bad)
    table, bound = conventions.described_table(paper, 3, 4)
    omega = np.repeat(10000.0 ** (-np.arange(2) / 2.0), 2)
    p = np.arange(3.0)[:, None]
    eps = 2.0**-52
    np.testing.assert_allclose(table[:, 0::2], np.sin(p * omega[0::2]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        bound, 6 * eps * (1 + p * omega) * (1 + np.abs(np.log(omega))), rtol=1e-14
    )
    tokens, _ = conventions.described_table(conventions.get("fairseq-tokens"), 1, 4)
    h = np.array([2.0 * 1.0, 2.0 * 1e-4])
    np.testing.assert_allclose(tokens[0], np.concatenate([np.sin(h), np.cos(h)]), atol=1e-15)


def test_run_stack_softmax_stays_finite_for_large_logits() -> None:
    """Fault caught: the softmax's shift by the largest logit dropped or reversed, which
    overflows to NaN for states the post-LN stack reads unnormalised."""
    x = 300.0 * np.random.default_rng(6).standard_normal((4, 4))
    run = residual_stream.run_stack(x, 1, connection=residual_stream.POST_LN, gain=1.0, seed=1)
    top, total, _, _ = _stack(x, 1, "post", 1.0, 1)
    assert np.isfinite(run.top).all()
    np.testing.assert_allclose(run.top, top, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(run.sublayer_sum, total, rtol=1e-9, atol=1e-9)


def test_connections_and_runs_are_frozen() -> None:
    """Fault caught: the frozen dataclasses Connection and StackRun made mutable."""
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        residual_stream.RESIDUAL.name = "x"  # type: ignore[misc]
    run = residual_stream.run_stack(np.ones((2, 4)) + np.eye(2, 4), 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.largest = 0.0  # type: ignore[misc]


def test_embedding_functions_refuse_tables_above_the_cap_naming_their_size() -> None:
    """Fault caught: an allocation guard of pe.embeddings computing another size than the
    arrays it makes (so it lets a huge request through, or names the wrong size)."""
    n = 2**20
    with pytest.raises(ValueError, match=r"random_embeddings asks for 8192\.0 GiB"):
        embeddings.random_embeddings(n, n)
    with pytest.raises(ValueError, match=r"embeddings_plus_pe0 asks for 16384\.0 GiB"):
        embeddings.embeddings_plus_pe0(n, n)
    # weights (tokens, count) and two tables (tokens + count rows of width d), 8 bytes each
    with pytest.raises(ValueError, match=r"encoding_row_embeddings asks for 24576\.0 GiB"):
        embeddings.encoding_row_embeddings(n, n, n_positions=n)
    with pytest.raises(ValueError, match=r"cosines asks for 8192\.0 GiB"):
        embeddings.cosine_embedding_encoding(np.ones((n, 2)), n)


def test_subspace_rank_counts_only_values_strictly_above_the_threshold() -> None:
    """Fault caught: the rank's comparison with relative times the largest singular value
    made >=, so relative = 1 counts the largest itself."""
    vectors = np.random.default_rng(0).standard_normal((3, 8))
    rank, share = embeddings.encoding_subspace_share(4, 8, embeddings=vectors, relative=1.0)
    assert (rank, share) == (0, 0.0)


def test_drift_default_positions_are_the_four_decades() -> None:
    """Fault caught: the documented default positions 10^3 .. 10^6 of drift changed (the
    float32 recipe's error differs at another position)."""
    found = accuracy.drift(d_model=2)
    explicit = accuracy.drift((10**3, 10**4, 10**5, 10**6), 2)
    assert set(found) == set(accuracy.METHODS)
    for name, errors in explicit.items():
        assert errors.shape == (4,)
        assert np.array_equal(found[name], errors, equal_nan=True)
    assert not np.array_equal(
        accuracy.drift((9**3,), 2)["float32 recipe"], explicit["float32 recipe"][:1]
    )


def _significant_bits(value: float) -> int:
    """Bits from the leading 1 to the last 1 of a double's significand (0 for zero)."""
    if value == 0.0:
        return 0
    numerator, _ = abs(value).as_integer_ratio()
    return numerator.bit_length() - (numerator & -numerator).bit_length() + 1


def test_veltkamp_halves_have_at_most_26_bits() -> None:
    """Each half of pe's split is at most 26 significant bits wide (so a product of two
    halves is exact in float64), and the halves add up to the double; counted exactly from
    each half's integer ratio.

    Fault caught: the splitter moved off 2^27 + 1 (2^27 + 2 leaves a 27-bit half)."""
    from pe import _extended_precision

    rng = np.random.default_rng(2026)
    x = rng.uniform(0.5, 1.0, 4000) * 2.0 ** rng.integers(-40, 40, 4000)
    hi, lo = _extended_precision._split(x)
    assert np.array_equal(hi + lo, x)
    widest = max(_significant_bits(v) for v in [*hi.tolist(), *lo.tolist()])
    assert widest <= 26
    assert widest >= 25  # the bound is reached, so a wider split would show


def test_rotation_check_counts_its_shift_matrix_against_the_cap() -> None:
    """One position at width 11584 asks for 4 n d + d^2 = 134 235 392 float64 entries, just
    above pe's cap of 2^30 bytes (2^27 entries), almost all of it the d x d shift matrix:
    refused before anything is allocated. (The width just inside, 11582, would allocate a
    gigabyte, so it is not run.)

    Fault caught: the shift matrix's d^2 left out of the check's allocation bound."""
    width = 11584
    assert 4 * width + width * width > 2**27 >= 4 * 11582 + 11582 * 11582
    with pytest.raises(ValueError, match="the check asks for"):
        numeric.check_rotation_identity(width, [0], [1])
