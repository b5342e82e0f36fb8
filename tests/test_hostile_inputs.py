"""Hostile inputs to every public function and every command: a clear error, nothing else.

API: each bad argument raises ``ValueError`` or ``TypeError`` (as the table says) with a
one-line message naming the argument, before anything large is allocated: every call runs
under :mod:`tracemalloc` and may not allocate more than :data:`ALLOCATION_LIMIT`, far below
:data:`pe.MAX_BYTES`, so a check that came after the allocation would be caught.

CLI: each bad command line exits with status 2, a usage line and a one-line ``error:`` on
stderr, nothing on stdout, no traceback, and no file left behind in the working directory.

Then hypothesis fuzzes argument combinations of the API and the CLI (in process).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import pickle
import re
import sys
import textwrap
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pe
from pe import (
    _validate,
    attention,
    cli,
    concatenation,
    conventions,
    embeddings,
    frequency_ladder,
    geometry,
    numeric,
    position_designs,
    position_scores,
    relative,
    rotary,
    symbolic,
)
from pe.chapters import rotation_identity as theorems
from pe.identify import load_table

from .helpers import pickle_int, pickle_ints

ALLOCATION_LIMIT = 32 * 2**20  # bytes: a refused request allocates next to nothing
HUGE = 10**12
NAN, INF = float("nan"), float("inf")

# Bad values shared by the arguments of the same kind: (value, the error it must raise, a
# word its message holds).
Bad = list[tuple[Any, type[Exception], str]]

BAD_SIZES: Bad = [
    (0, ValueError, "zero"),
    (-3, ValueError, "negative"),
    (2.5, TypeError, "float"),
    (8.0, TypeError, "integral float"),
    (NAN, TypeError, "NaN"),
    (INF, TypeError, "infinite"),
    (True, TypeError, "bool"),
    ("8", TypeError, "numeric string"),
    ("eight", TypeError, "non-numeric string"),
    (None, TypeError, "None"),
    (np.float64(4.0), TypeError, "numpy float"),
]
BAD_WIDTHS: Bad = [
    *BAD_SIZES,
    (7, ValueError, "odd"),
    (1, ValueError, "one"),
    (HUGE, ValueError, "huge (over the cap)"),
    (2**64, ValueError, "beyond int64 (over the cap)"),
    (10**400, ValueError, "astronomical (over the cap)"),
]
# Sizes refused by the memory cap are named by the allocation they would need.
CAPPED = "(over the cap)"
BAD_BASES: Bad = [
    (1, ValueError, "one"),
    (1.0, ValueError, "one as float"),
    (0.5, ValueError, "below one"),
    (0, ValueError, "zero"),
    (-10000, ValueError, "negative"),
    (NAN, ValueError, "NaN"),
    (INF, ValueError, "infinite"),
    (-INF, ValueError, "minus infinity"),
    (10**400, ValueError, "int beyond float range"),
    ("10000", TypeError, "numeric string"),
    (True, TypeError, "bool"),
    (None, TypeError, "None"),
    (1 + 2j, TypeError, "complex"),
]
BAD_DTYPES: Bad = [
    ("int32", TypeError, "integer dtype"),
    (np.int8, TypeError, "integer type"),
    (np.complex128, TypeError, "complex"),
    (object, TypeError, "object"),
    ("float8", TypeError, "unknown name"),
    ("f8,f8", TypeError, "structured"),
    (3.5, TypeError, "a number"),
]
BAD_POSITIONS: Bad = [
    *[case for case in BAD_SIZES if case[2] != "integral float"],
    ([], ValueError, "empty list"),
    ([[0, 1], [2, 3]], ValueError, "2-D"),
    ([0.0, 1.5], ValueError, "fractional float array"),
    ([0.0, NAN], ValueError, "NaN in a float array"),
    (np.array([INF], dtype=np.float32), ValueError, "infinity in a float32 array"),
    ([1 + 2j], TypeError, "complex array"),
    ([True, False], TypeError, "boolean array"),
    (["a", "b"], TypeError, "string array"),
    ([-1, 2], ValueError, "negative position"),
    ([2**60], ValueError, "beyond 2**53"),
    (np.array([2**64 - 1], dtype=np.uint64), ValueError, "beyond int64"),
    (HUGE, ValueError, "huge count"),
]
BAD_OFFSETS: Bad = [
    (np.array([-(2**63)]), ValueError, "int64 minimum"),
    ([2**60], ValueError, "beyond 2**53"),
    ([0.5], ValueError, "fractional float array"),
    ([-INF], ValueError, "infinite float array"),
    ([], ValueError, "empty"),
    ("1", TypeError, "string"),
]
BAD_SCALARS: Bad = [
    (NAN, ValueError, "NaN"),
    (INF, ValueError, "infinite"),
    (10**400, ValueError, "int beyond float range"),
    ("3", TypeError, "string"),
    (None, TypeError, "None"),
    (True, TypeError, "bool"),
    ([1, 2], TypeError, "list"),
]
BAD_ROWS: Bad = [
    ("rows", TypeError, "string"),
    (np.zeros((3, 7)), ValueError, "odd width"),
    (np.zeros((3, 0)), ValueError, "empty width"),
    (np.float64(1.0), ValueError, "0-d"),
    (np.zeros((2, 4), dtype=bool), TypeError, "booleans"),
    (np.zeros((2, 4), dtype=complex), TypeError, "complex"),
    (np.array([["a", "b"]]), TypeError, "strings"),
    (np.zeros((2, 4), dtype=np.longdouble), TypeError, "long double"),
]

Call = Callable[[Any], Any]

# Each function, each argument: how to call it with one bad value and the rest valid.
TARGETS: dict[str, dict[str, tuple[Call, list[tuple[Any, type[Exception], str]]]]] = {
    "frequencies": {
        "d_model": (pe.frequencies, BAD_WIDTHS),
        "base": (lambda v: pe.frequencies(8, v), BAD_BASES),
    },
    "sinusoidal": {
        "positions": (lambda v: pe.sinusoidal(v, 8), BAD_POSITIONS),
        "d_model": (lambda v: pe.sinusoidal(4, v), BAD_WIDTHS),
        "base": (lambda v: pe.sinusoidal(4, 8, base=v), BAD_BASES),
        "dtype": (lambda v: pe.sinusoidal(4, 8, dtype=v), BAD_DTYPES),
        "the table": (lambda v: pe.sinusoidal(v, 2**20), [(2**20, ValueError, "over the cap")]),
    },
    "shift_matrix": {
        "k": (lambda v: pe.shift_matrix(v, 8), BAD_SCALARS),
        "d_model": (lambda v: pe.shift_matrix(1, v), BAD_WIDTHS),
        "base": (lambda v: pe.shift_matrix(1, 8, base=v), BAD_BASES),
        "shift_matrix": (lambda v: pe.shift_matrix(1, v), [(2**16, ValueError, "over the cap")]),
    },
    "shift": {
        "rows": (lambda v: pe.shift(v, 1), BAD_ROWS),
        "k": (lambda v: pe.shift(np.zeros((2, 8)), v), BAD_SCALARS),
        "base": (lambda v: pe.shift(np.zeros((2, 8)), 1, base=v), BAD_BASES),
    },
    "check_rotation_identity": {
        "d_model": (lambda v: pe.check_rotation_identity(v, 4, 2), BAD_WIDTHS),
        "positions": (lambda v: pe.check_rotation_identity(8, v, 2), BAD_POSITIONS),
        "offsets": (lambda v: pe.check_rotation_identity(8, 4, v), BAD_OFFSETS),
        "base": (lambda v: pe.check_rotation_identity(8, 4, 2, base=v), BAD_BASES),
        "dtype": (lambda v: pe.check_rotation_identity(8, 4, 2, dtype=v), BAD_DTYPES),
        "the check": (
            lambda v: pe.check_rotation_identity(v, 10**6, 1),
            [(2**12, ValueError, "over the cap")],
        ),
        "candidate": (
            lambda v: pe.check_rotation_identity(8, 4, 2, candidate=v),
            [
                (lambda k, d, b: np.eye(3), ValueError, "wrong shape"),
                (lambda k, d, b: np.full((8, 8), "x"), TypeError, "strings"),
            ],
        ),
    },
    "fitted_shift_matrix": {
        "k": (
            lambda v: numeric.fitted_shift_matrix(v, 8, 64),
            [
                (2.5, TypeError, "float"),
                (NAN, TypeError, "NaN"),
                (True, TypeError, "bool"),
                ("1", TypeError, "string"),
                (None, TypeError, "None"),
                (-100, ValueError, "before position 0"),
                (2**63, ValueError, "beyond int64"),
            ],
        ),
        "d_model": (lambda v: numeric.fitted_shift_matrix(1, v, 64), BAD_WIDTHS),
        "positions": (lambda v: numeric.fitted_shift_matrix(1, 8, v), BAD_POSITIONS),
        "base": (lambda v: numeric.fitted_shift_matrix(1, 8, 64, base=v), BAD_BASES),
    },
    "block_diagonal_identity": {
        "d_model": (
            theorems.block_diagonal_identity,
            [
                # (10**400 is left out: the message echoes all 401 digits; reported.)
                *((v, e, label.replace(CAPPED, "")) for v, e, label in BAD_WIDTHS[:-1]),
                (514, ValueError, "above 512"),
            ],
        ),
        "base": (
            lambda v: theorems.block_diagonal_identity(4, base=v),
            [
                (1, ValueError, "one"),
                (0, ValueError, "zero"),
                (1.5, TypeError, "float (no floats in a proof)"),
                ("10000", TypeError, "string"),
                (True, TypeError, "bool"),
            ],
        ),
    },
}
if hasattr(numeric, "sinusoidal_direct"):  # the plain formula, next to the fast table
    TARGETS["sinusoidal_direct"] = {
        "positions": (lambda v: numeric.sinusoidal_direct(v, 8), BAD_POSITIONS),
        "d_model": (lambda v: numeric.sinusoidal_direct(4, v), BAD_WIDTHS),
        "base": (lambda v: numeric.sinusoidal_direct(4, 8, base=v), BAD_BASES),
        "dtype": (lambda v: numeric.sinusoidal_direct(4, 8, dtype=v), BAD_DTYPES),
    }


# The library modules: the domain code the chapters read, each function with its bad values.
BAD_EXACT: Bad = [  # a number or a SymPy expression (formulas evaluated or kept symbolic)
    ("3", TypeError, "string"),
    (None, TypeError, "None"),
    (True, TypeError, "bool"),
    (1 + 2j, TypeError, "complex"),
    ([1, 2], TypeError, "list"),
    (NAN, ValueError, "NaN"),
    (INF, ValueError, "infinite"),
    (sp.oo, ValueError, "SymPy infinity"),
    (sp.nan, ValueError, "SymPy NaN"),
]
BAD_SEEDS: Bad = [
    (-1, ValueError, "negative"),
    (2.5, TypeError, "float"),
    (True, TypeError, "bool"),
    ("0", TypeError, "string"),
    (None, TypeError, "None"),
]
BAD_POSITION: Bad = [  # one position >= 0
    (-1, ValueError, "negative"),
    (2.5, TypeError, "float"),
    (True, TypeError, "bool"),
    (None, TypeError, "None"),
]
BAD_FLAGS: Bad = [(1, TypeError, "int"), ("yes", TypeError, "string"), (None, TypeError, "None")]
NOT_CALLABLE: Bad = [(None, TypeError, "None"), ("f", TypeError, "string")]
OVER_THE_CAP: Bad = [(HUGE, ValueError, "huge (over the cap)")]
BAD_COUNTS: Bad = [*BAD_SIZES, *OVER_THE_CAP]
BAD_MATRICES: Bad = [  # x, one token per row
    ("x", ValueError, "string"),
    (np.zeros((3, 0)), ValueError, "no columns"),
    (np.zeros(4), ValueError, "1-D"),
    (np.full((2, 4), INF), ValueError, "infinite"),
    (np.zeros((8192, 1)), ValueError, "8192 tokens (over the cap)"),
]


def _attention_cases(function: Callable[[Any, Any], Any]) -> dict[str, tuple[Call, Bad]]:
    """Bad sequences and bad weights for an attention function ``(x, weights)``."""
    return {
        "x": (lambda v: function(v, attention.toy_attention(4)), BAD_MATRICES[:4]),
        "weights": (
            lambda v: function(np.zeros((2, 4)), v),
            [
                (None, TypeError, "None"),
                (attention.toy_rnn(4), TypeError, "recurrent weights"),
                (attention.toy_attention(3), ValueError, "another width"),
            ],
        ),
    }


def _attend(m: Any, _causal: bool) -> Any:
    return m


ATTEND = _attend
VOCABULARY = attention.toy_vocabulary(4)
WIDER = attention.Encoding("one column too many", lambda n, d: np.zeros((n, d + 1)))
NOT_FINITE = attention.Encoding("NaN", lambda n, d: np.full((n, d), NAN))
BAD_ENCODINGS: Bad = [
    (None, TypeError, "None"),
    ("sinusoidal", TypeError, "string"),
    (WIDER, ValueError, "rows of the wrong shape"),
    (NOT_FINITE, ValueError, "NaN rows"),
]
RNN = attention.toy_rnn(4, hidden=3)
W2, RNG = np.eye(2), np.random.default_rng(0)
MS, NS = np.array([0, 5]), np.array([3, 8])
MAPS = [rotary.rope(np.eye(4), np.full(4, p)).T.astype(np.float64) for p in (0, 1)]
PAPER = conventions.get("paper")
VECTOR = np.ones(2)


def _projected(call: Callable[..., Any]) -> dict[str, tuple[Call, Bad]]:
    """The arguments of a :data:`pe.position_scores.ProjectedScores`, one bad at a time."""
    return {
        "w_q": (
            lambda v: call(v, W2, MS, NS, RNG),
            [
                ("w", TypeError, "string"),
                (np.eye(3), ValueError, "odd width"),
                (np.ones((2, 4)), ValueError, "not square"),
                (np.full((2, 2), NAN), ValueError, "NaN"),
            ],
        ),
        "w_k": (lambda v: call(W2, v, MS, NS, RNG), [(np.eye(4), ValueError, "not w_q's shape")]),
        "ms": (
            lambda v: call(W2, W2, v, NS, RNG),
            [
                ("0", TypeError, "string"),
                ([0, 1, 2], ValueError, "unpaired"),
                ([NAN, 1], ValueError, "NaN"),
            ],
        ),
        "ns": (
            lambda v: call(W2, W2, MS, v, RNG),
            [([], ValueError, "empty"), ([INF, 1], ValueError, "infinite")],
        ),
        "rng": (
            lambda v: call(W2, W2, MS, NS, v),
            [(None, TypeError, "None"), (0, TypeError, "a seed")],
        ),
    }


LIBRARY_TARGETS: dict[str, dict[str, tuple[Call, Bad]]] = {
    "attention.toy_vocabulary": {
        "d_model": (attention.toy_vocabulary, BAD_COUNTS),
        "words": (
            lambda v: attention.toy_vocabulary(4, v),
            [
                ("dog", TypeError, "a string"),
                ((), ValueError, "empty"),
                ((1, 2), TypeError, "numbers"),
                (None, TypeError, "None"),
            ],
        ),
    },
    "attention.toy_attention": {
        "d_model": (
            attention.toy_attention,
            [*BAD_COUNTS, (2**14, ValueError, "wide (over the cap)")],
        ),
    },
    "attention.toy_rnn": {
        "d_model": (lambda v: attention.toy_rnn(v, 3), BAD_COUNTS),
        "hidden": (
            lambda v: attention.toy_rnn(4, v),
            [*BAD_COUNTS, (2**15, ValueError, "wide (over the cap)")],
        ),
    },
    "attention.sentence_matrix": {
        "words": (
            lambda v: attention.sentence_matrix(v, VOCABULARY),
            [
                ("dog", TypeError, "a string"),
                ((), ValueError, "empty"),
                (("cat",), ValueError, "unknown word"),
            ],
        ),
        "vocabulary": (
            lambda v: attention.sentence_matrix(attention.SENTENCE, v),
            [
                (None, TypeError, "None"),
                ({**VOCABULARY, "dog": np.zeros(3)}, ValueError, "two widths"),
                ({**VOCABULARY, "dog": np.full(4, NAN)}, ValueError, "NaN"),
                ({**VOCABULARY, "dog": np.array(["a"] * 4)}, TypeError, "strings"),
            ],
        ),
        "encoding": (
            lambda v: attention.sentence_matrix(attention.SENTENCE, VOCABULARY, v),
            BAD_ENCODINGS[1:],  # None: no encoding
        ),
    },
    "attention.Encoding": {
        "label": (
            lambda v: attention.Encoding(v, numeric.sinusoidal),
            [(None, TypeError, "None"), (3, TypeError, "int")],
        ),
        "rows": (lambda v: attention.Encoding("rows", v), NOT_CALLABLE),
    },
    "attention.sentence_pair": {
        "encoding": (lambda v: attention.sentence_pair(v, 8), BAD_ENCODINGS),
        "d_model": (lambda v: attention.sentence_pair(attention.NO_ENCODING, v), BAD_WIDTHS),
    },
    "attention.check_equivariance": {
        "sides": (
            lambda v: attention.check_equivariance(v, 4, 8),
            [
                *NOT_CALLABLE,
                (lambda *_: None, TypeError, "returns None"),
                (lambda _a, x, _p, _e: (x, x[:1]), ValueError, "sides of two shapes"),
            ],
        ),
        "n": (
            lambda v: attention.check_equivariance(attention.equivariant, v, 8),
            [*BAD_COUNTS, (1, ValueError, "one")],
        ),
        "d_model": (
            lambda v: attention.check_equivariance(attention.equivariant, 4, v),
            BAD_WIDTHS,
        ),
        "seed": (
            lambda v: attention.check_equivariance(attention.equivariant, 4, 8, seed=v),
            BAD_SEEDS,
        ),
    },
    "attention.equivariant": {
        "attend": (lambda v: attention.equivariant(v, np.eye(3), np.eye(3), 0), NOT_CALLABLE),
        "x": (
            lambda v: attention.equivariant(ATTEND, v, np.eye(3), 0),
            [("x", TypeError, "string"), (np.zeros(3), ValueError, "1-D")],
        ),
        "perm": (
            lambda v: attention.equivariant(ATTEND, np.eye(3), v, 0),
            [([[1]], TypeError, "list"), (np.eye(2), ValueError, "too small")],
        ),
    },
    **{
        f"attention.{function.__name__}": _attention_cases(function)
        for function in (
            attention.attention,
            attention.attention_error_bound,
            attention.reference_attention,
        )
    },
    "attention.reference_attention, size": {
        "x": (
            lambda v: attention.reference_attention(v, attention.toy_attention(64)),
            [(np.zeros((200, 64)), ValueError, "200 tokens (too much work)")],
        ),
    },
    "attention.final_state": {
        "x": (
            lambda v: attention.final_state(v, RNN),
            [*BAD_MATRICES[:4], (np.zeros((2, 3)), ValueError, "not the cell's width")],
        ),
        "weights": (
            lambda v: attention.final_state(np.zeros((2, 4)), v),
            [
                (None, TypeError, "None"),
                (attention.toy_attention(4), TypeError, "attention weights"),
            ],
        ),
    },
    "attention.rnn_final_gap": {
        "summary": (
            lambda v: attention.rnn_final_gap(v, 8),
            [*NOT_CALLABLE, (lambda x, w: "s", ValueError, "a string summary")],
        ),
        "d_model": (lambda v: attention.rnn_final_gap(attention.final_state, v), BAD_WIDTHS),
    },
    "attention.attention_layer": {"x": (attention.attention_layer, BAD_MATRICES)},
    "attention.elman_layer": {"x": (attention.elman_layer, BAD_MATRICES[:4])},
    "attention.row_independence_gap": {
        "layer": (
            lambda v: attention.row_independence_gap(v, 4, 8),
            [
                *NOT_CALLABLE,
                (lambda x: x, TypeError, "one array"),
                (lambda x: (x, x[:1]), ValueError, "two shapes"),
            ],
        ),
        "n": (
            lambda v: attention.row_independence_gap(attention.attention_layer, v, 8),
            BAD_COUNTS,
        ),
        "d_model": (
            lambda v: attention.row_independence_gap(attention.attention_layer, 4, v),
            BAD_WIDTHS,
        ),
        "encoding": (
            lambda v: attention.row_independence_gap(attention.attention_layer, 4, 8, v),
            BAD_ENCODINGS,
        ),
    },
    "attention.row_independence_tolerance": {
        "n": (lambda v: attention.row_independence_tolerance(v, 8), BAD_COUNTS),
        "d_model": (lambda v: attention.row_independence_tolerance(4, v), BAD_WIDTHS),
        "encoding": (lambda v: attention.row_independence_tolerance(4, 8, v), BAD_ENCODINGS),
    },
    "geometry.chord_squared": {"w": (geometry.chord_squared, BAD_EXACT)},
    "geometry.dot_product_error": {
        "d_model": (lambda v: geometry.dot_product_error(v, 4), BAD_WIDTHS),
        "n_positions": (
            lambda v: geometry.dot_product_error(8, v),
            [*BAD_COUNTS, (2**14, ValueError, "2**14 rows (over the cap)")],
        ),
        "power": (
            lambda v: geometry.dot_product_error(8, 4, v),
            [
                (0, ValueError, "zero"),
                (-1, ValueError, "negative"),
                (2.5, TypeError, "float"),
                (True, TypeError, "bool"),
            ],
        ),
    },
    "geometry.symmetry_gap": {
        "d_model": (lambda v: geometry.symmetry_gap(v, 10, 5), BAD_WIDTHS),
        "position": (
            lambda v: geometry.symmetry_gap(8, v, 5),
            [*BAD_POSITION, (2, ValueError, "rows p - k before 0")],
        ),
        "max_offset": (
            lambda v: geometry.symmetry_gap(8, 10, v),
            [*BAD_SIZES, (1, ValueError, "one"), (12, ValueError, "past position")],
        ),
        "between": (lambda v: geometry.symmetry_gap(8, 10, 5, v), BAD_SCALARS),
    },
    "geometry.norm_error": {
        "d_models": (
            lambda v: geometry.norm_error(v, 4, 0.5),
            [
                (8, TypeError, "an int"),
                ("8", TypeError, "string"),
                ((), ValueError, "empty"),
                ((8, 7), ValueError, "odd width"),
                ((8, True), TypeError, "bool"),
                ((HUGE,), ValueError, "huge (over the cap)"),
            ],
        ),
        "positions": (lambda v: geometry.norm_error((8,), v, 0.5), BAD_POSITIONS),
        "per_dimension": (
            lambda v: geometry.norm_error((8,), 4, v),
            [*BAD_SCALARS, (-0.5, ValueError, "negative")],
        ),
    },
    "geometry.pair_distances": {
        "omega": (
            lambda v: geometry.pair_distances(v, 4),
            [
                ("w", TypeError, "string"),
                (None, TypeError, "None"),
                ([], ValueError, "empty"),
                ([[1.0]], ValueError, "2-D"),
                ([NAN], ValueError, "NaN"),
                ([True], TypeError, "bools"),
            ],
        ),
        "n_positions": (lambda v: geometry.pair_distances([1.0], v), BAD_COUNTS),
    },
    "geometry.pair_shift_ratio": {
        "d_model": (
            lambda v: geometry.pair_shift_ratio(v, 20, (1,), numeric.frequencies),
            BAD_WIDTHS,
        ),
        "n_positions": (
            lambda v: geometry.pair_shift_ratio(8, v, (1,), numeric.frequencies),
            [*BAD_COUNTS, (1, ValueError, "one")],
        ),
        "offsets": (
            lambda v: geometry.pair_shift_ratio(8, 20, v, numeric.frequencies),
            [
                (1, TypeError, "an int"),
                ((), ValueError, "empty"),
                ((0,), ValueError, "zero"),
                ((20,), ValueError, "past the table"),
                ((1.5,), TypeError, "float"),
                ((True,), TypeError, "bool"),
            ],
        ),
        "blocks": (
            lambda v: geometry.pair_shift_ratio(8, 20, (1,), v),
            [
                *NOT_CALLABLE,
                (lambda d: np.ones(3), ValueError, "three frequencies"),
                (lambda d: "w", TypeError, "a string"),
            ],
        ),
    },
    "position_designs.LearnedPositions": {
        "n_max": (lambda v: position_designs.LearnedPositions(v, 2), BAD_COUNTS),
        "d_model": (lambda v: position_designs.LearnedPositions(2, v), BAD_COUNTS),
        "seed": (lambda v: position_designs.LearnedPositions(2, 2, v), BAD_SEEDS),
    },
    "position_designs.LearnedPositions.lookup": {
        "positions": (
            lambda v: position_designs.LearnedPositions(8, 2**10).lookup(v),
            [
                *BAD_POSITIONS,
                (np.zeros(2**18, dtype=np.int64), ValueError, "2**18 rows (over the cap)"),
            ],
        ),
    },
    "position_designs.turnless_pairs": {
        "d_model": (lambda v: position_designs.turnless_pairs(v, 32), BAD_WIDTHS),
        "n_train": (lambda v: position_designs.turnless_pairs(16, v), BAD_SIZES),
    },
    "position_designs.unseen_pairs": {
        "d_model": (lambda v: position_designs.unseen_pairs(v, 32, 10), BAD_WIDTHS),
        "n_train": (lambda v: position_designs.unseen_pairs(16, v, 10), BAD_COUNTS),
        "position": (lambda v: position_designs.unseen_pairs(16, 32, v), BAD_POSITION),
        "base": (lambda v: position_designs.unseen_pairs(16, 32, 10, base=v), BAD_BASES),
    },
    "position_designs.arc_counts": {
        "d_model": (lambda v: position_designs.arc_counts(v, 32, 10), BAD_WIDTHS),
        "n_train": (lambda v: position_designs.arc_counts(16, v, 10), BAD_SIZES),
        "position": (lambda v: position_designs.arc_counts(16, 32, v), BAD_POSITION),
    },
    "position_scores.largest_rise": {
        "values": (
            position_scores.largest_rise,
            [
                ("abc", TypeError, "string"),
                (None, TypeError, "None"),
                ([1.0], ValueError, "one value"),
                ([], ValueError, "empty"),
                ([[1.0, 2.0]], ValueError, "2-D"),
                ([1.0, NAN], ValueError, "NaN"),
                ([True, False], TypeError, "bools"),
            ],
        ),
    },
    "position_scores.additive_scores": _projected(position_scores.additive_scores),
    "position_scores.rope_after_projection": _projected(position_scores.rope_after_projection),
    "position_scores.offset_spreads": {
        "candidate": (
            lambda v: position_scores.offset_spreads(v, 8),
            [*NOT_CALLABLE, (lambda *_: np.zeros(2), ValueError, "two scores")],
        ),
        "d_model": (
            lambda v: position_scores.offset_spreads(position_scores.additive_scores, v),
            BAD_WIDTHS,
        ),
        "seed": (
            lambda v: position_scores.offset_spreads(position_scores.additive_scores, 8, seed=v),
            BAD_SEEDS,
        ),
    },
    "position_scores.relative_blocks": {
        "same_frequency": (lambda v: position_scores.relative_blocks(same_frequency=v), BAD_FLAGS),
    },
    "position_scores.content_gap": {
        "content": (
            position_scores.content_gap,
            [
                ("10", TypeError, "string"),
                (None, TypeError, "None"),
                ((1,), ValueError, "one value"),
                ((1, 2, 3), ValueError, "three values"),
                ((NAN, 0), ValueError, "NaN"),
                (("1", 0), TypeError, "a string in it"),
                ((True, 0), TypeError, "a bool in it"),
            ],
        ),
    },
    "relative.alibi_slope_exponents": {"n_heads": (relative.alibi_slope_exponents, BAD_COUNTS)},
    "relative.ntk_scaled_base": {
        "b": (lambda v: relative.ntk_scaled_base(v, 2.0, 8), [*BAD_EXACT, (0, ValueError, "zero")]),
        "s": (
            lambda v: relative.ntk_scaled_base(10000, v, 8),
            [*BAD_EXACT, (-2.0, ValueError, "negative")],
        ),
        "d": (
            lambda v: relative.ntk_scaled_base(10000, 2.0, v),
            [*BAD_EXACT, (2, ValueError, "two")],
        ),
    },
    "relative.interpolated_end": {
        "trained": (lambda v: relative.interpolated_end(v, 4.0), BAD_EXACT),
        "scale": (
            lambda v: relative.interpolated_end(2048, v),
            [*BAD_EXACT, (0, ValueError, "zero")],
        ),
    },
    "relative.t5_bucket_properties": {
        "bucket": (
            relative.t5_bucket_properties,
            [*NOT_CALLABLE, (lambda rel, **_: rel[:1], ValueError, "one bucket")],
        ),
        "bidirectional": (lambda v: relative.t5_bucket_properties(bidirectional=v), BAD_FLAGS),
        "num_buckets": (
            lambda v: relative.t5_bucket_properties(num_buckets=v),
            [*BAD_SIZES, (3, ValueError, "three")],
        ),
        "max_distance": (
            lambda v: relative.t5_bucket_properties(max_distance=v),
            [*BAD_COUNTS, (1, ValueError, "one")],
        ),
    },
    "rotary.abel_rounding": {
        "q": (
            lambda v: rotary.abel_rounding(v, np.ones(4)),
            [
                ("q", TypeError, "string"),
                (np.ones(3), ValueError, "three entries"),
                (np.ones((2, 4)), ValueError, "2-D"),
                ([NAN, 1, 1, 1], ValueError, "NaN"),
            ],
        ),
        "k": (
            lambda v: rotary.abel_rounding(np.ones(4), v),
            [(None, TypeError, "None"), ([1, 1, 1, INF], ValueError, "infinite")],
        ),
    },
    "rotary.conversion_gap": {
        "convert": (
            lambda v: rotary.conversion_gap(v, 8),
            [
                *NOT_CALLABLE,
                (lambda f, q, k: f(q), TypeError, "one matrix"),
                (lambda f, q, k: (q[:2], k), ValueError, "a cut matrix"),
            ],
        ),
        "d_model": (lambda v: rotary.conversion_gap(rotary.permute_both, v), BAD_WIDTHS),
        "seed": (lambda v: rotary.conversion_gap(rotary.permute_both, 8, seed=v), BAD_SEEDS),
    },
    "rotary.pair_columns": {
        "d_model": (lambda v: rotary.pair_columns(v, "adjacent"), BAD_WIDTHS),
        "pairing": (
            lambda v: rotary.pair_columns(4, v),
            [("diagonal", ValueError, "unknown"), (None, TypeError, "None")],
        ),
    },
    "rotary.permute_both": {"permute": (lambda v: rotary.permute_both(v, [1], [2]), NOT_CALLABLE)},
    "rotary.read_rope_code": {
        "maps": (
            lambda v: rotary.read_rope_code(v, [0, 1]),
            [
                ("maps", TypeError, "string"),
                ([np.eye(4)], ValueError, "one map"),
                ([np.eye(4), np.eye(3)], ValueError, "two widths"),
                ([np.eye(4), np.full((4, 4), NAN)], ValueError, "NaN"),
                ([np.eye(4), np.zeros((4, 4), dtype=bool)], TypeError, "bools"),
            ],
        ),
        "positions": (
            lambda v: rotary.read_rope_code(MAPS, v),
            [
                ([0], ValueError, "one position"),
                ("01", TypeError, "string"),
                ([0, 0.5], ValueError, "fractional"),
                (None, TypeError, "None"),
            ],
        ),
    },
    "rotary.rope_complex": {
        "x": (
            lambda v: rotary.rope_complex(v, 2),
            [
                ("x", TypeError, "string"),
                (np.ones((2, 3)), ValueError, "odd width"),
                (np.ones((3, 4)), ValueError, "three rows"),
            ],
        ),
        "positions": (
            lambda v: rotary.rope_complex(np.ones((2, 4)), v),
            [
                ([0, NAN], ValueError, "NaN"),
                (3, ValueError, "three positions"),
                ("2", TypeError, "string"),
                ([2**60, 0], ValueError, "beyond 2**53"),
            ],
        ),
        "pairing": (
            lambda v: rotary.rope_complex(np.ones((2, 4)), 2, pairing=v),
            [("diagonal", ValueError, "unknown"), (None, TypeError, "None")],
        ),
    },
    "conventions.described_table": {
        "convention": (
            lambda v: conventions.described_table(v, 10, 8),
            [("paper", TypeError, "a name"), (None, TypeError, "None")],
        ),
        "n": (lambda v: conventions.described_table(PAPER, v, 8), BAD_COUNTS),
        "d": (lambda v: conventions.described_table(PAPER, 10, v), BAD_WIDTHS),
        "description": (
            lambda v: conventions.described_table(PAPER, 10, 8, v),
            [
                (None, TypeError, "None"),
                (conventions.DESCRIPTION._replace(laws={}), ValueError, "no law"),
            ],
        ),
    },
    "conventions.odd_width_outcome": {
        "outcome": (
            lambda v: conventions.odd_width_outcome(v, 3),
            [
                ([[0.0, 1.0, 0.0]], TypeError, "a list"),
                (np.zeros((2, 3), dtype=complex), TypeError, "complex"),
                (None, TypeError, "None"),
            ],
        ),
        "d": (
            lambda v: conventions.odd_width_outcome(np.zeros((2, 3)), v),
            [
                (4, ValueError, "even"),
                (0, ValueError, "zero"),
                (-3, ValueError, "negative"),
                (3.0, TypeError, "float"),
                (True, TypeError, "bool"),
            ],
        ),
    },
    "concatenation.separate_projections": {
        "w_e": (
            lambda v: concatenation.separate_projections(v, W2, VECTOR, VECTOR),
            [
                ("W", TypeError, "string"),
                (np.eye(3), ValueError, "wrong width"),
                (np.ones(2), ValueError, "1-D"),
            ],
        ),
        "w_q": (
            lambda v: concatenation.separate_projections(W2, v, VECTOR, VECTOR),
            [(None, TypeError, "None"), (np.ones((3, 2)), ValueError, "three outputs")],
        ),
        "e": (
            lambda v: concatenation.separate_projections(W2, W2, v, VECTOR),
            [([1, 2], TypeError, "list"), (np.ones(3), ValueError, "three entries")],
        ),
        "q": (
            lambda v: concatenation.separate_projections(W2, W2, VECTOR, v),
            [
                (np.ones((2, 1)), ValueError, "a column"),
                (sp.ones(3, 1), ValueError, "SymPy, three rows"),
            ],
        ),
    },
    "concatenation.projection_text": {"rhs": (concatenation.projection_text, NOT_CALLABLE)},
    "embeddings.embeddings_plus_pe0": {
        "n_tokens": (lambda v: embeddings.embeddings_plus_pe0(v, 4), BAD_COUNTS),
        "d_model": (lambda v: embeddings.embeddings_plus_pe0(2, v), BAD_WIDTHS),
        "seed": (lambda v: embeddings.embeddings_plus_pe0(2, 4, v), BAD_SEEDS),
    },
    "embeddings.encoding_row_embeddings": {
        "n_tokens": (lambda v: embeddings.encoding_row_embeddings(v, 4, n_positions=2), BAD_COUNTS),
        "d_model": (lambda v: embeddings.encoding_row_embeddings(2, v, n_positions=2), BAD_WIDTHS),
        "seed": (lambda v: embeddings.encoding_row_embeddings(2, 4, v, n_positions=2), BAD_SEEDS),
        "n_positions": (
            lambda v: embeddings.encoding_row_embeddings(2, 4, n_positions=v),
            BAD_COUNTS,
        ),
    },
    "frequency_ladder.paper_wavelength": {
        "i": (lambda v: frequency_ladder.paper_wavelength(v, 4), BAD_EXACT),
        "d": (
            lambda v: frequency_ladder.paper_wavelength(1, v),
            [*BAD_EXACT, (0, ValueError, "zero"), (-4, ValueError, "negative")],
        ),
    },
    "symbolic.encoding": {
        "position": (lambda v: symbolic.encoding(v, [1]), BAD_EXACT),
        "omegas": (
            lambda v: symbolic.encoding(symbolic.P, v),
            [
                ([], ValueError, "empty"),
                ("w", TypeError, "string"),
                (None, TypeError, "None"),
                ([NAN], ValueError, "NaN"),
                (["1"], TypeError, "a string in it"),
            ],
        ),
    },
    "symbolic.shift_factor": {
        "q": (lambda v: symbolic.shift_factor(v, 1), BAD_EXACT),
        "w": (lambda v: symbolic.shift_factor(1, v), BAD_EXACT),
    },
    "symbolic.symbolic_vector": {
        "name": (
            lambda v: symbolic.symbolic_vector(v, 2),
            [
                (None, TypeError, "None"),
                (3, TypeError, "int"),
                ("a b", ValueError, "a space"),
                ("", ValueError, "empty"),
            ],
        ),
        "size": (lambda v: symbolic.symbolic_vector("q", v), BAD_COUNTS),
    },
}
TARGETS.update(LIBRARY_TARGETS)

API_CASES = [
    pytest.param(
        call,
        value,
        error,
        "pe.MAX_BYTES" if label.endswith(CAPPED) else argument,
        id=f"{function}-{argument}-{label}",
    )
    for function, arguments in TARGETS.items()
    for argument, (call, cases) in arguments.items()
    for value, error, label in cases
]


@contextlib.contextmanager
def allocation_limit(limit: int = ALLOCATION_LIMIT) -> Iterator[None]:
    """Fail if the block's peak traced allocation (NumPy's included) exceeds ``limit``."""
    tracemalloc.start()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= limit, f"allocated {peak / 2**20:.1f} MiB before refusing"


@pytest.mark.parametrize(("call", "value", "error", "argument"), API_CASES)
def test_the_api_refuses_bad_arguments(
    call: Call, value: Any, error: type[Exception], argument: str
) -> None:
    with allocation_limit(), pytest.raises(error) as caught:
        call(value)
    assert type(caught.value) is error  # not a subclass such as numpy's AxisError
    message = str(caught.value)
    assert "\n" not in message
    assert 0 < len(message) <= 200
    assert re.search(rf"(?<![\w.]){re.escape(argument)}(?!\w)", message), (
        message
    )  # named, as a word


@pytest.mark.parametrize(
    "call",
    [
        lambda: pe.frequencies(cast(Any, np.int64(8)), cast(Any, np.float32(10.0))),
        lambda: pe.sinusoidal(np.array([0, 3, 2**53], dtype=np.uint64), 8, dtype="float16"),
        lambda: pe.shift_matrix(-2.5, 2),
        lambda: pe.shift(np.zeros((2, 3, 4)), 10**300),
        lambda: pe.check_rotation_identity(2, [0, 2**52], [-(2**51)], base=1.0001),
    ],
)
def test_valid_edge_cases_are_accepted(call: Callable[[], Any]) -> None:
    """The refusals above are not overreach: edge values that are valid give an answer."""
    result = call()
    values = result if isinstance(result, np.ndarray) else np.array([result.worst_ratio])
    assert np.all(np.isfinite(values))


@pytest.mark.parametrize(("count", "limit"), [(12, 10), (2**20 + 2, 2**20)])
def test_a_count_is_refused_like_the_positions_it_stands_for(count: int, limit: int) -> None:
    """A count n stands for the positions 0 .. n - 1: past ``limit`` it is refused as the
    array of those positions is, naming the last one, n - 1 (a count just within passes)."""
    messages = []
    for value in (count, np.arange(count)):
        with pytest.raises(ValueError, match="must lie within") as caught:
            _validate.integer_positions("positions", value, limit=limit)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[0].endswith(f"got {count - 1}")
    assert _validate.integer_positions("positions", limit + 1, limit=limit)[-1] == limit


def test_the_cap_is_documented_and_used() -> None:
    assert pe.MAX_BYTES == 2**30
    width = 2**17  # a float64 table needs 8 + 4 (working space) bytes an entry
    rows = pe.MAX_BYTES // (12 * width)
    with allocation_limit(), pytest.raises(ValueError, match=r"pe\.MAX_BYTES"):
        pe.sinusoidal(rows + 1, width)
    assert pe.sinusoidal(1, width).shape == (1, width)


# --------------------------------------------------------------------------------------------
# The command line.


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``pe ARGV`` in process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def assert_usage_error(status: int, out: str, err: str) -> None:
    assert status == 2, (out, err)
    assert out == ""
    lines = err.strip().split("\n")  # not splitlines(): echoed input may hold \x1e etc.
    assert lines[0].startswith("usage: pe"), err
    assert lines[-1].startswith("pe"), err
    assert ": error: " in lines[-1], err
    assert "Traceback" not in err


def subcommands() -> list[str]:
    parser = cli.build_parser()
    for action in parser._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            return list(action.choices)
    return []


def _npy_header_bytes(shape: tuple[int, ...], descr: str = "<f8") -> bytes:
    """A valid .npy header declaring ``shape`` (the data is up to the caller)."""
    buffer = io.BytesIO()
    header = {"descr": descr, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue()


def _safetensors_bytes(header: object, data: bytes = b"", length: int | None = None) -> bytes:
    """A .safetensors file: the 8-byte header length, the JSON header, the data."""
    text = json.dumps(header).encode() if not isinstance(header, bytes) else header
    return (len(text) if length is None else length).to_bytes(8, "little") + text + data


def _npz_bytes(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def _unicode(text: str) -> bytes:
    raw = text.encode()
    return b"X" + len(raw).to_bytes(4, "little") + raw


def _torch_pickle(
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    *,
    offset: int = 0,
    numel: int | None = None,
    storage: str = "FloatStorage",
) -> bytes:
    """The pickle torch.save writes for ``{"w": tensor}``, written opcode by opcode here."""
    declared = math.prod(shape) if numel is None else numel
    persistent = (
        b"(" + _unicode("storage") + f"ctorch\n{storage}\n".encode() + _unicode("0")
        + _unicode("cpu") + pickle_int(declared) + b"tQ"
    )  # fmt: skip
    tensor = (
        b"ctorch._utils\n_rebuild_tensor_v2\n(" + persistent + pickle_int(offset) + pickle_ints(shape)
        + pickle_ints(strides) + b"\x89ccollections\nOrderedDict\n)RtR"
    )  # fmt: skip
    return b"\x80\x02}" + _unicode("w") + tensor + b"s."


def _torch_zip(
    pickle_bytes: bytes, storage: bytes = b"", *, compress: int = zipfile.ZIP_STORED
) -> bytes:
    """A torch.save-style zip archive: archive/data.pkl and one storage, archive/data/0."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", pickle_bytes, compress_type=compress)
        archive.writestr("archive/data/0", storage)
        archive.writestr("archive/version", "3\n")
    return buffer.getvalue()


