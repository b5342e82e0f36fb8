"""The NumPy measurements of the chapter "Conventions and pitfalls".

* :func:`layout_shift_errors`: a rule for the shift matrix of other layouts, applied to
  the paper's table permuted into each layout (``d = 512``, positions 200 to 1223).
* :func:`t2t_formula_error`: a convention's table against tensor2tensor's own formula.
* :func:`recovery`: what :func:`pe.identify.identify` recovers from the table of every
  named convention, and whether it names every bug of :mod:`pe.bug_zoo`.
* :func:`described_table`: a convention's table written out from the page's description
  of its layout, order, law and first position, column by column.
* :func:`identify_accuracy`: identify's relative errors on the paper's law, per dtype,
  width and base; :func:`non_encodings`: tables it must refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import bug_zoo, conventions, numeric
from pe.conventions import LAYOUTS, Convention
from pe.identify import identify
from pe.proofs.conventions import ShiftInLayout

__all__ = [
    "ACCURACY",
    "BUG_SIGNS",
    "DESCRIPTION",
    "OFFSETS",
    "WIDTHS",
    "Accuracy",
    "Description",
    "Recovery",
    "ShiftErrors",
    "bug_named",
    "described_table",
    "identify_accuracy",
    "layout_shift_errors",
    "non_encodings",
    "one_indexed_error",
    "recovery",
    "t2t_formula_error",
    "uncertainty_slopes",
]

#: Offsets ``k`` of the layout check.
OFFSETS = (1, 7, 100, -3)
#: Relative accuracy required of identify's sine frequencies (pinned everywhere).
ACCURACY: dict[type[np.floating[Any]], float] = {np.float64: 1e-6, np.float32: 1e-3}
#: Widths of the recovery check.
WIDTHS = (8, 64, 512)

#: A phrase that identify's notes must contain for each bug.
BUG_SIGNS = {
    "doubled-exponent": "doubled-exponent",
    "multiplied": "multiplied by",
    "integer-division": "integer division",
    "column-index": "`i // 2`",
    "halves-for-interleaved": "layout halves",
    "odd-width": "without a partner",
    "fairseq-offset": "position 2",
}


class ShiftErrors(NamedTuple):
    """Largest error of the moved rows, and of the error over its tolerance."""

    worst: float
    ratio: float


def layout_shift_errors(rule: ShiftInLayout, d: int = 512) -> ShiftErrors:
    """Move rows ``p`` of each layout's table by :data:`OFFSETS` with the rule's matrices.

    The table is the paper's for positions 200 to 1223 permuted into the layout; the
    tolerance is :func:`pe.numeric.rotation_tolerance` per column.

    Examples
    --------
    >>> from pe.proofs.conventions import ShiftInLayout, conjugated
    >>> layout_shift_errors(ShiftInLayout(conjugated), d=16).ratio <= 1.0
    True
    """
    positions = np.arange(1024)
    paper = numeric.sinusoidal(positions + 200, d)
    worst, worst_ratio = 0.0, 0.0
    for layout, order in rule.layouts:
        perm = conventions.permutation(d, LAYOUTS[0], (layout, order))
        table = paper[:, perm]
        omega = np.repeat(numeric.frequencies(d), 2)[perm]
        p_matrix = conventions.permutation_matrix(d, LAYOUTS[0], (layout, order))
        for k in OFFSETS:
            matrix = rule.build(p_matrix, numeric.shift_matrix(k, d))
            start, stop = max(0, -k), 1024 - max(0, k)
            moved = table[start:stop] @ matrix.T
            target = table[start + k : stop + k]
            error = np.abs(moved - target)
            tolerance = numeric.rotation_tolerance(omega[None, :], 1224.0, k, np.float64)
            worst = max(worst, float(error.max()))
            worst_ratio = max(worst_ratio, float((error / tolerance).max()))
    return ShiftErrors(worst, worst_ratio)


def t2t_formula_error(convention: Convention, d: int = 512, n: int = 1000) -> float:
    """Largest difference between a convention's table and tensor2tensor's own formula.

    Examples
    --------
    >>> t2t_formula_error(conventions.get("tensor2tensor"), d=16, n=50) < 1e-12
    True
    """
    h = d // 2
    freq = np.exp(-np.arange(h) * np.log(10000.0) / (h - 1))
    angle = np.multiply.outer(np.arange(n, dtype=np.float64), freq)
    reference = np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    return float(np.abs(convention.table(n, d) - reference).max())


def one_indexed_error(exponent: float, d: int = 64, n: int = 1000) -> float:
    r"""Largest difference between the one-indexed law and the wider paper table, pair 1 on.

    The one-indexed table :math:`\sin, \cos(p\,b^{-2(k+1)/d})` (``b = 10000``) against
    columns ``2 .. d+1`` of the paper's table of width ``d + 2`` with the base
    :math:`b^{\text{exponent}}`, positions ``0 .. n-1``. Both in float64: with the right
    base (``exponent = (d+2)/d``) they agree to about :math:`10^{-13}` (angles up to
    :math:`10^3`, rounded frequencies); with the base unchanged they differ by order one.

    Examples
    --------
    >>> one_indexed_error(66 / 64) < 1e-12, one_indexed_error(1.0) > 0.1
    (True, True)
    """
    frequencies = 10000.0 ** (-2.0 * (np.arange(d // 2) + 1) / d)
    angle = np.multiply.outer(np.arange(n, dtype=np.float64), frequencies)
    one_indexed = np.empty((n, d))
    one_indexed[:, 0::2], one_indexed[:, 1::2] = np.sin(angle), np.cos(angle)
    wider = numeric.sinusoidal(n, d + 2, base=10000.0**exponent)[:, 2:]
    return float(np.abs(wider - one_indexed).max())


class Recovery(NamedTuple):
    """What identify recovered: tables tried, the failures, and whether every bug was named."""

    cases: int
    failures: list[str]
    bugs_named: bool


def _table_failure(
    name: str, convention: Convention, d: int, dtype: type[np.floating[Any]]
) -> str | None:
    target = ACCURACY[dtype]
    result = identify(convention.table(200, d, dtype=dtype))
    law = {"one-indexed": "other"}.get(convention.law, convention.law)
    sin_error = float(np.max(np.abs(result.sin_frequencies / convention.frequencies(d) - 1)))
    got = (result.layout, result.order, result.position_offset, result.law)
    want = (convention.layout, convention.order, convention.offset, law)
    base_ok = result.base is not None and abs(result.base / convention.base - 1) < target
    if got != want or not base_ok or sin_error > target:
        return f"{name} d={d} {np.dtype(dtype)}: {got} base {result.base}"
    return None


def bug_named(bug: bug_zoo.Bug) -> bool:
    """Whether identify calls the bug's table (d = 64, 65 for the odd width) by its name."""
    d = 65 if bug.name == "odd-width" else 64
    result = identify(bug.make(200, d))
    return (
        result.is_encoding
        and not result.matches_paper
        and any(BUG_SIGNS[bug.name] in note for note in result.notes)
    )


