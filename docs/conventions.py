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
# # Conventions and pitfalls
#
# Public code does not agree on how to write the sinusoidal encoding. Four choices separate
# the versions you will meet:
#
# * the **layout**: the paper interleaves the columns, pair $k$ in columns $2k$ and $2k+1$;
#   many libraries put all the sines in the first half and all the cosines in the second
#   ("halves") [checked](claims.py#claim-conventions-as-described);
# * the **order** inside a pair: sine first (the paper) or cosine first;
# * the **frequency law**: the paper's $\omega_k = b^{-2k/d}$, or tensor2tensor's
#   $\omega_k = \exp(-k \ln b / (d/2 - 1))$, or a variant with the exponents counted from 1
#   [checked](claims.py#claim-conventions-as-described);
# * the **offset**: the position of the first row (the rows fairseq's tokens read start at 2;
#   its stored table starts at 0, with a zeroed padding row before the first token)
#   [checked](claims.py#claim-conventions-as-described).
#
# None of these changes what the encoding can do, but mixing two of them silently breaks a
# model, and tutorials carry outright bugs. This chapter shows the conventions side by side,
# says who uses which, how to convert, why the sign of the shift matrix depends on the order,
# and what each known bug does. Then it shows `pe identify`, which reads any table and says
# which convention it follows, or how it differs. Everything below is computed by `pe` while
# the page is built.

# %% tags=["hide_input"]
from pe.site import conventions as page
from pe.site import report

page.conventions_table()

# %% [markdown]
# The table above is `pe.conventions.CONVENTIONS`: each convention is data, and produces
# its table through `pe.numeric.sinusoidal` (the tensor2tensor law is the paper's law with
# another base, see below; the one-indexed law is the paper's table of width $d + 2$ without
# its first pair, with the base changed to $b^{(d+2)/d}$: with the base left at $b$, the
# wider table's pairs turn more slowly than the one-indexed ones). Any base and any offset
# are one call away: `conventions.get("tensor2tensor").with_base(500000).with_offset(2)`.

# %% tags=["hide_input"]
report.claim("one-indexed-law-is-wider-paper-law")

# %% [markdown]
# ## Side by side
#
# Six conventions at width $d = {{ heatmap_width }}$, {{ heatmap_pairs }} frequencies each
# (the tensor2tensor and one-indexed laws space them differently from the paper's).
# Interleaved layouts alternate sine and cosine columns; halves layouts show the fan of
# frequencies twice. A cosine-first table starts with a column of ones at its first row, a
# sine-first one with a column of zeros [checked](claims.py#claim-conventions-as-described).

# %% tags=["hide_input"]
page.convention_heatmaps()

