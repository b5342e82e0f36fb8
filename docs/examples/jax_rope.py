"""Rotary position embeddings (RoPE), for JAX: adjacent pairs."""

import jax.numpy as jnp
from jax import Array


def rope(x: Array, positions: Array, base: float = 1e4) -> Array:
    """Turn pair (x[..., 2i], x[..., 2i+1]) of the row at position p by
    the angle p w_i, w_i = base^(-2i/d); x of shape (..., n, d).

    The angles are float32 (JAX's default): their rounding error grows with p.
    """
    d = x.shape[-1]
    w = base ** (-jnp.arange(0, d, 2, dtype=jnp.float32) / d)  # w_i
    angle = positions.astype(jnp.float32)[:, None] * w  # (n, d/2)
    cos = jnp.cos(angle).astype(x.dtype)
    sin = jnp.sin(angle).astype(x.dtype)
    a, b = x[..., 0::2], x[..., 1::2]
    turned = (a * cos - b * sin, b * cos + a * sin)
    return jnp.stack(turned, axis=-1).reshape(x.shape)
