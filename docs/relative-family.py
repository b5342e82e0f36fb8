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
# # The relative-position family
#
# The sinusoidal encoding gives every position its own vector
# [checked](claims.py#claim-pairs-never-return).
#
# Its authors hoped that attention would read offsets out of it
# [checked](claims.py#claim-vaswani-linear-function).
#
# Its successors differ in *where* position enters the attention score
# $s_{mn}$ between the query at position $m$ and the key at position $n$ (as on the
# [RoPE page](rope.py); $i$ stays the pair index), and in *what* they let the score depend on:
# the absolute positions, the offset $n - m$, or a coarse version of it. This page lists the main designs, each with its formula, what it keeps and what it
# loses, and a small example computed by `pe` while the page is built. Findings are reported as
# their authors stated them, with the papers on the [bibliography page](bibliography.md).
#
# One test runs through the page: feed the same token at every position. If the scheme only
# encodes offsets, the score matrix depends only on $n - m$ (it is constant along every
# diagonal); if it encodes absolute positions, with the random weights drawn here it does not
# [checked](claims.py#claim-identical-tokens-relative).

# %% tags=["hide_input"]
from pe.site import relative_family as page
from pe.site import report

page.repeated_token_scores()

# %% tags=["hide_input"]
report.how_we_know("identical-tokens-relative")

# %% [markdown]
# ## Learned absolute embeddings
#
# **Formula.** A table $E$ of $L$ rows of width $d$ is trained with the model, and the input
# at position $p$ is $x_p + E_p$
# ([Gehring et al.](bibliography.md#gehring2017) used learned position embeddings in a
# convolutional sequence model [checked](claims.py#claim-gehring-learned-positions)).
#
# **Keeps.** Any pattern the data asks for; no assumption about offsets.
#
# **Loses.** There is no row for a position at or beyond $L$
# [checked](claims.py#claim-learned-table-trade).
#
# Nothing ties row $p$ to row $p + k$: the repeated-token scores above are not constant
# along diagonals [checked](claims.py#claim-identical-tokens-relative).
#
# [Vaswani et al.](bibliography.md#vaswani2017) reported nearly identical results with learned
# and sinusoidal embeddings and kept the sinusoids in the hope that they extrapolate
# [checked](claims.py#claim-vaswani-learned-nearly-identical).

# %% tags=["hide_input"]
page.learned_lookup(512)

# %% [markdown]
# ## Relative position representations (Shaw et al., 2018)
#
# **Formula.** [Shaw et al.](bibliography.md#shaw2018) add a learned vector that depends on
# the clipped offset to the key (and another to the value)
# [checked](claims.py#claim-shaw-reported):
#
# $$e_{mn} = \frac{(W_q x_m)^{\mathsf T}\bigl(W_k x_n + a^K_{\mathrm{clip}(n-m, K)}\bigr)}{\sqrt d},
# \qquad \mathrm{clip}(r, K) = \max(-K, \min(K, r)).$$
#
# **Keeps.** Only offsets, with direction; $2K + 1$ vectors per table (one table for keys,
# one for values) serve every length, and offsets beyond $K$ share one vector
# [checked](claims.py#claim-shaw-clipped-offsets).
#
# **Loses.** Offsets beyond $K$, which it cannot tell apart, and absolute position: on a
# repeated token its score depends on the offset alone
# [checked](claims.py#claim-identical-tokens-relative).
#
# The authors reported improvements of 1.3 BLEU (English-German) and 0.3 BLEU
# (English-French) over absolute encodings on WMT 2014, and no further gain from combining
# both [checked](claims.py#claim-shaw-reported).

# %% tags=["hide_input"]
page.shaw_offsets(7, clip=2)

# %% tags=["hide_input"]
report.how_we_know("shaw-reported", "shaw-clipped-offsets")

# %% [markdown]
# ## Transformer-XL's decomposition (Dai et al., 2019)
#
# **Formula.** With absolute encodings $U$, the score of the additive design splits into four
# terms: content–content, content–position, position–content and position–position.
# [Dai et al.](bibliography.md#dai2019) keep the split but replace the key's absolute $U_n$ by a
# sinusoid of the offset, $R_{m-n}$, with its own projection $W_{k,R}$, and the query's position
# terms by two learned vectors $u$ and $v$ [checked](claims.py#claim-dai-relative-score):
#
# $$A_{mn} = \underbrace{x_m^{\mathsf T} W_q^{\mathsf T} W_{k,E}\, x_n}_{(a)}
#  + \underbrace{x_m^{\mathsf T} W_q^{\mathsf T} W_{k,R}\, R_{m-n}}_{(b)}
#  + \underbrace{u^{\mathsf T} W_{k,E}\, x_n}_{(c)}
#  + \underbrace{v^{\mathsf T} W_{k,R}\, R_{m-n}}_{(d)} .$$
#
# **Keeps.** The sinusoid, now evaluated at offsets: it enters as $R_{m-n}$, in terms (b) and
# (d) of the additive score's four [checked](claims.py#claim-transformer-xl-four-terms).
#
# **Loses.** Absolute position: on a repeated token its score depends on the offset alone
# [checked](claims.py#claim-identical-tokens-relative).
#
# The authors reported learning dependencies about 80% longer than recurrent networks and
# 450% longer than vanilla Transformers, and evaluation up to 1,800 times faster than a
# vanilla Transformer with recomputation [checked](claims.py#claim-transformer-xl-reported).

