# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The sinusoidal encoding
#
# [Vaswani et al. (2017)](bibliography.md#vaswani2017) give each position $p$ a vector of the
# model's width $d$, built from sines and cosines
# [checked](claims.py#claim-vaswani-encoding-formula):
#
# $$\begin{gathered}PE(p, 2i) = \sin(\omega_i\, p), \\ PE(p, 2i+1) = \cos(\omega_i\, p), \\
# \omega_i = \frac{1}{10000^{2i/d}} .\end{gathered}$$
#
# Column $2i$ holds a sine and column $2i+1$ a cosine of the same angle $\omega_i p$: the
# vector is made of $d/2$ **pairs**, and pair $i$ turns at the frequency $\omega_i$ as the
# position grows, fast for the first pairs and slowly for the last
# [checked](claims.py#claim-wavelength-progression).
#
# Pair $i$ runs over $0 \le i < d/2$ ($d$ even), so the $d/2$ pairs fill each of the $d$
# columns once [checked](claims.py#claim-pair-index-range).
# Below: the table drawn, its columns, a sentence worked by hand, the code, then common
# misreadings, in the letters of the [notation](index.md#notation) table, all computed by `pe`.

# %% tags=["hide_input"]
from pe.site import examples, report
from pe.site import sinusoidal_encoding as page

# %% [markdown]
# ## The table, drawn
#
# Each row is one position, for $d = {{ d }}$, and each column one entry; the sine columns
# are drawn on the left and the cosine columns on the right, one pair $i$ per column of
# each half. Row 0 is all zeros on the left and all ones on the right ($\sin 0$ and
# $\cos 0$). The first pair turns by one radian from row to row; the last one, by
# $10000^{-510/512}$, barely moves [checked](claims.py#claim-worked-example-my-name-is-rk). Below
# it, the same table live in your browser: point at a cell (or use the arrow keys) to read
# its value and formula; the sliders change $d$ and the base.

# %% tags=["hide_input"]
page.table_heatmap()

# %% tags=["hide_input"]
page.table_explorer()

# %% [markdown]
# ## Each column is a wave
#
# Read down one column and you see a sinusoid of the position. As a function of a continuous
# position, pair $i$ repeats every
#
# $$\lambda_i = \frac{2\pi}{\omega_i} = 2\pi \cdot 10000^{2i/d}$$
#
# positions, its **wavelength**, and each pair's wavelength is the previous one times
# $10000^{2/d}$: a geometric progression from $2\pi$ for the fastest pair up to
# $2\pi \cdot 10000^{(d-2)/d}$ for the slowest, **not** the $2\pi \cdot 10000$ of the
# paper's sentence [checked](claims.py#claim-wavelength-progression).
#
# The index stops one step short of $d/2$, so the last wavelength is short of
# $2\pi \cdot 10000$ by the factor $10000^{-2/d}$: by 3.5 % at $d = 512$ but 13 % at
# $d = 128$ [checked](claims.py#claim-wavelength-progression). Three sine columns of the
# table, a fast one on top:

# %% tags=["hide_input"]
page.column_lines()

# %% tags=["hide_input"]
report.how_we_know(
    "vaswani-wavelength-sentence",
    "pwc-wavelength-sentence",
    "wavelength-progression",
    proofs=True,
    more=[page.wavelength_numbers(), page.wavelength_ladder()],
)

# %% [markdown]
# ## The binary-counter analogy, and where it stops
#
# Write the positions in binary: the lowest bit flips at every step, the next every two
# steps, the next every four ([Zhang et al.](bibliography.md#zhang2023) make this
# comparison [checked](claims.py#claim-d2l-binary-analogy)). The encoding's pairs play a
# similar role, fast ones first and slow ones last, but the analogy has three limits:
#
# - bits have periods $2, 4, 8, \dots$, doubling from one bit to the next, while consecutive
#   wavelengths of the encoding grow by $10000^{2/d}$, which would equal 2 only for the
#   width $d = 2\log_2 10000$, not an even integer
#   [checked](claims.py#claim-wavelength-ratio-not-two);
# - a bit jumps by 1 when it flips; a sine or cosine moves by at most $\omega_i \le 1$ per
#   position, and a pair by exactly $2\sin(\omega_i/2)$: the encoding is smooth
#   [checked](claims.py#claim-encoding-steps-smooth);
# - bits take two values, the encoding takes real values in $[-1, 1]$
#   [checked](claims.py#claim-encoding-bounded).

