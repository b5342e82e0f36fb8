r"""Tell which sinusoidal convention an encoding table follows, from the table alone.

:func:`identify` takes an ``(n, d)`` array whose rows are consecutive positions and
recovers the layout, the order inside a pair, one frequency per column, the position of
row 0, the frequency law and its base, and says in words how the table differs from the
paper's (Vaswani et al. 2017). A table that is not a sinusoidal encoding is refused with
the reason.

Method
------
1. **One sinusoid per column.** Column ``j`` is fitted as :math:`x_j(r) = \sin(\omega_j r + \psi_j)`
   (unit amplitude, ``r`` the row index) by Gauss-Newton with a Levenberg-Marquardt
   safeguard, started from Prony's estimate :math:`\cos\omega_j \approx
   \sum_r (x_{r+1} + x_{r-1}) x_r / (2 \sum_r x_r^2)` on the first 32 rows and refined on
   growing windows (32, 256, then all rows up to 1024; later rows are only checked). A
   column that rounding leaves flat over the first 32 rows (a slow cosine in float16 or
   bfloat16) starts instead from the best of a grid of frequencies, and a slow column whose
   sinusoid misses on the later rows is refitted on every ``s``-th row of the whole table
   (``s = ceil(n / 1024)``), kept where that lowers its largest miss.
   Frequencies are principal values in :math:`[0, \pi]`: at integer positions a frequency
   above :math:`\pi` is indistinguishable from its alias. Columns are fitted in chunks, in
   threads; the result does not depend on the number of threads.
2. **Uncertainty.** With :math:`\sigma` the residual's RMS (at least the dtype's rounding,
   :math:`\varepsilon\,\mathrm{rms}(x_j)`), the frequency's uncertainty is the half-width
   of the interval where the model moves by :math:`\sigma` per row, to second order:
   :math:`\delta = 2c / (a + \sqrt{a^2 + 4bc})` with :math:`c = \sigma/\sqrt{n}`, ``a`` the
   RMS sensitivity :math:`\partial x / \partial\omega` (phase profiled out) and ``b`` half the
   RMS second derivative. For a cosine column of a slow pair ``a`` vanishes and the
   frequency is pinned only to about :math:`\varepsilon/\theta^2` relative,
   :math:`\theta` the largest angle in the table; a sine column pins it to :math:`\varepsilon`.
   Reported uncertainties are ``SAFETY`` = 3 such half-widths (never below
   :math:`4\varepsilon_{64}\,\omega`), and a column whose residual exceeds the table's
   precision (rounding plus an angle error of :math:`2\varepsilon\theta`, at least
   :math:`10^{-8}`) means the table is not a sinusoidal encoding.
3. **Layout and order.** Each candidate pairing (interleaved, halves, and for odd widths
   the variants with one unpaired column) is scored by the share of pairs whose two
   frequencies agree within their uncertainties, then by the share whose phases differ by
   :math:`\pm\pi/2`: :math:`+\pi/2` (second member leads) means sine first.
4. **Offset.** Each column's phase gives :math:`\omega_j p_0 \bmod 2\pi`; the estimate of
   :math:`p_0` is refined from the slowest column to the fastest, each resolving the
   :math:`2\pi` ambiguity of the next.
5. **Law.** Weighted least squares of :math:`\ln\omega_k` on ``k``:
   intercept 0 and slope :math:`-2\ln b/d` (paper) or :math:`-\ln b/(d/2-1)` (tensor2tensor).
   Both laws are geometric from :math:`\omega_0 = 1`, so the same table fits both, with
   different bases; the law whose base has fewer significant digits is reported (the
   paper's on a tie) and the other is mentioned when it is as round.

Thresholds
----------
Each is a named constant of its module (the tests place tables just inside and outside
each one, and check the values stated here):

- a value may leave :math:`[-1, 1]` by ``PEAK_EPS`` = 8 machine epsilons (rounding);
- a column's residual may reach :math:`\min(8\varepsilon + 2\varepsilon\theta + 10^{-8},
  0.02)` (``RESIDUAL_EPS`` = 8, ``ANGLE_EPS`` = 2, ``RESIDUAL_FLOOR`` = 1e-8,
  ``RESIDUAL_CAP`` = 0.02), :math:`\theta` the largest angle of the column;
- two frequencies of a pair agree within 2 uncertainties plus ``AGREE_REL`` = 1e-9
  relative; their phases differ by :math:`\pm\pi/2` within ``QUARTER_TURN`` = 0.25 rad
  plus their uncertainties;
- the law's line fits when no frequency lies more than ``LINE_FIT`` = 2.5 uncertainties
  from it; a frequency enters the line when its uncertainty is below ``PINNED`` = 0.6 of
  it; every :math:`\ln\omega` has a floor of ``LAW_FLOOR_EPS`` = 128 machine epsilons;
- a base within 2 uncertainties or ``BASE_MATCH`` = 1e-9 relative of 10000 is the paper's;
- in a file of several tensors, each candidate is scored on its first ``SAMPLE_ROWS`` = 64
  rows, at most ``SAMPLE_BYTES`` = 4 MiB of them; a PyTorch file whose pickle
  (``data.pkl``, names and shapes only) exceeds ``MAX_PICKLE_BYTES`` = 64 MiB is refused.

The steps live in private modules, one per job: ``_files`` (reading ``.npy``, ``.npz``
and ``.safetensors`` files, headers first), ``_inputs`` (calling a function, screening a
table), ``_fit`` (step 1 and 2), ``_layout`` (steps 3 and 4), ``_law`` (step 5),
``_explain`` (the verdict and the notes in words) and ``_result`` (:class:`Identification`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt

from pe.identify import _explain
from pe.identify._files import load_table
from pe.identify._fit import check_rest, fit_columns, refit_strided
from pe.identify._inputs import (
    FIT_ROWS,
    MIN_ROWS,
    as_table,
    call_function,
    load_npy,
    padding,
    read_table,
    screen,
)
from pe.identify._law import LawInput, fit_law
from pe.identify._layout import locate, roles
from pe.identify._result import Identification, base_agrees
from pe.identify._tensors import Loaded

__all__ = [
    "MIN_ROWS",
    "Identification",
    "Loaded",
    "as_table",
    "base_agrees",
    "call_function",
    "identify",
    "load_npy",
    "load_table",
    "read_table",
]


#: Machine epsilon of each dtype a table may have been stored in (bfloat16: 8 bits).
STORED_EPS = {"bfloat16": 2.0**-7, "float16": 2.0**-10, "float32": 2.0**-23, "float64": 2.0**-52}


def identify(table: npt.ArrayLike, *, stored_dtype: str | None = None) -> Identification:
    r"""Identify the convention of a sinusoidal encoding table.

    Parameters
    ----------
    table
        Array of shape ``(n, d)``, float16, bfloat16, float32 or float64, ``n >= 16``: row
        ``r`` is the encoding of position ``p_0 + r`` for an unknown integer ``p_0``.
        Shapes ``(1, n, d)``, ``(n, 1, d)`` and ``(b, n, d)`` with ``b`` equal tables are
        read as ``(n, d)``. A NumPy array, nested lists, or an array of another library:
        a PyTorch tensor (also one that requires grad, or on a GPU), a JAX array.
    stored_dtype
        The dtype the values were stored in when it is less precise than the array's:
        ``"bfloat16"`` for bfloat16 values already widened to float32, so that the
        precision expected of the table is bfloat16's. Default: the array's (bfloat16 for
        a bfloat16 tensor or JAX array).

    Returns
    -------
    Identification
        ``is_encoding`` is False (with the reason) for a table that is not a sinusoidal
        encoding: NaN or infinite values, all zeros, identical rows, values outside
        ``[-1, 1]``, or columns that are not sinusoids of the position within the
        table's precision.

    Raises
    ------
    TypeError, ValueError
        For something that is not a 2-D float array with at least 16 rows and 2 columns.

    Notes
    -----
    Accuracy: the frequency of a sine column, or of any column whose angle reaches a good
    part of a turn, comes out within a few :math:`\varepsilon` relative; a cosine column
    of a slow pair only within :math:`\varepsilon/\theta^2`, reported in the uncertainties
    (three standard errors). Cost: a few passes over ``min(n, 1024) * d`` values, in
    threads, plus one check of the other rows. Deterministic.

    Examples
    --------
    >>> from pe import conventions
    >>> found = identify(conventions.get("fairseq").table(64, 16))
    >>> found.layout, found.order, found.law, found.position_offset, found.first_token_row
    ('halves', 'sin-first', 'tensor2tensor', 0, 2)
    >>> identify(np.zeros((16, 4))).reason
    'not an encoding: every value is 0'
    """
    array, held = read_table(table)
    n, d = array.shape
    stored = stored_dtype if stored_dtype is not None else held
    dtype = str(array.dtype) if stored is None else stored
    if dtype not in STORED_EPS:
        raise ValueError(f"stored_dtype must be one of {', '.join(STORED_EPS)}, got {dtype!r:.40}")
    found = _identify(array, dtype)
    if found.is_encoding or d < MIN_ROWS or found.reason.startswith("not an encoding:"):
        return found
    # Refused: is it a table given the wrong way round (d rows of n positions)?
    turned = _identify(array.T, dtype)
    if not turned.is_encoding:
        return found
    return dataclasses.replace(
        found,
        reason=(
            f"not an encoding as given: the table is transposed, its {n} rows are the "
            f"columns of a sinusoidal encoding of {d} positions ({turned.reason}); "
            "pass table.T (rows must be positions, shape (n, d))"
        ),
    )


def _identify(array: npt.NDArray[Any], dtype: str) -> Identification:
    """:func:`identify` of a checked ``(n, d)`` array whose values were stored in ``dtype``."""
    n, d = array.shape
    shape = (n, d)
    eps = max(STORED_EPS[dtype], float(np.finfo(array.dtype).eps))
    refusal = screen(array, eps)
    if refusal is not None:
        return Identification(False, refusal, shape, dtype)
    m = min(n, FIT_ROWS)
    padded = padding(array, m)
    if isinstance(padded, str):
        return Identification(False, padded, shape, dtype)
    width = padded.width

    fit = fit_columns(array[:m, :width].astype(np.float64), padded.rows, eps)
    if n > m:
        columns = np.arange(width, dtype=np.int64)
        rest = check_rest(array, m, fit, columns)
        missed = np.flatnonzero(rest > 2 * fit.residual + 2 * eps)  # a loose extrapolation
        fit = dataclasses.replace(fit, residual=np.maximum(fit.residual, rest))
        fit = refit_strided(array, fit, missed, eps)
    found = roles(fit, width)
    located = locate(fit, found, width)
    offset = round(located.estimate)
    refusal = _explain.residual_refusal(fit, offset, n, eps)
    if refusal is not None:
        return Identification(False, refusal, shape, dtype)

    notes = padded.notes + _explain.shape_notes(fit, found, d, located, offset)
    notes += _explain.token_notes(padded, offset, n)
    notes += _explain.precision_note(fit, found, dtype, n)
    data = LawInput(
        fit.w[found.sine_cols],
        fit.w[found.cos_cols],
        fit.sigma_w[found.sine_cols],
        fit.sigma_w[found.cos_cols],
        np.asarray(found.agree & ~found.turned),
        found.disagree,
        width,
    )
    law = fit_law(data, eps)
    notes += law.notes
    matches = _explain.matches_paper(law, found, offset, d, padded)
    return Identification(
        True,
        _explain.reason(matches, law, found, offset, d=d, padding=padded),
        shape,
        dtype,
        layout=found.pairing.layout,
        order=found.order,
        sin_frequencies=data.sin_w,
        cos_frequencies=data.cos_w,
        sin_uncertainty=data.sin_s,
        cos_uncertainty=data.cos_s,
        position_offset=offset,
        law=law.law,
        base=law.base,
        base_uncertainty=law.base_sigma,
        matches_paper=matches,
        notes=tuple(notes),
        unpaired_column=found.pairing.unpaired,
        padding_rows=padded.zero_rows,
        first_token_row=_explain.first_token_row(padded, n),
        split_pairs=tuple(int(i) for i in np.flatnonzero(found.disagree)),
    )