# %% tags=["hide_input"]
report.how_we_know(
    "dai-relative-score", "transformer-xl-four-terms", "transformer-xl-reported", proofs=True
)

# %% [markdown]
# ## T5's bucketed bias (Raffel et al., 2020)
#
# **Formula.** [Raffel et al.](bibliography.md#raffel2020) drop position vectors altogether and
# add a learned scalar to each score, $s_{mn} = q_m^{\mathsf T} \kappa_n + b_{\mathrm{bucket}(n-m)}$,
# one table per head, shared across layers. The bucket of an offset is exact for small
# distances and logarithmic beyond; every offset from a maximum distance on shares the last
# bucket (32 buckets and 128 in T5), which the logarithmic steps already reach at distance
# {{ t5_last_encoder }} in the encoder and {{ t5_last_decoder }} in the decoder
# [checked](claims.py#claim-t5-bias-settings).
#
# In the encoder the two directions get separate halves of the buckets; in the decoder every
# key is in the past. `pe.relative.t5_bucket` implements it; it gives the bucket that the T5
# code of Hugging Face transformers gives, at every offset we recorded from that code
# [checked](claims.py#claim-t5-buckets).
#
# **Keeps.** Offsets with direction, finely near the query and coarsely far away
# [checked](claims.py#claim-t5-buckets); one scalar per bucket is cheap.
#
# **Loses.** Every distance beyond the maximum shares one bucket, and the bias is a scalar: it
# can shift attention towards or away from an offset but carries no vector information
# [checked](claims.py#claim-t5-bias-settings).

# %% tags=["hide_input"]
page.t5_buckets()

# %% tags=["hide_input"]
report.how_we_know("t5-bias-settings", "t5-buckets")

# %% [markdown]
# ## ALiBi (Press et al., 2022)
#
# **Formula.** [Press et al.](bibliography.md#press2022) add a fixed, non-learned penalty
# proportional to the distance, with a different slope per head. For a number of heads $H$
# that is a power of two, the slopes are the geometric sequence from $2^{-8/H}$ down to
# $2^{-8}$; for any other $H$, the authors' reference code takes the slopes of $P$ heads, the
# largest power of two below $H$, and adds every other slope of $2P$ heads
# [checked](claims.py#claim-alibi-slopes):
#
# $$s_{mn} = q_m^{\mathsf T} \kappa_n - \mu_h\,(m - n), \quad n \le m, \qquad
# \mu_h = 2^{-8h/P}\ (h \le P), \quad \mu_{P+j} = 2^{-4(2j-1)/P}\ (j \le H - P)$$
#
# (the paper writes the slope $m$; here $m$ is the query's position).
# `pe.relative.alibi_slopes` gives, for every head count we recorded, the slopes that the
# BLOOM code of Hugging Face transformers (a port of that reference code) computes, to
# float32's rounding [checked](claims.py#claim-alibi-slopes).
#
# **Keeps.** Offsets, a strong preference for recent tokens, and no parameters; the penalty is
# defined at every distance, so longer inputs need nothing new
# [checked](claims.py#claim-alibi-slopes).
#
# **Loses.** Distant tokens are pushed down by construction: every slope is positive, so in
# every head the bias falls with the distance, whatever the content
# [checked](claims.py#claim-alibi-slopes).
#
# The authors reported that a 1.3 billion parameter model trained on 1024 tokens and
# evaluated on 2048 reached the same perplexity as a sinusoidal model trained on 2048, while
# training 11% faster and using 11% less memory [checked](claims.py#claim-alibi-reported).

# %% tags=["hide_input"]
page.alibi_slopes(8)

# %% tags=["hide_input"]
page.alibi_slopes(12)

# %% tags=["hide_input"]
report.how_we_know("alibi-slopes", "alibi-reported")

# %% [markdown]
# ## No positional encoding, with a causal mask (NoPE)
#
# **Formula.** Nothing is added: $s_{mn} = q_m^{\mathsf T} \kappa_n$. With a causal mask,
# position $m$ averages over exactly $m + 1$ tokens, and that count is itself positional
# information. With equal scores and a first token whose value $v_0$ differs from the others'
# $v$, the output at $m$ is $(v_0 + m\,v)/(m + 1)$, different at every position; without the
# mask every output is the same [checked](claims.py#claim-nope-causal-position).
#
# **Keeps.** Whatever the model can infer from counting; nothing to tune.
#
# **Loses.** Explicit offsets; without a causal mask, the order itself (attention is then
# permutation-equivariant, as [the first page](why-order.py) proves for every order of three
# tokens and measures at 32 [checked](claims.py#claim-attention-permutation-equivariant)).
#
# [Haviv et al.](bibliography.md#haviv2022) reported causal language models without positional
# encodings competitive with those that have them, and probes that recover absolute position
# from their hidden states [checked](claims.py#claim-nope-reported).
#
# [Kazemnejad et al.](bibliography.md#kazemnejad2023) reported that decoder-only models without
# positional encoding generalised to longer inputs better than the encodings they compared on
# their reasoning and arithmetic tasks
# [checked](claims.py#claim-nope-length-generalisation-reported).

