"""Everything that renders the site's pages: HTML, claim cards, figures, page helpers.

- :mod:`pe.site.html`: the HTML building blocks (``table``, ``math``, ``code``);
- :mod:`pe.site.report`: claim cards, proofs, the claims table, exercises;
- :mod:`pe.site.figures`: the figure renderer (both palettes, alt text);
- one module per chapter (the page's name, ``-`` written ``_``) with its figures and tables.

The only subpackage that imports matplotlib (the ``docs`` extra); nothing outside it imports
it, and it is not part of the documented library API.
"""
