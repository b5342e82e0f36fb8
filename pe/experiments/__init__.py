"""The NumPy measurements the chapters run, one module per chapter.

Toy attention and recurrent networks, the naive encodings, similarity of encodings,
learned tables and residual streams, precision, the relative-position family: what a
chapter measures to back its claims lives here, under the chapter's page name (``-``
written ``_``), and is tested in ``tests/test_<chapter>.py``. Figures and tables that show
the measurements are drawn by :mod:`pe.site`, never here.
"""
