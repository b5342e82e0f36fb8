r"""Adding or concatenating the encoding: what a wider residual stream costs.

The paper adds the encoding to the token embedding, :math:`x_p = e + PE(p)`, keeping the
width ``d``; concatenating, :math:`[e;\ PE(p)]`, makes the residual stream ``2d`` wide.
Every weight matrix of an encoder layer that reads or writes the stream then has one
side doubled: :func:`layer_matrices` runs one encoder layer and records which matrices
read and write the stream and their shapes; :func:`projection_cost` counts the weights
and multiply-adds of one projection either way.

A layer reading the concatenation is two projections added,
:math:`\begin{pmatrix} W_e & W_u \end{pmatrix} [e; u] = W_e e + W_u u`
(:func:`separate_projections`, written out by :func:`projection_text`); adding
:math:`e + u` first is the case :math:`W_e = W_u`.

Examples
--------
>>> projection_cost(512)["weights_concat"] // projection_cost(512)["weights_add"]
2
>>> [name for name, use in layer_matrices(512).items() if use.writes_stream]
['W_O', 'W_2']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _validate

__all__ = [
    "MatrixUse",
    "Projection",
    "layer_matrices",
    "projection_cost",
    "projection_text",
    "separate_projections",
]

Float64Array = npt.NDArray[np.float64]

#: The right-hand side of :math:`W[e; u] = \dots` as a function ``(W_e, W_u, e, u)``.
Projection = Callable[[Any, Any, Any, Any], Any]


@dataclass(frozen=True)
class MatrixUse:
    """How one weight matrix of an encoder layer met the residual stream in a forward pass.

    Attributes
    ----------
    shape
        The matrix's (input, output) widths.
    reads_stream
        Whether its operand is a state of the residual stream.
    writes_stream
        Whether its product is added to the residual stream.
    """

    shape: tuple[int, int]
    reads_stream: bool
    writes_stream: bool


def layer_matrices(stream: int, d_model: int = 512, d_ff: int = 2048) -> dict[str, MatrixUse]:
    """Run one encoder layer on a ``stream``-wide residual stream and record its matrices.

    The layer (layer normalisations left out: they hold vectors, not matrices) is attention
    with queries, keys and values of width ``d_model``, its output added back to the stream,
    then a ReLU feed-forward block of width ``d_ff`` added back too. Each matrix is created
    when the forward pass first multiplies by it, with as many rows as its operand has
    columns and as many columns as the code asks for (the stream's width where the product
    is added to the stream); ``reads_stream`` records whether its operand *is* a state of
    the stream, ``writes_stream`` whether its product is added to it. Nothing about which
    matrix touches the stream is typed: it is read off the pass.

    Parameters
    ----------
    stream
        The width of the residual stream: ``d`` when the encoding is added, ``2d`` when it
        is concatenated.
    d_model
        The width of the queries, keys and values (the heads' concatenated width).
    d_ff
        The width of the feed-forward block.

    Returns
    -------
    dict
        :class:`MatrixUse` by matrix name (``W_Q``, ``W_K``, ``W_V``, ``W_O``, ``W_1``,
        ``W_2``), in the order the pass multiplies by them.

    Examples
    --------
    >>> uses = layer_matrices(512)
    >>> uses["W_1"].shape, uses["W_O"].reads_stream, uses["W_O"].writes_stream
    ((512, 2048), False, True)
    """
    width = _validate.positive_int("stream", stream)
    heads, ffn = _validate.positive_int("d_model", d_model), _validate.positive_int("d_ff", d_ff)
    return dict(_forward_pass(width, heads, ffn))


@cache
def _forward_pass(width: int, heads: int, ffn: int) -> tuple[tuple[str, MatrixUse], ...]:
    rng = np.random.default_rng(0)
    uses: dict[str, MatrixUse] = {}
    states: list[Float64Array] = [rng.standard_normal((2, width))]

    def multiply(name: str, operand: Float64Array, columns: int, *, adds: bool) -> Float64Array:
        # the values do not matter, only that the product runs: a constant matrix is cheapest
        matrix = np.full((operand.shape[-1], columns), 1 / np.sqrt(operand.shape[-1]))
        reads = any(operand is state for state in states)
        uses[name] = MatrixUse((matrix.shape[0], matrix.shape[1]), reads, adds)
        return np.asarray(operand @ matrix)

    x = states[0]
    q, k, v = (multiply(name, x, heads, adds=False) for name in ("W_Q", "W_K", "W_V"))
    scores = q @ k.T / np.sqrt(heads)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    mixed = (weights / weights.sum(axis=1, keepdims=True)) @ v
    states.append(x + multiply("W_O", mixed, x.shape[-1], adds=True))
    hidden = np.maximum(multiply("W_1", states[-1], ffn, adds=False), 0.0)
    states.append(states[-1] + multiply("W_2", hidden, states[-1].shape[-1], adds=True))
    return tuple(uses.items())


def projection_cost(d_model: int, d_out: int | None = None) -> dict[str, int]:
    """Weights and multiply-adds per token of one projection reading the input, add vs concatenate.

    Adding keeps the input width ``d``; concatenating makes it ``2d``. One ``(d_in x d_out)``
    projection has ``d_in * d_out`` weights and as many multiply-adds per token.

    Parameters
    ----------
    d_model
        The width ``d`` of the embedding and of the encoding.
    d_out
        The projection's output width (``d`` by default).

    Returns
    -------
    dict
        ``width_add``, ``width_concat``, ``weights_add``, ``weights_concat``, ``madds_add``
        and ``madds_concat``.

    Examples
    --------
    >>> projection_cost(8, 3)["weights_concat"]
    48
    """
    width = _validate.positive_int("d_model", d_model)
    out = width if d_out is None else _validate.positive_int("d_out", d_out)
    return {
        "width_add": width,
        "width_concat": 2 * width,
        "weights_add": width * out,
        "weights_concat": 2 * width * out,
        "madds_add": width * out,
        "madds_concat": 2 * width * out,
    }


def separate_projections(w_e: Any, w_q: Any, e: Any, q: Any) -> Any:
    r""":math:`W_e e + W_u u`: two separate projections, added.

    Examples
    --------
    >>> separate_projections(sp.eye(1), 2 * sp.eye(1), sp.eye(1), sp.eye(1))
    Matrix([[3]])
    """
    shapes: dict[str, tuple[Any, ...]] = {}
    for name, value, dims in (
        ("w_e", w_e, (2,)),
        ("w_q", w_q, (2,)),
        ("e", e, (1, 2)),
        ("q", q, (1, 2)),
    ):
        shape = getattr(value, "shape", None)
        if not isinstance(shape, tuple):
            raise TypeError(f"{name} must be a NumPy or SymPy matrix, got {value!r:.40}")
        if len(shape) not in dims:
            raise ValueError(
                f"{name} must have {' or '.join(map(str, dims))} dimensions, got {shape}"
            )
        shapes[name] = shape
    for weights, vector in (("w_e", "e"), ("w_q", "q")):
        if shapes[weights][1] != shapes[vector][0]:
            raise ValueError(
                f"{vector} must have as many rows as {weights} has columns, got {shapes[vector]}"
            )
    if shapes["w_q"][0] != shapes["w_e"][0] or shapes["q"][1:] != shapes["e"][1:]:
        raise ValueError(
            f"w_q q must have the shape of w_e e, got {shapes['w_q']} and {shapes['q']}"
        )
    return w_e @ e + w_q @ q


def projection_text(rhs: Projection) -> str:
    r"""The right-hand side ``rhs`` written out, as plain LaTeX ("W_e e + W_u u").

    Examples
    --------
    >>> projection_text(separate_projections)
    'W_e e + W_u u'
    """
    _validate.function("rhs", rhs)
    w_e, w_q = sp.MatrixSymbol("W_e", 2, 2), sp.MatrixSymbol("W_u", 2, 2)
    e, q = sp.MatrixSymbol("e", 2, 1), sp.MatrixSymbol("u", 2, 1)
    text = sp.latex(rhs(w_e, w_q, e, q), symbol_names={w_e: "W_e", w_q: "W_u"})
    return str(text).replace(r"\left(", "(").replace(r"\right)", ")")
