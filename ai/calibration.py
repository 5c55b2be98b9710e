"""What a search's score means to a player: the final seed margin to expect, or the chances of each outcome.

The engines score positions on their own scale (``ai.evaluators``): a proven result is ``WIN + margin``, any
other score is a heuristic with no unit.  A player is told values in the game's own units instead: for the
sowing games the final margin of seeds the side to move can expect ("about 3 seeds ahead"), exact when proven;
for Magnetic Cave, which has no seeds, the chances of a win, a draw and a loss ("White is winning").

``expect`` is the one mapping from a score to those units.  Its curves are fitted per game and stage of the
game (``stage_measure``: seeds on the board for Kalah and Oware, turns for Hus, empty cells for the cave) on
positions whose exact value is known, by ``bench/bench_calibration.py --fit``, which writes them to the shipped
``ai/data/calibration.json`` and publishes how good they are in BENCHMARKS.md:

- a sowing game's stage holds a smooth curve through 0 (``level * tanh(slope * score / level)``, or the straight
  line ``slope * score``; the slope within ``MIN_SLOPE..MAX_SLOPE``) stored as piecewise-linear knots, straight
  beyond its end knots with the slope ``tail``, and the spread of the true margins around it; the margin is
  then kept within what the seeds still in play allow, and the chances of a win, draw and loss are those of a
  normal spread around it;
- the cave's stage holds an ordered logistic: ``z = (score - offset) / scale``, win ``σ(z - draw)``, loss
  ``σ(-z - draw)``, a draw the rest (the fit keeps the offset 0).

A proven score passes through unchanged.  A game without fitted curves (or a damaged file: one message on
standard error, never a traceback) falls back to the placeholder: the heuristic taken as seeds (the sowing
games' evaluators count in seeds), the cave's chances from a logistic of its threat scale.
"""
from __future__ import annotations

import json
import math
import sys
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ai.evaluators import HEURISTIC_BOUND, as_margin
from guarded import files
from rules import Game, State

DATA_FILE = Path(__file__).resolve().parent / "data" / "calibration.json"
FORMAT = 1
FILE_LIMIT = 256 * 1024
"""The largest calibration file read (the fitted one is a few kB)."""
MEASURES = ("board seeds", "turns", "empty cells")
MIN_SLOPE = 0.3
MAX_SLOPE = 3.0
"""The band a fitted margin curve's slope stays in (seeds per unit of score): no step where two nearly equal
scores read far apart, no flat stretch where they read the same."""


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


# -- the stage of a game -------------------------------------------------------------------------------------------
def measure_name(game: Game) -> str:
    """How a game's stages are counted: ``empty cells`` (the cave), ``turns`` (Hus, whose seeds all stay on
    the board) or ``board seeds`` (the sowing games with stores)."""
    if game.name == "magnetic-cave":
        return "empty cells"
    if game.name == "hus":
        return "turns"
    return "board seeds"


def stage_measure(game: Game, state: State) -> int:
    """The stage of ``state`` as ``measure_name`` counts it (it falls as the game goes on, except turns)."""
    name = measure_name(game)
    if name == "empty cells":
        occupied = int(getattr(state, "black", 0)) | int(getattr(state, "white", 0))
        return 64 - occupied.bit_count()
    if name == "turns":
        return int(getattr(state, "turn", 0))
    return int(sum(getattr(state, "pits", ())))


def margin_bounds(game: Game, state: State) -> tuple[float, float]:
    """The least and most final margin the side to move can still reach: the stores' difference, give or take
    every seed on the board (Kalah, Oware), or all the seeds (Hus)."""
    pits = tuple(getattr(state, "pits", ()))
    stores = getattr(state, "stores", None)
    board = float(sum(pits))
    if not stores:
        return -board, board
    mover = game.to_move(state)
    lead = float(stores[mover] - stores[1 - mover])
    return lead - board, lead + board


# -- the fitted curves ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MarginStage:
    """One stage of a sowing game: positions with a stage measure up to ``upto``."""

    upto: int
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    tail: float
    spread: float

    def margin(self, score: float) -> float:
        xs, ys = self.xs, self.ys
        if score <= xs[0]:
            return ys[0] + self.tail * (score - xs[0])
        if score >= xs[-1]:
            return ys[-1] + self.tail * (score - xs[-1])
        index = bisect_right(xs, score) - 1
        span = xs[index + 1] - xs[index]
        share = 0.0 if span <= 0 else (score - xs[index]) / span
        return ys[index] + share * (ys[index + 1] - ys[index])


