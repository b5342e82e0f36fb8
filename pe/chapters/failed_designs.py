r"""Designs that fail (``docs/failed-designs.py``): the raw and the normalised index, and the requirements they miss.

The designs themselves are in :mod:`pe.position_designs`.

The raw index
    Position ``p`` written into the vector as the number ``p`` (for example one extra
    coordinate, :math:`[e; p]`). It is unbounded: its share of the squared norm,
    :math:`p^2 / (p^2 + \lVert e \rVert^2)`, tends to 1 (:func:`share_limit`), so far
    positions swamp the token embedding ``e``.

The normalised index
    :math:`p / n` in a sentence of ``n`` tokens. It is bounded, but the gap between
    neighbours is :math:`1/n` (0.25 for 4 tokens, 0.025 for 40; :func:`neighbour_gap`),
    and the value of a given position changes with the length of its sentence.

The requirements that follow, each checked for the sinusoidal encoding: bounded (every
pair lies on the unit circle, :func:`pair_bounded`), a distinct vector per position, the
same offset looks the same everywhere (:math:`\lVert PE(p+k) - PE(p) \rVert^2 = \sum_i (2
- 2\cos\omega_i k)` depends on ``k`` only, :func:`offset_distance`), defined for any
position independently of the sentence length, deterministic. Each proof takes the thing
it is about as its first argument (a share, a gap law, a pair); the wrong candidates go
through the same proof and leave a non-zero residual.

Examples
--------
>>> pair_bounded().holds, neighbour_gap().holds
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _extended_precision, numeric, reference
from pe._machine_dependent import judged_within, on_site
from pe._tolerance import Tolerance, gamma
from pe.binary import binary_bits, bits_needed, log2_bits
from pe.claims import Candidate, Chapter, Check, Evidence, Method, by_proof, checked, within
from pe.error_models import ENTRY, GRAM_DISTANCE, OFFSET_DISTANCE
from pe.geometry import (
    closest_rows,
    one_pair_points,
    row_distance_by_offset,
    separation_floor,
    smallest_row_distance,
)
from pe.position_designs import (
    Design,
    LearnedPositions,
    normalised,
    normalised_index,
    offset_distances,
    position_share,
    raw_index,
    sinusoidal,
)
from pe.symbolic import Derivation, Proof, pair

chapter = Chapter(__name__, follows="why_order")
claim = chapter.claim

#: A pair of entries as a function of the position and the frequency, ``(p, w) -> 2-vector``.
Pair = Callable[[Any, Any], Any]

#: Design 2, the normalised index ``p / n``.
NORMALISED_INDEX = Candidate("p/n", normalised)

#: Positions probed far from the start: well past any training length.
FAR = np.array([0, 1, 10, 1_000, 10_000, 1_000_000, 10**9, 2**53])


def raw_share(p: Any, c: Any) -> Any:
    r"""The raw index's share of the squared norm of :math:`[e; p]`, :math:`p^2/(p^2 + c)`."""
    return p**2 / (p**2 + c)


