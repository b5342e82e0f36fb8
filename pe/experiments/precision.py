r"""How accurate a computed sinusoidal table is, measured against 50-digit mpmath.

The tools of the page "Precision and speed": the exact reference (:func:`exact_error`),
the common deep-learning recipe that forms angles in float32 (:func:`float32_recipe`),
a rotation chained step by step without re-anchoring (:func:`chained_rotation`), the
error of each method against position (:func:`error_by_position`), how close distinct
rows come in each dtype (:func:`row_separation`), and the saved benchmark
(:func:`benchmark_results`, :func:`benchmark_table`).

All errors are absolute errors of table entries (every entry lies in ``[-1, 1]``),
computed in mpmath so that the reference's own rounding does not enter the measurement.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt

from pe import _rotation_table as rotation_table
from pe import numeric
from pe.site.report import Html

__all__ = [
    "BENCHMARK_JSON",
    "METHODS",
    "RowSeparation",
    "benchmark_results",
    "benchmark_table",
    "chained_rotation",
    "error_by_position",
    "exact_error",
    "float32_recipe",
    "row_separation",
    "sample_entries",
]

#: Where ``benchmarks/run.py`` saves its last results (read by the page, never run by it).
BENCHMARK_JSON = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "latest.json"

#: Digits of the mpmath reference.
DIGITS = 50

Table = Callable[[npt.NDArray[np.int64], int], npt.NDArray[Any]]


def exact_error(
    values: npt.ArrayLike,
    positions: npt.ArrayLike,
    columns: npt.ArrayLike,
    d_model: int,
    *,
    base: float = 10000.0,
) -> npt.NDArray[np.float64]:
    r"""``|value - PE(p, j)|`` for each triple, with :math:`PE` evaluated in 50-digit mpmath.

    Parameters
    ----------
    values
        Computed entries (any float dtype), one per ``(position, column)`` pair.
    positions, columns
        Integer arrays of the same length as ``values``.
    d_model, base
        The encoding: :math:`\omega_i = \mathrm{base}^{-2i/d}` exactly (``base`` as given).
    """
    vals = np.asarray(values).astype(np.float64).ravel()
    ps = np.asarray(positions, dtype=np.int64).ravel()
    cs = np.asarray(columns, dtype=np.int64).ravel()
    errors = np.empty(vals.size, dtype=np.float64)
    with mpmath.workdps(DIGITS):
        log_base = mpmath.log(mpmath.mpf(base))
        omega: dict[int, Any] = {}
        for k, (value, p, c) in enumerate(
            zip(vals.tolist(), ps.tolist(), cs.tolist(), strict=True)
        ):
            i = c // 2
            if i not in omega:
                omega[i] = mpmath.exp(-2 * i * log_base / d_model)
            angle = omega[i] * p
            exact = mpmath.sin(angle) if c % 2 == 0 else mpmath.cos(angle)
            errors[k] = float(abs(mpmath.mpf(value) - exact))
    return errors


def sample_entries(
    n_positions: int, d_model: int, count: int, *, seed: int = 0, largest: int = 8
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``count`` (position, column) pairs: random ones plus the ``largest`` positions' rows.

    The last ``largest`` positions are always included (with random columns), as are the
    first and last columns, so that the worst places of an error growing with position or
    frequency are sampled.
    """
    rng = np.random.default_rng(seed)
    positions = rng.integers(0, n_positions, count)
    columns = rng.integers(0, d_model, count)
    tail = min(largest, n_positions, count)
    positions[:tail] = n_positions - 1 - np.arange(tail)
    columns[: min(2, count)] = [0, d_model - 1][: min(2, count)]
    return positions.astype(np.int64), columns.astype(np.int64)


def float32_recipe(
    positions: npt.ArrayLike, d_model: int, *, base: float = 10000.0, dtype: Any = np.float32
) -> npt.NDArray[Any]:
    r"""The common deep-learning recipe: positions, frequencies and angles all in ``dtype``.

    ``position[:, None] * exp(arange(0, d, 2) * -(log(base) / d))``, every step rounded
    to ``dtype`` (float32 in most code), then ``sin`` and ``cos`` in that dtype,
    interleaved. The angle :math:`\omega_i p` is rounded to ``dtype``, so its error grows
    like :math:`\varepsilon\,\omega_i p / 2`: about ``5e-4`` radians at ``p = 1e4`` in float32.
    """
    kind = np.dtype(dtype)
    out = np.empty((np.asarray(positions).size, d_model), dtype=kind)
    # float16 positions above 65504 overflow to infinity: their rows come out NaN, as
    # they would in half-precision code.
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.asarray(positions).astype(kind)[:, None]
        scale = kind.type(-np.log(base) / d_model)
        inverse = np.exp(np.arange(0, d_model, 2).astype(kind) * scale)
        angles = p * inverse
        out[:, 0::2] = np.sin(angles)
        out[:, 1::2] = np.cos(angles)
    return out


