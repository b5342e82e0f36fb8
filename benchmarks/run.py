"""Speed, memory and accuracy of ``pe.numeric.sinusoidal``, as ratios within one process.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/run.py``). For several
``(n, d, dtype)`` it times, interleaved round by round and keeping each one's best time:

- ``pe``: :func:`pe.numeric.sinusoidal` (the rotation algorithm);
- ``np.full``: writing an array of the same shape and dtype (the memory-write limit);
- ``direct64``: sin and cos of ``p * w`` in float64, then cast (:func:`pe.numeric.sinusoidal_direct`);
- ``recipe``: the float32 deep-learning recipe (:func:`pe.recipes.float32_recipe`);
- ``naive``: a Python double loop with :func:`math.sin` (small sizes only);
- ``cast``: for float16 only, NumPy's cast of a float32 table of the same shape to float16,
  a floor for any float16 table computed through float32 (NumPy 2.x converts one entry at a
  time in software: about 3.7 ns an entry on the reference machine, ten times ``np.full``);

and the per-call overhead: the best time per call of a 1 x 2 table (``pe`` and the
recipe), against ``np.full`` of the same shape;

then measures the largest error against 50-digit mpmath on sampled entries (the last
positions always included) and the peak extra memory of ``pe`` (tracemalloc, beyond the
output itself). It prints a table and the issue's targets, and saves
``benchmarks/results/latest.json`` and ``latest.md`` (no timestamps: only the measured
numbers change between runs), and the same JSON as ``pe/site/data/benchmarks.json``, the
copy the page "Precision and speed" shows (inside the package, so that a built wheel has it).
"""

from __future__ import annotations

import gc
import json
import math
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pe import _extended_precision, _rotation_table, numeric, recipes, reference
from pe.accuracy import sample_entries

RESULTS = Path(__file__).resolve().parent / "results"
#: The copy inside the package, read by :func:`pe.site.precision.benchmark_results`.
PACKAGE_DATA = Path(__file__).resolve().parents[1] / "pe" / "site" / "data" / "benchmarks.json"

#: (n, d, dtype, rounds): small tables (the common case) to large ones.
CASES: list[tuple[int, int, str, int]] = [
    (64, 32, "float32", 400),
    (256, 128, "float32", 200),
    (1024, 512, "float32", 41),
    (16384, 1024, "float32", 21),
    (16384, 1024, "float64", 5),
    (4096, 4096, "float32", 5),
    (65536, 256, "float16", 5),
    (1024, 64, "float64", 41),
]
TARGET = (16384, 1024, "float32")
#: float32 sizes where pe must take at most this many times the float32 recipe.
RECIPE_TARGETS = {(64, 32): 2.0, (256, 128): 2.0, (1024, 512): 1.0, (16384, 1024): 1.0}
FLOAT16_TARGET = (65536, 256, "float16")
REPEATS = 3  # calls of a candidate in a row, per round
OVERHEAD_ROUNDS = 1000  # rounds of single calls of a 1 x 2 table for the per-call overhead
NAIVE_LIMIT = 1 << 16  # entries: the Python double loop runs only below this
SAMPLES = 400  # sampled entries per method and case for the error against mpmath
ACCURACY_SAMPLES = 1500  # per dtype for the accuracy target (positions below 2**20, d=4096)


