"""Claims of the page "The sinusoidal encoding" (docs/sinusoidal-encoding.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import numpy.typing as npt
import sympy as sp

from pe import _rotation_table, from_scratch, numeric, reference
from pe._tolerance import (
    EPS64,
    FREQUENCY_ROUNDING,
    Tolerance,
    gamma,
    phase_tolerance,
    power_rounding,
)
from pe.claims import Chapter, Check, Evidence, at_most, by_proof, checked, within
from pe.experiments import failed_designs
from pe.experiments import sinusoidal_encoding as facts
from pe.proofs import sinusoidal_encoding as proofs
from pe.proofs import wrong
from pe.proofs.wrong import Candidate

claim = Chapter("sinusoidal-encoding").claim
#: The width of every check (the paper's base model).
D = 512
U = EPS64 / 2
#: Relative error of pe.numeric.frequencies (correctly rounded).
R_OMEGA = FREQUENCY_ROUNDING
#: pe's bound on every entry of its float64 table (:mod:`pe._rotation_table`).
DELTA = _rotation_table.ENTRY_ERROR_BOUND

#: A table-making function ``(n, d) -> (n, d)``.
Table = Callable[[int, int], npt.NDArray[np.float64]]


def _columns(pairs: range) -> Evidence:
    """Do the pair indices ``pairs`` account for the columns of pe's table, each once?"""
    census = facts.pair_column_census(pairs, D)
    return checked(
        census.matched == len(pairs) and census.missing == 0 and census.each_column_once,
        f"pe's table, d={D}, has {census.columns} columns; pairs i = {pairs.start}.."
        f"{pairs.stop - 1}: {census.matched} are sin, cos(p 10000^(-2i/d)) in columns 2i, 2i+1 "
        f"(within 8 eps, p < 8), {census.missing} have no columns; every column written once: "
        f"{'yes' if census.each_column_once else 'no'}",
    )


def _wavelengths(law: proofs.WavelengthLaw) -> Evidence:
    lam = facts.wavelengths(D)
    ratios = lam[1:] / lam[:-1]
    d = sp.Symbol("d", integer=True, positive=True)
    expected_last = float(sp.lambdify(d, law.last(d), "numpy")(D))
    ratio_error = float(np.abs(ratios / 10000.0 ** (2 / D) - 1).max())
    last_error = abs(lam[-1] / expected_last - 1)
    first_error = abs(lam[0] / (2 * np.pi) - 1)
    # each wavelength: a frequency and 2 pi / omega, so R_OMEGA + 2u; a ratio of two, a
    # power and a quotient: at most three such errors
    rounding = Tolerance(
        3 * (R_OMEGA + 2 * U), r"3(r_\omega + 2u),\ r_\omega = u \text{ (relative)}"
    )
    return within(
        max(ratio_error, last_error, first_error),
        rounding,
        f"d={D}: λ_0 = {lam[0]:.6f}, λ_255 = {lam[-1]:.1f} against {law.last_text} = "
        f"{expected_last:.1f} (relative error {last_error:.2g}); consecutive ratios "
        f"within {ratio_error:.2g} of 10000^(2/d) (relative tolerance {rounding.value:.2g})",
    )


def _shifted_one_step(frequencies: npt.NDArray[np.float64]) -> Evidence:
    """Are ``frequencies`` the paper's shifted by one step, ending at 10000^(-1)?"""
    paper = numeric.frequencies(D)
    error = float(np.abs(frequencies[:-1] / paper[1:] - 1).max())
    extra = abs(frequencies[-1] / 1e-4 - 1)
    exponent = round(float(np.log(frequencies[0]) / np.log(10000.0)) * D)
    return within(
        max(error, extra),
        Tolerance(R_OMEGA + power_rounding(D) + U, r"u + r_{\text{pow}} + u \text{ (relative)}"),
        f"d={D}: the 1-indexed pair i is the paper's pair i + 1 (max relative difference "
        f"{error:.3g}); its highest frequency is {frequencies[0]:.6f} = 10000^({exponent}/d), "
        f"its lowest {frequencies[-1]:.3g}",
    )


