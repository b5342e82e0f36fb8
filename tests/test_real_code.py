"""pe against real third-party code: its named conventions, pe.testing and pe identify.

Two kinds of tests. The first kind reads what real libraries computed, recorded by
``tests/real_code/record.py`` (its versions and command in ``recorded.json``), and runs
everywhere. The second kind runs the libraries themselves (PyTorch, transformers,
positional-encodings, diffusers): locally they skip without them, in CI (``CI`` set) they must run
(:func:`tests.frameworks.require`); they also check that the recordings are still what the
libraries compute.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pe
from pe import conventions, recipes, relative, rotary
from pe.chapters import conventions as conventions_chapter
from pe.chapters import relative_family, rope
from pe.identify import load_table
from pe.testing import assert_convention, assert_matches_paper, assert_rope_relative

from .conftest import run_pe
from .frameworks import require
from .real_code import record

HERE = Path(__file__).resolve().parent / "real_code"
RECORDED = dict(np.load(HERE / "recorded.npz"))
INFO = json.loads((HERE / "recorded.json").read_text())
#: Conventions of pe.conventions that describe no library (variants that show one choice).
NO_LIBRARY = {"halves-cos-first", "interleaved-cos-first", "one-indexed"}
LIBRARY_NAMES = ("fairseq", "tensor2tensor", "Marian", "M2M100", "TensorFlow", "FSMT", "XGLM")
EPS32 = 2.0**-23


def recordings() -> list[tuple[str, str, int, int]]:
    return [
        (convention, library, n, d)
        for convention, libraries in record.RECORDERS.items()
        for library in libraries
        for n, d in record.SHAPES
    ]


def _two_d(values: np.ndarray) -> np.ndarray:
    """A recorded (n, d), (1, n, d), (n, 1, d) or (b, n, d) array as the (n, d) table."""
    if values.ndim == 3:
        return values[:, 0] if values.shape[1] == 1 else values[0]
    return values


def within_float32(real: np.ndarray, convention: conventions.Convention) -> float:
    """Largest ratio of |real - pe| to a float32 producer's error, entry by entry.

    A library forming the angles in float32 errs by about eps (1 + p w (1 + |ln w|)): the
    angle's rounding, amplified by the exponential that forms w (tensor2tensor's law is
    exp(-k ln(b)/(h - 1)) in float32); 4 times that is allowed.
    """
    table = _two_d(real).astype(np.float64)
    n, d = table.shape
    exact = convention.table(n, d)
    pair, _ = conventions.column_roles(d, convention.layout, convention.order)
    w = convention.frequencies(d)[pair]
    p = np.arange(convention.offset, convention.offset + n)[:, None]
    tolerance = 4 * EPS32 * (1 + p * w * (1 + np.abs(np.log(w))))
    if convention.padding_row is not None and table[convention.padding_row].any():
        return math.inf  # the padding row must be zeros, exactly
    return float(np.max(np.abs(table - exact) / tolerance))


# --------------------------------------------------------------------------------------------
# The recordings: every named convention against the library it names


def test_every_named_convention_is_recorded_from_a_library() -> None:
    assert set(record.RECORDERS) | NO_LIBRARY == set(conventions.CONVENTIONS)
    for name in NO_LIBRARY:  # these name no library, so there is none to check against
        assert not any(lib in conventions.get(name).title for lib in LIBRARY_NAMES)
    assert INFO["command"] == record.COMMAND
    assert set(INFO["versions"]) == set(record.PACKAGES)
    assert set(RECORDED) == {record.key(*r) for r in recordings()}


@pytest.mark.parametrize(("convention", "library", "n", "d"), recordings())
def test_the_recorded_table_is_its_convention_and_no_other(
    convention: str, library: str, n: int, d: int
) -> None:
    real = RECORDED[record.key(convention, library, n, d)]
    assert within_float32(real, conventions.get(convention)) <= 1.0
    for other, candidate in conventions.CONVENTIONS.items():
        if other != convention:  # the neighbouring conventions are far from it
            assert within_float32(real, candidate) > 100.0, other


@pytest.mark.parametrize(("convention", "library", "n", "d"), recordings())
def test_pe_testing_passes_the_recorded_table(
    convention: str, library: str, n: int, d: int
) -> None:
    real = RECORDED[record.key(convention, library, n, d)]
    c = conventions.get(convention)
    assert_convention(
        real,
        layout=c.layout,
        order=c.order,
        law=c.law if c.law != "one-indexed" else "other",
        base=c.base,
        offset=c.offset,
        padding_row=c.padding_row,
    )
    if convention == "paper":
        assert_matches_paper(real)
    found = pe.identify(real)
    assert (found.position_offset, found.first_token_row) == (c.offset, c.first_token_row)


def test_fairseqs_stored_table_no_longer_passes_as_documented_before() -> None:
    """The description this branch corrected (offset 2) fails on the real stored table."""
    real = RECORDED[record.key("fairseq", "m2m100", 66, 32)]
    with pytest.raises(AssertionError, match="offset: row 0 is position 0, expected 2"):
        assert_convention(real, layout="halves", law="tensor2tensor", offset=2)
    found = pe.identify(real)
    assert any("the first token reads row 2 (position 2)" in note for note in found.notes)


# --------------------------------------------------------------------------------------------
# PyTorch files written by torch.save, read without torch


def test_a_torch_state_dict_is_read_without_torch() -> None:
    path = str(HERE / "fairseq_model.bin")
    loaded = load_table(path, "model.encoder.embed_positions.weight")
    assert loaded.stored_dtype == "float32"
    assert within_float32(loaded.array, conventions.get("fairseq")) <= 1.0
    fc1 = load_table(path, "model.encoder.layers.0.fc1.weight").array
    fc2 = load_table(path, "model.encoder.layers.0.fc2.weight").array  # a transposed view
    assert np.array_equal(fc2, fc1.T)
    bf16 = load_table(path, "model.decoder.embed_positions.weight")
    assert bf16.stored_dtype == "bfloat16"
    assert np.max(np.abs(bf16.array - loaded.array)) <= 2.0**-9
    with pytest.raises(ValueError, match="does not hold float16, bfloat16, float32"):
        load_table(path, "model.encoder.version")


def test_cli_identifies_fairseq_in_a_pytorch_model_bin() -> None:
    path = str(HERE / "fairseq_model.bin")
    result = run_pe("identify", path, "--tensor", "model.encoder.embed_positions.weight")
    assert result.returncode == 0, result.stderr
    assert "layout: halves, sin-first" in result.stdout
    assert "law: tensor2tensor" in result.stdout
    assert "row 0 is position 0" in result.stdout
    assert "tokens start at row 2 (position 2)" in result.stdout
    ranked = run_pe("identify", path)
    assert ranked.returncode == 2
    assert "the likeliest tables: model.encoder.embed_positions.weight (130, 32)" in (ranked.stderr)
    listed = run_pe("identify", path, "--list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()[1:]
    assert len(lines) == 8  # every tensor, the two sinusoidal tables first
    assert {lines[0].split()[1], lines[1].split()[1]} == {
        "model.encoder.embed_positions.weight",
        "model.decoder.embed_positions.weight",
    }
    assert "[100% sinusoid columns]" in lines[0]


def test_the_tutorials_buffer_of_shape_n_1_d_is_the_papers() -> None:
    result = run_pe("identify", str(HERE / "tutorial_buffer.pt"))
    assert result.returncode == 0, result.stderr
    assert "the paper's encoding" in result.stdout
    assert "table: 80 rows x 16 columns, float32" in result.stdout


def test_a_legacy_torch_file_is_refused() -> None:
    result = run_pe("identify", str(HERE / "legacy.pt"))
    assert result.returncode == 2
    assert "not a zip-format PyTorch file" in result.stderr.splitlines()[-1]


# --------------------------------------------------------------------------------------------
# The libraries themselves (skipped locally without them, required in CI)


@pytest.mark.parametrize(("convention", "library", "n", "d"), recordings())
def test_the_recordings_are_what_the_libraries_compute(
    convention: str, library: str, n: int, d: int
) -> None:
    require("torch")
    require("transformers")
    require("positional_encodings")
    if library == "diffusers":
        require("diffusers")
    _, make = record.RECORDERS[convention][library]
    now = record.run(make, n, d)
    recorded = RECORDED[record.key(convention, library, n, d)]
    assert now.shape == recorded.shape
    # the same code may round differently on another processor: within float32's model
    assert within_float32(now, conventions.get(convention)) <= 1.0
    assert np.max(np.abs(now.astype(np.float64) - recorded)) <= 4 * EPS32 * (1 + n)


@pytest.mark.parametrize("setting", record.T5_SETTINGS, ids=str)
def test_the_t5_recording_is_what_transformers_computes(setting: tuple[bool, int, int]) -> None:
    """The oracle of the claim ``t5-buckets`` is transformers' own bucketing, run now."""
    require("torch")
    require("transformers")
    bidirectional, num_buckets, max_distance = setting
    recorded = next(
        s["buckets"]
        for s in relative_family.t5_recorded()["settings"]
        if (s["bidirectional"], s["num_buckets"], s["max_distance"]) == setting
    )
    assert record.t5_buckets(bidirectional, num_buckets, max_distance) == recorded


