"""The build of StoneCave's compiled search core (``ai.core._core``), beside pyproject.toml's metadata.

The extension is optional: on a machine with no C compiler (or where Cython cannot run) the install still
succeeds, the game still plays on the pure-Python kernels, and ``stonecave doctor`` says why the compiled
core is missing.  ``STONECAVE_BUILD_CORE=0`` skips it on purpose (for testing the fallback).

Two more things happen here:
- the fingerprint of the Cython sources (``ai/core/fingerprint.py``) is written into ``ai/core/_fingerprint.pxi``
  and so compiled into the extension; ``ai.core`` warns, ``stonecave doctor`` says so and the test suite refuses
  to run when the sources beside a build no longer match it;
- a build for this machine (in place: ``pip install -e .``, ``setup.py build_ext --inplace``) uses this CPU's
  ``popcnt`` instruction where it has one; a wheel or a regular install is portable (no CPU feature beyond the
  platform's baseline: the core counts bits without it, a little slower), because a wheel runs on other
  machines.  ``STONECAVE_NATIVE=1`` or ``0`` forces either choice.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


HERE = Path(__file__).resolve().parent


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compile and goes on without the extension, with the compiler's flags
    (portable unless the build is for this machine)."""

    def run(self) -> None:
        # setuptools clears `inplace` inside run(): read it (and the editable install's flag) before
        self._for_this_machine = bool(self.inplace or getattr(self, "editable_mode", False))
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any failure leaves the pure-Python fallback
            self._warn(error)

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/O2"]
        else:
            ext.extra_compile_args = ["-O3", *native_flags(getattr(self, "_for_this_machine", False))]
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            self._warn(error)

    @staticmethod
    def _warn(error: BaseException) -> None:
        sys.stderr.write(
            f"\nwarning: StoneCave's compiled search core was not built ({error}).\n"
            "The game works on the pure-Python engines; `stonecave doctor` says more.\n\n"
        )


def native_flags(for_this_machine: bool) -> list[str]:
    """-mpopcnt when the build is for this machine and its x86-64 CPU has the instruction: the cave kernel
    counts bits in its hot loop, 27% faster with it.  Never in a wheel (``for_this_machine`` false), which may
    run on a CPU without it; ``STONECAVE_NATIVE`` overrides."""
    forced = os.environ.get("STONECAVE_NATIVE", "").strip()
    if forced in ("0", "1"):
        for_this_machine = forced == "1"
    if not for_this_machine:
        return []
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            flags = next((line for line in cpuinfo if line.startswith("flags")), "")
    except OSError:
        return []
    return ["-mpopcnt"] if " popcnt" in flags else []


def _load_fingerprint_module():  # type: ignore[no-untyped-def]
    """ai/core/fingerprint.py, loaded by its path (importing the ai package would need its dependencies)."""
    spec = importlib.util.spec_from_file_location("_stonecave_fingerprint", HERE / "ai" / "core" / "fingerprint.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extensions() -> list:
    if os.environ.get("STONECAVE_BUILD_CORE", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        sys.stderr.write("warning: Cython is missing, so the compiled search core is not built\n")
        return []
    fingerprint = _load_fingerprint_module()
    fingerprint.write_generated(HERE / "ai" / "core")
    core = Extension("ai.core._core", ["ai/core/_core.pyx"], optional=True)
    return cythonize([core], language_level=3, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
