"""Evaluators for the two-row sowing games with stores (Kalah, and Oware's score houses).

Both read docs/rules/README.md's canonical view of a state: ``state.pits`` (South's pits then North's, each side in its
owner's numbering) and ``state.stores`` (south, north), plus ``game.to_move(state)``.

The score, from the side to move::

    (own store - opponent's store)
    + side     * (seeds on own side - seeds on the opponent's side)
    + mobility * (own non-empty pits - opponent's non-empty pits)
    + extra_turns * (own pits whose seeds end in the own store - the opponent's such pits)
    + endgame * (seeds on own side - seeds on the opponent's side) * (seeds in stores) / (all seeds)

The last two terms are Kalah's, each skipped when its weight is 0.  A pit of ``s`` seeds at ``i``, counted in
its owner's numbering, ends in its store when ``(i + s) % (2n + 1) == n`` (an extra turn).  The endgame term
gives the seeds on each side more weight as the stores fill: near the end, one side's emptying gives each
player the seeds on their own side.

The side weight of ``kalah_default`` comes from the tuning tournament in ``tools/tune_eval.py`` (figures
in BENCHMARKS.md, "Evaluator weights"); its mobility weight, 1.0 instead of the tournament's 0.5, from SPRTs of the
compiled search (docs/engines.md, "Evaluators").
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import Game
from rules.sowing import TwoRowPosition


@dataclass(frozen=True)
class SowingEvaluator:
    """Store difference plus weighted seeds-on-side and mobility differences, from the side to move."""

    name: str
    side: float = 0.0
    """Weight of the difference in seeds on each side."""
    mobility: float = 0.0
    """Weight of the difference in non-empty pits (moves available)."""
    extra_turns: float = 0.0
    """Weight of the difference in pits whose sowing ends in the owner's store (Kalah's extra turns)."""
    endgame: float = 0.0
    """Weight of the seeds-on-side difference scaled by the share of all seeds already in the stores."""

    def evaluate(self, game: Game, state: TwoRowPosition) -> float:
        pits = state.pits
        n = len(pits) // 2
        south_store, north_store = state.stores
        south = pits[:n]
        north = pits[n:]
        if game.to_move(state) == 0:
            own, other, store = south, north, south_store - north_store
        else:
            own, other, store = north, south, north_store - south_store
        side = sum(own) - sum(other)
        mobility = (n - own.count(0)) - (n - other.count(0))
        value = store + self.side * side + self.mobility * mobility
        if self.extra_turns:
            cycle = 2 * n + 1
            extra = (sum(1 for i, seeds in enumerate(own) if seeds and (i + seeds) % cycle == n)
                     - sum(1 for i, seeds in enumerate(other) if seeds and (i + seeds) % cycle == n))
            value += self.extra_turns * extra
        if self.endgame:
            total = sum(pits) + south_store + north_store
            value += self.endgame * (side * (south_store + north_store)) / total
        return value


KALAH_WEIGHTS = (0.25, 1.0)
"""(side, mobility) for Kalah's default evaluator: side tuned by tournament at depth 6, mobility by SPRT at
0.05-0.3 s a move (see the module docstring)."""


def kalah_default(game: Game) -> SowingEvaluator:
    """Kalah's default: store difference plus seeds-on-side and mobility terms."""
    side, mobility = KALAH_WEIGHTS
    return SowingEvaluator("default", side=side, mobility=mobility)


def store_only(game: Game) -> SowingEvaluator:
    """The plain store (captured seeds) difference."""
    return SowingEvaluator("store")