@pytest.mark.parametrize("model", list(rope.rope_recorded()["models"]))
def test_the_rope_recording_is_what_transformers_computes(model: str) -> None:
    """The oracle of the claim ``rope-pairings-in-public-code``: each model's RoPE code in
    transformers, run now, turns vectors as recorded (within float32's sines)."""
    require("torch")
    require("transformers")
    recording = rope.rope_recorded()
    _, fn = record.rope_codes(recording["width"])[model]
    for position, recorded in zip(
        recording["positions"], recording["models"][model]["maps"], strict=True
    ):
        now = record.rope_map(fn, recording["width"], position)
        assert np.max(np.abs(now - np.array(recorded))) <= 8 * 2.0**-24 * (1 + position)


def test_the_rope_claim_reads_a_flipped_sign_and_a_moved_origin_in_the_maps() -> None:
    """A map whose pairs turn the other way, or that is the identity at position 1, is read
    as such: the claim's check fails on code that does either."""
    recording = rope.rope_recorded()
    maps = [np.array(m) for m in recording["models"]["RoFormer"]["maps"]]
    positions = recording["positions"]
    assert rotary.read_rope_code(maps, positions) == rotary.RopeCode("adjacent", 16, 1, 0)
    flipped = [m.T for m in maps]  # the inverse turn: clockwise
    assert rotary.read_rope_code(flipped, positions).sign == -1
    # code counting from 1: position 0 turns back one step, position 1 does not turn
    shifted = [maps[1].T, maps[0], maps[1], maps[3]]
    assert rotary.read_rope_code(shifted, positions) == rotary.RopeCode("adjacent", 16, 1, 1)


