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
# * the **layout**: the paper interleaves the columns, pair $i$ in columns $2i$ and $2i+1$;
#   many libraries put all the sines in the first half and all the cosines in the second
#   ("halves") [checked](claims.py#claim-implementations-surveyed);
# * the **order** inside a pair: sine first (the paper) or cosine first, as diffusers'
#   timestep embedding does on request [checked](claims.py#claim-diffusers-cosine-first);
# * the **frequency law**: the paper's $\omega_i = b^{-2i/d}$, or
#   $\omega_i = \exp(-i \ln b / (d/2 - 1))$ ("t2t" in the table below), or a variant with the
#   exponents counted from 1
#   [checked](claims.py#claim-conventions-as-described);
# * the **offset**: the position of the first row (the rows fairseq's tokens read start at 2;
#   its stored table starts at 0, with a zeroed padding row before the first token)
#   [checked](claims.py#claim-implementations-surveyed).
#
# None of these changes what the encoding can do (the rotation identity holds in each layout
# and order [checked](claims.py#claim-layout-shift-matrix)), but code written for one convention
# runs without an error on a table of another, and code can carry outright bugs. Below, all
# computed by `pe`: the conventions side by side, who uses which, how to convert, a zoo of
# bugs, and `pe identify`, which reads a table and reports which convention it matches, if
# any.

# %% tags=["hide_input"]
from pe.site import conventions as page
from pe.site import report

page.conventions_table()

# %% [markdown]
# The table is `pe.conventions.CONVENTIONS`, each convention data that makes its table through
# `pe.numeric.sinusoidal`; the one-indexed law is the paper's table of width $d + 2$ without
# its first pair, with the base $b^{(d+2)/d}$
# [checked](claims.py#claim-one-indexed-law-is-wider-paper-law).
#
# ## Side by side
#
# Six conventions at width $d = {{ heatmap_width }}$, {{ heatmap_pairs }} frequencies each.
# Interleaved layouts alternate sine and cosine columns; halves layouts show the fan of
# frequencies twice. At position 0 a cosine-first table's row starts with 1, a sine-first
# one's with 0 [checked](claims.py#claim-conventions-as-described).

# %% tags=["hide_input"]
page.convention_heatmaps()

# %% tags=["hide_input"]
report.how_we_know("conventions-as-described", "one-indexed-law-is-wider-paper-law")

