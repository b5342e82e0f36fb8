"""Frameworks for the tests that run real third-party code (PyTorch, JAX, transformers, ...).

They are not dependencies of pe: ``.ci/run`` installs them, and such a test imports them
through :func:`require`, which skips the test when the framework is missing locally and
fails it when the environment variable ``CI`` is set (CI must run every test).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

__all__ = ["require"]


def require(name: str) -> ModuleType:
    """Import ``name``; skip the test without it locally, fail it in CI."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        message = f"{name} is not installed ({error}); .ci/run installs it for CI"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
