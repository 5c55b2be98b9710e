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

from ai.base import CancelToken, SearchAborted
from ai.core.kernels import CompiledKalahKernel
from ai.evaluators import get_evaluator
from rules import Game
from rules.kalah import Kalah, KalahState

MAX_DEPTH = 250
"""Deeper than any Kalah game this prover can finish (``search.pxi`` allows 254)."""
FULL_MEMORY = 1024.0
"""The transposition table (MB) for Kalah(6,4), 48 seeds: what its proof needs (BENCHMARKS.md)."""
FULL_SEEDS = 48
SMALLEST_MEMORY = 16.0


def default_memory(game: Kalah) -> float:
    """The transposition table (MB) a proof of ``game`` gets unless told otherwise: ``FULL_MEMORY`` for a game of
    ``FULL_SEEDS`` seeds or more, half as much for every two seeds fewer, at least ``SMALLEST_MEMORY``.  A table
    is paged in as a proof touches it, in 2 MB huge pages, and a small game's proof scatters its few thousand
    positions over all of a big one: 1 GB for Kalah(4,3), 24 seeds, costs 1.6-7 s of page zeroing for a proof
    that 16 MB does in a hundredth of a second."""
    seeds = 2 * game.pits * game.seeds
    return max(SMALLEST_MEMORY, FULL_MEMORY / 2 ** max(0, (FULL_SEEDS - seeds) / 2))


@dataclass(frozen=True)
class _Deadline:
    """The part of a search budget ``make_run`` reads: a ``time.perf_counter`` deadline (or None) and the cancel
    token whose flag the compiled search polls (or None)."""

    deadline: float | None
    max_nodes: None = None
    cancel: CancelToken | None = None


@dataclass(frozen=True)
class Proof:
    """The exact value of a position for the side to move and how it was found."""

    value: int
    move: int
    depth: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Bounds:
    """What a proof cut short by the clock knows: ``lower <= value <= upper`` for the side to move, and a move
    that secures ``lower`` (None until a test has proved a lower bound).  Exact when ``lower == upper``."""

    lower: float
    upper: float
    move: int | None
    nodes: int
    seconds: float

    @property
    def is_exact(self) -> bool:
        return self.lower == self.upper and self.move is not None


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
        self.last_depth = 0
        """The depth of the last proof: the resolved iteration's, or ``MAX_DEPTH`` for tests to the end."""

    def prove(self, state: KalahState, progress: ProgressFn | None = None,
              cancel: CancelToken | None = None) -> Proof:
        """The exact value of ``state`` for the side to move (the game must not be over), by iterative
        deepening to a resolved iteration; SearchAborted when ``cancel`` is set first."""
        if self.game.is_terminal(state):
            raise ValueError("the game is over: nothing to prove")
        root = self.kernel.encode(state)
        run = self.kernel.make_run(self.table, None if cancel is None else _Deadline(None, cancel=cancel), 256, state)
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
                       deadline: float | None = None, cancel: CancelToken | None = None) -> Proof:
        """The exact value by null-window tests to the end of the game (MTD(f) on whole margins), after a
        short iterative deepening that gives the first guess and the move ordering.  SearchAborted when
        ``deadline`` passes or ``cancel`` is set first."""
        bounds = self.prove_within(state, deadline, cancel, progress=progress, first_depth=first_depth)
        if not bounds.is_exact:
            raise SearchAborted
        assert bounds.move is not None
        depth = self.last_depth
        return Proof(int(bounds.lower), bounds.move, depth, bounds.nodes, bounds.seconds)

    def prove_within(self, state: KalahState, deadline: float | None, cancel: CancelToken | None = None,
                     progress: ProgressFn | None = None, first_depth: int = 14,
                     guess: float | None = None) -> Bounds:
        """MTD(f) to the end of the game until ``deadline`` (a ``time.perf_counter`` instant; None: until done)
        or ``cancel``: the bounds proved so far and a move that secures the lower one (exact when the proof
        finished).  ``guess``, e.g. a value proved earlier on the same line of play, replaces the first
        iterative deepening (``first_depth`` plies) as the first test's window; a good guess makes the first
        test prove ``value >= guess`` and the second its exactness."""
        if self.game.is_terminal(state):
            raise ValueError("the game is over: nothing to prove")
        root = self.kernel.encode(state)
        budget = None if deadline is None and cancel is None else _Deadline(deadline, cancel=cancel)
        run = self.kernel.make_run(self.table, budget, 256, state)
        started = time.perf_counter()
        self.table.new_search()
        lower, upper = -float("inf"), float("inf")
        best: int | None = None

        def bounds() -> Bounds:
            self.nodes += run.nodes
            return Bounds(lower, upper, best, run.nodes, time.perf_counter() - started)

        try:
            if guess is None:
                move = None
                for depth in range(1, first_depth + 1):
                    score, move, resolved = run.root(root, depth)
                    guess = score
                    if progress is not None:
                        progress(Iteration(depth, score, move, run.nodes, time.perf_counter() - started, resolved))
                    if resolved:
                        lower = upper = float(round(score))
                        best, self.last_depth = move, depth
                        return bounds()
                if move is None:
                    raise ValueError(f"prove_within needs first_depth of 1 or more, not {first_depth}")
            assert guess is not None  # set by the argument or by the deepening above
            guess = float(round(guess))
            deep = MAX_DEPTH
            self.last_depth = deep
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
        except SearchAborted:
            pass
        return bounds()

    def principal_variation(self, state: KalahState, value: int, limit: int = 400,
                            seconds: float | None = None,
                            cancel: CancelToken | None = None) -> tuple[tuple[int, ...], bool]:
        """A line of perfect play from ``state``, each move proved again on the way (cheap: the table is warm),
        and whether it reached the end of the game (``seconds`` or ``cancel`` may stop it earlier)."""
        game = self.game
        line: list[int] = []
        mover = game.to_move(state)
        deadline = None if seconds is None else time.perf_counter() + seconds
        while not game.is_terminal(state) and len(line) < limit:
            try:
                proof = self.prove_by_tests(state, deadline=deadline, cancel=cancel)
            except SearchAborted:
                return tuple(line), False
            line.append(proof.move)
            state = game.apply(state, proof.move)
        outcome = game.outcome(state)
        if outcome is not None and outcome.margin(mover) != value:
            raise AssertionError("the principal variation does not reach the proven value")
        return tuple(line), game.is_terminal(state)