def _two_archives() -> bytes:
    """Two well-formed torch.save folders in one zip: which one to read is not decidable."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for root in ("first", "second"):
            archive.writestr(f"{root}/data.pkl", _torch_pickle((64, 8), (8, 1)))
            archive.writestr(f"{root}/data/0", _TABLE32)
    return buffer.getvalue()


class _Runs:
    """An object whose pickle calls a function when loaded (what a hostile file does)."""

    def __init__(self, call: Any, *args: Any) -> None:
        self.call, self.args = call, args

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.call, self.args)


#: A command that would leave a file behind if a pickle were ever run.
PWNED = "pe_pwned_marker"
_TABLE32 = pe.sinusoidal(64, 8, dtype=np.float32).tobytes()


TENSOR = {"dtype": "F32", "shape": [64, 8], "data_offsets": [0, 2048]}

# Files for `pe identify`: written into the working directory by the test.
IDENTIFY_FILES: dict[str, Callable[[Path], object]] = {
    "empty.npy": lambda path: path.write_bytes(b""),
    "garbage.npy": lambda path: path.write_bytes(b"\x93NUMPY\x01\x00garbage" + bytes(40)),
    "text.npy": lambda path: path.write_text("not an array at all\n"),
    "truncated.npy": lambda path: path.write_bytes(_npy_bytes(np.zeros((64, 8)))[:200]),
    "vector.npy": lambda path: np.save(path, np.zeros(64)),
    "scalar.npy": lambda path: np.save(path, np.float64(1.0)),
    "strings.npy": lambda path: np.save(path, np.array([["a", "b"]] * 64)),
    "objects.npy": lambda path: np.save(path, np.array([[None, 1]] * 64, dtype=object)),
    "empty-table.npy": lambda path: np.save(path, np.zeros((0, 8))),
    "complex.npy": lambda path: np.save(path, np.zeros((64, 8), dtype=complex)),
    "3d.npy": lambda path: np.save(path, np.arange(4 * 64 * 8.0).reshape(4, 64, 8) / 4096),
    "4d.npy": lambda path: np.save(path, np.zeros((1, 1, 64, 8))),
    # declared shapes far above pe.MAX_BYTES, or just under it with no data: nothing loaded
    "huge.npy": lambda path: path.write_bytes(_npy_header_bytes((2**40, 2**20)) + bytes(64)),
    "huge-under-cap.npy": lambda path: path.write_bytes(_npy_header_bytes((2**24, 8)) + bytes(64)),
    "huge-sparse.npy": lambda path: _sparse(path, _npy_header_bytes((2**28, 2)), 2**32 + 128),
    "huge-sparse.safetensors": lambda path: _sparse(
        path,
        _safetensors_bytes(
            {"t": {"dtype": "BF16", "shape": [2**20, 2**9], "data_offsets": [0, 2**30]}}
        ),
        2**30 + 128,
    ),
    "sizeless.npy": lambda path: path.write_bytes(_npy_header_bytes((64, 8), "|V0")),
    "pickle.npy": lambda path: path.write_bytes(_npy_header_bytes((64, 8), "|O") + bytes(64)),
    "empty.npz": lambda path: path.write_bytes(b""),
    "garbage.npz": lambda path: path.write_bytes(b"PK\x03\x04" + bytes(200)),
    "truncated.npz": lambda path: path.write_bytes(_npz_bytes(table=np.zeros((64, 8)))[:300]),
    "pickled.npz": lambda path: np.savez(path, np.array([[None, 1]] * 64, dtype=object)),
    "no-members.npz": np.savez,
    "huge.npz": lambda path: path.write_bytes(_npz_with("t.npy", _npy_header_bytes((2**40, 8)))),
    "several.npz": lambda path: np.savez(path, a=np.zeros((64, 8)), b=np.zeros((64, 8))),
    "short.safetensors": lambda path: path.write_bytes(b"\x10\x00\x00"),
    "long-header.safetensors": lambda path: path.write_bytes(_safetensors_bytes({}, length=2**63)),
    "big-header.safetensors": lambda path: _sparse(
        path, (20_000_000).to_bytes(8, "little"), 20_000_100
    ),
    "bad-json.safetensors": lambda path: path.write_bytes(_safetensors_bytes(b"{not json")),
    "not-utf8.safetensors": lambda path: path.write_bytes(_safetensors_bytes(b'{"\xff": 1}')),
    "list.safetensors": lambda path: path.write_bytes(_safetensors_bytes([1, 2])),
    "deep.safetensors": lambda path: path.write_bytes(_safetensors_bytes(b"[" * 100_000)),
    "bad-entry.safetensors": lambda path: path.write_bytes(
        _safetensors_bytes({"t": {**TENSOR, "shape": [-64, 8]}}, bytes(2048))
    ),
    "mismatch.safetensors": lambda path: path.write_bytes(
        _safetensors_bytes({"t": {**TENSOR, "data_offsets": [0, 1000]}}, bytes(2048))
    ),
    "truncated.safetensors": lambda path: path.write_bytes(
        _safetensors_bytes({"t": TENSOR}, bytes(1000))
    ),
    "huge.safetensors": lambda path: path.write_bytes(
        _safetensors_bytes(
            {"t": {"dtype": "F32", "shape": [2**40, 2**20], "data_offsets": [0, 2**62]}}
        )
    ),
    "ints.safetensors": lambda path: path.write_bytes(
        _safetensors_bytes({"t": {**TENSOR, "dtype": "I32"}}, bytes(2048))
    ),
    "several.safetensors": lambda path: path.write_bytes(
        _safetensors_bytes(
            {"a": TENSOR, "b": {**TENSOR, "data_offsets": [2048, 4096]}}, bytes(4096)
        )
    ),
    "table.txt": lambda path: path.write_text("0.0 1.0\n"),
    # PyTorch files: pickles that would run code, and tensors that lie about their storage
    "runs-a-command.pt": lambda path: path.write_bytes(
        _torch_zip(pickle.dumps({"w": _Runs(os.system, f"touch {PWNED}")}, protocol=2))
    ),
    "runs-eval.bin": lambda path: path.write_bytes(
        _torch_zip(pickle.dumps({"w": _Runs(eval, "print('ran')")}, protocol=4))
    ),
    "imports-os.pth": lambda path: path.write_bytes(_torch_zip(b"\x80\x02cos\nsystem\n.")),
    "legacy.bin": lambda path: path.write_bytes(pickle.dumps({"w": 1}, protocol=2)),
    "not-torch.pt": lambda path: path.write_bytes(_npz_with("t.npy", _npy_bytes(np.zeros(4)))),
    "compressed.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (8, 1)), _TABLE32, compress=zipfile.ZIP_DEFLATED)
    ),
    "past-storage.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (9, 1)), _TABLE32)
    ),
    "offset-past.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (8, 1), offset=1), _TABLE32)
    ),
    "negative-offset.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (8, 1), offset=-1), _TABLE32)
    ),
    "short-storage.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (8, 1)), _TABLE32[:100])
    ),
    "huge-storage.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((2**40, 2**20), (2**20, 1), numel=2**60), _TABLE32)
    ),
    "strides-mismatch.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (8,)), _TABLE32)
    ),
    "int-storage.pt": lambda path: path.write_bytes(
        _torch_zip(_torch_pickle((64, 8), (8, 1), storage="IntStorage"), _TABLE32)
    ),
    "garbage-pickle.pt": lambda path: path.write_bytes(_torch_zip(b"\x80\x02garbage")),
    "two-archives.pt": lambda path: path.write_bytes(_two_archives()),
}


def _sparse(path: Path, head: bytes, size: int) -> None:
    """``head``, then zeros up to ``size`` bytes, as a sparse file (no disk space used)."""
    with path.open("wb") as file:
        file.write(head)
        file.truncate(size)


def _npz_with(member: str, content: bytes) -> bytes:
    """A zip archive holding ``member`` with ``content`` (e.g. a header and no data)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(member, content)
    return buffer.getvalue()


