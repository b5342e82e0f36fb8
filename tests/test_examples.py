"""The code to copy of ``docs/examples/`` (PyTorch and JAX), tested as a reader would test
their own model: with :mod:`pe.testing`.

Each test needs its framework (:func:`tests.frameworks.require`): it skips where the
framework is not installed, except when ``CI`` is set, where a missing framework fails
(``.ci/run`` installs PyTorch and JAX). Every check is also run on a wrong candidate that it
must reject.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import pe
from pe.testing import assert_matches_paper, assert_rope_relative

from .frameworks import require

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

#: A table computed in float64 and rounded once to float32 is within half a float32 unit in
#: the last place of its exact values (entries at most 1): 2**-25, plus float64 rounding.
ROUNDED_ONCE = 2.0**-25 + 1e-15


def example(name: str, needs: str) -> Any:
    """The module ``docs/examples/<name>.py``, loaded by path (after its framework)."""
    require(needs)
    spec = importlib.util.spec_from_file_location(f"pe_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Rope = Callable[[npt.NDArray[np.float64], npt.NDArray[np.int64]], npt.NDArray[Any]]


# --- PyTorch ------------------------------------------------------------------------------


def test_pytorch_encoding_adds_the_papers_table() -> None:
    torch = require("torch")
    module = example("pytorch_sinusoidal", "torch").SinusoidalEncoding(128, max_len=2048)
    table = module.table.numpy()
    assert table.dtype == np.float32
    assert_matches_paper(table, atol=ROUNDED_ONCE)  # angles in float64, then one rounding
    for row in module(torch.zeros(3, 2048, 128)).numpy():  # each sequence gets the table
        assert_matches_paper(row, atol=ROUNDED_ONCE)
    x = torch.randn(2, 100, 128)
    np.testing.assert_array_equal(module(x).numpy(), x.numpy() + table[:100])
    # The wrong candidate: the same formula with float32 angles drifts past one rounding.
    p = torch.arange(2048, dtype=torch.float32)[:, None]
    w = 10000.0 ** (-torch.arange(0, 128, 2, dtype=torch.float32) / 128)
    recipe = table.copy()
    recipe[:, 0::2], recipe[:, 1::2] = torch.sin(p * w).numpy(), torch.cos(p * w).numpy()
    assert_matches_paper(recipe)  # within the float32 recipe's own error model...
    with pytest.raises(AssertionError, match="worst entry"):
        assert_matches_paper(recipe, atol=ROUNDED_ONCE)  # ...but not within one rounding


def test_pytorch_encoding_rejects_what_is_not_the_paper() -> None:
    """A wrong base, or sines and cosines swapped, fail the same assertion; an odd width and
    a sequence longer than the table are refused."""
    torch = require("torch")
    cls = example("pytorch_sinusoidal", "torch").SinusoidalEncoding
    with pytest.raises(AssertionError, match="base"):
        assert_matches_paper(cls(64, max_len=256, base=1e8).table.numpy())
    swapped = cls(64, max_len=256).table.numpy()[:, np.arange(64) ^ 1]
    with pytest.raises(AssertionError, match="cosine first"):
        assert_matches_paper(swapped)
    with pytest.raises(ValueError, match="even"):
        cls(63)
    with pytest.raises(RuntimeError, match="size of tensor"):  # more positions than rows
        cls(8, max_len=16)(torch.zeros(17, 8))


def _torch_rope(rotary: Any) -> Rope:
    torch = require("torch")
    return lambda x, positions: rotary(torch.from_numpy(x), torch.from_numpy(positions)).numpy()


def test_pytorch_rope_depends_only_on_the_offset() -> None:
    module = example("pytorch_rope", "torch").RotaryEmbedding
    assert assert_rope_relative(_torch_rope(module(64)), 64, pairing="adjacent") == "adjacent"
    x = np.random.default_rng(1).standard_normal((300, 64))
    positions = np.arange(5, 305, dtype=np.int64)
    np.testing.assert_allclose(
        _torch_rope(module(64))(x, positions), pe.rope(x, positions), rtol=0, atol=1e-12
    )
    # The wrong candidates: the halves pairing is not this module's, another base is not pe's.
    with pytest.raises(AssertionError, match="expected the halves"):
        assert_rope_relative(_torch_rope(module(64)), 64, pairing="halves")
    other = _torch_rope(module(64, base=500.0))(x, positions)
    assert np.abs(other - pe.rope(x, positions)).max() > 0.1


def test_pytorch_rope_keeps_float64_angles_in_half_precision() -> None:
    """``model.half()`` leaves its angles in float64: a float16 query is rotated to float16
    rounding, where float16 angles (the wrong candidate) are off by far more."""
    torch = require("torch")
    module = example("pytorch_rope", "torch").RotaryEmbedding(64).half()
    x = np.random.default_rng(2).standard_normal((64, 64))
    positions = np.arange(2000, 2064, dtype=np.int64)
    half = torch.from_numpy(x).half()
    out = module(half, torch.from_numpy(positions)).double().numpy()
    exact = pe.rope(half.double().numpy(), positions)
    scale = np.abs(exact).max()
    assert np.abs(out - exact).max() <= 4 * 2.0**-11 * scale  # a few float16 roundings
    wrong = pe.rope(half.double().numpy(), positions, angle_dtype=np.float16)
    assert np.abs(wrong - exact).max() > 16 * 2.0**-11 * scale


# --- JAX ----------------------------------------------------------------------------------


def test_jax_table_is_the_papers() -> None:
    jnp = require("jax.numpy")
    module = example("jax_sinusoidal", "jax")
    table = np.asarray(module.sinusoidal_table(2048, 128))
    assert table.dtype == np.float32
    assert_matches_paper(table, atol=ROUNDED_ONCE)
    x = jnp.ones((2, 100, 128), dtype=jnp.float32)
    added = np.asarray(module.add_encoding(x, module.sinusoidal_table(100, 128))) - 1.0
    assert_matches_paper(added[1], atol=4 * ROUNDED_ONCE)
    with pytest.raises(AssertionError, match="base"):
        assert_matches_paper(np.asarray(module.sinusoidal_table(256, 64, base=1e8)))


def test_jax_rope_depends_only_on_the_offset_to_float32() -> None:
    """Float32 angles (JAX's default): relative within the float32 error model of
    :mod:`pe.rotary`, and the rotation pe computes from float32 angles."""
    jnp = require("jax.numpy")
    rope = example("jax_rope", "jax").rope

    def rotate(x: npt.NDArray[np.floating[Any]], positions: npt.NDArray[np.int64]) -> Any:
        return np.asarray(rope(jnp.asarray(x, dtype=jnp.float32), jnp.asarray(positions)))

    assert assert_rope_relative(rotate, 64, angle_dtype=np.float32) == "adjacent"
    with pytest.raises(AssertionError, match="expected the halves"):
        assert_rope_relative(rotate, 64, pairing="halves", angle_dtype=np.float32)
    x = np.random.default_rng(3).standard_normal((300, 64)).astype(np.float32)
    positions = np.arange(1000, 1300, dtype=np.int64)
    expected = pe.rope(x.astype(np.float64), positions, angle_dtype=np.float32)
    error = np.abs(rotate(x, positions) - expected).max()
    assert error <= 8 * 2.0**-24 * np.abs(x).max()  # a few float32 roundings
    # The wrong candidate: the rotation from float64 angles is farther than that bound.
    wrong = pe.rope(x.astype(np.float64), positions)
    assert np.abs(rotate(x, positions) - wrong).max() > 8 * 8 * 2.0**-24 * np.abs(x).max()


def pasted(source: str) -> Any:
    """``source`` compiled as a fresh interpreter would (no ``__future__`` flags inherited
    from this file: annotations are evaluated when a function is defined)."""
    return compile(source, "<pasted>", "exec", dont_inherit=True)


def test_the_numpy_code_to_copy_runs_pasted_alone() -> None:
    """The NumPy tabs' text, run by itself in an empty namespace (as a reader pastes it),
    defines functions that give the table the paper's formula gives and the very rotations
    of pe.from_scratch (held to pe's own by the claim from-scratch-rope); without its
    imports it would not even define them."""
    from pe import from_scratch
    from pe.site.examples import runnable_source

    table: dict[str, Any] = {}
    exec(pasted(runnable_source(from_scratch.sinusoidal_table)), table)  # noqa: S102
    assert_matches_paper(table["sinusoidal_table"](64, 32))
    rotated: dict[str, Any] = {}
    exec(pasted(runnable_source(from_scratch.rope)), rotated)  # noqa: S102
    x = np.random.default_rng(0).standard_normal((8, 16))
    assert np.array_equal(rotated["rope"](x), from_scratch.rope(x))
    with pytest.raises(NameError):  # without its imports: its annotations name npt
        exec(pasted(runnable_source(from_scratch.rope).split("\n\n\n", 1)[1]), {})  # noqa: S102


def test_the_numpy_rope_to_copy_is_pe_rope_at_positions_0_to_n() -> None:
    """pe.from_scratch.rope (the NumPy tab) rotates row p as pe.rope does at position p,
    within a few float64 roundings of each angle and product (p < 8 here)."""
    from pe import from_scratch

    x = np.random.default_rng(1).standard_normal((8, 16))
    got, want = from_scratch.rope(x), pe.rope(x, np.arange(8))
    allowed = 64 * float(np.finfo(np.float64).eps) * 8 * float(np.abs(x).max())
    assert float(np.abs(got - want).max()) <= allowed