def _refinement(d_model: int, factor: int) -> Evidence:
    small, large = numeric.frequencies(d_model), numeric.frequencies(2 * d_model)
    error = float(np.abs(small / large[::factor][: small.size] - 1).max())
    picked = {1: "the first half", 2: "every second"}.get(factor, f"every {factor}-th")
    rounding = 2 * FREQUENCY_ROUNDING + U
    return within(
        error,
        Tolerance(rounding, r"2 r_\omega + u \text{ (relative)}"),
        f"d={d_model} vs d={2 * d_model}: {picked} frequency of the wider table, max "
        f"difference {error:.2g}",
    )


def _inserted(counts: tuple[int, int]) -> Evidence:
    """Where doubling d = 512 puts the new frequencies: ``counts`` = (between, slower)."""
    small, large = numeric.frequencies(D), numeric.frequencies(2 * D)
    new = large[1::2]
    between = int(np.sum((new[:-1] < small[:-1]) & (new[:-1] > small[1:])))
    slower = int(np.sum(new < small[-1]))
    spans = [(float(f[0]), float(f[-1])) for f in (small, large)]
    in_range = all(
        top == 1.0
        and bottom > 1e-4
        and abs(bottom / 10000.0 ** (-(w - 2) / w) - 1)
        <= FREQUENCY_ROUNDING + power_rounding(w) + EPS64
        for (top, bottom), w in zip(spans, (D, 2 * D), strict=True)
    )
    return checked(
        (between, slower) == counts and in_range,
        f"d={D} -> {2 * D}: of the {new.size} new frequencies, {between} lie strictly between "
        f"neighbouring old ones and {slower} below the old slowest (stated: {counts[0]} and "
        f"{counts[1]}); both widths span 1 down to {spans[0][1]:.4g} and {spans[1][1]:.4g}, "
        f"= 10000^(-(d-2)/d) > 10000^-1: {'yes' if in_range else 'no'}",
    )


def _worked_example(table: Table) -> Evidence:
    sentence = facts.WORKED_SENTENCE
    exact = reference.table(range(len(sentence)), D)
    values = table(len(sentence), D)
    error = float(np.abs(values - exact).max())
    return within(
        error,
        Tolerance(DELTA, r"\delta = 2\sqrt2\,\delta_{\text{anchor}} + 3 \cdot 2^{-54}"),
        f"'My name is RK', d={D}, all 4 x 512 entries of {table.__module__}.{table.__qualname__} "
        f"against 50-digit mpmath: max error {error:.2g} (tolerance {DELTA:.2g}); "
        f"PE(1,256) = {values[1, 256]:.6f}",
    )


def _least_periods(periods: tuple[int, ...]) -> Evidence:
    ok = facts.least_periods(facts.binary_bits(1024, 4)) == periods
    return checked(
        ok, f"bits 0-3 of 0..1023 have least periods {', '.join(map(str, periods))}: {ok}"
    )


def _ratio_two(base: int) -> Evidence:
    width, even_integer = facts.ratio_equals_two_width(base)
    return checked(
        not even_integer,
        f"base {base}: consecutive wavelengths double only at d = {sp.sstr(width)} "
        f"= {float(width):.4f}, {'an even width' if even_integer else 'not an even integer'}",
    )


