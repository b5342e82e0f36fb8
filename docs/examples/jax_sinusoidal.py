"""The sinusoidal encoding of Vaswani et al. (2017), for JAX."""

import jax
import jax.numpy as jnp
import numpy as np


def sinusoidal_table(n: int, d: int, base: float = 1e4) -> jax.Array:
    """PE(p, 2i) = sin(p w_i), PE(p, 2i+1) = cos(p w_i), p < n.

    A constant of the model, made once in NumPy's float64, then handed
    to JAX in float32.
    """
    p = np.arange(n)[:, None]  # positions, as a column
    w = base ** (-np.arange(0, d, 2) / d)  # w_i = base^(-2i/d)
    table = np.empty((n, d))
    table[:, 0::2] = np.sin(p * w)  # even columns: sines
    table[:, 1::2] = np.cos(p * w)  # odd columns: cosines
    return jnp.asarray(table, dtype=jnp.float32)


def add_encoding(x: jax.Array, table: jax.Array) -> jax.Array:
    """Embeddings x of shape (..., n, d) plus the first n rows."""
    return x + table[: x.shape[-2]].astype(x.dtype)
