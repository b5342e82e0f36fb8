"""The chapters of the site, one module per page, each holding what its page claims.

A chapter's module is named by its page (``docs/rotation-identity.py`` is
:mod:`pe.chapters.rotation_identity`) and holds that chapter's SymPy proofs, NumPy
measurements, named wrong candidates and claims, each claim declared next to the checks it
rests on (``chapter.claim(...)``). The registry, :mod:`pe.claims`, finds the chapters here
and their claims in them; the page's figures and tables are drawn by :mod:`pe.site`.
"""
