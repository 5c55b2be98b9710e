"""The quick hint (Settings' ``hint_helper: quick``): the hint engine's best move, then every other move scored to
the same horizon, so the advice can say how much better it is than the next best ("best by a clear margin",
"about as good as pit 3").  The default hint is not this but the analysis of the position (``ai.analysis``,
``MatchController.hint``): the program's best advice, the one the analysis panel shows.

``RankedSearch`` wraps any two-player engine as an engine itself, so it runs in an ``ai.worker.SearchWorker``
like any other.  The best move gets most of the time; what is left is shared among the other moves, each
searched one ply shallower from the position it leads to (the same horizon from the root).  Their scores
(from the hint's mover's side) go to ``result.info["alternatives"]``; moves not scored in time are left out.

Given a ``prover`` (an engine with ``prove(state, seconds, cancel)``, such as ``ai.perfect.PerfectEngine``), the
hint first asks it for the exact value within ``PROVE_SHARE`` of its time: a proven move needs no comparison.
Only when that fails does the hint engine search, in the time left.
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
PROVE_SHARE = 0.5
"""The share of a Kalah hint's time the tables and the prover get before the hint engine searches."""


class RankedSearch(Engine):
    """Another engine's search, with every root move scored."""

    name = "ranked"
    kind = "any"

    def __init__(self, inner: Engine, prover: Engine | None = None) -> None:
        super().__init__(inner.game)
        self.inner = inner
        self.prover = prover
        """Asked first for a proof; None: the search only."""

    def __repr__(self) -> str:
        return repr(self.inner)

    def search(self, state: State, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
        limits = limits or Limits()
        started = time.monotonic()
        budget = limits.time
        if self.prover is not None and budget is not None and limits.depth is None:
            proved = self.prover.prove(state, budget * PROVE_SHARE, cancel)  # type: ignore[attr-defined]
            if proved is not None:
                return proved
            budget = max(0.001, budget - (time.monotonic() - started))
            started = time.monotonic()
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
