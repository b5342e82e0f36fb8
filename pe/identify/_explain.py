"""The verdict in words: refusals, deviations from the paper and the known bugs they betray."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from pe.identify._fit import ColumnFit, wrap
from pe.identify._inputs import Padding
from pe.identify._law import LawFit
from pe.identify._layout import Located, Roles
from pe.identify._result import Float64Array, base_agrees

__all__ = [
    "ANGLE_EPS",
    "RESIDUAL_CAP",
    "RESIDUAL_EPS",
    "RESIDUAL_FLOOR",
    "TARGET",
    "departures",
    "distinct",
    "matches_paper",
    "precision_note",
    "reason",
    "residual_refusal",
    "residual_tolerance",
    "shape_notes",
]

#: Relative accuracy promised per dtype (float16 is best effort).
TARGET = {"float64": 1e-6, "float32": 1e-3, "float16": 1e-2}
#: A column's residual may reach RESIDUAL_EPS eps (rounding of the values) ...
RESIDUAL_EPS = 8.0
#: ... plus ANGLE_EPS eps times its largest angle (the producer's angle error) ...
ANGLE_EPS = 2.0
#: ... plus this absolute floor (aliased columns hide their true angle) ...
RESIDUAL_FLOOR = 1e-8
#: ... and never more than this: beyond it a column carries no usable position.
RESIDUAL_CAP = 0.02


def _fmt(value: float) -> str:
    return f"{value:.6g}"


def distinct(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with the fewest significant digits (at least 6) that tell them apart.

    Examples
    --------
    >>> distinct(0.07498941570520401, 0.07498941389432555)
    ('0.07498942', '0.07498941')
    >>> distinct(1.0, 2.0)
    ('1', '2')
    """
    for digits in range(6, 18):
        left, right = f"{a:.{digits}g}", f"{b:.{digits}g}"
        if left != right:
            return left, right
    return f"{a!r}", f"{b!r}"


def residual_tolerance(w: npt.ArrayLike, offset: int, n: int, eps: float) -> Float64Array:
    r"""The residual a column of frequency ``w`` may have in a table of ``n`` rows from ``offset``.

    :math:`\min(8\varepsilon + 2\varepsilon\,\omega(|p_0| + n) + 10^{-8},\ 0.02)`:
    rounding of the values, the producer's angle error (:math:`\varepsilon` times the
    angle; aliased columns hide their true angle, hence the absolute floor), capped: beyond
    0.02 the table carries no usable position information anyway.

    Examples
    --------
    >>> residual_tolerance([1.0], 0, 16, 2.0**-52).tolist()
    [1.0000008881784197e-08]
    >>> residual_tolerance([1.0], 0, 1024, 2.0**-10).tolist()  # float16: capped
    [0.02]
    """
    reach = np.asarray(w, dtype=np.float64) * (abs(offset) + n)
    return np.asarray(
        np.minimum(RESIDUAL_EPS * eps + ANGLE_EPS * eps * reach + RESIDUAL_FLOOR, RESIDUAL_CAP),
        dtype=np.float64,
    )


def residual_refusal(fit: ColumnFit, offset: int, n: int, eps: float) -> str | None:
    """Refuse when some column is not a sinusoid of the position within the precision."""
    tolerance = residual_tolerance(fit.w, offset, n, eps)
    failing = fit.residual > tolerance
    if not failing.any():
        return None
    worst = int(np.argmax(fit.residual / tolerance))
    return (
        f"not a sinusoidal encoding: {int(failing.sum())} of {fit.w.size} columns are not "
        f"sinusoids of the position (identify's sinusoid fit misses column {worst} by "
        f"{fit.residual[worst]:.2g}, the table's precision allows {tolerance[worst]:.2g}); "
        "a learned or random table? (rows must be consecutive positions, shape (n, d))"
    )


def shape_notes(fit: ColumnFit, roles: Roles, d: int, located: Located, offset: int) -> list[str]:
    """Notes on the layout, the unpaired column, the offset and the pairs."""
    notes: list[str] = []
    p_hat, p_sigma = located.estimate, located.sigma
    unpaired = roles.pairing.unpaired
    if unpaired is not None:
        wj = float(fit.w[unpaired])
        as_sine = abs(wrap(fit.psi[unpaired] - wj * offset))
        as_cos = abs(wrap(fit.psi[unpaired] - np.pi / 2 - wj * offset))
        kind = "sine" if as_sine <= as_cos else "cosine"
        notes.append(
            f"the width d = {d} is odd: column {unpaired} is a {kind} without a partner "
            f"(frequency {_fmt(wj)}); the rotation identity cannot move it"
        )
    layout = roles.pairing.layout
    if layout != "interleaved" or roles.order != "sin-first":
        notes.append(
            f"layout {layout}, {roles.order}: not the paper's interleaved (sin, cos) columns; "
            "pe.conventions.convert reorders the columns, and the shift matrix becomes "
            "P T_k P^T"
        )
    if math.isfinite(p_sigma) and p_sigma > 0.5:
        notes.append(f"the offset is uncertain: row 0 is at position {p_hat:.3g} ± {p_sigma:.2g}")
    elif math.isfinite(p_sigma) and abs(p_hat - offset) > max(2 * p_sigma, 0.05):
        notes.append(f"row 0 sits at position {p_hat:.4g}, not an integer; rounded to {offset}")
    if offset != 0:
        extra = (
            " (as the rows fairseq's tokens read: its stored table starts at position 0, "
            "with a zeroed padding row 1, and the first token reads row 2)"
            if offset == 2
            else ""
        )
        notes.append(f"row 0 is position {offset}, not 0{extra}")
    if located.inconsistent:
        notes.append(f"{located.inconsistent} columns disagree with a single offset")
    disagree = roles.disagree
    if disagree.any():
        k0 = int(np.flatnonzero(disagree)[0])
        sine, cosine = int(roles.sine_cols[k0]), int(roles.cos_cols[k0])
        shown = distinct(float(fit.w[sine]), float(fit.w[cosine]))
        allowed = float(
            2 * math.hypot(fit.sigma_w[sine], fit.sigma_w[cosine])
            + fit.bias_w[sine]
            + fit.bias_w[cosine]
        )
        notes.append(
            f"sine and cosine columns of a pair use different frequencies "
            f"({int(disagree.sum())} of {disagree.size} pairs; pair {k0}: sine "
            f"{shown[0]}, cosine {shown[1]}, apart by "
            f"{abs(float(fit.w[sine] - fit.w[cosine])):.2g} where the table's precision "
            f"allows {allowed:.2g}): no rotation maps one row to a later one"
        )
    if roles.turned.any():
        notes.append(
            f"{int(roles.turned.sum())} pairs turn the wrong way: their frequencies lie "
            "between π and 2π modulo 2π, where integer positions show only an alias turning "
            "the other way (or their sine and cosine are swapped); the values listed are the "
            "aliases in [0, π], the true frequencies cannot be told from this table"
        )
    return notes


