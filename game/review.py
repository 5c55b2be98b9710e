"""A review of a finished (or saved) two-player game: every position analysed, the evaluation series, the turning
points and an accuracy figure per player.  Window-free: the review screen, ``stonecave review FILE`` and the
console's ``review`` all read it.

* ``review_game(game, states, moves, budget, cancel, progress)`` -> ``Review`` (blocking: for a background
  thread, the console or a test);
* ``ReviewRun(game, states, moves, budget)``: the same in a daemon thread; ``poll()`` (never blocks) gives the
  progress and the review so far, ``cancel()`` stops it within one position's search, ``wait`` is for consoles.

What is judged (docs/review.md states it for players):

* Each position of the game is analysed once by ``ai.analysis`` (``_Analyser.analyse``: the one place that calls
  it).  Every legal move gets a value from the
  mover's view; the *loss* of the move played is the best move's value minus its own, in the game's units
  (``ai.calibration.expect``): seeds of final margin for the sowing games, the expected score (a win 1, a draw
  1/2) for Magnetic Cave.
* A loss of at least ``SEED_GRADES`` (seeds) or ``CAVE_GRADES`` (expected score) makes the move an inaccuracy,
  a mistake or a blunder; a move that changes a proven result for the worse (a proven win into a draw or a
  loss, a draw into a loss) is at least a mistake.
* A player's *accuracy* is the mean over their judged moves (positions with two or more legal moves) of
  ``100 * max(0, 1 - loss / blunder threshold)``: 100 for the best move, 0 for a blunder or worse.

A ``Budget`` of plies (``depth``) makes a review deterministic (the same values on every machine, for tests); a
budget of seconds per position (``seconds``) is what the window and the console use.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ai.base import CancelToken, Limits
from ai.calibration import Expectation, expect, has_seeds
from ai.evaluators import final_score
from game.explain import move_name
from rules import Game, Move, State

GRADES = ("inaccuracy", "mistake", "blunder")
SEED_GRADES = (2.0, 4.0, 8.0)
"""Seeds of final margin a move must lose to be an inaccuracy, a mistake, a blunder (Kalah, Oware, Hus)."""
CAVE_GRADES = (0.10, 0.20, 0.35)
"""Magnetic Cave: expected score (a win 1, a draw 1/2, a loss 0) a move must lose for each grade."""
DEPTH_RANGE = (2, 40)
"""Plies from each position of a deterministic budget (2: each move and every answer to it)."""
SECONDS_RANGE = (0.05, 60.0)
"""Seconds per position of a timed budget."""
DEFAULT_SECONDS = 0.5
"""The window's and the console's time per position."""
MEMORY = 64.0
"""MB of transposition table for the review's search (one table serves the whole game)."""


class ReviewError(ValueError):
    """A game that cannot be reviewed, or a bad budget: the message says what would be right."""


@dataclass(frozen=True)
class Budget:
    """How hard each position is analysed: ``depth`` plies (deterministic), or ``seconds`` per position."""

    depth: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.depth is None and self.seconds is None:
            raise ReviewError("a review needs a depth in plies or a number of seconds per position")
        if self.depth is not None and not DEPTH_RANGE[0] <= self.depth <= DEPTH_RANGE[1]:
            raise ReviewError(f"a review's depth is {DEPTH_RANGE[0]} to {DEPTH_RANGE[1]} plies, not {self.depth}")
        if self.seconds is not None and not (math.isfinite(self.seconds)
                                             and SECONDS_RANGE[0] <= self.seconds <= SECONDS_RANGE[1]):
            raise ReviewError(f"a review takes {SECONDS_RANGE[0]:g} to {SECONDS_RANGE[1]:g} seconds per position, "
                              f"not {self.seconds:g}")


# -- the analysis of one position (the one adapter) ---------------------------------------------------------------
@dataclass(frozen=True)
class MoveScore:
    """One legal move's value from the mover's view, on the engines' scale."""

    move: Move
    score: float
    proven: bool
    exact: bool
    value: Expectation
    """What it means to the mover (``ai.calibration``): the seeds or chances the review compares."""


