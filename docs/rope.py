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
# # From sinusoids to rotary embeddings
#
# The [rotation identity](rotation-identity.py) says that moving from position $p$ to
# $p + k$ turns pair $i$ of the sinusoidal encoding by the angle $k\omega_i$. The original
# Transformer *adds* the encoding to the word vectors
# [checked](claims.py#claim-encoding-added-to-embedding).
#
# Rotary position embeddings (RoPE, [Su et al.](bibliography.md#su2021)) use
# the rotation itself: they turn every pair of a query or key at position $p$ by
# $p\,\omega_i$, after the projections $W_q$ and $W_k$, and then the attention score depends
# on the two positions only through their offset, for any weights
# [checked](claims.py#claim-rope-relative-after-any-projection).
#
# Llama turns every pair this way; GPT-J and GPT-NeoX, in their Hugging Face default
# configurations, a quarter of each head
# [checked](claims.py#claim-rope-pairings-in-public-code).
#
# On this page $q$ is a query vector and $\kappa$ a key vector (not $k$, which stays the
# offset), at positions $m$ and $n$; the offset $k$ is $n - m$. This page derives RoPE from
# the identity, gives the code to copy and proves each step; every number is computed by
# `pe` while the page is built.

# %% tags=["hide_input"]
from pe.site import examples, report
from pe.site import rope as page

# %% [markdown]
# ## A rotation of queries and keys
#
# RoPE takes any pair $(a, b)$ of a query or key vector at position $p$, pair $i$ in
# coordinates $2i$ and $2i+1$, and turns it by the angle $p\,\omega_i$, with the frequencies
# of the sinusoidal encoding, $\omega_i = 10000^{-2i/d}$
# [checked](claims.py#claim-rope-complex-rotation):
#
# $$\begin{pmatrix} a' \\ b' \end{pmatrix} =
# \begin{pmatrix} \cos p\omega_i & -\sin p\omega_i \\ \sin p\omega_i & \cos p\omega_i \end{pmatrix}
# \begin{pmatrix} a \\ b \end{pmatrix},
# \qquad\text{that is}\qquad a' + \mathrm{i}b' = (a + \mathrm{i}b)\,e^{\mathrm{i}p\omega_i} .$$
#
# The pair is a complex number and the position multiplies it by a unit phase. Write $R_p$
# for the matrix that turns each pair of a vector this way. `pe.rope(x, positions)` applies
# it to the last axis of an array of shape $(\dots, n, d)$; each pair of a vector is turned
# by the angle of its position, and keeps its length
# [checked](claims.py#claim-rope-complex-rotation):

# %% tags=["hide_input"]
page.rotated_example()

# %% [markdown]
# ## RoPE in code
#
# A PyTorch module, the same rotation in plain NumPy, and in JAX, each on adjacent pairs
# $(x_{2i}, x_{2i+1})$. Angles formed in float32 or float16 move the score by more than
# float64's tolerance ([in floating point](#in-floating-point) below)
# [checked](claims.py#claim-rope-offset-only-float64).
#
# The PyTorch and JAX files say in their comments in which precision they form their angles,
# and the tests named in their tabs run them.
#
# The NumPy one is checked to agree with `pe.rope` within their rounding bounds while this
# page is built [checked](claims.py#claim-from-scratch-rope).

# %% tags=["hide_input"]
examples.rope_tabs()

# %% tags=["hide_input"]
report.how_we_know("rope-complex-rotation", "from-scratch-rope", proofs=True)

# %% [markdown]
# ## The score depends only on the offset
#
# Rotations compose by adding angles and the transpose of a rotation turns back, so
# $R_m^{\mathsf T} R_n = R_{n-m}$, and the score of a query at position $m$ with a key at
# position $n$ is [checked](claims.py#claim-rope-relative-property)
#
# $$s(m, n) = \langle R_m q,\ R_n \kappa\rangle = q^{\mathsf T} R_m^{\mathsf T} R_n\, \kappa
# = q^{\mathsf T} R_{n-m}\, \kappa = \langle q,\ R_k\, \kappa\rangle, \qquad k = n - m .$$
#
# The two positions enter only through the offset $k$. SymPy proves it with $q$, $\kappa$,
# $m$, $n$ and the frequency all symbolic: it writes out both sides, expands the arguments,
# applies the angle-addition formulas and collects terms, leaving exactly zero. A rotation
# scaled by 2 leaves a residual that does not reduce to zero, and an angle growing like
# $p^2\omega_i$ leaves terms in $m$ and $n$ separately; a rotation the *other* way
# ($R^{\mathsf T}$) is still relative, with the offset's sign reversed
# [checked](claims.py#claim-rope-relative-property).
#
# For the whole vector, $R_p$ holds one rotation per frequency; SymPy checks the statement
# exactly at $d = 8$ with the true frequencies $10000^{-2i/8}$, for both pairings of the
# next section [checked](claims.py#claim-rope-relative-block-diagonal).