USER_MODULE = """
import numpy as np

def raises(n, d):
    raise RuntimeError("user code failed")

def wrong_shape(n, d):
    return np.zeros((n + 1, d))

def not_an_array(n, d):
    return "table"

def no_arguments():
    return np.zeros((4, 4))

value = 3
"""


def _npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


CLI_CASES = [
    # pe itself
    [],
    ["nonsense"],
    ["--d-model", "8"],
    # pe prove
    *[
        ["prove", "--d-model", width]
        for width in ("0", "-8", "7", "8.0", "nan", "inf", "eight", "", "514", str(10**30))
    ],
    ["prove", "--d-model"],
    ["prove", "extra"],
    # pe check
    *[["check", "--d-model", width] for width in ("0", "-2", "9", "1e3", "nan", str(10**30))],
    ["check", "--d-model", "1000000", "--positions", "1000"],
    *[["check", "--positions", count] for count in ("0", "-1", "2.5", "inf", str(10**12))],
    *[["check", "--offsets", count] for count in ("0", "nan", str(10**9))],
    *[["check", "--base", base] for base in ("1", "0.5", "-10", "nan", "inf", "1e309", "ten")],
    *[["check", "--dtype", dtype] for dtype in ("float16", "int32", "")],
    ["check", "--unknown"],
    # pe verify
    ["verify", "extra"],
    ["verify", "--json=yes"],
    # pe identify (files written by the test; functions from a module it writes)
    ["identify"],
    ["identify", "missing.npy"],
    *[["identify", name] for name in IDENTIFY_FILES],
    ["identify", "several.npz", "--tensor", "nothing"],
    ["identify", "several.safetensors", "--tensor", "nothing"],
    ["identify", "garbage.npy", "--tensor", "t"],
    ["identify", "pe_hostile_user:raises", "--n", "64", "--d", "8", "--tensor", "t"],
    *[
        ["identify", source, "--n", "64", "--d", "8"]
        for source in (
            "no_such_module_for_pe:f",
            "pe_hostile_user:no_such_function",
            "pe_hostile_user:raises",
            "pe_hostile_user:wrong_shape",
            "pe_hostile_user:not_an_array",
            "pe_hostile_user:no_arguments",
            "pe_hostile_user:value",
            "pe_hostile_user:",
            ":raises",
        )
    ],
    ["identify", "pe_hostile_user:wrong_shape", "--n", "0", "--d", "8"],
    ["identify", "pe_hostile_user:wrong_shape", "--n", "-5", "--d", "8"],
    ["identify", "pe_hostile_user:wrong_shape", "--n", "nan", "--d", "8"],
    ["identify", "pe_hostile_user:wrong_shape", "--n", "64", "--d", "7"],
    ["identify", "pe_hostile_user:wrong_shape", "--n", str(10**12), "--d", str(10**12)],
]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory holding the identify inputs and a user module."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for name, write in IDENTIFY_FILES.items():
        write(inputs / name)
    (inputs / "pe_hostile_user.py").write_text(textwrap.dedent(USER_MODULE))
    work = tmp_path / "work"
    work.mkdir()
    for name in IDENTIFY_FILES:
        (work / name).symlink_to(inputs / name)
    monkeypatch.chdir(work)
    monkeypatch.syspath_prepend(str(inputs))
    sys.modules.pop("pe_hostile_user", None)
    return work