# %% [markdown]
# ## Who uses what
#
# Read from the public source of each project (links to the files; nothing is loaded from
# them) [checked](claims.py#claim-implementations-surveyed). "t2t" is tensor2tensor's law; works are listed in the
# [bibliography](bibliography.md#conventions-and-implementations).
#
# | implementation | layout | law | first position | odd width |
# | --- | --- | --- | --- | --- |
# | [tensor2tensor `get_timing_signal_1d`](https://github.com/tensorflow/tensor2tensor/blob/75b75f2e2281101b9b3637e14ef519afd6a11b68/tensor2tensor/layers/common_attention.py) ([Vaswani et al. 2018](bibliography.md#vaswani2018)), the paper authors' code | halves, sin first | t2t | 0 | a zero column appended [checked](claims.py#claim-implementations-surveyed) |
# | [fairseq `SinusoidalPositionalEmbedding`](https://github.com/facebookresearch/fairseq/blob/05625e3e6e660909e4df833de1f7b49019496a68/fairseq/modules/sinusoidal_positional_embedding.py) ([Ott et al. 2019](bibliography.md#ott2019)) | halves, sin first | t2t | `padding_idx + 1` = 2; the padding row is zeros | zero column [checked](claims.py#claim-implementations-surveyed) |
# | [HF transformers M2M100](https://github.com/huggingface/transformers/blob/593e8aa53900afea1d92e97d91b97e425b16a4c5/src/transformers/models/m2m_100/modeling_m2m_100.py) (also Speech2Text, XGLM) ([Wolf et al. 2020](bibliography.md#wolf2020)) | halves, sin first | t2t | 2 | [checked](claims.py#claim-implementations-surveyed) |
# | [HF transformers Marian](https://github.com/huggingface/transformers/blob/d02747e153da5844c1abaa36eec184b0177247c0/src/transformers/models/marian/modeling_marian.py) | halves, sin first, sine block $\lceil d/2 \rceil$ wide | paper | 0 | works [checked](claims.py#claim-implementations-surveyed) |
# | [HF transformers DistilBERT](https://github.com/huggingface/transformers/blob/main/src/transformers/models/distilbert/modeling_distilbert.py) (sinusoidal option, off by default) | interleaved, sin first | paper | 0 | [checked](claims.py#claim-implementations-surveyed) |
# | [The Annotated Transformer](https://github.com/harvardnlp/annotated-transformer/blob/0a91a254735c07532e23733dce8a693e504f3a08/the_annotated_transformer.py) ([Rush 2018](bibliography.md#rush2018)) and the [PyTorch `nn.Transformer` tutorial](https://github.com/pytorch/tutorials/blob/e5f60c64367b2ff3c19e5b73a2c7eac4bf1269f1/beginner_source/transformer_tutorial.py) | interleaved, sin first | paper (as `exp(arange(0, d, 2) * -ln(10000)/d)`) | 0 | fails [checked](claims.py#claim-implementations-surveyed) |
# | [Dive into Deep Learning](https://github.com/d2l-ai/d2l-en/blob/300f071ebd1cff0dcc5de692eff85b4da3d29f5c/chapter_attention-mechanisms-and-transformers/self-attention-and-positional-encoding.md) ([Zhang et al. 2023](bibliography.md#zhang2023)) | interleaved, sin first | paper | 0 | fails [checked](claims.py#claim-implementations-surveyed) |
# | [TensorFlow text tutorial](https://github.com/tensorflow/text/blob/218b976be7f0dcf11ab87e8fdb7f283c45577c38/docs/tutorials/transformer.ipynb) (since 2022; earlier versions interleaved) | halves, sin first | paper | 0 | width $d + 1$ [checked](claims.py#claim-implementations-surveyed) |
# | [OpenAI Whisper `sinusoids`](https://github.com/openai/whisper/blob/main/whisper/model.py) ([Radford et al. 2023](bibliography.md#radford2023)), [diffusers `get_timestep_embedding`](https://github.com/huggingface/diffusers/blob/168e5b7ffa4949fca82ed2fcd17d3451c5804401/src/diffusers/models/embeddings.py) | halves, sin first (diffusers can flip) | t2t-like (`h - shift` in the denominator) | 0 | [checked](claims.py#claim-implementations-surveyed) |
#
# Odd widths are handled five ways in the wild: a zero column, a native extra sine, a shape
# error, a table one column wider, or a refusal. `pe` refuses them (`pe.numeric` needs an
# even width); `pe identify` recognises the first two.
#
# ## Converting between layouts
#
# Converting is a column permutation: `conventions.convert(table, source, target)` returns
# `table[:, perm]` with `perm = conventions.permutation(d, source, target)`. For
# $d = {{ permutation_width }}$, where the paper's columns go ($s_k$, $c_k$: sine and cosine of
# pair $k$):

# %% tags=["hide_input"]
page.permutation_table()

# %% [markdown]
# A permutation is a change of coordinates, so the rotation identity survives it: with $P$
# the permutation matrix ($x_L = P\,x$), the shift matrix in layout $L$ is
# $P\,T_k\,P^{\mathsf T}$. SymPy proves it exactly for all four layouts
# ($d = {{ proof_width }}$, symbolic base), and the wrong candidates fail: the paper's
# $T_k$ used as is on a halves table, and $P^{\mathsf T} T_k P$ (the inverse permutation).

# %% tags=["hide_input"]
report.claim("layout-shift-matrix")

# %% tags=["hide_input"]
page.layout_proof("halves", "sin-first")

# %% [markdown]
# ## Why the sign of the shift matrix depends on the order
#
# For the paper's (sin, cos) pairs the block that moves a pair forward by $k$ is
# $[[\cos k\omega, \sin k\omega], [-\sin k\omega, \cos k\omega]]$, a *clockwise* rotation
# in (sin, cos) coordinates (see [the rotation identity](rotation-identity.py)). Swap the
# two coordinates and the same motion becomes counter-clockwise: for (cos, sin) pairs the
# block is the textbook rotation $[[\cos, -\sin], [\sin, \cos]]$. Both are right, each for
# its order; the error is to print one with the other order. SymPy checks the (cos, sin)
# case, and rejects the paper's block there:

# %% tags=["hide_input"]
report.claim("cos-first-block", proofs=True)

# %% [markdown]
# Seen as complex numbers, $\cos\theta + i\sin\theta = e^{i\theta}$ turns counter-clockwise
# as $\theta$ grows, and multiplying by $e^{ik\omega}$ is the shift. Writing the pair as
# $\sin\theta + i\cos\theta = i\,e^{-i\theta}$ reverses the direction, hence the transposed
# block for the paper's order [checked](claims.py#claim-sin-cos-pair-turns-clockwise).
#
# ## Two laws, one family
#
# tensor2tensor divides by $d/2 - 1$ where the paper divides by $d/2$, so its slowest pair is
# exactly $1/b$ where the paper's is $b^{-(d-2)/d}$. Both laws are geometric progressions from
# $\omega_0 = 1$, so each is the other with a different base:

# %% tags=["hide_input"]
report.claim("t2t-law-is-paper-law")

# %% tags=["hide_input"]
page.law_equivalence()

