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
# # Precision and speed
#
# A table of sines and cosines looks like the easiest thing to compute. It is not, once the
# positions get large: the angle $\omega_i p$ has to be known to far more digits than the
# value finally stored, because $\sin$ sees the angle modulo a full turn. This chapter
# measures how wrong the usual ways of computing the table are, explains why, shows how `pe`
# computes it with an error that does not grow with the position, and how fast (using the
# [rotation identity](rotation-identity.py) itself as the algorithm), and what rounding does
# to the identity. Errors are measured at build against mpmath (at least
# {{ reference_digits }} digits); the speed section's timings and errors come from the last
# saved benchmark run.

# %% tags=["hide_input"]
from pe.site import precision as page
from pe.site import report

# %% [markdown]
# ## Three ways to compute the table
#
# * **The float32 recipe.** The table built entirely in float32: positions
#   as float32, frequencies `exp(arange(0, d, 2) * -(log(10000) / d))` in float32, the
#   product $p \cdot \omega_i$ rounded to float32, then `sin` and `cos` in float32
#   (`pe.recipes.float32_recipe`).
# * **The direct float64 evaluation.** $\sin$ and $\cos$ of $p\,\omega_i$ in float64, with
#   `pe`'s correctly rounded frequencies rather than the recipe's `exp(...)`, then rounded
#   once to the output dtype (`pe.numeric.sinusoidal_direct`, kept in `pe` as the readable
#   reference).
# * **The rotation algorithm.** `pe.numeric.sinusoidal`, described below.
#
# The largest error over the columns, at a few positions ($d = {{ drift_width }}$):

# %% tags=["hide_input"]
page.drift_table()

# %% [markdown]
# ## Why the float32 recipe drifts
#
# A float32 number carries 24 significant bits, so rounding the angle
# $\theta = \omega_i p$ to float32 moves it by up to $2^{-24}\,\theta$, and the sine passes
# that error on unchanged. Near $10^4$ consecutive float32 numbers are $2^{-10}$ apart, so an
# angle of that size (a pair with $\omega_i$ near 1, at $p = 10^4$) is off by up to
# $2^{-11} \approx 4.9 \times 10^{-4}$ radians, and an absolute precision of $10^{-8}$ on an
# angle of $10^4$ would need 40 significant bits: no rounding mode fixes this
# [checked](claims.py#claim-float-format-facts).
#
# The frequency is rounded too (and `exp` amplifies the rounding of its argument, by
# $|\ln \omega_i|$), which adds to the same linear growth
# [checked](claims.py#claim-float32-recipe-drifts): in the row $p = 10^4$ the recipe's
# entries err by up to {{ recipe32_at_1e4:.1e }} (the table above).
#
# The direct float64 evaluation drifts for the same reason, more slowly by roughly the
# epsilons' ratio $2^{29}$ ({{ drift_ratio_low:.2f }} to {{ drift_ratio_high:.2f }} times it
# over 32 rows from each of the table's positions): its largest error over a row is {{ direct64_at_1e3:.1e }} at $p = 10^3$ and
# {{ direct64_at_1e6:.1e }} at $p = 10^6$ [checked](claims.py#claim-direct-float64-drifts).
# The figure shows each method's largest error over a sample of columns, at positions up to
# about a million: the float32 recipe grows linearly, the float16 recipe until its errors
# reach the size of the values themselves, and the three `pe` tables are flat.

# %% tags=["hide_input"]
page.error_vs_position()

# %% [markdown]
# In float16 it is worse in two ways: above 2048 integers are no longer all representable,
# so *neighbouring positions become the same number*, and 65504 is the largest finite
# float16: from 65520 on, a position overflows to infinity
# [checked](claims.py#claim-float-format-facts).

# %% tags=["hide_input"]
report.how_we_know("float32-recipe-drifts", "numpy-float32-accuracy", "direct-float64-drifts", "float-format-facts")  # fmt: skip

