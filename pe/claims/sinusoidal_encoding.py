"""Claims of the page "The sinusoidal encoding" (docs/sinusoidal-encoding.py)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from pe import numeric
from pe.claims import Claim, Evidence, checked, proved
from pe.experiments import sinusoidal_encoding as encoding_facts

PAGE = "sinusoidal-encoding"

EPS = float(np.finfo(np.float64).eps)


def _columns(inclusive: bool) -> Evidence:
    d = 512
    columns = encoding_facts.pair_columns(d, inclusive=inclusive)
    ok = columns == list(range(d))
    label = "0 <= i <= d/2 (inclusive)" if inclusive else "0 <= i < d/2"
    return checked(
        ok,
        f"d={d}, {label}: {len(columns) // 2} pairs write {len(columns)} columns, from "
        f"{columns[0]} to {columns[-1]} ({'each of 0..d-1 once' if ok else 'not 0..d-1'})",
    )


def _wavelengths(last_factor: float) -> Evidence:
    d = 512
    lam = encoding_facts.wavelengths(d)
    ratios = lam[1:] / lam[:-1]
    expected_last = 2 * np.pi * 10000.0 ** ((d - 2) / d) * last_factor
    ratio_error = float(np.abs(ratios / 10000.0 ** (2 / d) - 1).max())
    last_error = abs(lam[-1] / expected_last - 1)
    ok = ratio_error <= 1e-13 and abs(lam[0] - 2 * np.pi) <= 4 * EPS and last_error <= 1e-13
    label = "2π·10000^((d−2)/d)" if last_factor == 1.0 else "2π·10000"
    return checked(
        ok,
        f"d={d}: λ_0 = {lam[0]:.6f}, λ_255 = {lam[-1]:.1f} against {label} = "
        f"{expected_last:.1f} (relative error {last_error:.2g}); consecutive ratios "
        f"within {ratio_error:.2g} of 10000^(2/d)",
    )


def _note_001(shifted: bool) -> Evidence:
    d = 512
    paper, one_indexed = encoding_facts.frequency_sets(d)
    if shifted:
        error = float(np.abs(one_indexed[:-1] - paper[1:]).max())
        extra = abs(one_indexed[-1] - 1e-4)
        ok = error <= 4 * EPS and extra <= 4 * EPS * 1e-4
        return checked(
            ok,
            f"d={d}: note 001's pair i is the paper's pair i (max difference {error:.2g}); its "
            f"highest frequency is {one_indexed[0]:.6f} = 10000^(-2/d), its lowest "
            f"{one_indexed[-1]:.3g}",
        )
    error = float(np.abs(one_indexed - paper).max())
    return checked(error <= 1e-12, f"note 001's frequencies equal the paper's: off by {error:.3g}")


def _refinement(d_model: int, factor: int) -> Evidence:
    small, large = numeric.frequencies(d_model), numeric.frequencies(2 * d_model)
    error = float(np.abs(small - large[::factor][: small.size]).max())
    picked = "every second" if factor == 2 else "the first half"
    return checked(
        error <= 4 * EPS,
        f"d={d_model} vs d={2 * d_model}: {picked} frequency of the wider table, max "
        f"difference {error:.2g}",
    )


def _worked_example(wrong: str | None) -> Evidence:
    d, sentence = 512, encoding_facts.WORKED_SENTENCE
    exact = encoding_facts.reference_table(len(sentence), d)
    if wrong is None:
        table = numeric.sinusoidal(len(sentence), d)
        label = "pe.numeric.sinusoidal"
    elif wrong == "doubled":
        # Note 003's loop: i steps by 2 and the exponent doubles it again.
        columns = np.arange(0, d, 2)
        omega = 10000.0 ** (-(2.0 * columns) / d)
        table = np.empty((len(sentence), d))
        table[:, 0::2] = np.sin(np.outer(np.arange(len(sentence)), omega))
        table[:, 1::2] = np.cos(np.outer(np.arange(len(sentence)), omega))
        label = "note 003's doubled exponent"
    else:
        _, omega = encoding_facts.frequency_sets(d)
        angles = np.outer(np.arange(len(sentence)), omega)
        table = np.empty((len(sentence), d))
        table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
        label = "note 001's 1-indexed frequencies"
    error = float(np.abs(table - exact).max())
    return checked(
        error <= 2 * EPS,
        f"'My name is RK', d={d}, all 4 x 512 entries of {label} against 50-digit mpmath: "
        f"max error {error:.2g} (tolerance 2 eps); PE(1,256) = {table[1, 256]:.6f}",
    )


def _binary_periods(offset: int) -> Evidence:
    bits = encoding_facts.binary_bits(1024, 4)
    ok = True
    for b in range(4):
        period = 2 ** (b + 1 - offset)
        ok = ok and bool(np.array_equal(bits[period:, b], bits[:-period, b]))
        ok = ok and not any(np.array_equal(bits[s:, b], bits[:-s, b]) for s in range(1, period))
    label = "2, 4, 8, 16" if offset == 0 else "1, 2, 4, 8"
    return checked(ok, f"bits 0-3 of 0..1023 have least periods {label}: {ok}")


def _ratio_two(base: int) -> Evidence:
    width, even_integer = encoding_facts.ratio_equals_two_width(base)
    return checked(
        not even_integer,
        f"base {base}: consecutive wavelengths double only at d = {sp.sstr(width)} "
        f"= {float(width):.4f}, {'an even width' if even_integer else 'not an even integer'}",
    )


def _steps(factor: float) -> Evidence:
    table = numeric.sinusoidal(10_001, 512)
    omega = numeric.frequencies(512)
    steps = np.abs(np.diff(table, axis=0))
    bound = factor * np.repeat(omega, 2)[None, :] + 4 * EPS
    worst = float((steps / bound).max())
    label = "ω_i" if factor == 1.0 else "ω_i / 2"
    return checked(
        worst <= 1.0,
        f"d=512, p < 10001: max |PE(p+1, j) − PE(p, j)| / {label} = {worst:.4f} (needs <= 1); "
        "a bit jumps by 1 at every flip",
    )


def _finite_means(shift: float) -> Evidence:
    worst = 0.0
    for n in (4, 100, 1000):
        measured = encoding_facts.column_means(n, 512)
        closed = encoding_facts.column_means_closed_form(n, 512, shift=shift)
        worst = max(worst, float(np.abs(measured - closed).max()))
    label = "n − 1" if shift == 1.0 else "n"
    return checked(
        worst <= 1e-12,
        f"d=512, n in (4, 100, 1000): measured column means against the closed form with "
        f"{label}: max difference {worst:.2g} (tolerance 1e-12)",
    )


def _costs() -> Evidence:
    cost = encoding_facts.projection_cost(512)
    rng = np.random.default_rng(0)
    e, q = rng.standard_normal(512), rng.standard_normal(512)
    w = rng.standard_normal((512, 1024))
    split = w[:, :512] @ e + w[:, 512:] @ q
    error = float(np.abs(w @ np.concatenate([e, q]) - split).max())
    ratio = cost["weights_concat"] / cost["weights_add"]
    return checked(
        error <= 1e-10 and ratio == 2,
        f"d=512: a 512-output projection has {cost['weights_add']} weights after adding and "
        f"{cost['weights_concat']} after concatenating (ratio {ratio:g}); W[e; q] − "
        f"(W_e e + W_q q) = {error:.2g}",
    )


def _costs_tied() -> Evidence:
    rng = np.random.default_rng(0)
    e, q = rng.standard_normal(512), rng.standard_normal(512)
    w = rng.standard_normal((512, 1024))
    error = float(np.abs(w @ np.concatenate([e, q]) - w[:, :512] @ (e + q)).max())
    return checked(error <= 1e-10, f"d=512: W[e; q] − W_e (e + q) = {error:.3g}")


def _orthogonal(aligned: bool) -> Evidence:
    d = 512
    cosines = encoding_facts.cosine_embedding_encoding(d, aligned=aligned)
    std, mean = float(cosines.std()), float(cosines.mean())
    q99 = float(np.quantile(np.abs(cosines), 0.99))
    ok = abs(std * np.sqrt(d) - 1) <= 0.05 and abs(mean) <= 0.01 and q99 <= 3.5 / np.sqrt(d)
    label = "embeddings sharing PE(0)'s direction" if aligned else "random embeddings"
    return checked(
        ok,
        f"d={d}, 1000 {label} x 200 positions: cosine mean {mean:.3g}, std {std:.4f} "
        f"(1/sqrt(d) = {1 / np.sqrt(d):.4f}), 99% of |cos| below {q99:.3f} "
        f"(needs std within 5% of 1/sqrt(d), |mean| <= 0.01, 99% quantile <= 3.5/sqrt(d))",
    )


def _past_base(wrap: int | None) -> Evidence:
    distance = encoding_facts.wrapped_rows_distance(512, horizon=10_000, wrap=wrap)
    label = "positions encoded modulo 10000 (a maximum length)" if wrap else "the encoding"
    return checked(
        distance > 1.0,
        f"d=512, {label}: smallest distance between a row before 10000 and a row from "
        f"10000 on is {distance:.3g} (brute force on 1000 x 1000 rows and all offsets up "
        "to 20000; needs > 1)",
    )


def _subspace(aligned: bool) -> Evidence:
    rank, share = encoding_facts.encoding_subspace_share(200, 512)
    expected = rank / 512
    if aligned:
        # Wrong candidate: embeddings built inside the span of the encoding rows.
        table = numeric.sinusoidal(200, 512)
        weights = np.random.default_rng(5).standard_normal((1000, 200))
        embeddings = weights @ table
        _, singular, vt = np.linalg.svd(table, full_matrices=False)
        basis = vt[: int((singular > 1e-3 * singular[0]).sum())]
        share = float((((embeddings @ basis.T) ** 2).sum(1) / (embeddings**2).sum(1)).mean())
    ok = abs(share / expected - 1) <= 0.1
    label = "embeddings made of encoding rows" if aligned else "random embeddings"
    return checked(
        ok,
        f"d=512: the rows PE(0..199) span r = {rank} directions (singular values above 1e-3 "
        f"of the largest); {label} put {share:.3f} of their squared norm there, r/d = "
        f"{expected:.3f} (needs within 10%)",
    )


CLAIMS = (
    Claim(
        id="pair-index-range",
        title="The pair index runs over 0 <= i < d/2",
        statement=(
            r"\begin{gathered} \{2i, 2i+1 : 0 \le i < d/2\} = \{0, 1, \dots, d-1\} \\"
            r" d/2 \text{ pairs, each column once} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _columns(False),),
        controls=(lambda: _columns(True),),
    ),
    Claim(
        id="wavelength-progression",
        title="Wavelengths: a geometric progression from 2π to just under 2π·10000",
        statement=(
            r"\begin{gathered} \lambda_i = 2\pi\cdot 10000^{2i/d},\quad \lambda_{i+1} / \lambda_i = 10000^{2/d} \\"
            r" \lambda_{d/2-1} = 2\pi\cdot 10000^{(d-2)/d} = 2\pi\cdot 10000 \cdot 10000^{-2/d} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(encoding_facts.wavelength_proof()), lambda: _wavelengths(1.0)),
        controls=(
            lambda: proved(
                encoding_facts.wavelength_proof(last=2 * sp.pi * 10000), "last = 2π·10000"
            ),
            lambda: proved(encoding_facts.wavelength_proof(exponent_factor=4), "doubled exponent"),
            lambda: _wavelengths(10000.0 ** (2 / 512)),
        ),
    ),
    Claim(
        id="one-indexed-frequencies-shifted",
        title="Note 001's 1-indexed convention shifts the frequencies by one step",
        statement=(
            r"\begin{gathered} W_p[2i-1, t] = \sin(t\,/\,10000^{2i/d}),\ 0 < i \le d/2 \\"
            r" \text{frequencies } 10000^{-2/d}, \dots, 10000^{-1} \\"
            r" \text{instead of } 1, \dots, 10000^{-(d-2)/d} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _note_001(True),),
        controls=(lambda: _note_001(False),),
    ),
    Claim(
        id="base-is-not-a-length",
        title="10000 is a timescale, not a maximum length",
        statement=(
            r"\begin{gathered} d = 512:\ \lVert PE(p) - PE(q) \rVert > 1 \\"
            r" \text{for } p < 10000 \le q < 20000 \\"
            r" \text{positions past 10000 get new vectors} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _past_base(None),),
        controls=(lambda: _past_base(10_000),),
    ),
    Claim(
        id="width-refines-frequencies",
        title="The width is a choice: doubling it keeps every frequency",
        statement=(
            r"\begin{gathered} \omega_i^{(d)} = \mathrm{base}^{-2i/d} = \omega_{2i}^{(2d)} \\"
            r" \text{every width spans } 1 \text{ to about } \mathrm{base}^{-1} \end{gathered}"
        ),
        page=PAGE,
        evidence=(
            lambda: proved(encoding_facts.width_refinement_proof()),
            lambda: _refinement(256, 2),
            lambda: _refinement(512, 2),
        ),
        controls=(
            lambda: proved(
                encoding_facts.width_refinement_proof(index_factor=1), "ω_i(d) = ω_i(2d)"
            ),
            lambda: _refinement(512, 1),
        ),
    ),
    Claim(
        id="worked-example-my-name-is-rk",
        title='The worked example "My name is RK", d = 512',
        statement=(
            r"\begin{gathered} PE(0) = [0, 1, 0, 1, \dots] \\"
            r" PE(1,0) = \sin 1,\quad PE(1,1) = \cos 1 \\"
            r" PE(1,256) = \sin\tfrac{1}{100} \\"
            r" PE(1,511) = \cos 10000^{-510/512} \approx 1 \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _worked_example(None),),
        controls=(lambda: _worked_example("doubled"), lambda: _worked_example("one-indexed")),
    ),
    Claim(
        id="binary-bits-periods",
        title="Binary counter: bit b flips with period 2^(b+1)",
        statement=(
            r"\begin{gathered} \bigl\lfloor p / 2^b \bigr\rfloor \bmod 2 \text{ has least period } 2^{b+1} \\"
            r" 2, 4, 8, 16 \text{ for } b = 0, 1, 2, 3 \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _binary_periods(0),),
        controls=(lambda: _binary_periods(1),),
    ),
    Claim(
        id="wavelength-ratio-not-two",
        title="Unlike bits, consecutive wavelengths never double",
        statement=(
            r"\begin{gathered} 10000^{2/d} = 2 \iff d = 2\log_2 10000 = 8 + 8\log_2 5 \approx 26.58 \\"
            r" \text{not an even integer} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _ratio_two(10000),),
        controls=(lambda: _ratio_two(2**13),),
    ),
    Claim(
        id="encoding-steps-smooth",
        title="Unlike bits, the encoding moves smoothly",
        statement=(
            r"\begin{gathered} \lVert v_i(p+1) - v_i(p) \rVert = 2\sin(\omega_i/2) \le \omega_i \le 1 \\"
            r" \Rightarrow\ |PE(p+1, j) - PE(p, j)| \le \omega_i \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(encoding_facts.step_distance_proof()), lambda: _steps(1.0)),
        controls=(
            lambda: proved(
                encoding_facts.step_distance_proof(half_angle=False), "step = ω exactly"
            ),
            lambda: _steps(0.5),
        ),
    ),
    Claim(
        id="zero-mean-full-period",
        title="Zero-centred over a full period",
        statement=(
            r"\frac{\omega}{2\pi}\int_0^{2\pi/\omega} \sin \omega t\,dt ="
            r" \frac{\omega}{2\pi}\int_0^{2\pi/\omega} \cos \omega t\,dt = 0"
        ),
        page=PAGE,
        evidence=(lambda: proved(encoding_facts.period_mean_proof()),),
        controls=(lambda: proved(encoding_facts.period_mean_proof(squared=True), "sin² and cos²"),),
    ),
    Claim(
        id="finite-column-means",
        title="Over finitely many positions the mean is not zero: the closed form",
        statement=(
            r"\begin{gathered} \frac1n\sum_{p=0}^{n-1} \sin p\omega = \frac{\sin\frac{n\omega}{2} \sin\frac{(n-1)\omega}{2}}{n\sin\frac{\omega}{2}} \\"
            r" \frac1n\sum_{p=0}^{n-1} \cos p\omega = \frac{\sin\frac{n\omega}{2} \cos\frac{(n-1)\omega}{2}}{n\sin\frac{\omega}{2}} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _finite_means(1.0),),
        controls=(lambda: _finite_means(0.0),),
    ),
    Claim(
        id="concat-is-two-projections",
        title="Concatenating then projecting = adding two separate projections",
        statement=(
            r"\begin{gathered} \begin{pmatrix} W_e & W_q \end{pmatrix}\begin{pmatrix} e \\ q \end{pmatrix} = W_e e + W_q q \\"
            r" \text{adding } e + q \text{ is the case } W_e = W_q \text{, at half the weights} \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: proved(encoding_facts.concat_projection_proof()), _costs),
        controls=(
            lambda: proved(encoding_facts.concat_projection_proof(tied=True), "W_e (e + q)"),
            _costs_tied,
        ),
    ),
    Claim(
        id="embedding-encoding-nearly-orthogonal",
        title="In high dimension, embeddings and encodings are nearly orthogonal",
        statement=(
            r"\begin{gathered} \cos\angle(e, PE(p)) \text{ has mean } 0 \\"
            r" \text{and standard deviation } 1/\sqrt d \\"
            r" \text{for isotropic } e:\ \approx 0.044 \text{ at } d = 512 \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _orthogonal(False),),
        controls=(lambda: _orthogonal(True),),
    ),
    Claim(
        id="encoding-subspace-share",
        title="The encodings fill a small subspace; an embedding mostly lies outside it",
        statement=(
            r"\begin{gathered} \mathbb{E}\,\frac{\lVert \Pi_r e \rVert^2}{\lVert e \rVert^2} = \frac{r}{d} \text{ for isotropic } e \\"
            r" \Pi_r: \text{ projection on the span of } PE(0), \dots, PE(n-1) \end{gathered}"
        ),
        page=PAGE,
        evidence=(lambda: _subspace(False),),
        controls=(lambda: _subspace(True),),
    ),
)