def test_the_surveys_tables_are_the_recorded_ones_and_a_wrong_table_fails_the_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The package's copy of the survey's tables is the recording; a table whose halves are
    swapped (cos first) fails the survey's check."""
    tables = conventions_chapter.surveyed_tables()
    n, d = record.SHAPES[0]
    for name, stem in record.SURVEYED.items():
        assert np.array_equal(tables[name], RECORDED[f"{stem}__{n}x{d}"]), name
    check = conventions_chapter._survey
    assert check(conventions_chapter.SURVEY).holds
    swapped = dict(tables, Marian=np.roll(tables["Marian"], d // 2, axis=1))
    monkeypatch.setattr(conventions_chapter, "surveyed_tables", lambda: swapped)
    assert not check(conventions_chapter.SURVEY).holds


@pytest.mark.parametrize("name", list(record.SURVEYED))
def test_the_odd_width_recordings_are_what_the_libraries_do(name: str) -> None:
    """The oracle of the survey's "odd width" column: each library, run now at 66 x 33,
    raises the recorded exception or returns the recorded table (within float32's model)."""
    require("torch")
    require("transformers")
    convention, library = record.SURVEYED[name].split("__")
    if library == "diffusers":
        require("diffusers")
    n, d = record.SHAPES[0][0], record.ODD_WIDTH
    now = record.odd_width_outcome(record.RECORDERS[convention][library][1], n, d)
    recorded = conventions_chapter.surveyed_odd_widths()[name]
    if recorded.dtype.kind == "U":
        assert now.dtype.kind == "U", f"{name} no longer raises: {now.shape}"
        assert str(now).split(":")[0] == str(recorded).split(":")[0]
    else:
        assert now.shape == recorded.shape
        assert np.max(np.abs(now.astype(np.float64) - recorded)) <= 4 * EPS32 * (1 + n)


def test_the_surveys_odd_widths_are_read_and_a_wrong_outcome_fails_the_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each recorded odd-width outcome is read as the survey states it; a library that
    padded where it added a sine, returned a table where it raised, or returned one column
    more, fails the survey's check."""
    chapter = conventions_chapter
    odd = chapter.surveyed_odd_widths()
    assert set(odd) == set(record.SURVEYED) == set(chapter.SURVEY)
    assert chapter.ODD_WIDTH == record.ODD_WIDTH
    n, d = record.SHAPES[0][0], record.ODD_WIDTH
    for name, outcome in odd.items():
        assert conventions.odd_width_outcome(outcome, d) is chapter.SURVEY[name].odd_width, name
        assert outcome.shape in {(), (n, d)}, name
    assert chapter._survey(chapter.SURVEY).holds
    padded = odd["Marian"].copy()
    padded[:, -1] = 0
    wider = np.hstack([odd["M2M100"], odd["M2M100"][:, :1]])
    for name, outcome in {
        "Marian": padded,  # a zero column where Marian adds a sine
        "PyTorch tutorial": odd["DistilBERT"],  # a table where the tutorial raises
        "M2M100": wider,  # one column more
        "DistilBERT": np.array("ValueError: odd"),  # refused where DistilBERT adds a sine
    }.items():
        monkeypatch.setattr(chapter, "surveyed_odd_widths", lambda o=outcome, k=name: odd | {k: o})
        assert not chapter._survey(chapter.SURVEY).holds, name
    monkeypatch.setattr(chapter, "surveyed_odd_widths", dict)
    assert not chapter._survey(chapter.SURVEY).holds  # nothing recorded: not confirmed


def test_odd_width_outcomes_are_told_apart() -> None:
    """The reader of an odd-width outcome: a wider table, a duplicated sine, a cosine where
    the zero column should be, a kept (n, 1, d) buffer."""
    outcome, odd_width = conventions.odd_width_outcome, conventions.OddWidth
    p = np.arange(10.0)[:, None]
    pairs = np.hstack([np.sin(p), np.sin(p / 50), np.cos(p), np.cos(p / 50)])
    assert outcome(np.hstack([pairs, np.sin(p / 9), 0 * p]), 5) is odd_width.ONE_WIDER
    assert outcome(np.hstack([pairs, 0 * p]), 5) is odd_width.ZERO_COLUMN
    one_short = np.hstack([pairs[:, :1], 0.5 + 0 * p, pairs[:, 2:], 0 * p])
    assert outcome(one_short, 5) is odd_width.OTHER  # a zero column, but a sine replaced
    assert outcome(np.hstack([0 * p, pairs]), 5) is odd_width.OTHER  # zero column first
    assert outcome(np.hstack([pairs, np.cos(p / 9)]), 5) is odd_width.OTHER  # an extra cosine
    assert outcome(np.hstack([pairs, np.sin(p / 50)]), 5) is odd_width.OTHER  # a repeated sine
    extra = np.hstack([pairs, np.sin(p / 9)])
    assert outcome(extra, 5) is odd_width.EXTRA_SINE
    assert outcome(extra[:, None, :], 5) is odd_width.EXTRA_SINE
    assert outcome(pairs, 5) is odd_width.OTHER  # the even width it was not asked for


def test_megatron_535_path_in_numpy_is_what_torch_computes() -> None:
    """The claim ``megatron-535-float16-positions`` recomputes the issue's code path in
    NumPy; PyTorch, running that path (frequencies in float32, then the module cast to
    half, the positions cast to their type, an einsum), gives the very same angles."""
    torch = require("torch")
    n, dim = 32_768, 128
    frequencies = (1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))).half()
    positions = torch.arange(n).type_as(frequencies)
    angles = torch.einsum("i,j->ij", positions, frequencies)
    mine = recipes.megatron_535_angles(n, dim, np.float16)
    assert angles.dtype == torch.float16
    assert np.array_equal(angles.numpy(), mine)


