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
# The [rotation identity](rotation-identity.py) says that moving from position $p$ to $p + k$
# turns pair $i$ of the sinusoidal encoding by the angle $k\omega_i$. The original Transformer
# *adds* the encoding to the word vectors and leaves it to the model to exploit that
# structure. Rotary position embeddings (RoPE, [Su et al.](bibliography.md#su2021)) use the
# rotation itself: they turn every pair of a query or key at position $p$ by $p\,\omega_i$,
# after the projections $W_q$ and $W_k$. Then the attention score depends on the two positions
# only through their difference, for any weights. GPT-J, GPT-NeoX and Llama, among other
# models, use this scheme [checked](claims.py#claim-rope-pairings-in-public-code). This page derives it from the identity and proves each step; every
# number is computed by `pe` while the page is built.

# %% tags=["hide_input"]
from pe.site import report
from pe.site import rope as page

# %% [markdown]
# ## From the identity to a rotation of queries and keys
#
# Pair $i$ of the encoding at position $p$ is a point on the unit circle at angle
# $\omega_i p$, and the identity says that going $k$ positions further turns it by $k\omega_i$.
# RoPE takes any pair $(a, b)$ of a query or key vector and turns it the same way, by the
# angle $p\,\omega_i$ of its position, with the frequencies of the sinusoidal encoding,
# $\omega_i = 10000^{-2i/d}$. Public code writes the turn as
# $a' = a\cos p\omega_i - b\sin p\omega_i$, $b' = b\cos p\omega_i + a\sin p\omega_i$, which is
# the complex product $(a + ib)\,e^{ip\omega_i}$: the pair is a complex number and the
# position multiplies it by a unit phase.

# %% tags=["hide_input"]
report.claim("rope-complex-rotation", proofs=True)

# %% [markdown]
# `pe.rope(x, positions, pairing=...)` applies this to the last axis of an array of
# shape $(\dots, n, d)$. A query that is the same vector at every position comes out different
# at each position, with the same length (a rotation does not stretch):

# %% tags=["hide_input"]
page.rotated_example()

# %% [markdown]
# The same rotation in a few lines of plain NumPy (`pe.from_scratch.rope`: adjacent pairs,
# row $p$ at position $p$), checked equal to `pe.rope` while this page was built:

# %% tags=["hide_input"]
page.from_scratch_source()

# %% tags=["hide_input"]
report.claim("from-scratch-rope")

# %% [markdown]
# ## The score depends only on the offset
#
# Write $R_p$ for the rotation of a pair by $p\,\omega_i$. Rotations compose by adding angles
# and the transpose of a rotation turns back, so $R_m^{\mathsf T} R_n = R_{n-m}$ and
# [checked](claims.py#claim-rope-relative-property)
#
# $$\langle R_m q, R_n k\rangle = q^{\mathsf T} R_m^{\mathsf T} R_n k
#   = \langle q, R_{n-m} k \rangle .$$
#
# The query's position $m$ and the key's position $n$ enter only as $n - m$. SymPy proves it
# with $q$, $k$, $m$, $n$ and the frequency all symbolic: it writes out both sides, expands the
# arguments, applies the angle-addition formulas and collects terms, leaving exactly zero.

# %% tags=["hide_input"]
report.claim("rope-relative-property", proofs=True)

# %% [markdown]
# A wrong candidate does not survive the same reduction: a rotation scaled by 2 leaves a
# residual that does not reduce to zero, and an angle growing like $p^2\omega_i$ leaves terms
# in $m$ and $n$ separately. A rotation the *other* way ($R^{\mathsf T}$) is still relative,
# with the offset's sign reversed; it is simply not the convention public code uses
# [checked](claims.py#claim-rope-relative-property).
#
# For the whole vector, $R_p$ holds one rotation per frequency. SymPy checks the statement
# exactly at $d = 8$ with the true frequencies $10000^{-2i/8}$, for both pairings described
# in the next section [checked](claims.py#claim-rope-relative-block-diagonal).