# %% [markdown]
# ## The rotation algorithm
#
# Store each (sine, cosine) pair as one complex number,
# $z_i(p) = \sin\omega_i p + \mathrm{i}\cos\omega_i p$. Then the rotation identity says that
# moving by $q$ positions is **one complex multiplication**, $z_i(q + r) = z_i(r)\,(\cos\omega_i q -
# \mathrm{i}\sin\omega_i q)$ [checked](claims.py#claim-complex-shift-step).
# `pe.numeric.sinusoidal` (module `pe._rotation_table`) uses it as follows:
#
# 1. Split each position into a block start $q$, a multiple of the block size $B$, and
#    an offset $r$ inside the block, smaller than $B$.
# 2. Compute the **anchors** $z_i(r)$ for one block of positions and $z_i(q)$ for each block
#    start accurately (below).
# 3. Fill each entry with that one complex multiplication, in float64, and round the result
#    once to the output dtype.
#
# Per entry, the last step takes one complex multiplication where a direct evaluation takes a
# sine and a cosine. The tempting shortcut, chaining the step one row at a time,
# $z(p + 1) = z(p)\,e^{-\mathrm{i}\omega}$, lets the rounding errors of the products add up
# along the chain: the accuracy check rejects chained rows as a wrong candidate
# [checked](claims.py#claim-table-accurate-float32).
#
# `pe` chains nothing. A float64 entry is one product of two anchors computed directly from
# accurate angles; for a float32 or float16 table each anchor is itself one product of two
# accurate anchors. The error bounds of both cases, one product and a product of products,
# are derived below [checked](claims.py#claim-entry-error-bound).

# %% tags=["hide_input"]
page.block_size()

# %% [markdown]
# ### Accurate anchors
#
# An anchor is no more accurate than its angle, and a float64 angle is not good enough at
# large positions. For its anchors, `pe.sinusoidal` never forms $\omega_i p$ in float64. It
# works in *turns*, $p f_i$
# with $f_i$ the frequency in turns per position, and
# [checked](claims.py#claim-anchor-angle-accurate):
#
# * computes $f_i$ once per $(d, \text{base})$ in extended decimal arithmetic (for widths over
#   {{ decimal_width }}, as the product of two short such tables) and keeps it as an unevaluated
#   sum of three doubles, within $2^{-150}$ relative of the exact frequency as measured at every pair
#   of two widths (the worst pair against mpmath: {{ turn_bits:.0f }} bits at width
#   {{ turn_width }}, {{ wide_turn_bits:.0f }} at {{ wide_width }})
#   [checked](claims.py#claim-frequency-turns-accurate);
# * splits the integer $p$ and the leading double of $f_i$ into parts short enough that
#   every partial product is **exact** in float64 (Dekker and Veltkamp's splitting,
#   [dekker1971](bibliography.md#dekker1971); no fused multiply-add needed)
#   [checked](claims.py#claim-veltkamp-split-exact);
# * drops the whole turns of each exact partial product and adds the fractional parts with
#   error-free two-sums: the angle modulo a full turn comes out as a double-double;
# * evaluates $\sin x_{hi} + x_{lo}\cos x_{hi}$ and $\cos x_{hi} - x_{lo}\sin x_{hi}$ on that
#   reduced angle, $x_{hi}$ in $[-\pi, \pi]$ (where the low word carries the sum past half a
#   turn, one last whole turn comes off).
#
# The angle error left is below $2^{-80}$ turns, about $5 \times 10^{-24}$ radians, at every
# position up to $2^{53}$, at the widths whose frequencies were measured above: the low word takes six additions, each below
# $2^{-83}$ turns, and two products, each below $2^{-84}$, and the frequency's own error adds
# less than $2^{-99}$. The check measures it at {{ angle_positions }} positions, $2^{53}$
# among them, at widths {{ turn_width }} (every pair) and {{ wide_width }} ({{ wide_pairs }}
# of its {{ wide_all_pairs }} pairs) [checked](claims.py#claim-anchor-angle-accurate).
#
# So an anchor is as good as NumPy's float64 `sin` and `cos` on $[-\pi, \pi]$, plus one
# rounding. The error model *assumes* {{ sine_ulps }} units in the last place, and the
# build measures it against mpmath on the machine it runs on
# [checked](claims.py#claim-library-sine-accurate); the test suite (`tests/test_machines.py`)
# repeats every claim under each NumPy kernel that machine can run. The bounds below are
# derived from that assumption.
#
# One complex product of two unit-length anchors, each within $\delta$ of exact, adds their errors with
# weights of at most $\sqrt2$, and three roundings of quantities at most 1
# [checked](claims.py#claim-entry-error-bound):

