"""What the analysis panel shows, less the drawing: the analysis of the position on the board and the values of
the game's positions for the evaluation graph.  Nothing here imports arcade, and nothing here waits.

``AnalysisFeed.follow(state)`` keeps one ``game.analysis.Analysis`` running on the position shown: a new
position cancels the old analysis and starts another; ``stop`` cancels it (the panel closes, the screen is
left).  ``poll`` reads its latest snapshot (never blocks) and the best move's value becomes that position's
point on the graph.

The graph has one value per position of the game so far, from South's (Black's) side.  They come, best first,
from the analysis of the position (deepest), the computer's own search when it moved there, and otherwise from
``game.analysis.position_value`` run in one background daemon thread, a position at a time, only while the
panel is shown (``fill``).  A finished game's position is valued by its outcome at once.
"""
from __future__ import annotations

import math
import queue
import threading
from dataclasses import dataclass
from typing import Any, Sequence

from ai.evaluators import final_score
from game.analysis import Analysis, Snapshot, position_value
from rules import Game, State

QUICK, COMPUTER, ANALYSIS = 0, 1, 2
"""Where a graph value came from, the better source last: a newer value from a worse source is ignored."""


@dataclass(frozen=True)
class GraphValue:
    """One position's value from South's (Black's) side, whether it is proven, and where it came from."""

    score: float
    proven: bool
    source: int


class AnalysisFeed:
    """The analysis of the shown position and the graph's values for one game screen."""

    def __init__(self, game: Game, seconds: float | None = None, quick_seconds: float = 0.2) -> None:
        self.game = game
        self.seconds = seconds
        """The analysis's time per position (None: until it finishes or is cancelled); tests shorten it."""
        self.quick_seconds = quick_seconds
        """The background value's time per position of the graph."""
        self.analysis: Analysis | None = None
        self.state: State | None = None
        """The position analysed (None: none)."""
        self.snapshot: Snapshot | None = None
        self.values: dict[State, GraphValue] = {}
        self._results: queue.SimpleQueue[tuple[State, float, bool]] = queue.SimpleQueue()
        self._quick: threading.Thread | None = None
        self._quick_stop = threading.Event()
        self._computer_seen: Any = None

    # -- the shown position -----------------------------------------------------------------------------------
    def follow(self, state: State) -> None:
        """Analyse ``state`` (nothing new when it is already the one analysed; a finished game is not searched)."""
        if self.state is not None and state == self.state:
            return
        self.cancel()
        self.state = state
        if self.game.is_terminal(state):
            self.record(state, final_score(self.game, state, 0), True, ANALYSIS)
        else:
            self.analysis = Analysis(self.game, state, self.seconds)

    def cancel(self) -> None:
        """Stop the analysis (its thread finishes on its own); the next ``follow`` starts afresh."""
        if self.analysis is not None:
            self.analysis.cancel()
        self.analysis, self.state, self.snapshot = None, None, None

    def stop(self) -> None:
        """Stop every background search: the analysis and the graph's values."""
        self.cancel()
        self._quick_stop.set()
        self._quick = None

    def poll(self) -> Snapshot | None:
        """The latest snapshot of the analysis (kept once seen), its best value recorded for the graph."""
        if self.analysis is None or self.state is None:
            return self.snapshot
        snapshot = self.analysis.poll()
        if snapshot is not None and snapshot is not self.snapshot:
            self.snapshot = snapshot
            best = snapshot.moves[0] if snapshot.moves else None
            if best is not None and not math.isnan(best.score):
                self.record(self.state, self.south_view(self.state, best.score), best.proven, ANALYSIS)
        return self.snapshot

    @property
    def is_searching(self) -> bool:
        return self.analysis is not None and (self.snapshot is None or not self.snapshot.finished)

    # -- the graph --------------------------------------------------------------------------------------------
    def south_view(self, state: State, score: float) -> float:
        """A score from the side to move in ``state`` as South's (Black's)."""
        return score if self.game.to_move(state) == 0 else -score

    def record(self, state: State, score: float, proven: bool, source: int) -> None:
        """``state``'s value from South's side, unless a better source (or a proof) already gave one."""
        known = self.values.get(state)
        if known is not None and (known.proven and not proven or known.source > source):
            return
        self.values[state] = GraphValue(score, proven, source)

    def note_computer(self, result: tuple[State, Any] | None) -> None:
        """The computer's last search (the position it moved in and its ``SearchResult``): its score is that
        position's value, read once."""
        if result is None or result is self._computer_seen:
            return
        self._computer_seen = result
        state, search = result
        self.record(state, self.south_view(state, search.score), bool(search.exhaustive), COMPUTER)

    def fill(self, states: Sequence[State]) -> None:
        """Value the positions of ``states`` that have none yet, one at a time in a background thread (results
        are taken in the next calls)."""
        while True:
            try:
                state, score, proven = self._results.get_nowait()
            except queue.Empty:
                break
            self.record(state, score, proven, QUICK)
        for state in states:
            if state not in self.values and self.game.is_terminal(state):
                self.record(state, final_score(self.game, state, 0), True, QUICK)
        if self._quick is not None and self._quick.is_alive():
            return
        missing = [state for state in dict.fromkeys(states) if state not in self.values]
        if not missing:
            return
        self._quick_stop = threading.Event()
        self._quick = threading.Thread(target=self._value_all, args=(missing, self._quick_stop), daemon=True,
                                       name="graph-values")
        self._quick.start()

    def _value_all(self, states: list[State], stop: threading.Event) -> None:
        """The background thread: each position's quick value, until done or stopped."""
        for state in states:
            if stop.is_set():
                return
            try:
                score, proven = position_value(self.game, state, self.quick_seconds)
            except Exception:  # noqa: BLE001 - a failed value leaves a gap in the graph, never a crash
                continue
            if not stop.is_set():
                self._results.put((state, score, proven))

    def points(self, states: Sequence[State]) -> list[GraphValue | None]:
        """The graph's values of ``states`` in order (None: not known yet)."""
        return [self.values.get(state) for state in states]
