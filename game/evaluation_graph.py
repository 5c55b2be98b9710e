"""The evaluation graph's drawing scale: ``graph_value(game, score, proven)`` puts a position's value (South's /
Black's view, the engines' scale) in -1..1 for the analysis panel to draw.

The values themselves are the analysis's (``ai.analysis``: ``position_value``, ``EvaluationHistory`` and the
best move of an ``Analysis``); this module only says how they are drawn, which is the game's words' business
(``Words.graph_half``, ``Words.has_margin``).
"""
from __future__ import annotations

import math

from ai.evaluators import HEURISTIC_BOUND, as_margin
from game.explain import words_of
from rules import Game


def graph_value(game: Game, score: float, proven: bool) -> float:
    """A value (South's / Black's view) squeezed into -1..1 for drawing: a score ``x`` as ``x / (|x| + half)``
    (half: 4 seeds, or 200 for the cave).  A proven result of a game with a margin plots its final margin on the
    same scale (a win by 14 above a win by 2: the panel draws it as a diamond); in the cave, whose results have no
    margin, a proven win is +1 and a loss -1.  A proven draw is 0."""
    if math.isnan(score) or (proven and score == 0):
        return 0.0
    words = words_of(game)
    if abs(score) >= HEURISTIC_BOUND:
        if not words.has_margin:
            return 1.0 if score > 0 else -1.0
        score = as_margin(score)
    return score / (abs(score) + words.graph_half)