@dataclass(frozen=True)
class ChanceStage:
    """One stage of the cave: an ordered logistic of the score."""

    upto: int
    offset: float
    scale: float
    draw: float

    def chances(self, score: float) -> tuple[float, float, float]:
        z = (score - self.offset) / self.scale
        win, loss = _logistic(z - self.draw), _logistic(-z - self.draw)
        return win, max(0.0, 1.0 - win - loss), loss


@dataclass(frozen=True)
class GameCurves:
    """A game's fitted stages, ordered by ``upto``; the last one also serves anything beyond it."""

    measure: str
    stages: tuple[Any, ...]
    draw_width: float = 0.5
    """A margin within this of 0 is a draw (1 for Kalah(6,4), whose 48 seeds make every margin even)."""

    def stage(self, value: int) -> Any:
        index = bisect_left([stage.upto for stage in self.stages], value)
        return self.stages[min(index, len(self.stages) - 1)]


@dataclass(frozen=True)
class Calibration:
    """The fitted curves of every calibrated game, keyed by the game's spec."""

    games: dict[str, GameCurves]

    def for_game(self, game: Game) -> GameCurves | None:
        """The curves of ``game``'s exact variant, else of another variant of the same game (same evaluator
        scale and stages), else None."""
        found = self.games.get(getattr(game, "spec", game.name))
        if found is None:
            found = next((curves for spec, curves in self.games.items() if spec.split(":")[0] == game.name), None)
        return found


PLACEHOLDER = Calibration({})


class CalibrationDamaged(ValueError):
    """The calibration file cannot be used: the message names what is wrong."""


