"""Exact analysis for the player: every legal move of a position with its value, best first, as the search deepens.

Window-free (the analysis panel and the console's ``analyse`` both read it).  The model, in the order it
works on a position:

1. *Finished games*: a move that ends the game has its final score.
2. *Endgame tables*: when ``ai.tables.tables_for(game)`` gives tables with ``lookup(own, other)`` (Kalah and
   Oware), a move whose child position they hold is exact: the stores' difference after the move plus
   the table's margin of the child's board (``ai.tables.table_value``).
3. *Exact solvers*, in rounds with a growing budget between the search's iterations: the ones the game's
   registration names (``game/endgame_helpers.py``): Magnetic Cave's endgame solver (``ai.cave_endgame``, win /
   tie / loss) for the last ``SOLVER_EMPTIES`` empty cells, and the Kalah prover
   (``ai.kalah_solve.KalahProver``, the exact margin) with the compiled core.
4. *The search*: every move not proven yet is searched by one ``ai.search.PVSEngine`` (its transposition table
   shared by all of them) from the position it leads to, all moves to the same horizon, one ply deeper per
   iteration.  A score beyond ``HEURISTIC_BOUND`` is a proven win or loss (its margin *at least* the one
   shown until the search is exhaustive); an exhaustive result is exact.

Scores are from the side to move's view in the engines' scale (``ai.evaluators``: a proven win is
``WIN + margin``); ``value_words`` turns them into what a player reads, never a raw score.  ``Analysis`` runs it
all in an ``ai.worker.SearchWorker`` (a daemon thread, cancellable, never blocking the caller); ``poll`` gives the
latest ``Snapshot`` (its ``working`` says how far the iteration under way is, for a progress line).

The evaluation graph's values come from ``game.evaluation_graph``, which uses this module's tables and solvers.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Iterable

from ai import tables as endgame_tables
from ai.tables import table_value
from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchAborted, SearchResult
from ai.evaluators import HEURISTIC_BOUND, final_score, proven_score
from ai.search import PVSEngine, use_tables
from ai.worker import Failed, Finished, Progress, SearchWorker
from game.analysis_words import (  # the words, re-exported: the panel reads them from here
    HOW, UNSCORED, cave_words, how_words, is_settled_phrase, plies, value_phrase, value_words,
)
from game import catalogue
from game.endgame_helpers import PROVER_SEEDS, SOLVER_EMPTIES, SOLVER_NODES, prover_for, solver_for
from game.explain import move_name
from rules import Game, Move, State

__all__ = [
    "Analysis", "AnalysisEngine", "MoveValue", "Snapshot", "table_value", "usable_tables",
    "SEARCH_MEMORY", "MAX_PLIES", "PROVER_SEEDS", "SOLVER_EMPTIES", "SOLVER_NODES",
    "HOW", "UNSCORED", "cave_words", "how_words", "is_settled_phrase", "plies", "proven_score", "value_phrase",
    "value_words",
]

SEARCH_MEMORY = 64.0
"""MB of transposition table for the analysis's search."""
MAX_PLIES = 64
"""The deepest iteration (plies from the position analysed)."""
PROGRESS_SECONDS = 0.1
"""Within an iteration, a snapshot saying how far it is goes out at most this often."""
PROVER_SLICE = (0.05, 2.0)
"""Seconds the Kalah prover gets per move in a round: at least, at most (otherwise as long as the last
iteration of the search took, shared among the moves left)."""


# -- the model ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveValue:
    """One legal move's value from the side to move's view."""

    move: Move
    name: str
    """As the player sees it: ``pit 4``, ``D4`` (``game.explain.move_name``)."""
    score: float
    """Engine scale (a proven win is ``WIN + margin``); nan when not scored yet."""
    proven: bool
    """Exact: tables, prover, the cave's endgame solver, a finished game, or a search's proven win or loss."""
    depth: int
    """Plies searched (0 when proven without a search horizon: a table, a solver, a finished game)."""
    words: str
    """``value_words``: the value as a player reads it."""
    exact: bool = True
    """False only for a proven win or loss whose margin is a bound (the search has not seen every line)."""
    source: str = ""
    """What gave the value: ``end``, ``table``, ``solver``, ``prover``, ``search`` or ``""`` (not scored)."""