# %% tags=["hide_input"]
page.claim_with_proof("rope-relative-block-diagonal", evidence=1)

# %% [markdown]
# ## Two pairings in public code
#
# Which coordinates form a pair is a convention, and two are in use. RoFormer, GPT-J and
# Meta's Llama rotate neighbours $(x_{2i}, x_{2i+1})$ ("adjacent"). GPT-NeoX and the Hugging
# Face implementation of Llama rotate $(x_i, x_{i+d/2})$ ("halves", written with a
# `rotate_half` helper). Both use the same frequencies, the same positions from 0 and the same
# sign [checked](claims.py#claim-rope-pairings-in-public-code).

# %% tags=["hide_input"]
page.pairings(8)

# %% [markdown]
# The two layouts differ by one fixed permutation $P$ that moves coordinate $2i$ to slot $i$
# and $2i + 1$ to slot $i + d/2$. Applying RoPE in the halves layout equals moving to the
# adjacent layout ($P^{\mathsf T}$), rotating there and moving back ($P$)
# [checked](claims.py#claim-rope-pairing-permutation):

# %% tags=["hide_input"]
page.pairing_permutation(8)

# %% tags=["hide_input"]
report.claim("rope-pairing-permutation", proofs=True)

# %% [markdown]
# The two pairings produce different vectors from the same input, so weights trained with one
# give wrong results under the other. Because $P$ is a permutation ($P^{\mathsf T} P = I$), the
# scores agree once the query and the key are permuted alike. Since $q = W_q x$, permuting $q$
# means permuting the *rows* of $W_q$; the same for $W_k$. That is what converting a checkpoint
# from Meta's Llama layout to Hugging Face's does inside each head: row $r$ of the converted
# matrix is row $2r$ of the original, row $d/2 + r$ is row $2r + 1$. Permuting only one of the
# two matrices, or neither, changes the scores.

# %% tags=["hide_input"]
report.claim("rope-converted-weights", proofs=True)

# %% tags=["hide_input"]
page.same_input_gap()

# %% [markdown]
# ## Why rotate after the projections
#
# The additive encoding already has a relative dot product: the
# [implications chapter](implications.py) shows $PE(m) \cdot PE(n) = \sum_i \cos\omega_i(n - m)$
# [checked](claims.py#claim-dot-product-offset-only).
# Attention does not take that dot product, though. It compares $W_q(x_m + PE(m))$ with
# $W_k(x_n + PE(n))$, and the position-position part becomes
# $PE(m)^{\mathsf T} W_q^{\mathsf T} W_k\, PE(n)$. For a generic matrix
# $A = W_q^{\mathsf T} W_k$ this is no longer a function of $n - m$. An exact counter-example:
# with the small integer matrices below, the residual $s(m, n) - s(0, n - m)$ does not reduce to
# zero, and at $m = n = \pi/(2\omega)$, offset 0 like $m = n = 0$, it equals
# $A_{00} - A_{11}$, a non-zero integer. The claim below is the one of the
# [implications chapter](implications.py#claim-projected-score-not-relative), shown here with
# its proofs: the counter-example's proof ends on a residual that does not reduce to 0
# because the relative property fails for this encoding, which is what the claim states.
# With $W_q = W_k = I$ the same reduction gives exactly zero (the wrong candidate of that
# check).

# %% tags=["hide_input"]
report.claim("projected-score-not-relative", proofs=True)

# %% [markdown]
# RoPE applies the rotation *after* the projections, to $q = W_q x$ and $k = W_k y$. The relative
# property holds for every $q$ and $k$, hence for every $W_q$ and $W_k$: SymPy proves it with
# all entries of $W_q$, $W_k$, $x$ and $y$ symbolic. Rotating the input before projecting
# ($W_q R_m x$) is a wrong candidate: the projections sit between the rotations and the offset
# no longer factors out [checked](claims.py#claim-rope-relative-after-any-projection).

