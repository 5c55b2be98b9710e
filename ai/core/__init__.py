"""Which search core runs: the compiled one (``ai.core._core``, Cython) or the pure-Python kernels.

The compiled core is built by the package's own build (``python -m pip install -e .``) where a C compiler
exists; it is optional, and where it is missing every engine runs on the pure-Python kernels of ``ai.fast``
(the reference the compiled one is tested against).  The choice is never silent: ``status()`` says which
core runs and why, and ``stonecave engines``, ``stonecave doctor`` and the computer panel show it.

``STONECAVE_CORE=python`` in the environment forces the pure-Python kernels (for testing the fallback);
``STONECAVE_CORE=compiled`` makes a missing compiled core an error instead of a fallback.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from types import ModuleType

ABI = 1
"""The extension's ``ABI`` this Python side expects (an older build must be rebuilt, not trusted)."""

REBUILD = "python -m pip install -e ."


@dataclass(frozen=True)
class CoreStatus:
    """Which core the engines use, and why."""

    compiled: bool
    why: str
    """Why this core: where the compiled one was found, or why it is missing and how to get it."""

    @property
    def name(self) -> str:
        return "compiled" if self.compiled else "pure Python"

    def describe(self) -> str:
        return f"{self.name} ({self.why})"


_loaded: tuple[ModuleType | None, CoreStatus] | None = None
runs_started = 0
"""Compiled searches started in this process (the test suite's proof that the compiled core ran)."""


def _load() -> tuple[ModuleType | None, CoreStatus]:
    wanted = os.environ.get("STONECAVE_CORE", "").strip().lower()
    if wanted == "python":
        return None, CoreStatus(False, "STONECAVE_CORE=python asks for the pure-Python kernels")
    try:
        from ai.core import _core
    except ImportError as error:
        why = f"the compiled core is not built here ({error}); build it with a C compiler: {REBUILD}"
        if wanted == "compiled":
            raise ImportError(f"STONECAVE_CORE=compiled, but {why}") from error
        return None, CoreStatus(False, why)
    if getattr(_core, "ABI", None) != ABI:
        why = f"the compiled core is out of date (ABI {getattr(_core, 'ABI', '?')}, need {ABI}); rebuild: {REBUILD}"
        if wanted == "compiled":
            raise ImportError(f"STONECAVE_CORE=compiled, but {why}")
        return None, CoreStatus(False, why)
    return _core, CoreStatus(True, f"Cython extension {os.path.basename(_core.__file__)}")


def module() -> ModuleType | None:
    """The compiled extension, or None when the pure-Python kernels run."""
    global _loaded
    if _loaded is None:
        _loaded = _load()
    return _loaded[0]


def require() -> ModuleType:
    """The compiled extension, for a compiled kernel (built only when ``module()`` found it); ImportError
    saying why when it is not loaded."""
    loaded = module()
    if loaded is None:
        raise ImportError(f"a compiled kernel needs the compiled core, which is not loaded: {status().why}")
    return loaded


def status() -> CoreStatus:
    global _loaded
    if _loaded is None:
        _loaded = _load()
    return _loaded[1]


def reset() -> None:
    """Forget the loaded core so the next call looks again (tests that change ``STONECAVE_CORE``)."""
    global _loaded
    _loaded = None