@dataclass(frozen=True)
class Snapshot:
    """The analysis so far."""

    moves: tuple[MoveValue, ...]
    """Every legal move, best first (moves not yet scored last, score nan, words ``...``)."""
    depth: int
    """The deepest complete iteration of the search so far (plies from the position; 0 before the first)."""
    finished: bool
    """Nothing more will come: every move proven exactly, the time or the depth limit reached, or cancelled."""
    nodes: int = 0
    """Positions searched and solved so far."""
    seconds: float = 0.0
    """Seconds from the start of the analysis to this snapshot."""
    error: str | None = None
    """Why the analysis stopped early, when it failed."""
    working: tuple[int, int, int] | None = None
    """The iteration under way: (its depth, moves searched so far, moves to search); None between them."""

    @property
    def best(self) -> MoveValue | None:
        return self.moves[0] if self.moves else None


class _Entry:
    """One root move's value while the analysis works (mutable, the engine thread's own)."""

    __slots__ = ("move", "name", "child", "score", "proven", "exact", "depth", "source", "index")

    def __init__(self, move: Move, name: str, child: State, index: int) -> None:
        self.move, self.name, self.index = move, name, index
        self.child: Any = child
        """The position after the move (any game's state: the cave's solver and the prover read its fields)."""
        self.score = math.nan
        self.proven = self.exact = False
        self.depth = 0
        self.source = ""

    @property
    def settled(self) -> bool:
        """Exactly known: nothing left to search."""
        return self.proven and self.exact

    def settle(self, score: float, source: str, depth: int = 0) -> None:
        self.score, self.proven, self.exact, self.depth, self.source = score, True, True, depth, source

    def value(self, game: Game) -> MoveValue:
        return MoveValue(self.move, self.name, self.score, self.proven, self.depth,
                         value_words(game, self.score, self.proven, self.depth, self.exact), self.exact, self.source)


def _ranked(game: Game, entries: Iterable[_Entry]) -> tuple[MoveValue, ...]:
    """Best first; unscored last; among equals the exactly proven first, then the rules' order."""
    def key(entry: _Entry) -> tuple:
        unscored = math.isnan(entry.score)
        return (unscored, 0.0 if unscored else -entry.score, not entry.settled, entry.source != "end", entry.index)

    return tuple(entry.value(game) for entry in sorted(entries, key=key))


def usable_tables(game: Game) -> Any | None:
    """The endgame tables of ``game`` when there are usable ones (never starts a build)."""
    try:
        found = endgame_tables.tables_for(game)
    except (OSError, RuntimeError, ValueError):
        return None
    return found if found is not None and hasattr(found, "lookup") else None


class AnalysisEngine(Engine):
    """The analysis as an engine, so an ``ai.worker.SearchWorker`` runs it: each progress report's
    ``info["snapshot"]`` is the ``Snapshot`` so far (its move and score: the best move's)."""

    name = "analysis"

    def __init__(self, game: Game, memory: float = SEARCH_MEMORY, max_depth: int = MAX_PLIES) -> None:
        super().__init__(game, memory=memory, max_depth=max_depth)
        self.memory = memory
        self.max_depth = max_depth
        self._search_engine: PVSEngine | None = None
        self.tables: Any | None = None
        self._prover: Any = None
        self.proving = prover_for(game)
        """The prover helper the game's registration names (``game/endgame_helpers.py``), or None."""
        self.solving = solver_for(game)
        """The solver the game's registration names, kept (its table of proven bounds serves every round)."""

    @property
    def search_engine(self) -> PVSEngine:
        return self.prepare()

    def prepare(self) -> PVSEngine:
        """The search, built on first use in the analysing thread (its table's memory and the endgame tables'
        first load, a checksum of every layer, cost the caller's thread nothing)."""
        if self._search_engine is None:
            engine = PVSEngine(self.game, time=None, memory=self.memory)
            self.tables = usable_tables(self.game)
            if self.tables is not None:
                # Loaded into the search's kernel by hand: ``tables=True`` would start a build of missing ones.
                engine.tables = use_tables(engine.kernel)
            self._search_engine = engine
        return self._search_engine

    # -- the engine protocol ----------------------------------------------------------------------------------
    def search(self, state: State, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
        limits = limits or Limits()
        started = time.perf_counter()
        if cancel is None:
            cancel = CancelToken(None if limits.time is None else started + limits.time)
        game = self.game
        if game.is_terminal(state):
            snapshot = Snapshot((), 0, True)
            return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True,
                                {"snapshot": snapshot})
        self.prepare()
        run = _AnalysisRun(self, state, cancel, progress, started)
        max_depth = self.max_depth if limits.depth is None else min(self.max_depth, limits.depth)
        return run.run(max_depth)

    # -- the exact helpers, built on first use -----------------------------------------------------------------
    def prover(self) -> Any | None:
        """The prover the game's registration names (the Kalah prover: compiled core only), or None."""
        if self._prover is None and self.proving is not None:
            self._prover = self.proving.prover(self.game, self.tables)
        return self._prover


