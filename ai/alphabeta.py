"""Depth-limited alpha-beta (negamax form): minimax with pruning, nothing else.

The textbook fail-soft algorithm over the rules protocol, in the rules' move order, with no table and no
move ordering, so it stays easy to check: it returns exactly the value of ``ai.minimax`` at the same depth
with the same evaluator (``tests/ai/test_ai_search.py``).  A child's value is negated only when the player to
move changes (Kalah's extra turns).  The strong engine is ``ai.search``.
"""
from __future__ import annotations

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchResult
from ai.evaluators import Evaluator, evaluator_for, final_score, get_evaluator
from ai.minimax import fixed_depth_root
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
    search = _AlphaBeta(game, evaluator_for(evaluator, game, state), Budget(None, None))
    return search.value(state, depth, float("-inf"), float("inf"))


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
        return fixed_depth_root(
            self, state, Budget(limits, cancel, depth=self.depth), progress,
            lambda budget: _AlphaBeta(self.game, evaluator_for(self.evaluator, self.game, state), budget),
            lambda search, node, move, mover, depth, best: search.child_value(
                node, move, mover, depth, best, float("inf")),
        )
