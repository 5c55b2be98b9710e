"""Hus evaluators, from the side to move.

Hus has no stores: a player's wealth is the seeds in their 32 pits, and a player with no pit of 2 or more
seeds (no move) loses.  So::

    (own seeds - opponent's seeds) + mobility * (own pits with 2+ seeds - opponent's)

``seeds_only`` is the plain seed count the course's baseline players use.  The mobility weight is a first
guess, not yet tuned: ``bench/tune_eval.py hus`` runs the tournament that should set it.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import Game, State

RING = 32


@dataclass(frozen=True)
class HusEvaluator:
    """Seed difference plus a weighted difference of playable pits."""

    name: str
    mobility: float = 0.0

    def evaluate(self, game: Game, state: State) -> float:
        pits = state.pits
        if game.to_move(state) == 0:
            own, other = pits[:RING], pits[RING:]
        else:
            own, other = pits[RING:], pits[:RING]
        seeds = sum(own) - sum(other)
        if not self.mobility:
            return float(seeds)
        playable = (RING - own.count(0) - own.count(1)) - (RING - other.count(0) - other.count(1))
        return seeds + self.mobility * playable


HUS_MOBILITY = 0.5
"""Mobility weight of Hus's default evaluator (a first guess; see the module docstring)."""


def hus_default(game: Game) -> HusEvaluator:
    return HusEvaluator("default", mobility=HUS_MOBILITY)


def seeds_only(game: Game) -> HusEvaluator:
    return HusEvaluator("seeds")
