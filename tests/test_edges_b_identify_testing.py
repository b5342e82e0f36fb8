"""Edges of ``pe identify``'s readers, fit, law and result, of :mod:`pe.testing`, of the
RoPE probe, of :mod:`pe.identify_accuracy` and of the command line's argument types.

Each test places an input just inside and just outside one guard or threshold (a zero
row in the middle of the fitted window, a header entry with a wrong offset count among
valid ones, a nested ``data.pkl`` in a torch archive, a value 8 epsilons beyond 1, a
rotation's gain 8 epsilons off, a base 1e-9 relative from 10000, a count at its limit) or
checks that a message names the right thing (the dtype of a unit roundoff, the row and
column, the parameter that differs). Expected values come from the formulas, written
here. Files are written into ``tmp_path`` with the standard library and NumPy (torch
archives opcode by opcode); no pickle is ever loaded by :mod:`pickle`.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pe import _rope_probe, cli, identify_accuracy, testing
from pe.conventions import Convention
from pe.identify import (
    _explain,
    _fit,
    _law,
    _result,
    _safetensors,
    _tensors,
    _torch,
    identify,
    load_table,
)
from pe.identify import _inputs as identify_inputs
from pe.identify._files import list_tensors

from .helpers import pickle_int, pickle_ints, quarter_turns


def paper_table(n: int, d: int, offset: int = 0) -> npt.NDArray[np.float64]:
    """The paper's table from its formula: sin/cos(p * 10000^(-2i/d)), interleaved."""
    p = np.arange(offset, offset + n, dtype=np.float64)[:, None]
    w = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    table = np.empty((n, d))
    table[:, 0::2] = np.sin(p * w)
    table[:, 1::2] = np.cos(p * w)
    return table


# --- zero (padding) rows inside the fitted window -------------------------------------


@pytest.mark.parametrize("row", [2, 5, 17, 29])
def test_a_zero_row_in_the_middle_of_the_first_window_is_ignored(row: int) -> None:
    """Fault caught: the mask of three consecutive live rows (Prony's estimate) computed
    wrongly, so that a padding row at row >= 2 of the first 32 rows poisons the start."""
    table = paper_table(64, 16)
    table[row] = 0.0
    found = identify(table)
    assert found.is_encoding, found.reason
    assert found.padding_rows == (row,)
    assert (found.layout, found.order, found.law, found.position_offset) == (
        "interleaved",
        "sin-first",
        "paper",
        0,
    )
    expected = 10000.0 ** (-2.0 * np.arange(8) / 16)
    np.testing.assert_allclose(found.sin_frequencies, expected, rtol=1e-9)
    assert found.base == pytest.approx(10000.0, rel=1e-6, abs=0.0)


def test_two_zero_rows_are_padding_and_three_are_refused() -> None:
    """Fault caught: the count of zero rows accepted (two) moved by one either way."""
    two = paper_table(64, 16)
    two[[3, 40]] = 0.0
    found = identify(two)
    assert found.is_encoding, found.reason
    assert found.padding_rows == (3, 40)
    three = paper_table(64, 16)
    three[[3, 9, 40]] = 0.0
    refused = identify(three)
    assert not refused.is_encoding
    assert refused.reason == "not a sinusoidal encoding: 3 rows are all zeros (rows 3, 9, 40)"


def test_zero_rows_listed_up_to_five_then_an_ellipsis() -> None:
    """Fault caught: the list of zero rows cut at another count, or the ellipsis shown
    for five rows or missing for six."""
    five = paper_table(64, 16)
    five[[1, 2, 3, 4, 5]] = 0.0
    assert identify(five).reason == (
        "not a sinusoidal encoding: 5 rows are all zeros (rows 1, 2, 3, 4, 5)"
    )
    six = paper_table(64, 16)
    six[[1, 2, 3, 4, 5, 6]] = 0.0
    assert identify(six).reason == (
        "not a sinusoidal encoding: 6 rows are all zeros (rows 1, 2, 3, 4, 5, ...)"
    )


# --- .safetensors header entries: one bad entry among valid ones -----------------------


def write_safetensors(path: Path, header: dict[str, object], data: bytes) -> None:
    """A .safetensors file per the format: 8-byte little-endian length, JSON, data."""
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + data)


def table_entries(table: npt.NDArray[np.float32]) -> tuple[dict[str, object], bytes]:
    """A header holding ``table`` as F32 under "pos" and a small F32 "bias" after it."""
    raw = table.astype("<f4").tobytes()
    bias = np.arange(4, dtype="<f4").tobytes()
    header: dict[str, object] = {
        "__metadata__": {"format": "pt"},
        "pos": {"dtype": "F32", "shape": list(table.shape), "data_offsets": [0, len(raw)]},
        "bias": {"dtype": "F32", "shape": [4], "data_offsets": [len(raw), len(raw) + 16]},
    }
    return header, raw + bias


BAD_ENTRIES: dict[str, object] = {
    "three offsets": {"dtype": "F32", "shape": [4], "data_offsets": [0, 8, 16]},
    "one offset": {"dtype": "F32", "shape": [4], "data_offsets": [16]},
    "float offset": {"dtype": "F32", "shape": [4], "data_offsets": [0.0, 16]},
    "bool offset": {"dtype": "F32", "shape": [4], "data_offsets": [0, True]},
    "offsets not a list": {"dtype": "F32", "shape": [4], "data_offsets": "0,16"},
    "no offsets": {"dtype": "F32", "shape": [4]},
    "dtype not a string": {"dtype": 4, "shape": [4], "data_offsets": [0, 16]},
    "shape not a list": {"dtype": "F32", "shape": 4, "data_offsets": [0, 16]},
    "negative dimension": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]},
    "float dimension": {"dtype": "F32", "shape": [4.0], "data_offsets": [0, 16]},
    "bool dimension": {"dtype": "F32", "shape": [True, 4], "data_offsets": [0, 16]},
    "not an object": [0, 16],
}


@pytest.mark.parametrize("kind", list(BAD_ENTRIES))
def test_one_malformed_entry_among_valid_ones_is_named(tmp_path: Path, kind: str) -> None:
    """Fault caught: one field check of a header entry dropped or joined by ``or``, so that
    a bad entry among valid ones gets through (or fails later with another message)."""
    header, data = table_entries(paper_table(64, 8).astype(np.float32))
    header["extra"] = BAD_ENTRIES[kind]
    path = tmp_path / "model.safetensors"
    write_safetensors(path, header, data)
    with pytest.raises(ValueError, match=r"tensor 'extra' has a malformed header entry"):
        load_table(str(path), "pos")
    with pytest.raises(ValueError, match=r"tensor 'extra' has a malformed header entry"):
        _safetensors.safetensors_tensors(path, str(path))


def test_valid_entries_beside_the_table_read_the_table(tmp_path: Path) -> None:
    """Fault caught: a valid header refused (the checks' inverse), or a zero-size tensor
    (shape with a 0, offsets equal) taken for a malformed one."""
    table = paper_table(64, 8).astype(np.float32)
    header, data = table_entries(table)
    end = len(data)
    header["empty"] = {"dtype": "F32", "shape": [0, 8], "data_offsets": [end, end]}
    path = tmp_path / "model.safetensors"
    write_safetensors(path, header, data)
    loaded = load_table(str(path), "pos")
    np.testing.assert_array_equal(loaded.array, table)
    assert loaded.stored_dtype == "float32"
    assert loaded.tensor == "pos"


def test_a_dtype_without_a_known_size_keeps_its_declared_span(tmp_path: Path) -> None:
    """Fault caught: the span of a dtype pe has no element size for (complex) checked
    against a size it does not know, refusing a header the format allows."""
    header: dict[str, object] = {
        "odd": {"dtype": "C64", "shape": [3], "data_offsets": [0, 5]},
        "b": {"dtype": "F32", "shape": [2], "data_offsets": [5, 13]},
    }
    path = tmp_path / "odd.safetensors"
    write_safetensors(path, header, bytes(13))
    tensors, _ = _safetensors.safetensors_tensors(path, "odd.safetensors")
    assert [(t.name, t.shape, t.dtype) for t in tensors] == [
        ("odd", (3,), "C64"),
        ("b", (2,), "F32"),
    ]


@pytest.mark.parametrize(
    ("offsets", "fits"),
    [
        ([0, 16], True),  # the exact span
        ([0, 15], False),  # one byte short
        ([0, 17], False),  # one byte long
        ([16, 16], False),  # empty range for 4 elements
        ([-16, 0], False),  # begins before the data
        ([8, 24], True),  # shifted, still inside
    ],
)
def test_an_entry_must_span_exactly_its_bytes(
    tmp_path: Path, offsets: list[int], fits: bool
) -> None:
    """Fault caught: the span check (0 <= begin <= end == begin + size) off by one byte or
    with a bound dropped."""
    header: dict[str, object] = {"b": {"dtype": "F32", "shape": [4], "data_offsets": offsets}}
    path = tmp_path / "b.safetensors"
    write_safetensors(path, header, bytes(32))
    if fits:
        (stored,) = _safetensors.safetensors_tensors(path, "b.safetensors")[0]
        assert stored.shape == (4,)
    else:
        with pytest.raises(ValueError, match=r"does not fit its bytes"):
            _safetensors.safetensors_tensors(path, "b.safetensors")


@pytest.mark.parametrize(("data", "ok"), [(16, True), (15, False)])
def test_an_entry_ending_at_the_last_byte_fits_and_one_past_is_truncated(
    tmp_path: Path, data: int, ok: bool
) -> None:
    """Fault caught: ``end > data_bytes`` made ``>=`` (a tensor ending on the last byte
    refused) or the truncation check dropped."""
    header: dict[str, object] = {"b": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}
    path = tmp_path / "b.safetensors"
    write_safetensors(path, header, bytes(data))
    if ok:
        assert _safetensors.safetensors_tensors(path, "x")[0][0].name == "b"
    else:
        with pytest.raises(ValueError, match=rf"ends at byte 16 of the data, which holds {data}"):
            _safetensors.safetensors_tensors(path, "x")


# --- torch.save zip archives, written opcode by opcode ---------------------------------


def _text(value: str) -> bytes:
    raw = value.encode()
    return b"X" + len(raw).to_bytes(4, "little") + raw  # BINUNICODE


