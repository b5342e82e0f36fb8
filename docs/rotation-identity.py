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
# Pair $i$ of the encoding holds a sine and a cosine of the same angle, in columns $2i$ and
# $2i+1$. Read as a point of the plane, the pair at position $p$ is
#
# $$v_i(p) = \begin{pmatrix} \sin \omega_i p \\ \cos \omega_i p \end{pmatrix},
# \qquad \omega_i = 10000^{-2i/d},$$
#
# a point on the unit circle at the angle $\omega_i p$
# [checked](claims.py#claim-encoding-bounded).
#
# Moving from position $p$ to position $p + k$ adds $\omega_i k$ to that angle, and adding a
# fixed angle is a rotation. So for every offset $k$ there is one matrix $T_k$, **the same
# at every position**, that takes the encoding of $p$ to the encoding of $p + k$
# [checked](claims.py#claim-rotation-identity):
#
# $$PE(p + k) = T_k\, PE(p) .$$
#
# This is what the paper means by "$PE_{pos+k}$ can be represented as a linear function of
# $PE_{pos}$" [checked](claims.py#claim-vaswani-linear-function). This chapter derives $T_k$
# in two lines, explains its unusual sign, and proves the laws it obeys. Everything below is
# computed by the package `pe` while this page is built.

# %% tags=["hide_input"]
from pe.site import report
from pe.site import rotation_identity as page

# %% [markdown]
# ## One pair: two lines of angle addition
#
# Write $\theta = \omega_i p$ for the angle at position $p$ and $\varphi = \omega_i k$ for
# the turn. The angle-addition formulas give
#
# $$\begin{aligned} \sin(\theta + \varphi) &= \sin\theta\,\cos\varphi + \cos\theta\,\sin\varphi, \\
# \cos(\theta + \varphi) &= \cos\theta\,\cos\varphi - \sin\theta\,\sin\varphi ,\end{aligned}$$
#
# and both right sides are linear in $\sin\theta$ and $\cos\theta$, with coefficients
# that depend on the turn $\varphi$ and not on the position
# [checked](claims.py#claim-rotation-identity). Written as a matrix:
#
# $$\begin{pmatrix} \sin \omega_i(p+k) \\ \cos \omega_i(p+k) \end{pmatrix} =
# \underbrace{\begin{pmatrix} \cos \omega_i k & \sin \omega_i k \\ -\sin \omega_i k & \cos \omega_i k
# \end{pmatrix}}_{B(\omega_i k)}
# \begin{pmatrix} \sin \omega_i p \\ \cos \omega_i p \end{pmatrix},$$
#
# that is, $v_i(p+k) = B(\omega_i k)\, v_i(p)$.
#
# That is the whole proof. SymPy checks it with $p$, $k$, $i$, $d$ and the base as symbols:
# it forms "left side minus right side", expands $\omega_i(p+k)$, applies the same
# angle-addition formulas and collects terms, and the residual is exactly zero (no
# `simplify`, no floating-point numbers).

# %% tags=["hide_input"]
report.proof_of("rotation-identity", summary="How the machine checked it: the")

# %% [markdown]
# ## The whole vector: $T_k$ as a matrix equation
#
# Stack the pairs, $PE(p) = \bigl(v_0(p), v_1(p), \dots, v_{d/2-1}(p)\bigr)$, and move each by
# its own block $B_i = B(\omega_i k)$. The matrix that does it is block-diagonal, one
# $2 \times 2$ rotation per frequency and zeros elsewhere, at every width, since block by
# block it is the one-pair identity [checked](claims.py#claim-rotation-identity-block-diagonal):
#
# $$\underbrace{\begin{pmatrix} v_0(p+k) \\ v_1(p+k) \\ \vdots \\ v_{d/2-1}(p+k) \end{pmatrix}}_{PE(p+k)}
# = \underbrace{\begin{pmatrix} B_0 & & & \\ & B_1 & & \\ & & \ddots & \\
# & & & B_{d/2-1} \end{pmatrix}}_{T_k}
# \underbrace{\begin{pmatrix} v_0(p) \\ v_1(p) \\ \vdots \\ v_{d/2-1}(p) \end{pmatrix}}_{PE(p)} .$$
#
# $T_k$ depends on the offset $k$ and on the frequencies, never on $p$: the same matrix
# moves every position $k$ steps on [checked](claims.py#claim-shift-independent-of-position).
# Below, each of the first pairs is a point on its circle; move $p$ and the turn from $PE(p)$ to $PE(p+k)$ stays the same, move $k$ and every
# pair turns by its own angle $k\omega_i$, the fast pairs far, the slow ones barely.

# %% tags=["hide_input"]
page.rotation_explorer()

# %% tags=["hide_input"]
report.how_we_know(
    "vaswani-linear-function",
    "rotation-identity",
    "rotation-identity-block-diagonal",
    proofs={"rotation-identity-block-diagonal": [0]},
)

