r"""The residual stream: what a Transformer's stack of sublayers does to an encoding added at the bottom.

A Transformer adds the positional encoding once, to its input, and every layer after that
adds a sublayer's output to its input (He et al. 2016; Vaswani et al. 2017):

.. math::

    h_{l+1} = h_l + f_l(h_l), \qquad\text{so}\qquad
    h_L = h_0 + \sum_{l<L} f_l(h_l) = x + PE + \sum_{l<L} f_l(h_l).

The encoding stays in the sum, term for term, unless some :math:`f_l` cancels it. This
module is a tiny such stack with random weights (:func:`run_stack`): the sublayers
alternate self-attention (softmax over the sequence) and a ReLU feed-forward block, each
after a layer normalisation, their outputs scaled by ``gain``. How a layer joins its input
and its sublayer's output is a :class:`Connection`: :data:`RESIDUAL` (pre-LN),
:data:`POST_LN` (the original Transformer's :math:`h_{l+1} = \mathrm{LN}(h_l +
f_l(h_l))`, which re-centres and rescales the whole stream, so the sum above no longer
holds), :data:`PLAIN` (:math:`h_{l+1} = f_l(h_l)`) or :data:`CANCELLING` (residual, but
the first sublayer outputs :math:`-h_0`). :func:`position_signal` measures how much of
:math:`PE(p)` the top of the stack still carries in its own direction.

Examples
--------
>>> x = np.ones((3, 4)) + np.eye(3, 4)
>>> runs = run_stack(x, 2), run_stack(x, 2, connection=PLAIN)
>>> [bool(np.allclose(run.top, x + run.sublayer_sum)) for run in runs]
[True, False]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric

__all__ = [
    "CANCELLING",
    "PLAIN",
    "POST_LN",
    "RESIDUAL",
    "Connection",
    "StackRun",
    "position_signal",
    "run_stack",
]

Array = npt.NDArray[np.float64]


def _norm(h: Array) -> Array:
    centred = h - h.mean(axis=-1, keepdims=True)
    return np.asarray(centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + 1e-6))


@dataclass(frozen=True)
class Connection:
    r"""How a layer joins its input and its sublayer's output.

    Attributes
    ----------
    name
        What the stack is ("residual", "plain").
    join
        ``(layer, h, out) -> (counted, next_h)``: the sublayer output counted in the sum
        :math:`\sum_l f_l(h_l)` and the next state.
    pre_norm
        Whether the sublayer reads :math:`\mathrm{LN}(h_l)` (pre-LN) or :math:`h_l` itself
        (post-LN, where the normalisation comes after the addition, inside ``join``).

    Examples
    --------
    >>> counted, after = RESIDUAL.join(0, np.ones(2), np.full(2, 0.5))
    >>> counted.tolist(), after.tolist()
    ([0.5, 0.5], [1.5, 1.5])
    """

    name: str
    join: Callable[[int, Array, Array], tuple[Array, Array]]
    pre_norm: bool = True


def _residual(_layer: int, h: Array, out: Array) -> tuple[Array, Array]:
    return out, h + out


def _plain(_layer: int, _h: Array, out: Array) -> tuple[Array, Array]:
    return out, out


def _post_norm(_layer: int, h: Array, out: Array) -> tuple[Array, Array]:
    return out, _norm(h + out)


def _cancelling(layer: int, h: Array, out: Array) -> tuple[Array, Array]:
    return _residual(layer, h, -h if layer == 0 else out)


#: :math:`h_{l+1} = h_l + f_l(\mathrm{LN}(h_l))`: the sublayer reads the normalised stream (pre-LN).
RESIDUAL = Connection("pre-LN residual", _residual)

#: :math:`h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))`: the paper's post-LN layer, normalising the
#: whole stream after each addition.
POST_LN = Connection("post-LN residual", _post_norm, pre_norm=False)

#: :math:`h_{l+1} = f_l(\mathrm{LN}(h_l))`: each layer replaces its input.
PLAIN = Connection("plain", _plain)

#: Residual, but the first sublayer outputs :math:`-h_0` (a sublayer that cancels its input).
CANCELLING = Connection("residual, first sublayer cancels", _cancelling)


@dataclass(frozen=True)
class StackRun:
    """Output of :func:`run_stack`: the top states and the sum of the sublayer outputs.

    ``largest`` is the largest magnitude of any state or running sum along the way (the
    scale of the rounding of the additions).
    """

    top: Array
    sublayer_sum: Array
    largest: float
    #: :math:`\sum_l f_l(h_l)`: the same sublayers applied to the states themselves rather
    #: than to what they read (``LN(h_l)`` in a pre-LN stack): a sum the stack never adds.
    raw_sublayer_sum: Array | None = None


def _sublayer(weights: tuple[Array, ...], x: Array) -> Array:
    """Attention (three matrices: query, key, value) or a feed-forward block (two) on ``x``."""
    if len(weights) == 3:
        wq, wk, wv = weights
        logits = (x @ wq) @ (x @ wk).T / np.sqrt(x.shape[1])
        scores = np.exp(logits - logits.max(axis=1, keepdims=True))
        scores /= scores.sum(axis=1, keepdims=True)
        return np.asarray(scores @ (x @ wv), dtype=np.float64)
    w1, w2 = weights
    return np.asarray(np.maximum(x @ w1, 0.0) @ w2, dtype=np.float64)


def run_stack(
    inputs: Array,
    n_layers: int,
    *,
    connection: Connection = RESIDUAL,
    gain: float = 0.5,
    seed: int = 0,
) -> StackRun:
    r"""Run ``n_layers`` sublayers (attention, feed-forward, alternating) on ``inputs`` (n, d).

    Each sublayer's weights are drawn, in order, from ``numpy.random.default_rng(seed)`` with
    variance one over their input width: an attention sublayer's query, key and value
    matrices ``(d, d)`` scaled by :math:`1/\sqrt d`; a feed-forward sublayer's ``(d, 4d)``
    by :math:`1/\sqrt d` and ``(4d, d)`` by :math:`1/\sqrt{4d}`.

    Parameters
    ----------
    inputs
        The bottom states :math:`h_0`, shape ``(n, d)``.
    n_layers
        Number of sublayers.
    connection
        How each layer joins input and output: :data:`RESIDUAL`, :data:`PLAIN` or
        :data:`CANCELLING`.
    gain
        Scale of every sublayer's output.
    seed
        Seed of the random weights (the same weights for every call with this seed).

    Examples
    --------
    >>> x = np.ones((3, 4)) + np.eye(3, 4)
    >>> run = run_stack(x, 2)
    >>> bool(np.allclose(run.top, x + run.sublayer_sum))
    True
    """
    layers = _validate.positive_int("n_layers", n_layers)
    h = np.asarray(inputs, dtype=np.float64)
    if h.ndim != 2:
        raise ValueError(f"inputs must have shape (n, d), got {h.shape}")
    d = h.shape[1]
    rng = np.random.default_rng(seed)
    total = np.zeros_like(h)
    largest = float(np.abs(h).max())
    raw = np.zeros_like(h)
    for layer in range(layers):
        z = _norm(h) if connection.pre_norm else h
        if layer % 2 == 0:
            weights = tuple(rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
        else:
            weights = (
                rng.standard_normal((d, 4 * d)) / np.sqrt(d),
                rng.standard_normal((4 * d, d)) / np.sqrt(4 * d),
            )
        raw += gain * _sublayer(weights, h)
        counted, h = connection.join(layer, h, gain * _sublayer(weights, z))
        total += counted
        largest = max(largest, float(np.abs(h).max()), float(np.abs(total).max()))
    return StackRun(top=h, sublayer_sum=total, largest=largest, raw_sublayer_sum=raw)


def position_signal(
    d_model: int,
    n_positions: int,
    n_layers: int,
    *,
    connection: Connection = RESIDUAL,
    gain: float = 0.5,
    seed: int = 0,
) -> float:
    r"""Mean cosine between :math:`h_L(x + PE)_p - h_L(x)_p` and :math:`PE(p)`, over positions.

    The same random content ``x`` (one token vector per position) runs through the same
    stack twice, with and without the encoding; the difference at the top is what the
    encoding changed. A value near 1 means the top still carries :math:`PE(p)` in its
    own direction; near 0, the encoding's direction is lost. A position where nothing
    changed has no cosine (the change is the zero vector) and is left out of the mean; when
    nothing changed anywhere the result is NaN: undefined, not 0.

    Examples
    --------
    >>> round(position_signal(16, 8, 2, gain=0.0), 12)
    1.0
    """
    rng = np.random.default_rng(seed + 1)
    content = rng.standard_normal((n_positions, d_model))
    table = numeric.sinusoidal(n_positions, d_model)
    kwargs: dict[str, Any] = {"connection": connection, "gain": gain, "seed": seed}
    change = run_stack(content + table, n_layers, **kwargs).top
    change = change - run_stack(content, n_layers, **kwargs).top
    norms = np.linalg.norm(change, axis=1) * np.linalg.norm(table, axis=1)
    defined = norms > 0
    if not defined.any():
        return math.nan
    return float(((change * table).sum(axis=1)[defined] / norms[defined]).mean())
