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
# $PE(p+k)$ [checked](claims.py#claim-rotation-identity). This is what the paper meant by "$PE_{pos+k}$ can be
# represented as a linear function of $PE_{pos}$".
#
# Everything below is computed by the package `pe` while this page is built.

# %% tags=["hide_input"]
from pe.chapters import rotation_identity as proofs
from pe.site import report
from pe.site import rotation_identity as page

report.claim("rotation-identity")

# %% [markdown]
# ## The proof, step by step
#
# SymPy works with $p$, $k$, $i$, $d$ and the base as symbols, with
# $\omega_i = \mathrm{base}^{-2i/d}$ written out (and shown as $\omega_i$). It forms the
# residual "left side minus right side" and reduces it to exactly zero with a fixed chain of
# rewrites: multiply out, expand the arguments $\omega_i(p+k) \to \omega_i p + \omega_i k$,
# apply the angle-addition formulas (`expand_trig`), collect terms (`expand`). No
# `simplify`, no floating-point numbers. The steps below are the ones SymPy took
# [checked](claims.py#claim-rotation-identity).

# %% tags=["hide_input"]
report.proof(proofs.rotation_identity())

# %% [markdown]
# ## Why the sign is $[[c, s], [-s, c]]$
#
# Many write-ups print the textbook rotation
# $R(\theta) = [[\cos\theta, -\sin\theta], [\sin\theta, \cos\theta]]$, which turns a
# vector counter-clockwise [checked](claims.py#claim-textbook-block-cos-sin-order). Whether that is the right
# block depends on the *order* of the two entries of a pair, and the paper puts the sine
# first.
#
# Picture pair $i$ as a point $(\sin\omega_i p, \cos\omega_i p)$: the first coordinate on the
# horizontal axis, the second on the vertical one. At $p = 0$ the point sits at the top,
# $(0, 1)$; as $p$ grows the sine grows and the cosine shrinks, so the point moves to the right
# and down: **clockwise**. A clockwise turn by $k\omega_i$ is $R(-k\omega_i)$, and
# $R(-k\omega_i) = [[\cos k\omega_i, \sin k\omega_i], [-\sin k\omega_i, \cos k\omega_i]]$,
# the block of $T_k$. Store the same pair the other way round, $(\cos, \sin)$, and the point
# starts at $(1, 0)$ and turns counter-clockwise: there the textbook $R(k\omega_i)$ is right.
# Both statements are claims, proved by SymPy and checked by NumPy (which also measures the
# direction of the turn from the sign of the 2-D cross product of $u(p)$ and $u(p+1)$).

# %% tags=["hide_input"]
report.claim("block-sign-sin-cos-order")

# %% tags=["hide_input"]
report.proof(proofs.sin_cos_block_is_clockwise())

# %% tags=["hide_input"]
report.claim("textbook-block-cos-sin-order")

# %% [markdown]
# Feed SymPy the textbook matrix for the paper's (sin, cos) order and the residual does not
# vanish: what is left is twice the sine terms, the signature of a turn in the wrong direction.

# %% tags=["hide_input"]
page.rejected_textbook()

# %% [markdown]
# ## Every pair turns on its own circle
#
# Each pair is a point on the unit circle. Moving one position forward turns pair $i$ by
# $\omega_i$ radians, whatever the position: the fastest pair by one radian per step, the
# slower pairs by less. $T_k$ turns all of them at once, each by $k\omega_i$.

# %% tags=["hide_input"]
page.rotation_explorer()

# %% [markdown]
# ## The whole vector
#
# Stacking the pairs, $T_k$ is block-diagonal with one rotation per frequency. For concrete
# widths SymPy checks the full $d$-dimensional statement exactly.

# %% tags=["hide_input"]
report.claim("rotation-identity-block-diagonal")

# %% tags=["hide_input"]
report.proof(proofs.block_diagonal_identity(8))