def first_token_row(padding: Padding, n: int) -> int:
    """The row the first token reads: the row after the padding rows at the start of the
    table (fairseq: padding row 1, tokens from row 2), else row 0.

    Examples
    --------
    >>> first_token_row(Padding(np.ones(16), 4, (1,), []), 16)
    2
    >>> first_token_row(Padding(np.ones(16), 4, (), []), 16)
    0
    """
    leading = [row for row in padding.zero_rows if row < n // 2]
    return max(leading) + 1 if leading else 0


def token_notes(padding: Padding, offset: int, n: int) -> list[str]:
    """Where the tokens start, when a padding row moves them (fairseq's stored tables)."""
    first = first_token_row(padding, n)
    if first == 0:
        return []
    note = (
        f"the first token reads row {first} (position {offset + first}), after the padding "
        f"row {first - 1}, as in fairseq's stored tables (padding_idx = {first - 1})"
    )
    return [note]


def precision_note(fit: ColumnFit, roles: Roles, dtype: str, n: int) -> list[str]:
    """A note when slow cosine columns are pinned only loosely (their sines are sharp)."""
    target = TARGET.get(dtype, 1e-2)
    sin_w, cos_w = fit.w[roles.sine_cols], fit.w[roles.cos_cols]
    sin_s, cos_s = fit.sigma_w[roles.sine_cols], fit.sigma_w[roles.cos_cols]
    loose = (cos_s > target * np.maximum(cos_w, 1e-300)) & (sin_s <= target * sin_w)
    if not loose.any():
        return []
    worst = float(np.max(cos_s[loose] / np.maximum(cos_w[loose], 1e-300)))
    return [
        (
            f"{int(loose.sum())} slow cosine columns are pinned only to about eps/θ² (θ = the "
            f"largest angle of their pair over {n} rows; worst relative uncertainty {worst:.2g}): "
            "their values come with cos_uncertainty; the sine columns of those pairs pin them"
        )
    ]


def matches_paper(found: LawFit, roles: Roles, offset: int, d: int, padding: Padding) -> bool:
    """Paper layout and order, paper law, base 10000 and offset 0, within the precision:
    no :func:`departures`."""
    return not departures(found, roles, offset, d, padding)


def departures(found: LawFit, roles: Roles, offset: int, d: int, padding: Padding) -> list[str]:
    """What keeps an encoding from being the paper's, each in a few words (empty: none)."""
    parts = []
    if (roles.pairing.layout, roles.order) != ("interleaved", "sin-first"):
        parts.append(f"{roles.pairing.layout} layout, {roles.order}")
    if found.law != "paper":
        parts.append(f"law {found.law}")
    elif not base_agrees(found.base, found.base_sigma, 10000.0):
        parts.append(f"base {found.base or 0.0:.6g}")
    if offset != 0:
        parts.append(f"row 0 at position {offset}")
    if d % 2 or padding.width != d:
        parts.append(f"odd width {d}")
    if roles.disagree.any():
        parts.append(
            f"sine and cosine frequencies differ in {int(roles.disagree.sum())} of "
            f"{roles.disagree.size} pairs"
        )
    if roles.turned.any():
        parts.append(f"{int(roles.turned.sum())} pairs turn the wrong way")
    if padding.has_zero_rows:
        parts.append("a zeroed padding row")
    return parts


def reason(
    matches: bool, found: LawFit, roles: Roles, offset: int, *, d: int, padding: Padding
) -> str:
    """The verdict of an encoding in one sentence: what differs first, then what was found."""
    if matches:
        return "the paper's encoding: interleaved (sin, cos), base 10000, positions from 0"
    parts = [f"{roles.pairing.layout} ({roles.order})", f"law {found.law}"]
    if found.base is not None:
        parts.append(f"base {found.base:.6g}")
    parts.append(f"row 0 at position {offset}")
    differs = "; ".join(departures(found, roles, offset, d, padding))
    return f"a sinusoidal encoding, not the paper's: {differs} (found: {', '.join(parts)})"
