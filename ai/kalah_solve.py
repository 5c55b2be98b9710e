"""Proving the exact value of a Kalah position with the compiled search and the endgame tables.

The compiled PVS (``search.pxi``) over the Kalah kernel scoring finished games by their plain margin
(``margins=True``) and positions at the horizon by the sowing evaluator (on the same scale), deepened one ply
at a time until an iteration is *resolved*: every line it searched ended in a finished game or a table
position (exact), so its value is the game's value under perfect play.  The tables cut every line as soon
as the board holds few enough seeds, which is what makes Kalah(6,4) reachable.

The principal variation is proved move by move: the best move is played and the position after it solved
again (cheap: the transposition table is warm), until the game ends.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from ai.base import SearchAborted
from ai.core.kernels import CompiledKalahKernel
from ai.evaluators import get_evaluator
from rules import Game
from rules.kalah import Kalah, KalahState

MAX_DEPTH = 250
"""Deeper than any Kalah game this prover can finish (``search.pxi`` allows 254)."""


@dataclass(frozen=True)
class _Deadline:
    """The part of a search budget ``make_run`` reads: a ``time.perf_counter`` deadline and nothing else."""

    deadline: float
    max_nodes: None = None
    cancel: None = None


@dataclass(frozen=True)
class Proof:
    """The exact value of a position for the side to move and how it was found."""

    value: int
    move: int
    depth: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Iteration:
    depth: int
    score: float
    move: int
    nodes: int
    seconds: float
    resolved: bool


ProgressFn = Callable[[Iteration], None]


class KalahProver:
    """Exact values of Kalah positions of one variant (a transposition table kept across proofs)."""

    def __init__(self, game: Game, tables: Any | None = None, memory: float = 512) -> None:
        if not isinstance(game, Kalah):
            raise ValueError(f"the prover solves Kalah, not {game.name}")
        self.game = game
        self.kernel = CompiledKalahKernel(game, get_evaluator(game, "default"), margins=True)
        if tables is not None:
            self.kernel.core.use_tables(tables)
        self.kernel.core.use_bounds(True)
        self.table = self.kernel.new_table(memory)
        self.nodes = 0

    def prove(self, state: KalahState, progress: ProgressFn | None = None) -> Proof:
        """The exact value of ``state`` for the side to move (the game must not be over)."""
        if self.game.is_terminal(state):
            raise ValueError("the game is over: nothing to prove")
        root = self.kernel.encode(state)
        run = self.kernel.make_run(self.table, None, 256, state)
        started = time.perf_counter()
        self.table.new_search()
        for depth in range(1, MAX_DEPTH + 1):
            score, move, resolved = run.root(root, depth)
            iteration = Iteration(depth, score, move, run.nodes, time.perf_counter() - started, resolved)
            if progress is not None:
                progress(iteration)
            if resolved:
                self.nodes += run.nodes
                return Proof(int(round(score)), move, depth, run.nodes, iteration.seconds)
        raise RuntimeError(f"not resolved within {MAX_DEPTH} plies")

    def prove_by_tests(self, state: KalahState, progress: ProgressFn | None = None, first_depth: int = 14,
                       deadline: float | None = None) -> Proof:
        """The exact value by null-window tests to the end of the game (MTD(f) on whole margins), after a
        short iterative deepening that gives the first guess and the move ordering."""
        if self.game.is_terminal(state):
            raise ValueError("the game is over: nothing to prove")
        root = self.kernel.encode(state)
        budget = None if deadline is None else _Deadline(deadline)  # SearchAborted when it passes
        run = self.kernel.make_run(self.table, budget, 256, state)
        started = time.perf_counter()
        self.table.new_search()
        guess, move = 0.0, None
        for depth in range(1, first_depth + 1):
            score, move, resolved = run.root(root, depth)
            guess = score
            if progress is not None:
                progress(Iteration(depth, score, move, run.nodes, time.perf_counter() - started, resolved))
            if resolved:
                self.nodes += run.nodes
                return Proof(int(round(score)), move, depth, run.nodes, time.perf_counter() - started)
        if move is None:
            raise ValueError(f"prove_by_tests needs first_depth of 1 or more, not {first_depth}")
        lower, upper = -float("inf"), float("inf")
        guess = float(round(guess))
        best = move
        deep = MAX_DEPTH
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            value, move, resolved = run.root(root, deep, beta - 1, beta)
            if not resolved:
                raise RuntimeError(f"a line is longer than {deep} plies: not proved")
            if value >= beta:
                lower, best = value, move
            else:
                upper = value
            guess = value
            if progress is not None:
                progress(Iteration(deep, value, move, run.nodes, time.perf_counter() - started, lower >= upper))
        self.nodes += run.nodes
        return Proof(int(lower), best, deep, run.nodes, time.perf_counter() - started)

    def principal_variation(self, state: KalahState, value: int, limit: int = 400,
                            seconds: float | None = None) -> tuple[tuple[int, ...], bool]:
        """A line of perfect play from ``state``, each move proved again on the way (cheap: the table is warm),
        and whether it reached the end of the game (``seconds`` may stop it earlier)."""
        game = self.game
        line: list[int] = []
        mover = game.to_move(state)
        deadline = None if seconds is None else time.perf_counter() + seconds
        while not game.is_terminal(state) and len(line) < limit:
            try:
                proof = self.prove_by_tests(state, deadline=deadline)
            except SearchAborted:
                return tuple(line), False
            line.append(proof.move)
            state = game.apply(state, proof.move)
        outcome = game.outcome(state)
        if outcome is not None and outcome.margin(mover) != value:
            raise AssertionError("the principal variation does not reach the proven value")
        return tuple(line), game.is_terminal(state)
