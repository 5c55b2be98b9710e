"""A value in the game's own units, as every player's screen says it (``game.analysis`` puts them on each move of ``ai.analysis``).

Every value goes through ``ai.calibration.expect``, the one mapping from an engine's score to what a player can
expect at the end of the game.  The sowing games speak in seeds of final margin, from the side to move:
``about 3 seeds ahead``, ``about 1 seed behind``, ``about even``; a proven value says so: ``wins by 4,
proven``, ``draws, proven`` (``wins by 4 or more, proven`` when the margin is only a bound).  Magnetic Cave has
no seeds: it speaks in outcomes, ``winning``, ``slightly ahead``, ``even``, ``a forced win`` (``in 7`` where a
solver gives the distance), and with the side named ``White is winning``, ``Black is slightly better``.  Never
a raw score, and never "better" or "worse" on an absolute scale: moves are compared with the best move
(``compare_words``): ``best``, ``as good as the best``, ``a little worse than pit 3 (about 1 seed)``.  Equal
values read the same, and the best move is never called worse.

How deep a search went ("18 plies") is an engine developer's detail: ``value_words`` adds it only when asked
(the Details setting); ``how_words`` says it for the console's ``analyse``.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Protocol, Sequence

from ai.calibration import PLACEHOLDER, Expectation, expect
from ai.evaluators import HEURISTIC_BOUND
from game import catalogue
from rules import Game

if TYPE_CHECKING:
    from ai.analysis import MoveValue

UNSCORED = "..."
"""The words of a move not scored yet."""

EVEN_SEEDS = 0.5
"""An expected margin smaller than this (in seeds) reads ``about even``; margins are said in whole seeds."""
CAVE_GRADES = ((0.15, "even", "even"), (0.4, "slightly ahead", "slightly better"), (0.7, "ahead", "better"))
"""Magnetic Cave's outlook by the chance of winning less the chance of losing: below each bound its words from
the side to move (``slightly ahead``) and said of a named side (``Black is slightly better``); beyond the last,
``winning``."""
SCORE_LIMIT = 1000.0
"""Heuristic scores beyond this are read as this (no estimate is larger; the calibration's logistic overflows
far beyond it)."""
CAVE_SAME = 0.08
"""Two cave values whose (win - loss) differ by less than this are as good as each other."""


class Valued(Protocol):
    """A move's value as ``compare_words`` reads it (``ai.analysis.MoveValue`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def score(self) -> float: ...

    @property
    def proven(self) -> bool: ...

    @property
    def exact(self) -> bool: ...


def seeds(count: int, unit: str = "seed") -> str:
    """``1 seed``, ``3 seeds`` (another game's unit: ``3 beans``)."""
    return f"{count} {unit}{'' if count == 1 else 's'}"


def unit_of(game: Game) -> str:
    """What the game's results count (its registration's ``Words.unit``: ``seed``), or "" for a game whose results
    are only a win, a draw or a loss (the cave): it is then spoken of in outcomes."""
    return catalogue.registration(game).words.unit


def has_seeds(game: Game) -> bool:
    """Whether values of ``game`` are said as a margin (seeds) rather than as outcomes."""
    return bool(unit_of(game))


def whole(count: float) -> int:
    """A count of seeds to the nearest whole one, halves up (2.5 -> 3: not Python's round-half-even)."""
    return math.floor(count + 0.5)


def expectation_of(game: Game, score: float, proven: bool, exact: bool = True, state: Any = None) -> Expectation:
    """``ai.calibration.expect`` for a score (``state``: the position it is from, when the caller has it).  A
    heuristic score is clamped to ``SCORE_LIMIT`` first (far past any real estimate; the logistic of a larger one
    overflows)."""
    if not proven and abs(score) < HEURISTIC_BOUND:
        score = max(-SCORE_LIMIT, min(SCORE_LIMIT, score))
    if state is None:  # the fitted curves read the position (its stage, the seeds left): without it, the plain reading
        return expect(game, state, score, proven, exact, calibration=PLACEHOLDER)
    return expect(game, state, score, proven, exact)


def value_words(game: Game, score: float, proven: bool, depth: int, exact: bool = True, state: Any = None,
                details: bool = False, expectation: Expectation | None = None) -> str:
    """A move's value as a player reads it: ``wins by 6, proven``, ``loses by 2, proven``, ``draws, proven``,
    ``about 3 seeds ahead``; the cave's ``wins, proven``, ``slightly ahead``.  ``details``: the search's depth
    after it for engine developers (``about 3 seeds ahead (18 plies)``).  ``expectation``: the analysis's own
    reading of the score (``MoveValue.expectation``, which the position's proven value may cap), when it has one."""
    phrase = value_phrase(game, score, proven, exact, state, expectation=expectation)
    if phrase == UNSCORED:
        return phrase
    if is_settled_phrase(game, score, proven, exact):
        return f"{phrase}, proven"
    return f"{phrase} ({plies(depth)})" if details and depth else phrase