# %% tags=["hide_input"]
report.how_we_know(
    "rope-relative-property",
    "rope-relative-block-diagonal",
    proofs={"rope-relative-property": True, "rope-relative-block-diagonal": [1]},
)

# %% [markdown]
# ## Two pairings in public code
#
# Which coordinates form a pair is a convention, and two are in use. RoFormer, GPT-J and
# Meta's Llama rotate neighbours $(x_{2i}, x_{2i+1})$ ("adjacent"); GPT-NeoX and the Hugging
# Face implementation of Llama rotate $(x_i, x_{i+r/2})$ over the $r$ columns they rotate
# ("halves", written with a `rotate_half` helper); in their default configurations, Hugging
# Face's GPT-J and GPT-NeoX rotate the first quarter of each head. Run in Hugging Face
# transformers with their default configurations, RoFormer, GPT-J, GPT-NeoX and Llama use the same
# frequencies (base 10000), the same positions from 0 and the same sign
# [checked](claims.py#claim-rope-pairings-in-public-code).

# %% tags=["hide_input"]
page.pairings(8)

# %% [markdown]
# The two layouts differ by one fixed permutation $P$ that moves coordinate $2i$ to slot $i$
# and $2i + 1$ to slot $i + d/2$: RoPE in the halves layout equals moving to the adjacent
# layout ($P^{\mathsf T}$), rotating there and moving back ($P$)
# [checked](claims.py#claim-rope-pairing-permutation).
#
# So the two pairings produce different vectors from the same input, and weights trained with
# one give other scores under the other, unconverted. Because $P^{\mathsf T} P = I$, the scores agree
# once the query and the key are permuted alike; since $q = W_q x$, that means permuting the
# *rows* of $W_q$, and the same for $W_k$. Permuting only one of the two matrices
# changes the scores [checked](claims.py#claim-rope-converted-weights).
#
# That is what converting a checkpoint from Meta's Llama layout to Hugging Face's does
# inside each head: row $j$ of the converted matrix is row $2j$ of the original, row
# $d/2 + j$ is row $2j + 1$; and Meta's own code pairs neighbours
# [checked](claims.py#claim-rope-meta-and-conversion-code).

# %% tags=["hide_input"]
report.how_we_know(
    "rope-pairing-permutation",
    "rope-converted-weights",
    proofs=True,
    more=[page.pairing_permutation(8), page.same_input_gap()],
)

# %% [markdown]
# ## Why rotate after the projections
#
# The additive encoding already has a relative dot product, $PE(m) \cdot PE(n) = \sum_i
# \cos\omega_i(n - m)$ ([implications](implications.py))
# [checked](claims.py#claim-dot-product-offset-only).
#
# Attention does not take that dot product, though. It compares $W_q(x_m + PE(m))$ with $W_k(x_n + PE(n))$, and the
# position-position part becomes $PE(m)^{\mathsf T} A\, PE(n)$ with
# $A = W_q^{\mathsf T} W_k$: for a generic $A$, no longer a function of $n - m$. With small
# integer matrices SymPy finds an exact counter-example: at the positions $m = n = 1$,
# offset 0 like $m = n = 0$, in pair 0 ($\omega_0 = 1$), the difference is exactly
# $(A_{00} - A_{11})\sin^2 1 + (A_{01} + A_{10})\sin 1\cos 1$, not zero for these matrices
# [checked](claims.py#claim-projected-score-not-relative).
#
# RoPE applies the rotation *after* the projections, to $q = W_q x$ and $\kappa = W_k y$, and
# the relative property holds for every $q$ and $\kappa$, hence for every $W_q$ and $W_k$:
# SymPy proves it with all their entries symbolic. Rotating the input before projecting,
# $W_q R_m x$, puts the projections between the rotations and the offset no longer factors
# out [checked](claims.py#claim-rope-relative-after-any-projection).

# %% tags=["hide_input"]
report.how_we_know(
    "rope-relative-after-any-projection",
    proofs={"rope-relative-after-any-projection": [0]},
)

