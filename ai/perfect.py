"""The Perfect level for Kalah: the exact value of the position whenever it can be found in the time, else the
Strongest search.

Each move, in this order:

0. *Opening proof*: in Kalah(6,4), under either capture rule, the shipped opening proof (``ai.kalah_proofs``)
   holds every position Perfect meets from the first move, as either side and whatever the opponent plays, down
   to where its prover finishes in a fraction of a second: its move and exact value are played at once.
1. *Tables*: when the board holds no more seeds than the endgame tables (``ai.tables``, built on first use as
   for the Strongest level), every move's exact value is read from them and the best is played at once.
2. *Proof*: otherwise the prover (``ai.kalah_solver.BoardProver``, MTD(f) null-window tests to the end of the
   game over the board and the tables) tries to prove the position's value within a share of the
   time: nearly all of it (``FOLLOW_SHARE``) when the position continues a line it proved already (an opening
   proof's last move included);
   ``PROVE_SHARE`` when the board holds no more than ``REACH_SLACK`` seeds above the most it has proved a
   position with (its *reach*, learnt as it plays); else only ``PROBE_SHARE``, so that in the opening of another
   variant, where no proof succeeds in a move's time, the Strongest search keeps nearly all of it.  Its table
   stays warm from move to move, and a value it proved is the first guess of the next proof along the same
   line: after its own move the value for it can only stay or grow whatever the opponent plays, so the first
   test proves the old value again (cheap) and the next ones refine it.
3. *Fallback*: when nothing is proved in time, the Strongest search (``pvs`` with the tables, the same
   memory) plays in the time left.

A proven move keeps the proven value: from a won position Perfect wins by at least the proven margin, from a
lost one it loses by at most it.  ``SearchResult.info`` says what is known: ``proven`` (True: ``value`` is the
exact margin the move keeps for the side to move), ``bound`` (only a lower bound was proved, and the move keeps
it), ``source`` (``opening proof``, ``tables``, ``prover`` or ``search``).  Scores are on the engines' usual scale (a proven win
is ``WIN + margin``, ``ai.evaluators``), so every screen reads them as it reads the other engines'.

The prover, its table and what it proved are kept per game variant and memory in this process (``_shared``),
because the window builds a fresh engine for every move; a second search while one is running (a hint
beside a computer's move) gets a prover of its own.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ai import tables as endgame_tables
from ai.base import (
    CancelToken, Engine, EngineError, Limits, ProgressCallback, SearchResult, gc_paused,
)
from ai.evaluators import WIN, final_margin, final_score, proven_score
from ai.search import Budget, PVSEngine, check_memory
from ai.table_loading import TABLE_WAIT, tables_by
from rules import Game, State

PROVE_SHARE = 0.5
"""The share of the move's time the prover gets before the Strongest search takes over, within its reach."""
FOLLOW_SHARE = 0.85
"""The share it gets on a line it has proved (the rest is the fallback's, should even the first test not end)."""
PROBE_SHARE = 0.15
"""The share it gets beyond its reach: enough to find where proofs begin, little taken from the search."""
REACH_SLACK = 2
"""A board this many seeds above the reach still gets ``PROVE_SHARE``."""
FIRST_REACH = 28
"""The reach before anything is proved: a cold prover proves Kalah(6,4) positions of up to 31 seeds on the board
in a hundredth of a second (``bench/bench_perfect.py reach``), and a whole game of a small board (Kalah(4,3) has
24 seeds) as fast."""
FOLLOW_LIMIT = 400
"""Positions examined when checking that a position follows the last proved one by the opponent's moves."""


