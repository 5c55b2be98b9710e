"""A move's value in words, as the analysis panel and the console's ``analyse`` show it (``game.analysis``
puts them on each move of ``ai.analysis``): ``wins by 6 (proven)``, ``loses by 2 (proven)``, ``draws (proven)``, ``about +2.5 (18
plies)`` for the sowing games (seeds), and for Magnetic Cave, whose scores have no unit, ``wins (proven)`` or
``better (8 plies)``.  Never a raw internal score.  Scores are in the engines' scale (``ai.evaluators``: a
proven win is ``WIN + margin``), from the side to move's view.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ai.evaluators import HEURISTIC_BOUND, as_margin
from game.explain import words_of as _words_of
from rules import Game

if TYPE_CHECKING:
    from ai.analysis import MoveValue

UNSCORED = "..."
"""The words of a move not scored yet."""


def value_words(game: Game, score: float, proven: bool, depth: int, exact: bool = True) -> str:
    """A move's value as a player reads it: ``wins by 6 (proven)``, ``loses by 2 (proven)``, ``draws (proven)``,
    ``about +2.5 (18 plies)``; for Magnetic Cave, whose scores have no unit, ``wins (proven)`` or ``better (8
    plies)``.  ``exact`` False: a proven win or loss whose margin is only a bound (``wins by 6 or more``)."""
    phrase = value_phrase(game, score, proven, exact)
    if phrase == UNSCORED:
        return phrase
    if is_settled_phrase(game, score, proven, exact):
        return f"{phrase} (proven)"
    return f"{phrase} ({plies(depth)})"


def value_phrase(game: Game, score: float, proven: bool, exact: bool = True) -> str:
    """``value_words`` without its parenthesis: ``wins by 6``, ``about +2.5``, ``better``."""
    if math.isnan(score):
        return UNSCORED
    words = _words_of(game)
    unitless = not words.has_margin
    if is_settled_phrase(game, score, proven, exact):
        margin = round(abs(as_margin(score)))
        more = "" if exact or unitless else " or more"
        if score > 0:
            return "wins" if unitless else f"wins by {margin}{more}"
        if score < 0:
            return "loses" if unitless else f"loses by {margin}{more}"
        return "draws"
    if unitless:
        return cave_words(score, words.small, words.slight, words.clear)
    shown = round(score, 1) + 0.0  # + 0.0: no "-0"
    return f"about {shown:+g}" if shown else "about 0"


def is_settled_phrase(game: Game, score: float, proven: bool, exact: bool) -> bool:
    """Whether a value reads as a result (win, loss, draw) rather than a search's estimate."""
    return abs(score) >= HEURISTIC_BOUND or (proven and exact)


def plies(depth: int) -> str:
    return f"{depth} ply" if depth == 1 else f"{depth} plies"


HOW = {"end": "the move ends the game", "table": "endgame tables", "solver": "endgame solver",
       "prover": "exact search", "search": "searched to the end"}


def how_words(value: MoveValue) -> str:
    """How a move's value is known, in words: ``proven (endgame tables)``, ``searched 14 plies``, ``proven
    win (14 plies; the margin may be larger)``, ``not reached``."""
    if math.isnan(value.score):
        return "not reached"
    if value.proven and value.exact:
        return f"proven ({HOW.get(value.source, value.source or 'exact')})"
    if value.proven:
        return f"proven ({plies(value.depth)}; the margin may be larger)"
    return f"searched {plies(value.depth)}"


def cave_words(score: float, small: float = 10.0, slight: float = 50.0, clear: float = 200.0) -> str:
    """A heuristic score without a unit in words, graded by the game's ``Words`` (``small``, ``slight``,
    ``clear``; the defaults are Magnetic Cave's threat evaluator's scale, which ``game.explain`` also uses)."""
    size = abs(score)
    if size < small:
        return "even"
    side = "better" if score > 0 else "worse"
    if size < slight:
        return f"slightly {side}"
    return side if size < clear else f"clearly {side}"
