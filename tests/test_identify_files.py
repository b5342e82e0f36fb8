"""``pe identify`` on the files engineers have: ``.npy``, ``.npz`` and ``.safetensors``.

Every file is written by the test into ``tmp_path`` (``.safetensors`` by the ``safetensors``
package's NumPy interface, or byte by byte for bfloat16). Hostile files are in
``tests/test_hostile_inputs.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from safetensors.numpy import save_file

import pe
from pe import conventions
from pe.identify import _safetensors, _tensors, load_table
from pe.identify._tensors import could_be_table, widen_bfloat16

N, D = 128, 32


def run_pe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pe", "identify", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def model_tensors(table: np.ndarray) -> dict[str, Any]:
    """A small checkpoint: the positional buffer among weights that are not tables."""
    rng = np.random.default_rng(0)
    return {
        # C order: safetensors' save_file writes the raw memory of a Fortran-order array
        "decoder.embed_positions.weight": np.ascontiguousarray(table),
        "decoder.layers.0.fc1.weight": rng.standard_normal((64, 32)).astype(np.float32),
        "decoder.layers.0.fc1.bias": np.zeros(64, dtype=np.float32),
        "decoder.embed_tokens.weight": rng.standard_normal((100, 32)).astype(np.float32),
        "step": np.array([3], dtype=np.int64),
    }


def bfloat16_bits(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even), as 16-bit patterns."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def write_bfloat16(path: Path, name: str, bits: np.ndarray) -> None:
    """A .safetensors file holding one BF16 tensor, written byte by byte per the format."""
    header = {
        "__metadata__": {"format": "pt"},
        name: {"dtype": "BF16", "shape": list(bits.shape), "data_offsets": [0, 2 * bits.size]},
    }
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + bits.astype("<u2").tobytes())


# --------------------------------------------------------------------------------------------
# Reading


def test_npy_is_read_as_saved(tmp_path: Path) -> None:
    table = pe.sinusoidal(N, D, dtype=np.float32)
    np.save(tmp_path / "t.npy", table)
    loaded = load_table(str(tmp_path / "t.npy"))
    assert loaded.array.dtype == np.float32
    assert np.array_equal(loaded.array, table)
    np.save(tmp_path / "f.npy", np.asfortranarray(table))  # Fortran order, same values
    assert np.array_equal(load_table(str(tmp_path / "f.npy")).array, table)
    np.save(tmp_path / "big.npy", table.astype(">f8"))  # big-endian
    assert np.array_equal(load_table(str(tmp_path / "big.npy")).array, table)


@pytest.mark.parametrize("save", [np.savez, np.savez_compressed])
def test_npz_member_by_name(tmp_path: Path, save: object) -> None:
    table = pe.sinusoidal(N, D)
    path = tmp_path / "m.npz"
    save(path, **model_tensors(table))  # type: ignore[operator]
    loaded = load_table(str(path), "decoder.embed_positions.weight")
    assert np.array_equal(loaded.array, table)
    assert loaded.tensor == "decoder.embed_positions.weight"


def test_a_single_tensor_needs_no_name(tmp_path: Path) -> None:
    table = pe.sinusoidal(N, D)
    np.savez(tmp_path / "one.npz", table)
    assert load_table(str(tmp_path / "one.npz")).tensor == "arr_0"
    save_file({"pe": table}, str(tmp_path / "one.safetensors"))
    assert np.array_equal(load_table(str(tmp_path / "one.safetensors")).array, table)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_safetensors_tensor_by_name(tmp_path: Path, dtype: type) -> None:
    table = pe.sinusoidal(N, D, dtype=dtype)
    path = tmp_path / "model.safetensors"
    save_file(model_tensors(table), str(path))
    loaded = load_table(str(path), "decoder.embed_positions.weight")
    assert loaded.array.dtype == dtype
    assert np.array_equal(loaded.array, table)
    assert loaded.stored_dtype == np.dtype(dtype).name


def test_bfloat16_bits_widen_to_known_values() -> None:
    bits = np.array(
        [0x3F80, 0xC020, 0x3E20, 0x4049, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x0001, 0x7F7F, 0x0080],
        dtype=np.uint16,
    )
    known = [
        1.0,
        -2.5,
        0.15625,
        3.140625,
        0.0,
        -0.0,
        float("inf"),
        float("-inf"),
        2.0**-133,  # the smallest subnormal
        (2 - 2.0**-7) * 2.0**127,  # the largest finite bfloat16
        2.0**-126,  # the smallest normal
    ]
    widened = widen_bfloat16(bits)
    assert widened.dtype == np.float32
    assert widened.tolist() == known
    assert np.signbit(widened[5])
    assert not np.signbit(widened[4])
    assert np.isnan(widen_bfloat16(np.array([0x7FC0], dtype=np.uint16)))[0]


def test_bfloat16_is_the_top_half_of_float32() -> None:
    """Every float32 whose low 16 bits are zero is a bfloat16 number: widening gives it back."""
    rng = np.random.default_rng(1)
    values = rng.standard_normal(10_000).astype(np.float32)
    truncated = (values.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    bits = (truncated.view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    assert np.array_equal(widen_bfloat16(bits), truncated)
    # rounded to nearest: within half a bfloat16 unit (at most 2**-8 relative)
    nearest = widen_bfloat16(bfloat16_bits(values))
    assert np.all(np.abs(nearest - values) <= 2.0**-8 * np.abs(values))
    assert np.any(nearest != truncated)  # rounding, not truncation


def test_bfloat16_safetensors_tensor_is_read(tmp_path: Path) -> None:
    values = pe.sinusoidal(64, 16, dtype=np.float32)
    bits = bfloat16_bits(values)
    path = tmp_path / "bf16.safetensors"
    write_bfloat16(path, "pos", bits[None])  # (1, n, d): a batch of one
    loaded = load_table(str(path))
    assert loaded.stored_dtype == "bfloat16"
    assert loaded.array.shape == (1, 64, 16)
    assert np.array_equal(loaded.array[0], widen_bfloat16(bits))


@pytest.mark.parametrize(("n", "d"), [(64, 64), (512, 128), (4096, 256)])
def test_bfloat16_precision_is_what_identify_expects(n: int, d: int) -> None:
    """Slow bfloat16 columns take a few values over 1024 rows: identify still reads them."""
    values = pe.sinusoidal(n, d, dtype=np.float32)
    widened = widen_bfloat16(bfloat16_bits(values))
    found = pe.identify(widened, stored_dtype="bfloat16")
    assert found.matches_paper
    assert found.dtype == "bfloat16"
    # read as float32 values, the bfloat16 rounding is far beyond float32's precision
    assert not pe.identify(widened).is_encoding
    with pytest.raises(ValueError, match="stored_dtype must be one of"):
        pe.identify(widened, stored_dtype="float8")


def test_a_bfloat16_fairseq_table_keeps_its_layout_and_offset() -> None:
    table = conventions.get("fairseq").table(2048, 256, dtype=np.float32)
    found = pe.identify(widen_bfloat16(bfloat16_bits(table)), stored_dtype="bfloat16")
    assert (found.layout, found.order, found.position_offset) == ("halves", "sin-first", 0)
    assert found.first_token_row == 2
    assert not found.matches_paper


def test_could_be_table() -> None:
    assert could_be_table((1, 64, 8), "F32")
    assert could_be_table((64, 8), "bfloat16")
    assert not could_be_table((64, 8), "I32")
    assert not could_be_table((15, 8), "float32")  # too few rows for identify
    assert could_be_table((2, 64, 8), "float32")  # a batch of (equal) tables
    assert could_be_table((64, 1, 8), "float32")  # PyTorch's tutorial keeps its buffer so
    assert not could_be_table((2, 2, 64, 8), "float32")
    assert not could_be_table((64, 1), "float32")


# --------------------------------------------------------------------------------------------
# The command line


def test_cli_reads_a_safetensors_checkpoint(tmp_path: Path) -> None:
    table = conventions.get("fairseq").table(N + 2, D)[None].astype(np.float32)  # (1, n, d)
    path = tmp_path / "model.safetensors"
    save_file(model_tensors(table), str(path))
    result = run_pe(str(path), "--tensor", "decoder.embed_positions.weight")
    assert result.returncode == 0, result.stderr
    assert "tensor decoder.embed_positions.weight" in result.stdout
    assert "layout: halves" in result.stdout
    data = json.loads(
        run_pe(str(path), "--tensor", "decoder.embed_positions.weight", "--json").stdout
    )
    assert data["shape"] == [N + 2, D]
    assert data["layout"] == "halves"


def test_cli_lists_the_candidate_tables_when_no_name_is_given(tmp_path: Path) -> None:
    path = tmp_path / "model.safetensors"
    save_file(model_tensors(pe.sinusoidal(N, D)), str(path))
    for extra in ([], ["--tensor", "decoder.embed_position"]):
        result = run_pe(str(path), *extra)
        assert result.returncode == 2
        assert result.stdout == ""
        error = result.stderr.strip().splitlines()[-1]
        assert (
            "5 tensors; the likeliest tables: decoder.embed_positions.weight (128, 32) F64" in error
        )
        assert "decoder.layers.0.fc1.weight (64, 32) F32 [0% sinusoid columns]" in error
        assert "bias" not in error
        assert "step" not in error


def test_cli_reads_an_npz_archive(tmp_path: Path) -> None:
    path = tmp_path / "tables.npz"
    np.savez_compressed(path, **model_tensors(pe.sinusoidal(N, D, dtype=np.float32)))
    result = run_pe(str(path), "--tensor", "decoder.embed_positions.weight")
    assert result.returncode == 0, result.stderr
    assert "the paper's encoding" in result.stdout
    refused = run_pe(str(path))
    assert refused.returncode == 2
    assert "--tensor NAME is needed" in refused.stderr


def test_cli_identifies_a_bfloat16_tensor(tmp_path: Path) -> None:
    path = tmp_path / "bf16.safetensors"
    write_bfloat16(path, "pos", bfloat16_bits(pe.sinusoidal(64, 64, dtype=np.float32)))
    result = run_pe(str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["dtype"] == "bfloat16"
    assert data["matches_paper"] is True


def test_candidates_are_ranked_by_how_much_they_look_like_a_table(tmp_path: Path) -> None:
    """Whisper's one sinusoidal tensor hid in "and 7 more" of an alphabetical list: the
    ranking puts the sinusoidal table first, whatever its name, and --list shows all."""
    rng = np.random.default_rng(3)
    tensors = {
        f"a.layers.{i}.weight": rng.normal(0, 0.02, (64, 32)).astype(np.float32) for i in range(20)
    }
    tensors["b.embed_positions.weight"] = rng.normal(0, 0.02, (448, 32)).astype(np.float32)
    tensors["z.conv.weight"] = np.ascontiguousarray(pe.sinusoidal(1500, 32, dtype=np.float32))
    path = tmp_path / "whisper-like.safetensors"
    save_file(tensors, str(path))
    refused = run_pe(str(path))
    assert refused.returncode == 2
    error = refused.stderr.strip().splitlines()[-1]
    assert "the likeliest tables: z.conv.weight (1500, 32) F32 [100% sinusoid columns]; " in error
    assert "b.embed_positions.weight (448, 32) F32 [0% sinusoid columns]" in error  # the name
    assert "and 17 more (--list shows all)" in error
    listed = run_pe(str(path), "--list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 1 + 22
    assert lines[1].split()[1] == "z.conv.weight"
    assert lines[2].split()[1] == "b.embed_positions.weight"


def test_a_file_without_a_table_says_so_with_the_unsaved_buffer_hint(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    path = tmp_path / "m2m100-like.safetensors"
    save_file(
        {
            "model.encoder.embed_tokens.weight": rng.normal(0, 0.02, (100, 32)).astype(np.float32),
            "model.encoder.layers.0.fc1.weight": rng.normal(0, 0.02, (64, 32)).astype(np.float32),
            "model.encoder.layer_norm.weight": np.ones(32, dtype=np.float32),
        },
        str(path),
    )
    refused = run_pe(str(path))
    error = refused.stderr.strip().splitlines()[-1]
    assert refused.returncode == 2
    assert "none looks like a sinusoidal table" in error
    assert "keep their sinusoidal table as a buffer that is not saved" in error
    listed = run_pe(str(path), "--list")
    assert "no tensor looks like a sinusoidal table" in listed.stdout
    vector = tmp_path / "vector.safetensors"
    save_file({"a": np.ones(32, np.float32), "b": np.ones(8, np.float32)}, str(vector))
    assert "none could be a table; many models" in run_pe(str(vector)).stderr


@pytest.mark.parametrize("shape", ["(n, 1, d)", "(b, n, d)"])
def test_tables_of_three_axes_from_files(tmp_path: Path, shape: str) -> None:
    table = pe.sinusoidal(80, 16, dtype=np.float32)
    held = table[:, None, :] if shape == "(n, 1, d)" else np.stack([table] * 3)
    np.save(tmp_path / "t.npy", held)
    np.savez(tmp_path / "t.npz", pe=held, other=np.zeros(4))
    for name in ("t.npy", "t.npz"):
        extra = ["--tensor", "pe"] if name.endswith("npz") else []
        result = run_pe(str(tmp_path / name), *extra)
        assert result.returncode == 0, result.stderr
        assert "table: 80 rows x 16 columns, float32" in result.stdout
    different = np.stack([table, -table])
    np.save(tmp_path / "two.npy", different)
    refused = run_pe(str(tmp_path / "two.npy"))
    assert refused.returncode == 2
    assert "holds 2 different (n, d) tables" in refused.stderr


def write_safetensors(path: Path, header: bytes, data: bytes = b"") -> None:
    """A ``.safetensors`` file made byte by byte: the header's length, the header, the data."""
    path.write_bytes(len(header).to_bytes(8, "little") + header + data)