class _AnalysisRun:
    """One analysis of one position (see the module docstring for the order of the work)."""

    def __init__(self, engine: AnalysisEngine, state: State, cancel: CancelToken, progress: ProgressCallback | None,
                 started: float) -> None:
        self.engine, self.state, self.cancel, self.progress, self.started = engine, state, cancel, progress, started
        game = self.game = engine.game
        self.mover = game.to_move(state)
        self.entries = [_Entry(move, move_name(game, state, move), game.apply(state, move), index)
                        for index, move in enumerate(game.legal_moves(state))]
        self.depth = 0
        self.nodes = 0
        self.searching = 0.0
        """Seconds spent in the search's iterations, in the prover and in the cave's solver: neither exact
        helper gets more than the search has had (so a position they cannot prove costs at most half the
        time); each starts with one round of its smallest budget."""
        self.proving = 0.0
        self.solving = 0.0
        self.solver_rounds = 0
        self.working: tuple[int, int, int] | None = None
        self.published = 0.0
        """``time.perf_counter()`` of the last snapshot sent."""

    @property
    def open(self) -> list[_Entry]:
        return [entry for entry in self.entries if not entry.settled]

    def run(self, max_depth: int) -> SearchResult:
        self._exact_at_once()
        self._publish()
        try:
            depth = 1
            while self.open and depth < max_depth and not self.cancel.expired():
                depth += 1  # the first iteration searches each child one ply: two plies from the position
                if self.solving <= self.searching:
                    solving_started = time.perf_counter()
                    self._solve_round()
                    self.solving += time.perf_counter() - solving_started
                    if not self.open:
                        break
                iteration_started = time.perf_counter()
                if not self._iterate(depth):
                    break
                iteration_seconds = time.perf_counter() - iteration_started
                self.searching += iteration_seconds
                self.depth = depth
                self._publish()
                if self.proving <= self.searching:
                    proving_started = time.perf_counter()
                    self._prove_round(iteration_seconds)
                    self.proving += time.perf_counter() - proving_started
        except SearchAborted:
            pass
        return self._result(finished=True)

    # -- the stages --------------------------------------------------------------------------------------------
    def _exact_at_once(self) -> None:
        """Finished games and table positions: exact at once."""
        game, tables = self.game, self.engine.tables
        for entry in self.entries:
            if game.is_terminal(entry.child):
                entry.settle(final_score(game, entry.child, self.mover), "end")
            elif tables is not None:
                margin = table_value(game, tables, entry.child)
                if margin is not None:
                    entry.settle(proven_score(self._ours(entry.child, margin)), "table")

    def _solve_round(self) -> None:
        """The registered endgame solver (Magnetic Cave's) on every open move near the end, within this round's
        node budget."""
        solver = self.engine.solving
        if solver is None:
            return
        open_entries = [entry for entry in self.open if solver.reaches(entry.child)]
        if not open_entries:
            return
        budget = SOLVER_NODES * 4 ** self.solver_rounds
        self.solver_rounds += 1
        solved = False
        for entry in open_entries:
            value, nodes = solver.value(entry.child, budget, self.cancel)
            self.nodes += nodes
            if self.cancel.expired():
                raise SearchAborted
            if value is not None:
                entry.settle(proven_score(-value), "solver")  # the child's mover is the opponent
                solved = True
        if solved:
            self._publish()

    def _iterate(self, depth: int) -> bool:
        """Search every open move to ``depth`` plies from the position; False when cut short (values kept from
        the last complete iteration)."""
        game, engine = self.game, self.engine.search_engine
        found: list[tuple[_Entry, SearchResult]] = []
        open_entries = self.open
        for done, entry in enumerate(open_entries):
            if time.perf_counter() - self.published >= PROGRESS_SECONDS:
                self.working = (depth, done, len(open_entries))
                self._publish()
            result = engine.search(entry.child, Limits(depth=depth - 1), self.cancel)
            self.nodes += result.nodes
            if not result.exhaustive and result.depth < depth - 1:
                self.working = None
                return False  # cancelled or out of time inside this move's search
            found.append((entry, result))
        self.working = None
        for entry, result in found:
            score = result.score if game.to_move(entry.child) == self.mover else -result.score
            if result.exhaustive:
                entry.settle(score, "search", result.depth + 1)
            else:
                entry.score, entry.depth, entry.source = score, depth, "search"
                entry.proven = abs(score) >= HEURISTIC_BOUND
                # A win in a game whose results have no margin (the cave's) has none to improve on.
                entry.exact = entry.proven and not catalogue.registration(game).words.has_margin
        return True

    def _prove_round(self, iteration_seconds: float) -> None:
        """The registered prover (Kalah's) on each open move, as long in all as the last iteration took (within
        bounds)."""
        proving = self.engine.proving
        if proving is None:
            return
        open_entries = [entry for entry in self.open if proving.reaches(entry.child)]
        if not open_entries:
            return
        prover = self.engine.prover()
        if prover is None:
            return
        low, high = PROVER_SLICE
        share = min(high, max(low, iteration_seconds / len(open_entries)))
        proved = False
        for entry in sorted(open_entries, key=lambda e: -e.score if not math.isnan(e.score) else math.inf):
            if self.cancel.expired():
                raise SearchAborted
            deadline = time.perf_counter() + share
            if self.cancel.deadline is not None:
                deadline = min(deadline, self.cancel.deadline)
            before = prover.nodes
            try:
                proof = prover.prove_by_tests(entry.child, deadline=deadline)
            except (SearchAborted, RuntimeError):
                continue
            finally:
                self.nodes += prover.nodes - before
            entry.settle(proven_score(self._ours(entry.child, proof.value)), "prover")
            proved = True
        if proved:
            self._publish()

    # -- results -----------------------------------------------------------------------------------------------
    def _ours(self, child: State, margin: int) -> int:
        """A margin from ``child``'s side to move, seen by the side to move at the root."""
        return margin if self.game.to_move(child) == self.mover else -margin

    def _result(self, finished: bool) -> SearchResult:
        moves = _ranked(self.game, self.entries)
        elapsed = time.perf_counter() - self.started
        snapshot = Snapshot(moves, self.depth, finished, self.nodes, elapsed,
                            working=None if finished else self.working)
        best = moves[0] if moves else None
        scored = best is not None and not math.isnan(best.score)
        return SearchResult(
            best.move if best is not None else None, best.score if scored and best is not None else 0.0,
            self.depth, self.nodes, (best.move,) if best is not None else (), elapsed,
            bool(moves) and all(entry.settled for entry in self.entries), {"snapshot": snapshot},
        )

    def _publish(self) -> None:
        self.published = time.perf_counter()
        if self.progress is not None:
            self.progress(self._result(finished=not self.open))