def recovery(named: Mapping[str, Convention]) -> Recovery:
    """identify on every convention's table, ``d`` in :data:`WIDTHS`, float64 and float32."""
    failures: list[str] = []
    cases = 0
    for name, convention in named.items():
        for d in WIDTHS:
            for dtype in ACCURACY:
                cases += 1
                failure = _table_failure(name, convention, d, dtype)
                if failure is not None:
                    failures.append(failure)
    return Recovery(cases, failures, all(bug_named(bug) for bug in bug_zoo.BUGS))


class Accuracy(NamedTuple):
    """identify on one table of the paper's law: the case and its relative errors."""

    dtype: str
    d: int
    base: float
    sine_error: float  # largest relative error of the sine frequencies
    cosine_error: float  # largest relative error of the cosines pinned within the target
    flagged: int  # cosines reported with an uncertainty above the target
    fitted_base: float | None


def identify_accuracy(n: int = 256, widths: tuple[int, ...] = (8, 512, 4096)) -> list[Accuracy]:
    """identify on the paper's law for each dtype (target), width and base in 100, 1e4, 1e6.

    Examples
    --------
    >>> rows = identify_accuracy(32, widths=(8,))
    >>> max(row.sine_error for row in rows) < 1e-3
    True
    """
    rows = []
    for dtype, target in ACCURACY.items():
        for d in widths:
            for base in (100.0, 1e4, 1e6):
                convention = Convention("x", "x", base=base)
                true = convention.frequencies(d)
                result = identify(convention.table(n, d, dtype=dtype))
                sin_err = float(np.max(np.abs(result.sin_frequencies / true - 1)))
                cos_rel = np.abs(result.cos_frequencies / true - 1)
                flagged = result.cos_uncertainty / true > target
                pinned = float(np.max(cos_rel[~flagged])) if (~flagged).any() else 0.0
                rows.append(
                    Accuracy(
                        np.dtype(dtype).name,
                        d,
                        base,
                        sin_err,
                        pinned,
                        int(flagged.sum()),
                        result.base,
                    )
                )
    return rows


