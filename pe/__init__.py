"""pe: the sinusoidal positional encoding of Transformers, with every claim executed.

The library a user imports:

- :func:`sinusoidal`, :func:`frequencies`: the paper's table and its frequencies (NumPy);
- :func:`shift_matrix`, :func:`shift`: the matrix :math:`T_k` with
  :math:`T_k\\,PE(p) = PE(p + k)`, and its action without the matrix;
- :func:`check_rotation_identity`: the identity checked numerically against an error model;
- :func:`rope`: rotary position embeddings;
- :func:`identify`: which convention an ``(n, d)`` table follows, or how it differs.

Modules: :mod:`pe.numeric` (the NumPy core), :mod:`pe.symbolic` (the SymPy objects and
proof engine), :mod:`pe.reference` (mpmath reference values), :mod:`pe.rotary`,
:mod:`pe.conventions`, :mod:`pe.identify`, :mod:`pe.relative` (the relative-position
family), :mod:`pe.recipes` (the usual float recipes). The proofs, measurements and claims
behind the site live in :mod:`pe.chapters` (one module per page) and the registry in
:mod:`pe.claims`; the ``pe`` command in :mod:`pe.cli`.

Examples
--------
>>> import numpy as np
>>> import pe
>>> table = pe.sinusoidal(16, 8)
>>> bool(np.allclose(pe.shift_matrix(5, 8) @ table[3], table[8]))
True
>>> pe.identify(table).matches_paper
True
"""

from pe._validate import MAX_BYTES as MAX_BYTES
from pe.identify import identify as identify
from pe.numeric import check_rotation_identity as check_rotation_identity
from pe.numeric import frequencies as frequencies
from pe.numeric import shift as shift
from pe.numeric import shift_matrix as shift_matrix
from pe.numeric import sinusoidal as sinusoidal
from pe.rotary import rope as rope

__all__ = [
    "MAX_BYTES",
    "check_rotation_identity",
    "frequencies",
    "identify",
    "rope",
    "shift",
    "shift_matrix",
    "sinusoidal",
]

__version__ = "0.1.0"
