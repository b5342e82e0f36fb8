"""pe.rope_scaling against transformers' own scaled-RoPE code, its edges and its guards."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from pe import rope_scaling
from pe.rope_scaling import llama3_frequencies, rotate_halves, yarn_frequencies, yarn_gain

from .frameworks import require

EPS32 = float(np.finfo(np.float32).eps)
PAPER = {64: 10000.0 ** (-np.arange(0, 64, 2) / 64)}


def transformers_frequencies(params: dict[str, Any], d: int) -> tuple[np.ndarray, float]:
    """transformers' ``ROPE_INIT_FUNCTIONS[rope_type]`` for a Llama head of width ``d``."""
    require("torch")
    require("transformers")
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    config = LlamaConfig(
        hidden_size=2 * d,
        num_attention_heads=2,
        max_position_embeddings=4 * params["original_max_position_embeddings"],
        rope_parameters=params,
    )
    inverse, gain = ROPE_INIT_FUNCTIONS[params["rope_type"]](config, None)
    return inverse.double().numpy(), float(gain)


@pytest.mark.parametrize("d", [16, 64, 128])
@pytest.mark.parametrize(("base", "factor", "original"), [(5e5, 8.0, 8192), (1e4, 4.0, 2048)])
def test_llama3_is_what_transformers_computes(
    d: int, base: float, factor: float, original: int
) -> None:
    params = {
        "rope_type": "llama3",
        "rope_theta": base,
        "factor": factor,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": original,
    }
    theirs, gain = transformers_frequencies(params, d)
    mine = llama3_frequencies(d, base=base, factor=factor, original_positions=original)
    # transformers rounds each step to float32: a few float32 epsilons apart, no more
    assert np.abs(theirs / mine - 1).max() <= 8 * EPS32
    assert gain == 1.0
    # the wrong neighbour: every pair divided (position interpolation) is far from it
    assert np.abs(theirs / (mine / factor) - 1).max() > 0.5


@pytest.mark.parametrize("d", [16, 64, 128])
@pytest.mark.parametrize(("factor", "original"), [(4.0, 2048), (8.0, 4096), (16.0, 512)])
def test_yarn_is_what_transformers_computes(d: int, factor: float, original: int) -> None:
    params = {
        "rope_type": "yarn",
        "rope_theta": 10000.0,
        "factor": factor,
        "original_max_position_embeddings": original,
    }
    theirs, gain = transformers_frequencies(params, d)
    assert (
        np.abs(theirs / yarn_frequencies(d, factor=factor, original_positions=original) - 1).max()
        <= 8 * EPS32
    )
    assert math.isclose(gain, yarn_gain(factor), rel_tol=1e-15)
    # the wrong neighbours: every pair divided (position interpolation), or none
    paper = 10000.0 ** (-np.arange(0, d, 2) / d)
    assert np.abs(theirs / (paper / factor) - 1).max() > 0.5
    assert np.abs(theirs / paper - 1).max() > 0.5


@pytest.mark.parametrize("beta_slow", [1e-6, 1e-9])
def test_yarn_clamps_its_slow_correction_as_transformers_does(beta_slow: float) -> None:
    """A slow correction beyond the last dimension (a small beta_slow) is clamped to d - 1,
    as transformers clamps it: the ramp then ends past the last pair."""
    d, original = 64, 2048
    params = {
        "rope_type": "yarn",
        "rope_theta": 10000.0,
        "factor": 4.0,
        "original_max_position_embeddings": original,
        "beta_fast": 32.0,
        "beta_slow": beta_slow,
    }
    theirs, _ = transformers_frequencies(params, d)
    mine = yarn_frequencies(d, factor=4.0, original_positions=original, beta_slow=beta_slow)
    assert np.abs(theirs / mine - 1).max() <= 8 * EPS32
    assert theirs[-1] > PAPER[d][-1] / 4 * (1 + 1e-3)  # the last pair is not fully divided


def test_llama3_keeps_fast_pairs_divides_slow_ones_and_blends_between() -> None:
    w = llama3_frequencies(64, base=1e4, factor=8.0, original_positions=8192)
    wavelength = 2 * np.pi / PAPER[64]
    fast, slow = wavelength < 8192 / 4, wavelength > 8192
    assert np.array_equal(w[fast], PAPER[64][fast])
    assert np.allclose(w[slow], PAPER[64][slow] / 8, rtol=1e-15, atol=0)
    between = ~fast & ~slow
    assert between.any()
    assert np.all((w[between] < PAPER[64][between]) & (w[between] > PAPER[64][between] / 8))


def test_yarn_ramp_runs_between_its_correction_pairs() -> None:
    w = yarn_frequencies(64, factor=4.0, original_positions=2048)
    ratio = w / PAPER[64]
    # c(32) = 8.06 -> pair 8, c(1) = 20.1 -> pair 21 for d = 64, base 1e4, L = 2048
    assert np.array_equal(ratio[:9], np.ones(9))
    assert np.allclose(ratio[21:], 0.25, rtol=1e-15, atol=0)
    assert np.all(np.diff(ratio[8:22]) < 0)


def test_yarn_gain_is_one_without_scaling() -> None:
    assert yarn_gain(1.0) == 1.0
    assert yarn_gain(0.5) == 1.0
    assert yarn_gain(math.e) == pytest.approx(1.1, rel=1e-15, abs=0)


def test_rotate_halves_turns_pair_i_and_i_plus_half() -> None:
    fn = rotate_halves([1.0, 0.5], gain=2.0)
    x = np.array([[1.0, 0.0, 0.0, 0.0]])
    out = fn(x, np.array([1.0]))
    assert np.allclose(out, [[2 * math.cos(1.0), 0.0, 2 * math.sin(1.0), 0.0]], rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: llama3_frequencies(63, base=5e5), "d_model"),
        (lambda: llama3_frequencies(64, base=5e5, factor=0.5), "factor"),
        (
            lambda: llama3_frequencies(64, base=5e5, low_freq_factor=4.0, high_freq_factor=1.0),
            "low_freq",
        ),
        (lambda: llama3_frequencies(64, base=5e5, original_positions=0), "original_positions"),
        (lambda: yarn_frequencies(64, base=-1.0), "base"),
        (lambda: yarn_frequencies(64, factor=float("nan")), "factor"),
        (lambda: rotate_halves([1.0], gain=float("inf")), "gain"),
    ],
)
def test_bad_input_is_a_one_line_value_error(call: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()


def test_public_names() -> None:
    assert sorted(rope_scaling.__all__) == [
        "llama3_frequencies",
        "rotate_halves",
        "yarn_frequencies",
        "yarn_gain",
    ]
