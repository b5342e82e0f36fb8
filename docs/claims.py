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
# proof and/or NumPy check behind it and wrong candidates that it must reject, or, for a
# fact taken from a published work, its source in the [bibliography](bibliography.md)
# (marked "cited" when nothing in it can be recomputed). A number or a formula in the prose
# between the cards was either computed by `pe` while the page was built or carries a
# "checked" mark linking to the entry below that backs it: `make check-pages` fails on any
# other. Words without numbers or formulas (explanations, pictures of what a claim says)
# rest on the claims near them. The tables below, one per page of the site (open a page's
# fold to see its claims; a "checked" mark opens the fold of its claim), were computed while
# this page was built: `pe verify` prints the same claims and `pe verify --json` the same
# data. If any claim failed, this page, and so the whole build, would have failed.

# %% tags=["hide_input"]
from pe.site import report

report.claims_table()

# %% [markdown]
# Methods: a *SymPy proof* is an exact proof whose residual reduces to exactly zero; a
# *NumPy check* is a numeric check held to a stated error model; *cited* is a fact taken
# from its source, with nothing to recompute. "Wrong candidates" are the same proofs and
# checks fed a plausible wrong input; each must fail.