@pytest.mark.parametrize("argv", CLI_CASES, ids=lambda argv: " ".join(argv) or "(nothing)")
def test_the_cli_refuses_bad_arguments(argv: list[str], workdir: Path) -> None:
    before = sorted(os.listdir(workdir))
    with allocation_limit():
        status, out, err = run_cli(argv)
    assert_usage_error(status, out, err)
    if argv[:1] and argv[0] in subcommands():  # refused by the subcommand, not as unknown
        assert f"invalid choice: {argv[0]!r}" not in err
    assert len(err.strip().split("\n")) <= 4  # the usage (wrapped) and the error
    assert sorted(os.listdir(workdir)) == before  # no partial output file


def test_the_hand_built_torch_file_reads_when_well_formed(tmp_path: Path) -> None:
    """The hostile PyTorch files differ from this one in one field each."""
    path = tmp_path / "ok.pt"
    path.write_bytes(_torch_zip(_torch_pickle((64, 8), (8, 1)), _TABLE32))
    assert cli.main(["identify", str(path)]) == 0
    view = tmp_path / "view.pt"  # a transposed view, and an offset inside the storage
    view.write_bytes(_torch_zip(_torch_pickle((8, 60), (1, 8), offset=32, numel=512), _TABLE32))
    loaded = load_table(str(view))
    assert np.array_equal(loaded.array, pe.sinusoidal(64, 8, dtype=np.float32)[4:].T)