def parse(data: Any) -> Calibration:
    """The curves of a calibration file's parsed JSON; CalibrationDamaged naming the first problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), dict):
        raise CalibrationDamaged(f"needs an object with \"format\": {FORMAT} and \"games\"")
    games = {}
    for spec, raw in data["games"].items():
        where = f"game {files.quote(spec)}"
        if not isinstance(raw, dict) or raw.get("measure") not in MEASURES:
            raise CalibrationDamaged(f"{where}: needs a \"measure\", one of {', '.join(MEASURES)}")
        stages = raw.get("stages")
        if not isinstance(stages, list) or not stages:
            raise CalibrationDamaged(f"{where}: needs a list of \"stages\"")
        built = tuple(_stage(stage, f"{where}, stage {index + 1}") for index, stage in enumerate(stages))
        if any(later.upto <= earlier.upto for earlier, later in zip(built, built[1:])):
            raise CalibrationDamaged(f"{where}: the stages' \"upto\" must rise")
        if len({type(stage) for stage in built}) != 1:
            raise CalibrationDamaged(f"{where}: mixes margin and chance stages")
        draw_width = _number(raw.get("draw_width", 0.5), f"{where}: draw_width", 0.0, 10.0)
        games[str(spec)] = GameCurves(str(raw["measure"]), built, draw_width)
    return Calibration(games)


def _number(value: Any, where: str, low: float = -1e6, high: float = 1e6) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (low <= value <= high):
        raise CalibrationDamaged(f"{where} must be a number {low:g}..{high:g}, not {files.quote(value)}")
    return float(value)


def _stage(raw: Any, where: str) -> MarginStage | ChanceStage:
    if not isinstance(raw, dict):
        raise CalibrationDamaged(f"{where}: needs an object")
    upto = _number(raw.get("upto"), f"{where}: upto", 0, 10_000)
    if "knots" in raw:
        knots = raw["knots"]
        if not isinstance(knots, list) or not 2 <= len(knots) <= 64 or not all(
                isinstance(knot, list) and len(knot) == 2 for knot in knots):
            raise CalibrationDamaged(f"{where}: knots must be 2..64 pairs [score, margin]")
        xs = tuple(_number(knot[0], f"{where}: a knot's score", -HEURISTIC_BOUND, HEURISTIC_BOUND) for knot in knots)
        ys = tuple(_number(knot[1], f"{where}: a knot's margin", -1000, 1000) for knot in knots)
        if any(b <= a for a, b in zip(xs, xs[1:])) or any(b < a for a, b in zip(ys, ys[1:])):
            raise CalibrationDamaged(f"{where}: knots must rise in score and never fall in margin")
        return MarginStage(int(upto), xs, ys, _number(raw.get("tail", 1.0), f"{where}: tail", 0.0, 10.0),
                           _number(raw.get("spread"), f"{where}: spread", 0.01, 1000))
    return ChanceStage(int(upto), _number(raw.get("offset"), f"{where}: offset"),
                       _number(raw.get("scale"), f"{where}: scale", 1e-3, 1e6),
                       _number(raw.get("draw"), f"{where}: draw", 0.0, 50.0))


_problem: list[str] = []


def load(path: Path | None = None) -> tuple[Calibration, str | None]:
    """The calibration in ``path`` and None, or the placeholder and the one-line reason it could not be used
    (missing, unreadable or not a valid calibration).  ``path``: the shipped file by default."""
    path = DATA_FILE if path is None else path
    try:
        data = json.loads(files.read_text(path, FILE_LIMIT), parse_constant=_refuse_constant)
        return parse(data), None
    except FileNotFoundError:
        error: Exception = CalibrationDamaged("missing")
    except (OSError, ValueError, TypeError, RecursionError) as problem:  # FileProblem, JSONDecodeError, Damaged
        error = problem
    return PLACEHOLDER, (f"{path}: {error}; values are shown uncalibrated (this file comes with StoneCave: undo "
                         "the change made to it, reinstall, or refit: python bench/bench_calibration.py --fit)")


def _refuse_constant(name: str) -> float:
    raise CalibrationDamaged(f"{name} is not a number a calibration can hold")


@lru_cache(maxsize=1)
def shipped() -> Calibration:
    """The shipped calibration, read once; a damaged file is said once on standard error."""
    calibration, problem = load()
    if problem is not None:
        _problem[:] = [problem]
        print(f"stonecave: {problem}", file=sys.stderr)
    return calibration


def problem() -> str | None:
    """Why the shipped calibration is not in use (after ``shipped`` read it), or None."""
    shipped()
    return _problem[0] if _problem else None


def reload() -> None:
    """Forget the shipped calibration read (tests that change the file)."""
    shipped.cache_clear()
    _problem.clear()


# -- the mapping -----------------------------------------------------------------------------------------------------
def expect(game: Game, state: State, score: float, proven: bool = False, exact: bool = True,
           calibration: Calibration | None = None) -> Expectation:
    """What ``score`` (the engines' scale, from the side to move's view of ``state``) means to a player.

    ``proven``: the score is an exact result (tables, a solver, a finished game) even when inside the heuristic
    bound (a proven draw scores 0); a score beyond ``HEURISTIC_BOUND`` is always a proven result.  ``exact``
    False: a proven win or loss whose margin is only a bound.  ``calibration``: other curves than the shipped
    ones (``PLACEHOLDER`` for the uncalibrated reading)."""
    settled = proven or abs(score) >= HEURISTIC_BOUND
    seeds = has_seeds(game)
    if settled:
        margin = as_margin(score)
        win, loss = float(margin > 0), float(margin < 0)
        return Expectation(margin if seeds else None, win, 1.0 - win - loss, loss, True, exact)
    curves = (shipped() if calibration is None else calibration).for_game(game)
    if curves is not None and curves.measure != measure_name(game):
        curves = None
    stage = None if curves is None else curves.stage(stage_measure(game, state))
    if seeds:
        if isinstance(stage, MarginStage) and curves is not None:
            low, high = margin_bounds(game, state)
            margin = min(high, max(low, stage.margin(score)))
            win, draw, loss = _normal_chances(margin, stage.spread, curves.draw_width)
            return Expectation(margin, win, draw, loss, False, False)
        win, draw, loss = _chances(score, scale=4.0, draw_width=0.5)
        return Expectation(score, win, draw, loss, False, False)
    if isinstance(stage, ChanceStage):
        win, draw, loss = stage.chances(score)
        return Expectation(None, win, draw, loss, False, False)
    win, draw, loss = _chances(score, scale=CAVE_SCALE / math.log(3.0), draw_width=0.05)
    return Expectation(None, win, draw, loss, False, False)


def _logistic(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _normal_chances(margin: float, spread: float, draw_width: float) -> tuple[float, float, float]:
    """Win, draw and loss chances of a final margin spread normally around ``margin``."""
    def below(x: float) -> float:
        return 0.5 * math.erfc(-(x - margin) / (spread * math.sqrt(2.0)))

    loss = below(-draw_width)
    win = 1.0 - below(draw_width)
    return win, max(0.0, 1.0 - win - loss), loss


def _chances(score: float, scale: float, draw_width: float) -> tuple[float, float, float]:
    """Win, draw and loss chances from a logistic of ``score``: the draw's share is largest at 0."""
    win_or_half = _logistic(score / scale)
    draw = draw_width * 4.0 * win_or_half * (1.0 - win_or_half)
    return win_or_half - draw / 2.0, draw, 1.0 - win_or_half - draw / 2.0
