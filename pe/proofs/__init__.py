"""Every SymPy proof of the site, one module per chapter, and the named wrong candidates.

Each function returns a :class:`pe.symbolic.Proof`: the statement SymPy generated, the
rewrites that reduce its residual (left side minus right side) to exactly zero, and the
verdict. Functions that take a candidate (a block, a rotation, a law) prove the statement
for it; fed a wrong candidate from :mod:`pe.proofs.wrong`, the residual does not vanish.

- :mod:`pe.proofs.rotation_identity`: the identity, the whole vector, the group laws;
- one module per chapter for the rest (the chapter's page name, ``-`` written ``_``);
- :mod:`pe.proofs.wrong`: every named wrong candidate.
"""
