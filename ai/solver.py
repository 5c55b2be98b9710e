"""An exact solver for small positions: the game's value under its final-score margin.

A full-depth negamax alpha-beta with a transposition table and no evaluator: every line is played to the end
of the game and scored by the final margin (the player to move's score minus the opponent's), so the value
is exactly what perfect play by both sides gives, e.g. Kalah(3,3) = +2 for the first player.

The search is an MTD(f)-style sequence of null-window searches around a guess (each one a proof that the
value is at least or at most some number), which prunes far more than one full-window search; the table
holds bounds keyed by position (the packed Kalah kernel or the rules' ``key``).  It has no depth limit: give
it a time limit for positions that are too big, and it answers with ``exhaustive`` false and the best move of
the last completed proof.  Games whose positions can repeat (Oware) are solved as if the rules' key were the
whole state, which the repetition rule makes approximate.
"""
from __future__ import annotations

import sys
from typing import Any, Hashable

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchAborted, SearchResult
from ai.evaluators import ZeroEvaluator, final_margin
from ai.fast import GameKernel, kernel_for, kernel_holding
from ai.search import Budget, check_two_player
from ai.transposition import TranspositionTable
from rules import Game, Move, State

POLL_NODES = 1024


class SolverEngine(Engine):
    """Exact game value by the final-score margin, for positions small enough to search to the end."""

    name = "solver"

    def __init__(self, game: Game, time: float | None = None, tt: int = 4_000_000, fast: bool = True) -> None:
        check_two_player(self.name, game)
        super().__init__(game, time=time, tt=tt, fast=fast)
        self.time_limit = time
        self.kernel = kernel_for(game, ZeroEvaluator(), margins=True, fast=fast)
        self.table = TranspositionTable(tt)

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        game = self.game
        budget = Budget(limits, cancel, self.time_limit)
        if game.is_terminal(state):
            return SearchResult(None, final_margin(game, state, game.to_move(state)), 0, 0, (), 0.0, True)
        self.table.new_search()
        kernel = kernel_holding(self.kernel, state)  # a position the packed kernel cannot hold: the rules'
        prover = _Prover(kernel, self.table, budget)
        root = kernel.encode(state)
        lower, upper = -float("inf"), float("inf")
        guess = 0.0
        best_move = prover.first_move(root)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            while lower < upper:
                # MTD(f): prove "value >= beta" or "value < beta" with a null window (margins are whole).
                beta = guess + 1 if guess == lower else guess
                value, move = prover.root(root, beta - 1, beta)
                if value >= beta:
                    lower, best_move = value, move
                else:
                    upper = value
                guess = value
                if progress is not None:
                    progress(SearchResult(best_move, guess, 0, prover.nodes, (best_move,), budget.elapsed()))
        except SearchAborted:
            return SearchResult(best_move, guess, 0, prover.nodes, (best_move,), budget.elapsed(), False,
                                {"lower": lower, "upper": upper})
        finally:
            sys.setrecursionlimit(limit)
        pv = prover.principal_variation(root, lower)
        return SearchResult(best_move, lower, len(pv), prover.nodes, pv, budget.elapsed(), True,
                            {"tt_entries": len(self.table)})


class _Prover:
    """Null-window alpha-beta to the end of the game, with a table of bounds (lower, upper) per position."""

    def __init__(self, kernel: Any, table: TranspositionTable, budget: Budget) -> None:
        self.kernel = kernel
        self.table = table
        self.budget = budget
        self.nodes = 0
        self.search = self._build()

    def first_move(self, root: Hashable) -> Move:
        return self.kernel.children(root)[0][0]

    def root(self, root: Hashable, alpha: float, beta: float) -> tuple[float, Move]:
        """Value of the root within the window (fail-soft) and the move that gave it."""
        best, best_move = -float("inf"), None
        search = self.search
        for move, child, same, final in self._ordered(root):
            if final is not None:
                value = final
            elif same:
                value = search(child, alpha, beta)
            else:
                value = -search(child, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value >= beta:
                    break
        self._store(root, best, alpha, beta, best_move)
        return best, best_move

    def principal_variation(self, root: Hashable, value: float) -> tuple:
        """A line of moves that keeps the proven value, read by re-searching each position exactly."""
        line: list[Move] = []
        position = root
        while position is not None and len(line) < 400:
            chosen = None
            for move, child, same, final in self.kernel.children(position):
                if final is not None:
                    child_value = final
                elif same:
                    child_value = self._exact(child)
                else:
                    child_value = -self._exact(child)
                if child_value == value:
                    chosen = (move, child, same)
                    break
            if chosen is None:
                break
            line.append(chosen[0])
            position = chosen[1]
            if position is not None and not chosen[2]:
                value = -value
        return tuple(line)

    def _exact(self, position: Hashable) -> float:
        lower, upper = -float("inf"), float("inf")
        guess = 0.0
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            value = self.search(position, beta - 1, beta)
            if value >= beta:
                lower = value
            else:
                upper = value
            guess = value
        return lower

    def _ordered(self, position: Hashable) -> list[tuple]:
        children = self.kernel.children(position)
        entry = self.table.entries.get(self.kernel.key(position))
        if entry is not None and entry[2] is not None:
            children.sort(key=lambda c: c[0] != entry[2])
        return children

    def _store(self, position: Hashable, value: float, alpha: float, beta: float, move: Move) -> None:
        key = self.kernel.key(position)
        entries = self.table.entries
        entry = entries.get(key)
        lower, upper = (entry[0], entry[1]) if entry is not None else (-float("inf"), float("inf"))
        if value >= beta:
            lower = max(lower, value)
        elif value <= alpha:
            upper = min(upper, value)
        else:
            lower = upper = value
        if entry is not None or len(entries) < self.table.capacity:
            entries[key] = (lower, upper, move)

    def _build(self):
        prover = self
        kernel = self.kernel
        children_of = kernel.children
        key_of = kernel.key
        position_is_key = not isinstance(kernel, GameKernel)
        entries = self.table.entries
        capacity = self.table.capacity
        budget = self.budget
        inf = float("inf")

        def search(position: Hashable, alpha: float, beta: float) -> float:
            prover.nodes += 1
            if not prover.nodes % POLL_NODES:
                budget.poll(prover.nodes)
            key = position if position_is_key else key_of(position)
            entry = entries.get(key)
            table_move = None
            if entry is not None:
                lower, upper, table_move = entry
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
            else:
                lower, upper = -inf, inf
            children = children_of(position)
            if table_move is not None and children[0][0] != table_move:
                children.sort(key=lambda c: c[0] != table_move)
            best, best_move = -inf, None
            a = alpha
            for move, child, same, final in children:
                if final is not None:
                    value = final
                elif same:
                    value = search(child, a, beta)
                else:
                    value = -search(child, -beta, -a)
                if value > best:
                    best, best_move = value, move
                    if value > a:
                        a = value
                        if a >= beta:
                            break
            if best >= beta:
                lower = max(lower, best)
            elif best <= alpha:
                upper = min(upper, best)
            else:
                lower = upper = best
            if entry is not None or len(entries) < capacity:
                entries[key] = (lower, upper, best_move)
            return best

        return search
