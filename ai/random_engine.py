"""The random engine: a uniformly random legal move, from a seeded ``random.Random``."""
from __future__ import annotations

import random
import time

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchResult
from rules import Game, State


class RandomEngine(Engine):
    """Plays a uniformly random legal move.  The same seed and the same positions give the same moves."""

    name = "random"
    kind = "any"

    def __init__(self, game: Game, seed: int = 0) -> None:
        super().__init__(game, seed=seed)
        self.rng = random.Random(seed)

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        started = time.perf_counter()
        moves = self.game.legal_moves(state)
        move = self.rng.choice(moves) if moves else None
        return SearchResult(move, 0.0, 0, len(moves), (move,) if moves else (), time.perf_counter() - started)
