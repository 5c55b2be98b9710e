"""The random engine: a uniformly random legal move, from a seeded ``random.Random``.

The generator is seeded from the seed *and the position*, so the engine is deterministic for a given position
and settings (as a computer player must be) while still varying its choices from one position to the next,
even when a fresh engine is built for every move.
"""
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
        self.seed = seed

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        started = time.perf_counter()
        moves = self.game.legal_moves(state)
        rng = random.Random(f"{self.seed}:{self.game.to_text(state)}")
        move = rng.choice(moves) if moves else None
        return SearchResult(move, 0.0, 0, len(moves), (move,) if moves else (), time.perf_counter() - started)
