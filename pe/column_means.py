r"""The column means of the sinusoidal table: zero over a full period, not over ``n`` positions.

Each column is a sine or a cosine of :math:`p\,\omega_i`; over a full period
:math:`2\pi/\omega_i` it averages to 0, but over the positions :math:`0, \dots, n-1` its
mean is a finite sum with a closed form (Lagrange's identities), for
:math:`\theta = \omega_i`:

.. math::

    \frac1n\sum_{p=0}^{n-1} \sin p\theta =
    \frac{\sin(n\theta/2)\,\sin((n-1)\theta/2)}{n \sin(\theta/2)}, \qquad
    \frac1n\sum_{p=0}^{n-1} \cos p\theta =
    \frac{\sin(n\theta/2)\,\cos((n-1)\theta/2)}{n \sin(\theta/2)}.

The slow columns (wavelength far above ``n``) keep a mean far from 0.
:func:`column_means` measures the means on pe's table, :func:`column_means_closed_form`
evaluates the closed form in float64 and :func:`column_means_exact` in 40-digit mpmath
(the reference the measured means are held to).

Examples
--------
>>> column_means(2, 2).round(3)
array([0.421, 0.77 ])
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pe import _validate, numeric, reference

__all__ = ["column_means", "column_means_closed_form", "column_means_exact"]

Float64Array = npt.NDArray[np.float64]


def column_means(n_positions: int, d_model: int) -> Float64Array:
    """Mean of each column of the table over the positions ``0 .. n-1`` (measured).

    Examples
    --------
    >>> column_means(2, 2).round(3)
    array([0.421, 0.77 ])
    """
    return np.asarray(numeric.sinusoidal(n_positions, d_model).mean(axis=0), dtype=np.float64)


def column_means_closed_form(n_positions: int, d_model: int, *, shift: float = 1.0) -> Float64Array:
    r"""Column means from the closed forms of the finite sums (Lagrange's identities).

    For :math:`\theta = \omega_i`, :math:`\frac1n\sum_{p=0}^{n-1} \sin p\theta =
    \frac{\sin(n\theta/2)\,\sin((n-1)\theta/2)}{n \sin(\theta/2)}` and the same with
    :math:`\cos((n-1)\theta/2)` for the cosine. ``shift`` is the candidate ``s`` of the
    middle angle :math:`(n - s)\theta/2`; only ``s = 1`` is right.

    Examples
    --------
    >>> column_means_closed_form(2, 2).round(3)
    array([0.421, 0.77 ])
    """
    count = _validate.positive_int("n_positions", n_positions)
    theta = numeric.frequencies(d_model)
    common = np.sin(count * theta / 2) / (count * np.sin(theta / 2))
    middle = (count - shift) * theta / 2
    out = np.empty(2 * theta.size)
    out[0::2] = common * np.sin(middle)
    out[1::2] = common * np.cos(middle)
    return out


def column_means_exact(n_positions: int, d_model: int, *, shift: float = 1.0) -> Float64Array:
    """:func:`column_means_closed_form` evaluated in 40-digit mpmath at the exact frequencies.

    The reference the measured means are held to: its only error is the final rounding.

    Examples
    --------
    >>> bool(np.allclose(column_means_exact(5, 8), column_means(5, 8), rtol=0, atol=1e-15))
    True
    """
    import mpmath

    count = _validate.positive_int("n_positions", n_positions)
    width = _validate.even_width("d_model", d_model)
    out = np.empty(width)
    with mpmath.workdps(40):
        for i, theta in enumerate(reference.frequencies(width, dps=40)):
            common = mpmath.sin(count * theta / 2) / (count * mpmath.sin(theta / 2))
            middle = (count - mpmath.mpf(shift)) * theta / 2
            out[2 * i] = float(common * mpmath.sin(middle))
            out[2 * i + 1] = float(common * mpmath.cos(middle))
    return out