def _steps(factor: float) -> Evidence:
    table = numeric.sinusoidal(10_001, D)
    omega = np.repeat(numeric.frequencies(D), 2)[None, :]
    steps = np.abs(np.diff(table, axis=0))
    label = "ω_i" if factor == 1.0 else f"{factor:g} ω_i"
    # two entries within DELTA, their difference rounded (at most 2), the bound's frequency
    rounding = Tolerance(2 * DELTA + 2 * U + R_OMEGA, r"2\delta + 2u + r_\omega")
    return at_most(
        float((steps - factor * omega).max()),
        0.0,
        rounding,
        f"d={D}, p < 10001: max |PE(p+1, j) − PE(p, j)| / {label} = "
        f"{float((steps / (factor * omega)).max()):.4f} (needs <= 1 up to rounding); "
        "a bit jumps by 1 at every flip",
    )


def _finite_means(shift: float) -> Evidence:
    worst, sizes = 0.0, (4, 100, 1000)
    for n in sizes:
        measured = facts.column_means(n, D)
        closed = facts.column_means_exact(n, D, shift=shift)
        worst = max(worst, float(np.abs(measured - closed).max()))
    label = f"n − {shift:g}" if shift else "n"
    # n entries within DELTA, summed (at most n) and divided by n; the exact form rounded once
    n = max(sizes)
    rounding = Tolerance(DELTA + gamma(n) + U, r"\delta + \gamma_n + u,\ n = 1000")
    return within(
        worst,
        rounding,
        f"d={D}, n in (4, 100, 1000): measured column means against the closed form with "
        f"{label} (40-digit mpmath): max difference {worst:.2g} (tolerance {rounding.value:.2g})",
    )


def _costs(rhs: proofs.Projection) -> Evidence:
    cost = facts.projection_cost(D)
    rng = np.random.default_rng(0)
    e, q = rng.standard_normal(D), rng.standard_normal(D)
    w = rng.standard_normal((D, 2 * D))
    x = np.concatenate([e, q])
    error = float(np.abs(w @ x - rhs(w[:, :D], w[:, D:], e, q)).max())
    ratio = cost["weights_concat"] / cost["weights_add"]
    # a dot product of length 2d on the left, two of length d and a sum on the right
    magnitude = float((np.abs(w) @ np.abs(x)).max())
    rounding = Tolerance(
        (gamma(2 * D) + gamma(D + 1)) * magnitude, r"(\gamma_{2d} + \gamma_{d+1}) \max |W||x|"
    )
    return checked(
        ratio == 2,
        f"d={D}: a 512-output projection has {cost['weights_add']} weights after adding and "
        f"{cost['weights_concat']} after concatenating (ratio {ratio:g}); W[e; q] − "
        f"({proofs.projection_text(rhs)}) = {error:.{2 if error < 1 else 3}g} (tolerance "
        f"{rounding.value:.2g})",
        error=error,
        tolerance=rounding,
    )


def _stream_matrices(readers: tuple[str, ...]) -> Evidence:
    """Which matrices of an encoder layer read the stream (from a forward pass), and a 2d stream."""
    added, concatenated = facts.layer_matrices(D), facts.layer_matrices(2 * D)
    reading = tuple(n for n, use in added.items() if use.reads_stream)
    writing = tuple(n for n, use in added.items() if use.writes_stream)
    sizes = {n: (np.prod(added[n].shape), np.prod(concatenated[n].shape)) for n in added}
    extra = sum(int(b - a) for a, b in sizes.values())
    doubled = all(b == 2 * a for a, b in sizes.values())
    return checked(
        reading == readers and doubled,
        f"d={D}, d_ff=2048, forward pass of one encoder layer: matrices reading the stream "
        f"{', '.join(reading)} (stated: {', '.join(readers)}); writing it {', '.join(writing)}; "
        f"a {2 * D}-wide stream adds {extra:,} weights per layer, doubling every matrix: "
        f"{'yes' if doubled else 'no'}",
    )


def _embedding_scale(init_std: float) -> Evidence:
    """Entries of sqrt(d) E for an embedding table E drawn with standard deviation init_std."""
    scaled = np.sqrt(D) * facts.random_embeddings(2000, D) * init_std
    rms = float(np.sqrt((scaled**2).mean()))
    return checked(
        abs(rms - 1) <= 0.05,
        f"d={D}, 2000 x {D} entries drawn with std {init_std:.4g}, times sqrt(d): root mean "
        f"square {rms:.4g} (size about 1: within 5%)",
    )


