"""pe.rope, pe.sinusoidal and pe.shift in other array libraries: type, gradients, accuracy.

Each function given a PyTorch tensor or a JAX array returns one of that library, computes
with its operations (so gradients flow and ``jax.jit`` traces it), and keeps the accuracy
its docstring states: positions known when called go through pe's NumPy computation (the
same cosines and sines, hence the same error model); traced positions, or positions that
require grad, are turned into angles by the library in float64 (float32 for float32
arrays, and in JAX without x64), within eps_a w |p| radians plus the library's sine error.
Skipped locally without the libraries, required in CI (:func:`tests.frameworks.require`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import pe
from pe import _arrays

from .frameworks import require

EPS32, EPS64 = 2.0**-23, 2.0**-52
N, D = 40, 16


def rng_array(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def angle_bound(eps: float, positions: np.ndarray, d: int, slack: float) -> np.ndarray:
    """The stated error of an entry whose angle w p was formed in a dtype of epsilon
    ``eps``: eps w |p| radians, plus ``slack`` eps for the library's sine and roundings."""
    w = np.repeat(pe.frequencies(d), 2)
    return np.asarray(eps * w[None, :] * np.abs(positions)[:, None] + slack * eps)


# --------------------------------------------------------------------------------------------
# PyTorch


def test_rope_on_a_torch_tensor_returns_one_and_its_gradient_flows() -> None:
    torch = require("torch")
    x_np = rng_array((2, N, D))
    positions = np.arange(N) * 7
    for dtype, eps in ((torch.float32, EPS32), (torch.float64, EPS64)):
        x = torch.tensor(x_np, dtype=dtype, requires_grad=True)
        out: Any = pe.rope(x, torch.tensor(positions), pairing="halves")
        assert isinstance(out, torch.Tensor)
        assert (out.dtype, out.shape, out.device) == (dtype, x.shape, x.device)
        # positions known: the same cosines and sines as NumPy's path, rotation by torch
        same = pe.rope(x.detach().numpy(), positions, pairing="halves")
        assert np.max(np.abs(out.detach().numpy() - same)) <= 4 * eps * np.abs(x_np).max()
        out.sum().backward()
        # d/dx sum(R_p x) = R_p^T 1 = R_{-p} 1
        expected = pe.rope(np.ones((2, N, D)), -positions, pairing="halves")
        assert np.max(np.abs(x.grad.numpy() - expected)) <= 8 * eps


def test_rope_gradient_with_respect_to_the_positions() -> None:
    torch = require("torch")
    x_np = rng_array((N, D), seed=1)
    p = torch.tensor(np.linspace(0, 300, N), dtype=torch.float64, requires_grad=True)
    out: Any = pe.rope(torch.tensor(x_np), p)
    out.sum().backward()
    # d/dp (a', b') = w (-b', a') for each adjacent pair: d/dp sum = sum_i w_i (a'_i - b'_i)
    rotated = out.detach().numpy()
    w = pe.frequencies(D)
    expected = ((rotated[:, 0::2] - rotated[:, 1::2]) * w).sum(axis=1)
    assert np.allclose(p.grad.numpy(), expected, rtol=1e-12, atol=1e-12)
    # and the angles, formed by torch in float64: within the stated model
    exact = pe.rope(x_np, p.detach().numpy())
    bound = angle_bound(EPS64, p.detach().numpy(), D, 8) * np.abs(x_np).max() * 2
    assert np.all(np.abs(rotated - exact) <= bound)