# %% tags=["hide_input"]
page.binary_vs_sinusoid()

# %% tags=["hide_input"]
report.how_we_know(
    "d2l-binary-analogy", "binary-bits-periods", "wavelength-ratio-not-two",
    "encoding-steps-smooth",
)  # fmt: skip

# %% [markdown]
# ## A worked example: "My name is RK"
#
# Take the four-token sentence *My name is RK* with $d = 512$: positions 0, 1, 2 and 3. At
# position 0 every angle is 0, so every sine is 0 and every cosine 1. At position 1 the angle
# of pair $i$ is $\omega_i$ itself: pair 0 gives $\sin 1$ and $\cos 1$; pair 128 (column
# 256) has $\omega_{128} = 10000^{-256/512} = 1/100$; the last pair (column 511) turns so
# slowly that its cosine is still almost 1. `pe` computes all $4 \times 512$ values and
# compares each with the formula evaluated to 50 digits by mpmath
# [checked](claims.py#claim-worked-example-my-name-is-rk).

# %% tags=["hide_input"]
page.worked_example()

# %% [markdown]
# ## Added to the token embedding
#
# The encoding has the embedding's width $d$, and the paper **adds** it,
# $x_p = e_{\text{token}} + PE(p)$ [checked](claims.py#claim-encoding-added-to-embedding).
#
# Concatenating, $[e;\ PE(p)]$, would double the width of every vector entering the first
# layer, and with it the weights of each projection reading it
# [checked](claims.py#claim-concat-doubles-layer-weights).
#
# Less is lost by adding than it seems. A layer reading a concatenation splits into two
# projections that are added, $W[e;\,u] = W_e e + W_u u$ for an embedding $e$ and an encoding
# row $u$: adding first is the special case where the two are the same matrix
# [checked](claims.py#claim-concat-is-two-projections).
#
# And the two barely interfere: at $d = 512$ an encoding row is nearly orthogonal to a
# random embedding [checked](claims.py#claim-embedding-encoding-nearly-orthogonal); the fold
# below also measures how close the rows of a sentence lie to a few directions.

# %% tags=["hide_input"]
report.how_we_know(
    "encoding-added-to-embedding", "concat-doubles-layer-weights", "concat-is-two-projections",
    "embedding-encoding-nearly-orthogonal", "encoding-subspace-share", "embedding-scale-needs-init",
    proofs={"concat-is-two-projections": True}, more=[         page.projection_cost_table(),
    page.cosine_histograms(),         page.subspace_numbers(),     ],
)  # fmt: skip

# %% [markdown]
# ## The encoding in code
#
# A PyTorch module that adds the encoding to a batch of embeddings, the same table in ten
# lines of plain NumPy, and in JAX. Each forms the angles $\omega_i p$ in float64 and rounds
# only the table: an angle formed in float32 drifts linearly with the position
# ([precision](precision.py)) [checked](claims.py#claim-float32-recipe-drifts).
#
# The NumPy one is checked against `pe` while this page is built
# [checked](claims.py#claim-from-scratch-table); the others by the tests named in their tabs.

# %% tags=["hide_input"]
examples.encoding_tabs()