# %% [markdown]
# ## The group laws
#
# The matrices $T_k$ behave like the offsets they stand for: shifting by nothing does nothing,
# two shifts make one, a shift backwards undoes a shift forwards. Because $T_k$ is
# block-diagonal, each law is proved for one block with symbolic $k$ and $\omega_i$ (so for
# every pair and every width) and checked numerically on the full
# ${{ law_width }} \times {{ law_width }}$ matrices from `pe.numeric.shift_matrix`, against the
# error model below: entries of a product of two shift matrices are accepted within
# $4\varepsilon + 4\varepsilon\,(|a| + |b|)$ [checked](claims.py#claim-shift-composition).
#
# ### Shifting by zero

# %% tags=["hide_input"]
report.claim("shift-identity-at-zero")

# %% [markdown]
# ### Two shifts make one
#
# $T_a T_b = T_{a+b}$: the angles add, which is exactly what the angle-addition formulas say.
# The wrong law $T_a T_b = T_{a-b}$ is rejected, and so are matrices that are not rotations.

# %% tags=["hide_input"]
report.claim("shift-composition", proofs=True)

# %% [markdown]
# ### Shifting back
#
# $T_{-k}$ undoes $T_k$, and because $T_k$ is orthogonal the inverse is simply the transpose:
# $T_{-k} = T_k^{-1} = T_k^{\mathsf T}$. (This is also why the transposed matrix fails the
# identity above: it is a shift, but by $-k$.)

# %% tags=["hide_input"]
report.claim("shift-inverse-is-transpose", proofs=True)

# %% [markdown]
# ### $T_k$ is a rotation: orthogonal, determinant 1
#
# Each block has $B^{\mathsf T} B = I$ and $\det B = 1$ (the proof substitutes
# $\sin^2 x = 1 - \cos^2 x$ as a named step), so $T_k$ is orthogonal with determinant 1: it
# moves the encoding without stretching or reflecting it.

# %% tags=["hide_input"]
report.claim("shift-orthogonal", proofs=True)

# %% [markdown]
# ### $T_k$ does not depend on the position
#
# The map that takes $v_i(p)$ to $v_i(p+k)$ and $v_i(q)$ to $v_i(q+k)$ for two positions $p$
# and $q$ is unique (when $\sin \omega_i(p-q) \neq 0$), and SymPy shows it is the block
# itself: no $p$, no $q$ left in it. Numerically, a matrix fitted by least squares from the
# table alone, without the formula, is $T_k$ and serves every position.

# %% tags=["hide_input"]
report.claim("shift-independent-of-position", proofs=True)

# %% [markdown]
# A classroom example makes this concrete: if a matrix takes position 10 to position 15, the
# *same* matrix takes 15 to 20. With $x = 5\omega_i$ the three pairs are
# $(\sin 2x, \cos 2x)$, $(\sin 3x, \cos 3x)$ and $(\sin 4x, \cos 4x)$; SymPy writes the
# multiple angles as polynomials in $\sin x$ and $\cos x$ and divides by
# $\sin^2 x + \cos^2 x - 1$, leaving a remainder of exactly zero.

# %% tags=["hide_input"]
report.claim("same-map-10-15-20", proofs=True)

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
# $\varepsilon_{64}\,\omega_i p$ in the angle) [checked](claims.py#claim-rotation-identity).

# %% tags=["hide_input"]
page.check_table()

# %% [markdown]
# The figure below draws, for float64 and float32, the largest error measured at each
# position next to the tolerance the model gives there. The float32 errors stay at the
# float32 rounding level because `pe` forms the angles in float64 before rounding.

# %% tags=["hide_input"]
page.identity_error()

# %% [markdown]
# The table itself, one row per position, is drawn in
# [the sinusoidal encoding](sinusoidal-encoding.py): its first columns turn fast (wavelength
# $2\pi$), its last ones barely move over a hundred positions (wavelength close to
# $2\pi \cdot 10000$) [checked](claims.py#claim-wavelength-progression).

# %% [markdown]
# ## Exercises

# %% tags=["hide_input"]
page.exercises()
