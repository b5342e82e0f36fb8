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
# # Why order must be injected
#
# *Dog bites man* and *man bites dog* hold the same three words; only their order tells who
# bit whom. This chapter shows that the self-attention layer of a Transformer, on its own,
# cannot tell these two sentences apart: it treats its input as a set of tokens, not a
# sequence [checked](claims.py#claim-dog-bites-man-same-outputs). It proves this exactly for a small sequence, checks it numerically for a
# realistic one, runs the two sentences through a toy attention head, and shows that adding
# the sinusoidal positional encoding of [Vaswani et al. (2017)](bibliography.md#vaswani2017)
# breaks the symmetry.
#
# A recurrent network reads the words one by one, and its state can depend on their order
# [checked](claims.py#claim-rnn-reads-order). The last section counts what attention pays for ignoring the order, and what it buys.
#
# Everything on this page is computed by the package `pe` while the page is built.

# %% tags=["hide_input"]
from pe.site import report
from pe.site import why_order as page

# %% [markdown]
# ## Self-attention sees a set
#
# Write a sequence of $n$ tokens as a matrix $X \in \mathbb{R}^{n \times d}$, one token
# embedding per row. One attention head computes, for every token, a weighted average of
# value vectors, with weights from the match between its query and every key:
#
# $$\operatorname{Attn}(X) = \operatorname{softmax}\!\Bigl(\frac{X W_q (X W_k)^{\mathsf T}}
# {\sqrt d}\Bigr)\, X W_v ,$$
#
# the softmax taken along each row. Nothing in this formula refers to the index of a row.
# Reorder the tokens with a permutation matrix $P$ (so $PX$ holds the same rows in another
# order): the score matrix $S$ is reordered on both sides, each softmax row keeps its entries
# in another order (its denominator is the same sum, taken in another order), and
# $P^{\mathsf T}P = I$ [checked](claims.py#claim-attention-permutation-equivariant):
#
# $$\begin{aligned} S(PX) &= P\,S(X)\,P^{\mathsf T}, \\
# \operatorname{softmax}\bigl(P S P^{\mathsf T}\bigr) &= P\operatorname{softmax}(S)\,P^{\mathsf T}, \\
# \operatorname{Attn}(PX) &= P\operatorname{softmax}(S)\,P^{\mathsf T} P X W_v
# = P\operatorname{Attn}(X). \end{aligned}$$
#
# The outputs are the same vectors, shuffled the same way as the inputs. This property is
# called **permutation equivariance**.

# %% [markdown]
# ### The exact proof, for three tokens
#
# SymPy takes $n = 3$ tokens of width $d = 2$, with every entry of $X$, $W_q$, $W_k$ and $W_v$
# an independent symbol and the softmax written with `exp`. It tries **all six** permutation
# matrices of three tokens, so the statement is proved for every possible reordering, and
# reduces the residual $\operatorname{Attn}(PX) - P\operatorname{Attn}(X)$ to exactly zero
# by multiplying out polynomials (`expand`), leaving each `exp` of an expanded score whole.
# No floating-point number enters [checked](claims.py#claim-attention-permutation-equivariant).

# %% tags=["hide_input"]
page.exact_proof()

# %% [markdown]
# Two wrong statements fed to the same proof are rejected: *invariance*
# ($\operatorname{Attn}(PX) = \operatorname{Attn}(X)$, forgetting to reorder the outputs) and
# attention with a *causal mask* (token $i$ sees only tokens $j \le i$, a rule that does
# depend on the order, as in a decoder) [checked](claims.py#claim-attention-permutation-equivariant):

# %% tags=["hide_input"]
page.wrong_proofs()

# %% [markdown]
# ### The numeric check, for a realistic sequence
#
# With $n = 32$ tokens of width $d = 64$, random embeddings and random projections in
# float64, and a random permutation, the two sides agree to rounding: each entry is held to
# a rounding bound computed from the inputs, $B(PX) + P\,B(X)$
# [checked](claims.py#claim-attention-permutation-equivariant).
#
# $B$ adds up, to first order in the unit roundoff, the rounding of every step of attention:
# the products $QK^{\mathsf T}$, the row maximum, the exponentials, the sums over the $n$
# keys and the average of the rows of $XW_v$. Against attention computed with 40 digits, at
# $(n, d) = (5, 3)$, $(8, 16)$ and $(16, 8)$, a float64 result stayed within it, entry by
# entry [checked](claims.py#claim-attention-rounding-bound).

# %% tags=["hide_input"]
page.equivariance_table()

# %% tags=["hide_input"]
report.how_we_know("attention-permutation-equivariant", "attention-rounding-bound")