def test_the_alibi_recording_is_what_transformers_computes() -> None:
    """The oracle of the claim ``alibi-slopes`` is BLOOM's own code, run now for every
    recorded head count (its float32 power may round otherwise on another processor)."""
    require("torch")
    require("transformers")
    recorded = relative_family.alibi_recorded()["slopes"]
    assert list(recorded) == [str(h) for h in record.ALIBI_HEADS]
    for heads, slopes in recorded.items():
        now = np.array(record.alibi_slopes(int(heads)))
        assert now.shape == (int(heads),)
        assert np.max(np.abs(now / np.array(slopes) - 1)) <= 2 * 4 * EPS32, heads


def test_the_alibi_claim_rejects_slopes_wrong_at_one_head() -> None:
    """pe's slopes with two heads swapped at one head count, or one slope off by 1e-5,
    fail the claim's oracle check; the true ones pass it."""

    def swapped(heads: int) -> Any:
        out = relative.alibi_slopes(heads).copy()
        if heads == 12:
            out[[8, 9]] = out[[9, 8]]
        return out

    def nudged(heads: int) -> Any:
        out = relative.alibi_slopes(heads).copy()
        if heads == 40:
            out[-1] *= 1 + 1e-5
        return out

    check = relative_family._alibi_recorded
    assert check(relative.alibi_slopes).holds
    assert not check(swapped).holds
    assert not check(nudged).holds