def share_limit(share: Callable[[Any, Any], Any] = raw_share) -> Proof:
    r"""Prove :math:`\lim_{p\to\infty} \mathrm{share}(p, c) = 1` for every ``c > 0``.

    ``share(p, c)`` is the position's share of the squared norm with :math:`c = \lVert e
    \rVert^2`. For the raw index it is :func:`raw_share`. A wrong candidate, the share of
    one sine/cosine pair :math:`(\sin^2 + \cos^2)/(\sin^2 + \cos^2 + c)`, reduces by
    Pythagoras to :math:`1/(1 + c)` at every ``p``: the residual against 1 is not zero.

    Examples
    --------
    >>> share_limit().summary()
    "the position's share tends to 1: 3 steps, residual is exactly 0"
    """
    p = sp.Symbol("p", positive=True)
    c = sp.Symbol("c", positive=True)
    derivation = Derivation()
    expr = share(p, c)
    derivation.note("Share of the squared norm held by the position", sp.latex(expr))
    flat = sp.expand(sp.together(expr.subs(sp.sin(p) ** 2, 1 - sp.cos(p) ** 2)))
    limit = sp.limit(flat, p, sp.oo)
    pythagoras = "Substitute sin²p = 1 − cos²p (Pythagoras), then" if expr.has(sp.sin) else ""
    derivation.note(
        f"{pythagoras or 'Put over one denominator, then'} the limit as p → ∞",
        sp.latex(limit),
        calls=("together", "limit"),
    )
    residual = sp.Matrix([sp.together(limit - 1)])
    derivation.note("Residual: the limit minus 1", sp.latex(residual[0]))
    return derivation.proof(
        "the position's share tends to 1",
        r"\lim_{p \to \infty} \frac{p^2}{p^2 + \lVert e \rVert^2} = 1",
        residual,
    )


def _pair_share(p: Any, c: Any) -> Any:
    pair = sp.sin(p) ** 2 + sp.cos(p) ** 2
    return pair / (pair + c)


#: The share of one sine/cosine pair, :math:`(\sin^2 + \cos^2)/(\sin^2 + \cos^2 + c)`.
PAIR_SHARE = Candidate("a sine/cosine pair", _pair_share)

#: The sinusoidal encoding added to the embedding, in place of the raw index.
SINUSOIDAL_DESIGN = Candidate("e + PE(p) (sinusoidal)", sinusoidal)


def _share(design: Design) -> Evidence:
    share = position_share(design, [10, 100, 1000], 512)
    return checked(
        bool(share[-1] > 0.99),
        f"d=512, 1000 random embeddings: the position's share of the squared norm "
        f"is {share[0]:.3g}, {share[1]:.3g}, {share[2]:.4g} at p = 10, 100, 1000 (needs > 0.99 "
        "at p = 1000)",
    )


claim(
    "raw-index-dominates",
    "The raw index swamps the embedding",
    Check(by_proof(share_limit), true=raw_share, wrong=(PAIR_SHARE,)),
    Check(_share, true=raw_index, wrong=(SINUSOIDAL_DESIGN,)),
    statement=(
        r"\begin{gathered} \lim_{p\to\infty} \frac{p^2}{p^2 + \lVert e \rVert^2} = 1 \\"
        r" \text{the index's share of } \lVert [e;\,p] \rVert^2 \text{ tends to 1} \end{gathered}"
    ),
)


def one_over_n(n: Any) -> Any:
    """The neighbour gap :math:`1/n` of the normalised index (for a number or a SymPy symbol)."""
    return 1 / n


def neighbour_gap(
    gap: Callable[[Any], Any] = one_over_n, lengths: tuple[int, ...] = (4, 40)
) -> Proof:
    r"""Prove that neighbours differ by :math:`g(n) = 1/n` under the normalised index.

    The residual stacks :math:`(p+1)/n - p/n - g(n)` for a symbolic ``n`` and, for each
    length in ``lengths``, its value with that ``n`` substituted. ``gap`` is the law
    :math:`n \mapsto g(n)`; a wrong one (the same gap for every ``n``) fails.

    Examples
    --------
    >>> neighbour_gap(lengths=(4,)).holds
    True
    """
    p = sp.Symbol("p", integer=True, nonnegative=True)
    n = sp.Symbol("n", integer=True, positive=True)
    candidate = gap(n)
    derivation = Derivation()
    difference = (p + 1) / n - p / n
    derivation.note("Neighbour gap under the normalised index", r"\frac{p+1}{n} - \frac{p}{n}")
    residual = sp.Matrix([difference - candidate])
    residual = derivation.apply(
        "Residual against the gap, multiplied out", residual, sp.expand, calls=("expand",)
    )
    values = [sp.expand(difference.subs(n, m)) for m in lengths]
    derivation.note(
        "The gap in sentences of " + " and ".join(str(m) for m in lengths) + " tokens",
        r",\ ".join(rf"n = {m}:\ {sp.latex(v)}" for m, v in zip(lengths, values, strict=True)),
    )
    residual = sp.Matrix(
        [residual[0], *(sp.expand((difference - candidate).subs(n, m)) for m in lengths)]
    )
    return derivation.proof(
        "neighbour gap of the normalised index",
        r"\frac{p+1}{n} - \frac{p}{n} = \frac{1}{n}",
        residual,
    )


