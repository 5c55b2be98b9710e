"""One tournament game: the task a worker receives (``GameTask``) and the record it returns (``GameRecord``).

``play_game`` is the function every runner (``ai.cluster``) applies to a task: it builds both engines afresh
from their specs, plays from the task's opening with the task's seeds, and forfeits an engine that raises or
returns an illegal move (the record says why).  Tasks and records are plain, picklable values, so a game gives
the same record in this process, in a pool process or on a Dask worker.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import asdict, dataclass
from typing import Any

from ai.base import CancelToken, Limits, SearchAborted
from ai.registry import parse_engine_spec
from ai.worker import fallback_result
from rules import Game, Move, RulesError, State, parse_game_spec

OVERRUN_MARGIN = 0.010
"""Seconds a move may exceed its time limit before it counts as an overrun."""
MAX_PLIES = 20_000
"""A safety cap far above every game's own limit; a game reaching it is scored a draw (reason ``ply cap``)."""


@dataclass(frozen=True)
class GameTask:
    """Everything a process needs to play one game (plain, picklable values)."""

    index: int
    game: str
    specs: tuple[str, str]
    a_seat: int
    """The seat (0 = first player) engine A takes; B takes the other."""
    opening: int
    opening_moves: tuple[Move, ...]
    seeds: tuple[int | None, int | None]
    """Per engine A, B: the seed to give a seeded engine, or None to keep its spec's."""
    time_limit: float | None
    overrun_margin: float = OVERRUN_MARGIN
    max_plies: int = MAX_PLIES


@dataclass(frozen=True)
class MoveStats:
    """One engine's moves in one game."""

    moves: int = 0
    total_time: float = 0.0
    max_time: float = 0.0
    overruns: int = 0
    fallbacks: int = 0
    nodes: int = 0
    depth_sum: int = 0


@dataclass(frozen=True)
class GameRecord:
    """How one game went.  ``winner`` is "A", "B" or None (a draw)."""

    index: int
    opening: int
    a_seat: int
    winner: str | None
    reason: str
    scores: tuple[int, ...]
    plies: int
    stats: tuple[MoveStats, MoveStats]
    forfeit: str | None = None
    """Why a game was forfeited (an engine's exception or illegal move), or None."""
    moves: tuple[str, ...] = ()
    """Every move from the start, the opening's included, in the game's notation (``format_move``)."""


def _limit_for(params: dict[str, Any], time_limit: float | None) -> float | None:
    if time_limit is not None:
        return time_limit
    value = params.get("time")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _build(game: Game, spec: str, seed: int | None):
    info, params = parse_engine_spec(spec)
    if seed is not None and "seed" in params:
        params["seed"] = seed
    return info.load()(game, **params), params


def play_game(task: GameTask) -> GameRecord:
    """Play one game of the tournament (runs in a worker process, or in-process with one job)."""
    game = parse_game_spec(task.game)
    state: State = game.initial_state()
    moves: list[str] = []
    for move in task.opening_moves:
        moves.append(game.format_move(state, move))
        state = game.apply(state, move)
    built = [_build(game, spec, seed) for spec, seed in zip(task.specs, task.seeds)]
    limits = [_limit_for(params, task.time_limit) for _, params in built]
    stats = [dict(asdict(MoveStats())) for _ in built]
    seat_of = {task.a_seat: 0, 1 - task.a_seat: 1}  # seat -> engine index (0 = A, 1 = B)
    plies = 0
    forfeit: tuple[int, str] | None = None
    while not game.is_terminal(state) and plies < task.max_plies:
        who = seat_of[game.to_move(state)]
        engine, limit = built[who][0], limits[who]
        started = time.perf_counter()
        move_limits = Limits.requested(limit, started)  # one deadline for the move, from its request
        token = CancelToken(move_limits.deadline)
        try:
            try:
                found = engine.search(state, move_limits, token)
            except SearchAborted:
                found = None
            elapsed = time.perf_counter() - started
            result = fallback_result(game, state, found, elapsed)
            game.check_move(state, result.move)
        except Exception as error:  # noqa: BLE001 - a failing engine forfeits its game; the record says why
            forfeit = (who, f"{task.specs[who]}: {type(error).__name__}: {error}")
            if not isinstance(error, RulesError):
                forfeit = (who, forfeit[1] + "\n" + traceback.format_exc(limit=-3))
            break
        s = stats[who]
        s["moves"] += 1
        s["total_time"] += elapsed
        s["max_time"] = max(s["max_time"], elapsed)
        s["overruns"] += limit is not None and elapsed > limit + task.overrun_margin
        s["fallbacks"] += bool(result.info.get("fallback"))
        s["nodes"] += result.nodes
        s["depth_sum"] += result.depth
        moves.append(game.format_move(state, result.move))
        state = game.apply(state, result.move)
        plies += 1
    move_stats = (MoveStats(**stats[0]), MoveStats(**stats[1]))
    if forfeit is not None:
        loser, why = forfeit
        return GameRecord(task.index, task.opening, task.a_seat, "AB"[1 - loser], "forfeit", (), plies,
                          move_stats, why, tuple(moves))
    outcome = game.outcome(state)
    if outcome is None:  # the ply cap
        return GameRecord(task.index, task.opening, task.a_seat, None, "ply cap", (), plies, move_stats,
                          moves=tuple(moves))
    winner = None if outcome.winner is None else "AB"[seat_of[outcome.winner]]
    return GameRecord(task.index, task.opening, task.a_seat, winner, outcome.reason.value, tuple(outcome.scores),
                      plies, move_stats, moves=tuple(moves))