def test_a_zip_without_one_archive_folder_is_not_a_checkpoint(workdir: Path) -> None:
    """torch.save writes one ARCHIVE/data.pkl: two such folders (each readable alone) or
    none are refused, and the message counts them."""
    del workdir
    for name, count in (("two-archives.pt", "2"), ("not-torch.pt", "no")):
        status, out, err = run_cli(["identify", name])
        assert_usage_error(status, out, err)
        assert f"not a PyTorch checkpoint ({count} ARCHIVE/data.pkl in the zip" in err, err


def test_a_pickle_that_would_run_a_command_runs_nothing(workdir: Path) -> None:
    for name in ("runs-a-command.pt", "runs-eval.bin", "imports-os.pth"):
        status, out, err = run_cli(["identify", name, "--tensor", "w"])
        assert_usage_error(status, out, err)
        assert "which is not part of a state dict" in err
        assert out == ""
    assert not (workdir / PWNED).exists()
    assert "system" in run_cli(["identify", "runs-a-command.pt"])[2]


# --------------------------------------------------------------------------------------------
# Property tests.

sizes = st.one_of(
    st.integers(-5, 300),
    st.sampled_from([0, 1, 7, 2**40, 2**64, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
)
bases = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**6), 10**6),
    st.sampled_from([1, 10**400, "10000", None, True]),
)
dtypes = st.sampled_from(
    [np.float16, np.float32, np.float64, "float32", None, "int8", np.uint8, complex, "f8,f8"]
)


