"""The compiled kernels behind the ``ai.fast`` kernel protocol (``ai.fast.Kernel``), one class per game.

Each wraps one kernel of the extension (``ai.core._core``): positions are ``bytes`` (the C position, seen
from the side to move), which are hashable, so the protocol's ``key`` is the position itself.  Besides the
protocol's ``encode``, ``children``, ``evaluate``, ``best_leaf`` and ``key``, a compiled kernel offers
``new_table(megabytes)`` (a transposition table in C memory) and ``make_run(table, budget, poll)``, the
compiled search that ``ai.search.PVSEngine`` drives one iteration at a time.
"""
from __future__ import annotations

from typing import Any

import ai.core as core
from ai.evaluators import Evaluator, ZeroEvaluator
from ai.evaluators.sowing import SowingEvaluator
from rules import Game, Move, State


def cancel_flag(budget: Any) -> bytearray | None:
    """The C-readable flag of the budget's cancel token (``ai.base.CancelToken.flag``), if any."""
    token = getattr(budget, "cancel", None)
    return None if token is None else token.flag


def deadline_of(budget: Any) -> float | None:
    """The earlier of the budget's deadline and its cancel token's (``time.perf_counter`` instants)."""
    if budget is None:
        return None
    deadlines = [d for d in (budget.deadline, getattr(budget.cancel, "deadline", None)) if d is not None]
    return min(deadlines) if deadlines else None


class CompiledKernel:
    """What every compiled kernel shares: the protocol's plain methods and the search hooks."""

    compiled = True
    margins = False

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        self.margins = margins
        self.core: Any = None

    def key(self, position: bytes) -> bytes:
        return position

    def children(self, position: bytes) -> list[tuple]:
        return self.core.children(position)

    def evaluate(self, position: bytes) -> float:
        return self.core.evaluate(position)

    def best_leaf(self, position: bytes, beta: float) -> tuple[float, Move | None, int]:
        best, best_move, leaves = -float("inf"), None, 0
        for move, child, same, final in self.children(position):
            if final is None:
                leaves += 1
                value = self.evaluate(child) if same else -self.evaluate(child)
            else:
                value = final
            if value > best:
                best, best_move = value, move
                if value >= beta:
                    break
        return best, best_move, leaves

    def new_table(self, megabytes: float) -> Any:
        return core.module().Table(megabytes)

    def history(self, state: State) -> list[int] | None:
        """Keys of the positions before ``state`` that the rules look back on (none for most games)."""
        return None

    def make_run(self, table: Any, budget: Any, poll: int, state: State | None = None) -> "CompiledRun":
        """The compiled search of one root (``poll`` is C's own: the clock is read every few hundred nodes)."""
        core.runs_started += 1
        run = core.module().Run(
            self.core, table,
            deadline=deadline_of(budget),
            max_nodes=None if budget is None else budget.max_nodes,
            cancel_flag=cancel_flag(budget),
            history=None if state is None else self.history(state),
        )
        return CompiledRun(self, run)


class CompiledRun:
    """``ai.search._Run``'s interface over a compiled ``Run``: the iterations run in C without the GIL."""

    __slots__ = ("kernel", "run")

    def __init__(self, kernel: CompiledKernel, run: Any) -> None:
        self.kernel = kernel
        self.run = run

    def root(self, root: bytes, depth: int) -> tuple[float, Move, bool]:
        return self.run.root(root, depth)

    @property
    def nodes(self) -> int:
        return self.run.nodes

    @property
    def partial_move(self) -> Move | None:
        return self.run.partial_move

    @property
    def partial_score(self) -> float:
        return self.run.partial_score

    @property
    def partial_depth(self) -> int:
        return self.run.partial_depth

    def principal_variation(self, root: bytes, move: Move, depth: int) -> tuple:
        """The best line, read from the table's moves (at most ``depth`` moves, stopping at a repetition)."""
        line, position, seen = [move], root, {root}
        while len(line) < depth:
            child = next((c[1] for c in self.kernel.children(position) if c[0] == line[-1]), None)
            if child is None or child in seen:
                break
            following = self.run.table_move(child)
            if following is None:
                break
            seen.add(child)
            line.append(following)
            position = child
        return tuple(line)


class CompiledKalahKernel(CompiledKernel):
    """Kalah (any pits and seeds, both capture rules) with a sowing or zero evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return game.name == "kalah" and isinstance(evaluator, (SowingEvaluator, ZeroEvaluator))

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        super().__init__(game, evaluator, margins)
        zero = isinstance(evaluator, ZeroEvaluator)
        self.core = core.module().KalahCore(
            game.pits, game.empty_capture, margins,
            0.0 if zero else evaluator.side, 0.0 if zero else evaluator.mobility, zero,
        )

    def accepts(self, state: State) -> bool:
        return max(self.game.key(state)) <= 65535

    def encode(self, state: State) -> bytes:
        return self.core.pack(self.game.key(state))

    def decode(self, position: bytes, to_move: int = 0) -> State:
        from rules.kalah import KalahState

        fields = self.core.unpack(position)
        n1 = self.game.pits + 1
        ring = fields if to_move == 0 else fields[n1:] + fields[:n1]
        return KalahState(ring, to_move)
