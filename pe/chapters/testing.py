r"""Testing your own code (``docs/testing.md``): what :mod:`pe.testing` admits and refuses.

:func:`pe.testing.assert_matches_paper` holds a table of ``n`` rows to
:func:`pe.testing.paper_tolerance`, :math:`\mathrm{atol}(n) = 4\varepsilon + 2\varepsilon(n - 1)`
of the table's dtype: loose enough for the usual float32 recipe (:mod:`pe.recipes`), whose
angles lose precision along the rows, and tight enough to catch a wrong frequency (the
doubled exponent of :mod:`pe.bug_zoo`).

``testing-verdicts`` runs the assertions on the code real models contain (:data:`CASES`):
16-bit tables, scaled RoPE (:mod:`pe.rope_scaling`), another base, float32 angles in a
float64 output; and reads Hugging Face's Llama, as recorded from transformers, to show that
it computes its rotation in float32 (:func:`_computed_in`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from pe import bug_zoo, conventions, numeric, recipes, rope_scaling, testing
from pe._machine_dependent import measured
from pe._tolerance import Tolerance
from pe.chapters import recorded
from pe.claims import Candidate, Chapter, Check, Evidence, case_by_case, checked
from pe.relative import ntk_base
from pe.rotary import rope

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


def _outcome(
    thunk: Callable[[], object], names: str | tuple[str, ...] = "", *, returns: bool = False
) -> str:
    """``"pass"`` (with what ``thunk()`` returned, if ``returns`` and not None) or
    ``"fail"``: what ``thunk()`` does; a failure must name ``names`` (each of them)."""
    try:
        returned = thunk()
    except AssertionError as failure:
        missing = [
            name
            for name in ((names,) if isinstance(names, str) else names)
            if name not in str(failure)
        ]
        return f"fail without {missing[0]!r}" if missing else "fail"
    return f"pass, returns {returned!r}" if returns and returned is not None else "pass"


def _halves_rope(frequencies: Any, gain: float = 1.0) -> Callable[[], object]:
    fn = rope_scaling.rotate_halves(frequencies, gain)
    return partial(testing.assert_rope_relative, fn, 64, base=None)


#: What :mod:`pe.testing` does with code real models contain: case -> thunk, run by
#: :func:`_verdicts`. 16-bit tables come from :func:`pe.recipes.float32_recipe`.
CASES: dict[str, Callable[[], object]] = {
    "float32 angles stored in float16": partial(
        testing.assert_matches_paper, recipes.float32_recipe(np.arange(512), 64).astype(np.float16)
    ),
    "angles formed in float16": partial(
        testing.assert_matches_paper, recipes.float32_recipe(np.arange(512), 64, dtype=np.float16)
    ),
    "position interpolation (s = 4)": partial(
        testing.assert_rope_relative, partial(rope, scale=4.0), 64
    ),
    "NTK-aware base (s = 4)": partial(
        testing.assert_rope_relative, partial(rope, base=ntk_base(1e4, 4.0, 64)), 64, base=None
    ),
    "Llama 3.1's frequencies": _halves_rope(rope_scaling.llama3_frequencies(64, base=5e5)),
    "YaRN's frequencies and gain (s = 4)": _halves_rope(
        rope_scaling.yarn_frequencies(64), rope_scaling.yarn_gain(4.0)
    ),
    "float32 angles, float64 output (Hugging Face's Llama)": partial(
        testing.assert_rope_relative, partial(rope, angle_dtype=np.float32), 64
    ),
    "RoPE of base 500000, the paper's base asked": partial(
        testing.assert_rope_relative, partial(rope, base=5e5), 64
    ),
    "the same with angle_dtype=numpy.float32": partial(
        testing.assert_rope_relative,
        partial(rope, angle_dtype=np.float32),
        64,
        angle_dtype=np.float32,
    ),
}
#: What a case's failure must ask for: the float64-output case names ``angle_dtype``.
ASKS = {
    "float32 angles, float64 output (Hugging Face's Llama)": "pass angle_dtype=numpy.float32",
    "RoPE of base 500000, the paper's base asked": "follow base 500000",
}
#: The verdicts the page states.
STATED = {
    **dict.fromkeys(CASES, "pass"),
    "angles formed in float16": "fail",
    "float32 angles, float64 output (Hugging Face's Llama)": "fail",
    "RoPE of base 500000, the paper's base asked": "fail",
}


def _verdicts(stated: dict[str, str]) -> Evidence:
    """Each case of :data:`CASES` run through :mod:`pe.testing`, against ``stated``."""
    found = {case: _outcome(run, ASKS.get(case, "")) for case, run in CASES.items()}
    return case_by_case(found, stated, str)


#: Precisions, finest first, for :func:`_computed_in`.
PRECISIONS: tuple[type[np.floating[Any]], ...] = (np.float64, np.float32, np.float16)


def _computed_in(kind: type[np.floating[Any]]) -> Evidence:
    r"""Does Hugging Face's Llama compute its rotation in ``kind``? Its maps as recorded from
    transformers (float64 input, :func:`pe.chapters.recorded`) against the exact rotation.

    Error model of a rotation computed in a precision of epsilon :math:`\varepsilon`, then
    applied in float64: the angle :math:`\theta = p\,\omega_0 = p` rounded with its frequency
    (:math:`\varepsilon\theta`), the sine and cosine rounded (:math:`\varepsilon`), so
    :math:`(\theta + 2)\,\varepsilon` bounds every entry. The maps must fit the model of
    ``kind`` and exceed that of the next finer precision.
    """
    recording = recorded("rope_code.json")
    width, positions = recording["width"], recording["positions"]
    maps = recording["models"]["Hugging Face's Llama"]["maps"]
    worst = max(
        float(
            np.abs(
                np.asarray(image) - rope(np.eye(width), np.full(width, p), pairing="halves").T
            ).max()
        )
        for p, image in zip(positions, maps, strict=True)
    )
    models = {k: (max(positions) + 2) * float(np.finfo(k).eps) for k in PRECISIONS}
    finer = PRECISIONS[: PRECISIONS.index(kind)]
    fits = worst <= models[kind] and all(worst > models[k] for k in finer)
    return checked(
        fits,
        f"Hugging Face's Llama (transformers {recording['versions']['transformers']}), float64 "
        f"input, positions {positions}: worst |entry - exact| = {worst:.2g}; (θ + 2)ε: "
        + ", ".join(f"{np.dtype(k).name} {m:.2g}" for k, m in models.items())
        + f"; computed in {np.dtype(kind).name}: {fits}",
    )


claim(
    "testing-verdicts",
    "What pe.testing passes: 16-bit tables from float32 angles, scaled RoPE; what it fails",
    Check(
        _verdicts,
        true=STATED,
        wrong=(
            Candidate("every float16 table passes", {**STATED, "angles formed in float16": "pass"}),
            Candidate(
                "only the paper's frequencies pass",
                {
                    **STATED,
                    "Llama 3.1's frequencies": "fail",
                    "position interpolation (s = 4)": "fail",
                },
            ),
            Candidate(
                "float32 angles pass in a float64 output",
                {**STATED, "float32 angles, float64 output (Hugging Face's Llama)": "pass"},
            ),
        ),
    ),
    Check(
        _computed_in,
        true=np.float32,
        wrong=(
            Candidate("computed in float64", np.float64),
            Candidate("computed in float16", np.float16),
        ),
    ),
    statement=(
        r"\begin{gathered} \text{pass: float32 angles stored in float16; position interpolation,} \\"
        r" \text{NTK base, Llama 3.1, YaRN; float32 angles in float64 output} \\"
        r" \text{with } \texttt{angle\_dtype=numpy.float32} \\"
        r" \text{fail: angles formed in float16; a base other than the one asked;} \\"
        r" \text{float32 angles in float64 output, asking for } \texttt{angle\_dtype} \\"
        r" \text{(Hugging Face's Llama computes its rotation in float32)} \end{gathered}"
    ),
)


def _paper_layouts(n: int = 64, d: int = 16) -> dict[str, Any]:
    """The paper's table in every layout :func:`pe.testing.assert_matches_paper` reads."""
    table = numeric.sinusoidal(n, d)
    return {
        "(n, d) float64": table,
        "(n, d) float32": table.astype(np.float32),
        "(n, d) float16": table.astype(np.float16),
        "(1, n, d)": table[None],
        "(n, 1, d)": table[:, None],
        "(3, n, d), equal tables": np.stack([table] * 3),
        "nested lists": table.tolist(),
    }


