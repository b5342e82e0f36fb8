"""Rotary position embeddings (RoPE, Su et al.) for JAX: adjacent pairs."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def rope(x: jax.Array, positions: jax.Array, base: float = 10000.0) -> jax.Array:
    """Turn pair (x[..., 2i], x[..., 2i+1]) of the row at position p by the angle p w_i,
    w_i = base^(-2i/d); x has shape (..., n, d), positions n integers.

    The angles are float32 (JAX's default): off by up to about p / 2**24 radians.
    """
    d = x.shape[-1]
    w = base ** (-jnp.arange(0, d, 2, dtype=jnp.float32) / d)  # one frequency per pair
    angle = positions.astype(jnp.float32)[:, None] * w  # (n, d/2)
    cos, sin = jnp.cos(angle).astype(x.dtype), jnp.sin(angle).astype(x.dtype)
    a, b = x[..., 0::2], x[..., 1::2]
    return jnp.stack((a * cos - b * sin, b * cos + a * sin), axis=-1).reshape(x.shape)