# %% tags=["hide_input"]
page.entry_bound()

# %% [markdown]
# This is an *absolute* bound. It does not make the float64 table correctly rounded: half a
# unit in the last place of an entry is at most $2^{-54}$, less than the bound allows, and
# an entry near a zero crossing is tiny, so an error of $10^{-16}$ is many units of its last
# place [checked](claims.py#claim-table-accurate-float64).
#
# For float32 and float16 tables `pe` saves more sines: each anchor is itself the product of
# two accurate anchors (positions split at {{ radix }} units), which leaves the float64 value
# within $1.6 \times 10^{-15}$. Rounding it once to float32 adds at most $2^{-25}$, so a
# float32 entry is the correctly rounded value unless the exact value lies within
# $1.6 \times 10^{-15}$ of a midpoint between two float32 numbers, which no sampled entry
# does [checked](claims.py#claim-table-accurate-float32):

# %% tags=["hide_input"]
page.rounding_sentence()

# %% tags=["hide_input"]
report.how_we_know(
    "complex-shift-step", "anchor-angle-accurate", "library-sine-accurate", "entry-error-bound",
    "table-accurate-float64", "table-accurate-float32", proofs={"complex-shift-step": True}, more=[page.anchoring()],
)  # fmt: skip

# %% [markdown]
# ## The rotation identity in floating point
#
# The identity $T_k\,PE(p) = PE(p+k)$ holds exactly for real numbers. Computed in a dtype
# with machine epsilon $\varepsilon$, `pe.numeric.check_rotation_identity` holds each entry
# of pair $i$ to
#
# $$\tau_i(p, k) = 4\,\varepsilon + 8\,\varepsilon_{64} + 4\,\varepsilon_{64}\,\omega_i\,(|p| + |k|):$$
#
# the first term covers rounding to that dtype and the products and sum in it; the second,
# the float64 sines and cosines the check evaluates; the third, each angle $\omega_i p$,
# $\omega_i k$ rounded once in float64, an error that grows with the angle
# [checked](claims.py#claim-identity-low-precision). The figure draws, for float64 and
# float32, the largest error measured at each position next to the tolerance there.

# %% tags=["hide_input"]
page.identity_error()

# %% [markdown]
# In float16 the identity is only good to about three decimal digits; a grossly wrong
# matrix, the transposed $T_k$, is still rejected, its errors being of order one
# [checked](claims.py#claim-identity-low-precision), on the claim's positions and offsets:

# %% tags=["hide_input"]
page.identity_table()

# %% tags=["hide_input"]
report.how_we_know("identity-low-precision")

# %% [markdown]
# ## Low precision and the uniqueness of rows
#
# With exact values, two rows of the table are never equal: no pair ever returns exactly to
# a former value [checked](claims.py#claim-pairs-never-return).
#
# Rounding the *values* to float16 keeps the rows apart: among the first
# {{ separation_positions }} positions at $d = {{ separation_width }}$, no two rows come closer
# than {{ float16_apart:g }} in Euclidean distance (the closest two are
# {{ float16_neighbours:.4f }} apart), far more than float16's rounding. Rounding the
# *positions* to float16 does not: above 2048 consecutive positions share one float16 number,
# so they get identical rows [checked](claims.py#claim-float16-positions-collide). The table
# compares every pair of those positions.

# %% tags=["hide_input"]
page.separation_table()

# %% tags=["hide_input"]
report.how_we_know("float16-positions-collide")