# %% tags=["hide_input"]
page.claim_with_proof("rope-relative-after-any-projection", evidence=0)

# %% [markdown]
# ## In floating point
#
# The proofs are exact; computed scores are not. `pe.rotary.check_offset_dependence` draws
# random $q$ and $k$, computes $s(m, m + r)$ at many positions $m$ and compares each with the
# offset-only value $\langle q, R_r k\rangle$. The error comes from the angles
# $m\,\omega_i$: rounding them in a dtype with machine epsilon $\varepsilon_a$ costs up to about
# $2\varepsilon_a\,\omega_i |m|$ radians, which moves the score by at most
# $\rho_i = |q^{(i)}|\,|k^{(i)}|$ per radian in pair $i$. Summing over the pairs gives the
# tolerance $\tau$ in the claim below. It grows linearly with the position
# [checked](claims.py#claim-rope-angle-error-model).
#
# With angles in float64 the score depends on the offset alone, within that tolerance, at
# every position checked (the table gives the measured errors). The same tolerance fails when
# the angles are formed in float32 or float16, as code does that computes
# `positions * inv_freq` in the model's dtype.

# %% tags=["hide_input"]
report.claim("rope-offset-only-float64")

# %% tags=["hide_input"]
page.offset_table()

# %% [markdown]
# Each dtype stays within its own error model: the measured error grows with the position
# along the line the model predicts [checked](claims.py#claim-rope-angle-error-model). Past
# position 2048 float16 cannot even hold every integer position
# [checked](claims.py#claim-float-format-facts), and the angles of neighbouring positions
# merge.
# The [precision chapter](precision.py) covers these failures in detail, with the reports from
# public projects.

# %% tags=["hide_input"]
report.claim("rope-angle-error-model")

# %% tags=["hide_input"]
page.merged_angles()

# %% tags=["hide_input"]
page.offset_error()

# %% [markdown]
# ## The "long-term decay" is a bound
#
# RoFormer argues that RoPE makes attention decay with distance. What it proves is a bound.
# Treat pair $i$ of $q$ and $k$ as complex numbers and let
# $h_i = \overline{\tilde q_i}\,\tilde k_i$; then the score at offset $r$ is
# $s(r) = \operatorname{Re}\sum_i h_i e^{ir\omega_i}$. Summation by parts, with the partial
# sums $S_j(r) = \sum_{i<j} e^{ir\omega_i}$ and $h_{d/2} = 0$, rewrites the sum, and the
# triangle inequality bounds it [checked](claims.py#claim-rope-decay-bound):
#
# $$|s(r)| \le \Bigl(\max_i |h_{i+1} - h_i|\Bigr) \sum_{j=1}^{d/2} |S_j(r)| .$$
#
# SymPy proves the summation-by-parts identity exactly, and NumPy checks the bound for
# $q = k = (1, \dots, 1)$ and random $q, k$ at every offset up to 5000. Dropping all partial
# sums but the last one gives a "bound" that random vectors violate.

# %% tags=["hide_input"]
report.claim("rope-decay-bound", proofs=True)

# %% [markdown]
# The right side, averaged over windows of offsets, does decrease. The scores themselves do
# not: even for $q = k$ the score falls from its value at offset 0 and then climbs back up by a
# large fraction of it, again and again. A monotone sequence (ALiBi's linear bias, on the
# [next page](relative-family.py)) passes the same test, so the test can tell the two apart.

# %% tags=["hide_input"]
report.claim("rope-scores-not-monotone")

# %% tags=["hide_input"]
page.decay()

# %% [markdown]
# ## What RoPE keeps and what it does not
#
# RoPE keeps the content–content score $\langle q, R_{n-m} k\rangle$ a function of the offset
# for any projections, adds no parameters, and costs $O(d)$ per vector. It does not by itself
# make a model work at positions longer than it was trained on: offsets never seen in
# training still give angles the model never saw. Position interpolation avoids them for every
# pair, base scaling only for the pairs that turn in training (the
# [next page](relative-family.py)).
