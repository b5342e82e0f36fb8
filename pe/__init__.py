"""pe: the sinusoidal positional encoding of Transformers, with every claim executed.

- :mod:`pe.numeric`: the encoding, the shift matrix and numeric checks (NumPy);
- :mod:`pe.symbolic`: exact proofs of the rotation identity (SymPy);
- :mod:`pe.claims`: the registry of every mathematical claim the site makes;
- :mod:`pe.cli`: the ``pe`` command (``prove``, ``check``, ``verify``).
"""

from pe._validate import MAX_BYTES as MAX_BYTES
from pe.numeric import check_rotation_identity as check_rotation_identity
from pe.numeric import frequencies as frequencies
from pe.numeric import shift as shift
from pe.numeric import shift_matrix as shift_matrix
from pe.numeric import sinusoidal as sinusoidal

__version__ = "0.1.0"
