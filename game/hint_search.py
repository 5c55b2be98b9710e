"""The hint's search: the hint engine's best move, then every other move scored to the same horizon, so the
advice can say how much better it is than the next best ("best by a clear margin", "about as good as pit 3").

``RankedSearch`` wraps any two-player engine as an engine itself, so it runs in an ``ai.worker.SearchWorker``
like any other.  The best move gets most of the time; what is left is shared among the other moves, each
searched one ply shallower from the position it leads to (the same horizon from the root).  Their scores
(from the hint's mover's side) go to ``result.info["alternatives"]``; moves not scored in time are left out.
"""
from __future__ import annotations

import time
from dataclasses import replace

from ai.base import CancelToken, Engine, Limits, ProgressCallback, SearchResult
from ai.evaluators import final_score
from game.explain import QUICK_DEPTH
from rules import State

BEST_SHARE = 0.6
"""The share of the time the best move's search gets."""


class RankedSearch(Engine):
    """Another engine's search, with every root move scored."""

    name = "ranked"
    kind = "any"

    def __init__(self, inner: Engine) -> None:
        super().__init__(inner.game)
        self.inner = inner

    def __repr__(self) -> str:
        return repr(self.inner)

    def search(self, state: State, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
        limits = limits or Limits()
        started = time.monotonic()
        budget = limits.time
        best = self.inner.search(state, replace(limits, time=None if budget is None else budget * BEST_SHARE),
                                 cancel, progress)
        game = self.game
        mover = game.to_move(state)
        others = [move for move in game.legal_moves(state) if move != best.move]
        alternatives: dict = {}
        if best.move is None or best.depth <= QUICK_DEPTH or not others:
            return best  # nothing to compare, or a search too shallow for the comparison to mean much
        for move in others:
            if cancel is not None and cancel.expired():
                break
            after = game.apply(state, move)
            if game.is_terminal(after):
                alternatives[move] = final_score(game, after, mover)
                continue
            left = None if budget is None else budget * 0.95 - (time.monotonic() - started)
            if left is not None and left <= 0:
                break
            share = None if left is None else left / (len(others) - len(alternatives))
            found = self.inner.search(after, Limits(depth=max(1, best.depth - 1), time=share), cancel)
            if found.depth < max(1, best.depth - 1) and not found.exhaustive:
                continue  # not searched to the same horizon: not comparable
            alternatives[move] = found.score if game.to_move(after) == mover else -found.score
        return replace(best, info={**best.info, "alternatives": alternatives})
