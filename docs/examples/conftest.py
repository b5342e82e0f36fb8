"""pytest in docs/examples/: the files for PyTorch and JAX are collected (their doctests
imported) only where the framework is installed, and always when ``CI`` is set, where a
missing framework then fails the run (``.ci/run`` installs both)."""

from __future__ import annotations

import os
from importlib.util import find_spec

#: Each example file that needs a framework, and the framework.
NEEDS = {
    "pytorch_sinusoidal.py": "torch",
    "pytorch_rope.py": "torch",
    "jax_sinusoidal.py": "jax",
    "jax_rope.py": "jax",
}

collect_ignore = [
    name for name, module in NEEDS.items() if not os.environ.get("CI") and find_spec(module) is None
]
