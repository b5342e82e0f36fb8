"""Testing my model's positional encodings with pe.testing: run it with pytest."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from pe.testing import assert_convention, assert_matches_paper, assert_rope_relative

Array = npt.NDArray[np.float64]


# --- The code under test: what my model contains ---------------------------------------------


def positional_table(n_positions: int, d_model: int) -> Array:
    """The encoding table of my Transformer (the PyTorch tutorial's formula)."""
    position = np.arange(n_positions)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2) * (-np.log(10000.0) / d_model))
    table = np.zeros((n_positions, d_model))
    table[:, 0::2] = np.sin(position * div_term)
    table[:, 1::2] = np.cos(position * div_term)
    return table


def ported_fairseq_table(n_positions: int, d_model: int, padding_idx: int = 1) -> Array:
    """A port of fairseq's table: sines then cosines, the padding row zeroed (the first
    token reads the row after it)."""
    half = d_model // 2
    freq = np.exp(np.arange(half) * -(np.log(10000.0) / (half - 1)))
    angle = np.arange(n_positions)[:, None] * freq
    table = np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    table[padding_idx] = 0.0
    return table


def apply_rotary(x: Array, positions: npt.NDArray[np.int64]) -> Array:
    """My rotary embedding, Hugging Face style: x * cos + rotate_half(x) * sin."""
    d = x.shape[-1]
    inv_freq = 1.0 / 10000.0 ** (np.arange(0, d, 2) / d)
    angles = np.outer(positions, inv_freq)
    emb = np.concatenate([angles, angles], axis=-1)
    rotate_half = np.concatenate([-x[:, d // 2 :], x[:, : d // 2]], axis=-1)
    return np.asarray(x * np.cos(emb) + rotate_half * np.sin(emb))


# --- The tests ----------------------------------------------------------------------------------


def test_my_table_is_the_papers() -> None:
    assert_matches_paper(positional_table(512, 128))


def test_my_table_in_float32_is_still_the_papers() -> None:
    assert_matches_paper(positional_table(2048, 256).astype(np.float32))


def test_my_port_keeps_fairseqs_convention() -> None:
    assert_convention(
        ported_fairseq_table(256, 64),
        layout="halves",
        order="sin-first",
        law="tensor2tensor",
        base=10000,
        offset=0,
        padding_row=1,
    )


def test_my_rotary_depends_only_on_the_offset_and_uses_halves() -> None:
    assert assert_rope_relative(apply_rotary, 64, pairing="halves", base=10000) == "halves"


def test_a_wrong_theta_in_my_rotary_is_caught() -> None:
    def theta_typo(x: Array, positions: npt.NDArray[np.int64]) -> Array:
        d = x.shape[-1]
        inv_freq = 1.0 / 1000.0 ** (np.arange(0, d, 2) / d)  # 1000 typed for 10000
        angles = np.outer(positions, inv_freq)
        emb = np.concatenate([angles, angles], axis=-1)
        rotate_half = np.concatenate([-x[:, d // 2 :], x[:, : d // 2]], axis=-1)
        return np.asarray(x * np.cos(emb) + rotate_half * np.sin(emb))

    with pytest.raises(AssertionError, match=r"follow base 1000 .* expected base 10000"):
        assert_rope_relative(theta_typo, 64)


def test_a_typo_in_my_table_is_caught_and_named() -> None:
    """``pos / 10000 ** (2 * i / d)`` with ``i`` already stepping by 2: the doubled exponent."""

    def typo(n: int, d: int) -> Array:
        i = np.arange(0, d, 2)
        angle = np.arange(n)[:, None] / 10000 ** (2 * i / d)
        table = np.zeros((n, d))
        table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
        return table

    with pytest.raises(AssertionError, match="base: 1e\\+08"):
        assert_matches_paper(typo(512, 128))
