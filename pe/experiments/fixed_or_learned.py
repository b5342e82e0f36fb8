r"""Fixed or learned: a learned position table against the sinusoidal one, and a residual stack.

A learned table is a trainable ``(n_max, d)`` array: :math:`n_{\max} d` parameters, one row
per position seen in training and no row beyond (:class:`LearnedPositions`). The sinusoidal
table has no parameters and a value at every position, but being *defined* at a position is
not the same as the model having *seen* it: beyond the training length the low-frequency
pairs reach angles no training position produced (:func:`unseen_pairs`).

Once in, the encoding travels up a tiny pre-norm residual stack (:func:`run_stack`). Each
layer adds a sublayer's output to its input (He et al. 2016; Vaswani et al. 2017):

.. math::

    h_{l+1} = h_l + f_l(h_l), \qquad\text{so}\qquad
    h_L = h_0 + \sum_{l<L} f_l(h_l) = x + PE + \sum_{l<L} f_l(h_l).

The encoding added at the bottom stays in the sum, term for term, unless some
:math:`f_l` cancels it. The sublayers alternate self-attention (softmax over the
sequence) and a ReLU feed-forward block, each after a layer normalisation, with random
weights scaled by ``gain``. How a layer joins its input and its sublayer's output is a
:class:`Connection`: :data:`RESIDUAL` (pre-LN), :data:`POST_LN` (the original
Transformer's :math:`h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))`, which re-centres and rescales
the whole stream, so the sum above no longer holds), :data:`PLAIN`
(:math:`h_{l+1} = f_l(h_l)`) or :data:`CANCELLING` (residual, but the first sublayer
outputs :math:`-h_0`).

Examples
--------
>>> from pe.experiments import fixed_or_learned
>>> fixed_or_learned.LearnedPositions(16, 4).parameters
64
>>> int(fixed_or_learned.unseen_pairs(64, 128, 1000).sum()) > 0
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
    "LearnedPositions",
    "StackRun",
    "position_signal",
    "run_stack",
    "unseen_pairs",
]

Array = npt.NDArray[np.float64]


@dataclass
class LearnedPositions:
    """A learned absolute position table (initialised at random, as before training).

    Parameters
    ----------
    n_max
        The trained length: positions ``0 .. n_max - 1`` have a row.
    d_model
        The width.
    seed
        Seed of the random initialisation.

    Examples
    --------
    >>> LearnedPositions(8, 2).lookup([0, 7]).shape
    (2, 2)
    """

    n_max: int
    d_model: int
    seed: int = 0
    table: Array = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.n_max = _validate.positive_int("n_max", self.n_max)
        self.d_model = _validate.positive_int("d_model", self.d_model)
        _validate.capped_elements("the learned table", self.n_max * self.d_model, 8)
        rng = np.random.default_rng(self.seed)
        self.table = 0.02 * rng.standard_normal((self.n_max, self.d_model))

    @property
    def parameters(self) -> int:
        """Number of trainable numbers: the size of the table, ``n_max * d_model``."""
        return int(self.table.size)

    def lookup(self, positions: Any) -> Array:
        """Rows for ``positions``; a position ``>= n_max`` has no row and is refused.

        Raises
        ------
        ValueError
            If a position is negative or ``>= n_max``.
        """
        ps = _validate.integer_positions("positions", positions)
        if ps.min() < 0 or ps.max() >= self.n_max:
            raise ValueError(
                f"positions must be in [0, {self.n_max - 1}]: a learned table has no row "
                f"for position {int(ps.max())}"
            )
        return self.table[ps]


def unseen_pairs(
    d_model: int, n_train: int, position: int, *, base: float = 10000.0
) -> npt.NDArray[np.bool_]:
    r"""Which pairs take at ``position`` a value no training position came close to.

    Pair ``i`` at training positions ``0 .. n_train - 1`` visits the points
    :math:`v_i(p)` on its circle, consecutive points :math:`2\sin(\omega_i/2)` apart. The
    pair is *unseen* at ``position`` when its point is farther than that step from every
    training point: it lies outside the arc the training covered.

    Returns
    -------
    numpy.ndarray
        Boolean array of length ``d/2``.

    Examples
    --------
    >>> bool(unseen_pairs(16, 32, 10).any())
    False
    """
    omega = numeric.frequencies(d_model, base)
    n = _validate.positive_int("n_train", n_train)
    target = _validate.positive_int("position", position, minimum=0)
    _validate.capped_elements("unseen_pairs", n * omega.size, 16)
    offsets = target - np.arange(n, dtype=np.float64)
    nearest = (2.0 * np.abs(np.sin(np.multiply.outer(offsets, omega) / 2.0))).min(axis=0)
    step = 2.0 * np.sin(omega / 2.0)
    return np.asarray(nearest > step * (1.0 + 1e-9))


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


#: :math:`h_{l+1} = h_l + f_l(h_l)`, the sublayer reading :math:`\mathrm{LN}(h_l)` (pre-LN).
RESIDUAL = Connection("pre-LN residual", _residual)
#: :math:`h_{l+1} = \mathrm{LN}(h_l + f_l(h_l))`: the paper's post-LN layer, normalising the
#: whole stream after each addition.
POST_LN = Connection("post-LN residual", _post_norm, pre_norm=False)
#: :math:`h_{l+1} = f_l(h_l)`: each layer replaces its input.
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


def run_stack(
    inputs: Array,
    n_layers: int,
    *,
    connection: Connection = RESIDUAL,
    gain: float = 0.5,
    seed: int = 0,
) -> StackRun:
    """Run ``n_layers`` sublayers (attention, feed-forward, alternating) on ``inputs`` (n, d).

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
    for layer in range(layers):
        z = _norm(h) if connection.pre_norm else h
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
        counted, h = connection.join(layer, h, gain * out)
        total += counted
        largest = max(largest, float(np.abs(h).max()), float(np.abs(total).max()))
    return StackRun(top=h, sublayer_sum=total, largest=largest)


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
    own direction; near 0, the encoding's direction is lost (0 also when nothing changed).

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
    cosines = np.where(norms > 0, (change * table).sum(axis=1) / np.where(norms > 0, norms, 1), 0)
    return float(cosines.mean())