def value_phrase(game: Game, score: float, proven: bool, exact: bool = True, state: Any = None,
                 distance: int | None = None, expectation: Expectation | None = None) -> str:
    """A value from the side to move, without ``proven``: ``wins by 6``, ``about 3 seeds ahead``, ``winning``;
    ``distance``: the moves to a proven cave result where a solver gives it (``wins in 7``)."""
    if math.isnan(score):
        return UNSCORED
    if expectation is None:
        expectation = expectation_of(game, score, proven, exact, state)
    return expectation_phrase(expectation, distance, unit_of(game))


def expectation_phrase(expected: Expectation, distance: int | None = None, unit: str = "seed") -> str:
    """What a player can expect, from the side to move: seeds (``unit``) when the game has them, else an outcome."""
    within = f" in {distance}" if distance else ""
    if not unit:
        expected = Expectation(None, expected.win, expected.draw, expected.loss, expected.proven, expected.exact)
    if expected.proven:
        if expected.margin is None:  # the cave: a result, no margin
            return ("wins" if expected.win else "loses" if expected.loss else "draws") + within
        margin = whole(abs(expected.margin))
        more = "" if expected.exact else " or more"
        if expected.margin > 0:
            return f"wins by {margin}{more}"
        if expected.margin < 0:
            return f"loses by {margin}{more}"
        return "draws"
    if expected.margin is not None:
        if abs(expected.margin) < EVEN_SEEDS:
            return "about even"
        margin = max(1, whole(abs(expected.margin)))
        return f"about {seeds(margin, unit)} {'ahead' if expected.margin > 0 else 'behind'}"
    return cave_grade(expected.win - expected.loss)


def cave_grade(lead: float, named: bool = False) -> str:
    """The cave's outlook for a lead of ``lead`` (win chance less loss chance, -1..1): ``even``, ``slightly
    ahead``, ``ahead``, ``winning`` (``behind``, ``losing`` below 0); ``named``: the words said of a side
    (``slightly better``, ``better``, ``winning``), for the side ahead only."""
    size = abs(lead)
    for bound, mover_words, side_words in CAVE_GRADES:
        if size < bound:
            if named or mover_words == "even":
                return side_words
            return mover_words if lead > 0 else mover_words.replace("ahead", "behind")
    return "winning" if lead > 0 or named else "losing"


def side_words(game: Game, score: float, proven: bool, exact: bool = True, state: Any = None,
               distance: int | None = None) -> str:
    """A value (South's or Black's view) said of the side it favours: ``North wins by 3, proven``, ``South is
    about 2 seeds ahead``, ``White is winning``, ``Black is slightly better``, ``a draw, proven``, ``even``."""
    if math.isnan(score):
        return UNSCORED
    if state is not None and not abs(score) >= HEURISTIC_BOUND and not proven:
        mover = game.to_move(state)  # the calibration reads a score from the side to move of ``state``
        seen = expectation_of(game, score if mover == 0 else -score, False, exact, state)
        south = seen if mover == 0 else Expectation(None if seen.margin is None else -seen.margin, seen.loss,
                                                    seen.draw, seen.win, False, False)
        ahead = (south.margin if south.margin is not None and has_seeds(game) else south.win - south.loss) >= 0
        expected = south if ahead else Expectation(None if south.margin is None else -south.margin, south.loss,
                                                   south.draw, south.win, False, False)
        side = game.player_names[0 if ahead else 1]
    else:
        side = game.player_names[0 if score >= 0 else 1]
        expected = expectation_of(game, abs(score), proven, exact, None)  # from the side it favours
    if not has_seeds(game):
        expected = Expectation(None, expected.win, expected.draw, expected.loss, expected.proven, expected.exact)
    phrase = expectation_phrase(expected, distance, unit_of(game))
    if expected.proven:
        if phrase == "draws":
            return "a draw, proven"
        return (f"{side} has a forced win{f' in {distance}' if distance else ''}"
                if expected.margin is None and expected.win else f"{side} {phrase}, proven")
    if expected.margin is None:
        grade = cave_grade(expected.win - expected.loss, named=True)
        return "even" if grade == "even" else f"{side} is {grade}"
    return "even" if phrase == "about even" else f"{side} is {phrase}"


def is_settled_phrase(game: Game, score: float, proven: bool, exact: bool) -> bool:
    """Whether a value reads as a result (win, loss, draw) rather than an estimate."""
    return abs(score) >= HEURISTIC_BOUND or (proven and exact)


def plies(depth: int) -> str:
    """A search's depth, for engine developers only (the console, the Details setting)."""
    return f"{depth} ply" if depth == 1 else f"{depth} plies"


