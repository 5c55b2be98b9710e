# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""StoneCave's compiled search core: one PVS over C positions, and each game's kernel.

Built by the package's own build (``setup.py``; Cython comes in through ``[build-system] requires``) and
optional: where it is missing the engines run the pure-Python kernels of ``ai.fast``, which stay the
reference this core is tested against.  ``ai.core`` loads it and says which core runs.
"""
include "kernel.pxi"
include "_fingerprint.pxi"   # SOURCE_FINGERPRINT, written by setup.py (ai/core/fingerprint.py)

cdef double WIN_SCORE = 100_000.0   # ai.evaluators.WIN (tests/test_core.py checks they agree)

include "search.pxi"
include "kalah_tables.pxi"
include "oware_tables.pxi"
include "kalah.pxi"
include "kalah_solver.pxi"
include "oware.pxi"
include "hus.pxi"
include "cave.pxi"
include "cave_endgame.pxi"

cdef extern from *:
    """
    #if defined(__POPCNT__)
    #define SC_BUILT_WITH_POPCNT 1
    #else
    #define SC_BUILT_WITH_POPCNT 0
    #endif
    """
    int SC_BUILT_WITH_POPCNT

WIN = WIN_SCORE
USES_POPCNT = bool(SC_BUILT_WITH_POPCNT)
"""Whether this build uses the CPU's popcnt instruction (a build for this machine; never a wheel: setup.py)."""
ABI = 1
"""Bumped whenever the Python side relies on something new in the extension (ai.core checks it)."""