def test_the_t5_layout_recording_is_what_transformers_builds() -> None:
    require("torch")
    require("transformers")
    assert record.t5_layout() == relative_family.t5_recorded()["layout"]


def test_the_t5_claim_rejects_a_bucketing_wrong_at_one_position() -> None:
    """pe's bucketing broken at a single relative position (one setting, one r) fails the
    claim's oracle check; the true one passes it."""
    recording = relative_family.t5_recorded()["settings"][0]
    boundary = recording["first"] + int(np.argmax(np.diff(recording["buckets"]) != 0)) + 1

    def broken(rel: Any, **kw: Any) -> Any:
        out = np.array(relative.t5_bucket(rel, **kw))
        out[np.asarray(rel) == boundary] += 1
        return out

    check = relative_family._t5_recorded
    assert check(relative.t5_bucket).holds
    assert not check(broken).holds


def test_torch_load_and_pe_read_the_same_values(tmp_path: Path) -> None:
    torch = require("torch")
    require("transformers")  # record.fsmt_weight runs transformers' FSMT port
    saved = torch.load(HERE / "fairseq_model.bin", weights_only=True)
    for name, tensor in saved.items():
        if tensor.dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
            mine = load_table(str(HERE / "fairseq_model.bin"), name).array
            assert np.array_equal(mine, tensor.detach().float().numpy()), name
    # a file written now, with a fairseq port's table as its only tensor
    path = tmp_path / "pytorch_model.bin"
    torch.save({"embed_positions.weight": record.fsmt_weight(258, 64)}, path)
    result = run_pe("identify", str(path), "--tensor", "embed_positions.weight")
    assert result.returncode == 0, result.stderr
    assert "tokens start at row 2" in result.stdout


SHAPES_TRIED = [(n, d) for n in (16, 64, 100, 512, 1000, 2048) for d in (4, 16, 64, 128, 512)]


@pytest.mark.parametrize(("n", "d"), SHAPES_TRIED)
def test_pytorch_tutorial_and_positional_encodings_pass_at_every_shape(n: int, d: int) -> None:
    torch = require("torch")
    encodings = require("positional_encodings.torch_encodings")
    assert_matches_paper(record.tutorial_table(n, d))  # (n, 1, d), float32
    for batch in (1, 3):
        table = encodings.PositionalEncoding1D(d)(torch.zeros(batch, n, d))
        assert_matches_paper(table)


@pytest.mark.parametrize(("n", "d"), [(64, 32), (300, 128), (1026, 512)])
def test_real_fairseq_tables_match_the_named_convention(n: int, d: int) -> None:
    require("torch")
    require("transformers")
    stored = conventions.get("fairseq")
    for library in ("m2m100", "xglm", "speech2text", "fsmt"):
        real = record.RECORDERS["fairseq"][library][1](n, d)
        assert_convention(
            real, layout="halves", order="sin-first", law="tensor2tensor", offset=0, padding_row=1
        )
        assert within_float32(record.run(lambda *_, r=real: r, n, d), stored) <= 1.0