def _one_line_error(error: Exception) -> None:
    assert isinstance(error, ValueError | TypeError), repr(error)
    assert "\n" not in str(error)
    assert str(error)


@settings(max_examples=300, deadline=None)
@given(n=sizes, d=sizes, base=bases, dtype=dtypes)
def test_sinusoidal_returns_a_valid_table_or_a_clean_error(
    n: Any, d: Any, base: Any, dtype: Any
) -> None:
    try:
        with allocation_limit(64 * 2**20):
            table = pe.sinusoidal(n, d, base=base, dtype=dtype)
    except (ValueError, TypeError) as error:
        _one_line_error(error)
        return
    assert table.shape == (n, d)
    assert table.dtype in (np.float16, np.float32, np.float64)
    assert np.all(np.abs(table) <= 1)
    # Valid only if every argument was valid.
    assert isinstance(n, int)
    assert isinstance(d, int)
    assert d % 2 == 0
    assert n > 0
    assert math.isfinite(float(base))
    assert float(base) > 1


@settings(max_examples=300, deadline=None)
@given(
    k=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.none()),
    d=sizes,
    base=bases,
    rows=st.sampled_from(
        # float16/float32 rows are left out: pe.shift casts the angles k * w_i to the rows'
        # dtype, which overflows for |k| > 65504 (float16) and gives NaN (reported).
        [np.zeros((2, 8)), np.zeros((3, 5)), np.zeros((2, 4), dtype=int), [[1, 2]], "x"]
    ),
)
def test_shifts_return_finite_values_or_a_clean_error(k: Any, d: Any, base: Any, rows: Any) -> None:
    for call in (lambda: pe.shift_matrix(k, d, base=base), lambda: pe.shift(rows, k, base=base)):
        try:
            with allocation_limit(64 * 2**20):
                result = call()
        except (ValueError, TypeError) as error:
            _one_line_error(error)
            continue
        assert np.all(np.isfinite(result))


