r"""How well :func:`pe.identify.identify` reads a table: what it recovers, and how accurately.

:func:`pe.identify.identify` recovers a convention (layout, order, offset, law, base, one
frequency per column) from its table alone. This module measures it on tables whose
convention is known:

- :func:`identify_accuracy`: the relative errors of the recovered frequencies on the
  paper's law, per dtype, width and base, against the targets of :data:`ACCURACY`
  (:math:`10^{-6}` in float64, :math:`10^{-3}` in float32);
- :func:`recovery`: every field of every named convention recovered, at each width of
  :data:`WIDTHS` in float64 and float32, and every bug of :mod:`pe.bug_zoo` named
  (:func:`bug_named`, by the phrase of :data:`BUG_SIGNS` in identify's notes);
- :func:`uncertainty_slopes`: how identify's frequency uncertainty grows for slow pairs,
  about :math:`\varepsilon/\theta^2` from a cosine and :math:`\varepsilon` from a sine,
  :math:`\theta = \omega(n - 1)` the largest angle in the table;
- :func:`non_encodings`: tables it must refuse (noise, a noisy table, zeros, a NaN).

The chapter "Conventions and pitfalls" states these as claims and shows them on its page.

Examples
--------
>>> from pe import conventions
>>> recovery({"paper": conventions.get("paper")}).failures
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pe import bug_zoo, numeric
from pe.conventions import Convention
from pe.identify import identify

__all__ = [
    "ACCURACY",
    "BUG_SIGNS",
    "SLOW_BASE",
    "WIDTHS",
    "Accuracy",
    "Recovery",
    "bug_named",
    "identify_accuracy",
    "non_encodings",
    "recovery",
    "uncertainty_slopes",
]

#: Relative accuracy required of identify's sine frequencies, per dtype.
ACCURACY: dict[type[np.floating[Any]], float] = {np.float64: 1e-6, np.float32: 1e-3}

#: Widths of :func:`recovery`.
WIDTHS = (8, 64, 512)
#: Rows of each table :func:`recovery` reads.
RECOVERY_ROWS = 200

#: A phrase that identify's notes must contain for each bug of :mod:`pe.bug_zoo`.
BUG_SIGNS = {
    "doubled-exponent": "doubled-exponent",
    "multiplied": "multiplied by",
    "integer-division": "integer division",
    "column-index": "`i // 2`",
    "halves-for-interleaved": "layout halves",
    "odd-width": "without a partner",
    "fairseq-offset": "position 2",
}


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

    A cosine whose reported uncertainty exceeds the dtype's target is counted as flagged;
    the cosine error is the largest over the others.

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
    """Tables that are not sinusoidal encodings: noise, a noisy table, zeros, one NaN.

    Examples
    --------
    >>> sorted(non_encodings())[0], non_encodings()["all zeros"].shape
    ('all zeros', (200, 64))
    """
    one_nan = numeric.sinusoidal(200, 64)
    one_nan[3, 5] = np.nan
    noise = np.random.default_rng(1).normal(0, 1e-3, (200, 64))
    return {
        "uniform noise": np.random.default_rng(0).uniform(-1, 1, (200, 64)),
        "paper + noise 1e-3 (learned-like)": np.clip(numeric.sinusoidal(200, 64) + noise, -1, 1),
        "all zeros": np.zeros((200, 64)),
        "one NaN": one_nan,
    }


#: The base of :func:`uncertainty_slopes`: large, so that most pairs of the table are slow.
SLOW_BASE = 1e6


def uncertainty_slopes(n: int = 256, d: int = 128) -> tuple[float, float, int]:
    r"""Log-log slopes of identify's relative uncertainty against :math:`\theta = \omega(n-1)`.

    Over the slow pairs (:math:`\theta < 1/2`) of a float32 table of the paper's law with
    the base :data:`SLOW_BASE`: the cosine columns' slope (about -2:
    :math:`\varepsilon/\theta^2`), the sine columns' (about 0), and the number of slow pairs.

    Examples
    --------
    >>> cosine, sine, slow = uncertainty_slopes()
    >>> abs(cosine + 2) < 0.25, abs(sine) < 0.25, slow > 10
    (True, True, True)
    """
    law = Convention("slow", "paper law, large base", base=SLOW_BASE)
    true = law.frequencies(d)
    found = identify(law.table(n, d, dtype=np.float32))
    theta = true * (n - 1)
    slow = theta < 0.5
    x = np.log(theta[slow])
    cosine = float(np.polyfit(x, np.log(found.cos_uncertainty[slow] / true[slow]), 1)[0])
    sine = float(np.polyfit(x, np.log(found.sin_uncertainty[slow] / true[slow]), 1)[0])
    return cosine, sine, int(slow.sum())


class Recovery(NamedTuple):
    """What identify recovered: tables tried, the failures, and whether every bug was named."""

    cases: int
    failures: list[str]
    bugs_named: bool


def _table_failure(
    name: str, convention: Convention, d: int, dtype: type[np.floating[Any]]
) -> str | None:
    """The fields identify got wrong on ``convention``'s table (:data:`RECOVERY_ROWS`
    rows), or None."""
    target = ACCURACY[dtype]
    result = identify(convention.table(RECOVERY_ROWS, d, dtype=dtype))
    law = {"one-indexed": "other"}.get(convention.law, convention.law)
    sin_error = float(np.max(np.abs(result.sin_frequencies / convention.frequencies(d) - 1)))
    got = (result.layout, result.order, result.position_offset, result.law)
    want = (convention.layout, convention.order, convention.offset, law)
    base_ok = result.base is not None and abs(result.base / convention.base - 1) < target
    if got != want or not base_ok or sin_error > target:
        # the base to 6 digits: its last digits are rounding, which the processor decides
        base = "none" if result.base is None else f"{result.base:.6g}"
        return f"{name} d={d} {np.dtype(dtype)}: {got} base {base}"
    return None


def bug_named(bug: bug_zoo.Bug) -> bool:
    """Whether identify calls the bug's table (d = 64, 65 for the odd width) by its name.

    Examples
    --------
    >>> bug_named(bug_zoo.BUGS[0])
    True
    """
    d = 65 if bug.name == "odd-width" else 64
    result = identify(bug.make(200, d))
    return (
        result.is_encoding
        and not result.matches_paper
        and any(BUG_SIGNS[bug.name] in note for note in result.notes)
    )


def recovery(named: Mapping[str, Convention]) -> Recovery:
    """identify on every convention's table, ``d`` in :data:`WIDTHS`, float64 and float32.

    A table fails when its layout, order, offset, law (``"other"`` for the one-indexed
    law), base or sine frequencies (within :data:`ACCURACY`) are not recovered; every bug
    of :data:`pe.bug_zoo.BUGS` must also be named (:func:`bug_named`).
    """
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