def _orthogonal(embeddings: facts.Embeddings) -> Evidence:
    cosines = facts.cosine_embedding_encoding(embeddings(1000, D, 7))
    std, mean = float(cosines.std()), float(cosines.mean())
    q99 = float(np.quantile(np.abs(cosines), 0.99))
    ok = abs(std * np.sqrt(D) - 1) <= 0.05 and abs(mean) <= 0.01 and q99 <= 3.5 / np.sqrt(D)
    return checked(
        ok,
        f"d={D}, 1000 {embeddings.__name__.replace('_', ' ')} x 200 positions: cosine mean "
        f"{mean:.3g}, std {std:.4f} (1/sqrt(d) = {1 / np.sqrt(D):.4f}), 99% of |cos| below "
        f"{q99:.3f} (needs std within 5% of 1/sqrt(d), |mean| <= 0.01, 99% quantile <= "
        "3.5/sqrt(d))",
    )


def _past_base(frequencies: npt.NDArray[np.float64]) -> Evidence:
    distance = facts.rows_distance_past(D, horizon=10_000, frequencies=frequencies)
    neighbours = float(facts.neighbour_distance(D))
    # rows from float64 angles below 2 10^4 (phase model), distances from the Gram matrix or
    # from sum(2 - 2 cos w k) for k < 2 10^4: the larger of the two models
    entry = float(phase_tolerance(EPS64, 1.0, 20_000))
    rounding = max(
        failed_designs.gram_distance_rounding(D, neighbours, entry),
        float(failed_designs.offset_distance_rounding([19_999], D)[0]),
    )
    return at_most(
        neighbours - distance,
        0.0,
        Tolerance(
            rounding, r"\text{Gram distance of rows within } 4\varepsilon + 4\varepsilon\,\omega p"
        ),
        f"d={D}: smallest distance between a row before 10000 and a row from 10000 on is "
        f"{distance:.6g} (brute force on 1000 x 1000 rows and all offsets up to 20000); "
        f"neighbours are {neighbours:.6g} apart (needs at least that, up to rounding "
        f"{rounding:.2g})",
    )


def _subspace(embeddings: facts.Embeddings) -> Evidence:
    rank, share = facts.encoding_subspace_share(200, D, embeddings=embeddings(1000, D, 11))
    expected = rank / D
    return checked(
        abs(share / expected - 1) <= 0.1,
        f"d={D}: the rows PE(0..199) span r = {rank} directions (singular values above 1e-3 "
        f"of the largest); {embeddings.__name__.replace('_', ' ')} put {share:.3f} of their "
        f"squared norm there, r/d = {expected:.3f} (needs within 10%)",
    )


def _from_scratch(make: Table) -> Evidence:
    worst = facts.from_scratch_gap(make)
    return within(
        worst,
        Tolerance(1.0, r"\varepsilon + \delta + (r_\omega + u)\,p\,\omega_i \text{ per entry}"),
        f"(n, d) in (2048, {D}), (1000, 64), (50, 8): largest |gap| / (eps + δ + (r_ω + u) p w_i) "
        f"= {worst:.3g} (needs <= 1)",
    )