def test_sinusoidal_and_shift_in_torch() -> None:
    torch = require("torch")
    table: Any = pe.sinusoidal(64, D, dtype=torch.float32)
    assert isinstance(table, torch.Tensor)
    assert table.dtype == torch.float32
    # a count or known positions: pe's NumPy table, correctly rounded float32, copied
    assert np.array_equal(table.numpy(), pe.sinusoidal(64, D, dtype=np.float32))
    from_positions: Any = pe.sinusoidal(torch.arange(64), D)
    assert from_positions.dtype == torch.float64
    assert np.array_equal(from_positions.numpy(), pe.sinusoidal(64, D))
    # positions that require grad: fractional allowed, angles formed by torch, gradient flows
    p = torch.tensor(np.linspace(0, 5000, 64), requires_grad=True)
    smooth: Any = pe.sinusoidal(p, D, dtype=torch.float64)
    smooth.sum().backward()
    w = pe.frequencies(D)
    angles = np.outer(p.detach().numpy(), w)
    assert np.allclose(p.grad.numpy(), ((np.cos(angles) - np.sin(angles)) * w).sum(1))
    reference = np.empty((64, D))
    reference[:, 0::2], reference[:, 1::2] = np.sin(angles), np.cos(angles)
    bound = angle_bound(EPS64, p.detach().numpy(), D, 4)
    assert np.all(
        np.abs(smooth.detach().numpy() - reference) <= bound + 2 * EPS64 * (1 + angles.repeat(2, 1))
    )
    # shift: the rotation T_k of torch rows, differentiable
    rows = torch.tensor(pe.sinusoidal(10, D), requires_grad=True)
    moved: Any = pe.shift(rows, 5)
    assert isinstance(moved, torch.Tensor)
    assert np.max(np.abs(moved.detach().numpy() - pe.sinusoidal(np.arange(5, 15), D))) < 1e-14
    moved.sum().backward()
    assert rows.grad is not None
    # an offset held as a 0-d tensor (not requiring grad) is read as the number it holds
    by_tensor: Any = pe.shift(rows.detach(), torch.tensor(5.0))
    assert np.array_equal(by_tensor.numpy(), moved.detach().numpy())


def test_the_first_argument_may_be_passed_by_name() -> None:
    """Fault caught: the dispatch to other libraries taking its first argument by position
    only, so ``pe.sinusoidal(n_positions=...)`` raised a TypeError and a tensor passed by
    name skipped the library's path."""
    torch = require("torch")
    x = rng_array((5, 8))
    assert np.array_equal(pe.rope(x=x, positions=np.arange(5)), pe.rope(x, np.arange(5)))
    assert np.array_equal(pe.sinusoidal(n_positions=7, d_model=6), pe.sinusoidal(7, 6))
    rows = pe.sinusoidal(3, 4)
    assert np.array_equal(pe.shift(rows=rows, k=2), pe.shift(rows, 2))
    by_name: Any = pe.rope(x=torch.tensor(x), positions=np.arange(5))
    assert isinstance(by_name, torch.Tensor)
    assert np.array_equal(by_name.numpy(), pe.rope(x, np.arange(5)))
    table: Any = pe.sinusoidal(n_positions=torch.arange(3), d_model=4)
    assert isinstance(table, torch.Tensor)
    with pytest.raises(TypeError, match="n_positions"):
        pe.sinusoidal(d_model=4)  # type: ignore[call-arg]


def test_bad_torch_input_is_one_line() -> None:
    torch = require("torch")
    cases: tuple[tuple[Callable[[], object], type[Exception], str], ...] = (
        (lambda: pe.rope(torch.ones(4, 7), 4), ValueError, "must be even"),
        (lambda: pe.rope(torch.ones(4, 8, dtype=torch.int64), 4), TypeError, "floating-point"),
        (lambda: pe.rope(torch.ones(4, 8), 5), ValueError, "one position per row"),
        (lambda: pe.shift(torch.ones(3, 5), 1), ValueError, "must be even"),
        (lambda: pe.sinusoidal(torch.tensor([0.5, 1.0]), 8), ValueError, "whole numbers"),
        (lambda: pe.sinusoidal(8, 8, dtype=torch.int32), TypeError, "float"),
        (lambda: pe.rope(torch.ones(4, 8), 4, scale=0.0), ValueError, "scale must be > 0"),
        (lambda: pe.rope(torch.ones(4, 8), 4, scale=-1.0), ValueError, "scale must be > 0"),
        (
            lambda: pe.rope(torch.ones(4, 8), torch.arange(4.0).requires_grad_(), scale=0.0),
            ValueError,
            "scale must be > 0",
        ),
    )
    for call, error, words in cases:
        with pytest.raises(error, match=words) as raised:
            call()
        assert "\n" not in str(raised.value)