# %% [markdown]
# ## In floating point
#
# The proofs are exact; computed scores are not. `pe.rotary.check_offset_dependence` draws
# random $q$ and $\kappa$, computes $s(m, m + k)$ at many positions $m$ and compares each with
# the offset-only value $\langle q, R_k \kappa\rangle$. The error comes from the angles
# $m\,\omega_i$: rounding them in a dtype with machine epsilon $\varepsilon_a$ costs up to
# about $2\varepsilon_a\,\omega_i |m|$ radians, which moves the score by at most
# $\rho_i = |q^{(i)}|\,|\kappa^{(i)}|$ per radian in pair $i$; summed over the pairs, that is a
# tolerance that grows linearly with the position
# [checked](claims.py#claim-rope-angle-error-model).
#
# With angles in float64 the score depends on the offset alone, within that tolerance, at
# every position the check samples ({{ checked_positions }} positions from 0 to
# {{ last_position }}, at the offsets {{ offsets }}). The same tolerance fails when the angles are formed in float32 or
# float16, as code does that computes `positions * inv_freq` in the model's dtype
# [checked](claims.py#claim-rope-offset-only-float64).
#
# Past position 2048 float16 cannot even hold every integer position, and the angles of neighbouring positions merge
# ([precision](precision.py)) [checked](claims.py#claim-float-format-facts).

# %% tags=["hide_input"]
page.offset_error()

# %% tags=["hide_input"]
report.how_we_know(
    "rope-angle-error-model",
    "rope-offset-only-float64",
    more=[page.offset_table(), page.merged_angles()],
)

# %% [markdown]
# ## The "long-term decay" is a bound
#
# RoFormer argues that RoPE makes attention decay with distance
# [checked](claims.py#claim-roformer-long-term-decay).
#
# What it proves is a bound. Treat pair $i$ of $q$ and $\kappa$ as complex numbers and let
# $h_i = \overline{\tilde q_i}\,\tilde \kappa_i$; then the score at offset $k$ is
# $s(k) = \operatorname{Re}\sum_i h_i e^{\mathrm{i}k\omega_i}$. Summation by parts, with the
# partial sums $S_j(k) = \sum_{i<j} e^{\mathrm{i}k\omega_i}$ and $h_{d/2} = 0$, rewrites the
# sum, and the triangle inequality bounds it [checked](claims.py#claim-rope-decay-bound):
#
# $$|s(k)| \le \Bigl(\max_i |h_{i+1} - h_i|\Bigr) \sum_{j=1}^{d/2} |S_j(k)| .$$
#
# The decay is a trend of averages. Averaged over the offsets 0 to 9, 10 to 99 and 100 to
# 999, the right side falls from window to window: {{ bound_means }} for $q = \kappa = 1$ at
# $d = 128$. So does the score for $q = \kappa = 1$: {{ score_means }}. Step by step, neither
# falls. Over the offsets up to {{ trend_last }}, the bound climbs back up by {{ bound_rise }} of its largest value after a lower one,
# the score for $q = \kappa = 1$ by {{ score_rise }}, and the score for a random $q$ and
# $\kappa$ by {{ random_rise }} times its largest magnitude. A farther key can score higher. A
# sequence that does fall at every step, ALiBi's linear bias on the
# [next page](relative-family.py), never climbs back, so the test tells the two apart
# [checked](claims.py#claim-rope-scores-not-monotone).

# %% tags=["hide_input"]
page.decay()

# %% tags=["hide_input"]
report.how_we_know("rope-decay-bound", "rope-scores-not-monotone", proofs=True)

# %% [markdown]
# ## What RoPE keeps and what it does not
#
# RoPE keeps the content–content score $\langle q, R_{n-m}\, \kappa\rangle$ a function of the
# offset for any projections [checked](claims.py#claim-rope-relative-after-any-projection).
#
# Nothing in it is learned: the angle $p\omega_i$ that turns pair $i$ is fixed by the position
# and the pair's frequency, and turning the pair is multiplying it, as a complex number, by
# $e^{\mathrm{i}p\omega_i}$ [checked](claims.py#claim-rope-complex-rotation).
#
# RoPE does not by itself make a model work at positions longer than it was trained on:
# Press et al. measured rotary models degrade beyond their training length
# [checked](claims.py#claim-press-sinusoidal-degrades).
#
# Position interpolation keeps every pair within one position's step of its trained angles (the
# [next page](relative-family.py)) [checked](claims.py#claim-position-interpolation-range).