def test_bfloat16_tables_from_torch_and_jax_in_the_python_api() -> None:
    torch = require("torch")
    jnp = require("jax.numpy")
    table = pe.sinusoidal(512, 64)
    for held in (
        torch.tensor(table).to(torch.bfloat16),
        torch.tensor(table, requires_grad=True),
        jnp.asarray(table, dtype=jnp.bfloat16),
    ):
        assert_matches_paper(held)
        found = pe.identify(held)
        assert found.matches_paper, found.reason
    assert pe.identify(torch.tensor(table).to(torch.bfloat16)).dtype == "bfloat16"
    assert pe.identify(jnp.asarray(table, dtype=jnp.bfloat16)).dtype == "bfloat16"
    # bfloat16 angles are a bug: the float32 recipe computed in bfloat16 fails
    position = torch.arange(512, dtype=torch.bfloat16)[:, None]
    inverse = torch.exp(torch.arange(0, 64, 2) * (-math.log(10000.0) / 64)).to(torch.bfloat16)
    angles = position * inverse
    wrong = torch.stack([angles.sin(), angles.cos()], -1).reshape(512, 64)
    with pytest.raises(AssertionError):
        assert_matches_paper(wrong)


# --------------------------------------------------------------------------------------------
# Real RoPE: Hugging Face's Llama (with its scalings), GPT-NeoX, GPT-J, rotary-embedding-torch

HEAD = 64


def hf_rope(model: str, rope_parameters: dict[str, Any]) -> Any:
    """``fn(x, positions)`` running transformers' rotary embedding of ``model`` on ``x``."""
    require("torch")
    require("transformers")
    return record.hf_rope(model, rope_parameters, HEAD)


LLAMA: dict[str, dict[str, Any]] = {
    "default": {"rope_type": "default", "rope_theta": 10000.0},
    "llama3.1": {
        "rope_type": "llama3",
        "rope_theta": 500000.0,
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
    "theta-1e7": {"rope_type": "default", "rope_theta": 1e7},
    "linear": {"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0},
    "dynamic-ntk": {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0},
    "yarn": {
        "rope_type": "yarn",
        "rope_theta": 10000.0,
        "factor": 4.0,
        "original_max_position_embeddings": 1024,
    },
}


@pytest.mark.parametrize("variant", list(LLAMA))
def test_hugging_faces_llama_rope_passes_with_every_scaling(variant: str) -> None:
    parameters = LLAMA[variant]
    fn = hf_rope("llama", parameters)
    theta = float(parameters["rope_theta"])
    # HF forms its angles in float32 whatever x's dtype: told so at float64's precision
    with pytest.raises(AssertionError, match=r"pass angle_dtype=numpy\.float32"):
        assert_rope_relative(fn, HEAD, base=theta)
    found = assert_rope_relative(fn, HEAD, base=theta, angle_dtype=np.float32)
    assert found == "halves"
    with pytest.raises(AssertionError, match=re.escape(f"follow base {theta:.6g}")):
        assert_rope_relative(fn, HEAD, base=theta * 3, angle_dtype=np.float32)
    with pytest.raises(AssertionError, match="uses the halves pairing"):
        assert_rope_relative(fn, HEAD, pairing="adjacent", base=theta, angle_dtype=np.float32)


def test_gpt_neox_partial_rotary() -> None:
    parameters = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}
    fn = hf_rope("neox", parameters)
    with pytest.raises(AssertionError, match="rotary_dim=16"):
        assert_rope_relative(fn, HEAD, angle_dtype=np.float32)
    found = assert_rope_relative(fn, HEAD, rotary_dim=16, angle_dtype=np.float32)
    assert found == "halves"


def test_gpt_j_and_rotary_embedding_torch_pair_adjacent_columns() -> None:
    torch = require("torch")
    require("transformers")
    rotary_embedding = require("rotary_embedding_torch")
    gptj = record.gptj_rope(16)  # rotary_dim 16 of 64
    assert assert_rope_relative(gptj, HEAD, rotary_dim=16) == "adjacent"
    rotary = rotary_embedding.RotaryEmbedding(dim=HEAD)

    def lucidrains(x: np.ndarray, positions: np.ndarray) -> Any:
        freqs = rotary(torch.tensor(positions, dtype=torch.float32))
        return rotary_embedding.apply_rotary_emb(freqs, torch.tensor(x, dtype=torch.float32))

    assert assert_rope_relative(lucidrains, HEAD, pairing="adjacent") == "adjacent"
    with pytest.raises(AssertionError, match="uses the adjacent pairing"):
        assert_rope_relative(lucidrains, HEAD, pairing="halves")
