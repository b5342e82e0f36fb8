"""Claims of the page "Designs that fail" (docs/failed-designs.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pe import _rotation_table, reference
from pe._tolerance import Tolerance, gamma
from pe.claims import Chapter, Check, Evidence, by_proof, checked, within
from pe.experiments import failed_designs as experiments
from pe.experiments.failed_designs import Design
from pe.proofs import failed_designs as proofs
from pe.proofs import wrong
from pe.symbolic import pair

claim = Chapter("failed-designs").claim

#: pe's bound on the error of every entry of its float64 table (:mod:`pe._rotation_table`).
DELTA = _rotation_table.ENTRY_ERROR_BOUND
#: Positions probed far from the start: well past any training length.
FAR = np.array([0, 1, 10, 1_000, 10_000, 1_000_000, 10**9, 2**53])


def _share(design: Design) -> Evidence:
    share = experiments.position_share(design, [10, 100, 1000], 512)
    return checked(
        bool(share[-1] > 0.99),
        f"d=512, 1000 random embeddings: the position's share of the squared norm "
        f"is {share[0]:.3g}, {share[1]:.3g}, {share[2]:.4g} at p = 10, 100, 1000 (needs > 0.99 "
        "at p = 1000)",
    )


def _gaps(gap: Callable[[Any], Any]) -> Evidence:
    short, long = experiments.normalised_index(4), experiments.normalised_index(40)
    g4, g40 = np.diff(short), np.diff(long)
    expected = float(gap(4)), float(gap(40))
    error = max(np.abs(g4 - expected[0]).max(), np.abs(g40 - expected[1]).max())
    return within(
        error,
        Tolerance(
            gamma(4),
            r"\gamma_4: p/n \text{ and } (p+1)/n \text{ below 1, their difference and } 1/n",
        ),
        f"p/n: neighbour gaps {g4[0]:.4g} (n = 4) and {g40[0]:.4g} (n = 40) against the "
        f"candidate gaps {expected[0]:.4g} and {expected[1]:.4g}: max error {error:.2g}",
    )


def _bounded(design: Design) -> Evidence:
    table = design(FAR, FAR.size, 512)
    pairs = table[:, 0::2] ** 2 + table[:, 1::2] ** 2
    worst = float(np.abs(table).max())
    norm_error = float(np.abs(pairs - 1).max(initial=0.0))
    tolerance = Tolerance(
        2 * np.sqrt(2) * DELTA + gamma(2),
        r"2\sqrt2\,\delta + \gamma_2 \ (\delta: \text{pe's entry bound})",
    )
    return within(
        max(worst - 1.0, norm_error),
        tolerance,
        f"d=512, p up to 2^53: max |E(p, j)| = {worst:.17g}, max |sin² + cos² − 1| over the "
        f"pairs = {norm_error:.2g} (tolerance {tolerance.value:.2g} for both)",
    )


def _distinct(d_model: int) -> Evidence:
    """No two rows up to ``UNIQUE_SPAN`` positions apart are closer than neighbours."""
    offsets = np.arange(1, experiments.UNIQUE_SPAN + 1)
    distance = experiments.row_distance_by_offset(offsets, d_model)
    neighbours = float(distance[0])
    k = int(offsets[1:][np.argmin(distance[1:])])
    ok = bool(distance[1:].min() > neighbours)
    detail = (
        f"d={d_model}: neighbours are {neighbours:.6g} apart; the closest rows "
        f"2..{experiments.UNIQUE_SPAN} "
        f"positions apart are {distance[1:].min():.6g} apart (offset {k})"
    )
    if d_model < 64:
        return checked(ok, detail + " (needs every other offset farther than neighbours)")
    # the minimum over all pairs is the neighbours' distance itself, up to the Gram matrix's rounding
    brute, p, q = experiments.smallest_row_distance(4096, d_model)
    rounding = experiments.gram_distance_rounding(d_model, brute)
    return checked(
        ok,
        f"{detail}; brute force over all pairs of p < 4096: {brute:.6g} (p = {p}, q = {q}; needs "
        "every other offset farther than neighbours, and no pair closer than neighbours by more "
        f"than the Gram matrix's rounding {rounding:.2g})",
        error=max(neighbours - brute, 0.0),
        tolerance=Tolerance(
            rounding, r"\text{Gram distance: } (4\delta\sqrt d D + 2d\gamma_d + \dots)/D"
        ),
    )


def _single_pair_repeats(d_model: int) -> Evidence:
    offsets = np.arange(1, experiments.UNIQUE_SPAN + 1)
    distance = experiments.row_distance_by_offset(offsets, d_model)
    k = int(offsets[np.argmin(distance)])
    return checked(
        distance.min() < 1e-4,
        f"d={d_model} (pair 0 alone): within {experiments.UNIQUE_SPAN} positions it comes back "
        "within "
        f"{distance.min():.2g} of itself at offset {k} (needs < 1e-4)",
    )


def _offsets(design: Design) -> Evidence:
    offsets, starts = np.array([1, 5, 50]), np.arange(0, 1000, 7)
    expected = experiments.row_distance_by_offset(offsets, 512)
    rounding = experiments.offset_distance_rounding(offsets, 512)
    ratio = max(
        float(
            (
                np.abs(experiments.offset_distances(design, offsets, starts, 512, n) - expected)
                / rounding
            ).max()
        )
        for n in (4, 40)
    )
    return within(
        ratio,
        Tolerance(1.0, r"\tau_k = \tau^2_k / 2D_k + 2uD_k \text{ per offset}"),
        f"d=512: ||E(p+k) − E(p)|| for k in (1, 5, 50), 143 starts p, sentences of 4 and 40 "
        f"tokens, against sqrt(Σ(2 − 2cos ω_i k)): worst difference / tolerance {ratio:.2g} "
        f"(tolerances {', '.join(f'{t:.2g}' for t in rounding)})",
    )


def _independent_of_length(design: Design) -> Evidence:
    short = design(np.arange(4), 4, 512)
    long = design(np.arange(40), 40, 512)[:4]
    same = bool(np.array_equal(short, long))
    return checked(
        same,
        f"rows of positions 0-3 in a 4-token and a 40-token sentence "
        f"{'identical' if same else 'differ'} (max difference {np.abs(short - long).max():.3g})",
    )


def _any_position(design: Design) -> Evidence:
    try:
        values = design(FAR, FAR.size, 64)
    except IndexError:
        return checked(False, f"position {int(FAR.max())} has no row")
    exact = reference.table(FAR.tolist(), 64)
    error = float(np.abs(values - exact).max())
    bound = DELTA
    return within(
        error,
        Tolerance(bound, r"\delta = 2\sqrt2\,\delta_{\text{anchor}} + 3 \cdot 2^{-54}"),
        f"d=64, p in {{0, 1, 10, 1e3, 1e4, 1e6, 1e9, 2^53}}: largest error against 50-digit "
        f"mpmath {error:.3g} (bound {bound:.3g})",
    )


def _deterministic(design: Design) -> Evidence:
    """Same bits for the same positions: twice, in shuffled order, and in a shorter call."""
    positions = np.arange(64)
    first, again = design(positions, 64, 512), design(positions, 64, 512)
    shuffled = np.random.default_rng(3).permutation(64)
    reordered = design(shuffled, 64, 512)
    shorter = design(positions[:40], 40, 512)
    same = bool(
        np.array_equal(first, again)
        and np.array_equal(first[shuffled], reordered)
        and np.array_equal(first[:40], shorter)
    )
    return checked(
        same,
        "d=512, positions 0..63: a second call, a call in shuffled order and a call for the "
        f"first 40 positions of a 40-token sentence {'agree bit for bit' if same else 'differ'}",
    )


def _bits(law: Callable[[int], int]) -> Evidence:
    found = {n: experiments.bits_needed(n) for n in (2, 3, 8, 9, 1000, 1024, 1025)}
    closest = experiments.closest_rows(experiments.binary_bits(1000, found[1000]))[2]
    return checked(
        all(law(n) == bits for n, bits in found.items()) and closest >= 1,
        "fewest bits that tell 0..n-1 apart, found by trying (the law's count): "
        + ", ".join(f"n={n}: {bits} ({law(n)})" for n, bits in found.items())
        + f"; closest codes of 0..999 at distance {closest:g}",
    )


def _one_pair(omega: float) -> Evidence:
    p, q, gap = experiments.closest_rows(experiments.one_pair_points(1000, omega))
    floor = experiments.separation_floor(1000, omega)
    return checked(
        floor < gap < 1e-4,
        f"one pair, ω = {omega:.4g}, p = 0..999: closest points {p} and {q} (k = {q - p}) at "
        f"distance {gap:.2g}; distinct: above the rounding floor {floor:.2g}, close: below 1e-4",
    )


CLAIMS = (
    claim(
        "raw-index-dominates",
        "The raw index swamps the embedding",
        Check(by_proof(proofs.share_limit), true=proofs.raw_share, wrong=(wrong.PAIR_SHARE,)),
        Check(_share, true=experiments.raw_index, wrong=(wrong.SINUSOIDAL_DESIGN,)),
        statement=(
            r"\begin{gathered} \lim_{p\to\infty} \frac{p^2}{p^2 + \lVert e \rVert^2} = 1 \\"
            r" \text{the index's share of } \lVert [e;\,p] \rVert^2 \text{ tends to 1} \end{gathered}"
        ),
    ),
    claim(
        "normalised-index-gap",
        "Under $p/n$ the neighbour gap depends on the length",
        Check(
            by_proof(proofs.neighbour_gap),
            true=experiments.one_over_n,
            wrong=(wrong.CONSTANT_GAP,),
        ),
        Check(_gaps, true=experiments.one_over_n, wrong=(wrong.GAP_ONE_OVER_N_MINUS_ONE,)),
        statement=(
            r"\begin{gathered} \frac{p+1}{n} - \frac{p}{n} = \frac{1}{n} \\"
            r" \tfrac14 = 0.25 \text{ for } n = 4,\quad \tfrac1{40} = 0.025 \text{ for } n = 40 \end{gathered}"
        ),
    ),
    claim(
        "encoding-bounded",
        "Bounded: every pair lies on the unit circle",
        Check(by_proof(proofs.pair_bounded), true=pair, wrong=(wrong.RAW_INDEX_PAIR,)),
        Check(_bounded, true=experiments.sinusoidal, wrong=(wrong.RAW_INDEX,)),
        statement=(
            r"\begin{gathered} \sin^2 \omega_i p + \cos^2 \omega_i p = 1 \\"
            r" \implies |PE(p, j)| \le 1 \text{ for every position } p \end{gathered}"
        ),
    ),
    claim(
        "encoding-rows-distinct",
        "Unique: each position has its own vector (with many frequencies)",
        Check(_distinct, true=512, wrong=(wrong.SINGLE_PAIR, wrong.FOUR_PAIRS)),
        Check(_single_pair_repeats, true=wrong.SINGLE_PAIR.value),
        statement=(
            r"\begin{gathered} d = 512:\ \lVert PE(p) - PE(q) \rVert > \lVert PE(1) - PE(0)"
            rf" \rVert \text{{ for }} 2 \le |p - q| \le {experiments.UNIQUE_SPAN} \\"
            r" \text{(no two rows closer than neighbours);} \\"
            r" \text{one pair alone comes within } 10^{-4} \text{ of itself} \end{gathered}"
        ),
    ),
    claim(
        "continuous-fewer-numbers",
        "Fewer numbers than bits, but less margin between positions",
        Check(_bits, true=experiments.log2_bits, wrong=(wrong.LOG2_ROUNDED_DOWN,)),
        Check(_one_pair, true=1.0, wrong=(wrong.RATIONAL_TURN,)),
        statement=(
            r"\begin{gathered} \text{a binary code of } n \text{ positions needs }"
            r" \lceil \log_2 n \rceil \text{ bits, its codes at least 1 apart;} \\"
            r" \text{one pair } (\sin p, \cos p) \text{ gives each } p = 0, \dots, 999"
            r" \text{ its own point,} \\ \text{but two of those points lie within }"
            r" 10^{-4} \end{gathered}"
        ),
    ),
    claim(
        "offset-distance-position-free",
        "The same offset looks the same everywhere",
        Check(by_proof(proofs.offset_distance), true=pair, wrong=(wrong.DOUBLED_COSINE_PAIR,)),
        Check(_offsets, true=experiments.sinusoidal, wrong=(wrong.NORMALISED_INDEX,)),
        statement=(
            r"\begin{gathered} \lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i=0}^{d/2-1} \bigl(2 - 2\cos \omega_i k\bigr) \\"
            r" \text{no } p \text{ and no sentence length in it} \end{gathered}"
        ),
    ),
    claim(
        "encoding-independent-of-length",
        "A position's vector does not depend on the sentence length",
        Check(
            _independent_of_length,
            true=experiments.sinusoidal,
            wrong=(wrong.NORMALISED_INDEX,),
        ),
        statement=r"PE(p) \text{ is the same row in a sentence of 4 tokens and one of 40}",
    ),
    claim(
        "encoding-any-position",
        "Defined for any position, with no table to run out of",
        Check(
            _any_position,
            true=experiments.sinusoidal,
            wrong=(wrong.LEARNED_TABLE, wrong.FLOAT64_ANGLES_DESIGN),
        ),
        statement=(
            r"\begin{gathered} PE(p, j) \text{ is computed from } p \text{ for any } p \le 2^{53} \\"
            r" \text{within } 4.9 \times 10^{-16} \text{ of the exact value} \end{gathered}"
        ),
    ),
    claim(
        "encoding-deterministic",
        "Deterministic: a function of the position alone",
        Check(
            _deterministic,
            true=experiments.sinusoidal,
            wrong=(wrong.ROTATED_FROM_FIRST, wrong.NORMALISED_INDEX),
        ),
        statement=(
            r"\begin{gathered} PE(p) \text{ depends only on } (p, d, \text{base}) \\"
            r" \text{same bits in any call, any order and any sentence length} \end{gathered}"
        ),
    ),
)