# %% [markdown]
# ## Pitfalls
#
# **The pair index stops at $d/2 - 1$.** The $d/2$ pairs $i = 0, \dots, d/2 - 1$ write the
# columns $0, \dots, d-1$ once each; reading "$i$ ranges from 0 to $d_{model}/2$" as
# inclusive adds a pair whose columns $d$ and $d+1$ do not exist
# [checked](claims.py#claim-pair-index-range).
#
# **Counting the pairs from 1 shifts every frequency.**
# [Phuong and Hutter (2022)](bibliography.md#phuong2022) write the encoding 1-indexed,
# $W_p[2i-1, t] = \sin(t / \ell_{max}^{2i/d_e})$ and
# $W_p[2i, t] = \cos(t / \ell_{max}^{2i/d_e})$ with $0 < i \le d_e/2$
# [checked](claims.py#claim-phuong-one-indexed).
#
# Renumbering the columns is harmless, but with $i$ now starting at 1 the first pair turns at $10000^{-2/d}$
# instead of 1 and the last at $10000^{-1}$: the fastest pair is gone and a slower one is
# added, a different encoding [checked](claims.py#claim-one-indexed-frequencies-shifted).
#
# **10000 is a timescale, not a maximum length.** Nothing in the formula stops at position
# 10000: at $d = 512$ positions 10000 to 19999 get new vectors, none closer to an earlier
# one than neighbours are [checked](claims.py#claim-base-is-not-a-length).
#
# **512 is a choice.** Any even width works: the frequencies run from 1 down to
# $10000^{-(d-2)/d}$, which is $10000^{-1}$ times $10000^{2/d}$ and so close to it only for a
# wide table ($10^{-3}$, ten times $10000^{-1}$, at $d = 8$), and doubling the width keeps
# every frequency, inserts one between each pair of neighbours and adds one below the old
# slowest [checked](claims.py#claim-width-refines-frequencies).
#
# **"Zero-centred" holds over full periods, not over a short sentence.** Calling the values zero-centred appeals
# to the advice of [LeCun et al. (1998)](bibliography.md#lecun1998) that inputs averaging
# near zero help training [checked](claims.py#claim-lecun-zero-mean-inputs).
#
# A sinusoid averages to 0 over a full period, but
# a short sentence sees only the start of the slow pairs' turns: their cosine columns average
# close to 1, and the table's mean is well above 0
# [checked](claims.py#claim-finite-column-means).

# %% tags=["hide_input"]
report.how_we_know(
    "vaswani-encoding-formula", "pair-index-range", "write-ups-pair-index",
    "phuong-one-indexed", "one-indexed-frequencies-shifted", "base-is-not-a-length",
    "transformer-model-widths", "lecun-zero-mean-inputs", "width-refines-frequencies", "zero-mean-full-period",
    "finite-column-means", more=[page.base_table(), page.column_means_table()],
)  # fmt: skip

# %% [markdown]
# ## The same formula in other write-ups
#
# The formula circulates under other letters. This site keeps the paper's meaning with short
# names (the width is $d$, the paper's $d_{model}$); the right column holds the variants a
# reader meets, and the pitfalls above settle the three that change the meaning.
#
# | meaning | this site | the paper | variants in circulation |
# | --- | --- | --- | --- |
# | position | $p$, from 0 [checked](claims.py#claim-worked-example-my-name-is-rk) | $pos$ | other letters |
# | pair index | $i$, up to $d/2 - 1$ | $i$ | to $d_{model} - 1$ ([apress-genai](bibliography.md#apress-genai)); to 256 at width 512 ([khapra-notes](bibliography.md#khapra-notes)); from 1 [checked](claims.py#claim-pair-index-range) |
# | sine and cosine columns | $2i$ and $2i+1$ | $2i$ and $2i+1$ | $2i - 1$ and $2i$ (one-indexed) [checked](claims.py#claim-one-indexed-frequencies-shifted) |
# | frequency | $\omega_i$ | $1/10000^{2i/d_{model}}$ | $1/\ell_{max}^{2i/d}$ (one-indexed) [checked](claims.py#claim-phuong-one-indexed) |
# | the constant 10000 | base (a timescale) | "10000" | $\ell_{max}$, "maximum sequence length" [checked](claims.py#claim-phuong-one-indexed) |
#
# ## Exercises

# %% tags=["hide_input"]
page.exercises()
