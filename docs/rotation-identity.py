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
# # The rotation identity
#
# Pair $i$ of the encoding holds a sine and a cosine of the same angle,
# $v_i(p) = \bigl(\sin \omega_i p,\ \cos \omega_i p\bigr)$ with $\omega_i = 10000^{-2i/d}$.
# Moving from position $p$ to position $p + k$ adds $\omega_i k$ to that angle, and adding
# a fixed angle is a rotation. So for every offset $k$ one matrix $T_k$, built from
# $2 \times 2$ rotation blocks and **the same at every position**, takes $PE(p)$ to
# $PE(p+k)$. This is what the paper meant by "$PE_{pos+k}$ can be represented as a linear
# function of $PE_{pos}$".
#
# Everything below is computed by the package `pe` while this page is built.

# %% tags=["hide_input"]
import numpy as np

from pe import figures, numeric, report, symbolic

report.claim("rotation-identity")

# %% [markdown]
# ## The proof, step by step
#
# SymPy works with $p$, $k$, $i$, $d$ and the base as symbols, with
# $\omega_i = \mathrm{base}^{-2i/d}$ written out (and shown as $\omega_i$). It forms the
# residual "left side minus right side" and reduces it to exactly zero with a fixed chain of
# rewrites: multiply out, expand the arguments $\omega_i(p+k) \to \omega_i p + \omega_i k$,
# apply the angle-addition formulas (`expand_trig`), collect terms (`expand`). No
# `simplify`, no floating-point numbers. The steps below are the ones SymPy took.

# %% tags=["hide_input"]
report.proof(symbolic.rotation_identity())

# %% [markdown]
# ### Why the sign is $[[c, s], [-s, c]]$
#
# Many write-ups print the textbook rotation $[[\cos, -\sin], [\sin, \cos]]$. That matrix is
# right when a pair is ordered (cos, sin). The paper orders each pair (sin, cos), and in those
# coordinates the angle grows *clockwise*, so the block is $[[\cos k\omega, \sin k\omega],
# [-\sin k\omega, \cos k\omega]]$. Feed SymPy the transposed (textbook) matrix and the residual
# does not vanish:

# %% tags=["hide_input"]
textbook = symbolic.rotation_identity(lambda k, w: symbolic.shift_block(k, w).T)
report.proof(textbook)

# %% [markdown]
# ## The whole vector
#
# Stacking the pairs, $T_k$ is block-diagonal with one rotation per frequency. For concrete
# widths SymPy checks the full $d$-dimensional statement exactly.

# %% tags=["hide_input"]
report.claim("rotation-identity-block-diagonal")

# %% tags=["hide_input"]
report.proof(symbolic.block_diagonal_identity(8))

# %% [markdown]
# ## $T_k$ does not depend on the position
#
# The map that takes $v_i(p)$ to $v_i(p+k)$ and $v_i(q)$ to $v_i(q+k)$ for two positions $p$
# and $q$ is unique (when $\sin \omega_i(p-q) \neq 0$), and SymPy shows it is the block
# itself: no $p$, no $q$ left in it. Numerically, a matrix fitted by least squares from the
# table alone, without the formula, is $T_k$ and serves every position: the same map takes
# position 10 to 15 and 15 to 20.

# %% tags=["hide_input"]
report.claim("shift-independent-of-position")

# %% tags=["hide_input"]
report.proof(symbolic.shift_is_position_free())

# %% [markdown]
# ## $T_k$ is a rotation
#
# Each block has $B^{\mathsf T} B = I$ and $\det B = 1$ (the proof substitutes
# $\sin^2 x = 1 - \cos^2 x$ as a named step), so $T_k$ is orthogonal: it moves the encoding
# without stretching it.

# %% tags=["hide_input"]
report.claim("shift-orthogonal")

# %% tags=["hide_input"]
report.proof(symbolic.shift_is_orthogonal())

# %% [markdown]
# ## The numeric check and its error model
#
# `pe.numeric.check_rotation_identity` computes $T_k\,PE(p)$ and $PE(p+k)$ in the chosen
# dtype and compares them entry by entry. Floating point cannot give exactly zero, so each
# entry of pair $i$ is held to a stated tolerance
#
# $$\tau_i(p, k) = 4\,\varepsilon + 4\,\varepsilon_{64}\,\omega_i\,(|p| + |k|),$$
#
# where $\varepsilon$ is the machine epsilon of the dtype. The first term covers rounding the
# table, the matrix and the two-term products to that dtype; the second covers the error of
# forming the angles $\omega_i p$ and $\omega_i k$ in float64, which grows linearly with the
# angle (about $\varepsilon_{64}$ relative error in $\omega_i$ becomes an absolute error of
# $\varepsilon_{64}\,\omega_i p$ in the angle).

# %% tags=["hide_input"]
positions = np.concatenate([np.arange(1024), [10_000, 100_000, 1_000_000]])
offsets = np.array([1, 2, 5, 10, 100, 1000, -3])
results = [
    numeric.check_rotation_identity(d, positions, offsets, dtype=dtype)
    for d in (64, 512)
    for dtype in (np.float32, np.float64)
]
assert all(r.passed for r in results)
report.check_table(results)

# %% [markdown]
# The error grows with the position as the model predicts: float64 errors rise linearly from
# about $10^{-16}$, float32 errors stay at the float32 rounding level because `pe` forms the
# angles in float64 before rounding.

# %% tags=["hide_input"]
figures.identity_error()

# %% [markdown]
# ## The table itself
#
# Each row is one position, each column one sine or cosine. The first columns turn fast
# (wavelength $2\pi$), the last ones barely move over a hundred positions (wavelength close
# to $2\pi \cdot 10000$).

# %% tags=["hide_input"]
figures.table_heatmap(100, 128)
