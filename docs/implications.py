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
# # What the identity implies
#
# The [rotation identity](rotation-identity.py) says that moving $k$ positions turns every
# pair of the encoding by its own angle $k\omega_i$ [checked](claims.py#claim-rotation-identity). This chapter draws the consequences: what
# the dot product of two rows measures, why every row has the same length, why no two
# positions share a row, and where the "relative position" property stops, once the model's
# projections and the word embeddings enter the attention score. Everything is computed while
# the page is built.

# %% tags=["hide_input"]
from pe.site import implications as page
from pe.site import report

# %% [markdown]
# ## The dot product depends only on the offset
#
# Take pair $i$ at two positions $k$ apart. The cosine of a difference,
# $\cos(\alpha - \beta) = \cos\alpha\cos\beta + \sin\alpha\sin\beta$, gives
#
# $$v_i(p) \cdot v_i(p+k) = \sin\omega_i p\,\sin\omega_i(p+k) + \cos\omega_i p\,\cos\omega_i(p+k)
# = \cos\bigl(\omega_i(p+k) - \omega_i p\bigr) = \cos\omega_i k ,$$
#
# and the position $p$ drops out. Summing over the pairs
# [checked](claims.py#claim-dot-product-offset-only):
#
# $$PE(p) \cdot PE(p+k) = \sum_{i=0}^{d/2-1} \cos \omega_i k .$$
#
# Geometrically this is no surprise: $T_k$ is a rotation, and the dot product of two unit
# vectors is the cosine of the angle between them, which is $k\omega_i$ for pair $i$.

# %% tags=["hide_input"]
report.how_we_know(
    "dot-product-offset-only",
    more=[report.proof_of("dot-product-offset-only", summary="How the machine checked it: the")],
)

# %% [markdown]
# ## Its dot product is symmetric: no direction in the similarity
#
# Cosine is even, so
#
# $$PE(p) \cdot PE(p+k) = PE(p) \cdot PE(p-k):$$
#
# a word $k$ places ahead and a
# word $k$ places behind look exactly alike to the dot product of the raw encodings. A matrix
# between the two rows can bring direction back: $PE(p)^{\mathsf T} T_1 PE(q)$, with $T_1$
# between them, is no longer even in $k$ (the claim's wrong candidate)
# [checked](claims.py#claim-dot-product-symmetric).
#
# Direction is lost only from this similarity, not from the vectors themselves: no two
# positions share a row (a section below), so $PE(p+k) \neq PE(p-k)$ for every integer
# $k \neq 0$ [checked](claims.py#claim-rows-distinct).
#
# ## It does not fall steadily with distance
#
# Course notes say that closer positions have closer vectors
# [checked](claims.py#claim-khapra-closer-positions).
#
# Near $k = 0$ all the cosines are close to 1 and $f(k) = \sum_i \cos\omega_i k$ falls as $k$
# grows. But the fast pairs come back round, the fastest ($\omega_0 = 1$) every $2\pi$
# positions, so $f$ wobbles, and the wobbles eventually win over the slow decline
# [checked](claims.py#claim-dot-product-not-monotone).

# %% tags=["hide_input"]
page.decay_sentence()

# %% tags=["hide_input"]
page.dot_product_by_offset()

# %% [markdown]
# Try it: the curve below is $PE(p) \cdot PE(p+k)$ for $k$ up to {{ explorer_offsets }}, computed
# in your browser; the sliders change $d$, the base and the offset read out. So "the dot
# product measures distance" holds only roughly and only for nearby positions
# [checked](claims.py#claim-dot-product-not-monotone).

# %% tags=["hide_input"]
page.dot_product_explorer()

# %% tags=["hide_input"]
report.how_we_know("dot-product-symmetric", "khapra-closer-positions", "dot-product-not-monotone")

# %% [markdown]
# ## Every row has the same length
#
# Each pair is a point on the unit circle, so each contributes exactly 1 to the squared norm
# [checked](claims.py#claim-norm-constant):
#
# $$\lVert PE(p) \rVert^2 = \sum_{i=0}^{d/2-1} \bigl(\sin^2\omega_i p + \cos^2\omega_i p\bigr)
# = \frac d2 \qquad\text{at every position } p .$$
#
# The encoding never grows with the position, however long the sequence
# [checked](claims.py#claim-norm-constant).
#
# ## Every position has its own row
#
# Two positions $p \neq q$ (integers) can only share a row if they share pair 0, whose
# frequency is $\omega_0 = 1$: $(\sin p, \cos p) = (\sin q, \cos q)$ means that $p - q$ is a
# whole number of turns, $p - q = 2\pi m$ with $m$ a non-zero integer. Then
# $\pi = (p - q)/(2m)$ would be a fraction, and $\pi$ is irrational. So no two rows are equal,
# whatever the length. (The same argument works for every pair on its own: $\omega_i(p - q) =
# 2\pi m$ would make $\pi$ an algebraic number, and $\pi$ is transcendental.)
# [checked](claims.py#claim-pairs-never-return)
#
# Equal is one thing, close is another. Because
# $\lVert PE(p) - PE(q) \rVert^2 = \sum_i (2 - 2\cos\omega_i(p - q))$ depends only on the
# offset, the closest two rows among $n$ positions can be found by scanning the $n - 1$
# offsets instead of all $n(n-1)/2$ pairs of rows. Measured over the first hundred thousand
# positions at $d = 64$ and $d = 512$, the closest rows are neighbours. Frequencies that are whole
# fractions of a turn, as in a binary counter, would make rows repeat exactly (the claim's
# wrong candidate) [checked](claims.py#claim-rows-distinct).

