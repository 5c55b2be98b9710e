"""The value of each position of a game, for the evaluation graph and the review: one per position, from
South's / Black's view.

* ``position_value(game, state, seconds, cancel)`` -> ``(score, proven)`` from South's / Black's view (blocking:
  for a background thread), by the analysis's exact means first (finished games, the endgame tables, the
  game's endgame solver), else a short search;
* ``EvaluationHistory(game)``: the values of the positions of one game, keyed by the position itself (so undo,
  redo and a loaded game need no bookkeeping), South's / Black's view:

  - ``record(state, score, proven=False)``: a score from the side to move in ``state`` (engine scale);
  - ``record_result(state, result, engine=None) -> bool``: the computer's own ``SearchResult`` for the
    position it moved from, ``engine`` its spec (kept when the score is on the engines' scale: PVS, alpha-beta,
    minimax, the analysis, or the exact solver's margin; not Monte Carlo or greedy);
  - ``record_snapshot(state, snapshot)``: an analysis's best value;
  - ``values(states) -> list[Point | None]`` (``Point(score, proven)``, South's / Black's view; None: not known
    yet), ``missing(states)``;
  - ``fill(states, seconds, cancel)``: computes the missing ones with ``position_value`` (blocking; a value
    recorded meanwhile is kept), and
    ``start(states, seconds)`` / ``stop()`` / ``filling`` run that in a daemon thread.

Drawing the values is the screens' (``game/evaluation_graph.py`` ``graph_value``).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Hashable, Sequence

from ai.analysis.exact import SOLVER_NODES, solver_for, usable_tables
from ai.analysis.model import Snapshot
from ai.base import CancelToken, Limits, SearchResult
from ai.evaluators import HEURISTIC_BOUND, final_score, proven_score
from ai.search import PVSEngine
from ai.table_loading import use_tables
from ai.tables import table_value
from rules import Game, State

POSITION_SECONDS = 0.2
"""The default time of one ``position_value``."""
SCALED_ENGINES = frozenset({"pvs", "alphabeta", "minimax", "analysis", "ranked"})
"""Engines whose scores are on the scale of ``ai.evaluators`` (a SearchResult of theirs can go on the graph)."""


def position_value(game: Game, state: State, seconds: float = POSITION_SECONDS,
                   cancel: CancelToken | None = None) -> tuple[float, bool]:
    """A quick value of ``state`` for the evaluation graph, from South's / Black's view: (score, proven).
    Exact for a finished game, a position the endgame tables hold and a cave position the endgame solver
    decides within ``SOLVER_NODES``; otherwise a search of ``seconds`` (blocking: call it from a background
    thread), valued as the mean of its last two completed iterations: the evaluators swing between odd and even
    depths (Hus by 10 seeds or more), and a graph of single-depth scores would zigzag from move to move."""
    if game.is_terminal(state):
        return final_score(game, state, 0), True
    south = 1 if game.to_move(state) == 0 else -1
    tables = usable_tables(game)
    if tables is not None:
        margin = table_value(game, tables, state)
        if margin is not None:
            return south * proven_score(margin), True
    solver = solver_for(game)
    if solver is not None and solver.reaches(state):
        value, _nodes = solver.value(state, SOLVER_NODES, cancel)
        if value is not None:
            return south * proven_score(value), True
    engine = PVSEngine(game, time=seconds, memory=16)
    if tables is not None:
        engine.tables = use_tables(engine.kernel)
    completed: list[SearchResult] = []
    result = engine.search(state, Limits(time=seconds), cancel, completed.append)
    if result.exhaustive or abs(result.score) >= HEURISTIC_BOUND:
        return south * result.score, True
    last_two = [found.score for found in completed[-2:] if abs(found.score) < HEURISTIC_BOUND]
    score = sum(last_two) / 2 if len(last_two) == 2 else result.score
    return south * score, False


@dataclass(frozen=True)
class Point:
    """One position's value on the graph: South's / Black's view, in the engines' scale."""

    score: float
    proven: bool


class EvaluationHistory:
    """The values of the positions of one game so far (see the module docstring); thread-safe for one filling
    thread and the window's thread."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._values: dict[Hashable, Point] = {}
        self._thread: threading.Thread | None = None
        self._token: CancelToken | None = None

    def record(self, state: State, score: float, proven: bool = False) -> None:
        """A score from the side to move in ``state`` (the engines' scale)."""
        if not math.isfinite(score):
            return
        self._values[state] = self._point(state, score, proven)

    def record_result(self, state: State, result: SearchResult, engine: str | None = None) -> bool:
        """The computer's own search of ``state`` (the position it moved from); True when kept.  ``engine``: its
        spec (``pvs:time=1``).  Kept when the score is on the engines' scale: a search with an evaluator (PVS,
        alpha-beta, minimax) that completed at least one ply, or the exact solver's proven margin; a Monte Carlo
        or greedy score, a book move or a fallback is not comparable."""
        name = (engine or "").partition(":")[0].strip().lower()
        if result.info.get("fallback") or result.info.get("book") or not math.isfinite(result.score):
            return False
        if name == "solver":
            if not result.exhaustive:
                return False
            self.record(state, proven_score(round(result.score)), True)  # the solver scores plain margins
            return True
        if "evaluator" not in result.info and name not in SCALED_ENGINES:
            return False
        if result.depth < 1 and not result.exhaustive:
            return False
        self.record(state, float(result.score), result.exhaustive)
        return True

    def record_snapshot(self, state: State, snapshot: Snapshot) -> bool:
        """An analysis's value of ``state`` (its best move's); True when kept (something was scored)."""
        best = snapshot.best
        if best is None or not best.scored:
            return False
        self._values[state] = self._point(state, best.score, best.proven)
        return True

    def _point(self, state: State, score: float, proven: bool) -> Point:
        south = 1 if self.game.to_move(state) == 0 else -1
        return Point(south * score, proven or abs(score) >= HEURISTIC_BOUND)

    def value(self, state: State) -> Point | None:
        return self._values.get(state)

    def values(self, states: Sequence[State]) -> list[Point | None]:
        """One value per position (South's / Black's view), None where not known yet."""
        return [self._values.get(state) for state in states]

    def missing(self, states: Sequence[State]) -> list[State]:
        return [state for state in states if state not in self._values]

    def fill(self, states: Sequence[State], seconds: float = POSITION_SECONDS,
             cancel: CancelToken | None = None) -> int:
        """Compute the missing values with ``position_value`` (blocking); how many were added."""
        added = 0
        for state in self.missing(states):
            if cancel is not None and cancel.expired():
                break
            score, proven = position_value(self.game, state, seconds, cancel)
            if cancel is not None and cancel.is_cancelled:
                break  # a search stopped midway is not a value
            self._values.setdefault(state, Point(score, proven))  # a value recorded meanwhile is kept
            added += 1
        return added

    def start(self, states: Sequence[State], seconds: float = POSITION_SECONDS) -> None:
        """``fill`` in a daemon thread (any filling already under way is stopped first)."""
        self.stop()
        token = self._token = CancelToken()
        self._thread = threading.Thread(target=self.fill, args=(tuple(states), seconds, token),
                                        name="evaluation-history", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the filling thread, if any (returns at once)."""
        if self._token is not None:
            self._token.cancel()
        self._token = None

    @property
    def filling(self) -> bool:
        return self._thread is not None and self._thread.is_alive()
