"""The greedy engine: the move whose resulting position the evaluator likes best, one ply deep.

A move that ends the game scores exactly (so greedy takes a win and avoids a loss it can see); otherwise the
child is evaluated from the mover's point of view (negated when the opponent moves next).  Ties go to the
first move in the rules' order, so greedy is deterministic.
"""
from __future__ import annotations

import time

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchResult
from ai.evaluators import final_score, get_evaluator
from ai.search import check_two_player
from rules import Game, State


class GreedyEngine(Engine):
    """Best one-ply evaluation, deterministic tie-break."""

    name = "greedy"

    def __init__(self, game: Game, eval: str = "default") -> None:
        check_two_player(self.name, game)
        super().__init__(game, eval=eval)
        self.evaluator = get_evaluator(game, eval)

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        game = self.game
        started = time.perf_counter()
        if game.is_terminal(state):
            return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True)
        mover = game.to_move(state)
        best_move, best = None, float("-inf")
        moves = game.legal_moves(state)
        for move in moves:
            child = game.apply(state, move)
            if game.is_terminal(child):
                value = final_score(game, child, mover)
            else:
                value = self.evaluator.evaluate(game, child)
                if game.to_move(child) != mover:
                    value = -value
            if value > best:
                best, best_move = value, move
        result = SearchResult(best_move, best, 1, len(moves), (best_move,), time.perf_counter() - started)
        if progress is not None:
            progress(result)
        return result
