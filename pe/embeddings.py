r"""Token embeddings beside the encoding: how much room the encoding leaves them.

Token embeddings are modelled as isotropic: i.i.d. :math:`N(0, 1)` entries, seeded
(:func:`random_embeddings`). In high dimension such an embedding is nearly orthogonal to
every encoding row: the cosine with a fixed unit vector has mean 0 and variance exactly
:math:`1/d` (:func:`cosine_embedding_encoding`). The rows :math:`PE(0), \dots, PE(n-1)`
span only a few dozen directions numerically, and an isotropic embedding puts about
:math:`r/d` of its squared norm there (:func:`encoding_subspace_share`). The chapters "The
sinusoidal encoding" and "Designs that fail" measure with them. Two families are not
isotropic: :func:`embeddings_plus_pe0` shares a direction with every encoding row, and
:func:`encoding_row_embeddings` lies inside the span of the rows.

Examples
--------
>>> random_embeddings(3, 4).shape
(3, 4)
>>> cosine_embedding_encoding(random_embeddings(10, 64), 5).shape
(10, 5)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric

__all__ = [
    "Embeddings",
    "cosine_embedding_encoding",
    "embeddings_plus_pe0",
    "encoding_row_embeddings",
    "encoding_subspace_share",
    "random_embeddings",
]

Float64Array = npt.NDArray[np.float64]

#: A family of token embeddings: ``(n_tokens, d_model, seed) -> (n_tokens, d_model)`` array.
Embeddings = Callable[[int, int, int], Float64Array]


def random_embeddings(n_tokens: int, d_model: int, seed: int = 7) -> Float64Array:
    r"""Isotropic token embeddings: i.i.d. :math:`N(0, 1)` entries, seeded.

    This is the scale of the paper's embeddings after their multiplication by
    :math:`\sqrt{d}` (typical scale 1 per entry); their norm is about :math:`\sqrt{d}`.

    Parameters
    ----------
    n_tokens
        How many embeddings (rows).
    d_model
        Their width.
    seed
        The seed of NumPy's default generator.

    Returns
    -------
    numpy.ndarray
        An ``(n_tokens, d_model)`` float64 array.

    Examples
    --------
    >>> random_embeddings(3, 4).shape
    (3, 4)
    """
    tokens = _validate.positive_int("n_tokens", n_tokens)
    width = _validate.positive_int("d_model", d_model)
    _validate.capped_elements("random_embeddings", tokens * width, 8)
    return np.random.default_rng(seed).standard_normal((tokens, width))


def embeddings_plus_pe0(n_tokens: int, d_model: int, seed: int = 7) -> Float64Array:
    r"""Embeddings that share a direction with the encoding: :func:`random_embeddings` plus :math:`PE(0)`.

    Examples
    --------
    >>> np.allclose(embeddings_plus_pe0(2, 4) - random_embeddings(2, 4), [0.0, 1.0, 0.0, 1.0])
    True
    """
    tokens = _validate.positive_int("n_tokens", n_tokens)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements("embeddings_plus_pe0", 2 * tokens * width, 8)
    _validate.positive_int("seed", seed, minimum=0)
    return random_embeddings(n_tokens, d_model, seed) + numeric.sinusoidal(1, d_model)


def encoding_row_embeddings(
    n_tokens: int, d_model: int, seed: int = 5, *, n_positions: int = 200
) -> Float64Array:
    r"""Embeddings made of encoding rows: random combinations of :math:`PE(0), \dots, PE(n-1)`.

    Examples
    --------
    >>> encoding_row_embeddings(3, 8, n_positions=2).shape
    (3, 8)
    """
    tokens = _validate.positive_int("n_tokens", n_tokens)
    count = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    _validate.capped_elements(
        "encoding_row_embeddings", tokens * count + (tokens + count) * width, 8
    )
    _validate.positive_int("seed", seed, minimum=0)
    weights = np.random.default_rng(seed).standard_normal((tokens, count))
    return np.asarray(weights @ numeric.sinusoidal(count, d_model), dtype=np.float64)


def cosine_embedding_encoding(embeddings: Float64Array, n_positions: int = 200) -> Float64Array:
    r"""Cosines between token embeddings and the encoding rows ``0 .. n-1``, all pairs (measured).

    For an isotropic embedding the cosine with a fixed unit vector has mean 0 and variance
    exactly :math:`1/d`.

    Examples
    --------
    >>> cosine_embedding_encoding(random_embeddings(10, 64), 5).shape
    (10, 5)
    """
    tokens, width = embeddings.shape
    width = _validate.even_width("d_model", width)
    count = _validate.positive_int("n_positions", n_positions)
    _validate.capped_elements("cosines", tokens * (width + count), 8)
    table = numeric.sinusoidal(count, width)
    e_unit = embeddings / np.linalg.norm(embeddings, axis=1, keepdims=True)
    t_unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    return np.asarray(e_unit @ t_unit.T, dtype=np.float64)


def encoding_subspace_share(
    n_positions: int = 200,
    d_model: int = 512,
    *,
    embeddings: Float64Array | None = None,
    relative: float = 1e-3,
) -> tuple[int, float]:
    r"""Effective dimension of the encoding rows and the share of embeddings inside it.

    The rows :math:`PE(0), \dots, PE(n-1)` span (numerically) the directions whose singular
    value exceeds ``relative`` times the largest; ``r`` is their number. Returned with it:
    the measured mean share of the squared norm of ``embeddings`` (default: 1000
    :func:`random_embeddings` with seed 11) that falls in that ``r``-dimensional subspace
    (about ``r / d`` for isotropic embeddings).

    Examples
    --------
    >>> rank, share = encoding_subspace_share(4, 64)
    >>> rank, round(share / (rank / 64), 1)
    (4, 1.0)
    """
    count = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    table = numeric.sinusoidal(count, width)
    _, singular, vt = np.linalg.svd(table, full_matrices=False)
    rank = int((singular > relative * singular[0]).sum())
    basis = vt[:rank]
    vectors = random_embeddings(1000, width, 11) if embeddings is None else embeddings
    inside = ((vectors @ basis.T) ** 2).sum(axis=1)
    share = float((inside / (vectors**2).sum(axis=1)).mean())
    return rank, share
