"""A single-agent engine that reports its progress while it searches, for a player watching it work.

The single-agent engines report once, when they finish.  A player watching the computer solve a Solitaire
Mancala deal should see it work, so ``LiveEngine`` wraps one and reports while it searches: every
``REPORT_EVERY`` seconds a ``SearchResult`` with no move, the states explored so far, the most stones any line
found stores, and the ceiling still possible.  It does so by giving the engine's own algorithm a budget that
reports when it counts expansions and a problem that notes the best value it scores, so the search itself is
unchanged.

It lives in ``ai/`` (not with the puzzle screen) because the screen runs it in a separate process
(``ai.search_process``), which must import only ``rules`` and ``ai``.
"""
from __future__ import annotations

import time
from typing import Any

from ai import registry
from ai.base import CancelToken, Engine, EngineError, Limits, ProgressCallback, SearchResult, seconds_to_stop
from ai.single_agent import Budget
from ai.single_agent_engines import SingleAgentEngine, solitaire_state
from ai.solitaire_problem import Node, SolitaireProblem
from rules import State
from rules.solitaire import Solitaire, SolitaireState

REPORT_EVERY = 0.25
"""Seconds between two progress reports of a running search: four a second reads as live counting, and each
report lays the window's panel text out again (about 3 ms of a frame on llvmpipe)."""


class _WatchedProblem(SolitaireProblem):
    """The engine's problem, noting the best value (stones stored) of any state it scores."""

    best = 0.0

    def value(self, node: Node) -> float:
        value = node[2]
        if value > self.best:
            self.best = value
        return value


class _ReportingBudget(Budget):
    """The engine's budget, also sending a progress report every ``REPORT_EVERY`` seconds."""

    CHECK_EVERY = 512

    def __init__(self, nodes: int | None, seconds: float | None, cancel: CancelToken | None,
                 problem: _WatchedProblem, report: ProgressCallback) -> None:
        super().__init__(nodes, seconds, cancel)
        self.problem = problem
        self.report = report
        self._next_check = self.CHECK_EVERY
        self._next_report = self.started + REPORT_EVERY

    def expand(self) -> None:
        super().expand()
        if self.stats.expanded >= self._next_check:
            self._next_check += self.CHECK_EVERY
            now = time.perf_counter()
            if now >= self._next_report:
                self._next_report = now + REPORT_EVERY
                self.stats.time = now - self.started
                self.report(live_result(self.problem, self.stats.visited, self.stats.time))


def live_result(problem: _WatchedProblem, visited: int, elapsed: float) -> SearchResult:
    """A progress report: no move yet, the best line's stones so far, the states explored."""
    best = max(problem.best, problem.value(problem.initial))
    return SearchResult(None, float(best), nodes=visited, time=elapsed,
                        info={"live": True, "best": int(best), "target": problem.target, "visited": visited})


class LiveEngine(Engine):
    """A single-agent engine that also reports its progress while it searches (see the module's docstring)."""

    kind = "single-agent"

    def __init__(self, inner: SingleAgentEngine) -> None:
        if not isinstance(inner, SingleAgentEngine):
            raise EngineError(f"{inner!r} is not a single-agent engine")
        self.name = inner.name  # type: ignore[misc]
        super().__init__(inner.game, **inner.params)
        self.inner = inner
        self._progress: ProgressCallback | None = None

    def __repr__(self) -> str:
        return repr(self.inner)

    def search(self, state: State, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
        state = solitaire_state(state)
        self._progress = progress
        inner = self.inner
        # The engine's search builds its problem and budget in ``solve``; this instance's solve builds watched
        # ones instead and runs the same algorithm on them.
        inner.solve = self._solve  # type: ignore[method-assign]
        try:
            return inner.search(state, limits, cancel, progress)
        finally:
            del inner.solve

    def _solve(self, state: SolitaireState, limits: Limits | None = None,
               cancel: CancelToken | None = None) -> tuple[SolitaireProblem, Any]:
        inner = self.inner
        limits = limits or Limits()
        seconds = seconds_to_stop(limits, inner.time_limit)  # within the move's deadline, less the margin
        nodes = limits.nodes if limits.nodes is not None else inner.node_limit
        problem = _WatchedProblem(inner.game, state)  # type: ignore[arg-type]
        report = self._progress or (lambda result: None)
        return problem, inner.run(problem, _ReportingBudget(nodes, seconds, cancel, problem, report))


def make_live_engine(game: Solitaire, spec: str) -> LiveEngine:
    """Build the engine ``spec`` names, wrapped to report progress; EngineError when it cannot solve puzzles."""
    engine = registry.make_engine(game, spec)
    if not isinstance(engine, SingleAgentEngine):
        raise EngineError(f"{spec} is not a single-agent engine; it cannot solve Solitaire Mancala")
    return LiveEngine(engine)