#: The same neighbour gap 1/4 for every sentence length.
CONSTANT_GAP = Candidate("gap 1/4 for every n", lambda _: sp.Rational(1, 4))

#: The gap :math:`1/(n-1)` (positions spread over [0, 1]).
GAP_ONE_OVER_N_MINUS_ONE = Candidate("gap 1/(n-1)", lambda n: 1 / (n - 1))


def _gaps(gap: Callable[[Any], Any]) -> Evidence:
    short, long = normalised_index(4), normalised_index(40)
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
        f"candidate gaps {expected[0]:.4g} and {expected[1]:.4g}: max error "
        f"{judged_within(error, gamma(4))}",
    )


claim(
    "normalised-index-gap",
    "Under $p/n$ the neighbour gap depends on the length",
    Check(by_proof(neighbour_gap), true=one_over_n, wrong=(CONSTANT_GAP,)),
    Check(_gaps, true=one_over_n, wrong=(GAP_ONE_OVER_N_MINUS_ONE,)),
    statement=(
        r"\begin{gathered} \frac{p+1}{n} - \frac{p}{n} = \frac{1}{n} \\"
        r" \tfrac14 = 0.25 \text{ for } n = 4,\quad \tfrac1{40} = 0.025 \text{ for } n = 40 \end{gathered}"
    ),
)


def pair_bounded(vector: Pair = pair) -> Proof:
    r"""Prove :math:`\sin^2 \omega p + \cos^2 \omega p = 1`: every pair lies on the unit circle.

    So every entry is in ``[-1, 1]`` and :math:`\lVert PE(p) \rVert^2 = d/2`. ``vector`` is
    the pair (:func:`pe.symbolic.pair`); a wrong candidate (the raw index ``p`` in place of
    the cosine) is not bounded.

    Examples
    --------
    >>> pair_bounded().summary()
    'each pair lies on the unit circle: 4 steps, residual is exactly 0'
    """
    p = sp.Symbol("p", real=True)
    w = sp.Symbol("omega", positive=True)
    v = sp.Matrix(vector(p, w))
    derivation = Derivation()
    residual = sp.Matrix([(v.T * v)[0] - 1])
    derivation.note("Residual: squared norm of the pair minus 1", sp.latex(residual[0]))
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "each pair lies on the unit circle",
        r"\sin^2 \omega_i p + \cos^2 \omega_i p = 1 \implies |PE(p, j)| \le 1",
        residual,
    )


def _raw_index_pair(p: Any, w: Any) -> Any:
    return sp.Matrix([sp.sin(w * p), p])


#: The raw index ``p`` in place of the cosine of a pair.
RAW_INDEX_PAIR = Candidate("raw index p in place of the cosine", _raw_index_pair)

#: Design 1, the raw index.
RAW_INDEX = Candidate("raw index at the same positions", raw_index)


def _bounded(design: Design) -> Evidence:
    table = design(FAR, FAR.size, 512)
    pairs = table[:, 0::2] ** 2 + table[:, 1::2] ** 2
    worst = float(np.abs(table).max())
    norm_error = float(np.abs(pairs - 1).max(initial=0.0))
    tolerance = Tolerance(
        2 * np.sqrt(2) * ENTRY() + gamma(2),
        r"2\sqrt2\,\delta + \gamma_2 \ (\delta: \text{pe's entry bound})",
    )
    return within(
        max(worst - 1.0, norm_error),
        tolerance,
        f"d=512, p up to 2^53: max |PE(p, j)| = {worst:.17g} (at most 1 + "
        f"{tolerance.value:.2g}: {'yes' if worst - 1.0 <= tolerance.value else 'no'}); "
        + (
            f"max |sin² + cos² − 1| over the {pairs.shape[1]} pairs "
            f"{judged_within(norm_error, tolerance.value)}"
            if pairs.shape[1]
            else "no pair of columns to test"
        ),
    )


