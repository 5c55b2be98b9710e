"""STAND-IN for the analysis API (``notes/analysis_api.md``) until branch ``analysis`` is merged: the same
dataclasses and signatures, with a plain body (each legal move searched one ply shallower by the default
engine, deepening one ply at a time in a daemon thread), so the analysis panel can be built and tested.
The merge takes the real module's text.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ai import registry
from ai.base import CancelToken, Limits, SearchAborted
from ai.evaluators import HEURISTIC_BOUND, WIN, final_score
from game import explain
from rules import Game, Move, State


@dataclass(frozen=True)
class MoveValue:
    move: Move
    name: str
    score: float
    proven: bool
    depth: int
    words: str


@dataclass(frozen=True)
class Snapshot:
    moves: tuple[MoveValue, ...]
    depth: int
    finished: bool


def value_words(game: Game, score: float, proven: bool, depth: int) -> str:
    if proven or abs(score) >= HEURISTIC_BOUND:
        margin = abs(score) - WIN if abs(score) >= HEURISTIC_BOUND else 0.0
        if abs(score) < HEURISTIC_BOUND:
            return "draws (proven)"
        return f"{'wins' if score > 0 else 'loses'} by {margin:g} (proven)"
    return f"about {score:+.1f} ({depth} plies)"


class Analysis:
    """Analyses one position in the background (a daemon thread, cancellable)."""

    MAX_DEPTH = 30

    def __init__(self, game: Game, state: State, seconds: float | None = None) -> None:
        self.game, self.state = game, state
        deadline = None if seconds is None else time.perf_counter() + seconds
        self.token = CancelToken(deadline)
        self._latest: Snapshot | None = None
        self._lock = threading.Lock()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        game, state = self.game, self.state
        engine = registry.make_engine(game, "pvs")
        moves = game.legal_moves(state)
        mover = game.to_move(state)
        for depth in range(1, self.MAX_DEPTH + 1):
            values = []
            try:
                for move in moves:
                    child = game.apply(state, move)
                    if game.is_terminal(child):
                        score, proven = final_score(game, child, mover), True
                    else:
                        result = engine.search(child, Limits(depth=depth - 1) if depth > 1 else Limits(depth=1),
                                               self.token)
                        sign = 1 if game.to_move(child) == mover else -1
                        score, proven = sign * result.score, result.exhaustive
                    values.append(MoveValue(move, explain.move_name(game, state, move), score, proven, depth,
                                            value_words(game, score, proven, depth)))
            except SearchAborted:
                self._publish(None, depth - 1, True)
                return
            values.sort(key=lambda value: -value.score)
            finished = all(value.proven for value in values) or depth == self.MAX_DEPTH or self.token.expired()
            self._publish(tuple(values), depth, finished)
            if finished:
                return

    def _publish(self, moves: tuple[MoveValue, ...] | None, depth: int, finished: bool) -> None:
        with self._lock:
            if moves is None:
                if self._latest is not None:
                    self._latest = Snapshot(self._latest.moves, self._latest.depth, True)
                return
            self._latest = Snapshot(moves, depth, finished)

    def poll(self) -> Snapshot | None:
        with self._lock:
            return self._latest

    def cancel(self) -> None:
        self.token.cancel()


def position_value(game: Game, state: State, seconds: float = 0.2) -> tuple[float, bool]:
    if game.is_terminal(state):
        return final_score(game, state, 0), True
    engine = registry.make_engine(game, "pvs")
    result = engine.search(state, Limits(time=seconds))
    sign = 1 if game.to_move(state) == 0 else -1
    return sign * result.score, bool(result.exhaustive)