def test_a_header_is_read_up_to_the_limit_and_refused_one_byte_above(tmp_path: Path) -> None:
    limit = _safetensors.MAX_HEADER_BYTES
    at = tmp_path / "at.safetensors"
    write_safetensors(at, b"{}" + b" " * (limit - 2))  # an empty header of exactly `limit` bytes
    tensors, _ = _safetensors.safetensors_tensors(at, "at")
    assert tensors == []
    above = tmp_path / "above.safetensors"
    write_safetensors(above, b"{}" + b" " * (limit - 1))
    refused = f"above: a header of {limit + 1} bytes, above pe's limit of {limit // 10**6} MB"
    with pytest.raises(ValueError, match=re.escape(refused)):
        _safetensors.safetensors_tensors(above, "above")


#: The NumPy dtype the ``safetensors`` package writes under each name it shares with pe.
NUMPY_DTYPES = {
    "F64": np.float64, "F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32,
    "I16": np.int16, "I8": np.int8, "U64": np.uint64, "U32": np.uint32, "U16": np.uint16,
    "U8": np.uint8, "BOOL": np.bool_,
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NUMPY_DTYPES))
def test_bytes_per_element_are_those_the_safetensors_package_writes(
    tmp_path: Path, name: str
) -> None:
    """The package's own header names the dtype and spans the bytes pe expects."""
    path = tmp_path / f"{name}.safetensors"
    save_file({"t": np.zeros((2, 3), dtype=NUMPY_DTYPES[name])}, str(path))
    length = int.from_bytes(path.read_bytes()[:8], "little")
    entry = json.loads(path.read_bytes()[8 : 8 + length])["t"]
    begin, end = entry["data_offsets"]
    assert (entry["dtype"], end - begin) == (name, 6 * _safetensors.SAFETENSORS_ITEMSIZE[name])