def tensor_opcodes(
    key: str,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    *,
    numel: int,
    offset: int = 0,
    storage: str = "FloatStorage",
) -> bytes:
    """Opcodes that push what torch.save pickles for one tensor (_rebuild_tensor_v2 of a
    persistent storage id, an offset, a shape, strides, requires_grad, hooks)."""
    persistent = (
        b"(" + _text("storage") + f"ctorch\n{storage}\n".encode() + _text(key) + _text("cpu")
        + pickle_int(numel) + b"tQ"
    )  # fmt: skip
    return (
        b"ctorch._utils\n_rebuild_tensor_v2\n(" + persistent + pickle_int(offset) + pickle_ints(shape)
        + pickle_ints(strides) + b"\x89ccollections\nOrderedDict\n)RtR"
    )  # fmt: skip


def dict_opcodes(items: dict[str, bytes]) -> bytes:
    """Opcodes of a dict whose values are already opcodes."""
    return b"}" + b"".join(_text(k) + v + b"s" for k, v in items.items())


def torch_archive(
    path: Path,
    pickled: bytes,
    storages: dict[str, bytes],
    *,
    root: str = "archive",
    extra: dict[str, bytes] | None = None,
) -> None:
    """A torch.save-style zip: ROOT/data.pkl, ROOT/data/KEY per storage, stored."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{root}/data.pkl", b"\x80\x02" + pickled + b".")
        for key, raw in storages.items():
            archive.writestr(f"{root}/data/{key}", raw)
        archive.writestr(f"{root}/version", "3\n")
        for name, raw in (extra or {}).items():
            archive.writestr(name, raw)


def one_table_archive(
    path: Path,
    table: npt.NDArray[np.float32],
    *,
    root: str = "archive",
    extra: dict[str, bytes] | None = None,
) -> None:
    """A checkpoint holding only ``{"pos": table}`` (float32, C order, storage "0")."""
    n, d = table.shape
    pickled = dict_opcodes({"pos": tensor_opcodes("0", (n, d), (d, 1), numel=n * d)})
    torch_archive(path, pickled, {"0": table.astype("<f4").tobytes()}, root=root, extra=extra)


TABLE32 = paper_table(64, 8).astype(np.float32)


def test_a_data_pkl_nested_below_the_root_is_not_a_second_root(tmp_path: Path) -> None:
    """Fault caught: the archive's root found among data.pkl members at any depth (count of
    '/' >= 1), so that a nested ``archive/extra/data.pkl`` makes the file ambiguous."""
    path = tmp_path / "nested.pt"
    one_table_archive(path, TABLE32, extra={"archive/extra/data.pkl": b"not read"})
    loaded = load_table(str(path))
    np.testing.assert_array_equal(loaded.array, TABLE32)
    assert (loaded.stored_dtype, loaded.tensor) == ("float32", "pos")


def test_two_roots_are_refused_with_their_count_and_none_names_no(tmp_path: Path) -> None:
    """Fault caught: the one-root check loosened, or its message's count wrong."""
    two = tmp_path / "two.pt"
    one_table_archive(two, TABLE32, extra={"other/data.pkl": b"\x80\x02}."})
    with pytest.raises(ValueError, match=r"not a PyTorch checkpoint \(2 ARCHIVE/data.pkl in"):
        load_table(str(two))
    none = tmp_path / "none.pt"
    with zipfile.ZipFile(none, "w") as archive:
        archive.writestr("data.pkl", b"\x80\x02}.")  # at the top level: no ARCHIVE folder
        archive.writestr("deep/er/data.pkl", b"\x80\x02}.")
    with pytest.raises(ValueError, match=r"not a PyTorch checkpoint \(no ARCHIVE/data.pkl in"):
        load_table(str(none))


def test_a_root_of_any_name_is_read(tmp_path: Path) -> None:
    """Fault caught: the root taken as a fixed name, or its data members looked up elsewhere."""
    path = tmp_path / "named.pth"
    one_table_archive(path, TABLE32, root="my_model")
    np.testing.assert_array_equal(load_table(str(path)).array, TABLE32)