# %% [markdown]
# ## Reported failures in public code
#
# The same mechanisms, and a close one (the rotation applied to queries and keys held in
# lower precision), have broken rotary position embeddings (RoPE), which use the same angles
# $\omega_i p$, in widely used projects:
#
# * In GPT-NeoX the cached sine and cosine tables were computed in the model's half precision,
#   frequencies included ([gptneox1003](bibliography.md#gptneox1003)); the reporter's
#   numbers are recomputed below the list.
# * In Megatron-LM the position sequence was cast to the dtype of the frequencies, float16
#   under mixed precision: with 32768 positions the later positions lost their low bits and
#   many of them received the same row of angles, as the reported code path, recomputed,
#   shows
#   ([megatron535](bibliography.md#megatron535))
#   [checked](claims.py#claim-megatron-535-float16-positions).
# * In Hugging Face Transformers, casting a Llama model to float16 or bfloat16 also cast the
#   cached RoPE values ([hf25681](bibliography.md#hf25681))
#   [checked](claims.py#claim-hf25681-reported).
# * In Mistral, the frequencies became bfloat16 under mixed-precision training and rebuilt
#   tables were wrong, which the reporter linked to a loss of model quality
#   ([hf29496](bibliography.md#hf29496)) [checked](claims.py#claim-hf29496-reported).
# * A later change computed RoPE in float32 for Llama and Gemma after bfloat16 angles were
#   seen to lose precision at long contexts ([hf29285](bibliography.md#hf29285))
#   [checked](claims.py#claim-hf29285-reported).
# * In NVIDIA TransformerEngine, a Llama 3.1 training run (RoPE base 500000, bfloat16 mixed
#   precision) showed a loss gap between FP8 autocast on and off that the reporters traced to the fused RoPE kernel applied to bfloat16 queries and keys,
#   the frequencies being float32 ([te1245](bibliography.md#te1245)) [checked](claims.py#claim-te1245-reported).
#
# The reporter's reproducer of GPT-NeoX ($d = {{ neox_d }}$, {{ neox_n }} positions),
# recomputed: at position {{ neox_row }}, pair {{ neox_pair }}, the float32 angle is
# {{ neox_angle32:.4f }}. Rounded to float16 it would be {{ neox_rounded:g }} (float16
# numbers of that size are whole); the {{ neox_angle16:g }} printed in the report comes
# from multiplying the position by the frequency already rounded to float16. The cosine at
# that entry changes by {{ neox_entry_change:.3f }}, and the largest change over the table,
# {{ neox_largest_change:.4f }} (at position {{ neox_largest_row }}, pair
# {{ neox_largest_pair }}), is the number the reporter printed. Rounding only the angles to
# float16 would change the cosines by at most {{ neox_rounded_change:.2f }}
# [checked](claims.py#claim-gptneox-1003-half-frequencies).
#
# Keeping the frequencies, positions and angles in float32 is not enough: as measured
# above, float32 angles are themselves off. `pe` keeps only the angle in extended precision; the
# rest is float64 arithmetic on values of size at most 1, within the bound derived above, and
# one rounding to the output dtype
# [checked](claims.py#claim-table-accurate-float32).

# %% tags=["hide_input"]
report.how_we_know(
    "gptneox-1003-half-frequencies", "megatron-535-float16-positions", "hf25681-reported",
    "hf29496-reported", "hf29285-reported", "te1245-reported",
)  # fmt: skip

# %% [markdown]
# ## Speed
#
# Past its anchors, the rotation algorithm fills each pair of an entry with one complex
# multiplication and one rounding; the call has a fixed cost too, which small tables feel.
# The benchmark compares, in one process and as ratios, `pe.numeric.sinusoidal` with `np.full`
# writing an array of the same shape and dtype (the speed of merely writing the output),
# the direct float64 evaluation, the float32 recipe and (for small sizes) a Python double
# loop, and measures the largest error on sampled entries and the peak extra memory of `pe`
# beyond the output itself. The fold shows the last saved run, its targets and each size
# (`make bench` reruns it and saves `benchmarks/results/latest.json` and `latest.md`).

# %% tags=["hide_input"]
report.fold(
    "Show the benchmark run: targets, then size by size",
    page.benchmark_targets(),
    page.benchmark_table(),
)

# %% [markdown]
# ## Using it
#
# ```python
# from pe import numeric
#
# table = numeric.sinusoidal(16384, 1024, dtype="float32")
# rows = numeric.sinusoidal([0, 5, 1_000_000], 64)  # any positions
# reference = numeric.sinusoidal_direct(16384, 1024)  # plain formula
# ```
#
# A row depends only on its position: asking again, in another order, for a prefix or for
# one row alone gives the same bits (checked in float64 at $d = 512$ on positions 0 to 63 and
# four far positions up to $2^{40} + 3$) [checked](claims.py#claim-encoding-deterministic).
