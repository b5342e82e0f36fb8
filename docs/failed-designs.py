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
# [Chapter 1](why-order.py) showed that attention needs each token's position added to its
# input. The obvious ways to write a position as numbers fail, and *how* they fail tells us
# what a good encoding must do. This chapter measures two of them, then checks the
# sinusoidal encoding against every requirement that follows.
#
# Everything on this page is computed by the package `pe` while the page is built.

# %% tags=["hide_input"]
import numpy as np

from pe import numeric
from pe.experiments import failed_designs as naive_encodings
from pe.site import intro as intro_figures
from pe.site import report

# %% [markdown]
# ## Design 1: the raw index
#
# Write position $p$ as the number $p$, for example as one extra coordinate of the token's
# vector, $[e;\,p]$. The first tokens get small values, but nothing bounds them: position
# 1000 writes a 1000 next to embedding entries of size about 1. (The paper's embeddings are
# multiplied by $\sqrt{d}$, which puts their entries at about that size; `pe` draws them from
# $N(0, 1)$.)

# %% tags=["hide_input"]
probe = np.array([10, 100, 1_000, 10_000])
ratio = naive_encodings.raw_index_ratio(probe, 512)
share = naive_encodings.position_share(probe, 512, design="raw")
rows = "".join(
    f"<tr><td>{p}</td><td>{r:.4g}</td><td>{s:.4f}</td></tr>"
    for p, r, s in zip(probe, ratio, share, strict=True)
)
report.Html(
    '<table class="pe-table"><thead><tr><th>position p</th>'
    "<th>p / rms of an embedding entry</th><th>share of |[e; p]|² held by p (d = 512)</th>"
    f"</tr></thead><tbody>{rows}</tbody></table>"
)

# %% [markdown]
# The index's share of the squared norm, $p^2/(p^2 + \lVert e\rVert^2)$, tends to 1: far
# positions swamp the word they are attached to, and every layer reading the vector sees
# mostly the position. The sinusoidal encoding, added to the same embeddings, keeps a
# fixed share at every position, because its norm is the same everywhere.

# %% tags=["hide_input"]
report.claim("raw-index-dominates")

# %% tags=["hide_input"]
intro_figures.position_share()

# %% [markdown]
# ## Design 2: the index divided by the length
#
# Divide by the length $n$ of the sentence, $p/n$, and every value lies in $[0, 1)$. But the
# step between neighbours becomes $1/n$: a quarter in a 4-token sentence, a fortieth in a
# 40-token one. "The next word" is a different number in every sentence, so a model cannot
# learn one pattern for it, and the value 0.25 means position 1 in the short sentence but
# position 10 in the long one.

# %% tags=["hide_input"]
report.claim("normalised-index-gap")

# %% tags=["hide_input"]
report.proof(naive_encodings.neighbour_gap_proof())

# %% tags=["hide_input"]
intro_figures.normalised_index_gaps()

# %% [markdown]
# ## What a position encoding needs
#
# The two failures give the list. An encoding should be
#
# 1. **bounded**, so that it cannot swamp the embedding, however long the text;
# 2. **unique**, a different vector for each position;
# 3. **consistent across positions**: the same offset (one step, five steps) looks the same
#    wherever it occurs, so a pattern learned at the start of a text applies at its end;
# 4. **defined for any length**, with a position's vector independent of the length of
#    its sentence;
# 5. **deterministic**: a function of the position, the same in every call.
#
# One source note adds "periodic", to show relative relationships. Periodicity belongs to
# each sine/cosine pair, which repeats after its wavelength, and it is what makes one fixed
# rotation move every position by the same offset ([chapter 4](rotation-identity.py)). The
# vector as a whole must *not* repeat, or requirement 2 fails: the pairs' wavelengths are
# chosen so that, together, they do not come back to a previous state (check 2 below).
#
# The sinusoidal encoding, defined in [chapter 3](sinusoidal-encoding.py) as
# $PE(p, 2i) = \sin\omega_i p$, $PE(p, 2i+1) = \cos\omega_i p$ with
# $\omega_i = 10000^{-2i/d}$, meets each of them. Each check below is a registered claim.

# %% [markdown]
# ### 1. Bounded
#
# Each sine and cosine of the same angle form a point on the unit circle, so every entry
# lies in $[-1, 1]$ at every position, however far.