@pytest.mark.parametrize(("numel", "ok"), [(64 * 8, True), (64 * 8 - 1, False)])
def test_a_view_ending_on_the_storage_s_last_element_is_read(
    tmp_path: Path, numel: int, ok: bool
) -> None:
    """Fault caught: the reach check (last element < storage size) off by one either way:
    a view ending on the last element is read, one element past it is refused."""
    path = tmp_path / "edge.pt"
    pickled = dict_opcodes({"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=numel)})
    torch_archive(path, pickled, {"0": TABLE32.astype("<f4").tobytes()[: numel * 4]})
    if ok:
        np.testing.assert_array_equal(load_table(str(path)).array, TABLE32)
    else:
        with pytest.raises(ValueError, match=r"shape and strides reach past its storage"):
            load_table(str(path), "pos")


def test_an_offset_view_reads_from_its_offset(tmp_path: Path) -> None:
    """Fault caught: the storage offset ignored or counted in bytes, not elements."""
    path = tmp_path / "offset.pt"
    raw = np.concatenate([np.full(5, 7.0, dtype="<f4"), TABLE32.ravel()]).tobytes()
    pickled = dict_opcodes({"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=5 + 512, offset=5)})
    torch_archive(path, pickled, {"0": raw})
    np.testing.assert_array_equal(load_table(str(path)).array, TABLE32)


def test_a_transposed_view_reads_the_strided_elements(tmp_path: Path) -> None:
    """Fault caught: strides ignored (a view read as if C-contiguous)."""
    path = tmp_path / "strided.pt"
    stored = np.ascontiguousarray(TABLE32.T)  # (8, 64): the table is its transpose view
    pickled = dict_opcodes({"pos": tensor_opcodes("0", (64, 8), (1, 64), numel=512)})
    torch_archive(path, pickled, {"0": stored.astype("<f4").tobytes()})
    np.testing.assert_array_equal(load_table(str(path)).array, TABLE32)


@pytest.mark.parametrize(("bytes_held", "ok"), [(2048, True), (2044, False), (2052, False)])
def test_a_storage_must_hold_exactly_its_declared_bytes(
    tmp_path: Path, bytes_held: int, ok: bool
) -> None:
    """Fault caught: the storage size check (bytes == numel * itemsize) loosened."""
    path = tmp_path / "size.pt"
    raw = (TABLE32.astype("<f4").tobytes() + bytes(8))[:bytes_held]
    pickled = dict_opcodes({"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=512)})
    torch_archive(path, pickled, {"0": raw})
    if ok:
        np.testing.assert_array_equal(load_table(str(path)).array, TABLE32)
    else:
        with pytest.raises(
            ValueError, match=rf"declares 512 elements, the archive holds {bytes_held}"
        ):
            load_table(str(path), "pos")


def test_a_big_endian_archive_is_read_in_its_byte_order(tmp_path: Path) -> None:
    """Fault caught: the byteorder record ignored (big-endian storages read as little)."""
    path = tmp_path / "big.pt"
    pickled = dict_opcodes({"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=512)})
    torch_archive(
        path, pickled, {"0": TABLE32.astype(">f4").tobytes()}, extra={"archive/byteorder": b"big"}
    )
    loaded = load_table(str(path))
    np.testing.assert_array_equal(loaded.array, TABLE32)
    assert loaded.array.dtype == np.float32


@pytest.mark.parametrize(("rank", "ok"), [(8, True), (9, False)])
def test_a_shape_of_eight_dimensions_is_read_and_nine_refused(
    tmp_path: Path, rank: int, ok: bool
) -> None:
    """Fault caught: the rank limit (at most 8) off by one."""
    path = tmp_path / "rank.pt"
    shape = (1,) * rank
    pickled = dict_opcodes(
        {
            "pos": tensor_opcodes("0", (64, 8), (8, 1), numel=512),
            "r": tensor_opcodes("1", shape, shape, numel=1),
        }
    )
    torch_archive(path, pickled, {"0": TABLE32.astype("<f4").tobytes(), "1": bytes(4)})
    with zipfile.ZipFile(path) as archive:
        if ok:
            _, refs = _torch.torch_tensors(archive, "rank.pt")
            assert refs["r"].shape == shape
        else:
            with pytest.raises(ValueError, match=r"a shape is not a tuple of at most 8 integers"):
                _torch.torch_tensors(archive, "rank.pt")


@pytest.mark.parametrize(("length", "ok"), [(64, True), (65, False)])
def test_a_storage_key_of_64_characters_is_read_and_65_refused(
    tmp_path: Path, length: int, ok: bool
) -> None:
    """Fault caught: the storage key's length limit off by one."""
    key = "k" * length
    path = tmp_path / "key.pt"
    pickled = dict_opcodes({"pos": tensor_opcodes(key, (64, 8), (8, 1), numel=512)})
    torch_archive(path, pickled, {key: TABLE32.astype("<f4").tobytes()})
    if ok:
        np.testing.assert_array_equal(load_table(str(path)).array, TABLE32)
    else:
        with pytest.raises(ValueError, match=r"a storage without a known type or key"):
            load_table(str(path))


@pytest.mark.parametrize("field", ["offset", "numel"])
def test_a_negative_offset_or_size_is_refused_and_zero_accepted(tmp_path: Path, field: str) -> None:
    """Fault caught: the non-negative check of a pickled integer made positive or dropped."""
    path = tmp_path / "neg.pt"
    shape = (0, 8)
    good = {"offset": 0, "numel": 0}
    good_tensor = tensor_opcodes("1", shape, (8, 1), numel=good["numel"], offset=good["offset"])
    bad = {**good, field: -1}
    bad_tensor = tensor_opcodes("2", shape, (8, 1), numel=bad["numel"], offset=bad["offset"])
    table = tensor_opcodes("0", (64, 8), (8, 1), numel=512)
    storages = {"0": TABLE32.astype("<f4").tobytes(), "1": b"", "2": b""}
    torch_archive(path, dict_opcodes({"pos": table, "empty": good_tensor}), storages)
    with zipfile.ZipFile(path) as archive:
        assert _torch.torch_tensors(archive, "neg.pt")[1]["empty"].shape == shape
    torch_archive(path, dict_opcodes({"pos": table, "bad": bad_tensor}), storages)
    what = "an offset" if field == "offset" else "a storage size"
    with pytest.raises(ValueError, match=rf"{what} is not a non-negative integer"):
        load_table(str(path))


# --- pe.testing: the lines of a failure name the right thing ---------------------------


def halves_table(n: int, d: int) -> npt.NDArray[np.float64]:
    """tensor2tensor's table from its formula: sines in columns 0..h-1, cosines after,
    w_i = 10000^(-i/(h-1))."""
    h = d // 2
    p = np.arange(n, dtype=np.float64)[:, None]
    w = 10000.0 ** (-np.arange(h) / (h - 1))
    return np.concatenate([np.sin(p * w), np.cos(p * w)], axis=1)


CONVENTION_LINES = [
    (
        {"layout": "interleaved"},
        (
            "layout: halves (pair i in columns i, i + d/2), expected interleaved (pair i in "
            "columns 2i, 2i+1)"
        ),
    ),
    ({"order": "cos-first"}, "order: sine first in each pair, expected cosine first in each pair"),
    (
        {"law": "paper"},
        (
            "law: tensor2tensor's law w_i = base^(-i/(d/2 - 1)), expected the paper's law "
            "w_i = base^(-2i/d)"
        ),
    ),
    ({"offset": 3}, "offset: row 0 is position 0, expected 3"),
    ({"padding_row": 1}, "padding row: rows of zeros none, expected row 1 only"),
]


@pytest.mark.parametrize(("expected", "line"), CONVENTION_LINES)
def test_each_differing_parameter_gets_its_own_line(expected: dict[str, object], line: str) -> None:
    """Fault caught: a parameter's line naming the wrong value or the wrong words (the
    found and the expected swapped, a word table entry mixed up)."""
    with pytest.raises(AssertionError) as raised:
        testing.assert_convention(halves_table(64, 16), **expected)  # type: ignore[arg-type]
    lines = str(raised.value).split("\n")
    assert lines[0] == "table (64, 16) float64 does not follow the expected convention:"
    assert lines[1] == f"  {line}"
    assert all(x.startswith("  identify: ") for x in lines[2:])


def test_the_same_convention_stated_passes() -> None:
    """Fault caught: a parameter that matches reported as a difference."""
    testing.assert_convention(
        halves_table(64, 16),
        layout="halves",
        order="sin-first",
        law="tensor2tensor",
        base=10000.0,
        offset=0,
    )


def test_a_table_without_a_law_has_no_base() -> None:
    """Fault caught: a missing base formatted as a number (or not reported)."""
    p = np.arange(64, dtype=np.float64)[:, None]
    w = np.array([0.9, 0.5, 0.41, 0.2, 0.13, 0.05, 0.031, 0.011])  # no geometric law
    table = np.empty((64, 16))
    table[:, 0::2], table[:, 1::2] = np.sin(p * w), np.cos(p * w)
    with pytest.raises(AssertionError, match=r"\n  base: none, expected 10000\n"):
        testing.assert_convention(table, base=10000.0)


def test_an_odd_width_is_named_by_its_lone_column_or_by_the_paper_s_even_widths() -> None:
    """Fault caught: the two odd-width lines swapped or dropped: a lone sine column is
    named (column d-1 has no partner); a zero padding column leaves only the even-width
    line."""
    p = np.arange(64, dtype=np.float64)
    w = 10000.0 ** (-2.0 * np.arange(8) / 16)
    lone = np.empty((64, 17))
    lone[:, 0:16:2], lone[:, 1:16:2] = np.sin(p[:, None] * w), np.cos(p[:, None] * w)
    lone[:, 16] = np.sin(1e-3 * p)
    with pytest.raises(
        AssertionError, match=r"\n  width: d = 17 is odd \(column 16 has no partner\)"
    ):
        testing.assert_matches_paper(lone)
    padded = np.zeros((64, 17))
    padded[:, :16] = paper_table(64, 16)
    with pytest.raises(AssertionError) as raised:
        testing.assert_matches_paper(padded)
    lines = str(raised.value).split("\n")
    assert lines[1] == "  width: d = 17 is odd (the paper's widths are even)"
    assert not any("has no partner" in x or "worst entry" in x for x in lines)


@pytest.mark.parametrize(
    ("dtype", "eps_angle", "rounding"),
    [
        (np.float64, 2.0**-52, 0.0),
        (np.float32, 2.0**-23, 0.0),
        (np.float16, 2.0**-23, 2.0**-11),
        ("bfloat16", 2.0**-23, 2.0**-8),
        ("float16", 2.0**-23, 2.0**-11),
    ],
)
@pytest.mark.parametrize("n", [1, 2, 1000])
def test_paper_tolerance_is_its_formula(
    dtype: npt.DTypeLike, eps_angle: float, rounding: float, n: int
) -> None:
    """Fault caught: a unit roundoff of the table (2^-10 float16, 2^-7 bfloat16) or of the
    angles (float32 for 16-bit tables) wrong, or the 16-bit rounding term kept for 32/64."""
    expected = 4 * eps_angle + 2 * eps_angle * (n - 1) + rounding
    assert testing.paper_tolerance(n, dtype) == pytest.approx(expected, rel=1e-15, abs=0)


def test_the_atol_edge_an_entry_exactly_at_atol_passes() -> None:
    """Fault caught: ``worst > atol`` made ``>=`` (an entry exactly atol away fails), or the
    default tolerance used in place of the one given."""
    from pe.numeric import sinusoidal  # the reference assert_matches_paper compares with

    exact = sinusoidal(64, 16)
    table = exact.copy()
    table[20, 5] += 2.0**-32
    worst = abs(float(table[20, 5]) - float(exact[20, 5]))
    assert worst > 0
    testing.assert_matches_paper(table, atol=worst)
    below = float(np.nextafter(worst, 0.0))
    with pytest.raises(AssertionError, match=r"worst entry: row 20, column 5: "):
        testing.assert_matches_paper(table, atol=below)
    with pytest.raises(ValueError, match=r"atol must be >= 0, got -1e-09"):
        testing.assert_matches_paper(table, atol=-1e-9)


# --- picking the table among a file's tensors ------------------------------------------


def recurrence_residual(column: npt.NDArray[np.float64]) -> float:
    """The documented test of a sinusoid, computed here: the least-squares c in
    x[r+1] + x[r-1] = 2 c x[r], and the RMS of the miss over the RMS of 2 x[r]."""
    middle, around = column[1:-1], column[2:] + column[:-2]
    c = float(np.linalg.lstsq(2 * middle[:, None], around, rcond=None)[0][0])
    miss = around - 2 * c * middle
    return math.sqrt(float(miss @ miss) / (4 * float(middle @ middle)))


@pytest.mark.parametrize("seed", range(6))
def test_a_column_is_a_sinusoid_when_its_recurrence_misses_by_at_most_5_percent(
    seed: int,
) -> None:
    """Fault caught: the 5 % residual threshold of the sampled columns moved or inverted."""
    rng = np.random.default_rng(seed)
    r = np.arange(64, dtype=np.float64)
    base = 0.5 * np.sin(0.3 * r + 0.2)
    noise = rng.standard_normal(64)
    seen = set()
    for scale in np.linspace(0.002, 0.04, 20):
        column = base + scale * noise
        expected = recurrence_residual(column) <= 0.05
        seen.add(expected)
        score = _tensors.sinusoid_score(column[:, None])
        assert score == (1.0 if expected else 0.0), (scale, recurrence_residual(column))
    assert seen == {True, False}  # both sides of the threshold were met


def test_a_column_may_exceed_one_by_1_percent() -> None:
    """Fault caught: the bound on the sampled values (|x| <= 1.01) moved or dropped."""
    r = np.arange(64, dtype=np.float64)
    column = np.sin(np.pi / 2 + 0.3 * r)  # reaches 1 at row 0
    assert _tensors.sinusoid_score(1.0099 * column[:, None]) == 1.0
    assert _tensors.sinusoid_score(1.0101 * column[:, None]) == 0.0


def test_a_zero_row_breaks_only_the_triples_it_touches() -> None:
    """Fault caught: the triples touching a padding row kept (or all triples dropped)."""
    rows = paper_table(64, 8)
    rows[1] = 0.0  # fairseq's padding row
    rows[30] = 0.0
    assert _tensors.sinusoid_score(rows) == 1.0
    assert _tensors.sinusoid_score(rows[:3]) == 0.0  # the only triple touches row 1
    zeros_but_one = np.zeros((16, 4))
    zeros_but_one[5] = 0.5
    assert _tensors.sinusoid_score(zeros_but_one) == 0.0


def test_a_sample_needs_three_rows_finite_values_and_two_distinct_rows() -> None:
    """Fault caught: the guards of the score (fewer than 3 rows, NaN, equal rows) loosened."""
    table = paper_table(64, 8)
    assert _tensors.sinusoid_score(table[:3]) == 1.0
    assert _tensors.sinusoid_score(table[:2]) == 0.0
    broken = table.copy()
    broken[40, 3] = np.nan
    assert _tensors.sinusoid_score(broken) == 0.0
    assert _tensors.sinusoid_score(np.tile(table[5], (64, 1))) == 0.0
    half = table.copy()
    half[:, 4:] = np.random.default_rng(0).uniform(-1, 1, (64, 4))
    assert _tensors.sinusoid_score(half) == 0.5


@pytest.mark.parametrize(
    ("shape", "dtype", "expected"),
    [
        ((16, 2), "float32", True),
        ((15, 2), "float32", False),
        ((16, 1), "float32", False),
        ((1, 16, 2), "BF16", True),
        ((16, 1, 2), "F16", True),
        ((1, 1, 64), "float32", False),
        ((16, 2), "int64", False),
        ((16, 2), "I64", False),
        ((4, 16, 2), "float64", True),
        ((16,), "float32", False),
        ((2, 16, 2, 1), "float32", False),
    ],
)
def test_a_table_has_at_least_16_rows_and_2_columns_of_floats(
    shape: tuple[int, ...], dtype: str, expected: bool
) -> None:
    """Fault caught: the candidate test's row or column minimum off by one, or a dtype
    family (safetensors' names, integers) misjudged."""
    assert _tensors.could_be_table(shape, dtype) is expected


@pytest.mark.parametrize(
    ("shape", "dims"),
    [
        ((1, 1, 64), (1, 64)),
        ((2, 1, 64), (2, 64)),
        ((0, 1, 64), (0, 64)),
        ((3, 5, 7), (5, 7)),
        ((9, 4), (9, 4)),
    ],
)
def test_the_table_of_a_three_dimensional_tensor(
    shape: tuple[int, ...], dims: tuple[int, int]
) -> None:
    """Fault caught: (b, 1, d) read as b tables of one row (or (1, 1, d) as one row each)."""
    assert _tensors.table_dims(shape) == dims


@pytest.mark.parametrize(
    ("n", "d", "itemsize", "expected"),
    [
        (100, 8, 4, 64 * 8 * 4),  # capped at 64 rows
        (20, 8, 4, 20 * 8 * 4),  # all 20 rows
        (16, 8, 2, 16 * 8 * 2),  # the fewest rows sampled
        (15, 8, 2, 0),  # too few rows
        (1000, 4 * 2**20 // (16 * 4), 4, 16 * (4 * 2**20 // 16)),  # 16 rows fill 4 MiB
        (1000, 4 * 2**20 // (16 * 4) + 1, 4, 0),  # a row more than 4 MiB / 16: not sampled
    ],
)
def test_a_sample_is_at_most_64_rows_and_4_mib_and_at_least_16_rows(
    n: int, d: int, itemsize: int, expected: int
) -> None:
    """Fault caught: the sample's row cap, byte cap or row minimum off by one."""
    stored = _tensors.Stored("t", (n, d), "F32")
    assert _tensors.sample_bytes(stored, itemsize) == expected


def candidates_file(path: Path, names: list[str], sinusoid_columns: list[int]) -> None:
    """A .safetensors file of (64, 10) F32 tensors, the k-th with its first
    ``sinusoid_columns[k]`` columns sinusoids and the others random."""
    rng = np.random.default_rng(3)
    header: dict[str, object] = {}
    data = b""
    for name, good in zip(names, sinusoid_columns, strict=True):
        block = rng.uniform(-1, 1, (64, 10))
        block[:, :good] = paper_table(64, 10)[:, :good]
        raw = block.astype("<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": [64, 10],
            "data_offsets": [len(data), len(data) + len(raw)],
        }
        data += raw
    write_safetensors(path, header, data)


def test_a_candidate_with_nine_tenths_sinusoid_columns_looks_like_a_table(tmp_path: Path) -> None:
    """Fault caught: the 0.9 share that makes a candidate look sinusoidal moved or ``<``
    made ``<=``: 9 of 10 columns is a likely table, 8 of 10 is not."""
    nine = tmp_path / "nine.safetensors"
    candidates_file(nine, ["a", "b"], [9, 0])
    with pytest.raises(
        ValueError, match=r"the likeliest tables: a \(64, 10\) F32 \[90% sinusoid"
    ) as raised:
        load_table(str(nine))
    assert "more" not in str(raised.value)  # two candidates, both shown: no "and N more"
    eight = tmp_path / "eight.safetensors"
    candidates_file(eight, ["a", "b"], [8, 0])
    with pytest.raises(
        ValueError, match=r"none looks like a sinusoidal table \(a \(64, 10\) F32 \[80%"
    ):
        load_table(str(eight))


def test_five_candidates_are_shown_and_the_rest_counted(tmp_path: Path) -> None:
    """Fault caught: the number of candidates shown (5) off by one, or the count of the rest."""
    five = tmp_path / "five.safetensors"
    candidates_file(five, [f"t{i}" for i in range(5)], [10, 9, 8, 7, 6])
    with pytest.raises(ValueError, match=r"--tensor NAME is needed \(5 tensors;") as raised:
        load_table(str(five))
    assert "more (--list shows all)" not in str(raised.value)
    assert "t4 (64, 10) F32 [60% sinusoid columns]" in str(raised.value)
    six = tmp_path / "six.safetensors"
    candidates_file(six, [f"t{i}" for i in range(6)], [10, 9, 8, 7, 6, 5])
    with pytest.raises(
        ValueError, match=r"t4 \(64, 10\) F32 \[60% sinusoid columns\]; and 1 more \(--list"
    ):
        load_table(str(six))


def test_candidates_rank_by_score_then_a_positional_name_then_file_order(tmp_path: Path) -> None:
    """Fault caught: the ranking's keys reversed or dropped."""
    path = tmp_path / "ranked.safetensors"
    candidates_file(path, ["w1", "w2", "pos_emb", "w3"], [5, 10, 5, 10])
    lines = list_tensors(str(path))
    names = [line.split(".", 1)[1].split()[0] for line in lines]
    assert names == ["w2", "w3", "pos_emb", "w1"]


# --- screening a table before the fit --------------------------------------------------


@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_may_pass_one_by_eight_epsilons_and_no_more(
    sign: float, dtype: type[np.floating]
) -> None:
    """Fault caught: PEAK_EPS (8 machine epsilons beyond [-1, 1]) moved, a side of the
    range (the minimum) not checked, or ``>`` made ``>=``."""
    eps = float(np.finfo(dtype).eps)
    table = paper_table(64, 8).astype(dtype)
    at = table.copy()
    at[0, 1] = sign * (1.0 + 8 * eps)  # row 0's cosine is 1: a rounding of it
    assert float(abs(at[0, 1])) == 1.0 + 8 * eps
    found = identify(at)
    assert not found.reason.startswith("not a sinusoidal encoding: values reach"), found.reason
    beyond = table.copy()
    beyond[0, 1] = sign * float(np.nextafter(dtype(1.0 + 8 * eps), dtype(2.0)))
    assert identify(beyond).reason.startswith(
        "not a sinusoidal encoding: values reach 1, outside [-1, 1]"
    )


def test_non_finite_values_are_counted_and_the_first_named() -> None:
    """Fault caught: the count of non-finite values or the first one's kind and place
    wrong (NaN named infinite, row and column swapped)."""
    table = paper_table(64, 8)
    table[3, 5] = np.nan
    table[10, 2] = np.inf
    table[50, 0] = -np.inf
    assert identify(table).reason == (
        "not an encoding: the table holds 3 NaN or infinite values (first: NaN at row 3, column 5)"
    )
    table[3, 5] = 0.5
    assert identify(table).reason == (
        "not an encoding: the table holds 2 NaN or infinite values (first: infinite at row "
        "10, column 2)"
    )


@pytest.mark.parametrize("changed", [1, 1023, 1024, 1025, 1099])
def test_one_row_that_differs_anywhere_makes_the_rows_not_all_equal(changed: int) -> None:
    """Fault caught: the blocks of rows compared with row 0 skipping some rows (the block
    bounds of 1024 rows off), so that a table whose rows differ late is called constant."""
    table = np.tile(paper_table(1, 8), (1100, 1))
    assert identify(table).reason == (
        "not an encoding: every row is the same, so no column depends on the position"
    )
    table[changed] = paper_table(2, 8)[1]
    assert "every row is the same" not in identify(table).reason


def test_a_batch_of_different_tables_is_refused_and_of_equal_tables_read() -> None:
    """Fault caught: a batch (b, n, d) read as its first table although its tables differ,
    or (1, n, d) and (n, 1, d) read another way."""
    table = paper_table(32, 8)
    assert identify(np.stack([table, table, table])).matches_paper
    assert identify(table[None]).matches_paper
    assert identify(table[:, None, :]).matches_paper
    moved = np.stack([table, table, paper_table(32, 8, offset=1)])
    with pytest.raises(ValueError, match=r"table of shape \(3, 32, 8\) holds 3 different"):
        identify(moved)


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ((15, 8), "table must have at least 16 rows (positions), got 15"),
        ((16, 1), "table must have at least 2 columns, got 1"),
        ((2, 2, 16, 2), "table must be 2-D"),
    ],
)
def test_the_smallest_table_is_16_rows_of_2_columns(shape: tuple[int, ...], message: str) -> None:
    """Fault caught: the row or column minimum off by one."""
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        identify(np.full(shape, 0.5))
    smallest = paper_table(16, 2)
    assert identify(smallest).is_encoding


# --- what the RoPE probe reads from a function -----------------------------------------

EPS64 = 2.0**-52


@pytest.mark.parametrize(
    ("scale", "message"),
    [
        (1.0 + 8 * EPS64, None),
        (1.0 + 9 * EPS64, "exact only to float32 precision"),
        (1.0 + 8 * 2.0**-23, "exact only to float32 precision"),
        (1.0 + 9 * 2.0**-23, "exact only to float16 precision"),
        (1.0 + 8 * 2.0**-10, "exact only to float16 precision"),
        (1.0 + 9 * 2.0**-10, "fn is not a rotation: it scales pair 0 by 1.00879 at position 1"),
    ],
)
def test_a_pair_s_gain_may_differ_by_eight_epsilons_then_the_precision_is_named(
    scale: float, message: str | None
) -> None:
    """Fault caught: GAIN_EPS (8 epsilons) moved, ``>`` made ``>=``, or a precision named
    after the wrong unit roundoff (float32 2^-23, float16 2^-10)."""
    fn = quarter_turns(scale)
    if message is None:
        found = _rope_probe.probe(fn, 8, None)
        assert found.gain == 1.0
        assert found.pairing == "adjacent"
    else:
        with pytest.raises(AssertionError, match=message):
            _rope_probe.probe(fn, 8, None)


def partial(k: int) -> _rope_probe.RopeFunction:
    """Quarter turns on columns 0-3; columns 4-7 multiplied by 1 + k epsilons."""
    turn = quarter_turns(1.0, 4)

    def fn(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        out = x * (1.0 + k * EPS64)
        out[:, :4] = turn(x[:, :4], p)
        return out

    return fn


def test_a_column_moved_by_16_epsilons_stays_in_place_and_17_moves() -> None:
    """Fault caught: MOVE_EPS (16 epsilons) moved, or its comparisons made strict."""
    with pytest.raises(AssertionError, match=r"leaves columns 4 to 7 in place .* rotary_dim=4"):
        _rope_probe.probe(partial(16), 8, None)
    with pytest.raises(AssertionError, match=r"fn does not rotate: column 4 moves into no other"):
        _rope_probe.probe(partial(17), 8, None)
    assert _rope_probe.probe(partial(16), 8, 4).first.tolist() == [0, 2]
    with pytest.raises(AssertionError, match=r"fn moves column 4, beyond rotary_dim=4"):
        _rope_probe.probe(partial(17), 8, 4)


def paper_rope(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """RoPE by its formula (adjacent pairs, base 10000), in float64."""
    d = x.shape[1]
    w = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    angle = np.asarray(p, dtype=np.float64)[:, None] * w
    c, s = np.cos(angle), np.sin(angle)
    a, b = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = a * c - b * s, a * s + b * c
    return out


def test_the_probe_reads_each_frequency_and_the_base() -> None:
    """Fault caught: the coarse-to-fine frequency reading, the gain or the base read off."""
    found = _rope_probe.probe(paper_rope, 16, None)
    expected = 10000.0 ** (-2.0 * np.arange(8) / 16)
    np.testing.assert_allclose(found.frequencies, expected, rtol=1e-12)
    assert found.gain == pytest.approx(1.0, abs=8 * EPS64)
    measured = _rope_probe.base_of(found)
    assert measured is not None
    base, agreeing, ratios = measured
    assert base == pytest.approx(10000.0, rel=1e-9, abs=0.0)
    assert (agreeing, ratios) == (7, 7)
    assert _rope_probe.base_agrees(found, base, 10000.0)
    assert not _rope_probe.base_agrees(found, base, 10000.0 * (1 + 1e-6))


def test_the_base_needs_two_pairs_that_turn() -> None:
    """Fault caught: a base read from one pair, or from a frequency of 0."""
    one = _rope_probe.probe(paper_rope, 2, None)
    assert _rope_probe.base_of(one) is None
    found = _rope_probe.probe(paper_rope, 8, None)
    still = _rope_probe.Probe(
        found.pairing,
        found.first,
        found.second,
        np.array([1.0, 0.1, 0.0, 0.001]),
        found.uncertainty,
        found.gain,
        found.eps,
    )
    assert _rope_probe.base_of(still) is None


def test_base_agreement_is_three_best_uncertainties_per_ratio_plus_1e_9() -> None:
    """Fault caught: the tolerance of base_agrees (3 * best * pairs + 1e-9 in ln) moved
    (float32 output, where the uncertainties, not the 1e-9, make the tolerance)."""

    def rope32(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        return paper_rope(x, p).astype(np.float32)

    found = _rope_probe.probe(rope32, 8, None)
    assert found.eps == 2.0**-23
    u = found.uncertainty
    best = float(np.min(u[1:] + u[:-1]))
    allowed = 3 * best * found.frequencies.size + 1e-9
    assert _rope_probe.base_agrees(found, 10000.0 * math.exp(0.99 * allowed), 10000.0)
    assert _rope_probe.base_agrees(found, 10000.0 * math.exp(-0.99 * allowed), 10000.0)
    assert not _rope_probe.base_agrees(found, 10000.0 * math.exp(1.01 * allowed), 10000.0)
    assert not _rope_probe.base_agrees(found, 10000.0 * math.exp(-1.01 * allowed), 10000.0)


# --- the command line's argument types and pe identify's exits ---------------------------


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["check", "--d-model", "2"], None),
        (["check", "--d-model", "0"], "expected an even integer >= 2, got 0"),
        (["check", "--d-model", "3"], "expected an even integer >= 2, got 3"),
        (["check", "--d-model", "x"], "expected an even integer >= 2, got 'x'"),
        (["check", "--base", "1"], "expected a finite number > 1, got 1"),
        (["check", "--base", "1.0000001"], None),
        (["check", "--base", "inf"], "expected a finite number > 1, got inf"),
        (["check", "--base", "nan"], "expected a finite number > 1, got nan"),
        (["check", "--base", "ten"], "expected a number > 1, got 'ten'"),
        (["check", "--positions", "1"], None),
        (["check", "--positions", "0"], "expected an integer from 1 to 1000000, got 0"),
        (["check", "--positions", "1000000"], None),
        (["check", "--positions", "1000001"], "expected an integer from 1 to 1000000, got 1000001"),
        (["check", "--offsets", "100000"], None),
        (["check", "--offsets", "100001"], "expected an integer from 1 to 100000, got 100001"),
        (["identify", "x.npy", "--d", "65536"], None),
        (["identify", "x.npy", "--d", "65537"], "expected an integer from 1 to 65536, got 65537"),
        (["identify", "x.npy", "--n", "1.5"], "expected a positive integer, got '1.5'"),
    ],
)
def test_each_argument_type_accepts_its_edge_and_refuses_one_past(
    argv: list[str], error: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fault caught: a bound of an argument type (width >= 2 and even, base in (1, inf),
    counts from 1 to their limit) off by one or made strict."""
    parser = cli.build_parser()
    if error is None:
        parser.parse_args(argv)
        return
    with pytest.raises(SystemExit) as stop:
        parser.parse_args(argv)
    assert stop.value.code == 2
    found = capsys.readouterr().err.strip().split("\n")[-1]
    assert ": error: argument " in found
    assert found.endswith(error)


@pytest.mark.parametrize(
    ("count", "groups"),
    [
        (1, [[0]]),
        (2, [[0], [1]]),
        (3, [[0], [1], [2]]),
        (5, [[0], [1], [2, 3], [4]]),
        (8, [[0], [1], [2, 3], [4, 5, 6, 7]]),
        (9, [[0], [1], [2, 3], [4, 5, 6, 7], [8]]),
    ],
)
def test_offsets_are_grouped_by_powers_of_two(count: int, groups: list[list[int]]) -> None:
    """Fault caught: the groups of offsets of ``pe check`` missing or repeating an offset."""
    assert [g.tolist() for g in cli._offset_groups(count)] == groups


def test_identify_exits_0_for_an_encoding_1_for_another_table_2_for_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fault caught: the exit status of pe identify swapped, or a file given --n/--d or
    --list given --tensor accepted."""
    good, bad = tmp_path / "good.npy", tmp_path / "bad.npy"
    np.save(good, paper_table(64, 8))
    np.save(bad, np.random.default_rng(0).uniform(-1, 1, (64, 8)))
    assert cli.main(["identify", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"source: {good}\n")
    assert cli.main(["identify", str(bad)]) == 1
    for argv, error in (
        ([str(good), "--n", "64"], "--n and --d apply to MODULE:FUNCTION, not to a file"),
        ([str(good), "--list", "--tensor", "x"], "--list takes no --tensor and no --json"),
        ([str(good), "--list", "--json"], "--list takes no --tensor and no --json"),
        (["m:f", "--n", "64"], "MODULE:FUNCTION needs --n N and --d D"),
        (["nothing"], "SOURCE must be a file (FILE.npy, FILE.npz"),
    ):
        capsys.readouterr()
        with pytest.raises(SystemExit) as stop:
            cli.main(["identify", *argv])
        assert stop.value.code == 2
        assert error in capsys.readouterr().err


@pytest.mark.parametrize("dtype", [np.complex128, np.bool_, np.int64, np.uint8])
def test_a_rope_function_that_returns_no_floats_is_named(dtype: type[np.generic]) -> None:
    """Fault caught: the float check of fn's output loosened (``kind != "f"`` made an
    order comparison that lets complex or bool values through)."""

    def fn(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.generic]:
        return paper_rope(x, p).astype(dtype)

    name = np.dtype(dtype).name
    with pytest.raises(
        AssertionError, match=rf"fn\(x, positions\) returned {name} values, not floats"
    ):
        _rope_probe.call(fn, np.eye(4), np.arange(4))
    with pytest.raises(AssertionError, match=rf"returned {name} values, not floats"):
        testing.assert_rope_relative(fn, 4)


def test_a_rope_function_that_returns_another_shape_is_named() -> None:
    """Fault caught: the shape check of fn's output dropped."""

    def fn(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return paper_rope(x, p)[:, :-1]

    with pytest.raises(AssertionError, match=r"returned shape \(4, 3\) for x of shape \(4, 4\)"):
        _rope_probe.call(fn, np.eye(4), np.arange(4))


# --- .npy and .npz files ---------------------------------------------------------------


def npy_bytes(array: npt.NDArray[np.generic], version: tuple[int, int] = (1, 0)) -> bytes:
    """A .npy file's bytes, written by NumPy's format module."""
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, version=version)
    return buffer.getvalue()


def test_a_npy_file_one_byte_short_is_truncated_and_its_exact_size_read(tmp_path: Path) -> None:
    """Fault caught: the size check of a .npy file's data off by one byte either way."""
    table = paper_table(64, 8)
    raw = npy_bytes(table)
    exact, short = tmp_path / "exact.npy", tmp_path / "short.npy"
    exact.write_bytes(raw)
    short.write_bytes(raw[:-1])
    np.testing.assert_array_equal(load_table(str(exact)).array, table)
    with pytest.raises(
        ValueError,
        match=r"truncated: the header declares \(64, 8\) float64 \(4096 bytes of "
        r"data\), the file holds 4095",
    ):
        load_table(str(short))


@pytest.mark.parametrize(("version", "ok"), [((1, 0), True), ((2, 0), True), ((3, 0), False)])
def test_npy_versions_1_and_2_are_read_and_3_refused(
    tmp_path: Path, version: tuple[int, int], ok: bool
) -> None:
    """Fault caught: a format version accepted or refused wrongly, or version 2's header
    read as version 1's."""
    table = paper_table(32, 4)
    path = tmp_path / "v.npy"
    path.write_bytes(npy_bytes(table, version))
    if ok:
        np.testing.assert_array_equal(load_table(str(path)).array, table)
    else:
        with pytest.raises(ValueError, match=r"format version \(3, 0\) \(pe reads 1.0 and 2.0\)"):
            load_table(str(path))


def test_fortran_order_and_big_endian_npy_files_read_their_values(tmp_path: Path) -> None:
    """Fault caught: a Fortran-order file reshaped in C order, or a big-endian one read in
    the machine's order."""
    table = paper_table(64, 8)
    fortran, big = tmp_path / "f.npy", tmp_path / "big.npy"
    fortran.write_bytes(npy_bytes(np.asfortranarray(table)))
    big.write_bytes(npy_bytes(table.astype(">f8")))
    np.testing.assert_array_equal(load_table(str(fortran)).array, table)
    np.testing.assert_array_equal(load_table(str(big)).array, table)


def test_npz_members_are_sampled_only_when_float_and_in_c_order(tmp_path: Path) -> None:
    """Fault caught: a Fortran-order member sampled as C order, an integer member scored,
    or a big-endian member's sample read in the wrong byte order."""
    table = paper_table(64, 8)
    path = tmp_path / "m.npz"
    np.savez(
        path,
        c=table,
        big=table.astype(">f8"),
        fortran=np.asfortranarray(table),
        ints=np.arange(64 * 8, dtype=np.int64).reshape(64, 8),
    )
    lines = list_tensors(str(path))
    assert any(x.endswith("c (64, 8) float64 [100% sinusoid columns]") for x in lines)
    assert any(x.endswith("big (64, 8) float64 [100% sinusoid columns]") for x in lines)
    assert any(x.endswith("fortran (64, 8) float64 [not read]") for x in lines)
    assert any(x.endswith("ints (64, 8) int64 [not a table]") for x in lines)


def test_a_broken_npz_member_is_refused_only_when_named(tmp_path: Path) -> None:
    """Fault caught: a member whose header is broken offered as a candidate, or its error
    lost when it is named."""
    table = paper_table(64, 8)
    path = tmp_path / "b.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("good.npy", npy_bytes(table))
        archive.writestr("broken.npy", b"\x93NUMPY\x09\x00garbage")
    loaded = load_table(str(path))  # the only readable member
    np.testing.assert_array_equal(loaded.array, table)
    assert loaded.tensor == "good"
    with pytest.raises(ValueError, match=r":broken: not a readable .npy header"):
        load_table(str(path), "broken")


def test_a_npy_file_is_sampled_only_when_float_and_in_c_order(tmp_path: Path) -> None:
    """Fault caught: a Fortran-order .npy sampled as C order (its columns read as rows), or
    a big-endian one sampled in the machine's order."""
    table = paper_table(64, 8)
    files = {
        "c": table,
        "big": table.astype(">f8"),
        "fortran": np.asfortranarray(table),
        "short": table[:15],
    }
    for name, array in files.items():
        (tmp_path / f"{name}.npy").write_bytes(npy_bytes(array))
    assert list_tensors(str(tmp_path / "c.npy")) == [
        "   1. c (64, 8) float64 [100% sinusoid columns]"
    ]
    assert list_tensors(str(tmp_path / "big.npy")) == [
        "   1. big (64, 8) float64 [100% sinusoid columns]"
    ]
    assert (
        list_tensors(str(tmp_path / "fortran.npy"))[0] == "   1. fortran (64, 8) float64 [not read]"
    )
    assert (
        list_tensors(str(tmp_path / "short.npy"))[0] == "   -  short (15, 8) float64 [not a table]"
    )


# --- the result: base agreement, the summary's lines -----------------------------------


def test_a_base_agrees_within_two_uncertainties_or_1e_9_relative() -> None:
    """Fault caught: the agreement's width (2 uncertainties, at least 1e-9 relative) moved,
    or ``<=`` made ``<``."""
    agrees = _result.base_agrees
    assert agrees(10000.5, 0.25, 10000.0)  # exactly two uncertainties
    assert not agrees(float(np.nextafter(10000.5, 2e4)), 0.25, 10000.0)
    assert agrees(9999.5, 0.25, 10000.0)
    assert not agrees(float(np.nextafter(9999.5, 0.0)), 0.25, 10000.0)
    assert agrees(10000.0 + 0.9e-5, 0.0, 10000.0)  # 1e-9 relative of 10000 is 1e-5
    assert not agrees(10000.0 + 1.1e-5, None, 10000.0)
    assert agrees(10000.0 + 0.9e-5, 1e-12, 10000.0)
    assert not agrees(None, 1.0, 10000.0)


def found_with(**fields: object) -> _result.Identification:
    """An identification of a (64, 8) table with the given fields."""
    base: dict[str, object] = {
        "is_encoding": True,
        "reason": "r",
        "shape": (64, 8),
        "dtype": "float64",
        "layout": "interleaved",
        "order": "sin-first",
        "position_offset": 0,
        "law": "paper",
    }
    return _result.Identification(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("base", "sigma", "shown"),
    [
        (1234567.89, 1.0, "law: paper, base 1234568 (± 1)"),  # exponent 6: written out
        (12345678.9, 1.0, "law: paper, base 1.2345679e7 (± 1)"),  # exponent 7: e notation
        (10000.000001, 0.01, "law: paper, base 10000 (± 0.01)"),
        (500.0, 0.0, "law: paper, base 500 (± 0)"),
    ],
)
def test_the_base_is_written_with_the_digits_its_uncertainty_allows(
    base: float, sigma: float, shown: str
) -> None:
    """Fault caught: the base's digits or its switch to e notation (from 10^7) moved."""
    lines = found_with(base=base, base_uncertainty=sigma).summary().split("\n")
    assert shown in lines


def test_the_summary_names_the_first_token_row_only_after_padding() -> None:
    """Fault caught: the tokens' line shown without padding rows, or its position wrong."""
    plain = found_with(sin_frequencies=np.array([1.0]), cos_frequencies=np.array([1.0]))
    assert not any(x.startswith("tokens start") for x in plain.summary().split("\n"))
    assert "law: paper" in plain.summary().split("\n")
    padded = found_with(position_offset=3, first_token_row=2, padding_rows=(1,))
    assert "tokens start at row 2 (position 5); padding row 1 is zeros" in padded.summary()


def test_one_frequency_per_pair_is_the_precision_weighted_mean() -> None:
    """Fault caught: the weights of the sine's and cosine's frequencies swapped or not
    squared (1 / sigma^2)."""
    found = found_with(
        sin_frequencies=np.array([1.0, 0.5]),
        cos_frequencies=np.array([1.3, 0.5]),
        sin_uncertainty=np.array([0.1, 0.0]),
        cos_uncertainty=np.array([0.2, 0.3]),
    )
    # weights 100 and 25: (100 * 1.0 + 25 * 1.3) / 125; a zero uncertainty dominates
    np.testing.assert_allclose(found.frequencies, [1.06, 0.5], rtol=1e-12)
    assert found.summary().split("\n")[-1] == "frequencies: 2 pairs, from 1.06 to 0.5"
    split = dataclasses.replace(found, split_pairs=(0,))
    assert split.summary().split("\n")[-1] == (
        "frequencies: 2 pairs, sine and cosine apart in 1: sines from 1 to 0.5, cosines "
        "from 1.3 to 0.5"
    )
    assert found_with().summary().split("\n")[-1] == "frequencies: none"


def test_significant_digits_reach_17_when_16_do_not_write_the_value() -> None:
    """Fault caught: the digits tried stopping short of 16, or the fallback wrong."""
    assert _result.significant_digits(0.1 + 0.2, 0.0) == 17
    assert _result.significant_digits(0.3, 0.0) == 1
    assert _result.significant_digits(1.0 / 3.0, 0.0) == 16


# --- identify_accuracy: what it measures and when it reports a failure ------------------


def test_identify_accuracy_rows_cover_each_dtype_width_and_base() -> None:
    """Fault caught: a case of the measurement left out, or its errors measured against
    the wrong frequencies."""
    rows = identify_accuracy.identify_accuracy(32, widths=(8,))
    assert [(r.dtype, r.d, r.base) for r in rows] == [
        (dtype, 8, base) for dtype in ("float64", "float32") for base in (100.0, 1e4, 1e6)
    ]
    for row in rows:
        true = row.base ** (-2.0 * np.arange(4) / 8)
        table = paper_like(32, 8, row.base).astype(row.dtype)
        found = identify(table)
        assert row.sine_error == pytest.approx(
            float(np.max(np.abs(found.sin_frequencies / true - 1))), rel=1e-12, abs=1e-300
        )
        assert row.fitted_base == pytest.approx(row.base, rel=1e-3, abs=0.0)


def paper_like(n: int, d: int, base: float) -> npt.NDArray[np.float64]:
    """The paper's layout and law with another base, from the formula."""
    p = np.arange(n, dtype=np.float64)[:, None]
    w = base ** (-2.0 * np.arange(d // 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(p * w), np.cos(p * w)
    return table


_BASE_500 = Convention("b500", "base 500", base=500.0)


class _Mislabelled(Convention):
    """A convention that declares base 10000 but writes a table of base 500."""

    def table(
        self, n_positions: int, d_model: int, *, dtype: npt.DTypeLike = np.float64
    ) -> npt.NDArray[Any]:
        return _BASE_500.table(n_positions, d_model, dtype=dtype)


class _BaseOnly(_Mislabelled):
    """As :class:`_Mislabelled`, and whose frequencies are the table's: only the declared
    base is wrong."""

    def frequencies(self, d_model: int) -> npt.NDArray[np.float64]:
        return _BASE_500.frequencies(d_model)


def test_recovery_reports_a_convention_whose_table_is_not_what_it_declares() -> None:
    """Fault caught: a wrong base counted as recovered (the base check's comparison or
    tolerance inverted), or the cases miscounted."""
    wrong = _Mislabelled("wrong", "declares 10000, writes 500")
    found = identify_accuracy.recovery({"wrong": wrong})
    assert found.cases == 6
    assert found.failures == [
        f"wrong d={d} {dtype}: ('interleaved', 'sin-first', 0, 'paper') base 500"
        for d in (8, 64, 512)
        for dtype in ("float64", "float32")
    ]
    only = identify_accuracy.recovery({"only": _BaseOnly("only", "only the base wrong")})
    assert len(only.failures) == 6
    assert all(
        f.endswith("('interleaved', 'sin-first', 0, 'paper') base 500") for f in only.failures
    )
    right = identify_accuracy.recovery({"paper": Convention("paper", "the paper's")})
    assert (right.cases, right.failures) == (6, [])


# --- the frequency law: the notes at each edge -----------------------------------------


def law_of(w: list[float] | npt.NDArray[np.float64], sigma: float = 1e-13) -> _law.LawFit:
    """fit_law on sine and cosine frequencies ``w`` (equal, every pair good), width 2 h."""
    freq = np.asarray(w, dtype=np.float64)
    h = freq.size
    s = np.full(h, sigma)
    none = np.zeros(h, dtype=bool)
    return _law.fit_law(_law.LawInput(freq, freq, s, s, ~none, none, 2 * h), 2.0**-52)


@pytest.mark.parametrize(
    ("base", "note"),
    [
        (10000.0, None),
        (10000.0 + 0.9e-5, None),  # within 1e-9 relative of 10000: the paper's
        (10000.0 + 1.1e-5, "base 10000, not the paper's 10000"),
        (10001.0, "base 10001, not the paper's 10000"),
        (100.0, "base 100, not the paper's 10000: the frequencies fall half as fast"),
        (100.0 - 0.9e-4, "base 100, not the paper's 10000: the frequencies fall half"),
        (100.0 + 1.1e-4, "base 100, not the paper's 10000"),  # beyond 1e-6 relative: plain
        (1e8, "the frequencies fall twice as fast as the paper's: equivalent to base 1e8"),
        (1e8 + 90.0, "the frequencies fall twice as fast as the paper's: equivalent to base 1e8"),
        (1e8 - 110.0, "base 9.99999e+07, not the paper's 10000"),  # beyond 1e-6 relative
    ],
)
def test_the_paper_s_law_notes_a_base_other_than_10000(base: float, note: str | None) -> None:
    """Fault caught: BASE_MATCH (1e-9 relative) moved, or the named bases (100, 1e8)
    tested with the wrong tolerance or branch."""
    found = law_of(base ** (-2.0 * np.arange(8) / 16))
    assert found.law == "paper"
    assert found.base == pytest.approx(base, rel=1e-11, abs=0.0)
    base_notes = [x for x in found.notes if "base" in x and "tensor2tensor" not in x]
    if note is None:
        assert base_notes == []
    else:
        assert len(base_notes) == 1
        if note.endswith("not the paper's 10000"):  # the plain note, nothing after it
            assert base_notes[0] == note
        else:
            assert base_notes[0].startswith(note)


def test_few_distinct_frequencies_are_an_integer_division_only_beyond_three_pairs() -> None:
    """Fault caught: the integer-division note's condition (at most 3 distinct values, more
    than 3 pairs) moved by one on either side."""
    integer_division = (
        "the frequencies take only 3 distinct values across 4 pairs: an integer division "
        "in the exponent (2 * i // d is 0 or 1)"
    )
    assert law_of([1.0, 0.3, 0.3, 0.01]).notes == [integer_division]
    assert law_of([1.0, 0.3, 0.01]).notes == [
        "the frequencies follow no geometric law ω_i = ω_0 r^i"
    ]
    assert law_of([1.0, 0.3, 0.07, 0.01]).notes == [
        "the frequencies follow no geometric law ω_i = ω_0 r^i"
    ]


# --- torch archives: members, names, dtypes and samples --------------------------------


def test_compressed_members_are_refused_or_not_read(tmp_path: Path) -> None:
    """Fault caught: a compressed data.pkl read, or a compressed storage taken as stored."""
    table = tensor_opcodes("0", (64, 8), (8, 1), numel=512)
    raw = TABLE32.astype("<f4").tobytes()
    packed = tmp_path / "packed.pt"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr(
            "archive/data.pkl",
            b"\x80\x02" + dict_opcodes({"pos": table}) + b".",
            compress_type=zipfile.ZIP_DEFLATED,
        )
        archive.writestr("archive/data/0", raw)
    with pytest.raises(ValueError, match=r"archive/data.pkl is compressed, which torch.save"):
        load_table(str(packed))
    storage = tmp_path / "storage.pt"
    with zipfile.ZipFile(storage, "w") as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02" + dict_opcodes({"pos": table}) + b".")
        archive.writestr("archive/data/0", raw, compress_type=zipfile.ZIP_DEFLATED)
    with pytest.raises(ValueError, match=r"the archive lacks its storage '0'"):
        load_table(str(storage))


def test_nested_names_are_dotted_and_a_lone_tensor_is_named_tensor(tmp_path: Path) -> None:
    """Fault caught: nested dicts flattened with the wrong names (integer keys dropped), or
    a checkpoint that is one tensor left unnamed."""
    raw = {"0": TABLE32.astype("<f4").tobytes(), "1": bytes(16)}
    inner = b"}" + pickle_int(0) + tensor_opcodes("1", (4,), (1,), numel=4) + b"s"
    pickled = dict_opcodes(
        {
            "model": dict_opcodes({"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=512)}),
            "layers": inner,
        }
    )
    path = tmp_path / "nested.pt"
    torch_archive(path, pickled, raw)
    with zipfile.ZipFile(path) as archive:
        _, refs = _torch.torch_tensors(archive, "nested.pt")
    assert sorted(refs) == ["layers.0", "model.pos"]
    lone = tmp_path / "lone.pt"
    torch_archive(lone, tensor_opcodes("0", (64, 8), (8, 1), numel=512), raw)
    loaded = load_table(str(lone))
    assert loaded.tensor == "tensor"
    np.testing.assert_array_equal(loaded.array, TABLE32)


def test_a_bfloat16_storage_is_widened_and_an_integer_one_refused(tmp_path: Path) -> None:
    """Fault caught: bfloat16 bits read as another dtype, or an integer tensor loaded as a
    table."""
    bits = (TABLE32.view(np.uint32) >> 16).astype("<u2")  # truncated to bfloat16
    widened = (bits.astype(np.uint32) << 16).view(np.float32)
    path = tmp_path / "bf16.pt"
    pickled = dict_opcodes(
        {"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=512, storage="BFloat16Storage")}
    )
    torch_archive(path, pickled, {"0": bits.tobytes()})
    loaded = load_table(str(path))
    assert loaded.stored_dtype == "bfloat16"
    np.testing.assert_array_equal(loaded.array, widened)
    ints = tmp_path / "ints.pt"
    pickled = dict_opcodes(
        {"pos": tensor_opcodes("0", (64, 8), (8, 1), numel=512, storage="LongStorage")}
    )
    torch_archive(ints, pickled, {"0": bytes(512 * 8)})
    with pytest.raises(ValueError, match=r"does not hold float16, bfloat16, float32 or float64"):
        load_table(str(ints))


def test_only_contiguous_float_tensors_of_a_checkpoint_are_sampled(tmp_path: Path) -> None:
    """Fault caught: a transposed view sampled as if contiguous, or a float tensor left
    unsampled."""
    raw = {"0": TABLE32.astype("<f4").tobytes(), "1": np.ascontiguousarray(TABLE32.T).tobytes()}
    pickled = dict_opcodes(
        {
            "c": tensor_opcodes("0", (64, 8), (8, 1), numel=512),
            "t": tensor_opcodes("1", (64, 8), (1, 64), numel=512),
        }
    )
    path = tmp_path / "s.pt"
    torch_archive(path, pickled, raw)
    lines = list_tensors(str(path))
    assert lines[0] == "   1. c (64, 8) float32 [100% sinusoid columns]"
    assert lines[1] == "   2. t (64, 8) float32 [not read]"


@pytest.mark.parametrize(
    ("storage", "per_element"), [("BFloat16Storage", 2 + 4), ("FloatStorage", 4)]
)
def test_a_checkpoint_tensor_is_capped_counting_its_widened_copy(
    tmp_path: Path, storage: str, per_element: int
) -> None:
    """Fault caught: the bytes counted per element of a bfloat16 tensor (its 2 bytes plus
    the 4 of the float32 it is widened to) off by one, so that a tensor just above
    pe.MAX_BYTES is read (nothing is read before the cap: the storage here is empty)."""
    import pe

    rows_at_cap = pe.MAX_BYTES // (8 * per_element)  # 8 columns
    for rows, refused in ((rows_at_cap, False), (rows_at_cap + 1, True)):
        path = tmp_path / f"cap{rows}.pt"
        pickled = dict_opcodes(
            {"pos": tensor_opcodes("0", (rows, 8), (8, 1), numel=rows * 8, storage=storage)}
        )
        torch_archive(path, pickled, {"0": b""})
        if refused:
            with pytest.raises(ValueError, match=r"above pe's cap of 1 GiB"):
                load_table(str(path))
        else:  # under the cap: refused later, for its missing bytes
            with pytest.raises(ValueError, match=r"the archive holds 0 bytes"):
                load_table(str(path))


# --- the verdict's words: tolerance of a column, padding rows, digits -------------------


@pytest.mark.parametrize(
    ("w", "offset", "n", "eps"),
    [
        (0.5, 3, 100, 2.0**-23),
        (1.0, -5, 16, 2.0**-52),
        (0.01, 0, 1024, 2.0**-10),
        (3.0, 0, 4096, 2.0**-7),
    ],
)
def test_a_column_s_residual_tolerance_is_its_formula(
    w: float, offset: int, n: int, eps: float
) -> None:
    """Fault caught: a term of min(8 eps + 2 eps w (|p0| + n) + 1e-8, 0.02) changed."""
    expected = min(8 * eps + 2 * eps * w * (abs(offset) + n) + 1e-8, 0.02)
    found = _explain.residual_tolerance([w], offset, n, eps)
    assert float(found[0]) == pytest.approx(expected, rel=1e-14, abs=0.0)


def test_a_refusal_counts_the_failing_columns_and_names_the_worst() -> None:
    """Fault caught: the count of columns off the precision or the worst column wrong."""
    table = paper_table(64, 8)
    rng = np.random.default_rng(5)
    table[:, 5] += 1e-3 * rng.standard_normal(64)
    table[:, 2] += 1e-4 * rng.standard_normal(64)
    table = np.clip(table, -1.0, 1.0)
    reason = identify(table).reason
    assert reason.startswith(
        "not a sinusoidal encoding: 2 of 8 columns are not sinusoids of the position "
        "(identify's sinusoid fit misses column 5 by "
    ), reason


@pytest.mark.parametrize(("row", "first"), [(1, 2), (31, 32), (32, 0), (50, 0)])
def test_only_a_zero_row_in_the_first_half_moves_the_first_token(row: int, first: int) -> None:
    """Fault caught: the rows counted as leading padding (below n // 2) moved by one."""
    table = paper_table(64, 8)
    table[row] = 0.0
    found = identify(table)
    assert found.is_encoding, found.reason
    assert found.first_token_row == first
    token_notes = [x for x in found.notes if x.startswith("the first token reads")]
    if first:
        expected = (
            f"the first token reads row {first} (position {first}), after the padding row "
            f"{row}, as in fairseq's stored tables (padding_idx = {row})"
        )
        assert token_notes == [expected]
    else:
        assert token_notes == []


def test_two_values_are_told_apart_with_at_least_six_digits() -> None:
    """Fault caught: the digits tried starting above 6 or stopping before 17, or equal
    values not shown in full."""
    assert _explain.distinct(1.0, 2.0) == ("1", "2")
    assert _explain.distinct(1.234567, 1.234667) == ("1.23457", "1.23467")  # 6 suffice
    assert _explain.distinct(1.0000001, 1.0000002) == ("1.0000001", "1.0000002")
    a = 0.1 + 0.2
    assert _explain.distinct(a, 0.3) == ("0.30000000000000004", "0.29999999999999999")
    assert _explain.distinct(0.5, 0.5) == ("0.5", "0.5")


def test_the_worst_column_is_the_one_farthest_beyond_its_own_tolerance() -> None:
    """Fault caught: the worst column ranked by its residual times (not over) its
    tolerance: a slow float16 column allows less than a fast one."""
    eps, n = 2.0**-10, 100
    w = np.array([0.01, 3.0, 0.5])
    tolerance = np.minimum(8 * eps + 2 * eps * w * n + 1e-8, 0.02)
    residual = np.array([1.2 * tolerance[0], 1.05 * tolerance[1], 0.5 * tolerance[2]])
    zeros = np.zeros(3)
    fit = _fit.ColumnFit(w, zeros, zeros, zeros, zeros, residual)
    assert _explain.residual_refusal(fit, 0, n, eps) == (
        "not a sinusoidal encoding: 2 of 3 columns are not sinusoids of the position "
        f"(identify's sinusoid fit misses column 0 by {residual[0]:.2g}, the table's "
        f"precision allows {tolerance[0]:.2g}); a learned or random table? (rows must be "
        "consecutive positions, shape (n, d))"
    )
    within = _fit.ColumnFit(w, zeros, zeros, zeros, zeros, tolerance)  # exactly at it
    assert _explain.residual_refusal(within, 0, n, eps) is None


@pytest.mark.parametrize(
    ("dtype", "name"), [(np.float64, "float64"), (np.float32, "float32"), (np.float16, "float16")]
)
def test_a_score_that_depends_on_the_position_names_m_and_the_output_s_precision(
    dtype: type[np.floating], name: str
) -> None:
    """Fault caught: the failing query position or the precision named wrongly (the unit
    roundoffs 2^-52, 2^-23, 2^-10 mapped to the wrong dtype names)."""

    def jumps(x: npt.NDArray[np.float64], p: npt.NDArray[np.int64]) -> npt.NDArray[np.floating]:
        q = np.asarray(p)
        return paper_rope(x, q + 37 * (q == 100)).astype(dtype)  # position 100 is off

    with pytest.raises(AssertionError) as raised:
        testing.assert_rope_relative(jumps, 16)
    message = str(raised.value)
    assert message.startswith("scores depend on the position, not only on the offset: ")
    assert " at m=100, r=" in message
    assert f"for {name} (fn's output) angles (pe.rotary's error model)" in message


def test_stored_dtype_names_the_four_precisions_and_nothing_else() -> None:
    """Fault caught: the dtypes a table may be stored in listed wrongly, or an unknown one
    accepted."""
    table = paper_table(32, 8)
    with pytest.raises(
        ValueError,
        match=r"stored_dtype must be one of bfloat16, float16, float32, float64, got 'int8'",
    ):
        identify(table, stored_dtype="int8")
    for name in ("bfloat16", "float16", "float32", "float64"):
        found = identify(table, stored_dtype=name)
        assert found.is_encoding
        assert found.dtype == name


def test_the_loose_cosines_note_counts_them_and_gives_the_worst_relative_uncertainty() -> None:
    """Fault caught: the note on slow cosine columns counting the wrong columns, or its
    worst relative uncertainty computed as a difference instead of a ratio."""
    n = 256
    p = np.arange(n, dtype=np.float64)[:, None]
    w = 1e6 ** (-2.0 * np.arange(32) / 64)  # a large base: many slow pairs
    table = np.empty((n, 64))
    table[:, 0::2], table[:, 1::2] = np.sin(p * w), np.cos(p * w)
    found = identify(table.astype(np.float32))
    target = 1e-3  # float32's accuracy target
    cos_rel = found.cos_uncertainty / found.cos_frequencies
    loose = (cos_rel > target) & (found.sin_uncertainty <= target * found.sin_frequencies)
    assert loose.sum() > 1
    (note,) = [x for x in found.notes if "slow cosine columns" in x]
    assert note.startswith(
        f"{int(loose.sum())} slow cosine columns are pinned only to about eps/θ² (θ = the "
        f"largest angle of their pair over {n} rows; worst relative uncertainty "
        f"{float(np.max(cos_rel[loose])):.2g}): "
    )


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_a_table_from_another_position_is_noted_and_only_2_named_fairseq(offset: int) -> None:
    """Fault caught: the fairseq remark attached to another offset than 2, or dropped."""
    found = identify(paper_table(64, 16, offset=offset))
    assert found.position_offset == offset
    notes = [x for x in found.notes if x.startswith(f"row 0 is position {offset}, not 0")]
    assert len(notes) == 1
    assert ("fairseq" in notes[0]) is (offset == 2)


@pytest.mark.parametrize(("lone", "kind"), [(np.sin, "sine"), (np.cos, "cosine")])
def test_a_lone_column_is_named_sine_or_cosine_by_its_phase(
    lone: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]], kind: str
) -> None:
    """Fault caught: the lone column of an odd width called a sine when it is a cosine or
    the reverse (the nearer phase, 0 or pi/2, chosen wrongly)."""
    p = np.arange(64, dtype=np.float64)
    table = np.empty((64, 17))
    table[:, :16] = paper_table(64, 16)
    table[:, 16] = lone(0.003 * p)
    found = identify(table)
    assert found.unpaired_column == 16
    assert any(
        x.startswith(f"the width d = 17 is odd: column 16 is a {kind} without a partner")
        for x in found.notes
    ), found.notes


@pytest.mark.parametrize(("shift", "noted"), [(0.04, False), (0.06, True), (-0.3, True)])
def test_a_row_0_off_an_integer_position_by_more_than_005_is_noted(
    shift: float, noted: bool
) -> None:
    """Fault caught: the 0.05 slack of the offset's rounding moved, or its sign ignored."""
    p = np.arange(64, dtype=np.float64)[:, None] + shift
    w = 10000.0 ** (-2.0 * np.arange(8) / 16)
    table = np.empty((64, 16))
    table[:, 0::2], table[:, 1::2] = np.sin(p * w), np.cos(p * w)
    found = identify(table)
    assert found.position_offset == 0
    notes = [x for x in found.notes if x.startswith("row 0 sits at position")]
    expected = [f"row 0 sits at position {shift:.4g}, not an integer; rounded to 0"]
    assert notes == (expected if noted else [])


# --- MODULE:FUNCTION sources ---------------------------------------------------------

FUNCTIONS = """
import numpy as np

def table(n, d):
    p = np.arange(n, dtype=np.float64)[:, None]
    w = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    out = np.empty((n, d))
    out[:, 0::2], out[:, 1::2] = np.sin(p * w), np.cos(p * w)
    return out

def batched(n, d):
    return table(n, d)[None]

def middle(n, d):
    return table(n, d)[:, None, :]

def wider(n, d):
    return np.zeros((n, d + 1))

def one(n):
    return table(n, 8)

def boom(n, d):
    raise RuntimeError("boom")

NOT_CALLABLE = 3

class Model:
    @staticmethod
    def table(n, d):
        return table(n, d)
"""


@pytest.fixture
def functions(tmp_path: Path) -> str:
    """A .py file of table functions; its path, for MODULE:FUNCTION."""
    path = tmp_path / "encodings.py"
    path.write_text(FUNCTIONS, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["table", "batched", "middle", "Model.table"])
def test_a_function_s_table_of_an_accepted_shape_is_identified(functions: str, name: str) -> None:
    """Fault caught: one of the accepted shapes ((n, d), (1, n, d), (n, 1, d)) refused, or a
    dotted attribute not followed."""
    result = identify_inputs.call_function(f"{functions}:{name}", 64, 8)
    assert identify(result).matches_paper


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("wider", ValueError, r"wider\(64, 8\) returned shape \(64, 9\), expected \(64, 8\)"),
        ("one", TypeError, r"one must accept two positional arguments \(n, d\)"),
        ("boom", ValueError, r"boom\(64, 8\) raised RuntimeError: boom"),
        ("NOT_CALLABLE", TypeError, r"NOT_CALLABLE is not callable"),
        ("missing", ValueError, r"has no attribute 'missing'"),
    ],
)
def test_a_function_that_does_not_give_a_table_is_refused_with_its_reason(
    functions: str, name: str, error: type[Exception], message: str
) -> None:
    """Fault caught: a shape, signature, exception or attribute check of MODULE:FUNCTION
    dropped or its message naming the wrong thing."""
    with pytest.raises(error, match=message):
        identify_inputs.call_function(f"{functions}:{name}", 64, 8)


def test_a_source_without_a_module_or_function_is_refused() -> None:
    """Fault caught: an empty module or function name accepted."""
    for spec in ("table", ":table", "module:"):
        with pytest.raises(ValueError, match=r"expected MODULE:FUNCTION"):
            identify_inputs.call_function(spec, 64, 8)


def test_a_py_file_in_the_current_directory_is_read_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault caught: a ``.py`` name without a directory taken as a dotted module name
    (``tables.py`` read as the module ``py`` of a package ``tables``)."""
    (tmp_path / "tables_b.py").write_text(FUNCTIONS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = identify_inputs.call_function("tables_b.py:table", 32, 8)
    assert identify(result).matches_paper
    with pytest.raises(ValueError, match=r"nowhere_b.py: no such file"):
        identify_inputs.call_function("nowhere_b.py:table", 32, 8)


def test_a_transposed_table_is_recognised_down_to_16_positions() -> None:
    """Fault caught: the transposed retry skipped for a table of exactly 16 positions (the
    fewest identify reads), or tried below it."""
    sixteen = identify(paper_table(16, 32).T)
    assert not sixteen.is_encoding
    assert sixteen.reason.startswith(
        "not an encoding as given: the table is transposed, its 32 rows are the columns of "
        "a sinusoidal encoding of 16 positions (the paper's encoding"
    )
    assert sixteen.reason.endswith("pass table.T (rows must be positions, shape (n, d))")
    fifteen = identify(paper_table(15, 32).T)
    assert not fifteen.is_encoding
    assert "transposed" not in fifteen.reason


def test_a_safetensors_header_may_fill_the_file_and_not_one_byte_more(tmp_path: Path) -> None:
    """Fault caught: the header length's bound (at most the file's size minus 8) off by one,
    or a file of 7 bytes read."""
    text = json.dumps({"__metadata__": {"a": "b"}}).encode()
    exact = tmp_path / "exact.safetensors"
    exact.write_bytes(len(text).to_bytes(8, "little") + text)  # no tensors, no data
    assert _safetensors.safetensors_tensors(exact, "exact")[0] == []
    over = tmp_path / "over.safetensors"
    over.write_bytes((len(text) + 1).to_bytes(8, "little") + text)
    size = 8 + len(text)
    with pytest.raises(
        ValueError, match=rf"the header length {len(text) + 1} exceeds the file \({size} bytes\)"
    ):
        _safetensors.safetensors_tensors(over, "over")
    short = tmp_path / "short.safetensors"
    short.write_bytes(bytes(7))
    with pytest.raises(ValueError, match=r"truncated: fewer than 8 bytes \(no header length\)"):
        _safetensors.safetensors_tensors(short, "short")