claim(
    "encoding-bounded",
    "Bounded: every pair lies on the unit circle",
    Check(by_proof(pair_bounded), true=pair, wrong=(RAW_INDEX_PAIR,)),
    Check(_bounded, true=sinusoidal, wrong=(RAW_INDEX,)),
    statement=(
        r"\begin{gathered} \sin^2 \omega_i p + \cos^2 \omega_i p = 1 \\"
        r" \implies |PE(p, j)| \le 1 \text{ for every position } p \end{gathered}"
    ),
)

#: Offsets up to this far are compared by the uniqueness checks (``encoding-rows-distinct``).
UNIQUE_SPAN = 20_000

#: One sine/cosine pair alone (width 2): it comes back near itself.
SINGLE_PAIR = Candidate("one pair alone", 2)

#: All 256 pairs of d = 512: no offset brings the row back near itself.
ALL_PAIRS_512 = Candidate("all 256 pairs (d = 512)", 512)

#: Four pairs (width 8): offset 6283 brings the row closer than a neighbour.
FOUR_PAIRS = Candidate("four pairs (d = 8)", 8)


def _distinct(d_model: int) -> Evidence:
    """No two rows up to ``UNIQUE_SPAN`` positions apart are closer than neighbours."""
    offsets = np.arange(1, UNIQUE_SPAN + 1)
    distance = row_distance_by_offset(offsets, d_model)
    neighbours = float(distance[0])
    k = int(offsets[1:][np.argmin(distance[1:])])
    ok = bool(distance[1:].min() > neighbours)
    detail = (
        f"d={d_model}: neighbours are {neighbours:.6g} apart; the closest rows 2..{UNIQUE_SPAN} "
        f"positions apart are {distance[1:].min():.6g} apart (offset {k})"
    )
    if d_model < 64:
        return checked(ok, detail + " (needs every other offset farther than neighbours)")
    # the minimum over all pairs is the neighbours' distance itself, up to the Gram matrix's rounding
    brute, p, q = smallest_row_distance(4096, d_model)
    rounding = GRAM_DISTANCE.tolerance(d_model, brute)
    return checked(
        ok,
        f"{detail}; brute force over all pairs of p < 4096: {brute:.6g} "
        f"({on_site(f'p = {p}, q = {q}', 'two neighbours')}; needs "
        "every other offset farther than neighbours, and no pair closer than neighbours by more "
        f"than the Gram matrix's rounding {rounding.value:.2g})",
        error=max(neighbours - brute, 0.0),
        tolerance=rounding,
    )


def _single_pair_repeats(d_model: int) -> Evidence:
    offsets = np.arange(1, UNIQUE_SPAN + 1)
    distance = row_distance_by_offset(offsets, d_model)
    k = int(offsets[np.argmin(distance)])
    return checked(
        distance.min() < 1e-4,
        f"d={d_model} ({'pair 0 alone' if d_model == 2 else f'{d_model // 2} pairs'}): within "
        f"{UNIQUE_SPAN} positions it comes back within {distance.min():.2g} of itself at "
        f"offset {k} (needs < 1e-4)",
    )


def _some_closer(d_model: int) -> Evidence:
    """Some two rows 2 to ``UNIQUE_SPAN`` positions apart are closer than neighbours."""
    offsets = np.arange(1, UNIQUE_SPAN + 1)
    distance = row_distance_by_offset(offsets, d_model)
    k = int(offsets[1:][np.argmin(distance[1:])])
    return checked(
        bool(distance[1:].min() < distance[0]),
        f"d={d_model}: neighbours are {distance[0]:.4g} apart; rows {k} positions apart are "
        f"{distance[1:].min():.4g} apart (needs some offset of 2..{UNIQUE_SPAN} closer than "
        "neighbours)",
    )