# %% [markdown]
# ## Who uses what
#
# Read from each project's public source (linked; nothing is loaded from it)
# [checked](claims.py#claim-implementations-surveyed); works are listed in the
# [bibliography](bibliography.md#conventions-and-implementations).
#
# | implementation | layout | law | first position | odd width |
# | --- | --- | --- | --- | --- |
# | [tensor2tensor `get_timing_signal_1d`](https://github.com/tensorflow/tensor2tensor/blob/75b75f2e2281101b9b3637e14ef519afd6a11b68/tensor2tensor/layers/common_attention.py) ([Vaswani et al. 2018](bibliography.md#vaswani2018)), the paper authors' code [checked](claims.py#claim-tensor2tensor-is-the-authors-code) | halves, sin first | t2t | 0 | a zero column appended [checked](claims.py#claim-implementations-surveyed) |
# | [fairseq `SinusoidalPositionalEmbedding`](https://github.com/facebookresearch/fairseq/blob/05625e3e6e660909e4df833de1f7b49019496a68/fairseq/modules/sinusoidal_positional_embedding.py) ([Ott et al. 2019](bibliography.md#ott2019)) | halves, sin first | t2t | `padding_idx + 1` = 2; the padding row is zeros | zero column [checked](claims.py#claim-implementations-surveyed) |
# | [HF transformers M2M100](https://github.com/huggingface/transformers/blob/593e8aa53900afea1d92e97d91b97e425b16a4c5/src/transformers/models/m2m_100/modeling_m2m_100.py) ([Wolf et al. 2020](bibliography.md#wolf2020)) | halves, sin first | t2t | 2 | zero column [checked](claims.py#claim-implementations-surveyed) |
# | [HF transformers Marian](https://github.com/huggingface/transformers/blob/d02747e153da5844c1abaa36eec184b0177247c0/src/transformers/models/marian/modeling_marian.py) | halves, sin first, sine block $\lceil d/2 \rceil$ wide | paper | 0 | works: an extra sine [checked](claims.py#claim-implementations-surveyed) |
# | [HF transformers DistilBERT](https://github.com/huggingface/transformers/blob/e368c1a8819d54720956961ea7cd47d99239bd39/src/transformers/models/distilbert/modeling_distilbert.py) (sinusoidal option, off by default) | interleaved, sin first | paper | 0 | an extra sine [checked](claims.py#claim-implementations-surveyed) |
# | [The Annotated Transformer](https://github.com/harvardnlp/annotated-transformer/blob/0a91a254735c07532e23733dce8a693e504f3a08/the_annotated_transformer.py) ([Rush 2018](bibliography.md#rush2018)) and the [PyTorch `nn.Transformer` tutorial](https://github.com/pytorch/tutorials/blob/e5f60c64367b2ff3c19e5b73a2c7eac4bf1269f1/beginner_source/transformer_tutorial.py) | interleaved, sin first | paper (as `exp(arange(0, d, 2) * -ln(10000)/d)`) | 0 | fails [checked](claims.py#claim-implementations-surveyed) |
# | [Dive into Deep Learning](https://github.com/d2l-ai/d2l-en/blob/300f071ebd1cff0dcc5de692eff85b4da3d29f5c/chapter_attention-mechanisms-and-transformers/self-attention-and-positional-encoding.md) ([Zhang et al. 2023](bibliography.md#zhang2023)) | interleaved, sin first | paper | 0 | fails [checked](claims.py#claim-implementations-surveyed) |
# | [TensorFlow text tutorial](https://github.com/tensorflow/text/blob/218b976be7f0dcf11ab87e8fdb7f283c45577c38/docs/tutorials/transformer.ipynb) (at the linked commit) | halves, sin first | paper | 0 | width $d + 1$ [checked](claims.py#claim-implementations-surveyed) |
# | [OpenAI Whisper `sinusoids`](https://github.com/openai/whisper/blob/c0d2f624c09dc18e709e37c2ad90c039a4eb72a2/whisper/model.py) ([Radford et al. 2023](bibliography.md#radford2023)), [diffusers `get_timestep_embedding`](https://github.com/huggingface/diffusers/blob/58eb52c0803ea9af3abec60841c2a093bdf1f951/src/diffusers/models/embeddings.py) | halves, sin first (diffusers can flip) | t2t-like (`h - shift` in the denominator) | 0 | Whisper: fails; diffusers: zero column [checked](claims.py#claim-implementations-surveyed) |
#
# The last column, read from the same sources, shows four ways of handling an odd width: a
# zero column, a native extra sine, an error (a shape mismatch or an explicit refusal), or
# a table one column wider [checked](claims.py#claim-implementations-surveyed).
#
# `pe.testing` fails on an odd width rather than guess which of these was meant
# [checked](claims.py#claim-testing-reads-tables).
#
# ## Converting between layouts, and the sign of the shift matrix
#
# Converting is a column permutation: `conventions.convert(table, source, target)` returns
# `table[:, perm]` with `perm = conventions.permutation(d, source, target)`. A permutation is
# a change of coordinates, so the rotation identity survives it: with $P$ the permutation
# matrix ($x_L = P\,x$), the shift matrix in layout $L$ is $P\,T_k\,P^{\mathsf T}$. SymPy
# proves it for all four layouts ($d = {{ proof_width }}$, symbolic base); the paper's $T_k$
# used as is on a halves table fails, and so does $P^{\mathsf T} T_k P$
# [checked](claims.py#claim-layout-shift-matrix).
#
# The order inside a pair changes the sign of each block. For the paper's (sin, cos) pairs
# the block that moves a pair forward by $k$ turns *clockwise* in (sin, cos) coordinates
# ([the rotation identity](rotation-identity.py#why-the-block-turns-clockwise)); swap the
# two coordinates and the same motion becomes counter-clockwise, the textbook rotation
# [checked](claims.py#claim-cos-first-block):
#
# $$\text{(sin, cos) order:}\ \begin{pmatrix} \cos k\omega & \sin k\omega \\ -\sin k\omega &
# \cos k\omega \end{pmatrix}, \qquad \text{(cos, sin) order:}\ \begin{pmatrix} \cos k\omega &
# -\sin k\omega \\ \sin k\omega & \cos k\omega \end{pmatrix}.$$
#
# Both are right, each for its order: as complex numbers, $\cos\theta + \mathrm{i}\sin\theta
# = e^{\mathrm{i}\theta}$ turns counter-clockwise, the paper's pair
# $\sin\theta + \mathrm{i}\cos\theta = \mathrm{i}\,e^{-\mathrm{i}\theta}$ the other way
# [checked](claims.py#claim-sin-cos-pair-turns-clockwise).

# %% tags=["hide_input"]
report.how_we_know(
    "layout-shift-matrix",
    "cos-first-block",
    "sin-cos-pair-turns-clockwise",
    proofs={"cos-first-block": True},
    more=[page.permutation_table(), page.layout_proof("halves", "sin-first")],
)

# %% [markdown]
# ## Two laws, one family
#
# tensor2tensor divides by $d/2 - 1$ where the paper divides by $d/2$, so its slowest pair is
# exactly $1/b$ where the paper's is $b^{-(d-2)/d}$. Both laws are geometric progressions from
# $\omega_0 = 1$, so each is the other with a different base
# [checked](claims.py#claim-t2t-law-is-paper-law):

# %% tags=["hide_input"]
page.law_equivalence()