@settings(max_examples=200, deadline=None)
@given(
    d=st.sampled_from([2, 4, 8, 7, 0, -2, 2.0, "8", 2**40]),
    positions=st.one_of(sizes, st.lists(st.integers(-(2**63), 2**63 - 1), max_size=4)),
    offsets=st.one_of(sizes, st.lists(st.integers(-(2**63), 2**63 - 1), max_size=4)),
    dtype=dtypes,
)
def test_check_passes_or_refuses_cleanly(d: Any, positions: Any, offsets: Any, dtype: Any) -> None:
    try:
        with allocation_limit(64 * 2**20):
            result = pe.check_rotation_identity(d, positions, offsets, dtype=dtype)
    except (ValueError, TypeError) as error:
        _one_line_error(error)
        return
    assert result.passed, result.summary()  # the true T_k passes on every valid input


TOKENS = [
    "0", "-1", "2", "4", "8", "7", "1.5", "nan", "inf", "-inf", "1e3", "1e309", "abc", "",
    " ", "0x10", "99999999999999999999", "float16", "float32", "float64", "--", "-x",
]  # fmt: skip
OPTIONS = {
    "prove": ["--d-model"],
    "check": ["--d-model", "--positions", "--offsets", "--dtype", "--base"],
}


# Random text without digits (any script's): a random digit string could ask for a valid
# but slow run, such as a width of 8000.
NON_DIGITS = st.text(st.characters(blacklist_categories=("Nd", "Cs")), max_size=5)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A subcommand (or garbage) and a few options with values from a hostile pool."""
    command = draw(st.sampled_from([*OPTIONS, "verify", "bogus", "--d-model"]))
    argv = [command]
    for _ in range(draw(st.integers(0, 3))):
        option = draw(st.sampled_from([*OPTIONS.get(command, ["--json"]), "--nope"]))
        argv.append(option)
        if draw(st.booleans()) or option != "--json":
            argv.append(draw(st.one_of(st.sampled_from(TOKENS), NON_DIGITS)))
    if command == "verify":  # only its argument handling: running every claim is not fuzzed
        argv.append("unexpected")
    if command == "check":  # every value above is parsed; the last occurrence keeps runs small
        argv += ["--positions", "16", "--offsets", "4"]
    return argv


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(argv=command_lines())
def test_the_cli_exits_cleanly_on_any_command_line(argv: list[str], tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with allocation_limit(256 * 2**20):
            status, out, err = run_cli(argv)
        assert os.listdir(tmp_path) == []
    finally:
        os.chdir(cwd)
    assert "Traceback" not in err
    if status == 2:
        assert_usage_error(status, out, err)
    else:
        assert status in (0, 1), (argv, status, err)
        assert err == "", (argv, err)


@pytest.mark.parametrize("elements", [2**80, 10**30, 3 * 10**40])
def test_an_absurd_size_is_refused_with_its_order_of_magnitude(elements: int) -> None:
    """Above 10^6 GiB the refusal gives the size's power of ten in GiB (an exact integer
    count, no float overflow): floor(log10(bytes / 2^30)), computed here with integers."""
    gib = elements * 8 // 2**30
    with pytest.raises(ValueError, match=rf"asks for about 1e{len(str(gib)) - 1} GiB,") as refused:
        _validate.capped_elements("x", elements, 8)
    assert 10 ** (len(str(gib)) - 1) <= gib < 10 ** len(str(gib))  # the exponent's meaning
    assert f"1e{math.floor(math.log10(elements * 8 / 2**30))} GiB" in str(refused.value)


@pytest.mark.parametrize(("dtype", "itemsize", "widened"), [("F32", 4, 0), ("BF16", 2, 4)])
def test_a_safetensors_tensor_is_capped_at_what_reading_it_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dtype: str, itemsize: int, widened: int
) -> None:
    """A float32 tensor costs its 4 bytes an element; a bfloat16 one its 2 bytes plus the 4
    of the float32 it is widened to. Read with pe.MAX_BYTES at exactly that, refused one
    byte under it."""
    table = pe.sinusoidal(64, 8, dtype=np.float32)
    bits = table.view(np.uint32)
    data = table.tobytes() if dtype == "F32" else (bits >> 16).astype("<u2").tobytes()
    header = {"t": {"dtype": dtype, "shape": [64, 8], "data_offsets": [0, len(data)]}}
    path = tmp_path / "table.safetensors"
    path.write_bytes(_safetensors_bytes(header, data))
    needed = 64 * 8 * (itemsize + widened)
    monkeypatch.setattr(pe._validate, "MAX_BYTES", needed)
    assert load_table(str(path)).array.shape == (64, 8)
    monkeypatch.setattr(pe._validate, "MAX_BYTES", needed - 1)
    with pytest.raises(ValueError, match=r"pe\.MAX_BYTES"):
        load_table(str(path))


def test_an_unreadable_table_is_named_with_numpy_s_reason_cut_to_120_characters() -> None:
    """The reason NumPy gives is quoted on one line and cut, so that the message stays short
    whatever the input: its first 120 characters, no more and no fewer."""
    ragged = [[1.0], [1.0, 2.0]]
    with pytest.raises(ValueError, match="inhomogeneous") as refused:
        np.asarray(ragged)
    reason = " ".join(str(refused.value).split())
    assert len(reason) > 121
    with pytest.raises(TypeError) as error:
        pe.identify(ragged)
    assert str(error.value).endswith(f"not readable as an array of numbers: {reason[:120]}")


@pytest.mark.parametrize("missing", [1, 8, 2048 - 64])
def test_a_safetensors_file_short_by_any_number_of_bytes_is_truncated(
    tmp_path: Path, missing: int
) -> None:
    """The data after the 8-byte length and the header must hold the whole tensor: one byte
    short is as truncated as most of it gone, and the message says how much is there."""
    path = tmp_path / "short.safetensors"
    path.write_bytes(_safetensors_bytes({"t": TENSOR}, bytes(2048 - missing)))
    with pytest.raises(ValueError, match=rf"truncated: .* which holds {2048 - missing}$"):
        load_table(str(path))


@pytest.mark.parametrize(("gib", "shown"), [(10**6 - 1, "999999.0 GiB"), (10**6, "about 1e6 GiB")])
def test_a_refused_size_is_written_in_gib_up_to_a_million(gib: int, shown: str) -> None:
    """Below a million GiB the size is written out; from there on, as a power of ten."""
    from pe import _validate

    assert _validate._gibibytes(gib * 2**30) == shown
