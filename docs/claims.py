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
# # Claims
#
# Every claim card on this site is a statement registered in `pe.claims`, with the SymPy
# proof and/or NumPy check behind it and wrong candidates that it must reject. Not every
# sentence is a claim: results of the cited papers are reported as their authors stated them,
# and some explanatory prose between the cards rests on the claims near it rather than on a
# claim of its own. The table below was computed while this page was built: `pe verify` prints the same table and
# `pe verify --json` the same data. If any claim failed, this page, and so the whole build,
# would have failed.

# %% tags=["hide_input"]
from pe.site import report

report.claims_table()

# %% [markdown]
# Methods: a *SymPy proof* is an exact proof whose residual reduces to the integer 0; a
# *NumPy check* is a numeric check held to a stated error model. "Wrong candidates" are the
# same proofs and checks fed a deliberately wrong input; each must fail.
