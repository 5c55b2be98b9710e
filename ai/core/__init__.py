"""Which search core runs: the compiled one (``ai.core._core``, Cython) or the pure-Python kernels.

The compiled core is built by the package's own build (``python -m pip install -e .``) where a C compiler
exists; it is optional, and where it is missing every engine runs on the pure-Python kernels of ``ai.fast``
(the reference the compiled one is tested against).  The choice is never silent: ``status()`` says which
core runs and why, and ``stonecave engines``, ``stonecave doctor`` and the computer panel show it.

``STONECAVE_CORE=python`` in the environment forces the pure-Python kernels (for testing the fallback);
``STONECAVE_CORE=compiled`` makes a missing compiled core an error instead of a fallback.

A build that no longer matches its sources is never trusted silently: the extension carries the fingerprint of
the ``.pyx``/``.pxi`` files it was compiled from (``ai/core/fingerprint.py``), and importing this package
compares it with the sources beside it and warns in one line with the rebuild command when they differ (a
``.pxi`` edited and not rebuilt); ``stonecave doctor`` says so too and the test suite refuses to run.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ai.core.fingerprint import source_fingerprint

ABI = 1
"""The extension's ``ABI`` this Python side expects (an older build must be rebuilt, not trusted)."""

REBUILD = "python -m pip install -e ."
REBUILD_IN_PLACE = "python setup.py build_ext --inplace"
"""The quicker rebuild of a checkout's core alone (what a maintainer runs after editing a .pyx/.pxi)."""


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
    stale = stale_reason(_core)
    if getattr(_core, "ABI", None) != ABI:
        why = f"the compiled core is out of date (ABI {getattr(_core, 'ABI', '?')}, need {ABI}); rebuild: {REBUILD}"
        if wanted == "compiled":
            raise ImportError(f"STONECAVE_CORE=compiled, but {why}")
        return None, CoreStatus(False, why)
    if stale is not None:
        return _core, CoreStatus(True, f"Cython extension {os.path.basename(_core.__file__)}, but {stale}")
    return _core, CoreStatus(True, f"Cython extension {os.path.basename(_core.__file__)}")


def fingerprints_differ(built: str | None, sources: str | None) -> bool:
    """Whether a build's fingerprint says it was compiled from other sources than ``sources``.  Sources that
    are not there (an install without them) cannot be compared and are not called stale; a build without a
    fingerprint (made before there was one) is."""
    if sources is None:
        return False
    return built != sources


def stale_reason(extension: ModuleType) -> str | None:
    """Why ``extension`` does not match the Cython sources beside it (one line, with the rebuild command), or
    None when it matches."""
    built = getattr(extension, "SOURCE_FINGERPRINT", None)
    if not fingerprints_differ(built, source_fingerprint(Path(__file__).parent)):
        return None
    return (f"it is stale: ai/core's .pyx/.pxi sources changed since it was built; rebuild: {REBUILD_IN_PLACE} "
            f"(or {REBUILD})")


def _warn_if_stale() -> None:
    """At import: one line on stderr when the built extension no longer matches its sources (not when the
    pure-Python kernels are asked for, nor when no extension is built)."""
    if os.environ.get("STONECAVE_CORE", "").strip().lower() == "python":
        return
    try:
        if importlib.util.find_spec("ai.core._core") is None:
            return
        from ai.core import _core
    except ImportError:
        return  # not built for this Python, or broken: status() says why when the core is first asked for
    reason = stale_reason(_core)
    if reason is not None:
        sys.stderr.write(f"warning: StoneCave's compiled search core {os.path.basename(_core.__file__)}: {reason}\n")


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


_warn_if_stale()