# %% tags=["hide_input"]
page.nearest_rows_table()

# %% tags=["hide_input"]
report.how_we_know(
    "norm-constant",
    "pairs-never-return",
    "rows-distinct",
    more=[report.proof_of("norm-constant")],
)

# %% [markdown]
# ## Every pair carries both absolute and relative position
#
# A common statement splits the work between the frequencies: the slow, low-frequency pairs
# would carry absolute (global) position and the fast, high-frequency ones relative (local)
# order (for example [vectree](bibliography.md#vectree))
# [checked](claims.py#claim-vectree-frequency-split).
#
# As a division of the two properties that overstates it. The rotation identity holds for every pair, with its own block
# $B(k\omega_i)$: the relative property is a property of each frequency, slow or fast. And
# every pair on its own separates positions, since no pair ever returns exactly to a former
# value. What differs between frequencies is *margin*: a fast pair moves a lot per step but
# comes back close to a former value after about a whole number of turns, a slow pair never
# comes back within the context but moves little per step. So a fast pair is the one that
# confuses positions far apart, and a slow one neighbours: in that sense, and only in that
# sense, the slow pairs tell better where a position is and the fast pairs how far apart two
# close positions are. The check runs every one of the $d/2$ pairs for $d = 512$
# [checked](claims.py#claim-every-pair-relative-and-absolute).

# %% tags=["hide_input"]
page.pair_distances_sentence()

# %% tags=["hide_input"]
report.how_we_know("every-pair-relative-and-absolute")

# %% [markdown]
# ## Where the relative property stops: the attention score
#
# Attention does not compare raw encodings. The paper adds each position's encoding to the
# word embedding [checked](claims.py#claim-encoding-added-to-embedding); attention projects
# the sums with $W_q$ and $W_k$ and takes a dot product.
#
# With $x$, $y$ the word
# embeddings at positions $p$ and $q$, $e_p = PE(p)$, $e_q = PE(q)$ and
# $W = W_q^{\mathsf T} W_k$, the score splits into four terms
# [checked](claims.py#claim-attention-score-four-terms):
#
# $$(x + e_p)^{\mathsf T} W (y + e_q) = x^{\mathsf T} W y + x^{\mathsf T} W e_q
# + e_p^{\mathsf T} W y + e_p^{\mathsf T} W e_q .$$
#
# Only the last term involves positions alone, and even it is a function of $p - q$ only for
# special $W$. Write one pair's block of $W$ as
# $\begin{pmatrix} w_{11} & w_{12} \\ w_{21} & w_{22} \end{pmatrix}$: by the product-to-sum
# formulas the term has a part in $p - q$ and a part in $p + q$, and the $p + q$ part vanishes
# only when $w_{22} = w_{11}$ and $w_{21} = -w_{12}$, a scaled rotation that commutes with
# $T_k$ [checked](claims.py#claim-projected-score-not-relative).
#
# That is not enough for the whole term: a block of $W$ coupling two different pairs
# $i \ne j$ contributes terms in $\omega_i p - \omega_j q$, which are not functions of $p - q$
# either, so every such block must vanish too. Measured on score matrices for 300 positions,
# $d = 64$: a $W$ made of scaled rotations, like the raw dot product, is constant along each
# diagonal $q - p = k$ to rounding [checked](claims.py#claim-position-term-relative-condition).
#
# Random $W_q, W_k$ with 16 rows are not, with or without a content vector, and once a
# content vector is added not even the raw product ($W = I$) is
# [checked](claims.py#claim-projected-score-not-relative).

# %% tags=["hide_input"]
page.score_matrices()

# %% tags=["hide_input"]
report.how_we_know(
    "attention-score-four-terms",
    "position-term-relative-condition",
    "projected-score-not-relative",
    more=[page.spread_table()],
)

# %% [markdown]
# Even the raw dot product stops being relative once content is added: the cross terms
# $x^{\mathsf T} e_q$ and $e_p^{\mathsf T} y$ depend on $p$ and $q$ separately
# [checked](claims.py#claim-content-breaks-raw-offset).
#
# The identity makes relative position *available* (a linear map can pick it up); it does
# not make attention relative by itself. Encodings that build the offset into the score
# directly are the subject of [the relative-position family](relative-family.py) and
# [rotary embeddings](rope.py).

# %% tags=["hide_input"]
report.how_we_know("content-breaks-raw-offset")

# %% [markdown]
# ## Exercises

# %% tags=["hide_input"]
page.exercise_dot_product()

# %% tags=["hide_input"]
page.exercise_first_rise()

# %% tags=["hide_input"]
page.exercise_norm()