def machine() -> dict[str, str]:
    """A description of the machine: CPU model, cores, Python and NumPy versions."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": str(os.cpu_count()),
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "numpy": np.__version__,
    }


def naive(n: int, d: int, dtype: str) -> np.ndarray:
    """The formula as two nested Python loops, math.sin/math.cos per entry."""
    out = np.empty((n, d), dtype=dtype)
    for p in range(n):
        for j in range(0, d, 2):
            angle = p / 10000.0 ** (j / d)
            out[p, j] = math.sin(angle)
            out[p, j + 1] = math.cos(angle)
    return out


def candidates(n: int, d: int, dtype: str) -> dict[str, Callable[[], np.ndarray] | None]:
    positions = np.arange(n)
    single = np.full((n, d), 0.5, dtype=np.float32) if dtype == "float16" else None
    return {
        "pe": lambda: numeric.sinusoidal(n, d, dtype=dtype),
        "full": lambda: np.full((n, d), 0.5, dtype=dtype),
        "direct64": lambda: numeric.sinusoidal_direct(n, d, dtype=dtype),
        "recipe": lambda: recipes.float32_recipe(positions, d),
        "naive": (lambda: naive(n, d, dtype)) if n * d <= NAIVE_LIMIT else None,
        "cast": None if single is None else (lambda: single.astype(np.float16)),
    }


def best_times(runs: dict[str, Callable[[], np.ndarray] | None], rounds: int) -> dict[str, Any]:
    """Best wall time of each candidate over ``rounds`` interleaved rounds (seconds).

    In each round every candidate runs :data:`REPEATS` times in a row and its best call
    counts: the first call after another candidate can pay for that candidate's state (the
    recipe frees large temporaries, and the next allocation, whoever makes it, faults its
    pages in again: about 1 ms at 1024 x 512 on the reference machine).
    """
    best: dict[str, float] = {}
    for round_ in range(rounds):
        for name, run in runs.items():
            if run is None or (name in ("naive", "direct64") and round_ >= 3):
                continue
            for _ in range(1 if name in ("naive", "direct64") else REPEATS):
                if rounds < 100:  # large tables: no garbage from one run in the next's time
                    gc.collect()
                start = time.perf_counter()
                result = run()
                elapsed = time.perf_counter() - start
                del result
                best[name] = min(best.get(name, math.inf), elapsed)
    return {name: (best.get(name)) for name in runs}


def peak_extra(run: Callable[[], np.ndarray]) -> tuple[int, int]:
    """(peak bytes traced during ``run``, output bytes); the first includes the output."""
    gc.collect()
    tracemalloc.start()
    try:
        result = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, result.nbytes


def max_error(table: np.ndarray, n: int, d: int) -> float:
    positions, columns = sample_entries(n, d, SAMPLES, seed=n + d)
    values = table[positions, columns]
    return float(reference.errors(values, positions, columns, d).max())


def _digits(value: float) -> float:
    """A measured time kept to six significant digits: the pages round it once, to three."""
    return float(f"{value:.6g}")


def case(n: int, d: int, dtype: str, rounds: int) -> dict[str, Any]:
    runs = candidates(n, d, dtype)
    numeric.sinusoidal(n, d, dtype=dtype)  # warm the per-(d, base) frequency cache
    seconds = best_times(runs, rounds)
    peak, size = peak_extra(runs["pe"])  # type: ignore[arg-type]
    errors = {
        name: max_error(runs[name](), n, d)  # type: ignore[misc]
        for name in ("pe", "direct64", "recipe")
    }
    ms = {k: (None if v is None else _digits(1000 * v)) for k, v in seconds.items()}
    _extended_precision.frequency_turns.cache_clear()
    start = time.perf_counter()
    _extended_precision.frequency_turns(d, 10000.0)
    frequency_ms = _digits(1000 * (time.perf_counter() - start))
    _rotation_table._first_anchors.cache_clear()
    start = time.perf_counter()
    runs["pe"]()  # type: ignore[misc]
    first_ms = _digits(1000 * (time.perf_counter() - start))
    return {
        "n": n,
        "d": d,
        "dtype": dtype,
        "ms": ms,
        "frequency_setup_ms": frequency_ms,
        "first_call_ms": first_ms,
        # Ratios of the unrounded times, kept to six decimals: the page rounds them once.
        "ratio_full": round(seconds["pe"] / seconds["full"], 6),
        "ratio_recipe": round(seconds["pe"] / seconds["recipe"], 6),
        "speedup_direct": round(seconds["direct64"] / seconds["pe"], 6),
        "error": {k: float(f"{v:.3g}") for k, v in errors.items()},
        "peak_extra_fraction": round(max(peak - size, 0) / size, 4),
        **(
            {}
            if seconds["cast"] is None
            else {"cast_ratio_full": round(seconds["cast"] / seconds["full"], 6)}
        ),
    }


def overhead() -> dict[str, float]:
    """Per-call time (microseconds, best single call of interleaved rounds), 1 x 2 table."""
    positions = np.arange(1)
    seconds = best_times(
        {
            "pe": lambda: numeric.sinusoidal(1, 2, dtype="float32"),
            "recipe": lambda: recipes.float32_recipe(positions, 2),
            "full": lambda: np.full((1, 2), 0.5, dtype="float32"),
        },
        OVERHEAD_ROUNDS,
    )
    return {name: _digits(1e6 * value) for name, value in seconds.items()}


def accuracy() -> dict[str, float]:
    """Largest error of pe over positions below 2**20 at d = 4096, per dtype (sampled)."""
    n, d = 2**20, 4096
    out = {}
    for dtype in ("float64", "float32"):
        positions, columns = sample_entries(n, d, ACCURACY_SAMPLES, seed=7, largest=64)
        table = numeric.sinusoidal(positions, d, dtype=dtype)
        values = table[np.arange(positions.size), columns]
        out[dtype] = float(f"{reference.errors(values, positions, columns, d).max():.3g}")
    return out


def fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def markdown(data: dict[str, Any]) -> str:
    lines = [
        "# Benchmark: `pe.numeric.sinusoidal`",
        "",
        "Reproduce with `make bench` (or `.venv/bin/python benchmarks/run.py`).",
        "Times are the best of interleaved rounds, in milliseconds; errors are the largest",
        "absolute error against 50-digit mpmath on sampled entries (last positions included).",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in data["machine"].items()) + ".",
        "",
        (
            "| n | d | dtype | pe | np.full | pe / np.full | float32 recipe | pe / recipe "
            "| direct float64 | speed-up | naive loop | error pe | error direct | error recipe "
            "| peak extra |"
        ),
        "|---:|---:|:--|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in data["rows"]:
        m, e = r["ms"], r["error"]
        lines.append(
            f"| {r['n']} | {r['d']} | {r['dtype']} | {fmt(m['pe'], '.3f')} "
            f"| {fmt(m['full'], '.3f')} | {r['ratio_full']:.2f} | {fmt(m['recipe'], '.3f')} "
            f"| {r['ratio_recipe']:.2f} | {fmt(m['direct64'], '.1f')} "
            f"| {r['speedup_direct']:.1f} | {fmt(m['naive'], '.0f')} "
            f"| {e['pe']:.2g} | {e['direct64']:.2g} | {e['recipe']:.2g} "
            f"| {100 * r['peak_extra_fraction']:.1f} % |"
        )
    call = data["overhead_us"]
    lines += [
        "",
        (
            f"Per-call overhead (a 1 x 2 float32 table): pe {call['pe']:.1f} µs, the recipe "
            f"{call['recipe']:.1f} µs, np.full {call['full']:.1f} µs."
        ),
        "",
        "`pe` times are for repeated calls: the frequencies of a new (d, base) are computed "
        "once (60-digit decimal) and cached, and so are the anchors of rows from 0 (at most "
        "4 MiB per (d, base)); the frequencies' one-time cost was "
        + ", ".join(f"{r['frequency_setup_ms']:.1f} ms (d={r['d']})" for r in data["rows"])
        + "; a first call, both caches empty, took "
        + ", ".join(f"{r['first_call_ms']:.1f} ms ({r['n']}x{r['d']})" for r in data["rows"])
        + ".",
    ]
    lines += ["", "Targets:", ""]
    lines += [
        f"- {t['name']}: {t['value']} ({'met' if t['met'] else 'NOT met'})" for t in data["targets"]
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    rows = []
    for n, d, dtype, rounds in CASES:
        rows.append(case(n, d, dtype, rounds))
        print(f"measured n={n} d={d} {dtype}", file=sys.stderr)
    accurate = accuracy()
    calls = overhead()
    target = next(r for r in rows if (r["n"], r["d"], r["dtype"]) == TARGET)
    half = next(r for r in rows if (r["n"], r["d"], r["dtype"]) == FLOAT16_TARGET)
    recipe_targets = [
        {
            "name": f"float32 n={r['n']} d={r['d']}: pe / float32 recipe <= {limit:g}",
            "value": f"{r['ratio_recipe']:.2f}",
            "met": r["ratio_recipe"] <= limit,
        }
        for r in rows
        for (n, d), limit in RECIPE_TARGETS.items()
        if (r["n"], r["d"], r["dtype"]) == (n, d, "float32")
    ]
    targets = [
        *recipe_targets,
        {
            "name": "float32 n=16384 d=1024: pe / np.full <= 1.5 (on a quiet machine)",
            "value": f"{target['ratio_full']:.2f}",
            "met": target["ratio_full"] <= 1.5,
        },
        {
            "name": (
                "float16 n=65536 d=256: pe / np.full <= 3 (NumPy's float32 -> float16 cast "
                f"alone takes {half['cast_ratio_full']:.2f} x np.full)"
            ),
            "value": f"{half['ratio_full']:.2f}",
            "met": half["ratio_full"] <= 3.0,
        },
        {
            "name": "float32 n=16384 d=1024: speed-up over direct float64 >= 10",
            "value": f"{target['speedup_direct']:.1f}",
            "met": target["speedup_direct"] >= 10,
        },
        {
            "name": "float32 n=16384 d=1024: peak extra memory <= 10 % of the output",
            "value": f"{100 * target['peak_extra_fraction']:.1f} %",
            "met": target["peak_extra_fraction"] <= 0.10,
        },
        {
            "name": "float64, positions < 2**20, d=4096: max error <= 5e-16",
            "value": f"{accurate['float64']:.3g}",
            "met": accurate["float64"] <= 5e-16,
        },
        {
            "name": "float32, positions < 2**20, d=4096: max error <= 6e-8",
            "value": f"{accurate['float32']:.3g}",
            "met": accurate["float32"] <= 6e-8,
        },
    ]
    data = {
        "machine": machine(),
        "rows": rows,
        "overhead_us": calls,
        "accuracy": accurate,
        "targets": targets,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    (RESULTS / "latest.json").write_text(text)
    PACKAGE_DATA.parent.mkdir(parents=True, exist_ok=True)
    PACKAGE_DATA.write_text(text)
    text = markdown(data)
    (RESULTS / "latest.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
