"""Where ``pe identify`` gets a table: a ``.npy`` file or a user's function.

Every failure becomes a one-line :class:`ValueError` (or :class:`TypeError`) naming the
source, so the command line can print it with a usage line and exit 2, never a traceback.

Accepted functions
------------------
``MODULE:FUNCTION`` names a callable. ``MODULE`` is a dotted module name importable from
the current directory (``mypkg.encodings``) or a path to a ``.py`` file
(``path/to/encodings.py``); ``FUNCTION`` may be a dotted attribute (``Model.table``). It is
called as ``FUNCTION(n, d)``, with two positional integers (the number of positions and
the width), so any of these signatures work::

    def table(n, d): ...
    def table(n_positions, d_model, base=10000.0): ...   # extra parameters need defaults
    def table(*args): ...

It must return an ``(n, d)`` array of floats: a NumPy array or anything ``numpy.asarray``
accepts (a list of lists, a CPU tensor without gradients).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["call_function", "load_npy"]


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load_npy(path: str) -> Any:
    """Load a ``.npy`` file (no pickles) as an array."""
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"{path}: no such file")
    try:
        return np.load(file, allow_pickle=False)
    except (OSError, ValueError, EOFError, SyntaxError, TypeError) as error:
        raise ValueError(f"{path}: not a readable .npy array ({_one_line(error)})") from None


def _import(module_name: str) -> Any:
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        file = Path(module_name)
        if not file.is_file():
            raise ValueError(f"{module_name}: no such file")
        spec = importlib.util.spec_from_file_location(file.stem, file)
        if spec is None or spec.loader is None:
            raise ValueError(f"{module_name}: cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    return importlib.import_module(module_name)


def _resolve(spec: str) -> Any:
    """The callable named by ``MODULE:FUNCTION``."""
    module_name, _, attribute = spec.rpartition(":")
    if not module_name or not attribute:
        raise ValueError(f"expected MODULE:FUNCTION, got {spec!r}")
    try:
        target: Any = _import(module_name)
    except ValueError:
        raise
    except BaseException as error:  # the user's module may raise anything on import
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ValueError(f"cannot import {module_name}: {_one_line(error)}") from None
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ValueError(f"{module_name} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{spec} is not callable")
    return target


def call_function(spec: str, n: int, d: int) -> Any:
    """Import ``MODULE:FUNCTION``, call ``FUNCTION(n, d)`` and return its ``(n, d)`` array."""
    target = _resolve(spec)
    try:
        inspect.signature(target).bind(n, d)
    except TypeError:
        raise TypeError(
            f"{spec} must accept two positional arguments (n, d), "
            f"its signature is {inspect.signature(target)}"
        ) from None
    except ValueError:  # builtins without a signature: just try
        pass
    try:
        result = target(n, d)
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ValueError(f"{spec}({n}, {d}) raised {_one_line(error)}") from None
    try:
        array = np.asarray(result)
    except (TypeError, ValueError, RuntimeError) as error:
        raise TypeError(f"{spec} returned no array: {_one_line(error)}") from None
    if array.shape != (n, d):
        raise ValueError(f"{spec}({n}, {d}) returned shape {array.shape}, expected ({n}, {d})")
    return array