def bits_in_name(name: str) -> int:
    """Bytes per element read off a safetensors dtype's name: its bits over 8 (BOOL: 1)."""
    found = re.search(r"\d+", name)
    return 1 if found is None else int(found.group()) // 8


@pytest.mark.parametrize("name", sorted(_safetensors.SAFETENSORS_ITEMSIZE))
def test_a_tensor_fits_exactly_its_bytes(tmp_path: Path, name: str) -> None:
    """A (2, 3) tensor spans 6 elements' bytes: accepted at that span, refused one byte
    shorter or longer (every dtype, bfloat16 and float8 included)."""
    size = 6 * bits_in_name(name)
    for span in (size - 1, size, size + 1):
        entry = {"dtype": name, "shape": [2, 3], "data_offsets": [0, span]}
        path = tmp_path / f"{name}-{span}.safetensors"
        write_safetensors(path, json.dumps({"t": entry}).encode(), bytes(span))
        if span == size:
            tensors, _ = _safetensors.safetensors_tensors(path, "f")
            assert tensors == [_tensors.Stored("t", (2, 3), name)]
        else:
            with pytest.raises(ValueError, match="does not fit its bytes"):
                _safetensors.safetensors_tensors(path, "f")


@pytest.mark.parametrize("extra", [0, 1])
def test_an_error_shows_the_first_candidates_and_counts_the_rest(extra: int) -> None:
    shown = _tensors.SHOWN
    tensors = [_tensors.Stored(f"l.{i}.weight", (64, 32), "F32") for i in range(shown + extra)]
    with pytest.raises(ValueError, match="--tensor NAME is needed") as refused:
        _tensors.choose("f", tensors, None, {})
    message = str(refused.value)
    assert message.count("(64, 32) F32") == shown
    assert ("more (--list shows all)" in message) == (extra > 0)
    assert f"and {extra} more" in message or extra == 0


