"""The build of StoneCave's compiled search core (``ai.core._core``), beside pyproject.toml's metadata.

The extension is optional: on a machine with no C compiler (or where Cython cannot run) the install still
succeeds, the game still plays on the pure-Python kernels, and ``stonecave doctor`` says why the compiled
core is missing.  ``STONECAVE_BUILD_CORE=0`` skips it on purpose (for testing the fallback).
"""
from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compile and goes on without the extension."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any failure leaves the pure-Python fallback
            self._warn(error)

    def build_extension(self, ext: Extension) -> None:
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


def native_flags() -> list[str]:
    """-mpopcnt where this machine's x86-64 CPU has the instruction (the core is compiled on the machine that
    runs it): the cave kernel counts bits in its hot loop, 27% faster with it."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            flags = next((line for line in cpuinfo if line.startswith("flags")), "")
    except OSError:
        return []
    return ["-mpopcnt"] if " popcnt" in flags else []


def extensions() -> list:
    if os.environ.get("STONECAVE_BUILD_CORE", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        sys.stderr.write("warning: Cython is missing, so the compiled search core is not built\n")
        return []
    core = Extension(
        "ai.core._core",
        ["ai/core/_core.pyx"],
        extra_compile_args=["-O3", *native_flags()],
        optional=True,
    )
    return cythonize([core], language_level=3, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