def _reads(tables: dict[str, Any]) -> Evidence:
    """``assert_matches_paper`` on each of ``tables``: every one must pass (a table it
    fails is ``"fail"``, one it refuses to read ``"refused"``)."""
    found = {}
    for name, table in tables.items():
        try:
            found[name] = _outcome(partial(testing.assert_matches_paper, table))
        except (TypeError, ValueError):
            found[name] = "refused"
    return checked(
        all(verdict == "pass" for verdict in found.values()),
        "; ".join(f"{name}: {verdict}" for name, verdict in found.items()),
    )


#: A batch whose second table is the paper's one row later: not ``b`` equal tables.
UNEQUAL_BATCH = Candidate(
    "a batch of two different tables",
    {
        "(2, n, d), rows shifted": np.stack(
            [numeric.sinusoidal(64, 16), numeric.sinusoidal(65, 16)[1:]]
        )
    },
)

#: The paper's table with its width odd by one column.
ODD_WIDTH_TABLE = Candidate("width 15", {"(n, 15)": numeric.sinusoidal(64, 16)[:, :15]})

claim(
    "testing-reads-tables",
    "pe.testing reads a table in any of its usual shapes and precisions",
    Check(_reads, true=_paper_layouts(), wrong=(UNEQUAL_BATCH, ODD_WIDTH_TABLE)),
    statement=(
        r"\begin{gathered} \text{the paper's table passes as } (n, d),\ (1, n, d),\ (n, 1, d),"
        r" \\ (b, n, d) \text{ with } b \text{ equal tables, float16, float32, float64 or lists;}"
        r" \\ \text{two different tables in a batch, or an odd width, fail} \\"
        r" \text{(PyTorch tensors, also ones that require grad or hold bfloat16, and JAX"
        r" arrays} \\ \text{are copied to NumPy first: the suite runs them with the real"
        r" libraries,} \\ \text{tests/test\_array\_api.py and tests/test\_real\_code.py)}"
        r" \end{gathered}"
    ),
)


