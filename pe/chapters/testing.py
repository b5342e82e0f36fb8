r"""Testing your own code (``docs/testing.md``): what :mod:`pe.testing`'s default tolerance admits.

:func:`pe.testing.assert_matches_paper` holds a table of ``n`` rows to
:func:`pe.testing.paper_tolerance`, :math:`\mathrm{atol}(n) = 4\varepsilon + 2\varepsilon(n - 1)`
of the table's dtype: loose enough for the usual float32 recipe (:mod:`pe.recipes`), whose
angles lose precision along the rows, and tight enough to catch a wrong frequency (the
doubled exponent of :mod:`pe.bug_zoo`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pe import bug_zoo, numeric, recipes, testing
from pe._machine_dependent import measured
from pe._tolerance import Tolerance
from pe.claims import Candidate, Chapter, Check, Evidence, checked

chapter = Chapter(__name__, follows="precision")
claim = chapter.claim

#: A default ``atol`` of :math:`4\varepsilon` that does not grow with the number of rows.
FLAT_PAPER_TOLERANCE = Candidate(
    "4 eps, not growing with n", lambda _n, dtype: 4 * float(np.finfo(dtype).eps)
)


def _recipe_within(tolerance: Callable[[int, Any], float]) -> Evidence:
    """The float32 recipe's table against pe's float64 one, held to ``tolerance(n, float32)``;
    the doubled-exponent table (a wrong frequency) must exceed it."""
    exact = {n: numeric.sinusoidal(n, 256) for n in (64, 512, 2048)}
    ratios = {
        n: float(np.abs(recipes.float32_recipe(np.arange(n), 256) - e).max())
        / tolerance(n, np.float32)
        for n, e in exact.items()
    }
    typo = float(np.abs(bug_zoo.doubled_exponent(2048, 256) - exact[2048]).max())
    caught = typo > tolerance(2048, np.float32)
    return checked(
        caught,
        "float32 recipe, d=256, worst |entry - exact| / atol(n): "
        + ", ".join(f"n={n}: {measured(r, 1.0, stable=False)}" for n, r in ratios.items())
        + f"; doubled exponent, n=2048: worst |difference| {typo:.3g} (rejected: {caught})",
        error=max(ratios.values()),
        tolerance=Tolerance(
            1.0,
            r"\mathrm{atol}(n) = 4\varepsilon_{32} + 2\varepsilon_{32}(n - 1) \text{ (pe.testing)}",
        ),
    )


claim(
    "paper-tolerance-fits-the-recipe",
    r"assert_matches_paper's default atol, $4\varepsilon + 2\varepsilon(n - 1)$, admits the float32 recipe",
    Check(
        _recipe_within,
        true=testing.paper_tolerance,
        wrong=(FLAT_PAPER_TOLERANCE,),
    ),
    statement=(
        r"\begin{gathered}\texttt{atol}(n) = 4\varepsilon + 2\varepsilon(n - 1):\ "
        r"|\widehat{PE}_{\text{recipe}, 32} - PE| \le \texttt{atol}(n) \text{ for } n \in"
        r" \{64, 512, 2048\},\ d = 256; \text{ a doubled exponent exceeds it;} \\"
        r" \text{the paper's table: interleaved, sine first,"
        r" } \omega_i = 10000^{-2i/d}, \text{ from position } 0\end{gathered}"
    ),
)