def non_encodings() -> dict[str, npt.NDArray[Any]]:
    """Tables that are not sinusoidal encodings: noise, a noisy table, zeros, one NaN."""
    one_nan = numeric.sinusoidal(200, 64)
    one_nan[3, 5] = np.nan
    noise = np.random.default_rng(1).normal(0, 1e-3, (200, 64))
    return {
        "uniform noise": np.random.default_rng(0).uniform(-1, 1, (200, 64)),
        "paper + noise 1e-3 (learned-like)": np.clip(numeric.sinusoidal(200, 64) + noise, -1, 1),
        "all zeros": np.zeros((200, 64)),
        "one NaN": one_nan,
    }


class Description(NamedTuple):
    """The conventions as the page describes them, one rule per choice."""

    #: pair ``k`` of width ``d`` -> its (first, second) columns, per layout
    columns: Mapping[str, Callable[[int, int], tuple[int, int]]]
    #: pairs ``k`` (array), width ``d``, base ``b`` -> frequencies, per law
    laws: Mapping[str, Callable[[npt.NDArray[np.int64], int, float], npt.NDArray[np.float64]]]
    #: the first position, per convention name (0 when not listed)
    first_position: Mapping[str, int]
    #: the row of zeros (fairseq's padding row), per convention name (none when not listed)
    padding_row: Mapping[str, int] = {}


#: The page's description: pair k in columns 2k, 2k+1 (interleaved) or k, k + d/2 (halves);
#: b^(-2k/d), exp(-k ln b / (d/2 - 1)), b^(-2(k+1)/d); fairseq-style tables start at 2.
DESCRIPTION = Description(
    columns={
        "interleaved": lambda k, _d: (2 * k, 2 * k + 1),
        "halves": lambda k, d: (k, k + d // 2),
    },
    laws={
        "paper": lambda k, d, b: b ** (-2.0 * k / d),
        "tensor2tensor": lambda k, d, b: np.exp(-k * np.log(b) / (d / 2 - 1)),
        "one-indexed": lambda k, d, b: b ** (-2.0 * (k + 1) / d),
    },
    first_position={"fairseq-tokens": 2},
    padding_row={"fairseq": 1},
)


def described_table(
    convention: Convention, n: int, d: int, description: Description = DESCRIPTION
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The table of ``convention`` written from ``description``, and a per-entry tolerance.

    Plain float64: ``sin``/``cos`` of ``p * w_k`` with ``w_k`` from the described law. The
    tolerance of an entry is ``6 eps (1 + p w_k)(1 + |ln w_k|)``: in each of this table and
    pe's, a sine or cosine within one ulp, a frequency formed by an exponential whose
    exponent (of size ``|ln w_k|``) is rounded twice (:func:`pe._tolerance.exponential_rounding`:
    ``eps + eps |ln w_k|`` relative) and the angle rounded once: twice
    ``eps + (1.5 eps + eps |ln w_k|) p w_k`` is within it.
    """
    k = np.arange(d // 2)
    omega = np.asarray(description.laws[convention.law](k, d, convention.base), dtype=np.float64)
    first = description.first_position.get(convention.name, 0)
    angles = np.outer(np.arange(first, first + n), omega)
    roles = (np.sin(angles), np.cos(angles))
    if convention.order == "cos-first":
        roles = roles[::-1]
    out = np.empty((n, d))
    tolerance = np.empty((n, d))
    bound = 6 * np.finfo(np.float64).eps * (1 + angles) * (1 + np.abs(np.log(omega)))
    for pair in k:
        for column, values in zip(
            description.columns[convention.layout](int(pair), d), roles, strict=True
        ):
            out[:, column] = values[:, pair]
            tolerance[:, column] = bound[:, pair]
    padding = description.padding_row.get(convention.name)
    if padding is not None:
        out[padding] = 0.0
    return out, tolerance


def uncertainty_slopes(n: int = 256, d: int = 128, base: float = 1e6) -> tuple[float, float, int]:
    r"""Log-log slopes of identify's relative uncertainty against :math:`\theta = \omega(n-1)`.

    Over the slow pairs (:math:`\theta < 1/2`) of a float32 paper-law table: the cosine
    columns' slope (about -2: :math:`\varepsilon/\theta^2`), the sine columns' (about 0),
    and the number of slow pairs.
    """
    law = Convention("slow", "paper law, large base", base=base)
    true = law.frequencies(d)
    found = identify(law.table(n, d, dtype=np.float32))
    theta = true * (n - 1)
    slow = theta < 0.5
    x = np.log(theta[slow])
    cosine = float(np.polyfit(x, np.log(found.cos_uncertainty[slow] / true[slow]), 1)[0])
    sine = float(np.polyfit(x, np.log(found.sin_uncertainty[slow] / true[slow]), 1)[0])
    return cosine, sine, int(slow.sum())