@dataclass
class _Knowledge:
    """What one variant's prover knows, shared by the engines of a process: the prover (its table warm), the
    tables it uses, and the last position it played a proven move into (``after``) with the value, for the
    side that moved, that the move secured."""

    prover: Any
    tables: Any
    fallback: PVSEngine
    """The Strongest search, its table warm from move to move too."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    after: State | None = None
    player: int = 0
    secured: float = 0.0
    reach: int = FIRST_REACH
    """The most seeds on the board of a position proved exactly so far (``FIRST_REACH`` at first)."""


_shared: dict[tuple[str, float], _Knowledge] = {}
_shared_lock = threading.Lock()


def opening_proof(game: Game) -> tuple[Any, str]:
    """The shipped opening proof of ``game`` (``ai.kalah_proofs``) and, when the file is damaged, why it is not
    used (then the Perfect level proves and searches as it does beyond the proof)."""
    from ai.kalah_proofs import ProofError, proof_for

    try:
        return proof_for(game), ""
    except ProofError as error:
        return None, str(error)


def forget() -> None:
    """Drop every shared prover and what it proved (tests that change the tables' folder)."""
    with _shared_lock:
        _shared.clear()


class PerfectEngine(Engine):
    """Kalah played from the endgame tables and the prover, the Strongest search where neither answers."""

    name = "perfect"

    def __init__(self, game: Game, time: float | None = 2.0, memory: float = 64) -> None:
        super().__init__(game, time=time, memory=memory)
        if game.name != "kalah":
            raise EngineError(f"perfect plays Kalah, whose values it can prove, not {game.title}")
        if time is not None and not time > 0:
            raise EngineError(f"perfect: time must be above 0 seconds (or none), not {time!r}")
        self.time_limit = time
        self.memory = check_memory(self.name, memory)
        self.why_not = ""
        """Why the prover cannot run (no compiled core), or empty."""
        self.opening_problem = ""
        """Why the shipped opening proof is not used (a damaged file), or empty."""
        import ai.core

        if ai.core.module() is None:
            self.why_not = f"the prover needs the compiled core: {ai.core.status().why}"
        else:
            tables_by(game, by=0.0)  # loading (and checking) starts here, in the background, as for pvs:tables=true

    # -- the engine protocol ----------------------------------------------------------------------------------
    def search(self, state: State, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
        # One deadline for the whole move (``Budget``): the tables' lookup, the prover's share and the fallback
        # search all stop by it, and a stop late for it teaches the safety margin (``Budget.stopped``).
        budget = Budget(limits, cancel, self.time_limit)
        with gc_paused():
            return budget.stopped(self._search(state, budget, cancel, progress))

    def _search(self, state: State, budget: Budget, cancel: CancelToken | None,
                progress: ProgressCallback | None) -> SearchResult:
        game = self.game
        if game.is_terminal(state):
            return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True,
                                {"proven": True, "value": int(final_margin(game, state, game.to_move(state))),
                                 "source": "rules"})
        loaded = None if self.why_not else tables_by(game, True, budget.share(TABLE_WAIT))  # not the whole move
        answer = self.from_tables(state, loaded, budget)
        if answer is not None:
            return answer
        seconds = budget.seconds
        knowledge, private = self._knowledge(loaded)
        try:
            if self.why_not:
                return self._fall_back(state, budget, cancel, progress, knowledge, None, self.why_not)
            opening = self.from_opening_proof(state, budget, knowledge)
            if opening is not None:
                if progress is not None:
                    progress(opening)
                return opening
            follows, guess = self._follows(knowledge, state)
            seeds = sum(state.pits)  # type: ignore[attr-defined]
            share = FOLLOW_SHARE if follows else PROVE_SHARE if seeds <= knowledge.reach + REACH_SLACK else PROBE_SHARE
            deadline = None if seconds is None else budget.started + share * seconds
            bounds = knowledge.prover.prove_within(state, deadline, cancel, guess=guess)
            if bounds.is_exact:
                knowledge.reach = max(knowledge.reach, seeds)
            if bounds.move is not None and (bounds.is_exact or follows or bounds.lower > 0):
                result = self._proven(state, bounds, budget, knowledge)
                if progress is not None:
                    progress(result)
                return result
            return self._fall_back(state, budget, cancel, progress, knowledge, bounds, "not proved in time")
        finally:
            if not private:
                knowledge.lock.release()

    # -- the three ways to a move -----------------------------------------------------------------------------
    def from_tables(self, state: State, loaded: Any, budget: Budget | None = None) -> SearchResult | None:
        """Every move's exact value from the endgame tables when the board is within them (else None)."""
        if loaded is None:
            return None
        game = self.game
        if sum(state.pits) > loaded.top:  # type: ignore[attr-defined]
            return None
        mover = game.to_move(state)
        values = {move: self.exact_margin(game.apply(state, move), mover, loaded) for move in game.legal_moves(state)}
        move = max(values, key=lambda m: values[m])
        value = values[move]
        elapsed = 0.0 if budget is None else budget.elapsed()
        return SearchResult(move, proven_score(value), 1, len(values), (move,), elapsed, True,
                            {"proven": True, "value": int(value), "source": "tables", "values": values})

    def from_opening_proof(self, state: State, budget: Budget, knowledge: _Knowledge | None = None
                           ) -> SearchResult | None:
        """The opening proof's move and exact value (``ai.kalah_proofs``) when it holds the position (else None).
        The move's value is what the prover then keeps (``knowledge``), as after a move it proved itself."""
        proof, self.opening_problem = opening_proof(self.game)
        entry = proof.lookup(state) if proof is not None else None
        if entry is None:
            return None
        if knowledge is not None:
            knowledge.after = self.game.apply(state, entry.move)
            knowledge.player = self.game.to_move(state)
            knowledge.secured = entry.value
        if entry.exact:
            info: dict[str, Any] = {"proven": True, "value": entry.value, "source": "opening proof"}
            score = proven_score(entry.value)
        else:  # the proof keeps a lower bound here (its exact value cost too much to find)
            info = {"proven": False, "bound": entry.value, "source": "opening proof"}
            score = proven_score(entry.value) if entry.value > 0 else float(entry.value)
        return SearchResult(entry.move, score, 0, 1, (entry.move,), budget.elapsed(), entry.exact, info)

    def exact_margin(self, state: State, player: int, loaded: Any) -> int:
        """The exact final margin for ``player`` of a position the tables hold (or a finished one)."""
        game = self.game
        outcome = game.outcome(state)
        if outcome is not None:
            return int(outcome.margin(player))
        margin = endgame_tables.table_value(game, loaded, state)
        if margin is None:
            raise ValueError("exact_margin needs a position the tables hold")
        mover = game.to_move(state)
        return margin if mover == player else -margin

    def _proven(self, state: State, bounds: Any, budget: Budget, knowledge: _Knowledge) -> SearchResult:
        game = self.game
        exact = bounds.is_exact
        value = int(bounds.lower)
        knowledge.after = game.apply(state, bounds.move)
        knowledge.player = game.to_move(state)
        knowledge.secured = bounds.lower
        info: dict[str, Any] = {"proven": exact, "source": "prover"}
        if exact:
            info["value"] = value
        else:
            info["bound"] = value
        score = proven_score(value) if exact or value > 0 else float(value)
        return SearchResult(bounds.move, score, knowledge.prover.last_depth, bounds.nodes, (bounds.move,),
                            budget.elapsed(), exact, info)

    def _fall_back(self, state: State, budget: Budget, cancel: CancelToken | None,
                   progress: ProgressCallback | None, knowledge: _Knowledge, bounds: Any, why: str) -> SearchResult:
        if cancel is not None and cancel.is_cancelled:  # the caller has its answer: stop at once
            move = bounds.move if bounds is not None and bounds.move is not None else self.game.legal_moves(state)[0]
            return SearchResult(move, 0.0, 0, 0, (move,), budget.elapsed(), False,
                                {"proven": False, "source": "cancelled"})
        # the fallback keeps the move's own deadline (``Budget.due``), so its margin is not taken twice
        found = knowledge.fallback.search(state, budget.limits_left(), cancel, progress)
        info = {**found.info, "proven": bool(found.exhaustive), "source": "search", "why": why}
        if self.opening_problem:
            info["opening proof"] = self.opening_problem
        if found.exhaustive and abs(found.score) >= WIN:
            info["value"] = int(found.score - WIN if found.score > 0 else found.score + WIN)
        elif found.exhaustive:
            info["value"] = int(round(found.score))
        if bounds is not None and bounds.upper < float("inf"):
            info["upper"] = int(bounds.upper)
        return SearchResult(found.move, found.score, found.depth, found.nodes, found.pv, budget.elapsed(),
                            found.exhaustive, info)

    # -- what the prover knows --------------------------------------------------------------------------------
    def _knowledge(self, loaded: Any) -> tuple[_Knowledge, bool]:
        """The shared prover of this variant (locked for this search), or a private one when it is busy."""
        from ai.kalah_solver import BoardProver

        key = (self.game.spec, self.memory)
        with _shared_lock:
            knowledge = _shared.get(key)
            if knowledge is None:
                knowledge = _shared[key] = self._new_knowledge(loaded)
        if not knowledge.lock.acquire(blocking=False):
            return self._new_knowledge(loaded), True
        if knowledge.tables is not loaded and knowledge.prover is not None:
            # the tables arrived (or grew): the prover starts afresh with them (the fallback sees them itself)
            knowledge.prover = BoardProver(self.game, loaded, self.memory)
            knowledge.tables, knowledge.after = loaded, None
        return knowledge, False

    def _new_knowledge(self, loaded: Any) -> _Knowledge:
        from ai.kalah_solver import BoardProver

        prover = None if self.why_not else BoardProver(self.game, loaded, self.memory)
        fallback = PVSEngine(self.game, time=None, memory=self.memory, tables=True)
        return _Knowledge(prover, loaded, fallback)

    def _follows(self, knowledge: _Knowledge, state: State) -> tuple[bool, float | None]:
        """Whether ``state`` is the last proved move's position or follows it by the opponent's moves alone
        (then its value for the side to move is at least the one secured), and that value as the first guess."""
        after = knowledge.after
        game = self.game
        if after is None or game.to_move(state) != knowledge.player:
            return False, None
        frontier, seen = [after], {after}
        while frontier and len(seen) <= FOLLOW_LIMIT:
            position = frontier.pop()
            if position == state:
                return True, knowledge.secured
            if game.is_terminal(position) or game.to_move(position) == knowledge.player:
                continue
            for move in game.legal_moves(position):
                child = game.apply(position, move)
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
        return False, None

    def prove(self, state: State, seconds: float | None, cancel: CancelToken | None = None) -> SearchResult | None:
        """The tables' or the prover's exact answer within ``seconds`` (no fallback), or None: what a hint
        asks first."""
        game = self.game
        if self.why_not or game.is_terminal(state):
            return None
        budget = Budget(Limits(time=seconds), cancel)
        loaded = tables_by(game, True, budget.share(TABLE_WAIT))
        answer = self.from_tables(state, loaded, budget) or self.from_opening_proof(state, budget)
        if answer is not None:
            return answer
        knowledge, private = self._knowledge(loaded)
        try:
            bounds = knowledge.prover.prove_within(state, budget.deadline, cancel)
            if not bounds.is_exact:
                return None
            info = {"proven": True, "value": int(bounds.lower), "source": "prover"}
            return SearchResult(bounds.move, proven_score(bounds.lower), knowledge.prover.last_depth, bounds.nodes,
                                (bounds.move,), budget.elapsed(), True, info)
        finally:
            if not private:
                knowledge.lock.release()