# %% tags=["hide_input"]
page.causal_outputs(6)

# %% tags=["hide_input"]
report.how_we_know(
    "nope-causal-position",
    "nope-reported",
    "nope-length-generalisation-reported",
    proofs={"nope-causal-position": True},
)

# %% [markdown]
# ## Extending RoPE's context: position interpolation and base scaling
#
# A model trained with [RoPE](rope.py) on positions $0 \le p \le L - 1$ has seen the angles
# $p\,\omega_i$ of pair $i$ only up to $(L-1)\,\omega_i$. Two ways to run it on $sL$ positions
# [checked](claims.py#claim-position-interpolation-range):
#
# **Position interpolation** ([Chen et al., 2023](bibliography.md#chen2023)) divides every
# position by $s$: angles become $(p/s)\,\omega_i \le (L - 1/s)\,\omega_i$. That is past the
# largest trained angle, but by $(1 - 1/s)\,\omega_i$ only, less than the step between two
# trained positions, in every pair; the price is that neighbouring positions are $s$ times
# closer [checked](claims.py#claim-position-interpolation-range).
#
# The authors reported extending LLaMA models (7B to 65B) to context windows up to 32768 with at most 1000
# fine-tuning steps, and an interpolation bound at least about 600 times smaller than the
# extrapolation one [checked](claims.py#claim-position-interpolation-reported).
#
# **NTK-aware base scaling** was proposed in an online post by "bloc97" and analysed by
# [Peng et al.](bibliography.md#peng2023) [checked](claims.py#claim-ntk-aware-origin).
#
# It raises the base instead, to $b' = b\,s^{d/(d-2)}$: pair $i$ is slowed by the factor $s^{2i/(d-2)}$, so the fastest pair
# keeps its frequency (local order stays sharp), the slowest is divided by exactly $s$ (like
# interpolation), and every pair in between by a factor between 1 and $s$
# [checked](claims.py#claim-ntk-base-scaling).
#
# It does *not* keep the angles near the trained range: a pair slowed by less than $s$ and
# run on $s$ times more positions turns further than in training. For the fast pairs, which
# complete at least one turn in training, that matters less; the slow pairs that never complete
# one meet angles they never saw, the slowest (divided by exactly $s$) by as little as
# interpolation, the others by much more [checked](claims.py#claim-ntk-unseen-angles).
#
# Peng et al. make this criticism of NTK-aware scaling (some dimensions are extrapolated to
# out-of-bound values) and built YaRN on it, reporting long contexts reached with 10 times
# fewer tokens and 2.5 times fewer training steps than earlier methods
# [checked](claims.py#claim-yarn-reported).

# %% tags=["hide_input"]
page.ntk_factors(128, scale=4.0)

# %% tags=["hide_input"]
page.ntk_unseen()

# %% tags=["hide_input"]
report.how_we_know(
    "position-interpolation-range", "position-interpolation-reported", "ntk-base-scaling",
    "ntk-unseen-angles", "yarn-reported", proofs={"ntk-base-scaling": True},
)  # fmt: skip

# %% [markdown]
# ## Summary
#
# | scheme | where position enters | depends on | beyond the training length |
# | --- | --- | --- | --- |
# | learned absolute | added to the input | absolute $p$ | no row to look up [checked](claims.py#claim-learned-table-trade) |
# | sinusoidal (added) | added to the input | absolute $p$ | defined, reported to degrade [checked](claims.py#claim-press-sinusoidal-degrades) |
# | Shaw et al. | key (and value) vectors | $\mathrm{clip}(n - m, K)$ [checked](claims.py#claim-shaw-clipped-offsets) | offsets beyond $K$ merge [checked](claims.py#claim-shaw-clipped-offsets) |
# | Transformer-XL | four score terms | $m - n$ through a sinusoid [checked](claims.py#claim-transformer-xl-four-terms) | defined at every offset, a sinusoid of it [checked](claims.py#claim-encoding-bounded) |
# | T5 | scalar bias per bucket | bucket of $n - m$ [checked](claims.py#claim-t5-buckets) | far offsets share a bucket [checked](claims.py#claim-t5-buckets) |
# | RoPE | rotation of $q$, $\kappa$ | $n - m$ [checked](claims.py#claim-rope-relative-after-any-projection) | angles past the trained range for its slow pairs [checked](claims.py#claim-position-interpolation-range); interpolation and base scaling: the two sections above |
# | ALiBi | linear penalty | $m - n$ [checked](claims.py#claim-alibi-slopes) | defined; reported to extrapolate [checked](claims.py#claim-alibi-reported) |
# | NoPE (causal) | nowhere | counts through the mask | no table to run out of, but what it counts, $o_m = (v_0 + m\,v)/(m + 1)$, moves on past the training length to values training never showed [checked](claims.py#claim-nope-causal-position) |
