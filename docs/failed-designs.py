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
# # Designs that fail
#
# [Chapter 1](why-order.py) showed that attention without positions gives every order of
# the same words the same outputs, only permuted
# [checked](claims.py#claim-attention-permutation-equivariant).
#
# The designs on this page add a position to each token's input. The obvious ways to write
# a position as numbers fail, and *how* they fail tells us
# what a good encoding must do. This chapter measures two of them, then checks the
# sinusoidal encoding against each of the requirements that follow.
#
# Everything on this page is computed by the package `pe` while the page is built.

# %% tags=["hide_input"]
from pe.site import failed_designs as page
from pe.site import report

# %% [markdown]
# ## Design 1: the raw index
#
# Write position $p$ as the number $p$, for example as one extra coordinate of the token's
# vector, $[e;\,p]$. The first tokens get small values, but nothing bounds them: position
# $p$ writes $p$ itself next to embedding entries of size about one (`pe` draws them from
# the standard normal distribution).
#
# The paper multiplies its embedding weights by $\sqrt d$ and states no initialisation for
# them [checked](claims.py#claim-vaswani-embedding-scaling).
#
# That scaling gives entries of size about one only with an initialisation of variance
# about $1/d$
# [checked](claims.py#claim-embedding-scale-needs-init).

# %% tags=["hide_input"]
page.raw_index_table()

# %% [markdown]
# The index's share of the squared norm tends to 1
# [checked](claims.py#claim-raw-index-dominates):
#
# $$\frac{p^2}{p^2 + \lVert e\rVert^2} \;\longrightarrow\; 1 \qquad (p \to \infty):$$
#
# far positions swamp the word they are attached to.
#
# The sinusoidal encoding, by contrast, has the same norm at every position,
# $\sqrt{d/2}$, so its weight next to the word does not grow with $p$
# [checked](claims.py#claim-norm-constant).

# %% tags=["hide_input"]
page.position_share()

# %% [markdown]
# ## Design 2: the index divided by the length
#
# Divide by the length $n$ of the sentence, $p/n$, and the values stay small. But the
# step between neighbours becomes [checked](claims.py#claim-normalised-index-gap)
#
# $$\frac{p+1}{n} - \frac{p}{n} = \frac1n :$$
#
# a quarter in a 4-token sentence, a fortieth in a 40-token one. "The next word" is a
# different number in sentences of different lengths.
#
# And one value names different positions: 0.25 is position 1 in the short sentence but
# position 10 in the long one [checked](claims.py#claim-normalised-index-ambiguous).

# %% tags=["hide_input"]
page.normalised_index_gaps()

# %% tags=["hide_input"]
report.how_we_know(
    "raw-index-dominates", "normalised-index-gap", "normalised-index-ambiguous", proofs=True
)

# %% [markdown]
# ## What a position encoding needs
#
# The two failures give the list. An encoding should be
#
# 1. **bounded**, so that it stays of the embedding's size, however long the text;
# 2. **distinct**, a different vector for each position;
# 3. **consistent across positions**: the same offset (one step, five steps) looks the same
#    wherever it occurs, so a pattern learned at the start of a text applies at its end;
# 4. **defined for any length**, with a position's vector independent of the length of
#    its sentence;
# 5. **deterministic**: a function of the position, the same in each call.
#
# Should "periodic" be on this list? Periodicity belongs to each sine/cosine pair read as a
# function of a continuous position, which repeats after its wavelength $2\pi/\omega_i$.
# What moves every position by the same offset is
# something else: one fixed rotation per offset, which the angle-addition formula of sine
# and cosine gives ([chapter 4](rotation-identity.py))
# [checked](claims.py#claim-rotation-identity).
#
# The vector as a whole must *not* repeat, or uniqueness fails, and at whole positions it
# cannot: $\omega_i / 2\pi$ is irrational ($\pi$ is transcendental), so no wavelength is a
# ratio of whole numbers of positions and no pair ever comes back exactly to a former value [checked](claims.py#claim-pairs-never-return).
#
# The sinusoidal encoding of [chapter 3](sinusoidal-encoding.py),
# $PE(p, 2i) = \sin\omega_i p$ and $PE(p, 2i+1) = \cos\omega_i p$ with
# $\omega_i = 10000^{-2i/d}$ [checked](claims.py#claim-pair-index-range), meets each of them.
#
# ### 1. Bounded
#
# The sine and the cosine of one angle form a point on the unit circle
# [checked](claims.py#claim-encoding-bounded),
#
# $$\sin^2 \omega_i p + \cos^2 \omega_i p = 1, \qquad\text{so}\qquad |PE(p, j)| \le 1$$
#
# at every position, however far.
#
# ### 2. Unique
#
# One pair alone already gives every integer position its own point, but with too little
# room between them: the fastest pair turns by one radian per position, and some offsets
# bring it almost exactly back to where it started. With all {{ distinct_pairs }}
# pairs of $d = {{ distinct_d }}$, no two rows from 2 to {{ distinct_span }} positions apart are
# even as close as two neighbours; with four pairs, some are
# [checked](claims.py#claim-encoding-rows-distinct):

