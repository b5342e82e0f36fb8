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
# # Fixed or learned
#
# The sinusoidal table is one way to give a Transformer positions. The other way, taken by
# the convolutional sequence-to-sequence model of [Gehring et al.](bibliography.md#gehring2017),
# published a month before the Transformer
# [checked](claims.py#claim-gehring-learned-positions), is a *learned* table: one
# trainable vector per position, learned with the rest of the model. This chapter sets out
# what each choice costs, what the original authors found, what the claim "it works for longer
# sequences" amounts to, and what residual connections do with the position once it is in.

# %% tags=["hide_input"]
from pe.site import fixed_or_learned as page
from pe.site import report

# %% [markdown]
# ## What a learned table trades
#
# A learned table for a maximum length $n_{\max}$ and width $d$ is an $n_{\max} \times d$
# matrix of parameters. It can fit whatever positional pattern helps the task, but it costs
# $n_{\max} d$ numbers to store and train, and it has a row only for the positions it was
# built for: position $n_{\max}$ simply does not exist for it. The sinusoidal table costs
# nothing to train and has a value at every position
# [checked](claims.py#claim-learned-table-trade).

# %% tags=["hide_input"]
page.learned_table_sentence()

# %% tags=["hide_input"]
report.how_we_know("learned-table-trade")

# %% [markdown]
# ## What the original authors reported
#
# [Vaswani et al. (2017)](bibliography.md#vaswani2017) tried both. They report that the
# learned positional embeddings and the sinusoids gave nearly identical results (their
# Table 3, row E, English-German development set). They chose the sinusoids because they hypothesised
# that the fixed functions *may* let the model extrapolate to sequences longer than those seen
# in training. That sentence is a hypothesis, not a measurement
# [checked](claims.py#claim-vaswani-learned-nearly-identical).
#
# ## Defined is not the same as seen
#
# Write-ups turn the hypothesis into a property: the sinusoidal encoding "works for
# any sequence length without retraining" and "can handle positions not seen during
# training" ([thanh-viz](bibliography.md#thanh-viz))
# [checked](claims.py#claim-thanh-viz-any-length).
#
# What is true is narrower: the formula gives a row of the same norm at every position, as
# proved on [the previous page](implications.py) and measured there at positions as far as
# $2^{40}$ [checked](claims.py#claim-norm-constant). But the layers above the
# encoding were trained only on the rows they saw. The slow pairs do not complete a turn
# during training, so just past the training length they move to angles that no training
# position produced; farther out, the faster of them come back round into their trained arc:

# %% tags=["hide_input"]
page.unseen_sentence()

# %% tags=["hide_input"]
page.unseen_pairs_by_position()

# %% tags=["hide_input"]
report.how_we_know("unseen-values-beyond-training", "vaswani-learned-nearly-identical")

# %% [markdown]
# ## What later work measured
#
# [Press, Smith and Lewis (2022)](bibliography.md#press2022) put the hypothesis to a test.
# They trained language models on WikiText-103 with training sequences of 512 or 1024 tokens
# and evaluated them on longer inputs. As reported in their Figure 1, the perplexity of the
# sinusoidal model degrades as the evaluation sequences grow past the training length, and so
# does that of the other methods they compared (rotary embeddings, and the T5 relative bias
# as far as it ran: the caption notes that T5 ran out of memory on their GPU),
# while their own method, ALiBi ([the relative family](relative-family.py#alibi-press-et-al-2022)
# shows how it works), does not degrade. The fixed formula alone
# does not buy length extrapolation [checked](claims.py#claim-press-sinusoidal-degrades).
#
# ## Residual connections carry the position upward
#
# In a deep network, one may fear that positional information vanishes on the way up, and
# read residual connections as the cure. Residual connections
# ([He et al.](bibliography.md#he2016)) were introduced to ease the training of much deeper
# networks, not for positions [checked](claims.py#claim-residual-connections-for-depth).
# What they do depends on where the layer normalisation sits.
#
# With the normalisation *before* each sublayer (pre-LN),
# each sublayer's output is *added* to its input, $h_{l+1} = h_l + f_l(\mathrm{LN}(h_l))$, so
# after $L$ sublayers [checked](claims.py#claim-residual-stream-carries-position)
#
# $$h_L = x + PE + \sum_{l < L} f_l(\mathrm{LN}(h_l)).$$
#
# The encoding added at the bottom is still a term of the sum at the top, unchanged, unless a
# sublayer happens to output something that cancels it. Nothing enforces it, and the
# sublayers' outputs pile up on top of it [checked](claims.py#claim-residual-stream-carries-position).
#
# The original Transformer is *post-LN*: [Vaswani et al.](bibliography.md#vaswani2017) write
# each sublayer's output as $\mathrm{LayerNorm}(x + \mathrm{Sublayer}(x))$
# [checked](claims.py#claim-transformer-post-ln).
#
# The normalisation after each addition re-centres and rescales the whole stream, encoding
# included, so $x + PE$ is no longer a term of the top state
# [checked](claims.py#claim-residual-stream-carries-position); how much of its direction
# survives is an empirical matter.
#
# A tiny stack in `pe.residual_stream` shows both with random weights: attention
# and feed-forward sublayers, run once on content $x$ and once on $x + PE$. The change at the
# top keeps the direction of $PE(p)$ best in the pre-LN stack, less in the post-LN one, and
# least without residual connections [checked](claims.py#claim-residual-signal-order).
#
# With a sublayer that cancels its input, nothing of the encoding reaches the top at all (the
# change is zero, so it has no direction to compare)
# [checked](claims.py#claim-cancelled-stream-loses-position).

# %% tags=["hide_input"]
page.signal_table()

# %% tags=["hide_input"]
page.position_signal_by_depth()

# %% tags=["hide_input"]
report.how_we_know(
    "press-sinusoidal-degrades", "residual-connections-for-depth",
    "residual-stream-carries-position", "residual-signal-order", "transformer-post-ln",
)  # fmt: skip

# %% [markdown]
# The residual path carries the encoding; it does not protect it: each sublayer adds its own
# output to the sum that holds it.
#
# ## Exercises

# %% tags=["hide_input"]
page.exercise_parameters()

# %% tags=["hide_input"]
page.exercise_unseen_pairs()

# %% tags=["hide_input"]
page.exercise_residual_sum()
