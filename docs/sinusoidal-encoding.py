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
# model's width $d$ (an even number), built from sines and cosines [checked](claims.py#claim-pair-index-range):
#
# $$\begin{gathered}PE(p, 2i) = \sin(\omega_i\, p), \qquad PE(p, 2i+1) = \cos(\omega_i\, p), \\
# \omega_i = \frac{1}{10000^{2i/d}}, \qquad 0 \le i < d/2 .\end{gathered}$$
#
# Column $2i$ holds a sine and column $2i+1$ a cosine of the same angle $\omega_i p$: the
# vector is made of $d/2$ **pairs**, and pair $i$ turns at the frequency $\omega_i$ as the
# position grows [checked](claims.py#claim-pair-index-range). This chapter reads the formula closely: its indices, its frequencies and
# wavelengths, a worked example, the analogy with a binary counter, and why the result is
# added to the token embedding.
#
# Everything on this page is computed by the package `pe` while the page is built.

# %% tags=["hide_input"]
from pe.site import report
from pe.site import sinusoidal_encoding as page

# %% [markdown]
# ## One notation for several write-ups
#
# The same formula circulates under different letters. This site uses the paper's meaning
# with short names: $p$ for the position, $i$ for the pair, $d$ for the width.
#
# | meaning | this site | the paper | variants in circulation |
# | --- | --- | --- | --- |
# | position | $p$, the first token at $p = 0$ [checked](claims.py#claim-worked-example-my-name-is-rk) | $pos$ | $t$, $i$, $j$ |
# | pair index | $i$, $0 \le i < d/2$ | $i$ | "0 to $d_{model}/2$"; "0 to $d_{model} - 1$" ([apress-genai](bibliography.md#apress-genai)); $i = 0, \dots, 256$ for $d = 512$ ([khapra-notes](bibliography.md#khapra-notes)); one-indexed, $0 < i \le d/2$ (each rejected by [checked](claims.py#claim-pair-index-range)) |
# | width | $d$ | $d_{model}$ | $d_e$, $D$ |
# | sine column | $2i$ [checked](claims.py#claim-pair-index-range) | $2i$ | $2i - 1$ (one-indexed) [checked](claims.py#claim-one-indexed-frequencies-shifted) |
# | cosine column | $2i+1$ [checked](claims.py#claim-pair-index-range) | $2i+1$ | $2i$ (one-indexed) [checked](claims.py#claim-one-indexed-frequencies-shifted) |
# | frequency | $\omega_i = 10000^{-2i/d}$ [checked](claims.py#claim-pair-index-range) | $1/10000^{2i/d_{model}}$ | $1/\ell_{max}^{2i/d}$ (one-indexed) [checked](claims.py#claim-one-indexed-frequencies-shifted) |
# | the constant 10000 | base (a timescale) | "10000" | $\ell_{max}$, "maximum sequence length"; $T$ (a timescale, not a length: [checked](claims.py#claim-base-is-not-a-length)) |
#
# Three of these differences change the meaning, and each is settled below: the range of
# the pair index, the one-indexed frequencies, and what the base is.

# %% [markdown]
# ## The pair index: $0 \le i < d/2$
#
# There are $d/2$ pairs, $i = 0, 1, \dots, d/2 - 1$, and together they write the columns
# $0, \dots, d-1$ once each. Reading "$i$ ranges from 0 to $d_{model}/2$" as inclusive adds a
# pair $i = d/2$ whose columns $d$ and $d+1$ do not exist.

# %% tags=["hide_input"]
report.claim("pair-index-range")

# %% [markdown]
# ## Frequencies and wavelengths
#
# Pair $i$ repeats every $\lambda_i = 2\pi/\omega_i = 2\pi \cdot 10000^{2i/d}$ positions.
# Each pair's wavelength is the previous one times $10000^{2/d}$: a geometric progression.
# The first is $2\pi$. The last, at $i = d/2 - 1$, is $2\pi \cdot 10000^{(d-2)/d}$: **not
# quite** the $2\pi \cdot 10000$ the paper's sentence suggests, because the index stops one
# step short of $d/2$. SymPy proves the ratio and both end points with $i$ and $d$
# symbolic.

# %% tags=["hide_input"]
report.claim("wavelength-progression", proofs=True)

# %% tags=["hide_input"]
page.wavelength_numbers()

# %% tags=["hide_input"]
page.wavelength_ladder()

