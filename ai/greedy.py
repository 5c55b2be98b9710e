"""The greedy engine: the move whose resulting position the evaluator likes best, one ply deep.

A move that ends the game scores exactly (so greedy takes a win and avoids a loss it can see); otherwise the
child is evaluated from the mover's point of view (negated when the opponent moves next).  Ties go to the
first move in the rules' order, so greedy is deterministic.  That is exactly minimax one ply deep, so greedy is
the minimax engine with its depth fixed at 1.
"""
from __future__ import annotations

from ai.minimax import MinimaxEngine
from rules import Game


class GreedyEngine(MinimaxEngine):
    """Best one-ply evaluation, deterministic tie-break."""

    name = "greedy"

    def __init__(self, game: Game, eval: str = "default") -> None:
        super().__init__(game, depth=1, eval=eval)
        self.params = {"eval": eval}
