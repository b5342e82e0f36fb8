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
# pair of the encoding by its own angle $k\omega_i$. This chapter draws the consequences: what
# the dot product of two rows measures, why every row has the same length, why no two
# positions share a row, and where the "relative position" property stops, once the model's
# projections and the word embeddings enter the attention score. Everything is computed while
# the page is built.

# %% tags=["hide_input"]
from pe.chapters import implications as proofs
from pe.site import implications as page
from pe.site import report

# %% [markdown]
# ## The dot product depends only on the offset
#
# For one pair, $v_i(p) \cdot v_i(p+k) = \sin\omega_i p \,\sin\omega_i(p+k) +
# \cos\omega_i p\, \cos\omega_i(p+k)$. Expanding $\omega_i(p+k)$ with the angle-addition
# formulas and using $\sin^2 + \cos^2 = 1$ leaves $\cos\omega_i k$: the position $p$ drops out
# [checked](claims.py#claim-dot-product-offset-only).
# Summing over the pairs,
#
# $$PE(p) \cdot PE(p+k) = \sum_{i=0}^{d/2-1} \cos \omega_i k .$$
#
# Geometrically this is no surprise: $T_k$ is a rotation, and the dot product of two unit
# vectors is the cosine of the angle between them, which is $k\omega_i$ for pair $i$.

# %% tags=["hide_input"]
report.claim("dot-product-offset-only")

# %% tags=["hide_input"]
report.proof(proofs.dot_product_per_pair())

# %% [markdown]
# ## It is symmetric: the raw encoding has no direction
#
# Cosine is even, so $PE(p) \cdot PE(p+k) = PE(p) \cdot PE(p-k)$: a word $k$ places ahead and a
# word $k$ places behind look exactly alike to the dot product of the raw encodings. Direction
# is not lost from the vectors themselves ($PE(p+k) \neq PE(p-k)$), only from this
# similarity. A matrix between the two rows can bring it back: the wrong candidate below puts
# $T_1$ between them, $PE(p)^{\mathsf T} T_1 PE(q)$, and the result is no longer even in $k$.
# Learned projections $W_q^{\mathsf T} W_k$ play that role in attention (see the last section).

# %% tags=["hide_input"]
report.claim("dot-product-symmetric")

# %% [markdown]
# ## It does not fall steadily with distance
#
# Near $k = 0$ all the cosines are close to 1 and $f(k) = \sum_i \cos\omega_i k$ falls as $k$
# grows. But the fast pairs come back round: the fastest completes a turn every $2\pi$
# positions [checked](claims.py#claim-wavelength-progression), so $f$ wobbles, and the wobbles eventually
# win over the slow decline [checked](claims.py#claim-dot-product-not-monotone).

# %% tags=["hide_input"]
page.decay_sentence()

# %% tags=["hide_input"]
page.dot_product_by_offset()

# %% [markdown]
# Try it: the curve below is $PE(p) \cdot PE(p+k)$ for $k$ up to {{ explorer_offsets }}, computed in your
# browser; the sliders change $d$, the base and the offset read out.

# %% tags=["hide_input"]
page.dot_product_explorer()

# %% tags=["hide_input"]
report.claim("dot-product-not-monotone")

# %% [markdown]
# So "the dot product measures distance" holds only roughly and only for nearby positions.
# A model that needs a clean notion of distance has to learn it through its projections.
#
# ## Every row has the same length
#
# Each pair is a point on the unit circle, so each contributes exactly 1 to the squared norm:
# $\lVert PE(p) \rVert^2 = d/2$ and $\lVert PE(p) \rVert = \sqrt{d/2}$ at every position,
# whatever $p$ is. The encoding never grows with the position, however long the sequence.

# %% tags=["hide_input"]
report.claim("norm-constant")

# %% tags=["hide_input"]
report.proof(proofs.norm_per_pair())

# %% [markdown]
# ## Every position has its own row
#
# Two positions $p \neq q$ (integers) can only share a row if they share pair 0, whose
# frequency is $\omega_0 = 1$: $(\sin p, \cos p) = (\sin q, \cos q)$ means that $p - q$ is a
# whole number of turns, $p - q = 2\pi m$ with $m$ a non-zero integer. Then
# $\pi = (p - q)/(2m)$ would be a fraction, and $\pi$ is irrational. So no two rows are equal,
# whatever the length. (The same argument works for every pair on its own: $\omega_i(p - q) =
# 2\pi m$ would make $\pi$ an algebraic number, and $\pi$ is transcendental.)

# %% tags=["hide_input"]
report.claim("pairs-never-return")