claim(
    "encoding-rows-distinct",
    "Unique: each position has its own vector (with many frequencies)",
    Check(_distinct, true=512, wrong=(SINGLE_PAIR, FOUR_PAIRS)),
    Check(_single_pair_repeats, true=SINGLE_PAIR.value, wrong=(ALL_PAIRS_512,)),
    Check(_some_closer, true=FOUR_PAIRS.value, wrong=(ALL_PAIRS_512,)),
    statement=(
        r"\begin{gathered} d = 512:\ \lVert PE(p) - PE(q) \rVert > \lVert PE(1) - PE(0)"
        rf" \rVert \text{{ for }} 2 \le |p - q| \le {UNIQUE_SPAN} \\"
        r" \text{(no two rows closer than neighbours);} \\"
        r" d = 8 \text{ (four pairs): some two rows within that span are closer} \\"
        r" \text{one pair alone comes within } 10^{-4} \text{ of itself} \end{gathered}"
    ),
)


def _log2_rounded_down(n: int) -> int:
    return n.bit_length() - 1


#: :math:`\lfloor \log_2 n \rfloor` bits: one too few unless ``n`` is a power of two.
LOG2_ROUNDED_DOWN = Candidate("⌊log₂ n⌋ bits", _log2_rounded_down)

#: A pair turning a rational fraction of a full turn per position (``2π/8``): it repeats.
RATIONAL_TURN = Candidate("ω = 2π/8, a rational fraction of a turn", np.pi / 4)


#: The sizes at which the fewest bits are found by trying: both sides of 8 and of 1024.
BITS_SIZES = (2, 3, 8, 9, 1000, 1024, 1025)


def _bits(law: Callable[[int], int]) -> Evidence:
    found = {n: bits_needed(n) for n in BITS_SIZES}
    closest = closest_rows(binary_bits(1000, found[1000]))[2]
    return checked(
        all(law(n) == bits for n, bits in found.items()) and closest >= 1,
        "fewest bits that tell 0..n-1 apart, found by trying (the law's count): "
        + ", ".join(f"n={n}: {bits} ({law(n)})" for n, bits in found.items())
        + f": {'the same' if all(law(n) == b for n, b in found.items()) else 'differs'}"
        + f"; closest codes of 0..999 at distance {closest:g}",
    )


#: The positions 0 .. ONE_PAIR_POSITIONS - 1 at which one pair's points are compared.
ONE_PAIR_POSITIONS = 1000


def _one_pair(omega: float) -> Evidence:
    gap = closest_rows(one_pair_points(ONE_PAIR_POSITIONS, omega))[2]
    floor = separation_floor(ONE_PAIR_POSITIONS, omega)
    # the distance of two points k apart is 2|sin(ωk/2)| whatever p: the smallest offset as
    # close as the closest points, within the rounding floor (a period, if the pair repeats)
    k = np.arange(1, ONE_PAIR_POSITIONS)
    offset = int(k[np.argmax(2 * np.abs(np.sin(omega * k / 2)) <= gap + floor)])
    return checked(
        floor < gap < 1e-4,
        f"one pair, ω = {omega:.4g}, p = 0..{ONE_PAIR_POSITIONS - 1}: the closest points found "
        f"lie at distance {gap:.2g}; the smallest offset that close is k = {offset} (the "
        f"distance 2|sin(ωk/2)| depends on the offset only, so every pair k apart is as "
        f"close); distinct (above the rounding floor {floor:.2g}): "
        f"{'yes' if gap > floor else 'no'}; close (below 1e-4): {'yes' if gap < 1e-4 else 'no'}",
    )


