"""The analysis of a position as an engine: every legal move's value, best first, as the search deepens.

Window-free; the model, in the order it works on a position:

1. *Finished games*: a move that ends the game has its final score.
2. *Endgame tables*: when ``ai.tables.tables_for(game)`` gives tables with ``lookup(own, other)`` (Kalah and
   Oware), a move whose child position they hold is exact: the stores' difference after the move plus
   the table's margin of the child's board (``ai.tables.table_value``).
3. *Exact helpers*, in rounds with a growing budget between the search's iterations: the ones the game's
   engine-side record names (``ai/games.py``, ``ai/analysis/exact.py``): Magnetic Cave's endgame solver
   (``ai.cave_endgame``, win / tie / loss) for the last ``SOLVER_EMPTIES`` empty cells, and the Kalah prover
   (``ai.kalah_solve.KalahProver``, the exact margin) with the compiled core.
4. *The search*: every move not proven yet is searched by one ``ai.search.PVSEngine`` (its transposition table
   shared by all of them; the compiled core when built) from the position it leads to, all moves to the same
   horizon, one ply deeper per iteration.  A score beyond ``HEURISTIC_BOUND`` is a proven win or loss (its
   margin *at least* the one shown until the search is exhaustive); an exhaustive result is exact.  Moves
   that lead to the same position (``game.key``), or to mirror images where the game registers its symmetries
   (``GameSupport.symmetry``: the cave's), are searched once and share the value.

With a time limit (or none at all: until cancelled) the exact helpers get as much time as the search has had;
with only a depth limit (``Limits(depth=d)``, the tests' and the review's deterministic mode) they run by rounds,
the solver within node budgets and the prover only where it finishes quickly (``FIXED_PROVER_SEEDS``), so the
same position and depth always give the same values.

``AnalysisEngine`` runs in an ``ai.worker.SearchWorker`` like any engine: each progress report's
``info["snapshot"]`` is the ``ai.analysis.model.Snapshot`` so far (the result's move and score: the best move's).
"""
from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any, Hashable

from ai import games
from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchAborted, SearchResult
from ai.calibration import Expectation, expect, has_seeds
from ai.evaluators import HEURISTIC_BOUND, final_score, proven_score
from ai.analysis.exact import SOLVER_NODES, opening_proof, prover_for, solver_for, usable_tables
from ai.analysis.model import MoveValue, Snapshot, ranked
from ai.search import PVSEngine
from ai.table_loading import use_tables
from ai.tables import table_value
from rules import Game, Move, State

__all__ = ["AnalysisEngine", "SEARCH_MEMORY", "MAX_PLIES", "FIXED_PROVER_SEEDS"]

SEARCH_MEMORY = 64.0
"""MB of transposition table for the analysis's search."""
MAX_PLIES = 64
"""The deepest iteration (plies from the position analysed)."""
PROGRESS_SECONDS = 0.1
"""Within an iteration, a snapshot saying how far it is goes out at most this often."""
PROVER_SLICE = (0.05, 2.0)
"""Seconds the Kalah prover gets per move in a round: at least, at most (otherwise as long as the last
iteration of the search took, shared among the moves left)."""
FIXED_PROVER_SEEDS = 16
"""Kalah, in a depth-limited analysis (no clock): the prover runs to its end on moves that leave at most this
many seeds on the board (a few milliseconds each), and not beyond."""


EXPECT_CLIP = 1000.0
"""A heuristic score is passed to ``ai.calibration.expect`` within +-this (far past any curve's certainty)."""


def expected(game: Game, state: State, score: float, proven: bool, exact: bool) -> Expectation:
    """``ai.calibration.expect``, with a huge heuristic score (an evaluator's near-win) clipped first: the
    curves' logistic overflows on it."""
    if not proven and abs(score) < HEURISTIC_BOUND:
        score = max(-EXPECT_CLIP, min(EXPECT_CLIP, score))
    return expect(game, state, score, proven, exact)