# %% [markdown]
# ## Why the block turns clockwise
#
# The textbook rotation turns a vector counter-clockwise
# [checked](claims.py#claim-textbook-block-cos-sin-order):
#
# $$R(\varphi) = \begin{pmatrix} \cos\varphi & -\sin\varphi \\ \sin\varphi & \cos\varphi
# \end{pmatrix}.$$
#
# The block of $T_k$ has the signs the other way round. Whether a block is right depends on
# the *order* of the two entries of a pair, and the paper puts the sine first. Draw $v_i(p)$
# with the sine on the horizontal axis and the cosine on the vertical one (left, below). At
# $p = 0$ the
# point sits at the top, $(0, 1)$; as $p$ grows the sine grows and the cosine shrinks, so
# the point moves to the right and down: **clockwise**, and a clockwise turn is
# $B(\varphi) = R(-\varphi)$ [checked](claims.py#claim-block-sign-sin-cos-order). Store the
# same pair the other way round, $(\cos, \sin)$, and the point starts at $(1, 0)$ and turns
# counter-clockwise: there the textbook $R(\varphi)$ is right. Fed to the proof above for the
# paper's order, the textbook matrix leaves a residual of twice the sine terms, the
# signature of a turn in the wrong direction.

# %% tags=["hide_input"]
page.turn_direction()

# %% tags=["hide_input"]
report.how_we_know(
    "block-sign-sin-cos-order",
    "textbook-block-cos-sin-order",
    more=[
        report.proof_of("block-sign-sin-cos-order", 1),
        page.rejected_textbook(),
    ],
)

# %% [markdown]
# ## The group laws
#
# The matrices $T_k$ behave like the offsets they stand for, and each law follows from the
# blocks. Two turns make one: multiplying two blocks and applying the angle-addition formulas
# to each entry gives [checked](claims.py#claim-shift-composition)
#
# $$B(\alpha)\,B(\beta) = \begin{pmatrix} \cos\alpha\cos\beta - \sin\alpha\sin\beta &
# \cos\alpha\sin\beta + \sin\alpha\cos\beta \\
# -\sin\alpha\cos\beta - \cos\alpha\sin\beta & \cos\alpha\cos\beta - \sin\alpha\sin\beta
# \end{pmatrix} = B(\alpha + \beta),$$
#
# so $T_a\,T_b = T_{a+b}$: offsets add.
#
# The others follow the same way:
#
# - shifting by nothing changes nothing, $T_0 = I$, since $B(0) = I$
#   [checked](claims.py#claim-shift-identity-at-zero);
# - a shift backwards undoes a shift forwards, and because each block is orthogonal the
#   inverse is simply the transpose, $T_{-k} = T_k^{-1} = T_k^{\mathsf T}$
#   [checked](claims.py#claim-shift-inverse-is-transpose) (which is why the transposed matrix
#   fails the identity: it shifts by $-k$);
# - $T_k$ is a rotation, $T_k^{\mathsf T} T_k = I$ and $\det T_k = 1$, because
#   $\cos^2\varphi + \sin^2\varphi = 1$ in every block: it moves the encoding without
#   stretching or reflecting it [checked](claims.py#claim-shift-orthogonal).
#
# SymPy proves each law for one block with symbolic $k$ and $\omega_i$, so for every pair and
# every width, and NumPy checks it on the full ${{ law_width }} \times {{ law_width }}$
# matrices of `pe.numeric.shift_matrix` [checked](claims.py#claim-shift-composition).
#
# ### $T_k$ does not depend on the position
#
# Take any two positions $p$ and $q$. The map that takes $v_i(p)$ to $v_i(p+k)$ and
# $v_i(q)$ to $v_i(q+k)$ is unique (when $\sin \omega_i(p-q) \neq 0$), and SymPy shows it is
# $B(\omega_i k)$: no $p$, no $q$ left in it. Numerically, at $d = 16$ and $d = 64$, a matrix
# fitted by least squares from the table alone, without the formula, at the offset $k = 5$,
# is $T_5$ and serves the positions tried
# [checked](claims.py#claim-shift-independent-of-position).
#
# A classroom example makes this concrete: the matrix $T_5$ that takes position 10 to
# position 15 also takes 15 to 20. With $x = 5\omega_i$ the three pairs are $v_i(10) = (\sin 2x, \cos 2x)$,
# $v_i(15) = (\sin 3x, \cos 3x)$ and $v_i(20) = (\sin 4x, \cos 4x)$; SymPy writes the multiple
# angles as polynomials in $\sin x$ and $\cos x$ and divides by $\sin^2 x + \cos^2 x - 1$,
# leaving a remainder of exactly zero [checked](claims.py#claim-same-map-10-15-20).

# %% tags=["hide_input"]
report.how_we_know(
    "shift-composition", "shift-identity-at-zero", "shift-inverse-is-transpose", "shift-orthogonal",
    "shift-independent-of-position", "same-map-10-15-20", proofs=True,
)  # fmt: skip

# %% [markdown]
# ## In floating point
#
# The identity is exact for real numbers. Computed in float64 or float32, $T_k\,PE(p)$ and
# $PE(p+k)$ differ by rounding, and `pe.numeric.check_rotation_identity` holds every entry to
# a stated error model [checked](claims.py#claim-rotation-identity). The model, the measured errors and what
# float16 does to the identity are in [the precision chapter](precision.py#the-rotation-identity-in-floating-point).
#
# ## Exercises

# %% tags=["hide_input"]
page.exercises()