def test_a_tensor_of_an_unknown_dtype_spans_the_bytes_its_offsets_give(tmp_path: Path) -> None:
    """A dtype pe does not know (a future float format) takes its size from its offsets,
    wherever in the data it starts: after a float32 tensor here, at byte 24."""
    first = {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}
    later = {"dtype": "F4_FUTURE", "shape": [5], "data_offsets": [24, 27]}
    path = tmp_path / "unknown.safetensors"
    write_safetensors(path, json.dumps({"a": first, "b": later}).encode(), bytes(27))
    tensors, _ = _safetensors.safetensors_tensors(path, "f")
    assert _tensors.Stored("b", (5,), "F4_FUTURE") in tensors
    backwards = {"dtype": "F4_FUTURE", "shape": [5], "data_offsets": [24, 20]}
    write_safetensors(path, json.dumps({"a": first, "b": backwards}).encode(), bytes(27))
    with pytest.raises(ValueError, match="does not fit its bytes"):
        _safetensors.safetensors_tensors(path, "f")


@pytest.mark.parametrize("overrun", [1, 4, 8])
def test_a_header_length_past_the_end_of_the_file_is_refused(tmp_path: Path, overrun: int) -> None:
    """A file of 32 bytes (8 of them the length) whose header claims 24 + ``overrun``
    bytes: more than the file holds, refused before any byte of it is read."""
    path = tmp_path / "short.safetensors"
    path.write_bytes((24 + overrun).to_bytes(8, "little") + b"{}" + b" " * 22)
    with pytest.raises(ValueError, match=r"the header length \d+ exceeds the file \(32 bytes\)"):
        _safetensors.safetensors_tensors(path, "short")
