"""Plain depth-limited minimax (negamax form): the simplest exact reference for every other search.

Negamax over the score from the side to move: a child's value is negated only when the player changes, so
Kalah's extra turns (the same player moving again) need no special case.  Finished games score exactly
(``ai.evaluators.final_score``); positions at the depth limit are scored by the evaluator.  No pruning, no
table, no ordering: slow on purpose, so the faster searches can be checked against it.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchAborted, SearchResult
from ai.evaluators import Evaluator, evaluator_for, final_score, get_evaluator
from ai.search import Budget, check_two_player
from rules import Game, Move, State


def minimax_value(game: Game, evaluator: Evaluator, state: State, depth: int) -> float:
    """The depth-limited negamax value of ``state`` from the side to move."""
    if game.is_terminal(state):
        return final_score(game, state, game.to_move(state))
    return _Minimax(game, evaluator_for(evaluator, game, state), Budget(None, None)).value(state, depth)


class _Minimax:
    """The recursive search with its node count and budget polls."""

    def __init__(self, game: Game, evaluator: Evaluator, budget: Budget) -> None:
        self.game = game
        self.evaluator = evaluator
        self.budget = budget
        self.nodes = 0

    def value(self, state: State, depth: int) -> float:
        """The negamax value of non-terminal ``state`` searched ``depth`` plies deep."""
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.poll(self.nodes)
        if depth == 0:
            return self.evaluator.evaluate(self.game, state)
        mover = self.game.to_move(state)
        return max(self.child_value(state, move, mover, depth) for move in self.game.legal_moves(state))

    def child_value(self, state: State, move: Move, mover: int, depth: int) -> float:
        """The value for ``mover`` of playing ``move`` in ``state``: exact if it ends the game."""
        game = self.game
        child = game.apply(state, move)
        if game.is_terminal(child):
            return final_score(game, child, mover)
        value = self.value(child, depth - 1)
        return value if game.to_move(child) == mover else -value


class MinimaxEngine(Engine):
    """Depth-limited minimax with an evaluator; ties go to the first move in the rules' order."""

    name = "minimax"

    def __init__(self, game: Game, depth: int = 4, eval: str = "default") -> None:
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
            lambda budget: _Minimax(self.game, evaluator_for(self.evaluator, self.game, state), budget),
            lambda search, node, move, mover, depth, best: search.child_value(node, move, mover, depth),
        )


def fixed_depth_root(
    engine: Engine,
    state: State,
    budget: Budget,
    progress: ProgressCallback | None,
    make_search: Callable[[Budget], Any],
    child_value: Callable[[Any, State, Move, int, int, float], float],
) -> SearchResult:
    """The root of a depth-limited reference search (minimax, alpha-beta): each move in the rules' order, the
    first of equal values kept; on cancel or deadline the best move found so far (or the first legal one)."""
    game = engine.game
    depth = max(1, budget.max_depth or 1)  # the reference searches always have a depth
    started = time.perf_counter()
    if game.is_terminal(state):
        return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True)
    mover = game.to_move(state)
    search = make_search(budget)
    best_move: Move | None = None
    best = float("-inf")
    try:
        for move in game.legal_moves(state):
            value = child_value(search, state, move, mover, depth, best)
            if value > best:  # strictly better: the first of equal moves is kept
                best, best_move = value, move
    except SearchAborted:
        if best_move is None:
            best_move = game.legal_moves(state)[0]
        return SearchResult(best_move, best, 0, search.nodes, (best_move,), time.perf_counter() - started)
    result = SearchResult(best_move, best, depth, search.nodes, (best_move,), time.perf_counter() - started)
    if progress is not None:
        progress(result)
    return result