class Analysis:
    """Analyses one position in the background (an ``ai.worker.SearchWorker``, cancellable).

    ``seconds``: how long (None: until every move is proven, the depth limit, or ``cancel``).  ``poll`` never
    blocks; ``wait`` does (for the console and tests, never a window's thread).
    """

    def __init__(self, game: Game, state: State, seconds: float | None = None, memory: float = SEARCH_MEMORY,
                 max_depth: int = MAX_PLIES) -> None:
        if seconds is not None and not seconds > 0:
            raise ValueError(f"an analysis needs a positive number of seconds or None (no limit), not {seconds!r}")
        self.game = game
        self.state = state
        self.seconds = seconds
        self.worker = SearchWorker(AnalysisEngine(game, memory, max_depth), state, Limits(time=seconds))
        self._snapshot: Snapshot | None = None
        self.error: str | None = None
        self.worker.start()

    def poll(self) -> Snapshot | None:
        """The latest snapshot (None before the first); never blocks."""
        for message in self.worker.poll():
            if isinstance(message, Progress):
                self._take(message.result, finished=False)
            elif isinstance(message, Finished):
                self._take(message.result, finished=True)
            elif isinstance(message, Failed):
                self.error = message.error
                self._snapshot = replace(self._snapshot or self._unscored(), finished=True, error=message.error)
        return self._snapshot

    def cancel(self) -> None:
        """Stop the analysis; returns at once (the next ``poll`` gives the last snapshot, finished)."""
        self.worker.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the analysis is over or ``timeout`` seconds pass; True when over.  Not for a window."""
        return self.worker.wait(timeout)

    @property
    def done(self) -> bool:
        return self.worker.done

    def _take(self, result: SearchResult, finished: bool) -> None:
        snapshot = result.info.get("snapshot")
        if not isinstance(snapshot, Snapshot):
            snapshot = self._snapshot or self._unscored()
        if finished and (not snapshot.finished or snapshot.working is not None):
            snapshot = replace(snapshot, finished=True, working=None)
        self._snapshot = snapshot

    def _unscored(self) -> Snapshot:
        game, state = self.game, self.state
        moves = tuple(MoveValue(move, move_name(game, state, move), math.nan, False, 0, UNSCORED, True, "")
                      for move in game.legal_moves(state))
        return Snapshot(moves, 0, False)
