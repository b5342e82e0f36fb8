"""Claims of the page "Designs that fail" (docs/failed-designs.py)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from pe import numeric
from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import failed_designs as naive_encodings
from pe.experiments import sinusoidal_encoding as encoding_facts

PAGE = "failed-designs"

EPS = float(np.finfo(np.float64).eps)
#: Positions probed far from the start: well past any training length.
FAR = np.array([0, 1, 10, 1_000, 10_000, 1_000_000, 10**9, 2**53])


def _share(design: str) -> Evidence:
    share = naive_encodings.position_share([10, 100, 1000], 512, design=design)
    label = "[e; p] (raw index)" if design == "raw" else "e + PE(p) (sinusoidal)"
    return checked(
        bool(share[-1] > 0.99),
        f"d=512, 1000 random embeddings, {label}: the position's share of the squared norm "
        f"is {share[0]:.3g}, {share[1]:.3g}, {share[2]:.4g} at p = 10, 100, 1000 (needs > 0.99 "
        "at p = 1000)",
    )


def _gaps(candidate: str) -> Evidence:
    short, long = naive_encodings.normalised_index(4), naive_encodings.normalised_index(40)
    g4, g40 = np.diff(short), np.diff(long)
    expected = {"1/n": (1 / 4, 1 / 40), "1/(n-1)": (1 / 3, 1 / 39)}[candidate]
    error = max(np.abs(g4 - expected[0]).max(), np.abs(g40 - expected[1]).max())
    return checked(
        error <= 2 * EPS,
        f"p/n: neighbour gaps {g4[0]:.4g} (n = 4) and {g40[0]:.4g} (n = 40) against the "
        f"candidate {candidate}: max error {error:.2g}",
    )


def _bounded(design: str) -> Evidence:
    if design == "sinusoidal":
        table = numeric.sinusoidal(FAR, 512)
        pairs = table[:, 0::2] ** 2 + table[:, 1::2] ** 2
        worst, norm_error = float(np.abs(table).max()), float(np.abs(pairs - 1).max())
        ok = worst <= 1.0 and norm_error <= 4 * EPS
        return checked(
            ok,
            f"d=512, p up to 2^53: max |PE(p, j)| = {worst:.17g}, max |sin² + cos² − 1| = "
            f"{norm_error:.2g} (tolerance 4 eps)",
        )
    worst = float(np.abs(FAR).max())
    return checked(worst <= 1.0, f"raw index at the same positions: max value {worst:.3g}")


def _distinct(d_model: int) -> Evidence:
    offsets = np.arange(1, 20_001)
    distance = naive_encodings.row_distance_by_offset(offsets, d_model)
    k = int(offsets[np.argmin(distance)])
    detail = (
        f"d={d_model}: smallest distance between rows up to 20000 positions apart "
        f"{distance.min():.3g} (offset {k})"
    )
    if d_model >= 64:
        brute, p, q = naive_encodings.smallest_row_distance(4096, d_model)
        detail += f"; brute force over all pairs of p < 4096: {brute:.3g} (p = {p}, q = {q})"
        return checked(min(distance.min(), brute) > 1.0, detail + " (needs > 1)")
    return checked(distance.min() > 1.0, detail + " (needs > 1)")


def _single_pair_repeats() -> Evidence:
    offsets = np.arange(1, 20_001)
    distance = naive_encodings.row_distance_by_offset(offsets, 2)
    k = int(offsets[np.argmin(distance)])
    return checked(
        distance.min() < 1e-4,
        f"d=2 (pair 0 alone): within 20000 positions it comes back within "
        f"{distance.min():.2g} of itself at offset {k} (needs < 1e-4)",
    )


def _offsets(design: str) -> Evidence:
    offsets, starts = np.array([1, 5, 50]), np.arange(0, 1000, 7)
    if design == "sinusoidal":
        measured = naive_encodings.offset_distances(offsets, starts, 512)
        expected = naive_encodings.row_distance_by_offset(offsets, 512)
        spread = float(np.abs(measured - expected[None, :]).max())
        return checked(
            spread <= 1e-12,
            f"d=512: ||PE(p+k) − PE(p)|| for k in (1, 5, 50), 143 starts p, against "
            f"sqrt(Σ(2 − 2cos ω_i k)): max difference {spread:.2g} (tolerance 1e-12)",
        )
    inside = np.array([0, 1, 2])  # neighbours inside the 4-token sentence
    short = naive_encodings.offset_distances([1], inside, 2, design="normalised", n=4)
    long = naive_encodings.offset_distances([1], inside, 2, design="normalised", n=40)
    spread = float(np.abs(short - long).max())
    return checked(
        spread <= 1e-12,
        f"p/n: offset k = 1 gives {short[0, 0]:.3g} in a 4-token sentence and {long[0, 0]:.3g} "
        f"in a 40-token one (difference {spread:.3g})",
    )


def _independent_of_length(design: str) -> Evidence:
    if design == "sinusoidal":
        short, long = numeric.sinusoidal(4, 512), numeric.sinusoidal(40, 512)[:4]
    else:
        short, long = naive_encodings.normalised_index(4), naive_encodings.normalised_index(40)[:4]
    same = bool(np.array_equal(short, long))
    label = "PE" if design == "sinusoidal" else "p/n"
    return checked(
        same,
        f"{label}: rows of positions 0-3 in a 4-token and a 40-token sentence "
        f"{'identical' if same else 'differ'} (max difference {np.abs(short - long).max():.3g})",
    )


def _any_position(learned_rows: int | None) -> Evidence:
    if learned_rows is not None:
        table = np.random.default_rng(0).standard_normal((learned_rows, 512))
        defined = bool(FAR.max() < table.shape[0])
        return checked(
            defined,
            f"a learned table of {learned_rows} rows: position {int(FAR.max())} has no row",
        )
    values = numeric.sinusoidal(FAR, 64)
    exact = encoding_facts.reference_table(FAR, 64)
    omega = numeric.frequencies(64)
    tolerance = EPS + 4 * EPS * np.repeat(omega, 2)[None, :] * FAR[:, None].astype(float)
    ratio = float((np.abs(values - exact) / tolerance).max())
    return checked(
        ratio <= 1.0,
        f"d=64, p in {{0, 1, 10, 1e3, 1e4, 1e6, 1e9, 2^53}}: every entry within "
        f"eps + 4 eps64 ω_i p of 50-digit mpmath (worst error/tolerance {ratio:.2g})",
    )


def _deterministic(random_init: bool) -> Evidence:
    if random_init:
        a = np.random.default_rng(1).standard_normal((64, 512))
        b = np.random.default_rng(2).standard_normal((64, 512))
        same = bool(np.array_equal(a, b))
        return checked(same, "random initial tables from two seeds: differ")
    first = numeric.sinusoidal(64, 512)
    again = numeric.sinusoidal(64, 512)
    shuffled = np.random.default_rng(3).permutation(64)
    reordered = numeric.sinusoidal(shuffled, 512)
    same = bool(np.array_equal(first, again) and np.array_equal(first[shuffled], reordered))
    return checked(
        same,
        "d=512, 64 positions: two computations and a computation in shuffled order "
        f"{'agree bit for bit' if same else 'differ'}",
    )


CLAIMS = (
    Claim(
        id="raw-index-dominates",
        title="The raw index swamps the embedding",
        statement=(
            r"\begin{gathered} \lim_{p\to\infty} \frac{p^2}{p^2 + \lVert e \rVert^2} = 1 \\"
            r" \text{the index's share of } \lVert [e;\,p] \rVert^2 \text{ tends to 1} \end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(naive_encodings.position_share_limit_proof()),
            lambda: _share("raw"),
        ),
        controls=(
            lambda: proved(
                naive_encodings.position_share_limit_proof(design="sinusoidal"),
                "a sine/cosine pair",
            ),
            lambda: _share("sinusoidal"),
        ),
    ),
    Claim(
        id="normalised-index-gap",
        title="Under p/n the neighbour gap depends on the length",
        statement=(
            r"\begin{gathered} \frac{p+1}{n} - \frac{p}{n} = \frac{1}{n} \\"
            r" \tfrac14 = 0.25 \text{ for } n = 4,\quad \tfrac1{40} = 0.025 \text{ for } n = 40 \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(naive_encodings.neighbour_gap_proof()), lambda: _gaps("1/n")),
        controls=(
            lambda: proved(
                naive_encodings.neighbour_gap_proof(gap=sp.Rational(1, 4)), "gap 1/4 for every n"
            ),
            lambda: _gaps("1/(n-1)"),
        ),
    ),
    Claim(
        id="encoding-bounded",
        title="Bounded: every pair lies on the unit circle",
        statement=(
            r"\begin{gathered} \sin^2 \omega_i p + \cos^2 \omega_i p = 1 \\"
            r" \implies |PE(p, j)| \le 1 \text{ for every position } p \end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(naive_encodings.pair_bounded_proof()),
            lambda: _bounded("sinusoidal"),
        ),
        controls=(
            lambda: proved(
                naive_encodings.pair_bounded_proof(second=sp.Symbol("p", real=True)),
                "raw index p in place of the cosine",
            ),
            lambda: _bounded("raw"),
        ),
    ),
    Claim(
        id="encoding-rows-distinct",
        title="Unique: each position has its own vector (with many frequencies)",
        statement=(
            r"\begin{gathered} d = 512:\ \lVert PE(p) - PE(q) \rVert > 1 \\"
            r" \text{for } p \neq q,\ |p - q| \le 20000 \\"
            r" \text{one pair alone comes within } 10^{-4} \text{ of itself} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _distinct(512), _single_pair_repeats),
        controls=(lambda: _distinct(2),),
    ),
    Claim(
        id="offset-distance-position-free",
        title="The same offset looks the same everywhere",
        statement=(
            r"\begin{gathered} \lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i=0}^{d/2-1} \bigl(2 - 2\cos \omega_i k\bigr) \\"
            r" \text{no } p \text{ and no sentence length in it} \end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(naive_encodings.offset_distance_proof()),
            lambda: _offsets("sinusoidal"),
        ),
        controls=(
            lambda: proved(
                naive_encodings.offset_distance_proof(cos_frequency_factor=2),
                "cosine at twice the sine's frequency",
            ),
            lambda: _offsets("normalised"),
        ),
    ),
    Claim(
        id="encoding-independent-of-length",
        title="A position's vector does not depend on the sentence length",
        statement=r"PE(p) \text{ is the same row in a sentence of 4 tokens and one of 40}",
        page=PAGE,
        evidence=(lambda: _independent_of_length("sinusoidal"),),
        controls=(lambda: _independent_of_length("normalised"),),
    ),
    Claim(
        id="encoding-any-position",
        title="Defined for any position, with no table to run out of",
        statement=(
            r"\begin{gathered} PE(p, j) \text{ is computed from } p \text{ for any } p \le 2^{53} \\"
            r" \text{within } \varepsilon + 4\varepsilon\,\omega_i p \text{ of the exact value} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _any_position(None),),
        controls=(lambda: _any_position(512),),
    ),
    Claim(
        id="encoding-deterministic",
        title="Deterministic: a function of the position alone",
        statement=(
            r"\begin{gathered} PE(p) \text{ depends only on } (p, d, \text{base}) \\"
            r" \text{same bits in any call and any order} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _deterministic(False),),
        controls=(lambda: _deterministic(True),),
    ),
)
