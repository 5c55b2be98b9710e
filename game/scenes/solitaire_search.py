"""The puzzle screen's engine: which single-agent engine to use, and its progress while it searches.

``engine_spec`` picks the engine: the one chosen in Settings for Solitaire Mancala (role ``hint`` or ``watch``)
when the player chose one that names a single-agent engine, else the registry's Strongest preset for the game
(``ai/data/presets.yaml``), else ``DEFAULT_ENGINE``, the strongest solver in BENCHMARKS.md and the console's
default.

The single-agent engines report once, when they finish.  A player watching the computer solve a deal should
see it work, so ``LiveEngine`` wraps one and reports while it searches: every ``every`` seconds a
``SearchResult`` with no move, the states explored so far, the most stones any line found stores, and the
ceiling still possible.  It does so by giving the engine's own algorithm a budget that reports when it counts
expansions and a problem that notes the best value it scores, so the search itself is unchanged.  It runs in
``ai.worker.SearchWorker``'s thread like any engine; its reports travel through the worker's queue.
"""
from __future__ import annotations

import time
from typing import Any

from ai import registry
from ai.base import CancelToken, Engine, EngineError, Limits, ProgressCallback, SearchResult
from ai.single_agent import Budget
from ai.single_agent_engines import SingleAgentEngine
from ai.solitaire_problem import Node, SolitaireProblem
from game.settings import resolve_engine_choice
from rules.solitaire import Solitaire, SolitaireState

DEFAULT_ENGINE = "packed-dfs"
"""The solver used when neither Settings nor the presets name one for Solitaire Mancala (the strongest in
BENCHMARKS.md)."""
REPORT_EVERY = 0.12
"""Seconds between two progress reports of a running search."""


def engine_spec(settings: Any, game: Solitaire, role: str = "hint") -> str:
    """The engine spec for ``role``: the Settings' choice when it names a single-agent engine, else the default."""
    chosen = (getattr(settings, "engine_choices", None) or {}).get(game.name, {})
    for wanted in (role, "hint"):
        choice = chosen.get(wanted)
        if not choice:
            continue
        try:
            spec = resolve_engine_choice(choice, game)
            if registry.parse_engine_spec(spec)[0].suits(game):
                return spec
        except (EngineError, ValueError):  # SettingsError is a ValueError
            continue
    # No choice made: the registry's strongest preset (a puzzle's hint should be the best line known).
    return registry.presets(game).get("Strongest") or DEFAULT_ENGINE


def engine_title(spec: str) -> str:
    """``Heuristic depth-first (heuristic-dfs)`` for a spec, for the screens."""
    try:
        info, _ = registry.parse_engine_spec(spec)
    except EngineError:
        return spec
    return f"{info.title} ({spec})"


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

    def search(self, state: SolitaireState, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
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
        seconds = limits.time if limits.time is not None else inner.time_limit
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
