"""One clock: the compiled search reads the clock Python's deadlines are written in (``time.perf_counter``).

Before, C read CLOCK_MONOTONIC on the assumption that it is perf_counter's clock, true on Linux only; now the
core reads perf_counter's own clock on each platform and converts every deadline through the offset between
the two, measured when the search starts, so the two sides agree by construction on any platform.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

import ai.core
from ai.evaluators import get_evaluator
from ai.fast import kernel_for
from rules import get_game
from ai.base import SearchAborted
from tests.cores import compiled_only

CORE_SOURCES = Path(ai.core.__file__).parent
GENEROUS = 5.0
"""Seconds a 0.1 s deadline may overrun on a loaded shared machine (a poll is tens of microseconds)."""


@compiled_only
def test_the_c_clock_and_perf_counter_agree_within_a_few_milliseconds() -> None:
    core = ai.core.require()
    assert abs(core.clock_offset()) < 0.005  # the C clock is perf_counter's own clock, not merely converted
    for _ in range(20):
        before = time.perf_counter()
        seen = core.clock()
        after = time.perf_counter()
        assert before - 0.002 <= seen <= after + 0.002, (before, seen, after)


@compiled_only
def test_a_compiled_search_stops_at_its_perf_counter_deadline() -> None:
    game = get_game("kalah", pits=6, seeds=6)
    kernel = kernel_for(game, get_evaluator(game))
    assert getattr(kernel, "compiled", False)
    core = ai.core.require()
    deadline = time.perf_counter() + 0.1
    run = core.Run(kernel.core, kernel.new_table(4), deadline=deadline)
    with pytest.raises(SearchAborted):
        run.root(kernel.encode(game.initial_state()), 60)  # far deeper than 0.1 s reaches
    finished = time.perf_counter()
    assert run.aborted_at is not None
    # it stopped after its deadline (not early: the clocks are not offset) and saw it before returning
    assert deadline - 0.002 <= run.aborted_at <= finished + 0.002, (deadline, run.aborted_at, finished)
    assert finished - deadline < GENEROUS


def test_the_core_needs_no_platform_header_outside_a_platform_guard() -> None:
    """Every ``#include`` in the Cython sources' C blocks is standard C, or sits under an ``#if`` that names
    its platform (Windows, macOS), so the core compiles on each; the POSIX mmap is guarded from Windows."""
    standard = {"stdlib.h", "string.h", "stdint.h", "math.h", "time.h"}
    for path in sorted(CORE_SOURCES.glob("*.p*")):
        if path.suffix not in (".pyx", ".pxi"):
            continue
        guards: list[str] = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("#if"):
                guards.append(stripped)
            elif stripped.startswith("#elif") and guards:
                guards[-1] = stripped
            elif stripped.startswith("#else") and guards:
                guards[-1] = "#else " + guards[-1]
            elif stripped.startswith("#endif") and guards:
                guards.pop()
            found = re.match(r"#include\s*<([^>]+)>", stripped)
            if not found:
                continue
            header = found.group(1)
            where = f"{path.name}:{number} <{header}>"
            if header == "time.h":
                assert guards, f"{where}: clock_gettime is POSIX; the clock is chosen per platform"
            elif header not in standard:
                assert guards and any(name in " ".join(guards) for name in ("_WIN32", "__APPLE__")), \
                    f"{where}: a platform header outside a platform guard"