def chained_rotation(
    n_positions: int, d_model: int, *, base: float = 10000.0, dtype: Any = np.complex64
) -> npt.NDArray[Any]:
    r"""Rows built by chaining the one-step rotation: :math:`z(p+1) = z(p)\,e^{-\mathrm{i}\omega}`.

    The tempting way to use the rotation identity: multiply row ``p`` by the step factor
    to get row ``p + 1``, in complex ``dtype``. Each product adds a rounding error, so the
    error performs a random walk and drifts in its phase: after ``p`` steps it is about
    :math:`\varepsilon \sqrt{p}` to :math:`\varepsilon\,p`. :func:`pe.numeric.sinusoidal`
    avoids this by re-anchoring every block from accurate angles.
    Returns the interleaved real table (float32 for complex64, float64 for complex128).
    """
    kind = np.dtype(dtype)
    omega = numeric.frequencies(d_model, base)
    step = (np.cos(omega) - 1j * np.sin(omega)).astype(kind)
    rows = np.empty((n_positions, d_model // 2), dtype=kind)
    rows[0] = 1j
    for p in range(1, n_positions):
        rows[p] = rows[p - 1] * step
    return rows.view(rows.real.dtype).reshape(n_positions, d_model)


#: The methods compared on the page: name -> ``table(positions, d_model)``.
METHODS: dict[str, Table] = {
    "pe float64": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float64),
    "pe float32": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float32),
    "pe float16": lambda ps, d: numeric.sinusoidal(ps, d, dtype=np.float16),
    "direct float64": lambda ps, d: numeric.sinusoidal_direct(ps, d, dtype=np.float64),
    "float32 recipe": lambda ps, d: float32_recipe(ps, d, dtype=np.float32),
    "float16 recipe": lambda ps, d: float32_recipe(ps, d, dtype=np.float16),
}


def error_by_position(
    method: str, positions: npt.ArrayLike, d_model: int, *, columns: int = 16, seed: int = 0
) -> npt.NDArray[np.float64]:
    """Largest error over ``columns`` sampled columns (always including 0 and 1), per position.

    ``method`` is a key of :data:`METHODS`.
    """
    ps = np.asarray(positions, dtype=np.int64)
    rng = np.random.default_rng(seed)
    chosen = np.unique(np.concatenate([[0, 1], rng.integers(0, d_model, columns - 2)]))
    table = METHODS[method](ps, d_model)
    grid_p = np.repeat(ps, chosen.size)
    grid_c = np.tile(chosen, ps.size)
    values = table[:, chosen].ravel()
    found = exact_error(values, grid_p, grid_c, d_model).reshape(ps.size, chosen.size)
    worst: npt.NDArray[np.float64] = found.max(axis=1)
    return worst


@dataclass(frozen=True)
class RowSeparation:
    """How close two distinct rows of a table come (:func:`row_separation`).

    Attributes
    ----------
    label
        Which table.
    n_positions, d_model
        Its size (positions ``0 .. n - 1``).
    duplicates
        Number of rows equal to an earlier row (positions the table cannot tell apart).
    smallest
        Smallest Euclidean distance between two different positions' rows.
    pair
        Two positions at that distance.
    """

    label: str
    n_positions: int
    d_model: int
    duplicates: int
    smallest: float
    pair: tuple[int, int]


def row_separation(table: npt.ArrayLike, label: str) -> RowSeparation:
    """Smallest distance between rows of ``table`` (all pairs) and the count of duplicates.

    Distances come from the Gram matrix in float64, in blocks of 1024 rows; exact
    duplicates are counted with :func:`numpy.unique`, so a distance of zero is exact.
    """
    rows = np.asarray(table).astype(np.float64)
    n, d = rows.shape
    duplicates = n - np.unique(rows, axis=0).shape[0]
    norms = np.einsum("ij,ij->i", rows, rows)
    best, pair = np.inf, (0, 0)
    block = 1024
    for a0 in range(0, n, block):
        a = rows[a0 : a0 + block]
        for b0 in range(a0, n, block):
            b = rows[b0 : b0 + block]
            squared = norms[a0 : a0 + block, None] + norms[None, b0 : b0 + block] - 2 * a @ b.T
            if a0 == b0:
                squared[np.tril_indices(a.shape[0])] = np.inf
            k = int(np.argmin(squared))
            r, c = divmod(k, squared.shape[1])
            if squared[r, c] < best:
                best, pair = float(squared[r, c]), (a0 + r, b0 + c)
    if duplicates:
        best = 0.0
        _, first, counts = np.unique(rows, axis=0, return_index=True, return_counts=True)
        again = np.flatnonzero(counts > 1)[0]
        match = np.flatnonzero((rows == rows[first[again]]).all(axis=1))
        pair = (int(match[0]), int(match[1]))
    return RowSeparation(label, n, d, int(duplicates), float(np.sqrt(max(best, 0.0))), pair)


