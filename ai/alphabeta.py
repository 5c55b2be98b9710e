"""Depth-limited alpha-beta (negamax form): minimax with pruning, nothing else.

The textbook fail-soft algorithm over the rules protocol, in the rules' move order, with no table and no
move ordering, so it stays easy to check: it returns exactly the value of ``ai.minimax`` at the same depth
with the same evaluator (``tests/test_ai_search.py``).  A child's value is negated only when the player to
move changes (Kalah's extra turns).  The strong engine is ``ai.search``.
"""
from __future__ import annotations

import time

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchAborted, SearchResult
from ai.evaluators import Evaluator, final_score, get_evaluator
from ai.search import Budget, check_two_player
from rules import Game, Move, State


class _AlphaBeta:
    """The recursive search with its node count and budget polls."""

    def __init__(self, game: Game, evaluator: Evaluator, budget: Budget) -> None:
        self.game = game
        self.evaluator = evaluator
        self.budget = budget
        self.nodes = 0

    def value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """The negamax value of non-terminal ``state`` if it lies in (alpha, beta), else a bound beyond it."""
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.poll(self.nodes)
        game = self.game
        if depth == 0:
            return self.evaluator.evaluate(game, state)
        mover = game.to_move(state)
        best = float("-inf")
        for move in game.legal_moves(state):
            value = self.child_value(state, move, mover, depth, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def child_value(self, state: State, move: Move, mover: int, depth: int, alpha: float, beta: float) -> float:
        """The value for ``mover`` of playing ``move`` in ``state``."""
        game = self.game
        child = game.apply(state, move)
        if game.is_terminal(child):
            return final_score(game, child, mover)
        if game.to_move(child) == mover:
            return self.value(child, depth - 1, alpha, beta)
        return -self.value(child, depth - 1, -beta, -alpha)


def alphabeta_value(game: Game, evaluator: Evaluator, state: State, depth: int) -> float:
    """The depth-limited negamax value of ``state`` from the side to move, by alpha-beta."""
    if game.is_terminal(state):
        return final_score(game, state, game.to_move(state))
    return _AlphaBeta(game, evaluator, Budget(None, None)).value(state, depth, float("-inf"), float("inf"))


class AlphaBetaEngine(Engine):
    """Depth-limited alpha-beta with an evaluator; ties go to the first move in the rules' order."""

    name = "alphabeta"

    def __init__(self, game: Game, depth: int = 6, eval: str = "default") -> None:
        check_two_player(self.name, game)
        super().__init__(game, depth=depth, eval=eval)
        self.depth = depth
        self.evaluator = get_evaluator(game, eval)

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        budget = Budget(limits, cancel, depth=self.depth)
        depth = max(1, budget.max_depth)
        game = self.game
        started = time.perf_counter()
        if game.is_terminal(state):
            return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True)
        search = _AlphaBeta(game, self.evaluator, budget)
        mover = game.to_move(state)
        alpha, beta = float("-inf"), float("inf")
        best_move: Move | None = None
        try:
            for move in game.legal_moves(state):
                value = search.child_value(state, move, mover, depth, alpha, beta)
                if value > alpha:  # strictly better: the first of equal moves is kept
                    alpha, best_move = value, move
        except SearchAborted:
            if best_move is None:
                best_move = game.legal_moves(state)[0]
            return SearchResult(best_move, alpha, 0, search.nodes, (best_move,), time.perf_counter() - started)
        result = SearchResult(best_move, alpha, depth, search.nodes, (best_move,), time.perf_counter() - started)
        if progress is not None:
            progress(result)
        return result
