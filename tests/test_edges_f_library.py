"""Edges the earlier edge files left open in the library, found by tool-made mutants.

Each test names the fault kind it catches: a precision bound that stops scaling with the
gain, a conversion tolerance that stops being tight, the phase of a lone column or of a
slow falling column read at another row than its first live one, a malformed
``.safetensors`` file that escapes as the reader's own exception, and a T5 bucket check
that stops looking at relative position 0.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pe import _rope_probe, relative, rotary
from pe.identify import _fit, _safetensors, identify

from .helpers import quarter_turns

EPS32 = 2.0**-23


@pytest.mark.parametrize(
    ("gain", "k", "precision"),
    [
        # the gains' spread is gain * k * 2^-23; float32's bound is 8 * 2^-23 * max(gain, 1)
        (4.0, 4, "float32"),  # 16 units against 32: inside
        (4.0, 8, "float32"),  # 32 against 32: on the edge
        (4.0, 9, "float16"),  # 36 against 32: outside
        (0.25, 32, "float32"),  # 8 units against 8 (a gain below 1 counts as 1)
        (0.25, 36, "float16"),  # 9 against 8
    ],
)
def test_the_coarser_precision_bound_scales_with_a_gain_above_one_only(
    gain: float, k: int, precision: str
) -> None:
    """Fault caught: the float32/float16 spread bound of unequal gains no longer multiplied
    by max(gain, 1) (taken modulo the gain, or by the gain below 1), so a rotation times 4
    computed in float32 is called float16."""
    fn = quarter_turns(1.0 + k * EPS32, gain=gain)
    with pytest.raises(AssertionError, match=f"exact only to {precision} precision"):
        _rope_probe.probe(fn, 8, None)


def _nudged(relative_error: float) -> rotary.Conversion:
    """A conversion that permutes both matrices and scales the query's by 1 + error."""

    def convert(permute: Callable[[Any], Any], w_q: Any, w_k: Any) -> tuple[Any, Any]:
        q, k = rotary.permute_both(permute, w_q, w_k)
        return np.asarray(q) * (1.0 + relative_error), k

    return convert


@pytest.mark.parametrize("d", [8, 64])
def test_the_conversion_tolerance_accepts_the_right_conversion_and_not_one_off_by_1e_11(
    d: int,
) -> None:
    """Fault caught: the conversion tolerance made loose (its score bound inverted or
    scaled), so weights converted with a relative error of 1e-11 pass as converted."""
    right = rotary.conversion_gap(rotary.permute_both, d)
    assert right.gap <= right.tolerance < 1e-11
    off = rotary.conversion_gap(_nudged(1e-11), d)
    # every score scales by 1 + 1e-11: the relative gap is 1e-11 up to rounding
    assert off.gap == pytest.approx(1e-11, rel=1e-3, abs=0.0)
    assert off.gap > off.tolerance


def _paper_rows(first: int, n: int, d: int) -> npt.NDArray[np.float64]:
    """The paper's table at positions first .. first + n - 1, interleaved sin, cos."""
    p = np.arange(first, first + n, dtype=np.float64)[:, None]
    w = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(p * w), np.cos(p * w)
    return table


@pytest.mark.parametrize(("lone", "kind"), [(np.sin, "sine"), (np.cos, "cosine")])
@pytest.mark.parametrize(("first", "w"), [(3, 0.9), (7, 0.4), (20, 0.9)])
def test_a_lone_column_of_a_table_from_a_later_position_is_named_by_its_phase(
    lone: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]],
    kind: str,
    first: int,
    w: float,
) -> None:
    """Fault caught: the lone column's phase compared with the cosine's pi/2 after another
    operation than the subtraction of the offset's angle, so that a fast cosine in a table
    starting past position 0 is called a sine."""
    p = np.arange(first, first + 64, dtype=np.float64)
    table = np.empty((64, 17))
    table[:, :16] = _paper_rows(first, 64, 16)
    table[:, 16] = lone(w * p)
    found = identify(table)
    assert found.position_offset == first
    prefix = f"the width d = 17 is odd: column 16 is a {kind} without a partner"
    assert any(x.startswith(prefix) for x in found.notes), found.notes