# --------------------------------------------------------------------------------------------
# JAX


def test_jax_jit_and_grad_of_rope() -> None:
    jax = require("jax")
    jnp = require("jax.numpy")
    x = jnp.asarray(rng_array((N, D), seed=2), dtype=jnp.float32)
    positions = jnp.arange(N) * 3
    jitted = jax.jit(pe.rope)(x, positions)
    plain = pe.rope(x, positions)
    assert isinstance(jitted, jax.Array)
    assert jitted.dtype == jnp.float32
    # traced positions: angles in float32 by JAX (no x64); known ones: pe's float64 angles
    exact = pe.rope(np.asarray(x, dtype=np.float64), np.asarray(positions))
    scale = float(np.abs(np.asarray(x)).max()) * 2
    bound = angle_bound(EPS32, np.asarray(positions), D, 8) * scale
    assert np.all(np.abs(np.asarray(jitted) - exact) <= bound)
    assert np.all(np.abs(np.asarray(plain) - exact) <= 4 * EPS32 * scale)
    grad = jax.grad(lambda v: pe.rope(v, positions).sum())(x)
    expected = pe.rope(np.ones((N, D)), -np.asarray(positions))
    assert np.max(np.abs(np.asarray(grad) - expected)) <= 8 * EPS32
    dp = jax.grad(lambda p: pe.rope(x, p).sum())(jnp.asarray(np.linspace(0, 50, N), jnp.float32))
    assert dp.shape == (N,)
    assert np.all(np.isfinite(np.asarray(dp)))


def test_jax_sinusoidal_and_shift() -> None:
    jax = require("jax")
    jnp = require("jax.numpy")
    table = pe.sinusoidal(jnp.arange(64), D, dtype=np.float32)
    assert isinstance(table, jax.Array)
    assert np.array_equal(np.asarray(table), pe.sinusoidal(64, D, dtype=np.float32))
    traced = jax.jit(lambda p: pe.sinusoidal(p, D, dtype=np.float32))(jnp.arange(64))
    bound = angle_bound(EPS32, np.arange(64), D, 4)
    assert np.all(np.abs(np.asarray(traced) - pe.sinusoidal(64, D)) <= bound)
    grad = jax.grad(lambda p: pe.sinusoidal(p, D, dtype=np.float32).sum())(jnp.arange(8.0))
    assert grad.shape == (8,)
    shifted = jax.jit(pe.shift)(jnp.asarray(pe.sinusoidal(10, D), jnp.float32), 5.0)
    assert np.max(np.abs(np.asarray(shifted) - pe.sinusoidal(np.arange(5, 15), D))) < 1e-5
    dk = jax.grad(lambda k: pe.shift(jnp.ones((2, D)), k).sum())(3.0)
    assert np.isfinite(float(dk))


def test_numpy_in_numpy_out() -> None:
    """The NumPy path is unchanged: NumPy in, NumPy out, no framework imported by pe."""
    assert isinstance(pe.rope(np.ones((4, 8)), 4), np.ndarray)
    assert isinstance(pe.sinusoidal(4, 8), np.ndarray)
    assert isinstance(pe.shift(np.ones((4, 8)), 1), np.ndarray)


def test_arrays_of_two_libraries_are_refused_with_the_reason_cut_to_160_characters() -> None:
    """A PyTorch tensor beside a JAX array has no one namespace: the reason
    array-api-compat gives is quoted on one line, its first 160 characters."""
    torch = require("torch")
    jnp = require("jax.numpy")
    from array_api_compat import array_namespace

    mixed = (torch.ones(2), jnp.ones(2))
    with pytest.raises(TypeError, match="namespaces") as refused:
        array_namespace(*mixed)
    reason = " ".join(str(refused.value).split())
    assert len(reason) > 161
    with pytest.raises(TypeError) as error:
        _arrays.namespace_of(*mixed)
    assert str(error.value) == f"no Array API namespace for these arrays: {reason[:160]}"