# %% [markdown]
# ### The 1-indexed convention shifts the frequencies
#
# A common variant writes the encoding 1-indexed, $W_p[2i-1, t] = \sin(t /
# \ell_{max}^{2i/d_e})$ and $W_p[2i, t] = \cos(t / \ell_{max}^{2i/d_e})$ with
# $0 < i \le d_e/2$. Renumbering the columns from 1 is harmless; keeping the exponent $2i/d$
# while $i$ now starts at 1 is not. Its first pair turns at $10000^{-2/d}$ instead of 1, and
# its last at $10000^{-1}$: every frequency is the paper's next one, the fastest pair
# ($\omega = 1$) is gone and a slower one is added. It is a different encoding, shown dashed
# in the figure above.

# %% tags=["hide_input"]
report.claim("one-indexed-frequencies-shifted")

# %% [markdown]
# ### 10000 is a timescale, not a maximum length
#
# A common statement calls 10000 "the maximum sequence length". Nothing in the formula stops at
# position 10000: the constant only sets how slowly the last pairs turn (for $d = 512$ the
# slowest pair needs $\lambda_{255}$ positions for one turn, computed above), and positions
# past 10000 get new, distinct vectors like any other.

# %% tags=["hide_input"]
report.claim("base-is-not-a-length")

# %% tags=["hide_input"]
page.base_table()

# %% [markdown]
# ### 512 is a choice
#
# The paper's base model has $d_{model} = 512$, and its big model 1024:

# %% tags=["hide_input"]
report.claim("transformer-model-widths")

# %% [markdown]
# Write-ups often present $d = 512$ as if it were part of the definition. Any even width
# works: the frequencies always
# run from 1 down to just above $10000^{-1}$, and the width only sets how finely that range
# is sampled. Doubling the width keeps every frequency, inserts one between each
# neighbouring pair, and adds one more below the old slowest (the range's lower end moves
# from $10000^{-(d-2)/d}$ to $10000^{-(2d-2)/(2d)}$, closer to $10000^{-1}$).

# %% tags=["hide_input"]
report.claim("width-refines-frequencies")

# %% [markdown]
# ## The table in ten lines of NumPy
#
# The formula is short to compute. Here it is in plain NumPy, the way you would type it
# (`pe.from_scratch.sinusoidal_table`; `pe.sinusoidal` computes the same table with argument
# checks and a stated error model), run while this page was built:

# %% tags=["hide_input"]
page.from_scratch_source()

# %% tags=["hide_input"]
page.from_scratch_example()

# %% tags=["hide_input"]
report.claim("from-scratch-table")

# %% [markdown]
# The same table, computed in your browser: point at a cell (or focus the table and use the
# arrow keys) to read its value and its formula, and move the sliders to change $d$ and the
# base.

# %% tags=["hide_input"]
page.table_explorer()

# %% [markdown]
# ## What the table looks like
#
# Each row below is one position, for $d = {{ d }}$; the sine columns are drawn on the left and
# the cosine columns on the right, one pair $i$ per column of each half. The first columns
# change quickly from row to row; the last ones barely move over a hundred positions.

# %% tags=["hide_input"]
page.table_heatmap()

# %% tags=["hide_input"]
page.column_lines()

# %% [markdown]
# ## A worked example: "My name is RK"
#
# Take the four-token sentence *My name is RK* with $d = 512$: positions 0, 1, 2 and 3. At
# position 0 every angle is 0, so every sine is 0 and every cosine 1. At position 1 the angle
# of pair $i$ is $\omega_i$ itself: pair 0 gives $\sin 1$ and $\cos 1$; pair 128 (column
# 256) has $\omega_{128} = 10000^{-256/512} = 1/100$; the last pair (column 511) turns so
# slowly that its cosine is still almost 1. `pe` computes all $4 \times 512$ values and
# compares each with the formula evaluated to 50 digits by mpmath.

# %% tags=["hide_input"]
report.claim("worked-example-my-name-is-rk")

# %% tags=["hide_input"]
page.worked_example()

# %% [markdown]
# ## The binary-counter analogy, and where it stops
#
# Write the positions in binary: the lowest bit flips at every step, the next every two
# steps, the next every four ([Zhang et al.](bibliography.md#zhang2023) make this
# comparison [checked](claims.py#claim-d2l-binary-analogy)). The encoding's pairs play a similar role, fast ones first and slow ones last,
# but the analogy has three limits, each checked:
#
# - bits have periods $2, 4, 8, \dots$, doubling from one bit to the next
#   [checked](claims.py#claim-binary-bits-periods); consecutive wavelengths of the encoding grow by
#   $10000^{2/d}$, which would equal 2 only for the width $d = 2\log_2 10000$, not an even
#   integer [checked](claims.py#claim-wavelength-ratio-not-two);
# - a bit jumps by 1 when it flips; a sine or cosine moves by at most $\omega_i \le 1$ per
#   position, and a pair by exactly $2\sin(\omega_i/2)$: the encoding is smooth
#   [checked](claims.py#claim-encoding-steps-smooth);
# - bits take two values, the encoding takes real values in $[-1, 1]$
#   [checked](claims.py#claim-encoding-bounded).

