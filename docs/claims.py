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
# Every mathematical statement on this site is registered in `pe.claims` with the SymPy
# proof and/or NumPy check behind it, and with wrong candidates that it must reject. The
# table below was computed while this page was built: `pe verify` prints the same table and
# `pe verify --json` the same data. If any claim failed, this page, and so the whole build,
# would have failed.

# %% tags=["hide_input"]
from pe import claims
from pe.site import report

results = claims.verify_all()
failed = [r.id for r in results if not r.ok]
if failed:
    raise claims.ClaimFailedError(f"claims that do not verify: {', '.join(failed)}")
report.claims_table(results)

# %% [markdown]
# Methods: `sympy` means an exact proof whose residual reduces to the integer 0; `numpy`
# means a numeric check held to a stated error model. "Wrong candidates" are the same proofs
# and checks fed a deliberately wrong input; each must fail.