def benchmark_results(path: Path = BENCHMARK_JSON) -> dict[str, Any]:
    """The results saved by ``benchmarks/run.py`` (machine, rows, targets)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _cell(value: object, fmt: str) -> str:
    if value is None:
        return "-"
    return format(value, fmt) if isinstance(value, float | int) else html.escape(str(value))


def benchmark_table(results: dict[str, Any] | None = None) -> Html:
    """The saved benchmark as two HTML tables: times, then errors and memory."""
    data = benchmark_results() if results is None else results

    def size(r: dict[str, Any]) -> str:
        return f"<td>{r['n']} &times; {r['d']}</td><td>{html.escape(r['dtype'])}</td>"

    times = "".join(
        f"<tr>{size(r)}<td>{_cell(r['ms']['pe'], '.2f')}</td><td>{_cell(r['ms']['full'], '.2f')}</td>"
        f"<td><strong>{_cell(r['ratio_full'], '.2f')}</strong></td>"
        f"<td>{_cell(r['ms']['direct64'], '.1f')}</td>"
        f"<td><strong>{_cell(r['speedup_direct'], '.1f')}</strong></td>"
        f"<td>{_cell(r['ms']['recipe'], '.1f')}</td><td>{_cell(r['ms']['naive'], '.0f')}</td></tr>"
        for r in data["rows"]
    )
    quality = "".join(
        f"<tr>{size(r)}<td>{_cell(r['error']['pe'], '.2g')}</td>"
        f"<td>{_cell(r['error']['direct64'], '.2g')}</td>"
        f"<td>{_cell(r['error']['recipe'], '.2g')}</td>"
        f"<td>{_cell(100 * r['peak_extra_fraction'], '.1f')} %</td></tr>"
        for r in data["rows"]
    )
    machine = html.escape(", ".join(f"{k}: {v}" for k, v in data["machine"].items()))
    return Html(
        '<table class="pe-table"><thead><tr><th>n &times; d</th><th>dtype</th><th>pe</th>'
        "<th>np.full</th><th>pe / np.full</th><th>direct</th><th>direct / pe</th>"
        "<th>recipe</th><th>loop</th></tr></thead>"
        f"<tbody>{times}</tbody></table>"
        "<p><small>Best times in milliseconds. <em>direct</em>: sin and cos of p&middot;w in "
        "float64, then cast; <em>recipe</em>: the float32 recipe; <em>loop</em>: a Python "
        "double loop (small sizes only). pe's times are for repeated calls: the frequencies "
        "of a new (d, base) are computed once and cached (one-time cost: "
        + ", ".join(f"{r['frequency_setup_ms']:.1f} ms for d = {r['d']}" for r in data["rows"])
        + ").</small></p>"
        '<table class="pe-table"><thead><tr><th>n &times; d</th><th>dtype</th>'
        "<th>max error pe</th><th>max error direct</th><th>max error recipe</th>"
        "<th>pe peak extra memory</th></tr></thead>"
        f"<tbody>{quality}</tbody></table>"
        "<p><small>Errors against 50-digit mpmath on sampled entries (last positions "
        "included); memory traced by tracemalloc beyond the output, as a share of the "
        f"output's size. Machine: {machine}.</small></p>"
    )


def complex_shift_proof(factor: Callable[[Any, Any], Any] | None = None) -> Any:
    r"""SymPy proof of the algorithm's step: :math:`z(p + q) = z(p)\,(\cos \omega q - \mathrm{i}\sin \omega q)`.

    :math:`z(p) = \sin \omega p + \mathrm{i}\cos \omega p` is a table pair stored as one
    complex number (sine real, cosine imaginary). The residual, left minus right, is
    reduced to exactly 0 by the angle-addition strategy of
    :class:`pe.symbolic.Derivation` (expand, expand_trig, expand; :math:`\mathrm{i}^2 = -1`
    is applied by ``expand``).

    Parameters
    ----------
    factor
        Optional candidate ``(q, w) -> expression`` to test instead of
        :math:`\cos \omega q - \mathrm{i} \sin \omega q` (a wrong one leaves a residual).

    Returns
    -------
    pe.symbolic.Proof
    """
    import sympy as sp

    from pe import symbolic

    p, q = sp.symbols("p q", integer=True, nonnegative=True)
    w = sp.Symbol("omega_i", positive=True)

    def z(x: Any) -> Any:
        return sp.sin(w * x) + sp.I * sp.cos(w * x)

    shift = factor(q, w) if factor is not None else sp.cos(w * q) - sp.I * sp.sin(w * q)
    left, right = z(p + q), z(p) * shift
    statement = (
        f"{sp.latex(left)} = \\left({sp.latex(z(p))}\\right) \\left({sp.latex(shift)}\\right)"
    )
    derivation = symbolic.Derivation()
    residual = sp.Matrix([left - right])
    derivation.note("Residual: left side minus right side", sp.latex(residual[0]), residual)
    residual = derivation.angle_addition(residual)
    return derivation.proof("one complex multiplication shifts a pair by q", statement, residual)


def rotation_with_float64_angles(positions: npt.ArrayLike, d_model: int) -> npt.NDArray[np.float64]:
    r"""The rotation algorithm with its anchors' angles formed in plain float64 (a wrong design).

    Same blocks and the same single complex product per entry as :func:`pe.numeric.sinusoidal`,
    but :math:`\omega_i p` is rounded to float64 before ``sin``/``cos``: the anchors of far
    block starts inherit an angle error near :math:`2^{-53}\,\omega_i q`, so the table is no
    longer within the float64 bound at large positions.
    """
    ps = np.asarray(positions, dtype=np.int64)
    block = rotation_table.BLOCK
    omega = numeric.frequencies(d_model)
    low = np.multiply.outer((ps % block).astype(np.float64), omega)
    high = np.multiply.outer((ps - ps % block).astype(np.float64), omega)
    z = (np.sin(low) + 1j * np.cos(low)) * (np.cos(high) - 1j * np.sin(high))
    out: npt.NDArray[np.float64] = z.view(np.float64).reshape(ps.size, d_model)
    return out


def max_sampled_error(
    table: Table, n_positions: int, d_model: int, *, count: int = 600, seed: int = 0
) -> tuple[float, int, int]:
    """Largest error of ``table(positions, d)`` on sampled entries; where it occurs.

    Positions are drawn below ``n_positions`` (the largest ones always included, see
    :func:`sample_entries`); only the sampled rows are computed.

    Returns
    -------
    tuple
        ``(error, position, column)``.
    """
    positions, columns = sample_entries(n_positions, d_model, count, seed=seed, largest=32)
    values = np.asarray(table(positions, d_model))[np.arange(positions.size), columns]
    found = exact_error(values, positions, columns, d_model)
    k = int(np.argmax(found))
    return float(found[k]), int(positions[k]), int(columns[k])


def drift_table(
    positions: tuple[int, ...] = (10**3, 10**4, 10**5, 10**6), d_model: int = 64
) -> Html:
    """Largest error over all columns at a few positions, for each method of :data:`METHODS`."""
    ps = np.asarray(positions, dtype=np.int64)
    columns = np.arange(d_model)
    grid_p, grid_c = np.repeat(ps, d_model), np.tile(columns, ps.size)
    head = "".join(f"<th>p = {p:,}</th>" for p in positions)
    rows = []
    for name, table in METHODS.items():
        values = np.asarray(table(ps, d_model))[np.repeat(np.arange(ps.size), d_model), grid_c]
        found = exact_error(values, grid_p, grid_c, d_model).reshape(ps.size, d_model)
        cells = "".join(
            "<td>NaN (overflow)</td>" if np.isnan(row).any() else f"<td>{row.max():.2g}</td>"
            for row in found
        )
        rows.append(f"<tr><td>{html.escape(name)}</td>{cells}</tr>")
    return Html(
        f'<table class="pe-table"><thead><tr><th>method (d = {d_model})</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def separation_table(n_positions: int = 4096, d_model: int = 16) -> Html:
    """:func:`row_separation` of the recipe and of pe's table, in float16, float32 and float64."""
    positions = np.arange(n_positions)
    found = []
    for dtype in (np.float16, np.float32, np.float64):
        name = np.dtype(dtype).name
        found.append(
            row_separation(float32_recipe(positions, d_model, dtype=dtype), f"recipe in {name}")
        )
        found.append(
            row_separation(
                numeric.sinusoidal(n_positions, d_model, dtype=dtype), f"pe, rounded to {name}"
            )
        )
    rows = "".join(
        f"<tr><td>{html.escape(r.label)}</td><td>{r.duplicates}</td><td>{r.smallest:.3g}</td>"
        f"<td>{r.pair[0]} and {r.pair[1]}</td></tr>"
        for r in found
    )
    return Html(
        f'<table class="pe-table"><thead><tr><th>table (positions 0..{n_positions - 1}, '
        f"d = {d_model})</th><th>rows equal to an earlier row</th><th>smallest distance "
        f"between two rows</th><th>at positions</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def latex_number(value: float, digits: int = 3) -> str:
    r"""``value`` in LaTeX scientific notation, e.g. ``4.87 \times 10^{-16}``."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"
