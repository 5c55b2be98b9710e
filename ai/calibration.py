"""What a search's score means to a player: the final seed margin to expect, or the chances of each outcome.

The engines score positions on their own scale (``ai.evaluators``): a proven result is ``WIN + margin``, any
other score is a heuristic with no unit.  A player is told values in the game's own units instead: for the
sowing games the final margin of seeds the side to move can expect ("about 3 seeds ahead"), exact when proven;
for Magnetic Cave, which has no seeds, the chances of a win, a draw and a loss ("White is winning").

``expect`` is the one mapping from a score to those units.  Its curves are fitted, per game and stage of the
game, on positions whose exact value is known (endgame tables and the prover for Kalah and Oware, the endgame
solver and game results for the cave, game results for Hus) by ``bench/bench_calibration.py``, which publishes
how good the fit is in BENCHMARKS.md.  Until a game has fitted curves, its heuristic score is taken as seeds
(the sowing games' evaluators count in seeds) and the cave's chances come from a logistic of its threat scale.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ai.evaluators import HEURISTIC_BOUND, as_margin
from rules import Game, State


@dataclass(frozen=True)
class Expectation:
    """A position's value for its side to move, in what a player can expect at the end of the game."""

    margin: float | None
    """The final seed margin to expect (positive: ahead); exact when ``exact``; None for a game without seeds."""
    win: float
    """The chance of winning, 0..1 (1 or 0 when proven)."""
    draw: float
    loss: float
    proven: bool
    """The score was a proven result (a win, a loss or a draw whose margin may be only a bound)."""
    exact: bool
    """Proven and the margin is exact, not a bound."""


CAVE_SCALE = 200.0
"""Magnetic Cave, before fitting: a threat score of this size reads as about a three-in-four chance."""


def has_seeds(game: Game) -> bool:
    """Whether the game's results are seed margins (the sowing games), rather than only win, draw or loss."""
    return game.name != "magnetic-cave"


def expect(game: Game, state: State, score: float, proven: bool = False, exact: bool = True) -> Expectation:
    """What ``score`` (the engines' scale, from the side to move's view of ``state``) means to a player.

    ``proven``: the score is an exact result (tables, a solver, a finished game) even when inside the heuristic
    bound (a proven draw scores 0); a score beyond ``HEURISTIC_BOUND`` is always a proven result.  ``exact``
    False: a proven win or loss whose margin is only a bound."""
    settled = proven or abs(score) >= HEURISTIC_BOUND
    seeds = has_seeds(game)
    if settled:
        margin = as_margin(score)
        win, loss = float(margin > 0), float(margin < 0)
        return Expectation(margin if seeds else None, win, 1.0 - win - loss, loss, True, exact)
    if seeds:
        win, draw, loss = _chances(score, scale=4.0, draw_width=0.5)
        return Expectation(score, win, draw, loss, False, False)
    win, draw, loss = _chances(score, scale=CAVE_SCALE / math.log(3.0), draw_width=0.05)
    return Expectation(None, win, draw, loss, False, False)


def _chances(score: float, scale: float, draw_width: float) -> tuple[float, float, float]:
    """Win, draw and loss chances from a logistic of ``score``: the draw's share is largest at 0."""
    win_or_half = 1.0 / (1.0 + math.exp(-score / scale))
    draw = draw_width * 4.0 * win_or_half * (1.0 - win_or_half)
    return win_or_half - draw / 2.0, draw, 1.0 - win_or_half - draw / 2.0
