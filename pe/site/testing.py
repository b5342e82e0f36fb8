"""Values of "Testing your own code" (docs/testing.md): the failure messages it shows.

The page quotes what :mod:`pe.testing` prints for two typical bugs; both messages are
produced by this build, from the bug zoo's doubled exponent and from RoPE with its base
mistyped, never typed by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from pe import bug_zoo, rotary
from pe.testing import assert_matches_paper, assert_rope_relative

__all__ = ["VALUES", "failure"]

#: The doubled-exponent table the page's example builds: 512 rows, width 128.
TYPO_SHAPE = (512, 128)
#: The width and the mistyped base of the page's rotary example.
ROPE_WIDTH, TYPO_BASE = 64, 1000.0


def failure(check: Callable[[], object]) -> str:
    """The message of the ``AssertionError`` that ``check`` raises.

    Raises
    ------
    ValueError
        If ``check`` passes: the page would show a failure that does not happen.

    Examples
    --------
    >>> failure(lambda: assert_matches_paper(bug_zoo.doubled_exponent(64, 8))).splitlines()[0]
    "table (64, 8) float64 is not the paper's encoding (Vaswani et al. 2017):"
    """
    try:
        check()
    except AssertionError as error:
        return str(error)
    raise ValueError("the check passed: there is no failure to show")


def _theta_typo(x: npt.ArrayLike, positions: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    return rotary.rope(x, positions, base=TYPO_BASE, pairing="halves")


@cache
def _paper_failure() -> str:
    return failure(lambda: assert_matches_paper(bug_zoo.doubled_exponent(*TYPO_SHAPE)))


@cache
def _rope_failure() -> str:
    return failure(lambda: assert_rope_relative(_theta_typo, ROPE_WIDTH))


#: The values the page's prose names (``{{ name }}``, :mod:`pe.site.prose`).
VALUES: dict[str, Callable[[], object]] = {
    "paper_failure": _paper_failure,
    "rope_failure": _rope_failure,
}