@dataclass(frozen=True)
class PositionAnalysis:
    """Every legal move of a position, best first."""

    moves: tuple[MoveScore, ...]

    @property
    def best(self) -> MoveScore:
        return self.moves[0]

    def of(self, move: Move) -> MoveScore | None:
        return next((found for found in self.moves if found.move == move), None)


class _Analyser:
    """The analysis of a position as the review needs it: one ``ai.analysis.Analyst`` (finished games, the
    endgame tables, the exact helpers, then the search) for the whole game, so its search table serves every
    position.  A budget of plies alone is its deterministic mode.  This class is the one place the
    review calls the analysis."""

    def __init__(self, game: Game) -> None:
        from ai.analysis import Analyst

        self.game = game
        self.analyst = Analyst(game, memory=MEMORY)

    def analyse(self, state: State, budget: Budget, cancel: CancelToken) -> PositionAnalysis | None:
        """Every legal move's value (None when cancelled before each move had one).  A timed analysis whose time
        ran out before every move had a value (the cave's solver can take it all) gets the shortest search on
        top, so no position of the game is left without a judgement."""
        found = self._moves(state, Limits(depth=budget.depth, time=budget.seconds), cancel)
        if found is None and budget.seconds is not None and not cancel.is_cancelled:
            found = self._moves(state, Limits(depth=DEPTH_RANGE[0]), getattr(cancel, "parent", cancel))
        if found is None or cancel.is_cancelled:
            return None
        return PositionAnalysis(found)

    def _moves(self, state: State, limits: Limits, cancel: CancelToken) -> tuple[MoveScore, ...] | None:
        moves = self.analyst.analyse(state, limits, cancel).moves
        if not moves or any(math.isnan(found.score) for found in moves):
            return None
        return tuple(MoveScore(found.move, found.score, found.proven, found.exact,
                               found.expectation or expect(self.game, state, found.score, found.proven, found.exact))
                     for found in moves)


# -- the review ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Judged:
    """One move of the game with the analysis of the position it was played from."""

    index: int
    """The position's index in the game (0: the start); the move is the game's move number ``index + 1``."""
    player: int
    move: Move
    name: str
    """As the player sees it (``pit 3``, ``D4``)."""
    best_move: Move
    best_name: str
    best: Expectation
    """The best move's value, the mover's view."""
    played: Expectation
    """The move played's value, the mover's view."""
    choices: int
    loss: float
    """Seeds of margin (sowing games) or expected score (the cave) the move gave away; 0 for the best move."""
    grade: str | None
    """``inaccuracy``, ``mistake``, ``blunder`` or None."""
    result_change: bool
    """A proven result changed for the worse (a win into a draw or a loss, a draw into a loss)."""

    @property
    def proven(self) -> bool:
        """Both values exact: the cost is exact."""
        return self.best.exact and self.played.exact


@dataclass(frozen=True)
class SeriesPoint:
    """One position's value from the first player's view (South, Black)."""

    margin: float | None
    """Seeds of final margin expected (None in the cave)."""
    points: float
    """Expected score 0..1 (a win 1, a draw 1/2)."""
    proven: bool


@dataclass(frozen=True)
class PlayerSummary:
    player: int
    name: str
    judged: int
    """Moves judged (positions with a choice)."""
    accuracy: float | None
    """0..100, None when no move was judged."""
    average_loss: float | None
    counts: tuple[int, int, int]
    """Inaccuracies, mistakes, blunders."""


@dataclass(frozen=True)
class Review:
    game: Game
    states: tuple[State, ...]
    moves: tuple[Move, ...]
    series: tuple[SeriesPoint | None, ...]
    """One per position (``len(states)``); None where not analysed (yet, or cancelled)."""
    judged: tuple[Judged | None, ...]
    """One per move; None for a move not analysed (yet, or cancelled)."""
    players: tuple[PlayerSummary, ...] = field(default=())
    complete: bool = False

    @property
    def turning_points(self) -> tuple[Judged, ...]:
        return tuple(found for found in self.judged if found is not None and found.grade is not None)