# %% [markdown]
# ## Dog bites man, man bites dog
#
# Give each of the three words a fixed random embedding of width 64 (seeded, so every build
# draws the same numbers) and run both sentences through the same toy attention head. The
# second sentence is the first with the first and last rows swapped, so by equivariance the
# output for *dog* is the same vector in both sentences, and likewise for *man* and *bites*:
# the two sentences give the **same multiset of outputs**. Anything that reads them as a set
# (a classifier averaging the outputs, say) cannot tell who bit whom
# [checked](claims.py#claim-dog-bites-man-same-outputs).
#
# Now add the sinusoidal encoding $PE(p)$ (the subject of
# [chapter 3](sinusoidal-encoding.py)) to each word's embedding before attention. *Dog* at
# position 0 and *dog* at position 2 are now different input vectors, and their outputs
# differ. A vector that is the same at every position, such as $PE(0)$ added to every word,
# would not help: it is a wrong candidate the check rejects
# [checked](claims.py#claim-encoding-breaks-symmetry).

# %% tags=["hide_input"]
page.sentence_outputs()

# %% tags=["hide_input"]
report.how_we_know("dog-bites-man-same-outputs", "encoding-breaks-symmetry")

# %% [markdown]
# ## A recurrent network reads in order
#
# A recurrent network (an Elman network, [Elman 1990](bibliography.md#elman1990)) keeps a
# state and updates it one token at a time, feeding it back at the next step
# [checked](claims.py#claim-elman-simple-recurrent-network). Written as it usually is today,
# with a $\tanh$ and a bias (`pe`'s toy cell computes it with $b = 0$):
#
# $$h_t = \tanh(W_x x_t + W_h h_{t-1} + b), \qquad h_0 = 0 ,$$
#
# and the final state can depend on the order. The toy cell in `pe` (16 state units,
# seeded weights) gives different final states for the two sentences. Switch the recurrence off ($W_h = 0$) and
# sum the states, and the reader forgets the order again: the wrong candidate is rejected
# [checked](claims.py#claim-rnn-reads-order).

# %% tags=["hide_input"]
report.how_we_know("rnn-reads-order")

# %% [markdown]
# ## What is parallel, and what the encoding is for
#
# A write-up on Medium presents the positional encoding as what makes parallel processing
# possible [checked](claims.py#claim-parallel-processing-reported).
#
# That has it backwards. **Attention is what is parallel**: output $i$ needs only token $i$'s
# query and every key and value, never another output, so all $n$ outputs
# can be computed at once, with or without an encoding. A recurrent step needs the previous
# state, so it cannot start before the previous step ends. The encoding does not create
# the parallelism [checked](claims.py#claim-attention-rows-parallel).
#
# It **restores the order that attention ignores**: nothing in attention's formula depends
# on a position, so reordering the tokens only reorders the outputs, as proved above
# [checked](claims.py#claim-attention-permutation-equivariant).
#
# ## What attention costs, and what it buys
#
# Attending to every token has a price. For $n$ tokens of width $d$, one head forms $n^2$ scores,
# each a dot product of length $d$, then $n$ weighted sums of $n$ value vectors of width
# $d$: $2n^2 d$ multiplications, growing with the **square** of the length (the projections
# and the softmax come on top). An Elman layer whose state is as wide as its tokens multiplies
# by the $d \times d$ matrices $W_x$ and $W_h$ once per token: $2nd^2$, linear in $n$, but its
# $n$ steps run one after another. `pe` counts the
# multiplications exactly, on the products written out by SymPy, at five sizes; each count
# fed the other layer's law is rejected [checked](claims.py#claim-attention-cost-quadratic).
#
# What the price buys is distance. Every output of an attention layer is one softmax away
# from every token, so the first word reaches the last in a single layer. In the Elman
# network token $j$ reaches the state $h_i$ only through the $i - j + 1$ updates between
# them, and a state never sees the tokens after it. On layers of four tokens written out,
# SymPy counts the nested `exp` and `tanh` between each input
# symbol and each output [checked](claims.py#claim-attention-path-length-one).
#
# The paper compares layer types by the same three quantities, cost per layer, sequential
# steps and longest path ([Vaswani et al. 2017](bibliography.md#vaswani2017), Table 1)
# [checked](claims.py#claim-vaswani-layer-comparison).

# %% tags=["hide_input"]
report.how_we_know(
    "attention-rows-parallel", "attention-cost-quadratic", "attention-path-length-one",
    "vaswani-layer-comparison", proofs={"attention-path-length-one": True},
)  # fmt: skip

# %% [markdown]
# ## Exercises

# %% tags=["hide_input"]
page.exercises()