def _fairseq_table() -> Any:
    """fairseq's stored table (100 x 16): positions from 0, row ``padding_idx = 1`` zeroed."""
    return conventions.get("fairseq").table(100, 16)


def _adjacent_rope(x: Any, positions: Any) -> Any:
    return rope(x, positions, pairing="adjacent")


def _no_rotation(x: Any, _positions: Any) -> Any:
    return x


def _squared_positions(x: Any, positions: Any) -> Any:
    """RoPE turned by ``p^2 mod 1000`` instead of ``p``: scores depend on the position."""
    return rope(x, np.asarray(positions) ** 2 % 1000, pairing="adjacent")


#: What :mod:`pe.testing` does with each case: case -> (thunk, the words its failure must
#: name, the outcome the testing page states; a pass shows what the assertion returned).
FAILURES: dict[str, tuple[Callable[[], object], str | tuple[str, ...], str]] = {
    "assert_convention, the paper's table, layout='halves' asked": (
        partial(testing.assert_convention, numeric.sinusoidal(64, 16), layout="halves"),
        "layout: interleaved",
        "fail",
    ),
    "assert_convention, fairseq's table, offset=0, padding_row=1": (
        partial(testing.assert_convention, _fairseq_table(), offset=0, padding_row=1),
        "",
        "pass",
    ),
    "assert_convention, fairseq's table, offset=2 asked": (
        partial(testing.assert_convention, _fairseq_table(), offset=2),
        "offset: row 0 is position 0, expected 2",
        "fail",
    ),
    "assert_convention, the paper's table, base=500000 asked": (
        partial(testing.assert_convention, numeric.sinusoidal(64, 16), base=500_000),
        ("base: 10000 (", "expected 500000"),
        "fail",
    ),
    "assert_convention, the paper's table, order='cos-first' asked": (
        partial(testing.assert_convention, numeric.sinusoidal(64, 16), order="cos-first"),
        "order: sine first in each pair, expected cosine first in each pair",
        "fail",
    ),
    "assert_convention, the paper's table, padding_row=1 asked": (
        partial(testing.assert_convention, numeric.sinusoidal(64, 16), padding_row=1),
        "padding row: rows of zeros none, expected row 1 only",
        "fail",
    ),
    "assert_convention, the paper's table, law='tensor2tensor' asked": (
        partial(testing.assert_convention, numeric.sinusoidal(64, 16), law="tensor2tensor"),
        "expected tensor2tensor's law",
        "fail",
    ),
    "assert_convention, tensor2tensor's table, d = 6, law='tensor2tensor', base=10000 asked": (
        partial(
            testing.assert_convention,
            conventions.get("tensor2tensor").table(64, 6),
            law="tensor2tensor",
            base=10000,
        ),
        "",
        "pass",
    ),
    "assert_rope_relative, a function that returns x": (
        partial(testing.assert_rope_relative, _no_rotation, 16),
        "does not rotate",
        "fail",
    ),
    "assert_rope_relative, adjacent RoPE, pairing free": (
        partial(testing.assert_rope_relative, _adjacent_rope, 16),
        "",
        "pass, returns 'adjacent'",
    ),
    "assert_rope_relative, adjacent RoPE, pairing='halves' asked": (
        partial(testing.assert_rope_relative, _adjacent_rope, 16, pairing="halves"),
        "expected the halves pairing",
        "fail",
    ),
    "assert_rope_relative, adjacent RoPE, base=500000 asked": (
        partial(testing.assert_rope_relative, _adjacent_rope, 16, base=500_000),
        "expected base 500000",
        "fail",
    ),
    "assert_rope_relative, RoPE turned by p^2 mod 1000": (
        partial(testing.assert_rope_relative, _squared_positions, 16),
        ("|s(m, m+r) - s(0, r)| = ", " at m=", ", r=", "(pe.rotary's error model)"),
        "fail",
    ),
    "assert_matches_paper, the float32 recipe (one float32 angle per pair), n = 2048": (
        partial(testing.assert_matches_paper, recipes.float32_recipe(np.arange(2048), 256)),
        "",
        "pass",
    ),
    "assert_matches_paper, the doubled exponent": (
        partial(testing.assert_matches_paper, bug_zoo.doubled_exponent(64, 16)),
        ("worst entry: row ", " where the paper has ", "(|difference| ", ", atol "),
        "fail",
    ),
    **{
        f"assert_matches_paper, {what}": (
            partial(testing.assert_matches_paper, table),
            names,
            "fail",
        )
        for what, table, names in (
            ("the halves layout", conventions.get("halves").table(64, 16), "layout: halves"),
            (
                "cosine first",
                conventions.get("interleaved-cos-first").table(64, 16),
                "order: cosine first",
            ),
            (
                "tensor2tensor's law",
                conventions.get("tensor2tensor").table(64, 16),
                "law: tensor2tensor",
            ),
            ("rows from position 1", numeric.sinusoidal(65, 16)[1:], "offset: row 0 is position 1"),
            ("an odd width", numeric.sinusoidal(64, 18)[:, :17], "d = 17 is odd"),
            ("a transposed table", numeric.sinusoidal(32, 64).T, "transposed"),
        )
    },
}
FAILURES_STATED = {case: stated for case, (_thunk, _names, stated) in FAILURES.items()}