def check_game(game: Game, states: Sequence[State], moves: Sequence[Move]) -> None:
    """A game the review can read: two players, a state per move plus the start; ReviewError otherwise."""
    if game.num_players != 2:
        raise ReviewError(f"{game.title} is a puzzle for one player; a review is for the two-player games")
    if len(states) != len(moves) + 1:
        raise ReviewError(f"a game of {len(moves)} moves has {len(moves) + 1} positions, not {len(states)}")


def thresholds(game: Game) -> tuple[float, float, float]:
    return SEED_GRADES if has_seeds(game) else CAVE_GRADES


def unit_loss(game: Game, best: Expectation, played: Expectation) -> float:
    """What the move gave away, in the game's units (never below 0: an analysis may rank a move a hair off)."""
    if has_seeds(game) and best.margin is not None and played.margin is not None:
        return max(0.0, best.margin - played.margin)
    return max(0.0, points(best) - points(played))


def points(value: Expectation) -> float:
    """Expected score: a win 1, a draw 1/2, a loss 0."""
    return value.win + value.draw / 2


def _result(value: Expectation) -> int:
    return 1 if value.win >= 1 else (-1 if value.loss >= 1 else 0)


def grade(game: Game, loss: float, result_change: bool) -> str | None:
    found = None
    for name, limit in zip(GRADES, thresholds(game)):
        if loss >= limit - 1e-9:
            found = name
    if result_change and found in (None, "inaccuracy"):
        found = "mistake"
    return found


def judge(game: Game, index: int, state: State, move: Move, analysis: PositionAnalysis) -> Judged:
    """The move played from ``state`` against the analysis of ``state``."""
    best, played = analysis.best, analysis.of(move)
    if played is None:
        raise ReviewError(f"move {index + 1} is not among the legal moves the analysis valued")
    best_value, played_value = best.value, played.value
    loss = unit_loss(game, best_value, played_value) if played.move != best.move else 0.0
    change = best_value.proven and played_value.proven and _result(played_value) < _result(best_value)
    return Judged(index, game.to_move(state), move, move_name(game, state, move), best.move,
                  move_name(game, state, best.move), best_value, played_value, len(analysis.moves), loss,
                  grade(game, loss, change), change)


def _first_view(game: Game, state: State, value: Expectation) -> SeriesPoint:
    if game.to_move(state) == 0:
        return SeriesPoint(value.margin, points(value), value.proven)
    return SeriesPoint(None if value.margin is None else -value.margin, value.loss + value.draw / 2, value.proven)


def final_point(game: Game, state: State) -> SeriesPoint:
    """A finished game's result, the first player's view."""
    score = final_score(game, state, 0)
    value = expect(game, state, score if game.to_move(state) == 0 else -score, proven=True)
    return _first_view(game, state, value)


def summarise(game: Game, judged: Sequence[Judged | None]) -> tuple[PlayerSummary, ...]:
    blunder = thresholds(game)[2]
    found = []
    for player, name in enumerate(game.player_names):
        mine = [one for one in judged if one is not None and one.player == player and one.choices > 1]
        counts = tuple(sum(1 for one in mine if one.grade == kind) for kind in GRADES)
        if not mine:
            found.append(PlayerSummary(player, name, 0, None, None, (0, 0, 0)))
            continue
        accuracy = 100.0 * sum(max(0.0, 1.0 - one.loss / blunder) for one in mine) / len(mine)
        average = sum(one.loss for one in mine) / len(mine)
        found.append(PlayerSummary(player, name, len(mine), accuracy, average, counts))  # type: ignore[arg-type]
    return tuple(found)


def assemble(game: Game, states: Sequence[State], moves: Sequence[Move], judged: Sequence[Judged | None],
             complete: bool, tail: Expectation | None = None) -> Review:
    """The review from the moves judged so far; ``tail``: the value of the last position of a game still in play
    (its side to move's view)."""
    series: list[SeriesPoint | None] = []
    for index, state in enumerate(states):
        if game.is_terminal(state):
            series.append(final_point(game, state))
        elif index < len(judged) and judged[index] is not None:
            series.append(_first_view(game, state, judged[index].best))  # type: ignore[union-attr]
        elif index == len(states) - 1 and tail is not None:
            series.append(_first_view(game, state, tail))
        else:
            series.append(None)
    return Review(game, tuple(states), tuple(moves), tuple(series), tuple(judged), summarise(game, judged), complete)


