"""A tournament's openings: balanced random move prefixes, and their text form (for checkpoints and JSON)."""
from __future__ import annotations

import random
import time

from ai.base import CancelToken, EngineError, Limits
from ai.game_play import MAX_PLIES
from ai.registry import engines as registered_engines, parse_engine_spec
from rules import Game, Move, State

JUDGES = ("alphabeta:depth=6", "pvs:depth=6", "minimax:depth=4", "greedy")
"""Engines tried, in order, to judge candidate openings when no judge is named; random playouts otherwise."""


def _default_judge(game: Game) -> str | None:
    available = {info.name for info in registered_engines(game)}
    for spec in JUDGES:
        name = spec.partition(":")[0]
        if name in available:
            try:
                parse_engine_spec(spec)
            except EngineError:
                continue
            return spec
    return None


def _playout_value(game: Game, state: State, rng: random.Random, playouts: int = 24) -> float:
    """Mean final margin of random playouts, from the side to move (a judge when no engine can judge)."""
    me = game.to_move(state)
    total = 0.0
    for _ in range(playouts):
        current = state
        for _ in range(MAX_PLIES):
            if game.is_terminal(current):
                break
            current = game.apply(current, rng.choice(game.legal_moves(current)))
        outcome = game.outcome(current)
        total += outcome.margin(me) if outcome is not None else 0.0
    return total / playouts


def balanced_openings(
    game: Game, count: int, *, plies: int = 4, seed: int = 0, judge: str | None = None, pool: int = 4
) -> list[tuple[Move, ...]]:
    """``count`` distinct random ``plies``-move prefixes whose judged value is nearest 0.

    ``pool * count`` distinct candidates are drawn from the start (no finished positions, no position
    twice) and scored by ``judge`` (an engine spec; by default the first of ``JUDGES`` that is registered,
    else the mean margin of random playouts).  Ranking by closeness to 0 needs no knowledge of the judge's
    units.  The chosen prefixes are returned in the order they were drawn.
    """
    if count <= 0:
        return []
    rng = random.Random(seed)
    judge = judge if judge is not None else _default_judge(game)
    engine = None
    if judge is not None:
        info, params = parse_engine_spec(judge)
        if not info.suits(game):
            raise EngineError(f"the opening judge {judge} does not play {game.title}")
        engine = info.load()(game, **params)
    candidates: list[tuple[tuple[Move, ...], State]] = []
    seen: set = set()
    for _ in range(200 * pool * count):
        if len(candidates) >= pool * count:
            break
        state, moves = game.initial_state(), []
        for _ in range(plies):
            if game.is_terminal(state):
                break
            move = rng.choice(game.legal_moves(state))
            moves.append(move)
            state = game.apply(state, move)
        key = game.key(state)
        if game.is_terminal(state) or key in seen:
            continue
        seen.add(key)
        candidates.append((tuple(moves), state))
    scored = []
    for order, (prefix, state) in enumerate(candidates):
        if engine is not None:
            value = engine.search(state, Limits(time=2.0), CancelToken(time.perf_counter() + 2.0)).score
        else:
            value = _playout_value(game, state, rng)
        scored.append((abs(value), order, prefix))
    chosen = sorted(scored)[:count]
    return [moves for _, _, moves in sorted(chosen, key=lambda item: item[1])]


def opening_text(game: Game, moves: tuple[Move, ...]) -> list[str]:
    """An opening as move text, in the game's notation (how checkpoints and JSON keep it)."""
    state, texts = game.initial_state(), []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return texts


def parse_opening(game: Game, texts: list[str]) -> tuple[Move, ...]:
    """The moves of an opening written by ``opening_text`` (RulesError for text that is not a legal line)."""
    state, moves = game.initial_state(), []
    for text in texts:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.apply(state, move)
    return tuple(moves)