# %% tags=["hide_input"]
page.single_pair_note()

# %% [markdown]
# Counted in numbers, a continuous code is still thriftier than a binary one, as
# [Zhang et al.](bibliography.md#zhang2023) say
# [checked](claims.py#claim-d2l-continuous-thriftier).
#
# A binary code of $n$ positions needs
# $\lceil \log_2 n \rceil$ bits (found by trying at {{ bits_sizes }} sizes up to {{ bits_largest }}), while that single pair gives every integer position its
# own point, because a nonzero whole number of radians is never a whole number of turns
# (proved for every nonzero integer offset in [chapter 5](implications.py); measured here on
# the first thousand).
# What it gives up is margin. Two different binary codes differ in at least one bit, so
# they lie at least 1 apart; the single pair has no such floor: two of its first thousand
# points lie within $10^{-4}$ of each other, and a little noise or rounding would then
# confuse the two positions [checked](claims.py#claim-continuous-fewer-numbers).
#
# Many pairs of different frequencies buy the margin back, as [section 2](#2-unique) showed:
# with all {{ distinct_pairs }} pairs of $d = {{ distinct_d }}$, no two rows 2 to
# {{ distinct_span }} positions apart are as close as two neighbours
# [checked](claims.py#claim-encoding-rows-distinct).
#
# ### 3. The same offset looks the same everywhere
#
# The distance between the encodings of two positions depends only on how far apart they
# are, not on where they are, nor on the length of the sentence
# [checked](claims.py#claim-offset-distance-position-free):
#
# $$\lVert PE(p+k) - PE(p) \rVert^2 = \sum_{i=0}^{d/2-1} \bigl(2 - 2\cos \omega_i k\bigr),$$
#
# with no $p$ in it. SymPy proves it pair by pair (a pair whose cosine turns at a different
# rate from its sine would fail); NumPy measures it on the full vectors.
# [Chapter 4](rotation-identity.py) shows the stronger fact behind this: one fixed rotation
# takes every $PE(p)$ to $PE(p+k)$ [checked](claims.py#claim-rotation-identity).
#
# ### 4. Defined for any length
#
# The formula takes the position and nothing else: the rows of a 4-token sentence are the
# first rows of a 40-token sentence [checked](claims.py#claim-encoding-independent-of-length).
#
# And a position a billion tokens in has its value: `pe.numeric` computes every entry within
# ${{ entry_bound }}$ of the exact value at every position up to $2^{53}$ (a bound derived in
# [the precision chapter](precision.py) from NumPy's sine and cosine being as accurate as the
# build machine measures them, and measured here at eight positions from 0 to $2^{53}$)
# [checked](claims.py#claim-encoding-any-position).
#
# A learned table of 512 rows, by contrast, has nothing to say about position 512
# [checked](claims.py#claim-learned-table-trade) ([chapter 6](fixed-or-learned.py)).
#
# ### 5. Deterministic
#
# No random initialisation, no training: the same positions give the same bits in any call
# and in any order [checked](claims.py#claim-encoding-deterministic).

# %% tags=["hide_input"]
report.how_we_know(
    "encoding-bounded", "encoding-rows-distinct", "continuous-fewer-numbers",
    "offset-distance-position-free", "encoding-independent-of-length", "encoding-any-position",
    "encoding-deterministic", proofs={"offset-distance-position-free": True},
)  # fmt: skip

# %% [markdown]
# ## Exercises

# %% tags=["hide_input"]
page.exercises()
