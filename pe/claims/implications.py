"""Claims of the page "What the identity implies" (docs/implications.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from pe import numeric, symbolic
from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import implications as similarity

PAGE = "implications"

#: Width and range of offsets for the decay of the dot product.
DECAY_WIDTH = 512
DECAY_RANGE = 20_000
#: (n, d) settings for the smallest distance between rows.
ROW_SETTINGS = ((10_000, 64), (100_000, 64), (10_000, 512), (100_000, 512))


def _numeric_dot(doubled: bool = False) -> Callable[[], Evidence]:
    """Every dot product of a d=512 table against sum_i cos(w_i (q - p))."""

    def run() -> Evidence:
        d, n = 512, 1500
        table = numeric.sinusoidal(n, d)
        gram = table @ table.T
        offsets = np.arange(-(n - 1), n)
        omega = numeric.frequencies(d)
        if doubled:  # the doubled exponent 10000 ** (2 * (2i) / d): every w_i squared
            omega = omega**2
        f = np.cos(np.multiply.outer(offsets.astype(np.float64), omega)).sum(axis=1)
        q_minus_p = np.subtract.outer(np.arange(n), np.arange(n)).T
        error = float(np.abs(gram - f[q_minus_p + n - 1]).max())
        tol = similarity.dot_tolerance(d, 2 * n)
        label = "sum of cos with the doubled exponent" if doubled else "sum_i cos(w_i (q - p))"
        return checked(
            error <= tol,
            f"d={d}, all {n}x{n} dot products of rows against {label}: "
            f"max error {error:.2g} (tolerance {tol:.2g})",
        )

    return run


def _numeric_symmetric(between: bool = False) -> Evidence:
    d, p = 512, 2000
    ks = np.arange(1, 1500)
    table = numeric.sinusoidal(np.concatenate([[p], p + ks, p - ks]), d)
    row, ahead, behind = table[0], table[1 : 1 + ks.size], table[1 + ks.size :]
    if between:
        row = numeric.shift_matrix(1, d).T @ row  # PE(p)^T T_1 PE(q)
    gap = float(np.abs(ahead @ row - behind @ row).max())
    tol = similarity.dot_tolerance(d, p + 1500)
    label = "PE(p)^T T_1 PE(p±k)" if between else "PE(p) · PE(p±k)"
    return checked(
        gap <= tol,
        f"d={d}, p={p}, k=1..1499: max |{label} ahead - behind| = {gap:.2g} (tolerance {tol:.2g})",
    )


def decay_facts() -> tuple[int, int, float]:
    """First rise, position and value of the minimum of ``f`` for d=512, 0 <= k <= 20000."""
    f = similarity.dot_by_offset(DECAY_WIDTH, np.arange(DECAY_RANGE + 1))
    rise = similarity.first_rise(f)
    if rise is None:
        raise AssertionError("f never rises")
    return rise, int(np.argmin(f)), float(f.min())


def _mp_f(k: int) -> Any:
    """f(k) at 50 digits with mpmath, frequencies 10000^(-2i/512) formed at 50 digits."""
    with mpmath.workdps(50):
        return mpmath.fsum(
            mpmath.cos(k * mpmath.power(10000, mpmath.mpf(-2 * i) / DECAY_WIDTH))
            for i in range(DECAY_WIDTH // 2)
        )


def _numeric_not_monotone() -> Evidence:
    rise, low, value = decay_facts()
    f = similarity.dot_by_offset(DECAY_WIDTH, np.arange(rise + 2))
    before = bool(np.all(np.diff(f[: rise + 1]) < 0))
    step = f[rise + 1] - f[rise]
    with mpmath.workdps(50):
        exact_step = _mp_f(rise + 1) - _mp_f(rise)
    ok = before and step > 0 and exact_step > 0 and abs(float(exact_step) - step) < 1e-9
    return checked(
        ok,
        f"d={DECAY_WIDTH}: f falls for k = 0..{rise}, then f({rise + 1}) - f({rise}) = {step:.4g} "
        f"> 0 (mpmath, 50 digits: {mpmath.nstr(exact_step, 6)}); minimum over 0..{DECAY_RANGE}: "
        f"{value:.4g} at k = {low}",
    )


def _monotone_control() -> Evidence:
    ks = np.arange(DECAY_RANGE + 1)
    reference = DECAY_WIDTH / 2 * np.exp(-ks / 1000.0)
    rise = similarity.first_rise(reference)
    return checked(rise is not None, f"the rise detector on a monotone decay finds rise = {rise}")


def _numeric_norm(claimed: str = "sqrt(d/2)") -> Evidence:
    worst, tol = 0.0, 0.0
    for d in (64, 512):
        positions = np.concatenate([np.arange(10_000), [10**6, 10**9, 2**40]])
        table = numeric.sinusoidal(positions, d)
        target = np.sqrt(d / 2) if claimed == "sqrt(d/2)" else np.sqrt(d)
        worst = max(worst, float(np.abs(np.linalg.norm(table, axis=1) - target).max()))
        tol = max(tol, similarity.dot_tolerance(d, 0.0))
    return checked(
        worst <= tol,
        f"d in (64, 512), p < 10^4 and p in (10^6, 10^9, 2^40): max | |PE(p)| - {claimed} | = "
        f"{worst:.2g} (tolerance {tol:.2g})",
    )


def _numeric_rows_distinct() -> Evidence:
    parts, ok = [], True
    for n, d in ROW_SETTINGS:
        k, distance = similarity.nearest_rows(n, d)
        ok = ok and distance > 1e-6
        parts.append(f"n={n}, d={d}: {distance:.4g} (offset {k})")
    # independent brute force over all pairs for a small table
    table = numeric.sinusoidal(2000, 64)
    sq = (table**2).sum(axis=1)
    gram = np.maximum(sq[:, None] + sq[None, :] - 2 * table @ table.T, 0.0)
    np.fill_diagonal(gram, np.inf)
    brute = float(np.sqrt(gram.min()))
    shortcut = similarity.nearest_rows(2000, 64)[1]
    ok = ok and abs(brute - shortcut) < 1e-9
    return checked(
        ok,
        "smallest distance between two rows: "
        + "; ".join(parts)
        + f"; brute force over all pairs, n=2000, d=64: {brute:.6g} = {shortcut:.6g}",
    )


def _binary_counter_control() -> Evidence:
    """Frequencies 2 pi / 2^(j+1) (a binary-counter design): rows repeat after 2^(d/2) steps."""
    d, n = 16, 1000
    omega = 2 * np.pi / 2.0 ** np.arange(1, d // 2 + 1)
    ks = np.arange(1, n, dtype=float)
    distance = np.sqrt((4 * np.sin(np.multiply.outer(ks, omega) / 2) ** 2).sum(axis=1))
    k = int(np.argmin(distance)) + 1
    return checked(
        distance.min() > 1e-6,
        f"frequencies 2π/2^j, d={d}, n={n}: smallest distance {distance.min():.2g} at offset {k}",
    )


def _numeric_every_pair(wrong_frequency: bool = False) -> Evidence:
    d, n = 512, 10_000
    omega = numeric.frequencies(d)
    table = numeric.sinusoidal(n, d)
    worst_ratio = 0.0
    for k in (1, 7, 500):
        shifted = numeric.shift(table[: n - k], k)
        if wrong_frequency:  # pair 0 turned by the angle of pair d/2 - 1
            angle = k * omega[-1]
            a, b = table[: n - k, 0], table[: n - k, 1]
            shifted[:, 0] = np.cos(angle) * a + np.sin(angle) * b
            shifted[:, 1] = np.cos(angle) * b - np.sin(angle) * a
        error = np.abs(shifted - table[k:]).reshape(n - k, d // 2, 2).max(axis=(0, 2))
        tol = numeric.rotation_tolerance(omega, n, k, np.float64)
        worst_ratio = max(worst_ratio, float((error / tol).max()))
    distances, where = similarity.pair_min_distance(omega, n)
    rounding = 4 * np.finfo(float).eps * (1 + omega * n)
    distinct = bool(np.all(distances > 1000 * rounding))
    ok = worst_ratio <= 1.0 and distinct
    label = "pair 0 turned by pair 255's angle; " if wrong_frequency else ""
    return checked(
        ok,
        f"{label}d={d}, p < {n}: every pair's block maps v_i(p) to v_i(p+k) for k in (1, 7, 500), "
        f"worst error/tolerance {worst_ratio:.2g}; every pair alone separates all positions: "
        f"pair 0's closest two positions are {where[0]} apart at distance {distances[0]:.3g}, "
        f"pair {d // 2 - 1}'s {where[-1]} apart at {distances[-1]:.3g}",
    )


def _rational_period_control() -> Evidence:
    omega = np.array([2 * np.pi / 8])
    distance, where = similarity.pair_min_distance(omega, 100)
    return checked(
        bool(distance[0] > 1e-9),
        f"a pair with w = 2π/8 (period 8): positions {where[0]} apart coincide "
        f"(distance {distance[0]:.2g})",
    )


def _numeric_not_relative(projection: str, content: float) -> Callable[[], Evidence]:
    def run() -> Evidence:
        spread, scale = similarity.offset_spread(
            similarity.scores(300, 64, projection=projection, content=content)
        )
        ratio = spread / scale
        return checked(
            ratio > 0.1,
            f"d=64, n=300, W = {projection}, content scale {content}: largest spread along one "
            f"diagonal q - p = const is {spread:.3g}, {ratio:.3g} times the scores' std",
        )

    return run


def _relative_only(k: Any, w: Any) -> Any:
    return sp.cos(2 * k * w)


CLAIMS = (
    Claim(
        id="dot-product-offset-only",
        title="The dot product of two rows depends only on their offset",
        statement=r"PE(p) \cdot PE(p+k) = \sum_{i=0}^{d/2-1} \cos \omega_i k",
        page=PAGE,
        evidence=(
            lambda: proved(similarity.dot_product_per_pair()),
            lambda: proved(similarity.dot_product_concrete(8)),
            _numeric_dot(),
        ),
        controls=(
            lambda: proved(similarity.dot_product_per_pair(_relative_only), "cos(2ωk)"),
            lambda: proved(similarity.dot_product_concrete(8, doubled=True), "doubled exponent"),
            _numeric_dot(doubled=True),
        ),
    ),
    Claim(
        id="dot-product-symmetric",
        title="The dot product cannot tell k ahead from k behind",
        statement=r"PE(p) \cdot PE(p+k) = PE(p) \cdot PE(p-k)",
        page=PAGE,
        evidence=(lambda: proved(similarity.offset_symmetry()), _numeric_symmetric),
        controls=(
            lambda: proved(
                similarity.offset_symmetry(lambda _k, w: symbolic.shift_block(1, w)),
                "T_1 between the rows",
            ),
            lambda: _numeric_symmetric(between=True),
        ),
    ),
    Claim(
        id="dot-product-not-monotone",
        title="The dot product does not fall steadily with distance",
        statement=(
            r"f(k) = \sum_i \cos\omega_i k,\ d = 512: \text{ there is a } k"
            r" \text{ with } f(k+1) > f(k)"
        ),
        page=PAGE,
        evidence=(_numeric_not_monotone,),
        controls=(_monotone_control,),
    ),
    Claim(
        id="norm-constant",
        title="Every row has the same length",
        statement=r"\lVert PE(p) \rVert = \sqrt{d/2} \quad \text{for every } p",
        page=PAGE,
        evidence=(
            lambda: proved(similarity.norm_per_pair()),
            lambda: proved(similarity.norm_concrete(8)),
            _numeric_norm,
        ),
        controls=(
            lambda: proved(
                similarity.norm_per_pair(
                    lambda p, w: sp.Matrix([sp.sin(w * p), sp.cos(2 * w * p)])
                ),
                "pair (sin ωp, cos 2ωp)",
            ),
            lambda: proved(similarity.norm_concrete(8, claimed=8), "norm² = d"),
            lambda: _numeric_norm("sqrt(d)"),
        ),
    ),
    Claim(
        id="rows-distinct",
        title="Every position has its own row",
        statement=(
            r"\lVert PE(p) - PE(q) \rVert^2 = \sum_i \bigl(2 - 2\cos\omega_i (p - q)\bigr) > 0"
            r" \text{ for integers } p \ne q"
        ),
        page=PAGE,
        evidence=(lambda: proved(similarity.distance_identity()), _numeric_rows_distinct),
        controls=(
            lambda: proved(
                similarity.distance_identity(lambda p, q, w: 2 - 2 * sp.cos(w * (p + q))),
                "2 − 2cos ω(p+q)",
            ),
            _binary_counter_control,
        ),
    ),
    Claim(
        id="every-pair-relative-and-absolute",
        title="Every pair carries both relative and absolute position",
        statement=(
            r"\begin{gathered}\text{for every pair } i:\quad B(k\omega_i)\,v_i(p) = v_i(p+k)"
            r" \\ \text{and}\quad v_i(p) \ne v_i(q) \text{ for integers } p \ne q\end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(symbolic.rotation_identity()), _numeric_every_pair),
        controls=(
            lambda: _numeric_every_pair(wrong_frequency=True),
            _rational_period_control,
        ),
    ),
    Claim(
        id="attention-score-four-terms",
        title="With content added, the score has four terms",
        statement=(
            r"\begin{gathered}(x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y"
            r" + x^{\mathsf T} W e_q + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q, \\"
            r" W = W_q^{\mathsf T} W_k\end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(similarity.attention_four_terms()),),
        controls=(lambda: proved(similarity.attention_four_terms(True), "cross terms dropped"),),
    ),
    Claim(
        id="projected-score-not-relative",
        title="After the projections the score is not a function of p − q alone",
        statement=(
            r"\begin{gathered}e_p^{\mathsf T} W e_q = \tfrac{w_{11}+w_{22}}{2}\cos\omega(p-q)"
            r" + \tfrac{w_{12}-w_{21}}{2}\sin\omega(p-q) \\"
            r" + \tfrac{w_{22}-w_{11}}{2}\cos\omega(p+q) + \tfrac{w_{12}+w_{21}}{2}\sin\omega(p+q)"
            r"\end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(similarity.position_term()),
            _numeric_not_relative("random", 0.0),
            _numeric_not_relative("random", 1.0),
        ),
        controls=(
            lambda: proved(similarity.position_term(relative_only=True), "p − q terms only"),
            _numeric_not_relative("identity", 0.0),
            _numeric_not_relative("rotation", 0.0),
        ),
    ),
)