CLAIMS = (
    claim(
        "pair-index-range",
        r"The pair index runs over $0 \le i < d/2$",
        Check(
            _columns,
            true=range(D // 2),
            wrong=(wrong.ONE_INDEXED_PAIRS, wrong.PAIRS_AS_COLUMNS, wrong.INCLUSIVE_PAIRS),
        ),
        statement=(
            r"\begin{gathered} \{2i, 2i+1 : 0 \le i < d/2\} = \{0, 1, \dots, d-1\} \\"
            r" d/2 \text{ pairs, each column once} \end{gathered}"
        ),
    ),
    claim(
        "wavelength-progression",
        r"Wavelengths: a geometric progression from $2\pi$ to just under $2\pi \cdot 10000$",
        Check(
            by_proof(proofs.wavelength_progression),
            true=proofs.PAPER_WAVELENGTHS,
            wrong=(wrong.LAST_WAVELENGTH_2PI_BASE, wrong.DOUBLED_EXPONENT_WAVELENGTHS),
        ),
        Check(_wavelengths, true=proofs.PAPER_WAVELENGTHS, wrong=(wrong.LAST_WAVELENGTH_2PI_BASE,)),
        statement=(
            r"\begin{gathered} \lambda_i = 2\pi\cdot 10000^{2i/d},\quad \lambda_{i+1} / \lambda_i = 10000^{2/d} \\"
            r" \lambda_{d/2-1} = 2\pi\cdot 10000^{(d-2)/d} = 2\pi\cdot 10000 \cdot 10000^{-2/d} \end{gathered}"
        ),
    ),
    claim(
        "one-indexed-frequencies-shifted",
        "The 1-indexed convention shifts the frequencies by one step",
        Check(
            _shifted_one_step,
            true=facts.one_indexed_frequencies(D),
            wrong=(Candidate("the paper's frequencies", numeric.frequencies(D)),),
        ),
        statement=(
            r"\begin{gathered} W_p[2i-1, t] = \sin(t\,/\,10000^{2i/d}),\ 0 < i \le d/2 \\"
            r" \text{frequencies } 10000^{-2/d}, \dots, 10000^{-1} \\"
            r" \text{instead of } 1, \dots, 10000^{-(d-2)/d} \end{gathered}"
        ),
    ),
    claim(
        "base-is-not-a-length",
        "10000 is a timescale, not a maximum length",
        Check(_past_base, true=numeric.frequencies(D), wrong=(wrong.WHOLE_TURNS_PER_BASE,)),
        statement=(
            r"\begin{gathered} d = 512:\ \lVert PE(p) - PE(q) \rVert \ge \lVert PE(1) - PE(0)"
            r" \rVert \\ \text{for } p < 10000 \le q < 20000 \\"
            r" \text{positions past 10000 get new vectors} \end{gathered}"
        ),
    ),
    claim(
        "width-refines-frequencies",
        "The width is a choice: doubling it keeps every frequency",
        Check(by_proof(proofs.width_refinement), true=2, wrong=(wrong.SAME_INDEX_WIDER,)),
        Check(partial(_refinement, 256), true=2),
        Check(partial(_refinement, 512), true=2, wrong=(wrong.SAME_INDEX_WIDER,)),
        Check(_inserted, true=(D // 2 - 1, 1), wrong=(wrong.ONLY_BETWEEN,)),
        statement=(
            r"\begin{gathered} \omega_i^{(d)} = \mathrm{base}^{-2i/d} = \omega_{2i}^{(2d)};"
            r" \text{ the new } \omega_{2i+1}^{(2d)} \text{ lie between neighbours,} \\"
            r" \text{ the last one } \omega_{d-1}^{(2d)} \text{ below the old slowest};"
            r" \text{ every width spans } 1 \text{ to } \mathrm{base}^{-(d-2)/d}"
            r" > \mathrm{base}^{-1} \end{gathered}"
        ),
    ),
    claim(
        "worked-example-my-name-is-rk",
        'The worked example "My name is RK", $d = 512$',
        Check(
            _worked_example,
            true=numeric.sinusoidal,
            wrong=(wrong.DOUBLED_EXPONENT_TABLE, wrong.ONE_INDEXED_TABLE),
        ),
        statement=(
            r"\begin{gathered} PE(0) = [0, 1, 0, 1, \dots] \\"
            r" PE(1,0) = \sin 1,\quad PE(1,1) = \cos 1 \\"
            r" PE(1,256) = \sin\tfrac{1}{100} \\"
            r" PE(1,511) = \cos 10000^{-510/512} \approx 1 \end{gathered}"
        ),
    ),
    claim(
        "binary-bits-periods",
        "Binary counter: bit $b$ flips with period $2^{b+1}$",
        Check(
            _least_periods,
            true=(2, 4, 8, 16),
            wrong=(Candidate("periods 2^b", (1, 2, 4, 8)),),
        ),
        statement=(
            r"\begin{gathered} \bigl\lfloor p / 2^b \bigr\rfloor \bmod 2 \text{ has least period } 2^{b+1} \\"
            r" 2, 4, 8, 16 \text{ for } b = 0, 1, 2, 3 \end{gathered}"
        ),
    ),
    claim(
        "wavelength-ratio-not-two",
        "Unlike bits, consecutive wavelengths never double",
        Check(_ratio_two, true=10000, wrong=(Candidate("base 2^13", 2**13),)),
        statement=(
            r"\begin{gathered} 10000^{2/d} = 2 \iff d = 2\log_2 10000 = 8 + 8\log_2 5 \approx 26.58 \\"
            r" \text{not an even integer} \end{gathered}"
        ),
    ),
    claim(
        "encoding-steps-smooth",
        "Unlike bits, the encoding moves smoothly",
        Check(
            by_proof(proofs.step_distance),
            true=proofs.chord_squared,
            wrong=(wrong.STEP_IS_OMEGA,),
        ),
        Check(_steps, true=1.0, wrong=(Candidate("|step| <= ω_i / 2", 0.5),)),
        statement=(
            r"\begin{gathered} \lVert v_i(p+1) - v_i(p) \rVert = 2\sin(\omega_i/2) \le \omega_i \le 1 \\"
            r" \Rightarrow\ |PE(p+1, j) - PE(p, j)| \le \omega_i \end{gathered}"
        ),
    ),
    claim(
        "zero-mean-full-period",
        "Zero-centred over a full period",
        Check(by_proof(proofs.period_mean), true=1, wrong=(wrong.SQUARED_MEAN,)),
    ),
    claim(
        "finite-column-means",
        "Over finitely many positions the mean is not zero: the closed form",
        Check(_finite_means, true=1.0, wrong=(Candidate("n instead of n − 1", 0.0),)),
        statement=(
            r"\begin{gathered} \frac1n\sum_{p=0}^{n-1} \sin p\omega = \frac{\sin\frac{n\omega}{2} \sin\frac{(n-1)\omega}{2}}{n\sin\frac{\omega}{2}} \\"
            r" \frac1n\sum_{p=0}^{n-1} \cos p\omega = \frac{\sin\frac{n\omega}{2} \cos\frac{(n-1)\omega}{2}}{n\sin\frac{\omega}{2}} \end{gathered}"
        ),
    ),
    claim(
        "concat-doubles-layer-weights",
        "A concatenated stream doubles every weight matrix of an encoder layer",
        Check(
            _stream_matrices,
            true=("W_Q", "W_K", "W_V", "W_1"),
            wrong=(wrong.QKV_AND_OUTPUT_READ,),
        ),
        statement=(
            r"\begin{gathered}W_Q, W_K, W_V, W_1 \text{ read the stream, } W_O, W_2"
            r" \text{ write it;} \\ \text{width } 2d \implies \text{every matrix of the"
            r" layer doubles}\end{gathered}"
        ),
    ),
    claim(
        "embedding-scale-needs-init",
        r"Scaled by $\sqrt{d}$, embeddings have entries of size 1 only if drawn with std $1/\sqrt{d}$",
        Check(
            _embedding_scale,
            true=1 / np.sqrt(D),
            wrong=(wrong.UNIT_EMBEDDING_INIT,),
        ),
        statement=(
            r"E_{tj} \sim N(0, \sigma^2) \implies \sqrt d\,E_{tj} \sim N(0, d\sigma^2):"
            r" \text{ size about 1 iff } \sigma \approx 1/\sqrt d"
        ),
    ),
    claim(
        "concat-is-two-projections",
        "Concatenating then projecting equals adding two separate projections",
        Check(
            by_proof(proofs.concat_projection),
            true=proofs.separate_projections,
            wrong=(wrong.TIED_PROJECTION,),
        ),
        Check(
            _costs,
            true=proofs.separate_projections,
            wrong=(wrong.TIED_PROJECTION,),
        ),
        statement=(
            r"\begin{gathered} \begin{pmatrix} W_e & W_q \end{pmatrix}\begin{pmatrix} e \\ q \end{pmatrix} = W_e e + W_q q \\"
            r" \text{adding } e + q \text{ is the case } W_e = W_q \text{, at half the weights} \end{gathered}"
        ),
    ),
    claim(
        "embedding-encoding-nearly-orthogonal",
        "In high dimension, embeddings and encodings are nearly orthogonal",
        Check(_orthogonal, true=facts.random_embeddings, wrong=(wrong.SHARES_PE0,)),
        statement=(
            r"\begin{gathered} \cos\angle(e, PE(p)) \text{ has mean } 0 \\"
            r" \text{and standard deviation } 1/\sqrt d \\"
            r" \text{for isotropic } e:\ \approx 0.044 \text{ at } d = 512 \end{gathered}"
        ),
    ),
    claim(
        "encoding-subspace-share",
        "The encodings fill a small subspace; an embedding mostly lies outside it",
        Check(_subspace, true=facts.random_embeddings, wrong=(wrong.MADE_OF_ROWS,)),
        statement=(
            r"\begin{gathered} \mathbb{E}\,\frac{\lVert \Pi_r e \rVert^2}{\lVert e \rVert^2} = \frac{r}{d} \text{ for isotropic } e \\"
            r" \Pi_r: \text{ projection on the span of } PE(0), \dots, PE(n-1) \end{gathered}"
        ),
    ),
    claim(
        "from-scratch-table",
        "Ten lines of plain NumPy compute the same table as pe",
        Check(
            _from_scratch,
            true=from_scratch.sinusoidal_table,
            wrong=(wrong.DOUBLED_EXPONENT_TABLE, wrong.ONE_INDEXED_TABLE),
        ),
        statement=(
            r"\begin{gathered} |\texttt{sinusoidal\_table}(n, d)_{p,j} - PE(p, j)|"
            r" \le \varepsilon + \delta + (r_\omega + u)\,p\,\omega_{\lfloor j/2 \rfloor} \\"
            r" \delta = 4.9 \times 10^{-16} \text{ (pe's table)},\ r_\omega = \varepsilon"
            r" \text{ for } d = 2^m,\ u = \varepsilon/2 \end{gathered}"
        ),
    ),
    claim(
        "encoding-added-to-embedding",
        "The paper adds the encoding to the token embedding",
        statement=r"x_p = e_{\text{token}} + PE(p), \quad \text{both of width } d",
        source="vaswani2017",
    ),
    claim(
        "transformer-model-widths",
        "The paper's two models are 512 and 1024 wide",
        statement=(
            r"d_{\text{model}} = 512 \text{ (base model)}, \quad"
            r" d_{\text{model}} = 1024 \text{ (big model; Table 3 of the paper)}"
        ),
        source="vaswani2017",
    ),
    claim(
        "d2l-binary-analogy",
        "Dive into Deep Learning compares the encoding with binary positions",
        statement=(
            r"\text{Zhang et al. (Dive into Deep Learning) print the positions 0 to 7 in binary"
            r" and compare the bits' periods with the encoding's decreasing frequencies}"
        ),
        source="zhang2023",
    ),
)