HOW = {"end": "the move ends the game", "table": "endgame tables", "proof": "opening proof", "solver": "endgame solver",
       "prover": "exact search", "search": "searched to the end"}


def how_words(value: MoveValue) -> str:
    """How a move's value is known, for the console's ``analyse`` (an engine developer's view): ``proven
    (endgame tables)``, ``searched 14 plies``, ``proven win (14 plies; the margin may be larger)``."""
    if math.isnan(value.score):
        return "not reached"
    if value.proven and value.exact:
        return f"proven ({HOW.get(value.source, value.source or 'exact')})"
    if value.proven:
        return f"proven ({plies(value.depth)}; the margin may be larger)"
    return f"searched {plies(value.depth)}"


def cave_words(score: float, small: float = 10.0, slight: float = 50.0, clear: float = 200.0) -> str:
    """A cave score (not proven) from the side to move in words, through the calibration: ``even``, ``slightly
    ahead``, ``winning``.  (The grading arguments are kept for old callers; the calibration decides.)"""
    from rules import get_game

    return value_phrase(get_game("magnetic-cave"), score, False)


# -- moves against the best ------------------------------------------------------------------------------------
def _lead(game: Game, value: Valued, state: Any = None) -> float:
    """A value as one comparable number: the expected margin in seeds (the sowing games), else win - loss."""
    expected = expectation_of(game, value.score, value.proven, value.exact, state)
    if expected.margin is not None and has_seeds(game):
        return expected.margin
    return expected.win - expected.loss


def same_value(game: Game, first: Valued, second: Valued, state: Any = None) -> bool:
    """Whether two moves' values are the same as a player reads them (their words are the same, or both are
    estimates within half a seed, or for the cave within ``CAVE_SAME``)."""
    if math.isnan(first.score) or math.isnan(second.score):
        return False
    words = (value_phrase(game, first.score, first.proven, first.exact, state),
             value_phrase(game, second.score, second.proven, second.exact, state))
    if words[0] == words[1]:
        return True
    settled = [is_settled_phrase(game, value.score, value.proven, value.exact) for value in (first, second)]
    if any(settled):
        return False
    gap = abs(_lead(game, first, state) - _lead(game, second, state))
    return gap < (EVEN_SEEDS if has_seeds(game) else CAVE_SAME)


def compare_words(game: Game, best: Valued, other: Valued, state: Any = None) -> str:
    """``other`` against the best move ``best``: ``best`` (it is the best), ``as good as the best``, ``a little
    worse than pit 3 (about 1 seed)``, ``worse than pit 3 (about 4 seeds)``, ``loses where pit 3 wins``; for the
    cave ``a little worse than D4``, ``much worse than D4``.  The best move is never called worse."""
    if other is best or other.name == best.name:
        return "best"
    if math.isnan(other.score):
        return UNSCORED
    if same_value(game, best, other, state):
        return "as good as the best"
    first = expectation_of(game, best.score, best.proven, best.exact, state)
    second = expectation_of(game, other.score, other.proven, other.exact, state)
    if first.proven and second.proven and (first.win, first.draw) != (second.win, second.draw):
        result = "wins" if first.win else "draws"
        return f"{'loses' if second.loss else 'draws'} where {best.name} {result}"
    gap = _lead(game, best, state) - _lead(game, other, state)
    if gap <= 0:
        return "as good as the best"  # never worse than itself: the best was ranked first
    if has_seeds(game):
        grade = "a little worse" if gap < 2.5 else "worse" if gap < 6.5 else "much worse"
        proven = ", proven" if first.proven and second.proven and first.exact and second.exact else ""
        about = "" if proven else "about "
        return f"{grade} than {best.name} ({about}{seeds(max(1, whole(gap)), unit_of(game))}{proven})"
    grade = "a little worse" if gap < 0.3 else "worse" if gap < 0.7 else "much worse"
    return f"{grade} than {best.name}"


def row_words(game: Game, rows: Sequence[Valued], index: int, state: Any = None, details: bool = False) -> str:
    """The analysis panel's words for move ``index`` of ``rows`` (best first), without ``proven`` (the panel
    marks it): the sowing games' value in seeds for every move (equal values read the same), the cave's outcome
    for the best move and the others against it (``as good as the best``, ``a little worse than D4``)."""
    row = rows[index]
    if math.isnan(row.score):
        return UNSCORED
    if has_seeds(game) or index == 0 or is_settled_phrase(game, row.score, row.proven, row.exact):
        phrase = value_phrase(game, row.score, row.proven, row.exact, state,
                              expectation=getattr(row, "expectation", None))
        depth = getattr(row, "depth", 0)
        if details and depth and not is_settled_phrase(game, row.score, row.proven, row.exact):
            phrase += f" ({plies(depth)})"
        return phrase
    return compare_words(game, rows[0], row, state)