# %% tags=["hide_input"]
page.binary_vs_sinusoid()

# %% tags=["hide_input"]
report.claim("binary-bits-periods")

# %% tags=["hide_input"]
report.claim("wavelength-ratio-not-two")

# %% tags=["hide_input"]
report.claim("encoding-steps-smooth")

# %% [markdown]
# ## Bounded and zero-centred
#
# Every entry lies in $[-1, 1]$ (proved in [Designs that fail](failed-designs.py), claim
# `encoding-bounded`). A common statement also calls the values zero-centred, citing the advice
# of [LeCun et al. (1998)](bibliography.md#lecun1998) that inputs averaging near zero help
# training. That is exact over a full period of each sinusoid:

# %% tags=["hide_input"]
report.claim("zero-mean-full-period")

# %% [markdown]
# Over the positions of a real sentence it is not. A pair whose wavelength is much longer
# than the sentence has barely moved from its value at position 0, so its cosine column
# averages close to 1 and its sine column close to 0. The column means over $p = 0, \dots,
# n-1$ have a closed form, which matches the measured means:

# %% tags=["hide_input"]
report.claim("finite-column-means")

# %% tags=["hide_input"]
page.column_means_table()

# %% [markdown]
# So "zero-centred" holds for the fast pairs over a long text, not for the table of a short
# sentence, whose mean is dominated by slow cosine columns near 1
# [checked](claims.py#claim-finite-column-means).
#
# ## Added to the token embedding
#
# The encoding has the embedding's width $d$, and the paper **adds** it:
# $x_p = e_{\text{token}} + PE(p)$.

# %% tags=["hide_input"]
report.claim("encoding-added-to-embedding")

# %% [markdown]
# Why add rather than concatenate $[e;\ PE(p)]$?
#
# **Width and cost.** Concatenating doubles the width of every vector entering the first
# layer, and with it the weights and multiply-adds of each projection reading it. For
# $d = {{ d }}$:

# %% tags=["hide_input"]
page.projection_cost_table()

# %% tags=["hide_input"]
report.claim("concat-doubles-layer-weights")

# %% [markdown]
# **What is lost.** Less than it seems. A layer reading a concatenation splits into two
# projections that are added, $W[e;\,q] = W_e e + W_q q$; adding first is the special case
# where the two projections are the same matrix:

# %% tags=["hide_input"]
report.claim("concat-is-two-projections", proofs=True)

# %% [markdown]
# **What adding does geometrically.** It shifts each embedding by a vector of fixed length
# $\lVert PE(p)\rVert = \sqrt{d/2}$, in a direction that depends on the position. In high
# dimension that shift is nearly orthogonal to the embedding: the cosine between a random
# embedding and an encoding row is spread like $1/\sqrt d$ around 0.

# %% tags=["hide_input"]
report.claim("embedding-encoding-nearly-orthogonal")

# %% [markdown]
# How long the embedding is next to the encoding depends on a choice the paper leaves open.
# It multiplies the embedding weights by $\sqrt{d_{model}}$ but does not say how they are
# initialised: the entries of $\sqrt d\,E$ are of size about 1 only if $E$ starts with
# standard deviation $1/\sqrt d$; with PyTorch's default `nn.Embedding` initialisation,
# $N(0, 1)$, they are $\sqrt d$ times larger.

# %% tags=["hide_input"]
report.claim("embedding-scale-needs-init")

# %% tags=["hide_input"]
page.cosine_histograms()

# %% [markdown]
# The encodings of a sentence also crowd into few directions: the rows of the first 200
# positions are, numerically, confined to a subspace of a few dozen of the 512 dimensions,
# because the slow pairs hardly change over 200 positions. A random embedding puts only the
# fraction $r/d$ of its squared norm there, so the content and the position are carried
# mostly by different directions, and a later projection can separate them.

# %% tags=["hide_input"]
report.claim("encoding-subspace-share")

# %% tags=["hide_input"]
page.subspace_numbers()

# %% [markdown]
# ## Exercises

# %% tags=["hide_input"]
page.exercises()