# %% [markdown]
# Equal is one thing, close is another. Because
# $\lVert PE(p) - PE(q) \rVert^2 = \sum_i (2 - 2\cos\omega_i(p - q))$ depends only on the
# offset, the closest two rows among $n$ positions can be found by scanning the $n - 1$ offsets
# instead of all $n^2/2$ pairs of rows (the evidence below checks that shortcut against a
# brute-force search) [checked](claims.py#claim-rows-distinct).

# %% tags=["hide_input"]
page.nearest_rows_table()

# %% tags=["hide_input"]
report.claim("rows-distinct")

# %% [markdown]
# The closest rows are neighbours, and they stay well apart even among a hundred thousand
# positions: the slow pairs move a little at every step, and the fast pairs never line up all
# at once again. The wrong candidate shows what would go wrong with frequencies that are
# whole fractions of a turn, as in a binary counter: there the rows repeat exactly.
#
# ## Every pair carries both absolute and relative position
#
# A common statement splits the work between the frequencies: the slow, low-frequency pairs
# would carry absolute (global) position and the fast, high-frequency ones relative (local)
# order (for example [vectree](bibliography.md#vectree)). That split does not exist. The rotation identity holds for every pair, with its own block $B(k\omega_i)$: the
# relative property is a property of each frequency, slow or fast. And every pair on its own
# separates positions, since no pair ever returns exactly to a former value (the argument
# above). What differs between frequencies is *resolution*: a fast pair moves a lot per step
# but comes back close to earlier values, a slow pair never comes back within the context but
# moves little per step. The check below runs every one of the $d/2$ pairs for $d = 512$
# [checked](claims.py#claim-every-pair-relative-and-absolute).

# %% tags=["hide_input"]
page.pair_distances_sentence()

# %% tags=["hide_input"]
report.claim("every-pair-relative-and-absolute")

# %% [markdown]
# ## Where the relative property stops: the attention score
#
# Attention does not compare raw encodings. It adds each position's encoding to the word
# embedding, projects with $W_q$ and $W_k$, and takes a dot product. With $x$, $y$ the word
# embeddings at positions $p$ and $q$, $e_p = PE(p)$, $e_q = PE(q)$ and
# $W = W_q^{\mathsf T} W_k$, the score splits into four terms:

# %% tags=["hide_input"]
report.claim("attention-score-four-terms")

# %% [markdown]
# Only the last term, $e_p^{\mathsf T} W e_q$, involves positions alone, and even it is a
# function of $p - q$ only for special $W$. Writing one pair's block of $W$ as
# $[[w_{11}, w_{12}], [w_{21}, w_{22}]]$ and using the product-to-sum formulas, the term has
# a part in $p - q$ and a part in $p + q$; in that block the $p + q$ part vanishes only when
# $w_{22} = w_{11}$ and $w_{21} = -w_{12}$, that is when the block is a scaled rotation that
# commutes with $T_k$. That is not enough for the whole term: a block of $W$ coupling two
# different pairs $i \ne j$ contributes terms in $\omega_i p - \omega_j q$, which are not
# functions of $p - q$ either, so every such block must vanish too. The middle terms $x^{\mathsf T} W e_q$ and $e_p^{\mathsf T} W y$ depend on one position
# each, which is how absolute position reaches the score.

# %% tags=["hide_input"]
report.claim("projected-score-not-relative")

# %% tags=["hide_input"]
report.claim("position-term-relative-condition")

# %% [markdown]
# Measured on score matrices for 300 positions, $d = 64$, random $W_q, W_k$ with 16 rows: the
# raw dot product (and a $W$ made of scaled rotations) is constant along each diagonal
# $q - p = k$ to rounding [checked](claims.py#claim-position-term-relative-condition), while random
# projections, with or without a content vector, are not [checked](claims.py#claim-projected-score-not-relative).

# %% tags=["hide_input"]
page.spread_table()

# %% tags=["hide_input"]
page.score_matrices()

# %% [markdown]
# Even the raw dot product stops being relative once content is added: the cross terms
# $x^{\mathsf T} e_q$ and $e_p^{\mathsf T} y$ depend on $p$ and $q$ separately. The identity
# makes relative position *available* (a linear map can pick it up); it does not make
# attention relative by itself. Encodings that build the offset into the score directly are
# the subject of [the relative-position family](relative-family.py) and
# [rotary embeddings](rope.py).
#
# ## Exercises

# %% tags=["hide_input"]
page.exercise_dot_product()

# %% tags=["hide_input"]
page.exercise_first_rise()

# %% tags=["hide_input"]
page.exercise_norm()