# %% tags=["hide_input"]
report.how_we_know("t2t-law-is-paper-law", "identify-rounder-base")

# %% [markdown]
# ## The bug zoo
#
# Seven bugs that positional-encoding code can have, each a small function in `pe.bug_zoo`;
# two come from published texts. The first is in a book's literal translation of the formula
# into Python ([packt-transformers](bibliography.md#packt-transformers))
# [checked](claims.py#claim-packt-doubled-exponent):

# %% tags=["hide_input"]
page.bug_source("doubled-exponent")

# %% [markdown]
# Here the code's `i` already steps by 2: it is the column $2i$ of pair $i$, so the exponent
# becomes $2(2i)/d$ and the base is squared [checked](claims.py#claim-doubled-exponent-base). The seven bugs next to the
# paper's table:

# %% tags=["hide_input"]
page.bug_heatmaps()

# %% [markdown]
# Using `i` where `i // 2` was meant splits each pair: the sine of pair $i$
# turns at $b^{-4i/d}$ and its cosine at $b^{-(4i+2)/d}$, and no fixed matrix maps one row
# to a later one, because $\sin \omega(p+k)$ needs $\cos \omega p$, which the table does not
# contain. A mismatch inside each pair is not enough: swap the cosines of neighbouring pairs
# and every pair mismatches, yet each sine finds its cosine in another column and a permuted
# shift matrix exists [checked](claims.py#claim-column-index-bug-breaks-identity).

# %% tags=["hide_input"]
report.fold("Show what each bug does, and what identify says", page.bug_table())

# %% tags=["hide_input"]
report.how_we_know(
    "packt-doubled-exponent", "doubled-exponent-base", "camara-column-index",
    "column-index-bug-breaks-identity", "bug-zoo-shift-matrices",
)  # fmt: skip

# %% [markdown]
# ## Identifying any table
#
# `pe identify FILE.npy` reads a table (an $(n, d)$ float array, rows at consecutive
# positions, at least {{ identify_min_rows }} rows), and
# `pe identify MODULE:FUNCTION --n N --d D` calls your own function as `FUNCTION(N, D)` (see
# `pe identify --help`). It fits a sinusoid per column, pairs the columns, reads the order
# from each pair's turning direction, the offset from the first row's phases and the law
# from the frequencies' logarithms, and says what it found (in words, or `--json`). The exit status is {{ status_encoding }} for a sinusoidal
# encoding, {{ status_not_encoding }} for a table that is not one and {{ status_bad_input }}
# for bad input, as the session below shows. From Python:

# %% tags=["hide_input"]
page.identify_from_python()

# %% tags=["hide_input"]
report.fold(
    "Show a session of the command, run while this page was built", page.cli_session(page.SESSION)
)

# %% [markdown]
# A sine column of a slow pair is almost a straight line, $\sin \omega p \approx \omega p$,
# and pins $\omega$ to the precision of the values. Its cosine is almost flat,
# $\cos\omega p \approx 1 - (\omega p)^2/2$, and pins $\omega$ only to about
# $\varepsilon/\theta^2$ relative, with $\theta = \omega\,(n-1)$ the largest angle of that
# column's pair over the table's $n$ rows. `identify`
# fits each column on its own (so a pair whose sine and cosine disagree shows) and reports
# each frequency with its uncertainty, saying so for a slow cosine rather than giving false
# precision [checked](claims.py#claim-slow-cosine-pins-less).
#
# On each convention of the table above, as {{ recovery_rows }} rows at $d$ = {{ recovery_widths }},
# it names the convention and recovers the pairs' frequencies (fitted on the sines) within
# $10^{-6}$ relative in float64 and $10^{-3}$ in float32
# [checked](claims.py#claim-identify-recovers-conventions); the fold below adds the cosines
# and other bases, on the paper's law alone.
#
# Frequencies above $\pi$ radians per position cannot be recovered from integer positions:
# each shows as an alias in $[0, \pi]$. Between $\pi$ and $2\pi$ the alias is $2\pi - \omega$,
# and as $\sin((2\pi - \omega) p) = -\sin(\omega p)$ the pair seems to turn the wrong way (as
# does a faster one lying there modulo $2\pi$); `identify` says so and reports the alias
# [checked](claims.py#claim-aliases-at-integer-positions). The multiplying bug shows it:

# %% tags=["hide_input"]
page.alias_notes()

# %% [markdown]
# Each table tried below that is not a sinusoidal encoding at all (noise, a noisy learned-like
# table, zeros, one NaN) gets a refusal, not a forced fit.

# %% tags=["hide_input"]
report.fold("Show what identify says about tables that are not encodings", page.refusals())

# %% tags=["hide_input"]
report.how_we_know(
    "slow-cosine-pins-less",
    "identify-recovers-conventions",
    "aliases-at-integer-positions",
    more=[page.uncertainty_figure(), page.accuracy_table()],
)