class _Entry:
    """One root move's value while the analysis works (mutable, the engine thread's own)."""

    __slots__ = ("move", "child", "key", "score", "proven", "exact", "depth", "source", "index")

    def __init__(self, move: Move, child: State, key: Hashable, index: int) -> None:
        self.move, self.index, self.key = move, index, key
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

    def copy(self, other: _Entry) -> None:
        """Take ``other``'s value (a move to the same position)."""
        self.score, self.proven, self.exact, self.depth, self.source = (
            other.score, other.proven, other.exact, other.depth, other.source)

    def value(self, game: Game, state: State, ceiling: int | None = None) -> MoveValue:
        """``ceiling``: the position's own exact value when known (the opening proof's), which no move's
        estimate may read above: a move searched, not proven, never looks better than the proven best."""
        scored = not math.isnan(self.score)
        expectation = expected(game, state, self.score, self.proven, self.exact) if scored else None
        if (expectation is not None and ceiling is not None and not self.proven
                and expectation.margin is not None and expectation.margin > ceiling):
            expectation = replace(expectation, margin=float(ceiling))
        return MoveValue(self.move, self.score + 0.0, self.proven, self.depth, self.exact, self.source, expectation)


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
        """The prover helper the game's engine-side record names (``ai/analysis/exact.py``), or None."""
        self.solving = solver_for(game)
        """The solver the game's engine-side record names, kept (its table of proven bounds serves every
        round)."""

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
        clocked = limits.time is not None or limits.depth is None or cancel.deadline is not None
        run = _AnalysisRun(self, state, cancel, progress, started, clocked)
        max_depth = self.max_depth if limits.depth is None else min(self.max_depth, limits.depth)
        return run.run(max_depth)

    # -- the exact helpers, built on first use -----------------------------------------------------------------
    def prover(self) -> Any | None:
        """The prover the game's engine-side record names (the Kalah prover: compiled core only), or None."""
        if self._prover is None and self.proving is not None:
            self._prover = self.proving.prover(self.game, self.tables)
        return self._prover


