"""Oware evaluators: captured-seed difference plus board terms, from the side to move.

Seeds on the board belong to nobody until captured (except when the game ends by repetition or because a
player cannot be fed, when each side keeps its own), so the board terms are small corrections::

    (own score house - opponent's)
    + side       * (seeds on own side - seeds on the opponent's side)
    + mobility   * (own non-empty houses - opponent's)
    + vulnerable * (opponent's houses holding 1 or 2 seeds - own such houses)

A house holding 1 or 2 seeds is what a capture needs (the last seed makes it 2 or 3).  The default weights
come from the tournament ``tools/tune_eval.py oware`` (BENCHMARKS.md, "Evaluator weights"): mobility 0.5 and
nothing else won 79.2% of 24 games against the first guess (0.25 each) at depth 5, and 62.5% / 60.9% of 32
more at depth 7 / 0.1 s per move; every positive ``vulnerable`` weight did worse, so it is 0 (the term stays
for tuning).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import Game
from rules.sowing import TwoRowPosition


@dataclass(frozen=True)
class OwareEvaluator:
    """Score-house difference plus weighted seeds-on-side, mobility and vulnerability differences."""

    name: str
    side: float = 0.0
    mobility: float = 0.0
    vulnerable: float = 0.0

    def evaluate(self, game: Game, state: TwoRowPosition) -> float:
        pits = state.pits
        south_store, north_store = state.stores
        south, north = pits[:6], pits[6:]
        if game.to_move(state) == 0:
            own, other, store = south, north, south_store - north_store
        else:
            own, other, store = north, south, north_store - south_store
        side = sum(own) - sum(other)
        mobility = other.count(0) - own.count(0)
        weak = (other.count(1) + other.count(2)) - (own.count(1) + own.count(2))
        return store + self.side * side + self.mobility * mobility + self.vulnerable * weak


OWARE_WEIGHTS = (0.0, 0.5, 0.0)
"""(side, mobility, vulnerable) of Oware's default evaluator (tuned by tournament; see the module docstring)."""


def oware_default(game: Game) -> OwareEvaluator:
    side, mobility, vulnerable = OWARE_WEIGHTS
    return OwareEvaluator("default", side=side, mobility=mobility, vulnerable=vulnerable)