# %% [markdown]
# ## The bug zoo
#
# Seven bugs reported by readers of public implementations and tutorials, each written as a
# small function in `pe.bug_zoo` (and again, as loops, in the tests). The first appears in
# print, in a book's literal translation of the formula into Python
# ([packt-transformers](bibliography.md#packt-transformers))
# [checked](claims.py#claim-packt-doubled-exponent):

# %% tags=["hide_input"]
page.bug_source("doubled-exponent")

# %% [markdown]
# Here `i` already steps by 2, so the exponent $2i/d$ counts every pair twice:

# %% tags=["hide_input"]
report.claim("doubled-exponent-base")

# %% [markdown]
# The seven bugs next to the paper's table:

# %% tags=["hide_input"]
page.bug_heatmaps()

# %% [markdown]
# What each bug does to the heat map, what `pe identify` says about it (the bug's table at
# $d = {{ bug_identify_width }}$), and what it does to the rotation identity: the largest
# error of the paper's shift matrix $T_k$, $k = {{ bug_shift }}$, applied to the bug's table
# ($d = {{ bug_width }}$, {{ bug_rows }} rows; {{ column_index_rows }} for the column-index
# bug), and of the best fixed matrix fitted by least squares on the first half of the rows
# and applied to the second half. A small second number means a rotation identity still
# holds, with other blocks.

# %% tags=["hide_input"]
page.bug_table()

# %% [markdown]
# Most bugs keep the sine and cosine of each pair at one frequency, so a (different) shift
# matrix still exists. Using `i` where `i // 2` was meant is worse: the sine of pair $k$
# turns at $b^{-4k/d}$ and its cosine at $b^{-(4k+2)/d}$, and no fixed matrix maps one row
# to a later one, because $\sin \omega(p+k)$ needs $\cos \omega p$, which the table does not
# contain. A mismatch inside each pair is not enough by itself: swap the cosines of
# neighbouring pairs and every pair mismatches, yet each sine still finds its cosine in another
# column and a (permuted) shift matrix exists, as the claim's second wrong candidate shows.
# The odd width has the same defect in one column: its lone sine has no cosine.

# %% tags=["hide_input"]
report.claim("column-index-bug-breaks-identity")

# %% [markdown]
# ## Identifying any table
#
# `pe identify FILE.npy` reads a table (an $(n, d)$ float array, rows at consecutive
# positions, at least {{ identify_min_rows }} rows) and `pe identify MODULE:FUNCTION --n N --d D` calls your own
# function as `FUNCTION(N, D)` (see `pe identify --help` and `pe.identify._inputs` for the
# accepted signatures). It fits one sinusoid per column, pairs the columns, reads the order
# from the direction in which each pair turns, the offset from the phases at the first row,
# and the law from the logarithms of the frequencies; then it says, in words and with `--json`,
# what it found. A worked session, run while this page was built:

# %% tags=["hide_input"]
page.cli_session(page.SESSION)

# %% [markdown]
# The exit status is {{ status_encoding }} for a sinusoidal encoding,
# {{ status_not_encoding }} for a table that is not one (random, learned, zeros, NaN) and
# {{ status_bad_input }} for bad input (the session above). The same from Python:

# %% tags=["hide_input"]
page.identify_from_python()

# %% [markdown]
# ### Accuracy
#
# A sine column of a slow pair is almost a straight line, $\sin \omega p \approx \omega p$,
# and pins $\omega$ to the precision of the values. Its cosine is almost flat,
# $\cos\omega p \approx 1 - (\omega p)^2/2$, and pins $\omega$ only to about
# $\varepsilon/\theta^2$ relative, $\theta$ the largest angle in the table. `identify`
# fits each column on its own (so that a pair whose sine and cosine disagree shows) and
# reports each frequency with its uncertainty; for a slow cosine it says so rather than give
# a false precision [checked](claims.py#claim-slow-cosine-pins-less).

# %% tags=["hide_input"]
page.uncertainty_figure()

# %% [markdown]
# Measured on the paper's law, {{ accuracy_rows }} rows (relative errors against the exact
# frequencies; targets $10^{-6}$ for float64 and $10^{-3}$ for float32)
# [checked](claims.py#claim-identify-recovers-conventions):

# %% tags=["hide_input"]
page.accuracy_table()

# %% tags=["hide_input"]
report.claim("identify-recovers-conventions")

# %% [markdown]
# Frequencies above $\pi$ radians per position cannot be told from their aliases at integer
# positions ($\sin((2\pi - \omega) p) = -\sin(\omega p)$): such a pair turns the wrong way,
# and `identify` says so in its notes and reports the alias in $[0, \pi]$ instead of
# guessing [checked](claims.py#claim-aliases-at-integer-positions). The multiplying bug shows
# it:

# %% tags=["hide_input"]
page.alias_notes()

# %% [markdown]
# A table that is not a sinusoidal encoding at all gets a refusal, not a forced fit:

# %% tags=["hide_input"]
page.refusals()