@pytest.mark.parametrize("psi", [0.3, math.pi / 2, 2.5, -2.0, -0.7])
@pytest.mark.parametrize("dead", [1, 3])
def test_a_slow_column_s_phase_is_read_from_its_first_live_row(psi: float, dead: int) -> None:
    """Fault caught: the falling branch of a slow column's phase (pi minus the arcsine,
    moved back by twice the first live row's angle) computed with another factor, which
    only shows when the table's first rows are dead."""
    m = 200
    r = np.arange(m, dtype=np.float64)
    rows = np.ones(m)
    rows[:dead] = 0.0
    w = np.array([1e-3, 2e-3])  # w * m < 0.5: the slow branch
    x = np.sin(np.multiply.outer(r, w) + psi) * rows[:, None]
    found = _fit._phase(x, r, rows, w)
    miss = np.angle(np.exp(1j * (found - psi)))  # the difference wrapped into (-pi, pi]
    # one arcsine of a value exact to 1 ulp: far below 1e-12 at these angles
    assert np.abs(miss).max() < 1e-12


def _write_safetensors(path: Path, header: dict[str, object], data: bytes) -> None:
    """A .safetensors file per the format: 8-byte little-endian length, JSON, data."""
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


TABLE = {"dtype": "F32", "shape": [16, 2]}
BYTES = bytes(128)


@pytest.mark.parametrize(
    ("header", "data"),
    [
        ({"a": {**TABLE, "data_offsets": [8, 136]}}, bytes(8) + BYTES),  # a gap first
        ({"a": {**TABLE, "data_offsets": [0, 128]}}, BYTES + bytes(8)),  # bytes left over
        (
            {"a": {**TABLE, "data_offsets": [0, 128]}, "b": {**TABLE, "data_offsets": [0, 128]}},
            BYTES,
        ),  # two tensors on the same bytes
        ({"__metadata__": {"x": 1}, "a": {**TABLE, "data_offsets": [0, 128]}}, BYTES),
    ],
    ids=["gap", "trailing", "overlap", "metadata-not-text"],
)
def test_a_file_the_safetensors_reader_refuses_is_a_one_line_value_error(
    tmp_path: Path, header: dict[str, object], data: bytes
) -> None:
    """Fault caught: the safetensors library's own SafetensorError (offsets that leave a
    gap, overlap or bytes over; metadata that is not text) let through as a traceback
    instead of pe's ValueError naming the file."""
    path = tmp_path / "bad.safetensors"
    _write_safetensors(path, header, data)
    with pytest.raises(ValueError, match=r"^bad: not a readable \.safetensors file \("):
        _safetensors.load_safetensors_file(path, "bad", "a")


def _t5_but_zero_in(bucket: int) -> Callable[..., npt.NDArray[np.int64]]:
    """T5's bucketing with relative position 0 moved into ``bucket``."""

    def fn(rel: npt.ArrayLike, **kw: Any) -> npt.NDArray[np.int64]:
        out = np.asarray(relative.t5_bucket(rel, **kw), dtype=np.int64).copy()
        out[np.asarray(rel) == 0] = bucket
        return out

    return fn


@pytest.mark.parametrize("bidirectional", [False, True])
def test_t5_bucket_properties_look_at_relative_position_0(bidirectional: bool) -> None:
    """Fault caught: the decoder's side of T5's properties taken as rel < 0 instead of
    rel <= 0, so a bucketing that sends the query's own position to the far bucket passes."""
    assert relative.t5_bucket_properties(bidirectional=bidirectional)[0]
    far = 15 if bidirectional else 31
    ok, detail = relative.t5_bucket_properties(_t5_but_zero_in(far), bidirectional=bidirectional)
    assert not ok
    assert "monotone: NO" in detail
