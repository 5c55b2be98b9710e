"""The exact means of the analysis: the endgame tables' reading, and the exact helpers a game's engine-side record
names (``ai/games.py`` ``GameSupport.solver`` / ``.prover``), which the analysis (``ai/analysis/engine.py``) and
the position's value (``ai/analysis/position.py``) try before searching, so neither asks which game it is.

A *solver* (``solver=``) values a whole position exactly within a node budget: ``reaches(state)`` says whether
it is worth trying, ``value(state, max_nodes, cancel)`` gives (+1 win, 0 tie, -1 loss for the side to move, or
None when the budget ran out; the nodes it used); a cancel raises ``SearchAborted``.  Magnetic Cave's endgame
solver is one.  A *prover* (``prover=``) proves a position's exact margin: ``reaches(state)``, and
``prover(game, tables)`` the prover itself (``prove_by_tests(state, deadline)``, ``nodes``) or None when it
cannot run here.  The Kalah prover is one.
"""
from __future__ import annotations

from typing import Any

from ai import games
from ai import tables as endgame_tables
from ai.base import CancelToken, SearchAborted
from rules import Game, State

SOLVER_EMPTIES = 22
"""Magnetic Cave: the endgame solver is tried when at most this many cells are empty after the move."""
SOLVER_NODES = 100_000
"""A solver's node budget per move in its first round (the analysis gives four times more each round after);
the evaluation graph's whole budget for a position.  At least ``ai.cave_endgame.SOLVE_NODES``: what the search's
own solver (in front of each move's search) could prove, this one proves first, and marks proven."""
PROVER_MEMORY = 64.0
"""MB of transposition table for the Kalah prover."""
PROVER_SEEDS = 30
"""Kalah: the prover is tried on moves that leave at most this many seeds on the board (beyond, a proof within
seconds is out of reach and the time is the search's)."""


def new_cave_solver() -> Any:
    """Magnetic Cave's endgame solver: the compiled one when the core is built, else ``ai.cave_endgame``'s."""
    import ai.core

    if ai.core.module() is not None:
        from ai.core.kernels import CompiledEndgameSolver

        return CompiledEndgameSolver()
    from ai.cave_endgame import SHARED_TABLE, EndgameSolver

    return EndgameSolver(table=SHARED_TABLE)


def armed(solver: Any, cancel: CancelToken | None) -> Any:
    """``solver`` stopping (``SearchAborted``) when ``cancel`` is cancelled or past its deadline."""
    if hasattr(solver, "cancel_flag"):
        solver.deadline = None if cancel is None else cancel.deadline
        solver.cancel_flag = None if cancel is None else cancel.flag
    else:
        solver.poll = None if cancel is None else cancel.check
    return solver


def cave_value(state: Any, solver: Any, max_nodes: int | None) -> int | None:
    """The exact value (+1 win, 0 tie, -1 loss) of a cave position for its side to move, or None when the
    solver's budget ran out first (a cancel raises ``SearchAborted``)."""
    mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    try:
        value, _ = solver.solve(mine, theirs, max_nodes=max_nodes)
    except SearchAborted:
        return None
    return int(value)


def empty_cells(state: Any) -> int:
    from rules.magnetic_cave import FULL

    return int((FULL ^ (state.black | state.white)).bit_count())


class CaveEndgame:
    """Magnetic Cave's endgame solver as a registration's ``solver``: positions with at most ``SOLVER_EMPTIES``
    empty cells.  One solver is kept, so its table of proven bounds serves every later call."""

    def __init__(self) -> None:
        self._solver: Any = None

    def reaches(self, state: State) -> bool:
        return empty_cells(state) <= SOLVER_EMPTIES

    def value(self, state: State, max_nodes: int | None, cancel: CancelToken | None) -> tuple[int | None, int]:
        if self._solver is None:
            self._solver = new_cave_solver()
        solver = armed(self._solver, cancel)
        before = solver.nodes
        value = cave_value(state, solver, max_nodes)
        return value, solver.nodes - before


class KalahProving:
    """The Kalah prover (``ai.kalah_solve.KalahProver``, compiled core only) as a registration's ``prover``:
    positions with at most ``PROVER_SEEDS`` seeds on the board."""

    def reaches(self, state: State) -> bool:
        return self.seeds(state) <= PROVER_SEEDS

    @staticmethod
    def seeds(state: State) -> int:
        """The seeds left on the board: what the prover's work grows with."""
        return int(sum(state.pits))  # type: ignore[attr-defined]

    def prover(self, game: Game, tables: Any | None) -> Any | None:
        import ai.core

        if ai.core.module() is None:
            return None
        from ai.kalah_solve import KalahProver

        return KalahProver(game, tables, memory=PROVER_MEMORY)


def opening_proof(game: Game) -> Any | None:
    """The shipped opening proof of ``game`` (``ai.kalah_proofs``: Kalah(6,4)), or None (none, or a damaged file,
    which the Perfect level names)."""
    from ai.kalah_proofs import ProofError, proof_for

    try:
        return proof_for(game)
    except ProofError:
        return None


def usable_tables(game: Game) -> Any | None:
    """The endgame tables of ``game`` when there are usable ones (never starts a build)."""
    try:
        found = endgame_tables.tables_for(game)
    except (OSError, RuntimeError, ValueError):
        return None
    return found if found is not None and hasattr(found, "lookup") else None


def solver_for(game: Game) -> Any | None:
    """A new solver of the kind ``game``'s engine-side record names (``GameSupport.solver``), or None."""
    path = games.support(game).solver
    return games.load(path)() if path else None


def prover_for(game: Game) -> Any | None:
    """The prover helper ``game``'s engine-side record names (``GameSupport.prover``), or None."""
    path = games.support(game).prover
    return games.load(path)() if path else None