ProgressFn = Callable[[int, int], None]


def review_game(game: Game, states: Sequence[State], moves: Sequence[Move], budget: Budget,
                cancel: CancelToken | None = None, progress: ProgressFn | None = None,
                judged_out: list[Judged | None] | None = None) -> Review:
    """Analyse every position of the game (blocking).  ``progress(done, total)`` after each position;
    ``cancel`` stops it (the review then holds the positions done).  ``judged_out``: filled as it goes, for a
    caller in another thread."""
    check_game(game, states, moves)
    cancel = cancel or CancelToken()
    analyser = _Analyser(game)
    judged: list[Judged | None] = judged_out if judged_out is not None else []
    judged[:] = [None] * len(moves)
    complete = True
    for index, move in enumerate(moves):
        if cancel.is_cancelled:
            complete = False
            break
        state = states[index]
        position_token = cancel if budget.seconds is None else _timed(cancel, budget.seconds)
        analysis = analyser.analyse(state, budget, position_token)
        if analysis is None:
            complete = False
            if cancel.is_cancelled:
                break
            continue
        judged[index] = judge(game, index, state, move, analysis)
        if progress is not None:
            progress(index + 1, len(moves))
    tail = None
    last = states[-1]
    if complete and not game.is_terminal(last):  # a game still in play: its graph ends at its position too
        position_token = cancel if budget.seconds is None else _timed(cancel, budget.seconds)
        found = analyser.analyse(last, budget, position_token)
        if found is not None:
            tail = found.best.value
    return assemble(game, states, moves, judged, complete, tail)


class _Linked(CancelToken):
    """A position's token: its own deadline, and cancelled with the review's token."""

    __slots__ = ("parent",)

    def __init__(self, parent: CancelToken, deadline: float) -> None:
        super().__init__(deadline)
        self.parent = parent
        self.flag = parent.flag  # the compiled search reads the review's flag in C
        self._event = parent._event


def _timed(cancel: CancelToken, seconds: float) -> CancelToken:
    import time

    return _Linked(cancel, time.perf_counter() + seconds)


@dataclass(frozen=True)
class ReviewProgress:
    done: int
    total: int
    finished: bool
    cancelled: bool
    error: str | None
    review: Review


class ReviewRun:
    """``review_game`` in a daemon thread: ``poll`` never blocks, ``cancel`` returns at once."""

    def __init__(self, game: Game, states: Sequence[State], moves: Sequence[Move], budget: Budget,
                 start: bool = True) -> None:
        check_game(game, states, moves)
        self.game, self.states, self.moves, self.budget = game, tuple(states), tuple(moves), budget
        self.token = CancelToken()
        self.judged: list[Judged | None] = [None] * len(moves)
        self.done_count = 0
        self.error: str | None = None
        self.final: Review | None = None
        self.thread = threading.Thread(target=self._run, name="review", daemon=True)
        if start:
            self.thread.start()

    def start(self) -> None:
        """Start the thread (when built with ``start=False``: a console that must be able to cancel it even
        when Ctrl-C comes while it starts)."""
        self.thread.start()

    def _run(self) -> None:
        def progress(done: int, total: int) -> None:
            self.done_count = done

        try:
            self.final = review_game(self.game, self.states, self.moves, self.budget, self.token, progress,
                                     self.judged)
        except Exception as error:  # noqa: BLE001 - reported to the screen as one line, never a traceback
            self.error = f"{type(error).__name__}: {error}"

    def poll(self) -> ReviewProgress:
        finished = not self.thread.is_alive()
        review = self.final if finished and self.final is not None else assemble(
            self.game, self.states, self.moves, list(self.judged), False)
        return ReviewProgress(self.done_count, len(self.moves), finished, self.token.is_cancelled, self.error,
                              review)

    def cancel(self) -> None:
        self.token.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the review is over (consoles and tests only, never a window's thread)."""
        if self.thread.ident is None:  # never started
            return True
        self.thread.join(timeout)
        return not self.thread.is_alive()