claim(
    "continuous-fewer-numbers",
    "Fewer numbers than bits, but less margin between positions",
    Check(_bits, true=log2_bits, wrong=(LOG2_ROUNDED_DOWN,)),
    Check(_one_pair, true=1.0, wrong=(RATIONAL_TURN,)),
    statement=(
        r"\begin{gathered} \text{a binary code of } n \text{ positions needs }"
        r" \lceil \log_2 n \rceil \text{ bits (found by trying at } n = "
        + ", ".join(map(str, BITS_SIZES))
        + r"\text{), its codes at least 1 apart;} \\"
        r" \text{one pair } (\sin p, \cos p) \text{ gives each } p = 0, \dots,"
        + f" {ONE_PAIR_POSITIONS - 1}"
        + r" \text{ its own point,} \\ \text{but two of those points lie within }"
        r" 10^{-4} \end{gathered}"
    ),
)


def offset_distance(vector: Pair = pair) -> Proof:
    r"""Prove :math:`\lVert v(p+k) - v(p)\rVert^2 = 2 - 2\cos\omega k` for one pair, free of ``p``.

    ``vector`` is the pair :math:`v(p) = (\sin\omega p, \cos\omega p)`
    (:func:`pe.symbolic.pair`); a wrong candidate whose cosine turns at another frequency
    keeps ``p`` in the residual.

    Examples
    --------
    >>> offset_distance().holds
    True
    """
    p, k = sp.Symbol("p", real=True), sp.Symbol("k", real=True)
    w = sp.Symbol("omega", positive=True)
    diff = sp.Matrix(vector(p + k, w) - vector(p, w))
    derivation = Derivation()
    derivation.note(
        "Residual: squared distance between the pair at p + k and at p, minus 2 − 2 cos ωk",
        rf"\lVert {sp.latex(diff)} \rVert^2 - (2 - 2\cos \omega k)",
    )
    residual = sp.Matrix([(diff.T * diff)[0] - (2 - 2 * sp.cos(w * k))])
    residual = derivation.apply(
        "Multiply out and expand the arguments", residual, sp.expand, calls=("expand",)
    )
    residual = derivation.apply(
        "Angle-addition formulas", residual, sp.expand_trig, calls=("expand_trig",)
    )
    residual = derivation.pythagoras(residual)
    return derivation.proof(
        "the same offset looks the same at every position",
        r"\lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i} \bigl(2 - 2\cos \omega_i k\bigr)",
        residual,
    )


def _doubled_cosine_pair(p: Any, w: Any) -> Any:
    return sp.Matrix([sp.sin(w * p), sp.cos(2 * w * p)])


#: A pair whose cosine turns at twice the sine's frequency.
DOUBLED_COSINE_PAIR = Candidate("cosine at twice the sine's frequency", _doubled_cosine_pair)


def _offsets(design: Design) -> Evidence:
    offsets, starts, lengths = np.array([1, 5, 50]), np.arange(0, 1000, 7), (4, 40)
    expected = row_distance_by_offset(offsets, 512)
    rounding = OFFSET_DISTANCE(offsets, 512)
    ratio = max(
        float(
            (np.abs(offset_distances(design, offsets, starts, 512, n) - expected) / rounding).max()
        )
        for n in lengths
    )
    return within(
        ratio,
        OFFSET_DISTANCE.per_entry("per offset"),
        f"d=512: ||PE(p+k) − PE(p)|| for k in ({', '.join(map(str, offsets.tolist()))}), "
        f"{starts.size} starts p, sentences of {lengths[0]} and {lengths[1]} "
        f"tokens, against sqrt(Σ(2 − 2cos ω_i k)): worst difference / tolerance {ratio:.2g} "
        f"(tolerances {', '.join(f'{t:.2g}' for t in rounding)})",
    )


