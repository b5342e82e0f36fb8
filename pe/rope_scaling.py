r"""Scaled RoPE: the frequencies of long-context models, pair by pair.

A model trained on ``L`` positions is run on ``s L`` by changing its RoPE frequencies
:math:`\omega_i = b^{-2i/d}`. Position interpolation divides every frequency by ``s``
(``pe.rope(..., scale=s)``) and NTK-aware scaling changes the base
(:func:`pe.relative.ntk_base`); the two rules here treat pairs differently by their
wavelength :math:`\lambda_i = 2\pi/\omega_i`:

- :func:`llama3_frequencies`, Meta's rule for Llama 3.1: pairs of wavelength below
  :math:`L/h` keep :math:`\omega_i`, pairs above :math:`L/l` take :math:`\omega_i / s`, and
  between them :math:`(1 - t)\,\omega_i / s + t\,\omega_i` with
  :math:`t = (L/\lambda_i - l)/(h - l)`;
- :func:`yarn_frequencies`, YaRN's ramp: pair ``i`` takes
  :math:`(1 - \rho_i)\,\omega_i + \rho_i\,\omega_i / s` with :math:`\rho_i` rising linearly from
  0 to 1 between the pairs that turn :math:`\beta_f` and :math:`\beta_s` times over ``L``
  positions; :func:`yarn_gain` is the factor :math:`0.1 \ln s + 1` by which YaRN multiplies
  the cosines and sines.

:func:`rotate_halves` turns these frequencies into a rotary function ``fn(x, positions)``
as Hugging Face's models apply it (the halves pairing). The rules are written from their
published descriptions; ``tests/test_real_code.py`` compares them with transformers'
``ROPE_INIT_FUNCTIONS``.

Examples
--------
>>> import numpy as np
>>> w = llama3_frequencies(8, base=10000.0, factor=8.0, original_positions=128)
>>> (w / (10000.0 ** (-np.arange(0, 8, 2) / 8))).round(3)
array([1.   , 0.428, 0.125, 0.125])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import _validate

__all__ = ["llama3_frequencies", "rotate_halves", "yarn_frequencies", "yarn_gain"]

Float64Array = npt.NDArray[np.float64]

#: A rotary function ``fn(x, positions)`` for ``x`` of shape ``(n, d)``.
Rotary = Callable[[Float64Array, npt.NDArray[Any]], Float64Array]


def _paper_frequencies(d_model: int, base: float) -> Float64Array:
    width = _validate.even_width("d_model", d_model)
    b = _validate.base_value("base", base)
    return np.asarray(b ** (-np.arange(0, width, 2) / width), dtype=np.float64)


def _factor(factor: float) -> float:
    s = _validate.real_scalar("factor", factor)
    if s < 1:
        raise ValueError(f"factor must be >= 1, got {s}")
    return s


def llama3_frequencies(
    d_model: int,
    *,
    base: float,
    factor: float = 8.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
    original_positions: int = 8192,
) -> Float64Array:
    r"""Llama 3.1's scaled frequencies: fast pairs kept, slow pairs divided by ``factor``.

    With :math:`\lambda_i = 2\pi/\omega_i`, :math:`L` = ``original_positions``,
    :math:`l, h` = ``low_freq_factor``, ``high_freq_factor`` and :math:`s` = ``factor``:

    .. math::

        \omega'_i = \begin{cases} \omega_i & \lambda_i < L/h \\
        \omega_i / s & \lambda_i > L/l \\
        (1 - t_i)\,\omega_i / s + t_i\,\omega_i,\ t_i = \frac{L/\lambda_i - l}{h - l}
        & \text{otherwise.} \end{cases}

    ``base`` has no default: Llama 3.1 uses 500000, the paper's encoding 10000.
    Computed in float64 (a few roundings per entry); transformers computes it in float32.

    Examples
    --------
    Pair 0 (wavelength :math:`2\pi`) lies between :math:`L/h = 4` and :math:`L/l = 16`:
    blended; pair 1 (wavelength :math:`20\pi`) is divided by 2.

    >>> llama3_frequencies(4, base=100.0, factor=2.0, original_positions=16).round(4)
    array([0.7577, 0.05  ])
    """
    w = _paper_frequencies(d_model, base)
    s = _factor(factor)
    low = _validate.real_scalar("low_freq_factor", low_freq_factor)
    high = _validate.real_scalar("high_freq_factor", high_freq_factor)
    if not 0 < low < high:
        raise ValueError(f"need 0 < low_freq_factor < high_freq_factor, got {low}, {high}")
    length = _validate.positive_int("original_positions", original_positions)
    wavelength = 2 * np.pi / w
    t = (length / wavelength - low) / (high - low)
    blended = (1 - t) * w / s + t * w
    kept = np.where(wavelength > length / low, w / s, blended)
    return np.asarray(np.where(wavelength < length / high, w, kept), dtype=np.float64)


def yarn_frequencies(
    d_model: int,
    *,
    base: float = 10000.0,
    factor: float = 4.0,
    original_positions: int = 2048,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
) -> Float64Array:
    r"""YaRN's frequencies: a linear ramp from kept to divided by ``factor``.

    The pair that turns :math:`\beta` times over :math:`L` = ``original_positions``
    positions has the index :math:`c(\beta) = \frac{d \ln(L / (2\pi\beta))}{2 \ln b}`; the ramp
    runs from :math:`\lfloor c(\beta_f) \rfloor` to :math:`\lceil c(\beta_s) \rceil` (clipped
    to ``0 .. d - 1``), :math:`\rho_i = \min(1, \max(0, (i - lo)/(hi - lo)))` and
    :math:`\omega'_i = (1 - \rho_i)\,\omega_i + \rho_i\,\omega_i / s`.

    Examples
    --------
    >>> w = yarn_frequencies(64, factor=4.0)
    >>> bool(w[0] == 1.0), float(w[-1] * 4 / 10000.0 ** (-62 / 64)).__round__(12)
    (True, 1.0)
    """
    w = _paper_frequencies(d_model, base)
    s = _factor(factor)
    length = _validate.positive_int("original_positions", original_positions)
    width = w.size * 2

    def pair_turning(times: float) -> float:
        turns = _validate.real_scalar("beta", times)
        return width * math.log(length / (turns * 2 * math.pi)) / (2 * math.log(base))

    low = max(math.floor(pair_turning(beta_fast)), 0)
    high = min(math.ceil(pair_turning(beta_slow)), width - 1)
    span = high - low if high != low else 0.001
    ramp = np.clip((np.arange(w.size) - low) / span, 0.0, 1.0)
    return np.asarray((1 - ramp) * w + ramp * w / s, dtype=np.float64)


def yarn_gain(factor: float) -> float:
    r"""YaRN's attention factor :math:`0.1 \ln s + 1` (1 for :math:`s \le 1`).

    Examples
    --------
    >>> round(yarn_gain(4.0), 6)
    1.138629
    """
    s = _validate.real_scalar("factor", factor)
    return 1.0 if s <= 1 else 0.1 * math.log(s) + 1.0


def rotate_halves(frequencies: npt.ArrayLike, gain: float = 1.0) -> Rotary:
    r"""A rotary function with the given pair ``frequencies``, halves pairing, as Hugging
    Face's models apply it: :math:`x_i` and :math:`x_{i + d/2}` turned by :math:`p\,\omega_i`,
    the cosines and sines multiplied by ``gain``.

    Examples
    --------
    >>> fn = rotate_halves([1.0])
    >>> fn(np.array([[1.0, 0.0]]), np.array([np.pi / 2])).round(12) + 0.0
    array([[0., 1.]])
    """
    w = np.asarray(frequencies, dtype=np.float64)
    g = _validate.real_scalar("gain", gain)

    def fn(x: Float64Array, positions: npt.NDArray[Any]) -> Float64Array:
        angles = np.outer(positions, w)
        cos, sin = np.cos(angles) * g, np.sin(angles) * g
        half = w.size
        a, b = x[:, :half], x[:, half:]
        return np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=1)

    return fn