def _failures(stated: dict[str, str]) -> Evidence:
    """Each case of :data:`FAILURES` run, against ``stated``."""
    found = {
        case: _outcome(thunk, names, returns=True) for case, (thunk, names, _) in FAILURES.items()
    }
    return case_by_case(found, stated, str)


claim(
    "testing-failures-name-the-difference",
    "pe.testing's assertions pass what they should, and a failure names the difference",
    Check(
        _failures,
        true=FAILURES_STATED,
        wrong=(
            Candidate(
                "the layout is not compared",
                {
                    **FAILURES_STATED,
                    "assert_convention, the paper's table, layout='halves' asked": "pass",
                },
            ),
            Candidate(
                "fairseq's first token read as offset 2",
                {
                    **FAILURES_STATED,
                    "assert_convention, fairseq's table, offset=0, padding_row=1": "fail",
                    "assert_convention, fairseq's table, offset=2 asked": "pass",
                },
            ),
            Candidate(
                "any rotation passes whatever pairing is asked",
                {
                    **FAILURES_STATED,
                    "assert_rope_relative, adjacent RoPE, pairing='halves' asked": "pass",
                },
            ),
            Candidate(
                "the base is not compared",
                {
                    **FAILURES_STATED,
                    "assert_convention, the paper's table, base=500000 asked": "pass",
                    "assert_rope_relative, adjacent RoPE, base=500000 asked": "pass",
                },
            ),
            Candidate(
                "the order and the padding row are not compared",
                {
                    **FAILURES_STATED,
                    "assert_convention, the paper's table, order='cos-first' asked": "pass",
                    "assert_convention, the paper's table, padding_row=1 asked": "pass",
                },
            ),
            Candidate(
                "a failure names what was asked but not what was found",
                {
                    **FAILURES_STATED,
                    "assert_convention, the paper's table, base=500000 asked": (
                        "fail without 'base: 10000 ('"
                    ),
                },
            ),
            Candidate(
                "only the rotation is checked, not the scores",
                {**FAILURES_STATED, "assert_rope_relative, RoPE turned by p^2 mod 1000": "pass"},
            ),
            Candidate(
                "the float32 recipe fails (its sine and cosine read apart)",
                {
                    **FAILURES_STATED,
                    "assert_matches_paper, the float32 recipe (one float32 angle per pair), n = 2048": "fail",
                },
            ),
        ),
    ),
    statement=(
        r"\begin{gathered}\texttt{assert\_convention}\text{: fails on a layout, order, law,"
        r" base,} \\ \text{offset or padding row other than asked, naming} \\ \text{what it"
        r" found and what was expected;} \\ \text{passes fairseq's table with offset 0,"
        r" padding row 1} \\ \texttt{assert\_rope\_relative}\text{: fails on no rotation, on"
        r" another pairing, on a base other than asked,} \\ \text{and on scores that depend on"
        r" the position beyond the error model of pe.rotary,} \\ \text{naming one such score"
        r" difference with its } m \text{ and } r\text{; returns the pairing it"
        r" finds} \\ \texttt{assert\_matches\_paper}"
        r"\text{: passes the float32 recipe; on the doubled exponent} \\ \text{names the worst"
        r" entry, the paper's value, the difference and atol; it names} \\ \text{the layout,"
        r" order, law, offset, odd width or transposition that differs}\end{gathered}"
    ),
)