# %% tags=["hide_input"]
report.claim("encoding-bounded")

# %% [markdown]
# ### 2. Unique
#
# One pair alone is not enough. Pair 0 turns by 1 radian per position, and some offsets
# bring it almost exactly back to where it started:

# %% tags=["hide_input"]
offsets = np.arange(1, 20_001)
single = naive_encodings.row_distance_by_offset(offsets, 2)
k_near = int(offsets[np.argmin(single)])
report.Html(
    f"<p>Within 20000 positions, pair 0 comes closest to repeating at offset {k_near}: "
    f"{k_near} radians are {k_near / (2 * np.pi):.7f} turns, and the pair at position "
    f"\\(p + {k_near}\\) is only {single.min():.2g} away from the pair at \\(p\\). The "
    "other pairs turn at other rates and keep the full vectors apart: with \\(d = 512\\) "
    "no two rows of the first 20000 positions come closer than neighbours do.</p>"
)

# %% tags=["hide_input"]
report.claim("encoding-rows-distinct")

# %% [markdown]
# ### 3. The same offset looks the same everywhere
#
# The distance between the encodings of two positions depends only on how far apart they
# are, not on where they are, nor on the length of the sentence. SymPy proves it pair by
# pair (a pair whose cosine turns at a different rate from its sine would fail); NumPy
# measures it on the full vectors.

# %% tags=["hide_input"]
report.claim("offset-distance-position-free")

# %% tags=["hide_input"]
report.proof(naive_encodings.offset_distance_proof())

# %% [markdown]
# [Chapter 4](rotation-identity.py) shows the stronger fact behind this: one fixed rotation
# takes every $PE(p)$ to $PE(p+k)$.
#
# ### 4. Defined for any length
#
# The formula takes the position and nothing else: the rows of a 4-token sentence are the
# first rows of a 40-token sentence, and a position a billion tokens in has its value, within
# the error model of `pe.numeric` (angles formed in float64 lose about
# $\varepsilon\,\omega_i p$). A learned table of 512 rows, by contrast, has nothing to say
# about position 512 ([chapter 6](fixed-or-learned.py)).

# %% tags=["hide_input"]
report.claim("encoding-independent-of-length")

# %% tags=["hide_input"]
report.claim("encoding-any-position")

# %% [markdown]
# ### 5. Deterministic
#
# No random initialisation, no training: the same positions give the same bits in any call
# and in any order.

# %% tags=["hide_input"]
report.claim("encoding-deterministic")

# %% [markdown]
# ## Exercises

# %% tags=["hide_input"]
report.exercise(
    "Under \\(p/n\\), what is the gap between neighbours in a sentence of 4 tokens, and in one "
    "of 40?",
    f"\\(1/n\\): {naive_encodings.normalised_index(4)[1]:.2f} and "
    f"{naive_encodings.normalised_index(40)[1]:.3f}, computed from the index itself.",
    claim_id="normalised-index-gap",
)

# %% tags=["hide_input"]
far = naive_encodings.position_share([1_000], 512, design="raw")[0]
report.exercise(
    "With \\(d = 512\\) and embedding entries of size about 1, what share of the squared norm "
    "of \\([e;\\,p]\\) does the raw index hold at position 1000?",
    f"About {far:.4f}: \\(p^2/(p^2 + \\lVert e\\rVert^2)\\) with \\(\\lVert e\\rVert^2 "
    "\\approx 512\\). It tends to 1 as \\(p\\) grows.",
    claim_id="raw-index-dominates",
)

# %% tags=["hide_input"]
one_step = naive_encodings.row_distance_by_offset([1], 512)[0]
table = numeric.sinusoidal(1001, 512)
measured = float(np.linalg.norm(table[1000] - table[999]))
report.exercise(
    "How far apart are the encodings (d = 512) of positions 0 and 1, and of positions 999 and "
    "1000?",
    f"The same distance, \\(\\sqrt{{\\sum_i (2 - 2\\cos\\omega_i)}} = {one_step:.6f}\\) "
    f"(measured between 999 and 1000: {measured:.6f}): it depends on the offset only.",
    claim_id="offset-distance-position-free",
)
