r"""Figures that the processor decides, written so that every machine renders the same page.

NumPy and OpenBLAS choose their kernels from the processor at run time, so an error at the
level of rounding (a matrix product against itself by rows, a sum in another order, a sine
rounded by another kernel) is not the same figure on every machine; neither is the place
where it is largest. Evidence prints such figures for ``pe verify``, which reports what
this machine measured, but the site must read the same on every build: a detail marks them
(:func:`measured`, :func:`on_site`), :func:`verify_text` gives the line as measured and
:func:`site_text` the line as the pages print it.

A figure within a bound that holds on every IEEE 754 machine (the error model's) is printed
on the site as "below" that bound, rounded up to two digits. A figure past its bound (a
wrong candidate's error) is far past it, and printed as measured.

Examples
--------
>>> line = f"max difference {measured(6.66e-16, 5.26e-12)}"
>>> verify_text(line), site_text(line)
('max difference 6.66e-16', 'max difference below 5.3e-12')
>>> site_text(f"max difference {measured(0.25, 5.26e-12)}")
'max difference 0.25'
>>> line = on_site("p=5, column 74", "at the worst entry")
>>> verify_text(line), site_text(line)
('p=5, column 74', 'at the worst entry')
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pe._tolerance import ToleranceCheck

__all__ = [
    "below",
    "measured",
    "measured_within",
    "on_site",
    "site_text",
    "verify_text",
    "worst_case_text",
]

#: A marked part of a detail: ``⟦as measured‖as the site prints it⟧``.
_MARK = re.compile(r"⟦([^‖⟧]*)‖([^‖⟧]*)⟧")


def _clean(text: str, what: str) -> str:
    if any(c in text for c in "⟦‖⟧"):
        raise ValueError(f"{what} holds a marker character (⟦, ‖ or ⟧): {text!r}")
    return text


def on_site(text: str, site: str) -> str:
    """``text`` for ``pe verify`` and ``site`` on the pages, as one part of a detail.

    Raises
    ------
    ValueError
        If either part holds a marker of its own (marks do not nest).
    """
    return f"⟦{_clean(text, 'text')}‖{_clean(site, 'site')}⟧"


def _round_up(bound: float) -> str:
    """``bound`` rounded up to two significant digits (``5.26e-12`` -> ``5.3e-12``)."""
    if not math.isfinite(bound) or bound <= 0:
        return f"{bound:.2g}"
    exponent = math.floor(math.log10(bound)) - 1
    digits = math.ceil(bound / 10.0**exponent * (1 - 1e-12))
    return f"{digits * 10.0**exponent:.2g}"


def below(value: float, bound: float, spec: str = ".3g", *, stable: bool = True) -> str:
    """How the site prints ``value``: "below" ``bound`` rounded up to two digits where
    ``value <= bound`` (rounded up to two digits); past it, ``value`` itself, or "above" ``bound`` where the value
    past it is not ``stable`` either (a wrong candidate computed in float32, whose error
    the processor's sine decides).

    Examples
    --------
    >>> below(1.1e-15, 5.26e-12), below(0.0, 1.0), below(3.0, 1.0)
    ('below 5.3e-12', 'below 1', '3')
    >>> below(7.98, 1.0, stable=False)
    'above 1'
    """
    if value <= bound:
        return f"below {_round_up(float(bound))}"
    return f"{value:{spec}}" if stable else f"above {float(bound):{spec}}"


def measured(value: float, bound: float, spec: str = ".3g", *, stable: bool = True) -> str:
    """``value`` as this machine measured it for ``pe verify``, :func:`below` ``bound`` on
    the site (``bound`` must hold on every IEEE 754 machine: the error model's)."""
    return on_site(f"{value:{spec}}", below(value, bound, spec, stable=stable))


def measured_within(
    value: float, tolerance: float, spec: str = ".2g", *, stable: bool = True
) -> str:
    """:func:`measured` against ``tolerance``, followed by the tolerance rounded up as the
    site rounds the bound: "below 2e-10 (tolerance 2e-10)", never a "below" figure above the
    tolerance printed beside it ("below 2e-10 (tolerance 1.9e-10)"). ``stable``: as for
    :func:`measured` (False: a value over the tolerance is "above" it on the site).

    Examples
    --------
    >>> line = measured_within(1.8e-15, 1.94e-10)
    >>> verify_text(line), site_text(line)
    ('1.8e-15 (tolerance 2e-10)', 'below 2e-10 (tolerance 2e-10)')
    >>> site_text(measured_within(3e-9, 1.94e-10, ".3g", stable=False))
    'above 1.94e-10 (tolerance 1.94e-10)'
    """
    shown = measured(value, tolerance, spec, stable=stable)
    # a value within is "below" the bound rounded up; one over it is "above" the bound
    # itself, printed with the same digits
    printed = _round_up(tolerance) if value <= tolerance else f"{tolerance:{spec}}"
    return f"{shown} (tolerance {printed})"


def judged_within(value: float, tolerance: float, spec: str = ".2g") -> str:
    """:func:`measured_within` followed by its own verdict, "within" or "exceeds": a part
    of a check that may fail carries its verdict, so a rejected candidate's line shows
    which part failed.

    Examples
    --------
    >>> site_text(judged_within(1.8e-15, 1.94e-10)), site_text(judged_within(2.0, 1.94e-10))
    ('below 2e-10 (tolerance 2e-10): within', '2 (tolerance 1.9e-10): exceeds')
    """
    verdict = "within" if value <= tolerance else "exceeds"
    return f"{measured_within(value, tolerance, spec)}: {verdict}"


def worst_case_text(check: ToleranceCheck, text: str) -> str:
    """``text`` (a check's own summary, with where its worst error fell) for ``pe verify``;
    on the site, where the check holds, that every error is within its tolerance, and where
    it does not, the largest error and the worst error/tolerance ratio (how large the
    rounding errors are and where the worst one falls is the processor's choice).

    Examples
    --------
    >>> from pe._tolerance import worst_case
    >>> line = worst_case_text(worst_case([1e-17, 3e-16], [1e-16, 1e-15]), "at entry 1")
    >>> verify_text(line), site_text(line)
    ('at entry 1', 'every error within its tolerance (worst error/tolerance below 1): holds')
    """
    if check.passed:
        site = f"every error within its tolerance (worst error/tolerance below 1): {check.verdict}"
    else:
        site = (
            f"max error {check.max_abs_error:.3g}; worst error/tolerance "
            f"{check.worst_ratio:.3g}: {check.verdict}"
        )
    return on_site(text, site)


def verify_text(detail: str) -> str:
    """``detail`` with every marked part as measured (what ``pe verify`` prints)."""
    return _MARK.sub(lambda m: m.group(1), detail)


def site_text(detail: str) -> str:
    """``detail`` with every marked part as the site prints it."""
    return _MARK.sub(lambda m: m.group(2), detail)
