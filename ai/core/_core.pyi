# The compiled core (ai/core/_core.pyx and its .pxi includes, built by Cython) as mypy sees it.  Its classes
# (KalahCore, OwareCore, HusCore, CaveCore, Run, CaveRun, Table, EndgameCore) are driven only through
# ai/core/kernels.py, which holds the typed Python interface; their C signatures live in the .pyx/.pxi files.
from typing import Any

ABI: int
SOURCE_FINGERPRINT: str
USES_POPCNT: bool

def clock() -> float: ...
def clock_offset() -> float: ...

def __getattr__(name: str) -> Any: ...