claim(
    "offset-distance-position-free",
    "The same offset looks the same everywhere",
    Check(by_proof(offset_distance), true=pair, wrong=(DOUBLED_COSINE_PAIR,)),
    Check(_offsets, true=sinusoidal, wrong=(NORMALISED_INDEX,)),
    statement=(
        r"\begin{gathered} \lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i=0}^{d/2-1} \bigl(2 - 2\cos \omega_i k\bigr) \\"
        r" \text{no } p \text{ and no sentence length in it} \end{gathered}"
    ),
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


claim(
    "encoding-independent-of-length",
    "A position's vector does not depend on the sentence length",
    Check(_independent_of_length, true=sinusoidal, wrong=(NORMALISED_INDEX,)),
    statement=r"PE(p) \text{ is the same row in a sentence of 4 tokens and one of 40}",
)


#: A learned table of 512 rows: no row for a later position.
LEARNED_TABLE = Candidate(
    "a learned table of 512 rows",
    lambda positions, _n, d_model: LearnedPositions(512, d_model).lookup(positions),
)


def _float64_angles(positions: Any, _n: int, d: int) -> npt.NDArray[np.float64]:
    return np.asarray(numeric.sinusoidal_direct(np.abs(positions), d), dtype=np.float64)


#: The formula with its angles formed in float64: defined everywhere, off by order one at 2^53.
FLOAT64_ANGLES_DESIGN = Candidate("angles formed in float64", _float64_angles)


def _any_position(design: Design) -> Evidence:
    try:
        values = design(FAR, FAR.size, 64)
    except ValueError:
        return checked(False, f"position {int(FAR.max())} has no row")
    error = float(np.abs(values - reference.table(FAR.tolist(), 64)).max())
    bound = ENTRY.tolerance()
    return within(
        error,
        bound,
        f"d=64, p in {{0, 1, 10, 1e3, 1e4, 1e6, 1e9, 2^53}}: largest error against 50-digit "
        f"mpmath {error:.3g} (bound {bound.value:.3g})",
    )


claim(
    "encoding-any-position",
    "Defined for any position, with no table to run out of",
    Check(_any_position, true=sinusoidal, wrong=(LEARNED_TABLE, FLOAT64_ANGLES_DESIGN)),
    statement=(
        r"\begin{gathered} PE(p, j) \text{ is computed from } p \text{ for any } p \le 2^{53}"
        r" \text{ within } 4.9 \times 10^{-16} \text{ of the exact value} \\ \text{(the bound"
        r" derived with NumPy's sine and cosine within }"
        rf" {_extended_precision.LIBRARY_SINE_ULPS:g} \text{{ ulp, as measured;}} \\ \text{{measured"
        r" at } d = 64 \text{ and } p \in \{0, 1, 10, 10^3, 10^4, 10^6, 10^9, 2^{53}\})"
        r"\end{gathered}"
    ),
)


def _rotated_from_first(positions: Any, _n: int, d: int) -> npt.NDArray[np.float64]:
    ps = np.abs(np.asarray(positions, dtype=np.int64))
    first = numeric.sinusoidal(ps[:1], d)[0]
    angle = np.multiply.outer((ps - ps[0]).astype(np.float64), numeric.frequencies(d))
    sin0, cos0 = first[0::2], first[1::2]
    rows = np.empty((ps.size, d))
    rows[:, 0::2] = sin0 * np.cos(angle) + cos0 * np.sin(angle)
    rows[:, 1::2] = cos0 * np.cos(angle) - sin0 * np.sin(angle)
    return rows


#: Rows rotated from the first requested row: right to rounding, but the bits depend on
#: which position came first.
ROTATED_FROM_FIRST = Candidate("rows rotated from the first one asked for", _rotated_from_first)


#: The positions of the determinism check: a sentence's 0 .. 63, and far rows in other
#: blocks of the rotation algorithm.
DETERMINISM_POSITIONS = (*range(64), 1000, 123_457, 10**6, 2**40 + 3)
#: Rows of the large call of the determinism check: 2^20 entries at d = 512.
LARGE_ROWS = 2048


def _deterministic(design: Design) -> Evidence:
    """Same bits for the same positions: twice, in shuffled order, and in a shorter call."""
    positions = np.array(DETERMINISM_POSITIONS)
    n = positions.size
    first, again = design(positions, n, 512), design(positions, n, 512)
    shuffled = np.random.default_rng(3).permutation(n)
    reordered = design(positions[shuffled], n, 512)
    shorter = design(positions[:40], 40, 512)
    alone = np.concatenate([design(positions[i : i + 1], 1, 512) for i in range(n)])
    # a table of 2^20 entries, large enough for pe to split it between threads
    large = design(np.arange(LARGE_ROWS), LARGE_ROWS, 512)
    mixed = np.random.default_rng(5).permutation(LARGE_ROWS)
    large_shuffled = design(mixed, LARGE_ROWS, 512)
    same = bool(
        np.array_equal(first, again)
        and np.array_equal(first[shuffled], reordered)
        and np.array_equal(first[:40], shorter)
        and np.array_equal(first, alone)
        and np.array_equal(first[:64], large[:64])
        and np.array_equal(first[64], large[1000])
        and np.array_equal(large[mixed], large_shuffled)
    )
    return checked(
        same,
        f"d=512, positions 0..63 and {', '.join(str(p) for p in DETERMINISM_POSITIONS[64:])}: a "
        "second call, a call in shuffled order, a call for the first 40 positions of a 40-token "
        f"sentence, one call per row and a {LARGE_ROWS}-row table (against these rows, and "
        "every row against the same table asked in shuffled order) "
        f"{'agree bit for bit' if same else 'differ'}",
    )


claim(
    "encoding-deterministic",
    "Deterministic: a function of the position alone",
    Check(_deterministic, true=sinusoidal, wrong=(ROTATED_FROM_FIRST, NORMALISED_INDEX)),
    statement=(
        r"\begin{gathered} PE(p) \text{ depends only on } (p, d, \text{base}) \\"
        r" \text{same bits in any call, any order and any sentence length (float64,"
        r" checked up to a threaded table of } 2^{20} \text{ entries)} \end{gathered}"
    ),
)


def _same_value(positions: tuple[tuple[int, int], ...]) -> Evidence:
    """Do the ``(p, n)`` of ``positions`` all give the normalised index ``p / n`` the same
    value? Exact, in rationals."""
    values = [sp.Rational(p, n) for p, n in positions]
    return Evidence(
        Method.SYMPY,
        len(set(values)) == 1,
        "p/n: "
        + ", ".join(f"{p}/{n} = {v}" for (p, n), v in zip(positions, values, strict=True))
        + f"; one value for all: {'yes' if len(set(values)) == 1 else 'no'}",
    )


claim(
    "normalised-index-ambiguous",
    "The normalised index gives different positions the same value",
    Check(
        _same_value,
        true=((1, 4), (10, 40)),
        wrong=(Candidate("position 1 in both sentences", ((1, 4), (1, 40))),),
    ),
    statement=r"\tfrac{1}{4} = \tfrac{10}{40} = 0.25:\ \text{position 1 of 4 and position 10 of 40}",
)


claim(
    "d2l-continuous-thriftier",
    "Dive into Deep Learning: continuous codes take less space than binary ones",
    statement=(
        r"\text{Zhang et al. (Dive into Deep Learning), after comparing the frequencies with"
        r" binary bits: continuous representations are more space-efficient than binary ones}"
    ),
    source="zhang2023",
)

claim(
    "vaswani-embedding-scaling",
    "The paper scales its embedding weights by the square root of the width",
    statement=(
        r"\text{Vaswani et al. (2017), Section 3.4: in the embedding layers the weights are"
        r" multiplied by } \sqrt{d_{\text{model}}}\text{; no initialisation of them is stated}"
    ),
    source="vaswani2017",
)
