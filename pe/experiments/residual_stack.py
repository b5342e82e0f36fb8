r"""A tiny pre-norm residual stack, to see what residual connections do with the encoding.

Each layer adds a sublayer's output to its input (He et al. 2016; Vaswani et al. 2017):

.. math::

    h_{l+1} = h_l + f_l(h_l), \qquad\text{so}\qquad
    h_L = h_0 + \sum_{l<L} f_l(h_l) = x + PE + \sum_{l<L} f_l(h_l).

The encoding added at the bottom stays in the sum, term for term, unless some
:math:`f_l` cancels it. The sublayers alternate self-attention (softmax over the
sequence) and a ReLU feed-forward block, each after a layer normalisation, with random
weights scaled by ``gain``. Without the residual path (``residual=False``) each layer
replaces its input, :math:`h_{l+1} = f_l(h_l)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric

__all__ = ["StackRun", "position_signal", "run_stack"]

Array = npt.NDArray[np.float64]


def _norm(h: Array) -> Array:
    centred = h - h.mean(axis=-1, keepdims=True)
    return np.asarray(centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + 1e-6))


@dataclass(frozen=True)
class StackRun:
    """Output of :func:`run_stack`: the top states and the sum of the sublayer outputs."""

    top: Array
    sublayer_sum: Array


def run_stack(
    inputs: Array,
    n_layers: int,
    *,
    gain: float = 0.5,
    residual: bool = True,
    cancel: bool = False,
    seed: int = 0,
) -> StackRun:
    """Run ``n_layers`` sublayers (attention, feed-forward, alternating) on ``inputs`` (n, d).

    Parameters
    ----------
    inputs
        The bottom states :math:`h_0`, shape ``(n, d)``.
    n_layers
        Number of sublayers.
    gain
        Scale of every sublayer's output.
    residual
        Add each output to its input (True) or replace the input (False).
    cancel
        Make the first sublayer output :math:`-h_0` (a sublayer that cancels its input).
    seed
        Seed of the random weights (the same weights for every call with this seed).
    """
    layers = _validate.positive_int("n_layers", n_layers)
    h = np.asarray(inputs, dtype=np.float64)
    if h.ndim != 2:
        raise ValueError(f"inputs must have shape (n, d), got {h.shape}")
    d = h.shape[1]
    rng = np.random.default_rng(seed)
    total = np.zeros_like(h)
    for layer in range(layers):
        z = _norm(h)
        if layer % 2 == 0:
            wq, wk, wv = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
            logits = (z @ wq) @ (z @ wk).T / np.sqrt(d)
            weights = np.exp(logits - logits.max(axis=1, keepdims=True))
            weights /= weights.sum(axis=1, keepdims=True)
            out = weights @ (z @ wv)
        else:
            w1 = rng.standard_normal((d, 4 * d)) / np.sqrt(d)
            w2 = rng.standard_normal((4 * d, d)) / np.sqrt(4 * d)
            out = np.maximum(z @ w1, 0.0) @ w2
        out = gain * out
        if cancel and layer == 0:
            out = -h
        total += out
        h = h + out if residual else out
    return StackRun(top=h, sublayer_sum=total)


def position_signal(
    d_model: int,
    n_positions: int,
    n_layers: int,
    *,
    residual: bool = True,
    cancel: bool = False,
    gain: float = 0.5,
    seed: int = 0,
) -> float:
    r"""Mean cosine between :math:`h_L(x + PE)_p - h_L(x)_p` and :math:`PE(p)`, over positions.

    The same random content ``x`` (one token vector per position) runs through the same
    stack twice, with and without the encoding; the difference at the top is what the
    encoding changed. A value near 1 means the top still carries :math:`PE(p)` in its
    own direction; near 0, the encoding's direction is lost (0 also when nothing changed).
    """
    rng = np.random.default_rng(seed + 1)
    content = rng.standard_normal((n_positions, d_model))
    table = numeric.sinusoidal(n_positions, d_model)
    with_pe = run_stack(
        content + table, n_layers, gain=gain, residual=residual, cancel=cancel, seed=seed
    )
    without = run_stack(content, n_layers, gain=gain, residual=residual, cancel=cancel, seed=seed)
    change = with_pe.top - without.top
    norms = np.linalg.norm(change, axis=1) * np.linalg.norm(table, axis=1)
    cosines = np.where(norms > 0, (change * table).sum(axis=1) / np.where(norms > 0, norms, 1), 0)
    return float(cosines.mean())