class _AnalysisRun:
    """One analysis of one position (see the module docstring for the order of the work)."""

    def __init__(self, engine: AnalysisEngine, state: State, cancel: CancelToken, progress: ProgressCallback | None,
                 started: float, clocked: bool = True) -> None:
        self.engine, self.state, self.cancel, self.progress, self.started = engine, state, cancel, progress, started
        self.clocked = clocked
        """The exact helpers' share is measured by the clock; False: by rounds (a depth-limited analysis)."""
        game = self.game = engine.game
        self.mover = game.to_move(state)
        self.entries = []
        symmetry = games.support(game).symmetry
        key = games.load(symmetry) if symmetry else game.key
        for index, move in enumerate(game.legal_moves(state)):
            child = game.apply(state, move)
            self.entries.append(_Entry(move, child, key(child), index))
        leaders: dict[Hashable, _Entry] = {}
        self.twins: list[tuple[_Entry, _Entry]] = []
        """(a move, the earlier move to the same position, or its mirror image where the game registers its
        symmetries): valued once, equal by construction."""
        for entry in self.entries:
            leader = leaders.setdefault(entry.key, entry)
            if leader is not entry:
                self.twins.append((entry, leader))
        self.leaders = [entry for entry in self.entries if leaders[entry.key] is entry]
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
        self.ceiling: int | None = None
        """The position's exact value for its side to move, when the opening proof holds it."""
        self.published = 0.0
        """``time.perf_counter()`` of the last snapshot sent."""

    @property
    def open(self) -> list[_Entry]:
        return [entry for entry in self.leaders if not entry.settled]

    def run(self, max_depth: int) -> SearchResult:
        """The analysis, iteration by iteration.  The first iteration (each move searched one ply, a moment's
        work) is always completed unless cancelled, even past the deadline (its solver round before it then
        stops at the deadline), so every analysis has a value for every move."""
        self._exact_at_once()
        self._publish()
        try:
            depth = 1
            while self.open and depth < max_depth and not (
                    self.cancel.is_cancelled if depth == 1 else self.cancel.expired()):
                depth += 1  # the first iteration searches each child one ply: two plies from the position
                first = depth == 2
                if not self._solver_turn(first):
                    break
                iteration_started = time.perf_counter()
                if not self._iterate(depth, first):
                    break
                iteration_seconds = time.perf_counter() - iteration_started
                self.searching += iteration_seconds
                self.depth = depth
                self._publish()
                if not self.clocked or self.proving <= self.searching:
                    proving_started = time.perf_counter()
                    self._prove_round(iteration_seconds)
                    self.proving += time.perf_counter() - proving_started
        except SearchAborted:
            pass
        return self._result(finished=True)

    def _solver_turn(self, first: bool = False) -> bool:
        """A round of the solver when its share of the time allows; False when nothing is left open.  ``first``:
        the deadline passing in it does not end the analysis (the first iteration comes next), a cancel does."""
        if not self.clocked or self.solving <= self.searching:
            solving_started = time.perf_counter()
            try:
                self._solve_round()
            except SearchAborted:
                if not first or self.cancel.is_cancelled:
                    raise
            finally:
                self.solving += time.perf_counter() - solving_started
        return bool(self.open)

    # -- the stages --------------------------------------------------------------------------------------------
    def _exact_at_once(self) -> None:
        """Finished games, table positions and the opening proof's (``ai.kalah_proofs``): exact at once.  The
        proof holds a position's exact value where the proving side is to move (or only a lower bound, which is
        left to the search): the move it names from the root keeps the root's value, and every child the proof
        holds has its own."""
        game, tables = self.game, self.engine.tables
        proof = opening_proof(game)
        here = proof.lookup(self.state) if proof is not None else None
        if here is not None and here.exact:
            self.ceiling = here.value
        for entry in self.leaders:
            if game.is_terminal(entry.child):
                entry.settle(final_score(game, entry.child, self.mover), "end")
                continue
            if tables is not None:
                margin = table_value(game, tables, entry.child)
                if margin is not None:
                    entry.settle(proven_score(self._ours(entry.child, margin)), "table")
                    continue
            held = proof.lookup(entry.child) if proof is not None else None
            if held is not None and held.exact:
                entry.settle(proven_score(self._ours(entry.child, held.value)), "proof")
            elif here is not None and here.exact and entry.move == here.move:
                entry.settle(proven_score(here.value), "proof")

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

    def _iterate(self, depth: int, first: bool = False) -> bool:
        """Search every open move to ``depth`` plies from the position; False when cut short (values kept from
        the last complete iteration).  ``first``: the deadline does not cut it short, only a cancel."""
        game, engine = self.game, self.engine.search_engine
        found: list[tuple[_Entry, SearchResult]] = []
        open_entries = self.open
        token = CancelToken() if first else self.cancel
        for done, entry in enumerate(open_entries):
            if time.perf_counter() - self.published >= PROGRESS_SECONDS:
                self.working = (depth, done, len(open_entries))
                self._publish()
            if first and self.cancel.is_cancelled:
                self.working = None
                return False
            result = engine.search(entry.child, Limits(depth=depth - 1), token)
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
                entry.exact = entry.proven and not has_seeds(game)
        return True

    def _prove_round(self, iteration_seconds: float) -> None:
        """The registered prover (Kalah's) on each open move, as long in all as the last iteration took (within
        bounds)."""
        proving = self.engine.proving
        if proving is None:
            return
        open_entries = [entry for entry in self.open if proving.reaches(entry.child)]
        if not self.clocked:
            open_entries = [entry for entry in open_entries if proving.seeds(entry.child) <= FIXED_PROVER_SEEDS]
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
            deadline: float | None = time.perf_counter() + share if self.clocked else None
            if self.cancel.deadline is not None:
                deadline = self.cancel.deadline if deadline is None else min(deadline, self.cancel.deadline)
            before = prover.nodes
            try:
                proof = prover.prove_by_tests(entry.child, deadline=deadline, cancel=self.cancel)
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
        for twin, leader in self.twins:
            twin.copy(leader)
        moves = ranked((entry.value(self.game, self.state, self.ceiling), entry.index) for entry in self.entries)
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


